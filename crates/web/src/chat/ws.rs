//! The chat socket: `GET /api/game/{id}/chat/socket`.
//!
//! The server sends `{"t":"line","line":{...}}` for each new line of the
//! viewer's room (the room of `GET /api/game/{id}/chat`, decided once, at
//! the upgrade), less the lines of the authors the viewer's account
//! blocks. The page reads the history with `GET` first, and writes with
//! `POST /api/game/{id}/chat` (whose refusals are JSON errors). It sends
//! `{"t":"ping"}` (answered `{"t":"pong"}`); anything else is ignored,
//! and more than [`crate::flood::FLOOD_PER_SECOND`] messages in a second
//! close the socket. The upgrade passes the `Origin` check
//! (`crate::csrf`), as the game socket's does.

use super::view::{speaker, LineEvent, Speaker};
use super::{Chat, ChatCtx};
use crate::error::ApiError;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::{Extensions, HeaderMap};
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use std::sync::Arc;
use tokio::sync::broadcast::error::RecvError;

/// The largest frame the socket reads (larger closes it).
const MAX_FRAME: usize = 1024;

pub async fn connect(
    State(ctx): State<ChatCtx>,
    Path(id): Path<String>,
    headers: HeaderMap,
    ext: Extensions,
    upgrade: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    crate::csrf::check(&headers, &ext)?;
    let chat = ctx.get()?.clone();
    let who = speaker(&chat, &id, &headers).await?;
    Ok(upgrade
        .max_message_size(MAX_FRAME)
        .max_frame_size(MAX_FRAME)
        .on_upgrade(move |socket| run(chat, id, who, socket)))
}

/// The message of `ev` for `who` in game `id`, if it is to see it.
async fn message(chat: &Chat, id: &str, who: &Speaker, ev: LineEvent) -> Option<String> {
    if ev.game != id || ev.room != who.room {
        return None;
    }
    if let (Some(me), Some(author)) = (&who.user, &ev.line.user) {
        match chat.relation.blocks(me, author).await {
            Ok(false) => {}
            Ok(true) => return None,
            Err(e) => {
                tracing::warn!(error = %e, "cannot read the viewer's blocks");
                return None;
            }
        }
    }
    Some(serde_json::json!({"t": "line", "line": ev.line}).to_string())
}

async fn run(chat: Arc<Chat>, id: String, who: Speaker, socket: WebSocket) {
    let (mut tx, mut rx) = socket.split();
    let mut lines = chat.lines.subscribe();
    let mut flood = crate::flood::Flood::new();
    let mut why = "the client closed it";
    loop {
        tokio::select! {
            ev = lines.recv() => {
                let ev = match ev {
                    Ok(ev) => ev,
                    Err(RecvError::Lagged(n)) => {
                        tracing::warn!(missed = n, "a chat socket fell behind");
                        continue;
                    }
                    Err(RecvError::Closed) => break,
                };
                let Some(text) = message(&chat, &id, &who, ev).await else { continue };
                if tx.send(Message::Text(text.into())).await.is_err() {
                    why = "sending failed";
                    break;
                }
            }
            msg = rx.next() => {
                let msg = match msg {
                    Some(Ok(m)) => m,
                    Some(Err(_)) => { why = "reading failed"; break; }
                    None => break,
                };
                if matches!(msg, Message::Close(_)) {
                    break;
                }
                if flood.over() {
                    why = "too many messages";
                    crate::flood::close_flooded(&mut tx, &mut rx).await;
                    break;
                }
                if let Message::Text(t) = msg {
                    let ping = serde_json::from_str::<serde_json::Value>(&t)
                        .ok()
                        .is_some_and(|v| v["t"] == "ping");
                    let pong = serde_json::json!({"t": "pong"}).to_string();
                    if ping && tx.send(Message::Text(pong.into())).await.is_err() {
                        why = "sending failed";
                        break;
                    }
                }
            }
        }
    }
    tracing::debug!(reason = why, "chat socket closed");
}
