//! The JSON API, request by request, through the router (no network):
//! a module a domain. This file holds the helpers more than one module
//! uses.

mod analysis;
mod engine;
mod games;
mod lists;
mod moves;
mod pages;
mod pgn;
mod requests;
mod server;
mod typed;
mod view;

use crate::support::http::{call, new_game};
use axum::http::StatusCode;
use axum::Router;
use serde_json::{json, Value};

/// A new local game (both seats the test browser's) of `body`; its id.
async fn local_game(app: &Router, body: Value) -> String {
    let mut body = body;
    body["mode"] = json!("local");
    new_game(app, body).await["id"]
        .as_str()
        .unwrap()
        .to_string()
}

/// The analysis of game `id` that `body` asks for.
async fn analyse(app: &Router, id: &str, body: Value) -> (StatusCode, Value) {
    call(
        app,
        "POST",
        &format!("/api/games/{id}/analysis"),
        Some(body),
    )
    .await
}
