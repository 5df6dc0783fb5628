//! The board during a turn: facts the page draws (issue 11), and side
//! lines, checked and viewed but never stored.

use super::{analyse, local_game};
use crate::support::engines::FirstMove;
use crate::support::http::{call, play};
use axum::http::StatusCode;
use serde_json::json;
use springboard_web::app;
use std::sync::Arc;

#[tokio::test]
async fn the_view_gives_the_check_line_through_a_trampoline() {
    let app = app(None).await;
    let id = local_game(&app, json!({"variant": "hopchess"})).await;
    for mv in ["g1f3", "b7b6@e5", "f3e5c4@d6"] {
        assert_eq!(play(&app, &id, mv).await.0, StatusCode::OK, "{mv}");
    }
    let (_, v) = call(&app, "GET", &format!("/api/games/{id}"), None).await;
    // P8: the knight on c4 checks e8 off White's trampoline on d6.
    assert_eq!(v["check"], "e8");
    assert_eq!(v["check_lines"], json!([["c4", "d6", "e8"]]));
    // An earlier position without check: none.
    let (_, v) = call(&app, "GET", &format!("/api/games/{id}?ply=2"), None).await;
    assert_eq!(v["check_lines"], json!([]));
}

#[tokio::test]
async fn the_view_gives_the_half_made_hop_chess_turns() {
    let app = app(None).await;
    let id = local_game(&app, json!({"variant": "hopchess"})).await;
    for mv in ["e2e4", "d7d5@a6"] {
        assert_eq!(play(&app, &id, mv).await.0, StatusCode::OK, "{mv}");
    }
    let (_, v) = call(&app, "GET", &format!("/api/games/{id}"), None).await;
    let steps = v["steps"].as_array().unwrap();
    // One step per piece move of the legal turns (H2).
    let mut keys: Vec<String> = v["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| format!("{}{}{}{}", m["kind"], m["from"], m["to"], m["via"]))
        .collect();
    keys.sort();
    keys.dedup();
    let mut step_keys: Vec<String> = steps
        .iter()
        .map(|m| format!("{}{}{}{}", m["kind"], m["from"], m["to"], m["via"]))
        .collect();
    step_keys.sort();
    assert_eq!(step_keys, keys);
    // exd5: the pawn on d5, e4 empty, the black pawn gone.
    let take = steps
        .iter()
        .find(|s| s["from"] == "e4" && s["to"] == "d5")
        .unwrap();
    assert_eq!(
        take["changes"],
        json!([{"name": "e4", "piece": null}, {"name": "d5", "piece": "P"}])
    );
    // No steps in an older position, nor in the other games.
    let (_, v) = call(&app, "GET", &format!("/api/games/{id}?ply=1"), None).await;
    assert_eq!(v["steps"], json!([]));
    let chess = local_game(&app, json!({})).await;
    let (_, v) = call(&app, "GET", &format!("/api/games/{chess}"), None).await;
    assert_eq!(v["steps"], json!([]));
}

#[tokio::test]
async fn the_view_names_stuck_kings_and_the_weak_squares() {
    let app = app(None).await;
    let fen = "5k2/8/8/8/8/8/2K5/8[RBrrbbnnppp] w j 0 5";
    let id = local_game(&app, json!({"variant": "jumpingking", "fen": fen})).await;
    let (_, v) = call(&app, "GET", &format!("/api/games/{id}"), None).await;
    // J6: White's king jumps no more, its rook and bishop never enter.
    assert_eq!(
        v["stuck"],
        json!([{"color": "white", "men": [
            {"color": "white", "role": "r", "count": 1},
            {"color": "white", "role": "b", "count": 1},
        ]}])
    );
    assert_eq!(v["jumping"], json!(["black"]));
    // J3: a1 is White's, f8 Black's.
    assert_eq!(
        v["weak_squares"],
        json!([{"square": "a1", "owner": "white"}, {"square": "f8", "owner": "black"}])
    );
    let chess = local_game(&app, json!({})).await;
    let (_, v) = call(&app, "GET", &format!("/api/games/{chess}"), None).await;
    assert_eq!(v["weak_squares"], json!([]));
    assert_eq!(v["stuck"], json!([]));
}

#[tokio::test]
async fn a_side_line_is_checked_and_viewed_but_never_stored() {
    let app = app(Some(Arc::new(FirstMove::default()))).await;
    let id = local_game(&app, json!({})).await;
    for mv in ["e2e4", "e7e5", "g1f3"] {
        assert_eq!(play(&app, &id, mv).await.0, StatusCode::OK, "{mv}");
    }
    let uri = format!("/api/games/{id}/line");
    // From the position after 1.e4 e5: 2.d4 exd4, with its legal moves.
    let (status, v) = call(
        &app,
        "POST",
        &uri,
        Some(json!({"ply": 2, "moves": ["d2d4", "e5d4"]})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["ply"], 4);
    assert_eq!(v["turn"], "white");
    let sans: Vec<&str> = v["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["san"].as_str().unwrap())
        .collect();
    assert_eq!(sans, ["e4", "e5", "d4", "exd4"]);
    assert!(!v["legal"].as_array().unwrap().is_empty());
    // The game is as it was.
    let (_, g) = call(&app, "GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(g["plies"], 3);
    // A line that ends in mate: the view says so, with no legal move.
    let (_, v) = call(
        &app,
        "POST",
        &uri,
        Some(json!({"ply": 0, "moves": ["f2f3", "e7e5", "g2g4", "d8h4"]})),
    )
    .await;
    assert_eq!(v["outcome"]["reason"], "checkmate");
    assert_eq!(v["legal"], json!([]));
    // Wrong lines are refused with the place of the bad move.
    let (status, err) = call(
        &app,
        "POST",
        &uri,
        Some(json!({"ply": 2, "moves": ["d2d4", "e5e3"]})),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        err["error"]
            .as_str()
            .unwrap()
            .starts_with("move 2 of the side line ('e5e3')"),
        "{err}"
    );
    let (status, err) = call(&app, "POST", &uri, Some(json!({"ply": 9, "moves": []}))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(err["error"], "ply 9 is beyond the game's 3 moves");
    let (status, _) = call(
        &app,
        "POST",
        &uri,
        Some(json!({"ply": 0, "moves": ["f2f3", "e7e5", "g2g4", "d8h4", "e1f2"]})),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    // The analysis of a side line's position.
    let (status, a) = analyse(&app, &id, json!({"ply": 2, "line": ["d2d4", "e5d4"]})).await;
    assert_eq!(status, StatusCode::OK, "{a}");
    assert_eq!(a["ply"], 4);
    assert_eq!(a["fen"], v_fen_after(&["e2e4", "e7e5", "d2d4", "e5d4"]));
}

fn v_fen_after(moves: &[&str]) -> String {
    let mut pos = springboard_rules::Position::startpos(springboard_rules::Variant::Chess);
    for text in moves {
        let m = springboard_rules::notation::uci::parse_uci(&pos, text).unwrap();
        pos.play(m);
    }
    pos.to_fen()
}
