//! `springboard replay`: reads a game (PGN, or a game text like
//! shared/seeds/games/) with the rules core's PGN reader and prints its
//! moves in long notation, the final position and the result.

use anyhow::{Context, Result};
use clap::Args;
use springboard_rules::notation::pgn::{self, VariantHint};
use springboard_rules::Variant;
use std::path::PathBuf;

#[derive(Args)]
pub struct ReplayArgs {
    /// The game (default: the one the text's Variant or FEN tag names, else
    /// chess). A text of another game is refused.
    #[arg(long, value_parser = crate::args::parse_variant)]
    variant: Option<Variant>,
    /// Start from this position text instead of the start position (or the
    /// text's FEN tag).
    #[arg(long)]
    fen: Option<String>,
    /// The game text: PGN, or moves with move numbers and `;` comments.
    file: PathBuf,
}

pub fn run(args: &ReplayArgs) -> Result<()> {
    let text = std::fs::read_to_string(&args.file)
        .with_context(|| format!("cannot read {}", args.file.display()))?;
    let hint = args.variant.map_or(VariantHint::Any, VariantHint::Game);
    let (game, tags) = match &args.fen {
        Some(fen) => {
            let start = pgn::read_fen(fen, hint).context("bad --fen")?;
            pgn::read_from(&text, start)?
        }
        None => pgn::read(&text, hint)?,
    };
    println!("{}", pgn::long_moves(&game).join(" "));
    println!("{}", game.position());
    match (game.outcome(), pgn::stated_end(&game, &tags)) {
        (Some(o), _) => println!("Result: {} ({})", o.result_str(), o.reason_str()),
        (None, Some((result, reason))) => println!("Result: {result} ({reason})"),
        (None, None) => println!("Result: * (the game text ends before the game does)"),
    }
    Ok(())
}
