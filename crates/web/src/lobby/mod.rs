//! The lobby: open challenges (seeks) that anyone may accept, personal
//! challenges by username, the live list of both over a WebSocket, and who
//! is online. The first accept of a challenge starts a friend game with
//! both seats taken (the author's and the acceptor's) and both pages go to
//! it.
//!
//! - `store.rs`: the table (`migrations/*/0006_lobby.sql`) and the
//!   notices between server processes, for SQLite and PostgreSQL;
//! - `view.rs`: a challenge and the socket's messages as the page sees
//!   them;
//! - `hub.rs`: this process's list, its fan-out to the lobby sockets, the
//!   authors' sockets (a challenge is withdrawn when its author's last one
//!   is gone) and who is online (its own sockets, and the game and
//!   notifications sockets through [`Presence`]);
//! - `http.rs`: the routes under `/api/lobby`;
//! - `ws.rs`: the lobby socket.
//!
//! The lobby sits above the games, accounts and ratings: what it asks of
//! them (who a request is, a rating, a new game) goes through [`Desk`],
//! which the lobby owns and the app implements.

pub(crate) mod http;
pub(crate) mod hub;
pub mod store;
pub mod view;
pub(crate) mod ws;

pub use store::{ChallengeRecord, LobbyStore};

use crate::error::ApiError;
use crate::seat::Holder;
use crate::store::{StoreError, StoreTx};
use async_trait::async_trait;
use axum::http::HeaderMap;
use springboard_rules::Color;
use std::sync::Arc;
use std::time::Duration;

/// The most challenges one author has open at once.
pub const MAX_OPEN_PER_AUTHOR: i64 = 3;
/// Challenges one client address may post in 5 minutes
/// (`accounts::limit::WINDOW_MS`).
pub const POSTS_PER_WINDOW: u32 = 30;
/// How long a challenge outlives its author's last lobby socket.
pub const GRACE: Duration = Duration::from_secs(5);
/// How often the challenges of processes that died are looked for.
pub const SWEEP: Duration = Duration::from_secs(10);

/// A new game from an accepted challenge.
pub struct NewGame {
    pub variant: String,
    /// Initial time and increment, ms.
    pub clock: Option<(i64, i64)>,
    /// A correspondence game's time control (`clock` is its ms).
    pub correspondence: Option<crate::store::corr::Correspondence>,
    pub rated: bool,
    /// The start position (None: the game's usual start).
    pub start_fen: Option<String>,
    /// The author's seat and colour.
    pub author_seat: String,
    pub author_color: Color,
    /// The acceptor, who takes the other seat.
    pub acceptor: Holder,
}

/// What the lobby asks of the domains below it (the games, accounts and
/// ratings); the app implements it.
#[async_trait]
pub trait Desk: Send + Sync + 'static {
    /// The seats the request holds (with `take`, one of its own if it
    /// has none: the cookie to send is in the `Holder`'s `cookie`).
    async fn holder(&self, headers: &HeaderMap, take: bool) -> Result<Holder, ApiError>;

    /// The name of the account with id `id`, if there is one.
    async fn account_name(&self, id: &str) -> Result<Option<String>, ApiError>;

    /// Whether the server rates games (it has accounts and ratings).
    fn rates(&self) -> bool;

    /// The rating (rounded) of account `user` in game `variant`, and
    /// whether it is provisional.
    async fn rating(&self, user: &str, variant: &str) -> Result<(i64, bool), ApiError>;

    /// Creates the game and seats both players: its id.
    async fn start(&self, game: NewGame) -> Result<String, ApiError>;

    /// Now, ms since the Unix epoch (the app's clock).
    fn now(&self) -> i64;
}

/// Who acts on a challenge: a request, whose seats the [`Desk`] finds
/// from its headers (cookies), or a holder found another way (a bearer
/// token of the lichess-compatible API, `crate::lichess`).
pub(crate) enum Who<'a> {
    Request(&'a HeaderMap),
    Holder(Holder),
}

impl Who<'_> {
    /// The seats it holds (with `take`, a request with none gets one).
    pub(crate) async fn holder(self, desk: &dyn Desk, take: bool) -> Result<Holder, ApiError> {
        match self {
            Who::Request(headers) => desk.holder(headers, take).await,
            Who::Holder(h) => Ok(h),
        }
    }
}

/// What is written with a new personal challenge (the notifications: the
/// challenged account's notification and its email), in the transaction
/// that stores the challenge; the lobby owns the trait, the app
/// implements it.
#[async_trait]
pub trait ChallengeHook: Send + Sync + 'static {
    /// Acts on personal challenge `c` in `tx`. An error rolls the
    /// challenge back (the request gets it).
    async fn on_personal(
        &self,
        tx: &mut StoreTx<'_>,
        c: &ChallengeRecord,
    ) -> Result<(), StoreError>;
}

/// Who is told of a new personal challenge once it is stored (the
/// notifications' live push); the lobby owns the trait, the app
/// implements it.
pub trait ChallengeSink: Send + Sync + 'static {
    /// Challenge `c`, naming its target account, was just posted (its
    /// [`ChallengeHook`] writes committed with it).
    fn personal(&self, c: &ChallengeRecord);
}

/// Nobody is told.
pub struct NoSink;

impl ChallengeSink for NoSink {
    fn personal(&self, _c: &ChallengeRecord) {}
}

/// Who is online through the other sockets of signed-in accounts (a
/// game's, the notifications'): the `live::Online` the app gives the
/// live and notify domains, counted in the lobby's who-is-online beside
/// its own sockets (and so told to the other processes with them). Set
/// once the lobby is made; before (or without a lobby) nothing is
/// counted.
#[derive(Default)]
pub struct Presence(std::sync::OnceLock<std::sync::Weak<Lobby>>);

impl Presence {
    /// The lobby to count in.
    pub(crate) fn set(&self, lobby: &Arc<Lobby>) {
        let _ = self.0.set(Arc::downgrade(lobby));
    }

    fn lobby(&self) -> Option<Arc<Lobby>> {
        self.0.get()?.upgrade()
    }
}

impl crate::live::Online for Presence {
    fn opened(&self, user: &str) {
        if let Some(lobby) = self.lobby() {
            hub::arrived(&lobby, user);
        }
    }

    fn closed(&self, user: &str) {
        if let Some(lobby) = self.lobby() {
            hub::departed(&lobby, user);
        }
    }
}

/// The lobby's part of the server.
pub struct Lobby {
    pub(crate) store: Arc<dyn LobbyStore>,
    pub(crate) desk: Arc<dyn Desk>,
    pub(crate) hub: hub::Hub,
    /// This process's id (the challenges it holds).
    pub(crate) process: String,
    pub(crate) grace: Duration,
    pub(crate) posts: crate::accounts::limit::Counter<std::net::IpAddr>,
    /// The blocks between accounts: none challenges the other.
    pub(crate) relation: crate::relation::RelationCtx,
    /// Told of each personal challenge posted.
    pub(crate) personal: Arc<dyn ChallengeSink>,
    /// Run in the transaction that stores a personal challenge.
    pub(crate) hook: Option<Arc<dyn ChallengeHook>>,
}

/// The lobby's handlers' state: a cheap clone (None: the server has no
/// lobby, and its routes answer 404).
#[derive(Clone)]
pub struct LobbyCtx(pub(crate) Option<Arc<Lobby>>);

impl LobbyCtx {
    pub(crate) fn get(&self) -> Result<&Arc<Lobby>, ApiError> {
        self.0
            .as_ref()
            .ok_or_else(|| ApiError::NotFound("this server has no lobby".into()))
    }
}

impl Lobby {
    pub(crate) fn new(
        store: Arc<dyn LobbyStore>,
        desk: Arc<dyn Desk>,
        process: String,
        grace: Duration,
        relation: crate::relation::RelationCtx,
        personal: Arc<dyn ChallengeSink>,
        hook: Option<Arc<dyn ChallengeHook>>,
    ) -> Lobby {
        let posts = crate::accounts::limit::Counter::new(POSTS_PER_WINDOW);
        Lobby {
            store,
            desk,
            hub: hub::Hub::new(),
            process,
            grace,
            posts,
            relation,
            personal,
            hook,
        }
    }
}

/// Starts the lobby: withdraws the challenges of processes that died
/// (with no heartbeat for `fresh_ms`; on a store with one process,
/// `shared` false, every earlier run's), reads the list, listens to the
/// other processes' changes and sweeps again now and then.
pub(crate) async fn start(
    lobby: &Arc<Lobby>,
    fresh_ms: i64,
    shared: bool,
) -> Result<(), crate::store::StoreError> {
    let since = if shared {
        lobby.desk.now().saturating_sub(fresh_ms)
    } else {
        i64::MAX
    };
    lobby.store.withdraw_dead(&lobby.process, since).await?;
    hub::refresh(lobby).await;
    hub::listen(lobby).await?;
    hub::sweep(lobby, fresh_ms);
    Ok(())
}
