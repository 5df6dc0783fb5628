//! The seam between the web app and an engine.
//!
//! The web crate does not depend on any engine. Whoever starts the server
//! passes an [`EngineProvider`] (or none: then the page offers no play
//! against the engine). The server calls it on a blocking worker thread
//! (`tokio::task::spawn_blocking`), so a long think never stalls other
//! requests, and it raises the `stop` flag when the game the engine thinks
//! about changes (a move, a takeback, a new position). The move it returns
//! is checked by the rules core like a move from the page.
//!
//! Plugging an engine in (in the `springboard` binary's `serve`):
//!
//! ```ignore
//! struct Adapter(/* the engine */);
//! impl springboard_web::EngineProvider for Adapter { /* name, max_level, best_move */ }
//! springboard_web::run(&args.host, args.port, Some(Arc::new(Adapter(...))))?;
//! ```
//!
//! The page then offers "Against the engine" with a side and a level
//! (1..=`max_level`).

use springboard_rules::{Game, Move};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// An engine that can choose a move in a game of any implemented variant.
pub trait EngineProvider: Send + Sync + 'static {
    /// The engine's name, shown on the page.
    fn name(&self) -> String;

    /// The strongest level the engine offers; levels run from 1 to this.
    fn max_level(&self) -> u8;

    /// The move the engine plays in `game` (its current position, with the
    /// history for repetition) at `level`, or `None` when it has none (the
    /// game is over) or was stopped before it found one. It must return
    /// soon after `stop` becomes true.
    fn best_move(&self, game: &Game, level: u8, stop: Arc<AtomicBool>) -> Option<Move>;
}
