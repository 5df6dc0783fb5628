//! The search: iterative deepening over a principal-variation alpha-beta
//! search with aspiration windows, a transposition table, quiescence search,
//! check extensions, null-move pruning, late-move reductions and pruning,
//! and draw detection (repetition, 50-move rule, insufficient material).
//!
//! Scores are centipawns for the side to move; a mate in `n` plies from
//! the root is `MATE - n` (and `-MATE + n` when mated).
//!
//! Several threads (Lazy SMP) search the same root and share the
//! transposition table; the first thread reports and decides.

//!
//! The modules, by concern:
//! - `api`: what callers see (scores, [`Info`], [`SearchResult`]);
//! - `profile`: every per-game switch of the search, one exhaustive
//!   `match` on the variant each (null moves, exchanges, cheap checks, Hop
//!   Chess half-steps);
//! - `worker`: one thread's state and the alpha-beta (PVS) search;
//! - `quiescence`: the quiescence search and Hop Chess's placement state;
//! - `histories`: the history, continuation and correction tables a
//!   search learns and the engine keeps across a game's searches;
//! - `ordering`: move ordering (the scores, killers, the updates of the
//!   histories, placement guesses) and the pick of the next move;
//! - `next_move`: the pick loop's step, a macro;
//! - `step_checks`: whether a Hop Chess piece step may check with its
//!   placement;
//! - `see`: static exchange evaluation and capture values;
//! - `root`: threads, iterative deepening, MultiPV, the chosen move;
//! - `pv`: principal variations and ponder moves rebuilt as whole turns.
//!
//! The entry point, [`Engine`] (defined here, re-exported at the crate
//! root), holds what lasts from one search of a game to the next (the
//! transposition table, the histories, the options) and runs the search.

mod api;
mod eval_cache;
mod histories;
mod next_move;
mod ordering;
mod profile;
mod pv;
mod quiescence;
mod root;
mod see;
mod step_checks;
mod worker;

pub use api::{Info, Score, SearchResult, INF, MATE, MATE_BOUND, MAX_PLY};
use histories::Histories;
pub use profile::null_move_allowed;
use root::run;
pub use see::{is_capture, see_ge};

use crate::limits::{Limits, Signals};
use crate::strength::Strength;
use crate::tt::Tt;
use springboard_rules::Position;

/// The engine: its transposition table and options. One search runs at a time.
pub struct Engine {
    tt: Tt,
    /// The main thread's move-ordering statistics, kept from one search
    /// of a game to the next.
    histories: Histories,
    /// Search threads (Lazy SMP), at least 1.
    pub threads: usize,
    /// Principal variations to report (UCI `MultiPV`), at least 1.
    pub multipv: usize,
    /// Playing strength limits; `Strength::FULL` plays its best.
    pub strength: Strength,
    /// Milliseconds kept back from every move for communication delays.
    pub move_overhead_ms: u64,
}

impl Engine {
    /// An engine with a `hash_mb` megabyte transposition table.
    pub fn new(hash_mb: usize) -> Engine {
        Engine {
            tt: Tt::new(hash_mb),
            histories: Histories::none(),
            threads: 1,
            multipv: 1,
            strength: Strength::FULL,
            move_overhead_ms: 30,
        }
    }

    /// Replaces the transposition table by an empty one of `mb` megabytes.
    pub fn set_hash(&mut self, mb: usize) {
        self.tt = Tt::new(mb);
    }

    /// Forgets everything learnt (a new game).
    pub fn new_game(&mut self) {
        self.tt.clear();
        self.histories = Histories::none();
    }

    /// Searches `root`. `history` holds the Zobrist keys of the positions
    /// played before `root`, oldest first (for repetitions; only those since
    /// the last irreversible move matter). Returns when a limit is reached or
    /// `signals.stop` is set; an `infinite` or pondering search waits for
    /// `stop` (or `ponderhit`) before it returns.
    pub fn search(
        &mut self,
        root: &Position,
        history: &[u64],
        limits: &Limits,
        signals: &Signals,
        on_info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        run(self, root, history, limits, signals, on_info)
    }
}
