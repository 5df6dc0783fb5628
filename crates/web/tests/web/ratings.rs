//! Ratings through the router (no network), on SQLite and, when
//! `SPRINGBOARD_TEST_POSTGRES` names a server, on PostgreSQL: a rated
//! friend game between two accounts moves both ratings by Glicko-2's
//! amounts in the transaction that ends it (a resignation, a flag fall);
//! a casual game, a seat that is no account's and an aborted game change
//! nothing; who may create and join a rated game; a failing hook leaves
//! no half-written rating; an abandoned game aborted after a restart.

use crate::support;

use async_trait::async_trait;
use axum::http::StatusCode;
use axum::Router;
use serde_json::{json, Value};
use springboard_web::ratings::glicko::{rate, Rating, Score};
use springboard_web::ratings::{RatingStore, RatingUpdate};
use springboard_web::store::StoreError;
use springboard_web::{
    app_with, GameEndHook, GameEnded, GameStore, ManualClock, Mode, Options, PgStore, SqliteStore,
    Store, StoreTx,
};
use std::sync::Arc;
use support::postgres::postgres_options;

const PASSWORD: &str = "correct horse battery";
const T0: i64 = 1_800_000_000_000;
const CLOCK: &str = r#"{"initial": 300, "increment": 2}"#;

/// One backend: its store (with every domain's queries) and a way to open
/// it again (a restart).
#[derive(Clone)]
enum Backend {
    Sqlite(Arc<SqliteStore>),
    Postgres(Arc<PgStore>),
}

impl Backend {
    fn name(&self) -> &'static str {
        match self {
            Backend::Sqlite(_) => "sqlite",
            Backend::Postgres(_) => "postgres",
        }
    }

    /// The stored status and reason of game `id`.
    async fn stored(&self, id: &str) -> (String, Option<String>) {
        let g = match self {
            Backend::Sqlite(s) => s.load(id).await,
            Backend::Postgres(s) => s.load(id).await,
        };
        let g = g.unwrap().unwrap();
        (g.status.as_str().to_string(), g.reason)
    }

    fn ratings(&self) -> Arc<dyn RatingStore> {
        match self {
            Backend::Sqlite(s) => s.clone(),
            Backend::Postgres(s) => s.clone(),
        }
    }

    /// The app over this backend with `clock`, and `hooks` after the
    /// default ones.
    async fn app(&self, clock: Arc<ManualClock>, hooks: Vec<Arc<dyn GameEndHook>>) -> Router {
        let mut options = Options::new(None);
        options.clock = clock;
        options.end_hooks.extend(hooks);
        let store: Arc<dyn Store> = match self {
            Backend::Sqlite(s) => {
                options.accounts = Some(s.clone());
                options.ratings = Some(s.clone());
                s.clone()
            }
            Backend::Postgres(s) => {
                options.accounts = Some(s.clone());
                options.ratings = Some(s.clone());
                s.clone()
            }
        };
        app_with(store, options).await.unwrap()
    }

    /// Runs the rating hook on `ended` in a transaction of its own,
    /// committed.
    async fn run_hook(&self, ended: &GameEnded) {
        match self {
            Backend::Sqlite(s) => {
                let mut tx = s.pool().begin().await.unwrap();
                RatingUpdate
                    .on_end(&mut StoreTx::Sqlite(&mut tx), ended)
                    .await
                    .unwrap();
                tx.commit().await.unwrap();
            }
            Backend::Postgres(s) => {
                let mut tx = s.pool().begin().await.unwrap();
                RatingUpdate
                    .on_end(&mut StoreTx::Postgres(&mut tx), ended)
                    .await
                    .unwrap();
                tx.commit().await.unwrap();
            }
        }
    }
}

async fn backends(prefix: &str) -> Vec<Backend> {
    let mut v = vec![Backend::Sqlite(Arc::new(
        SqliteStore::memory().await.unwrap(),
    ))];
    if let Some(options) = postgres_options(prefix).await {
        v.push(Backend::Postgres(Arc::new(
            PgStore::connect_with(options).await.unwrap(),
        )));
    }
    v
}

/// A browser (`support::browser`'s cookie jar and page `Origin`), with
/// the rated games' steps.
#[derive(Clone)]
struct Browser(support::browser::Browser);

impl Browser {
    fn new(app: &Router) -> Browser {
        Browser(support::browser::Browser::new(app))
    }

    async fn send(&mut self, method: &str, uri: &str, body: Option<Value>) -> (StatusCode, Value) {
        let a = self.0.send(method, uri, body).await;
        (a.status, a.body)
    }

    async fn post(&mut self, uri: &str, body: Value) -> (StatusCode, Value) {
        self.send("POST", uri, Some(body)).await
    }

    async fn get(&mut self, uri: &str) -> (StatusCode, Value) {
        self.send("GET", uri, None).await
    }

    async fn invite_path(&mut self, id: &str) -> String {
        self.0.invite_path(id).await
    }

    async fn ok(&mut self, method: &str, uri: &str, body: Value) -> Value {
        let (status, v) = self.send(method, uri, Some(body)).await;
        assert!(status.is_success(), "{method} {uri}: {status} {v}");
        v
    }

    async fn sign_up(app: &Router, name: &str) -> Browser {
        let mut b = Browser::new(app);
        let (status, v) = b
            .post(
                "/api/account/signup",
                json!({"name": name, "password": PASSWORD}),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "sign-up of {name}: {v}");
        b
    }

    /// A rated friend game of this browser (white) with a clock; its id.
    async fn rated_game(&mut self, variant: &str) -> String {
        let clock: Value = serde_json::from_str(CLOCK).unwrap();
        let g = self
            .ok(
                "POST",
                "/api/games",
                json!({"variant": variant, "mode": "friend", "rated": true, "clock": clock}),
            )
            .await;
        assert_eq!(g["rated"], true, "{g}");
        g["id"].as_str().unwrap().to_string()
    }

    async fn play(&mut self, id: &str, m: &str, ply: usize) {
        self.ok(
            "POST",
            &format!("/api/games/{id}/move"),
            json!({"move": m, "ply": ply}),
        )
        .await;
    }

    /// The user's perf in `variant` from `GET /api/user/{name}`.
    async fn perf(&mut self, name: &str, variant: &str) -> Value {
        let (status, v) = self.get(&format!("/api/user/{name}")).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        v["perfs"][variant].clone()
    }
}

/// Two signed-up players, alice and bob, on `app`.
async fn players(app: &Router) -> (Browser, Browser) {
    (
        Browser::sign_up(app, "alice").await,
        Browser::sign_up(app, "Bob").await,
    )
}

/// A rated chess game of alice (white) joined by bob, 1. e4 e5 played.
async fn started(alice: &mut Browser, bob: &mut Browser) -> String {
    let id = alice.rated_game("chess").await;
    let g = bob
        .ok("POST", &alice.invite_path(&id).await, json!({}))
        .await;
    assert_eq!(g["status"], "playing", "{g}");
    alice.play(&id, "e2e4", 0).await;
    bob.play(&id, "e7e5", 1).await;
    id
}

fn new_player_perf() -> Value {
    json!({"games": 0, "rating": 1500, "rd": 500, "prog": 0, "prov": true})
}

/// The perf of a player whose only rated game moved them from the start
/// to `after`.
fn perf_after(after: Rating) -> Value {
    json!({
        "games": 1,
        "rating": after.rounded(),
        "rd": after.deviation.round() as i64,
        "prog": after.rounded() - 1500,
        "prov": after.provisional(),
    })
}

/// Both ratings and the history rows moved by Glicko-2's amounts for
/// `score` (alice white, bob black, both new players).
async fn assert_rated(backend: &Backend, id: &str, alice: &mut Browser, score: Score) {
    let name = backend.name();
    let (w, b) = rate(Rating::START, Rating::START, score);
    assert_eq!(alice.perf("alice", "chess").await, perf_after(w), "{name}");
    assert_eq!(alice.perf("bob", "chess").await, perf_after(b), "{name}");
    // Other games keep the start.
    assert_eq!(
        alice.perf("alice", "hopchess").await,
        new_player_perf(),
        "{name}"
    );
    let history = backend.ratings().game_history(id).await.unwrap();
    assert_eq!(history.len(), 2, "{name}");
    for (h, user, color, after) in [
        (&history[0], "alice", "white", w),
        (&history[1], "bob", "black", b),
    ] {
        assert_eq!(
            (h.user_id.as_str(), h.color.as_str(), h.variant.as_str()),
            (user, color, "chess"),
            "{name}"
        );
        assert_eq!((h.before, h.after), (Rating::START, after), "{name}");
    }
    // The view: the names, the ratings before the game and the change.
    let (_, g) = alice.get(&format!("/api/games/{id}")).await;
    let seat = |c: &str| g["seats"][c].clone();
    assert_eq!(seat("white")["name"], "alice", "{name}");
    assert_eq!(seat("black")["name"], "Bob", "{name}");
    assert_eq!(
        seat("white")["rating"],
        json!({"name": "alice", "rating": 1500, "provisional": true,
               "diff": w.rounded() - 1500}),
        "{name}"
    );
    assert_eq!(
        seat("black")["rating"]["diff"],
        b.rounded() - 1500,
        "{name}"
    );
    assert_ne!(w.rounded(), 1500, "{name}: the ratings moved");
}

#[tokio::test]
async fn a_resignation_in_a_rated_game_moves_both_ratings_by_glicko2() {
    for backend in backends("sb_ratings_resign").await {
        let name = backend.name();
        let app = backend.app(Arc::new(ManualClock::new(T0)), vec![]).await;
        let (mut alice, mut bob) = players(&app).await;
        assert_eq!(
            alice.perf("bob", "chess").await,
            new_player_perf(),
            "{name}"
        );
        let id = started(&mut alice, &mut bob).await;
        // While it is played: both at 1500?, no change yet.
        let (_, g) = bob.get(&format!("/api/games/{id}")).await;
        assert_eq!(
            g["seats"]["white"]["rating"],
            json!({"name": "alice", "rating": 1500, "provisional": true, "diff": null}),
            "{name}"
        );
        alice
            .ok("POST", &format!("/api/games/{id}/resign"), json!({}))
            .await;
        assert_rated(&backend, &id, &mut alice, Score::BlackWins).await;
    }
}

#[tokio::test]
async fn a_flag_fall_in_a_rated_game_is_rated() {
    for backend in backends("sb_ratings_flag").await {
        let clock = Arc::new(ManualClock::new(T0));
        let app = backend.app(clock.clone(), vec![]).await;
        let (mut alice, mut bob) = players(&app).await;
        let id = started(&mut alice, &mut bob).await;
        // White's clock runs out.
        clock.advance(301_000);
        let (_, g) = bob.get(&format!("/api/games/{id}")).await;
        assert_eq!(
            (&g["result"], &g["reason"]),
            (&json!("0-1"), &json!("time"))
        );
        assert_rated(&backend, &id, &mut alice, Score::BlackWins).await;
    }
}

#[tokio::test]
async fn casual_games_and_seats_of_no_account_change_nothing() {
    for backend in backends("sb_ratings_casual").await {
        let name = backend.name();
        let app = backend.app(Arc::new(ManualClock::new(T0)), vec![]).await;
        let (mut alice, mut bob) = players(&app).await;
        // A casual game between the two accounts.
        let g = alice
            .ok("POST", "/api/games", json!({"mode": "friend"}))
            .await;
        assert_eq!(g["rated"], false, "{name}");
        let id = g["id"].as_str().unwrap().to_string();
        bob.ok("POST", &alice.invite_path(&id).await, json!({}))
            .await;
        alice.play(&id, "e2e4", 0).await;
        bob.ok("POST", &format!("/api/games/{id}/resign"), json!({}))
            .await;
        assert_eq!(
            alice.perf("alice", "chess").await,
            new_player_perf(),
            "{name}"
        );
        assert!(backend
            .ratings()
            .game_history(&id)
            .await
            .unwrap()
            .is_empty());
        // A rated game's end whose black seat is no account's (and one
        // whose seats are the same account's): the hook changes nothing.
        let alice_seat = sha256_hex(&alice.0.cookie("sb_player").unwrap());
        for black in ["0".repeat(64), alice_seat.clone()] {
            let ended = GameEnded {
                id: "norating".into(),
                variant: "chess".into(),
                mode: Mode::Friend,
                rated: true,
                white_seat: Some(alice_seat.clone()),
                black_seat: Some(black),
                engine_color: None,
                result: "1-0".into(),
                reason: "resignation".into(),
                plies: 3,
                version: 9,
                at: T0,
            };
            backend.run_hook(&ended).await;
        }
        assert_eq!(
            alice.perf("alice", "chess").await,
            new_player_perf(),
            "{name}"
        );
        assert!(backend
            .ratings()
            .game_history("norating")
            .await
            .unwrap()
            .is_empty());
    }
}

fn sha256_hex(text: &str) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[tokio::test]
async fn who_may_create_and_join_a_rated_game() {
    for backend in backends("sb_ratings_who").await {
        let name = backend.name();
        let app = backend.app(Arc::new(ManualClock::new(T0)), vec![]).await;
        let (mut alice, _bob) = players(&app).await;
        let clock: Value = serde_json::from_str(CLOCK).unwrap();
        // Not a friend game, not from the start, no clock: 400.
        for (body, words) in [
            (
                json!({"mode": "local", "rated": true, "clock": clock}),
                "friend",
            ),
            (
                json!({"mode": "engine", "rated": true, "clock": clock}),
                "friend",
            ),
            (
                json!({"mode": "friend", "rated": true, "clock": clock,
                       "fen": "4k3/8/8/8/8/8/8/4K2R w K - 0 1"}),
                "position",
            ),
            (
                json!({"mode": "friend", "rated": true, "clock": clock,
                       "pgn": "1. e4 e5 *"}),
                "imported",
            ),
            (json!({"mode": "friend", "rated": true}), "clock"),
        ] {
            let (status, v) = alice.post("/api/games", body.clone()).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{name}: {body} {v}");
            assert!(v["error"].as_str().unwrap().contains(words), "{name}: {v}");
        }
        // An anonymous creator: 401.
        let mut visitor = Browser::new(&app);
        let (status, v) = visitor
            .post(
                "/api/games",
                json!({"mode": "friend", "rated": true, "clock": clock}),
            )
            .await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{name}: {v}");
        assert!(v["error"].as_str().unwrap().contains("sign in"), "{name}");
        // Joining: an anonymous visitor (401), alice from another browser
        // (403); the seat stays free.
        let id = alice.rated_game("hopchess").await;
        let join = alice.invite_path(&id).await;
        let (status, v) = visitor.post(&join, json!({})).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{name}: {v}");
        let mut other = Browser::new(&app);
        let (status, _) = other
            .post(
                "/api/account/signin",
                json!({"name": "ALICE", "password": PASSWORD}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{name}");
        let (status, v) = other.post(&join, json!({})).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{name}: {v}");
        assert!(
            v["error"].as_str().unwrap().contains("another account"),
            "{name}"
        );
        // Alice's own browser: already seated, nothing changes.
        let g = alice.ok("POST", &join, json!({})).await;
        assert_eq!(g["status"], "waiting", "{name}");
        // Unknown users and bad names: 404.
        for who in ["nobody", "a", "%3Cb%3E"] {
            let (status, _) = alice.get(&format!("/api/user/{who}")).await;
            assert_eq!(status, StatusCode::NOT_FOUND, "{name}: {who}");
        }
        let (_, v) = alice.get("/api/user/ALICE").await;
        assert_eq!(
            (&v["id"], &v["username"]),
            (&json!("alice"), &json!("alice"))
        );
    }
}

#[tokio::test]
async fn an_aborted_rated_game_changes_nothing() {
    for backend in backends("sb_ratings_abort").await {
        let name = backend.name();
        let clock = Arc::new(ManualClock::new(T0));
        let app = backend.app(clock.clone(), vec![]).await;
        let (mut alice, mut bob) = players(&app).await;
        // White does not move within the limit.
        let id = alice.rated_game("chess").await;
        bob.ok("POST", &alice.invite_path(&id).await, json!({}))
            .await;
        clock.advance(29_000);
        alice.play(&id, "e2e4", 0).await;
        // Black does not either.
        clock.advance(31_000);
        let (_, g) = alice.get(&format!("/api/games/{id}")).await;
        assert_eq!(
            (&g["status"], &g["result"], &g["reason"]),
            (&json!("ended"), &json!("*"), &json!("aborted")),
            "{name}"
        );
        // A player aborts before both have moved; not after.
        let id2 = alice.rated_game("chess").await;
        bob.ok("POST", &alice.invite_path(&id2).await, json!({}))
            .await;
        let g = bob
            .ok("POST", &format!("/api/games/{id2}/abort"), json!({}))
            .await;
        assert_eq!(g["reason"], "aborted", "{name}");
        let id3 = started(&mut alice, &mut bob).await;
        let (status, v) = bob
            .post(&format!("/api/games/{id3}/abort"), json!({}))
            .await;
        assert_eq!(status, StatusCode::CONFLICT, "{name}: {v}");
        for id in [&id, &id2] {
            assert!(backend.ratings().game_history(id).await.unwrap().is_empty());
        }
        assert_eq!(
            alice.perf("alice", "chess").await,
            new_player_perf(),
            "{name}"
        );
        assert_eq!(
            alice.perf("bob", "chess").await,
            new_player_perf(),
            "{name}"
        );
    }
}

/// Refuses every game end.
struct Refuse;

#[async_trait]
impl GameEndHook for Refuse {
    async fn on_end(&self, _tx: &mut StoreTx<'_>, _ended: &GameEnded) -> Result<(), StoreError> {
        Err(StoreError::Hook("refused".into()))
    }
}

#[tokio::test]
async fn a_failing_hook_leaves_no_half_written_rating() {
    for backend in backends("sb_ratings_fail").await {
        let name = backend.name();
        let app = backend
            .app(Arc::new(ManualClock::new(T0)), vec![Arc::new(Refuse)])
            .await;
        let (mut alice, mut bob) = players(&app).await;
        let id = started(&mut alice, &mut bob).await;
        // The rating update ran first, then the other hook refused.
        let (status, v) = alice
            .post(&format!("/api/games/{id}/resign"), json!({}))
            .await;
        assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR, "{name}: {v}");
        let (_, g) = alice.get(&format!("/api/games/{id}")).await;
        assert_eq!(g["status"], "playing", "{name}");
        assert!(backend
            .ratings()
            .game_history(&id)
            .await
            .unwrap()
            .is_empty());
        assert_eq!(
            alice.perf("alice", "chess").await,
            new_player_perf(),
            "{name}"
        );
        assert_eq!(
            alice.perf("bob", "chess").await,
            new_player_perf(),
            "{name}"
        );
    }
}

#[tokio::test]
async fn an_abandoned_rated_game_is_aborted_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ratings.sqlite3");
    let mut stores = vec![Backend::Sqlite(Arc::new(
        SqliteStore::open(&path).await.unwrap(),
    ))];
    let pg = postgres_options("sb_ratings_restart").await;
    if let Some(options) = &pg {
        stores.push(Backend::Postgres(Arc::new(
            PgStore::connect_with(options.clone()).await.unwrap(),
        )));
    }
    for backend in stores {
        let name = backend.name();
        let (id, waiting) = {
            let app = backend.app(Arc::new(ManualClock::new(T0)), vec![]).await;
            let (mut alice, mut bob) = players(&app).await;
            let id = alice.rated_game("chess").await;
            bob.ok("POST", &alice.invite_path(&id).await, json!({}))
                .await;
            // Not joined: an open challenge, never aborted.
            let waiting = alice.rated_game("chess").await;
            (id, waiting)
        };
        // The server comes back after the limit passed.
        let again = match &backend {
            Backend::Sqlite(_) => {
                Backend::Sqlite(Arc::new(SqliteStore::open(&path).await.unwrap()))
            }
            Backend::Postgres(_) => Backend::Postgres(Arc::new(
                PgStore::connect_with(pg.clone().unwrap()).await.unwrap(),
            )),
        };
        let app = again
            .app(Arc::new(ManualClock::new(T0 + 3_600_000)), vec![])
            .await;
        // Found at start-up, before anyone asks.
        assert_eq!(
            again.stored(&id).await,
            ("ended".to_string(), Some("aborted".to_string())),
            "{name}"
        );
        let mut visitor = Browser::new(&app);
        let (_, g) = visitor.get(&format!("/api/games/{id}")).await;
        assert_eq!(
            (&g["status"], &g["reason"]),
            (&json!("ended"), &json!("aborted")),
            "{name}"
        );
        let (_, g) = visitor.get(&format!("/api/games/{waiting}")).await;
        assert_eq!(g["status"], "waiting", "{name}");
        assert!(again.ratings().game_history(&id).await.unwrap().is_empty());
    }
}
