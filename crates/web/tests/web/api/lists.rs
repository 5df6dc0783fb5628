//! The games lists and what they show (issue 45): a waiting friend game is
//! listed nowhere public, boards and loaded texts are kept apart from the
//! played games, my side and whose move it is, moves counted as moves; a
//! loaded PGN keeps its tags, a finished one loaded twice is one game, and
//! the export's Site is the game's address.

use crate::support::http::{json_of, request, respond};
use axum::http::StatusCode;
use axum::Router;
use serde_json::{json, Value};
use springboard_web::app;

const A: &str = "AliceAliceAliceAlice0001";
const B: &str = "BobBobBobBobBobBobBob002";
const C: &str = "CarolCarolCarolCarol0003";

/// A JSON request of the browser with cookie `who`, with `headers`.
async fn ask(
    app: &Router,
    who: &str,
    method: &str,
    uri: &str,
    body: Option<Value>,
    headers: &[(&str, &str)],
) -> (StatusCode, Value) {
    let req = request(method, uri, Some(who), headers, body.map(|b| b.to_string()));
    let (status, _, bytes) = respond(app, req).await;
    (status, json_of(&bytes))
}

async fn create(app: &Router, who: &str, body: Value) -> Value {
    let (status, v) = ask(app, who, "POST", "/api/games", Some(body), &[]).await;
    assert!(status.is_success(), "{status} {v}");
    v
}

async fn list(app: &Router, who: &str, which: &str) -> Vec<Value> {
    let (status, v) = ask(
        app,
        who,
        "GET",
        &format!("/api/games?list={which}"),
        None,
        &[],
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    v["games"].as_array().unwrap().clone()
}

fn ids(games: &[Value]) -> Vec<&str> {
    games.iter().map(|g| g["id"].as_str().unwrap()).collect()
}

fn id_of(v: &Value) -> String {
    v["id"].as_str().unwrap().to_string()
}

async fn mv(app: &Router, who: &str, id: &str, m: &str) {
    let (status, v) = ask(
        app,
        who,
        "POST",
        &format!("/api/games/{id}/move"),
        Some(json!({ "move": m })),
        &[],
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{m}: {v}");
}

#[tokio::test]
async fn a_waiting_invitation_is_listed_to_its_creator_only() {
    let app = app(None).await;
    let g = create(&app, A, json!({"mode": "friend", "color": "black"})).await;
    let id = id_of(&g);
    for which in ["ongoing", "recent"] {
        assert!(
            !ids(&list(&app, C, which).await).contains(&id.as_str()),
            "{which}"
        );
    }
    let mine = list(&app, A, "mine").await;
    assert_eq!(ids(&mine), [id.as_str()]);
    assert_eq!(
        (mine[0]["status"].as_str(), mine[0]["you"].as_str()),
        (Some("waiting"), Some("black"))
    );
    assert_eq!(list(&app, C, "mine").await, Vec::<Value>::new());
    // Joined by the link, the game is played in public.
    let invite = g["invite"].as_str().unwrap();
    let (status, v) = ask(
        &app,
        B,
        "POST",
        &format!("/api/games/{id}/join?invite={invite}"),
        None,
        &[],
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let ongoing = list(&app, C, "ongoing").await;
    assert_eq!(ids(&ongoing), [id.as_str()]);
    assert_eq!(
        (ongoing[0]["you"].clone(), ongoing[0]["turn"].as_str()),
        (Value::Null, Some("white"))
    );
}

#[tokio::test]
async fn boards_and_loaded_texts_are_kept_apart_from_played_games() {
    let app = app(None).await;
    let played = id_of(&create(&app, A, json!({"mode": "friend"})).await);
    let board = id_of(&create(&app, A, json!({"mode": "local"})).await);
    let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    let loaded = create(&app, A, json!({"mode": "local", "fen": fen})).await;
    assert_eq!(loaded["origin"], "imported");
    let loaded = id_of(&loaded);
    mv(&app, A, &board, "e2e4").await;
    mv(&app, A, &loaded, "e7e5").await;
    for which in ["ongoing", "recent"] {
        assert_eq!(list(&app, C, which).await, Vec::<Value>::new(), "{which}");
    }
    assert_eq!(ids(&list(&app, A, "mine").await), [played.as_str()]);
    let boards = list(&app, A, "analysis").await;
    // Both were changed within the same few milliseconds: the order of
    // equal times is the database's, so the test compares the sets.
    let mut got = ids(&boards);
    got.sort_unstable();
    let mut want = [loaded.as_str(), board.as_str()];
    want.sort_unstable();
    assert_eq!(got, want);
    for g in &boards {
        let origin = if g["id"] == loaded.as_str() {
            "imported"
        } else {
            "analysis"
        };
        assert_eq!((&g["origin"], &g["you"]), (&json!(origin), &json!("both")));
    }
    assert_eq!(list(&app, C, "analysis").await, Vec::<Value>::new());
}

#[tokio::test]
async fn my_games_say_my_side_whose_move_and_count_moves() {
    let app = app(None).await;
    let g = create(&app, A, json!({"mode": "friend", "color": "white"})).await;
    let id = id_of(&g);
    let invite = g["invite"].as_str().unwrap();
    let join = format!("/api/games/{id}/join?invite={invite}");
    assert_eq!(
        ask(&app, B, "POST", &join, None, &[]).await.0,
        StatusCode::OK
    );
    for (who, m) in [(A, "e2e4"), (B, "e7e5"), (A, "g1f3")] {
        mv(&app, who, &id, m).await;
    }
    let white = &list(&app, A, "mine").await[0];
    let black = &list(&app, B, "mine").await[0];
    assert_eq!(
        (
            white["you"].as_str(),
            black["you"].as_str(),
            white["turn"].as_str(),
            white["moves"].as_u64(),
            white["plies"].as_u64()
        ),
        (
            Some("white"),
            Some("black"),
            Some("black"),
            Some(2),
            Some(3)
        )
    );
    assert_eq!(white["origin"], "played");
}

const IMPORTED: &str = "[Event \"London\"]\n[Site \"London ENG\"]\n[Date \"1851.06.21\"]\n\
[Round \"3\"]\n[White \"Adolf Anderssen\"]\n[Black \"Lionel Kieseritzky\"]\n\
[Result \"1-0\"]\n\n1. e4 e5 2. f4 exf4 3. Bc4 Qh4+ 4. Kf1 b5 1-0\n";

#[tokio::test]
async fn a_loaded_pgn_keeps_its_tags_and_loading_it_again_opens_it() {
    let app = app(None).await;
    let first = create(&app, A, json!({"mode": "local", "pgn": IMPORTED})).await;
    let id = id_of(&first);
    assert_eq!(
        first["tags"],
        json!({"Event": "London", "Site": "London ENG", "Date": "1851.06.21",
               "Round": "3", "White": "Adolf Anderssen", "Black": "Lionel Kieseritzky"})
    );
    assert_eq!(
        (
            first["seats"]["white"]["name"].as_str(),
            first["seats"]["black"]["name"].as_str(),
            first["result"].as_str(),
            first["status"].as_str()
        ),
        (
            Some("Adolf Anderssen"),
            Some("Lionel Kieseritzky"),
            Some("1-0"),
            Some("ended")
        )
    );
    // Loaded again, by this browser or another: the same game.
    for who in [A, B] {
        let (status, again) = ask(
            &app,
            who,
            "POST",
            "/api/games",
            Some(json!({"mode": "local", "pgn": IMPORTED})),
            &[],
        )
        .await;
        assert_eq!((status, id_of(&again)), (StatusCode::OK, id.clone()));
    }
    let loads = list(&app, A, "analysis").await;
    assert_eq!(ids(&loads), [id.as_str()]);
    assert_eq!(loads[0]["white"]["name"], "Adolf Anderssen");
    // Exported, the tags are the text's; exported, loaded and exported
    // again, the text is the same.
    let host = [("host", "play.example.org")];
    let pgn_of = |id: String| {
        let app = app.clone();
        async move {
            let (status, v) =
                ask(&app, A, "GET", &format!("/api/games/{id}/pgn"), None, &host).await;
            assert_eq!(status, StatusCode::OK, "{v}");
            v["text"].as_str().unwrap().to_string()
        }
    };
    let text = pgn_of(id.clone()).await;
    for tag in [
        "[Event \"London\"]",
        "[Site \"London ENG\"]",
        "[Date \"1851.06.21\"]",
        "[Round \"3\"]",
        "[White \"Adolf Anderssen\"]",
        "[Black \"Lionel Kieseritzky\"]",
        "[Result \"1-0\"]",
    ] {
        assert!(text.contains(tag), "{tag} in {text}");
    }
    // An unfinished load is a new board each time, with its tags.
    let open = IMPORTED
        .replace("[Result \"1-0\"]", "[Result \"*\"]")
        .replace(" 1-0\n", " *\n");
    let a = id_of(&create(&app, A, json!({"mode": "local", "pgn": open})).await);
    let b = id_of(&create(&app, A, json!({"mode": "local", "pgn": open})).await);
    assert_ne!(a, b);
    let text = pgn_of(a).await;
    let back = id_of(&create(&app, B, json!({"mode": "local", "pgn": text})).await);
    assert_eq!(pgn_of(back).await, text);
}

#[tokio::test]
async fn an_exported_game_names_its_address_as_its_site() {
    let app = app(None).await;
    let id = id_of(&create(&app, A, json!({"mode": "local"})).await);
    let uri = format!("/api/games/{id}/pgn");
    let (_, v) = ask(
        &app,
        A,
        "GET",
        &uri,
        None,
        &[("host", "play.example.org:8080")],
    )
    .await;
    let text = v["text"].as_str().unwrap();
    assert!(
        text.contains(&format!("[Site \"http://play.example.org:8080/g/{id}\"]")),
        "{text}"
    );
    // Loaded back, the game keeps that Site.
    let (status, back) = ask(
        &app,
        B,
        "POST",
        "/api/games",
        Some(json!({"mode": "local", "pgn": text})),
        &[],
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);
    assert_eq!(
        back["tags"]["Site"],
        format!("http://play.example.org:8080/g/{id}")
    );
}
