//! # springboard-engine
//!
//! The playing engine: iterative-deepening principal-variation search with
//! a shared transposition table, and a tapered evaluation. It works over the
//! rules core's [`Position`] only and knows nothing of user interfaces or
//! protocols: a front end builds an [`Engine`], calls [`Engine::search`] with
//! [`Limits`] and [`Signals`], receives [`Info`] by callback and gets a
//! [`SearchResult`].
//!
//! Game seams: the evaluation dispatches on the game in [`eval::evaluate`];
//! the search keeps every per-game switch in its profile module
//! (`search/profile.rs`): whether a game may pass
//! ([`search::null_move_allowed`], null-move pruning), whether its exchange
//! rules are FIDE's (for [`search::see_ge`]), whether its checks come cheap,
//! and how its turns split into steps. A game whose turn has several steps (Hop Chess: the piece
//! move, then the placement) is searched as plies of the same side (the
//! rules core's `legal_steps_into` / `play_step`): a child with the same
//! side to move keeps the parent's score and window. What the engine
//! reports (`bestmove`, PV lines, ponder) is whole turns, the moves of
//! `Position::legal_moves`.

#![forbid(unsafe_code)]

pub mod baseline;
pub mod eval;
mod limits;
pub mod search;
mod strength;
mod time;
pub mod tt;
pub mod tune;

pub use limits::{Limits, Signals};
pub use search::{Info, Score, SearchResult};
pub use strength::Strength;

use springboard_rules::Position;
use tt::Tt;

/// The engine: its transposition table and options. One search runs at a time.
pub struct Engine {
    tt: Tt,
    /// The main thread's move-ordering statistics, kept from one search
    /// of a game to the next.
    histories: search::Histories,
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
            histories: search::Histories::none(),
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
        self.histories = search::Histories::none();
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
        search::run(self, root, history, limits, signals, on_info)
    }
}
