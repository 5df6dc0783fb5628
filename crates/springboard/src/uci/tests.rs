//! The UCI session driven line by line.

use super::*;
use crate::searcher::out;
use springboard_engine::Strength;
use springboard_rules::notation::uci::parse_uci;
use springboard_rules::Move;
use std::sync::{Arc, Mutex};

/// An output the test reads back.
#[derive(Clone, Default)]
pub(crate) struct Buffer(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Buffer {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Buffer {
    /// Everything written since the last call.
    pub(crate) fn take(&self) -> String {
        String::from_utf8(std::mem::take(&mut *self.0.lock().unwrap())).unwrap()
    }
}

#[test]
fn setoption_arguments_are_read_as_the_session_reads_them() {
    assert_eq!(
        parse_setoption("name  UCI_Variant value  hopchess "),
        Ok(("UCI_Variant", Some("hopchess")))
    );
    assert_eq!(parse_setoption("name Clear Hash"), Ok(("Clear Hash", None)));
    assert_eq!(
        parse_setoption("name Move Overhead value 50"),
        Ok(("Move Overhead", Some("50")))
    );
    assert!(parse_setoption("Hash value 16").is_err());
}

fn session() -> (Session, Buffer) {
    let buffer = Buffer::default();
    (Session::new(out(buffer.clone()), Player::Full), buffer)
}

struct Talk(Session, Buffer);

fn talk(t: &mut Talk, line: &str) -> String {
    t.0.handle(line).unwrap();
    t.1.take()
}

/// Sends `line`, waits for the search it starts and returns the output.
fn talk_wait(t: &mut Talk, line: &str) -> String {
    t.0.handle(line).unwrap();
    t.0.wait().unwrap();
    t.1.take()
}

fn new_talk() -> Talk {
    let (s, b) = session();
    Talk(s, b)
}

/// The move of the `bestmove` line, checked legal in `pos`.
fn bestmove(out: &str, pos: &Position) -> Move {
    let line = out
        .lines()
        .find(|l| l.starts_with("bestmove "))
        .unwrap_or_else(|| panic!("no bestmove in {out}"));
    let text = line.split_whitespace().nth(1).unwrap();
    parse_uci(pos, text).unwrap_or_else(|e| panic!("{line}: {e}"))
}

#[test]
fn go_perft_runs_in_the_search_thread() {
    let mut t = new_talk();
    talk(&mut t, "setoption name UCI_Variant value hopchess");
    talk(&mut t, "position startpos moves e2e4 e7e5@d5");
    // Issue 16, item 2: the deepest perft runs where commands still work.
    assert_eq!(talk(&mut t, &format!("go perft {PERFT_MAX}")), "");
    assert!(t.0.searcher.is_running());
    assert_eq!(talk(&mut t, "isready"), "readyok\n");
    let out = talk(&mut t, "stop");
    assert!(
        out.starts_with("info string perft stopped: ") && !out.contains("Nodes searched"),
        "{out}"
    );
    assert!(!t.0.searcher.is_running());
    // `quit` lets it count to its end (Stockfish's convention).
    talk(&mut t, "position startpos");
    talk(&mut t, "go perft 2");
    assert_eq!(t.0.handle("quit").unwrap(), Flow::Quit);
    assert!(!t.0.searcher.is_running());
    let out = t.1.take();
    assert!(out.ends_with("\n\nNodes searched: 12788\n\n"), "{out}");
    // Deeper than PERFT_MAX is refused.
    let out = talk(&mut t, "go perft 64");
    assert_eq!(
        out,
        format!("info string bad perft depth '64' (a whole number from 0 to {PERFT_MAX})\n")
    );
    assert!(!t.0.searcher.is_running());
    // Depth 0 counts the position itself, as `perft --depth 0` does.
    assert_eq!(talk_wait(&mut t, "go perft 0"), "\nNodes searched: 1\n\n");
}

#[test]
fn end_of_input_stops_infinite_search_and_waits_for_perft() {
    for go in [
        "go perft 3",
        "go infinite",
        "go ponder wtime 1000 btime 1000",
    ] {
        let buffer = Buffer::default();
        let input = format!("position startpos moves e2e4\n{go}\n");
        run(input.as_bytes(), out(buffer.clone()), Player::Full).unwrap();
        let text = buffer.take();
        if go.contains("perft") {
            assert!(text.ends_with("\n\nNodes searched: 13160\n\n"), "{text}");
        } else {
            let mut pos = Position::startpos(Variant::Chess);
            pos.play(parse_uci(&pos, "e2e4").unwrap());
            bestmove(&text, &pos);
        }
    }
}

#[test]
fn go_is_refused_after_a_refused_position() {
    let mut t = new_talk();
    talk(&mut t, "position startpos moves e2e4");
    // Issue 16, item 3: the side not to move is in check.
    let out = talk(&mut t, "position fen k7/8/8/8/8/8/8/QQQQQQQK w - - 0 1");
    assert!(out.starts_with("info string bad position 'k7/8/"), "{out}");
    let out = talk_wait(&mut t, "go depth 6");
    assert!(
        out.starts_with("info string error: no position to search, the last position command was refused (bad position 'k7/8/"),
        "{out}"
    );
    assert!(out.ends_with(")\nbestmove 0000\n"), "{out}");
    assert_eq!(out.lines().count(), 2, "{out}");
    // Perft answers no bestmove.
    let out = talk_wait(&mut t, "go perft 1");
    assert!(out.starts_with("info string error: no position") && !out.contains("bestmove"));
    // An illegal move refuses the whole command.
    talk(&mut t, "position startpos");
    talk(&mut t, "position startpos moves e2e4 e7e5 e1e3");
    assert!(talk_wait(&mut t, "go depth 1").ends_with("\nbestmove 0000\n"));
    // A good position (or a new game) lifts the refusal.
    talk(&mut t, "position startpos moves d2d4");
    let pos = t.0.position().clone();
    bestmove(&talk_wait(&mut t, "go depth 1"), &pos);
    talk(&mut t, "position fen 8/8/8 w - - 0 1");
    talk(&mut t, "ucinewgame");
    bestmove(
        &talk_wait(&mut t, "go depth 1"),
        &Position::startpos(Variant::Chess),
    );
}

#[test]
fn huge_go_values_saturate() {
    let mut t = new_talk();
    talk(&mut t, "position startpos moves e2e4");
    let pos = t.0.position().clone();
    // Issue 16, item 4: values beyond i64 and u64, none an error.
    for go in [
        "go wtime 9223372036854775807 btime 9223372036854775807 winc 9223372036854775807 binc 9223372036854775807 depth 2",
        "go wtime 99999999999999999999999 btime 99999999999999999999999 binc 99999999999999999999999 depth 2",
        "go wtime -99999999999999999999999 btime 1000 depth 2",
        "go movetime 99999999999999999999999 depth 2",
        "go movetime 18446744073709551615 depth 2",
        "go nodes 99999999999999999999999 depth 2",
        "go depth 99999999999999999999 nodes 3000",
        "go depth 4294967295 nodes 3000",
        "go movestogo 99999999999 btime 100000 binc 100 depth 2",
        "go mate 2000000000 depth 2",
        "go mate 99999999999999999999 depth 2",
    ] {
        let out = talk_wait(&mut t, go);
        assert!(!out.contains("info string"), "{go}: {out}");
        assert!(out.contains("info depth "), "{go}: {out}");
        bestmove(&out, &pos);
    }
}

/// An output that panics on the line holding `trigger` (a panic in the
/// search thread: the search calls the info callback).
#[derive(Clone)]
struct Tripwire(Buffer, &'static str);

impl std::io::Write for Tripwire {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        if String::from_utf8_lossy(b).contains(self.1) {
            panic!("tripwire");
        }
        self.0.write(b)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_panic_in_the_search_still_answers_bestmove() {
    let buffer = Buffer::default();
    let wire = Tripwire(buffer.clone(), "info depth 2 ");
    let mut t = Talk(Session::new(out(wire), Player::Full), buffer);
    talk(&mut t, "position startpos");
    let out = talk_wait(&mut t, "go depth 4");
    assert!(out.starts_with("info depth 1 "), "{out}");
    assert!(
        out.ends_with("\ninfo string error: the search failed: tripwire\nbestmove 0000\n"),
        "{out}"
    );
    // The session goes on.
    assert_eq!(talk(&mut t, "isready"), "readyok\n");
    let out = talk_wait(&mut t, "go depth 1");
    bestmove(&out, &Position::startpos(Variant::Chess));
}

#[test]
fn long_lines_are_not_echoed_whole() {
    let mut t = new_talk();
    let line = "y".repeat(10_000_000);
    let said = talk(&mut t, &line);
    assert_eq!(
        said,
        format!(
            "info string unknown command: {}... (10000000 bytes)\n",
            "y".repeat(ECHO_MAX)
        )
    );
    let said = talk(&mut t, &format!("position fen {line}"));
    assert!(said.len() < 300, "{}", said.len());
    let said = talk(&mut t, &format!("go depth 1 {line}"));
    assert!(said.len() < 300, "{}", said.len());
    // Lines beyond MAX_LINE are skipped unread; the session goes on.
    let buffer = Buffer::default();
    let input = format!("uci {}\nisready\n", "z".repeat(MAX_LINE + 1));
    run(input.as_bytes(), out(buffer.clone()), Player::Full).unwrap();
    assert_eq!(
        buffer.take(),
        format!("info string error: line longer than {MAX_LINE} bytes skipped\nreadyok\n")
    );
}

#[test]
fn go_depth_reports_and_answers_a_legal_move() {
    let mut t = new_talk();
    talk(&mut t, "position startpos moves e2e4 e7e5 g1f3");
    let pos = t.0.position().clone();
    let out = talk_wait(&mut t, "go depth 5");
    for d in 1..=5 {
        assert!(
            out.contains(&format!("info depth {d} seldepth ")),
            "depth {d}: {out}"
        );
    }
    let info = out
        .lines()
        .find(|l| l.starts_with("info depth 5 "))
        .unwrap();
    assert!(info.contains(" score cp ") && info.contains(" nodes ") && info.contains(" pv "));
    bestmove(&out, &pos);
    assert!(out.ends_with('\n'));
}

#[test]
fn go_infinite_waits_for_stop() {
    let mut t = new_talk();
    talk(&mut t, "position startpos");
    talk(&mut t, "go infinite");
    std::thread::sleep(std::time::Duration::from_millis(50));
    assert!(t.0.searcher.is_running());
    let out = talk(&mut t, "isready");
    assert!(
        out.contains("readyok\n") && !out.contains("bestmove"),
        "{out}"
    );
    let out = talk(&mut t, "stop");
    bestmove(&out, &Position::startpos(Variant::Chess));
    assert!(!t.0.searcher.is_running());
}

#[test]
fn ponder_waits_for_ponderhit() {
    let mut t = new_talk();
    talk(&mut t, "position startpos moves d2d4");
    let pos = t.0.position().clone();
    talk(&mut t, "go ponder depth 2 wtime 1000 btime 1000");
    std::thread::sleep(std::time::Duration::from_millis(50));
    assert!(!t.1.take().contains("bestmove"));
    talk(&mut t, "ponderhit");
    t.0.wait().unwrap();
    bestmove(&t.1.take(), &pos);
}

#[test]
fn clock_search_and_mate_answers() {
    let mut t = new_talk();
    talk(&mut t, "position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
    let out = talk_wait(&mut t, "go wtime 1000 btime 1000 winc 10 binc 10");
    assert!(out.contains("score mate 1"), "{out}");
    assert!(out.contains("bestmove d1d8"), "{out}");
    talk(&mut t, "position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    let out = talk_wait(&mut t, "go movetime 50");
    assert_eq!(out, "bestmove (none)\n");
}

#[test]
fn options_are_checked() {
    let mut t = new_talk();
    for ok in [
        "setoption name Hash value 4",
        "setoption name Threads value 2",
        "setoption name MultiPV value 3",
        "setoption name Skill Level value 3",
        "setoption name UCI_LimitStrength value true",
        "setoption name UCI_Elo value 1200",
        "setoption name Clear Hash",
        "setoption name Move Overhead value 10",
    ] {
        assert_eq!(talk(&mut t, ok), "", "{ok}");
    }
    for bad in [
        "setoption name Hash value 0",
        "setoption name Hash value lots",
        "setoption name Threads",
        "setoption name UCI_LimitStrength value maybe",
        "setoption name UCI_Elo value 1",
    ] {
        assert!(talk(&mut t, bad).starts_with("info string"), "{bad}");
    }
    talk(&mut t, "position startpos");
    let out = talk_wait(&mut t, "go depth 3");
    assert!(out.contains(" multipv 3 "), "{out}");
    bestmove(&out, &Position::startpos(Variant::Chess));
}

#[test]
fn uci_elo_picks_the_level_by_the_game_s_own_ratings() {
    let mut t = new_talk();
    for line in [
        "setoption name UCI_LimitStrength value true",
        "setoption name UCI_Elo value 1500",
    ] {
        assert_eq!(talk(&mut t, line), "", "{line}");
    }
    let chess = Strength::from_elo(Variant::Chess, 1500);
    assert_eq!(t.0.searcher.engine().strength, chess);
    // The game changes after UCI_Elo: the level follows the game.
    talk(&mut t, "setoption name UCI_Variant value trampoline");
    let trampoline = Strength::from_elo(Variant::Trampoline, 1500);
    assert_ne!(trampoline, chess);
    assert_eq!(t.0.searcher.engine().strength, trampoline);
    talk(&mut t, "setoption name UCI_LimitStrength value false");
    assert_eq!(t.0.searcher.engine().strength, Strength::FULL);
}

#[test]
fn material1_answers_at_once() {
    let buffer = Buffer::default();
    let mut t = Talk(Session::new(out(buffer.clone()), Player::Material1), buffer);
    assert!(talk(&mut t, "uci").starts_with("id name Springboard material1 "));
    // It takes the free queen on d5, with a clock or without one.
    talk(
        &mut t,
        "position fen rnb1kbnr/pppp1ppp/8/3q4/8/2N5/PPPP1PPP/R1BQKBNR w KQkq - 0 4",
    );
    let n = t.0.position().legal_moves().len();
    assert_eq!(
        talk(&mut t, "go wtime 1000 btime 1000 winc 10 binc 10"),
        format!("info depth 1 seldepth 1 score cp 900 nodes {n} pv c3d5\nbestmove c3d5\n")
    );
    assert!(talk(&mut t, "go nodes 1").ends_with("\nbestmove c3d5\n"));
    // A mate is `mate 1`; a lost game answers `(none)`.
    talk(
        &mut t,
        "position fen 6k1/5ppp/8/8/8/8/5PPP/qR2R1K1 w - - 0 1",
    );
    assert!(talk(&mut t, "go depth 3").contains(" score mate 1 "));
    talk(&mut t, "position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1");
    assert_eq!(talk(&mut t, "go movetime 10"), "bestmove (none)\n");
    // `go infinite` holds its bestmove until `stop` (UCI).
    talk(&mut t, "position startpos moves e2e4");
    let out = talk(&mut t, "go infinite");
    assert!(out.starts_with("info depth 1 ") && !out.contains("bestmove"));
    let out = talk(&mut t, "stop");
    bestmove(&out, t.0.position());
    assert_eq!(talk(&mut t, "stop"), "");
    // Every game: a Hoplit Chess session plays legal moves, perft works.
    talk(&mut t, "setoption name UCI_Variant value hoplit");
    talk(&mut t, "position startpos moves g1f3 g8f6");
    let pos = t.0.position().clone();
    bestmove(&talk(&mut t, "go wtime 100 btime 100"), &pos);
    let n = pos.legal_moves().len();
    assert!(talk_wait(&mut t, "go perft 1").ends_with(&format!("\n\nNodes searched: {n}\n\n")));
}

#[test]
fn handshake_lists_variants() {
    let mut s = new_talk();
    let out = talk(&mut s, "uci");
    assert!(out.contains("option name UCI_Variant type combo default chess var chess"));
    assert!(out.ends_with("uciok\n"));
    assert_eq!(talk(&mut s, "isready"), "readyok\n");
}

#[test]
fn go_perft_matches_stockfish_format() {
    let mut s = new_talk();
    talk(&mut s, "position startpos moves e2e4 e7e5");
    let out = talk_wait(&mut s, "go perft 2");
    assert!(out.contains("\ng1f3: 29\n"), "{out}");
    assert!(out.ends_with("\n\nNodes searched: 835\n\n"), "{out}");
    let lines = out
        .lines()
        .filter(|l| l.contains(": ") && !l.starts_with("Nodes"))
        .count();
    assert_eq!(lines, 29);
}

#[test]
fn jumpingking_session() {
    let mut s = new_talk();
    let out = talk(&mut s, "uci");
    assert!(out.contains(" var jumpingking"), "{out}");
    assert_eq!(
        talk(&mut s, "setoption name UCI_Variant value jumpingking"),
        ""
    );
    let out = talk_wait(&mut s, "go perft 3");
    assert!(out.starts_with("a1c2: 32\na1b3: 16\n"), "{out}");
    assert!(out.ends_with("\n\nNodes searched: 48\n\n"), "{out}");
    talk(&mut s, "position startpos moves a1c2 f8d7 c2e3b");
    assert_eq!(
        s.0.position().to_fen(),
        "8/3k4/8/8/8/4K3/2B5/8[RRBNNPPPrrbbnnppp] b Jj 3 2"
    );
    let out = talk_wait(&mut s, "go perft 1");
    assert!(out.contains("\nd7f6p: 1\n"), "{out}");
    assert!(out.ends_with("\n\nNodes searched: 16\n\n"), "{out}");
    let out = talk(&mut s, "d");
    assert!(
        out.contains("\n1 |   | # | # | # | # | # | # | # |\n"),
        "{out}"
    );
    assert!(
        out.contains("\nWhite: jumping, to place: RRBNNPPP (weak square a1)\n"),
        "{out}"
    );
    // A stuck king passes: 0000 (J6, N6).
    talk(
        &mut s,
        "position fen 8/4k3/8/8/3P4/1K6/3P4/8[Rr] w Jj 0 1 moves 0000",
    );
    assert_eq!(
        s.0.position().to_fen(),
        "8/4k3/8/8/3P4/1K6/3P4/8[Rr] b j 1 1"
    );
    let out = talk(&mut s, "position startpos moves a1c2 f8d7 c2e3");
    assert!(out.starts_with("info string illegal move 'c2e3'"), "{out}");
    let out = talk(&mut s, "position fen 5k2/8/8/8/8/8/8/KR6[] w - 0 1");
    assert!(
        out.contains("b1, which is not a square of this board"),
        "{out}"
    );
}

#[test]
fn hopchess_go_perft_prints_each_turn_once() {
    let mut s = new_talk();
    assert_eq!(
        talk(&mut s, "setoption name UCI_Variant value hopchess"),
        ""
    );
    talk(&mut s, "position startpos");
    let out = talk_wait(&mut s, "go perft 1");
    let moves: Vec<&str> = out
        .lines()
        .filter(|l| l.ends_with(": 1"))
        .map(|l| l.trim_end_matches(": 1"))
        .collect();
    assert_eq!(moves.len(), 20, "{out}");
    assert!(moves.contains(&"g1f3"));
    assert!(out.ends_with("\n\nNodes searched: 20\n\n"), "{out}");
    let out = talk_wait(&mut s, "go perft 2");
    assert!(out.lines().any(|l| l == "g1f3: 640"), "{out}");
    assert!(out.ends_with("\n\nNodes searched: 12788\n\n"), "{out}");
    talk(&mut s, "position startpos moves e2e4 g8f6@d5 d2d4@d3");
    assert!(
        s.0.position().to_fen().ends_with(" d3,d5 -"),
        "{}",
        s.0.position().to_fen()
    );
    let out = talk_wait(&mut s, "go perft 1");
    let lines: Vec<&str> = out
        .lines()
        .filter(|l| l.contains(": ") && !l.starts_with("Nodes"))
        .collect();
    assert!(lines.len() > 500, "{out}");
    let unique: std::collections::HashSet<&str> = lines.iter().copied().collect();
    assert_eq!(lines.len(), unique.len());
    assert!(lines.iter().all(|l| l.contains('@')), "{out}");
}

#[test]
fn trampoline_go_perft_and_uci_lists_variants() {
    let mut s = new_talk();
    let out = talk(&mut s, "uci");
    assert!(out.contains("var hopchess var trampoline"), "{out}");
    talk(&mut s, "setoption name UCI_Variant value trampoline");
    talk(
        &mut s,
        "position startpos moves b1c3 e7e5 e2e4 b8c6 @f3 @e7 d2d4 e5d4 g1f3d4",
    );
    let out = talk_wait(&mut s, "go perft 1");
    assert!(out.lines().any(|l| l == "c6d4: 1"), "{out}");
    talk(&mut s, "position startpos");
    let out = talk_wait(&mut s, "go perft 2");
    assert!(out.ends_with("\n\nNodes searched: 2652\n\n"), "{out}");
}

#[test]
fn bad_input_keeps_the_session() {
    let mut s = new_talk();
    talk(&mut s, "position startpos moves e2e4");
    let before = s.0.position().to_fen();
    let out = talk(&mut s, "position startpos moves e2e4 e7e5 e1e3");
    assert!(out.starts_with("info string illegal move 'e1e3'"), "{out}");
    assert_eq!(s.0.position().to_fen(), before);
    let out = talk(&mut s, "position fen 8/8/8 w - - 0 1");
    assert!(out.starts_with("info string bad position"), "{out}");
    assert_eq!(s.0.position().to_fen(), before);
    for garbage in [
        "foo",
        "go perft x",
        "go perft -1",
        "setoption name Foo value 1",
        "setoption name UCI_Variant value nosuch",
        "position",
        "position moves e2e4",
        "go depth",
        "go depth -3",
        "go nodes many",
        "go sideways",
        "go perft",
        "setoption",
        "setoption value 3",
        "\u{1b}[A",
    ] {
        let out = talk(&mut s, garbage);
        assert!(out.starts_with("info string"), "{garbage}: {out}");
    }
    assert_eq!(s.0.position().to_fen(), before);
    assert_eq!(s.0.handle("quit").unwrap(), Flow::Quit);
}

#[test]
fn hoplit_drops_in_position_and_perft() {
    let mut s = new_talk();
    let out = talk(&mut s, "uci");
    assert!(out.contains(" var hoplit"), "{out}");
    assert_eq!(talk(&mut s, "setoption name UCI_Variant value hoplit"), "");
    assert_eq!(
        s.0.position().to_fen(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Hh] w KQkq - 0 1"
    );
    let out = talk_wait(&mut s, "go perft 3");
    assert!(
        out.ends_with(
            "

Nodes searched: 8982

"
        ),
        "{out}"
    );
    // Drops in long notation (N6), for both sides.
    talk(&mut s, "position startpos moves g1f3 g8f6 H@g1");
    assert_eq!(
        s.0.position().to_fen(),
        "rnbqkb1r/pppppppp/5n2/8/8/5NP1/PPPPPP1P/RNBQKBHR[h] b KQkq - 0 2"
    );
    let out = talk_wait(&mut s, "go perft 1");
    assert!(out.lines().any(|l| l == "H@g8: 1"), "{out}");
    assert!(
        out.ends_with(
            "

Nodes searched: 23

"
        ),
        "{out}"
    );
    let out = talk(&mut s, "position startpos moves g1f3 g8f6 H@g1 H@b8");
    assert!(out.starts_with("info string illegal move 'H@b8'"), "{out}");
    let out = talk(
        &mut s,
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    );
    assert!(out.contains("reserve in brackets"), "{out}");
}
