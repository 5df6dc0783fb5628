//! # springboard-rules
//!
//! The rules of the five games Springboard plays: FIDE chess, Hop Chess,
//! Trampoline Chess, The Weak Square of the Jumping King and Hoplit Chess.
//! This crate knows nothing of search, user interfaces or protocols.
//!
//! - [`types`], [`bitboard`], [`attacks`]: squares, pieces, sets of squares
//!   and attack tables.
//! - [`Board`]: where the pieces stand.
//! - [`Position`]: the whole state of a game; `games/` holds each game's
//!   rules (move generation and making moves).
//! - [`Move`]: every move shape of the five games (RULINGS P9 identity).
//! - [`notation`]: long notation (UCI, RULINGS N1-N6) and SAN.
//! - [`Game`]: a position with its history, for repetition.
//! - [`perft`]: move-tree counts.
//!
//! Ruling ids (C1, P8, H6, ...) refer to `shared/rules/RULINGS.md`, whose
//! decisions are collected for players in `docs/rules.md`.

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
pub use error::{FenError, JumpingKingError, MoveError, VariantError};
pub use game::Game;
pub use moves::{Move, MoveKind, MoveList};
pub use position::{Castling, DrawReason, Outcome, Position, WinReason};
pub use types::{Color, File, Piece, Rank, Role, Square};
pub use variant::Variant;
