//! The syntax of long move notation (RULINGS N1-N6): [`UciMove`], read
//! from and written to text, and made from a move. Resolving it against a
//! position (`UciMove::to_move`) is the notation layer's, in
//! `notation/uci.rs`; this part needs no position, so that the layers below
//! the notation (`Game`'s errors) can name a move.

use crate::error::MoveError;
use crate::moves::{Move, MoveKind};
use crate::types::{Role, Square};
use std::fmt;
use std::str::FromStr;

/// A move in long notation, read but not yet checked against a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UciMove {
    /// `e2e4`, `e7e8q`, `g1f3d4` (a bounce path), `c2e3b` (a jump placing a
    /// bishop), each maybe followed by `@sq` (a Hop Chess placement).
    Normal {
        from: Square,
        /// Trampoline squares in order (at most two).
        via: Vec<Square>,
        to: Square,
        role: Option<Role>,
        place: Option<Square>,
    },
    /// `H@d1`: a piece from the reserve.
    Drop { role: Role, to: Square },
    /// `@e5`: a trampoline move.
    Trampoline { to: Square },
    /// `0000`.
    Pass,
}

fn parse_squares(text: &str) -> Option<Vec<Square>> {
    if !text.len().is_multiple_of(2) || !text.is_ascii() {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| text[i..i + 2].parse().ok())
        .collect()
}

impl FromStr for UciMove {
    type Err = MoveError;

    fn from_str(text: &str) -> Result<UciMove, MoveError> {
        let malformed = || MoveError::Malformed(text.to_string());
        if !text.is_ascii() || text.is_empty() || text.len() > 16 {
            return Err(malformed());
        }
        if text == "0000" {
            return Ok(UciMove::Pass);
        }
        if let Some(rest) = text.strip_prefix('@') {
            let to = rest.parse().map_err(|_| malformed())?;
            return Ok(UciMove::Trampoline { to });
        }
        if text.len() == 4 && &text[1..2] == "@" {
            let role = Role::from_char(text.as_bytes()[0] as char).ok_or_else(malformed)?;
            let to = text[2..].parse().map_err(|_| malformed())?;
            return Ok(UciMove::Drop { role, to });
        }
        let (body, place) = match text.split_once('@') {
            Some((body, place)) => (body, Some(place.parse().map_err(|_| malformed())?)),
            None => (text, None),
        };
        let (squares_text, role) = if !body.len().is_multiple_of(2) {
            let (s, r) = body.split_at(body.len() - 1);
            let c = r.chars().next().ok_or_else(malformed)?;
            if !c.is_ascii_lowercase() {
                return Err(malformed());
            }
            (s, Some(Role::from_char(c).ok_or_else(malformed)?))
        } else {
            (body, None)
        };
        let squares = parse_squares(squares_text).ok_or_else(malformed)?;
        if squares.len() < 2 || squares.len() > 4 {
            return Err(malformed());
        }
        Ok(UciMove::Normal {
            from: squares[0],
            via: squares[1..squares.len() - 1].to_vec(),
            to: squares[squares.len() - 1],
            role,
            place,
        })
    }
}

impl fmt::Display for UciMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UciMove::Normal {
                from,
                via,
                to,
                role,
                place,
            } => {
                write!(f, "{from}")?;
                for v in via {
                    write!(f, "{v}")?;
                }
                write!(f, "{to}")?;
                if let Some(r) = role {
                    write!(f, "{}", r.char())?;
                }
                if let Some(p) = place {
                    write!(f, "@{p}")?;
                }
                Ok(())
            }
            UciMove::Drop { role, to } => write!(f, "{}@{to}", role.upper_char()),
            UciMove::Trampoline { to } => write!(f, "@{to}"),
            UciMove::Pass => f.write_str("0000"),
        }
    }
}

impl UciMove {
    /// The notation of a move (its canonical path, ruling N3).
    pub fn from_move(m: Move) -> UciMove {
        match m.kind() {
            MoveKind::Pass => UciMove::Pass,
            MoveKind::Drop => UciMove::Drop {
                role: m.role().expect("a dropped piece"),
                to: m.to().expect("a drop square"),
            },
            MoveKind::Trampoline => UciMove::Trampoline {
                to: m.to().expect("a trampoline square"),
            },
            _ => UciMove::Normal {
                from: m.from().expect("an origin"),
                via: m.via().collect(),
                to: m.to().expect("a destination"),
                role: m.role(),
                place: m.place(),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn syntax_round_trip() {
        for text in [
            "e2e4", "e7e8q", "g1f3d4", "c6d4f5g3", "e7e8a4q", "g8f6@d5", "@e5", "H@d1", "c2e3b",
            "0000",
        ] {
            let m: UciMove = text.parse().unwrap();
            assert_eq!(m.to_string(), text);
        }
        for bad in [
            "", "e2", "e2e", "e2e9", "z1e2", "e2e4x", "e2e4Q", "@", "H@", "e2e4@", "é2e4",
        ] {
            assert!(bad.parse::<UciMove>().is_err(), "{bad}");
        }
    }
}
