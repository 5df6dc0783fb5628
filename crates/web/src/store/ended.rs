//! The end of a game as an event other domains act on ([`GameEnded`]):
//! in the same transaction as the game's row, through the end-of-game
//! hooks ([`GameEndHook`], given the open transaction as a [`StoreTx`]),
//! and after the commit, through the in-process subscribers
//! (`crate::games::Games::ended`).
//!
//! A hook that fails rolls the whole change back: the game is not ended,
//! nothing any hook wrote is kept, and the request gets an error.

use super::games::GameRecord;
use super::kinds::{Mode, Status};
use super::StoreError;
use async_trait::async_trait;
use springboard_rules::Color;
use std::sync::Arc;

/// A game that just ended: what its change wrote, as the other domains
/// (ratings, notifications) need it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameEnded {
    pub id: String,
    pub variant: String,
    pub mode: Mode,
    /// Whether the game is rated (`ratings/` moves the players' ratings).
    pub rated: bool,
    /// SHA-256 (hex) of the cookie holding each seat, if taken.
    pub white_seat: Option<String>,
    pub black_seat: Option<String>,
    /// The engine's side in an engine game.
    pub engine_color: Option<Color>,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// Why: `checkmate`, `resignation`, `time`, `draw agreed`...
    pub reason: String,
    /// The moves played.
    pub plies: usize,
    /// The game's version that ended it.
    pub version: i64,
    /// When (server clock, ms since the Unix epoch).
    pub at: i64,
}

impl GameEnded {
    /// The event of the change from `before` to `after`, if it ends the
    /// game (`after` is ended, `before` was not); None otherwise.
    pub fn of_change(before: &GameRecord, after: &GameRecord) -> Option<GameEnded> {
        if before.status == Status::Ended || after.status != Status::Ended {
            return None;
        }
        Some(GameEnded {
            id: after.id.clone(),
            variant: after.variant.clone(),
            mode: after.mode,
            rated: after.rated,
            white_seat: after.white_seat.clone(),
            black_seat: after.black_seat.clone(),
            engine_color: after.engine_color,
            result: after.result.clone().unwrap_or_default(),
            reason: after.reason.clone().unwrap_or_default(),
            plies: after.moves.len(),
            version: after.version,
            at: after.updated_at,
        })
    }
}

/// The open transaction of a store's change, for an end-of-game hook to
/// write in: its statements commit with the game's end or not at all.
pub enum StoreTx<'t> {
    Sqlite(&'t mut sqlx::SqliteConnection),
    Postgres(&'t mut sqlx::PgConnection),
}

/// Something another domain does when a game ends, inside the transaction
/// that ends it (registered in [`crate::Options::end_hooks`]).
#[async_trait]
pub trait GameEndHook: Send + Sync + 'static {
    /// Acts on `ended` in `tx`. An error rolls the game's end back (the
    /// request gets it); [`StoreError::Hook`] says why in the hook's words.
    async fn on_end(&self, tx: &mut StoreTx<'_>, ended: &GameEnded) -> Result<(), StoreError>;
}

/// A change that ends a game, for [`super::GameStore::update`]: the event
/// and the hooks to run on it.
#[derive(Clone, Copy)]
pub struct Ending<'a> {
    pub event: &'a GameEnded,
    pub hooks: &'a [Arc<dyn GameEndHook>],
}

impl Ending<'_> {
    /// Runs every hook in `tx`, in order; the first error stops them.
    pub(crate) async fn run(&self, tx: &mut StoreTx<'_>) -> Result<(), StoreError> {
        for hook in self.hooks {
            hook.on_end(tx, self.event).await?;
        }
        Ok(())
    }
}
