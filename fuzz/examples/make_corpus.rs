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
}
