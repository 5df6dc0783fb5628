//! The terms of the trampoline games, Hop Chess (`hopchess`) and Trampoline
//! Chess (`trampoline`), on top of the shared FIDE terms.
//!
//! A piece that reaches a trampoline it may use (H4: either trampoline in
//! Hop Chess; T3: only its own in Trampoline Chess) with a non-capturing
//! leg goes on from there as if it started there (P2). The evaluation
//! counts this cheaply, per piece: its FIDE attack set is computed anyway;
//! for each usable trampoline in that set, the attack set of one more leg
//! from the trampoline (the origin vacated, P7; a Hop Chess queen on the
//! kind of line she arrived on, H6) gives the squares the piece reaches
//! only by bouncing. Second bounces and pawn bounces are left out: this is
//! a measure, not the rules (the exact attacks, P8, are in the rules core).
//! Which trampolines a side may use and where the leg after a bounce goes
//! are the rules core's facts ([`Position::usable_trampolines`],
//! [`Position::bounce_leg`]).
//!
//! Terms, per side:
//! - bounce mobility: squares reached only through a trampoline; a
//!   trampoline square itself is no destination (P2), so the FIDE mobility
//!   counted for it is taken back;
//! - king danger: squares of the enemy king's zone reached only through a
//!   trampoline, and any trampoline the enemy may use on a queen line or a
//!   knight square of our king (whatever reaches it can check from there;
//!   in Hop Chess our own trampoline serves the enemy too, H4);
//! - threats: enemy pieces attacked only through a trampoline;
//! - placement: in Trampoline Chess a trampoline off the board is a tempo
//!   in hand (T2); in Hop Chess the side that still has to place its
//!   trampoline this turn (H2) gets the placement's worth.

use super::weights::{Weights, S};
use springboard_rules::attacks;
use springboard_rules::{Bitboard, Color, Position, Role, Variant};

/// The trampolines on the board.
fn all_trampolines(pos: &Position) -> Bitboard {
    Color::ALL
        .into_iter()
        .filter_map(|c| pos.trampoline(c))
        .collect()
}

/// The trampoline terms for White minus those for Black.
pub fn terms(pos: &Position, w: &Weights) -> S {
    super::white_minus_black(pos, w, side_terms)
}

fn side_terms(pos: &Position, w: &Weights, us: Color) -> S {
    let tw = &w.tramp;
    let b = pos.board();
    let them = !us;
    let occ = b.occupied();
    let tramps = all_trampolines(pos);
    let ours_usable = pos.usable_trampolines(us);
    let mut score = S::ZERO;

    // Only the pieces that reach a trampoline have anything to count:
    // find them backwards from the trampolines (a few lookups), then
    // follow each of them.
    let mut reachers = Bitboard::EMPTY;
    for t in tramps {
        reachers |= attacks::knight_attacks(t) & b.pieces(us, Role::Knight)
            | attacks::bishop_attacks(t, occ)
                & (b.pieces(us, Role::Bishop) | b.pieces(us, Role::Queen))
            | attacks::rook_attacks(t, occ)
                & (b.pieces(us, Role::Rook) | b.pieces(us, Role::Queen));
    }
    let mut enemy_pawn_attacks = Bitboard::EMPTY;
    if reachers.any() {
        for sq in b.pieces(them, Role::Pawn) {
            enemy_pawn_attacks |= attacks::pawn_attacks(them, sq);
        }
    }
    let mobility_area = !b.by_color(us) & !enemy_pawn_attacks;
    let king_zone = b.king_of(them).map_or(Bitboard::EMPTY, |k| {
        attacks::king_attacks(k) | Bitboard::from_square(k)
    });
    let targets = b.by_color(them) & !b.by_role(Role::Pawn) & !b.by_role(Role::King);
    for sq in reachers {
        let Some(role) = b.role_at(sq) else { continue };
        let ri = role.index();
        let direct = attacks::attacks(role, us, sq, occ);
        // P2: no piece ends its move on a trampoline; the shared FIDE
        // mobility counted those squares.
        score -= w.mobility[ri] * (direct & tramps & mobility_area).count() as i32;
        let mut bounced = Bitboard::EMPTY;
        for t in direct & ours_usable {
            bounced |= pos.bounce_leg(role, sq, t, occ);
        }
        let extra = bounced & !direct & !tramps;
        if extra.is_empty() {
            continue;
        }
        score += tw.bounce_mobility[ri] * (extra & mobility_area).count() as i32;
        score += tw.bounce_king_zone[ri] * ((extra & king_zone).count() as i32).min(3);
        score += tw.bounce_threat * (extra & targets).count() as i32;
    }

    // Our king beside a line the enemy may bounce along.
    if let Some(k) = b.king_of(us) {
        let lines = attacks::queen_attacks(k, occ) | attacks::knight_attacks(k);
        score += tw.king_line * (lines & pos.usable_trampolines(them)).count() as i32;
    }

    match pos.variant() {
        Variant::Trampoline => {
            if pos.trampoline(us).is_none() {
                score += tw.in_hand;
            }
        }
        Variant::HopChess => {
            if pos.placement_pending() && pos.turn() == us {
                score += tw.place_pending;
            }
        }
        Variant::Chess | Variant::JumpingKing | Variant::Hoplit => {}
    }
    score
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::weights::WEIGHTS;

    fn pos(variant: Variant, fen: &str) -> Position {
        Position::from_fen(variant, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
    }

    #[test]
    fn no_trampolines_no_bounce_terms() {
        // Both trampolines off the board: only Trampoline Chess's tempo in
        // hand, equal for both sides.
        let p = pos(
            Variant::Trampoline,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 -,-",
        );
        assert_eq!(terms(&p, &WEIGHTS), S::ZERO);
        assert_eq!(
            side_terms(&p, &WEIGHTS, Color::White),
            WEIGHTS.tramp.in_hand
        );
    }

    #[test]
    fn t3_only_the_owner_bounces() {
        // The rook a1 reaches the trampoline a4 on its file; from a4 it
        // would attack the fourth rank. In Trampoline Chess that serves
        // only the trampoline's owner (T3); in Hop Chess either side (H4).
        let own = pos(Variant::Trampoline, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1 a4,-");
        let theirs = pos(Variant::Trampoline, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1 -,a4");
        let rook = |p: &Position| side_terms(p, &WEIGHTS, Color::White);
        // The rook's bounce squares b4-h4 (7) are in its mobility area.
        let bounce = WEIGHTS.tramp.bounce_mobility[Role::Rook.index()] * 7;
        // a4 itself is no destination: the FIDE mobility counted it.
        let back = -WEIGHTS.mobility[Role::Rook.index()];
        assert_eq!(rook(&own), bounce + back);
        assert_eq!(rook(&theirs), back + WEIGHTS.tramp.in_hand);
        let hop = pos(Variant::HopChess, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1 -,a4 -");
        assert_eq!(rook(&hop), bounce + back);
    }

    #[test]
    fn h6_queen_keeps_her_line() {
        // Queen a1, trampoline a4 reached along the file: in Hop Chess she
        // goes on as a rook (the fourth rank and the file above, a5-a8 are
        // already hers), in Trampoline Chess as a queen (diagonals too).
        let hop = pos(Variant::HopChess, "6k1/8/8/8/8/8/8/Q6K w - - 0 1 a4,- -");
        let tramp = pos(Variant::Trampoline, "6k1/8/8/8/8/8/8/Q6K w - - 0 1 a4,-");
        let queen = Role::Queen.index();
        let back = -WEIGHTS.mobility[queen];
        // Hop Chess: b4-h4 but d4 (on her diagonal) are new (6); a5-a8
        // were hers already.
        let q = |p: &Position| side_terms(p, &WEIGHTS, Color::White);
        assert_eq!(q(&hop), back + WEIGHTS.tramp.bounce_mobility[queen] * 6);
        // From a4 as a queen: b4-h4 but d4 (6), b5 c6 d7 e8 (4), b3 c2
        // (d1 is on the first rank, already hers) = 12.
        assert_eq!(q(&tramp), back + WEIGHTS.tramp.bounce_mobility[queen] * 12);
    }

    #[test]
    fn king_next_to_an_enemy_trampoline_line() {
        // The black trampoline on e3 stands on the white king's file: in
        // Trampoline Chess it serves Black only (T3), so it endangers the
        // white king; White's own trampoline there would not.
        let danger = pos(Variant::Trampoline, "4k3/8/8/8/8/8/8/4K3 w - - 0 1 -,e3");
        let own = pos(Variant::Trampoline, "4k3/8/8/8/8/8/8/4K3 w - - 0 1 e3,-");
        let white = |p: &Position| side_terms(p, &WEIGHTS, Color::White);
        assert_eq!(
            white(&danger),
            WEIGHTS.tramp.in_hand + WEIGHTS.tramp.king_line
        );
        assert_eq!(white(&own), S::ZERO);
        // In Hop Chess both trampolines serve both sides (H4): the own
        // trampoline on the king's line is as dangerous.
        let hop = pos(Variant::HopChess, "4k3/8/8/8/8/8/8/4K3 w - - 0 1 e3,- -");
        assert_eq!(white(&hop), WEIGHTS.tramp.king_line);
    }

    #[test]
    fn bounce_into_the_king_zone_and_threats() {
        // Knight b1, White's trampoline c3: from c3 the knight reaches
        // d5, e4, e2, b5, a4, a2 and d1 (and its own square b1, outside
        // the mobility area). The black king e6 has d5 in its zone; the
        // black rook e4 is attacked only through the trampoline.
        let p = pos(Variant::Trampoline, "8/8/4k3/8/4r3/8/8/1N5K w - - 0 1 c3,-");
        let n = Role::Knight.index();
        let tw = &WEIGHTS.tramp;
        let white = side_terms(&p, &WEIGHTS, Color::White);
        // Direct knight squares: a3, c3 (the trampoline, taken back), d2.
        let expected = -WEIGHTS.mobility[n]
            + tw.bounce_mobility[n] * 7
            + tw.bounce_king_zone[n]
            + tw.bounce_threat;
        assert_eq!(white, expected);
    }
}
