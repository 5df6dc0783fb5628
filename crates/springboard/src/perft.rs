//! `springboard perft`: perft counts from the command line.

use anyhow::{Context, Result};
use clap::Args;
use springboard_rules::notation::uci::{parse_uci, to_uci};
use springboard_rules::perft::{divide, perft};
use springboard_rules::{Position, Variant};
use std::time::Instant;

#[derive(Args)]
pub struct PerftArgs {
    /// The game.
    #[arg(long, default_value = "chess", value_parser = crate::args::parse_variant)]
    variant: Variant,
    /// Start from this position text instead of the start position.
    #[arg(long)]
    fen: Option<String>,
    /// Moves in long notation to play first, separated by spaces.
    #[arg(long)]
    moves: Option<String>,
    /// Depth in plies.
    #[arg(long)]
    depth: u32,
    /// Print the count below each first move, as `go perft` does.
    #[arg(long)]
    divide: bool,
}

/// The position a `--fen`/`--moves` pair describes.
pub fn setup(variant: Variant, fen: Option<&str>, moves: Option<&str>) -> Result<Position> {
    let mut pos = match fen {
        Some(fen) => Position::from_fen(variant, fen).context("bad --fen")?,
        None => Position::startpos(variant),
    };
    for text in moves.unwrap_or("").split_whitespace() {
        let m = parse_uci(&pos, text).with_context(|| format!("bad move in --moves: {text}"))?;
        pos.play(m);
    }
    Ok(pos)
}

pub fn run(args: &PerftArgs) -> Result<()> {
    let pos = setup(args.variant, args.fen.as_deref(), args.moves.as_deref())?;
    let start = Instant::now();
    // Depth 0 counts the position itself (1), with or without --divide,
    // as `go perft 0` does.
    let nodes = if args.divide && args.depth > 0 {
        let mut total = 0;
        for (m, n) in divide(&pos, args.depth) {
            println!("{}: {n}", to_uci(&pos, m));
            total += n;
        }
        println!();
        total
    } else {
        perft(&pos, args.depth)
    };
    let secs = start.elapsed().as_secs_f64();
    println!("Nodes searched: {nodes}");
    eprintln!(
        "time {:.3} s, {:.1} Mnps",
        secs,
        nodes as f64 / secs.max(1e-9) / 1e6
    );
    Ok(())
}
