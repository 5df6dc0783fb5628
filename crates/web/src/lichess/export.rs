//! lichess's exports of the site's games: `GET /game/export/{id}` (one
//! game) and `GET /api/games/user/{name}` (an account's games, the most
//! recently changed first, at most `max`), as PGN, or as JSON (one game;
//! ndjson for the list) when the client asks for it in `Accept`. The PGN
//! is the site's (`games::export`), with the accounts' names as White and
//! Black where a seat is an account's.

use super::{views, LichessCtx, LichessState};
use crate::error::ApiError;
use crate::games::export::{game_url, pgn_tags};
use crate::games::Live;
use crate::outage::api_error;
use axum::extract::{Path, Query, State};
use axum::http::{header, Extensions, HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{json, Value};
use springboard_rules::notation::pgn::{self, Player};
use springboard_rules::Color;

/// The most games `GET /api/games/user/{name}` sends.
pub const MAX_GAMES: u32 = 300;

fn wants(headers: &HeaderMap, kind: &str) -> bool {
    headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains(kind))
}

fn typed(body: String, kind: &'static str) -> Response {
    let mut resp = body.into_response();
    resp.headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(kind));
    resp
}

/// The game's PGN, with the accounts' names.
async fn pgn_of(app: &LichessState, live: &Live, site: &str) -> Result<String, ApiError> {
    let rec = &live.rec;
    let mut tags = pgn_tags(&app.games, rec, &live.game, site);
    let [white, black] = views::players(app, rec).await?;
    for (c, p) in [(Color::White, white), (Color::Black, black)] {
        if let (Some(_), Some(name)) = (
            p.get("id").and_then(Value::as_str),
            p.get("name").and_then(Value::as_str),
        ) {
            tags.set_player(c, Player::Human(name));
        }
    }
    Ok(pgn::write(&live.game, &tags))
}

/// The game in lichess's JSON shape.
async fn json_of(app: &LichessState, live: &Live) -> Result<Value, ApiError> {
    let rec = &live.rec;
    let [white, black] = views::players(app, rec).await?;
    let side = |p: Value| match p.get("id").and_then(Value::as_str) {
        Some(id) => json!({
            "user": {"id": id, "name": p["name"]},
            "rating": p["rating"],
            "provisional": p["provisional"],
        }),
        None => p,
    };
    let clock = rec.clock_initial_ms.map(
        |i| json!({"initial": i / 1000, "increment": rec.clock_increment_ms.unwrap_or(0) / 1000}),
    );
    let moves: Vec<&str> = rec.moves.iter().map(|m| m.uci.as_str()).collect();
    let mut v = json!({
        "id": rec.id,
        "rated": rec.rated,
        "variant": rec.variant,
        "speed": views::game_speed(rec),
        "perf": rec.variant,
        "createdAt": rec.created_at,
        "lastMoveAt": rec.updated_at,
        "status": views::status(rec).0,
        "players": {"white": side(white), "black": side(black)},
        "moves": moves.join(" "),
        "clock": clock,
    });
    if let Some(w) = views::winner(rec) {
        v["winner"] = json!(w);
    }
    Ok(v)
}

/// `GET /game/export/{id}`.
pub async fn game(
    State(app): State<LichessCtx>,
    Path(id): Path<String>,
    headers: HeaderMap,
    ext: Extensions,
) -> Result<Response, ApiError> {
    let live = app.games.games.get(&id).await?;
    if wants(&headers, "application/json") {
        return Ok(axum::Json(json_of(&app, &live).await?).into_response());
    }
    let site = game_url(&headers, &ext, &live.rec.id);
    Ok(typed(
        pgn_of(&app, &live, &site).await?,
        "application/x-chess-pgn",
    ))
}

#[derive(Deserialize)]
pub struct GamesQuery {
    max: Option<u32>,
}

/// `GET /api/games/user/{name}`.
pub async fn user_games(
    State(app): State<LichessCtx>,
    Path(name): Path<String>,
    headers: HeaderMap,
    ext: Extensions,
    q: Result<Query<GamesQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(q) = q.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    let Some(accounts) = &app.accounts.accounts else {
        return Err(ApiError::NotFound("this server has no accounts".into()));
    };
    let missing = || ApiError::NotFound(format!("no user '{name}'"));
    let id = crate::accounts::name::check(&name).map_err(|_| missing())?;
    accounts
        .store
        .user(&id)
        .await
        .map_err(api_error)?
        .ok_or_else(missing)?;
    let max = q.max.unwrap_or(MAX_GAMES).min(MAX_GAMES);
    let ids = accounts
        .store
        .games_of(&id, i64::from(max))
        .await
        .map_err(api_error)?;
    let ndjson = wants(&headers, "application/x-ndjson") || wants(&headers, "application/json");
    let mut out = String::new();
    for gid in ids {
        let Ok(live) = app.games.games.get(&gid).await else {
            continue;
        };
        if ndjson {
            out.push_str(&json_of(&app, &live).await?.to_string());
            out.push('\n');
        } else {
            let site = game_url(&headers, &ext, &live.rec.id);
            out.push_str(&pgn_of(&app, &live, &site).await?);
            out.push('\n');
        }
    }
    let kind = if ndjson {
        "application/x-ndjson"
    } else {
        "application/x-chess-pgn"
    };
    Ok(typed(out, kind))
}
