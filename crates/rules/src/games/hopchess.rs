//! Hop Chess (rulings H1-H10 with P1-P9).
//!
//! A turn is a piece move and then the placement of the mover's trampoline
//! (H2); White's first turn is a piece move only (H3). [`legal_moves`]
//! lists whole turns (`g8f6@d5`); the half-step API ([`legal_steps`],
//! [`play_step`]) splits a turn in two so that a search can prune
//! placements: after the piece step the position has the phase bit
//! [`PLACE`] set (hashed) and the same side is to move; its steps are then
//! the placements (`Move::trampoline(sq)`).
//!
//! A piece step is legal when at least one placement leaves the mover's
//! king unattacked (P8). Trampolines block nothing, so adding one only adds
//! paths: if the king is attacked with the mover's trampoline lifted off
//! the board, no placement helps; else each candidate square is tested.

use super::bounce::{self, HOP};
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::moves::{Move, MoveKind, MoveList};
use crate::position::Position;
use crate::types::{Color, Role, Square};

/// Phase bit: White's first turn, a piece move only (H3).
pub(crate) const FIRST: u8 = 1;
/// Phase bit: the piece step is made, the placement is pending.
pub(crate) const PLACE: u8 = 2;

/// The trampolines with `us`'s own lifted off the board.
#[inline]
fn lifted(tramps: [Option<Square>; 2], us: Color) -> [Option<Square>; 2] {
    let mut t = tramps;
    t[us.index()] = None;
    t
}

/// The squares `us` may put the trampoline on after a piece move that left
/// `board`: every square without a piece and without the other trampoline
/// (the own one's square included: it may stay, H2).
#[inline]
fn placement_squares(board: &Board, tramps: [Option<Square>; 2], us: Color) -> Bitboard {
    let mut bb = !board.occupied();
    if let Some(t) = tramps[(!us).index()] {
        bb = bb.without(t);
    }
    bb
}

/// Calls `f` with every placement square that leaves `us`'s king safe on
/// `board` (the board after the piece step); stops when `f` returns false.
fn safe_placements(
    board: &Board,
    tramps: [Option<Square>; 2],
    us: Color,
    mut f: impl FnMut(Square) -> bool,
) {
    let base = lifted(tramps, us);
    let Some(k) = board.king_of(us) else {
        return;
    };
    if bounce::is_attacked(board, base, HOP, k, !us) {
        return;
    }
    for s in placement_squares(board, tramps, us) {
        let mut t = base;
        t[us.index()] = Some(s);
        if !bounce::is_attacked(board, t, HOP, k, !us) && !f(s) {
            return;
        }
    }
}

fn has_safe_placement(board: &Board, tramps: [Option<Square>; 2], us: Color) -> bool {
    let mut any = false;
    safe_placements(board, tramps, us, |_| {
        any = true;
        false
    });
    any
}

fn count_safe_placements(board: &Board, tramps: [Option<Square>; 2], us: Color) -> u64 {
    let mut n = 0;
    safe_placements(board, tramps, us, |_| {
        n += 1;
        true
    });
    n
}

/// Every pseudo-legal piece move of the side to move.
fn pseudo_piece_moves(pos: &Position, list: &mut MoveList) {
    let us = pos.turn;
    bounce::piece_moves(&pos.board, pos.trampolines, HOP, us, pos.ep_square, list);
    bounce::king_moves(&pos.board, pos.trampolines, HOP, us, pos.castling, list);
}

/// Whether the piece step `m` is legal: on White's first turn the king must
/// be safe after it; later, some placement must leave it safe.
fn step_legal(pos: &Position, m: Move) -> bool {
    let us = pos.turn;
    let mut b = pos.board.clone();
    bounce::make_on_board(&mut b, m);
    if pos.phase & FIRST != 0 {
        !bounce::king_attacked(&b, pos.trampolines, HOP, us)
    } else {
        has_safe_placement(&b, pos.trampolines, us)
    }
}

/// The placements of the side to move, in the [`PLACE`] phase.
fn placements(pos: &Position, list: &mut MoveList) {
    safe_placements(&pos.board, pos.trampolines, pos.turn, |s| {
        list.push(Move::trampoline(s));
        true
    });
}

/// Appends every legal turn: piece moves with their placement (`place`
/// set), or piece moves alone on White's first turn, or placements alone
/// in the [`PLACE`] phase.
pub(crate) fn legal_moves(pos: &Position, list: &mut MoveList) {
    if pos.phase & PLACE != 0 {
        placements(pos, list);
        return;
    }
    let mut pseudo = MoveList::with_capacity(128);
    pseudo_piece_moves(pos, &mut pseudo);
    let us = pos.turn;
    for m in pseudo {
        let mut b = pos.board.clone();
        bounce::make_on_board(&mut b, m);
        if pos.phase & FIRST != 0 {
            if !bounce::king_attacked(&b, pos.trampolines, HOP, us) {
                list.push(m);
            }
        } else {
            safe_placements(&b, pos.trampolines, us, |s| {
                list.push(m.with_place(Some(s)));
                true
            });
        }
    }
}

/// The number of legal turns (perft's last ply), without listing them.
pub(crate) fn count_moves(pos: &Position) -> u64 {
    if pos.phase & PLACE != 0 {
        return count_safe_placements(&pos.board, pos.trampolines, pos.turn);
    }
    let mut pseudo = MoveList::with_capacity(128);
    pseudo_piece_moves(pos, &mut pseudo);
    let us = pos.turn;
    let mut n = 0;
    for m in pseudo {
        let mut b = pos.board.clone();
        bounce::make_on_board(&mut b, m);
        n += if pos.phase & FIRST != 0 {
            u64::from(!bounce::king_attacked(&b, pos.trampolines, HOP, us))
        } else {
            count_safe_placements(&b, pos.trampolines, us)
        };
    }
    n
}

/// Appends the legal half-steps: piece steps (without placement), or the
/// placements in the [`PLACE`] phase. On White's first turn the piece steps
/// are whole turns.
pub(crate) fn legal_steps(pos: &Position, list: &mut MoveList) {
    if pos.phase & PLACE != 0 {
        placements(pos, list);
        return;
    }
    let mut pseudo = MoveList::with_capacity(128);
    pseudo_piece_moves(pos, &mut pseudo);
    list.extend(pseudo.into_iter().filter(|&m| step_legal(pos, m)));
}

/// Plays a legal half-step.
pub(crate) fn play_step(pos: &mut Position, m: Move) {
    if m.kind() == MoveKind::Trampoline {
        let us = pos.turn;
        let to = m.to().expect("a placement square");
        pos.set_trampoline(us, Some(to));
        pos.toggle_phase(PLACE);
        let pending_ep = pos.ep_square;
        finish_turn(pos, pending_ep);
        return;
    }
    let ep = bounce::play_piece(pos, m.piece_part());
    if pos.phase & FIRST != 0 {
        pos.toggle_phase(FIRST);
        finish_turn(pos, ep);
    } else {
        // The skipped square of a double step waits in the en-passant
        // field until the placement decides the right (P5).
        pos.set_ep(ep);
        pos.toggle_phase(PLACE);
        pos.checkers = Bitboard::EMPTY;
    }
}

/// Plays a legal turn (or a placement in the [`PLACE`] phase).
pub(crate) fn play(pos: &mut Position, m: Move) {
    if pos.phase & (PLACE | FIRST) != 0 {
        play_step(pos, m);
        return;
    }
    play_step(pos, m.piece_part());
    let place = m
        .place()
        .expect("a Hop Chess turn places the trampoline (H3)");
    play_step(pos, Move::trampoline(place));
}

/// Ends the turn: the other side moves; its checkers and en-passant right.
fn finish_turn(pos: &mut Position, double_step: Option<Square>) {
    pos.set_ep(None);
    pos.switch_turn();
    update_checkers(pos);
    if let Some(ep) = double_step {
        if ep_capture_possible(pos, ep) {
            pos.set_ep(Some(ep));
        }
    }
}

pub(crate) fn update_checkers(pos: &mut Position) {
    let us = pos.turn;
    pos.checkers = match pos.board.king_of(us) {
        Some(k) => bounce::attackers(&pos.board, pos.trampolines, HOP, k, !us, true),
        None => Bitboard::EMPTY,
    };
}

/// Whether the side to move may capture en passant on `ep` (P5: not onto a
/// trampoline; the step must be legal).
pub(crate) fn ep_capture_possible(pos: &Position, ep: Square) -> bool {
    if bounce::tramp_bb(pos.trampolines).contains(ep) {
        return false;
    }
    let us = pos.turn;
    let pawns = pos.board.pieces(us, Role::Pawn);
    Iterator::any(
        &mut (crate::attacks::pawn_attacks(!us, ep) & pawns),
        |from| step_legal(pos, Move::en_passant(from, ep)),
    )
}

/// Whether `sq` is attacked by `by` with the trampolines where they stand.
pub(crate) fn is_attacked(pos: &Position, sq: Square, by: Color) -> bool {
    bounce::is_attacked(&pos.board, pos.trampolines, HOP, sq, by)
}

/// Whether the side to move has a legal placement (for the [`PLACE`]
/// phase's position text check).
pub(crate) fn placement_possible(pos: &Position) -> bool {
    has_safe_placement(&pos.board, pos.trampolines, pos.turn)
}
