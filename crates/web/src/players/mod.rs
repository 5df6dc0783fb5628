//! Players: what the player page (`/@/{name}`) and the leaderboards show.
//! An account's rating history per game, its played games (ongoing and
//! finished, by game) with its results counted per game, and each game's
//! leaderboard of non-provisional ratings. It reads the accounts', the
//! ratings' and the games' tables and writes nothing.
//!
//! - the queries are the store's (`crate::store::players`: [`PlayerStore`],
//!   for SQLite and PostgreSQL);
//! - `date.rs`: a time as lichess's `[year, month0, day]`;
//! - `http.rs`: `GET /api/user/{name}/rating-history`,
//!   `/api/user/{name}/games` and `/api/user/{name}/counts`;
//! - `top.rs`: `GET /api/player` and `/api/player/top/{nb}/{perf}`.
//!
//! Its handlers take [`PlayersCtx`] (only what the domain needs), which
//! `state.rs` builds and hands to [`routes`] through `FromRef`.

mod date;
pub(crate) mod http;
pub(crate) mod top;

use crate::ratings::{Rating, RatingStore, RatingsCtx};
use crate::store::players::StoredRating;
use crate::store::PlayerStore;
use axum::extract::FromRef;
use axum::Router;
use std::sync::Arc;

/// The players domain's state: its queries, the ratings' (accounts by
/// name, progress), and the engine for the games lists.
pub struct PlayersState {
    /// None: the server has no accounts (every route answers 404).
    pub(crate) players: Option<Arc<dyn PlayerStore>>,
    pub(crate) ratings: RatingsCtx,
    /// The server's engine, if any: its name names the engine's seats
    /// (asked when a list is made, as the games' views do).
    pub(crate) engine: Option<Arc<dyn crate::engine::EngineProvider>>,
}

/// What the players' handlers (`State<PlayersCtx>`) hold.
pub type PlayersCtx = Arc<PlayersState>;

/// The queries the players domain reads, both there.
pub(crate) struct Stores<'a> {
    pub(crate) players: &'a dyn PlayerStore,
    pub(crate) ratings: &'a dyn RatingStore,
}

impl PlayersState {
    /// Both stores, or None on a server without accounts.
    pub(crate) fn stores(&self) -> Option<Stores<'_>> {
        Some(Stores {
            players: self.players.as_deref()?,
            ratings: self.ratings.ratings.as_deref()?,
        })
    }
}

/// The players' routes, on any state that gives a [`PlayersCtx`].
pub fn routes<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    PlayersCtx: FromRef<S>,
{
    use axum::routing::get;
    Router::new()
        .route("/api/user/{name}/rating-history", get(http::rating_history))
        .route("/api/user/{name}/games", get(http::games))
        .route("/api/user/{name}/counts", get(http::counts))
        .route("/api/player", get(top::leaders))
        .route("/api/player/top/{nb}/{perf}", get(top::top))
}

/// A stored rating as the ratings domain counts it.
fn rating(s: StoredRating) -> Rating {
    Rating {
        rating: s.rating,
        deviation: s.deviation,
        volatility: s.volatility,
    }
}
