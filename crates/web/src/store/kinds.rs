//! The kinds of a game's fields: how it is played ([`Mode`]), where it
//! stands ([`Status`]), where it comes from ([`Origin`]), and the colour texts of its engine seat and
//! offers. Each is stored and sent as the same lower-case text
//! (`as_str`, `FromStr`, serde), so the database rows and the JSON stay
//! as they are; a text the server does not know is an [`UnknownKind`].

use serde::Serialize;
use springboard_rules::Color;
use std::fmt;
use std::str::FromStr;

/// A text that names no kind of its field.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown {what} '{text}'")]
pub struct UnknownKind {
    /// The field: `game mode`, `game status`, `color`.
    pub what: &'static str,
    pub text: String,
}

/// A field of a game kept as one of a few texts.
pub trait Kind: Sized + Copy {
    /// The stored and sent text.
    fn text(self) -> &'static str;
    /// The kind a text names.
    fn from_text(text: &str) -> Result<Self, UnknownKind>;
}

/// How a game is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// One browser plays both sides (and may ask the engine for a move).
    Local,
    /// Against the server's engine.
    Engine,
    /// Two browsers, the second joining by the game's link.
    Friend,
}

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// A friend game whose second seat is free.
    Waiting,
    Playing,
    Ended,
}

/// Where a game comes from: what the games list shows it under.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Origin {
    /// A game played against the engine or a friend: the public lists.
    Played,
    /// A board of one browser (at one screen, an analysis board), started
    /// from a game's start.
    Analysis,
    /// A board of one browser started from a loaded FEN or PGN text.
    Imported,
}

impl Origin {
    pub const ALL: [Origin; 3] = [Origin::Played, Origin::Analysis, Origin::Imported];

    pub fn as_str(self) -> &'static str {
        match self {
            Origin::Played => "played",
            Origin::Analysis => "analysis",
            Origin::Imported => "imported",
        }
    }
}

impl Kind for Origin {
    fn text(self) -> &'static str {
        self.as_str()
    }
    fn from_text(text: &str) -> Result<Origin, UnknownKind> {
        find(&Origin::ALL, Origin::as_str, "game origin", text)
    }
}

impl Mode {
    pub const ALL: [Mode; 3] = [Mode::Local, Mode::Engine, Mode::Friend];

    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Local => "local",
            Mode::Engine => "engine",
            Mode::Friend => "friend",
        }
    }
}

impl Status {
    pub const ALL: [Status; 3] = [Status::Waiting, Status::Playing, Status::Ended];

    pub fn as_str(self) -> &'static str {
        match self {
            Status::Waiting => "waiting",
            Status::Playing => "playing",
            Status::Ended => "ended",
        }
    }
}

/// The text of a colour: `white` or `black`.
pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// The colour a text names, if any.
pub fn color_from(s: &str) -> Option<Color> {
    Color::ALL.into_iter().find(|&c| color_name(c) == s)
}

/// The first of `all` whose text is `text`.
fn find<T: Copy>(
    all: &[T],
    name: fn(T) -> &'static str,
    what: &'static str,
    text: &str,
) -> Result<T, UnknownKind> {
    all.iter()
        .copied()
        .find(|&k| name(k) == text)
        .ok_or_else(|| UnknownKind {
            what,
            text: text.to_string(),
        })
}

impl Kind for Mode {
    fn text(self) -> &'static str {
        self.as_str()
    }
    fn from_text(text: &str) -> Result<Mode, UnknownKind> {
        find(&Mode::ALL, Mode::as_str, "game mode", text)
    }
}

impl Kind for Status {
    fn text(self) -> &'static str {
        self.as_str()
    }
    fn from_text(text: &str) -> Result<Status, UnknownKind> {
        find(&Status::ALL, Status::as_str, "game status", text)
    }
}

impl Kind for Color {
    fn text(self) -> &'static str {
        color_name(self)
    }
    fn from_text(text: &str) -> Result<Color, UnknownKind> {
        find(&Color::ALL, color_name, "color", text)
    }
}

impl FromStr for Mode {
    type Err = UnknownKind;
    fn from_str(s: &str) -> Result<Mode, UnknownKind> {
        Mode::from_text(s)
    }
}

impl FromStr for Status {
    type Err = UnknownKind;
    fn from_str(s: &str) -> Result<Status, UnknownKind> {
        Status::from_text(s)
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The texts are the stored and sent ones, read back as they are
    /// written; serde writes the same text as `as_str`.
    #[test]
    fn kinds_round_trip_through_their_texts() {
        for m in Mode::ALL {
            assert_eq!(m.as_str().parse::<Mode>(), Ok(m));
            assert_eq!(
                serde_json::to_value(m).unwrap(),
                serde_json::json!(m.as_str())
            );
        }
        for s in Status::ALL {
            assert_eq!(s.as_str().parse::<Status>(), Ok(s));
            assert_eq!(
                serde_json::to_value(s).unwrap(),
                serde_json::json!(s.as_str())
            );
        }
        for c in Color::ALL {
            assert_eq!(Color::from_text(color_name(c)), Ok(c));
            assert_eq!(color_from(color_name(c)), Some(c));
        }
        let texts: Vec<&str> = Mode::ALL.iter().map(|m| m.as_str()).collect();
        assert_eq!(texts, ["local", "engine", "friend"]);
        let texts: Vec<&str> = Status::ALL.iter().map(|s| s.as_str()).collect();
        assert_eq!(texts, ["waiting", "playing", "ended"]);
        for o in Origin::ALL {
            assert_eq!(Origin::from_text(o.as_str()), Ok(o));
            assert_eq!(
                serde_json::to_value(o).unwrap(),
                serde_json::json!(o.as_str())
            );
        }
        let texts: Vec<&str> = Origin::ALL.iter().map(|o| o.as_str()).collect();
        assert_eq!(texts, ["played", "analysis", "imported"]);
    }

    #[test]
    fn unknown_texts_are_refused_with_their_field() {
        let e = "blitz".parse::<Mode>().unwrap_err();
        assert_eq!(e.to_string(), "unknown game mode 'blitz'");
        let e = "Playing".parse::<Status>().unwrap_err();
        assert_eq!(e.to_string(), "unknown game status 'Playing'");
        let e = Color::from_text("red").unwrap_err();
        assert_eq!(e.to_string(), "unknown color 'red'");
        assert_eq!(color_from("red"), None);
    }
}
