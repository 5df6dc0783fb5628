//! Engine work is bounded (issue 16 item 5): a pool of workers with a
//! queue, one engine request per game, and work stopped when its client
//! leaves.

use crate::support;

use serde_json::{json, Value};
use springboard_rules::{Game, Move};
use springboard_web::{Analysis, AnalysisLimit, EngineProvider, Evaluation, Options};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;
use support::apps::memory_app;
use support::http::{json_of, raw};

/// The test browser's `sb_player` cookie.
const COOKIE: &str = "PoolPoolPoolPoolPool0001";

/// Thinks until stopped or for `think`, counting how many think at once.
struct Counter {
    now: AtomicUsize,
    most: AtomicUsize,
    stopped: Mutex<mpsc::Sender<()>>,
    think: Duration,
}

impl Counter {
    fn think(&self, game: &Game, stop: &AtomicBool) -> Option<Move> {
        let n = self.now.fetch_add(1, Ordering::SeqCst) + 1;
        self.most.fetch_max(n, Ordering::SeqCst);
        let start = std::time::Instant::now();
        while start.elapsed() < self.think && !stop.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(2));
        }
        self.now.fetch_sub(1, Ordering::SeqCst);
        if stop.load(Ordering::Relaxed) {
            let _ = self.stopped.lock().unwrap().send(());
        }
        game.position().legal_moves().first().copied()
    }
}

impl EngineProvider for Counter {
    fn name(&self) -> String {
        "counter".into()
    }
    fn max_level(&self) -> u8 {
        1
    }
    fn best_move(&self, game: &Game, _level: u8, stop: Arc<AtomicBool>) -> Option<Move> {
        self.think(game, &stop)
    }
    fn analyse(&self, game: &Game, _l: AnalysisLimit, stop: Arc<AtomicBool>) -> Option<Analysis> {
        let m = self.think(game, &stop)?;
        Some(Analysis {
            score: Evaluation::Cp(0),
            pv: vec![m],
            depth: 1,
        })
    }
}

async fn setup(think: Duration) -> (axum::Router, Arc<Counter>, mpsc::Receiver<()>) {
    let (tx, rx) = mpsc::channel();
    let engine = Arc::new(Counter {
        now: AtomicUsize::new(0),
        most: AtomicUsize::new(0),
        stopped: Mutex::new(tx),
        think,
    });
    let mut options = Options::new(Some(engine.clone()));
    options.engine_workers = 2;
    (memory_app(options).await, engine, rx)
}

async fn post(app: &axum::Router, uri: &str, body: Value) -> (u16, Value) {
    let (status, _, bytes) = raw(app, "POST", uri, Some(COOKIE), Some(body.to_string())).await;
    (status.as_u16(), json_of(&bytes))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn engine_work_waits_for_one_of_two_workers() {
    let (app, engine, _rx) = setup(Duration::from_millis(60)).await;
    let mut ids = Vec::new();
    for _ in 0..6 {
        let (status, g) = post(&app, "/api/games", json!({})).await;
        assert_eq!(status, 201);
        ids.push(g["id"].as_str().unwrap().to_string());
    }
    let mut tasks = Vec::new();
    for (i, id) in ids.iter().enumerate() {
        let app = app.clone();
        let (uri, body) = if i % 2 == 0 {
            (format!("/api/games/{id}/analysis"), json!({"movetime": 50}))
        } else {
            (format!("/api/games/{id}/engine"), json!({}))
        };
        tasks.push(tokio::spawn(async move { post(&app, &uri, body).await }));
    }
    for t in tasks {
        let (status, v) = t.await.unwrap();
        assert_eq!(status, 200, "{v}");
    }
    assert_eq!(engine.most.load(Ordering::SeqCst), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_newer_engine_request_or_a_client_that_left_stops_the_work() {
    let (app, _engine, rx) = setup(Duration::from_secs(3600)).await;
    let (_, g) = post(&app, "/api/games", json!({})).await;
    let id = g["id"].as_str().unwrap().to_string();
    let uri = format!("/api/games/{id}/engine");
    let first = {
        let (app, uri) = (app.clone(), uri.clone());
        tokio::spawn(async move { post(&app, &uri, json!({})).await })
    };
    tokio::time::sleep(Duration::from_millis(100)).await;
    // A second request for the same game stops the first.
    let second = {
        let (app, uri) = (app.clone(), uri.clone());
        tokio::spawn(async move { post(&app, &uri, json!({})).await })
    };
    let (status, err) = first.await.unwrap();
    assert_eq!(status, 409, "{err}");
    rx.recv_timeout(Duration::from_secs(5)).unwrap();
    // The client of the second leaves: its work stops.
    tokio::time::sleep(Duration::from_millis(100)).await;
    second.abort();
    rx.recv_timeout(Duration::from_secs(5))
        .expect("the engine is stopped when its client leaves");
    // An analysis whose client leaves stops as well.
    let analysis = {
        let app = app.clone();
        let uri = format!("/api/games/{id}/analysis");
        tokio::spawn(async move { post(&app, &uri, json!({"movetime": 10000})).await })
    };
    tokio::time::sleep(Duration::from_millis(100)).await;
    analysis.abort();
    rx.recv_timeout(Duration::from_secs(5))
        .expect("the analysis is stopped when its client leaves");
}
