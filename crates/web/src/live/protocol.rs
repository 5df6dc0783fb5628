//! The messages of a game's WebSocket, both ways, as serde enums: the
//! server, the load tool (`examples/load/`) and the tests speak them. The
//! exact text of each kind is in `tests/fixtures/ws/`, which the Rust tests
//! and the page's test (`e2e/tests/protocol.test.js`) both read.
//!
//! Every message is a JSON object tagged by `t`. On the wire the keys come
//! in sorted order (`to_text` writes through `serde_json::Value`), as they
//! always have; readers must not depend on it.

use crate::games::kinds::color_name;
use crate::games::news::MoveNews;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;
use springboard_rules::Color;

/// What the server sends.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "lowercase")]
pub enum ServerMessage {
    /// The game is now at version `v` (the page re-reads it when newer):
    /// a change other than one move (a seat taken, an offer, a takeback,
    /// a resignation, a fallen flag), a catch-up, or a change another
    /// server process made.
    State { v: i64 },
    /// One move was played and the game is now at version `v`: the page
    /// at version `v - 1` plays it itself, else re-reads the game.
    Move { d: PlayedNews, v: i64 },
    /// Who is connected to the game changed.
    Crowd { d: CrowdNews },
    /// The answer to a ping.
    Pong,
    /// A move was played: `a` is the client's ack (null when it gave none)
    /// and `v` the game's version after it.
    Ack {
        #[serde(default)]
        a: Value,
        v: i64,
    },
    /// A message was refused: `a` is the client's ack when it gave one.
    Error {
        #[serde(
            default,
            deserialize_with = "present",
            skip_serializing_if = "Option::is_none"
        )]
        a: Option<Value>,
        d: ErrorNews,
    },
}

/// A move played, as the game stands after it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayedNews {
    /// The move in long notation (RULINGS N1-N6) and in SAN.
    pub uci: String,
    pub san: String,
    /// The number of moves played with it.
    pub ply: usize,
    /// The clocks just after it (absent without a clock).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<ClockNews>,
    /// `playing`, or `ended` when the move ended the game.
    pub status: String,
    /// The result and reason of the end the move made.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The offers standing after it (a move declines a draw offer).
    pub offers: OfferNews,
}

/// The clocks just after a move, as the game view's `clock` has them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockNews {
    pub white_ms: i64,
    pub black_ms: i64,
    /// `white` or `black`: the side whose clock runs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub running: Option<String>,
    /// When the running side's time runs out (server ms).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deadline: Option<i64>,
}

/// The draw and takeback offers after a move (`white`, `black` or null).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OfferNews {
    pub draw: Option<String>,
    pub takeback: Option<String>,
}

impl From<&MoveNews> for PlayedNews {
    fn from(n: &MoveNews) -> PlayedNews {
        let name = |c: Option<Color>| c.map(|c| color_name(c).to_string());
        PlayedNews {
            uci: n.uci.clone(),
            san: n.san.clone(),
            ply: n.ply,
            clock: n.clock.map(|c| ClockNews {
                white_ms: c.white_ms,
                black_ms: c.black_ms,
                running: name(c.running),
                deadline: c.deadline,
            }),
            status: n.status.as_str().to_string(),
            result: n.result.clone(),
            reason: n.reason.clone(),
            offers: OfferNews {
                draw: name(n.draw_offer),
                takeback: name(n.takeback_offer),
            },
        }
    }
}

/// The seats held by a connected socket, and how many watch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CrowdNews {
    pub white: bool,
    pub black: bool,
    pub spectators: u32,
}

/// Why a message was refused.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorNews {
    pub error: String,
}

/// What a client sends.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "lowercase")]
pub enum ClientMessage {
    /// Are you there? (answered with a pong)
    Ping,
    /// Play a move; `a`, any JSON value, comes back in the ack or error.
    Move {
        d: MoveRequest,
        #[serde(
            default,
            deserialize_with = "present",
            skip_serializing_if = "Option::is_none"
        )]
        a: Option<Value>,
    },
}

/// A move in long notation (`u`), at ply `ply` when given (the move is
/// refused as stale when the game has moved on).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveRequest {
    pub u: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ply: Option<usize>,
}

/// The longest move text a client may send.
pub const MAX_MOVE_TEXT: usize = 64;

/// A client message the server refuses: the ack to echo (when the message
/// had one) and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Refusal {
    pub ack: Option<Value>,
    pub reason: String,
}

impl Refusal {
    fn new(ack: Option<&Value>, reason: impl Into<String>) -> Refusal {
        Refusal {
            ack: ack.cloned(),
            reason: reason.into(),
        }
    }
}

/// A field that is there, null included, is `Some` (an error echoes
/// `"a":null` when the client sent it).
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

/// The text of a message (keys sorted, as `serde_json::Value` writes them).
fn text<T: Serialize>(msg: &T) -> String {
    match serde_json::to_value(msg) {
        Ok(v) => v.to_string(),
        // Only maps with keys other than strings fail; these have none.
        Err(e) => unreachable!("a socket message is JSON: {e}"),
    }
}

impl ServerMessage {
    /// A refusal, with the client's ack when it gave one.
    pub fn error(ack: Option<Value>, reason: impl Into<String>) -> ServerMessage {
        ServerMessage::Error {
            a: ack,
            d: ErrorNews {
                error: reason.into(),
            },
        }
    }

    /// The message as sent.
    pub fn to_text(&self) -> String {
        text(self)
    }

    /// A message as received.
    pub fn parse(text: &str) -> serde_json::Result<ServerMessage> {
        serde_json::from_str(text)
    }
}

impl ClientMessage {
    /// The message as sent.
    pub fn to_text(&self) -> String {
        text(self)
    }

    /// Reads a client's message, or says why it is refused (the reasons the
    /// page and the tests know: malformed JSON, no or an unknown type `t`, a
    /// move without `d.u` or with a `d.ply` that is not a whole number).
    /// Fields it does not know are ignored.
    pub fn parse(text: &str) -> Result<ClientMessage, Refusal> {
        let Ok(msg) = serde_json::from_str::<Value>(text) else {
            return Err(Refusal::new(None, "malformed JSON"));
        };
        let ack = msg.get("a");
        match msg.get("t").and_then(Value::as_str) {
            Some("ping") => Ok(ClientMessage::Ping),
            Some("move") => {
                let d = msg.get("d");
                let u = d.and_then(|d| d.get("u")).and_then(Value::as_str);
                let ply = match d.and_then(|d| d.get("ply")) {
                    None | Some(Value::Null) => None,
                    Some(p) => match p.as_u64().and_then(|p| usize::try_from(p).ok()) {
                        Some(p) => Some(p),
                        None => return Err(Refusal::new(ack, "ply must be a whole number")),
                    },
                };
                let Some(u) = u.filter(|u| u.len() <= MAX_MOVE_TEXT) else {
                    return Err(Refusal::new(
                        ack,
                        "a move needs d.u, the move in long notation",
                    ));
                };
                Ok(ClientMessage::Move {
                    d: MoveRequest {
                        u: u.to_string(),
                        ply,
                    },
                    a: ack.cloned(),
                })
            }
            Some(other) => Err(Refusal::new(ack, format!("unknown message type '{other}'"))),
            None => Err(Refusal::new(ack, "a message needs a type t")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn server_messages_are_written_as_before() {
        // The text the json! literals wrote before these enums.
        let cases = [
            (ServerMessage::State { v: 7 }, json!({"t": "state", "v": 7})),
            (ServerMessage::Pong, json!({"t": "pong"})),
            (
                ServerMessage::Ack { a: json!(3), v: 9 },
                json!({"t": "ack", "a": 3, "v": 9}),
            ),
            (
                ServerMessage::Ack {
                    a: Value::Null,
                    v: 9,
                },
                json!({"t": "ack", "a": null, "v": 9}),
            ),
            (
                ServerMessage::error(Some(json!("x")), "illegal"),
                json!({"t": "error", "a": "x", "d": {"error": "illegal"}}),
            ),
            (
                ServerMessage::error(Some(Value::Null), "illegal"),
                json!({"t": "error", "a": null, "d": {"error": "illegal"}}),
            ),
            (
                ServerMessage::error(None, "malformed JSON"),
                json!({"t": "error", "d": {"error": "malformed JSON"}}),
            ),
            (
                ServerMessage::Crowd {
                    d: CrowdNews {
                        white: true,
                        black: false,
                        spectators: 2,
                    },
                },
                json!({"t": "crowd", "d": {"white": true, "black": false, "spectators": 2}}),
            ),
        ];
        for (msg, before) in cases {
            assert_eq!(msg.to_text(), before.to_string());
            assert_eq!(ServerMessage::parse(&msg.to_text()).unwrap(), msg);
        }
    }

    #[test]
    fn client_messages_are_read_as_serde_reads_them() {
        for text in [
            r#"{"t":"ping"}"#,
            r#"{"t":"ping","a":4}"#,
            r#"{"t":"move","d":{"u":"e2e4"}}"#,
            r#"{"t":"move","d":{"u":"e2e4","ply":null},"a":null}"#,
            r#"{"t":"move","d":{"u":"e2e4","ply":3},"a":{"k":[1]},"x":1}"#,
        ] {
            let ours = ClientMessage::parse(text).unwrap();
            let serde: ClientMessage = serde_json::from_str(text).unwrap();
            assert_eq!(ours, serde, "{text}");
        }
    }

    #[test]
    fn refused_client_messages_say_why() {
        let refused = |text: &str| ClientMessage::parse(text).unwrap_err();
        assert_eq!(refused("{").reason, "malformed JSON");
        assert_eq!(refused("{").ack, None);
        assert_eq!(refused("[1]").reason, "a message needs a type t");
        assert_eq!(refused(r#"{"t":1,"a":2}"#).ack, Some(json!(2)));
        assert_eq!(
            refused(r#"{"t":"jump","a":null}"#),
            Refusal::new(Some(&Value::Null), "unknown message type 'jump'")
        );
        assert_eq!(
            refused(r#"{"t":"move","d":{"u":"e2e4","ply":-1}}"#).reason,
            "ply must be a whole number"
        );
        assert_eq!(
            refused(r#"{"t":"move","d":{"u":5}}"#).reason,
            "a move needs d.u, the move in long notation"
        );
        let long = format!(r#"{{"t":"move","d":{{"u":"{}"}}}}"#, "a".repeat(65));
        assert_eq!(
            refused(&long).reason,
            "a move needs d.u, the move in long notation"
        );
    }
}
