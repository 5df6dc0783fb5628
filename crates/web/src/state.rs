//! The server's shared state ([`AppState`]), how the app is put together
//! ([`Options`]), the creation limiter, and the start-up that builds the
//! state and resumes the unfinished games.

use crate::clock::{Clock, SystemClock};
use crate::engine::EngineProvider;
use crate::error::{ApiError, ServeError};
use crate::games::engine as schedule;
use crate::games::{Action, Games};
use crate::live::presence;
use crate::store::{GameEndHook, GameEnded, PresenceStore, Store};
use crate::{pool, seat};
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The largest request body the API reads (a long PGN fits many times).
pub const MAX_BODY_BYTES: usize = 256 * 1024;
/// Game creations allowed per client address and minute.
pub const CREATIONS_PER_MINUTE: u32 = 20;
/// Engine searches running at once (moves and analyses); the others wait.
pub const ENGINE_WORKERS: usize = 2;

/// How the app is put together.
pub struct Options {
    pub engine: Option<Arc<dyn EngineProvider>>,
    pub clock: Arc<dyn Clock>,
    pub engine_workers: usize,
    pub creations_per_minute: u32,
    /// How often the heartbeat is written on a shared store (tests that
    /// stand for a process that died make it long).
    pub heartbeat: Duration,
    /// The reverse proxies whose `X-Forwarded-For`/`-Proto` are believed
    /// (`proxy.rs`; empty: none).
    pub trusted_proxies: crate::proxy::Trusted,
    /// Where accounts are kept (usually the game store itself); None: the
    /// server has no accounts and `/api/account` answers 404.
    pub accounts: Option<Arc<dyn crate::accounts::AccountStore>>,
    /// Where ratings are kept (usually the game store itself); None: no
    /// game is rated and `/api/user/{name}` answers 404.
    pub ratings: Option<Arc<dyn crate::ratings::RatingStore>>,
    /// The player pages' and leaderboards' queries (usually the game
    /// store itself); they need `ratings` too. None: `/api/user/{name}/...`
    /// and `/api/player/...` answer 404.
    pub players: Option<Arc<dyn crate::store::PlayerStore>>,
    /// What other domains do when a game ends, in the transaction that
    /// ends it, in this order ([`GameEndHook`]); the ratings' update
    /// ([`crate::ratings::RatingUpdate`]) is there from the start.
    pub end_hooks: Vec<Arc<dyn GameEndHook>>,
    /// Every game's end, after its commit ([`Options::subscribe_ended`]).
    ended: tokio::sync::broadcast::Sender<GameEnded>,
}

impl Options {
    pub fn new(engine: Option<Arc<dyn EngineProvider>>) -> Options {
        Options {
            engine,
            clock: Arc::new(SystemClock),
            engine_workers: ENGINE_WORKERS,
            creations_per_minute: CREATIONS_PER_MINUTE,
            heartbeat: Duration::from_millis(HEARTBEAT_MS.unsigned_abs()),
            trusted_proxies: crate::proxy::Trusted::default(),
            accounts: None,
            ratings: None,
            players: None,
            end_hooks: vec![Arc::new(crate::ratings::RatingUpdate)],
            ended: tokio::sync::broadcast::channel(crate::games::ENDED_CAPACITY).0,
        }
    }

    /// Every game's end from now on, after its commit (an in-process
    /// subscriber; one that falls more than 1,024 ends behind misses
    /// some).
    pub fn subscribe_ended(&self) -> tokio::sync::broadcast::Receiver<GameEnded> {
        self.ended.subscribe()
    }
}

/// Creations per client address in the current minute.
pub(crate) struct Limiter {
    pub(crate) per_minute: u32,
    pub(crate) windows: Mutex<HashMap<IpAddr, (i64, u32)>>,
}

impl Limiter {
    /// Counts one creation by `ip` at `now`; false when over the limit.
    pub(crate) fn allow(&self, ip: IpAddr, now: i64) -> bool {
        let mut w = self.windows.lock().unwrap_or_else(|e| e.into_inner());
        if w.len() > 100_000 {
            w.retain(|_, (start, _)| now.saturating_sub(*start) < 60_000);
        }
        let entry = w.entry(ip).or_insert((now, 0));
        if now.saturating_sub(entry.0) >= 60_000 {
            *entry = (now, 0);
        }
        if entry.1 >= self.per_minute {
            return false;
        }
        entry.1 += 1;
        true
    }
}

/// How often a server process writes its heartbeat row.
pub const HEARTBEAT_MS: i64 = 5_000;
/// A heartbeat older than this is a process that is gone: its presence
/// rows are ignored, and a process starting with no fresher heartbeat of
/// another restarts the running clocks.
pub const FRESH_MS: i64 = 15_000;
/// Heartbeat rows (and their presence rows) older than this are deleted.
pub const FORGET_MS: i64 = 3_600_000;

/// The server's shared state.
pub struct AppState {
    pub(crate) games: Games,
    pub(crate) engine: Option<Arc<dyn EngineProvider>>,
    pub(crate) pool: pool::Pool,
    pub(crate) limiter: Limiter,
    /// Each game's flag timer and the version it was set for (one per
    /// game with a running clock).
    pub(crate) flags: Mutex<HashMap<String, (i64, tokio::task::AbortHandle)>>,
    /// The live domain's queries (heartbeats and presence).
    pub(crate) live_store: Arc<dyn PresenceStore>,
    /// This process's random id (heartbeat and presence rows).
    pub(crate) process: String,
    /// Games whose sockets here changed, for the presence writer (a shared
    /// store only).
    pub(crate) presence: Option<tokio::sync::mpsc::UnboundedSender<String>>,
    /// Users and sessions, when the server has accounts.
    pub(crate) accounts: Option<crate::accounts::Accounts>,
    /// The ratings' queries, when the server rates games.
    pub(crate) ratings: Option<Arc<dyn crate::ratings::RatingStore>>,
    /// The rules of rated games, as the games domain asks them.
    pub(crate) rated: Option<Arc<dyn crate::games::rated::RatedGames>>,
    /// Who holds which seats: the browser's cookie, or the account's
    /// seats when the server has accounts.
    pub(crate) seats: Arc<dyn seat::Holders>,
}

impl AppState {
    /// Tells the other processes (through the store) that who is
    /// connected to game `id` here changed.
    pub(crate) fn presence_changed(&self, id: &str) {
        if let Some(tx) = &self.presence {
            let _ = tx.send(id.to_string());
        }
    }

    /// The engine, or a 404 for a server without one.
    pub(crate) fn engine(&self) -> Result<Arc<dyn EngineProvider>, ApiError> {
        self.engine
            .clone()
            .ok_or_else(|| ApiError::NotFound("this server has no engine".into()))
    }
}

/// The server's state over `store`, its unfinished games resumed.
pub(crate) async fn state_with(
    store: Arc<dyn Store>,
    options: Options,
) -> Result<Arc<AppState>, ServeError> {
    let shared = store.shared();
    let heartbeat = options.heartbeat;
    let (presence_tx, presence_rx) = tokio::sync::mpsc::unbounded_channel();
    let seats: Arc<dyn seat::Holders> = match &options.accounts {
        Some(accounts) => Arc::new(crate::accounts::seats::AccountSeats::new(
            accounts.clone(),
            options.clock.clone(),
        )),
        None => Arc::new(seat::CookieSeats),
    };
    let mut games = Games::new(store.clone(), options.clock);
    games.end_hooks = options.end_hooks;
    games.ended = options.ended;
    crate::games::ended::log_ends(&games);
    let state = Arc::new(AppState {
        games,
        engine: options.engine,
        pool: pool::Pool::new(options.engine_workers),
        limiter: Limiter {
            per_minute: options.creations_per_minute,
            windows: Mutex::new(HashMap::new()),
        },
        flags: Mutex::new(HashMap::new()),
        live_store: store,
        process: seat::random_base62(16),
        presence: shared.then_some(presence_tx),
        accounts: options.accounts.map(crate::accounts::Accounts::new),
        rated: options.ratings.clone().map(|store| {
            Arc::new(crate::ratings::seats::Seats { store })
                as Arc<dyn crate::games::rated::RatedGames>
        }),
        ratings: options.ratings,
        seats,
    });
    presence::listen(&state).await?;
    // The running clocks restart (the time nobody served the games is not
    // charged) unless another process on the same database is alive: it
    // may be serving these games, so their clocks go on. SQLite has one
    // process: it always restarts them.
    let now = state.games.now();
    let store = &state.live_store;
    let restart = !shared
        || !store
            .others_alive(&state.process, now.saturating_sub(FRESH_MS))
            .await?;
    store.heartbeat(&state.process, now).await?;
    if shared {
        presence::heartbeats(&state, heartbeat);
        presence::write_presence(&state, presence_rx);
    }
    let unfinished = state.games.store.unfinished().await?;
    for id in unfinished {
        match state
            .games
            .change(&id, None, Action::Touch { restart })
            .await
        {
            Ok(done) => {
                schedule::schedule_engine(&state, &done.live);
                schedule::schedule_flag(&state, &done.live);
            }
            Err(e) => tracing::error!(game = %id, error = %e, "cannot resume the game"),
        }
    }
    Ok(state)
}
