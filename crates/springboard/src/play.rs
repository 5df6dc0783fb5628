//! `springboard play`: a game against the engine in the terminal.

use anyhow::{Context, Result};
use clap::{Args, ValueEnum};
use springboard_engine::{Engine, Limits, Signals, Strength};
use springboard_rules::notation::san::{parse_san, to_san};
use springboard_rules::notation::uci::{parse_uci, to_uci};
use springboard_rules::{Color, Game, Move, MoveError, Position, Variant};
use std::io::{BufRead, Write};

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Side {
    White,
    Black,
}

#[derive(Args)]
pub struct PlayArgs {
    /// The game.
    #[arg(long, default_value = "chess", value_parser = crate::args::parse_variant)]
    variant: Variant,
    /// The side you play.
    #[arg(long, value_enum, default_value = "white")]
    color: Side,
    /// Start from this position text instead of the start position.
    #[arg(long)]
    fen: Option<String>,
    /// The engine's thinking time per move, in milliseconds.
    #[arg(long, default_value_t = 1000)]
    movetime: u64,
    /// The engine's strength as an Elo rating (weaker levels for people).
    #[arg(long)]
    elo: Option<u32>,
}

const HELP: &str = "Enter a move in SAN (Nf3, exd5, O-O, e8=Q) or long notation (g1f3, e7e8q).
Commands: help, board, moves, undo (takes back your last move), quit.";

/// Reads a move in SAN, or else in long notation; the SAN error is the
/// one shown for text that is neither.
fn read_move(pos: &Position, text: &str) -> Result<Move, MoveError> {
    match parse_san(pos, text) {
        Ok(m) => Ok(m),
        Err(san_err) => match parse_uci(pos, text) {
            Ok(m) => Ok(m),
            Err(e @ (MoveError::Illegal(_) | MoveError::NeedsPlacement { .. })) => Err(e),
            Err(_) => Err(san_err),
        },
    }
}

/// Plays a game reading the person's moves from `input`.
pub fn session(args: &PlayArgs, input: impl BufRead, out: &mut impl Write) -> Result<()> {
    let start = match &args.fen {
        Some(fen) => Position::from_fen(args.variant, fen).context("bad --fen")?,
        None => Position::startpos(args.variant),
    };
    let human = match args.color {
        Side::White => Color::White,
        Side::Black => Color::Black,
    };
    let mut engine = Engine::new(32);
    if let Some(elo) = args.elo {
        engine.strength = Strength::from_elo(args.variant, elo);
    }
    let mut game = Game::new(start);
    writeln!(out, "{} against Springboard. {HELP}", args.variant.title())?;
    let mut lines = input.lines();
    let mut show_board = true;
    loop {
        if show_board {
            writeln!(out, "\n{}", game.position())?;
        }
        show_board = true;
        if let Some(o) = game.outcome() {
            writeln!(out, "Game over: {} ({})", o.result_str(), o.reason_str())?;
            return Ok(());
        }
        let pos = game.position().clone();
        if pos.turn() != human {
            let limits = Limits {
                movetime: Some(args.movetime),
                ..Limits::default()
            };
            let history: Vec<u64> = game.positions()[..game.positions().len() - 1]
                .iter()
                .map(|p| p.hash())
                .collect();
            let r = engine.search(&pos, &history, &limits, &Signals::new(), &mut |_| {});
            let Some(m) = r.best else {
                writeln!(out, "The engine has no move.")?;
                return Ok(());
            };
            writeln!(
                out,
                "Springboard plays {} ({})",
                to_san(&pos, m),
                to_uci(&pos, m)
            )?;
            game.play(m)?;
            continue;
        }
        write!(out, "Your move: ")?;
        out.flush()?;
        let Some(line) = lines.next() else {
            writeln!(out)?;
            return Ok(());
        };
        let line = match line {
            Ok(l) => l,
            Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
                writeln!(out, "That is not text (not UTF-8). Type 'help' for help.")?;
                show_board = false;
                continue;
            }
            Err(e) => return Err(e.into()),
        };
        let text = line.trim();
        match text {
            "" => show_board = false,
            "quit" | "exit" => return Ok(()),
            "help" => {
                writeln!(out, "{HELP}")?;
                show_board = false;
            }
            "board" => {}
            "moves" => {
                let moves: Vec<String> =
                    pos.legal_moves().iter().map(|&m| to_san(&pos, m)).collect();
                writeln!(out, "Legal moves: {}", moves.join(" "))?;
                show_board = false;
            }
            "undo" => {
                // Take back the engine's reply and the person's move.
                let mut taken = 0;
                while taken < 2 && game.undo().is_some() {
                    taken += 1;
                    if game.position().turn() == human {
                        break;
                    }
                }
                if taken == 0 {
                    writeln!(out, "There is no move to take back.")?;
                    show_board = false;
                }
            }
            _ => match read_move(&pos, text) {
                Ok(m) => {
                    writeln!(out, "You play {}", to_san(&pos, m))?;
                    game.play(m)?;
                }
                Err(e) => {
                    writeln!(
                        out,
                        "Cannot play that: {e}. Type 'moves' to list the legal moves."
                    )?;
                    show_board = false;
                }
            },
        }
    }
}

pub fn run(args: &PlayArgs) -> Result<()> {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    session(args, stdin.lock(), &mut stdout.lock())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        play: PlayArgs,
    }

    fn play(args: &[&str], input: &str) -> String {
        let mut all = vec!["play"];
        all.extend_from_slice(args);
        let cli = Cli::parse_from(all);
        let mut out = Vec::new();
        session(&cli.play, input.as_bytes(), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn moves_errors_and_replies() {
        let out = play(&["--movetime", "20"], "e4\nfoo\ne2e5\nNf6\nmoves\nquit\n");
        assert!(out.contains("You play e4\n"), "{out}");
        assert!(out.contains("Springboard plays "), "{out}");
        assert!(
            out.contains("Cannot play that: malformed move 'foo'"),
            "{out}"
        );
        assert!(
            out.contains("Cannot play that: illegal move 'e2e5'"),
            "{out}"
        );
        assert!(
            out.contains("Cannot play that: illegal move 'Nf6'"),
            "{out}"
        );
        assert!(out.contains("Legal moves: "), "{out}");
    }

    #[test]
    fn the_engine_mates_and_the_game_ends() {
        let out = play(
            &[
                "--color",
                "black",
                "--movetime",
                "200",
                "--fen",
                "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
            ],
            "",
        );
        assert!(out.contains("Springboard plays Rd8# (d1d8)"), "{out}");
        assert!(out.contains("Game over: 1-0 (checkmate)"), "{out}");
    }

    #[test]
    fn undo_takes_back_a_pair() {
        let out = play(&["--movetime", "10"], "undo\nd4\nundo\nboard\nquit\n");
        assert!(out.contains("There is no move to take back."), "{out}");
        let start = Position::startpos(Variant::Chess).to_string();
        // The board after the undo is the start position again.
        assert_eq!(out.matches(&start).count(), 3, "{out}");
    }
}
