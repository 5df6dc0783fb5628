//! Every evaluation weight in one place, ready for tuning. Scores are
//! centipawns as (middlegame, endgame) pairs, blended by the game phase.
//!
//! The piece values and piece-square tables start from Ronald Friederich's
//! PeSTO tables (published on the Chess Programming Wiki); the other terms
//! are small hand-set corrections on top.

pub mod tuned;

use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// A tapered score: middlegame and endgame values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct S(pub i32, pub i32);

impl S {
    pub const ZERO: S = S(0, 0);
}

impl Add for S {
    type Output = S;
    fn add(self, o: S) -> S {
        S(self.0 + o.0, self.1 + o.1)
    }
}
impl AddAssign for S {
    fn add_assign(&mut self, o: S) {
        *self = *self + o;
    }
}
impl Sub for S {
    type Output = S;
    fn sub(self, o: S) -> S {
        S(self.0 - o.0, self.1 - o.1)
    }
}
impl SubAssign for S {
    fn sub_assign(&mut self, o: S) {
        *self = *self - o;
    }
}
impl Neg for S {
    type Output = S;
    fn neg(self) -> S {
        S(-self.0, -self.1)
    }
}
impl Mul<i32> for S {
    type Output = S;
    fn mul(self, k: i32) -> S {
        S(self.0 * k, self.1 * k)
    }
}

/// The weights a game is evaluated with: [`WEIGHTS`] unless a tuned set
/// for that game passed its SPRT (`springboard tune`, docs/engine.md).
pub fn for_variant(variant: springboard_rules::Variant) -> &'static Weights {
    use springboard_rules::Variant::*;
    match variant {
        Trampoline => &tuned::TRAMPOLINE,
        JumpingKing => &tuned::JUMPING_KING,
        Hoplit => &tuned::HOPLIT,
        Chess | HopChess => &WEIGHTS,
    }
}

/// Phase weight of each role (pawn, knight, bishop, rook, queen, king);
/// the full phase is [`PHASE_TOTAL`] (all pieces on the board).
pub const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];
pub const PHASE_TOTAL: i32 = 24;

/// The weights of the FIDE terms, indexed by role (pawn..king).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    pub material: [S; 6],
    /// Piece-square tables from White's side, a8 first (as printed),
    /// middlegame and endgame.
    pub pst_mg: [[i32; 64]; 6],
    pub pst_eg: [[i32; 64]; 6],
    /// Per attacked square (not own, not attacked by enemy pawns), minus
    /// the centre of the range [`Weights::mobility_base`].
    pub mobility: [S; 6],
    pub mobility_base: [i32; 6],
    pub bishop_pair: S,
    pub rook_open_file: S,
    pub rook_semi_open_file: S,
    pub doubled_pawn: S,
    pub isolated_pawn: S,
    /// Passed pawn by relative rank (0 = rank 1).
    pub passed_pawn: [S; 8],
    /// King safety: attack units per piece attacking the king zone, by role.
    pub king_attack_unit: [i32; 6],
    /// Extra units for a safe queen contact check square count.
    pub king_attack_scale: i32,
    /// Pawn shield: own pawn in front of the castled king (one or two ranks).
    pub pawn_shield: [S; 2],
    /// Threats (chess and Hoplit Chess; `fide::terms_with_attacks`). An enemy piece attacked by a
    /// knight or bishop, by the victim's role, when it is not strongly
    /// protected (by a pawn, or by two pieces against one) or is not a
    /// pawn.
    pub threat_by_minor: [S; 6],
    /// An enemy piece attacked by a rook and not strongly protected, by
    /// its role.
    pub threat_by_rook: [S; 6],
    /// Some enemy piece attacked by the king and not strongly protected.
    pub threat_by_king: S,
    /// Per attacked enemy piece not strongly protected that is not defended
    /// at all, or is not a pawn and attacked twice.
    pub hanging: S,
    /// Per square both sides attack that the enemy does not strongly
    /// protect (its pieces' moves restricted).
    pub restricted: S,
    /// Per enemy piece (not a pawn or the king) attacked by a pawn
    /// standing on a square the enemy does not attack or we defend.
    pub threat_by_safe_pawn: S,
    /// Per enemy piece (not a pawn or the king) a pawn push to a safe
    /// square would attack.
    pub threat_by_pawn_push: S,
    /// A passed pawn from the fourth rank on (chess and Hoplit Chess),
    /// each term times its rank's weight (2, 7, 12, 17 for the fourth to
    /// the seventh rank): the square before it empty and no enemy attack
    /// on its path or the files next to it; none on its path; none on
    /// that square.
    pub passed_free: [S; 3],
    /// Its square before it defended (or an own rook or queen behind it).
    pub passed_defended: S,
    /// Per square of the enemy king's distance to that square (at most 5).
    pub passed_king_them: S,
    /// Per half square of the own king's distances to that square (twice)
    /// and to the next one (at most 5 each).
    pub passed_king_us: S,
    /// King danger (chess and Hoplit Chess; `fide::king_danger`, in place
    /// of the attack units above), in units that are
    /// squared: per piece attacking the king's zone, by role; per attack of
    /// such a piece next to the king; per square next to the king that
    /// the enemy attacks and only the king or queen defends; for a safe
    /// check by each kind of piece (once per kind); per other check; when
    /// the enemy has no queen; always. Above 100 units the danger costs
    /// (units^2 / scale.mg, units / scale.eg).
    pub kd_attacker: [i32; 6],
    pub kd_hit: i32,
    pub kd_weak_ring: i32,
    pub kd_safe_check: [i32; 6],
    pub kd_unsafe_check: i32,
    pub kd_no_queen: i32,
    pub kd_offset: i32,
    pub kd_scale: S,
    /// Side to move bonus.
    pub tempo: S,
    /// Hoplit Chess's own terms (`eval/hoplit.rs`).
    pub hoplit: HoplitWeights,
    /// Hop Chess's and Trampoline Chess's own terms (`eval/trampoline.rs`).
    pub tramp: TrampolineWeights,
    /// Jumping King's terms (`eval/jumpingking.rs`).
    pub jk: JumpingKingWeights,
}

/// Hoplit Chess (rulings L1-L5).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HoplitWeights {
    /// A Hoplit on the board (about three pawns to start).
    pub material: S,
    /// A Hoplit in reserve: a bit less than on the board (it still has to
    /// be dropped, L4) ...
    pub reserve: S,
    /// ... plus this while a drop is possible now (L4: an empty first-rank
    /// square behind an own pawn whose next square is empty).
    pub drop_ready: S,
    /// Phase weight of a Hoplit, on the board or in reserve.
    pub phase: i32,
    /// Per square the Hoplit reaches (L2, L3) that no enemy pawn attacks,
    /// minus [`HoplitWeights::mobility_base`].
    pub mobility: S,
    pub mobility_base: i32,
    /// Per square of the enemy king's zone the Hoplit hits over a screen
    /// (at most three).
    pub king_zone: S,
    /// Per enemy piece (not a pawn, not the king) the Hoplit attacks.
    pub threat: S,
}

/// Hop Chess and Trampoline Chess (rulings P1-P9, H1-H10, T1-T7).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrampolineWeights {
    /// Per square of the mobility area a piece reaches only by bouncing
    /// off a trampoline it may use (H4, T3), by role.
    pub bounce_mobility: [S; 6],
    /// Per square of the enemy king's zone a piece reaches only through a
    /// trampoline (at most three), by role.
    pub bounce_king_zone: [S; 6],
    /// Per enemy piece (not a pawn, not the king) attacked only through a
    /// trampoline.
    pub bounce_threat: S,
    /// Per trampoline the enemy may use that stands on a queen line or a
    /// knight square of our king (P8: any enemy piece reaching it can check
    /// from there).
    pub king_line: S,
    /// Trampoline Chess: the own trampoline off the board, a tempo in hand
    /// (T2: dropping it is a whole turn, it may come anywhere).
    pub in_hand: S,
    /// Hop Chess: the side to move has made its piece step and still
    /// places its trampoline (H2): the placement is part of its turn.
    pub place_pending: S,
}

/// The Weak Square of the Jumping King (rulings J1-J10).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JumpingKingWeights {
    /// A man its jumping king still has to place: its material plus this
    /// (negative). A stuck side's men never enter (J6) and count nothing.
    pub unplaced: S,
    /// Piece-square tables on the 38 squares from White's side, rank 8
    /// first as printed, squares off the board 0; Black reads them through
    /// the 180-degree rotation (a1 onto f8). Pawn, knight, bishop, rook
    /// (queen unused, J2), king; the same value middlegame and endgame
    /// except the king's ([`JumpingKingWeights::king_eg`]).
    pub pst: [[i32; 64]; 6],
    pub king_eg: [i32; 64],
    /// Per attacked square of the 38 (not own, not attacked by enemy
    /// pawns), minus the base, by role.
    pub mobility: [S; 6],
    pub mobility_base: [i32; 6],
    /// The side to move can bring a man onto the enemy's weak square: the
    /// game is won next move unless that move is illegal (J3).
    pub ws_attack_to_move: S,
    /// Per man of the side not to move that can reach the enemy's weak
    /// square next move (the mover must answer every one of them), or, in
    /// the jumping phase, of either side (a threat for later).
    pub ws_attack_waiting: S,
    /// Per man attacking a square next to the enemy's weak square (its
    /// king and knight squares): two moves from winning.
    pub ws_ring_attack: S,
    /// Per man guarding a square next to the own weak square.
    pub ws_ring_defend: S,
    /// A pawn on the file of the enemy's weak square with the way to it
    /// open (f-file for White, a-file for Black), by relative rank (0 =
    /// rank 1; J9: it may refuse promotion and walk on).
    pub ws_file_pawn: [S; 8],
    /// A passed pawn by relative rank (0 = rank 1; it promotes on rank 7, J9).
    pub passed_pawn: [S; 8],
    /// A jumping king: per jump available now (J4, J5) ...
    pub king_jumps: S,
    /// ... and per man still to place when it has one jump or none left
    /// (J6: stuck, its men never enter).
    pub stuck_risk: S,
    /// After the jumping phase: per square of the enemy king's zone a man
    /// attacks (at most three), by role.
    pub king_zone: [S; 6],
}

#[rustfmt::skip]
pub const WEIGHTS: Weights = Weights {
    material: [S(82, 94), S(337, 281), S(365, 297), S(477, 512), S(1025, 936), S(0, 0)],
    pst_mg: [
        [
              0,   0,   0,   0,   0,   0,  0,   0,
             98, 134,  61,  95,  68, 126, 34, -11,
             -6,   7,  26,  31,  65,  56, 25, -20,
            -14,  13,   6,  21,  23,  12, 17, -23,
            -27,  -2,  -5,  12,  17,   6, 10, -25,
            -26,  -4,  -4, -10,   3,   3, 33, -12,
            -35,  -1, -20, -23, -15,  24, 38, -22,
              0,   0,   0,   0,   0,   0,  0,   0,
        ],
        [
            -167, -89, -34, -49,  61, -97, -15, -107,
             -73, -41,  72,  36,  23,  62,   7,  -17,
             -47,  60,  37,  65,  84, 129,  73,   44,
              -9,  17,  19,  53,  37,  69,  18,   22,
             -13,   4,  16,  13,  28,  19,  21,   -8,
             -23,  -9,  12,  10,  19,  17,  25,  -16,
             -29, -53, -12,  -3,  -1,  18, -14,  -19,
            -105, -21, -58, -33, -17, -28, -19,  -23,
        ],
        [
            -29,   4, -82, -37, -25, -42,   7,  -8,
            -26,  16, -18, -13,  30,  59,  18, -47,
            -16,  37,  43,  40,  35,  50,  37,  -2,
             -4,   5,  19,  50,  37,  37,   7,  -2,
             -6,  13,  13,  26,  34,  12,  10,   4,
              0,  15,  15,  15,  14,  27,  18,  10,
              4,  15,  16,   0,   7,  21,  33,   1,
            -33,  -3, -14, -21, -13, -12, -39, -21,
        ],
        [
             32,  42,  32,  51, 63,  9,  31,  43,
             27,  32,  58,  62, 80, 67,  26,  44,
             -5,  19,  26,  36, 17, 45,  61,  16,
            -24, -11,   7,  26, 24, 35,  -8, -20,
            -36, -26, -12,  -1,  9, -7,   6, -23,
            -45, -25, -16, -17,  3,  0,  -5, -33,
            -44, -16, -20,  -9, -1, 11,  -6, -71,
            -19, -13,   1,  17, 16,  7, -37, -26,
        ],
        [
            -28,   0,  29,  12,  59,  44,  43,  45,
            -24, -39,  -5,   1, -16,  57,  28,  54,
            -13, -17,   7,   8,  29,  56,  47,  57,
            -27, -27, -16, -16,  -1,  17,  -2,   1,
             -9, -26,  -9, -10,  -2,  -4,   3,  -3,
            -14,   2, -11,  -2,  -5,   2,  14,   5,
            -35,  -8,  11,   2,   8,  15,  -3,   1,
             -1, -18,  -9,  10, -15, -25, -31, -50,
        ],
        [
            -65,  23,  16, -15, -56, -34,   2,  13,
             29,  -1, -20,  -7,  -8,  -4, -38, -29,
             -9,  24,   2, -16, -20,   6,  22, -22,
            -17, -20, -12, -27, -30, -25, -14, -36,
            -49,  -1, -27, -39, -46, -44, -33, -51,
            -14, -14, -22, -46, -44, -30, -15, -27,
              1,   7,  -8, -64, -43, -16,   9,   8,
            -15,  36,  12, -54,   8, -28,  24,  14,
        ],
    ],
    pst_eg: [
        [
              0,   0,   0,   0,   0,   0,   0,   0,
            178, 173, 158, 134, 147, 132, 165, 187,
             94, 100,  85,  67,  56,  53,  82,  84,
             32,  24,  13,   5,  -2,   4,  17,  17,
             13,   9,  -3,  -7,  -7,  -8,   3,  -1,
              4,   7,  -6,   1,   0,  -5,  -1,  -8,
             13,   8,   8,  10,  13,   0,   2,  -7,
              0,   0,   0,   0,   0,   0,   0,   0,
        ],
        [
            -58, -38, -13, -28, -31, -27, -63, -99,
            -25,  -8, -25,  -2,  -9, -25, -24, -52,
            -24, -20,  10,   9,  -1,  -9, -19, -41,
            -17,   3,  22,  22,  22,  11,   8, -18,
            -18,  -6,  16,  25,  16,  17,   4, -18,
            -23,  -3,  -1,  15,  10,  -3, -20, -22,
            -42, -20, -10,  -5,  -2, -20, -23, -44,
            -29, -51, -23, -15, -22, -18, -50, -64,
        ],
        [
            -14, -21, -11,  -8, -7,  -9, -17, -24,
             -8,  -4,   7, -12, -3, -13,  -4, -14,
              2,  -8,   0,  -1, -2,   6,   0,   4,
             -3,   9,  12,   9, 14,  10,   3,   2,
             -6,   3,  13,  19,  7,  10,  -3,  -9,
            -12,  -3,   8,  10, 13,   3,  -7, -15,
            -14, -18,  -7,  -1,  4,  -9, -15, -27,
            -23,  -9, -23,  -5, -9, -16,  -5, -17,
        ],
        [
            13, 10, 18, 15, 12,  12,   8,   5,
            11, 13, 13, 11, -3,   3,   8,   3,
             7,  7,  7,  5,  4,  -3,  -5,  -3,
             4,  3, 13,  1,  2,   1,  -1,   2,
             3,  5,  8,  4, -5,  -6,  -8, -11,
            -4,  0, -5, -1, -7, -12,  -8, -16,
            -6, -6,  0,  2, -9,  -9, -11,  -3,
            -9,  2,  3, -1, -5, -13,   4, -20,
        ],
        [
             -9,  22,  22,  27,  27,  19,  10,  20,
            -17,  20,  32,  41,  58,  25,  30,   0,
            -20,   6,   9,  49,  47,  35,  19,   9,
              3,  22,  24,  45,  57,  40,  57,  36,
            -18,  28,  19,  47,  31,  34,  39,  23,
            -16, -27,  15,   6,   9,  17,  10,   5,
            -22, -23, -30, -16, -16, -23, -36, -32,
            -33, -28, -22, -43,  -5, -32, -20, -41,
        ],
        [
            -74, -35, -18, -18, -11,  15,   4, -17,
            -12,  17,  14,  17,  17,  38,  23,  11,
             10,  17,  23,  15,  20,  45,  44,  13,
             -8,  22,  24,  27,  26,  33,  26,   3,
            -18,  -4,  21,  24,  27,  23,   9, -11,
            -19,  -3,  11,  21,  23,  16,   7,  -9,
            -27, -11,   4,  13,  14,   4,  -5, -17,
            -53, -34, -21, -11, -28, -14, -24, -43,
        ],
    ],
    mobility: [S(0, 0), S(4, 4), S(5, 5), S(2, 4), S(1, 2), S(0, 0)],
    mobility_base: [0, 4, 6, 7, 13, 0],
    bishop_pair: S(30, 50),
    rook_open_file: S(25, 10),
    rook_semi_open_file: S(12, 6),
    doubled_pawn: S(-8, -20),
    isolated_pawn: S(-10, -12),
    passed_pawn: [S(0, 0), S(0, 5), S(0, 10), S(5, 20), S(15, 35), S(30, 60), S(45, 90), S(0, 0)],
    king_attack_unit: [0, 2, 2, 3, 5, 0],
    king_attack_scale: 6,
    pawn_shield: [S(12, 0), S(6, 0)],
    // Stockfish 11's values scaled to these piece values (x0.64 mg, x0.44 eg).
    threat_by_minor: [S(4, 14), S(38, 18), S(51, 18), S(58, 52), S(51, 71), S(0, 0)],
    threat_by_rook: [S(2, 19), S(24, 31), S(24, 27), S(0, 17), S(33, 17), S(0, 0)],
    threat_by_king: S(15, 39),
    hanging: S(44, 16),
    restricted: S(4, 3),
    threat_by_safe_pawn: S(111, 41),
    threat_by_pawn_push: S(31, 17),
    passed_free: [S(22, 15), S(13, 9), S(6, 4)],
    passed_defended: S(3, 2),
    passed_king_them: S(0, 2),
    passed_king_us: S(0, -1),
    // Stockfish 11's units. Its cost (kd^2 / 4096, kd / 16) scaled to
    // these piece values (x0.64, x0.44) would be (kd^2 / 6400, kd / 36);
    // without its other king terms that lost, and 2.5 times less passed
    // its SPRT (docs/engine.md).
    kd_attacker: [0, 81, 52, 44, 10, 0],
    kd_hit: 69,
    kd_weak_ring: 185,
    kd_safe_check: [0, 790, 635, 1080, 780, 0],
    kd_unsafe_check: 148,
    kd_no_queen: -873,
    kd_offset: -7,
    kd_scale: S(16000, 90),
    tempo: S(10, 10),
    hoplit: HoplitWeights {
        material: S(300, 310),
        reserve: S(270, 290),
        drop_ready: S(15, 10),
        phase: 1,
        mobility: S(3, 3),
        mobility_base: 6,
        king_zone: S(12, 4),
        threat: S(15, 10),
    },
    tramp: TrampolineWeights {
        bounce_mobility: [S(0, 0), S(2, 2), S(2, 2), S(1, 2), S(1, 1), S(0, 0)],
        bounce_king_zone: [S(0, 0), S(8, 2), S(8, 2), S(10, 3), S(14, 4), S(0, 0)],
        bounce_threat: S(12, 8),
        king_line: S(-15, -5),
        in_hand: S(12, 6),
        place_pending: S(10, 10),
    },
    jk: JumpingKingWeights {
        unplaced: S(-25, -20),
        pst: [
            [
                  0,   0,   0,   0,   0,   0, 0, 0,
                 60,  60,  60,  60,  60,  60, 0, 0,
                 35,  40,  40,  40,  40,  35, 0, 0,
                 15,  20,  25,  25,  20,  15, 0, 0,
                  5,  10,  15,  15,  10,   5, 0, 0,
                  0,   5,   5,   5,   5,   0, 0, 0,
                  0,   0,   0,   0,   0,   0, 0, 0,
                  0,   0,   0,   0,   0,   0, 0, 0,
            ],
            [
                  0,   0,   0,   0,   0,   0, 0, 0,
                -25, -10,   0,   5,   5, -20, 0, 0,
                -10,   5,  15,  15,  15,   5, 0, 0,
                -10,  10,  20,  20,  10, -10, 0, 0,
                -10,  10,  20,  20,  10, -10, 0, 0,
                -15,   0,  10,  10,   0, -15, 0, 0,
                -30, -15, -10, -10, -15, -30, 0, 0,
                  0,   0,   0,   0,   0,   0, 0, 0,
            ],
            [
                  0,   0,   0,   0,   0,   0, 0, 0,
                -10,  -5,   0,   0,  10, -10, 0, 0,
                 -5,   5,  10,  10,   5,   5, 0, 0,
                  0,  10,  15,  15,  10,   0, 0, 0,
                  0,  10,  15,  15,  10,   0, 0, 0,
                 -5,   5,  10,  10,   5,  -5, 0, 0,
                -10,   0,  -5,  -5,  -5, -10, 0, 0,
                  0,   0,   0,   0,   0,   0, 0, 0,
            ],
            [
                  0,   0,   0,   0,   0,   0, 0, 0,
                 15,  15,  15,  15,  20,  25, 0, 0,
                  0,   5,   5,   5,   5,  15, 0, 0,
                 -5,   0,   5,   5,   0,  10, 0, 0,
                 -5,   0,   5,   5,   0,  10, 0, 0,
                 -5,   0,   0,   0,   0,  10, 0, 0,
                -10,  -5,   0,   0,  -5,   5, 0, 0,
                  0,   0,   0,   0,   0,   0, 0, 0,
            ],
            [0; 64],
            [
                  0,   0,   0,   0,   0,   0, 0, 0,
                -40, -40, -40, -40, -40, -40, 0, 0,
                -30, -30, -30, -30, -30, -30, 0, 0,
                -20, -20, -25, -25, -20, -20, 0, 0,
                -10, -10, -15, -15, -10, -10, 0, 0,
                  5,   5,  -5,  -5,   0,   0, 0, 0,
                 10,  15,   5,   0,   0,   0, 0, 0,
                  0,   0,   0,   0,   0,   0, 0, 0,
            ],
        ],
        king_eg: [
              0,   0,   0,   0,   0,   0, 0, 0,
            -20, -10,  -5,  -5, -10, -20, 0, 0,
            -10,   5,  10,  10,   5, -10, 0, 0,
             -5,  10,  20,  20,  10,  -5, 0, 0,
             -5,  10,  20,  20,  10,  -5, 0, 0,
            -10,   5,  10,  10,   5, -10, 0, 0,
            -20, -10,  -5,  -5, -10, -20, 0, 0,
              0,   0,   0,   0,   0,   0, 0, 0,
        ],
        mobility: [S(0, 0), S(4, 4), S(5, 5), S(3, 4), S(0, 0), S(0, 0)],
        mobility_base: [0, 3, 5, 6, 0, 0],
        ws_attack_to_move: S(800, 800),
        ws_attack_waiting: S(120, 150),
        ws_ring_attack: S(15, 20),
        ws_ring_defend: S(10, 10),
        ws_file_pawn: [S(0, 0), S(0, 0), S(0, 0), S(5, 10), S(15, 25), S(40, 60), S(80, 120), S(0, 0)],
        passed_pawn: [S(0, 0), S(0, 0), S(5, 10), S(10, 20), S(25, 40), S(45, 75), S(0, 0), S(0, 0)],
        king_jumps: S(6, 0),
        stuck_risk: S(-40, -30),
        king_zone: [S(0, 0), S(10, 3), S(10, 3), S(12, 4), S(0, 0), S(0, 0)],
    },
};
