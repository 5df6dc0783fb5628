//! The end of a game as an event, through the app: the end-of-game hooks
//! registered in `Options` run once per ended game (a failing one leaves
//! the game unended and the request gets an error), and a subscriber gets
//! exactly one `GameEnded` per ended game: a resignation, a flag fall found
//! by the timer, an engine's mate. On SQLite, and on PostgreSQL when
//! `SPRINGBOARD_TEST_POSTGRES` names a server.

use crate::support;

use async_trait::async_trait;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use serde_json::{json, Value};
use springboard_rules::Color;
use springboard_rules::{Game, Move};
use springboard_web::store::StoreError;
use springboard_web::{
    app_with, Analysis, AnalysisLimit, EngineProvider, GameEndHook, GameEnded, ManualClock,
    Options, PgStore, SqliteStore, Store, StoreTx,
};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use support::postgres::postgres_options;
use tokio::sync::broadcast::error::TryRecvError;
use tokio::sync::broadcast::Receiver;
use tower::ServiceExt;

const A: &str = "AliceAliceAliceAlice0001";
const B: &str = "BobBobBobBobBobBobBob002";

/// Counts the ends it sees; refuses them when `fail`.
struct Counter {
    fail: bool,
    calls: AtomicUsize,
}

#[async_trait]
impl GameEndHook for Counter {
    async fn on_end(&self, _tx: &mut StoreTx<'_>, _ended: &GameEnded) -> Result<(), StoreError> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        if self.fail {
            return Err(StoreError::Hook("refused".into()));
        }
        Ok(())
    }
}

/// Plays a mate in one when it has one, else e7e5 when legal, else the
/// first legal move.
struct Mater;

impl EngineProvider for Mater {
    fn name(&self) -> String {
        "mater".into()
    }
    fn max_level(&self) -> u8 {
        1
    }
    fn best_move(&self, game: &Game, _level: u8, _stop: Arc<AtomicBool>) -> Option<Move> {
        let pos = game.position();
        let moves = pos.legal_moves();
        let mates = moves.iter().copied().find(|&m| {
            let mut g = game.clone();
            g.play(m).is_ok() && g.outcome().is_some()
        });
        let uci = |m: Move| springboard_rules::notation::uci::to_uci(pos, m);
        mates
            .or_else(|| moves.iter().copied().find(|&m| uci(m) == "e7e5"))
            .or_else(|| moves.first().copied())
    }
    fn analyse(&self, _: &Game, _: AnalysisLimit, _: Arc<AtomicBool>) -> Option<Analysis> {
        None
    }
}

struct T {
    app: Router,
    clock: Arc<ManualClock>,
    hook: Arc<Counter>,
    ended: Receiver<GameEnded>,
}

/// An app over each backend, with a counting hook (failing when `fail`)
/// and a subscriber.
async fn apps(fail: bool) -> Vec<(&'static str, T)> {
    let mut stores: Vec<(&'static str, Arc<dyn Store>)> =
        vec![("sqlite", Arc::new(SqliteStore::memory().await.unwrap()))];
    if let Some(options) = postgres_options("sb_ended").await {
        stores.push((
            "postgres",
            Arc::new(PgStore::connect_with(options).await.unwrap()),
        ));
    }
    let mut v = Vec::new();
    for (name, store) in stores {
        let clock = Arc::new(ManualClock::new(1_800_000_000_000));
        let hook = Arc::new(Counter {
            fail,
            calls: AtomicUsize::new(0),
        });
        let mut options = Options::new(Some(Arc::new(Mater)));
        options.clock = clock.clone();
        options.end_hooks.push(hook.clone());
        let ended = options.subscribe_ended();
        let app = app_with(store, options).await.unwrap();
        v.push((
            name,
            T {
                app,
                clock,
                hook,
                ended,
            },
        ));
    }
    v
}

impl T {
    async fn call(&self, who: &str, method: &str, uri: &str, body: Value) -> (StatusCode, Value) {
        let req = Request::builder()
            .method(method)
            .uri(uri)
            .header("content-type", "application/json")
            .header("host", support::http::HOST)
            .header("origin", support::http::ORIGIN)
            .header("cookie", format!("sb_player={who}"));
        let body = if method == "GET" {
            Body::empty()
        } else {
            Body::from(body.to_string())
        };
        let resp = self
            .app
            .clone()
            .oneshot(req.body(body).unwrap())
            .await
            .unwrap();
        let status = resp.status();
        let bytes = resp.into_body().collect().await.unwrap().to_bytes();
        (status, serde_json::from_slice(&bytes).unwrap())
    }

    async fn ok(&self, who: &str, method: &str, uri: &str, body: Value) -> Value {
        let (status, v) = self.call(who, method, uri, body).await;
        assert!(status.is_success(), "{uri}: {status} {v}");
        v
    }

    /// A friend game of A (white) joined by B (black), 1. e4 e5 played.
    async fn friend_game(&self, clock: Value) -> String {
        let g = self
            .ok(
                A,
                "POST",
                "/api/games",
                json!({"mode": "friend", "clock": clock}),
            )
            .await;
        let id = g["id"].as_str().unwrap().to_string();
        let invite = g["invite"].as_str().unwrap();
        self.ok(
            B,
            "POST",
            &format!("/api/games/{id}/join?invite={invite}"),
            json!({}),
        )
        .await;
        for (who, m, ply) in [(A, "e2e4", 0), (B, "e7e5", 1)] {
            self.ok(
                who,
                "POST",
                &format!("/api/games/{id}/move"),
                json!({"move": m, "ply": ply}),
            )
            .await;
        }
        id
    }

    /// The next game end, within 10 s.
    async fn next_end(&mut self) -> GameEnded {
        tokio::time::timeout(Duration::from_secs(10), self.ended.recv())
            .await
            .expect("a game end within 10 s")
            .expect("the events go on")
    }

    /// No further game end (after a moment for stragglers).
    async fn no_more_ends(&mut self) {
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(matches!(self.ended.try_recv(), Err(TryRecvError::Empty)));
    }
}

#[tokio::test]
async fn a_resignation_is_one_event_and_runs_the_hooks_once() {
    for (name, mut t) in apps(false).await {
        let id = t.friend_game(Value::Null).await;
        // Creating, joining and moving ended nothing.
        assert_eq!(t.hook.calls.load(Ordering::SeqCst), 0, "{name}");
        t.no_more_ends().await;
        t.ok(A, "POST", &format!("/api/games/{id}/resign"), json!({}))
            .await;
        let e = t.next_end().await;
        assert_eq!(
            (
                e.id.as_str(),
                e.mode.as_str(),
                e.result.as_str(),
                e.reason.as_str(),
                e.plies
            ),
            (id.as_str(), "friend", "0-1", "resignation", 2),
            "{name}"
        );
        assert!(e.white_seat.is_some() && e.black_seat.is_some(), "{name}");
        assert_eq!(t.hook.calls.load(Ordering::SeqCst), 1, "{name}");
        // Changes of the ended game (a rematch offer, reads) end nothing.
        t.ok(
            A,
            "POST",
            &format!("/api/games/{id}/rematch"),
            json!({"action": "offer"}),
        )
        .await;
        t.ok(B, "GET", &format!("/api/games/{id}"), Value::Null)
            .await;
        t.no_more_ends().await;
        assert_eq!(t.hook.calls.load(Ordering::SeqCst), 1, "{name}");
    }
}

#[tokio::test]
async fn a_failing_hook_leaves_the_game_unended() {
    for (name, mut t) in apps(true).await {
        let id = t.friend_game(Value::Null).await;
        let (status, v) = t
            .call(A, "POST", &format!("/api/games/{id}/resign"), json!({}))
            .await;
        assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR, "{name}: {v}");
        assert_eq!(t.hook.calls.load(Ordering::SeqCst), 1, "{name}");
        let g = t
            .ok(B, "GET", &format!("/api/games/{id}"), Value::Null)
            .await;
        assert_eq!(g["status"], "playing", "{name}");
        assert_eq!(g["plies"], 2, "{name}");
        t.no_more_ends().await;
    }
}

#[tokio::test]
async fn a_flag_found_by_the_timer_is_one_event() {
    for (name, mut t) in apps(false).await {
        let id = t.friend_game(json!({"initial": 1, "increment": 0})).await;
        // White's clock runs; nobody asks: the timer finds the flag.
        t.clock.advance(5_000);
        let e = t.next_end().await;
        assert_eq!(
            (e.id.as_str(), e.result.as_str(), e.reason.as_str()),
            (id.as_str(), "0-1", "time"),
            "{name}"
        );
        t.ok(A, "GET", &format!("/api/games/{id}"), Value::Null)
            .await;
        t.no_more_ends().await;
        assert_eq!(t.hook.calls.load(Ordering::SeqCst), 1, "{name}");
    }
}

#[tokio::test]
async fn an_engines_mate_is_one_event() {
    for (name, mut t) in apps(false).await {
        let g = t
            .ok(
                A,
                "POST",
                "/api/games",
                json!({"mode": "engine", "color": "white", "level": 1}),
            )
            .await;
        let id = g["id"].as_str().unwrap().to_string();
        for (m, ply) in [("f2f3", 0), ("g2g4", 2)] {
            // Wait for the engine's reply before the next move.
            for _ in 0..500 {
                let g = t
                    .ok(A, "GET", &format!("/api/games/{id}"), Value::Null)
                    .await;
                if g["plies"] == ply {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
            t.ok(
                A,
                "POST",
                &format!("/api/games/{id}/move"),
                json!({"move": m, "ply": ply}),
            )
            .await;
        }
        let e = t.next_end().await;
        assert_eq!(
            (
                e.id.as_str(),
                e.mode.as_str(),
                e.result.as_str(),
                e.reason.as_str(),
                e.plies,
                e.engine_color
            ),
            (
                id.as_str(),
                "engine",
                "0-1",
                "checkmate",
                4,
                Some(Color::Black)
            ),
            "{name}"
        );
        t.no_more_ends().await;
        assert_eq!(t.hook.calls.load(Ordering::SeqCst), 1, "{name}");
    }
}
