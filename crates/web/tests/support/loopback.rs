//! A server on loopback and plain clients for it, shared by the test files
//! that talk to the server over real sockets (`ws.rs`, `protocol.rs`), which
//! include it with `#[path = "support/loopback.rs"] mod loopback;`.

use futures_util::StreamExt;
use serde_json::Value;
use springboard_web::{app_with, ManualClock, Options, SqliteStore};
use std::sync::Arc;
use std::time::Duration;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

pub type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A server over an in-memory store with a fixed clock; its `host:port`.
pub async fn server() -> String {
    let store = SqliteStore::memory().await.unwrap();
    let mut options = Options::new(None);
    options.clock = Arc::new(ManualClock::new(1_800_000_000_000));
    let app = app_with(Arc::new(store), options).await.unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(springboard_web::serve(listener, app));
    format!("127.0.0.1:{}", addr.port())
}

/// A plain HTTP/1.1 request (no client crate needed): status and body.
pub async fn http(
    addr: &str,
    method: &str,
    path: &str,
    cookie: &str,
    body: Option<Value>,
) -> (u16, Value) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nCookie: sb_player={cookie}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut out = Vec::new();
    s.read_to_end(&mut out).await.unwrap();
    let text = String::from_utf8(out).unwrap();
    let status = text[9..12].parse().unwrap();
    let (_, rest) = text.split_once("\r\n\r\n").unwrap();
    (status, serde_json::from_str(rest).unwrap_or(Value::Null))
}

/// The socket of game `id`, as the player with `cookie` (or a watcher),
/// knowing version `v` (or none).
pub async fn connect(addr: &str, id: &str, cookie: Option<&str>, v: Option<i64>) -> Socket {
    let q = v.map(|v| format!("?v={v}")).unwrap_or_default();
    let mut req = format!("ws://{addr}/api/games/{id}/ws{q}")
        .into_client_request()
        .unwrap();
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
