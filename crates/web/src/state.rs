//! The server's shared state ([`AppState`], composed of the domains'
//! states), how the app is put together ([`Options`]), and the start-up
//! that builds the state and resumes the unfinished games. It imports the
//! domains; none of them imports it.

use crate::accounts::{AccountsCtx, AccountsState};
use crate::chat::ChatCtx;
use crate::clock::{Clock, SystemClock};
use crate::engine::EngineProvider;
use crate::error::ServeError;
use crate::games::engine as schedule;
use crate::games::limit::Limiter;
use crate::games::{Action, Games, GamesCtx, GamesState};
use crate::lab::{LabCtx, LabState};
use crate::lichess::{LichessCtx, LichessState};
use crate::live::hub::Hub;
use crate::live::presence;
pub use crate::live::presence::{FORGET_MS, FRESH_MS, HEARTBEAT_MS};
use crate::live::{LiveCtx, LiveState};
use crate::lobby::LobbyCtx;
use crate::notify::NotifyCtx;
use crate::players::{PlayersCtx, PlayersState};
use crate::ratings::{RatingsCtx, RatingsState};
use crate::relation::{RelationCtx, RelationState};
use crate::store::{GameEndHook, GameEnded, Store};
use crate::{pool, seat};
use axum::extract::FromRef;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

mod desk;

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
    /// Where the lobby's challenges are kept (usually the game store
    /// itself); None: the server has no lobby.
    pub lobby: Option<Arc<dyn crate::lobby::LobbyStore>>,
    /// How long a challenge outlives its author's last lobby socket.
    pub lobby_grace: Duration,
    /// The player pages' and leaderboards' queries (usually the game
    /// store itself); they need `ratings` too. None: `/api/user/{name}/...`
    /// and `/api/player/...` answer 404.
    pub players: Option<Arc<dyn crate::store::PlayerStore>>,
    /// Where blocks between accounts are kept (usually the game store
    /// itself); None: nobody blocks anybody and `/api/rel/...` answers 404.
    pub relation: Option<Arc<dyn crate::relation::RelationStore>>,
    /// Where the games' chat lines are kept (usually the game store
    /// itself); None: the server has no chat.
    pub chat: Option<Arc<dyn crate::chat::ChatStore>>,
    /// Where the personal API tokens are kept (usually the game store
    /// itself); they need `accounts` too. None: the lichess-compatible
    /// API answers 404.
    pub tokens: Option<Arc<dyn crate::lichess::TokenStore>>,
    /// Where the notifications are kept (usually the game store itself);
    /// they need `accounts` too. None: no notifications, `/api/notify`
    /// answers 404.
    pub notify: Option<Arc<dyn crate::notify::NotifyStore>>,
    /// How email is sent (`serve --smtp`); None: email is off.
    pub mail: Option<crate::notify::MailConfig>,
    /// The directory the lab's results are read from at each request
    /// (`serve --lab DIR`); None: the repository's `lab/*.json` embedded
    /// at build time.
    pub lab: Option<std::path::PathBuf>,
    /// Where the accounts' passkeys are kept (usually the game store
    /// itself); they need `accounts` too. None: no passkeys.
    pub passkeys: Option<Arc<dyn crate::accounts::PasskeyStore>>,
    /// The site's public URL (`serve --public-url`, else
    /// `http://localhost:PORT`): the passkeys' relying party. None: any
    /// port of `http://localhost`.
    pub public_url: Option<String>,
    /// What other domains do when a game ends, in the transaction that
    /// ends it, in this order ([`GameEndHook`]); the ratings' update
    /// ([`crate::ratings::RatingUpdate`]) is there from the start.
    pub end_hooks: Vec<Arc<dyn GameEndHook>>,
    /// Every game's end, after its commit ([`Options::subscribe_ended`]).
    ended: tokio::sync::broadcast::Sender<GameEnded>,
}

impl Options {
    /// Every domain's queries over `store`, the one database the games are
    /// kept in (`SqliteStore` and `PgStore` hold them all).
    pub fn domains_on<S>(&mut self, store: &Arc<S>)
    where
        S: crate::accounts::AccountStore
            + crate::ratings::RatingStore
            + crate::lobby::LobbyStore
            + crate::store::PlayerStore
            + crate::relation::RelationStore
            + crate::chat::ChatStore
            + crate::lichess::TokenStore
            + crate::notify::NotifyStore
            + crate::accounts::PasskeyStore,
    {
        self.accounts = Some(store.clone());
        self.ratings = Some(store.clone());
        self.lobby = Some(store.clone());
        self.players = Some(store.clone());
        self.relation = Some(store.clone());
        self.chat = Some(store.clone());
        self.tokens = Some(store.clone());
        self.notify = Some(store.clone());
        self.passkeys = Some(store.clone());
    }

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
            lobby: None,
            lobby_grace: crate::lobby::GRACE,
            players: None,
            relation: None,
            chat: None,
            tokens: None,
            notify: None,
            mail: None,
            lab: None,
            passkeys: None,
            public_url: None,
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

/// The server's shared state: each domain's own part, which its handlers
/// take as an axum substate (`State<GamesCtx>`, `State<LiveCtx>`,
/// `State<AccountsCtx>`, `State<RatingsCtx>`, `State<PlayersCtx>`, through
/// the `FromRef` impls below). Only this module and `lib.rs` know all the domains; a domain
/// that needs another's state holds it in its own (the live domain's
/// `games`, the ratings' `Seats::accounts`).
#[derive(Clone)]
pub struct AppState {
    pub(crate) games: GamesCtx,
    pub(crate) live: LiveCtx,
    pub(crate) accounts: AccountsCtx,
    pub(crate) ratings: RatingsCtx,
    pub(crate) lobby: LobbyCtx,
    pub(crate) players: PlayersCtx,
    pub(crate) relation: RelationCtx,
    pub(crate) chat: ChatCtx,
    pub(crate) lichess: LichessCtx,
    pub(crate) notify: NotifyCtx,
    pub(crate) lab: LabCtx,
}

impl FromRef<AppState> for GamesCtx {
    fn from_ref(state: &AppState) -> GamesCtx {
        state.games.clone()
    }
}

impl FromRef<AppState> for LiveCtx {
    fn from_ref(state: &AppState) -> LiveCtx {
        state.live.clone()
    }
}

impl FromRef<AppState> for AccountsCtx {
    fn from_ref(state: &AppState) -> AccountsCtx {
        state.accounts.clone()
    }
}

impl FromRef<AppState> for LobbyCtx {
    fn from_ref(state: &AppState) -> LobbyCtx {
        state.lobby.clone()
    }
}

impl FromRef<AppState> for RatingsCtx {
    fn from_ref(state: &AppState) -> RatingsCtx {
        state.ratings.clone()
    }
}

impl FromRef<AppState> for RelationCtx {
    fn from_ref(state: &AppState) -> RelationCtx {
        state.relation.clone()
    }
}

impl FromRef<AppState> for ChatCtx {
    fn from_ref(state: &AppState) -> ChatCtx {
        state.chat.clone()
    }
}

impl FromRef<AppState> for LichessCtx {
    fn from_ref(state: &AppState) -> LichessCtx {
        state.lichess.clone()
    }
}

impl FromRef<AppState> for NotifyCtx {
    fn from_ref(state: &AppState) -> NotifyCtx {
        state.notify.clone()
    }
}

/// Every change told to several sinks (the live hub, the notifications).
struct Sinks(Vec<Arc<dyn crate::games::ChangeSink>>);

impl crate::games::ChangeSink for Sinks {
    fn publish(&self, id: &str, version: i64) {
        for s in &self.0 {
            s.publish(id, version);
        }
    }

    fn moved(&self, id: &str, version: i64, news: &crate::games::news::MoveNews) {
        for s in &self.0 {
            s.moved(id, version, news);
        }
    }

    fn has(&self, id: &str) -> bool {
        self.0.iter().any(|s| s.has(id))
    }
}

impl FromRef<AppState> for LabCtx {
    fn from_ref(state: &AppState) -> LabCtx {
        state.lab.clone()
    }
}

impl FromRef<AppState> for PlayersCtx {
    fn from_ref(state: &AppState) -> PlayersCtx {
        state.players.clone()
    }
}

/// The server's state over `store`, its unfinished games resumed.
pub(crate) async fn state_with(
    store: Arc<dyn Store>,
    options: Options,
) -> Result<AppState, ServeError> {
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
    let hub = Arc::new(Hub::default());
    let mut games = Games::new(store.clone(), options.clock.clone());
    // The notifications need accounts: without them, none.
    let notify_store = options.notify.filter(|_| options.accounts.is_some());
    let mut end_hooks = options.end_hooks;
    let (moves, recheck) = match &notify_store {
        Some(_) => {
            let (sink, rx) = crate::notify::sources::move_sink();
            games.watchers = Arc::new(Sinks(vec![hub.clone(), Arc::new(sink.clone())]));
            end_hooks.push(Arc::new(crate::notify::NotifyHook::new(
                options.mail.as_ref(),
            )));
            (Some(rx), Some(sink))
        }
        None => {
            games.watchers = hub.clone();
            (None, None)
        }
    };
    let ended_rx = options.ended.subscribe();
    games.end_hooks = end_hooks;
    games.ended = options.ended;
    crate::games::ended::log_ends(&games);
    let accounts = Arc::new(AccountsState {
        accounts: options.accounts.map(|store| {
            crate::accounts::Accounts::new(store).with_passkeys(
                crate::accounts::passkey::passkeys_on(
                    options.passkeys,
                    options.public_url.as_deref(),
                ),
            )
        }),
        clock: options.clock,
    });
    let games = Arc::new(GamesState {
        games,
        engine: options.engine,
        pool: pool::Pool::new(options.engine_workers),
        limiter: Limiter {
            per_minute: options.creations_per_minute,
            windows: Mutex::new(HashMap::new()),
        },
        flags: Mutex::new(HashMap::new()),
        rated: options.ratings.clone().map(|store| {
            Arc::new(crate::ratings::seats::Seats {
                store,
                accounts: accounts.clone(),
            }) as Arc<dyn crate::games::rated::RatedGames>
        }),
        seats,
    });
    // Who is online through the game and notifications sockets: counted
    // by the lobby, once it is made.
    let online = Arc::new(crate::lobby::Presence::default());
    let live = Arc::new(LiveState {
        games: games.clone(),
        hub,
        live_store: store,
        process: seat::random_base62(16),
        presence: shared.then_some(presence_tx),
        online: online.clone(),
    });
    let mail_links = options.mail.clone();
    let notify = match notify_store {
        Some(s) => Some(Arc::new(
            crate::notify::Notify::new(s, accounts.clone(), options.mail, online.clone())
                .map_err(|e| ServeError::Mail(e.to_string()))?,
        )),
        None => None,
    };
    let ratings = Arc::new(RatingsState {
        ratings: options.ratings,
    });
    let desk = desk::AppDesk {
        games: games.clone(),
        accounts: accounts.clone(),
        ratings: ratings.clone(),
    };
    let relation = Arc::new(RelationState {
        store: options.relation,
        accounts: accounts.clone(),
    });
    let lobby = LobbyCtx(options.lobby.map(|store| {
        Arc::new(crate::lobby::Lobby::new(
            store,
            Arc::new(desk),
            live.process.clone(),
            options.lobby_grace,
            relation.clone(),
            match &notify {
                Some(n) => Arc::new(crate::notify::sources::Challenges(Arc::downgrade(n))),
                None => Arc::new(crate::lobby::NoSink),
            },
            notify.as_ref().map(|_| {
                Arc::new(crate::notify::NotifyHook::new(mail_links.as_ref()))
                    as Arc<dyn crate::lobby::ChallengeHook>
            }),
        ))
    }));
    if let Some(l) = &lobby.0 {
        online.set(l);
    }
    let chat = ChatCtx(options.chat.map(|store| {
        Arc::new(crate::chat::Chat::new(
            store,
            games.clone(),
            accounts.clone(),
            relation.clone(),
        ))
    }));
    let players = Arc::new(PlayersState {
        players: options.players,
        ratings: ratings.clone(),
        engine: games.engine.clone(),
    });
    let lichess = Arc::new(LichessState {
        tokens: options.tokens,
        accounts: accounts.clone(),
        games: games.clone(),
        live: live.clone(),
        ratings: ratings.clone(),
        lobby: lobby.clone(),
        chat: chat.clone(),
    });
    let state = AppState {
        games,
        live,
        accounts,
        ratings,
        lobby,
        players,
        relation,
        chat,
        lichess,
        notify: NotifyCtx(notify),
        lab: Arc::new(LabState {
            source: options
                .lab
                .map_or_else(crate::lab::Source::default, crate::lab::Source::Dir),
        }),
    };
    presence::listen(&state.live).await?;
    // The running clocks restart (the time nobody served the games is not
    // charged) unless another process on the same database is alive: it
    // may be serving these games, so their clocks go on. SQLite has one
    // process: it always restarts them.
    let now = state.games.games.now();
    let store = &state.live.live_store;
    let restart = !shared
        || !store
            .others_alive(&state.live.process, now.saturating_sub(FRESH_MS))
            .await?;
    store.heartbeat(&state.live.process, now).await?;
    if shared {
        presence::heartbeats(&state.live, heartbeat);
        presence::write_presence(&state.live, presence_rx);
    }
    if let Some(lobby) = &state.lobby.0 {
        crate::lobby::start(lobby, FRESH_MS, shared).await?;
    }
    if let Some(chat) = &state.chat.0 {
        crate::chat::start(chat).await?;
    }
    if let Some(n) = &state.notify.0 {
        crate::notify::start(n).await?;
        crate::notify::mail::start(n, !shared).await;
        if let Some(rx) = moves {
            crate::notify::sources::watch_moves(n, state.games.games.store.clone(), rx);
        }
        crate::notify::sources::deliver_ends(n, ended_rx);
    }
    let unfinished = state.games.games.store.unfinished().await?;
    if let Some(sink) = &recheck {
        for id in &unfinished {
            sink.recheck(id);
        }
    }
    for id in unfinished {
        match state
            .games
            .games
            .change(&id, None, Action::Touch { restart })
            .await
        {
            Ok(done) => {
                schedule::schedule_engine(&state.games, &done.live);
                schedule::schedule_flag(&state.games, &done.live);
            }
            Err(e) => tracing::error!(game = %id, error = %e, "cannot resume the game"),
        }
    }
    Ok(state)
}
