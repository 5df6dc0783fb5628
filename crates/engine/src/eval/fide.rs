//! The evaluation terms of FIDE pieces on an 8x8 board: material,
//! piece-square tables, mobility, king safety, pawn structure, bishop pair
//! and rooks on open files. Every game shares them; a game adds its own
//! terms in its own module (see `super::evaluate`).

use super::weights::{Weights, PHASE_TOTAL, PHASE_WEIGHT, S};
use springboard_rules::attacks;
use springboard_rules::{Bitboard, Color, Position, Role, Square};

const FILE_A: u64 = 0x0101_0101_0101_0101;

/// FIDE roles with their index in the weight tables.
const ROLES: [Role; 6] = [
    Role::Pawn,
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Queen,
    Role::King,
];

/// The squares of the files next to `sq`'s file.
fn adjacent_files(sq: Square) -> Bitboard {
    let f = sq.file().index();
    let mut m = 0;
    if f > 0 {
        m |= FILE_A << (f - 1);
    }
    if f < 7 {
        m |= FILE_A << (f + 1);
    }
    Bitboard(m)
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

/// The squares attacked by `color`'s pawns.
fn pawn_attack_set(pos: &Position, color: Color) -> Bitboard {
    let mut set = Bitboard::EMPTY;
    for sq in pos.board().pieces(color, Role::Pawn) {
        set |= attacks::pawn_attacks(color, sq);
    }
    set
}

/// The game phase, 0 (bare kings) to [`PHASE_TOTAL`] (all pieces).
pub fn phase(pos: &Position) -> i32 {
    phase_material(pos).min(PHASE_TOTAL)
}

/// The phase weights of the FIDE pieces on the board, not capped (more
/// than [`PHASE_TOTAL`] after promotions).
pub fn phase_material(pos: &Position) -> i32 {
    let b = pos.board();
    ROLES
        .iter()
        .map(|&r| PHASE_WEIGHT[r.index()] * b.by_role(r).count() as i32)
        .sum()
}

/// The FIDE terms for White minus those for Black.
pub fn terms(pos: &Position, w: &Weights) -> S {
    terms_with(pos, w, |white, black| pawn_terms(w, white, black))
}

/// [`terms`], with the pawn structure ([`pawn_terms`] of White's and
/// Black's pawns) asked of `pawns`, which may keep it
/// (`search::eval_cache`).
pub fn terms_with(pos: &Position, w: &Weights, pawns: impl FnOnce(Bitboard, Bitboard) -> S) -> S {
    let b = pos.board();
    super::white_minus_black(pos, w, side_terms)
        + pawns(
            b.pieces(Color::White, Role::Pawn),
            b.pieces(Color::Black, Role::Pawn),
        )
}

/// The pawn structure (doubled, isolated and passed pawns) of White's
/// pawns `white` minus that of Black's pawns `black`: a function of the
/// two sets of pawns alone, so that a search may keep it by them.
pub fn pawn_terms(w: &Weights, white: Bitboard, black: Bitboard) -> S {
    pawn_structure(w, Color::White, white, black) - pawn_structure(w, Color::Black, black, white)
}

/// The pawn structure of `us`, whose pawns are `ours`.
fn pawn_structure(w: &Weights, us: Color, ours: Bitboard, theirs: Bitboard) -> S {
    let mut score = S::ZERO;
    for sq in ours {
        let file = Bitboard::file(sq.file());
        let ahead = ranks_ahead(us, sq);
        if (file & ahead & ours).any() {
            score += w.doubled_pawn;
        }
        if (adjacent_files(sq) & ours).is_empty() {
            score += w.isolated_pawn;
        }
        if ((file | adjacent_files(sq)) & ahead & theirs).is_empty() {
            score += w.passed_pawn[sq.rank().relative(us).index() as usize];
        }
    }
    score
}

fn side_terms(pos: &Position, w: &Weights, us: Color) -> S {
    let b = pos.board();
    let them = !us;
    let occ = b.occupied();
    let own = b.by_color(us);
    let our_pawns = b.pieces(us, Role::Pawn);
    let their_pawns = b.pieces(them, Role::Pawn);
    let enemy_pawn_attacks = pawn_attack_set(pos, them);
    let mobility_area = !own & !enemy_pawn_attacks;
    let enemy_king = b.king_of(them);
    let king_zone = enemy_king.map_or(Bitboard::EMPTY, |k| {
        attacks::king_attacks(k) | Bitboard::from_square(k)
    });
    let mut score = S::ZERO;
    let mut attack_units = 0;
    let mut attackers = 0;

    // Each role's pieces in a loop of its own, with its own attack
    // lookup: inlined there, where a lookup by a role held in a variable
    // (`attacks::attacks`) is a call and a branch per piece.
    macro_rules! placed {
        ($role:expr, $sq:expr) => {{
            let ri = $role.index();
            let idx = match us {
                Color::White => $sq.index() ^ 56,
                Color::Black => $sq.index(),
            };
            score += w.material[ri] + S(w.pst_mg[ri][idx], w.pst_eg[ri][idx]);
        }};
    }
    macro_rules! mobile {
        ($role:expr, $attacks:expr) => {{
            let ri = $role.index();
            for sq in b.pieces(us, $role) {
                placed!($role, sq);
                let att: Bitboard = $attacks(sq);
                let mob = (att & mobility_area).count() as i32 - w.mobility_base[ri];
                score += w.mobility[ri] * mob;
                let zone_hits = (att & king_zone).count() as i32;
                if zone_hits > 0 {
                    attackers += 1;
                    attack_units += w.king_attack_unit[ri] * zone_hits.min(3);
                }
                if $role == Role::Rook {
                    let file = Bitboard::file(sq.file());
                    if (file & our_pawns).is_empty() {
                        score += if (file & their_pawns).is_empty() {
                            w.rook_open_file
                        } else {
                            w.rook_semi_open_file
                        };
                    }
                }
            }
        }};
    }
    for sq in our_pawns {
        placed!(Role::Pawn, sq);
    }
    mobile!(Role::Knight, attacks::knight_attacks);
    mobile!(Role::Bishop, |sq| attacks::bishop_attacks(sq, occ));
    mobile!(Role::Rook, |sq| attacks::rook_attacks(sq, occ));
    mobile!(Role::Queen, |sq| attacks::queen_attacks(sq, occ));
    for sq in b.pieces(us, Role::King) {
        placed!(Role::King, sq);
    }
    if attackers >= 2 {
        score.0 += attack_units * attack_units * w.king_attack_scale / 64;
    }
    if b.pieces(us, Role::Bishop).more_than_one() {
        score += w.bishop_pair;
    }

    // The pawn structure is `pawn_terms`.

    // Pawn shield in front of our king.
    if let Some(k) = b.king_of(us) {
        if k.rank().relative(us).index() == 0 {
            let files = Bitboard::file(k.file()) | adjacent_files(k);
            let dir = us.fold(1, -1);
            for (i, dr) in [dir, 2 * dir].into_iter().enumerate() {
                if let Some(row) = k.offset(0, dr) {
                    let rank = Bitboard::rank(row.rank());
                    score += w.pawn_shield[i] * (files & rank & our_pawns).count() as i32;
                }
            }
        }
    }
    score
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::weights::WEIGHTS;
    use springboard_rules::Variant;

    #[test]
    fn start_position_is_symmetric() {
        let pos = Position::startpos(Variant::Chess);
        assert_eq!(terms(&pos, &WEIGHTS), S::ZERO);
        assert_eq!(phase(&pos), PHASE_TOTAL);
    }

    #[test]
    fn mirrored_positions_have_opposite_terms() {
        let white = Position::from_fen(
            Variant::Chess,
            "r1bqk2r/pp1n1ppp/2pbpn2/3p4/2PP4/2N1PN2/PPQ2PPP/R1B1KB1R w KQkq - 2 7",
        )
        .unwrap();
        let black = Position::from_fen(
            Variant::Chess,
            "r1b1kb1r/ppq2ppp/2n1pn2/2pp4/3P4/2PBPN2/PP1N1PPP/R1BQK2R b KQkq - 2 7",
        )
        .unwrap();
        assert_eq!(terms(&white, &WEIGHTS), -terms(&black, &WEIGHTS));
        assert_ne!(terms(&white, &WEIGHTS), S::ZERO);
    }

    #[test]
    fn passed_and_isolated_pawns() {
        assert_eq!(ranks_ahead(Color::White, Square::E4), Bitboard(!0u64 << 32));
        assert_eq!(ranks_ahead(Color::Black, Square::E4), Bitboard(0xff_ffff));
        assert_eq!(adjacent_files(Square::A3), Bitboard(FILE_A << 1));
    }
}
