//! The evaluation terms of FIDE pieces on an 8x8 board: material,
//! piece-square tables, mobility, king safety, pawn structure, bishop pair
//! and rooks on open files. Every game shares them; a game adds its own
//! terms in its own module (see `super::evaluate`). Chess and Hoplit Chess
//! also take the terms of both sides' attacks ([`terms_with_attacks`]:
//! threats, passed pawns' way ahead, king danger).

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
    mapped_terms::<false>(pos, w, pawns).0
}

/// [`terms_with`] and the terms of both sides' attacks
/// ([`attack_terms`]), from the attack sets gathered on the way.
pub fn terms_with_attacks(
    pos: &Position,
    w: &Weights,
    pawns: impl FnOnce(Bitboard, Bitboard) -> S,
) -> S {
    let (score, white, black) = mapped_terms::<true>(pos, w, pawns);
    score + attack_terms_of(pos, w, &white, &black)
}

/// [`terms_with`], and White's and Black's attack sets; with `DANGER`,
/// the king's safety is left to [`attack_terms`] (`king_danger`).
fn mapped_terms<const DANGER: bool>(
    pos: &Position,
    w: &Weights,
    pawns: impl FnOnce(Bitboard, Bitboard) -> S,
) -> (S, AttackMap, AttackMap) {
    let b = pos.board();
    let mut white = AttackMap::of_pawns(pos, Color::White);
    let mut black = AttackMap::of_pawns(pos, Color::Black);
    let score = side_terms::<DANGER>(pos, w, Color::White, &mut white, black.pawn)
        - side_terms::<DANGER>(pos, w, Color::Black, &mut black, white.pawn)
        + pawns(
            b.pieces(Color::White, Role::Pawn),
            b.pieces(Color::Black, Role::Pawn),
        );
    (score, white, black)
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

/// The squares one side attacks, by kind of attacker, and those it
/// attacks twice or more (two pawns, or any two pieces).
struct AttackMap {
    pawn: Bitboard,
    knight: Bitboard,
    bishop: Bitboard,
    rook: Bitboard,
    queen: Bitboard,
    king: Bitboard,
    all: Bitboard,
    twice: Bitboard,
    /// The king danger weights (`Weights::kd_attacker`) of the pieces
    /// attacking the enemy king's zone, and their attacks on the squares
    /// next to that king, each piece's counted.
    king_attackers: i32,
    king_hits: i32,
}

/// `pawns` shifted one rank forward for `color`.
fn forward(color: Color, pawns: Bitboard) -> Bitboard {
    match color {
        Color::White => Bitboard(pawns.0 << 8),
        Color::Black => Bitboard(pawns.0 >> 8),
    }
}

/// The squares `color`'s pawns on `pawns` attack towards the a-file and
/// towards the h-file.
fn pawn_attack_sides(color: Color, pawns: Bitboard) -> (Bitboard, Bitboard) {
    const FILE_H: u64 = FILE_A << 7;
    let west = pawns.0 & !FILE_A;
    let east = pawns.0 & !FILE_H;
    match color {
        Color::White => (Bitboard(west << 7), Bitboard(east << 9)),
        Color::Black => (Bitboard(west >> 9), Bitboard(east >> 7)),
    }
}

impl AttackMap {
    /// The attacks of `us`'s pawns; [`side_terms`] adds the pieces'.
    fn of_pawns(pos: &Position, us: Color) -> AttackMap {
        let (west, east) = pawn_attack_sides(us, pos.board().pieces(us, Role::Pawn));
        AttackMap {
            pawn: west | east,
            knight: Bitboard::EMPTY,
            bishop: Bitboard::EMPTY,
            rook: Bitboard::EMPTY,
            queen: Bitboard::EMPTY,
            king: Bitboard::EMPTY,
            all: west | east,
            twice: west & east,
            king_attackers: 0,
            king_hits: 0,
        }
    }

    /// Adds the attacks `att` of a piece of `role`.
    #[inline]
    fn add(&mut self, role: Role, att: Bitboard) {
        self.twice |= self.all & att;
        self.all |= att;
        match role {
            Role::Knight => self.knight |= att,
            Role::Bishop => self.bishop |= att,
            Role::Rook => self.rook |= att,
            Role::Queen => self.queen |= att,
            Role::King => self.king |= att,
            _ => {}
        }
    }
}

/// The terms that read both sides' attacks, White's minus Black's: the
/// threats (enemy pieces attacked, by what and how well they are
/// protected), the king danger and the passed pawns' way ahead (after
/// Stockfish 11's `Evaluation::threats`, `king` and `passed`). Chess and
/// Hoplit Chess take them through [`terms_with_attacks`].
pub fn attack_terms(pos: &Position, w: &Weights) -> S {
    let (_, white, black) = mapped_terms::<true>(pos, w, |_, _| S::ZERO);
    attack_terms_of(pos, w, &white, &black)
}

fn attack_terms_of(pos: &Position, w: &Weights, white: &AttackMap, black: &AttackMap) -> S {
    side_threats(pos, w, Color::White, white, black)
        - side_threats(pos, w, Color::Black, black, white)
        + side_passers(pos, w, Color::White, white, black)
        - side_passers(pos, w, Color::Black, black, white)
}

/// The danger to `us`'s king on `k` from the enemy's attacks (after
/// Stockfish 11's `Evaluation::king`): the attackers of its zone, their
/// attacks next to it, the squares next to it that the enemy attacks and
/// only the king or queen defends, the checks the enemy can give on safe
/// squares (once per kind of piece) and on others, less a queenless
/// attack; squared in the middlegame.
fn king_danger(
    pos: &Position,
    w: &Weights,
    us: Color,
    k: Square,
    ours: &AttackMap,
    theirs: &AttackMap,
) -> S {
    let b = pos.board();
    let them = !us;
    let occ = b.occupied();
    // The squares next to the king: its own attacks, in `ours`.
    let ring = ours.king;
    let weak = theirs.all & !ours.twice & (!ours.all | ours.king | ours.queen);
    let mut kd = theirs.king_attackers
        + w.kd_hit * theirs.king_hits
        + w.kd_weak_ring * (ring & weak).count() as i32
        + w.kd_offset;
    if b.pieces(them, Role::Queen).is_empty() {
        kd += w.kd_no_queen;
    }
    let safe = !b.by_color(them) & (!ours.all | (weak & theirs.twice));
    let straight = attacks::rook_attacks(k, occ);
    let diagonal = attacks::bishop_attacks(k, occ);
    let rook_checks = straight & theirs.rook;
    let queen_checks = (straight | diagonal) & theirs.queen & !ours.queen & safe & !rook_checks;
    let bishop_checks = diagonal & theirs.bishop;
    let knight_checks = attacks::knight_attacks(k) & theirs.knight;
    let mut unsafe_checks = Bitboard::EMPTY;
    if (rook_checks & safe).any() {
        kd += w.kd_safe_check[Role::Rook.index()];
    } else {
        unsafe_checks |= rook_checks;
    }
    if queen_checks.any() {
        kd += w.kd_safe_check[Role::Queen.index()];
    }
    if (bishop_checks & safe & !queen_checks).any() {
        kd += w.kd_safe_check[Role::Bishop.index()];
    } else {
        unsafe_checks |= bishop_checks;
    }
    if (knight_checks & safe).any() {
        kd += w.kd_safe_check[Role::Knight.index()];
    } else {
        unsafe_checks |= knight_checks;
    }
    kd += w.kd_unsafe_check * (unsafe_checks & !b.by_color(them)).count() as i32;
    if kd > 100 {
        S(kd * kd / w.kd_scale.0, kd / w.kd_scale.1)
    } else {
        S::ZERO
    }
}

/// The king distance (Chebyshev) of two squares.
fn distance(a: Square, b: Square) -> i32 {
    let df = (a.file().index() as i32 - b.file().index() as i32).abs();
    let dr = (a.rank().index() as i32 - b.rank().index() as i32).abs();
    df.max(dr)
}

fn side_passers(pos: &Position, w: &Weights, us: Color, ours: &AttackMap, theirs: &AttackMap) -> S {
    let b = pos.board();
    let them = !us;
    let (Some(our_king), Some(their_king)) = (b.king_of(us), b.king_of(them)) else {
        return S::ZERO;
    };
    let their_pawns = b.pieces(them, Role::Pawn);
    let heavy = b.by_role(Role::Rook) | b.by_role(Role::Queen);
    let dir = us.fold(1, -1);
    let mut score = S::ZERO;
    for sq in b.pieces(us, Role::Pawn) {
        let r = sq.rank().relative(us).index() as i32;
        if r < 3 {
            continue;
        }
        let file = Bitboard::file(sq.file());
        let ahead = ranks_ahead(us, sq);
        let span = (file | adjacent_files(sq)) & ahead;
        if (span & their_pawns).any() {
            continue;
        }
        let Some(block) = sq.offset(0, dir) else {
            continue;
        };
        let weight = 5 * r - 13;
        let near = |k: Square, s: Square| distance(k, s).min(5);
        score += w.passed_king_them * (near(their_king, block) * weight);
        let mut own = 2 * near(our_king, block);
        if let Some(next) = block.offset(0, dir) {
            own += near(our_king, next);
        }
        score += w.passed_king_us * (own * weight / 2);
        if b.occupied().contains(block) {
            continue;
        }
        let behind = file & ranks_ahead(them, sq) & heavy;
        let mut unsafe_squares = span;
        if (b.by_color(them) & behind).is_empty() {
            unsafe_squares &= theirs.all;
        }
        let free = if unsafe_squares.is_empty() {
            Some(0)
        } else if (unsafe_squares & file).is_empty() {
            Some(1)
        } else if !unsafe_squares.contains(block) {
            Some(2)
        } else {
            None
        };
        if let Some(i) = free {
            score += w.passed_free[i] * weight;
        }
        if (b.by_color(us) & behind).any() || ours.all.contains(block) {
            score += w.passed_defended * weight;
        }
    }
    score
}

fn side_threats(pos: &Position, w: &Weights, us: Color, ours: &AttackMap, theirs: &AttackMap) -> S {
    let b = pos.board();
    let them = !us;
    let their_pawns = b.pieces(them, Role::Pawn);
    let targets = b.by_color(them) & !b.pieces(them, Role::King);
    let non_pawn = targets & !their_pawns;
    let strongly = theirs.pawn | (theirs.twice & !ours.twice);
    let defended = non_pawn & strongly;
    let weak = targets & !strongly & ours.all;
    let mut score = S::ZERO;
    if (defended | weak).any() {
        let by_minor = (defended | weak) & (ours.knight | ours.bishop);
        let by_rook = weak & ours.rook;
        for role in [
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
        ] {
            let victims = b.pieces(them, role);
            let ri = role.index();
            score += w.threat_by_minor[ri] * (by_minor & victims).count() as i32;
            score += w.threat_by_rook[ri] * (by_rook & victims).count() as i32;
        }
        if (weak & ours.king).any() {
            score += w.threat_by_king;
        }
        let loose = !theirs.all | (non_pawn & ours.twice);
        score += w.hanging * (weak & loose).count() as i32;
    }
    score += w.restricted * (theirs.all & !strongly & ours.all).count() as i32;
    let safe = !theirs.all | ours.all;
    let our_pawns = b.pieces(us, Role::Pawn);
    let (west, east) = pawn_attack_sides(us, our_pawns & safe);
    score += w.threat_by_safe_pawn * ((west | east) & non_pawn).count() as i32;
    let empty = !b.occupied();
    let third = Bitboard(0xff << (8 * us.fold(2, 5)));
    let mut push = forward(us, our_pawns) & empty;
    push |= forward(us, push & third) & empty;
    push &= !theirs.pawn & safe;
    let (west, east) = pawn_attack_sides(us, push);
    score += w.threat_by_pawn_push * ((west | east) & non_pawn).count() as i32;
    if let Some(k) = b.king_of(them) {
        score += king_danger(pos, w, them, k, theirs, ours);
    }
    score
}

/// `us`'s FIDE terms but the pawn structure; adds `us`'s pieces' attacks
/// to `ours`. `enemy_pawn_attacks`: the squares the enemy's pawns attack.
fn side_terms<const DANGER: bool>(
    pos: &Position,
    w: &Weights,
    us: Color,
    ours: &mut AttackMap,
    enemy_pawn_attacks: Bitboard,
) -> S {
    let b = pos.board();
    let them = !us;
    let occ = b.occupied();
    let own = b.by_color(us);
    let our_pawns = b.pieces(us, Role::Pawn);
    let their_pawns = b.pieces(them, Role::Pawn);
    let mobility_area = !own & !enemy_pawn_attacks;
    let enemy_king = b.king_of(them);
    let king_ring = enemy_king.map_or(Bitboard::EMPTY, attacks::king_attacks);
    let king_zone = enemy_king.map_or(Bitboard::EMPTY, |k| king_ring | Bitboard::from_square(k));
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
                ours.add($role, att);
                let mob = (att & mobility_area).count() as i32 - w.mobility_base[ri];
                score += w.mobility[ri] * mob;
                let zone_hits = (att & king_zone).count() as i32;
                if zone_hits > 0 {
                    attackers += 1;
                    attack_units += w.king_attack_unit[ri] * zone_hits.min(3);
                    if DANGER {
                        ours.king_attackers += w.kd_attacker[ri];
                        ours.king_hits += (att & king_ring).count() as i32;
                    }
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
        ours.add(Role::King, attacks::king_attacks(sq));
    }
    if !DANGER && attackers >= 2 {
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

    /// `WEIGHTS` with the passed pawns' terms of [`attack_terms`] zero.
    const NO_PASSERS: Weights = Weights {
        passed_free: [S::ZERO; 3],
        passed_defended: S::ZERO,
        passed_king_them: S::ZERO,
        passed_king_us: S::ZERO,
        ..WEIGHTS
    };

    fn chess(fen: &str) -> Position {
        Position::from_fen(Variant::Chess, fen).unwrap()
    }

    #[test]
    fn a_pawn_attacking_a_loose_knight_is_a_threat_and_the_knight_hangs() {
        // The e4 pawn attacks the d5 knight; nothing attacks the pawn and
        // nothing defends the knight; the two sides attack no common square.
        let pos = chess("7k/8/8/3n4/4P3/8/8/K7 w - - 0 1");
        let w = &NO_PASSERS;
        assert_eq!(attack_terms(&pos, w), w.threat_by_safe_pawn + w.hanging);
        // Defended by a pawn, the knight is strongly protected: only the
        // pawn's threat is left.
        let pos = chess("7k/8/4p3/3n4/4P3/8/8/K7 w - - 0 1");
        assert_eq!(attack_terms(&pos, w), w.threat_by_safe_pawn);
    }

    #[test]
    fn a_minor_attacking_a_loose_rook_and_a_rook_attacking_a_loose_pawn() {
        // White: the b5 knight attacks the c7 rook, which nothing defends.
        // Black: the c7 rook attacks the c2 pawn, which nothing defends.
        // Both sides attack a7 and c3 (knight and rook), which neither
        // protects strongly: two restricted squares each way.
        let pos = chess("7k/2r5/8/1N6/8/8/2P5/K7 w - - 0 1");
        let w = &NO_PASSERS;
        let white = w.threat_by_minor[Role::Rook.index()] + w.hanging + w.restricted * 2;
        let black = w.threat_by_rook[Role::Pawn.index()] + w.hanging + w.restricted * 2;
        assert_eq!(attack_terms(&pos, w), white - black);
    }

    #[test]
    fn a_free_passed_pawn_and_the_kings_distances() {
        // e5 (rank index 4 from White's side, weight 7): e6 empty and no
        // black attack on d6-f8, so its way is free. Black's king is 3
        // from e6; White's is 5 (at most) from e6 and from e7.
        let pos = chess("7k/8/8/4P3/8/8/8/K7 w - - 0 1");
        let w = &WEIGHTS;
        let expected =
            w.passed_free[0] * 7 + w.passed_king_them * 21 + w.passed_king_us * (15 * 7 / 2);
        assert_eq!(attack_terms(&pos, w), expected);
        // A black rook behind the pawn makes its whole way unsafe: only the
        // kings' terms are left (White's king now 4 from e6, 5 from e7).
        let pos = chess("7k/8/8/4P3/8/8/K7/4r3 w - - 0 1");
        let expected = w.passed_king_them * 21 + w.passed_king_us * (13 * 7 / 2);
        assert_eq!(
            attack_terms(&pos, w) - attack_terms(&pos, &NO_PASSERS),
            expected
        );
    }

    #[test]
    fn passed_and_isolated_pawns() {
        assert_eq!(ranks_ahead(Color::White, Square::E4), Bitboard(!0u64 << 32));
        assert_eq!(ranks_ahead(Color::Black, Square::E4), Bitboard(0xff_ffff));
        assert_eq!(adjacent_files(Square::A3), Bitboard(FILE_A << 1));
    }
}
