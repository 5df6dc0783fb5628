//! The chat's JSON API: `GET /api/game/{id}/chat` (the request's room and
//! its latest lines) and `POST /api/game/{id}/chat` (a new line in it).
//! The `POST` passes the CSRF check (`crate::csrf`); every refusal is a
//! JSON error that changes nothing. `visible` and `say_as` serve the
//! lichess-compatible API's board chat too (`lichess/board.rs`).

use super::view::{speaker, LineEvent, LineView, Room, Speaker};
use super::{text, Chat, ChatCtx, HISTORY};
use crate::error::ApiError;
use crate::extract::body;
use crate::outage::api_error;
use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRef, Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};

pub(crate) fn routes<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    ChatCtx: FromRef<S>,
{
    let cookie_authorised = Router::new()
        .route("/api/game/{id}/chat", post(say))
        .route_layer(axum::middleware::from_fn(crate::csrf::require_origin));
    Router::new()
        .route("/api/game/{id}/chat", get(read))
        .route("/api/game/{id}/chat/socket", get(super::ws::connect))
        .merge(cookie_authorised)
}

/// A room as the request sees it.
#[derive(Serialize)]
pub struct RoomView {
    room: Room,
    /// Whether the request may write in it.
    writable: bool,
    /// Its latest lines, the oldest first, less those of the authors the
    /// request's account blocks.
    lines: Vec<LineView>,
}

/// A new line.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Say {
    text: String,
    /// The room it is meant for; it must be the request's own.
    room: Option<Room>,
}

/// The lines of `who`'s room that `who` sees.
pub(crate) async fn visible(
    chat: &Chat,
    id: &str,
    who: &Speaker,
) -> Result<Vec<LineView>, ApiError> {
    let blocked = match &who.user {
        Some(u) => chat.relation.blocking(u).await?,
        None => Default::default(),
    };
    let rows = chat
        .store
        .lines(id, who.room.as_str(), HISTORY)
        .await
        .map_err(api_error)?;
    Ok(rows
        .into_iter()
        .filter(|(_, user, ..)| !user.as_ref().is_some_and(|u| blocked.contains(u)))
        .map(|(id, user, name, text, at)| LineView {
            id,
            name,
            user,
            text,
            at,
        })
        .collect())
}

pub async fn read(
    State(ctx): State<ChatCtx>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<RoomView>, ApiError> {
    let chat = ctx.get()?;
    let who = speaker(chat, &id, &headers).await?;
    Ok(Json(RoomView {
        room: who.room,
        writable: who.name.is_some(),
        lines: visible(chat, &id, &who).await?,
    }))
}

pub async fn say(
    State(ctx): State<ChatCtx>,
    Path(id): Path<String>,
    headers: HeaderMap,
    req: Result<Json<Say>, JsonRejection>,
) -> Result<(StatusCode, Json<LineView>), ApiError> {
    let chat = ctx.get()?;
    let req = body(req)?;
    let line = text::line(&req.text)?;
    let who = speaker(chat, &id, &headers).await?;
    let view = say_as(chat, &id, &who, req.room, line).await?;
    Ok((StatusCode::CREATED, Json(view)))
}

/// Writes `line` (already checked by `text::line`) as `who` in game
/// `id`'s chat, in `room` if it names one (it must be `who`'s own), and
/// tells every reader.
pub(crate) async fn say_as(
    chat: &Chat,
    id: &str,
    who: &Speaker,
    room: Option<Room>,
    line: String,
) -> Result<LineView, ApiError> {
    match (room, who.room) {
        (Some(Room::Player), Room::Spectator) => {
            return Err(ApiError::Forbidden(
                "only the game's two players write in the players' room".into(),
            ))
        }
        (Some(Room::Spectator), Room::Player) => {
            return Err(ApiError::Forbidden(
                "the players write in the players' room, not the spectators'".into(),
            ))
        }
        _ => {}
    }
    let Some(name) = who.name.clone() else {
        return Err(ApiError::Unauthorized(
            "sign in to write in the spectators' room".into(),
        ));
    };
    let now = chat.games.games.now();
    chat.flood.take(&who.author, now)?;
    let new = super::store::NewLine {
        game: id,
        room: who.room.as_str(),
        author_user: who.user.as_deref(),
        author_name: &name,
        text: &line,
        created_at: now,
    };
    let line_id = chat.store.add_line(&new).await.map_err(api_error)?;
    let view = LineView {
        id: line_id,
        name,
        user: who.user.clone(),
        text: line,
        at: now,
    };
    chat.publish(LineEvent {
        game: id.to_string(),
        room: who.room,
        line: view.clone(),
    })
    .await;
    Ok(view)
}
