//! `springboard bench`: speed on fixed positions.

use anyhow::Result;
use clap::{Args, ValueEnum};
use springboard_rules::perft::perft;
use springboard_rules::{Position, Variant};
use std::time::Instant;

#[derive(Clone, Copy, ValueEnum)]
pub enum BenchMode {
    /// Perft (move generation) speed.
    Perft,
}

#[derive(Args)]
pub struct BenchArgs {
    /// What to measure.
    #[arg(value_enum, default_value = "perft")]
    mode: BenchMode,
}

/// Perft bench positions: (variant, name, FEN, depth).
const PERFT_POSITIONS: &[(Variant, &str, &str, u32)] = &[
    (
        Variant::Chess,
        "startpos",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        6,
    ),
    (
        Variant::Chess,
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        5,
    ),
    // Middlegames with both trampolines on the board. Hop Chess counts
    // whole turns (piece move and placement).
    (
        Variant::HopChess,
        "seed-7",
        "r1bqk2r/ppppbp1p/n4P2/8/3Q4/2N5/PPP2PPP/R3KBNR w KQkq - 1 7 e4,c5 -",
        3,
    ),
    (
        Variant::HopChess,
        "kiwi-place",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1 d4,c6 place",
        3,
    ),
    (
        Variant::Trampoline,
        "seed-12",
        "r1bbk2r/ppp2ppp/2npq3/8/4P3/2NQB3/PPP1BPPP/R3K2R w KQkq - 6 12 d5,g4",
        4,
    ),
    (
        Variant::Trampoline,
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 c4,d6",
        4,
    ),
];

pub fn run(args: &BenchArgs) -> Result<()> {
    match args.mode {
        BenchMode::Perft => {
            let mut total = 0u64;
            let mut total_secs = 0.0;
            let mut by_variant: Vec<(Variant, u64, f64)> = Vec::new();
            for &(variant, name, fen, depth) in PERFT_POSITIONS {
                let pos = Position::from_fen(variant, fen)?;
                let start = Instant::now();
                let nodes = perft(&pos, depth);
                let secs = start.elapsed().as_secs_f64();
                total += nodes;
                total_secs += secs;
                match by_variant.iter_mut().find(|(v, _, _)| *v == variant) {
                    Some(entry) => {
                        entry.1 += nodes;
                        entry.2 += secs;
                    }
                    None => by_variant.push((variant, nodes, secs)),
                }
                println!(
                    "{variant:<12} {name:<10} depth {depth}  nodes {nodes:>12}  {secs:>7.3} s  {:>7.1} Mnps",
                    nodes as f64 / secs / 1e6
                );
            }
            let chess_nps = by_variant
                .iter()
                .find(|(v, _, _)| *v == Variant::Chess)
                .map(|&(_, n, s)| n as f64 / s);
            for &(variant, nodes, secs) in &by_variant {
                let nps = nodes as f64 / secs;
                print!("{variant:<12} {:>7.1} Mnps", nps / 1e6);
                if let Some(c) = chess_nps {
                    print!("  {:>5.0}% of chess", 100.0 * nps / c);
                }
                println!();
            }
            println!(
                "Total nodes {total}  time {total_secs:.3} s  {:.1} Mnps",
                total as f64 / total_secs / 1e6
            );
        }
    }
    Ok(())
}
