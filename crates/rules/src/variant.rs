//! The five games: names (and the error of an unknown one), start positions
//! and boards (plain facts only; the rules of each game live in `games/`,
//! which also adds the per-game rule facts to [`Variant`]).

use crate::bitboard::Bitboard;
use std::fmt;
use thiserror::Error;

/// A game Springboard knows. The name is the value of the UCI option
/// `UCI_Variant` (RULINGS.md, "Variant names").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    Chess,
    HopChess,
    Trampoline,
    JumpingKing,
    Hoplit,
}

/// The 38 squares of the Jumping King board (ruling J1): a2-f7 plus a1 and f8.
pub const JUMPING_KING_MASK: Bitboard = Bitboard(
    // ranks 2..7, files a..f
    (0x3f << 8) | (0x3f << 16) | (0x3f << 24) | (0x3f << 32) | (0x3f << 40) | (0x3f << 48)
        | 1 // a1
        | (1 << 61), // f8
);

impl Variant {
    pub const ALL: [Variant; 5] = [
        Variant::Chess,
        Variant::HopChess,
        Variant::Trampoline,
        Variant::JumpingKing,
        Variant::Hoplit,
    ];

    /// The `UCI_Variant` name.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Chess => "chess",
            Variant::HopChess => "hopchess",
            Variant::Trampoline => "trampoline",
            Variant::JumpingKing => "jumpingking",
            Variant::Hoplit => "hoplit",
        }
    }

    /// The game's title for people.
    pub const fn title(self) -> &'static str {
        match self {
            Variant::Chess => "Chess",
            Variant::HopChess => "Hop Chess",
            Variant::Trampoline => "Trampoline Chess",
            Variant::JumpingKing => "The Weak Square of the Jumping King",
            Variant::Hoplit => "Hoplit Chess",
        }
    }

    pub fn from_name(name: &str) -> Option<Variant> {
        Variant::ALL
            .into_iter()
            .find(|v| v.name().eq_ignore_ascii_case(name))
    }

    /// Whether the rules core plays this game yet. Front ends offer only
    /// implemented games.
    pub const fn is_implemented(self) -> bool {
        match self {
            Variant::Chess
            | Variant::HopChess
            | Variant::Trampoline
            | Variant::JumpingKing
            | Variant::Hoplit => true,
        }
    }

    /// The implemented games.
    pub fn implemented() -> impl Iterator<Item = Variant> {
        Variant::ALL.into_iter().filter(|v| v.is_implemented())
    }

    /// The implemented games' names, for messages: `chess, hopchess, ...`.
    pub fn names() -> String {
        Variant::implemented()
            .map(Variant::name)
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The squares that exist in this game.
    #[inline]
    pub const fn mask(self) -> Bitboard {
        match self {
            Variant::JumpingKing => JUMPING_KING_MASK,
            Variant::Chess | Variant::HopChess | Variant::Trampoline | Variant::Hoplit => {
                Bitboard::FULL
            }
        }
    }

    /// The width and height of the board as drawn: the files and ranks from
    /// a1 that hold the game's squares (8x8; Jumping King 6x8, J1).
    pub fn board_size(self) -> (u8, u8) {
        let mask = self.mask();
        let files = mask.map(|sq| sq.file().index() + 1).max().unwrap_or(0);
        let ranks = mask.map(|sq| sq.rank().index() + 1).max().unwrap_or(0);
        (files, ranks)
    }

    /// The start position in this game's position text.
    pub const fn start_fen(self) -> &'static str {
        match self {
            Variant::Chess => "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            Variant::HopChess => {
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 -,- first"
            }
            Variant::Trampoline => "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 -,-",
            Variant::JumpingKing => "5k2/8/8/8/8/8/8/K7[RRBBNNPPPrrbbnnppp] w Jj 0 1",
            Variant::Hoplit => "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Hh] w KQkq - 0 1",
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Variant {
    type Err = VariantError;
    fn from_str(s: &str) -> Result<Variant, Self::Err> {
        Variant::from_name(s).ok_or_else(|| VariantError(s.to_string()))
    }
}

/// An unknown variant name.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown variant '{0}' (known: {known})", known = Variant::names())]
pub struct VariantError(pub String);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Square;

    #[test]
    fn j1_board_has_38_squares() {
        assert_eq!(JUMPING_KING_MASK.count(), 38);
        assert!(JUMPING_KING_MASK.contains(Square::A1));
        assert!(JUMPING_KING_MASK.contains(Square::F8));
        assert!(!JUMPING_KING_MASK.contains(Square::B1));
        assert!(!JUMPING_KING_MASK.contains(Square::G2));
        assert!(JUMPING_KING_MASK.contains(Square::F7));
    }
}
