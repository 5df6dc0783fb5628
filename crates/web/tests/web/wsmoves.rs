//! Moves over the game's socket both ways (issue 44, item 3): a move's
//! message carries the move itself (long notation, SAN, ply, clocks, the
//! end it made, the version), a socket move is answered by the mover's
//! ack after that message, and the other seat and the watchers get the
//! move without asking for the game.

use crate::support;

use futures_util::SinkExt;
use serde_json::{json, Value};
use support::loopback::{connect, http, join_path, next_text, server, Socket};
use tokio_tungstenite::tungstenite::Message;

const A: &str = "AliceAliceAliceAlice0001";
const B: &str = "BobBobBobBobBobBobBob002";

/// The next message that is not a crowd message.
async fn next(ws: &mut Socket) -> Value {
    loop {
        let v: Value = serde_json::from_str(&next_text(ws).await).unwrap();
        if v["t"] != "crowd" {
            return v;
        }
    }
}

async fn play(ws: &mut Socket, uci: &str, ply: usize, ack: &str) {
    let msg = json!({"t": "move", "d": {"u": uci, "ply": ply}, "a": ack});
    ws.send(Message::Text(msg.to_string().into()))
        .await
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn socket_moves_are_acked_and_reach_the_other_seat_with_the_move() {
    let addr = server().await;
    let (status, g) = http(
        &addr,
        "POST",
        "/api/games",
        A,
        Some(json!({"mode": "friend", "color": "white", "clock": {"initial": 60, "increment": 2}})),
    )
    .await;
    assert_eq!(status, 201, "{g}");
    let id = g["id"].as_str().unwrap().to_string();
    let join = join_path(&addr, &id, A).await;
    let (status, g) = http(&addr, "POST", &join, B, None).await;
    assert_eq!(status, 200);
    let v0 = g["version"].as_i64().unwrap();
    let mut white = connect(&addr, &id, Some(A), Some(v0)).await;
    let mut black = connect(&addr, &id, Some(B), Some(v0)).await;
    let mut watcher = connect(&addr, &id, None, Some(v0)).await;

    // Fool's mate, every move over the socket of its player.
    let moves = [
        ("f2f3", "f3"),
        ("e7e5", "e5"),
        ("g2g4", "g4"),
        ("d8h4", "Qh4#"),
    ];
    for (i, (uci, san)) in moves.iter().enumerate() {
        let v = v0 + i as i64 + 1;
        let ack = format!("m{i}");
        let (mover, other) = if i % 2 == 0 {
            (&mut white, &mut black)
        } else {
            (&mut black, &mut white)
        };
        play(mover, uci, i, &ack).await;
        // The mover: the move's message, then the ack.
        let seen = next(mover).await;
        assert_eq!(next(mover).await, json!({"t": "ack", "a": ack, "v": v}));
        // The other seat and the watcher: the same message, no ack.
        assert_eq!(next(other).await, seen);
        assert_eq!(next(&mut watcher).await, seen);
        assert_eq!(seen["t"], "move");
        assert_eq!(seen["v"], v);
        let d = &seen["d"];
        assert_eq!(
            (d["uci"].as_str(), d["san"].as_str()),
            (Some(*uci), Some(*san))
        );
        assert_eq!(d["ply"], i + 1);
        assert_eq!(d["offers"], json!({"draw": null, "takeback": null}));
        let clock = &d["clock"];
        assert!(
            clock["white_ms"].is_i64() && clock["black_ms"].is_i64(),
            "{seen}"
        );
        if i + 1 < moves.len() {
            assert_eq!(d["status"], "playing");
            assert_eq!(d.get("result"), None);
            // The side to move's clock runs (White's first move runs none
            // before it; from then on the mover's opponent's).
            let running = if i % 2 == 0 { "black" } else { "white" };
            assert_eq!(clock["running"], running, "{seen}");
            assert!(clock["deadline"].is_i64(), "{seen}");
        } else {
            // The mate ends the game: said with the move.
            assert_eq!(d["status"], "ended");
            assert_eq!(d["result"], "0-1");
            assert_eq!(d["reason"], "checkmate");
            assert_eq!(clock.get("running"), None);
        }
    }
    // The stored game is what the messages said.
    let (_, g) = http(&addr, "GET", &format!("/api/games/{id}"), A, None).await;
    assert_eq!(g["version"], v0 + 4);
    assert_eq!(g["result"], "0-1");
    let sans: Vec<&str> = g["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["san"].as_str().unwrap())
        .collect();
    assert_eq!(sans, ["f3", "e5", "g4", "Qh4#"]);
    // A move refused over the socket: an error with its ack, nothing sent
    // to the others.
    play(&mut white, "a2a3", 4, "late").await;
    let refused = next(&mut white).await;
    assert_eq!(
        (refused["t"].as_str(), refused["a"].as_str()),
        (Some("error"), Some("late"))
    );
    assert!(refused["d"]["error"].is_string());
    // A change that is not a move (a rematch offer): only the version.
    let (status, _) = http(
        &addr,
        "POST",
        &format!("/api/games/{id}/rematch"),
        B,
        Some(json!({"action": "offer"})),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(next(&mut white).await, json!({"t": "state", "v": v0 + 5}));
    assert_eq!(next(&mut watcher).await, json!({"t": "state", "v": v0 + 5}));
}
