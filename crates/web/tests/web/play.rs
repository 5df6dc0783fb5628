//! The play server: seats, offers, clocks (a clock moved by hand), the
//! database across a restart, engine games and hostile input.

use crate::support;

use axum::http::StatusCode;
use axum::Router;
use serde_json::{json, Value};
use springboard_web::{
    app_with, EngineProvider, GameStore, ManualClock, Options, PgStore, SqliteStore, Store,
};
use sqlx::postgres::PgConnectOptions;
use std::sync::Arc;
use std::time::Duration;
use support::apps::manual_clock;
use support::engines::FirstMove;
use support::http::{json_of, raw};
use support::postgres::postgres_options;

const A: &str = "AliceAliceAliceAlice0001";
const B: &str = "BobBobBobBobBobBobBob002";
const C: &str = "CarolCarolCarolCarol0003";

struct T {
    app: Router,
    clock: Arc<ManualClock>,
}

impl T {
    async fn new(engine: Option<Arc<dyn EngineProvider>>) -> T {
        let store = SqliteStore::memory().await.unwrap();
        T::on(Arc::new(store), engine, manual_clock()).await
    }

    async fn on(
        store: Arc<dyn Store>,
        engine: Option<Arc<dyn EngineProvider>>,
        clock: Arc<ManualClock>,
    ) -> T {
        let mut options = Options::new(engine);
        options.clock = clock.clone();
        options.creations_per_minute = 5;
        let app = app_with(store, options).await.unwrap();
        T { app, clock }
    }

    async fn call(
        &self,
        who: Option<&str>,
        method: &str,
        uri: &str,
        body: Option<Value>,
    ) -> (StatusCode, Value) {
        let (status, _, bytes) =
            raw(&self.app, method, uri, who, body.map(|b| b.to_string())).await;
        (status, json_of(&bytes))
    }

    async fn create(&self, who: &str, body: Value) -> Value {
        let (status, v) = self.call(Some(who), "POST", "/api/games", Some(body)).await;
        assert_eq!(status, StatusCode::CREATED, "{v}");
        v
    }

    async fn get(&self, who: Option<&str>, id: &str) -> Value {
        let (status, v) = self
            .call(who, "GET", &format!("/api/games/{id}"), None)
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        v
    }

    async fn mv(&self, who: Option<&str>, id: &str, m: &str, ply: usize) -> (StatusCode, Value) {
        self.call(
            who,
            "POST",
            &format!("/api/games/{id}/move"),
            Some(json!({"move": m, "ply": ply})),
        )
        .await
    }

    async fn post(
        &self,
        who: Option<&str>,
        id: &str,
        what: &str,
        action: &str,
    ) -> (StatusCode, Value) {
        self.call(
            who,
            "POST",
            &format!("/api/games/{id}/{what}"),
            Some(json!({"action": action})),
        )
        .await
    }

    /// A friend game of A (white) joined by B (black).
    async fn friend_game(&self, body: Value) -> String {
        let mut body = body;
        body["mode"] = json!("friend");
        let g = self.create(A, body).await;
        let id = g["id"].as_str().unwrap().to_string();
        let invite = g["invite"].as_str().unwrap();
        let (status, v) = self
            .call(
                Some(B),
                "POST",
                &format!("/api/games/{id}/join?invite={invite}"),
                None,
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        id
    }
}

#[tokio::test]
async fn a_friend_game_gives_each_seat_to_its_cookie_only() {
    let t = T::new(None).await;
    // A new browser gets a cookie with the game.
    let (status, headers, bytes) = raw(
        &t.app,
        "POST",
        "/api/games",
        None,
        Some(json!({"mode": "friend", "variant": "hopchess"}).to_string()),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);
    let cookie = headers["set-cookie"].to_str().unwrap();
    assert!(cookie.starts_with("sb_player="), "{cookie}");
    assert!(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"));
    let g: Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(g["you"], "white");
    assert_eq!(g["id"].as_str().unwrap().len(), 8);

    let g = t.create(A, json!({"mode": "friend"})).await;
    let id = g["id"].as_str().unwrap().to_string();
    assert_eq!(g["status"], "waiting");
    assert_eq!(g["you"], "white");
    assert_eq!(g["seats"]["black"]["taken"], false);
    assert_eq!(g["version"], 1);
    // No move before the opponent comes.
    let (status, err) = t.mv(Some(A), &id, "e2e4", 0).await;
    assert_eq!(
        (status, err["error"].as_str().unwrap()),
        (StatusCode::CONFLICT, "waiting for an opponent to join")
    );
    // A spectator sees the game and holds nothing.
    assert_eq!(t.get(Some(B), &id).await["you"], Value::Null);
    assert_eq!(t.mv(Some(B), &id, "e2e4", 0).await.0, StatusCode::FORBIDDEN);
    assert_eq!(t.mv(None, &id, "e2e4", 0).await.0, StatusCode::FORBIDDEN);
    // The invitation is private: the creator's view carries its token, a
    // spectator's does not, and the game's id alone takes no seat.
    let invite = g["invite"].as_str().unwrap().to_string();
    assert!(invite.len() >= 22, "{invite}");
    assert_eq!(t.get(Some(B), &id).await["invite"], Value::Null);
    for path in [
        format!("/api/games/{id}/join"),
        format!("/api/games/{id}/join?invite=guessed"),
        format!("/api/games/{id}/join?invite={}", &invite[1..]),
    ] {
        let (status, err) = t.call(Some(C), "POST", &path, None).await;
        assert_eq!(
            (status, err["error"].as_str().unwrap()),
            (
                StatusCode::FORBIDDEN,
                "this game is private: only its invitation link lets you join"
            ),
            "{path}"
        );
    }
    assert_eq!(t.get(Some(A), &id).await["status"], "waiting");
    // B takes the free seat by the link; C finds none; A joining again just
    // gets the view.
    let (status, v) = t
        .call(
            Some(B),
            "POST",
            &format!("/api/games/{id}/join?invite={invite}"),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        (
            v["you"].as_str(),
            v["status"].as_str(),
            v["version"].as_i64()
        ),
        (Some("black"), Some("playing"), Some(2))
    );
    // The seat taken, the invitation is spent.
    assert_eq!(v["invite"], Value::Null);
    let (status, err) = t
        .call(
            Some(C),
            "POST",
            &format!("/api/games/{id}/join?invite={invite}"),
            None,
        )
        .await;
    assert_eq!(
        (status, err["error"].as_str().unwrap()),
        (StatusCode::CONFLICT, "the game has no free seat")
    );
    assert_eq!(
        t.call(Some(A), "POST", &format!("/api/games/{id}/join"), None)
            .await
            .1["you"],
        "white"
    );
    // Moves: only the seat to move, with the right ply.
    let (status, v) = t.mv(Some(A), &id, "e2e4", 0).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["version"], 3);
    // A resend of the same move is answered as the first time, unchanged.
    let (status, v) = t.mv(Some(A), &id, "e2e4", 0).await;
    assert_eq!(
        (status, v["version"].as_i64(), v["plies"].as_u64()),
        (StatusCode::OK, Some(3), Some(1))
    );
    let (status, err) = t.mv(Some(A), &id, "d2d4", 1).await;
    assert_eq!(
        (status, err["error"].as_str().unwrap()),
        (StatusCode::CONFLICT, "not your turn")
    );
    let (status, err) = t.mv(Some(B), &id, "e7e5", 0).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(err["version"], 3);
    let (status, err) = t.mv(Some(B), &id, "e7e5", 2).await;
    assert_eq!(
        (status, err["version"].as_i64()),
        (StatusCode::CONFLICT, Some(3))
    );
    assert_eq!(t.mv(Some(C), &id, "e7e5", 1).await.0, StatusCode::FORBIDDEN);
    assert_eq!(t.mv(Some(B), &id, "e7e4", 1).await.0, StatusCode::CONFLICT);
    assert_eq!(t.mv(Some(B), &id, "e7e5", 1).await.0, StatusCode::OK);
    // A forged cookie (well formed, unknown) is a spectator.
    assert_eq!(
        t.mv(Some("ForgedForgedForgedForged"), &id, "g1f3", 2)
            .await
            .0,
        StatusCode::FORBIDDEN
    );
    let g = t.get(Some(C), &id).await;
    assert_eq!(g["plies"], 2);
    assert_eq!(g["version"], 4);
    // Spectators cannot resign or offer.
    assert_eq!(
        t.call(Some(C), "POST", &format!("/api/games/{id}/resign"), None)
            .await
            .0,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        t.post(Some(C), &id, "draw", "offer").await.0,
        StatusCode::FORBIDDEN
    );
}

#[tokio::test]
async fn resign_draw_takeback_and_rematch() {
    let t = T::new(None).await;
    let id = t.friend_game(json!({})).await;
    t.mv(Some(A), &id, "e2e4", 0).await;
    t.mv(Some(B), &id, "e7e5", 1).await;
    // Takeback asked by A after B moved: both moves go.
    let (status, v) = t.post(Some(A), &id, "takeback", "offer").await;
    assert_eq!(
        (status, v["offers"]["takeback"].as_str()),
        (StatusCode::OK, Some("white"))
    );
    assert_eq!(
        t.post(Some(A), &id, "takeback", "accept").await.0,
        StatusCode::CONFLICT
    );
    let (status, v) = t.post(Some(B), &id, "takeback", "accept").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        (v["plies"].as_u64(), v["offers"]["takeback"].as_str()),
        (Some(0), None)
    );
    t.mv(Some(A), &id, "d2d4", 0).await;
    // B has no move to take back yet; A's takeback of its own last move.
    assert_eq!(
        t.post(Some(B), &id, "takeback", "offer").await.0,
        StatusCode::CONFLICT
    );
    t.post(Some(A), &id, "takeback", "offer").await;
    assert_eq!(
        t.post(Some(B), &id, "takeback", "decline").await.1["offers"]["takeback"],
        Value::Null
    );
    // Draw: offered, declined, offered, accepted.
    assert_eq!(
        t.post(Some(B), &id, "draw", "offer").await.1["offers"]["draw"],
        "black"
    );
    assert_eq!(
        t.post(Some(A), &id, "draw", "decline").await.1["offers"]["draw"],
        Value::Null
    );
    t.post(Some(B), &id, "draw", "offer").await;
    let (status, v) = t.post(Some(A), &id, "draw", "accept").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        (
            v["status"].as_str(),
            v["result"].as_str(),
            v["reason"].as_str()
        ),
        (Some("ended"), Some("1/2-1/2"), Some("draw agreed"))
    );
    assert_eq!(v["outcome"]["reason"], "draw agreed");
    assert_eq!(
        t.mv(Some(B), &id, "e7e5", 1).await.1["error"],
        "the game is over (1/2-1/2, draw agreed)"
    );
    // Rematch: colours swapped, both seats follow.
    assert_eq!(
        t.post(Some(C), &id, "rematch", "offer").await.0,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        t.post(Some(A), &id, "rematch", "offer").await.1["offers"]["rematch"],
        "white"
    );
    let (status, v) = t.post(Some(B), &id, "rematch", "accept").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let new = v["rematch"].as_str().unwrap().to_string();
    assert_ne!(new, id);
    let g = t.get(Some(B), &new).await;
    assert_eq!(
        (g["you"].as_str(), g["status"].as_str(), g["mode"].as_str()),
        (Some("white"), Some("playing"), Some("friend"))
    );
    assert_eq!(t.get(Some(A), &new).await["you"], "black");
    assert_eq!(t.mv(Some(B), &new, "e2e4", 0).await.0, StatusCode::OK);
    // A resignation ends the new game.
    t.clock.advance(1_000);
    let (status, v) = t
        .call(Some(A), "POST", &format!("/api/games/{new}/resign"), None)
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        (v["result"].as_str(), v["reason"].as_str()),
        (Some("1-0"), Some("resignation"))
    );
    // The lists.
    let (_, mine) = t.call(Some(A), "GET", "/api/games?list=mine", None).await;
    assert_eq!(mine["games"].as_array().unwrap().len(), 2);
    let (_, mine) = t.call(Some(C), "GET", "/api/games?list=mine", None).await;
    assert_eq!(mine["games"], json!([]));
    let (_, ongoing) = t.call(None, "GET", "/api/games?list=ongoing", None).await;
    assert_eq!(ongoing["games"], json!([]));
    let (_, recent) = t
        .call(None, "GET", "/api/games?list=recent&limit=1", None)
        .await;
    let first = &recent["games"][0];
    assert_eq!(
        (
            first["id"].as_str(),
            first["result"].as_str(),
            first["moves"].as_u64()
        ),
        (Some(new.as_str()), Some("1-0"), Some(1))
    );
    assert_eq!(
        t.call(None, "GET", "/api/games?list=all", None).await.0,
        StatusCode::BAD_REQUEST
    );
    // PGN with the stored result, as a download.
    let (status, headers, bytes) = raw(
        &t.app,
        "GET",
        &format!("/api/games/{new}/pgn?download=1"),
        None,
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers["content-type"], "application/x-chess-pgn");
    let text = String::from_utf8(bytes).unwrap();
    assert!(
        text.contains("[Result \"1-0\"]") && text.contains("[Termination \"Black resigns\"]"),
        "{text}"
    );
    assert!(
        text.trim_end().ends_with("1. e4 {Black resigns} 1-0"),
        "{text}"
    );
}

#[tokio::test]
async fn clocks_run_by_the_servers_clock_and_flags_fall() {
    let t = T::new(None).await;
    let id = t
        .friend_game(json!({"clock": {"initial": 180, "increment": 2}}))
        .await;
    let g = t.get(None, &id).await;
    assert_eq!(
        g["clock"],
        json!({"initial_ms": 180000, "increment_ms": 2000, "white_ms": 180000, "black_ms": 180000, "running": null})
    );
    // White's first move runs no clock.
    t.clock.advance(5_000);
    t.mv(Some(A), &id, "e2e4", 0).await;
    let g = t.get(None, &id).await;
    assert_eq!(
        (
            g["clock"]["white_ms"].as_i64(),
            g["clock"]["running"].as_str()
        ),
        (Some(180_000), Some("black"))
    );
    t.clock.advance(1_500);
    assert_eq!(t.get(None, &id).await["clock"]["black_ms"], 178_500);
    t.mv(Some(B), &id, "e7e5", 1).await;
    let g = t.get(None, &id).await;
    assert_eq!(
        (
            g["clock"]["black_ms"].as_i64(),
            g["clock"]["running"].as_str()
        ),
        (Some(180_500), Some("white"))
    );
    // White's time runs out: noticed by the next request; Black can mate.
    t.clock.advance(180_000);
    let g = t.get(None, &id).await;
    assert_eq!(
        (
            g["status"].as_str(),
            g["result"].as_str(),
            g["reason"].as_str()
        ),
        (Some("ended"), Some("0-1"), Some("time"))
    );
    assert_eq!(g["clock"]["white_ms"], 0);
    assert_eq!(g["version"], 5);
    assert_eq!(t.mv(Some(A), &id, "g1f3", 2).await.0, StatusCode::CONFLICT);
    // Black flags against a side that cannot mate (K+N): a draw (ruling
    // C2), though Black (a pawn) could have mated.
    let id = t.friend_game(json!({"clock": {"initial": 60, "increment": 0}, "fen": "4k3/p7/8/8/8/8/8/N3K3 w - - 0 1"})).await;
    t.mv(Some(A), &id, "e1d2", 0).await;
    t.clock.advance(60_000);
    let (status, err) = t.mv(Some(B), &id, "e8d7", 1).await;
    assert_eq!(status, StatusCode::CONFLICT, "{err}");
    let g = t.get(None, &id).await;
    assert_eq!(
        (g["result"].as_str(), g["reason"].as_str()),
        (Some("1/2-1/2"), Some("time vs insufficient material"))
    );
    // Bad clocks.
    for clock in [
        json!({"initial": 0, "increment": 0}),
        json!({"initial": 10801, "increment": 0}),
        json!({"initial": 60, "increment": 181}),
        json!({"initial": -1, "increment": 0}),
    ] {
        let (status, err) = t
            .call(
                Some(A),
                "POST",
                "/api/games",
                Some(json!({"mode": "friend", "clock": clock})),
            )
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{clock} {err}");
    }
}

#[tokio::test]
async fn every_game_seat_and_clock_survives_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("data/games.sqlite3");
    let clock = manual_clock();
    let (id, before) = {
        let t = T::on(
            Arc::new(SqliteStore::open(&path).await.unwrap()),
            None,
            clock.clone(),
        )
        .await;
        let id = t
            .friend_game(
                json!({"variant": "jumpingking", "clock": {"initial": 300, "increment": 3}}),
            )
            .await;
        let g = t.get(None, &id).await;
        let m = g["legal"][0]["uci"].as_str().unwrap().to_string();
        assert_eq!(t.mv(Some(A), &id, &m, 0).await.0, StatusCode::OK);
        t.clock.advance(10_000);
        let g = t.get(None, &id).await;
        let m = g["legal"][0]["uci"].as_str().unwrap().to_string();
        assert_eq!(t.mv(Some(B), &id, &m, 1).await.0, StatusCode::OK);
        t.clock.advance(4_000);
        let before = t.get(Some(A), &id).await;
        (id, before)
    };
    // The server was down 60 s: not charged.
    clock.advance(60_000);
    let t = T::on(
        Arc::new(SqliteStore::open(&path).await.unwrap()),
        None,
        clock,
    )
    .await;
    let after = t.get(Some(A), &id).await;
    for key in [
        "fen",
        "history",
        "you",
        "seats",
        "mode",
        "status",
        "variant",
        "start_fen",
    ] {
        assert_eq!(after[key], before[key], "{key}");
    }
    // White's running turn restarted with the server: its time is what
    // was stored at the turn's start (the 4 s of the cut turn are given
    // back, the 60 s down are not charged).
    assert_eq!(before["clock"]["white_ms"], 296_000);
    assert_eq!(after["clock"]["white_ms"], 300_000);
    assert_eq!(after["clock"]["running"], "white");
    assert_eq!(after["clock"]["black_ms"], 293_000);
    assert_eq!(t.get(Some(B), &id).await["you"], "black");
    let m = after["legal"][0]["uci"].as_str().unwrap().to_string();
    assert_eq!(t.mv(Some(A), &id, &m, 2).await.0, StatusCode::OK);
}

/// Polls the game until `done` holds (the engine works in the background).
async fn wait_for(t: &T, who: &str, id: &str, done: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..500 {
        let g = t.get(Some(who), id).await;
        if done(&g) {
            return g;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("the game never reached the state");
}

#[tokio::test]
async fn the_server_plays_the_engines_moves() {
    let t = T::new(Some(Arc::new(FirstMove::default()))).await;
    let g = t
        .create(
            A,
            json!({"mode": "engine", "color": "black", "level": 2, "variant": "hoplit"}),
        )
        .await;
    let id = g["id"].as_str().unwrap().to_string();
    assert_eq!(g["engine"], json!({"color": "white", "level": 2}));
    assert_eq!(g["seats"]["white"]["kind"], "engine");
    let g = wait_for(&t, A, &id, |g| g["plies"] == 1).await;
    assert_eq!(g["history"][0]["uci"], "a2a3");
    // The human cannot move the engine's pieces, nor draw.
    let (status, _) = t.mv(Some(A), &id, "a7a6", 1).await;
    assert_eq!(status, StatusCode::OK);
    let g = wait_for(&t, A, &id, |g| g["plies"] == 3).await;
    assert_eq!(g["engine_thinking"], false);
    assert_eq!(
        t.post(Some(A), &id, "draw", "offer").await.1["error"],
        "the engine declines the draw"
    );
    // A takeback is granted at once: the human's move and the engine's.
    let (status, v) = t.post(Some(A), &id, "takeback", "offer").await;
    assert_eq!((status, v["plies"].as_u64()), (StatusCode::OK, Some(1)));
    // The local game's engine endpoint is not for engine games.
    let (status, _) = t
        .call(
            Some(A),
            "POST",
            &format!("/api/games/{id}/engine"),
            Some(json!({})),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT);
    // A finished game imported from PGN is created ended.
    let g = t.create(A, json!({"pgn": "1. f3 e5 2. g4 Qh4# 0-1"})).await;
    assert_eq!(
        (
            g["status"].as_str(),
            g["result"].as_str(),
            g["reason"].as_str()
        ),
        (Some("ended"), Some("0-1"), Some("checkmate"))
    );
    assert_eq!(g["outcome"]["reason"], "checkmate");
    // Bad levels.
    let (status, err) = t
        .call(
            Some(A),
            "POST",
            "/api/games",
            Some(json!({"mode": "engine", "level": 4})),
        )
        .await;
    assert_eq!(
        (status, err["error"].as_str().unwrap()),
        (StatusCode::BAD_REQUEST, "level 4 is out of range 1-3")
    );
}

#[tokio::test]
async fn an_engine_game_resumes_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.sqlite3");
    let clock = manual_clock();
    let id = {
        // No engine: the game waits with the engine to move.
        let store = Arc::new(SqliteStore::open(&path).await.unwrap());
        let t = T::on(store.clone(), None, clock.clone()).await;
        let g = t.create(A, json!({"mode": "local"})).await;
        let id = g["id"].as_str().unwrap().to_string();
        // An engine game stored while the engine was to move.
        let mut rec = store.load(&id).await.unwrap().unwrap();
        rec.mode = springboard_web::Mode::Engine;
        rec.engine_color = Some(springboard_rules::Color::White);
        rec.engine_level = Some(1);
        rec.white_seat = None;
        rec.version += 1;
        assert!(store
            .update(&rec, rec.version - 1, &[], None)
            .await
            .unwrap());
        id
    };
    let t = T::on(
        Arc::new(SqliteStore::open(&path).await.unwrap()),
        Some(Arc::new(FirstMove::default())),
        clock,
    )
    .await;
    let g = wait_for(&t, A, &id, |g| g["plies"] == 1).await;
    assert_eq!(
        (g["you"].as_str(), g["history"][0]["uci"].as_str()),
        (Some("black"), Some("a2a3"))
    );
}

#[tokio::test]
async fn hostile_requests_get_a_clear_error_and_change_nothing() {
    let t = T::new(None).await;
    let id = t.friend_game(json!({})).await;
    // Ids: malformed, unknown.
    for bad in [
        "1",
        "abcdefgh",
        "abc%2Fdefg",
        "aaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    ] {
        let (status, err) = t
            .call(None, "GET", &format!("/api/games/{bad}"), None)
            .await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{bad} {err}");
    }
    // An oversized body: 413 in JSON.
    let big = json!({"move": "e2e4", "ply": 0, "x": "a".repeat(300_000)}).to_string();
    let (status, _, bytes) = raw(
        &t.app,
        "POST",
        &format!("/api/games/{id}/move"),
        Some(A),
        Some(big),
    )
    .await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    let err: Value = serde_json::from_slice(&bytes).unwrap();
    assert!(
        err["error"].as_str().unwrap().contains("larger than"),
        "{err}"
    );
    // A wrong method: 405 in JSON.
    let (status, err) = t
        .call(None, "DELETE", &format!("/api/games/{id}"), None)
        .await;
    assert_eq!(
        (status, err["error"].as_str().unwrap()),
        (
            StatusCode::METHOD_NOT_ALLOWED,
            "this method is not allowed here"
        )
    );
    // Bad bodies and unknown fields.
    for body in [
        json!({"move": 5}),
        json!({"move": "e2e4", "ply": -1}),
        json!({"move": "e2e4", "seat": "white"}),
        json!({"move": "x".repeat(100)}),
    ] {
        let (status, _) = t
            .call(
                Some(A),
                "POST",
                &format!("/api/games/{id}/move"),
                Some(body.clone()),
            )
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    }
    assert_eq!(
        t.post(Some(A), &id, "draw", "maybe").await.0,
        StatusCode::BAD_REQUEST
    );
    for body in [
        json!({"mode": "online"}),
        json!({"color": "green"}),
        json!({"mode": "local", "level": 2}),
    ] {
        let (status, _) = t
            .call(Some(C), "POST", "/api/games", Some(body.clone()))
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    }
    // Nothing changed.
    let g = t.get(None, &id).await;
    assert_eq!(
        (g["version"].as_i64(), g["plies"].as_u64()),
        (Some(2), Some(0))
    );
    // A flood of creations from one address: 429 after the limit (5 here;
    // the friend game above made 1, the refused ones none).
    for _ in 0..4 {
        t.create(C, json!({})).await;
    }
    let (status, err) = t.call(Some(C), "POST", "/api/games", Some(json!({}))).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{err}");
    // A minute later it is allowed again.
    t.clock.advance(60_000);
    t.create(C, json!({})).await;
}

/// A server process on the PostgreSQL database `options` whose heartbeat
/// is written at start-up only (it stands for a process that may die at
/// any moment after).
async fn pg_process(options: &PgConnectOptions, clock: &Arc<ManualClock>) -> T {
    let store = PgStore::connect_with(options.clone()).await.unwrap();
    let mut o = Options::new(None);
    o.clock = clock.clone();
    o.heartbeat = Duration::from_secs(24 * 3600);
    T {
        app: app_with(Arc::new(store), o).await.unwrap(),
        clock: clock.clone(),
    }
}

/// On a shared store, a process that starts while another is alive leaves
/// the running clocks alone (the other may be serving the games); one
/// that starts after every process was gone restarts them, as SQLite does:
/// a full outage is not charged.
#[tokio::test]
async fn on_postgres_clocks_restart_only_after_every_process_was_down() {
    let Some(options) = postgres_options("sb_play").await else {
        return;
    };
    let clock = manual_clock();
    let first = pg_process(&options, &clock).await;
    let id = first
        .friend_game(json!({"variant": "chess", "clock": {"initial": 300, "increment": 0}}))
        .await;
    assert_eq!(first.mv(Some(A), &id, "e2e4", 0).await.0, StatusCode::OK);
    first.clock.advance(10_000);
    assert_eq!(first.mv(Some(B), &id, "e7e5", 1).await.0, StatusCode::OK);
    first.clock.advance(4_000);
    assert_eq!(first.get(None, &id).await["clock"]["white_ms"], 296_000);

    // A second process starts while the first is alive (its heartbeat is
    // 4 s old): White's clock goes on.
    let second = pg_process(&options, &clock).await;
    let g = second.get(None, &id).await;
    assert_eq!(g["clock"]["white_ms"], 296_000);
    assert_eq!(g["clock"]["running"], "white");
    drop(first);
    drop(second);

    // Every process is down for 60 s (their heartbeats go stale): the
    // next one restarts White's turn, neither the 4 s of the cut turn nor
    // the outage is charged.
    clock.advance(60_000);
    let third = pg_process(&options, &clock).await;
    let g = third.get(None, &id).await;
    assert_eq!(g["clock"]["white_ms"], 300_000);
    assert_eq!(g["clock"]["black_ms"], 290_000);
    assert_eq!(g["clock"]["running"], "white");
    // Its clock runs from the restart.
    third.clock.advance(1_000);
    assert_eq!(third.get(None, &id).await["clock"]["white_ms"], 299_000);
    assert_eq!(third.mv(Some(A), &id, "g1f3", 2).await.0, StatusCode::OK);

    // A fourth process 2 s later: the third is alive, nothing restarts.
    third.clock.advance(2_000);
    let fourth = pg_process(&options, &clock).await;
    assert_eq!(fourth.get(None, &id).await["clock"]["black_ms"], 288_000);
}
