//! The rules of each game, one module per game. A game module generates the
//! legal moves of a [`crate::Position`] of its variant and plays them.

pub(crate) mod bounce;
pub(crate) mod chess;
pub(crate) mod hopchess;
pub(crate) mod hoplit;
pub(crate) mod jumpingking;
pub(crate) mod trampoline;
