//! Ratings: Glicko-2 per account and game, as lichess keeps them. A game
//! is rated when its creator asks and both seats are accounts; its end
//! moves both ratings in the transaction that ends it.
//!
//! - `glicko.rs`: the rating maths' settings (the `skillratings` crate
//!   does the maths);
//! - `store.rs`: the tables (`migrations/*/0005_ratings.sql`) and the
//!   update in the ending transaction, for SQLite and PostgreSQL;
//! - `hook.rs`: that update as the end-of-game hook ([`RatingUpdate`]);
//! - `seats.rs`: who may create and join a rated game, and the seats'
//!   ratings for the game's view (the games domain's `RatedGames`);
//! - `http.rs`: `GET /api/user/{name}`.

pub mod glicko;
mod hook;
pub(crate) mod http;
pub(crate) mod seats;
pub mod store;

pub use glicko::Rating;
pub use hook::RatingUpdate;
pub use store::RatingStore;

use std::sync::Arc;

/// The ratings domain's state: where ratings are kept (None: no game is
/// rated and `/api/user/{name}` answers 404).
pub struct RatingsState {
    pub(crate) ratings: Option<Arc<dyn RatingStore>>,
}

/// What the ratings' handlers (`State<RatingsCtx>`) hold.
pub type RatingsCtx = Arc<RatingsState>;
