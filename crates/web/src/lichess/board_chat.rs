//! lichess's board chat on the site's game chat (`crates/web/src/chat/`):
//! `GET /api/board/game/{id}/chat`, the lines of the token's room (the
//! players' room for a player of the game, else the spectators'), as
//! lichess's `[{"user", "text"}]`, the oldest first; `POST` with `room`
//! (`player` or `spectator`, it must be the token's own) and `text`
//! writes a line there, `{"ok": true}`. The chat's rules hold as on the
//! page: at most 140 characters, no control characters, the flood limit,
//! the blocked's lines hidden, and the line reaches every open page.

use super::auth;
use super::params::Params;
use super::LichessCtx;
use crate::chat::view::{speaker_of, Room};
use crate::error::ApiError;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::Json;
use serde_json::{json, Value};

/// `GET /api/board/game/{id}/chat`.
pub async fn lines(
    State(app): State<LichessCtx>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let me = auth::require(&app, &headers).await?;
    let chat = app.chat.get()?;
    let who = speaker_of(chat, &id, &me.holder).await?;
    let lines = crate::chat::http::visible(chat, &id, &who).await?;
    Ok(Json(Value::Array(
        lines
            .into_iter()
            .map(|l| json!({"user": l.name, "text": l.text}))
            .collect(),
    )))
}

/// `POST /api/board/game/{id}/chat`.
pub async fn say(
    State(app): State<LichessCtx>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let me = auth::require(&app, &headers).await?;
    let chat = app.chat.get()?;
    let p = Params::read(&headers, &body)?;
    let room = match p.text("room")?.as_deref() {
        None => None,
        Some("player") => Some(Room::Player),
        Some("spectator") => Some(Room::Spectator),
        Some(_) => {
            return Err(ApiError::BadRequest(
                "room is 'player' or 'spectator'".into(),
            ))
        }
    };
    let text = p
        .text("text")?
        .ok_or_else(|| ApiError::BadRequest("a chat line needs its text".into()))?;
    let line = crate::chat::text::line(&text)?;
    let who = speaker_of(chat, &id, &me.holder).await?;
    crate::chat::http::say_as(chat, &id, &who, room, line).await?;
    Ok(Json(json!({"ok": true})))
}
