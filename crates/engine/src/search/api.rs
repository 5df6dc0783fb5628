//! What the search gives its callers: the score bounds, the score as the
//! protocols show it, the progress reports and the result.

use crate::tt::Bound;
use springboard_rules::Move;

pub const MAX_PLY: usize = 128;
pub const INF: i32 = 32_000;
pub const MATE: i32 = 31_000;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;

/// A score as the protocols show it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns for the side to move.
    Cp(i32),
    /// Mate in this many moves (negative: the side to move is mated).
    Mate(i32),
}

impl Score {
    pub fn from_internal(v: i32) -> Score {
        if v >= MATE_BOUND {
            Score::Mate((MATE - v + 1) / 2)
        } else if v <= -MATE_BOUND {
            Score::Mate(-(MATE + v) / 2)
        } else {
            Score::Cp(v)
        }
    }
}

/// Progress of a search, reported after each iteration (one per line with
/// `MultiPV`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    pub depth: u32,
    pub seldepth: u32,
    /// 1-based index of the line.
    pub multipv: usize,
    pub score: Score,
    /// `Some` when the iteration was cut short and the score is only a bound.
    pub bound: Option<Bound>,
    pub nodes: u64,
    pub nps: u64,
    pub time_ms: u64,
    pub hashfull: u32,
    pub pv: Vec<Move>,
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// `None` only when the root has no legal move.
    pub best: Option<Move>,
    /// The expected reply, for pondering.
    pub ponder: Option<Move>,
    pub score: Score,
    pub depth: u32,
    pub nodes: u64,
}

/// A mate score `turns` from the root made relative to the node (for the
/// transposition table).
pub(super) fn score_to_tt(score: i32, turns: i32) -> i32 {
    if score >= MATE_BOUND {
        score + turns
    } else if score <= -MATE_BOUND {
        score - turns
    } else {
        score
    }
}

/// A table score made relative to the root again (see [`score_to_tt`]).
pub(super) fn score_from_tt(score: i32, turns: i32) -> i32 {
    if score >= MATE_BOUND {
        score - turns
    } else if score <= -MATE_BOUND {
        score + turns
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_for_protocols() {
        assert_eq!(Score::from_internal(MATE - 1), Score::Mate(1));
        assert_eq!(Score::from_internal(MATE - 3), Score::Mate(2));
        assert_eq!(Score::from_internal(-MATE + 2), Score::Mate(-1));
        assert_eq!(Score::from_internal(-MATE), Score::Mate(0));
        assert_eq!(Score::from_internal(35), Score::Cp(35));
    }
}
