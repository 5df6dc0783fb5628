//! `springboard replay`: replays a game text (like shared/seeds/games/) and
//! prints its moves in long notation, the final position and the result.

use anyhow::{bail, Context, Result};
use clap::Args;
use springboard_rules::notation::seed::{ends_in_resignation, replay};
use springboard_rules::notation::uci::to_uci;
use springboard_rules::{Game, Position, Variant};
use std::path::PathBuf;

#[derive(Args)]
pub struct ReplayArgs {
    /// The game.
    #[arg(long, default_value = "chess", value_parser = crate::parse_variant)]
    variant: Variant,
    /// Start from this position text instead of the start position.
    #[arg(long)]
    fen: Option<String>,
    /// The game text.
    file: PathBuf,
}

pub fn run(args: &ReplayArgs) -> Result<()> {
    let text = std::fs::read_to_string(&args.file)
        .with_context(|| format!("cannot read {}", args.file.display()))?;
    let start = match &args.fen {
        Some(fen) => Position::from_fen(args.variant, fen).context("bad --fen")?,
        None => Position::startpos(args.variant),
    };
    let r = replay(&start, &text)?;
    // The game ends where the rules say so (mate, a draw by rule): a text
    // that goes on after that is refused, as the web import does.
    let mut game = Game::new(start);
    let mut long = Vec::with_capacity(r.moves.len());
    for (ply, &m) in r.moves.iter().enumerate() {
        if let Some(o) = game.outcome() {
            bail!(
                "the game ended after ply {ply} ({}, {}), but the text goes on with '{}'",
                o.result_str(),
                o.reason_str(),
                to_uci(game.position(), m)
            );
        }
        long.push(to_uci(game.position(), m));
        game.play(m)?;
    }
    let pos = game.position().clone();
    println!("{}", long.join(" "));
    println!("{pos}");
    match r.outcome {
        Some(o) => println!("Result: {} ({})", o.result_str(), o.reason_str()),
        None if ends_in_resignation(&text) => {
            let loser = pos.turn();
            let result = if loser == springboard_rules::Color::White {
                "0-1"
            } else {
                "1-0"
            };
            println!("Result: {result} ({} resigns)", loser.name());
        }
        None => println!("Result: * (the game text ends before the game does)"),
    }
    Ok(())
}
