//! Requests through the router (no network): the request and its answer,
//! and the calls of one test browser (the `sb_player` cookie [`BROWSER`]).

use axum::body::Body;
use axum::http::{HeaderMap, Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

/// The test browser's `sb_player` cookie.
pub const BROWSER: &str = "TestBrowser0123456789abc";

/// The host the test requests name (`Host`).
pub const HOST: &str = "springboard.test";
/// The site's own origin, which every state-changing request of the
/// site's page carries (the CSRF check, `crate::csrf`).
pub const ORIGIN: &str = "http://springboard.test";

/// A request with `headers`, then a JSON content type if there is a
/// `body`, and the `sb_player` cookie `cookie` if any. It names [`HOST`]
/// and, unless it is a `GET`, comes from [`ORIGIN`], as the page's do,
/// unless `headers` give a `host` or `origin` of their own.
pub fn request(
    method: &str,
    uri: &str,
    cookie: Option<&str>,
    headers: &[(&str, &str)],
    body: Option<String>,
) -> Request<Body> {
    let mut req = Request::builder().method(method).uri(uri);
    let has = |name: &str| headers.iter().any(|(k, _)| k.eq_ignore_ascii_case(name));
    if !has("host") {
        req = req.header("host", HOST);
    }
    if method != "GET" && !has("origin") && !has("host") {
        req = req.header("origin", ORIGIN);
    }
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    if body.is_some() {
        req = req.header("content-type", "application/json");
    }
    if let Some(c) = cookie {
        req = req.header("cookie", format!("sb_player={c}"));
    }
    req.body(body.map_or_else(Body::empty, Body::from)).unwrap()
}

/// The router's answer to `req`: status, headers, body.
pub async fn respond(app: &Router, req: Request<Body>) -> (StatusCode, HeaderMap, Vec<u8>) {
    let resp = app.clone().oneshot(req).await.unwrap();
    let status = resp.status();
    let headers = resp.headers().clone();
    let bytes = resp
        .into_body()
        .collect()
        .await
        .unwrap()
        .to_bytes()
        .to_vec();
    (status, headers, bytes)
}

/// A request with the `sb_player` cookie `cookie` if any and a JSON
/// `body` if any, answered: status, headers, body.
pub async fn raw(
    app: &Router,
    method: &str,
    uri: &str,
    cookie: Option<&str>,
    body: Option<String>,
) -> (StatusCode, HeaderMap, Vec<u8>) {
    respond(app, request(method, uri, cookie, &[], body)).await
}

/// An answer's body as JSON; a panic that shows the text if it is not.
pub fn json_of(bytes: &[u8]) -> Value {
    serde_json::from_slice(bytes)
        .unwrap_or_else(|_| panic!("not JSON: {}", String::from_utf8_lossy(bytes)))
}

/// A request of the test browser ([`BROWSER`]): status and body.
pub async fn send(
    app: &Router,
    method: &str,
    uri: &str,
    body: Option<&str>,
) -> (StatusCode, Vec<u8>) {
    // One browser for these tests: it holds both seats of the local games
    // it creates (the seat scheme is tested in tests/web/play.rs).
    let (status, _, bytes) = raw(app, method, uri, Some(BROWSER), body.map(str::to_string)).await;
    (status, bytes)
}

/// A JSON request of the test browser: status and JSON answer.
pub async fn call(
    app: &Router,
    method: &str,
    uri: &str,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let text = body.map(|b| b.to_string());
    let (status, bytes) = send(app, method, uri, text.as_deref()).await;
    (status, json_of(&bytes))
}

/// A new game of `body`, created by the test browser.
pub async fn new_game(app: &Router, body: Value) -> Value {
    let (status, game) = call(app, "POST", "/api/games", Some(body)).await;
    assert_eq!(status, StatusCode::CREATED, "{game}");
    game
}

/// Plays `mv` in game `id` as the test browser.
pub async fn play(app: &Router, id: &str, mv: &str) -> (StatusCode, Value) {
    call(
        app,
        "POST",
        &format!("/api/games/{id}/move"),
        Some(json!({ "move": mv })),
    )
    .await
}
