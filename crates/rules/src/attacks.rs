//! Attack tables on the full 8x8 grid. Boards with holes intersect these sets
//! with their mask and treat holes as blockers (see [`crate::Variant::mask`]).

use crate::bitboard::Bitboard;
use crate::types::{Color, Role, Square};

pub(crate) struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

include!(concat!(env!("OUT_DIR"), "/tables.rs"));

#[inline]
pub fn knight_attacks(sq: Square) -> Bitboard {
    Bitboard(KNIGHT[sq.index()])
}

#[inline]
pub fn king_attacks(sq: Square) -> Bitboard {
    Bitboard(KING[sq.index()])
}

/// The squares a pawn of `color` on `sq` attacks (captures on).
#[inline]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    Bitboard(PAWN[color.index() * 64 + sq.index()])
}

#[inline]
fn magic_lookup(m: &Magic, occupied: Bitboard) -> Bitboard {
    let idx = ((occupied.0 & m.mask).wrapping_mul(m.magic) >> m.shift) as usize;
    Bitboard(SLIDER_ATTACKS[m.offset + idx])
}

#[inline]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    magic_lookup(&ROOK_MAGICS[sq.index()], occupied)
}

#[inline]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    magic_lookup(&BISHOP_MAGICS[sq.index()], occupied)
}

#[inline]
pub fn queen_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    rook_attacks(sq, occupied) | bishop_attacks(sq, occupied)
}

/// The squares strictly between `a` and `b` if they share a line, else empty.
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(BETWEEN[a.index() * 64 + b.index()])
}

/// The whole line (edge to edge) through `a` and `b`, or empty.
#[inline]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(LINE[a.index() * 64 + b.index()])
}

/// `true` if `a`, `b` and `c` lie on one line.
#[inline]
pub fn aligned(a: Square, b: Square, c: Square) -> bool {
    line(a, b).contains(c)
}

/// The capture squares of a FIDE piece of `role` (pawn needs `color`).
/// The Hoplit is not a plain slider and has its own generator.
#[inline]
pub fn attacks(role: Role, color: Color, sq: Square, occupied: Bitboard) -> Bitboard {
    match role {
        Role::Pawn => pawn_attacks(color, sq),
        Role::Knight => knight_attacks(sq),
        Role::Bishop => bishop_attacks(sq, occupied),
        Role::Rook => rook_attacks(sq, occupied),
        Role::Queen => queen_attacks(sq, occupied),
        Role::King => king_attacks(sq),
        Role::Hoplit => Bitboard::EMPTY,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slider_tables() {
        let occ = Bitboard::from_square(Square::D6) | Square::F4;
        let r = rook_attacks(Square::D4, occ);
        assert!(r.contains(Square::D6));
        assert!(!r.contains(Square::D7));
        assert!(r.contains(Square::A4));
        assert!(r.contains(Square::F4));
        assert!(!r.contains(Square::G4));
        assert!(r.contains(Square::D1));
        assert_eq!(r.count(), 10);
        let b = bishop_attacks(Square::C1, Bitboard::EMPTY);
        assert_eq!(b.count(), 7);
        assert_eq!(
            between(Square::A1, Square::D4),
            Bitboard::from_square(Square::B2) | Square::C3
        );
        assert_eq!(line(Square::A1, Square::B2).count(), 8);
        assert!(between(Square::A1, Square::B3).is_empty());
        assert_eq!(knight_attacks(Square::A1).count(), 2);
        assert_eq!(king_attacks(Square::E4).count(), 8);
        assert_eq!(
            pawn_attacks(Color::White, Square::E4),
            Bitboard::from_square(Square::D5) | Square::F5
        );
    }
}
