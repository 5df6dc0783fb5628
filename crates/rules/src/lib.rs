//! # springboard-rules
//!
//! The rules of the five games Springboard plays: FIDE chess, Hop Chess,
//! Trampoline Chess, The Weak Square of the Jumping King and Hoplit Chess.
//! This crate knows nothing of search, user interfaces or protocols.
//!
//! Layers, each importing only the ones before it (see
//! `docs/architecture.md`):
//!
//! 1. Primitives: [`types`], [`bitboard`], [`attacks`], [`Board`],
//!    [`Move`] (every move shape of the five games, RULINGS P9 identity,
//!    and the syntax of its long notation), [`Variant`], [`error`].
//! 2. Position state: [`Position`], the whole state of a game.
//! 3. Games: one type per game implementing the `GameRules` trait (legal
//!    moves, playing, attacks, checking a setup), reached through one
//!    dispatch point; [`facts`] publishes rule facts for the other crates.
//!    On the games: [`Game`], a position with its history (repetition,
//!    C2), and [`perft`], move-tree counts.
//! 4. [`notation`]: position text (FEN), long notation (UCI, rulings
//!    N1-N6), SAN, PGN (which reads and writes a [`Game`]) and the seeds'
//!    old notation, each game's own forms in one file per game.
//!
//! Ruling ids (C1, P8, H6, ...) are defined in `docs/rules/` (start at
//! `docs/rules/README.md`): one section per id, with its example.

#![forbid(unsafe_code)]

pub mod attacks;
pub mod bitboard;
pub mod board;
pub mod error;
pub mod facts;
mod game;
mod games;
pub mod moves;
pub mod notation;
pub mod perft;
mod position;
pub mod types;
pub mod variant;
mod zobrist;

pub use bitboard::Bitboard;
pub use board::Board;
pub use error::{FenError, JumpingKingError, MaterialError, MoveError, VariantError};
pub use game::Game;
pub use games::CandidateContext;
pub use moves::{Move, MoveKind, MoveList};
pub use position::{Castling, DrawReason, Outcome, Position, WinReason};
pub use types::{Color, File, Piece, Rank, Role, Square};
pub use variant::Variant;
