//! The live side of a game: its WebSocket, the fan-out of changes to each
//! game's sockets, and who is connected across server processes.

pub(crate) mod hub;
pub(crate) mod presence;
pub mod protocol;
pub(crate) mod ws;

use crate::state::AppState;
use axum::routing::get;
use axum::Router;
use std::sync::Arc;

/// The live domain's routes: a game's WebSocket.
pub(crate) fn routes() -> Router<Arc<AppState>> {
    Router::new().route("/api/games/{id}/ws", get(ws::connect))
}
