//! The five games: names, start positions and boards (plain facts only; the
//! rules of each game live in `games/`).

use crate::bitboard::Bitboard;
use crate::games::bounce;
use crate::types::Role;
use std::fmt;

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
        matches!(
            self,
            Variant::Chess
                | Variant::HopChess
                | Variant::Trampoline
                | Variant::JumpingKing
                | Variant::Hoplit
        )
    }

    /// The implemented games.
    pub fn implemented() -> impl Iterator<Item = Variant> {
        Variant::ALL.into_iter().filter(|v| v.is_implemented())
    }

    /// The squares that exist in this game.
    #[inline]
    pub const fn mask(self) -> Bitboard {
        match self {
            Variant::JumpingKing => JUMPING_KING_MASK,
            _ => Bitboard::FULL,
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

    /// The kinds of piece that can stand on the board in this game, in
    /// [`Role::ALL`] order (kings included): no queens in Jumping King (J2),
    /// the Hoplit in Hoplit Chess (L1).
    pub const fn roles(self) -> &'static [Role] {
        const FIDE: &[Role] = &[
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
            Role::King,
        ];
        match self {
            Variant::Chess | Variant::HopChess | Variant::Trampoline => FIDE,
            Variant::JumpingKing => &[
                Role::Pawn,
                Role::Knight,
                Role::Bishop,
                Role::Rook,
                Role::King,
            ],
            Variant::Hoplit => &[
                Role::Pawn,
                Role::Knight,
                Role::Bishop,
                Role::Rook,
                Role::Queen,
                Role::King,
                Role::Hoplit,
            ],
        }
    }

    /// The kinds of man a side may hold in reserve, in the order the
    /// position text lists them: Jumping King's men to place (rooks,
    /// bishops, knights, pawns, J2), Hoplit Chess's Hoplit (L1); none in
    /// the other games. See [`crate::Position::reserve`] for the counts and
    /// [`crate::Position::reserve_in_play`] for whether they may still enter.
    pub const fn reserve_roles(self) -> &'static [Role] {
        match self {
            Variant::Chess | Variant::HopChess | Variant::Trampoline => &[],
            Variant::JumpingKing => &crate::games::jumpingking::MEN,
            Variant::Hoplit => &[Role::Hoplit],
        }
    }

    /// Whether the game has trampolines (Hop Chess, Trampoline Chess).
    pub const fn has_trampolines(self) -> bool {
        self.bounce_rules().is_some()
    }

    /// The bounce rules of a game with trampolines (which trampolines a
    /// piece may use, the queen's line, H4/H6/H7 against T3-T6), `None` in
    /// the games without.
    pub const fn bounce_rules(self) -> Option<bounce::Rules> {
        match self {
            Variant::HopChess => Some(bounce::HOP),
            Variant::Trampoline => Some(bounce::TRAMPOLINE),
            Variant::Chess | Variant::JumpingKing | Variant::Hoplit => None,
        }
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
    type Err = crate::error::VariantError;
    fn from_str(s: &str) -> Result<Variant, Self::Err> {
        Variant::from_name(s).ok_or_else(|| crate::error::VariantError(s.to_string()))
    }
}

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
