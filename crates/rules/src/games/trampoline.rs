//! Trampoline Chess (rulings T1-T7 with P1-P9).
//!
//! A turn is a piece move or a trampoline move (T2). Pieces bounce only off
//! their own trampoline, once (T3), and go on with any move of their kind
//! (T4). Only the owner's pieces use a trampoline, so moving it never
//! changes the attacks on the owner's king: a trampoline move is legal
//! exactly when the mover is not in check (T7), and it may give check.

use super::bounce::{self, Node, TRAMPOLINE};
use super::chess::FIDE_ROLES;
use super::{material, push_kept, CandidateContext, GameRules};
use crate::bitboard::Bitboard;
use crate::error::FenError;
use crate::moves::{Move, MoveKind, MoveList};
use crate::position::{Position, Setup};
use crate::types::{Color, Role, Square};
use crate::variant::Variant;

/// Trampoline Chess.
pub(crate) struct Trampoline;

impl GameRules for Trampoline {
    const VARIANT: Variant = Variant::Trampoline;
    const ROLES: &'static [Role] = &FIDE_ROLES;
    const BOUNCE: Option<bounce::Rules> = Some(TRAMPOLINE);

    #[inline]
    fn legal_moves(pos: &Position, list: &mut MoveList) {
        legal_moves(pos, list)
    }

    #[inline]
    fn count_moves(pos: &Position, scratch: &mut MoveList) -> u64 {
        count_moves(pos, scratch)
    }

    #[inline]
    fn legal_steps_filtered(pos: &Position, list: &mut MoveList, keep: impl FnMut(Move) -> bool) {
        legal_moves_filtered(pos, list, keep)
    }

    #[inline]
    fn has_legal_step(pos: &Position) -> bool {
        has_legal_move(pos)
    }

    #[inline]
    fn legal_noisy_steps(pos: &Position, list: &mut MoveList) {
        // A trampoline move is never noisy (T2: onto an empty square).
        piece_moves(pos, list, false, |m| pos.is_noisy(m));
    }

    #[inline]
    fn step_candidates(pos: &Position, list: &mut MoveList) {
        step_candidates(pos, list)
    }

    #[inline]
    fn candidate_context(pos: &Position) -> CandidateContext {
        CandidateContext {
            node: Node::new(pos, TRAMPOLINE),
        }
    }

    #[inline]
    fn candidate_is_legal(pos: &Position, ctx: &CandidateContext, m: Move) -> bool {
        candidate_is_legal(pos, ctx, m)
    }

    /// A piece move's legality test (a board made and searched for bounce
    /// attacks on the king) costs more than its generation.
    #[inline]
    fn defers_legality(_pos: &Position) -> bool {
        true
    }

    #[inline]
    fn play(pos: &mut Position, m: Move) {
        play(pos, m)
    }

    #[inline]
    fn is_attacked(pos: &Position, sq: Square, by: Color) -> bool {
        is_attacked(pos, sq, by)
    }

    fn from_setup(setup: Setup) -> Result<Position, FenError> {
        let (mut pos, ep_claim) = setup.into_position(Variant::Trampoline);
        material::check_state::<Trampoline>(&pos)?;
        bounce::validate_setup(&pos)?;
        bounce::finish_setup(&mut pos, TRAMPOLINE, ep_claim, ep_capture_possible)?;
        pos.hash = pos.compute_hash();
        Ok(pos)
    }
}

/// Appends the legal piece moves that `keep` accepts (asked first, in
/// generation order; the legality of the kept ones only is tested), the
/// quiet ones of the pieces but the king left out unless `quiet` (see
/// `bounce::piece_moves`).
fn piece_moves(
    pos: &Position,
    list: &mut MoveList,
    quiet: bool,
    mut keep: impl FnMut(Move) -> bool,
) {
    // Without a king no piece move is legal. The pseudo-legal moves go
    // after the list's own and are then filtered in place (no second list
    // to allocate per node).
    let Some(node) = Node::new(pos, TRAMPOLINE) else {
        return;
    };
    let start = list.len();
    push_pseudo_piece_moves(pos, list, quiet);
    let mut kept = start;
    for i in start..list.len() {
        let m = list[i];
        if keep(m) && node.safe(pos, TRAMPOLINE, m) {
            list[kept] = m;
            kept += 1;
        }
    }
    list.truncate(kept);
}

/// Appends the pseudo-legal piece moves (the quiet ones of the pieces but
/// the king left out unless `quiet`), the mover's king on the board.
fn push_pseudo_piece_moves(pos: &Position, list: &mut MoveList, quiet: bool) {
    let us = pos.turn;
    bounce::piece_moves(
        &pos.board,
        pos.trampolines,
        TRAMPOLINE,
        us,
        pos.ep_square,
        quiet,
        list,
    );
    bounce::king_moves(
        &pos.board,
        pos.trampolines,
        TRAMPOLINE,
        us,
        pos.castling,
        list,
    );
}

/// The candidate moves of a search: the pseudo-legal piece moves, then the
/// trampoline moves, in the order of [`legal_moves`] (which keeps the
/// piece moves that [`candidate_is_legal`] accepts).
fn step_candidates(pos: &Position, list: &mut MoveList) {
    // (The node is made once, for the candidate context.)
    if pos.board.king_of(pos.turn).is_some() {
        push_pseudo_piece_moves(pos, list, true);
    }
    for s in trampoline_squares(pos) {
        list.push(Move::trampoline(s));
    }
}

/// Whether the candidate `m` of [`step_candidates`] is legal: a trampoline
/// move always is (T7: there are none in check); a piece move when it
/// leaves the king safe (`ctx` holds the position's [`Node`]).
fn candidate_is_legal(pos: &Position, ctx: &CandidateContext, m: Move) -> bool {
    m.kind() == MoveKind::Trampoline
        || ctx
            .node
            .as_ref()
            .is_some_and(|node| node.safe(pos, TRAMPOLINE, m))
}

/// T2: the trampoline goes to any square without a piece or trampoline.
fn trampoline_squares(pos: &Position) -> Bitboard {
    if pos.is_check() {
        return Bitboard::EMPTY;
    }
    !pos.board.occupied() & !bounce::tramp_bb(pos.trampolines)
}

/// Appends every legal move: piece moves, then trampoline moves.
pub(crate) fn legal_moves(pos: &Position, list: &mut MoveList) {
    legal_moves_filtered(pos, list, |_| true);
}

/// [`legal_moves`] followed by a `retain(keep)`, with `keep` asked first.
fn legal_moves_filtered(pos: &Position, list: &mut MoveList, mut keep: impl FnMut(Move) -> bool) {
    piece_moves(pos, list, true, &mut keep);
    for s in trampoline_squares(pos) {
        push_kept(list, &mut keep, Move::trampoline(s));
    }
}

/// Whether the side to move has a legal move: out of check, a trampoline
/// move is one (T7) wherever a square is free for it.
fn has_legal_move(pos: &Position) -> bool {
    if trampoline_squares(pos).any() {
        return true;
    }
    let mut list = MoveList::with_capacity(96);
    piece_moves(pos, &mut list, true, |_| true);
    !list.is_empty()
}

/// The number of legal moves (perft's last ply).
pub(crate) fn count_moves(pos: &Position, scratch: &mut MoveList) -> u64 {
    scratch.clear();
    piece_moves(pos, scratch, true, |_| true);
    scratch.len() as u64 + u64::from(trampoline_squares(pos).count())
}

/// Plays a legal move.
pub(crate) fn play(pos: &mut Position, m: Move) {
    let double_step = if m.kind() == MoveKind::Trampoline {
        let us = pos.turn;
        pos.set_ep(None);
        pos.set_trampoline(us, m.to());
        pos.count_turn(false);
        None
    } else {
        super::chess::play_piece(pos, m)
    };
    pos.switch_turn();
    update_checkers(pos);
    if let Some(ep) = double_step {
        if ep_capture_possible(pos, ep) {
            pos.set_ep(Some(ep));
        }
    }
}

pub(crate) fn update_checkers(pos: &mut Position) {
    bounce::update_checkers(pos, TRAMPOLINE);
}

/// Whether the side to move may capture en passant on `ep` (P5).
pub(crate) fn ep_capture_possible(pos: &Position, ep: Square) -> bool {
    let (us, tramps) = (pos.turn, pos.trampolines);
    bounce::ep_capture_possible(pos, ep, |m| {
        bounce::safe_after(&pos.board, tramps, TRAMPOLINE, us, m)
    })
}

pub(crate) fn is_attacked(pos: &Position, sq: Square, by: Color) -> bool {
    bounce::is_attacked(&pos.board, pos.trampolines, TRAMPOLINE, sq, by)
}
