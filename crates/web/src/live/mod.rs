//! The live side of a game: its WebSocket, the fan-out of changes to each
//! game's sockets, and who is connected across server processes.

pub(crate) mod hub;
pub(crate) mod presence;
pub mod protocol;
pub(crate) mod ws;

use crate::games::GamesCtx;
use axum::extract::FromRef;
use axum::routing::get;
use axum::Router;
use std::sync::Arc;

/// The live domain's state: the games it serves, the fan-out of their
/// changes, and who is connected here and in the other processes.
pub struct LiveState {
    /// The games domain's state (the live domain sits above it).
    pub(crate) games: GamesCtx,
    /// The per-game fan-out of changes (also the games'
    /// [`ChangeSink`](crate::games::ChangeSink)).
    pub(crate) hub: Arc<hub::Hub>,
    /// The live domain's queries (heartbeats and presence).
    pub(crate) live_store: Arc<dyn crate::store::PresenceStore>,
    /// This process's random id (heartbeat and presence rows).
    pub(crate) process: String,
    /// Games whose sockets here changed, for the presence writer (a shared
    /// store only).
    pub(crate) presence: Option<tokio::sync::mpsc::UnboundedSender<String>>,
    /// Told of the game sockets of signed-in accounts (who is online).
    pub(crate) online: Arc<dyn Online>,
}

/// Who is told that a signed-in account opened or closed a socket other
/// than the lobby's (a game's here; the notifications' too): the lobby's
/// who-is-online. The live domain owns the trait, the app implements it
/// (`lobby::Presence`). Each `opened` is followed by one `closed` of the
/// same account, called in order as the sockets open and close.
pub trait Online: Send + Sync + 'static {
    fn opened(&self, user: &str);
    fn closed(&self, user: &str);
}

/// What the live domain's handlers (`State<LiveCtx>`) and loops hold.
pub type LiveCtx = Arc<LiveState>;

impl LiveState {
    /// Tells the other processes (through the store) that who is
    /// connected to game `id` here changed.
    pub(crate) fn presence_changed(&self, id: &str) {
        if let Some(tx) = &self.presence {
            let _ = tx.send(id.to_string());
        }
    }
}

/// The live domain's routes: a game's WebSocket, on any router state that
/// gives the live domain's state ([`LiveCtx`]).
pub(crate) fn routes<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    LiveCtx: FromRef<S>,
{
    Router::new().route("/api/games/{id}/ws", get(ws::connect))
}
