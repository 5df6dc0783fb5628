//! The flood limit of the lobby's and the chat's sockets (`crate::flood`,
//! as the game socket's in `ws.rs`): a client that sends more than
//! `FLOOD_PER_SECOND` messages in a second reads the 1008 Close frame (the
//! server reads what the client still sends until its Close, so the client
//! gets the frame, not a reset), and the server goes on serving.

use crate::support;

use futures_util::{SinkExt, StreamExt};
use serde_json::json;
use springboard_web::{app_with, Options, SqliteStore};
use std::sync::Arc;
use std::time::Duration;
use support::loopback::{exchange, listen, Socket};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

const COOKIE: &str = "FloodTestToken0000000001";

/// The socket at `path`, from the site's origin with the `sb_player`
/// cookie [`COOKIE`].
async fn open(addr: &str, path: &str) -> Socket {
    let mut req = format!("ws://{addr}{path}").into_client_request().unwrap();
    req.headers_mut()
        .insert("origin", format!("http://{addr}").parse().unwrap());
    req.headers_mut()
        .insert("cookie", format!("sb_player={COOKIE}").parse().unwrap());
    tokio_tungstenite::connect_async(req).await.unwrap().0
}

/// Floods `ws` with pings: the code of the Close frame it then reads
/// (None: no frame, the connection was reset).
async fn flood(ws: &mut Socket) -> Option<u16> {
    let ping = json!({"t": "ping", "pad": "x".repeat(600)}).to_string();
    for _ in 0..300 {
        if ws.send(Message::Text(ping.clone().into())).await.is_err() {
            break;
        }
    }
    tokio::time::timeout(Duration::from_secs(5), async {
        while let Some(msg) = ws.next().await {
            match msg {
                Ok(Message::Close(frame)) => return frame.map(|f| u16::from(f.code)),
                Ok(_) => continue,
                Err(_) => return None,
            }
        }
        None
    })
    .await
    .expect("the socket closes within 5 s")
}

/// Whether the socket at `path` answers a ping with a pong.
async fn pongs(addr: &str, path: &str) -> bool {
    let mut ws = open(addr, path).await;
    let ping = json!({"t": "ping"}).to_string();
    ws.send(Message::Text(ping.into())).await.unwrap();
    tokio::time::timeout(Duration::from_secs(5), async {
        while let Some(Ok(msg)) = ws.next().await {
            if let Message::Text(t) = msg {
                if serde_json::from_str::<serde_json::Value>(&t).unwrap()["t"] == "pong" {
                    return true;
                }
            }
        }
        false
    })
    .await
    .unwrap_or(false)
}

#[tokio::test]
async fn a_flooding_lobby_or_chat_client_gets_1008_and_the_server_stays_up() {
    let store = Arc::new(SqliteStore::memory().await.unwrap());
    let mut options = Options::new(None);
    options.clock = support::apps::manual_clock();
    options.domains_on(&store);
    let addr = listen(app_with(store, options).await.unwrap()).await;
    let (status, _, game) = exchange(
        &addr,
        "POST",
        "/api/games",
        COOKIE,
        Some(json!({"variant": "chess", "mode": "friend"})),
    )
    .await;
    assert_eq!(status, 201, "{game}");
    let id = game["id"].as_str().unwrap();
    let chat = format!("/api/game/{id}/chat/socket");
    for path in ["/api/lobby/socket", chat.as_str()] {
        for round in 0..3 {
            let mut ws = open(&addr, path).await;
            assert_eq!(flood(&mut ws).await, Some(1008), "{path}, round {round}");
        }
        // The server is up: a new socket is served, and so is the API.
        assert!(pongs(&addr, path).await, "{path}");
        let (status, _, _) = exchange(&addr, "GET", "/api/info", COOKIE, None).await;
        assert_eq!(status, 200, "{path}");
    }
}
