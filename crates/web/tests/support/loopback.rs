//! A server on loopback and plain clients for it, for the test files that
//! talk to the server over real sockets (`ws.rs`, `protocol.rs`, `logs.rs`,
//! `errors.rs`).

use super::apps::{manual_clock, memory_app};
use axum::Router;
use futures_util::StreamExt;
use serde_json::{json, Value};
use springboard_web::Options;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

pub type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Serves `app` on a free loopback port; its `host:port`.
pub async fn listen(app: Router) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    tokio::spawn(springboard_web::serve(listener, app));
    addr
}

/// A server over an in-memory store with a fixed clock; its `host:port`.
pub async fn server() -> String {
    let mut options = Options::new(None);
    options.clock = manual_clock();
    listen(memory_app(options).await).await
}

/// A plain HTTP/1.1 request (no client crate needed) with the `sb_player`
/// cookie `cookie`, from the site's own origin as the page's are: the
/// status, the head of the answer and its JSON body (null if it has
/// none).
pub async fn exchange(
    addr: &str,
    method: &str,
    path: &str,
    cookie: &str,
    body: Option<Value>,
) -> (u16, String, Value) {
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nOrigin: http://{addr}\r\nCookie: sb_player={cookie}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut out = Vec::new();
    s.read_to_end(&mut out).await.unwrap();
    let text = String::from_utf8(out).unwrap();
    let status = text[9..12].parse().unwrap();
    let (head, rest) = text.split_once("\r\n\r\n").unwrap();
    (
        status,
        head.to_string(),
        serde_json::from_str(rest).unwrap_or(Value::Null),
    )
}

/// [`exchange`] without the head: status and body.
pub async fn http(
    addr: &str,
    method: &str,
    path: &str,
    cookie: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let (status, _, value) = exchange(addr, method, path, cookie, body).await;
    (status, value)
}

/// A new game of `mode` (`friend`, `local`) created by the player with
/// `cookie`, answered 201; its id.
pub async fn create_game(addr: &str, cookie: &str, mode: &str) -> String {
    let (status, g) = http(
        addr,
        "POST",
        "/api/games",
        cookie,
        Some(json!({ "mode": mode })),
    )
    .await;
    assert_eq!(status, 201, "{g}");
    g["id"].as_str().unwrap().to_string()
}

/// The join path of friend game `id` with its invitation's token, which
/// its creator (`cookie`) sees in the game's view.
pub async fn join_path(addr: &str, id: &str, cookie: &str) -> String {
    let (status, g) = http(addr, "GET", &format!("/api/games/{id}"), cookie, None).await;
    assert_eq!(status, 200, "{g}");
    let invite = g["invite"]
        .as_str()
        .expect("the creator sees the invitation");
    format!("/api/games/{id}/join?invite={invite}")
}

/// The socket of game `id`, as the player with `cookie` (or a watcher),
/// knowing version `v` (or none), opened by the site's own page (its
/// `Origin`).
pub async fn connect(addr: &str, id: &str, cookie: Option<&str>, v: Option<i64>) -> Socket {
    let q = v.map(|v| format!("?v={v}")).unwrap_or_default();
    let mut req = format!("ws://{addr}/api/games/{id}/ws{q}")
        .into_client_request()
        .unwrap();
    req.headers_mut()
        .insert("origin", format!("http://{addr}").parse().unwrap());
    if let Some(c) = cookie {
        req.headers_mut()
            .insert("cookie", format!("sb_player={c}").parse().unwrap());
    }
    tokio_tungstenite::connect_async(req).await.unwrap().0
}

/// The next text message, exactly as sent (within 5 s).
pub async fn next_text(ws: &mut Socket) -> String {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(5), ws.next())
            .await
            .expect("a message within 5 s")
            .expect("the socket is open")
            .unwrap();
        if let Message::Text(t) = msg {
            return t.to_string();
        }
    }
}
