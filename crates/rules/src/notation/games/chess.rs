//! FIDE chess's position text: the six FEN fields (or four).

use super::GameNotation;
use crate::error::FenError;
use crate::games::chess::Chess;
use crate::games::GameRules;
use crate::notation::fen::parse_fide_fen;
use crate::position::Position;

impl GameNotation for Chess {
    fn read_fen(fen: &str) -> Result<Position, FenError> {
        Chess::from_setup(parse_fide_fen(Chess::VARIANT, fen)?)
    }

    fn write_fen(pos: &Position) -> String {
        pos.fide_fen()
    }
}
