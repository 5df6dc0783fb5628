//! Reading game texts like those of the seed pages (shared/seeds/games/):
//! move numbers, `;` comments, and the old notations described in
//! shared/rules/SEED-GAMES.md. Every move is resolved against the legal
//! moves of the position; a text that fits several moves is an error that
//! names the candidates, never a guess.

use crate::error::MoveError;
use crate::moves::Move;
use crate::notation::san::parse_san;
use crate::position::{Outcome, Position};

/// The move tokens of a game text, without move numbers, comments and the
/// closing result or `resign`.
pub fn tokens(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.split(';').next().unwrap_or("");
        for word in line.split_whitespace() {
            // "12." and "12..." are move numbers; "12.e4" carries a move;
            // "0-0" is castling.
            let digits = word.len() - word.trim_start_matches(|c: char| c.is_ascii_digit()).len();
            let word = if digits > 0 && word[digits..].starts_with('.') {
                word[digits..].trim_start_matches('.')
            } else {
                word
            };
            let word = word.trim();
            if word.is_empty() {
                continue;
            }
            if matches!(word, "resign" | "resigns" | "1-0" | "0-1" | "1/2-1/2" | "*") {
                return out;
            }
            out.push(word.to_string());
        }
    }
    out
}

/// Reads the next move of a game text at `pos`, taking as many tokens from
/// `tokens` as that game's turn needs.
pub fn read_move(
    pos: &Position,
    tokens: &mut std::iter::Peekable<std::slice::Iter<'_, String>>,
) -> Result<Move, MoveError> {
    let text = tokens
        .next()
        .ok_or_else(|| MoveError::Malformed("(end of game text)".to_string()))?;
    parse_san(pos, text)
}

/// A replayed game: every move, and the end if the last position shows one.
#[derive(Debug)]
pub struct Replay {
    pub moves: Vec<Move>,
    pub positions: Vec<Position>,
    pub outcome: Option<Outcome>,
}

/// An error while replaying: which move (1-based ply) and why.
#[derive(Debug, thiserror::Error)]
#[error("move {ply} ('{text}'): {source}")]
pub struct ReplayError {
    pub ply: usize,
    pub text: String,
    #[source]
    pub source: MoveError,
}

/// Replays a game text from `start`.
pub fn replay(start: &Position, text: &str) -> Result<Replay, ReplayError> {
    let tokens = tokens(text);
    let mut iter = tokens.iter().peekable();
    let mut game = crate::Game::new(start.clone());
    while iter.peek().is_some() {
        let next = iter.peek().map(|t| t.to_string()).unwrap_or_default();
        let ply = game.moves().len() + 1;
        let m = read_move(game.position(), &mut iter).map_err(|source| ReplayError {
            ply,
            text: next.clone(),
            source,
        })?;
        game.play(m).map_err(|source| ReplayError {
            ply,
            text: next,
            source,
        })?;
    }
    Ok(Replay {
        moves: game.moves().to_vec(),
        positions: game.positions().to_vec(),
        outcome: game.outcome(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Color, Variant, WinReason};

    #[test]
    fn tokens_skip_numbers_and_comments() {
        let t = tokens("; a comment\n 1. e4 e5 ; more\n2.Nf3 2... Nc6 3. Bb5 resign 4. a3");
        assert_eq!(t, ["e4", "e5", "Nf3", "Nc6", "Bb5"]);
    }

    #[test]
    fn replays_a_chess_game_to_mate() {
        let start = Position::startpos(Variant::Chess);
        let r = replay(&start, "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7#").unwrap();
        assert_eq!(r.moves.len(), 7);
        assert_eq!(
            r.outcome,
            Some(Outcome::Win {
                winner: Color::White,
                reason: WinReason::Checkmate
            })
        );
        let err = replay(&start, "1. e4 e5 2. Ke3").unwrap_err();
        assert_eq!(err.ply, 3);
        assert_eq!(err.text, "Ke3");
    }
}
