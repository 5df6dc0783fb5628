//! Text: position text (FEN), the long move notation of RULINGS N1-N6
//! (UCI), SAN, PGN and the seeds' old notation. The top layer: it reads and
//! writes what the games (`crate::games`) define, and no game imports it.
//! Each game's own text forms are in `games/`, one file per game.

pub(crate) mod fen;
pub(crate) mod games;
pub mod missing;
pub mod pgn;
mod position_text;
pub mod san;
pub mod seed;
mod shape;
mod turns;
pub mod uci;
