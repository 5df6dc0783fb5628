//! The in-process subscribers of a game's end ([`Games::ended`]): the
//! "game finished" log line.

use super::Games;
use crate::store::GameEnded;
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::broadcast::Receiver;

/// Logs every game's end ("game finished", with its result, reason and
/// plies) until the games are gone.
pub(crate) fn log_ends(games: &Games) {
    let mut rx: Receiver<GameEnded> = games.ended.subscribe();
    tokio::spawn(async move {
        loop {
            match rx.recv().await {
                Ok(e) => tracing::info!(
                    game = %e.id,
                    result = %e.result,
                    reason = %e.reason,
                    plies = e.plies,
                    "game finished"
                ),
                Err(RecvError::Lagged(missed)) => {
                    tracing::warn!(missed, "the log of game ends fell behind")
                }
                Err(RecvError::Closed) => break,
            }
        }
    });
}
