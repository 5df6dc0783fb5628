//! # springboard-web
//!
//! Springboard's play server: a JSON API and WebSocket over the rules core,
//! every game stored in a database (SQLite by default), and a small page
//! (plain HTML, CSS and JavaScript modules, embedded in the binary). The
//! page draws every variant and enters every move shape from the server's
//! data (board mask, trampolines, reserves and the legal move list), so a
//! variant works in the browser as soon as the rules core implements it.
//!
//! The server never trusts the page: every move is resolved against the
//! legal moves and played by [`springboard_rules::Game::play`], only the
//! holder of a seat moves for it, and a bad request gets a 4xx answer with
//! `{"error": reason}`. The API as built is described in
//! `docs/play-server.md`.
//!
//! An engine plugs in through [`EngineProvider`]; without one the page
//! offers no engine games and no analysis.

#![forbid(unsafe_code)]

mod api;
mod assets;
pub mod clock;
mod engine;
mod error;
mod games;
mod hub;
mod logs;
mod pg;
mod pool;
mod seat;
pub mod store;
mod view;
mod ws;

pub use clock::{Clock, ManualClock, SystemClock};
pub use engine::{Analysis, AnalysisLimit, EngineClock, EngineProvider, Evaluation, LevelLabel};
pub use error::{ApiError, ServeError};
pub use logs::panic_message;
pub use pg::PgStore;
pub use store::{Crowd, GameStore, SqliteStore};

use axum::extract::{DefaultBodyLimit, Path};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use games::{Action, Games};
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
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
}

impl Options {
    pub fn new(engine: Option<Arc<dyn EngineProvider>>) -> Options {
        Options {
            engine,
            clock: Arc::new(SystemClock),
            engine_workers: ENGINE_WORKERS,
            creations_per_minute: CREATIONS_PER_MINUTE,
            heartbeat: Duration::from_millis(HEARTBEAT_MS.unsigned_abs()),
        }
    }
}

/// Creations per client address in the current minute.
struct Limiter {
    per_minute: u32,
    windows: Mutex<HashMap<IpAddr, (i64, u32)>>,
}

impl Limiter {
    /// Counts one creation by `ip` at `now`; false when over the limit.
    fn allow(&self, ip: IpAddr, now: i64) -> bool {
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
    games: Games,
    engine: Option<Arc<dyn EngineProvider>>,
    pool: pool::Pool,
    limiter: Limiter,
    /// Each game's flag timer and the version it was set for (one per
    /// game with a running clock).
    flags: Mutex<HashMap<String, (i64, tokio::task::AbortHandle)>>,
    /// This process's random id (heartbeat and presence rows).
    process: String,
    /// Games whose sockets here changed, for the presence writer (a shared
    /// store only).
    presence: Option<tokio::sync::mpsc::UnboundedSender<String>>,
}

impl AppState {
    /// Tells the other processes (through the store) that who is
    /// connected to game `id` here changed.
    fn presence_changed(&self, id: &str) {
        if let Some(tx) = &self.presence {
            let _ = tx.send(id.to_string());
        }
    }

    /// The engine, or a 404 for a server without one.
    fn engine(&self) -> Result<Arc<dyn EngineProvider>, error::ApiError> {
        self.engine
            .clone()
            .ok_or_else(|| error::ApiError::NotFound("this server has no engine".into()))
    }
}

/// The app over a private in-memory database (tests; games are gone with
/// the process).
pub async fn app(engine: Option<Arc<dyn EngineProvider>>) -> Router {
    let store = SqliteStore::memory()
        .await
        .expect("an in-memory SQLite database opens");
    app_with(Arc::new(store), Options::new(engine))
        .await
        .expect("a new in-memory database resumes")
}

/// The app over `store`. Resumes the unfinished games first: their clocks
/// restart now (the time the server was down is not charged) and the
/// engine moves where it is to move.
pub async fn app_with(store: Arc<dyn GameStore>, options: Options) -> Result<Router, ServeError> {
    Ok(router(state_with(store, options).await?))
}

/// The server's state over `store`, its unfinished games resumed.
async fn state_with(
    store: Arc<dyn GameStore>,
    options: Options,
) -> Result<Arc<AppState>, ServeError> {
    let shared = store.shared();
    let heartbeat = options.heartbeat;
    let (presence_tx, presence_rx) = tokio::sync::mpsc::unbounded_channel();
    let state = Arc::new(AppState {
        games: Games::new(store, options.clock),
        engine: options.engine,
        pool: pool::Pool::new(options.engine_workers),
        limiter: Limiter {
            per_minute: options.creations_per_minute,
            windows: Mutex::new(HashMap::new()),
        },
        flags: Mutex::new(HashMap::new()),
        process: seat::random_base62(16),
        presence: shared.then_some(presence_tx),
    });
    listen(&state).await?;
    // The running clocks restart (the time nobody served the games is not
    // charged) unless another process on the same database is alive: it
    // may be serving these games, so their clocks go on. SQLite has one
    // process: it always restarts them.
    let now = state.games.now();
    let store = &state.games.store;
    let restart = !shared
        || !store
            .others_alive(&state.process, now.saturating_sub(FRESH_MS))
            .await?;
    store.heartbeat(&state.process, now).await?;
    if shared {
        heartbeats(&state, heartbeat);
        write_presence(&state, presence_rx);
    }
    let unfinished = state.games.store.unfinished().await?;
    for id in unfinished {
        match state
            .games
            .change(&id, None, Action::Touch { restart })
            .await
        {
            Ok(done) => {
                api::schedule_engine(&state, &done.live);
                api::schedule_flag(&state, &done.live);
            }
            Err(e) => tracing::error!(game = %id, error = %e, "cannot resume the game"),
        }
    }
    Ok(state)
}

/// Passes the changes other server processes make (PostgreSQL's NOTIFY)
/// to this process's sockets of the game; after a lost connection, every
/// socket is told the current version.
async fn listen(state: &Arc<AppState>) -> Result<(), ServeError> {
    let Some(mut notices) = state.games.store.listen().await? else {
        return Ok(());
    };
    let weak = Arc::downgrade(state);
    tokio::spawn(async move {
        while let Some(notice) = notices.recv().await {
            let Some(app) = weak.upgrade() else { break };
            match notice {
                store::Notice::Changed { id, version } => app.games.hub.publish(&id, version),
                store::Notice::Presence { id, process } => {
                    if process != app.process && app.games.hub.has(&id) {
                        refresh_presence(&app, vec![id]).await;
                    }
                }
                store::Notice::Resync => {
                    for id in app.games.hub.games() {
                        if let Ok(live) = app.games.peek(&id).await {
                            app.games.hub.publish(&id, live.rec.version);
                        }
                    }
                }
            }
        }
    });
    Ok(())
}

/// Re-reads who is connected to `games` through the other processes and
/// tells this process's sockets.
async fn refresh_presence(app: &AppState, games: Vec<String>) {
    if games.is_empty() {
        return;
    }
    let since = app.games.now().saturating_sub(FRESH_MS);
    match app.games.store.presence(&games, &app.process, since).await {
        Ok(rows) => {
            let rows: HashMap<String, store::Crowd> = rows.into_iter().collect();
            for id in games {
                let remote = rows.get(&id).copied().unwrap_or_default();
                app.games.hub.set_remote(&id, remote);
            }
        }
        Err(e) => tracing::warn!(error = %e, "cannot read who is connected"),
    }
}

/// Writes this process's heartbeat every `every` ([`HEARTBEAT_MS`]), deletes the
/// rows of processes long gone, and re-reads the other processes'
/// presence in the games with sockets here (a process that died stops
/// counting once its heartbeat is stale).
fn heartbeats(state: &Arc<AppState>, every: Duration) {
    let weak = Arc::downgrade(state);
    tokio::spawn(async move {
        let mut tick = tokio::time::interval_at(tokio::time::Instant::now() + every, every);
        loop {
            tick.tick().await;
            let Some(app) = weak.upgrade() else { break };
            let now = app.games.now();
            let store = &app.games.store;
            if let Err(e) = store.heartbeat(&app.process, now).await {
                tracing::warn!(error = %e, "cannot write the heartbeat");
            }
            if let Err(e) = store.forget_processes(now.saturating_sub(FORGET_MS)).await {
                tracing::warn!(error = %e, "cannot delete old heartbeats");
            }
            refresh_presence(&app, app.games.hub.games()).await;
        }
    });
}

/// Writes who is connected here to the store, one game at a time, in
/// order (each write reads the current count, so a burst of joins and
/// leaves of one game ends with its last state), and reads the other
/// processes' presence for the game.
fn write_presence(state: &Arc<AppState>, mut rx: tokio::sync::mpsc::UnboundedReceiver<String>) {
    let weak = Arc::downgrade(state);
    tokio::spawn(async move {
        while let Some(first) = rx.recv().await {
            let mut ids = vec![first];
            while let Ok(more) = rx.try_recv() {
                if !ids.contains(&more) {
                    ids.push(more);
                }
            }
            let Some(app) = weak.upgrade() else { break };
            for id in &ids {
                let local = app.games.hub.local(id);
                if let Err(e) = app.games.store.set_presence(&app.process, id, local).await {
                    tracing::warn!(game = %id, error = %e, "cannot write who is connected");
                }
            }
            refresh_presence(&app, ids).await;
        }
    });
}

fn router(state: Arc<AppState>) -> Router {
    Router::new()
        .route("/", get(index))
        .route("/g/{id}", get(index))
        .route("/games", get(index))
        .route("/static/{*path}", get(static_file))
        .route("/api/info", get(api::info))
        .route("/api/rules/{variant}", get(api::rules))
        .route("/api/detect", post(api::detect))
        .route("/api/games", post(api::create).get(api::list))
        .route("/api/games/{id}", get(api::get_game))
        .route("/api/games/{id}/ws", get(ws::connect))
        .route("/api/games/{id}/join", post(api::join))
        .route("/api/games/{id}/moves", get(api::legal_moves))
        .route("/api/games/{id}/move", post(api::play))
        .route("/api/games/{id}/resign", post(api::resign))
        .route("/api/games/{id}/draw", post(api::draw))
        .route("/api/games/{id}/takeback", post(api::takeback))
        .route("/api/games/{id}/rematch", post(api::rematch))
        .route("/api/games/{id}/undo", post(api::undo))
        .route("/api/games/{id}/fen", get(api::export_fen))
        .route("/api/games/{id}/pgn", get(api::export_pgn))
        .route("/api/games/{id}/engine", post(api::engine_move))
        .route("/api/games/{id}/analysis", post(api::analyse))
        .route("/api/games/{id}/line", post(api::line))
        .route("/api/games/{id}/read", post(api::read_move))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(tower_http::timeout::RequestBodyTimeoutLayer::new(
            Duration::from_secs(10),
        ))
        // A panic in a handler is logged and answered with a JSON 500;
        // every answer (that one too) gets its log line.
        .layer(tower_http::catch_panic::CatchPanicLayer::custom(
            logs::panic_response,
        ))
        .layer(axum::middleware::from_fn(check_head))
        .layer(axum::middleware::from_fn(logs::log_request))
        .with_state(state)
}

async fn not_found() -> ApiError {
    ApiError::NotFound("no such page".into())
}

async fn method_not_allowed() -> ApiError {
    ApiError::MethodNotAllowed("this method is not allowed here".into())
}

fn asset_response(asset: &'static assets::Asset) -> Response {
    let mut resp = asset.body.into_response();
    let h = resp.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(asset.mime));
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    resp
}

async fn index() -> Response {
    match assets::find("index.html") {
        Some(a) => asset_response(a),
        None => ApiError::NotFound("no page".into()).into_response(),
    }
}

/// Only names in the embedded table are served; anything else (including
/// `..` or encoded separators) is a 404.
async fn static_file(Path(path): Path<String>) -> Response {
    match assets::find(&path) {
        Some(a) => asset_response(a),
        None => (
            StatusCode::NOT_FOUND,
            ApiError::NotFound(format!("no file '{path}'")),
        )
            .into_response(),
    }
}

/// The longest request target (path and query) the server reads: longer
/// is answered 414 in JSON.
pub const MAX_URI_BYTES: usize = 8 * 1024;
/// The most header bytes (names and values) a request may carry, and the
/// most header lines: more is answered 431 in JSON.
pub const MAX_HEADER_BYTES: usize = 32 * 1024;
pub const MAX_HEADERS: usize = 64;
/// hyper's read buffer: a request head larger than this (or with more
/// than hyper's 100 header lines) never reaches the app, and hyper answers
/// 431 itself, without a body. Our limits above sit below it, so every
/// head hyper reads whole gets a JSON answer.
pub const MAX_HEAD_BYTES: usize = 64 * 1024;

/// Refuses, in the API's JSON shape, a request target over
/// [`MAX_URI_BYTES`] (414), headers over [`MAX_HEADERS`] lines or
/// [`MAX_HEADER_BYTES`] bytes (431), a body announced over
/// [`MAX_BODY_BYTES`] (413, before it is read) and a path whose
/// percent-decoded bytes are not UTF-8 (400).
async fn check_head(req: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let target = req.uri().path_and_query().map_or(0, |pq| pq.as_str().len());
    if target > MAX_URI_BYTES {
        return ApiError::UriTooLong(format!(
            "the request target is {target} bytes; at most {MAX_URI_BYTES}"
        ))
        .into_response();
    }
    let headers = req.headers();
    let bytes: usize = headers
        .iter()
        .map(|(n, v)| n.as_str().len().saturating_add(v.len()))
        .fold(0, usize::saturating_add);
    if headers.len() > MAX_HEADERS || bytes > MAX_HEADER_BYTES {
        return ApiError::HeadersTooLarge(format!(
            "the request has {} headers of {bytes} bytes; at most {MAX_HEADERS} headers of {MAX_HEADER_BYTES} bytes",
            headers.len()
        ))
        .into_response();
    }
    // A body announced larger than the API reads: refused before it comes.
    let announced = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if announced.is_some_and(|n| n > MAX_BODY_BYTES as u64) {
        return ApiError::PayloadTooLarge(format!(
            "the request body is larger than {MAX_BODY_BYTES} bytes"
        ))
        .into_response();
    }
    if std::str::from_utf8(&percent_decoded(req.uri().path())).is_err() {
        return ApiError::BadRequest("the path is not UTF-8 (after percent-decoding)".into())
            .into_response();
    }
    next.run(req).await
}

/// The bytes `%XX` escapes stand for (a malformed escape stays as it is).
fn percent_decoded(text: &str) -> Vec<u8> {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        if b[i] == b'%' && i + 2 < b.len() {
            if let (Some(h), Some(l)) = (hex(b[i + 1]), hex(b[i + 2])) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    out
}

/// How long a client may take to send a request's headers, and how long
/// an idle keep-alive connection stays open (issue 16 item 6).
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// Serves `app` on a bound listener until the process ends, with each
/// connection's address known (the per-client limits).
pub async fn serve(listener: tokio::net::TcpListener, app: Router) -> std::io::Result<()> {
    serve_with(listener, app, HEADER_TIMEOUT).await
}

/// Serves `app` over HTTP/1.1 (hyper, with WebSocket upgrades). A
/// connection that has not sent a whole request head within
/// `header_timeout` (slow headers, or idle between requests) is closed;
/// slow bodies are cut by the body timeout of the router.
pub async fn serve_with(
    listener: tokio::net::TcpListener,
    app: Router,
    header_timeout: Duration,
) -> std::io::Result<()> {
    use axum::extract::connect_info::ConnectInfo;
    use hyper_util::rt::{TokioIo, TokioTimer};
    use tower::ServiceExt;
    loop {
        let (stream, addr) = match listener.accept().await {
            Ok(c) => c,
            Err(e) => {
                // Out of file descriptors and the like: wait, go on.
                tracing::warn!(error = %e, "accept failed");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let app = app.clone();
        tokio::spawn(async move {
            let service = hyper::service::service_fn(
                move |mut req: axum::http::Request<hyper::body::Incoming>| {
                    req.extensions_mut().insert(ConnectInfo(addr));
                    app.clone().oneshot(req)
                },
            );
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder
                .timer(TokioTimer::new())
                .header_read_timeout(header_timeout)
                .max_buf_size(MAX_HEAD_BYTES);
            let _ = builder
                .serve_connection(TokioIo::new(stream), service)
                .with_upgrades()
                .await;
        });
    }
}

/// Where the server keeps its games.
#[derive(Clone, Debug)]
pub enum Database {
    /// A SQLite file.
    Sqlite(PathBuf),
    /// A PostgreSQL URL (several processes may share it).
    Postgres(String),
}

impl Database {
    /// Reads `--database`: a path, `sqlite://path` or `postgres://...`.
    pub fn parse(text: &str) -> Result<Database, ServeError> {
        if text.starts_with("postgres://") || text.starts_with("postgresql://") {
            return Ok(Database::Postgres(text.to_string()));
        }
        let path = text
            .strip_prefix("sqlite://")
            .or_else(|| text.strip_prefix("sqlite:"))
            .unwrap_or(text);
        if path.is_empty() {
            return Err(ServeError::Database(text.to_string()));
        }
        Ok(Database::Sqlite(PathBuf::from(path)))
    }
}

/// Binds `host:port` (port 0 picks a free one), opens the database, prints
/// the URL and where the games are, and serves until the process ends.
/// Blocks the calling thread.
pub fn run(
    host: &str,
    port: u16,
    database: &Database,
    engine: Option<Arc<dyn EngineProvider>>,
) -> Result<(), ServeError> {
    let ip: IpAddr = match host {
        "localhost" => IpAddr::from([127, 0, 0, 1]),
        _ => host
            .parse()
            .map_err(|_| ServeError::BadHost(host.to_string()))?,
    };
    let addr = SocketAddr::new(ip, port);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|e| match e.kind() {
                std::io::ErrorKind::AddrInUse => ServeError::PortInUse {
                    host: host.to_string(),
                    port,
                },
                _ => ServeError::Bind {
                    addr: addr.to_string(),
                    source: e,
                },
            })?;
        let store: Arc<dyn GameStore> = match database {
            Database::Sqlite(path) => Arc::new(SqliteStore::open(path).await?),
            Database::Postgres(url) => Arc::new(PgStore::connect(url).await?),
        };
        println!("Games are kept in the {}", store.describe());
        let kind = match database {
            Database::Sqlite(_) => "sqlite",
            Database::Postgres(_) => "postgres",
        };
        let description = store.describe();
        let engine_name = engine.as_ref().map(|e| e.name());
        let app = app_with(store, Options::new(engine)).await?;
        let local = listener.local_addr()?;
        tracing::info!(
            address = %local,
            database = kind,
            store = %description,
            engine = engine_name.as_deref(),
            engine_workers = ENGINE_WORKERS,
            "listening"
        );
        println!("Springboard is running at http://{local}/ (press Ctrl+C to stop)");
        serve(listener, app).await?;
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::Body;
    use axum::http::Request;
    use http_body_util::BodyExt;
    use tower::ServiceExt;

    const P: &str = "FlagFlagFlagFlagFlag0001";

    async fn call(app: &Router, uri: &str, body: serde_json::Value) -> serde_json::Value {
        let req = Request::builder()
            .method("POST")
            .uri(uri)
            .header("content-type", "application/json")
            .header("cookie", format!("sb_player={P}"))
            .body(Body::from(body.to_string()))
            .unwrap();
        let resp = app.clone().oneshot(req).await.unwrap();
        assert!(resp.status().is_success(), "{uri}: {}", resp.status());
        let bytes = resp.into_body().collect().await.unwrap().to_bytes();
        serde_json::from_slice(&bytes).unwrap()
    }

    /// Every move of a game with a clock replaces its flag timer: a long
    /// game does not pile up sleeping timers (each held memory until its
    /// old deadline), and an ended game has none.
    #[tokio::test]
    async fn a_game_has_at_most_one_flag_timer() {
        let store = SqliteStore::memory().await.unwrap();
        let mut options = Options::new(None);
        options.clock = Arc::new(ManualClock::new(1_800_000_000_000));
        let state = state_with(Arc::new(store), options).await.unwrap();
        let app = router(state.clone());
        let g = call(
            &app,
            "/api/games",
            serde_json::json!({"variant": "chess", "mode": "local",
                               "clock": {"initial": 900, "increment": 10}}),
        )
        .await;
        let id = g["id"].as_str().unwrap().to_string();
        let moves = [
            "e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "f8c5", "c2c3", "g8f6", "d2d3", "d7d6", "b1d2",
            "a7a6", "h2h3", "h7h6", "a2a4", "a6a5",
        ];
        let mut previous: Option<tokio::task::AbortHandle> = None;
        for (ply, m) in moves.into_iter().enumerate() {
            call(
                &app,
                &format!("/api/games/{id}/move"),
                serde_json::json!({"move": m, "ply": ply}),
            )
            .await;
            for _ in 0..10 {
                tokio::task::yield_now().await;
            }
            let flags = state.flags.lock().unwrap();
            assert_eq!(flags.len(), 1, "after ply {ply}");
            // The timer of the previous move is gone.
            if let Some(old) = previous.take() {
                assert!(old.is_finished(), "a replaced timer sleeps on at ply {ply}");
            }
            previous = flags.values().next().map(|(_, h)| h.clone());
        }
        call(
            &app,
            &format!("/api/games/{id}/resign"),
            serde_json::json!({}),
        )
        .await;
        assert!(state.flags.lock().unwrap().is_empty());
    }
}
