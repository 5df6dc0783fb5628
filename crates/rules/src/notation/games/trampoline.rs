//! Trampoline Chess's position text: the six FIDE fields, then the
//! trampolines (`WHITE,BLACK`, each a square or `-`), seven fields in all;
//! and its SAN trampoline move `Tf3` (also `@f3`).

use super::{trampoline_move, trim_san, GameNotation};
use crate::error::{FenError, MoveError};
use crate::games::trampoline::Trampoline;
use crate::games::GameRules;
use crate::moves::Move;
use crate::notation::fen::{parse_fide_fields, parse_trampolines, trampolines_text};
use crate::position::Position;

impl GameNotation for Trampoline {
    fn read_fen(fen: &str) -> Result<Position, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.is_empty() {
            return Err(FenError::Empty);
        }
        if fields.len() != 7 {
            return Err(FenError::FieldCount {
                expected: "7 (board, turn, castling, en passant, clocks, trampolines)",
                found: fields.len(),
            });
        }
        let mut setup = parse_fide_fields(Trampoline::VARIANT, &fields[..6])?;
        setup.trampolines = parse_trampolines(fields[6])?;
        Trampoline::from_setup(setup)
    }

    fn write_fen(pos: &Position) -> String {
        format!("{} {}", pos.fide_fen(), trampolines_text(pos))
    }

    fn parse_san_special(pos: &Position, text: &str) -> Option<Result<Vec<Move>, MoveError>> {
        let trimmed = trim_san(text);
        let square = trimmed
            .strip_prefix('T')
            .or_else(|| trimmed.strip_prefix('@'))?;
        Some(trampoline_move(pos, text, square).map(|m| vec![m]))
    }
}
