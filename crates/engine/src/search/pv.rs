//! Principal variations as whole turns: the search's lines are steps (a
//! Hop Chess turn is a piece step and a placement step); what the engine
//! reports (PV lines, ponder moves) is the turns of `Position::legal_moves`.

use super::ordering::guessed_placement;
use crate::tt::{encode_move, Tt};
use springboard_rules::{Move, MoveKind, MoveList, Position};

/// The reply the table remembers after `best`, as a whole turn.
pub(super) fn ponder_from_tt(tt: &Tt, root: &Position, best: Move) -> Option<Move> {
    let mut child = root.clone();
    child.play(best);
    let step = tt_step(tt, &child)?;
    if !child.splits_turn() {
        return Some(step);
    }
    let mut mid = child;
    mid.play_step(step);
    let place = tt_step(tt, &mid).or_else(|| guessed_placement(&mid))?;
    Some(step.with_place(place.to()))
}

/// The step the table remembers for `pos`, found among its legal steps.
fn tt_step(tt: &Tt, pos: &Position) -> Option<Move> {
    let code = tt.probe(pos.hash())?.mv;
    let mut steps = MoveList::new();
    pos.legal_steps_into(&mut steps);
    steps.into_iter().find(|&m| encode_move(m) == code)
}

/// The whole turns of a line of search steps from `root`: in Hop Chess a
/// piece step and the placement after it make one turn
/// (`Move::with_place`), the move the rules core's `legal_moves` lists. A
/// piece step whose placement the line lacks (a line cut short) is
/// completed from the table or by [`guessed_placement`] when it is the
/// first turn, and dropped later on.
pub(super) fn turns_of_steps(tt: &Tt, root: &Position, steps: &[Move]) -> Vec<Move> {
    let mut pos = root.clone();
    let mut out = Vec::with_capacity(steps.len());
    let mut i = 0;
    while i < steps.len() {
        let step = steps[i];
        if !pos.splits_turn() {
            out.push(step);
            pos.play_step(step);
            i += 1;
            continue;
        }
        let mut mid = pos.clone();
        mid.play_step(step);
        let place = match steps.get(i + 1) {
            Some(&p) if p.kind() == MoveKind::Trampoline => Some(p),
            _ if i == 0 => tt_step(tt, &mid).or_else(|| guessed_placement(&mid)),
            _ => None,
        };
        let Some(place) = place else { break };
        out.push(step.with_place(place.to()));
        pos = mid;
        pos.play_step(place);
        i += 2;
    }
    out
}
