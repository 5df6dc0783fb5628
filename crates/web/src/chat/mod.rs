//! Game chat (issue 42, item 7): per game a players' room (the two seats
//! of a friend game; an anonymous seat holder is named by its side) and a
//! spectators' room (everyone else; only signed-in accounts write, as on
//! lichess). A game against the engine, or played on one board, has no
//! players' room: whoever looks at it is in the spectators' room.
//!
//! - `text.rs`: what a line may be (trimmed, 1 to [`MAX_CHARS`]
//!   characters, no control characters) and the per-author flood limit;
//! - `view.rs`: the rooms, a line as the page sees it, and who a request
//!   is in a game's chat (`view::Speaker`);
//! - `store.rs`: the lines' table (`migrations/*/0009_chat.sql`) and the
//!   notices between server processes (PostgreSQL's NOTIFY on
//!   [`store::CHANNEL`]);
//! - `http.rs`: `GET` and `POST /api/game/{id}/chat`;
//! - `ws.rs`: the chat socket, `GET /api/game/{id}/chat/socket`, each new
//!   line of the viewer's room as it is written.
//!
//! A line is never shown to an account that blocks its author
//! (`crate::relation`). The chat sits above the games, the accounts and
//! the relations, which know nothing of it.

pub(crate) mod http;
pub mod store;
pub(crate) mod text;
pub mod view;
pub(crate) mod ws;

pub use store::ChatStore;

use crate::accounts::AccountsCtx;
use crate::error::ApiError;
use crate::games::GamesCtx;
use crate::relation::RelationCtx;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use tokio::sync::broadcast;
use view::LineEvent;

/// The most characters in a line (lichess's).
pub const MAX_CHARS: usize = 140;
/// Lines one author may write in [`FLOOD_WINDOW_MS`]; one more is refused.
pub const FLOOD_LINES: usize = 4;
/// The flood limit's window (ms).
pub const FLOOD_WINDOW_MS: i64 = 10_000;
/// The lines of a room read at once (the latest).
pub const HISTORY: i64 = 100;

/// The chat's part of the server.
pub struct Chat {
    pub(crate) store: Arc<dyn ChatStore>,
    pub(crate) games: GamesCtx,
    pub(crate) accounts: AccountsCtx,
    pub(crate) relation: RelationCtx,
    /// Every new line, of every game, for this process's chat sockets.
    pub(crate) lines: broadcast::Sender<LineEvent>,
    /// Whether new lines come back through the store's notices (a store
    /// shared by several processes) rather than straight to `lines`.
    relayed: AtomicBool,
    pub(crate) flood: text::Flood,
}

/// The chat's handlers' state: a cheap clone (None: the server has no
/// chat, and its routes answer 404).
#[derive(Clone)]
pub struct ChatCtx(pub(crate) Option<Arc<Chat>>);

impl ChatCtx {
    pub(crate) fn get(&self) -> Result<&Arc<Chat>, ApiError> {
        self.0
            .as_ref()
            .ok_or_else(|| ApiError::NotFound("this server has no chat".into()))
    }
}

impl Chat {
    pub(crate) fn new(
        store: Arc<dyn ChatStore>,
        games: GamesCtx,
        accounts: AccountsCtx,
        relation: RelationCtx,
    ) -> Chat {
        Chat {
            store,
            games,
            accounts,
            relation,
            lines: broadcast::channel(1024).0,
            relayed: AtomicBool::new(false),
            flood: text::Flood::new(FLOOD_LINES, FLOOD_WINDOW_MS),
        }
    }

    /// Tells every chat socket of the game, in every process, of a new
    /// line.
    pub(crate) async fn publish(&self, ev: LineEvent) {
        if self.relayed.load(Ordering::Relaxed) {
            match serde_json::to_string(&ev) {
                Ok(payload) => match self.store.notify(&payload).await {
                    Ok(()) => return,
                    Err(e) => {
                        tracing::warn!(error = %e, "cannot tell the other processes of a chat line")
                    }
                },
                Err(e) => tracing::warn!(error = %e, "cannot write a chat notice"),
            }
        }
        let _ = self.lines.send(ev);
    }
}

/// Starts the chat: on a store shared by several processes, listens to
/// every process's new lines (this one's too) and hands them to this
/// process's sockets.
pub(crate) async fn start(chat: &Arc<Chat>) -> Result<(), crate::store::StoreError> {
    let Some(mut rx) = chat.store.listen().await? else {
        return Ok(());
    };
    chat.relayed.store(true, Ordering::Relaxed);
    let weak = Arc::downgrade(chat);
    tokio::spawn(async move {
        while let Some(payload) = rx.recv().await {
            let Some(chat) = weak.upgrade() else { break };
            match serde_json::from_str::<LineEvent>(&payload) {
                Ok(ev) => {
                    let _ = chat.lines.send(ev);
                }
                Err(e) => tracing::warn!(error = %e, "an unreadable chat notice"),
            }
        }
    });
    Ok(())
}
