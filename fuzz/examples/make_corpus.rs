//! Writes the seed corpora of the fuzz targets from the repository's own
//! material: the perft suites, the published games and the rule examples.
//!
//! `cargo run --manifest-path fuzz/Cargo.toml --example make_corpus -- DIR`
//! writes `DIR/<target>/<file>`; docs/fuzzing.md says how the corpora kept
//! in fuzz/corpus are made from it (`cargo fuzz cmin`).

use springboard_fuzz::{pool, start_index, DOCS, GAMES, PERFT};
use springboard_rules::notation::pgn::{self, Tags};
use springboard_rules::notation::{san, seed, uci};
use springboard_rules::Game;
use springboard_rules::{Position, Variant};
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

fn write(dir: &Path, target: &str, data: &[u8]) {
    let mut h = DefaultHasher::new();
    data.hash(&mut h);
    let dir = dir.join(target);
    std::fs::create_dir_all(&dir).expect("corpus directory");
    std::fs::write(dir.join(format!("{:016x}", h.finish())), data).expect("corpus file");
}

fn with_selector(selector: u8, text: &str) -> Vec<u8> {
    let mut out = vec![selector];
    out.extend_from_slice(text.as_bytes());
    out
}

fn index_of(pos: &Position) -> Option<u8> {
    pool()
        .iter()
        .position(|p| p.variant() == pos.variant() && p.to_fen() == pos.to_fen())
        .map(|i| i as u8)
}

fn main() {
    let dir = PathBuf::from(std::env::args().nth(1).expect("an output directory"));
    // Position texts: the perft suites, the start positions, every position
    // of the rule examples (valid or not) and of the published games.
    for variant in Variant::ALL {
        let target = format!("fen_{}", variant.name());
        write(&dir, &target, variant.start_fen().as_bytes());
        for (v, text) in PERFT {
            if v == variant {
                for line in text.lines() {
                    if let Some(fen) = line.trim().strip_prefix("epd ") {
                        write(&dir, &target, fen.as_bytes());
                    }
                }
            }
        }
    }
    for text in DOCS {
        let mut variant = Variant::Chess;
        let mut start: Option<Position> = None;
        let mut moves = String::new();
        let flush = |start: &Option<Position>, moves: &mut String| {
            if let Some(pos) = start {
                if let Some(i) = index_of(pos) {
                    write(&dir, "uci", &with_selector(i, moves));
                }
            }
            moves.clear();
        };
        for line in text.lines() {
            let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
            match key {
                "variant" => {
                    flush(&start, &mut moves);
                    variant = Variant::from_name(rest.trim()).unwrap_or(variant);
                    start = Some(Position::startpos(variant));
                }
                "position" | "fen" | "invalid" => {
                    write(&dir, &format!("fen_{}", variant.name()), rest.as_bytes());
                    if key == "position" && rest != "start" {
                        flush(&start, &mut moves);
                        start = Position::from_fen(variant, rest).ok();
                    }
                }
                "play" | "legal" | "illegal" => {
                    moves.push_str(rest);
                    moves.push(' ');
                }
                _ => {}
            }
        }
        flush(&start, &mut moves);
    }
    for (variant, text) in GAMES {
        let start = Position::startpos(variant);
        let i = start_index(variant);
        write(&dir, "seed", &with_selector(i, text));
        let replay = seed::replay(&start, text).expect("a published game replays");
        let (mut long, mut short, mut choices) = (String::new(), String::new(), vec![i]);
        for (pos, &m) in replay.positions.iter().zip(&replay.moves) {
            write(
                &dir,
                &format!("fen_{}", variant.name()),
                pos.to_fen().as_bytes(),
            );
            long.push_str(&uci::to_uci(pos, m));
            long.push(' ');
            short.push_str(&san::to_san(pos, m));
            short.push('\n');
            let index = pos
                .legal_moves()
                .iter()
                .position(|&l| l == m)
                .expect("legal");
            choices.extend_from_slice(&(index as u16).to_le_bytes());
        }
        write(&dir, "uci", &with_selector(i, &long));
        write(&dir, "san", &with_selector(i, &short));
        write(&dir, "seed", &with_selector(i, &short.replace('\n', " ")));
        write(&dir, "game", &choices);
        // PGN (first byte: the game asked for, 1 + its index; 0 is any):
        // the seeds' text under a Variant tag, and the game as written.
        let tag = format!("[Variant \"{}\"]\n\n", variant.name());
        write(&dir, "pgn", &with_selector(0, &format!("{tag}{text}")));
        let mut game = Game::new(start.clone());
        for &m in &replay.moves {
            game.play(m).expect("legal");
        }
        write(
            &dir,
            "pgn",
            &with_selector(i + 1, &pgn::write(&game, &Tags::new())),
        );
    }
    // Every pool position: a few of its moves in each notation.
    for (i, pos) in pool().iter().enumerate() {
        let i = i as u8;
        let moves = pos.legal_moves();
        let some = springboard_fuzz::sample(&moves);
        let some = &some[..some.len().min(6)];
        let long: Vec<String> = some.iter().map(|&m| uci::to_uci(pos, m)).collect();
        let short: Vec<String> = some.iter().map(|&m| san::to_san(pos, m)).collect();
        write(&dir, "uci", &with_selector(i, &long.join(" ")));
        write(&dir, "san", &with_selector(i, &short.join("\n")));
        write(&dir, "seed", &with_selector(i, &short.join(" ")));
        write(&dir, "game", &[i, 0, 0, 1, 0, 2, 0, 3, 0]);
        // A PGN from this position with a few plies, and its FEN alone.
        let mut game = Game::new(pos.clone());
        for _ in 0..3 {
            let next = game.position().legal_moves();
            match springboard_fuzz::sample(&next).get(1) {
                Some(&m) => game.play(m).expect("legal"),
                None => break,
            }
        }
        let hint = start_index(pos.variant()) + 1;
        write(
            &dir,
            "pgn",
            &with_selector(hint, &pgn::write(&game, &Tags::new())),
        );
        write(&dir, "pgn", &with_selector(0, &pos.to_fen()));
    }
    protocol_seeds(&dir);
    web_seeds(&dir);
}

/// Two plies of long notation from `pos` (a spread pick of its moves).
fn two_plies(pos: &Position) -> Vec<String> {
    let mut pos = pos.clone();
    let mut out = Vec::new();
    for _ in 0..2 {
        let moves = pos.legal_moves();
        let Some(&m) = springboard_fuzz::sample(&moves).get(1) else {
            break;
        };
        out.push(uci::to_uci(&pos, m));
        pos.play(m);
    }
    out
}

/// UCI and XBoard command streams.
fn protocol_seeds(dir: &Path) {
    let fixed = [
        "uci\nisready\nucinewgame\nposition startpos moves e2e4 e7e5\ngo depth 2\nquit\n",
        "position startpos\ngo infinite\nstop\ngo ponder\nponderhit\n",
        "position startpos\ngo wtime 1000 btime 1000 winc 10 binc 10 movestogo 5\ngo movetime 5\ngo nodes 10\ngo mate 1\n",
        "position fen k7/8/8/8/8/8/8/QQQQQQQK w - - 0 1\ngo depth 1\nposition startpos\ngo depth 1\n",
        "setoption name Hash value 4\nsetoption name Clear Hash\nsetoption name Threads value 1\nsetoption name MultiPV value 2\nsetoption name Move Overhead value 10\nsetoption name Ponder value true\nsetoption name Skill Level value 3\nsetoption name UCI_LimitStrength value true\nsetoption name UCI_Elo value 1400\ngo depth 1\n",
        "go perft 1\ngo perft 2\nd\nbogus\ngo depth x\nposition nonsense\n",
        "position fen 7k/8/8/8/8/8/8/K6R b - - 0 1\ngo depth 1\n",
    ];
    for (i, text) in fixed.iter().enumerate() {
        write(dir, "uci_session", &with_selector(i as u8 % 2, text));
    }
    for variant in Variant::ALL {
        let start = Position::startpos(variant);
        let moves = two_plies(&start).join(" ");
        let text = format!(
            "setoption name UCI_Variant value {}\nposition startpos moves {moves}\ngo depth 1\ngo perft 1\nd\n",
            variant.name()
        );
        write(dir, "uci_session", &with_selector(0, &text));
        let name = if variant == Variant::Chess {
            "normal"
        } else {
            variant.name()
        };
        let mut xb = format!("xboard\nprotover 2\nnew\nvariant {name}\nforce\n");
        for m in two_plies(&start) {
            xb.push_str(&format!("usermove {m}\n"));
        }
        xb.push_str("post\ngo\nundo\nremove\nping 7\nresult 1-0 {x}\n");
        write(dir, "xboard_session", xb.as_bytes());
    }
    for pos in pool().iter().skip(Variant::ALL.len()).step_by(4) {
        let text = format!(
            "setoption name UCI_Variant value {}\nposition fen {} moves {}\ngo nodes 50\n",
            pos.variant().name(),
            pos.to_fen(),
            two_plies(pos).join(" ")
        );
        write(dir, "uci_session", &with_selector(1, &text));
        if pos.variant() == Variant::Chess {
            let xb = format!("new\nforce\nsetboard {}\ngo\n", pos.to_fen());
            write(dir, "xboard_session", xb.as_bytes());
        }
    }
    let xboard = [
        "xboard\nprotover 2\nnew\nlevel 40 5 0\ntime 30000\notim 30000\ne2e4\n",
        "new\nst 1\nsd 3\nforce\ne2e4\nplayother\ne7e5\nwhite\nblack\n",
        "new\nforce\nlift e2\nput e4\nhover e3\nlift e7\nput e5\n?\nhint\n",
        "new\nlevel 0 0:30 1\ntime 9223372036854775807\notim -5\nsd 0\nst x\ngo\nquit\n",
    ];
    for text in xboard {
        write(dir, "xboard_session", text.as_bytes());
    }
}

/// Requests to the play server (`web_api`: the first byte is the game,
/// each line a request, its first letter the endpoint: A create, B move,
/// C draw, D takeback, E rematch, F resign, G join, H undo, I engine,
/// J analysis, K the game list, L the game, M its legal moves).
fn web_seeds(dir: &Path) {
    for (i, variant) in Variant::ALL.into_iter().enumerate() {
        let start = Position::startpos(variant);
        let mut text = String::new();
        for (ply, m) in two_plies(&start).iter().enumerate() {
            text.push_str(&format!("B{{\"move\":\"{m}\",\"ply\":{ply}}}\n"));
        }
        text.push_str("Hplies=1\nM\n");
        write(dir, "web_api", &with_selector(i as u8, &text));
        let fen = start.to_fen();
        let create = format!(
            "A{{\"variant\":\"{}\",\"fen\":\"{fen}\",\"mode\":\"friend\",\"color\":\"black\"}}\n",
            variant.name()
        );
        write(dir, "web_api", &with_selector(i as u8, &create));
    }
    let fixed = [
        "B{\"move\":\"e2e4\"}\nB{\"move\":\"e2e4\",\"ply\":0}\nB{\"move\":\"e7e5\",\"ply\":1}\nLply=1\n",
        "C{\"action\":\"offer\"}\nC{\"action\":\"accept\"}\nC{\"action\":\"decline\"}\n",
        "B{\"move\":\"e2e4\"}\nD{\"action\":\"offer\"}\nD{\"action\":\"accept\"}\n",
        "F{}\nE{\"action\":\"offer\"}\nE{\"action\":\"accept\"}\n",
        "G\n!B{\"move\":\"e2e4\"}\n!F{}\n",
        "I{\"level\":1}\nJ{\"depth\":1}\nJ{\"movetime\":10,\"ply\":0}\n",
        "Klist=open&limit=5\nKlist=mine\nK\n",
        "A{\"pgn\":\"1. e4 e5 2. Nf3 *\"}\nA{\"mode\":\"engine\",\"level\":1}\n",
        "A{\"clock\":{\"initial\":60,\"increment\":1},\"mode\":\"friend\",\"color\":\"random\"}\n",
        "Hplies=0\nHplies=5\nB{\"move\":\"e2e5\"}\nB{\"move\":1}\nB{}\nBnot json\n",
    ];
    for text in fixed {
        write(dir, "web_api", &with_selector(0, text));
    }
}
