//! The flood limit every WebSocket of the server keeps on what the page
//! sends (the game's, the lobby's, the chat's): more than
//! [`FLOOD_PER_SECOND`] messages in a second close the socket with 1008.

use axum::extract::ws::{CloseFrame, Message};
use std::time::{Duration, Instant};

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
