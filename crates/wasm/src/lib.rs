//! # springboard-wasm
//!
//! The rules core and the engine for the browser, built to WebAssembly by
//! `scripts/wasm.sh` and embedded in the play server's page (see
//! `docs/architecture.md`, "The rules in the browser"). The rules core and
//! the engine know nothing of it.
//!
//! - [`views`]: the display data of a position and its legal moves, in the
//!   play server's game-view shapes.
//! - [`game`]: a game read from FEN or PGN, played, written back, perft.
//! - [`search`]: the engine with one thread, its progress to a callback.
//! - `bindings` (wasm32 only): the JavaScript classes `Game` and `Analyser`.

#![forbid(unsafe_code)]

#[cfg(target_arch = "wasm32")]
mod bindings;
pub mod error;
pub mod game;
pub mod search;
pub mod views;

pub use error::WasmError;
pub use game::GameState;
