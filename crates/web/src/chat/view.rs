//! The rooms, a line as the page sees it, and who a request is in a
//! game's chat.

use super::Chat;
use crate::error::ApiError;
use crate::games::Mode;
use crate::outage::api_error;
use crate::seat::Holder;
use axum::http::HeaderMap;
use serde::{Deserialize, Serialize};
use springboard_rules::Color;

/// A game's chat room.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Room {
    /// The two players of a friend game.
    Player,
    /// Everyone else.
    Spectator,
}

impl Room {
    pub fn as_str(self) -> &'static str {
        match self {
            Room::Player => "player",
            Room::Spectator => "spectator",
        }
    }
}

/// A line as the page sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineView {
    pub id: i64,
    /// The name shown: the account's, or the side of an anonymous seat
    /// holder (`White`, `Black`).
    pub name: String,
    /// The author's account (its id, the lower-cased name); null for an
    /// anonymous seat holder.
    pub user: Option<String>,
    pub text: String,
    /// When it was written, ms since the Unix epoch.
    pub at: i64,
}

/// A new line of a game's room, as told to the sockets (and between
/// processes, as a JSON notice).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct LineEvent {
    pub game: String,
    pub room: Room,
    pub line: LineView,
}

/// Who a request is in a game's chat.
#[derive(Clone, Debug)]
pub(crate) struct Speaker {
    /// The room it reads (and writes, if it may).
    pub(crate) room: Room,
    /// Its account, when signed in.
    pub(crate) user: Option<String>,
    /// The name its lines carry; None: it may not write (an anonymous
    /// spectator).
    pub(crate) name: Option<String>,
    /// Whom the flood limit counts: the account, or the seat.
    pub(crate) author: String,
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// Who the request with `headers` is in game `id`'s chat (404 for no such
/// game). The seats it holds are the server's (`seat::Holders`): a forged
/// or foreign cookie holds none, and its request is a spectator's.
pub(crate) async fn speaker(
    chat: &Chat,
    id: &str,
    headers: &HeaderMap,
) -> Result<Speaker, ApiError> {
    if !crate::seat::is_game_id(id) {
        return Err(ApiError::NotFound(format!("no game with id {id}")));
    }
    let who = crate::games::http::holder(&chat.games, headers, false).await?;
    speaker_of(chat, id, &who).await
}

/// Who the holder of seats `who` (a request's cookies, or an API token's
/// account) is in game `id`'s chat (404 for no such game).
pub(crate) async fn speaker_of(chat: &Chat, id: &str, who: &Holder) -> Result<Speaker, ApiError> {
    if !crate::seat::is_game_id(id) {
        return Err(ApiError::NotFound(format!("no game with id {id}")));
    }
    let live = chat.games.games.get(id).await?;
    let account = match (&who.user, &chat.accounts.accounts) {
        (Some(u), Some(a)) => a.store.user(u).await.map_err(api_error)?,
        _ => None,
    };
    let sides = live.seats_of(Some(who));
    let player = live.rec.mode == Mode::Friend && !sides.is_empty();
    let author = who
        .user
        .clone()
        .or_else(|| who.seat.clone())
        .unwrap_or_default();
    Ok(match (player, account) {
        (true, account) => Speaker {
            room: Room::Player,
            user: who.user.clone(),
            name: Some(account.map_or_else(|| side_name(sides[0]).to_string(), |a| a.name)),
            author,
        },
        (false, account) => Speaker {
            room: Room::Spectator,
            user: who.user.clone(),
            name: account.map(|a| a.name),
            author,
        },
    })
}
