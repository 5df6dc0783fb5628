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
//! Attack detection (P8) asks the same question backwards: which pieces
//! reach a usable trampoline with a non-capturing leg, and can one of them go
//! on from there to capture on the square (through the other trampoline
//! too)? FIDE attacks are tested first; the bounce part only looks at the
//! few pieces that reach a trampoline.

use crate::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks,
};
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::error::FenError;
use crate::moves::{Move, MoveKind, MoveList};
use crate::position::{Castling, Position};
use crate::types::{Color, Piece, Rank, Role, Square};

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

const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

/// The path search of one piece: every path, in depth-first order.
struct PathSearch<'a, F: FnMut(Move)> {
    rules: Rules,
    us: Color,
    origin: Square,
    /// Pieces of both sides, the origin removed (P7).
    occ: Bitboard,
    theirs: Bitboard,
    tramps: Bitboard,
    usable: Bitboard,
    ep: Option<Square>,
    sink: &'a mut F,
}

impl<F: FnMut(Move)> PathSearch<'_, F> {
    #[inline]
    fn emit(&mut self, kind: MoveKind, to: Square, role: Option<Role>, via: [Option<Square>; 2]) {
        let m = match kind {
            MoveKind::DoubleStep => Move::double_step(self.origin, to),
            MoveKind::EnPassant => Move::en_passant(self.origin, to),
            _ => Move::normal(self.origin, to).with_role(role),
        };
        (self.sink)(m.with_via(via));
    }

    #[inline]
    fn push_via(via: [Option<Square>; 2], t: Square) -> [Option<Square>; 2] {
        match via {
            [None, _] => [Some(t), None],
            [a, _] => [a, Some(t)],
        }
    }

    /// A leg of a knight or slider from `cur` (the origin or a trampoline).
    fn piece_leg(
        &mut self,
        cur: Square,
        role: Role,
        lines: Lines,
        via: [Option<Square>; 2],
        promoted: Option<Role>,
    ) {
        let targets = leg_targets(role, lines, cur, self.occ);
        for to in targets & self.theirs {
            self.emit(MoveKind::Normal, to, promoted, via);
        }
        let mut quiet = targets & !self.occ & !self.tramps;
        // H5/T4: never back to the origin, except T6's promoted piece.
        if !(promoted.is_some() && self.rules.promoted_may_return) {
            quiet = quiet.without(self.origin);
        }
        for to in quiet {
            self.emit(MoveKind::Normal, to, promoted, via);
        }
        let used = tramp_bb(via);
        for t in targets & self.usable & !used {
            let next = lines_after(self.rules, role, lines, cur, t);
            self.piece_leg(t, role, next, Self::push_via(via, t), promoted);
        }
    }

    /// A pawn lands on the trampoline `t` (P4) and goes on from there,
    /// promoting first on the last rank (P6).
    fn pawn_bounce(&mut self, t: Square, via: [Option<Square>; 2]) {
        let via = Self::push_via(via, t);
        if t.rank() == last_rank(self.us) {
            for role in PROMOTIONS {
                self.piece_leg(t, role, Lines::Any, via, Some(role));
            }
        } else {
            self.pawn_leg(t, via);
        }
    }

    fn pawn_quiet(&mut self, to: Square, via: [Option<Square>; 2]) {
        if to.rank() == last_rank(self.us) {
            for role in PROMOTIONS {
                self.emit(MoveKind::Normal, to, Some(role), via);
            }
        } else {
            self.emit(MoveKind::Normal, to, None, via);
        }
    }

    /// A pawn's leg from `cur` (the origin when `via` is empty).
    fn pawn_leg(&mut self, cur: Square, via: [Option<Square>; 2]) {
        let direct = via[0].is_none();
        let used = tramp_bb(via);
        let free = self.usable & !used;
        if let Some(one) = cur.offset(0, forward(self.us)) {
            if !self.occ.contains(one) {
                if !self.tramps.contains(one) {
                    self.pawn_quiet(one, via);
                } else if free.contains(one) {
                    self.pawn_bounce(one, via);
                }
                // P4: never a double step from a trampoline; H7/T5.
                if direct && cur.rank() == start_rank(self.us) {
                    let two = one
                        .offset(0, forward(self.us))
                        .expect("a double step stays on the board");
                    if !self.occ.contains(two) {
                        if !self.tramps.contains(two) {
                            self.emit(MoveKind::DoubleStep, two, None, via);
                        } else if self.rules.double_step_onto && free.contains(two) {
                            self.pawn_bounce(two, via);
                        }
                    }
                }
            }
        }
        for to in pawn_attacks(self.us, cur) & self.theirs {
            if to.rank() == last_rank(self.us) {
                for role in PROMOTIONS {
                    self.emit(MoveKind::Normal, to, Some(role), via);
                }
            } else {
                self.emit(MoveKind::Normal, to, None, via);
            }
        }
        // P5: only a direct diagonal step captures en passant, and not onto
        // a trampoline.
        if let Some(ep) = self.ep {
            if direct && pawn_attacks(self.us, cur).contains(ep) && !self.tramps.contains(ep) {
                self.emit(MoveKind::EnPassant, ep, None, via);
            }
        }
    }
}

/// Calls `sink` with every path of the (non-king) piece on `from`,
/// duplicates of one move included (pseudo-legal: the own king is not
/// tested).
pub(crate) fn for_each_path(
    board: &Board,
    tramps: [Option<Square>; 2],
    rules: Rules,
    ep: Option<Square>,
    from: Square,
    sink: &mut impl FnMut(Move),
) {
    let Some(piece) = board.piece_at(from) else {
        return;
    };
    let us = piece.color;
    let mut search = PathSearch {
        rules,
        us,
        origin: from,
        occ: board.occupied().without(from),
        theirs: board.by_color(!us),
        tramps: tramp_bb(tramps),
        usable: rules.usable(tramps, us),
        ep,
        sink,
    };
    match piece.role {
        Role::King => {}
        Role::Pawn => search.pawn_leg(from, [None, None]),
        role => search.piece_leg(from, role, Lines::Any, [None, None], None),
    }
}

/// The ordering of N3's canonical path: direct first, then fewer squares,
/// then the alphabetically smallest text (file before rank).
#[inline]
pub(crate) fn path_key(m: Move) -> (u8, u8, u8) {
    let key = |s: Option<Square>| s.map_or(0, |s| 1 + s.file().index() * 8 + s.rank().index());
    let [a, b] = m.via_slots();
    (a.is_some() as u8 + b.is_some() as u8, key(a), key(b))
}

/// Keeps one move per identity (P9), with its canonical path (N3).
pub(crate) struct Dedup {
    seen: [Bitboard; 7],
    index: [[u16; 64]; 7],
}

impl Default for Dedup {
    fn default() -> Dedup {
        Dedup {
            seen: [Bitboard::EMPTY; 7],
            index: [[0; 64]; 7],
        }
    }
}

impl Dedup {
    /// Starts the moves of a new origin square.
    #[inline]
    pub(crate) fn clear(&mut self) {
        self.seen = [Bitboard::EMPTY; 7];
    }

    #[inline]
    pub(crate) fn push(&mut self, list: &mut MoveList, m: Move) {
        let class = match (m.kind(), m.role()) {
            (MoveKind::DoubleStep, _) => 5,
            (MoveKind::EnPassant, _) => 6,
            (_, None) => 0,
            (_, Some(Role::Queen)) => 1,
            (_, Some(Role::Rook)) => 2,
            (_, Some(Role::Bishop)) => 3,
            (_, Some(_)) => 4,
        };
        let to = m.to().expect("piece moves have a destination");
        if self.seen[class].contains(to) {
            let i = self.index[class][to.index()] as usize;
            if path_key(m) < path_key(list[i]) {
                list[i] = m;
            }
        } else {
            self.seen[class] |= to;
            self.index[class][to.index()] = list.len() as u16;
            list.push(m);
        }
    }
}

/// Appends the pseudo-legal moves of `us`'s pieces other than the king,
/// one per move (P9) with its canonical path (N3).
pub(crate) fn piece_moves(
    board: &Board,
    tramps: [Option<Square>; 2],
    rules: Rules,
    us: Color,
    ep: Option<Square>,
    list: &mut MoveList,
) {
    let mut dedup = Dedup::default();
    for from in board.by_color(us) & !board.by_role(Role::King) {
        dedup.clear();
        for_each_path(board, tramps, rules, ep, from, &mut |m| dedup.push(list, m));
    }
}

/// Appends the king's steps (P3: never onto a trampoline) and castlings
/// (P3, H10: not out of check, not across an attacked square judged with
/// the trampolines as they stand; the destination is left to the legality
/// test after the turn).
pub(crate) fn king_moves(
    board: &Board,
    tramps: [Option<Square>; 2],
    rules: Rules,
    us: Color,
    castling: Castling,
    list: &mut MoveList,
) {
    let Some(k) = board.king_of(us) else {
        return;
    };
    let tbb = tramp_bb(tramps);
    for to in king_attacks(k) & !board.by_color(us) & !tbb {
        list.push(Move::normal(k, to));
    }
    let mut checked = None;
    for king_side in [true, false] {
        if !castling.has(us, king_side) {
            continue;
        }
        let (rook_sq, king_to, rook_to) = crate::games::chess::castle_squares(us, king_side);
        if (between(k, rook_sq) & board.occupied()).any() {
            continue;
        }
        // P3: no trampoline between king and rook nor on either destination.
        if ((between(k, rook_sq) | king_to | rook_to) & tbb).any() {
            continue;
        }
        let in_check = *checked.get_or_insert_with(|| is_attacked(board, tramps, rules, k, !us));
        if in_check {
            break;
        }
        if Iterator::any(&mut between(k, king_to), |sq| {
            is_attacked(board, tramps, rules, sq, !us)
        }) {
            continue;
        }
        list.push(Move::castle(k, king_to));
    }
}

/// Makes the piece part of a move on a board (see
/// [`crate::games::chess::move_piece`]).
#[inline]
pub(crate) fn make_on_board(board: &mut Board, m: Move) {
    crate::games::chess::move_piece(board, m);
}

// ---- Attack detection (P8) ----

struct Hunt {
    rules: Rules,
    by: Color,
    target: Square,
    /// Pieces, the attacker's origin removed (P7).
    occ: Bitboard,
    usable: Bitboard,
}

impl Hunt {
    /// Whether a piece standing on the trampoline `cur` (having used
    /// `used`) can go on to capture on the target.
    fn hits(&self, cur: Square, role: Role, lines: Lines, used: Bitboard) -> bool {
        if role == Role::Pawn {
            if pawn_attacks(self.by, cur).contains(self.target) {
                return true;
            }
            if let Some(one) = cur.offset(0, forward(self.by)) {
                if (self.usable & !used).contains(one) && !self.occ.contains(one) {
                    return self.pawn_lands(one, used | one);
                }
            }
            return false;
        }
        let targets = leg_targets(role, lines, cur, self.occ);
        if targets.contains(self.target) {
            return true;
        }
        for t in targets & self.usable & !used {
            let next = lines_after(self.rules, role, lines, cur, t);
            if self.hits(t, role, next, used | t) {
                return true;
            }
        }
        false
    }

    /// A pawn lands on the trampoline `t` (promoting on the last rank, P6;
    /// a queen covers the rook and bishop, a knight is separate).
    fn pawn_lands(&self, t: Square, used: Bitboard) -> bool {
        if t.rank() == last_rank(self.by) {
            self.hits(t, Role::Queen, Lines::Any, used)
                || self.hits(t, Role::Knight, Lines::Any, used)
        } else {
            self.hits(t, Role::Pawn, Lines::Any, used)
        }
    }
}

/// The pieces of `by` that attack `sq` (P8): FIDE attacks plus every
/// bounce path ending in a capture on `sq`, pins ignored. With `all` false
/// it stops at the first attacker found.
pub(crate) fn attackers(
    board: &Board,
    tramps: [Option<Square>; 2],
    rules: Rules,
    sq: Square,
    by: Color,
    all: bool,
) -> Bitboard {
    let occ = board.occupied();
    let them = board.by_color(by);
    let mut found = them
        & ((rook_attacks(sq, occ) & board.rook_likes())
            | (bishop_attacks(sq, occ) & board.bishop_likes())
            | (knight_attacks(sq) & board.by_role(Role::Knight))
            | (king_attacks(sq) & board.by_role(Role::King))
            | (pawn_attacks(!by, sq) & board.by_role(Role::Pawn)));
    if found.any() && !all {
        return found;
    }
    let usable = rules.usable(tramps, by);
    if usable.is_empty() {
        return found;
    }
    let mut hunt = Hunt {
        rules,
        by,
        target: sq,
        occ,
        usable,
    };
    let queens = board.by_role(Role::Queen);
    for t in usable {
        let used = Bitboard::from_square(t);
        let mut try_piece = |hunt: &mut Hunt, p: Square, role: Role, lines: Lines| {
            if found.contains(p) {
                return false;
            }
            hunt.occ = occ.without(p);
            let hit = if role == Role::Pawn {
                hunt.pawn_lands(t, used)
            } else {
                hunt.hits(t, role, lines, used)
            };
            if hit {
                found |= p;
            }
            hit && !all
        };
        for p in knight_attacks(t) & them & board.by_role(Role::Knight) {
            if try_piece(&mut hunt, p, Role::Knight, Lines::Any) {
                return found;
            }
        }
        for p in bishop_attacks(t, occ) & them & board.bishop_likes() {
            let (role, lines) = if queens.contains(p) {
                (
                    Role::Queen,
                    if rules.queen_line {
                        Lines::Diag
                    } else {
                        Lines::Any
                    },
                )
            } else {
                (Role::Bishop, Lines::Any)
            };
            if try_piece(&mut hunt, p, role, lines) {
                return found;
            }
        }
        for p in rook_attacks(t, occ) & them & board.rook_likes() {
            let (role, lines) = if queens.contains(p) {
                (
                    Role::Queen,
                    if rules.queen_line {
                        Lines::Orth
                    } else {
                        Lines::Any
                    },
                )
            } else {
                (Role::Rook, Lines::Any)
            };
            if try_piece(&mut hunt, p, role, lines) {
                return found;
            }
        }
        // Pawns: a straight step onto `t`, or (H7) a double step.
        let pawn = Piece::new(by, Role::Pawn);
        if let Some(one) = t.offset(0, -forward(by)) {
            if board.piece_at(one) == Some(pawn)
                && try_piece(&mut hunt, one, Role::Pawn, Lines::Any)
            {
                return found;
            }
            if rules.double_step_onto && !occ.contains(one) {
                if let Some(two) = one.offset(0, -forward(by)) {
                    if two.rank() == start_rank(by)
                        && board.piece_at(two) == Some(pawn)
                        && try_piece(&mut hunt, two, Role::Pawn, Lines::Any)
                    {
                        return found;
                    }
                }
            }
        }
    }
    found
}

/// Whether `sq` is attacked by `by` (P8).
#[inline]
pub(crate) fn is_attacked(
    board: &Board,
    tramps: [Option<Square>; 2],
    rules: Rules,
    sq: Square,
    by: Color,
) -> bool {
    attackers(board, tramps, rules, sq, by, false).any()
}

/// Whether the king of `us` is attacked on `board`.
#[inline]
pub(crate) fn king_attacked(
    board: &Board,
    tramps: [Option<Square>; 2],
    rules: Rules,
    us: Color,
) -> bool {
    match board.king_of(us) {
        Some(k) => is_attacked(board, tramps, rules, k, !us),
        None => false,
    }
}

/// Sets the checkers of the side to move: the enemy pieces that attack its
/// king directly or through the trampolines it may use (P8).
pub(crate) fn update_checkers(pos: &mut Position, rules: Rules) {
    let us = pos.turn;
    pos.checkers = match pos.board.king_of(us) {
        Some(k) => attackers(&pos.board, pos.trampolines, rules, k, !us, true),
        None => Bitboard::EMPTY,
    };
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

/// Whether the piece move `m` of `us` leaves `us`'s king unattacked, with
/// the trampolines `tramps` standing after it.
#[inline]
pub(crate) fn safe_after(
    board: &Board,
    tramps: [Option<Square>; 2],
    rules: Rules,
    us: Color,
    m: Move,
) -> bool {
    let mut b = board.clone();
    make_on_board(&mut b, m);
    !king_attacked(&b, tramps, rules, us)
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

// ---- Making moves on a position ----

/// Whether the piece on `from` can make the bounce path `from`, `via`...,
/// `to` (promoting to `role`) in `pos`: N3, every valid path names its move.
pub(crate) fn path_exists(
    pos: &crate::position::Position,
    from: Square,
    via: &[Square],
    to: Square,
    role: Option<Role>,
) -> bool {
    let Some(rules) = pos.variant().bounce_rules() else {
        return false;
    };
    let mut found = false;
    for_each_path(
        pos.board(),
        pos.trampolines,
        rules,
        pos.ep_square(),
        from,
        &mut |m| {
            found |= m.kind() == MoveKind::Normal
                && m.to() == Some(to)
                && m.role() == role
                && m.via().eq(via.iter().copied());
        },
    );
    found
}

/// The squares whose vacating may open an enemy path to the king on `k`.
///
/// A path that a piece leaving `x` opens has a slide over `x` from A to B,
/// where A is an enemy slider moving along that kind of line or a
/// trampoline the enemy may use, and B is such a trampoline or the king;
/// `x` was the only piece between A and B. Or (H7) `x` is the square an
/// enemy pawn double-steps over onto a trampoline. So `x` is the single
/// blocker between such a pair, found as pins are found. A pawn that
/// promotes on a trampoline of its last rank slides back over its own
/// vacated origin (P6, P7, T6), so such a pawn does not count as a blocker
/// either (the other single blocker is critical too).
#[inline]
pub(crate) fn critical_squares(
    board: &Board,
    tramps: [Option<Square>; 2],
    rules: Rules,
    k: Square,
    enemy: Color,
) -> Bitboard {
    let occ = board.occupied();
    let them = board.by_color(enemy);
    let rooks = them & board.rook_likes();
    let bishops = them & board.bishop_likes();
    let usable = rules.usable(tramps, enemy);
    let promoters = promoting_pawns(board, usable, enemy);
    let mut crit = Bitboard::EMPTY;
    for c in usable | k {
        let ends = (usable | k).without(c);
        let snipers = (rook_attacks(c, Bitboard::EMPTY) & (rooks | ends))
            | (bishop_attacks(c, Bitboard::EMPTY) & (bishops | ends));
        for sniper in snipers {
            let blockers = between(c, sniper) & occ;
            if blockers.any() && !blockers.more_than_one() {
                crit |= blockers;
            }
            let others = blockers & !promoters;
            if others != blockers && others.any() && !others.more_than_one() {
                crit |= others;
            }
        }
        if rules.double_step_onto && c != k {
            let back = -forward(enemy);
            if let (Some(x), Some(p)) = (c.offset(0, back), c.offset(0, 2 * back)) {
                if p.rank() == start_rank(enemy)
                    && board.piece_at(p) == Some(Piece::new(enemy, Role::Pawn))
                {
                    crit |= x;
                }
            }
        }
    }
    crit
}

/// The pawns of `enemy` one or two squares behind a trampoline it may use
/// on its last rank: they may step onto it (over a trampoline between, in
/// Hop Chess), promote and come back over their own origin (P6, T6).
fn promoting_pawns(board: &Board, usable: Bitboard, enemy: Color) -> Bitboard {
    let pawns = board.pieces(enemy, Role::Pawn);
    let back = -forward(enemy);
    let mut found = Bitboard::EMPTY;
    for t in usable & Bitboard::rank(last_rank(enemy)) {
        for n in 1..=2 {
            if let Some(sq) = t.offset(0, n * back) {
                found |= pawns & sq;
            }
        }
    }
    found
}

/// A cheap sufficient test that a piece move leaves the own king safe:
/// the king was not attacked, the move is not a king move, castling or en
/// passant, and the origin is not critical. A piece that arrives on a
/// square only blocks paths (a capture leaves the capturer there), so only
/// the vacated origin can open a path.
#[inline]
pub(crate) fn surely_safe(m: Move, king: Square, in_check: bool, critical: Bitboard) -> bool {
    !in_check
        && matches!(m.kind(), MoveKind::Normal | MoveKind::DoubleStep)
        && m.from().is_some_and(|f| f != king && !critical.contains(f))
}
