//! The evaluation of The Weak Square of the Jumping King (`jumpingking`).
//!
//! The game has its own board (38 squares, J1), no queens (J2) and its own
//! goal (J3), so it does not use the FIDE terms: every attack set here is
//! cut to the board (sliders stop at missing squares, as in the rules
//! core), and the piece-square tables are drawn on the 38 squares. Black
//! reads White's tables through the 180-degree rotation of the board that
//! maps a1 onto f8 (file f' = f-file mirrored within a..f, rank 9 - r), the
//! symmetry of this board; a plain rank flip is not one.
//!
//! Terms, per side:
//! - material of the men on the board, and of the men its jumping king has
//!   still to place (a little less: they still have to enter); a side whose
//!   phase is over with men unplaced is stuck and they never enter (J6);
//! - piece-square tables and mobility on the 38 squares;
//! - the weak squares (J3): men that can step onto the enemy's weak square
//!   next move (with the move: the game is won; without: a threat the
//!   opponent must answer), men aiming at the squares next to it (its king
//!   and knight squares), men guarding the squares next to the own one, and
//!   a pawn walking up the weak square's file (J9: promotion is optional);
//! - passed pawns (promotion on rank 7 for White, rank 2 for Black, J9);
//! - the jumping phase (J4-J7): a jumping king's jumps available now, and
//!   the risk of getting stuck with men unplaced (one jump or none left);
//! - king safety once the jumping phase is over: attacks on its zone (a
//!   jumping king attacks nothing and is never in check, J4, J7).

use super::weights::{Weights, PHASE_TOTAL, PHASE_WEIGHT, S};
use springboard_rules::attacks;
use springboard_rules::facts::jumping_king::{area, weak_square, MEN};
use springboard_rules::{Bitboard, Color, Position, Role, Square, Variant};

const MASK: Bitboard = Variant::JumpingKing.mask();

/// The full phase of this game: 2 rooks, 2 bishops and 2 knights a side.
const PHASE_FULL: i32 = 16;

const FILE_A: u64 = 0x0101_0101_0101_0101;

/// The squares next to a weak square: its king and knight squares on the
/// board, from where most men step onto it.
fn ring(color: Color) -> Bitboard {
    let ws = weak_square(color);
    (attacks::king_attacks(ws) | attacks::knight_attacks(ws)) & MASK
}

/// The attacks of a man on the 38 squares (J1); pawns and kings as in FIDE
/// (a jumping king's attacks are the caller's business: it has none).
#[inline(always)]
fn attacks_on_board(role: Role, color: Color, sq: Square, occ: Bitboard) -> Bitboard {
    let blockers = occ | !MASK;
    let a = match role {
        Role::Knight => attacks::knight_attacks(sq),
        Role::Bishop => attacks::bishop_attacks(sq, blockers),
        Role::Rook => attacks::rook_attacks(sq, blockers),
        Role::Queen => attacks::queen_attacks(sq, blockers),
        Role::King => attacks::king_attacks(sq),
        Role::Pawn => attacks::pawn_attacks(color, sq),
        Role::Hoplit => Bitboard::EMPTY,
    };
    a & MASK
}

/// The index of `sq` in White's tables as `color` sees the board (rank 8
/// first as printed); `None` off the board's six files.
fn table_index(color: Color, sq: Square) -> Option<usize> {
    let (f, r) = (sq.file().index() as usize, sq.rank().index() as usize);
    if f > 5 {
        return None;
    }
    Some(match color {
        Color::White => sq.index() ^ 56,
        // The rotation (5 - f, 7 - r), then the printed order.
        Color::Black => r * 8 + (5 - f),
    })
}

/// The rank of `sq` counted from `color`'s side (0 = its first rank).
fn relative_rank(color: Color, sq: Square) -> usize {
    let r = sq.rank().index() as usize;
    match color {
        Color::White => r,
        Color::Black => 7 - r,
    }
}

/// The squares on ranks ahead of `sq` as seen by `color`.
fn ranks_ahead(color: Color, sq: Square) -> Bitboard {
    let r = sq.rank().index() as u32;
    match color {
        Color::White if r < 7 => Bitboard(!0u64 << (8 * (r + 1))),
        Color::Black if r > 0 => Bitboard((1u64 << (8 * r)) - 1),
        _ => Bitboard::EMPTY,
    }
}

fn file_and_neighbours(sq: Square) -> Bitboard {
    let f = sq.file().index();
    let mut m = FILE_A << f;
    if f > 0 {
        m |= FILE_A << (f - 1);
    }
    if f < 7 {
        m |= FILE_A << (f + 1);
    }
    Bitboard(m)
}

/// The game phase, 0 to [`PHASE_TOTAL`]: men on the board and men that
/// will still enter (a jumping side's unplaced men).
pub fn phase(pos: &Position) -> i32 {
    let b = pos.board();
    let mut p = 0;
    for role in MEN {
        p += PHASE_WEIGHT[role.index()] * b.by_role(role).count() as i32;
        for c in Color::ALL {
            if pos.is_jumping(c) {
                p += PHASE_WEIGHT[role.index()] * i32::from(pos.reserve(c, role));
            }
        }
    }
    (p * PHASE_TOTAL / PHASE_FULL).min(PHASE_TOTAL)
}

/// The terms for White minus those for Black.
pub fn terms(pos: &Position, w: &Weights) -> S {
    super::white_minus_black(pos, w, side_terms)
}

fn side_terms(pos: &Position, w: &Weights, us: Color) -> S {
    let jw = &w.jk;
    let b = pos.board();
    let them = !us;
    let occ = b.occupied();
    let own = b.by_color(us);
    let jumping = pos.is_jumping(us);
    let anyone_jumping = jumping || pos.is_jumping(them);
    let their_ws = weak_square(them);
    let our_ring = ring(us);
    let their_ring = ring(them);
    let their_ws_open = !occ.contains(their_ws);
    let mut enemy_pawn_attacks = Bitboard::EMPTY;
    for sq in b.pieces(them, Role::Pawn) {
        enemy_pawn_attacks |= attacks::pawn_attacks(them, sq);
    }
    // No man may enter its own weak square (J3).
    let mobility_area = MASK & !own & !enemy_pawn_attacks & !Bitboard::from_square(weak_square(us));
    let enemy_king_zone = match b.king_of(them) {
        Some(k) if !pos.is_jumping(them) => attacks_on_board(Role::King, them, k, occ) | k,
        _ => Bitboard::EMPTY,
    };
    let their_pawns = b.pieces(them, Role::Pawn);

    let mut score = S::ZERO;
    let mut ws_attackers = 0;
    let mut ring_attackers = 0;
    let mut ring_defenders = 0;

    // Each kind of man in a loop of its own (the order of MEN): its
    // attack lookup is inlined there, the role being a constant.
    macro_rules! men {
        ($role:expr) => {{
            let role = $role;
            let ri = role.index();
            for sq in b.pieces(us, role) {
                score += w.material[ri];
                if let Some(i) = table_index(us, sq) {
                    let v = jw.pst[ri][i];
                    score += S(v, v);
                }
                let att = attacks_on_board(role, us, sq, occ);
                let reach = if role == Role::Pawn {
                    // A pawn reaches the square ahead by stepping (no double
                    // step, J8); it attacks diagonally.
                    let ahead = sq
                        .offset(0, us.fold(1, -1))
                        .filter(|&s| MASK.contains(s) && !occ.contains(s))
                        .map_or(Bitboard::EMPTY, Bitboard::from_square);
                    att | ahead
                } else {
                    let mob = (att & mobility_area).count() as i32 - jw.mobility_base[ri];
                    score += jw.mobility[ri] * mob;
                    score += jw.king_zone[ri] * ((att & enemy_king_zone).count() as i32).min(3);
                    att
                };
                // A pawn never captures onto the weak square (no enemy man
                // stands there but a king on its start square).
                let onto_ws = if role == Role::Pawn {
                    reach & !att
                } else {
                    reach
                };
                if their_ws_open && onto_ws.contains(their_ws) {
                    ws_attackers += 1;
                }
                if (att & their_ring).any() {
                    ring_attackers += 1;
                }
                if (att & our_ring).any() {
                    ring_defenders += 1;
                }
            }
        }};
    }
    men!(MEN[0]);
    men!(MEN[1]);
    men!(MEN[2]);
    men!(MEN[3]);

    // Pawns: passed, and walking up the weak square's file.
    let ws_file = Bitboard::file(their_ws.file());
    for sq in b.pieces(us, Role::Pawn) {
        let ahead = ranks_ahead(us, sq);
        let rank = relative_rank(us, sq);
        if (file_and_neighbours(sq) & ahead & their_pawns).is_empty() {
            score += jw.passed_pawn[rank];
        }
        if ws_file.contains(sq) && (ws_file & ahead & MASK & occ).is_empty() {
            score += jw.ws_file_pawn[rank];
        }
    }

    // The king.
    if let Some(k) = b.king_of(us) {
        if let Some(i) = table_index(us, k) {
            score += S(jw.pst[Role::King.index()][i], jw.king_eg[i]);
        }
        if jumping {
            // J4, J5: jumps to empty squares of its area (a placement
            // exists for almost every jump; J5 is left out).
            let jumps = (attacks::knight_attacks(k) & area(us) & !occ).count() as i32;
            score += jw.king_jumps * jumps;
            if jumps <= 1 {
                score += jw.stuck_risk * pos.unplaced(us) as i32;
            }
        } else {
            let att = attacks_on_board(Role::King, us, k, occ);
            if their_ws_open && att.contains(their_ws) {
                ws_attackers += 1;
            }
            if (att & their_ring).any() {
                ring_attackers += 1;
            }
            if (att & our_ring).any() {
                ring_defenders += 1;
            }
        }
    }

    // Men still to enter (J4); a stuck side's never will (J6).
    if jumping {
        for role in MEN {
            let n = i32::from(pos.reserve(us, role));
            score += (w.material[role.index()] + jw.unplaced) * n;
        }
    }

    // The weak squares (J3).
    if !anyone_jumping && pos.turn() == us && ws_attackers > 0 {
        score += jw.ws_attack_to_move;
    } else {
        score += jw.ws_attack_waiting * ws_attackers;
    }
    score += jw.ws_ring_attack * ring_attackers + jw.ws_ring_defend * ring_defenders;
    score
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::weights::WEIGHTS;

    fn pos(fen: &str) -> Position {
        Position::from_fen(Variant::JumpingKing, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
    }

    fn eval(fen: &str) -> i32 {
        crate::eval::evaluate(&pos(fen))
    }

    #[test]
    fn tables_rotate_a1_onto_f8() {
        assert_eq!(table_index(Color::White, Square::A1), Some(56));
        assert_eq!(table_index(Color::Black, Square::F8), Some(56));
        assert_eq!(table_index(Color::White, Square::F7), Some(13));
        assert_eq!(table_index(Color::Black, Square::A2), Some(13));
        assert_eq!(table_index(Color::Black, Square::G5), None);
        assert_eq!(ring(Color::White).count(), 4);
        assert_eq!(
            ring(Color::Black),
            Bitboard::from_square(Square::E7) | Square::F7 | Square::D7 | Square::E6
        );
        // No table gives a value to a square that does not exist (in the
        // hand-set weights and in the game's own, perhaps tuned, ones).
        let own = crate::eval::weights::for_variant(Variant::JumpingKing);
        for w in [&WEIGHTS, own] {
            for sq in Square::ALL {
                if !MASK.contains(sq) {
                    let i = sq.index() ^ 56;
                    assert!(w.jk.pst.iter().all(|t| t[i] == 0), "{sq:?}");
                    assert_eq!(w.jk.king_eg[i], 0, "{sq:?}");
                }
            }
        }
    }

    #[test]
    fn start_is_level_and_in_full_phase() {
        let p = Position::startpos(Variant::JumpingKing);
        assert_eq!(terms(&p, &WEIGHTS), S::ZERO);
        assert_eq!(phase(&p), PHASE_TOTAL);
    }

    #[test]
    fn j3_a_rook_that_reaches_the_weak_square_next_move() {
        // Both phases over. The white rook on f3 sees f8 up the open f-file;
        // on c3 it does not. With White to move the rook f3 wins next move.
        let threat = "8/8/3k4/8/8/5R2/1K6/8[] b - 0 1";
        let elsewhere = "8/8/3k4/8/8/2R5/1K6/8[] b - 0 1";
        assert!(eval(elsewhere) > eval(threat) + WEIGHTS.jk.ws_attack_waiting.0 / 2);
        let to_move = "8/8/3k4/8/8/5R2/1K6/8[] w - 0 1";
        let quiet = "8/8/3k4/8/8/2R5/1K6/8[] w - 0 1";
        assert!(eval(to_move) > eval(quiet) + WEIGHTS.jk.ws_attack_to_move.0 / 2);
        // A man in the way closes the file: no threat.
        let blocked = "8/5n2/3k4/8/8/5R2/1K6/8[] b - 0 1";
        let blocked_p = pos(blocked);
        let white = side_terms(&blocked_p, &WEIGHTS, Color::White);
        let open = side_terms(&pos(threat), &WEIGHTS, Color::White);
        assert!(open.0 > white.0 + WEIGHTS.jk.ws_attack_waiting.0 / 2);
    }

    #[test]
    fn j9_a_pawn_on_the_weak_square_file() {
        // A white pawn f6 with f7 and f8 empty walks to f8 (J9: promotion
        // is optional); on e6 it is only a passed pawn.
        let f_file = pos("8/8/5P2/8/2k5/8/1K6/8[] b - 0 1");
        let e_file = pos("8/8/4P3/8/2k5/8/1K6/8[] b - 0 1");
        let a = side_terms(&f_file, &WEIGHTS, Color::White);
        let b = side_terms(&e_file, &WEIGHTS, Color::White);
        assert!(a.0 > b.0 && a.1 > b.1, "{a:?} {b:?}");
        // On f7 it reaches f8 next move.
        let f7 = pos("8/5P2/8/8/2k5/8/1K6/8[] b - 0 1");
        let s = side_terms(&f7, &WEIGHTS, Color::White);
        assert!(s.0 > a.0 && s.1 > a.1, "{s:?} {a:?}");
    }

    #[test]
    fn j6_a_stuck_sides_men_count_nothing() {
        // Black's king is stuck with a rook unplaced (docs/rules example):
        // the rook counts nothing. Jumping, it would count.
        let stuck = pos("8/4k3/8/8/3P4/1K6/3P4/8[r] w - 0 1");
        let s = side_terms(&stuck, &WEIGHTS, Color::Black);
        let none = pos("8/4k3/8/8/3P4/1K6/3P4/8[] w - 0 1");
        assert_eq!(s, side_terms(&none, &WEIGHTS, Color::Black));
    }

    #[test]
    fn j4_unplaced_men_are_worth_a_bit_less() {
        // After 1.Kc2 Kd7 2.Ke3<B, and the same with one white pawn fewer
        // to place: the pawn counts its material plus the (negative)
        // unplaced weight, and the stuck risk (the king e3 has one jump,
        // c4) grows by one man.
        let p = pos("8/3k4/8/8/8/4K3/2B5/8[RRBNNPPPrrbbnnppp] b Jj 3 2");
        let fewer = pos("8/3k4/8/8/8/4K3/2B5/8[RRBNNPPrrbbnnppp] b Jj 3 2");
        let diff =
            side_terms(&p, &WEIGHTS, Color::White) - side_terms(&fewer, &WEIGHTS, Color::White);
        let jk = &WEIGHTS.jk;
        assert_eq!(diff, WEIGHTS.material[0] + jk.unplaced + jk.stuck_risk);
        assert!(jk.unplaced.0 < 0 && jk.unplaced.1 < 0);
    }

    #[test]
    fn j6_a_king_about_to_get_stuck() {
        // White's jumping king on a3 with its knight c4 placed has one jump
        // left (c2; b5 is outside its area, b1 is no square): stuck risk
        // for each of the 8 men still to place. On c3 it has four jumps.
        let cornered = pos("8/2k5/8/8/2N5/K7/8/8[RRBBNPPPrrbbnnppp] w Jj 0 1");
        let free = pos("8/2k5/8/8/2N5/2K5/8/8[RRBBNPPPrrbbnnppp] w Jj 0 1");
        let a = side_terms(&cornered, &WEIGHTS, Color::White);
        let b = side_terms(&free, &WEIGHTS, Color::White);
        assert!(a.0 < b.0 + WEIGHTS.jk.stuck_risk.0 * 4, "{a:?} {b:?}");
        assert!(a.1 < b.1 + WEIGHTS.jk.stuck_risk.1 * 4, "{a:?} {b:?}");
    }
}
