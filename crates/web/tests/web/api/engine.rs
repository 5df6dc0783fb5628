//! The engine seam: the server's engine plays a move, an illegal one is
//! refused, and a change while it thinks stops it.

use crate::support::engines::{Cheater, FirstMove, Waiter};
use crate::support::http::{call, new_game, play};
use axum::http::StatusCode;
use serde_json::json;
use springboard_web::app;
use std::sync::{mpsc, Arc, Mutex};

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
