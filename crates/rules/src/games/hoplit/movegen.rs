//! The legal moves of Hoplit Chess: FIDE moves with pins and check masks,
//! the Hoplit's moves, drops (L4), and the Hoplit side of king safety
//! through the zone of [`hoplit_zone`].

use super::geometry::{hoplit_attackers, hoplit_targets, hoplit_zone};
use super::is_attacked;
use crate::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, rook_attacks,
};
use crate::bitboard::Bitboard;
use crate::games::{chess, push_kept};
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::types::{Color, Rank, Role, Square};

/// Promotion pieces (C1 and L5), in generation order.
const PROMOTIONS: [Role; 5] = [
    Role::Queen,
    Role::Rook,
    Role::Bishop,
    Role::Knight,
    Role::Hoplit,
];

/// Decides the Hoplit side of legality for non-king moves (the FIDE side
/// is decided by pins and the check mask).
struct Guard {
    ksq: Square,
    zone: Bitboard,
    their_hoplits: Bitboard,
    occ: Bitboard,
    our_pawns: Bitboard,
    in_hoplit_check: bool,
    /// Everything when not in a Hoplit's check, else nothing: the moves
    /// that touch no zone square keep the Hoplit check state.
    free: Bitboard,
}

impl Guard {
    /// Whether moving the piece on `from` to `to` (an empty square or a
    /// capture) leaves the king free of Hoplit attacks. `pawn_after`: a pawn
    /// stands on `to` after the move (it can be an enemy-pawn screen, L3).
    #[inline(always)]
    fn ok(&self, from: Square, to: Square, pawn_after: bool) -> bool {
        let touched = Bitboard::from_square(from) | to;
        if (touched & self.zone).is_empty() {
            return !self.in_hoplit_check;
        }
        self.exact(from, to, pawn_after)
    }

    #[inline]
    fn exact(&self, from: Square, to: Square, pawn_after: bool) -> bool {
        let occ = (self.occ ^ from) | to;
        let mut pawns = self.our_pawns & !Bitboard::from_square(from);
        if pawn_after {
            pawns |= to;
        }
        hoplit_attackers(self.ksq, self.their_hoplits.without(to), occ, pawns).is_empty()
    }

    /// The squares whose moves from `from` need the exact test: all if the
    /// piece leaves the zone, else the zone.
    #[inline(always)]
    fn danger(&self, from: Square) -> Bitboard {
        if self.zone.contains(from) {
            Bitboard::FULL
        } else {
            self.zone
        }
    }

    /// Pushes the moves of the non-pawn piece on `from` to `targets` that
    /// `keep` accepts.
    #[inline(always)]
    fn push_all(
        &self,
        list: &mut MoveList,
        keep: &mut impl FnMut(Move) -> bool,
        from: Square,
        targets: Bitboard,
    ) {
        let danger = self.danger(from);
        for to in targets & !danger & self.free {
            push_kept(list, keep, Move::normal(from, to));
        }
        let slow = targets & danger;
        if slow.any() {
            for to in slow {
                let m = Move::normal(from, to);
                if keep(m) && self.exact(from, to, false) {
                    list.push(m);
                }
            }
        }
    }
}

/// Appends the promotions from `from` to `to` that `keep` accepts and
/// whose move is `legal` (asked once, for the first kept one).
#[inline]
fn push_promotions(
    list: &mut MoveList,
    keep: &mut impl FnMut(Move) -> bool,
    from: Square,
    to: Square,
    legal: impl Fn() -> bool,
) {
    let mut is_legal = None;
    for role in PROMOTIONS {
        let m = Move::promotion(from, to, role);
        if keep(m) && *is_legal.get_or_insert_with(&legal) {
            list.push(m);
        }
    }
}

/// Whether our king on `ksq` would be safe with occupancy `occ`, our pawns
/// `our_pawns`, and `captured` taken off the board.
#[inline]
fn king_safe(
    pos: &Position,
    ksq: Square,
    occ: Bitboard,
    our_pawns: Bitboard,
    captured: Bitboard,
) -> bool {
    let b = pos.board();
    let them = !pos.turn();
    (pos.attackers_to(ksq, them, occ) & !captured).is_empty()
        && hoplit_attackers(
            ksq,
            b.pieces(them, Role::Hoplit) & !captured,
            occ,
            our_pawns,
        )
        .is_empty()
}

/// Appends every legal move of a Hoplit Chess position.
pub(crate) fn legal_moves(pos: &Position, list: &mut MoveList) {
    legal_moves_kept(pos, list, |_| true)
}

/// Appends the legal moves that `keep` accepts, in the order of
/// [`legal_moves`]: `keep` is asked first, and the legality of the kept
/// moves only is tested.
pub(crate) fn legal_moves_kept(
    pos: &Position,
    list: &mut MoveList,
    mut keep: impl FnMut(Move) -> bool,
) {
    let keep = &mut keep;
    let b = pos.board();
    let us = pos.turn();
    let them = !us;
    let ours = b.by_color(us);
    let theirs = b.by_color(them);
    let occ = b.occupied();
    let ksq = b.king_of(us).expect("a king");
    let hoplits = b.by_role(Role::Hoplit);
    let their_hoplits = hoplits & theirs;
    let our_pawns = b.pieces(us, Role::Pawn);
    let their_pawns = b.pieces(them, Role::Pawn);
    let checkers = pos.checkers();
    let fide_checkers = checkers & !hoplits;

    // King moves, judged with the king off its square: it must not hide
    // behind itself from a slider, nor keep serving as a Hoplit's screen.
    let occ_no_king = occ ^ ksq;
    for to in king_attacks(ksq) & !ours {
        let m = Move::normal(ksq, to);
        if keep(m)
            && pos.attackers_to(to, them, occ_no_king).is_empty()
            && (their_hoplits.is_empty()
                || hoplit_attackers(to, their_hoplits, occ_no_king, our_pawns).is_empty())
        {
            list.push(m);
        }
    }
    // Drops (L4): on an empty first-rank square behind a friendly pawn
    // whose next square is empty; the pawn steps forward. Legal when the
    // king is safe after both: the Hoplit itself may block a check, and
    // with the pawn's step a drop may even answer a double check.
    if pos.reserve(us, Role::Hoplit) > 0 {
        let back = Bitboard::rank(Rank::new(0).expect("rank").relative(us));
        let behind_pawns = match us {
            Color::White => our_pawns.south(),
            Color::Black => our_pawns.north(),
        };
        let free_ahead = match us {
            Color::White => (!occ).south().south(),
            Color::Black => (!occ).north().north(),
        };
        for to in back & !occ & behind_pawns & free_ahead {
            let m = Move::drop(Role::Hoplit, to);
            if !keep(m) {
                continue;
            }
            let up = us.fold(8, -8);
            let pawn_from = Square::from_index((to as i32 + up) as u32);
            let pawn_to = Square::from_index((to as i32 + 2 * up) as u32);
            let after = (occ | to) ^ pawn_from | pawn_to;
            let pawns = (our_pawns ^ pawn_from) | pawn_to;
            if king_safe(pos, ksq, after, pawns, Bitboard::EMPTY) {
                list.push(m);
            }
        }
    }

    if fide_checkers.more_than_one() {
        return;
    }

    let in_hoplit_check = (checkers & hoplits).any();
    let guard = Guard {
        ksq,
        zone: hoplit_zone(ksq, their_hoplits, occ),
        their_hoplits,
        occ,
        our_pawns,
        in_hoplit_check,
        free: if in_hoplit_check {
            Bitboard::EMPTY
        } else {
            Bitboard::FULL
        },
    };
    let target = match fide_checkers.first() {
        Some(c) => between(ksq, c) | c,
        None => Bitboard::FULL,
    };
    let pinned = chess::pinned(pos, us, ksq);

    for from in b.pieces(us, Role::Knight) & !pinned {
        guard.push_all(list, keep, from, knight_attacks(from) & !ours & target);
    }
    for from in b.bishop_likes() & ours {
        let mut t = bishop_attacks(from, occ) & !ours & target;
        if pinned.contains(from) {
            t &= line(ksq, from);
        }
        guard.push_all(list, keep, from, t);
    }
    for from in b.rook_likes() & ours {
        let mut t = rook_attacks(from, occ) & !ours & target;
        if pinned.contains(from) {
            t &= line(ksq, from);
        }
        guard.push_all(list, keep, from, t);
    }
    for from in b.pieces(us, Role::Hoplit) {
        let mut t = hoplit_targets(from, occ, ours, their_pawns) & target;
        if pinned.contains(from) {
            // A Hoplit never lands on a line through its origin, so a
            // pinned Hoplit has no move; the mask says so generally.
            t &= line(ksq, from);
        }
        guard.push_all(list, keep, from, t);
    }

    // Pawns. A step touches the zone when its destination or its origin
    // (one or two squares back) is in it.
    let empty = !occ;
    let (up, third, promo): (i32, Bitboard, Rank) = match us {
        Color::White => (8, Bitboard(0xff << 16), Rank::new(7).expect("rank")),
        Color::Black => (-8, Bitboard(0xff << 40), Rank::new(0).expect("rank")),
    };
    let shift = |bb: Bitboard| match us {
        Color::White => bb.north(),
        Color::Black => bb.south(),
    };
    let last = Bitboard::rank(promo);
    let pin_ok = |from: Square, to: Square| !pinned.contains(from) || line(ksq, from).contains(to);
    let step = shift(our_pawns) & empty;
    let single = step & target;
    let danger = guard.zone | shift(guard.zone);
    for to in single & !last & !danger & guard.free {
        let from = Square::from_index((to as i32 - up) as u32);
        if pin_ok(from, to) {
            push_kept(list, keep, Move::normal(from, to));
        }
    }
    for to in single & !last & danger {
        let from = Square::from_index((to as i32 - up) as u32);
        let m = Move::normal(from, to);
        if keep(m) && pin_ok(from, to) && guard.exact(from, to, true) {
            list.push(m);
        }
    }
    for to in single & last {
        let from = Square::from_index((to as i32 - up) as u32);
        push_promotions(list, keep, from, to, || {
            pin_ok(from, to) && guard.ok(from, to, false)
        });
    }
    let double = shift(step & third) & empty & target;
    let danger = guard.zone | shift(shift(guard.zone));
    for to in double & !danger & guard.free {
        let from = Square::from_index((to as i32 - 2 * up) as u32);
        if pin_ok(from, to) {
            push_kept(list, keep, Move::double_step(from, to));
        }
    }
    for to in double & danger {
        let from = Square::from_index((to as i32 - 2 * up) as u32);
        let m = Move::double_step(from, to);
        if keep(m) && pin_ok(from, to) && guard.exact(from, to, true) {
            list.push(m);
        }
    }
    for from in our_pawns {
        let mut t = pawn_attacks(us, from) & theirs & target;
        if t.is_empty() {
            continue;
        }
        if pinned.contains(from) {
            t &= line(ksq, from);
        }
        let danger = guard.danger(from);
        for to in t & !last & !danger & guard.free {
            push_kept(list, keep, Move::normal(from, to));
        }
        for to in t & !last & danger {
            let m = Move::normal(from, to);
            if keep(m) && guard.exact(from, to, true) {
                list.push(m);
            }
        }
        for to in t & last {
            push_promotions(list, keep, from, to, || guard.ok(from, to, false));
        }
    }
    if let Some(ep) = pos.ep_square() {
        for from in pawn_attacks(them, ep) & our_pawns {
            let m = Move::en_passant(from, ep);
            if keep(m) && ep_capture_legal(pos, from, ep) {
                list.push(m);
            }
        }
    }

    // Castling (C1): not out of check, not across an attacked square (both
    // judged before the move), and, as every move, not into check (judged
    // after it, with the rook moved: it may serve as a Hoplit's screen).
    if checkers.is_empty() {
        for king_side in [true, false] {
            if !pos.castling().has(us, king_side) {
                continue;
            }
            let (rook_sq, king_to, rook_to) = chess::castle_squares(us, king_side);
            let m = Move::castle(ksq, king_to);
            if !keep(m) {
                continue;
            }
            if (between(ksq, rook_sq) & occ).any() {
                continue;
            }
            if any_square(between(ksq, king_to), |sq| is_attacked(pos, sq, them)) {
                continue;
            }
            let after = (occ ^ ksq ^ rook_sq) | king_to | rook_to;
            if king_safe(pos, king_to, after, our_pawns, Bitboard::EMPTY) {
                list.push(m);
            }
        }
    }
}

/// Whether the pawn on `from` may legally capture en passant on `ep`.
fn ep_capture_legal(pos: &Position, from: Square, ep: Square) -> bool {
    let b = pos.board();
    let us = pos.turn();
    let Some(ksq) = b.king_of(us) else {
        return false;
    };
    let captured = Square::from_index(match us {
        Color::White => ep as u32 - 8,
        Color::Black => ep as u32 + 8,
    });
    let occ = (b.occupied() ^ from ^ captured) | ep;
    let pawns = (b.pieces(us, Role::Pawn) ^ from) | ep;
    king_safe(pos, ksq, occ, pawns, Bitboard::from_square(captured))
}

/// Whether the side to move has a legal en-passant capture on `ep`.
pub(super) fn ep_capture_possible(pos: &Position, ep: Square) -> bool {
    let us = pos.turn();
    any_square(
        pawn_attacks(!us, ep) & pos.board().pieces(us, Role::Pawn),
        |from| ep_capture_legal(pos, from, ep),
    )
}

/// Whether some square of `set` passes `f`.
#[inline]
fn any_square(set: Bitboard, f: impl FnMut(Square) -> bool) -> bool {
    let mut set = set;
    Iterator::any(&mut set, f)
}
