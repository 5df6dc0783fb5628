//! Moves: the legal moves and their fields, playing to mate, refusals
//! and what a move one part short lacks, and undo.

use super::local_game;
use crate::support::http::{call, new_game, play};
use axum::http::StatusCode;
use axum::Router;
use serde_json::{json, Value};
use springboard_web::app;

fn ucis(moves: &Value) -> Vec<String> {
    let mut v: Vec<String> = moves
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["uci"].as_str().unwrap().to_string())
        .collect();
    v.sort();
    v
}

#[tokio::test]
async fn legal_moves_carry_every_field() {
    let app = app(None).await;
    let game = new_game(
        &app,
        json!({ "fen": "r3k3/1P6/8/8/8/8/8/R3K2R w KQq - 0 1" }),
    )
    .await;
    let id = game["id"].as_str().unwrap().to_string();
    let (status, moves) = call(&app, "GET", &format!("/api/games/{id}/moves"), None).await;
    assert_eq!(status, StatusCode::OK);
    let list = moves.as_array().unwrap();
    let castle = list.iter().find(|m| m["uci"] == "e1g1").unwrap();
    assert_eq!(
        *castle,
        json!({"uci": "e1g1", "san": "O-O", "kind": "castle", "from": "e1", "to": "g1",
               "via": [], "role": null, "place": null})
    );
    let promo = list.iter().find(|m| m["uci"] == "b7a8q").unwrap();
    assert_eq!(
        *promo,
        json!({"uci": "b7a8q", "san": "bxa8=Q+", "kind": "normal", "from": "b7", "to": "a8",
               "via": [], "role": "q", "place": null})
    );
    let promotions: Vec<String> = ucis(&moves)
        .into_iter()
        .filter(|u| u.starts_with("b7"))
        .collect();
    assert_eq!(
        promotions,
        ["b7a8b", "b7a8n", "b7a8q", "b7a8r", "b7b8b", "b7b8n", "b7b8q", "b7b8r"]
    );
    assert_eq!(moves, game["legal"]);
}

#[tokio::test]
async fn play_moves_to_mate() {
    let app = app(None).await;
    let game = new_game(&app, json!({})).await;
    let id = game["id"].as_str().unwrap().to_string();
    for mv in ["f2f3", "e7e5", "g2g4"] {
        let (status, state) = play(&app, &id, mv).await;
        assert_eq!(status, StatusCode::OK, "{state}");
    }
    let (status, state) = play(&app, &id, "d8h4").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        state["outcome"],
        json!({"result": "0-1", "winner": "black", "reason": "checkmate"})
    );
    assert_eq!(state["check"], "e1");
    assert_eq!(state["legal"], json!([]));
    assert_eq!(state["last_move"]["san"], "Qh4#");
    assert_eq!(state["last_move"]["from"], "d8");
    let history: Vec<(u64, &str, &str, &str)> = state["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            (
                h["number"].as_u64().unwrap(),
                h["color"].as_str().unwrap(),
                h["san"].as_str().unwrap(),
                h["uci"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        history,
        [
            (1, "white", "f3", "f2f3"),
            (1, "black", "e5", "e7e5"),
            (2, "white", "g4", "g2g4"),
            (2, "black", "Qh4#", "d8h4")
        ]
    );
    // After the end no move is accepted.
    let (status, err) = play(&app, &id, "a2a3").await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(err["error"], "the game is over (0-1, checkmate)");
    // An older position can be viewed.
    let (status, old) = call(&app, "GET", &format!("/api/games/{id}?ply=1"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(old["ply"], 1);
    assert_eq!(old["plies"], 4);
    assert_eq!(
        old["fen"],
        "rnbqkbnr/pppppppp/8/8/8/5P2/PPPPP1PP/RNBQKBNR b KQkq - 0 1"
    );
    assert_eq!(old["legal"], json!([]));
    assert_eq!(old["outcome"], Value::Null);
    let (status, _) = call(&app, "GET", &format!("/api/games/{id}?ply=5"), None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn illegal_and_malformed_moves_get_a_reason() {
    let app = app(None).await;
    let game = new_game(&app, json!({ "variant": "chess" })).await;
    let id = game["id"].as_str().unwrap().to_string();
    let (status, err) = play(&app, &id, "e2e5").await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(err["error"], "illegal move 'e2e5' in this position");
    let (status, err) = play(&app, &id, "e2").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(err["error"], "malformed move 'e2'");
    // Black cannot move first.
    let (status, _) = play(&app, &id, "e7e5").await;
    assert_eq!(status, StatusCode::CONFLICT);
    // Nothing changed.
    let (_, state) = call(&app, "GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(state["plies"], 0);
}

#[tokio::test]
async fn undo_takes_back() {
    let app = app(None).await;
    let game = new_game(&app, json!({})).await;
    let id = game["id"].as_str().unwrap().to_string();
    let (status, err) = call(&app, "POST", &format!("/api/games/{id}/undo"), None).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(err["error"], "there is no move to take back");
    for mv in ["e2e4", "e7e5", "g1f3"] {
        assert_eq!(play(&app, &id, mv).await.0, StatusCode::OK);
    }
    let (status, state) = call(&app, "POST", &format!("/api/games/{id}/undo"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(state["plies"], 2);
    assert_eq!(state["turn"], "white");
    assert_eq!(state["last_move"]["uci"], "e7e5");
    let (_, state) = call(&app, "POST", &format!("/api/games/{id}/undo?plies=2"), None).await;
    assert_eq!(state["plies"], 0);
    assert_eq!(state["fen"], game["fen"]);
    assert_eq!(state["history"], json!([]));
}

/// Item 14 of issue 11: a move text one part short of a legal move gets
/// what it lacks from the rules core, not a bare "illegal move".
#[tokio::test]
async fn a_move_short_of_a_part_says_what_it_lacks() {
    let app = app(None).await;
    let refused = |app: Router, id: String, mv: &'static str| async move {
        let (status, err) = play(&app, &id, mv).await;
        assert_eq!(status, StatusCode::CONFLICT, "{mv}: {err}");
        err["error"].as_str().unwrap().to_string()
    };
    // Hop Chess (H2, H3): the trampoline square, missing, wrong or extra.
    let id = local_game(&app, json!({"variant": "hopchess"})).await;
    let e = refused(app.clone(), id.clone(), "e2e4@e5").await;
    assert_eq!(
        e,
        "'e2e4@e5': this turn places no trampoline, write the piece move alone: e2e4"
    );
    assert_eq!(play(&app, &id, "e2e4").await.0, StatusCode::OK);
    let e = refused(app.clone(), id.clone(), "e7e5").await;
    assert!(e.contains("trampoline") && e.contains("e7e5@"), "{e}");
    let e = refused(app.clone(), id.clone(), "e7e5@e8").await;
    assert!(
        e.starts_with("'e7e5@e8': your trampoline cannot stand on e8 after this move; try e7e5@"),
        "{e}"
    );
    // A promotion without its piece.
    let id = local_game(&app, json!({"fen": "8/4P3/8/8/8/8/k7/4K3 w - - 0 1"})).await;
    let e = refused(app.clone(), id, "e7e8").await;
    assert_eq!(
        e,
        "'e7e8' needs the piece the pawn becomes: e7e8q, e7e8r, e7e8b or e7e8n"
    );
    // Jumping King (J4): a jump without the man it leaves.
    let id = local_game(&app, json!({"variant": "jumpingking"})).await;
    for mv in ["a1c2", "f8d7"] {
        assert_eq!(play(&app, &id, mv).await.0, StatusCode::OK, "{mv}");
    }
    let e = refused(app.clone(), id, "c2e3").await;
    assert!(
        e.starts_with(
            "'c2e3' needs the letter of the man the king leaves on the square it jumped from: c2e3"
        ),
        "{e}"
    );
    // Hoplit Chess (L4): drops where no pawn can be pushed.
    let id = local_game(&app, json!({"variant": "hoplit"})).await;
    let e = refused(app.clone(), id.clone(), "H@g1").await;
    assert_eq!(e, "no Hoplit can be dropped on g1: the square is not empty");
    for mv in ["g2g4", "g8f6", "g1f3", "f6e4"] {
        assert_eq!(play(&app, &id, mv).await.0, StatusCode::OK, "{mv}");
    }
    let e = refused(app.clone(), id, "H@g1").await;
    assert_eq!(
        e,
        "no Hoplit can be dropped on g1: no pawn of yours stands right in front of it to be pushed forward"
    );
}

/// Item 12 of issue 11: a Hoplit drop carries the squares it changes (the
/// pushed pawn, L4), read from the rules core, so the page can show it
/// before it is played; other moves carry none.
#[tokio::test]
async fn a_drop_names_the_pawn_it_pushes() {
    let app = app(None).await;
    let id = local_game(&app, json!({"variant": "hoplit"})).await;
    for mv in ["g1f3", "g8f6"] {
        assert_eq!(play(&app, &id, mv).await.0, StatusCode::OK, "{mv}");
    }
    let (_, moves) = call(&app, "GET", &format!("/api/games/{id}/moves"), None).await;
    let drop = moves
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["uci"] == "H@g1")
        .unwrap();
    assert_eq!(
        drop["changes"],
        json!([{"name": "g1", "piece": "H"}, {"name": "g2", "piece": null}, {"name": "g3", "piece": "P"}])
    );
    let knight = moves
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["uci"] == "f3e5")
        .unwrap();
    assert!(knight.get("changes").is_none(), "{knight}");
}
