//! Two `springboard serve` processes on one PostgreSQL database: a move
//! made through one reaches a WebSocket watcher of the other, live, and so
//! does who is connected (a player on one process is online for the
//! watchers of the other). Runs
//! when `SPRINGBOARD_TEST_POSTGRES` names a server (scripts/test.sh starts
//! one).

use futures_util::StreamExt;
use serde_json::{json, Value};
use std::process::Stdio;
use std::time::Duration;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

const PLAYER: &str = "ScaleOutScaleOutScaleOu1";

mod support;
use support::Server;

/// Starts `springboard serve --port 0` on the database.
fn start(url: &str) -> Server {
    Server::start(&["--database", url], |c| {
        c.stderr(Stdio::inherit());
    })
}

/// A request as the player: status and JSON body (std over loopback: the
/// servers are other processes, so blocking here holds up nothing of theirs).
async fn http(addr: &str, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let cookie = format!("Cookie: sb_player={PLAYER}\r\n");
    let (status, text) = support::http(addr, method, path, &cookie, &body);
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

fn history(view: &Value) -> Vec<String> {
    view["history"]
        .as_array()
        .map(|h| {
            h.iter()
                .map(|m| m["uci"].as_str().unwrap_or_default().to_string())
                .collect()
        })
        .unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_through_one_process_reaches_the_watchers_of_another() {
    let Ok(url) = std::env::var("SPRINGBOARD_TEST_POSTGRES") else {
        // In CI (CI set) a missing server fails the test: it must not pass
        // there without running.
        assert!(
            std::env::var_os("CI").is_none(),
            "CI is set but SPRINGBOARD_TEST_POSTGRES is not: the two-process test cannot run"
        );
        eprintln!("SPRINGBOARD_TEST_POSTGRES is not set: the two-process test does not run");
        return;
    };
    let a = start(&url);
    let b = start(&url);
    assert_ne!(a.addr, b.addr);

    let (status, game) = http(
        &a.addr,
        "POST",
        "/api/games",
        Some(json!({"variant": "chess", "mode": "local"})),
    )
    .await;
    assert_eq!(status, 201, "{game}");
    let id = game["id"].as_str().unwrap().to_string();
    let v0 = game["version"].as_i64().unwrap();

    // B serves the game A created.
    let (status, seen) = http(&b.addr, "GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(status, 200, "{seen}");
    assert_eq!(seen["version"].as_i64(), Some(v0));

    let mut req = format!("ws://{}/api/games/{id}/ws?v={v0}", b.addr)
        .into_client_request()
        .unwrap();
    req.headers_mut()
        .insert("origin", format!("http://{}", b.addr).parse().unwrap());
    let (mut ws, _) = tokio_tungstenite::connect_async(req)
        .await
        .expect("B upgrades the socket");

    let (status, moved) = http(
        &a.addr,
        "POST",
        &format!("/api/games/{id}/move"),
        Some(json!({"move": "e2e4", "ply": 0})),
    )
    .await;
    assert_eq!(status, 200, "{moved}");
    let v1 = moved["version"].as_i64().unwrap();
    assert!(v1 > v0);

    // The watcher on B hears of the new version within 10 s.
    let heard = tokio::time::timeout(Duration::from_secs(10), async {
        while let Some(msg) = ws.next().await {
            if let Ok(Message::Text(t)) = msg {
                let m: Value = serde_json::from_str(&t).unwrap();
                if m["t"] == "state" {
                    return m["v"].as_i64();
                }
            }
        }
        None
    })
    .await
    .expect("B's watcher hears of the move within 10 s");
    assert_eq!(heard, Some(v1));

    // B's view shows the move (B had the game in memory at v0).
    let (status, seen) = http(&b.addr, "GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(status, 200);
    assert_eq!(seen["version"].as_i64(), Some(v1));
    assert_eq!(history(&seen), ["e2e4"]);

    // A move through B reaches A's view too, and a stale resend through A
    // is refused: one game, whichever process serves it.
    let (status, moved) = http(
        &b.addr,
        "POST",
        &format!("/api/games/{id}/move"),
        Some(json!({"move": "e7e5", "ply": 1})),
    )
    .await;
    assert_eq!(status, 200, "{moved}");
    let (status, _) = http(
        &a.addr,
        "POST",
        &format!("/api/games/{id}/move"),
        Some(json!({"move": "d7d5", "ply": 1})),
    )
    .await;
    assert_eq!(status, 409);
    let (_, seen) = http(&a.addr, "GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(history(&seen), ["e2e4", "e7e5"]);

    // The player (both seats of this local game) connects to A: B's
    // watcher sees both seats online, then offline when the player leaves.
    let mut req = format!("ws://{}/api/games/{id}/ws", a.addr)
        .into_client_request()
        .unwrap();
    req.headers_mut()
        .insert("cookie", format!("sb_player={PLAYER}").parse().unwrap());
    req.headers_mut()
        .insert("origin", format!("http://{}", a.addr).parse().unwrap());
    let (mut player, _) = tokio_tungstenite::connect_async(req)
        .await
        .expect("A upgrades the player's socket");
    assert_eq!(
        next_crowd(&mut ws, |c| c["white"] == true).await,
        json!({"white": true, "black": true, "spectators": 1})
    );
    player.close(None).await.unwrap();
    assert_eq!(
        next_crowd(&mut ws, |c| c["white"] == false).await,
        json!({"white": false, "black": false, "spectators": 1})
    );
}

/// The next `crowd` message's `d` that satisfies `want`, within 10 s.
async fn next_crowd<S>(ws: &mut S, want: impl Fn(&Value) -> bool) -> Value
where
    S: futures_util::Stream<Item = Result<Message, tokio_tungstenite::tungstenite::Error>> + Unpin,
{
    tokio::time::timeout(Duration::from_secs(10), async {
        while let Some(msg) = ws.next().await {
            if let Ok(Message::Text(t)) = msg {
                let m: Value = serde_json::from_str(&t).unwrap();
                if m["t"] == "crowd" && want(&m["d"]) {
                    return m["d"].clone();
                }
            }
        }
        panic!("the socket ended");
    })
    .await
    .expect("the crowd message comes within 10 s")
}
