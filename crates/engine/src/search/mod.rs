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
pub(crate) use histories::Histories;
pub use profile::null_move_allowed;
pub(crate) use root::run;
pub use see::{is_capture, see_ge};
