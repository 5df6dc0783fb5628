//! The JavaScript classes (wasm32 only): `Game` and `Analyser`, thin
//! wrappers over [`GameState`] and [`crate::search::Analyser`]. Structured
//! answers are JSON texts (the page parses them); failures throw an `Error`
//! with the rules core's reason.

use crate::game::{GameState, PgnTags};
use crate::search::{self, SearchLimits};
use serde::Serialize;
use wasm_bindgen::prelude::*;

fn json<T: Serialize>(value: &T) -> String {
    // Our views are strings, numbers and lists: serialising cannot fail.
    serde_json::to_string(value).unwrap_or_else(|_| "null".to_string())
}

fn fail(e: impl std::fmt::Display) -> JsError {
    JsError::new(&e.to_string())
}

/// A game: a position with its history.
#[wasm_bindgen]
pub struct Game {
    state: GameState,
}

#[wasm_bindgen]
impl Game {
    /// A game of `variant` (`chess`, `hopchess`, `trampoline`,
    /// `jumpingking`, `hoplit`) from `fen`, or from its start position.
    #[wasm_bindgen(constructor)]
    pub fn new(variant: &str, fen: Option<String>) -> Result<Game, JsError> {
        let state = GameState::new(variant, fen.as_deref()).map_err(fail)?;
        Ok(Game { state })
    }

    /// The first game of a PGN text (of `variant` if given).
    #[wasm_bindgen(js_name = fromPgn)]
    pub fn from_pgn(text: &str, variant: Option<String>) -> Result<Game, JsError> {
        let state = GameState::from_pgn(text, variant.as_deref()).map_err(fail)?;
        Ok(Game { state })
    }

    pub fn variant(&self) -> String {
        self.state.variant().to_string()
    }

    pub fn fen(&self) -> String {
        self.state.fen()
    }

    pub fn pgn(&self) -> String {
        self.state.pgn()
    }

    /// The game as PGN with the tags of `tags` (JSON `{tags: [[name,
    /// value], ...], white, black}`, each player `{human: name}` or
    /// `{engine: {name, level}}`).
    #[wasm_bindgen(js_name = pgnTagged)]
    pub fn pgn_tagged(&self, tags: &str) -> Result<String, JsError> {
        let tags = PgnTags::from_json(tags).map_err(fail)?;
        Ok(self.state.pgn_tagged(&tags))
    }

    /// JSON: the current position as the page draws it (board, legal
    /// moves, half-steps, check, outcome).
    pub fn view(&self) -> String {
        json(&self.state.view())
    }

    /// JSON: the legal moves with their display data.
    pub fn legal(&self) -> String {
        json(&self.state.legal())
    }

    /// JSON: Hop Chess's piece moves of the turn with the squares they change.
    pub fn steps(&self) -> String {
        json(&self.state.steps())
    }

    /// JSON: the moves played, each `{uci, san}`.
    pub fn moves(&self) -> String {
        json(&self.state.moves())
    }

    /// SAN of the legal move `text` (long notation or SAN).
    pub fn san(&self, text: &str) -> Result<String, JsError> {
        self.state.san(text).map_err(fail)
    }

    /// Plays `text` (long notation or SAN); JSON: the move as the page sees it.
    pub fn play(&mut self, text: &str) -> Result<String, JsError> {
        self.state.play(text).map(|m| json(&m)).map_err(fail)
    }

    /// Takes the last move back: its long notation, or undefined at the start.
    pub fn undo(&mut self) -> Option<String> {
        self.state.undo()
    }

    pub fn perft(&self, depth: u32) -> u64 {
        self.state.perft(depth)
    }

    #[wasm_bindgen(js_name = clone)]
    pub fn duplicate(&self) -> Game {
        Game {
            state: self.state.clone(),
        }
    }
}

/// The engine: one search thread and its transposition table.
#[wasm_bindgen]
pub struct Analyser {
    inner: search::Analyser,
}

#[wasm_bindgen]
impl Analyser {
    /// An engine with a `hash_mb` megabyte table.
    #[wasm_bindgen(constructor)]
    pub fn new(hash_mb: usize) -> Analyser {
        Analyser {
            inner: search::Analyser::new(hash_mb),
        }
    }

    #[wasm_bindgen(js_name = newGame)]
    pub fn new_game(&mut self) {
        self.inner.new_game();
    }

    /// Searches `game`'s position within `limits` (JSON `{depth, nodes,
    /// movetime, multipv, level}`, each optional; `level` plays as the
    /// server's engine plays that level). `on_info` is called with each
    /// report (JSON) and returns true to stop. Returns the result (JSON).
    pub fn search(
        &mut self,
        game: &Game,
        limits: &str,
        on_info: &js_sys::Function,
    ) -> Result<String, JsError> {
        let limits = SearchLimits::from_json(limits).map_err(fail)?;
        let mut report = |info: &search::InfoView| {
            let text = JsValue::from_str(&json(info));
            // A callback that throws stops the search.
            match on_info.call1(&JsValue::NULL, &text) {
                Ok(v) => v.is_truthy(),
                Err(_) => true,
            }
        };
        let result = self.inner.search(&game.state, &limits, &mut report);
        Ok(json(&result))
    }
}
