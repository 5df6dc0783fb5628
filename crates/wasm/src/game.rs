//! A game in the browser: a position with its history (the rules core's
//! [`Game`]), read from a FEN or a PGN, played move by move and written
//! back. Moves are taken in long notation (what the server takes) or SAN.

use crate::error::WasmError;
use crate::views::{self, MoveView, PositionView, StepView};
use serde::{Deserialize, Serialize};
use springboard_rules::notation::pgn::{self, Player, Tags, VariantHint};
use springboard_rules::notation::{san::parse_san, san::to_san, uci::parse_uci};
use springboard_rules::{perft, Color, Game, Move, Position, Variant};

/// A move of the game: its long notation and its SAN.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct Played {
    pub uci: String,
    pub san: String,
}

/// Who played a side, for the PGN's `White`/`Black` and their types.
#[derive(Deserialize, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "lowercase", deny_unknown_fields)]
pub enum PlayerTag {
    Human(String),
    Engine { name: String, level: Option<u32> },
}

/// The tags of a written PGN (JSON): tags by name, in order, and the
/// players; the writer computes the rest (Result when the moves end the
/// game, Variant, SetUp, FEN).
#[derive(Deserialize, Debug, Clone, Default, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct PgnTags {
    #[serde(default)]
    pub tags: Vec<(String, String)>,
    pub white: Option<PlayerTag>,
    pub black: Option<PlayerTag>,
}

impl PgnTags {
    pub fn from_json(text: &str) -> Result<PgnTags, WasmError> {
        serde_json::from_str(text).map_err(|e| WasmError::Tags(e.to_string()))
    }
}

/// A game: its start, its moves and the current position.
#[derive(Clone, Debug)]
pub struct GameState {
    game: Game,
}

fn variant_of(name: &str) -> Result<Variant, WasmError> {
    Variant::from_name(name)
        .filter(|v| v.is_implemented())
        .ok_or_else(|| WasmError::UnknownGame(name.to_string()))
}

impl GameState {
    /// A game of `variant` (its name: `chess`, `hopchess`, ...) from `fen`,
    /// or from the game's start position.
    pub fn new(variant: &str, fen: Option<&str>) -> Result<GameState, WasmError> {
        let v = variant_of(variant)?;
        let start = match fen {
            Some(f) => Position::from_fen(v, f)?,
            None => Position::startpos(v),
        };
        Ok(GameState {
            game: Game::new(start),
        })
    }

    /// The first game of a PGN text; `variant` refuses a text of another
    /// game, `None` takes the game the text says (chess if it says none).
    pub fn from_pgn(text: &str, variant: Option<&str>) -> Result<GameState, WasmError> {
        let hint = match variant {
            Some(v) => VariantHint::Game(variant_of(v)?),
            None => VariantHint::Any,
        };
        let (game, _tags) = pgn::read(text, hint)?;
        Ok(GameState { game })
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    pub fn position(&self) -> &Position {
        self.game.position()
    }

    pub fn variant(&self) -> &'static str {
        self.position().variant().name()
    }

    pub fn fen(&self) -> String {
        self.position().to_fen()
    }

    /// The game as PGN, with the roster's default tags.
    pub fn pgn(&self) -> String {
        pgn::write(&self.game, &Tags::new())
    }

    /// The game as PGN with `tags` (a game the players ended, by a
    /// resignation, gives its `Result` and `Termination` here).
    pub fn pgn_tagged(&self, tags: &PgnTags) -> String {
        let mut out = Tags::new();
        for (name, value) in &tags.tags {
            out.set(name, value.clone());
        }
        for (color, player) in [(Color::White, &tags.white), (Color::Black, &tags.black)] {
            match player {
                Some(PlayerTag::Human(name)) => {
                    out.set_player(color, Player::Human(name));
                }
                Some(PlayerTag::Engine { name, level }) => {
                    out.set_player(
                        color,
                        Player::Engine {
                            name,
                            level: *level,
                        },
                    );
                }
                None => {}
            }
        }
        pgn::write(&self.game, &out)
    }

    pub fn view(&self) -> PositionView {
        views::position_view(&self.game)
    }

    /// The legal moves (none once the game is over).
    pub fn legal(&self) -> Vec<MoveView> {
        if self.game.outcome().is_some() {
            return Vec::new();
        }
        views::legal_views(self.position())
    }

    /// Hop Chess: the piece moves of the turn with the squares they change.
    pub fn steps(&self) -> Vec<StepView> {
        views::step_views(self.position())
    }

    /// The legal move that `text` names, in long notation or SAN.
    pub fn parse(&self, text: &str) -> Result<Move, WasmError> {
        let pos = self.position();
        let text = text.trim();
        match parse_uci(pos, text) {
            Ok(m) => Ok(m),
            Err(uci_err) => parse_san(pos, text).map_err(|_| WasmError::Move(uci_err)),
        }
    }

    /// SAN of the legal move that `text` names.
    pub fn san(&self, text: &str) -> Result<String, WasmError> {
        let m = self.parse(text)?;
        Ok(to_san(self.position(), m))
    }

    /// Plays the move that `text` names; returns it as the page sees it
    /// (read before it was played).
    pub fn play(&mut self, text: &str) -> Result<MoveView, WasmError> {
        if self.game.outcome().is_some() {
            return Err(WasmError::GameOver);
        }
        let m = self.parse(text)?;
        let view = views::move_view(self.position(), m);
        self.game.play(m)?;
        Ok(view)
    }

    /// Takes the last move back; returns its long notation.
    pub fn undo(&mut self) -> Option<String> {
        let before = self.game.positions().len().checked_sub(2)?;
        let pos = self.game.positions()[before].clone();
        self.game
            .undo()
            .map(|m| springboard_rules::notation::uci::to_uci(&pos, m))
    }

    /// The moves played, oldest first.
    pub fn moves(&self) -> Vec<Played> {
        self.game
            .moves()
            .iter()
            .zip(self.game.positions())
            .map(|(&m, pos)| Played {
                uci: springboard_rules::notation::uci::to_uci(pos, m),
                san: to_san(pos, m),
            })
            .collect()
    }

    /// The keys of the positions before the current one, oldest first
    /// (for the search's repetitions).
    pub fn history_keys(&self) -> Vec<u64> {
        let positions = self.game.positions();
        positions[..positions.len() - 1]
            .iter()
            .map(Position::hash)
            .collect()
    }

    /// The rules core's perft of the current position.
    pub fn perft(&self, depth: u32) -> u64 {
        perft::perft(self.position(), depth)
    }
}
