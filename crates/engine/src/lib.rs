//! # springboard-engine
//!
//! The playing engine: iterative-deepening principal-variation search with
//! a shared transposition table, and a tapered evaluation. It works over the
//! rules core's [`Position`](springboard_rules::Position) only and knows
//! nothing of user interfaces or protocols: a front end builds an
//! [`Engine`], calls [`Engine::search`] with [`Limits`] and [`Signals`],
//! receives [`Info`] by callback and gets a [`SearchResult`].
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
mod level;
mod limits;
pub mod search;
mod strength;
mod time;
pub mod tt;
pub mod tune;

pub use level::Level;
pub use limits::{Limits, Signals};
pub use search::{Engine, Info, Score, SearchResult};
pub use strength::Strength;
