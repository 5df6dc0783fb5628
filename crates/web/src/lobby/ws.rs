//! The lobby socket: `GET /api/lobby/socket`.
//!
//! At connect the server sends the whole list the viewer sees
//! (`{"t":"list","challenges":[...],"online":{...}}`), then
//! `{"t":"add","challenge":{...}}` and `{"t":"remove","id":...}` as the
//! list changes, `{"t":"start","challenge":...,"game":...}` when a
//! challenge of the viewer's is accepted (or the viewer accepted one),
//! `{"t":"declined","challenge":...,"by":...}` when a personal challenge
//! of the viewer's is declined, and `{"t":"online","online":{...}}` when
//! who is online changes. The page sends `{"t":"ping"}` (answered
//! `{"t":"pong"}`); anything else is ignored, and more than
//! `flood::FLOOD_PER_SECOND` messages in a second close the socket.
//!
//! The upgrade passes the `Origin` check (`crate::csrf`), as the game
//! socket's does. The seats the request holds are read once, at the
//! upgrade: a socket that holds a challenge's author seat keeps the
//! challenge open; when the author's last one here has been gone for
//! the grace time, the challenge is withdrawn (`hub.rs`).

use super::hub::{self, Event};
use super::view::{LobbyMessage, Viewer};
use super::{Lobby, LobbyCtx};
use crate::error::ApiError;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::http::{Extensions, HeaderMap};
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use std::sync::Arc;
use tokio::sync::broadcast::error::RecvError;

/// The largest frame the socket reads (larger closes it).
const MAX_FRAME: usize = 4096;

pub async fn connect(
    State(ctx): State<LobbyCtx>,
    headers: HeaderMap,
    ext: Extensions,
    upgrade: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    crate::csrf::check(&headers, &ext)?;
    let lobby = ctx.get()?.clone();
    let who = lobby.desk.holder(&headers, false).await?;
    let name = match &who.user {
        Some(u) => lobby.desk.account_name(u).await?,
        None => None,
    };
    let viewer = Viewer {
        held: who.held,
        user: who.user,
    };
    // The author's challenges are held where the author's socket is.
    if !viewer.held.is_empty() {
        if let Err(e) = lobby.store.adopt(&viewer.held, &lobby.process).await {
            tracing::warn!(error = %e, "cannot move the challenges to this process");
        }
    }
    Ok(upgrade
        .max_message_size(MAX_FRAME)
        .max_frame_size(MAX_FRAME)
        .on_upgrade(move |socket| run(lobby, viewer, name, socket)))
}

fn text(m: &LobbyMessage) -> Message {
    Message::Text(m.to_text().into())
}

/// The whole list as `viewer` sees it.
fn whole(lobby: &Lobby, viewer: &Viewer) -> LobbyMessage {
    LobbyMessage::List {
        challenges: lobby
            .hub
            .list()
            .iter()
            .filter_map(|c| viewer.view(c))
            .collect(),
        online: lobby.hub.online(),
    }
}

/// The message of `ev` for `viewer`, if it concerns it.
fn message(ev: Event, viewer: &Viewer) -> Option<LobbyMessage> {
    match ev {
        Event::Add(c) => viewer
            .view(&c)
            .map(|challenge| LobbyMessage::Add { challenge }),
        Event::Remove(id) => Some(LobbyMessage::Remove { id }),
        Event::Start(s) => s.concerns(viewer).then(|| LobbyMessage::Start {
            challenge: s.challenge.clone(),
            game: s.game.clone(),
        }),
        Event::Declined(d) => d.concerns(viewer).then(|| LobbyMessage::Declined {
            challenge: d.challenge.clone(),
            by: d.by.clone(),
        }),
        Event::Online(online) => Some(LobbyMessage::Online { online }),
    }
}

async fn run(lobby: Arc<Lobby>, viewer: Viewer, name: Option<String>, socket: WebSocket) {
    let (mut tx, mut rx) = socket.split();
    // Subscribe before reading the list: no change is missed (one may
    // come twice; the page keys the list by id).
    let (mut events, online) = lobby.hub.join(&viewer, name.as_deref());
    if online {
        hub::online_changed(&lobby).await;
    }
    let mut why = "the client closed it";
    if tx.send(text(&whole(&lobby, &viewer))).await.is_ok() {
        let mut flood = crate::flood::Flood::new();
        loop {
            tokio::select! {
                ev = events.recv() => {
                    let msg = match ev {
                        Ok(ev) => match message(ev, &viewer) {
                            Some(m) => m,
                            None => continue,
                        },
                        Err(RecvError::Lagged(_)) => whole(&lobby, &viewer),
                        Err(RecvError::Closed) => break,
                    };
                    if tx.send(text(&msg)).await.is_err() {
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
                        if ping && tx.send(text(&LobbyMessage::Pong)).await.is_err() {
                            why = "sending failed";
                            break;
                        }
                    }
                }
            }
        }
    } else {
        why = "sending failed";
    }
    hub::leave(&lobby, &viewer).await;
    tracing::debug!(reason = why, "lobby socket closed");
}
