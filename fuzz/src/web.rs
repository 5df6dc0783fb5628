//! The `web_api` target: request bodies sent to the play server's JSON
//! API, the axum router driven in process (`tower::ServiceExt::oneshot`)
//! over an in-memory SQLite store (a new one every 1,000 inputs; see
//! docs/fuzzing.md).
//!
//! An input is a game to start from (its first byte: the variant) and up
//! to [`MAX_REQUESTS`] lines, each a request: its first character picks the
//! endpoint, the rest of the line is its JSON body (or, for `undo` and the
//! game list, its query). The harness first creates a local game of that
//! variant (the fixture), then sends every request on it with the
//! creator's cookie (a request line starting with `!` goes without it)
//! and from the site's own origin, as the page sends them (a line starting
//! with `~`, after the `!` if any, goes without the `Origin` header: a
//! cross-site request).
//!
//! Properties: no panic, no 5xx; every 4xx answers `{"error": "..."}`
//! (a string); every 2xx answers JSON; a refused request leaves the game
//! exactly as it was (its view, read with the same cookie, is the same);
//! a request without `Origin` to a route the cookie authorises is
//! refused with 403 (the CSRF check).
//! The server has no engine here: engine and analysis requests are read
//! (their JSON shape) and then answered 404 "no engine".

use axum::body::{to_bytes, Body};
use axum::http::{header, Method, Request, StatusCode};
use axum::Router;
use springboard_rules::Variant;
use springboard_web::{ManualClock, Options, SqliteStore};
use std::sync::{Arc, OnceLock};
use tower::ServiceExt;

/// The most requests one input sends.
pub const MAX_REQUESTS: usize = 8;

/// The host the requests name, and the site's own origin.
const HOST: &str = "fuzz.test";
const ORIGIN: &str = "http://fuzz.test";

fn runtime() -> &'static tokio::runtime::Runtime {
    static RT: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RT.get_or_init(|| {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a tokio runtime")
    })
}

/// How many inputs share one server (a new one costs the store's
/// migrations, some milliseconds; the fixture game is new per input).
pub const INPUTS_PER_SERVER: u32 = 1000;

/// The server of this input: a new one every [`INPUTS_PER_SERVER`] inputs.
async fn shared_server() -> Router {
    static SERVER: std::sync::Mutex<Option<(Router, u32)>> = std::sync::Mutex::new(None);
    let current = {
        let mut slot = SERVER.lock().unwrap_or_else(|e| e.into_inner());
        match slot.as_mut() {
            Some((app, used)) if *used < INPUTS_PER_SERVER => {
                *used += 1;
                Some(app.clone())
            }
            _ => None,
        }
    };
    if let Some(app) = current {
        return app;
    }
    let app = server().await;
    *SERVER.lock().unwrap_or_else(|e| e.into_inner()) = Some((app.clone(), 1));
    app
}

/// A server over a new in-memory store, with a clock that stands still
/// and no limit on creations.
async fn server() -> Router {
    let store = SqliteStore::memory()
        .await
        .expect("an in-memory SQLite database");
    let mut options = Options::new(None);
    options.clock = Arc::new(ManualClock::new(1_764_000_000_000));
    options.creations_per_minute = u32::MAX;
    springboard_web::app_with(Arc::new(store), options)
        .await
        .expect("the app starts")
}

struct Answer {
    status: StatusCode,
    cookie: Option<String>,
    body: Vec<u8>,
}

async fn send(
    app: &Router,
    method: Method,
    uri: &str,
    cookie: Option<&str>,
    origin: bool,
    body: &[u8],
) -> Answer {
    let mut req = Request::builder()
        .method(method)
        .uri(uri)
        .header(header::HOST, HOST)
        .header(header::CONTENT_TYPE, "application/json");
    if origin {
        req = req.header(header::ORIGIN, ORIGIN);
    }
    if let Some(c) = cookie {
        req = req.header(header::COOKIE, format!("sb_player={c}"));
    }
    let req = req
        .body(Body::from(body.to_vec()))
        .expect("a request the harness builds");
    let resp = app.clone().oneshot(req).await.expect("the router answers");
    let status = resp.status();
    let cookie = resp
        .headers()
        .get(header::SET_COOKIE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .and_then(|kv| kv.strip_prefix("sb_player="))
        .map(str::to_string);
    let body = to_bytes(resp.into_body(), usize::MAX)
        .await
        .expect("the body is read")
        .to_vec();
    Answer {
        status,
        cookie,
        body,
    }
}

/// The endpoint a request line's first character picks: its method and
/// path (`{id}`: the fixture game), and whether the rest of the line is
/// the query rather than the body. The `POST`s but `analysis` are the
/// ones the cookie authorises (they need the `Origin`).
fn endpoint(c: u8) -> (Method, &'static str, bool) {
    match c % 13 {
        0 => (Method::POST, "/api/games", false),
        1 => (Method::POST, "/api/games/{id}/move", false),
        2 => (Method::POST, "/api/games/{id}/draw", false),
        3 => (Method::POST, "/api/games/{id}/takeback", false),
        4 => (Method::POST, "/api/games/{id}/rematch", false),
        5 => (Method::POST, "/api/games/{id}/resign", false),
        6 => (Method::POST, "/api/games/{id}/join", false),
        7 => (Method::POST, "/api/games/{id}/undo", true),
        8 => (Method::POST, "/api/games/{id}/engine", false),
        9 => (Method::POST, "/api/games/{id}/analysis", false),
        10 => (Method::GET, "/api/games", true),
        11 => (Method::GET, "/api/games/{id}", true),
        _ => (Method::GET, "/api/games/{id}/moves", false),
    }
}

/// Whether `text` is a query the router's URI accepts as is.
fn query_ok(text: &str) -> bool {
    text.bytes().all(|b| {
        b.is_ascii_graphic()
            && !matches!(
                b,
                b'#' | b'"' | b'<' | b'>' | b'\\' | b'^' | b'`' | b'{' | b'|' | b'}'
            )
    })
}

fn check_answer(what: &str, a: &Answer) {
    assert!(
        !a.status.is_server_error(),
        "{what}: {} {}",
        a.status,
        String::from_utf8_lossy(&a.body)
    );
    let no_json = |e: serde_json::Error| -> ! {
        panic!(
            "{what}: {} answers no JSON ({e}): {}",
            a.status,
            String::from_utf8_lossy(&a.body)
        )
    };
    if a.status.is_client_error() {
        let json: serde_json::Value =
            serde_json::from_slice(&a.body).unwrap_or_else(|e| no_json(e));
        assert!(
            json.get("error").is_some_and(|e| e.is_string()),
            "{what}: {} without an error: {json}",
            a.status
        );
    } else {
        // Checked as JSON without building it (a game view is large).
        serde_json::from_slice::<serde::de::IgnoredAny>(&a.body).unwrap_or_else(|e| no_json(e));
    }
}

/// See the module documentation.
pub fn web_target(data: &[u8]) {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let variant = Variant::ALL[first as usize % Variant::ALL.len()];
    runtime().block_on(async {
        let app = shared_server().await;
        let create = format!("{{\"variant\":\"{}\",\"mode\":\"local\"}}", variant.name());
        let made = send(
            &app,
            Method::POST,
            "/api/games",
            None,
            true,
            create.as_bytes(),
        )
        .await;
        assert_eq!(made.status, StatusCode::CREATED, "{create}");
        let cookie = made.cookie.expect("a new player gets a cookie");
        let view: serde_json::Value = serde_json::from_slice(&made.body).expect("a game view");
        let id = view["id"].as_str().expect("the game's id").to_string();
        let game_uri = format!("/api/games/{id}");
        // The fixture's view as each reader last saw it (with the
        // creator's cookie, without): known after a refused request (which
        // must leave it as it was), unknown after any other answer.
        // The creation answers the creator's view of the new game.
        let mut known: [Option<Vec<u8>>; 2] = [Some(made.body), None];
        for line in rest.split(|&b| b == b'\n').take(MAX_REQUESTS) {
            let (anonymous, line) = match line.split_first() {
                Some((b'!', more)) => (true, more),
                _ => (false, line),
            };
            let (cross_site, line) = match line.split_first() {
                Some((b'~', more)) => (true, more),
                _ => (false, line),
            };
            let Some((&kind, payload)) = line.split_first() else {
                continue;
            };
            let (method, path, in_query) = endpoint(kind);
            let mut uri = path.replace("{id}", &id);
            let body: &[u8] = if in_query {
                let Ok(q) = std::str::from_utf8(payload) else {
                    continue;
                };
                if !query_ok(q) {
                    continue;
                }
                if !q.is_empty() {
                    uri = format!("{uri}?{q}");
                }
                b""
            } else {
                payload
            };
            let who = (!anonymous).then_some(cookie.as_str());
            let reader = usize::from(anonymous);
            let before = match known[reader].take() {
                Some(view) => view,
                None => {
                    let view = send(&app, Method::GET, &game_uri, who, false, b"").await;
                    assert_eq!(view.status, StatusCode::OK);
                    view.body
                }
            };
            let what = format!("{method} {uri} {:?}", String::from_utf8_lossy(body));
            let authorised = method == Method::POST && !path.ends_with("/analysis");
            let answer = send(&app, method, &uri, who, !cross_site, body).await;
            check_answer(&what, &answer);
            if cross_site && authorised {
                assert_eq!(
                    answer.status,
                    StatusCode::FORBIDDEN,
                    "{what} without Origin was not refused"
                );
            }
            // Only a refused request promises to leave the game alone; the
            // other reader's view is read again (a change it alone saw
            // would be blamed on a later request).
            known = [None, None];
            if answer.status.is_client_error() {
                let after = send(&app, Method::GET, &game_uri, who, false, b"").await;
                assert_eq!(after.status, StatusCode::OK);
                assert!(
                    after.body == before,
                    "{what} was refused ({}) but changed the game:\n{}\n{}",
                    answer.status,
                    String::from_utf8_lossy(&before),
                    String::from_utf8_lossy(&after.body)
                );
                known[reader] = Some(after.body);
            }
        }
    });
}
