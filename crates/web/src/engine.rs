//! The seam between the web app and an engine.
//!
//! The web crate does not depend on any engine. Whoever starts the server
//! passes an [`EngineProvider`] (or none: then the page offers no play
//! against the engine and no analysis). The server calls it on a blocking
//! worker thread (`tokio::task::spawn_blocking`), so a long think never
//! stalls other requests, and it raises the `stop` flag when the answer is
//! no longer wanted (a move or takeback in the game, a newer analysis of the
//! same game). Every move it returns is checked by the rules core like a
//! move from the page.
//!
//! Plugging an engine in (in the `springboard` binary's `serve`):
//!
//! ```ignore
//! struct Adapter(/* the engine */);
//! impl springboard_web::EngineProvider for Adapter { /* name, max_level, best_move, analyse */ }
//! springboard_web::run(&args.host, args.port, Some(Arc::new(Adapter(...))))?;
//! ```
//!
//! The page then offers "Against the engine" with a side and a level
//! (1..=`max_level`), and "Analysis" (evaluation and best line).

use springboard_rules::{Game, Move, Variant};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// An evaluation from the point of view of the side to move of the
/// analysed position (the server turns it to White's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Evaluation {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves; negative: the side to move is mated.
    Mate(i32),
}

/// How long an analysis may run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnalysisLimit {
    /// Think this long.
    Time(Duration),
    /// Search to this depth, but never longer than the duration.
    Depth(u32, Duration),
}

impl AnalysisLimit {
    /// The longest the analysis may run.
    pub fn time(&self) -> Duration {
        match *self {
            AnalysisLimit::Time(t) | AnalysisLimit::Depth(_, t) => t,
        }
    }
}

/// What the engine thinks of a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// For the side to move.
    pub score: Evaluation,
    /// The best line, its first move first: whole moves of the game (a Hop
    /// Chess move with its placement).
    pub pv: Vec<Move>,
    /// The depth the score comes from.
    pub depth: u32,
}

/// The engine's clock in a game with a clock: it thinks within it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineClock {
    /// The engine's remaining time, in ms.
    pub own_ms: u64,
    /// The opponent's remaining time, in ms.
    pub opponent_ms: u64,
    /// The increment per move, in ms.
    pub increment_ms: u64,
}

/// What the level picker shows for a level besides its number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelLabel {
    /// A short name, like "Club player".
    pub name: String,
    /// The rough rating measured for the level, if any.
    pub elo: Option<u32>,
}

/// An engine that can choose a move in a game of any implemented variant
/// and analyse its positions.
pub trait EngineProvider: Send + Sync + 'static {
    /// The engine's name, shown on the page.
    fn name(&self) -> String;

    /// The strongest level the engine offers; levels run from 1 to this.
    fn max_level(&self) -> u8;

    /// A level's name and rough rating in a game, shown in the level
    /// picker; `None` (the default) shows the bare number.
    fn level_label(&self, variant: Variant, level: u8) -> Option<LevelLabel> {
        let _ = (variant, level);
        None
    }

    /// The move the engine plays in `game` (its current position, with the
    /// history for repetition) at `level`, or `None` when it has none (the
    /// game is over) or was stopped before it found one. It must return
    /// soon after `stop` becomes true.
    fn best_move(&self, game: &Game, level: u8, stop: Arc<AtomicBool>) -> Option<Move>;

    /// The move the engine plays in a game with a clock: like
    /// [`EngineProvider::best_move`], thinking within `clock`. The default
    /// ignores the clock.
    fn best_move_on_clock(
        &self,
        game: &Game,
        level: u8,
        clock: EngineClock,
        stop: Arc<AtomicBool>,
    ) -> Option<Move> {
        let _ = clock;
        self.best_move(game, level, stop)
    }

    /// The engine's full-strength view of `game`'s current position (with
    /// its history for repetition) within `limit`, or `None` when it has
    /// nothing to say (no legal move, or stopped before its first result).
    /// It must return soon after `stop` becomes true.
    fn analyse(&self, game: &Game, limit: AnalysisLimit, stop: Arc<AtomicBool>)
        -> Option<Analysis>;
}
