//! What the bindings refuse, with the rules core's own reasons.

use springboard_rules::notation::pgn::PgnError;
use springboard_rules::{FenError, MoveError};
use thiserror::Error;

#[derive(Debug, Error)]
pub enum WasmError {
    #[error("unknown game '{0}'")]
    UnknownGame(String),
    #[error(transparent)]
    Fen(#[from] FenError),
    #[error(transparent)]
    Pgn(#[from] PgnError),
    #[error(transparent)]
    Move(#[from] MoveError),
    #[error("the game is over")]
    GameOver,
    #[error("bad search limits: {0}")]
    Limits(String),
    #[error("bad PGN tags: {0}")]
    Tags(String),
}
