//! Hop Chess's position text: the six FIDE fields, the trampolines
//! (`WHITE,BLACK`, each a square or `-`) and the turn's state, eight
//! fields in all. The state is `-` (a turn: piece move and placement),
//! `first` (White's first turn: a piece move only, H3) or `place` (the
//! piece move is made; the side to move must now place its trampoline; the
//! en-passant field then names the square skipped by the double step just
//! made, if any: the placement decides the right).
//!
//! SAN: a turn is the piece move and the placement square (`Nf6 d5`, H2);
//! in the `place` state a lone square (`d5`, `@d5`).

use super::{trampoline_move, trim_san, GameNotation};
use crate::error::{FenError, MoveError};
use crate::games::hopchess::{HopChess, FIRST, PLACE};
use crate::games::GameRules;
use crate::moves::Move;
use crate::notation::fen::{parse_fide_fields, parse_trampolines, trampolines_text};
use crate::position::Position;

impl GameNotation for HopChess {
    fn read_fen(fen: &str) -> Result<Position, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.is_empty() {
            return Err(FenError::Empty);
        }
        if fields.len() != 8 {
            return Err(FenError::FieldCount {
                expected: "8 (board, turn, castling, en passant, clocks, trampolines, state)",
                found: fields.len(),
            });
        }
        let mut setup = parse_fide_fields(HopChess::VARIANT, &fields[..6])?;
        setup.trampolines = parse_trampolines(fields[6])?;
        setup.phase = match fields[7] {
            "-" => 0,
            "first" => FIRST,
            "place" => PLACE,
            other => return Err(FenError::BadState(other.to_string())),
        };
        HopChess::from_setup(setup)
    }

    fn write_fen(pos: &Position) -> String {
        let state = if pos.is_first_turn() {
            "first"
        } else if pos.placement_pending() {
            "place"
        } else {
            "-"
        };
        format!("{} {} {state}", pos.fide_fen(), trampolines_text(pos))
    }

    fn parse_san_special(pos: &Position, text: &str) -> Option<Result<Vec<Move>, MoveError>> {
        if !pos.placement_pending() {
            return None;
        }
        let square = trim_san(text).trim_start_matches('@');
        Some(trampoline_move(pos, text, square).map(|m| vec![m]))
    }

    fn placement_follows(pos: &Position) -> bool {
        !pos.is_first_turn() && !pos.placement_pending()
    }

    fn seed_is_san(pos: &Position) -> bool {
        pos.placement_pending()
    }
}
