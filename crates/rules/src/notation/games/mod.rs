//! What each game adds to the notations: its position text (FEN fields
//! beyond the FIDE six), the lines it adds to the board picture, and its
//! own SAN forms. One file per game, each implementing [`GameNotation`]
//! for the game's rules type; calls go through [`crate::games::with_game!`].

mod chess;
mod hopchess;
mod hoplit;
mod jumpingking;
mod trampoline;

use crate::error::{FenError, MoveError};
use crate::games::GameRules;
use crate::moves::Move;
use crate::position::Position;
use crate::types::Square;

/// A game's notation hooks.
pub(crate) trait GameNotation: GameRules {
    /// Reads a position text of this game (strictly: the game's rules
    /// check the setup, `GameRules::from_setup`).
    fn read_fen(fen: &str) -> Result<Position, FenError>;

    /// Writes the position text.
    fn write_fen(pos: &Position) -> String;

    /// Lines the board picture adds under the board (each ending in a
    /// newline); none by default.
    fn describe(_pos: &Position) -> String {
        String::new()
    }

    /// What SAN writes after a move's destination (Jumping King's placed
    /// man, `Ke3<B`); nothing by default.
    fn san_suffix(_pos: &Position, _m: Move) -> String {
        String::new()
    }

    /// Reads the SAN forms only this game has (Jumping King's jumps and
    /// passes, Hop Chess's lone placement, Trampoline Chess's `Tf3`), or
    /// `None` when `text` is none of them: the legal moves the text names
    /// (several when it is ambiguous: the SAN reader names them).
    fn parse_san_special(_pos: &Position, _text: &str) -> Option<Result<Vec<Move>, MoveError>> {
        None
    }

    /// Whether a turn's text here is a piece move followed by a placement
    /// square (Hop Chess after White's first turn, H2: `Nf6 d5`).
    fn placement_follows(_pos: &Position) -> bool {
        false
    }

    /// Whether the seeds' old notation of this game is SAN at `pos` (so the
    /// seed reader hands the text to the SAN reader, `san::parse_san`).
    fn seed_is_san(_pos: &Position) -> bool {
        false
    }
}

/// Reads `square` (the square part of the SAN `text`) as the trampoline
/// move of `pos` to it.
fn trampoline_move(pos: &Position, text: &str, square: &str) -> Result<Move, MoveError> {
    let to: Square = square
        .parse()
        .map_err(|_| MoveError::Malformed(text.to_string()))?;
    super::uci::UciMove::Trampoline { to }.to_move(pos)
}

/// The SAN text without check, mate and comment marks.
fn trim_san(text: &str) -> &str {
    text.trim().trim_end_matches(['+', '#', '!', '?'])
}
