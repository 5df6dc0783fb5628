//! Bounces off trampolines (rulings P1-P9), shared by Hop Chess and
//! Trampoline Chess.
//!
//! A move is searched leg by leg. A leg is one ordinary move of the piece
//! (a knight jump, a slide, a pawn step or capture) from its origin or from a
//! trampoline it has just landed on. A leg ends on an empty square (the move
//! may stop there), on an enemy piece (a capture: the move stops), or on a
//! trampoline the piece may use and has not used yet (a bounce: the next leg
//! starts there). Sliders pass over trampolines and over the vacated origin
//! (P7); no piece stops on a trampoline (P2).
//!
//! [`Rules`] tells the search what differs between the two games: which
//! trampolines a piece may use (H4: both; T3: its own), how a queen goes on
//! from a trampoline (H6: on the kind of line it arrived on; T4: any queen
//! move), whether a pawn may double-step onto a trampoline (H7 yes, T5 no)
//! and whether a piece promoted on a trampoline may return to the pawn's
//! origin (T6).
//!
//! Files: this one holds the rules and what the two searches share;
//! `paths.rs` the moves (every path, one per move with its canonical path,
//! N3); `attacks.rs` attack detection and the legality shortcuts.
//!
//! Attack detection (P8) asks the same question backwards: which pieces
//! reach a usable trampoline with a non-capturing leg, and can one of them go
//! on from there to capture on the square (through the other trampoline
//! too)? FIDE attacks are tested first; the bounce part only looks at the
//! few pieces that reach a trampoline.

mod attacks;
mod paths;

pub(crate) use attacks::{
    is_attacked, king_attacked, safe_after, surely_safe, update_checkers, Node,
};
pub(crate) use paths::{for_each_path, king_moves, path_exists, path_key, piece_moves};

use crate::attacks::{bishop_attacks, knight_attacks, pawn_attacks, rook_attacks};
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::error::FenError;
use crate::moves::Move;
use crate::position::Position;
use crate::types::{Color, Rank, Role, Square};

/// The bounce rules of a game with trampolines (published as
/// [`crate::facts::BounceRules`]; see [`crate::Variant::bounce_rules`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// H4: a piece may bounce off either trampoline (else only its own, T3).
    pub both_usable: bool,
    /// H6: a queen keeps the kind of line it arrived on (else T4: any move).
    pub queen_line: bool,
    /// H7: a pawn may double-step onto a trampoline (T5 forbids it).
    pub double_step_onto: bool,
    /// T6: a piece promoted on a trampoline may return to the pawn's origin.
    pub promoted_may_return: bool,
}

/// Hop Chess (H4, H6, H7; H5: never back to the origin).
pub(crate) const HOP: Rules = Rules {
    both_usable: true,
    queen_line: true,
    double_step_onto: true,
    promoted_may_return: false,
};

/// Trampoline Chess (T3-T6).
pub(crate) const TRAMPOLINE: Rules = Rules {
    both_usable: false,
    queen_line: false,
    double_step_onto: false,
    promoted_may_return: true,
};

/// The squares of the trampolines on the board.
#[inline]
pub(crate) fn tramp_bb(tramps: [Option<Square>; 2]) -> Bitboard {
    let mut bb = Bitboard::EMPTY;
    for t in tramps.into_iter().flatten() {
        bb |= t;
    }
    bb
}

impl Rules {
    /// The trampolines the pieces of `side` may bounce off (H4: both; T3:
    /// its own), given each side's trampoline (`[White's, Black's]`).
    #[inline]
    pub fn usable(&self, tramps: [Option<Square>; 2], side: Color) -> Bitboard {
        if self.both_usable {
            tramp_bb(tramps)
        } else {
            tramps[side.index()].map_or(Bitboard::EMPTY, Bitboard::from_square)
        }
    }

    /// The squares one more leg of `role` attacks from the trampoline `t`,
    /// the piece having left `from` and reached `t` in a straight line or a
    /// knight's jump (`from` is vacated, P7). A queen keeps the kind of line
    /// she arrived on where [`Rules::queen_line`] holds (H6), else she goes
    /// on with any queen move (T4). Pawns and kings: empty (a pawn's leg
    /// from a trampoline depends on its rank, P4/P6; a king never bounces,
    /// P3).
    #[inline]
    pub fn leg_from(&self, role: Role, from: Square, t: Square, occ: Bitboard) -> Bitboard {
        let lines = lines_after(*self, role, Lines::Any, from, t);
        leg_targets(role, lines, t, occ.without(from))
    }
}

/// The empty squares the pieces of one side reach with a non-capturing
/// first leg, by kind of leg: where a trampoline would launch them (P2).
/// Pawns count with their single step only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reach {
    /// Reached by a knight's jump.
    pub knight: Bitboard,
    /// Reached along a rank or file by a rook or queen.
    pub orth: Bitboard,
    /// Reached along a diagonal by a bishop or queen.
    pub diag: Bitboard,
    /// Reached by a pawn's single step.
    pub pawn: Bitboard,
}

impl Reach {
    /// The reach of `color`'s pieces on `board` (FIDE legs, full board).
    pub fn of(board: &Board, color: Color) -> Reach {
        let occ = board.occupied();
        let ours = board.by_color(color);
        let mut reach = Reach {
            knight: Bitboard::EMPTY,
            orth: Bitboard::EMPTY,
            diag: Bitboard::EMPTY,
            pawn: Bitboard::EMPTY,
        };
        for sq in board.pieces(color, Role::Knight) {
            reach.knight |= knight_attacks(sq);
        }
        for sq in ours & board.rook_likes() {
            reach.orth |= rook_attacks(sq, occ);
        }
        for sq in ours & board.bishop_likes() {
            reach.diag |= bishop_attacks(sq, occ);
        }
        let pawns = board.pieces(color, Role::Pawn);
        reach.pawn = match color {
            Color::White => pawns.north(),
            Color::Black => pawns.south(),
        };
        let empty = !occ;
        reach.knight &= empty;
        reach.orth &= empty;
        reach.diag &= empty;
        reach.pawn &= empty;
        reach
    }

    /// The squares the pieces of `color` (whose reach this is) would attack
    /// by bouncing once off a trampoline on `s`, going on with the same
    /// kind of leg (a queen keeps her line, as H6 asks; on occupancy `occ`).
    #[inline]
    pub fn through(&self, s: Square, occ: Bitboard, color: Color) -> Bitboard {
        let mut hits = Bitboard::EMPTY;
        if self.knight.contains(s) {
            hits |= knight_attacks(s);
        }
        if self.orth.contains(s) {
            hits |= rook_attacks(s, occ);
        }
        if self.diag.contains(s) {
            hits |= bishop_attacks(s, occ);
        }
        if self.pawn.contains(s) {
            hits |= pawn_attacks(color, s);
        }
        hits
    }
}

/// The kind of line a queen may still use (H6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Lines {
    Any,
    Orth,
    Diag,
}

#[inline]
fn forward(side: Color) -> i8 {
    side.fold(1, -1)
}

#[inline]
fn last_rank(side: Color) -> Rank {
    Rank::new(side.fold(7, 0)).expect("rank")
}

#[inline]
fn start_rank(side: Color) -> Rank {
    Rank::new(side.fold(1, 6)).expect("rank")
}

/// The squares a leg of `role` from `cur` reaches: the first piece on each
/// line (of any colour) and every empty square or trampoline before it.
#[inline]
fn leg_targets(role: Role, lines: Lines, cur: Square, occ: Bitboard) -> Bitboard {
    match role {
        Role::Knight => knight_attacks(cur),
        Role::Bishop => bishop_attacks(cur, occ),
        Role::Rook => rook_attacks(cur, occ),
        Role::Queen => match lines {
            Lines::Any => rook_attacks(cur, occ) | bishop_attacks(cur, occ),
            Lines::Orth => rook_attacks(cur, occ),
            Lines::Diag => bishop_attacks(cur, occ),
        },
        _ => Bitboard::EMPTY,
    }
}

/// The lines a piece keeps after landing on `to` from `from` (H6).
#[inline]
fn lines_after(rules: Rules, role: Role, lines: Lines, from: Square, to: Square) -> Lines {
    if role != Role::Queen || !rules.queen_line || lines != Lines::Any {
        return lines;
    }
    if from.file() == to.file() || from.rank() == to.rank() {
        Lines::Orth
    } else {
        Lines::Diag
    }
}

/// Makes the piece part of a move on a board (see
/// [`crate::games::chess::move_piece`]).
#[inline]
pub(crate) fn make_on_board(board: &mut Board, m: Move) {
    crate::games::chess::move_piece(board, m);
}

/// Whether the side to move may capture en passant on `ep`: never onto a
/// trampoline (P5), and only by a capture that `legal` accepts.
pub(crate) fn ep_capture_possible(
    pos: &Position,
    ep: Square,
    legal: impl Fn(Move) -> bool,
) -> bool {
    if tramp_bb(pos.trampolines).contains(ep) {
        return false;
    }
    let us = pos.turn;
    let pawns = pos.board.pieces(us, Role::Pawn);
    let mut capturers = crate::attacks::pawn_attacks(!us, ep) & pawns;
    Iterator::any(&mut capturers, |from| legal(Move::en_passant(from, ep)))
}

// ---- Checking a setup ----

/// The checks every trampoline game makes of a setup: the FIDE men (C1),
/// no trampoline under a piece (P2) and the two trampolines apart (P1).
pub(crate) fn validate_setup(pos: &Position) -> Result<(), FenError> {
    crate::games::chess::validate_men(pos)?;
    let tramps = pos.trampolines;
    for c in Color::ALL {
        if let Some(t) = tramps[c.index()] {
            if let Some(p) = pos.board.piece_at(t) {
                return Err(FenError::TrampolineOnPiece {
                    owner: c.name(),
                    square: t.to_string(),
                    piece: p.char(),
                });
            }
        }
    }
    if let [Some(a), Some(b)] = tramps {
        if a == b {
            return Err(FenError::TrampolinesOnOneSquare(a.to_string()));
        }
    }
    Ok(())
}

/// Finishes a setup where a turn starts: the side not to move is not in
/// check (P8), the en-passant right is kept only when a capture is legal
/// (`ep_possible`, C2, P5), and the checkers are found.
pub(crate) fn finish_setup(
    pos: &mut Position,
    rules: Rules,
    ep_claim: Option<Square>,
    ep_possible: impl Fn(&Position, Square) -> bool,
) -> Result<(), FenError> {
    let them = !pos.turn;
    if let Some(k) = pos.board.king_of(them) {
        if is_attacked(&pos.board, pos.trampolines, rules, k, pos.turn) {
            return Err(FenError::OppositeCheck(them.name()));
        }
    }
    if let Some(ep) = ep_claim {
        crate::games::chess::validate_ep_claim(pos, ep)?;
        if ep_possible(pos, ep) {
            pos.ep_square = Some(ep);
        }
    }
    update_checkers(pos, rules);
    Ok(())
}
