//! # springboard-web
//!
//! Springboard's browser app: a local web server with a JSON API over the
//! rules core and a small page (plain HTML, CSS and JavaScript modules,
//! embedded in the binary). The page draws every variant and enters every
//! move shape from the server's data (board mask, trampolines, reserves and
//! the legal move list), so a variant works in the browser as soon as the
//! rules core implements it.
//!
//! The server never trusts the page: every move is resolved against the
//! legal moves and played by [`springboard_rules::Game::play`]; a bad
//! request gets a 4xx answer with `{"error": reason}`.
//!
//! An engine plugs in through [`EngineProvider`]; without one the page
//! offers two players at one screen only.
//!
//! API (all JSON):
//!
//! | request | answer |
//! |---|---|
//! | `GET /api/info` | implemented variants, engine |
//! | `GET /api/rules/{variant}` | the players' rules text (Markdown) |
//! | `POST /api/games` `{variant?, fen?, pgn?}` | 201, the new game's view |
//! | `GET /api/games/{id}[?ply=N]` | the game's view (after N moves) |
//! | `GET /api/games/{id}/moves` | the legal moves |
//! | `POST /api/games/{id}/move` `{move}` | play a move in long notation |
//! | `POST /api/games/{id}/undo[?plies=N]` | take back |
//! | `GET /api/games/{id}/fen`, `.../pgn` | `{text}` |
//! | `POST /api/games/{id}/engine` `{level?}` | the engine plays a move |
//! | `POST /api/games/{id}/analysis` `{ply?, depth? \| movetime?}` | evaluation (White's view) and best line |

mod api;
mod assets;
mod engine;
mod error;
mod pgn;
mod store;
mod view;

pub use engine::{Analysis, AnalysisLimit, EngineProvider, Evaluation};
pub use error::{ApiError, ServeError};
pub use pgn::{export as export_pgn, import as import_pgn, PgnError};

use axum::extract::Path;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex, MutexGuard};
use store::Store;

/// The server's shared state.
pub struct AppState {
    store: Mutex<Store>,
    engine: Option<Arc<dyn EngineProvider>>,
}

impl AppState {
    fn store(&self) -> MutexGuard<'_, Store> {
        // A panic while holding the lock cannot leave a game half-changed
        // (every change is a whole move on the rules core's copy), so a
        // poisoned lock is still usable.
        self.store.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The engine, or a 404 for a server without one.
    fn engine(&self) -> Result<Arc<dyn EngineProvider>, error::ApiError> {
        self.engine
            .clone()
            .ok_or_else(|| error::ApiError::NotFound("this server has no engine".into()))
    }
}

/// The app's routes, with an engine or none.
pub fn app(engine: Option<Arc<dyn EngineProvider>>) -> Router {
    app_with_capacity(engine, store::DEFAULT_CAPACITY)
}

/// The app, keeping at most `capacity` games.
pub fn app_with_capacity(engine: Option<Arc<dyn EngineProvider>>, capacity: usize) -> Router {
    let state = Arc::new(AppState {
        store: Mutex::new(Store::new(capacity)),
        engine,
    });
    Router::new()
        .route("/", get(index))
        .route("/static/{*path}", get(static_file))
        .route("/api/info", get(api::info))
        .route("/api/rules/{variant}", get(api::rules))
        .route("/api/games", post(api::create))
        .route("/api/games/{id}", get(api::get_game))
        .route("/api/games/{id}/moves", get(api::legal_moves))
        .route("/api/games/{id}/move", post(api::play))
        .route("/api/games/{id}/undo", post(api::undo))
        .route("/api/games/{id}/fen", get(api::export_fen))
        .route("/api/games/{id}/pgn", get(api::export_pgn))
        .route("/api/games/{id}/engine", post(api::engine_move))
        .route("/api/games/{id}/analysis", post(api::analyse))
        .fallback(not_found)
        .with_state(state)
}

async fn not_found() -> ApiError {
    ApiError::NotFound("no such page".into())
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

/// Serves the app on a bound listener until the process ends.
pub async fn serve(
    listener: tokio::net::TcpListener,
    engine: Option<Arc<dyn EngineProvider>>,
) -> std::io::Result<()> {
    axum::serve(listener, app(engine)).await
}

/// Binds `host:port` (port 0 picks a free one), prints the URL and serves
/// until the process ends. Blocks the calling thread.
pub fn run(
    host: &str,
    port: u16,
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
        let local = listener.local_addr()?;
        println!("Springboard is running at http://{local}/ (press Ctrl+C to stop)");
        serve(listener, engine).await?;
        Ok(())
    })
}
