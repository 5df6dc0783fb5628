//! Runs the `.perft` files in `tests/perft/` through the same perft function
//! the `springboard perft` command uses.

use springboard_rules::{perft::perft, Position, Variant};

struct Case {
    fen: String,
    depth: u32,
    nodes: u64,
    slow: bool,
    line: usize,
}

fn load(variant: Variant, text: &str) -> Vec<Case> {
    let mut fen = None;
    let mut cases = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, rest) = line.split_once(' ').expect("key and value");
        match key {
            "epd" => {
                Position::from_fen(variant, rest)
                    .unwrap_or_else(|e| panic!("line {}: {rest}: {e}", i + 1));
                fen = Some(rest.to_string());
            }
            "perft" | "perft-slow" => {
                let (d, n) = rest.split_once(' ').expect("depth and nodes");
                cases.push(Case {
                    fen: fen.clone().expect("epd before perft"),
                    depth: d.parse().expect("depth"),
                    nodes: n.parse().expect("nodes"),
                    slow: key == "perft-slow",
                    line: i + 1,
                });
            }
            other => panic!("line {}: unknown key {other}", i + 1),
        }
    }
    cases
}

fn run(variant: Variant, text: &str, slow: bool) {
    let cases = load(variant, text);
    assert!(!cases.is_empty());
    for case in cases.iter().filter(|c| c.slow == slow) {
        let pos = Position::from_fen(variant, &case.fen).expect("checked");
        assert_eq!(
            perft(&pos, case.depth),
            case.nodes,
            "line {}: {} depth {}",
            case.line,
            case.fen,
            case.depth
        );
    }
}

#[test]
fn chess_perft() {
    run(Variant::Chess, include_str!("perft/chess.perft"), false);
}

#[test]
#[ignore = "deep perft: minutes in debug builds"]
fn chess_perft_slow() {
    run(Variant::Chess, include_str!("perft/chess.perft"), true);
}

#[test]
fn hoplit_perft() {
    run(Variant::Hoplit, include_str!("perft/hoplit.perft"), false);
}

#[test]
fn jumpingking_perft() {
    run(
        Variant::JumpingKing,
        include_str!("perft/jumpingking.perft"),
        false,
    );
}

#[test]
fn hopchess_perft() {
    run(
        Variant::HopChess,
        include_str!("perft/hopchess.perft"),
        false,
    );
}

#[test]
#[ignore = "deep perft: minutes in debug builds"]
fn hoplit_perft_slow() {
    run(Variant::Hoplit, include_str!("perft/hoplit.perft"), true);
}

#[test]
#[ignore = "deep perft: minutes in debug builds"]
fn jumpingking_perft_slow() {
    run(
        Variant::JumpingKing,
        include_str!("perft/jumpingking.perft"),
        true,
    );
}

#[test]
#[ignore = "deep perft: minutes"]
fn hopchess_perft_slow() {
    run(
        Variant::HopChess,
        include_str!("perft/hopchess.perft"),
        true,
    );
}

#[test]
fn trampoline_perft() {
    run(
        Variant::Trampoline,
        include_str!("perft/trampoline.perft"),
        false,
    );
}

#[test]
#[ignore = "deep perft: minutes"]
fn trampoline_perft_slow() {
    run(
        Variant::Trampoline,
        include_str!("perft/trampoline.perft"),
        true,
    );
}
