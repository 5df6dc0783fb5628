//! A search thread's cache of static evaluations, keyed by the position's
//! full Zobrist key: the evaluation is a function of the position alone
//! (no clock, no history), and the search evaluates the same position
//! again and again (every iteration, every re-search, every table hit
//! that does not cut), so a hit gives the very value `evaluate` would.
//! The key does not hold the game (the chess start and Trampoline Chess's
//! share theirs): a cache serves one search, of one game.
//!
//! A miss evaluates with the FIDE pawn structure (`eval::fide::pawn_terms`,
//! a function of the two sides' pawns and the game's weights) kept in a
//! second, smaller table by the pawns themselves: most evaluations of a
//! search meet a pawn structure seen before.

use crate::eval::weights::{Weights, S};
use crate::eval::{evaluate_with_pawns, fide};
use springboard_rules::{Bitboard, Position};

/// Entries: a power of two (16 bytes each, 256 KB: it stays near the
/// core, where a lookup is cheaper than an evaluation).
const ENTRIES: usize = 1 << 14;
/// Pawn-structure entries: a power of two (24 bytes each, 48 KB).
const PAWN_ENTRIES: usize = 1 << 11;

pub(super) struct EvalCache {
    /// Each slot's key and evaluation side by side (one cache line).
    slots: Vec<(u64, i32)>,
    /// Each slot's White and Black pawns and their `fide::pawn_terms`. The
    /// empty slot's (no pawns, no terms) is a true entry.
    pawns: Vec<(u64, u64, S)>,
}

/// White's pawns `white` and Black's `black` mixed into one word
/// (multiplicative hashing): its high bits index the tables kept by pawn
/// structure, this cache's and the correction history's.
#[inline]
pub(super) fn pawn_mix(white: Bitboard, black: Bitboard) -> u64 {
    white.0.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ black.0.wrapping_mul(0xc2b2_ae3d_27d4_eb4f)
}

/// The pawn table's slot of White's pawns `white` and Black's `black`
/// (the high bits of [`pawn_mix`]).
#[inline]
fn pawn_slot(white: Bitboard, black: Bitboard) -> usize {
    (pawn_mix(white, black) >> (64 - PAWN_ENTRIES.trailing_zeros())) as usize
}

impl EvalCache {
    pub(super) fn new() -> EvalCache {
        EvalCache {
            slots: vec![(0, 0); ENTRIES],
            pawns: vec![(0, 0, S::ZERO); PAWN_ENTRIES],
        }
    }

    /// `fide::pawn_terms(w, white, black)`, from the pawn table when the
    /// pawns are there.
    #[inline]
    fn pawn_terms(pawns: &mut [(u64, u64, S)], w: &Weights, white: Bitboard, black: Bitboard) -> S {
        let i = pawn_slot(white, black);
        let (wp, bp, terms) = pawns[i];
        if wp == white.0 && bp == black.0 {
            return terms;
        }
        let terms = fide::pawn_terms(w, white, black);
        pawns[i] = (white.0, black.0, terms);
        terms
    }

    /// `evaluate(pos)`, from the cache when the key is there. Key 0 (an
    /// empty slot's) is never taken from it.
    #[inline]
    pub(super) fn evaluate(&mut self, pos: &Position) -> i32 {
        let key = pos.hash();
        let i = (key as usize) & (ENTRIES - 1);
        let (k, e) = self.slots[i];
        if key != 0 && k == key {
            return e;
        }
        let pawns = &mut self.pawns;
        let e = evaluate_with_pawns(pos, |w, white, black| {
            Self::pawn_terms(pawns, w, white, black)
        });
        self.slots[i] = (key, e);
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::evaluate;
    use springboard_rules::Variant;

    /// Random pawn sets, met once and met again (hits, and slots taken
    /// over by other sets): the table gives `fide::pawn_terms`.
    #[test]
    fn the_pawn_table_gives_what_pawn_terms_gives() {
        let mut table = vec![(0, 0, S::ZERO); PAWN_ENTRIES];
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            seed
        };
        let mut sets = Vec::new();
        for _ in 0..4 * PAWN_ENTRIES {
            // Pawns on the second to seventh ranks, about a quarter of
            // them, no square twice.
            let white = next() & next() & 0x00ff_ffff_ffff_ff00;
            let black = next() & next() & 0x00ff_ffff_ffff_ff00 & !white;
            sets.push((Bitboard(white), Bitboard(black)));
        }
        sets.push((Bitboard::EMPTY, Bitboard::EMPTY));
        // Sets in one slot that share one side's pawns: the slot must
        // tell them apart by both sides.
        for k in 0..64 {
            let (white, black) = sets[k];
            let slot = pawn_slot(white, black);
            let mut other = |shared: Bitboard, white_shared: bool| loop {
                let b = Bitboard(next() & next() & 0x00ff_ffff_ffff_ff00 & !shared.0);
                let set = if white_shared {
                    (shared, b)
                } else {
                    (b, shared)
                };
                if pawn_slot(set.0, set.1) == slot && set != (white, black) {
                    break set;
                }
            };
            let a = other(white, true);
            let b = other(black, false);
            sets.extend([a, (white, black), b, (white, black)]);
        }
        let mut hits = 0;
        for variant in Variant::ALL {
            let w = crate::eval::weights::for_variant(variant);
            for round in 0..2 {
                for &(white, black) in sets.iter().rev().skip(round * PAWN_ENTRIES) {
                    let i = pawn_slot(white, black);
                    hits += usize::from(table[i].0 == white.0 && table[i].1 == black.0);
                    assert_eq!(
                        EvalCache::pawn_terms(&mut table, w, white, black),
                        fide::pawn_terms(w, white, black),
                        "{variant} {white:?} {black:?}"
                    );
                }
            }
            table.fill((0, 0, S::ZERO));
        }
        assert!(hits > 100, "{hits}");
    }

    /// Along random games of every game, the cached value is `evaluate`'s,
    /// for positions met for the first time and met again.
    #[test]
    fn the_cache_gives_what_evaluate_gives() {
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut hits = 0;
        for variant in Variant::ALL {
            let mut cache = EvalCache::new();
            for _game in 0..4 {
                let mut pos = Position::startpos(variant);
                let mut seen = Vec::new();
                for _ply in 0..80 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    seen.push(pos.clone());
                    assert_eq!(cache.evaluate(&pos), evaluate(&pos), "{}", pos.to_fen());
                    seed = seed
                        .wrapping_mul(6_364_136_223_846_793_005)
                        .wrapping_add(1_442_695_040_888_963_407);
                    pos.play(moves[(seed >> 33) as usize % moves.len()]);
                }
                for p in &seen {
                    let i = (p.hash() as usize) & (ENTRIES - 1);
                    hits += usize::from(cache.slots[i].0 == p.hash());
                    assert_eq!(cache.evaluate(p), evaluate(p), "{}", p.to_fen());
                }
            }
        }
        assert!(hits > 1_000, "{hits}");
    }
}
