//! `springboard bench`: speed on fixed positions.
//!
//! The default search bench searches fixed positions to a fixed depth with
//! one thread and a fresh 16 MB table: its total node count is a
//! deterministic signature of the search (a change that does not mean to
//! change the search must keep it).

use anyhow::Result;
use clap::{Args, ValueEnum};
use springboard_engine::{Engine, Limits, Signals};
use springboard_rules::notation::uci::to_uci;
use springboard_rules::perft::perft;
use springboard_rules::{Position, Variant};
use std::time::Instant;

#[derive(Clone, Copy, ValueEnum)]
pub enum BenchMode {
    /// Search speed and node signature (fixed depth).
    Search,
    /// Perft (move generation) speed.
    Perft,
}

#[derive(Args)]
pub struct BenchArgs {
    /// What to measure.
    #[arg(value_enum, default_value = "search")]
    mode: BenchMode,
    /// Search depth of the search bench for every position (default: each
    /// game's own depth, see `SEARCH_POSITIONS`).
    #[arg(long)]
    depth: Option<u32>,
}

/// The search bench depth of chess.
pub const SEARCH_DEPTH: u32 = 12;

/// The search bench depths of the other games (a Hop Chess turn is one ply).
const HOPLIT_DEPTH: u32 = 12;
const JUMPINGKING_DEPTH: u32 = 14;
const TRAMPOLINE_DEPTH: u32 = 10;
const HOPCHESS_DEPTH: u32 = 5;

/// Search bench positions: (variant, FEN). Middlegames of every game (those
/// of the variants are the perft bench's), searched to the game's depth.
const SEARCH_POSITIONS: &[(Variant, &str)] = &[
    (
        Variant::Chess,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    (
        Variant::Chess,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ),
    (
        Variant::Chess,
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    ),
    (
        Variant::Chess,
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8",
    ),
    (
        Variant::Chess,
        "6k1/pp3ppp/4p3/3pP3/3P4/P4N2/1P3PPP/6K1 w - - 0 24",
    ),
    (Variant::Chess, "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
    (
        Variant::Chess,
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    ),
    (Variant::Chess, "8/8/3k4/3p4/3P4/3K4/8/8 w - - 0 1"),
    (
        Variant::Hoplit,
        "r3k2r/p1ppqpb1/bnh1pnp1/3PN3/1p2P3/2NH1Q1p/PPPBBPPP/R3K2R[] w KQkq - 0 1",
    ),
    (
        Variant::Hoplit,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Hh] w KQkq - 0 1",
    ),
    (
        Variant::JumpingKing,
        "8/krnb4/r2n1b2/1ppp4/1PP1P3/2NNR3/RKBB4/8[] w - 20 11",
    ),
    (
        Variant::JumpingKing,
        "5k2/8/8/8/8/8/8/K7[RRBBNNPPPrrbbnnppp] w Jj 0 1",
    ),
    (
        Variant::Trampoline,
        "r1bbk2r/ppp2ppp/2npq3/8/4P3/2NQB3/PPP1BPPP/R3K2R w KQkq - 6 12 d5,g4",
    ),
    (
        Variant::Trampoline,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 -,-",
    ),
    (
        Variant::HopChess,
        "r1bqk2r/ppppbp1p/n4P2/8/3Q4/2N5/PPP2PPP/R3KBNR w KQkq - 1 7 e4,c5 -",
    ),
    (
        Variant::HopChess,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 -,- first",
    ),
];

/// The search bench depth of a game.
fn bench_depth(variant: Variant) -> u32 {
    match variant {
        Variant::Chess => SEARCH_DEPTH,
        Variant::Hoplit => HOPLIT_DEPTH,
        Variant::JumpingKing => JUMPINGKING_DEPTH,
        Variant::Trampoline => TRAMPOLINE_DEPTH,
        Variant::HopChess => HOPCHESS_DEPTH,
    }
}

fn search_bench(depth: Option<u32>) -> Result<()> {
    let mut total_nodes = 0u64;
    let mut total_secs = 0.0;
    for &(variant, fen) in SEARCH_POSITIONS {
        let depth = depth.unwrap_or_else(|| bench_depth(variant));
        let pos = Position::from_fen(variant, fen)?;
        let mut engine = Engine::new(16);
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let start = Instant::now();
        let r = engine.search(&pos, &[], &limits, &Signals::new(), &mut |_| {});
        let secs = start.elapsed().as_secs_f64();
        total_nodes += r.nodes;
        total_secs += secs;
        let best = r.best.map_or("(none)".to_string(), |m| to_uci(&pos, m));
        println!(
            "{variant:<12} depth {depth:>2}  best {best:<6} nodes {:>10}  {secs:>7.3} s  {:>8.0} nps  {fen}",
            r.nodes,
            r.nodes as f64 / secs
        );
    }
    println!("===========================");
    println!("Total time (ms) : {:.0}", total_secs * 1000.0);
    println!("Nodes searched  : {total_nodes}");
    println!("Nodes/second    : {:.0}", total_nodes as f64 / total_secs);
    Ok(())
}

/// Perft bench positions: (variant, name, FEN, depth, middlegame). The
/// middlegames of chess and of Hoplit Chess (Hoplits on the board) are
/// compared: the Hoplit generator should keep at least half of chess's speed.
const PERFT_POSITIONS: &[(Variant, &str, &str, u32, bool)] = &[
    (
        Variant::Chess,
        "startpos",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        6,
        false,
    ),
    (
        Variant::Chess,
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        5,
        true,
    ),
    (
        Variant::Chess,
        "cpw-pos6",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        5,
        true,
    ),
    (
        Variant::Hoplit,
        "startpos",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Hh] w KQkq - 0 1",
        5,
        false,
    ),
    (
        Variant::Hoplit,
        "kiwi-h",
        "r3k2r/p1ppqpb1/bnh1pnp1/3PN3/1p2P3/2NH1Q1p/PPPBBPPP/R3K2R[] w KQkq - 0 1",
        5,
        true,
    ),
    (
        Variant::Hoplit,
        "pos6-h",
        "r2h1rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R2H1RK1[] w - - 0 10",
        5,
        true,
    ),
    (
        Variant::Hoplit,
        "qgd-h",
        "r1h1k2r/pp2bppp/2n1pn2/q2p4/3P4/2NBPN2/PP1H1PPP/R2QK2R[] w KQkq - 0 1",
        5,
        true,
    ),
    (
        Variant::JumpingKing,
        "startpos",
        "5k2/8/8/8/8/8/8/K7[RRBBNNPPPrrbbnnppp] w Jj 0 1",
        9,
        false,
    ),
    // The seed game after 10...Ka7<p: the moving phase begins.
    (
        Variant::JumpingKing,
        "seed-11w",
        "8/krnb4/r2n1b2/1ppp4/1PP1P3/2NNR3/RKBB4/8[] w - 20 11",
        6,
        true,
    ),
    // The seed game after 13.bxc5, Black to move.
    (
        Variant::JumpingKing,
        "seed-13b",
        "8/1r1b4/k2n1b2/1nPp4/4P3/2NNR3/1KBB4/8[] b - 0 13",
        6,
        true,
    ),
    // Four rooks and promotions from the pool (J9).
    (
        Variant::JumpingKing,
        "promotions",
        "8/2kr4/4P3/8/8/r7/R1K2R2/8[] w - 0 1",
        6,
        true,
    ),
    // Middlegames with both trampolines on the board. Hop Chess counts
    // whole turns (piece move and placement).
    (
        Variant::HopChess,
        "seed-7",
        "r1bqk2r/ppppbp1p/n4P2/8/3Q4/2N5/PPP2PPP/R3KBNR w KQkq - 1 7 e4,c5 -",
        3,
        true,
    ),
    (
        Variant::HopChess,
        "kiwi-place",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1 d4,c6 place",
        3,
        true,
    ),
    (
        Variant::Trampoline,
        "seed-12",
        "r1bbk2r/ppp2ppp/2npq3/8/4P3/2NQB3/PPP1BPPP/R3K2R w KQkq - 6 12 d5,g4",
        4,
        true,
    ),
    (
        Variant::Trampoline,
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 c4,d6",
        4,
        true,
    ),
];

pub fn run(args: &BenchArgs) -> Result<()> {
    match args.mode {
        BenchMode::Search => search_bench(args.depth)?,
        BenchMode::Perft => {
            let mut total = 0u64;
            let mut total_secs = 0.0;
            // Middlegame nodes and seconds per variant.
            let mut middle: Vec<(Variant, u64, f64)> = Vec::new();
            for &(variant, name, fen, depth, middlegame) in PERFT_POSITIONS {
                let pos = Position::from_fen(variant, fen)?;
                let start = Instant::now();
                let nodes = perft(&pos, depth);
                let secs = start.elapsed().as_secs_f64();
                total += nodes;
                total_secs += secs;
                if middlegame {
                    match middle.iter_mut().find(|(v, _, _)| *v == variant) {
                        Some(entry) => {
                            entry.1 += nodes;
                            entry.2 += secs;
                        }
                        None => middle.push((variant, nodes, secs)),
                    }
                }
                println!(
                    "{variant:<12} {name:<10} depth {depth}  nodes {nodes:>12}  {secs:>7.3} s  {:>7.1} Mnps",
                    nodes as f64 / secs / 1e6
                );
            }
            println!(
                "Total nodes {total}  time {total_secs:.3} s  {:.1} Mnps",
                total as f64 / total_secs / 1e6
            );
            let speed = |v: Variant| {
                middle
                    .iter()
                    .find(|(m, _, _)| *m == v)
                    .map(|&(_, n, s)| n as f64 / s / 1e6)
            };
            if let Some(chess) = speed(Variant::Chess) {
                for &(variant, _, _) in &middle {
                    if variant == Variant::Chess {
                        continue;
                    }
                    let v = speed(variant).expect("listed");
                    println!(
                        "Middlegames: {variant} {v:.1} Mnps, chess {chess:.1} Mnps, ratio {:.2}",
                        v / chess
                    );
                }
            }
        }
    }
    Ok(())
}
