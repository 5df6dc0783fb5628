//! A search thread's cache of static evaluations, keyed by the position's
//! full Zobrist key: the evaluation is a function of the position alone
//! (no clock, no history), and the search evaluates the same position
//! again and again (every iteration, every re-search, every table hit
//! that does not cut), so a hit gives the very value `evaluate` would.
//! The key does not hold the game (the chess start and Trampoline Chess's
//! share theirs): a cache serves one search, of one game.

use crate::eval::evaluate;
use springboard_rules::Position;

/// Entries: a power of two (16 bytes each, 256 KB: it stays near the
/// core, where a lookup is cheaper than an evaluation).
const ENTRIES: usize = 1 << 14;

pub(super) struct EvalCache {
    /// Each slot's key and evaluation side by side (one cache line).
    slots: Vec<(u64, i32)>,
}

impl EvalCache {
    pub(super) fn new() -> EvalCache {
        EvalCache {
            slots: vec![(0, 0); ENTRIES],
        }
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
        let e = evaluate(pos);
        self.slots[i] = (key, e);
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use springboard_rules::Variant;

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
