//! A game: a start position and the moves played, with the draw rules that
//! need the history (threefold repetition, ruling C2).

use crate::error::MoveError;
use crate::moves::long::UciMove;
use crate::moves::Move;
use crate::position::{DrawReason, Outcome, Position};

/// A game in progress. Every move is checked before it is played.
#[derive(Clone, Debug)]
pub struct Game {
    positions: Vec<Position>,
    moves: Vec<Move>,
}

impl Game {
    pub fn new(start: Position) -> Game {
        Game {
            positions: vec![start],
            moves: Vec::new(),
        }
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.positions.last().expect("a game has a position")
    }

    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Every position from the start to the current one.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// Plays a move if it is legal. The move is stored as the legal move
    /// it equals (ruling P9: with its canonical path).
    pub fn play(&mut self, m: Move) -> Result<(), MoveError> {
        let current = self.position();
        let legal = current
            .legal_moves()
            .into_iter()
            .find(|&l| l == m)
            .ok_or_else(|| MoveError::Illegal(UciMove::from_move(m).to_string()))?;
        let mut next = current.clone();
        next.play(legal);
        self.moves.push(legal);
        self.positions.push(next);
        Ok(())
    }

    /// Takes back the last move.
    pub fn undo(&mut self) -> Option<Move> {
        let m = self.moves.pop()?;
        self.positions.pop();
        Some(m)
    }

    /// How many times the current position has stood in this game (1 the
    /// first time). Only positions since the last irreversible move can
    /// repeat it.
    pub fn repetitions(&self) -> usize {
        let current = self.position();
        let window = current.halfmove_clock() as usize + 1;
        self.positions
            .iter()
            .rev()
            .take(window)
            .filter(|p| p.same_for_repetition(current))
            .count()
    }

    /// The end of the game, if it is over (ruling C3: draws end it at once;
    /// checkmate takes precedence over a draw reached by the same move).
    pub fn outcome(&self) -> Option<Outcome> {
        let pos = self.position();
        match pos.outcome() {
            Some(o @ Outcome::Win { .. }) => Some(o),
            Some(o) => Some(o),
            None if self.repetitions() >= 3 => Some(Outcome::Draw(DrawReason::Repetition)),
            None => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::uci::parse_uci;
    use crate::{Position, Variant};

    fn play(game: &mut Game, moves: &str) {
        for text in moves.split_whitespace() {
            let m = parse_uci(game.position(), text).unwrap();
            game.play(m).unwrap();
        }
    }

    #[test]
    fn c2_threefold_repetition() {
        let mut game = Game::new(Position::startpos(Variant::Chess));
        play(&mut game, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1");
        assert_eq!(game.outcome(), None);
        play(&mut game, "f6g8");
        assert_eq!(game.repetitions(), 3);
        assert_eq!(game.outcome(), Some(Outcome::Draw(DrawReason::Repetition)));
        game.undo();
        assert_eq!(game.outcome(), None);
    }

    #[test]
    fn c2_ep_right_counts_only_when_legal() {
        // After 1.e4 no black pawn can take en passant, so the position
        // after 1.e4 Nf6 2.Ng1... repeats the one after 1.e4 itself.
        let mut game = Game::new(Position::startpos(Variant::Chess));
        play(&mut game, "e2e4 g8f6 g1f3 f6g8 f3g1 g8f6 g1f3 f6g8 f3g1");
        assert_eq!(game.position().ep_square(), None);
        assert_eq!(game.outcome(), Some(Outcome::Draw(DrawReason::Repetition)));
    }

    #[test]
    fn c2_fifty_moves_and_insufficient_material() {
        let pos = Position::from_fen(Variant::Chess, "8/8/4k3/8/8/4K3/4R3/8 w - - 100 80").unwrap();
        assert_eq!(pos.outcome(), Some(Outcome::Draw(DrawReason::FiftyMoves)));
        for (fen, draw) in [
            ("8/8/4k3/8/8/4K3/8/8 w - - 0 1", true),
            ("8/8/4k3/8/8/4K3/4N3/8 w - - 0 1", true),
            ("8/8/4k3/8/8/4K3/4B3/8 w - - 0 1", true),
            ("8/4b3/4k3/8/8/4K3/3B4/8 w - - 0 1", true),
            ("8/3b4/4k3/8/8/4K3/3B4/8 w - - 0 1", false),
            ("8/8/4k3/8/8/4K3/3NN3/8 w - - 0 1", false),
            ("8/8/4k3/8/8/4K3/3P4/8 w - - 0 1", false),
        ] {
            let pos = Position::from_fen(Variant::Chess, fen).unwrap();
            assert_eq!(pos.is_insufficient_material(), draw, "{fen}");
        }
    }

    #[test]
    fn c3_mate_and_stalemate() {
        let mut game = Game::new(Position::startpos(Variant::Chess));
        play(&mut game, "f2f3 e7e5 g2g4 d8h4");
        assert_eq!(
            game.outcome(),
            Some(Outcome::Win {
                winner: crate::Color::Black,
                reason: crate::WinReason::Checkmate
            })
        );
        let pos = Position::from_fen(Variant::Chess, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
        assert_eq!(pos.outcome(), Some(Outcome::Draw(DrawReason::Stalemate)));
    }
}
