//! The games domain's part of the server's state ([`GamesState`]) and
//! the handle its handlers and loops are given ([`GamesCtx`], the axum
//! substate `State<GamesCtx>`). Built by `state.rs`, which composes the
//! domains; the games domain knows nothing above it.

use super::limit::Limiter;
use super::rated::RatedGames;
use super::Games;
use crate::engine::EngineProvider;
use crate::error::ApiError;
use crate::{pool, seat};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// The games domain's state.
pub struct GamesState {
    pub(crate) games: Games,
    pub(crate) engine: Option<Arc<dyn EngineProvider>>,
    pub(crate) pool: pool::Pool,
    pub(crate) limiter: Limiter,
    /// Each game's flag timer and the version it was set for (one per
    /// game with a running clock).
    pub(crate) flags: Mutex<HashMap<String, (i64, tokio::task::AbortHandle)>>,
    /// The rules of rated games (the ratings domain's answers), when the
    /// server rates games.
    pub(crate) rated: Option<Arc<dyn RatedGames>>,
    /// Who holds which seats: the browser's cookie, or the account's
    /// seats when the server has accounts.
    pub(crate) seats: Arc<dyn seat::Holders>,
}

/// What the games' handlers (`State<GamesCtx>`) and loops hold.
pub type GamesCtx = Arc<GamesState>;

impl GamesState {
    /// The engine, or a 404 for a server without one.
    pub(crate) fn engine(&self) -> Result<Arc<dyn EngineProvider>, ApiError> {
        self.engine
            .clone()
            .ok_or_else(|| ApiError::NotFound("this server has no engine".into()))
    }
}
