//! `springboard match` driven end to end with the 1-ply material player
//! (fast) and with small misbehaving engines written as shell scripts: one
//! that dies, one that never answers, one too slow for its clock and one
//! that plays an illegal move. Every fault loses the game (but a flag
//! fall against a side whose opponent cannot mate, a draw), is counted and
//! the match goes on (each game starts its engines afresh).

use springboard_rules::notation::pgn::{self, VariantHint};
use std::path::PathBuf;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_springboard");

fn material1() -> String {
    format!("{BIN} uci --player material1")
}

/// Runs `springboard match` with `args`; its exit success and output.
fn run_match(args: &[&str]) -> (bool, String) {
    let out = Command::new(BIN).arg("match").args(args).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    (out.status.success(), text)
}

/// The final report: the output from its `Games:` line on.
fn report(text: &str) -> &str {
    let at = text
        .rfind("\nGames: ")
        .unwrap_or_else(|| panic!("no report in {text}"));
    &text[at + 1..]
}

/// A UCI "engine" in `sh`: it answers the handshake and does `on_go` when
/// told to search. Written to the test's temporary directory.
fn script_engine(name: &str, on_go: &str) -> String {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let path = dir.join(format!("arena-{name}.sh"));
    let text = format!(
        "while read -r line; do\n\
         case \"$line\" in\n\
         uci) echo 'id name {name}'; echo 'option name UCI_Variant type combo default chess var chess var hoplit'; echo uciok ;;\n\
         isready) echo readyok ;;\n\
         go*) {on_go} ;;\n\
         quit) exit 0 ;;\n\
         esac\n\
         done\n"
    );
    std::fs::write(&path, text).unwrap();
    format!("sh {}", path.display())
}

#[test]
fn material1_self_play_at_fixed_nodes_in_every_game() {
    for variant in ["chess", "hopchess", "trampoline", "jumpingking", "hoplit"] {
        let pgn_path =
            PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("arena-self-{variant}.pgn"));
        let _ = std::fs::remove_file(&pgn_path);
        let (ok, text) = run_match(&[
            "--engine1",
            &material1(),
            "--engine2",
            &material1(),
            "--variant",
            variant,
            "--nodes",
            "1",
            "--games",
            "2",
            "--max-plies",
            "60",
            "--pgn",
            pgn_path.to_str().unwrap(),
        ]);
        assert!(ok, "{variant}: {text}");
        let r = report(&text);
        assert!(r.starts_with("Games: 2\n"), "{variant}: {r}");
        assert!(
            r.contains("engine1 (Springboard material1 ") && r.contains("White (moves first): "),
            "{variant}: {r}"
        );
        for line in [
            "Illegal moves: 0 (engine1 0, engine2 0)",
            "Crashes: 0 (engine1 0, engine2 0)",
            "Time losses: 0 (engine1 0, engine2 0)",
        ] {
            assert!(r.contains(line), "{variant}: {r}");
        }
        let games = text.lines().filter(|l| l.starts_with("Game ")).count();
        assert_eq!(games, 2, "{variant}: {text}");
        // The engine's games read back with the rules core's PGN reader
        // (issue 11): each one of this game, with its tags and result.
        let pgn_text = std::fs::read_to_string(&pgn_path).unwrap();
        let read = pgn::read_all(&pgn_text, VariantHint::Any);
        assert_eq!(read.len(), 2, "{variant}: {pgn_text}");
        for game in read {
            let (game, tags) = game.unwrap_or_else(|e| panic!("{variant}: {e}\n{pgn_text}"));
            assert_eq!(game.start().variant().name(), variant);
            assert!(!game.moves().is_empty(), "{variant}: {pgn_text}");
            assert!(tags
                .get("White")
                .unwrap()
                .starts_with("Springboard material1 "));
            assert_eq!(tags.get("WhiteType"), Some("program"));
            assert_eq!(tags.get("TimeControl"), Some("-"));
            assert!(["1-0", "0-1", "1/2-1/2"].contains(&tags.get("Result").unwrap()));
        }
    }
}

#[test]
fn a_dying_engine_loses_and_the_match_goes_on() {
    let crasher = script_engine("Crasher", "exit 3");
    let (ok, text) = run_match(&[
        "--engine1",
        &crasher,
        "--engine2",
        &material1(),
        "--games",
        "4",
        "--tc",
        "5+0.1",
    ]);
    assert!(ok, "{text}");
    assert_eq!(
        text.matches("Crasher fails: engine Crasher closed its output")
            .count(),
        4,
        "{text}"
    );
    let r = report(&text);
    assert!(
        r.contains(": 0 wins, 0 draws, 4 losses, score 0.0%\n"),
        "{r}"
    );
    // Engine1 is White in games 1 and 3: it dies on move 1 and Black wins.
    assert!(
        r.contains("White (moves first): 2 wins, 0 draws, 2 losses, score 50.0%\n"),
        "{r}"
    );
    assert!(r.contains("Crashes: 4 (engine1 4, engine2 0)\n"), "{r}");
    assert!(
        r.contains("Illegal moves: 0 (engine1 0, engine2 0)\n"),
        "{r}"
    );
}

#[test]
fn an_engine_dying_mid_game_loses_it() {
    // The material player behind a pipe that ends (so the engine quits)
    // when the third `go` arrives: it plays two moves and dies in the game.
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let path = dir.join("arena-midgame.sh");
    let text = format!(
        "n=0\n\
         while read -r line; do\n\
         case \"$line\" in go*) n=$((n+1)); [ $n -ge 3 ] && exit 0 ;; esac\n\
         echo \"$line\"\n\
         done | {BIN} uci --player material1\n"
    );
    std::fs::write(&path, text).unwrap();
    let pgn = dir.join("arena-midgame.pgn");
    let _ = std::fs::remove_file(&pgn);
    let (ok, text) = run_match(&[
        "--engine1",
        &material1(),
        "--engine2",
        &format!("sh {}", path.display()),
        "--games",
        "2",
        "--nodes",
        "1",
        "--random-plies",
        "0",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert!(ok, "{text}");
    let name = format!("Springboard material1 {}", env!("CARGO_PKG_VERSION"));
    for (game, result) in [(1, "1-0"), (2, "0-1")] {
        let line = format!(
            "Game {game} ({name} vs {name}): {result} {{{name} fails: engine {name} closed its output (crashed or quit)}}"
        );
        assert!(text.contains(&line), "{line}\n{text}");
    }
    // Game 1: it is Black and dies at ply 6 (5 played); game 2: White, at
    // ply 5 (4 played).
    let pgn = std::fs::read_to_string(&pgn).unwrap();
    let plies: Vec<usize> = pgn
        .split("[Event ")
        .skip(1)
        .map(|g| {
            let moves = g.split("\n\n").nth(1).unwrap();
            let moves = &moves[..moves.find('{').unwrap()];
            moves
                .split_whitespace()
                .filter(|t| !t.ends_with('.'))
                .count()
        })
        .collect();
    assert_eq!(plies, [5, 4], "{pgn}");
    let r = report(&text);
    assert!(r.contains("Crashes: 2 (engine1 0, engine2 2)\n"), "{r}");
    assert!(
        r.contains(": 2 wins, 0 draws, 0 losses, score 100.0%\n"),
        "{r}"
    );
}

#[test]
fn silence_at_fixed_nodes_is_a_crash_and_slowness_on_the_clock_a_time_loss() {
    let mute = script_engine("Mute", ":");
    let (ok, text) = run_match(&[
        "--engine1",
        &material1(),
        "--engine2",
        &mute,
        "--games",
        "1",
        "--nodes",
        "100",
        "--move-timeout",
        "1",
        "--random-plies",
        "0",
    ]);
    assert!(ok, "{text}");
    assert!(text.contains("Mute gives no bestmove within 1 s"), "{text}");
    let r = report(&text);
    assert!(r.contains("Crashes: 1 (engine1 0, engine2 1)\n"), "{r}");
    assert!(r.contains("Time losses: 0 (engine1 0, engine2 0)\n"), "{r}");
    assert!(
        r.contains(": 1 wins, 0 draws, 0 losses, score 100.0%\n"),
        "{r}"
    );

    let slow = script_engine("Slow", "sleep 0.3; echo 'bestmove a1a1'");
    let (ok, text) = run_match(&[
        "--engine1",
        &slow,
        "--engine2",
        &material1(),
        "--games",
        "1",
        "--tc",
        "0.1+0",
    ]);
    assert!(ok, "{text}");
    assert!(
        text.contains("Slow loses on time (had 100 ms, used "),
        "{text}"
    );
    let r = report(&text);
    assert!(r.contains("Time losses: 1 (engine1 1, engine2 0)\n"), "{r}");
    assert!(r.contains("Crashes: 0 (engine1 0, engine2 0)\n"), "{r}");
}

#[test]
fn a_flag_fall_draws_when_the_other_side_cannot_mate() {
    // Issue 46: White (Slow) flags with a queen against a bare king; Black
    // cannot mate, so it is a draw, as in FIDE's rules (still a time fault).
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let openings = dir.join("arena-bare-king.txt");
    std::fs::write(&openings, "4k3/8/8/8/8/8/8/3QK3 w - - 0 1\n").unwrap();
    let slow = script_engine("Slow", "sleep 0.3; echo 'bestmove a1a1'");
    let (ok, text) = run_match(&[
        "--engine1",
        &slow,
        "--engine2",
        &material1(),
        "--games",
        "1",
        "--tc",
        "0.1+0",
        "--openings",
        openings.to_str().unwrap(),
    ]);
    assert!(ok, "{text}");
    assert!(
        text.contains("Slow runs out of time (had 100 ms, used ")
            && text.contains(" cannot mate: a draw"),
        "{text}"
    );
    let r = report(&text);
    assert!(r.contains("Time losses: 1 (engine1 1, engine2 0)\n"), "{r}");
    assert!(
        r.contains(": 0 wins, 1 draws, 0 losses, score 50.0%\n"),
        "{r}"
    );
}

#[test]
fn an_illegal_move_loses_and_is_counted() {
    let bad = script_engine("Bad", "echo 'info score cp 5'; echo 'bestmove a1a1'");
    let (ok, text) = run_match(&[
        "--engine1",
        &material1(),
        "--engine2",
        &bad,
        "--variant",
        "hoplit",
        "--games",
        "2",
        "--depth",
        "1",
    ]);
    assert!(ok, "{text}");
    assert_eq!(
        text.matches("Bad plays an illegal move 'a1a1'").count(),
        2,
        "{text}"
    );
    let r = report(&text);
    assert!(
        r.contains("Illegal moves: 2 (engine1 0, engine2 2)\n"),
        "{r}"
    );
    assert!(
        r.contains(": 2 wins, 0 draws, 0 losses, score 100.0%\n"),
        "{r}"
    );
    assert!(
        r.ends_with("Adjudications: 0 (resign 0, draw 0, max plies 0)\n"),
        "{r}"
    );
}

#[test]
fn max_seconds_bounds_a_run() {
    let (ok, text) = run_match(&[
        "--engine1",
        &material1(),
        "--engine2",
        &material1(),
        "--games",
        "4",
        "--max-seconds",
        "0",
    ]);
    assert!(ok, "{text}");
    assert!(
        text.starts_with(
            "Openings: suite openings/chess.txt (built in): 500 positions, shuffled by seed 1, \
             each played with both colours\n\
             Stopped early (--max-seconds or SPRT): 0 of 4 games\nGames: 0\n"
        ),
        "{text}"
    );
}

/// The same engine against itself at fixed nodes plays each pair's two
/// games move for move: every pair scores 1 of 2, and the SPRT on pairs
/// accepts H0 at 10 pairs (it cannot pass).
#[test]
fn an_engine_against_itself_fails_the_sprt_on_pairs() {
    let (ok, text) = run_match(&[
        "--engine1",
        &material1(),
        "--engine2",
        &material1(),
        "--variant",
        "hoplit",
        "--nodes",
        "1",
        "--games",
        "100",
        "--sprt",
        "0,10,0.05,0.05",
    ]);
    assert!(ok, "{text}");
    assert!(
        text.contains("Openings: suite openings/hoplit.txt (built in): 500 positions"),
        "{text}"
    );
    // Decided at 10 pairs, the fewest it decides on; the pair under way
    // when the decision came is played out.
    assert!(
        text.contains("Ptnml(0-2): 0, 0, 10, 0, 0\nSPRT (0, 10, alpha 0.05, beta 0.05): LLR -16.57 (bounds -2.94, 2.94) H0 accepted\n"),
        "{text}"
    );
    assert!(
        text.contains("Stopped early (--max-seconds or SPRT): "),
        "{text}"
    );
    assert!(
        text.contains("\nSPRT result: Failed (H0 accepted)\n"),
        "{text}"
    );
    let ptnml = text.lines().last().unwrap();
    assert!(ptnml.starts_with("Elo: +0.0 "), "{text}");
}
