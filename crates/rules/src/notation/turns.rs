//! What the readers of every notation (SAN, long notation, the seeds')
//! old notation) share below them: a Hop Chess turn put together from its
//! piece step and its placement square.

use crate::error::MoveError;
use crate::moves::Move;
use crate::position::Position;
use crate::types::Square;

/// The whole turn of a Hop Chess piece step `m` and its placement.
pub(crate) fn with_place(
    pos: &Position,
    text: &str,
    m: Move,
    place: Option<Square>,
) -> Result<Move, MoveError> {
    let Some(place) = place else {
        return Ok(m);
    };
    // The placement is legal when it is among the steps that follow the
    // piece move (cheaper than listing every turn).
    let illegal = || MoveError::Illegal(text.to_string());
    if !pos.splits_turn() {
        return Err(illegal());
    }
    let mut half = pos.clone();
    half.play_step(m.piece_part());
    let mut placements = Vec::new();
    half.legal_steps_into(&mut placements);
    if placements.contains(&Move::trampoline(place)) {
        Ok(m.piece_part().with_place(Some(place)))
    } else {
        Err(illegal())
    }
}
