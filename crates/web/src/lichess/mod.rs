//! The lichess-compatible API (issue 42, item 9): the subset of lichess's
//! Board API that its clients use, so that they work against Springboard
//! unchanged, authorised by personal API tokens (`Authorization: Bearer`).
//! Its challenges are the lobby's, its games the site's: nothing is kept
//! twice. The differences from lichess are in `docs/api.md`.
//!
//! - `store.rs`: the tokens' table (`migrations/*/0010_api_tokens.sql`);
//! - `auth.rs`: tokens (issued, read from a request) and the seats a
//!   token's request holds;
//! - `tokens.rs`: the account page's token routes (`/api/account/tokens`);
//! - `params.rs`: a request's parameters, sent as JSON or as a form;
//! - `views.rs`: challenges, games and their states in lichess's shapes;
//! - `ndjson.rs`: the streams' bodies (ndjson with keep-alive newlines);
//! - `account.rs`: `GET /api/account`;
//! - `challenges.rs`: `/api/challenge/...` and `POST /api/board/seek`;
//! - `events.rs`: `GET /api/stream/event`;
//! - `board.rs`: `/api/board/game/...`, the game's stream and actions;
//! - `board_chat.rs`: `/api/board/game/{id}/chat`, on the game chat;
//! - `export.rs`: `GET /game/export/{id}`, `GET /api/games/user/{name}`.
//!
//! It sits above the games, live, accounts, ratings, lobby and chat
//! domains and uses them; none of them uses it.

mod account;
pub mod auth;
mod board;
mod board_chat;
mod challenges;
mod events;
mod export;
mod ndjson;
mod params;
pub mod store;
mod tokens;
mod views;

pub use store::{TokenRecord, TokenStore};

use crate::accounts::AccountsCtx;
use crate::chat::ChatCtx;
use crate::error::ApiError;
use crate::games::GamesCtx;
use crate::live::LiveCtx;
use crate::lobby::LobbyCtx;
use crate::ratings::RatingsCtx;
use axum::extract::FromRef;
use axum::routing::{get, post};
use axum::Router;
use std::sync::Arc;
use std::time::Duration;

/// How often a stream with nothing to tell sends an empty line (lichess's
/// keep-alive), so that clients and proxies know it lives.
pub const KEEP_ALIVE: Duration = Duration::from_secs(7);

/// The lichess-compatible API's state: the tokens (None: the server has no
/// accounts, and the API answers 404) and the domains it works on.
pub struct LichessState {
    pub(crate) tokens: Option<Arc<dyn TokenStore>>,
    pub(crate) accounts: AccountsCtx,
    pub(crate) games: GamesCtx,
    pub(crate) live: LiveCtx,
    pub(crate) ratings: RatingsCtx,
    pub(crate) lobby: LobbyCtx,
    /// The game chat, for the board chat (`board_chat.rs`).
    pub(crate) chat: ChatCtx,
}

/// What the API's handlers (`State<LichessCtx>`) hold.
pub type LichessCtx = Arc<LichessState>;

impl LichessState {
    pub(crate) fn tokens(&self) -> Result<&Arc<dyn TokenStore>, ApiError> {
        self.tokens
            .as_ref()
            .ok_or_else(|| ApiError::NotFound("this server has no accounts".into()))
    }

    pub(crate) fn now(&self) -> i64 {
        self.accounts.now()
    }
}

/// The API's routes. `GET /api/account` answers lichess's account for a
/// bearer token and the site's own (`accounts::http::me`) for a session.
/// `GET /api/user/{name}` is the ratings' (already in lichess's shape).
pub(crate) fn routes<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    LichessCtx: FromRef<S>,
{
    let cookie_authorised = Router::new()
        .route("/api/account/tokens", post(tokens::create))
        .route(
            "/api/account/tokens/{id}",
            axum::routing::delete(tokens::revoke),
        )
        .route_layer(axum::middleware::from_fn(crate::csrf::require_origin));
    Router::new()
        .route("/api/account", get(account::account))
        .route("/api/account/tokens", get(tokens::list))
        .route("/api/stream/event", get(events::stream))
        .route("/api/challenge/open", post(challenges::open))
        .route("/api/challenge/{id}", post(challenges::create))
        .route("/api/challenge/{id}/accept", post(challenges::accept))
        .route("/api/challenge/{id}/decline", post(challenges::decline))
        .route("/api/challenge/{id}/cancel", post(challenges::cancel))
        .route("/api/board/seek", post(challenges::seek))
        .route("/api/board/game/stream/{id}", get(board::stream))
        .route("/api/board/game/{id}/move/{mv}", post(board::play))
        .route("/api/board/game/{id}/resign", post(board::resign))
        .route("/api/board/game/{id}/abort", post(board::abort))
        .route("/api/board/game/{id}/draw/{answer}", post(board::draw))
        .route(
            "/api/board/game/{id}/takeback/{answer}",
            post(board::takeback),
        )
        .route(
            "/api/board/game/{id}/chat",
            get(board_chat::lines).post(board_chat::say),
        )
        .route("/game/export/{id}", get(export::game))
        .route("/api/games/user/{name}", get(export::user_games))
        .merge(cookie_authorised)
}
