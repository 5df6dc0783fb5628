//! The server's info and games: creating one, reading its state, several at once.

use crate::support::http::{call, new_game, play};
use axum::http::StatusCode;
use serde_json::{json, Value};
use springboard_web::app;

#[tokio::test]
async fn info_lists_implemented_variants_and_no_engine() {
    let app = app(None).await;
    let (status, info) = call(&app, "GET", "/api/info", None).await;
    assert_eq!(status, StatusCode::OK);
    let names: Vec<&str> = info["variants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["name"].as_str().unwrap())
        .collect();
    let expected: Vec<&str> = springboard_rules::Variant::implemented()
        .map(|v| v.name())
        .collect();
    assert_eq!(names, expected);
    assert_eq!(info["engine"], Value::Null);
}

#[tokio::test]
async fn create_game_and_read_state() {
    let app = app(None).await;
    let game = new_game(&app, json!({ "variant": "chess" })).await;
    assert_eq!(
        game["fen"],
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
    assert_eq!(game["turn"], "white");
    assert_eq!(game["plies"], 0);
    assert_eq!(game["outcome"], Value::Null);
    assert_eq!(game["last_move"], Value::Null);
    let squares = game["squares"].as_array().unwrap();
    assert_eq!(squares.len(), 64);
    assert_eq!(
        squares[0],
        json!({"name": "a1", "exists": true, "piece": "R", "trampoline": null})
    );
    assert_eq!(squares[63]["piece"], "r");
    assert_eq!(squares[63]["name"], "h8");
    assert!(squares.iter().all(|s| s["exists"] == true));
    assert_eq!(
        game["trampolines"],
        json!([{"owner": "white", "square": null}, {"owner": "black", "square": null}])
    );
    assert_eq!(game["reserves"], json!([]));
    assert_eq!(game["legal"].as_array().unwrap().len(), 20);
    let id = game["id"].as_str().unwrap().to_string();
    let (status, again) = call(&app, "GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(again["fen"], game["fen"]);
}

#[tokio::test]
async fn several_games_at_once() {
    let app = app(None).await;
    let mut ids = Vec::new();
    for _ in 0..3 {
        ids.push(
            new_game(&app, json!({})).await["id"]
                .as_str()
                .unwrap()
                .to_string(),
        );
    }
    assert_eq!(play(&app, &ids[0], "e2e4").await.0, StatusCode::OK);
    assert_eq!(play(&app, &ids[1], "d2d4").await.0, StatusCode::OK);
    let (_, a) = call(&app, "GET", &format!("/api/games/{}", ids[0]), None).await;
    let (_, b) = call(&app, "GET", &format!("/api/games/{}", ids[1]), None).await;
    let (_, c) = call(&app, "GET", &format!("/api/games/{}", ids[2]), None).await;
    assert_eq!(a["last_move"]["uci"], "e2e4");
    assert_eq!(b["last_move"]["uci"], "d2d4");
    assert_eq!(c["plies"], 0);
}
