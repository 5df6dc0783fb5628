//! Piece placement: bitboards by colour and kind, and a mailbox.

use crate::bitboard::Bitboard;
use crate::types::{Color, Piece, Role, Square};

/// Where the pieces stand. Knows nothing of whose turn it is.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    by_role: [Bitboard; 7],
    by_color: [Bitboard; 2],
    occupied: Bitboard,
    mailbox: [Option<Piece>; 64],
}

impl Default for Board {
    fn default() -> Board {
        Board::empty()
    }
}

impl Board {
    pub const fn empty() -> Board {
        Board {
            by_role: [Bitboard::EMPTY; 7],
            by_color: [Bitboard::EMPTY; 2],
            occupied: Bitboard::EMPTY,
            mailbox: [None; 64],
        }
    }

    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.mailbox[sq.index()]
    }

    #[inline]
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        self.mailbox[sq.index()].map(|p| p.role)
    }

    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.occupied
    }

    #[inline]
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    #[inline]
    pub fn by_role(&self, role: Role) -> Bitboard {
        self.by_role[role.index()]
    }

    #[inline]
    pub fn pieces(&self, color: Color, role: Role) -> Bitboard {
        self.by_color[color.index()] & self.by_role[role.index()]
    }

    /// Rooks and queens.
    #[inline]
    pub fn rook_likes(&self) -> Bitboard {
        self.by_role[Role::Rook.index()] | self.by_role[Role::Queen.index()]
    }

    /// Bishops and queens.
    #[inline]
    pub fn bishop_likes(&self) -> Bitboard {
        self.by_role[Role::Bishop.index()] | self.by_role[Role::Queen.index()]
    }

    /// The king of `color`, if there is one.
    #[inline]
    pub fn king_of(&self, color: Color) -> Option<Square> {
        self.pieces(color, Role::King).first()
    }

    /// Puts a piece on an empty square.
    #[inline]
    pub(crate) fn put(&mut self, sq: Square, piece: Piece) {
        debug_assert!(self.mailbox[sq.index()].is_none());
        self.by_role[piece.role.index()] |= sq;
        self.by_color[piece.color.index()] |= sq;
        self.occupied |= sq;
        self.mailbox[sq.index()] = Some(piece);
    }

    /// Removes and returns the piece on `sq`, if any.
    #[inline]
    pub(crate) fn take(&mut self, sq: Square) -> Option<Piece> {
        let piece = self.mailbox[sq.index()]?;
        self.by_role[piece.role.index()] ^= sq;
        self.by_color[piece.color.index()] ^= sq;
        self.occupied ^= sq;
        self.mailbox[sq.index()] = None;
        Some(piece)
    }

    /// All pieces with their squares, a1 first.
    pub fn iter(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.occupied
            .map(|sq| (sq, self.mailbox[sq.index()].expect("occupied")))
    }

    /// Number of pieces of one kind and colour.
    pub fn count(&self, color: Color, role: Role) -> u32 {
        self.pieces(color, role).count()
    }
}
