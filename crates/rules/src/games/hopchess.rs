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

use super::bounce::{self, Node, Reach, HOP};
use super::chess::FIDE_ROLES;
use super::{material, push_kept, CandidateContext, GameRules};
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::error::FenError;
use crate::moves::{Move, MoveKind, MoveList};
use crate::position::{Position, Setup};
use crate::types::{Color, Piece, Role, Square};
use crate::variant::Variant;

/// Hop Chess.
pub(crate) struct HopChess;

impl GameRules for HopChess {
    const VARIANT: Variant = Variant::HopChess;
    const ROLES: &'static [Role] = &FIDE_ROLES;
    const PHASE_BITS: u8 = FIRST | PLACE;
    const BOUNCE: Option<bounce::Rules> = Some(HOP);

    #[inline]
    fn legal_moves(pos: &Position, list: &mut MoveList) {
        legal_moves(pos, list)
    }

    #[inline]
    fn count_moves(pos: &Position, _scratch: &mut MoveList) -> u64 {
        count_moves(pos)
    }

    #[inline]
    fn legal_steps(pos: &Position, list: &mut MoveList) {
        legal_steps(pos, list)
    }

    #[inline]
    fn legal_steps_filtered(pos: &Position, list: &mut MoveList, keep: impl FnMut(Move) -> bool) {
        legal_steps_filtered(pos, list, keep)
    }

    #[inline]
    fn has_legal_step(pos: &Position) -> bool {
        has_legal_step(pos)
    }

    #[inline]
    fn legal_noisy_steps(pos: &Position, list: &mut MoveList) {
        legal_noisy_steps(pos, list)
    }

    #[inline]
    fn step_candidates(pos: &Position, list: &mut MoveList) {
        step_candidates(pos, list)
    }

    #[inline]
    fn candidate_context(pos: &Position) -> CandidateContext {
        CandidateContext {
            node: Node::new(pos, HOP).filter(|_| pos.phase & PLACE == 0),
        }
    }

    #[inline]
    fn candidate_is_legal(pos: &Position, ctx: &CandidateContext, m: Move) -> bool {
        candidate_is_legal(pos, ctx, m)
    }

    #[inline]
    fn defers_legality(pos: &Position) -> bool {
        pos.phase & PLACE == 0
    }

    #[inline]
    fn play(pos: &mut Position, m: Move) {
        play(pos, m)
    }

    #[inline]
    fn play_step(pos: &mut Position, m: Move) {
        play_step(pos, m)
    }

    #[inline]
    fn is_attacked(pos: &Position, sq: Square, by: Color) -> bool {
        is_attacked(pos, sq, by)
    }

    /// The phase is [`FIRST`], [`PLACE`] or nothing. In the [`PLACE`]
    /// state the en-passant square is the one the side to move has just
    /// skipped with a double step, if any: the placement decides the right.
    fn from_setup(setup: Setup) -> Result<Position, FenError> {
        let (mut pos, ep_claim) = setup.into_position(Variant::HopChess);
        material::check_state::<HopChess>(&pos)?;
        bounce::validate_setup(&pos)?;
        if !matches!(pos.phase, 0 | FIRST | PLACE) {
            return Err(FenError::PhaseNotInGame {
                bits: pos.phase,
                variant: Variant::HopChess.name(),
            });
        }
        if pos.phase == FIRST
            && (pos.turn != Color::White || pos.trampolines.iter().any(Option::is_some))
        {
            return Err(FenError::FirstTurnMisplaced);
        }
        // White's first turn (H3) is the turn of the start position, and
        // the start position's only turn: its pieces have not moved and
        // neither side has placed a trampoline, so no placement is due.
        let untouched = pos.turn == Color::White
            && pos.trampolines.iter().all(Option::is_none)
            && is_start_array(&pos.board);
        match (pos.phase, untouched) {
            (FIRST, false) => return Err(FenError::FirstTurnNotAtStart),
            (PLACE, true) => return Err(FenError::StartWithoutFirst("place")),
            (0, true) => return Err(FenError::StartWithoutFirst("-")),
            _ => {}
        }
        if pos.phase == PLACE {
            if !placement_possible(&pos) {
                return Err(FenError::NoSafePlacement(pos.turn.name()));
            }
            if let Some(ep) = ep_claim {
                // The side to move has just double-stepped over `ep`.
                let bad = || FenError::ImpossibleEnPassant(ep.to_string());
                let (rank, dir) = match pos.turn {
                    Color::White => (2, 1),
                    Color::Black => (5, -1),
                };
                let pawn_sq = ep.offset(0, dir).ok_or_else(bad)?;
                let origin = ep.offset(0, -dir).ok_or_else(bad)?;
                if ep.rank().index() != rank
                    || pos.board.piece_at(pawn_sq) != Some(Piece::new(pos.turn, Role::Pawn))
                    || pos.board.piece_at(ep).is_some()
                    || pos.board.piece_at(origin).is_some()
                {
                    return Err(bad());
                }
                pos.ep_square = Some(ep);
            }
        } else {
            bounce::finish_setup(&mut pos, HOP, ep_claim, ep_capture_possible)?;
        }
        pos.hash = pos.compute_hash();
        Ok(pos)
    }
}

/// Whether `board` is the start array of FIDE chess (and of Hop Chess, H1).
fn is_start_array(board: &Board) -> bool {
    const BACK: [Role; 8] = [
        Role::Rook,
        Role::Knight,
        Role::Bishop,
        Role::Queen,
        Role::King,
        Role::Bishop,
        Role::Knight,
        Role::Rook,
    ];
    board.occupied().count() == 32
        && Square::ALL.iter().all(|&sq| {
            let (file, rank) = (sq.file().index() as usize, sq.rank().index());
            let want = match rank {
                0 => Some(Piece::new(Color::White, BACK[file])),
                1 => Some(Piece::new(Color::White, Role::Pawn)),
                6 => Some(Piece::new(Color::Black, Role::Pawn)),
                7 => Some(Piece::new(Color::Black, BACK[file])),
                _ => None,
            };
            board.piece_at(sq) == want
        })
}

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

/// The squares where the trampoline of `us` may go after the piece step
/// `m` that left `board` (H2), without exposing the king (P8). Empty when
/// no placement is safe.
fn safe_placement_set(
    node: &Node,
    board: &Board,
    tramps: [Option<Square>; 2],
    m: Move,
) -> Bitboard {
    // With the own trampoline lifted the enemy has fewer paths than now:
    // if the king was safe and the move opened nothing, it is still safe.
    let known_safe = bounce::surely_safe(m, node.king, node.in_check, node.critical);
    safe_set(board, tramps, node.us, known_safe)
}

/// The placement squares of `us` that leave the king safe on `board` (the
/// board after the piece step). `lifted_safe`: the caller knows that the
/// king is safe with the own trampoline off the board.
fn safe_set(board: &Board, tramps: [Option<Square>; 2], us: Color, lifted_safe: bool) -> Bitboard {
    let base = lifted(tramps, us);
    let Some(k) = board.king_of(us) else {
        return Bitboard::EMPTY;
    };
    // Trampolines block nothing, so a placement only adds paths: if the
    // king is attacked with the own trampoline lifted, no placement helps.
    if !lifted_safe && bounce::is_attacked(board, base, HOP, k, !us) {
        return Bitboard::EMPTY;
    }
    let squares = placement_squares(board, tramps, us);
    squares & !opening_squares(board, tramps, us, k, !us, squares)
}

/// Of `squares`, those where the trampoline of `placer` would give `by` a
/// path to the king on `k`, given that `by` has none with that trampoline
/// off the board: the squares of [`bad_placements`], and those of its
/// doubtful squares that the test of each finds attacked.
fn opening_squares(
    board: &Board,
    tramps: [Option<Square>; 2],
    placer: Color,
    k: Square,
    by: Color,
    squares: Bitboard,
) -> Bitboard {
    let (bad, doubtful) = bad_placements(board, tramps[(!placer).index()], !by, k);
    let mut opening = squares & bad;
    for s in squares & doubtful & !bad {
        let mut t = tramps;
        t[placer.index()] = Some(s);
        if bounce::is_attacked(board, t, HOP, k, by) {
            opening |= s;
        }
    }
    opening
}

/// The squares where `us`'s trampoline would give the enemy a path to the
/// king on `k`, given that it has none with that trampoline off the board:
/// `(bad, doubtful)`. `bad` are the squares of the paths on which every
/// piece keeps its kind; `doubtful`, the only other squares that a path
/// with a promotion on a trampoline (P6) could make bad, which the caller
/// tests one by one. `doubtful` is empty unless an enemy pawn could
/// promote on a trampoline: a pawn on its seventh rank, or on its sixth
/// with the other trampoline `e` on its seventh or eighth.
///
/// With no path through the other trampoline `e` alone, a new path uses
/// the new trampoline `s`: p-s-k, p-e-s-k or p-s-e-k. A path keeps one
/// kind of movement throughout (a queen keeps her line, H6), so each kind
/// is a product of bitboards: the squares it reaches with a non-capturing
/// first leg, and the squares from which a leg of that kind captures on
/// the king. The vacated origin of the attacker never matters here: a
/// slider whose origin lies on its last legs could take the short cut,
/// which would be a path without `s`.
fn bad_placements(board: &Board, e: Option<Square>, us: Color, k: Square) -> (Bitboard, Bitboard) {
    use crate::attacks::{
        bishop_attacks, knight_attacks, pawn_attacks, queen_attacks, rook_attacks,
    };
    let them = !us;
    let occ = board.occupied();
    let pawns = board.pieces(them, Role::Pawn);
    let rel_rank =
        |i: u8| Bitboard::rank(crate::types::Rank::new(them.fold(i, 7 - i)).expect("rank"));
    let promotes = (pawns & rel_rank(6)).any()
        || ((pawns & rel_rank(5)).any()
            && e.is_some_and(|e| (rel_rank(6) | rel_rank(7)).contains(e)));
    // Where a non-capturing first leg takes each kind of piece (P2).
    let reach = Reach::of(board, them);
    let (reach_n, reach_r, reach_b) = (reach.knight, reach.orth, reach.diag);
    let fwd = |bb: Bitboard| match them {
        Color::White => bb.north(),
        Color::Black => bb.south(),
    };
    // H7: a double step onto the square, over an empty or trampoline square.
    let double = fwd(fwd(pawns & rel_rank(1)) & !occ) & !occ;
    let reach_p = reach.pawn | double;
    let to_n = knight_attacks(k);
    let to_r = rook_attacks(k, occ);
    let to_b = bishop_attacks(k, occ);
    let to_p = pawn_attacks(us, k);
    let mut bad = (reach_n & to_n) | (reach_r & to_r) | (reach_b & to_b) | (reach_p & to_p);
    if let Some(e) = e {
        let step = them.fold(1, -1);
        // p-e-s-k
        if reach_n.contains(e) {
            bad |= knight_attacks(e) & to_n;
        }
        if reach_r.contains(e) {
            bad |= rook_attacks(e, occ) & to_r;
        }
        if reach_b.contains(e) {
            bad |= bishop_attacks(e, occ) & to_b;
        }
        if reach_p.contains(e) {
            if let Some(s) = e.offset(0, step) {
                if to_p.contains(s) {
                    bad |= s;
                }
            }
        }
        // p-s-e-k
        if to_n.contains(e) {
            bad |= knight_attacks(e) & reach_n;
        }
        if to_r.contains(e) {
            bad |= rook_attacks(e, occ) & reach_r;
        }
        if to_b.contains(e) {
            bad |= bishop_attacks(e, occ) & reach_b;
        }
        if to_p.contains(e) {
            if let Some(s) = e.offset(0, -step) {
                if reach_p.contains(s) {
                    bad |= s;
                }
            }
        }
    }
    let mut doubtful = Bitboard::EMPTY;
    if promotes {
        // A pawn reaches a trampoline on its last rank from its sixth or
        // seventh: `s` is that trampoline, or one it bounces off on the
        // way to `e`, on the last rank or the seventh.
        doubtful = rel_rank(6) | rel_rank(7);
        // Or the new piece goes on from `e`, on the last rank, over `s`
        // to the king: its last leg, from `s`, is a line of a queen or a
        // jump of a knight onto the king (the pawn's vacated origin, and
        // any other pawn of the enemy, counted empty).
        if e.is_some_and(|e| rel_rank(7).contains(e)) {
            doubtful |= queen_attacks(k, occ & !pawns) | to_n;
        }
    }
    (bad, doubtful)
}

/// Every pseudo-legal piece move of the side to move (of the pieces but
/// the king, only the captures and queen promotions unless `quiet`: see
/// `bounce::piece_moves`).
fn pseudo_piece_moves(pos: &Position, list: &mut MoveList, quiet: bool) {
    let us = pos.turn;
    bounce::piece_moves(
        &pos.board,
        pos.trampolines,
        HOP,
        us,
        pos.ep_square,
        quiet,
        list,
    );
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
        safe_set(&b, pos.trampolines, us, false).any()
    }
}

/// The placements of the side to move, in the [`PLACE`] phase.
fn placements(pos: &Position, list: &mut MoveList) {
    for s in safe_set(&pos.board, pos.trampolines, pos.turn, false) {
        list.push(Move::trampoline(s));
    }
}

/// The one loop over the piece steps of the side to move (not in the
/// [`PLACE`] phase): calls `f` with each legal step and the placements
/// that leave the king safe after it, `None` on White's first turn (H3:
/// the step is the whole turn, legal when the king is safe after it).
/// Steps with no safe placement are illegal and skipped.
#[inline]
fn for_each_legal_step(pos: &Position, f: impl FnMut(Move, Option<Bitboard>)) {
    for_each_kept_legal_step(pos, true, |_| true, f);
}

/// [`for_each_legal_step`] over the pseudo-legal steps `keep` accepts
/// (asked before the legality test, in generation order); `quiet` false
/// when `keep` accepts no quiet step (see [`pseudo_piece_moves`]).
#[inline]
fn for_each_kept_legal_step(
    pos: &Position,
    quiet: bool,
    mut keep: impl FnMut(Move) -> bool,
    mut f: impl FnMut(Move, Option<Bitboard>),
) {
    let mut pseudo = MoveList::with_capacity(128);
    pseudo_piece_moves(pos, &mut pseudo, quiet);
    let Some(node) = Node::new(pos, HOP) else {
        return;
    };
    for m in pseudo {
        if keep(m) {
            if let Some(places) = step_places(pos, &node, m) {
                f(m, places);
            }
        }
    }
}

/// The legality of the pseudo-legal piece step `m` (not in the [`PLACE`]
/// phase): `None` when it is illegal, else `Some(None)` on White's first
/// turn (H3: the step is the whole turn) or `Some(Some(places))`, the
/// placements that leave the king safe after it (never empty).
#[inline]
fn step_places(pos: &Position, node: &Node, m: Move) -> Option<Option<Bitboard>> {
    if pos.phase & FIRST != 0 {
        return node.safe(pos, HOP, m).then_some(None);
    }
    let mut b = pos.board.clone();
    bounce::make_on_board(&mut b, m);
    let safe = safe_placement_set(node, &b, pos.trampolines, m);
    safe.any().then_some(Some(safe))
}

/// [`legal_steps`] with the steps `keep` rejects left out, `keep` asked
/// before the legality test (the same list as `legal_steps` and a
/// `retain`, in the same order).
pub(crate) fn legal_steps_filtered(
    pos: &Position,
    list: &mut MoveList,
    mut keep: impl FnMut(Move) -> bool,
) {
    if pos.phase & PLACE != 0 {
        for s in safe_set(&pos.board, pos.trampolines, pos.turn, false) {
            push_kept(list, &mut keep, Move::trampoline(s));
        }
        return;
    }
    for_each_kept_legal_step(pos, true, keep, |m, _| list.push(m));
}

/// The legal noisy half-steps (`Position::is_noisy`: captures and queen
/// promotions) in the order of [`legal_steps`], the quiet moves of the
/// pieces not looked for.
pub(crate) fn legal_noisy_steps(pos: &Position, list: &mut MoveList) {
    if pos.phase & PLACE != 0 {
        legal_steps_filtered(pos, list, |m| pos.is_noisy(m));
        return;
    }
    for_each_kept_legal_step(pos, false, |m| pos.is_noisy(m), |m, _| list.push(m));
}

/// The candidate half-steps: in the [`PLACE`] phase the legal
/// placements, else the pseudo-legal piece steps in the order of
/// [`legal_steps`] (which keeps those [`candidate_is_legal`] accepts).
pub(crate) fn step_candidates(pos: &Position, list: &mut MoveList) {
    if pos.phase & PLACE != 0 {
        placements(pos, list);
        return;
    }
    if pos.board.king_of(pos.turn).is_none() {
        // No king, no legal step (as `for_each_kept_legal_step` finds).
        return;
    }
    pseudo_piece_moves(pos, list, true);
}

/// Whether the candidate `m` of [`step_candidates`] is legal: a placement
/// always is; a piece step when [`step_places`] finds it so (`ctx` holds
/// the position's [`Node`]; without a king there is no legal step).
pub(crate) fn candidate_is_legal(pos: &Position, ctx: &CandidateContext, m: Move) -> bool {
    if pos.phase & PLACE != 0 {
        return true;
    }
    ctx.node
        .as_ref()
        .is_some_and(|node| step_places(pos, node, m).is_some())
}

/// Whether the side to move has a legal half-step: it stops at the first.
pub(crate) fn has_legal_step(pos: &Position) -> bool {
    if pos.phase & PLACE != 0 {
        return placement_possible(pos);
    }
    let mut pseudo = MoveList::with_capacity(128);
    pseudo_piece_moves(pos, &mut pseudo, true);
    let Some(node) = Node::new(pos, HOP) else {
        return false;
    };
    pseudo
        .into_iter()
        .any(|m| step_places(pos, &node, m).is_some())
}

/// Appends every legal turn: piece moves with their placement (`place`
/// set), or piece moves alone on White's first turn, or placements alone
/// in the [`PLACE`] phase.
pub(crate) fn legal_moves(pos: &Position, list: &mut MoveList) {
    if pos.phase & PLACE != 0 {
        placements(pos, list);
        return;
    }
    for_each_legal_step(pos, |m, places| match places {
        None => list.push(m),
        Some(places) => {
            for s in places {
                list.push(m.with_place(Some(s)));
            }
        }
    });
}

/// The number of legal turns (perft's last ply), without listing them.
pub(crate) fn count_moves(pos: &Position) -> u64 {
    if pos.phase & PLACE != 0 {
        return u64::from(safe_set(&pos.board, pos.trampolines, pos.turn, false).count());
    }
    let mut n = 0;
    for_each_legal_step(pos, |_, places| {
        n += places.map_or(1, |p| u64::from(p.count()));
    });
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
    for_each_legal_step(pos, |m, _| list.push(m));
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
    let ep = super::chess::play_piece(pos, m.piece_part());
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
    bounce::update_checkers(pos, HOP);
}

/// Whether the side to move may capture en passant on `ep` (P5: not onto a
/// trampoline; the step must be legal).
pub(crate) fn ep_capture_possible(pos: &Position, ep: Square) -> bool {
    bounce::ep_capture_possible(pos, ep, |m| step_legal(pos, m))
}

/// Whether `sq` is attacked by `by` with the trampolines where they stand.
pub(crate) fn is_attacked(pos: &Position, sq: Square, by: Color) -> bool {
    bounce::is_attacked(&pos.board, pos.trampolines, HOP, sq, by)
}

/// In the [`PLACE`] phase: the squares where the side to move may put its
/// trampoline (H2; whether its own king stays safe aside) after which the
/// enemy king is attacked (P8), so that the turn gives check. Either
/// trampoline serves both sides (H4), so the new paths are those of
/// [`bad_placements`] with the roles swapped ([`opening_squares`]).
pub(crate) fn checking_placements(pos: &Position) -> Bitboard {
    let us = pos.turn;
    let Some(k) = pos.board.king_of(!us) else {
        return Bitboard::EMPTY;
    };
    let squares = placement_squares(&pos.board, pos.trampolines, us);
    let base = lifted(pos.trampolines, us);
    // Trampolines block nothing: a check without the own trampoline stays.
    if bounce::is_attacked(&pos.board, base, HOP, k, us) {
        return squares;
    }
    opening_squares(&pos.board, pos.trampolines, us, k, us, squares)
}

/// Whether the side to move has a legal placement (for the [`PLACE`]
/// phase's position text check).
pub(crate) fn placement_possible(pos: &Position) -> bool {
    safe_set(&pos.board, pos.trampolines, pos.turn, false).any()
}
