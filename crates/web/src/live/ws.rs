//! Live updates: `GET /api/games/{id}/ws?v=N`.
//!
//! The server sends `{"t":"move","v":V,"d":{...}}` when a move was played
//! (the move, the clocks, the end it made), `{"t":"state","v":V}` on every
//! other change of the game (and at once when the client's `v` is behind
//! or missing), `{"t":"crowd",...}` when who is connected changes,
//! `{"t":"pong"}` to a ping, and answers a move
//! `{"t":"move","d":{"u":uci,"ply":N},"a":ack}` with
//! `{"t":"ack","a":ack,"v":V}` (after the move's own message, so the page
//! has played it when the ack comes) or
//! `{"t":"error","a":ack,"d":{"error":...}}`.
//! A message over 4 KiB, malformed JSON or an unknown `t` gets an error
//! and the socket stays open; more than 20 messages in a second close it.
//! The messages are the enums of `protocol.rs`.
//!
//! The upgrade request passes the `Origin` check (`crate::csrf`), as
//! lila-ws checks it: a socket acts with the browser's cookies, so a page
//! of another site must not open one (browsers send `Origin` with every
//! WebSocket handshake, and do not hold it to the same-origin policy).

use crate::error::ApiError;
use crate::games::engine::after_change;
use crate::games::http::holder;
use crate::games::{Action, GameError};
use crate::live::hub::Presence;
use crate::live::protocol::{ClientMessage, ServerMessage};
use crate::live::LiveCtx;
use crate::seat::Holder;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::http::{Extensions, HeaderMap};
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::Value;
use tokio::sync::broadcast::error::{RecvError, TryRecvError};
use tracing::Instrument;

/// The largest message the server reads; larger ones get an error.
pub const MAX_MESSAGE: usize = 4096;
/// The largest message the socket accepts at all (larger closes it).
const MAX_FRAME: usize = 64 * 1024;
pub use crate::flood::FLOOD_PER_SECOND;

#[derive(Deserialize)]
pub struct WsQuery {
    v: Option<String>,
}

pub async fn connect(
    State(app): State<LiveCtx>,
    Path(id): Path<String>,
    Query(q): Query<WsQuery>,
    headers: HeaderMap,
    ext: Extensions,
    upgrade: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    crate::csrf::check(&headers, &ext)?;
    // The game must exist before the upgrade.
    let live = app.games.games.get(&id).await?;
    // The seats it holds are found once, at the upgrade.
    let who = holder(&app.games, &headers, false).await?;
    let seats = live.seats_of(Some(&who));
    let presence = Presence {
        white: seats.contains(&springboard_rules::Color::White),
        black: seats.contains(&springboard_rules::Color::Black),
    };
    let client_v = q.v.and_then(|v| v.parse::<i64>().ok());
    let seat = match (presence.white, presence.black) {
        (true, true) => "both",
        (true, false) => "white",
        (false, true) => "black",
        (false, false) => "spectator",
    };
    // The socket outlives the request: its own span, with the request's id.
    let span = tracing::info_span!(parent: None, "websocket", game = %id, seat);
    span.follows_from(tracing::Span::current());
    Ok(upgrade
        .max_message_size(MAX_FRAME)
        .max_frame_size(MAX_FRAME)
        .on_upgrade(move |socket| run(app, id, who, presence, client_v, socket).instrument(span)))
}

/// An error message to the client (logged at debug: a refused message).
fn error_msg(ack: Option<Value>, reason: &str) -> ServerMessage {
    tracing::debug!(error = reason, "websocket message refused");
    ServerMessage::error(ack, reason)
}

/// The socket's answer to a game's failure: an error message with the
/// failure's text (a stale move's version is not sent: the state message
/// that follows every change carries it). An outage's text makes the
/// socket close and the page reconnect ([`closes_socket`]).
fn game_error_msg(ack: Option<Value>, e: &GameError) -> ServerMessage {
    error_msg(ack, &e.to_string())
}

async fn run(
    app: LiveCtx,
    id: String,
    who: Holder,
    presence: Presence,
    client_v: Option<i64>,
    socket: WebSocket,
) {
    tracing::info!("websocket connected");
    let (mut tx, mut rx) = socket.split();
    let mut received = 0u64;
    let mut why = "the client closed it";
    // Subscribe before reading the version: no change is missed.
    let mut events = app.hub.join(&id, presence);
    app.presence_changed(&id);
    if let Some(user) = &who.user {
        app.online.opened(user);
    }
    let current = app.games.games.peek(&id).await.map(|l| l.rec.version).ok();
    if let Some(v) = current {
        if client_v.is_none_or(|c| c < v) {
            let _ = tx
                .send(Message::Text(ServerMessage::State { v }.to_text().into()))
                .await;
        }
    }
    let mut flood = crate::flood::Flood::new();
    loop {
        tokio::select! {
            ev = events.recv() => {
                let Some(text) = room_text(&app, &id, ev).await else {
                    break;
                };
                if tx.send(Message::Text(text.into())).await.is_err() {
                    why = "sending failed";
                    break;
                }
            }
            msg = rx.next() => {
                let msg = match msg {
                    Some(Ok(msg)) => msg,
                    Some(Err(e)) => {
                        tracing::info!(error = %e, "websocket read failed");
                        why = "reading failed";
                        break;
                    }
                    None => break,
                };
                received = received.saturating_add(1);
                let text = match msg {
                    Message::Text(t) => t.to_string(),
                    Message::Binary(b) => match String::from_utf8(b.to_vec()) {
                        Ok(t) => t,
                        Err(_) => {
                            let reply = error_msg(None, "messages are JSON text").to_text();
                            let _ = tx.send(Message::Text(reply.into())).await;
                            continue;
                        }
                    },
                    Message::Close(_) => break,
                    Message::Ping(_) | Message::Pong(_) => continue,
                };
                if flood.over() {
                    why = "too many messages";
                    tracing::warn!(per_second = FLOOD_PER_SECOND, "websocket flooded: closed");
                    crate::flood::close_flooded(&mut tx, &mut rx).await;
                    break;
                }
                let reply = handle(&app, &id, &who, &text).await;
                // A move's own message (and what else the room said
                // meanwhile) goes before its ack.
                if matches!(reply, ServerMessage::Ack { .. }) {
                    let mut failed = false;
                    loop {
                        let ev = match events.try_recv() {
                            Ok(msg) => Ok(msg),
                            Err(TryRecvError::Lagged(n)) => Err(RecvError::Lagged(n)),
                            Err(TryRecvError::Closed) => Err(RecvError::Closed),
                            Err(TryRecvError::Empty) => break,
                        };
                        let Some(text) = room_text(&app, &id, ev).await else {
                            break;
                        };
                        if tx.send(Message::Text(text.into())).await.is_err() {
                            failed = true;
                            break;
                        }
                    }
                    if failed {
                        why = "sending failed";
                        break;
                    }
                }
                // The database out of reach: the client is told, and the
                // socket closed with 1013 so the page reconnects (outage.rs).
                let outage = closes_socket(&reply);
                if tx.send(Message::Text(reply.to_text().into())).await.is_err() {
                    why = "sending failed";
                    break;
                }
                if outage {
                    why = "the database is unavailable";
                    let _ = tx
                        .send(Message::Close(Some(CloseFrame {
                            code: crate::outage::CLOSE_CODE,
                            reason: crate::outage::REASON.into(),
                        })))
                        .await;
                    break;
                }
            }
        }
    }
    app.hub.leave(&id, presence, events);
    app.presence_changed(&id);
    if let Some(user) = &who.user {
        app.online.closed(user);
    }
    tracing::info!(reason = why, messages = received, "websocket disconnected");
}

/// The text to send of what the game's room said (None: the room is gone
/// or the game cannot be read).
async fn room_text(
    app: &LiveCtx,
    id: &str,
    ev: Result<std::sync::Arc<str>, RecvError>,
) -> Option<String> {
    match ev {
        Ok(msg) => Some(msg.to_string()),
        // Fell behind: the current version is all it needs.
        Err(RecvError::Lagged(_)) => match app.games.games.peek(id).await {
            Ok(l) => Some(ServerMessage::State { v: l.rec.version }.to_text()),
            Err(_) => None,
        },
        Err(RecvError::Closed) => None,
    }
}

/// The answer to one client message.
async fn handle(app: &LiveCtx, id: &str, who: &Holder, text: &str) -> ServerMessage {
    if text.len() > MAX_MESSAGE {
        return error_msg(None, &format!("a message is at most {MAX_MESSAGE} bytes"));
    }
    match ClientMessage::parse(text) {
        Err(refused) => error_msg(refused.ack, &refused.reason),
        Ok(ClientMessage::Ping) => ServerMessage::Pong,
        Ok(ClientMessage::Move { d, a }) => {
            let action = Action::Move {
                text: d.u,
                ply: d.ply,
            };
            match app.games.games.change(id, Some(who), action).await {
                Ok(done) => {
                    after_change(&app.games, &done);
                    ServerMessage::Ack {
                        a: a.unwrap_or(Value::Null),
                        v: done.live.rec.version,
                    }
                }
                Err(e) => game_error_msg(a, &e),
            }
        }
    }
}

/// Whether a socket reply (an error message) reports an outage: the
/// socket is then closed with [`crate::outage::CLOSE_CODE`] so the page
/// reconnects.
fn closes_socket(reply: &ServerMessage) -> bool {
    matches!(reply, ServerMessage::Error { d, .. } if d.error == crate::outage::REASON)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outage_replies_close_the_socket() {
        let reply = ServerMessage::error(Some(1.into()), crate::outage::REASON);
        assert!(closes_socket(&reply));
        let other = ServerMessage::error(Some(1.into()), "illegal");
        assert!(!closes_socket(&other));
        let ack = ServerMessage::Ack { a: 1.into(), v: 2 };
        assert!(!closes_socket(&ack));
    }
}
