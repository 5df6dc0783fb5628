//! The move: one turn (or, in Hop Chess, one half-step of a turn).
//!
//! A move is small and `Copy` (7 bytes). It holds every shape the five games
//! need: a plain move, a bounce path through up to two trampolines, a
//! promotion, a drop, a trampoline move or placement, a Jumping King jump with
//! the man it leaves behind, and a pass.
//!
//! Identity (ruling P9): two moves are equal when they have the same kind,
//! origin, destination, promotion or placed man, and trampoline placement.
//! The bounce path (`via`) is *not* part of the identity: a direct `c1f4` and
//! the bounce `c1e3f4` are one move. The pawn's direct double step has its own
//! kind ([`MoveKind::DoubleStep`]) because it grants the en-passant right, so
//! `d2d4` and the bounce `d2d3d4` are two moves.

pub(crate) mod long;

use crate::types::{Role, Square};
use std::hash::{Hash, Hasher};

/// What a move does, beyond moving a piece from one square to another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum MoveKind {
    /// A piece moves (directly or through trampolines), maybe capturing or promoting.
    Normal,
    /// A pawn's direct double step: it grants the en-passant right.
    DoubleStep,
    /// A pawn captures en passant.
    EnPassant,
    /// Castling, written as the king's move (`e1g1`).
    Castle,
    /// A piece from the reserve enters the board (Hoplit Chess `H@d1`).
    Drop,
    /// A trampoline is dropped or moved (Trampoline Chess `@e5`), or placed
    /// as the second half of a Hop Chess turn.
    Trampoline,
    /// A Jumping King's knight jump in its jumping phase, maybe leaving a man
    /// behind on the square it left (`c2e3b`).
    Jump,
    /// A forced pass (Jumping King, `0000`).
    Pass,
}

/// A move. See the module documentation for its identity.
#[derive(Clone, Copy, Debug)]
pub struct Move {
    kind: MoveKind,
    from: Option<Square>,
    to: Option<Square>,
    via: [Option<Square>; 2],
    role: Option<Role>,
    place: Option<Square>,
}

const _: () = assert!(std::mem::size_of::<Move>() == 7);
const _: () = assert!(std::mem::size_of::<Option<Move>>() == 7);

impl Move {
    const fn base(kind: MoveKind, from: Option<Square>, to: Option<Square>) -> Move {
        Move {
            kind,
            from,
            to,
            via: [None, None],
            role: None,
            place: None,
        }
    }

    /// A plain move (or capture) of the piece on `from`.
    pub const fn normal(from: Square, to: Square) -> Move {
        Move::base(MoveKind::Normal, Some(from), Some(to))
    }

    /// A pawn move that promotes to `role`.
    pub const fn promotion(from: Square, to: Square, role: Role) -> Move {
        let mut m = Move::normal(from, to);
        m.role = Some(role);
        m
    }

    pub const fn double_step(from: Square, to: Square) -> Move {
        Move::base(MoveKind::DoubleStep, Some(from), Some(to))
    }

    pub const fn en_passant(from: Square, to: Square) -> Move {
        Move::base(MoveKind::EnPassant, Some(from), Some(to))
    }

    /// Castling as the king's move, `e1g1`.
    pub const fn castle(king_from: Square, king_to: Square) -> Move {
        Move::base(MoveKind::Castle, Some(king_from), Some(king_to))
    }

    /// A piece from the reserve onto `to`.
    pub const fn drop(role: Role, to: Square) -> Move {
        let mut m = Move::base(MoveKind::Drop, None, Some(to));
        m.role = Some(role);
        m
    }

    /// The mover's trampoline onto `to`.
    pub const fn trampoline(to: Square) -> Move {
        Move::base(MoveKind::Trampoline, None, Some(to))
    }

    /// A Jumping King's jump, leaving `placed` on `from` if given.
    pub const fn jump(from: Square, to: Square, placed: Option<Role>) -> Move {
        let mut m = Move::base(MoveKind::Jump, Some(from), Some(to));
        m.role = placed;
        m
    }

    pub const fn pass() -> Move {
        Move::base(MoveKind::Pass, None, None)
    }

    /// The same move, with its bounce path.
    pub const fn with_via(mut self, via: [Option<Square>; 2]) -> Move {
        self.via = via;
        self
    }

    /// The same move, with a Hop Chess trampoline placement after it.
    pub const fn with_place(mut self, place: Option<Square>) -> Move {
        self.place = place;
        self
    }

    /// The same move, with a promotion (or placed man) `role`.
    pub const fn with_role(mut self, role: Option<Role>) -> Move {
        self.role = role;
        self
    }

    #[inline]
    pub const fn kind(self) -> MoveKind {
        self.kind
    }

    /// The origin square; `None` for drops, trampoline moves and passes.
    #[inline]
    pub const fn from(self) -> Option<Square> {
        self.from
    }

    /// The destination; `None` only for a pass.
    #[inline]
    pub const fn to(self) -> Option<Square> {
        self.to
    }

    /// The trampolines the piece bounces off, in order.
    #[inline]
    pub fn via(self) -> impl Iterator<Item = Square> {
        self.via.into_iter().flatten()
    }

    #[inline]
    pub const fn via_slots(self) -> [Option<Square>; 2] {
        self.via
    }

    #[inline]
    pub const fn is_bounce(self) -> bool {
        self.via[0].is_some()
    }

    /// The promotion piece of a pawn move, the dropped piece of a drop, or
    /// the man a Jumping King leaves behind.
    #[inline]
    pub const fn role(self) -> Option<Role> {
        self.role
    }

    /// The promotion piece, for moves of kind `Normal`.
    #[inline]
    pub fn promotion_role(self) -> Option<Role> {
        match self.kind {
            MoveKind::Normal => self.role,
            _ => None,
        }
    }

    /// Hop Chess: where the mover's trampoline stands after the turn.
    #[inline]
    pub const fn place(self) -> Option<Square> {
        self.place
    }

    /// The move without its Hop Chess placement part.
    pub const fn piece_part(mut self) -> Move {
        self.place = None;
        self
    }

    fn identity(
        &self,
    ) -> (
        MoveKind,
        Option<Square>,
        Option<Square>,
        Option<Role>,
        Option<Square>,
    ) {
        (self.kind, self.from, self.to, self.role, self.place)
    }
}

impl PartialEq for Move {
    fn eq(&self, other: &Move) -> bool {
        self.identity() == other.identity()
    }
}

impl Eq for Move {}

impl Hash for Move {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.identity().hash(state);
    }
}

/// A list of moves. Generation appends to it.
pub type MoveList = Vec<Move>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn p9_path_is_not_identity() {
        let direct = Move::normal(Square::C1, Square::F4);
        let bounce = direct.with_via([Some(Square::E3), None]);
        assert_eq!(direct, bounce);
        let double = Move::double_step(Square::D2, Square::D4);
        let hop = Move::normal(Square::D2, Square::D4).with_via([Some(Square::D3), None]);
        assert_ne!(double, hop);
    }
}
