//! FEN and PGN: export and import back, the tags, and which games a text
//! holds.

use crate::support::engines::FirstMove;
use crate::support::http::{call, new_game, play};
use axum::http::StatusCode;
use axum::Router;
use serde_json::{json, Value};
use springboard_web::app;
use std::sync::Arc;
use std::time::Duration;

#[tokio::test]
async fn fen_and_pgn_round_trip() {
    let app = app(None).await;
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    let game = new_game(&app, json!({ "fen": fen })).await;
    let id = game["id"].as_str().unwrap().to_string();
    let (_, exported) = call(&app, "GET", &format!("/api/games/{id}/fen"), None).await;
    assert_eq!(exported["text"], fen);
    for mv in ["f1b5", "a7a6", "b5c6", "d7c6", "e1g1"] {
        assert_eq!(play(&app, &id, mv).await.0, StatusCode::OK);
    }
    let (_, pgn) = call(&app, "GET", &format!("/api/games/{id}/pgn"), None).await;
    let pgn = pgn["text"].as_str().unwrap().to_string();
    // Chess has no Variant tag (the PGN standard's way); the clock is
    // unlimited.
    assert!(!pgn.contains("[Variant "), "{pgn}");
    assert!(
        pgn.contains("[TimeControl \"-\"]\n[SetUp \"1\"]\n"),
        "{pgn}"
    );
    assert!(pgn.contains(&format!("[FEN \"{fen}\"]")), "{pgn}");
    assert!(
        pgn.ends_with("\n3. Bb5 a6 4. Bxc6 dxc6 5. O-O *\n"),
        "{pgn}"
    );
    let back = new_game(&app, json!({ "pgn": pgn })).await;
    let (_, state) = call(&app, "GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(back["fen"], state["fen"]);
    assert_eq!(back["start_fen"], fen);
    assert_eq!(back["history"], state["history"]);
    let back_id = back["id"].as_str().unwrap().to_string();
    assert_ne!(back_id, id);
    let (_, again) = call(&app, "GET", &format!("/api/games/{back_id}/pgn"), None).await;
    assert_eq!(again["text"], pgn.as_str());
}

/// Plays `moves` (long notation) in a new local game of `body`; answers
/// the game's id.
async fn played(app: &Router, body: Value, moves: &str) -> String {
    let id = new_game(app, body).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    for mv in moves.split_whitespace() {
        let (status, state) = play(app, &id, mv).await;
        assert_eq!(status, StatusCode::OK, "{mv}: {state}");
    }
    id
}

async fn pgn_of(app: &Router, id: &str) -> String {
    let (status, pgn) = call(app, "GET", &format!("/api/games/{id}/pgn"), None).await;
    assert_eq!(status, StatusCode::OK, "{pgn}");
    pgn["text"].as_str().unwrap().to_string()
}

/// Issue 11, item 1: a Hop Chess game with a double bounce (the bishop off
/// both trampolines, H4), a bounce off the opponent's trampoline, kept
/// and moved trampolines (N4), and a Hoplit Chess game with two drops (L4)
/// and a Hoplit capture (L2), exported by the API, load back to the same
/// moves and position, and export again to the same text.
#[tokio::test]
async fn variant_games_export_and_import_back() {
    let app = app(None).await;
    let hop = "e2e4 g8f6@d5 b1c3@c4 e7e5@d5 f1c4d5b7@c4 c8b7@d5 c3d5f6@e3 d8f6@d5";
    let hoplit = "g1h3 g8f6 f2f4 b8c6 H@g1 e7e6 g1f6 d8f6 e2e3 H@g8";
    for (variant, moves, san) in [
        (
            "hopchess",
            hop,
            "1. e4 Nf6 d5 2. Nc3 c4 e5 d5 3. Bf1-c4-d5:b7 c4 Bxb7 d5 4. Nc3-d5:f6 e3+ Qxf6 d5 *",
        ),
        (
            "hoplit",
            hoplit,
            "1. Nh3 Nf6 2. f4 Nc6 3. H@g1+ e6 4. Hxf6 Qxf6 5. e3 H@g8 *",
        ),
    ] {
        let id = played(&app, json!({ "variant": variant }), moves).await;
        let pgn = pgn_of(&app, &id).await;
        assert!(pgn.contains(&format!("[Variant \"{variant}\"]\n")), "{pgn}");
        let movetext = pgn.split_once("\n\n").unwrap().1;
        let words: Vec<&str> = movetext.split_whitespace().collect();
        assert_eq!(words.join(" "), san, "{pgn}");
        // The text says its game: it loads without naming one, and as
        // its own game; the same game comes back.
        for body in [
            json!({ "pgn": pgn }),
            json!({ "pgn": pgn, "variant": variant }),
        ] {
            let back = new_game(&app, body).await;
            let (_, state) = call(&app, "GET", &format!("/api/games/{id}"), None).await;
            assert_eq!(back["variant"], variant);
            assert_eq!(back["fen"], state["fen"]);
            assert_eq!(back["history"], state["history"]);
            let again = pgn_of(&app, back["id"].as_str().unwrap()).await;
            assert_eq!(
                again.split_once("\n\n").unwrap().1,
                pgn.split_once("\n\n").unwrap().1
            );
        }
        // Asked as chess, the text names its game.
        let (status, err) = call(
            &app,
            "POST",
            "/api/games",
            Some(json!({ "pgn": pgn, "variant": "chess" })),
        )
        .await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        let title = springboard_rules::Variant::from_name(variant)
            .unwrap()
            .title();
        assert_eq!(
            err["error"],
            format!(
                "This is a game of {title} (its Variant tag says so), not of Chess: load it as {title}"
            )
        );
    }
}

/// The tags a player expects: the event, the date, the engine by name and
/// level, the clock as PGN writes it, the result and how the game ended.
#[tokio::test]
async fn pgn_tags_name_the_players_the_clock_and_the_end() {
    let app = app(Some(Arc::new(FirstMove::default()))).await;
    let g = new_game(
        &app,
        json!({"variant": "trampoline", "mode": "engine", "color": "black", "level": 2,
               "clock": {"initial": 180, "increment": 2}}),
    )
    .await;
    let id = g["id"].as_str().unwrap().to_string();
    // The engine (White) moves first; wait for it.
    let mut plies = 0;
    for _ in 0..200 {
        let (_, state) = call(&app, "GET", &format!("/api/games/{id}"), None).await;
        plies = state["plies"].as_u64().unwrap();
        if plies > 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(plies, 1);
    let (status, _) = call(&app, "POST", &format!("/api/games/{id}/resign"), None).await;
    assert_eq!(status, StatusCode::OK);
    let pgn = pgn_of(&app, &id).await;
    let today = springboard_rules::notation::pgn::today();
    let head = format!(
        "[Event \"Springboard game against the engine\"]\n\
         [Site \"http://springboard.test/g/{id}\"]\n\
         [Date \"{today}\"]\n[Round \"?\"]\n[White \"first move (level 2)\"]\n\
         [Black \"Anonymous\"]\n[Result \"1-0\"]\n[Variant \"trampoline\"]\n\
         [TimeControl \"180+2\"]\n[Termination \"Black resigns\"]\n\
         [WhiteType \"program\"]\n[BlackType \"human\"]\n\n1. Ta3 {{Black resigns}} 1-0\n"
    );
    assert_eq!(pgn, head);
    // It loads back as the ended game it is.
    let back = new_game(&app, json!({ "pgn": pgn })).await;
    assert_eq!(
        (
            &back["status"],
            &back["result"],
            &back["reason"],
            &back["variant"]
        ),
        (
            &json!("ended"),
            &json!("1-0"),
            &json!("resignation"),
            &json!("trampoline")
        )
    );
    let again = pgn_of(&app, back["id"].as_str().unwrap()).await;
    assert!(again.contains("[Termination \"Black resigns\"]"), "{again}");
    assert!(again.ends_with("\n1. Ta3 {Black resigns} 1-0\n"), "{again}");
}

/// Issue 11, item 9: which games read a text, for the page's Load buttons.
#[tokio::test]
async fn detect_names_the_games_of_a_text() {
    let app = app(None).await;
    let hop_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 -,- first";
    for (text, answer) in [
        (
            hop_fen,
            json!({"kind": "position", "variants": ["hopchess"]}),
        ),
        (
            "[Variant \"Trampoline Chess\"]\n\n1. e4 e5 *",
            json!({"kind": "game", "variants": ["trampoline"]}),
        ),
        (
            "1. e4 e5 *",
            json!({"kind": "game", "variants": ["chess", "trampoline", "hoplit"]}),
        ),
        ("1. e4 e5 2. Ke3", json!({"kind": "game", "variants": []})),
        ("", json!({"kind": "game", "variants": []})),
    ] {
        let (status, found) =
            call(&app, "POST", "/api/detect", Some(json!({ "text": text }))).await;
        assert_eq!((status, found), (StatusCode::OK, answer), "{text}");
    }
    let (status, err) = call(&app, "POST", "/api/detect", Some(json!({}))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{err}");
    // A Hop Chess position asked as chess names its game.
    let (status, err) = call(
        &app,
        "POST",
        "/api/games",
        Some(json!({ "fen": hop_fen, "variant": "chess" })),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        err["error"],
        "This position is from Hop Chess, not Chess: load it as Hop Chess"
    );
    // One that Hop Chess refuses says both.
    let (status, err) = call(
        &app,
        "POST",
        "/api/games",
        Some(json!({
            "fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 e1,- place",
            "variant": "chess"
        })),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        err["error"],
        "This position is from Hop Chess, not Chess, and Hop Chess refuses it: \
         the White trampoline stands on e1, which holds a piece ('K')"
    );
    // Without a game named, the position's shape says it.
    assert_eq!(
        new_game(&app, json!({ "fen": hop_fen })).await["variant"],
        "hopchess"
    );
}
