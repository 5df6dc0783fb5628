//! The entry points of position text (`Position::startpos`, `from_fen`,
//! `to_fen`) and the board picture (`Display for Position`): each hands
//! the work to the game's [`GameNotation`], which builds on the FIDE
//! fields of `notation/fen.rs`.

use super::games::GameNotation;
use crate::error::FenError;
use crate::games::with_game;
use crate::position::Position;
use crate::types::{Color, File, Rank, Square};
use crate::variant::Variant;

impl Position {
    /// The start position of `variant`.
    pub fn startpos(variant: Variant) -> Position {
        Position::from_fen(variant, variant.start_fen()).expect("start positions are valid")
    }

    /// Reads a position text of `variant`.
    pub fn from_fen(variant: Variant, fen: &str) -> Result<Position, FenError> {
        with_game!(variant, G => G::read_fen(fen))
    }

    /// Writes the position text.
    pub fn to_fen(&self) -> String {
        with_game!(self.variant(), G => G::write_fen(self))
    }
}

impl std::fmt::Display for Position {
    /// A text picture of the board, White at the bottom, then the FEN.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mask = self.variant().mask();
        writeln!(f, "  +---+---+---+---+---+---+---+---+")?;
        for rank in (0..8).rev() {
            write!(f, "{} |", rank + 1)?;
            for file in 0..8 {
                let sq = Square::from_coords(
                    File::new(file).expect("file"),
                    Rank::new(rank).expect("rank"),
                );
                let c = if !mask.contains(sq) {
                    '#'
                } else if let Some(p) = self.board().piece_at(sq) {
                    p.char()
                } else if self.trampoline(Color::White) == Some(sq) {
                    '@'
                } else if self.trampoline(Color::Black) == Some(sq) {
                    '*'
                } else {
                    ' '
                };
                write!(f, " {c} |")?;
            }
            writeln!(f)?;
            writeln!(f, "  +---+---+---+---+---+---+---+---+")?;
        }
        writeln!(f, "    a   b   c   d   e   f   g   h")?;
        writeln!(f)?;
        writeln!(f, "Variant: {}", self.variant())?;
        write!(f, "{}", with_game!(self.variant(), G => G::describe(self)))?;
        writeln!(f, "Fen: {}", self.to_fen())?;
        write!(f, "Key: {:016X}", self.hash())
    }
}
