//! The terms of Hoplit Chess (`hoplit`) on top of the shared FIDE terms:
//! the Hoplit's material on the board and in reserve (with a bonus while a
//! drop is possible, L4), its mobility, its attacks over a screen into the
//! enemy king's zone and on enemy pieces (L2, L3). The Hoplit's squares come
//! from the rules core ([`Position::hoplit_targets`]); nothing of its move
//! is re-implemented here.

use super::weights::{Weights, S};
use springboard_rules::attacks;
use springboard_rules::{Bitboard, Color, Position, Rank, Role};

/// The Hoplit's phase weight summed over both sides (board and reserve).
pub fn phase_weight(pos: &Position, w: &Weights) -> i32 {
    let n: i32 = Color::ALL
        .into_iter()
        .map(|c| {
            pos.board().count(c, Role::Hoplit) as i32 + i32::from(pos.reserve(c, Role::Hoplit))
        })
        .sum();
    n * w.hoplit.phase
}

/// Whether `us` could drop a reserve Hoplit now, king safety aside (L4): an
/// empty square of the first rank, an own pawn in front of it, the square
/// beyond that pawn empty.
pub fn drop_square_exists(pos: &Position, us: Color) -> bool {
    let b = pos.board();
    let empty = !b.occupied();
    let first = Bitboard::rank(Rank::new(us.fold(0, 7)).expect("rank"));
    let pawns = b.pieces(us, Role::Pawn);
    let squares = match us {
        Color::White => empty & first & pawns.south() & empty.south().south(),
        Color::Black => empty & first & pawns.north() & empty.north().north(),
    };
    squares.any()
}

/// The Hoplit terms for White minus those for Black.
pub fn terms(pos: &Position, w: &Weights) -> S {
    super::white_minus_black(pos, w, side_terms)
}

fn side_terms(pos: &Position, w: &Weights, us: Color) -> S {
    let hw = &w.hoplit;
    let b = pos.board();
    let them = !us;
    let mut score = S::ZERO;

    let reserve = i32::from(pos.reserve(us, Role::Hoplit));
    if reserve > 0 {
        score += hw.reserve * reserve;
        if drop_square_exists(pos, us) {
            score += hw.drop_ready;
        }
    }

    let hoplits = b.pieces(us, Role::Hoplit);
    if hoplits.is_empty() {
        return score;
    }
    let mut enemy_pawn_attacks = Bitboard::EMPTY;
    for sq in b.pieces(them, Role::Pawn) {
        enemy_pawn_attacks |= attacks::pawn_attacks(them, sq);
    }
    let king_zone = b.king_of(them).map_or(Bitboard::EMPTY, |k| {
        attacks::king_attacks(k) | Bitboard::from_square(k)
    });
    let targets = b.by_color(them) & !b.by_role(Role::Pawn) & !b.by_role(Role::King);
    for sq in hoplits {
        score += hw.material;
        // L2, L3: the squares it moves or captures to, over its screens.
        let reach = pos.hoplit_targets(sq);
        let mob = (reach & !enemy_pawn_attacks).count() as i32 - hw.mobility_base;
        score += hw.mobility * mob;
        score += hw.king_zone * ((reach & king_zone).count() as i32).min(3);
        score += hw.threat * (reach & targets).count() as i32;
    }
    score
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::weights::WEIGHTS;
    use springboard_rules::Variant;

    fn pos(fen: &str) -> Position {
        Position::from_fen(Variant::Hoplit, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
    }

    #[test]
    fn l4_reserve_and_drop_bonus() {
        let start = pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Hh] w KQkq - 0 1");
        // No empty first-rank square at the start: no drop yet.
        assert!(!drop_square_exists(&start, Color::White));
        assert_eq!(
            side_terms(&start, &WEIGHTS, Color::White),
            WEIGHTS.hoplit.reserve
        );
        assert_eq!(terms(&start, &WEIGHTS), S::ZERO);
        // After Nf3: g1 is empty behind g2, g3 is empty: H@g1 is possible.
        let ready = pos("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R[Hh] b KQkq - 1 1");
        assert!(drop_square_exists(&ready, Color::White));
        assert!(!drop_square_exists(&ready, Color::Black));
        assert_eq!(
            terms(&ready, &WEIGHTS),
            WEIGHTS.hoplit.drop_ready,
            "only White may drop"
        );
        // A pawn whose next square is taken gives no drop (L4).
        let blocked = pos("4k3/8/8/8/8/6n1/6P1/4K3[H] w - - 0 1");
        assert!(!drop_square_exists(&blocked, Color::White));
        let open = pos("4k3/8/8/8/8/8/6P1/4K3[H] w - - 0 1");
        assert!(drop_square_exists(&open, Color::White));
    }

    #[test]
    fn reserve_is_worth_a_bit_less_than_the_board() {
        let h = &WEIGHTS.hoplit;
        assert!(h.reserve.0 < h.material.0 && h.reserve.1 < h.material.1);
        assert!(h.reserve.0 + h.drop_ready.0 <= h.material.0);
        assert!(h.material.0 > 2 * WEIGHTS.material[0].0);
    }

    #[test]
    fn hoplit_squares_and_king_zone_over_a_screen() {
        // The documented example with the black king on g4: from a1 over
        // b4 to b5-b8, over the knight e3 to f3-h3, and via d4 east over
        // the king itself to h4 (8 squares). Four of them are in the
        // king's zone (counted up to three); the knight is a screen, not
        // a target.
        let p = pos("8/8/8/8/1P4k1/4n3/8/H6K[] w - - 0 1");
        let h = &WEIGHTS.hoplit;
        let expected = h.material + h.mobility * (8 - h.mobility_base) + h.king_zone * 3;
        assert_eq!(side_terms(&p, &WEIGHTS, Color::White), expected);
        // Without the screen on the third rank: b5-b8 and h4 only.
        let quiet = pos("8/8/8/8/1P4k1/8/8/H6K[] w - - 0 1");
        let expected = h.material + h.mobility * (5 - h.mobility_base) + h.king_zone;
        assert_eq!(side_terms(&quiet, &WEIGHTS, Color::White), expected);
        assert!(
            side_terms(&p, &WEIGHTS, Color::White).0 > side_terms(&quiet, &WEIGHTS, Color::White).0
        );
    }

    #[test]
    fn l3_enemy_pawn_screen_reaches_one_square() {
        // A black pawn b4 as screen: the b-file leg reaches only b5 (L3);
        // b5 is attacked by no black pawn. A white pawn gives b5-b8.
        let enemy = pos("7k/8/8/8/1p6/8/8/H6K[] w - - 0 1");
        let own = pos("7k/8/8/8/1P6/8/8/H6K[] w - - 0 1");
        let h = &WEIGHTS.hoplit;
        assert_eq!(
            side_terms(&enemy, &WEIGHTS, Color::White),
            h.material + h.mobility * (1 - h.mobility_base)
        );
        assert_eq!(
            side_terms(&own, &WEIGHTS, Color::White),
            h.material + h.mobility * (4 - h.mobility_base)
        );
    }
}
