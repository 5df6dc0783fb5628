//! The moves of the trampoline games: every path of a piece, leg by leg
//! (P2-P7), one move per identity with its canonical path (P9, N3), the
//! king's steps and castlings (P3, H10).

use super::{
    forward, is_attacked, last_rank, leg_targets, lines_after, start_rank, tramp_bb, Lines, Rules,
};
use crate::attacks::{between, king_attacks, pawn_attacks};
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::moves::{Move, MoveKind, MoveList};
use crate::position::Castling;
use crate::types::{Color, Role, Square};

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
    /// Whether the quiet moves are wanted; if not, only captures and
    /// queen promotions are passed on (the legs are all followed still).
    quiet: bool,
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
        if self.quiet || promoted == Some(Role::Queen) {
            for to in quiet {
                self.emit(MoveKind::Normal, to, promoted, via);
            }
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
                if self.quiet || role == Role::Queen {
                    self.emit(MoveKind::Normal, to, Some(role), via);
                }
            }
        } else if self.quiet {
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
                            if self.quiet {
                                self.emit(MoveKind::DoubleStep, two, None, via);
                            }
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
    search_paths(board, tramps, rules, ep, from, true, sink);
}

/// [`for_each_path`], with the quiet moves (neither a capture nor a queen
/// promotion) left out when `quiet` is false.
fn search_paths(
    board: &Board,
    tramps: [Option<Square>; 2],
    rules: Rules,
    ep: Option<Square>,
    from: Square,
    quiet: bool,
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
        quiet,
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
/// one per move (P9) with its canonical path (N3); only the captures and
/// queen promotions, in the same order, when `quiet` is false (every
/// path of such a move is still found, so it keeps its canonical path).
pub(crate) fn piece_moves(
    board: &Board,
    tramps: [Option<Square>; 2],
    rules: Rules,
    us: Color,
    ep: Option<Square>,
    quiet: bool,
    list: &mut MoveList,
) {
    let mut dedup = Dedup::default();
    let usable = rules.usable(tramps, us);
    let occ = board.occupied();
    for from in board.by_color(us) & !board.by_role(Role::King) {
        // A piece that reaches no trampoline it may use with its first leg
        // makes direct moves alone, each of its own identity: they go to
        // the list as they come, with nothing to keep apart. (A pawn's
        // first legs are not `leg_targets`: it is passed over only when
        // no trampoline is usable at all.)
        let direct = usable.is_empty()
            || board.role_at(from).is_some_and(|role| {
                role != Role::Pawn && (leg_targets(role, Lines::Any, from, occ) & usable).is_empty()
            });
        if direct {
            search_paths(board, tramps, rules, ep, from, quiet, &mut |m| list.push(m));
        } else {
            dedup.clear();
            search_paths(board, tramps, rules, ep, from, quiet, &mut |m| {
                dedup.push(list, m)
            });
        }
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

/// Whether the piece on `from` can make the bounce path `from`, `via`...,
/// `to` (promoting to `role`) in `pos`: N3, every valid path names its move.
pub(crate) fn path_exists(
    pos: &crate::Position,
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
