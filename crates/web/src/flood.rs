//! The flood limit every WebSocket of the server keeps on what the page
//! sends (the game's, the lobby's, the chat's): more than
//! [`FLOOD_PER_SECOND`] messages in a second close the socket with 1008,
//! through [`close_flooded`], the one closing of the three sockets.

use axum::extract::ws::{CloseFrame, Message, WebSocket};
use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{SinkExt, StreamExt};
use std::time::{Duration, Instant};

/// How long a flooded socket is read after its Close frame, waiting for
/// the client's.
pub const CLOSE_DRAIN: Duration = Duration::from_secs(1);

/// The most messages a socket may send in a second.
pub const FLOOD_PER_SECOND: u32 = 20;

/// One socket's count of messages in the current second.
pub struct Flood {
    window: Instant,
    count: u32,
}

impl Flood {
    pub fn new() -> Flood {
        Flood {
            window: Instant::now(),
            count: 0,
        }
    }

    /// Counts a message; true when it is one too many this second.
    pub fn over(&mut self) -> bool {
        if self.window.elapsed() >= Duration::from_secs(1) {
            self.window = Instant::now();
            self.count = 0;
        }
        self.count += 1;
        self.count > FLOOD_PER_SECOND
    }
}

impl Default for Flood {
    fn default() -> Flood {
        Flood::new()
    }
}

/// The Close frame a flooded socket gets (1008, policy violation).
pub fn close_frame() -> Message {
    Message::Close(Some(CloseFrame {
        code: 1008,
        reason: "too many messages".into(),
    }))
}

/// Closes a flooded socket: the 1008 Close frame, then the closing
/// handshake: what the client still sends is read (and dropped) until its
/// Close, for at most [`CLOSE_DRAIN`], so that the socket is not dropped
/// with unread data (the kernel would answer a reset, and the client would
/// never read the Close frame).
pub async fn close_flooded(
    tx: &mut SplitSink<WebSocket, Message>,
    rx: &mut SplitStream<WebSocket>,
) {
    let _ = tx.send(close_frame()).await;
    let _ = tokio::time::timeout(CLOSE_DRAIN, async {
        while let Some(Ok(m)) = rx.next().await {
            if matches!(m, Message::Close(_)) {
                break;
            }
        }
    })
    .await;
}
