//! Hoplit Chess with the external Hoplit (rulings L1-L5): FIDE chess, plus
//! one Hoplit a side in reserve, dropped behind a second-rank pawn that steps
//! forward in the same turn.
//!
//! The Hoplit (L2) slides one or more empty squares diagonally, turns on the
//! last of them into one of the two orthogonal directions that continue the
//! diagonal outward, slides over empty squares to the first piece (the
//! screen), jumps it, and stops on an empty square beyond or captures the
//! first piece beyond if it is an enemy. An enemy pawn as screen lets it
//! reach only the square directly behind that pawn (L3).
//!
//! Legal move generation is exact. FIDE attackers are handled as in chess
//! (pins and check masks). For the enemy Hoplits, the squares of every
//! geometric Hoplit path to our king (diagonal leg, turning square and
//! orthogonal leg) that one move could open form a *zone*: a move that
//! changes no square of the zone and captures no Hoplit cannot make or break
//! a Hoplit attack on the king, so it keeps the Hoplit check state it had.
//! A move that touches the zone is tested exactly on its resulting occupancy
//! (screens appear, vanish, become enemy pawns); so are king moves,
//! castling, en passant and drops. Paths are precomputed: for
//! a Hoplit square `h` and a target `k`, the turning squares that can link
//! them ([`TURNS`]), so testing an attack is a few table lookups per path.

use crate::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, rook_attacks,
};
use crate::bitboard::Bitboard;
use crate::error::FenError;
use crate::games::chess;
use crate::moves::{Move, MoveKind, MoveList};

use crate::position::Position;
use crate::types::{Color, Piece, Rank, Role, Square};
use crate::variant::Variant;
use crate::zobrist;

/// Promotion pieces (C1 and L5), in generation order.
const PROMOTIONS: [Role; 5] = [
    Role::Queen,
    Role::Rook,
    Role::Bishop,
    Role::Knight,
    Role::Hoplit,
];

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
        return true;
    }
    false
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

impl Position {
    /// Hoplit Chess: the squares the Hoplit on `from` moves or captures to
    /// (L2, L3) on the current board, its own men excluded; empty when no
    /// Hoplit stands on `from`. Pins are ignored (an evaluation's view).
    pub fn hoplit_targets(&self, from: Square) -> Bitboard {
        match self.board.piece_at(from) {
            Some(Piece {
                color,
                role: Role::Hoplit,
            }) => hoplit_targets(
                from,
                self.board.occupied(),
                self.board.by_color(color),
                self.board.pieces(!color, Role::Pawn),
            ),
            _ => Bitboard::EMPTY,
        }
    }
}

/// The squares that decide whether the enemy Hoplits attack `ksq` after a
/// normal move (one square vacated, one occupied): the squares of every
/// geometric path that such a move could open, plus the Hoplits themselves
/// (captured, they attack no more). A path whose diagonal leg (turning
/// square included) holds two pieces stays blocked, and one whose
/// orthogonal leg holds three pieces keeps two screens or more: those
/// paths cannot attack after any normal move and are left out.
#[inline]
fn hoplit_zone(ksq: Square, their_hoplits: Bitboard, occ: Bitboard) -> Bitboard {
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

/// Whether `sq` is attacked by `by`: FIDE attackers and Hoplits.
pub(crate) fn is_attacked(pos: &Position, sq: Square, by: Color) -> bool {
    let b = pos.board();
    let occ = b.occupied();
    pos.attackers_to(sq, by, occ).any()
        || hoplit_attackers(
            sq,
            b.pieces(by, Role::Hoplit),
            occ,
            b.pieces(!by, Role::Pawn),
        )
        .any()
}

/// Recomputes the checkers of the side to move, Hoplits included.
pub(crate) fn update_checkers(pos: &mut Position) {
    pos.update_checkers_fide();
    add_hoplit_checkers(pos);
}

/// Adds the Hoplits that check the side to move to its checkers.
#[inline]
fn add_hoplit_checkers(pos: &mut Position) {
    let b = pos.board();
    let us = pos.turn();
    if let Some(k) = b.king_of(us) {
        let hoplits = b.pieces(!us, Role::Hoplit);
        if hoplits.any() {
            let h = hoplit_attackers(k, hoplits, b.occupied(), b.pieces(us, Role::Pawn));
            pos.checkers |= h;
        }
    }
}

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

    /// Pushes the moves of the non-pawn piece on `from` to `targets`.
    #[inline(always)]
    fn push_all(&self, list: &mut MoveList, from: Square, targets: Bitboard) {
        let danger = self.danger(from);
        for to in targets & !danger & self.free {
            list.push(Move::normal(from, to));
        }
        let slow = targets & danger;
        if slow.any() {
            for to in slow {
                if self.exact(from, to, false) {
                    list.push(Move::normal(from, to));
                }
            }
        }
    }
}

#[inline]
fn push_promotions(list: &mut MoveList, from: Square, to: Square) {
    for role in PROMOTIONS {
        list.push(Move::promotion(from, to, role));
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
        if pos.attackers_to(to, them, occ_no_king).is_empty()
            && (their_hoplits.is_empty()
                || hoplit_attackers(to, their_hoplits, occ_no_king, our_pawns).is_empty())
        {
            list.push(Move::normal(ksq, to));
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
            let up = us.fold(8, -8);
            let pawn_from = Square::from_index((to as i32 + up) as u32);
            let pawn_to = Square::from_index((to as i32 + 2 * up) as u32);
            let after = (occ | to) ^ pawn_from | pawn_to;
            let pawns = (our_pawns ^ pawn_from) | pawn_to;
            if king_safe(pos, ksq, after, pawns, Bitboard::EMPTY) {
                list.push(Move::drop(Role::Hoplit, to));
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
        guard.push_all(list, from, knight_attacks(from) & !ours & target);
    }
    for from in b.bishop_likes() & ours {
        let mut t = bishop_attacks(from, occ) & !ours & target;
        if pinned.contains(from) {
            t &= line(ksq, from);
        }
        guard.push_all(list, from, t);
    }
    for from in b.rook_likes() & ours {
        let mut t = rook_attacks(from, occ) & !ours & target;
        if pinned.contains(from) {
            t &= line(ksq, from);
        }
        guard.push_all(list, from, t);
    }
    for from in b.pieces(us, Role::Hoplit) {
        let mut t = hoplit_targets(from, occ, ours, their_pawns) & target;
        if pinned.contains(from) {
            // A Hoplit never lands on a line through its origin, so a
            // pinned Hoplit has no move; the mask says so generally.
            t &= line(ksq, from);
        }
        guard.push_all(list, from, t);
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
            list.push(Move::normal(from, to));
        }
    }
    for to in single & !last & danger {
        let from = Square::from_index((to as i32 - up) as u32);
        if pin_ok(from, to) && guard.exact(from, to, true) {
            list.push(Move::normal(from, to));
        }
    }
    for to in single & last {
        let from = Square::from_index((to as i32 - up) as u32);
        if pin_ok(from, to) && guard.ok(from, to, false) {
            push_promotions(list, from, to);
        }
    }
    let double = shift(step & third) & empty & target;
    let danger = guard.zone | shift(shift(guard.zone));
    for to in double & !danger & guard.free {
        let from = Square::from_index((to as i32 - 2 * up) as u32);
        if pin_ok(from, to) {
            list.push(Move::double_step(from, to));
        }
    }
    for to in double & danger {
        let from = Square::from_index((to as i32 - 2 * up) as u32);
        if pin_ok(from, to) && guard.exact(from, to, true) {
            list.push(Move::double_step(from, to));
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
            list.push(Move::normal(from, to));
        }
        for to in t & !last & danger {
            if guard.exact(from, to, true) {
                list.push(Move::normal(from, to));
            }
        }
        for to in t & last {
            if guard.ok(from, to, false) {
                push_promotions(list, from, to);
            }
        }
    }
    if let Some(ep) = pos.ep_square() {
        for from in pawn_attacks(them, ep) & our_pawns {
            if ep_capture_legal(pos, from, ep) {
                list.push(Move::en_passant(from, ep));
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
            if (between(ksq, rook_sq) & occ).any() {
                continue;
            }
            if any_square(between(ksq, king_to), |sq| is_attacked(pos, sq, them)) {
                continue;
            }
            let after = (occ ^ ksq ^ rook_sq) | king_to | rook_to;
            if king_safe(pos, king_to, after, our_pawns, Bitboard::EMPTY) {
                list.push(Move::castle(ksq, king_to));
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
fn ep_capture_possible(pos: &Position, ep: Square) -> bool {
    let us = pos.turn();
    any_square(
        pawn_attacks(!us, ep) & pos.board().pieces(us, Role::Pawn),
        |from| ep_capture_legal(pos, from, ep),
    )
}

/// Sets a reserve count, keeping the hash.
fn set_reserve(pos: &mut Position, color: Color, role: Role, n: u8) {
    let base = (color.index() * 7 + role.index()) * 16;
    let old = pos.reserves[color.index()][role.index()] as usize;
    if old > 0 {
        pos.hash ^= zobrist::RESERVE[base + old.min(15)];
    }
    if n > 0 {
        pos.hash ^= zobrist::RESERVE[base + (n as usize).min(15)];
    }
    pos.reserves[color.index()][role.index()] = n;
}

/// Plays a legal Hoplit Chess move.
pub(crate) fn play(pos: &mut Position, m: Move) {
    if m.kind() == MoveKind::Drop {
        let us = pos.turn();
        let role = m.role().expect("a dropped piece");
        let to = m.to().expect("a drop square");
        let up = us.fold(1, -1);
        let pawn_from = to.offset(0, up).expect("on the board");
        let pawn_to = pawn_from.offset(0, up).expect("on the board");
        pos.set_ep(None);
        let pawn = pos.take_piece(pawn_from).expect("the pawn in front");
        pos.put_piece(pawn_to, pawn);
        pos.put_piece(to, Piece::new(us, role));
        let left = pos.reserve(us, role) - 1;
        set_reserve(pos, us, role, left);
        // C4, L5: the pawn step is a pawn move.
        pos.halfmove = 0;
        pos.switch_turn();
        update_checkers(pos);
        return;
    }
    // chess::play finds the FIDE checkers.
    chess::play(pos, m);
    add_hoplit_checkers(pos);
    // chess::play keeps the en-passant square when a capture is legal
    // against FIDE pieces; the Hoplits may forbid it too (C2).
    if let Some(ep) = pos.ep_square() {
        if !ep_capture_possible(pos, ep) {
            pos.set_ep(None);
        }
    }
}

// ---- Position text ----

/// Splits `board[reserve]` into the board and the reserve counts.
fn parse_reserve(field: &str) -> Result<(&str, [u8; 2]), FenError> {
    let Some(open) = field.find('[') else {
        return Err(FenError::MissingReserve);
    };
    let (board, rest) = field.split_at(open);
    let inner = rest
        .strip_prefix('[')
        .and_then(|r| r.strip_suffix(']'))
        .filter(|r| !r.contains(['[', ']']))
        .ok_or_else(|| FenError::BadReserve(rest.to_string()))?;
    let mut counts = [0u8; 2];
    for ch in inner.chars() {
        let color = match ch {
            'H' => Color::White,
            'h' => Color::Black,
            _ if Role::from_char(ch).is_some() => {
                return Err(FenError::ReserveContent {
                    text: rest.to_string(),
                    reason: "only the Hoplit (H, h) can be in reserve",
                })
            }
            _ => return Err(FenError::BadReserve(rest.to_string())),
        };
        if counts[color.index()] == 1 {
            return Err(FenError::ReserveContent {
                text: rest.to_string(),
                reason: "a side has at most one Hoplit in reserve",
            });
        }
        counts[color.index()] = 1;
    }
    Ok((board, counts))
}

/// Reads a Hoplit Chess position text: FEN with the reserve in brackets
/// after the board, as Fairy-Stockfish writes pockets.
pub(crate) fn from_fen(fen: &str) -> Result<Position, FenError> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.is_empty() {
        return Err(FenError::Empty);
    }
    if fields.len() > 1 && fields[1].starts_with('[') {
        return Err(FenError::ReserveContent {
            text: format!("{} {}", fields[0], fields[1]),
            reason: "write the reserve right after the board, without a space",
        });
    }
    if fields.len() != 4 && fields.len() != 6 {
        return Err(FenError::FieldCount {
            expected: "6 (or 4)",
            found: fields.len(),
        });
    }
    let (board_text, reserve) = parse_reserve(fields[0])?;
    let mut fide_fields = fields.clone();
    fide_fields[0] = board_text;
    let (mut pos, ep_claim) = Position::parse_fide_fields(Variant::Hoplit, &fide_fields)?;
    for c in Color::ALL {
        pos.reserves[c.index()][Role::Hoplit.index()] = reserve[c.index()];
    }
    validate(&pos)?;
    if let Some(ep) = ep_claim {
        pos.validate_ep_claim(ep)?;
        if ep_capture_possible(&pos, ep) {
            pos.ep_square = Some(ep);
        }
    }
    update_checkers(&mut pos);
    pos.hash = pos.compute_hash();
    Ok(pos)
}

/// One king a side, at most 17 men a side counting the reserve (16 and the
/// Hoplit), no pawn on a back rank, the side not to move not in check.
fn validate(pos: &Position) -> Result<(), FenError> {
    let b = pos.board();
    for c in Color::ALL {
        let kings = b.count(c, Role::King);
        if kings != 1 {
            return Err(FenError::KingCount(c.name(), kings));
        }
        let n = b.by_color(c).count() + u32::from(pos.reserve(c, Role::Hoplit));
        if n > 17 {
            return Err(FenError::TooManyPieces(c.name(), n));
        }
    }
    let back =
        Bitboard::rank(Rank::new(0).expect("rank")) | Bitboard::rank(Rank::new(7).expect("rank"));
    if let Some(sq) = (b.by_role(Role::Pawn) & back).first() {
        return Err(FenError::PawnOnBackRank(sq.to_string()));
    }
    let them = !pos.turn();
    let their_king = b.king_of(them).expect("one king");
    if is_attacked(pos, their_king, pos.turn()) {
        return Err(FenError::OppositeCheck(them.name()));
    }
    Ok(())
}

/// Writes the position text: FEN with the reserve after the board.
pub(crate) fn to_fen(pos: &Position) -> String {
    let fide = pos.fide_fen();
    let (board, rest) = fide.split_once(' ').expect("FEN fields");
    let mut out = String::with_capacity(fide.len() + 4);
    out.push_str(board);
    out.push('[');
    for c in Color::ALL {
        for _ in 0..pos.reserve(c, Role::Hoplit) {
            out.push(Piece::new(c, Role::Hoplit).char());
        }
    }
    out.push_str("] ");
    out.push_str(rest);
    out
}

/// Whether some square of `set` passes `f`.
#[inline]
fn any_square(set: Bitboard, f: impl FnMut(Square) -> bool) -> bool {
    let mut set = set;
    Iterator::any(&mut set, f)
}

#[cfg(test)]
mod tests {
    use crate::notation::uci::{parse_uci, to_uci};
    use crate::{DrawReason, FenError, Game, Outcome, Position, Square, Variant};

    fn pos(fen: &str) -> Position {
        Position::from_fen(Variant::Hoplit, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
    }

    /// The legal moves (long notation, sorted) whose text starts with `prefix`.
    fn moves(p: &Position, prefix: &str) -> Vec<String> {
        let mut out: Vec<String> = p
            .legal_moves()
            .into_iter()
            .map(|m| to_uci(p, m))
            .filter(|t| t.starts_with(prefix))
            .collect();
        out.sort();
        out
    }

    fn play(p: &mut Position, text: &str) {
        let m = parse_uci(p, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        p.play(m);
        assert_eq!(p.hash(), p.compute_hash());
    }

    #[test]
    fn l2_no_screen_no_move() {
        let p = pos("7k/8/8/8/8/8/8/H6K[] w - - 0 1");
        assert!(moves(&p, "a1").is_empty());
    }

    #[test]
    fn hoplit_targets_accessor_matches_the_moves() {
        // The same position as below: the accessor's squares are exactly
        // the destinations of the legal Hoplit moves; no Hoplit, no squares.
        let p = pos("7k/8/8/8/1P6/4n3/8/H6K[] w - - 0 1");
        let targets: Vec<Square> = p.hoplit_targets(Square::A1).collect();
        assert_eq!(
            targets,
            [
                Square::F3,
                Square::G3,
                Square::H3,
                Square::B5,
                Square::B6,
                Square::B7,
                Square::B8
            ]
        );
        assert!(p.hoplit_targets(Square::H1).is_empty());
        assert!(p.hoplit_targets(Square::C3).is_empty());
    }

    #[test]
    fn l2_first_leg_lengths_outward_directions_and_screens() {
        // a1-b2 (one step), north: b3 empty, own pawn b4 screens, lands on
        // b5-b8. a1-c3 (two steps), east: d3 empty, black knight e3 screens,
        // lands on f3-h3. Other turning squares find no screen.
        let p = pos("7k/8/8/8/1P6/4n3/8/H6K[] w - - 0 1");
        assert_eq!(
            moves(&p, "a1"),
            ["a1b5", "a1b6", "a1b7", "a1b8", "a1f3", "a1g3", "a1h3"]
        );
    }

    #[test]
    fn l2_stops_before_the_next_piece_and_captures_enemies_only() {
        // Beyond the screen b4: b5 empty, black rook b6 taken, not further.
        // Beyond the screen e3: f3 empty, own bishop g3 ends the leg.
        let p = pos("7k/8/1r6/8/1P6/4n1B1/8/H6K[] w - - 0 1");
        assert_eq!(moves(&p, "a1"), ["a1b5", "a1b6", "a1f3"]);
    }

    #[test]
    fn l2_board_edges() {
        // h1 has one diagonal. g2 north: rook g6 screens, g7-g8; g2 west:
        // pawn c2 screens, b2-a2. f3 north: the screen f8 stands on the
        // edge, nothing beyond; b7 north: the same with b8; a8 is a corner.
        // e4 north: the king e8 is only a screen.
        let p = pos("1b2kn2/8/6r1/8/8/8/2P5/4K2H[] w - - 0 1");
        assert_eq!(moves(&p, "h1"), ["h1a2", "h1b2", "h1g7", "h1g8"]);
    }

    #[test]
    fn l3_enemy_pawn_screen_reaches_only_the_square_behind() {
        // b4: black pawn, only b5. e3: black pawn, only f3 (a capture).
        // g4: black pawn with the own rook h4 behind: nothing.
        let p = pos("k7/8/8/8/1p4pR/4pn2/8/H6K[] w - - 0 1");
        assert_eq!(moves(&p, "a1"), ["a1b5", "a1f3"]);
        // An own pawn as screen is an ordinary screen (L2).
        let p = pos("k7/8/8/8/1P6/8/8/H6K[] w - - 0 1");
        assert_eq!(moves(&p, "a1"), ["a1b5", "a1b6", "a1b7", "a1b8"]);
    }

    #[test]
    fn l3_pawn_in_front_of_the_king_screens_a_check() {
        // Black Hoplit c7-d6-e5, south: e4, e3 empty, the white pawn e2
        // screens and e1 is directly behind it: check.
        let p = pos("k7/2h5/8/8/8/8/4P3/4K3[] w - - 0 1");
        assert!(p.is_check());
        assert_eq!(p.checkers().first(), Some(Square::C7));
        // With e1 two squares behind the pawn (e3), no check.
        let p = pos("k7/2h5/8/8/8/4P3/8/4K3[] w - - 0 1");
        assert!(!p.is_check());
    }

    #[test]
    fn l2_new_screen_of_an_enemy_hoplit_is_illegal() {
        // Black Hoplit c7-d6-e5, south along the e-file to the king e1 with
        // no screen: the knight may not become the screen on e2 or e4.
        let p = pos("k7/2h5/8/8/8/2N5/8/4K3[] w - - 0 1");
        assert!(!p.is_check());
        assert_eq!(
            moves(&p, "c3"),
            ["c3a2", "c3a4", "c3b1", "c3b5", "c3d1", "c3d5"]
        );
    }

    #[test]
    fn l2_removed_screen_of_an_enemy_hoplit_is_illegal() {
        // Two pieces between the turning square e5 and the king: no check,
        // but neither may leave (the other would become the only screen).
        let p = pos("7k/2h5/8/8/4B3/4N3/8/4K3[] w - - 0 1");
        assert!(!p.is_check());
        assert!(moves(&p, "e4").is_empty());
        assert!(moves(&p, "e3").is_empty());
        // With the diagonal leg blocked on d6 both screens move freely.
        let p = pos("7k/2h5/3R4/8/4B3/4N3/8/4K3[] w - - 0 1");
        assert_eq!(moves(&p, "e4").len(), 13);
        assert_eq!(moves(&p, "e3").len(), 8);
    }

    #[test]
    fn l2_check_evasions_against_a_hoplit() {
        // The pawn e2 screens the check c7-d6-e5-e1. Answers: move the king
        // off the line, block the diagonal (Rd6), add a second screen (Re4),
        // or capture the Hoplit (Rxc7).
        let p = pos("7k/2h5/8/8/8/8/4P3/3RK3[] w - - 0 1");
        assert!(p.is_check());
        assert_eq!(moves(&p, "d1"), ["d1d6"]);
        let p = pos("7k/2h5/8/8/8/8/4P3/2R1K3[] w - - 0 1");
        assert_eq!(moves(&p, "c1"), ["c1c7"]);
        let p = pos("7k/2h5/8/8/R7/8/4P3/4K3[] w - - 0 1");
        assert_eq!(moves(&p, "a4"), ["a4e4"]);
        assert_eq!(moves(&p, "e1"), ["e1d1", "e1d2", "e1f1", "e1f2"]);
        // e2-e3 moves the screen so that e1 is no longer directly behind
        // it (L3) and leaves one screen: no check; e2-e4 likewise.
        let p = pos("k7/2h5/8/8/8/8/4P3/4K3[] w - - 0 1");
        assert_eq!(moves(&p, "e2"), ["e2e3", "e2e4"]);
    }

    #[test]
    fn l2_discovered_checks_by_own_hoplit() {
        // White Hoplit c2-d3-e4, north to the king e8: a knight arriving on
        // e6 becomes the screen and gives check.
        let mut p = pos("4k3/8/8/6N1/8/8/2H5/4K3[] w - - 0 1");
        play(&mut p, "g5e6");
        assert!(p.is_check());
        assert_eq!(p.checkers().first(), Some(Square::C2));
        // Two screens e5 and e6: moving one away gives check.
        let mut p = pos("4k3/8/4N3/4N3/8/8/2H5/4K3[] w - - 0 1");
        assert!(!p.is_check());
        play(&mut p, "e5c4");
        assert!(p.is_check());
        assert_eq!(p.checkers().first(), Some(Square::C2));
    }

    #[test]
    fn l4_drops() {
        // The start: the first rank is full, no drop.
        let p = Position::startpos(Variant::Hoplit);
        assert!(moves(&p, "H@").is_empty());
        // After 1.Nf3 Nf6: H@g1, the pawn steps to g3, the clock resets.
        let mut p = pos("rnbqkb1r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKB1R[Hh] w KQkq - 2 2");
        assert_eq!(moves(&p, "H@"), ["H@g1"]);
        play(&mut p, "H@g1");
        assert_eq!(
            p.to_fen(),
            "rnbqkb1r/pppppppp/5n2/8/8/5NP1/PPPPPP1P/RNBQKBHR[h] b KQkq - 0 2"
        );
        // Black drops with `H@` too, behind b7.
        let mut p = pos("4k3/1p6/8/8/8/8/8/4K3[h] b - - 0 1");
        assert_eq!(moves(&p, "H@"), ["H@b8"]);
        play(&mut p, "H@b8");
        assert_eq!(p.to_fen(), "1h2k3/8/1p6/8/8/8/8/4K3[] w - - 0 2");
        // No pawn in front, or the pawn's next square taken: no drop.
        let p = pos("4k3/8/8/8/8/1N6/1P6/4K3[H] w - - 0 1");
        assert!(moves(&p, "H@").is_empty());
        // Nothing in reserve: no drop.
        let p = pos("4k3/8/8/8/8/8/1P6/4K3[] w - - 0 1");
        assert!(moves(&p, "H@").is_empty());
        let p = pos("4k3/8/8/8/8/8/1P6/4K3[H] w - - 0 1");
        assert_eq!(moves(&p, "H@"), ["H@b1"]);
    }

    #[test]
    fn l4_drop_in_check() {
        // Bishop a5 checks along a5-e1: the pawn step c2-c3 blocks it, f2-f3
        // does not.
        let p = pos("4k3/8/8/b7/8/8/2P2P2/4K3[H] w - - 0 1");
        assert!(p.is_check());
        assert_eq!(moves(&p, "H@"), ["H@c1"]);
        // Rook a1 checks along the first rank: the Hoplit itself blocks on
        // d1 (the king is not attacked after the drop).
        let p = pos("4k3/8/8/8/8/8/3P4/r3K3[H] w - - 0 1");
        assert!(p.is_check());
        assert_eq!(moves(&p, "H@"), ["H@d1"]);
    }

    #[test]
    fn l4_drop_answers_a_double_check() {
        // Rook a1 and bishop a5 both check: H@c1 blocks the rook with the
        // Hoplit and the bishop with the pawn step c2-c3.
        let p = pos("4k3/8/8/b7/8/8/2P5/r3K3[H] w - - 0 1");
        assert_eq!(p.checkers().count(), 2);
        assert_eq!(moves(&p, ""), ["H@c1", "e1e2", "e1f2"]);
    }

    #[test]
    fn l4_drop_that_exposes_the_king_is_illegal() {
        // The pawn d2 is pinned by the bishop a5.
        let p = pos("4k3/8/8/b7/8/8/3P4/4K3[H] w - - 0 1");
        assert!(moves(&p, "H@").is_empty());
        // d2-d3 would make the pawn the screen of the Hoplit a5-b4-c3,
        // east: an enemy pawn (L3), with the king e3 directly behind it.
        // d2-d4 is fine.
        let p = pos("4k3/8/8/h7/8/4K3/3P4/8[H] w - - 0 1");
        assert!(!p.is_check());
        assert!(moves(&p, "H@").is_empty());
        assert_eq!(moves(&p, "d2"), ["d2d4"]);
    }

    #[test]
    fn l5_promotion_to_hoplit() {
        let mut p = pos("4k3/P7/8/8/8/8/8/4K3[] w - - 0 1");
        assert_eq!(
            moves(&p, "a7"),
            ["a7a8b", "a7a8h", "a7a8n", "a7a8q", "a7a8r"]
        );
        play(&mut p, "a7a8h");
        assert_eq!(p.to_fen(), "H3k3/8/8/8/8/8/8/4K3[] b - - 0 1");
    }

    #[test]
    fn c1_castling_judged_after_the_move() {
        // O-O would vacate e1, a turning square of the Hoplit c3-d2-e1,
        // whose leg east then jumps the rook f1 onto the king g1.
        let p = pos("4k3/8/8/8/8/2h5/8/4K2R[] w K - 0 1");
        assert!(!p.is_check());
        assert!(moves(&p, "e1g1").is_empty());
        // Without the Hoplit it is legal.
        let p = pos("4k3/8/8/8/8/8/8/4K2R[] w K - 0 1");
        assert_eq!(moves(&p, "e1g1"), ["e1g1"]);
        // The crossed square f1 is attacked (Hoplit b3-c2-d1, east over the
        // king): no castling.
        let p = pos("4k3/8/8/8/8/1h6/8/4K2R[] w K - 0 1");
        assert!(!p.is_check());
        assert!(moves(&p, "e1g1").is_empty());
    }

    #[test]
    fn c2_insufficient_material_counts_hoplits() {
        for (fen, draw) in [
            ("8/8/4k3/8/8/4K3/8/8[] w - - 0 1", true),
            ("8/8/4k3/8/8/4K3/8/8[H] w - - 0 1", false),
            ("8/8/4k3/8/8/4K3/8/8[h] w - - 0 1", false),
            ("8/8/4k3/8/8/4K3/4H3/8[] w - - 0 1", false),
            ("8/8/4k3/8/8/4K3/4N3/8[] w - - 0 1", true),
        ] {
            assert_eq!(pos(fen).is_insufficient_material(), draw, "{fen}");
        }
        let p = pos("8/8/4k3/8/8/4K3/8/8[] w - - 0 1");
        assert_eq!(
            p.outcome(),
            Some(Outcome::Draw(DrawReason::InsufficientMaterial))
        );
    }

    #[test]
    fn c2_repetition_counts_reserves() {
        // The knights' dance repeats the start three times.
        let mut game = Game::new(Position::startpos(Variant::Hoplit));
        for text in "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8".split_whitespace() {
            game.play(parse_uci(game.position(), text).unwrap())
                .unwrap();
        }
        assert_eq!(game.repetitions(), 3);
        assert_eq!(game.outcome(), Some(Outcome::Draw(DrawReason::Repetition)));
        // The same placement with another reserve is another position.
        let a = pos("4k3/8/8/8/8/8/8/4K3[Hh] w - - 0 1");
        let b = pos("4k3/8/8/8/8/8/8/4K3[h] w - - 0 1");
        assert_ne!(a.hash(), b.hash());
        assert!(!a.same_for_repetition(&b));
    }

    #[test]
    fn position_text_round_trip_and_errors() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Hh] w KQkq - 0 1",
            "rnbqkb1r/pppppppp/5n2/8/8/5NP1/PPPPPP1P/RNBQKBHR[h] b KQkq - 0 2",
            "r1h1k2r/pp2bppp/2n1pn2/q2p4/3P4/2NBPN2/PP1H1PPP/R2QK2R[] w KQkq - 0 1",
            "4k3/8/8/8/8/8/1P6/4K3[H] w - - 5 40",
        ] {
            assert_eq!(pos(fen).to_fen(), fen);
        }
        // Reserve letters in any order; four fields.
        assert_eq!(
            pos("4k3/8/8/8/8/8/8/4K3[hH] w - -").to_fen(),
            "4k3/8/8/8/8/8/8/4K3[Hh] w - - 0 1"
        );
        let err = |fen: &str| Position::from_fen(Variant::Hoplit, fen).unwrap_err();
        assert_eq!(
            err("4k3/8/8/8/8/8/8/4K3 w - - 0 1"),
            FenError::MissingReserve
        );
        assert!(matches!(
            err("4k3/8/8/8/8/8/8/4K3[Q] w - - 0 1"),
            FenError::ReserveContent { .. }
        ));
        assert!(matches!(
            err("4k3/8/8/8/8/8/8/4K3[HH] w - - 0 1"),
            FenError::ReserveContent { .. }
        ));
        assert!(matches!(
            err("4k3/8/8/8/8/8/8/4K3[H w - - 0 1"),
            FenError::BadReserve(_)
        ));
        assert!(matches!(
            err("4k3/8/8/8/8/8/8/4K3[H1] w - - 0 1"),
            FenError::BadReserve(_)
        ));
        assert!(matches!(
            err("4k3/8/8/8/8/8/8/4K3 [H] w - - 0 1"),
            FenError::ReserveContent { .. }
        ));
        // The side not to move may not be in check, by a Hoplit either.
        assert_eq!(
            err("k7/2h5/8/8/8/8/4P3/4K3[] b - - 0 1"),
            FenError::OppositeCheck("White")
        );
        // 16 men and the Hoplit in reserve is too many.
        assert!(matches!(
            err("rnbqkbnr/pppppppp/8/8/8/7H/PPPPPPPP/RNBQKBNR[Hh] w KQkq - 0 1"),
            FenError::TooManyPieces("White", 18)
        ));
        // A Hoplit is no piece of chess.
        assert!(Position::from_fen(Variant::Chess, "4k3/8/8/8/8/8/8/H3K3 w - - 0 1").is_err());
        // Messages name the bad text.
        assert!(err("4k3/8/8/8/8/8/8/4K3[Q] w - - 0 1")
            .to_string()
            .contains("[Q]"));
    }

    #[test]
    fn ep_square_kept_only_when_legal_with_hoplits() {
        // After e7-e5, d5xe6 would empty e5 and d5 on the leg of the Hoplit
        // h6-g5, west onto the king a5, leaving the knight c5 as its only
        // screen: the capture is illegal, so the square is not kept (C2).
        let mut p = pos("4k3/4p3/7h/K1NP4/8/8/8/8[] b - - 0 1");
        play(&mut p, "e7e5");
        assert_eq!(p.ep_square(), None);
        assert_eq!(moves(&p, "d5"), ["d5d6"]);
        assert_eq!(p.to_fen(), "4k3/8/7h/K1NPp3/8/8/8/8[] w - - 0 2");
        let mut p = pos("4k3/4p3/8/K1NP4/8/8/8/8[] b - - 0 1");
        play(&mut p, "e7e5");
        assert_eq!(p.ep_square(), Some(Square::E6));
        assert_eq!(moves(&p, "d5"), ["d5d6", "d5e6"]);
    }
}
