//! Static evaluation, in centipawns from the side to move's point of view.
//!
//! [`evaluate`] dispatches on the game: every game shares the FIDE terms of
//! [`fide`] (they read the board of any game), and a game with themes of its
//! own (trampolines, weak squares, reserves) adds a module `eval/<game>.rs`
//! with its terms and its weights in [`weights`], called from the `match`
//! below. All weights live in [`weights::WEIGHTS`].

pub mod fide;
pub mod weights;

use springboard_rules::{Color, Position, Variant};
use weights::{Weights, PHASE_TOTAL, S, WEIGHTS};

/// The static evaluation of `pos` for the side to move.
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, &WEIGHTS)
}

/// The static evaluation with the given weights (for tuning).
pub fn evaluate_with(pos: &Position, w: &Weights) -> i32 {
    let mut score: S = fide::terms(pos, w);
    score += match pos.variant() {
        // Chess has no terms beyond the shared FIDE ones.
        Variant::Chess => S::ZERO,
        // The other games add their own module's terms here when their
        // rules land; until then their boards get the shared terms only.
        Variant::HopChess | Variant::Trampoline | Variant::JumpingKing | Variant::Hoplit => S::ZERO,
    };
    let phase = fide::phase(pos);
    let white = (score.0 * phase + score.1 * (PHASE_TOTAL - phase)) / PHASE_TOTAL;
    let stm = match pos.turn() {
        Color::White => white,
        Color::Black => -white,
    };
    stm + (w.tempo.0 * phase + w.tempo.1 * (PHASE_TOTAL - phase)) / PHASE_TOTAL
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn side_to_move_view() {
        let pos = Position::from_fen(Variant::Chess, "4k3/8/8/8/8/8/8/QQQQK3 w - - 0 1").unwrap();
        let flipped =
            Position::from_fen(Variant::Chess, "4k3/8/8/8/8/8/8/QQQQK3 b - - 0 1").unwrap();
        assert!(evaluate(&pos) > 3000);
        assert!(evaluate(&flipped) < -3000);
        let start = Position::startpos(Variant::Chess);
        assert_eq!(evaluate(&start), WEIGHTS.tempo.0);
    }
}
