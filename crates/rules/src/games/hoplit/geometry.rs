//! The Hoplit's paths (L2, L3): a diagonal leg, a turn outward, an
//! orthogonal leg over one screen. Precomputed rays and turning squares.

use crate::attacks::{between, king_attacks};
use crate::bitboard::Bitboard;
use crate::types::Square;

// Directions: file and rank steps.
const DIRS: [(i8, i8); 8] = [
    (0, 1),   // N
    (1, 0),   // E
    (0, -1),  // S
    (-1, 0),  // W
    (1, 1),   // NE
    (-1, 1),  // NW
    (1, -1),  // SE
    (-1, -1), // SW
];
const N: usize = 0;
const E: usize = 1;
const S: usize = 2;
const W: usize = 3;
const NE: usize = 4;
const NW: usize = 5;
const SE: usize = 6;
const SW: usize = 7;
const DIAGONALS: [usize; 4] = [NE, NW, SE, SW];

/// The two orthogonal directions that continue a diagonal outward (L2: after
/// a step north-east, north or east). Indexed by direction; only the
/// diagonal entries are used.
const OUTWARD: [[usize; 2]; 8] = [
    [N, N],
    [E, E],
    [S, S],
    [W, W],
    [N, E],
    [N, W],
    [S, E],
    [S, W],
];

/// Whether the square index grows along a direction (then the nearest
/// square of a set on a ray is its lowest).
#[inline]
const fn ascending(dir: usize) -> bool {
    matches!(dir, N | E | NE | NW)
}

const fn on_board(f: i8, r: i8) -> bool {
    f >= 0 && f < 8 && r >= 0 && r < 8
}

/// `RAYS[dir][sq]`: the squares from `sq` (excluded) to the edge.
static RAYS: [[u64; 64]; 8] = build_rays();

const fn build_rays() -> [[u64; 64]; 8] {
    let mut rays = [[0u64; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let (df, dr) = DIRS[d];
        let mut s = 0;
        while s < 64 {
            let (mut f, mut r) = ((s % 8) as i8, (s / 8) as i8);
            loop {
                f += df;
                r += dr;
                if !on_board(f, r) {
                    break;
                }
                rays[d][s] |= 1u64 << (r * 8 + f);
            }
            s += 1;
        }
        d += 1;
    }
    rays
}

/// `TURNS[h][k]`: the turning squares of the geometric Hoplit paths from
/// `h` to `k` (at most one per diagonal and outward direction), whatever
/// stands on the board.
static TURNS: [[u64; 64]; 64] = build_turns();

const fn build_turns() -> [[u64; 64]; 64] {
    let mut turns = [[0u64; 64]; 64];
    let mut h = 0;
    while h < 64 {
        let mut di = 0;
        while di < 4 {
            let d = DIAGONALS[di];
            let (df, dr) = DIRS[d];
            let (mut f, mut r) = ((h % 8) as i8, (h / 8) as i8);
            loop {
                f += df;
                r += dr;
                if !on_board(f, r) {
                    break;
                }
                let t = (r * 8 + f) as usize;
                let mut oi = 0;
                while oi < 2 {
                    let (of, or) = DIRS[OUTWARD[d][oi]];
                    // The first square after the turn can only hold the
                    // screen; targets start two squares away.
                    let (mut f2, mut r2) = (f + 2 * of, r + 2 * or);
                    while on_board(f2, r2) {
                        turns[h][(r2 * 8 + f2) as usize] |= 1u64 << t;
                        f2 += of;
                        r2 += or;
                    }
                    oi += 1;
                }
            }
            di += 1;
        }
        h += 1;
    }
    turns
}

/// The nearest square of `set` (a subset of a ray in direction `dir`).
#[inline]
fn nearest(dir: usize, set: Bitboard) -> Square {
    debug_assert!(set.any());
    if ascending(dir) {
        Square::from_index(set.0.trailing_zeros())
    } else {
        Square::from_index(63 - set.0.leading_zeros())
    }
}

#[inline]
fn ray(dir: usize, sq: Square) -> Bitboard {
    Bitboard(RAYS[dir][sq.index()])
}

/// Whether the Hoplit on `h` attacks (could capture on) `k`, given the
/// occupancy `occ` and `blocked`, the pawns of the Hoplit's enemy (L3).
#[inline]
fn hoplit_attacks(h: Square, k: Square, occ: Bitboard, blocked: Bitboard) -> bool {
    hoplit_turn(h, k, occ, blocked).is_some()
}

/// The turning square of a path (L2) by which the Hoplit on `h` attacks
/// `k` (see [`hoplit_attacks`]), if any.
#[inline]
pub(crate) fn hoplit_turn(
    h: Square,
    k: Square,
    occ: Bitboard,
    blocked: Bitboard,
) -> Option<Square> {
    for t in Bitboard(TURNS[h.index()][k.index()]) {
        if ((between(h, t) | t) & occ).any() {
            continue;
        }
        let screens = between(t, k) & occ;
        if screens.is_empty() || screens.more_than_one() {
            continue;
        }
        // L3: behind an enemy pawn, only the square directly behind it.
        if (screens & blocked).any() && (king_attacks(k) & screens).is_empty() {
            continue;
        }
        return Some(t);
    }
    None
}

/// The Hoplits among `hoplits` that attack `k`; `blocked` are the pawns of
/// the side the Hoplits play against.
#[inline]
pub(crate) fn hoplit_attackers(
    k: Square,
    hoplits: Bitboard,
    occ: Bitboard,
    blocked: Bitboard,
) -> Bitboard {
    let mut out = Bitboard::EMPTY;
    for h in hoplits {
        if hoplit_attacks(h, k, occ, blocked) {
            out |= h;
        }
    }
    out
}

/// The squares the Hoplit on `from` moves or captures to (L2, L3): `ours`
/// are its own side's pieces, `blocked` the enemy pawns.
pub(crate) fn hoplit_targets(
    from: Square,
    occ: Bitboard,
    ours: Bitboard,
    blocked: Bitboard,
) -> Bitboard {
    let mut out = Bitboard::EMPTY;
    for d in DIAGONALS {
        let diag = ray(d, from);
        let stop = diag & occ;
        let turns = if stop.any() {
            let s = nearest(d, stop);
            diag & !ray(d, s) & !Bitboard::from_square(s)
        } else {
            diag
        };
        for t in turns {
            for o in OUTWARD[d] {
                let leg = ray(o, t) & occ;
                if leg.is_empty() {
                    continue; // no screen, no move
                }
                let screen = nearest(o, leg);
                let beyond = ray(o, screen);
                if blocked.contains(screen) {
                    // L3: only the square directly behind the enemy pawn.
                    out |= beyond & king_attacks(screen);
                    continue;
                }
                let rest = beyond & occ;
                out |= if rest.is_empty() {
                    beyond
                } else {
                    beyond ^ ray(o, nearest(o, rest))
                };
            }
        }
    }
    out & !ours
}

/// The squares that decide whether the enemy Hoplits attack `ksq` after a
/// normal move (one square vacated, one occupied): the squares of every
/// geometric path that such a move could open, plus the Hoplits themselves
/// (captured, they attack no more). A path whose diagonal leg (turning
/// square included) holds two pieces stays blocked, and one whose
/// orthogonal leg holds three pieces keeps two screens or more: those
/// paths cannot attack after any normal move and are left out.
#[inline]
pub(super) fn hoplit_zone(ksq: Square, their_hoplits: Bitboard, occ: Bitboard) -> Bitboard {
    let mut zone = their_hoplits;
    for h in their_hoplits {
        for t in Bitboard(TURNS[h.index()][ksq.index()]) {
            let diag = between(h, t) | t;
            if (diag & occ).more_than_one() {
                continue;
            }
            let ortho = between(t, ksq);
            if (ortho & occ).count() > 2 {
                continue;
            }
            zone |= diag | ortho;
        }
    }
    zone
}
