//! Live updates over a real WebSocket on loopback.

use crate::support;

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::time::Duration;
use support::loopback::{connect, create_game, http, join_path, next_text, server, Socket};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

const A: &str = "AliceAliceAliceAlice0001";
const B: &str = "BobBobBobBobBobBobBob002";

/// The next text message (skipping crowd messages unless asked for).
async fn next(ws: &mut Socket, crowd: bool) -> Value {
    loop {
        let v: Value = serde_json::from_str(&next_text(ws).await).unwrap();
        if crowd || v["t"] != "crowd" {
            return v;
        }
    }
}

async fn send(ws: &mut Socket, v: Value) {
    ws.send(Message::Text(v.to_string().into())).await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moves_reach_every_socket_and_a_late_socket_catches_up() {
    let addr = server().await;
    let id = create_game(&addr, A, "friend").await;
    // An unknown game: no upgrade.
    let mut bad = format!("ws://{addr}/api/games/zzzzzzzz/ws")
        .into_client_request()
        .unwrap();
    bad.headers_mut()
        .insert("origin", format!("http://{addr}").parse().unwrap());
    assert!(tokio_tungstenite::connect_async(bad).await.is_err());
    // A socket that knows version 1 gets nothing; one without v gets the state.
    let mut white = connect(&addr, &id, Some(A), Some(1)).await;
    let first = next(&mut white, true).await;
    assert_eq!(
        first,
        json!({"t": "crowd", "d": {"white": true, "black": false, "spectators": 0}})
    );
    let mut watcher = connect(&addr, &id, None, None).await;
    assert_eq!(
        next(&mut watcher, false).await,
        json!({"t": "state", "v": 1})
    );
    assert_eq!(
        next(&mut white, true).await,
        json!({"t": "crowd", "d": {"white": true, "black": false, "spectators": 1}})
    );
    // B joins: version 2 reaches both.
    let join = join_path(&addr, &id, A).await;
    let (status, _) = http(&addr, "POST", &join, B, None).await;
    assert_eq!(status, 200);
    assert_eq!(next(&mut white, false).await, json!({"t": "state", "v": 2}));
    assert_eq!(
        next(&mut watcher, false).await,
        json!({"t": "state", "v": 2})
    );
    // A move over the socket: the move to every socket (before the ack on
    // the mover's), then the ack with the new version.
    send(
        &mut white,
        json!({"t": "move", "d": {"u": "e2e4", "ply": 0}, "a": 7}),
    )
    .await;
    let played = json!({"t": "move", "v": 3, "d": {"uci": "e2e4", "san": "e4", "ply": 1,
        "status": "playing", "offers": {"draw": null, "takeback": null}}});
    assert_eq!(next(&mut white, false).await, played);
    assert_eq!(
        next(&mut white, false).await,
        json!({"t": "ack", "a": 7, "v": 3})
    );
    assert_eq!(next(&mut watcher, false).await, played);
    // The resend of the acked move is acked again, unchanged.
    send(
        &mut white,
        json!({"t": "move", "d": {"u": "e2e4", "ply": 0}, "a": 7}),
    )
    .await;
    assert_eq!(
        next(&mut white, false).await,
        json!({"t": "ack", "a": 7, "v": 3})
    );
    // Out of turn, and a spectator's move: errors with the ack id.
    send(
        &mut white,
        json!({"t": "move", "d": {"u": "d2d4", "ply": 1}, "a": 8}),
    )
    .await;
    assert_eq!(
        next(&mut white, false).await,
        json!({"t": "error", "a": 8, "d": {"error": "not your turn"}})
    );
    send(
        &mut watcher,
        json!({"t": "move", "d": {"u": "e7e5", "ply": 1}, "a": 1}),
    )
    .await;
    assert_eq!(
        next(&mut watcher, false).await,
        json!({"t": "error", "a": 1, "d": {"error": "not your seat"}})
    );
    // A tab that reconnects with an old version catches up at once.
    let mut late = connect(&addr, &id, Some(B), Some(2)).await;
    assert_eq!(next(&mut late, false).await, json!({"t": "state", "v": 3}));
    let (_, g) = http(&addr, "GET", &format!("/api/games/{id}"), B, None).await;
    assert_eq!(
        (
            g["version"].as_i64(),
            g["plies"].as_u64(),
            g["you"].as_str()
        ),
        (Some(3), Some(1), Some("black"))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_messages_get_errors_and_a_flood_closes_the_socket() {
    let addr = server().await;
    let (_, g) = http(
        &addr,
        "POST",
        "/api/games",
        A,
        Some(json!({"mode": "local"})),
    )
    .await;
    let id = g["id"].as_str().unwrap().to_string();
    let mut ws = connect(&addr, &id, Some(A), Some(1)).await;
    send(&mut ws, json!({"t": "ping"})).await;
    assert_eq!(next(&mut ws, false).await, json!({"t": "pong"}));
    ws.send(Message::Text("{not json".into())).await.unwrap();
    assert_eq!(next(&mut ws, false).await["d"]["error"], "malformed JSON");
    send(&mut ws, json!({"t": "teleport", "a": 3})).await;
    assert_eq!(
        next(&mut ws, false).await,
        json!({"t": "error", "a": 3, "d": {"error": "unknown message type 'teleport'"}})
    );
    send(&mut ws, json!({"x": 1})).await;
    assert_eq!(
        next(&mut ws, false).await["d"]["error"],
        "a message needs a type t"
    );
    send(
        &mut ws,
        json!({"t": "move", "d": {"u": "e2e4", "ply": -2}, "a": 4}),
    )
    .await;
    assert_eq!(
        next(&mut ws, false).await["d"]["error"],
        "ply must be a whole number"
    );
    send(&mut ws, json!({"t": "move", "d": {}, "a": 5})).await;
    assert_eq!(
        next(&mut ws, false).await["d"]["error"],
        "a move needs d.u, the move in long notation"
    );
    // Over 4 KiB: an error, and the socket stays open.
    send(&mut ws, json!({"t": "ping", "pad": "x".repeat(5000)})).await;
    assert_eq!(
        next(&mut ws, false).await["d"]["error"],
        "a message is at most 4096 bytes"
    );
    send(&mut ws, json!({"t": "ping"})).await;
    assert_eq!(next(&mut ws, false).await, json!({"t": "pong"}));
    // Nothing changed the game.
    let (_, g) = http(&addr, "GET", &format!("/api/games/{id}"), A, None).await;
    assert_eq!(
        (g["version"].as_i64(), g["plies"].as_u64()),
        (Some(1), Some(0))
    );
    // A flood: the server closes the socket.
    for _ in 0..40 {
        if ws
            .send(Message::Text(json!({"t": "ping"}).to_string().into()))
            .await
            .is_err()
        {
            break;
        }
    }
    let closed = tokio::time::timeout(Duration::from_secs(5), async {
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
    .expect("the socket closes");
    assert_eq!(closed, Some(1008));
}
