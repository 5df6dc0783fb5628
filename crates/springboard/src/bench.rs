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
    (
        Variant::JumpingKing,
        "startpos",
        "5k2/8/8/8/8/8/8/K7[RRBBNNPPPrrbbnnppp] w Jj 0 1",
        9,
    ),
    // The seed game after 10...Ka7<p: the moving phase begins.
    (
        Variant::JumpingKing,
        "seed-11w",
        "8/krnb4/r2n1b2/1ppp4/1PP1P3/2NNR3/RKBB4/8[] w - 20 11",
        6,
    ),
    // The seed game after 13.bxc5, Black to move.
    (
        Variant::JumpingKing,
        "seed-13b",
        "8/1r1b4/k2n1b2/1nPp4/4P3/2NNR3/1KBB4/8[] b - 0 13",
        6,
    ),
    // Four rooks and promotions from the pool (J9).
    (
        Variant::JumpingKing,
        "promotions",
        "8/2kr4/4P3/8/8/r7/R1K2R2/8[] w - 0 1",
        6,
    ),
];

pub fn run(args: &BenchArgs) -> Result<()> {
    match args.mode {
        BenchMode::Perft => {
            let mut total = 0u64;
            let mut total_secs = 0.0;
            for &(variant, name, fen, depth) in PERFT_POSITIONS {
                let pos = Position::from_fen(variant, fen)?;
                let start = Instant::now();
                let nodes = perft(&pos, depth);
                let secs = start.elapsed().as_secs_f64();
                total += nodes;
                total_secs += secs;
                println!(
                    "{variant:<12} {name:<10} depth {depth}  nodes {nodes:>12}  {secs:>7.3} s  {:>7.1} Mnps",
                    nodes as f64 / secs / 1e6
                );
            }
            println!(
                "Total nodes {total}  time {total_secs:.3} s  {:.1} Mnps",
                total as f64 / total_secs / 1e6
            );
        }
    }
    Ok(())
}
