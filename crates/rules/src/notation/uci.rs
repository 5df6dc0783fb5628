//! Long move notation (RULINGS N1-N6), as used by UCI and perft.
//!
//! Reading is two steps, as in shakmaty: [`UciMove`]'s `from_str` (its
//! syntax, in `moves/long.rs`) checks the syntax only ("malformed"), and
//! [`UciMove::to_move`] resolves it against a position's legal moves
//! ("illegal").

use super::turns::with_place;
use crate::error::MoveError;
pub use crate::moves::long::UciMove;
use crate::moves::{Move, MoveKind};
use crate::position::Position;
use crate::types::Square;

impl UciMove {
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
