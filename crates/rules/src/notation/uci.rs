//! Long move notation (RULINGS N1-N6), as used by UCI and perft.
//!
//! Reading is two steps, as in shakmaty: [`UciMove::from_str`] checks the
//! syntax only ("malformed"), and [`UciMove::to_move`] resolves it against a
//! position's legal moves ("illegal").

use super::turns::with_place;
use crate::error::MoveError;
use crate::moves::{Move, MoveKind};
use crate::position::Position;
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

    /// Resolves the notation against the legal moves of `pos`.
    pub fn to_move(&self, pos: &Position) -> Result<Move, MoveError> {
        let illegal = || MoveError::Illegal(self.to_string());
        // A Hop Chess turn: its piece move is found among the steps, then
        // its placement is checked (cheaper than listing every turn).
        let split = pos.splits_turn();
        let mut legal = Vec::new();
        if split {
            pos.legal_steps_into(&mut legal);
        } else {
            pos.legal_moves_into(&mut legal);
        }
        let place_ok = |m: &Move, place: &Option<Square>| split || m.place() == *place;
        let found = match self {
            UciMove::Pass => legal.iter().find(|m| m.kind() == MoveKind::Pass),
            UciMove::Drop { role, to } => legal.iter().find(|m| {
                m.kind() == MoveKind::Drop && m.role() == Some(*role) && m.to() == Some(*to)
            }),
            UciMove::Trampoline { to } => legal
                .iter()
                .find(|m| m.kind() == MoveKind::Trampoline && m.to() == Some(*to)),
            UciMove::Normal {
                from,
                via,
                to,
                role,
                place,
            } => {
                if !via.is_empty() {
                    // N3: any valid path names the move; a bounce is never
                    // a double step or an en-passant capture (P5).
                    if !crate::games::bounce::path_exists(pos, *from, via, *to, *role) {
                        return Err(illegal());
                    }
                    legal.iter().find(|m| {
                        m.kind() == MoveKind::Normal
                            && m.from() == Some(*from)
                            && m.to() == Some(*to)
                            && m.role() == *role
                            && place_ok(m, place)
                    })
                } else {
                    legal.iter().find(|m| {
                        m.from() == Some(*from)
                            && m.to() == Some(*to)
                            && m.role() == *role
                            && place_ok(m, place)
                            && !m.is_bounce()
                    })
                }
            }
        };
        match (found, self) {
            (Some(&step), UciMove::Normal { place, .. }) if split => match place {
                Some(_) => with_place(pos, &self.to_string(), step, *place),
                // A piece move without its placement: say so.
                None => Err(needs_placement(pos, &self.to_string(), step)),
            },
            (Some(&m), _) => Ok(m),
            (None, _) => Err(illegal()),
        }
    }
}

/// The error for a Hop Chess piece move `step` (read from `text`) given
/// without the square of the trampoline after the turn: it shows the turn
/// with a legal placement, the trampoline kept where it stands if it can be.
pub(crate) fn needs_placement(pos: &Position, text: &str, step: Move) -> MoveError {
    let turns: Vec<Move> = pos
        .legal_moves()
        .into_iter()
        .filter(|m| m.piece_part() == step.piece_part())
        .collect();
    let kept = pos.trampoline(pos.turn());
    let example = turns
        .iter()
        .find(|m| m.place().is_some() && m.place() == kept)
        .or_else(|| turns.first())
        .map(|&m| {
            let place = m.place().map(|p| p.to_string()).unwrap_or_default();
            if text.parse::<UciMove>().is_ok() {
                format!("{text}@{place}")
            } else {
                format!("{} {place}", text.trim())
            }
        })
        .unwrap_or_else(|| format!("{}@<square>", text.trim()));
    MoveError::NeedsPlacement {
        text: text.trim().to_string(),
        example,
    }
}

impl Position {
    /// Plays `m` if it is legal, else leaves the position as it was (the
    /// error names the move in long notation).
    pub fn play_checked(&mut self, m: Move) -> Result<(), MoveError> {
        match self.legal_moves().into_iter().find(|&l| l == m) {
            Some(legal) => {
                self.play(legal);
                Ok(())
            }
            None => Err(MoveError::Illegal(to_uci(self, m))),
        }
    }
}

/// The long notation of a move.
pub fn to_uci(_pos: &Position, m: Move) -> String {
    UciMove::from_move(m).to_string()
}

/// Reads a move in long notation and resolves it in `pos`.
pub fn parse_uci(pos: &Position, text: &str) -> Result<Move, MoveError> {
    text.parse::<UciMove>()?.to_move(pos)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;

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

    #[test]
    fn resolves_against_position() {
        let pos = Position::startpos(Variant::Chess);
        let m = parse_uci(&pos, "e2e4").unwrap();
        assert_eq!(m.kind(), MoveKind::DoubleStep);
        assert!(matches!(
            parse_uci(&pos, "e2e5"),
            Err(MoveError::Illegal(_))
        ));
        assert!(matches!(
            parse_uci(&pos, "e2e"),
            Err(MoveError::Malformed(_))
        ));
    }
}
