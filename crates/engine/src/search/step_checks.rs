//! Hop Chess: whether a piece step may give check with the placement
//! that completes its turn (late-move pruning spares such steps).

use super::profile::piece_step_checks;
use springboard_rules::facts::Reach;
use springboard_rules::{Bitboard, Move, Position};

/// Hop Chess, at a turn start: whether the piece step `m` may give check
/// with its placement: it checks through the trampolines where they stand
/// (P8), or a piece of the mover reaches an empty square from which the
/// same kind of leg hits the enemy king, so that the trampoline put there
/// would check (one bounce; the guess of `ordering`'s `PlacementGuess`, which misses
/// second bounces). Late-move pruning at depth 1 spares such steps: the
/// mating turn is often a quiet step and a checking placement.
pub(super) fn step_may_check(pos: &Position, m: Move) -> bool {
    let mut child = pos.clone();
    child.play_step(m);
    played_step_may_check(&child)
}

/// [`step_may_check`] of the step that made `child` (the position after
/// it, the placement pending).
pub(super) fn played_step_may_check(child: &Position) -> bool {
    use springboard_rules::attacks::{bishop_attacks, knight_attacks, pawn_attacks, rook_attacks};
    if !child.placement_pending() {
        return child.is_check();
    }
    if piece_step_checks(child) {
        return true;
    }
    let b = child.board();
    let us = child.turn();
    let Some(k) = b.king_of(!us) else {
        return false;
    };
    let occ = b.occupied();
    let r = Reach::of(b, us);
    let hits = (r.knight & knight_attacks(k))
        | (r.orth & rook_attacks(k, occ))
        | (r.diag & bishop_attacks(k, occ))
        | (r.pawn & pawn_attacks(!us, k));
    let blocked = child
        .trampoline(!us)
        .map_or(Bitboard::EMPTY, Bitboard::from_square);
    (hits & !blocked).any()
}
