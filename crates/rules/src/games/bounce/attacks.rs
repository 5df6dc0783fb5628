//! Attacks through trampolines (P8): which pieces reach a usable
//! trampoline and go on to capture on a square; and the shortcuts of the
//! legality tests (critical squares, moves that are surely safe).

use super::{
    forward, last_rank, leg_targets, lines_after, make_on_board, start_rank, Lines, Rules,
};
use crate::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks,
};
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::moves::{Move, MoveKind};
use crate::position::Position;
use crate::types::{Color, Piece, Role, Square};

// ---- Attack detection (P8) ----

struct Hunt {
    rules: Rules,
    by: Color,
    target: Square,
    /// Pieces, the attacker's origin removed (P7).
    occ: Bitboard,
    usable: Bitboard,
}

impl Hunt {
    /// Whether a piece standing on the trampoline `cur` (having used
    /// `used`) can go on to capture on the target.
    fn hits(&self, cur: Square, role: Role, lines: Lines, used: Bitboard) -> bool {
        if role == Role::Pawn {
            if pawn_attacks(self.by, cur).contains(self.target) {
                return true;
            }
            if let Some(one) = cur.offset(0, forward(self.by)) {
                if (self.usable & !used).contains(one) && !self.occ.contains(one) {
                    return self.pawn_lands(one, used | one);
                }
            }
            return false;
        }
        let targets = leg_targets(role, lines, cur, self.occ);
        if targets.contains(self.target) {
            return true;
        }
        for t in targets & self.usable & !used {
            let next = lines_after(self.rules, role, lines, cur, t);
            if self.hits(t, role, next, used | t) {
                return true;
            }
        }
        false
    }

    /// A pawn lands on the trampoline `t` (promoting on the last rank, P6;
    /// a queen covers the rook and bishop, a knight is separate).
    fn pawn_lands(&self, t: Square, used: Bitboard) -> bool {
        if t.rank() == last_rank(self.by) {
            self.hits(t, Role::Queen, Lines::Any, used)
                || self.hits(t, Role::Knight, Lines::Any, used)
        } else {
            self.hits(t, Role::Pawn, Lines::Any, used)
        }
    }
}

/// The pieces of `by` that attack `sq` (P8): FIDE attacks plus every
/// bounce path ending in a capture on `sq`, pins ignored. With `all` false
/// it stops at the first attacker found.
pub(crate) fn attackers(
    board: &Board,
    tramps: [Option<Square>; 2],
    rules: Rules,
    sq: Square,
    by: Color,
    all: bool,
) -> Bitboard {
    let occ = board.occupied();
    let them = board.by_color(by);
    let mut found = them
        & ((rook_attacks(sq, occ) & board.rook_likes())
            | (bishop_attacks(sq, occ) & board.bishop_likes())
            | (knight_attacks(sq) & board.by_role(Role::Knight))
            | (king_attacks(sq) & board.by_role(Role::King))
            | (pawn_attacks(!by, sq) & board.by_role(Role::Pawn)));
    if found.any() && !all {
        return found;
    }
    let usable = rules.usable(tramps, by);
    if usable.is_empty() {
        return found;
    }
    let mut hunt = Hunt {
        rules,
        by,
        target: sq,
        occ,
        usable,
    };
    let queens = board.by_role(Role::Queen);
    for t in usable {
        // A piece that bounces off `t` goes on with its own kind of leg,
        // which must end on `sq` or on another usable trampoline. A leg
        // stays on the lines (or the jumps) of `t` on the empty board, so
        // a kind of leg none of whose lines meets those squares cannot
        // hit, and the pieces that would go on with it are not hunted.
        // (A pawn goes on with a pawn's capture or step, or, promoted, a
        // queen's or knight's leg: within all three kinds.)
        let ends = usable.without(t) | sq;
        let orth = (rook_attacks(t, Bitboard::EMPTY) & ends).any();
        let diag = (bishop_attacks(t, Bitboard::EMPTY) & ends).any();
        let jump = (knight_attacks(t) & ends).any();
        if !(orth || diag || jump) {
            continue;
        }
        let used = Bitboard::from_square(t);
        let mut try_piece = |hunt: &mut Hunt, p: Square, role: Role, lines: Lines| {
            if found.contains(p) {
                return false;
            }
            hunt.occ = occ.without(p);
            let hit = if role == Role::Pawn {
                hunt.pawn_lands(t, used)
            } else {
                hunt.hits(t, role, lines, used)
            };
            if hit {
                found |= p;
            }
            hit && !all
        };
        if jump {
            for p in knight_attacks(t) & them & board.by_role(Role::Knight) {
                if try_piece(&mut hunt, p, Role::Knight, Lines::Any) {
                    return found;
                }
            }
        }
        // Bishops go on diagonally, and so do queens that arrive
        // diagonally where H6 holds; other queens go on with any line.
        let diag_arrivals = match (diag, orth && !rules.queen_line) {
            (true, _) => them & board.bishop_likes(),
            (false, true) => them & queens,
            (false, false) => Bitboard::EMPTY,
        };
        let orth_arrivals = match (orth, diag && !rules.queen_line) {
            (true, _) => them & board.rook_likes(),
            (false, true) => them & queens,
            (false, false) => Bitboard::EMPTY,
        };
        for p in bishop_attacks(t, occ) & diag_arrivals {
            let (role, lines) = if queens.contains(p) {
                (
                    Role::Queen,
                    if rules.queen_line {
                        Lines::Diag
                    } else {
                        Lines::Any
                    },
                )
            } else {
                (Role::Bishop, Lines::Any)
            };
            if try_piece(&mut hunt, p, role, lines) {
                return found;
            }
        }
        for p in rook_attacks(t, occ) & orth_arrivals {
            let (role, lines) = if queens.contains(p) {
                (
                    Role::Queen,
                    if rules.queen_line {
                        Lines::Orth
                    } else {
                        Lines::Any
                    },
                )
            } else {
                (Role::Rook, Lines::Any)
            };
            if try_piece(&mut hunt, p, role, lines) {
                return found;
            }
        }
        // Pawns: a straight step onto `t`, or (H7) a double step.
        let pawn = Piece::new(by, Role::Pawn);
        if let Some(one) = t.offset(0, -forward(by)) {
            if board.piece_at(one) == Some(pawn)
                && try_piece(&mut hunt, one, Role::Pawn, Lines::Any)
            {
                return found;
            }
            if rules.double_step_onto && !occ.contains(one) {
                if let Some(two) = one.offset(0, -forward(by)) {
                    if two.rank() == start_rank(by)
                        && board.piece_at(two) == Some(pawn)
                        && try_piece(&mut hunt, two, Role::Pawn, Lines::Any)
                    {
                        return found;
                    }
                }
            }
        }
    }
    found
}

/// Whether `sq` is attacked by `by` (P8).
#[inline]
pub(crate) fn is_attacked(
    board: &Board,
    tramps: [Option<Square>; 2],
    rules: Rules,
    sq: Square,
    by: Color,
) -> bool {
    attackers(board, tramps, rules, sq, by, false).any()
}

/// Whether the king of `us` is attacked on `board`.
#[inline]
pub(crate) fn king_attacked(
    board: &Board,
    tramps: [Option<Square>; 2],
    rules: Rules,
    us: Color,
) -> bool {
    match board.king_of(us) {
        Some(k) => is_attacked(board, tramps, rules, k, !us),
        None => false,
    }
}

/// Sets the checkers of the side to move: the enemy pieces that attack its
/// king directly or through the trampolines it may use (P8).
pub(crate) fn update_checkers(pos: &mut Position, rules: Rules) {
    let us = pos.turn;
    pos.checkers = match pos.board.king_of(us) {
        Some(k) => attackers(&pos.board, pos.trampolines, rules, k, !us, true),
        None => Bitboard::EMPTY,
    };
}

/// Whether the piece move `m` of `us` leaves `us`'s king unattacked, with
/// the trampolines `tramps` standing after it.
#[inline]
pub(crate) fn safe_after(
    board: &Board,
    tramps: [Option<Square>; 2],
    rules: Rules,
    us: Color,
    m: Move,
) -> bool {
    let mut b = board.clone();
    make_on_board(&mut b, m);
    !king_attacked(&b, tramps, rules, us)
}

/// The squares whose vacating may open an enemy path to the king on `k`.
///
/// A path that a piece leaving `x` opens has a slide over `x` from A to B,
/// where A is an enemy slider moving along that kind of line or a
/// trampoline the enemy may use, and B is such a trampoline or the king;
/// `x` was the only piece between A and B. Or (H7) `x` is the square an
/// enemy pawn double-steps over onto a trampoline. So `x` is the single
/// blocker between such a pair, found as pins are found. A pawn that
/// promotes on a trampoline of its last rank slides back over its own
/// vacated origin (P6, P7, T6), so such a pawn does not count as a blocker
/// either (the other single blocker is critical too).
#[inline]
pub(crate) fn critical_squares(
    board: &Board,
    tramps: [Option<Square>; 2],
    rules: Rules,
    k: Square,
    enemy: Color,
) -> Bitboard {
    let occ = board.occupied();
    let them = board.by_color(enemy);
    let rooks = them & board.rook_likes();
    let bishops = them & board.bishop_likes();
    let usable = rules.usable(tramps, enemy);
    let promoters = promoting_pawns(board, usable, enemy);
    let mut crit = Bitboard::EMPTY;
    for c in usable | k {
        let ends = (usable | k).without(c);
        let snipers = (rook_attacks(c, Bitboard::EMPTY) & (rooks | ends))
            | (bishop_attacks(c, Bitboard::EMPTY) & (bishops | ends));
        for sniper in snipers {
            let blockers = between(c, sniper) & occ;
            if blockers.any() && !blockers.more_than_one() {
                crit |= blockers;
            }
            let others = blockers & !promoters;
            if others != blockers && others.any() && !others.more_than_one() {
                crit |= others;
            }
        }
        if rules.double_step_onto && c != k {
            let back = -forward(enemy);
            if let (Some(x), Some(p)) = (c.offset(0, back), c.offset(0, 2 * back)) {
                if p.rank() == start_rank(enemy)
                    && board.piece_at(p) == Some(Piece::new(enemy, Role::Pawn))
                {
                    crit |= x;
                }
            }
        }
    }
    crit
}

/// The pawns of `enemy` one or two squares behind a trampoline it may use
/// on its last rank: they may step onto it (over a trampoline between, in
/// Hop Chess), promote and come back over their own origin (P6, T6).
fn promoting_pawns(board: &Board, usable: Bitboard, enemy: Color) -> Bitboard {
    let pawns = board.pieces(enemy, Role::Pawn);
    let back = -forward(enemy);
    let mut found = Bitboard::EMPTY;
    for t in usable & Bitboard::rank(last_rank(enemy)) {
        for n in 1..=2 {
            if let Some(sq) = t.offset(0, n * back) {
                found |= pawns & sq;
            }
        }
    }
    found
}

/// What the legality tests of one position's piece moves share: the
/// mover, its king, whether it is in check, and the squares whose vacating
/// may open a path to it ([`critical_squares`], for [`surely_safe`]). Made
/// once a position; kept for a search's candidate tests in
/// [`CandidateContext`](crate::games::CandidateContext).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Node {
    pub(crate) us: Color,
    pub(crate) king: Square,
    pub(crate) in_check: bool,
    pub(crate) critical: Bitboard,
}

impl Node {
    /// The node of `pos` under `rules`; `None` when the mover has no king
    /// (then it has no legal piece move).
    #[inline]
    pub(crate) fn new(pos: &Position, rules: Rules) -> Option<Node> {
        let us = pos.turn;
        let king = pos.board.king_of(us)?;
        Some(Node {
            us,
            king,
            in_check: pos.checkers.any(),
            critical: critical_squares(&pos.board, pos.trampolines, rules, king, !us),
        })
    }

    /// Whether the pseudo-legal piece move `m` of `pos` leaves the king
    /// unattacked with the trampolines where they stand.
    #[inline]
    pub(crate) fn safe(&self, pos: &Position, rules: Rules, m: Move) -> bool {
        surely_safe(m, self.king, self.in_check, self.critical)
            || safe_after(&pos.board, pos.trampolines, rules, self.us, m)
    }
}

/// A cheap sufficient test that a piece move leaves the own king safe:
/// the king was not attacked, the move is not a king move, castling or en
/// passant, and the origin is not critical. A piece that arrives on a
/// square only blocks paths (a capture leaves the capturer there), so only
/// the vacated origin can open a path.
#[inline]
pub(crate) fn surely_safe(m: Move, king: Square, in_check: bool, critical: Bitboard) -> bool {
    !in_check
        && matches!(m.kind(), MoveKind::Normal | MoveKind::DoubleStep)
        && m.from().is_some_and(|f| f != king && !critical.contains(f))
}
