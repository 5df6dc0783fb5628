//! The JSON API, request by request, through the router (no network).

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use serde_json::{json, Value};
use springboard_rules::{Game, Move, Variant};
use springboard_web::{app, Analysis, AnalysisLimit, EngineProvider, Evaluation, LevelLabel};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;
use tower::ServiceExt;

/// The test browser's `sb_player` cookie.
const BROWSER: &str = "TestBrowser0123456789abc";

async fn send(app: &Router, method: &str, uri: &str, body: Option<&str>) -> (StatusCode, Vec<u8>) {
    let mut req = Request::builder().method(method).uri(uri);
    if body.is_some() {
        req = req.header("content-type", "application/json");
    }
    // One browser for these tests: it holds both seats of the local games
    // it creates (the seat scheme is tested in tests/play.rs).
    req = req.header("cookie", format!("sb_player={BROWSER}"));
    let req = req
        .body(body.map_or_else(Body::empty, |b| Body::from(b.to_string())))
        .unwrap();
    let resp = app.clone().oneshot(req).await.unwrap();
    let status = resp.status();
    let bytes = resp
        .into_body()
        .collect()
        .await
        .unwrap()
        .to_bytes()
        .to_vec();
    (status, bytes)
}

async fn call(app: &Router, method: &str, uri: &str, body: Option<Value>) -> (StatusCode, Value) {
    let text = body.map(|b| b.to_string());
    let (status, bytes) = send(app, method, uri, text.as_deref()).await;
    let value = serde_json::from_slice(&bytes)
        .unwrap_or_else(|_| panic!("not JSON: {}", String::from_utf8_lossy(&bytes)));
    (status, value)
}

async fn new_game(app: &Router, body: Value) -> Value {
    let (status, game) = call(app, "POST", "/api/games", Some(body)).await;
    assert_eq!(status, StatusCode::CREATED, "{game}");
    game
}

async fn play(app: &Router, id: &str, mv: &str) -> (StatusCode, Value) {
    call(
        app,
        "POST",
        &format!("/api/games/{id}/move"),
        Some(json!({ "move": mv })),
    )
    .await
}

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
async fn malformed_requests_get_4xx_with_json_reason() {
    let app = app(None).await;
    let game = new_game(&app, json!({})).await;
    let id = game["id"].as_str().unwrap().to_string();
    for (method, uri, body) in [
        ("POST", format!("/api/games/{id}/move"), "{\"move\": "),
        ("POST", format!("/api/games/{id}/move"), "[1, 2]"),
        (
            "POST",
            format!("/api/games/{id}/move"),
            "{\"mv\": \"e2e4\"}",
        ),
        ("POST", "/api/games".to_string(), "not json"),
        ("POST", "/api/games".to_string(), "{\"variant\": 7}"),
    ] {
        let (status, bytes) = send(&app, method, &uri, Some(body)).await;
        assert!(status.is_client_error(), "{uri} {body}: {status}");
        let v: Value = serde_json::from_slice(&bytes).unwrap();
        assert!(
            v["error"].as_str().unwrap().starts_with("bad request body"),
            "{v}"
        );
    }
    // A body without its content type.
    let req = Request::builder()
        .method("POST")
        .uri(format!("/api/games/{id}/move"))
        .body(Body::from("{\"move\": \"e2e4\"}"))
        .unwrap();
    let resp = app.clone().oneshot(req).await.unwrap();
    assert_eq!(resp.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
    let v: Value =
        serde_json::from_slice(&resp.into_body().collect().await.unwrap().to_bytes()).unwrap();
    assert!(v["error"]
        .as_str()
        .unwrap()
        .contains("Expected request with `Content-Type: application/json`"));
    // Bad variants, FENs and queries.
    for (body, reason) in [
        (
            json!({"variant": "atomic"}),
            "unknown variant 'atomic' (known: chess, hopchess, trampoline, jumpingking, hoplit)",
        ),
        (
            json!({"fen": "8/8/8 w - - 0 1"}),
            "bad FEN: the board field needs 8 ranks separated by '/', found 3",
        ),
        (
            json!({"fen": "x", "pgn": "y"}),
            "give a FEN or a PGN, not both",
        ),
        (
            json!({"pgn": "1. e4 e5 2. Ke3"}),
            "bad PGN: move 2. 'Ke3': illegal move 'Ke3' in this position",
        ),
    ] {
        let (status, err) = call(&app, "POST", "/api/games", Some(body)).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert_eq!(err["error"], reason);
    }
    for v in springboard_rules::Variant::ALL
        .into_iter()
        .filter(|v| !v.is_implemented())
    {
        let (status, err) = call(
            &app,
            "POST",
            "/api/games",
            Some(json!({"variant": v.name()})),
        )
        .await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert_eq!(
            err["error"],
            format!("the variant '{}' is not implemented yet", v.name())
        );
    }
    let (status, _) = call(&app, "GET", &format!("/api/games/{id}?ply=x"), None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, err) = call(&app, "POST", &format!("/api/games/{id}/undo?plies=0"), None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(err["error"], "plies must be at least 1");
}

#[tokio::test]
async fn unknown_games_and_pages_are_404() {
    let app = app(None).await;
    for (method, uri) in [
        ("GET", "/api/games/99"),
        ("GET", "/api/games/abc"),
        ("GET", "/api/games/99/moves"),
        ("POST", "/api/games/99/undo"),
        ("GET", "/api/games/99/pgn"),
        ("GET", "/api/nothing"),
        ("GET", "/api/rules/atomic"),
    ] {
        let (status, v) = call(&app, method, uri, None).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{uri}");
        assert!(v["error"].is_string());
    }
    let (status, v) = play(&app, "99", "e2e4").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(v["error"], "no game with id '99'");
}

#[tokio::test]
async fn static_files_and_no_traversal() {
    let app = app(None).await;
    let (status, page) = send(&app, "GET", "/", None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(String::from_utf8_lossy(&page).contains("<title>Springboard</title>"));
    let req = Request::builder()
        .uri("/static/app.js")
        .body(Body::empty())
        .unwrap();
    let resp = app.clone().oneshot(req).await.unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    assert_eq!(
        resp.headers()["content-type"],
        "text/javascript; charset=utf-8"
    );
    for uri in [
        "/static/../Cargo.toml",
        "/static/..%2f..%2fCargo.toml",
        "/static/%2e%2e/%2e%2e/Cargo.toml",
        "/static/../../../../etc/passwd",
        "/static//etc/passwd",
        "/static/rules/../app.js",
        "/../Cargo.toml",
        "/static/",
    ] {
        let (status, body) = send(&app, "GET", uri, None).await;
        assert!(
            status == StatusCode::NOT_FOUND || status == StatusCode::BAD_REQUEST,
            "{uri}: {status}"
        );
        let text = String::from_utf8_lossy(&body);
        assert!(
            !text.contains("[workspace]") && !text.contains("root:"),
            "{uri}"
        );
    }
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

#[tokio::test]
async fn rules_pages() {
    let app = app(None).await;
    for v in springboard_rules::Variant::ALL {
        let (status, rules) = call(&app, "GET", &format!("/api/rules/{}", v.name()), None).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(rules["title"], v.title());
        assert!(rules["text"]
            .as_str()
            .unwrap()
            .starts_with(&format!("# {}", v.title())));
        // Issue 11, item 10: written for players, without ruling ids.
        let text = rules["text"].as_str().unwrap();
        assert_eq!(ruling_ids(text), Vec::<String>::new(), "{text}");
    }
    // Nor do the reasons a refused position gets.
    for (variant, fen) in [
        ("jumpingking", "5k2/8/8/8/8/PPPP4/8/K7[] w - 0 1"),
        ("jumpingking", "5k2/8/8/8/8/8/1Q6/K7[] w - 0 1"),
        ("hopchess", "4k3/8/8/8/8/8/8/4K3 w - - 0 1 -,- first"),
    ] {
        let (status, err) = call(
            &app,
            "POST",
            "/api/games",
            Some(json!({"variant": variant, "fen": fen})),
        )
        .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{err}");
        let reason = err["error"].as_str().unwrap();
        assert_eq!(ruling_ids(reason), Vec::<String>::new(), "{reason}");
        assert!(
            reason.contains("a side owns 3")
                || reason.contains("no queens")
                || reason.contains("White's first turn"),
            "{reason}"
        );
    }
}

/// The words of `text` that look like ruling ids (`H5`, `P2`, `J1-J10`).
fn ruling_ids(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| {
            let mut chars = w.chars();
            matches!(chars.next(), Some('C' | 'P' | 'H' | 'T' | 'J' | 'L' | 'N'))
                && (2..=3).contains(&w.len())
                && chars.all(|c| c.is_ascii_digit())
        })
        .map(str::to_string)
        .collect()
}

// ---- The engine seam, with test doubles (the real engine plugs in when merged) ----

/// Plays the legal move with the smallest long notation; its analysis is
/// three such moves, +0.30 for the side to move, and it remembers the
/// limits it was given.
struct FirstMove {
    score: Evaluation,
    limits: Mutex<Vec<AnalysisLimit>>,
}

impl Default for FirstMove {
    fn default() -> FirstMove {
        FirstMove::scoring(Evaluation::Cp(30))
    }
}

impl FirstMove {
    fn scoring(score: Evaluation) -> FirstMove {
        FirstMove {
            score,
            limits: Mutex::new(Vec::new()),
        }
    }
}

fn first_move(pos: &springboard_rules::Position) -> Option<Move> {
    pos.legal_moves()
        .into_iter()
        .min_by_key(|&m| springboard_rules::notation::uci::to_uci(pos, m))
}

impl EngineProvider for FirstMove {
    fn name(&self) -> String {
        "first move".into()
    }
    fn max_level(&self) -> u8 {
        3
    }
    fn level_label(&self, variant: Variant, level: u8) -> Option<LevelLabel> {
        (level == 2 && variant != Variant::HopChess).then(|| LevelLabel {
            name: "Middle".into(),
            elo: Some(if variant == Variant::Chess {
                1500
            } else {
                1400
            }),
        })
    }
    fn best_move(&self, game: &Game, _level: u8, _stop: Arc<AtomicBool>) -> Option<Move> {
        first_move(game.position())
    }
    fn analyse(
        &self,
        game: &Game,
        limit: AnalysisLimit,
        _stop: Arc<AtomicBool>,
    ) -> Option<Analysis> {
        self.limits.lock().unwrap().push(limit);
        let mut pos = game.position().clone();
        let mut pv = Vec::new();
        while pv.len() < 3 {
            let Some(m) = first_move(&pos) else { break };
            pv.push(m);
            pos.play(m);
        }
        Some(Analysis {
            score: self.score,
            pv,
            depth: match limit {
                AnalysisLimit::Depth(d, _) => d,
                AnalysisLimit::Time(_) => 7,
            },
        })
    }
}

/// Answers a move that is not legal: the server must refuse it.
struct Cheater;

impl EngineProvider for Cheater {
    fn name(&self) -> String {
        "cheater".into()
    }
    fn max_level(&self) -> u8 {
        1
    }
    fn best_move(&self, _game: &Game, _level: u8, _stop: Arc<AtomicBool>) -> Option<Move> {
        Some(Move::normal(
            springboard_rules::Square::E2,
            springboard_rules::Square::E5,
        ))
    }
    /// Its line is e2e3 e2e5 in every position; it sees a mate in 2 for the
    /// side to move.
    fn analyse(
        &self,
        _game: &Game,
        _limit: AnalysisLimit,
        _stop: Arc<AtomicBool>,
    ) -> Option<Analysis> {
        use springboard_rules::Square::{E2, E3, E5};
        Some(Analysis {
            score: Evaluation::Mate(2),
            pv: vec![Move::normal(E2, E3), Move::normal(E2, E5)],
            depth: 3,
        })
    }
}

/// Answers a fixed line (long notation, read in each position) and score.
struct Scripted {
    line: Vec<&'static str>,
    score: Evaluation,
    depth: u32,
}

impl EngineProvider for Scripted {
    fn name(&self) -> String {
        "scripted".into()
    }
    fn max_level(&self) -> u8 {
        1
    }
    fn best_move(&self, game: &Game, _level: u8, _stop: Arc<AtomicBool>) -> Option<Move> {
        springboard_rules::notation::uci::parse_uci(game.position(), self.line[0]).ok()
    }
    fn analyse(
        &self,
        game: &Game,
        _limit: AnalysisLimit,
        _stop: Arc<AtomicBool>,
    ) -> Option<Analysis> {
        let mut pos = game.position().clone();
        let mut pv = Vec::new();
        for text in &self.line {
            let m = springboard_rules::notation::uci::parse_uci(&pos, text).ok()?;
            pv.push(m);
            pos.play(m);
        }
        Some(Analysis {
            score: self.score,
            pv,
            depth: self.depth,
        })
    }
}

/// Thinks until it is stopped, telling the test when it starts.
struct Waiter {
    started: Mutex<mpsc::Sender<()>>,
}

impl EngineProvider for Waiter {
    fn name(&self) -> String {
        "waiter".into()
    }
    fn max_level(&self) -> u8 {
        1
    }
    fn best_move(&self, game: &Game, _level: u8, stop: Arc<AtomicBool>) -> Option<Move> {
        let _ = self.started.lock().unwrap().send(());
        while !stop.load(Ordering::Relaxed) {
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
        game.position().legal_moves().first().copied()
    }
    fn analyse(
        &self,
        game: &Game,
        _limit: AnalysisLimit,
        stop: Arc<AtomicBool>,
    ) -> Option<Analysis> {
        let pv = vec![self.best_move(game, 1, stop)?];
        Some(Analysis {
            score: Evaluation::Cp(0),
            pv,
            depth: 1,
        })
    }
}

#[tokio::test]
async fn engine_plays_through_the_seam() {
    let app = app(Some(Arc::new(FirstMove::default()))).await;
    let (_, info) = call(&app, "GET", "/api/info", None).await;
    assert_eq!(
        info["engine"],
        json!({"name": "first move", "max_level": 3,
               "levels": {
                   "chess": [{"level": 2, "name": "Middle", "elo": 1500}],
                   "hopchess": [],
                   "trampoline": [{"level": 2, "name": "Middle", "elo": 1400}],
                   "jumpingking": [{"level": 2, "name": "Middle", "elo": 1400}],
                   "hoplit": [{"level": 2, "name": "Middle", "elo": 1400}]}})
    );
    let id = new_game(&app, json!({})).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let uri = format!("/api/games/{id}/engine");
    let (status, state) = call(&app, "POST", &uri, Some(json!({"level": 2}))).await;
    assert_eq!(status, StatusCode::OK, "{state}");
    assert_eq!(state["last_move"]["uci"], "a2a3");
    let (status, err) = call(&app, "POST", &uri, Some(json!({"level": 4}))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(err["error"], "level 4 is out of range 1-3");
    // Without an engine the endpoint does not exist.
    let plain = springboard_web::app(None).await;
    let id = new_game(&plain, json!({})).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let (status, err) = call(
        &plain,
        "POST",
        &format!("/api/games/{id}/engine"),
        Some(json!({})),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(err["error"], "this server has no engine");
}

#[tokio::test]
async fn an_illegal_engine_move_is_refused() {
    let app = app(Some(Arc::new(Cheater))).await;
    let id = new_game(&app, json!({})).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let (status, err) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/engine"),
        Some(json!({})),
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(err["error"], "illegal move 'e2e5' in this position");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_change_while_the_engine_thinks_stops_it() {
    let (tx, rx) = mpsc::channel();
    let app = app(Some(Arc::new(Waiter {
        started: Mutex::new(tx),
    })))
    .await;
    let id = new_game(&app, json!({})).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let thinking = {
        let app = app.clone();
        let id = id.clone();
        tokio::spawn(async move {
            call(
                &app,
                "POST",
                &format!("/api/games/{id}/engine"),
                Some(json!({})),
            )
            .await
        })
    };
    tokio::task::spawn_blocking(move || rx.recv().unwrap())
        .await
        .unwrap();
    // The page stays served while the engine thinks, and a move stops it.
    assert_eq!(play(&app, &id, "e2e4").await.0, StatusCode::OK);
    let (status, err) = thinking.await.unwrap();
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(
        err["error"],
        "the game changed while the engine was thinking"
    );
    let (_, state) = call(&app, "GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(state["plies"], 1);
}

async fn analyse(app: &Router, id: &str, body: Value) -> (StatusCode, Value) {
    call(
        app,
        "POST",
        &format!("/api/games/{id}/analysis"),
        Some(body),
    )
    .await
}

#[tokio::test]
async fn analysis_gives_the_score_for_white_and_the_line_in_san() {
    let engine = Arc::new(FirstMove::default());
    let app = app(Some(engine.clone())).await;
    let id = new_game(&app, json!({})).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let (status, a) = analyse(&app, &id, json!({})).await;
    assert_eq!(status, StatusCode::OK, "{a}");
    assert_eq!(
        a,
        json!({
            "ply": 0,
            "fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "pov": "white",
            "score": {"cp": 30},
            "win": null,
            "depth": 7,
            "best": {"uci": "a2a3", "san": "a3", "kind": "normal", "from": "a2", "to": "a3",
                     "via": [], "role": null, "place": null},
            "pv_uci": ["a2a3", "a7a5", "a1a2"],
            "pv_san": ["a3", "a5", "Ra2"],
            "pv_text": "1. a3 a5 2. Ra2",
        })
    );
    // Black to move: the engine's +30 for Black is -30 for White, and the
    // line starts with Black's move number.
    play(&app, &id, "e2e4").await;
    let (status, a) = analyse(&app, &id, json!({"depth": 5})).await;
    assert_eq!(status, StatusCode::OK, "{a}");
    assert_eq!(a["ply"], 1);
    assert_eq!(a["score"], json!({"cp": -30}));
    assert_eq!(a["depth"], 5);
    assert_eq!(a["pv_text"], "1... a5 2. a3 a4");
    // An earlier position of the game (stepping back through the moves).
    let (status, a) = analyse(&app, &id, json!({"ply": 0, "movetime": 250})).await;
    assert_eq!(status, StatusCode::OK, "{a}");
    assert_eq!(a["ply"], 0);
    assert_eq!(a["pv_san"], json!(["a3", "a5", "Ra2"]));
    // The limits reached the engine: 1 s by default, a depth within the
    // 10 s cap, a movetime as asked.
    assert_eq!(
        *engine.limits.lock().unwrap(),
        vec![
            AnalysisLimit::Time(Duration::from_millis(1000)),
            AnalysisLimit::Depth(5, Duration::from_millis(10_000)),
            AnalysisLimit::Time(Duration::from_millis(250)),
        ]
    );
}

#[tokio::test]
async fn analysis_of_a_variant_numbers_the_line_and_checks_it() {
    let app = app(Some(Arc::new(FirstMove::default()))).await;
    let id = new_game(&app, json!({"variant": "hoplit"})).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let (status, a) = analyse(&app, &id, json!({"movetime": 10})).await;
    assert_eq!(status, StatusCode::OK, "{a}");
    assert_eq!(a["pv_uci"], json!(["a2a3", "a7a5", "a1a2"]));
    assert_eq!(a["pv_text"], "1. a3 a5 2. Ra2");
}

#[tokio::test]
async fn analysis_scores_mates_for_white_and_cuts_an_illegal_line() {
    let app = app(Some(Arc::new(Cheater))).await;
    let id = new_game(&app, json!({})).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    // The line e2e3 e2e5: its second move is not legal, so it stops there.
    let (status, a) = analyse(&app, &id, json!({})).await;
    assert_eq!(status, StatusCode::OK, "{a}");
    assert_eq!(a["score"], json!({"mate": 2}));
    assert_eq!(a["pv_uci"], json!(["e2e3"]));
    assert_eq!(a["pv_text"], "1. e3");
    // Black to move: Black's mate in 2 is -2 for White; here the line's
    // first move is not legal, and the answer is refused.
    play(&app, &id, "d2d4").await;
    let (status, err) = analyse(&app, &id, json!({})).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(
        err["error"],
        "the engine's line starts with an illegal move 'e2e3'"
    );
    let (status, a) = analyse(&app, &id, json!({"ply": 0})).await;
    assert_eq!(status, StatusCode::OK, "{a}");
    assert_eq!(a["score"], json!({"mate": 2}));
    // Black to move with a legal line: Black's mate in 2 is -2 for White.
    let mater = springboard_web::app(Some(Arc::new(FirstMove::scoring(Evaluation::Mate(2))))).await;
    let id = new_game(&mater, json!({"fen": "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1"})).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let (status, a) = analyse(&mater, &id, json!({})).await;
    assert_eq!(status, StatusCode::OK, "{a}");
    assert_eq!(a["score"], json!({"mate": -2}));
    assert_eq!(a["pv_text"], "1... Kd7 2. Kd1 Kc6");
}

#[tokio::test]
async fn analysis_says_how_a_mate_score_wins() {
    // Jumping King: Black wins by the weak square a1 (J3) in two.
    let weak = Scripted {
        line: vec!["e5a5", "f2e3", "a5a1"],
        score: Evaluation::Mate(2),
        depth: 6,
    };
    let app = springboard_web::app(Some(Arc::new(weak))).await;
    let fen = "8/8/3k4/4r3/8/8/5K2/8[] b - 0 30";
    let id = new_game(
        &app,
        json!({"variant": "jumpingking", "fen": fen, "mode": "local"}),
    )
    .await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let (status, a) = analyse(&app, &id, json!({})).await;
    assert_eq!(status, StatusCode::OK, "{a}");
    assert_eq!(a["score"], json!({"mate": -2}));
    assert_eq!(a["win"], "weak square");
    assert_eq!(a["best"]["from"], "e5");
    assert_eq!(a["best"]["to"], "a5");
    // A checkmate at the end of the line.
    let mate = Scripted {
        line: vec!["e7e5", "g2g4", "d8h4"],
        score: Evaluation::Mate(2),
        depth: 4,
    };
    let app = springboard_web::app(Some(Arc::new(mate))).await;
    let id = new_game(&app, json!({"mode": "local"})).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    play(&app, &id, "f2f3").await;
    let (status, a) = analyse(&app, &id, json!({})).await;
    assert_eq!(status, StatusCode::OK, "{a}");
    assert_eq!(a["score"], json!({"mate": -2}));
    assert_eq!(a["win"], "checkmate");
    // A line that stops before the end says nothing of how.
    let short = Scripted {
        line: vec!["e5a5"],
        score: Evaluation::Mate(2),
        depth: 6,
    };
    let app = springboard_web::app(Some(Arc::new(short))).await;
    let id = new_game(
        &app,
        json!({"variant": "jumpingking", "fen": fen, "mode": "local"}),
    )
    .await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let (_, a) = analyse(&app, &id, json!({})).await;
    assert_eq!(a["win"], Value::Null);
}

#[tokio::test]
async fn bad_analysis_requests_get_4xx_with_a_reason() {
    let app = app(Some(Arc::new(FirstMove::default()))).await;
    let id = new_game(&app, json!({})).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let cases = [
        (json!({"depth": 0}), "depth 0 is out of range 1-64"),
        (json!({"depth": 65}), "depth 65 is out of range 1-64"),
        (
            json!({"movetime": 0}),
            "movetime 0 is out of range 1-10000 ms",
        ),
        (
            json!({"movetime": 10001}),
            "movetime 10001 is out of range 1-10000 ms",
        ),
        (
            json!({"depth": 3, "movetime": 100}),
            "give a depth or a movetime, not both",
        ),
        (json!({"ply": 1}), "ply 1 is beyond the game's 0 moves"),
    ];
    for (body, reason) in cases {
        let (status, err) = analyse(&app, &id, body.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        assert_eq!(err["error"], reason, "{body}");
    }
    for body in [
        json!({"plies": 1}),
        json!({"depth": -1}),
        json!({"ply": "x"}),
        json!([]),
    ] {
        let (status, err) = analyse(&app, &id, body.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        assert!(
            err["error"]
                .as_str()
                .unwrap()
                .starts_with("bad request body: "),
            "{err}"
        );
    }
    let uri = format!("/api/games/{id}/analysis");
    let (status, _) = send(&app, "POST", &uri, None).await;
    assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    let (status, err) = analyse(&app, "999", json!({})).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(err["error"], "no game with id '999'");
    // A game that is over has nothing to analyse now, but its earlier
    // positions do.
    for m in ["f2f3", "e7e5", "g2g4", "d8h4"] {
        assert_eq!(play(&app, &id, m).await.0, StatusCode::OK);
    }
    let (status, err) = analyse(&app, &id, json!({})).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(
        err["error"],
        "the game is over (checkmate), there is nothing to analyse"
    );
    assert_eq!(
        analyse(&app, &id, json!({"ply": 3})).await.0,
        StatusCode::OK
    );
    // Without an engine there is no analysis.
    let plain = springboard_web::app(None).await;
    let id = new_game(&plain, json!({})).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let (status, err) = analyse(&plain, &id, json!({})).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(err["error"], "this server has no engine");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_newer_analysis_or_a_move_stops_the_old_one() {
    let (tx, rx) = mpsc::channel();
    let app = app(Some(Arc::new(Waiter {
        started: Mutex::new(tx),
    })))
    .await;
    let id = new_game(&app, json!({})).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let rx = Arc::new(Mutex::new(rx));
    let started = || {
        let rx = Arc::clone(&rx);
        tokio::task::spawn_blocking(move || rx.lock().unwrap().recv().unwrap())
    };
    let spawn = |body: Value| {
        let app = app.clone();
        let id = id.clone();
        tokio::spawn(async move { analyse(&app, &id, body).await })
    };
    let first = spawn(json!({}));
    started().await.unwrap();
    // A newer analysis (say, of the position stepped back to) stops it:
    // its answer never reaches the page as the newer one.
    let second = spawn(json!({"ply": 0}));
    let (status, err) = first.await.unwrap();
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(
        err["error"],
        "a newer analysis of this game replaced this one"
    );
    started().await.unwrap();
    // A move while it thinks stops it too; the server stays responsive.
    assert_eq!(play(&app, &id, "e2e4").await.0, StatusCode::OK);
    let (status, err) = second.await.unwrap();
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(
        err["error"],
        "the game changed while the engine was analysing"
    );
}

#[test]
fn a_taken_port_is_reported() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port();
    let db = springboard_web::Database::Sqlite(
        std::env::temp_dir().join("springboard-taken-port.sqlite3"),
    );
    let err = springboard_web::run("127.0.0.1", port, &db, None).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!("port {port} on 127.0.0.1 is already in use; choose another with --port")
    );
    let err = springboard_web::run("my-host", 0, &db, None).unwrap_err();
    assert_eq!(
        err.to_string(),
        "bad host 'my-host': expected an IP address such as 127.0.0.1"
    );
}

// ---- The board during a turn: facts the page draws (issue 11) ----

async fn local_game(app: &Router, body: Value) -> String {
    let mut body = body;
    body["mode"] = json!("local");
    new_game(app, body).await["id"]
        .as_str()
        .unwrap()
        .to_string()
}

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
                "bad PGN: this is a {title} game (its Variant tag), not Chess: load it as {title}"
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
        "[Event \"Springboard game against the engine\"]\n[Site \"Springboard\"]\n\
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
        "bad FEN: this position is from Hop Chess, not Chess: load it as Hop Chess"
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
        "bad FEN: this position is from Hop Chess, not Chess, and Hop Chess refuses it: \
         the White trampoline stands on e1, which holds a piece ('K')"
    );
    // Without a game named, the position's shape says it.
    assert_eq!(
        new_game(&app, json!({ "fen": hop_fen })).await["variant"],
        "hopchess"
    );
}

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
