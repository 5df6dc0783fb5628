//! The transposition table: one entry per slot, shared by every search
//! thread without locks.
//!
//! Each slot holds two `AtomicU64`: the data word and `key ^ data`. A torn
//! write (two threads storing at once) makes the check fail, so a reader
//! sees either a whole entry or none (the "lockless hashing" of Hyatt and
//! Mann).
//!
//! Data word layout (bits):
//! - 0..28  the move ([`encode_move`]; 0 = no move)
//! - 28..44 the score (i16, mate scores relative to the node)
//! - 44..52 the depth (u8)
//! - 52..54 the bound ([`Bound`])
//! - 54..60 the generation (6 bits, one per search)

use springboard_rules::{Move, MoveKind, Square};
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// What a stored score says about the true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score is at most the stored one (no move raised alpha).
    Upper = 1,
    /// The true score is at least the stored one (a beta cutoff).
    Lower = 2,
    /// The stored score is exact (a PV node).
    Exact = 3,
}

impl Bound {
    fn from_bits(bits: u64) -> Option<Bound> {
        match bits {
            1 => Some(Bound::Upper),
            2 => Some(Bound::Lower),
            3 => Some(Bound::Exact),
            _ => None,
        }
    }
}

/// A move packed into 28 bits: its identity (ruling P9: kind, origin,
/// destination, role, placement; the bounce path is left out). The search
/// finds the full move again among the legal moves.
pub fn encode_move(m: Move) -> u32 {
    let sq = square_code;
    let kind = match m.kind() {
        MoveKind::Normal => 0,
        MoveKind::DoubleStep => 1,
        MoveKind::EnPassant => 2,
        MoveKind::Castle => 3,
        MoveKind::Drop => 4,
        MoveKind::Trampoline => 5,
        MoveKind::Jump => 6,
        MoveKind::Pass => 7,
    };
    let role = m.role().map_or(0, |r| r.index() as u32 + 1);
    1 | kind << 1 | sq(m.from()) << 4 | sq(m.to()) << 11 | role << 18 | sq(m.place()) << 21
}

/// A square's code in [`encode_move`] (0 for none).
#[inline]
pub fn square_code(s: Option<Square>) -> u32 {
    s.map_or(0, |s| s.index() as u32 + 1)
}

/// The destination's [`square_code`] in an encoded move: a move whose
/// destination has another code is not that move, which is cheaper to see
/// than the whole encoding.
#[inline]
pub fn destination_code(code: u32) -> u32 {
    (code >> 11) & 0x7f
}

/// One probed entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The packed best move, 0 if none ([`encode_move`]).
    pub mv: u32,
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
}

/// The table. Its size is a power of two of 16-byte slots.
pub struct Tt {
    slots: Vec<[AtomicU64; 2]>,
    generation: AtomicU8,
}

const SLOT_BYTES: usize = 16;

impl Tt {
    /// A table of at most `mb` megabytes (at least one slot).
    pub fn new(mb: usize) -> Tt {
        let bytes = mb.max(1).saturating_mul(1 << 20);
        let count = (bytes / SLOT_BYTES).max(1);
        let count = 1usize << (usize::BITS - 1 - count.leading_zeros());
        let slots = (0..count)
            .map(|_| [AtomicU64::new(0), AtomicU64::new(0)])
            .collect();
        Tt {
            slots,
            generation: AtomicU8::new(0),
        }
    }

    /// Empties the table (new game).
    pub fn clear(&self) {
        for s in &self.slots {
            s[0].store(0, Ordering::Relaxed);
            s[1].store(0, Ordering::Relaxed);
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: older entries become easier to replace.
    pub fn new_search(&self) {
        let g = self.generation.load(Ordering::Relaxed);
        self.generation.store((g + 1) & 63, Ordering::Relaxed);
    }

    fn slot(&self, key: u64) -> &[AtomicU64; 2] {
        // The slot count is a power of two.
        &self.slots[(key as usize) & (self.slots.len() - 1)]
    }

    /// The entry stored for `key`, if any.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let slot = self.slot(key);
        let data = slot[0].load(Ordering::Relaxed);
        let check = slot[1].load(Ordering::Relaxed);
        if data == 0 || check ^ data != key {
            return None;
        }
        Some(Entry {
            mv: (data & 0x0fff_ffff) as u32,
            score: ((data >> 28) & 0xffff) as u16 as i16 as i32,
            depth: ((data >> 44) & 0xff) as i32,
            bound: Bound::from_bits((data >> 52) & 3)?,
        })
    }

    /// Stores an entry. A deeper entry of the same search for another
    /// position is kept; the move of an entry for the same position is kept
    /// when the new one has none.
    pub fn store(&self, key: u64, mv: u32, score: i32, depth: i32, bound: Bound) {
        let slot = self.slot(key);
        let generation = self.generation.load(Ordering::Relaxed) as u64;
        let old = slot[0].load(Ordering::Relaxed);
        let same = old != 0 && slot[1].load(Ordering::Relaxed) ^ old == key;
        let depth = depth.clamp(0, 255) as u64;
        if old != 0 && !same {
            let old_depth = (old >> 44) & 0xff;
            let old_gen = (old >> 54) & 63;
            if old_gen == generation && old_depth > depth + 2 && bound != Bound::Exact {
                return;
            }
        }
        let mv = if mv == 0 && same {
            old & 0x0fff_ffff
        } else {
            mv as u64
        };
        let score = score.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16 as u64;
        let data = mv | score << 28 | depth << 44 | (bound as u64) << 52 | generation << 54;
        slot[0].store(data, Ordering::Relaxed);
        slot[1].store(key ^ data, Ordering::Relaxed);
    }

    /// Per mille of the first thousand slots used in this search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed) as u64;
        let n = self.slots.len().min(1000);
        let used = self.slots[..n]
            .iter()
            .filter(|s| {
                let d = s[0].load(Ordering::Relaxed);
                d != 0 && (d >> 54) & 63 == generation
            })
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use springboard_rules::Role;

    #[test]
    fn store_and_probe() {
        let tt = Tt::new(1);
        let m = encode_move(Move::promotion(Square::E7, Square::E8, Role::Knight));
        assert_eq!(tt.probe(42), None);
        tt.store(42, m, -31_950, 7, Bound::Lower);
        assert_eq!(
            tt.probe(42),
            Some(Entry {
                mv: m,
                score: -31_950,
                depth: 7,
                bound: Bound::Lower
            })
        );
        // Another key in the same slot does not match.
        let other = 42 + (1u64 << 40);
        assert_eq!(tt.probe(other), None);
        // A store without a move keeps the old move of the same position.
        tt.store(42, 0, 5, 8, Bound::Exact);
        assert_eq!(tt.probe(42).map(|e| (e.mv, e.score)), Some((m, 5)));
        tt.clear();
        assert_eq!(tt.probe(42), None);
    }

    #[test]
    fn hop_chess_steps_round_trip() {
        use springboard_rules::{Position, Variant};
        // After 1.e4, Black's piece steps, then its placements after Nf6.
        let pos = Position::from_fen(
            Variant::HopChess,
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 -,- -",
        )
        .unwrap();
        let mut steps = Vec::new();
        pos.legal_steps_into(&mut steps);
        let mut mid = pos.clone();
        mid.play_step(Move::normal(Square::G8, Square::F6));
        let mut places = Vec::new();
        mid.legal_steps_into(&mut places);
        assert_eq!((steps.len(), places.len()), (20, 32));
        for list in [&steps, &places] {
            for &m in list.iter() {
                let code = encode_move(m);
                let found: Vec<Move> = list
                    .iter()
                    .copied()
                    .filter(|&l| encode_move(l) == code)
                    .collect();
                assert_eq!(found, [m]);
                // A whole turn has another code than its piece step.
                let turn = m.with_place(Some(Square::D5));
                assert_ne!(encode_move(turn), code);
            }
        }
    }

    #[test]
    fn move_codes_follow_identity() {
        let direct = Move::normal(Square::C1, Square::F4);
        let bounce = direct.with_via([Some(Square::E3), None]);
        assert_eq!(encode_move(direct), encode_move(bounce));
        let moves = [
            Move::normal(Square::E2, Square::E4),
            Move::double_step(Square::E2, Square::E4),
            Move::promotion(Square::E7, Square::E8, Role::Queen),
            Move::promotion(Square::E7, Square::E8, Role::Rook),
            Move::castle(Square::E1, Square::G1),
            Move::drop(Role::Hoplit, Square::D1),
            Move::trampoline(Square::E5),
            Move::pass(),
        ];
        for (i, a) in moves.iter().enumerate() {
            assert_ne!(encode_move(*a), 0);
            for b in &moves[i + 1..] {
                assert_ne!(encode_move(*a), encode_move(*b), "{a:?} {b:?}");
            }
        }
    }
}
