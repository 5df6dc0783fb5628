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

pub mod accounts;
mod assets;
pub mod chat;
pub mod clock;
mod csrf;
mod engine;
mod error;
mod extract;
mod flood;
mod games;
mod lab;
pub mod lichess;
mod live;
pub mod lobby;
mod logs;
pub mod notify;
mod outage;
mod players;
mod pool;
pub mod proxy;
/// The lab's result files' one definition (`springboard lab` writes them with it).
pub use lab::schema as lab_schema;
pub mod ratings;
pub mod relation;
mod seat;
mod state;
pub mod store;
mod sw;

pub use accounts::{AccountStore, SessionRecord, UserRecord};
pub use clock::{Clock, ManualClock, SystemClock};
pub use engine::{Analysis, AnalysisLimit, EngineClock, EngineProvider, Evaluation, LevelLabel};
pub use error::{ApiError, ServeError};
pub use extract::MAX_BODY_BYTES;
pub use games::kinds::{Mode, Origin, Status};
pub use live::protocol;
pub use logs::panic_message;
pub use state::{
    AppState, Options, CREATIONS_PER_MINUTE, ENGINE_WORKERS, FORGET_MS, FRESH_MS, HEARTBEAT_MS,
};
pub use store::{
    Crowd, GameEndHook, GameEnded, GameStore, PgStore, PlayerStore, PresenceStore, SqliteStore,
    Store, StoreTx,
};

use axum::extract::{DefaultBodyLimit, Path};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// The app over a private in-memory database (tests; games are gone with
/// the process).
pub async fn app(engine: Option<Arc<dyn EngineProvider>>) -> Router {
    let store = Arc::new(
        SqliteStore::memory()
            .await
            .expect("an in-memory SQLite database opens"),
    );
    let mut options = Options::new(engine);
    options.domains_on(&store);
    app_with(store, options)
        .await
        .expect("a new in-memory database resumes")
}

/// The app over `store`. Resumes the unfinished games first: their clocks
/// restart now (the time the server was down is not charged) and the
/// engine moves where it is to move.
pub async fn app_with(store: Arc<dyn Store>, options: Options) -> Result<Router, ServeError> {
    // The client's address and scheme behind a trusted proxy (proxy.rs).
    let trusted = Arc::new(options.trusted_proxies.clone());
    Ok(
        router(state::state_with(store, options).await?).layer(axum::middleware::from_fn(
            move |req, next| proxy::resolve(trusted.clone(), req, next),
        )),
    )
}

fn router(state: AppState) -> Router {
    Router::new()
        .route("/", get(index))
        .route("/g/{id}", get(index))
        .route("/games", get(index))
        .route("/@/{name}", get(index))
        .route("/player", get(index))
        .route("/lab", get(index))
        .route("/email/confirm/{token}", get(index))
        .route("/email/unsubscribe/{token}", get(index))
        .route("/static/{*path}", get(static_file))
        .route("/sw.js", get(sw::service_worker))
        .merge(games::http::routes())
        .merge(accounts::http::routes())
        .merge(ratings::http::routes())
        .merge(players::routes())
        .merge(live::routes())
        .merge(lobby::http::routes())
        .merge(relation::http::routes())
        .merge(chat::http::routes())
        .merge(lichess::routes())
        .merge(notify::http::routes())
        .merge(lab::routes())
        .merge(accounts::passkey::http::routes())
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
    let cache = if asset.immutable {
        "public, max-age=31536000, immutable"
    } else {
        "no-cache"
    };
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
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

/// Adds the account `name` with `password` to the database `database`
/// (opened, and brought up to date, for it), with the checks of sign-up:
/// `springboard user add`. Blocks the calling thread.
pub fn add_user(database: &Database, name: &str, password: &str) -> Result<UserRecord, ServeError> {
    let id = accounts::name::check(name).map_err(|e| ServeError::Account(e.to_string()))?;
    accounts::password::check_new(password).map_err(|e| ServeError::Account(e.to_string()))?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let store: Arc<dyn AccountStore> = match database {
            Database::Sqlite(path) => Arc::new(SqliteStore::open(path).await?),
            Database::Postgres(url) => Arc::new(PgStore::connect(url).await?),
        };
        let user = UserRecord {
            id,
            name: name.to_string(),
            password_hash: accounts::password::Hasher::default()
                .hash(password.to_string())
                .await
                .map_err(|e| ServeError::Account(e.to_string()))?,
            created_at: SystemClock.now_ms(),
        };
        if !store.create_user(&user).await? {
            return Err(ServeError::Account(format!(
                "the username '{name}' is taken"
            )));
        }
        Ok(user)
    })
}

/// Issues a new personal API token for the account `name` in the
/// database `database` (opened, and brought up to date, for it), described
/// as `description`: the token, to show once. `springboard user token`.
/// Blocks the calling thread.
pub fn add_token(database: &Database, name: &str, description: &str) -> Result<String, ServeError> {
    let missing = || ServeError::Account(format!("no account is named '{name}'"));
    let id = accounts::name::check(name).map_err(|_| missing())?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let (accounts, tokens): (Arc<dyn AccountStore>, Arc<dyn lichess::TokenStore>) =
            match database {
                Database::Sqlite(path) => {
                    let s = Arc::new(SqliteStore::open(path).await?);
                    (s.clone(), s)
                }
                Database::Postgres(url) => {
                    let s = Arc::new(PgStore::connect(url).await?);
                    (s.clone(), s)
                }
            };
        if accounts.user(&id).await?.is_none() {
            return Err(missing());
        }
        let (_, token) =
            lichess::auth::issue(&*tokens, &*accounts, &id, description, SystemClock.now_ms())
                .await?;
        Ok(token)
    })
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
    run_with(host, port, database, engine, ServeOptions::default())
}

/// What `serve` sets beyond the address, the database and the engine;
/// the default is what [`run`] uses.
#[derive(Default)]
pub struct ServeOptions {
    /// The reverse proxies trusted for the client's address (`proxy.rs`).
    pub trusted_proxies: proxy::Trusted,
    /// How email is sent; None: email is off.
    pub mail: Option<notify::MailConfig>,
    /// The directory the lab's results are read from; None: those embedded
    /// at build time.
    pub lab: Option<PathBuf>,
    /// The site's public URL (`serve --public-url`), the passkeys' relying
    /// party; None: the address the server listens on, as
    /// `http://localhost:PORT`.
    pub public_url: Option<String>,
}

/// [`run`] with the options of `serve` ([`ServeOptions`]).
pub fn run_with(
    host: &str,
    port: u16,
    database: &Database,
    engine: Option<Arc<dyn EngineProvider>>,
    serve_options: ServeOptions,
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
        let engine_name = engine.as_ref().map(|e| e.name());
        let mut options = Options::new(engine);
        let ServeOptions {
            trusted_proxies,
            mail,
            lab,
            public_url,
        } = serve_options;
        options.trusted_proxies = trusted_proxies;
        options.lab = lab;
        options.mail = match (mail, listener.local_addr()) {
            (Some(mut m), Ok(local)) if m.public_url.is_empty() => {
                m.public_url = format!("http://{local}");
                Some(m)
            }
            (m, _) => m,
        };
        options.public_url = match (public_url, listener.local_addr()) {
            (Some(url), _) => Some(url),
            (None, Ok(local)) => Some(format!("http://localhost:{}", local.port())),
            (None, Err(_)) => None,
        };
        // Every domain's queries over the one database.
        let store: Arc<dyn Store> = match database {
            Database::Sqlite(path) => {
                let s = Arc::new(SqliteStore::open(path).await?);
                options.domains_on(&s);
                s
            }
            Database::Postgres(url) => {
                let s = Arc::new(PgStore::connect(url).await?);
                options.domains_on(&s);
                s
            }
        };
        println!("Games are kept in the {}", store.describe());
        let kind = match database {
            Database::Sqlite(_) => "sqlite",
            Database::Postgres(_) => "postgres",
        };
        let description = store.describe();
        let app = app_with(store, options).await?;
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
            .header("host", "localhost")
            .header("origin", "http://localhost")
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
        let state = state::state_with(Arc::new(store), options).await.unwrap();
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
            let flags = state.games.flags.lock().unwrap();
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
        assert!(state.games.flags.lock().unwrap().is_empty());
    }
}
