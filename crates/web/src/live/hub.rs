//! The sockets of each game: a broadcast channel per game that carries
//! `{"t":"move",...}` when a move was played, `{"t":"state","v":V}` on
//! every other change, and `crowd` messages when who is
//! connected changes: this process's sockets plus, on a shared store, those
//! of the other processes ([`Hub::set_remote`], kept up to date from the
//! store's presence rows by `lib.rs`).

use crate::games::news::MoveNews;
use crate::live::protocol::{CrowdNews, ServerMessage};
pub use crate::store::Crowd;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::sync::broadcast;

/// How many messages a slow socket may fall behind before it is told to
/// resync.
const ROOM_BACKLOG: usize = 64;

struct Room {
    tx: broadcast::Sender<Arc<str>>,
    /// This process's sockets.
    crowd: Crowd,
    /// The other processes' sockets.
    remote: Crowd,
    /// The last version sent (a version comes once: from this process's
    /// change and again from the database's notice).
    last: i64,
}

/// The rooms of the games that have sockets.
#[derive(Default)]
pub struct Hub {
    rooms: Mutex<HashMap<String, Room>>,
}

/// Which seats a socket holds.
#[derive(Clone, Copy, Debug, Default)]
pub struct Presence {
    pub white: bool,
    pub black: bool,
}

impl Hub {
    fn rooms(&self) -> std::sync::MutexGuard<'_, HashMap<String, Room>> {
        self.rooms.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Tells every socket of game `id` that it is now at `version`.
    pub fn publish(&self, id: &str, version: i64) {
        self.send(id, version, || ServerMessage::State { v: version });
    }

    /// Tells every socket of game `id` the move that took it to `version`.
    pub fn moved(&self, id: &str, version: i64, news: &MoveNews) {
        self.send(id, version, || ServerMessage::Move {
            d: news.into(),
            v: version,
        });
    }

    /// Sends `msg` to game `id`'s sockets, once per version (a version
    /// comes from this process's change and again from the database's
    /// notice).
    fn send(&self, id: &str, version: i64, msg: impl FnOnce() -> ServerMessage) {
        if let Some(room) = self.rooms().get_mut(id) {
            if version <= room.last {
                return;
            }
            room.last = version;
            let text: Arc<str> = msg().to_text().into();
            let _ = room.tx.send(text);
        }
    }

    /// The games that have sockets here.
    pub fn games(&self) -> Vec<String> {
        self.rooms().keys().cloned().collect()
    }

    /// Joins game `id`'s room: the receiver of its messages (subscribed
    /// before anything is read, so nothing is missed).
    pub fn join(&self, id: &str, who: Presence) -> broadcast::Receiver<Arc<str>> {
        let mut rooms = self.rooms();
        let room = rooms.entry(id.to_string()).or_insert_with(|| Room {
            tx: broadcast::channel(ROOM_BACKLOG).0,
            crowd: Crowd::default(),
            remote: Crowd::default(),
            last: 0,
        });
        let rx = room.tx.subscribe();
        Self::count(room, who, true);
        Self::send_crowd(room);
        rx
    }

    /// Leaves game `id`'s room, giving back the receiver [`Hub::join`]
    /// gave (dropped first: the room goes with its last receiver).
    pub fn leave(&self, id: &str, who: Presence, rx: broadcast::Receiver<Arc<str>>) {
        drop(rx);
        let mut rooms = self.rooms();
        let Some(room) = rooms.get_mut(id) else {
            return;
        };
        Self::count(room, who, false);
        if room.tx.receiver_count() == 0 {
            rooms.remove(id);
        } else {
            Self::send_crowd(room);
        }
    }

    /// Whether game `id` has sockets here.
    pub fn has(&self, id: &str) -> bool {
        self.rooms().contains_key(id)
    }

    /// Who is connected to game `id` through this process (nobody when it
    /// has no room here).
    pub fn local(&self, id: &str) -> Crowd {
        self.rooms().get(id).map(|r| r.crowd).unwrap_or_default()
    }

    /// Who is connected to game `id` through the other processes; the
    /// sockets here are told when that changes who is online.
    pub fn set_remote(&self, id: &str, remote: Crowd) {
        if let Some(room) = self.rooms().get_mut(id) {
            if room.remote != remote {
                room.remote = remote;
                Self::send_crowd(room);
            }
        }
    }

    fn count(room: &mut Room, who: Presence, join: bool) {
        let change = |n: &mut u32| {
            *n = if join {
                n.saturating_add(1)
            } else {
                n.saturating_sub(1)
            }
        };
        if who.white {
            change(&mut room.crowd.white);
        }
        if who.black {
            change(&mut room.crowd.black);
        }
        if !who.white && !who.black {
            change(&mut room.crowd.spectators);
        }
    }

    fn send_crowd(room: &Room) {
        let c = room.crowd.plus(room.remote);
        let d = CrowdNews {
            white: c.white > 0,
            black: c.black > 0,
            spectators: c.spectators,
        };
        let msg: Arc<str> = ServerMessage::Crowd { d }.to_text().into();
        let _ = room.tx.send(msg);
    }
}

/// The games domain tells the hub of every change.
impl crate::games::ChangeSink for Hub {
    fn publish(&self, id: &str, version: i64) {
        Hub::publish(self, id, version)
    }

    fn moved(&self, id: &str, version: i64, news: &MoveNews) {
        Hub::moved(self, id, version, news)
    }

    fn has(&self, id: &str) -> bool {
        Hub::has(self, id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_room_goes_with_its_last_socket() {
        let hub = Hub::default();
        let white = Presence {
            white: true,
            black: false,
        };
        let a = hub.join("game0001", white);
        let mut b = hub.join("game0001", Presence::default());
        assert_eq!(hub.games(), ["game0001"]);
        assert_eq!(
            hub.local("game0001"),
            Crowd {
                white: 1,
                black: 0,
                spectators: 1
            }
        );
        hub.leave("game0001", white, a);
        assert!(hub.has("game0001"));
        // The spectator hears that White left.
        let mut last = String::new();
        while let Ok(m) = b.try_recv() {
            last = m.to_string();
        }
        assert_eq!(
            last,
            r#"{"d":{"black":false,"spectators":1,"white":false},"t":"crowd"}"#
        );
        hub.leave("game0001", Presence::default(), b);
        assert!(!hub.has("game0001"));
        assert!(hub.games().is_empty());
    }
}
