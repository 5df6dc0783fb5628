//! The socket's messages against the fixtures in `tests/fixtures/ws/` (the
//! page's test, `e2e/tests/protocol.test.js`, reads the same files): each
//! reads into its kind and writes back to the same text, and the server
//! sends exactly those texts in a real exchange on loopback.

use crate::support;

use futures_util::SinkExt;
use springboard_web::protocol::{ClientMessage, ServerMessage};
use std::path::PathBuf;
use support::loopback::{connect, create_game, http, join_path, next_text, server, Socket};
use tokio_tungstenite::tungstenite::Message;

const A: &str = "AliceAliceAliceAlice0001";
const B: &str = "BobBobBobBobBobBobBob002";

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/ws")
}

/// A fixture's text (a final newline, if an editor added one, is not part
/// of the message).
fn fixture(name: &str) -> String {
    let path = fixtures().join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    text.trim_end_matches('\n').to_string()
}

/// The fixtures by side: (kind, text) for `server-*.json` or `client-*.json`.
fn kinds(side: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(fixtures()).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if let Some(kind) = name
            .strip_prefix(&format!("{side}-"))
            .and_then(|n| n.strip_suffix(".json"))
        {
            out.push((kind.to_string(), fixture(&name)));
        }
    }
    out.sort();
    out
}

#[test]
fn every_server_fixture_reads_into_its_kind_and_writes_back_the_same() {
    let found = kinds("server");
    let names: Vec<&str> = found.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(names, ["ack", "crowd", "error", "move", "pong", "state"]);
    for (kind, text) in found {
        let msg = ServerMessage::parse(&text).unwrap_or_else(|e| panic!("{kind}: {e}"));
        let tag = match &msg {
            ServerMessage::State { .. } => "state",
            ServerMessage::Move { .. } => "move",
            ServerMessage::Crowd { .. } => "crowd",
            ServerMessage::Pong => "pong",
            ServerMessage::Ack { .. } => "ack",
            ServerMessage::Error { .. } => "error",
        };
        assert_eq!(tag, kind);
        assert_eq!(msg.to_text(), text, "{kind}");
    }
}

#[test]
fn every_client_fixture_reads_into_its_kind_and_writes_back_the_same() {
    let found = kinds("client");
    let names: Vec<&str> = found.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(names, ["move", "ping"]);
    for (kind, text) in found {
        // The server's reading and serde's agree.
        let msg = ClientMessage::parse(&text).unwrap_or_else(|e| panic!("{kind}: {e:?}"));
        assert_eq!(msg, serde_json::from_str::<ClientMessage>(&text).unwrap());
        let tag = match &msg {
            ClientMessage::Ping => "ping",
            ClientMessage::Move { .. } => "move",
        };
        assert_eq!(tag, kind);
        assert_eq!(msg.to_text(), text, "{kind}");
    }
}

/// The next two messages, in sorted order (they may come either way).
async fn next_two(ws: &mut Socket) -> Vec<String> {
    let mut got = vec![next_text(ws).await, next_text(ws).await];
    got.sort();
    got
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_sends_the_fixtures_texts() {
    let addr = server().await;
    let id = create_game(&addr, A, "friend").await;
    let join = join_path(&addr, &id, A).await;
    let (status, _) = http(&addr, "POST", &join, B, None).await;
    assert_eq!(status, 200);
    // White's socket, behind (v=1 of 2): who is there, and the state.
    let mut white = connect(&addr, &id, Some(A), Some(1)).await;
    assert_eq!(
        next_two(&mut white).await,
        [
            fixture("server-crowd.json"),
            r#"{"t":"state","v":2}"#.to_string()
        ]
    );
    // The page's ping, answered.
    let ping = fixture("client-ping.json");
    white.send(Message::Text(ping.into())).await.unwrap();
    assert_eq!(next_text(&mut white).await, fixture("server-pong.json"));
    // The page's move: the move to every socket, then its ack.
    let mv = fixture("client-move.json");
    white.send(Message::Text(mv.into())).await.unwrap();
    assert_eq!(next_text(&mut white).await, fixture("server-move.json"));
    assert_eq!(next_text(&mut white).await, fixture("server-ack.json"));
    // Out of turn: refused, with the ack.
    let again = ClientMessage::Move {
        d: springboard_web::protocol::MoveRequest {
            u: "d2d4".into(),
            ply: Some(1),
        },
        a: Some(1.into()),
    };
    white
        .send(Message::Text(again.to_text().into()))
        .await
        .unwrap();
    assert_eq!(next_text(&mut white).await, fixture("server-error.json"));
    // A change other than a move (a resignation): the new version.
    let (status, _) = http(&addr, "POST", &format!("/api/games/{id}/resign"), B, None).await;
    assert_eq!(status, 200);
    assert_eq!(
        next_text(&mut white).await,
        fixture("server-state.json").replace('3', "4")
    );
}
