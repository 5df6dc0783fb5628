//! Position text of the trampoline games (Hop Chess, Trampoline Chess):
//! the six FIDE fields, then the trampolines, then (Hop Chess only) the
//! turn's state. See docs/rules/hopchess.md and docs/rules/trampoline.md.
//!
//! - trampolines: `WHITE,BLACK`, each a square or `-` (off the board):
//!   `-,-`, `e1,b4`, `d5,-`.
//! - Hop Chess state: `-` (a turn: piece move and placement), `first`
//!   (White's first turn: a piece move only, H3) or `place` (the piece
//!   move is made; the side to move must now place its trampoline). In the
//!   `place` state the en-passant field names the square skipped by the
//!   double step just made, if any: the right is decided by the placement.

use super::Position;
use crate::error::FenError;
use crate::games::{bounce, hopchess, trampoline};
use crate::types::{Color, Piece, Role, Square};
use crate::variant::Variant;

fn parse_trampolines(text: &str) -> Result<[Option<Square>; 2], FenError> {
    let bad = || FenError::BadTrampolines(text.to_string());
    let parts: Vec<&str> = text.split(',').collect();
    if parts.len() != 2 {
        return Err(bad());
    }
    let mut out = [None; 2];
    for (i, part) in parts.iter().enumerate() {
        out[i] = match *part {
            "-" => None,
            sq => Some(sq.parse::<Square>().map_err(|_| bad())?),
        };
    }
    Ok(out)
}

impl Position {
    /// Reads a Hop Chess (8 fields) or Trampoline Chess (7 fields) text.
    pub(crate) fn from_trampoline_fen(variant: Variant, fen: &str) -> Result<Position, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.is_empty() {
            return Err(FenError::Empty);
        }
        let hop = variant == Variant::HopChess;
        let expected = if hop { 8 } else { 7 };
        if fields.len() != expected {
            return Err(FenError::FieldCount {
                expected: if hop {
                    "8 (board, turn, castling, en passant, clocks, trampolines, state)"
                } else {
                    "7 (board, turn, castling, en passant, clocks, trampolines)"
                },
                found: fields.len(),
            });
        }
        let (mut pos, ep_claim) = Position::parse_fide_fields(variant, &fields[..6])?;
        pos.validate_men()?;
        let tramps = parse_trampolines(fields[6])?;
        for c in Color::ALL {
            if let Some(t) = tramps[c.index()] {
                if let Some(p) = pos.board.piece_at(t) {
                    return Err(FenError::TrampolineOnPiece {
                        owner: c.name(),
                        square: t.to_string(),
                        piece: p.char(),
                    });
                }
            }
        }
        if let [Some(a), Some(b)] = tramps {
            if a == b {
                return Err(FenError::TrampolinesOnOneSquare(a.to_string()));
            }
        }
        pos.trampolines = tramps;
        if hop {
            pos.phase = match fields[7] {
                "-" => 0,
                "first" => hopchess::FIRST,
                "place" => hopchess::PLACE,
                other => return Err(FenError::BadState(other.to_string())),
            };
            if pos.phase == hopchess::FIRST
                && (pos.turn != Color::White || tramps.iter().any(Option::is_some))
            {
                return Err(FenError::Invalid(
                    "state 'first' (White's first turn, H3) needs White to move and both \
                     trampolines off the board"
                        .to_string(),
                ));
            }
        }
        let rules = if hop { bounce::HOP } else { bounce::TRAMPOLINE };
        if pos.placement_pending() {
            if !hopchess::placement_possible(&pos) {
                return Err(FenError::Invalid(format!(
                    "state 'place': no placement leaves the {} king safe",
                    pos.turn.name()
                )));
            }
            if let Some(ep) = ep_claim {
                // The side to move has just double-stepped over `ep`.
                let bad = || FenError::ImpossibleEnPassant(ep.to_string());
                let (rank, dir) = match pos.turn {
                    Color::White => (2, 1),
                    Color::Black => (5, -1),
                };
                let pawn_sq = ep.offset(0, dir).ok_or_else(bad)?;
                let origin = ep.offset(0, -dir).ok_or_else(bad)?;
                if ep.rank().index() != rank
                    || pos.board.piece_at(pawn_sq) != Some(Piece::new(pos.turn, Role::Pawn))
                    || pos.board.piece_at(ep).is_some()
                    || pos.board.piece_at(origin).is_some()
                {
                    return Err(bad());
                }
                pos.ep_square = Some(ep);
            }
        } else {
            let them = !pos.turn;
            if let Some(k) = pos.board.king_of(them) {
                if bounce::is_attacked(&pos.board, tramps, rules, k, pos.turn) {
                    return Err(FenError::OppositeCheck(them.name()));
                }
            }
            if let Some(ep) = ep_claim {
                pos.validate_ep_claim(ep)?;
                let possible = if hop {
                    hopchess::ep_capture_possible(&pos, ep)
                } else {
                    trampoline::ep_capture_possible(&pos, ep)
                };
                if possible {
                    pos.ep_square = Some(ep);
                }
            }
            if hop {
                hopchess::update_checkers(&mut pos);
            } else {
                trampoline::update_checkers(&mut pos);
            }
        }
        pos.hash = pos.compute_hash();
        Ok(pos)
    }

    /// Writes a Hop Chess or Trampoline Chess position text.
    pub(crate) fn trampoline_fen(&self) -> String {
        let mut out = self.fide_fen();
        out.push(' ');
        for (i, t) in self.trampolines.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            match t {
                Some(t) => out.push_str(&t.to_string()),
                None => out.push('-'),
            }
        }
        if self.variant == Variant::HopChess {
            out.push_str(if self.is_first_turn() {
                " first"
            } else if self.placement_pending() {
                " place"
            } else {
                " -"
            });
        }
        out
    }
}
