//! The page's move box: a typed move read by the rules core, nothing
//! played.

use super::local_game;
use crate::support::http::{call, play};
use axum::http::StatusCode;
use serde_json::{json, Value};
use springboard_web::app;

/// The page's move box: a typed move is read by the rules core at the
/// game's position or a side line's, and nothing is played (N1-N6, H2).
#[tokio::test]
async fn a_typed_move_is_read_in_any_notation_and_nothing_is_played() {
    let app = app(None).await;
    let id = local_game(&app, json!({"variant": "hopchess"})).await;
    for mv in ["e2e4", "e7e5@e6"] {
        assert_eq!(play(&app, &id, mv).await.0, StatusCode::OK, "{mv}");
    }
    let uri = format!("/api/games/{id}/read");
    let read = |body: Value| call(&app, "POST", &uri, Some(body));
    for text in ["Nf3 d4", "Nf3@d4", "g1f3@d4", "2. Nf3 d4"] {
        let (status, v) = read(json!({ "text": text })).await;
        assert_eq!(status, StatusCode::OK, "{text}: {v}");
        assert_eq!(v, json!({"uci": "g1f3@d4", "san": "Nf3 d4"}), "{text}");
    }
    // Half a turn: the reason names the square it needs.
    let (status, err) = read(json!({ "text": "Nf3" })).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let reason = err["error"].as_str().unwrap();
    assert!(reason.contains("only half a Hop Chess turn"), "{reason}");
    // At an earlier position, and in a side line from there.
    let (_, v) = read(json!({ "text": "e4", "ply": 0 })).await;
    assert_eq!(v["uci"], "e2e4");
    let (_, v) = read(json!({ "text": "d5 e6", "ply": 0, "moves": ["d2d4"] })).await;
    assert_eq!(v["uci"], "d7d5@e6", "{v}");
    // Nothing was played.
    let (_, g) = call(&app, "GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(g["plies"], 2);

    let chess = local_game(
        &app,
        json!({"variant": "chess", "fen": "4k3/8/8/8/8/8/4K3/R6R w - - 0 1"}),
    )
    .await;
    let uri = format!("/api/games/{chess}/read");
    let read = |text: &str| call(&app, "POST", &uri, Some(json!({ "text": text })));
    let (status, err) = read("Rd1").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        err["error"],
        "ambiguous move 'Rd1': it could be Rad1 (a1d1), Rhd1 (h1d1)"
    );
    let (_, err) = read("Nf5").await;
    assert_eq!(err["error"], "illegal move 'Nf5' in this position");
    let (_, err) = read("Ra2 Ra3").await;
    assert_eq!(err["error"], "malformed move 'Ra2 Ra3'");
    let (status, _) = read(&"R".repeat(65)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, _) = call(
        &app,
        "POST",
        "/api/games/nosuchgame/read",
        Some(json!({"text": "e4"})),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

/// Item 14 of issue 11 in the move box: a typed long-notation text one
/// part short says what it lacks, like a move sent to play.
#[tokio::test]
async fn a_typed_move_short_of_a_part_says_what_it_lacks() {
    let app = app(None).await;
    // The typed reader takes a bare promotion as a queen (its own rule,
    // kept as it is).
    let id = local_game(&app, json!({"fen": "8/4P3/8/8/8/8/k7/4K3 w - - 0 1"})).await;
    let uri = format!("/api/games/{id}/read");
    let (status, v) = call(&app, "POST", &uri, Some(json!({"text": "e7e8"}))).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    // Jumping King (J4): a jump without the man it leaves.
    let id = local_game(&app, json!({"variant": "jumpingking"})).await;
    for mv in ["a1c2", "f8d7"] {
        assert_eq!(play(&app, &id, mv).await.0, StatusCode::OK, "{mv}");
    }
    let uri = format!("/api/games/{id}/read");
    let (status, err) = call(&app, "POST", &uri, Some(json!({"text": "c2e3"}))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let reason = err["error"].as_str().unwrap();
    assert!(
        reason.starts_with(
            "'c2e3' needs the letter of the man the king leaves on the square it jumped from: c2e3"
        ),
        "{reason}"
    );
    let id = local_game(&app, json!({"variant": "hoplit"})).await;
    let uri = format!("/api/games/{id}/read");
    let (status, err) = call(&app, "POST", &uri, Some(json!({"text": "H@e1"}))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        err["error"],
        "no Hoplit can be dropped on e1: the square is not empty"
    );
}
