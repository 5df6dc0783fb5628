//! The Weak Square of the Jumping King (rulings J1-J10, N6).
//!
//! The board is the 38 squares of [`JUMPING_KING_MASK`] (J1): every attack
//! set is cut to it, and sliders treat missing squares as blockers.
//!
//! State beyond the board:
//! - `Position::reserves`: each side's men not yet placed (2 R, 2 B, 2 N,
//!   3 P at the start, J2). A stuck king's men stay there: they never enter.
//! - `Position::phase`: bit 0 set while White's king is in its jumping
//!   phase, bit 1 for Black (J4). A side not jumping with men in reserve is
//!   *stuck* (J6); one with none left is *done*. Both behave alike: while the
//!   opponent's king still jumps the side passes (`0000`, J6), afterwards it
//!   plays FIDE moves (J8). (A done side never has the move while the other
//!   king jumps in a game from the start: the kings place one man a turn and
//!   White starts, so White's last placement is followed at once by Black's.)
//!
//! The stuck rule is applied when a turn starts: after each move (and when a
//! position text is read) a jumping side to move with no legal jump loses its
//! jumping bit. So `phase` always says who jumps this turn.
//!
//! Move generation is exact and direct: jumps and placements (J4, J5, J7),
//! passes (J6), and FIDE moves (J8) filtered by a king-safety test on the
//! occupancy after the move.

use super::{push_kept, GameRules};
use crate::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, rook_attacks,
};
use crate::bitboard::Bitboard;
use crate::error::{FenError, JumpingKingError};
use crate::moves::{Move, MoveKind, MoveList};
use crate::position::{Castling, Outcome, Position, Setup, WinReason};
use crate::types::{Color, Piece, Role, Square};
use crate::variant::{Variant, JUMPING_KING_MASK};

/// The Weak Square of the Jumping King.
pub(crate) struct JumpingKing;

impl GameRules for JumpingKing {
    const VARIANT: Variant = Variant::JumpingKing;
    const ROLES: &'static [Role] = &[
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::King,
    ];
    const RESERVE_ROLES: &'static [Role] = &MEN;
    const RESERVE_START: [u8; 7] = START_RESERVE;
    const PHASE_BITS: u8 = phase_bit(Color::White) | phase_bit(Color::Black);

    #[inline]
    fn legal_moves(pos: &Position, list: &mut MoveList) {
        legal_moves(pos, list)
    }

    #[inline]
    fn legal_steps_filtered(pos: &Position, list: &mut MoveList, keep: impl FnMut(Move) -> bool) {
        legal_moves_kept(pos, list, keep)
    }

    #[inline]
    fn play(pos: &mut Position, m: Move) {
        play(pos, m)
    }

    #[inline]
    fn is_attacked(pos: &Position, sq: Square, by: Color) -> bool {
        attackers_to(pos, sq, by, pos.board().occupied()).any()
    }

    /// No castling and no en passant (J8); the phase says whose king jumps
    /// (bit 0 White, bit 1 Black). The stuck rule (J6) is applied at once.
    fn from_setup(setup: Setup) -> Result<Position, FenError> {
        let (mut pos, _) = setup.into_position(Variant::JumpingKing);
        pos.castling = Castling::NONE;
        super::material::check_state::<JumpingKing>(&pos)?;
        validate(&pos)?;
        pos.hash = pos.compute_hash();
        start_turn(&mut pos);
        Ok(pos)
    }

    #[inline]
    fn decided(pos: &Position) -> Option<Outcome> {
        pos.weak_square_taken().then_some(Outcome::Win {
            winner: !pos.turn(),
            reason: WinReason::WeakSquare,
        })
    }

    #[inline]
    fn reserve_in_play(pos: &Position, color: Color) -> bool {
        pos.is_jumping(color)
    }
}

const MASK: Bitboard = JUMPING_KING_MASK;

/// The men a side places, in the order moves and texts list them.
pub const MEN: [Role; 4] = [Role::Rook, Role::Bishop, Role::Knight, Role::Pawn];

/// How many of each man a side owns at the start (J2), by [`Role::index`].
pub const START_RESERVE: [u8; 7] = [3, 2, 2, 2, 0, 0, 0];

/// The light squares (h1, a2, ...).
const LIGHT: Bitboard = Bitboard(0x55AA_55AA_55AA_55AA);

/// A side's weak square (J3): a1 for White, f8 for Black.
#[inline]
pub const fn weak_square(color: Color) -> Square {
    match color {
        Color::White => Square::A1,
        Color::Black => Square::F8,
    }
}

/// The squares from which a man of `color`'s enemy could reach `color`'s
/// weak square in one move were the board empty (J1, J3): the square's
/// file and diagonal on the board (a pawn's step comes down the file),
/// and its knight and king squares. For a1: a2-a7, b2-f6, b3, c2; for
/// f8 the same turned half round: f7-f2, e7-a3, e6, d7.
#[inline]
pub const fn weak_square_approaches(color: Color) -> Bitboard {
    match color {
        Color::White => Bitboard(
            (0x01_0101_0101_0100)
                | (1 << 9 | 1 << 18 | 1 << 27 | 1 << 36 | 1 << 45)
                | (1 << 17 | 1 << 10),
        ),
        Color::Black => Bitboard(
            (0x20_2020_2020_2000)
                | (1 << 52 | 1 << 43 | 1 << 34 | 1 << 25 | 1 << 16)
                | (1 << 44 | 1 << 51),
        ),
    }
}

/// Both weak squares (J3): a1 and f8.
pub const WEAK_SQUARES: Bitboard = Bitboard((1 << 0) | (1 << 61));

/// The squares a jumping king may jump to (J4): ranks 2-4 for White, 5-7 for Black.
#[inline]
pub const fn area(color: Color) -> Bitboard {
    match color {
        Color::White => Bitboard(0x3f_3f3f << 8),
        Color::Black => Bitboard(0x3f_3f3f << 32),
    }
}

/// The phase bit of `color`'s jumping king (J4).
#[inline]
pub(crate) const fn phase_bit(color: Color) -> u8 {
    1 << color as u8
}

// ---- Attacks on the 38 squares (J1) ----

#[inline]
fn rook_att(sq: Square, occ: Bitboard) -> Bitboard {
    rook_attacks(sq, occ | !MASK) & MASK
}

#[inline]
fn bishop_att(sq: Square, occ: Bitboard) -> Bitboard {
    bishop_attacks(sq, occ | !MASK) & MASK
}

#[inline]
fn knight_att(sq: Square) -> Bitboard {
    knight_attacks(sq) & MASK
}

#[inline]
fn king_att(sq: Square) -> Bitboard {
    king_attacks(sq) & MASK
}

/// The pieces of `by` that attack `sq` on the occupancy `occ`. A king in
/// its jumping phase attacks nothing (J4).
#[inline]
pub(crate) fn attackers_to(pos: &Position, sq: Square, by: Color, occ: Bitboard) -> Bitboard {
    let b = pos.board();
    let kings = if pos.is_jumping(by) {
        Bitboard::EMPTY
    } else {
        b.by_role(Role::King)
    };
    b.by_color(by)
        & ((rook_att(sq, occ) & b.rook_likes())
            | (bishop_att(sq, occ) & b.bishop_likes())
            | (knight_att(sq) & b.by_role(Role::Knight))
            | (king_att(sq) & kings)
            | (pawn_attacks(!by, sq) & b.by_role(Role::Pawn)))
}

/// A legal move of the side to move onto the enemy's weak square, which
/// wins at once (J3), if there is one: see [`weak_square_move`].
#[inline]
pub(crate) fn weak_square_win(pos: &Position) -> Option<Move> {
    if pos.weak_square_taken() {
        return None; // C3: the game is over.
    }
    weak_square_move(pos, pos.turn())
}

/// A move of `by` onto the weak square of its enemy, legal were it `by`'s
/// turn (J3): both kings past their jumping phase (before, no man moves,
/// J4, J6), a man that reaches the square (a pawn by its step, J9; the
/// square is always empty, no man may enter its own), and the own king
/// not left attacked (C1, [`king_safe_after`]).
#[inline]
pub(crate) fn weak_square_move(pos: &Position, by: Color) -> Option<Move> {
    // Most positions have no man on the square's lines at all.
    if (pos.board().by_color(by) & weak_square_approaches(!by)).is_empty()
        || pos.is_jumping(Color::White)
        || pos.is_jumping(Color::Black)
    {
        return None;
    }
    weak_square_move_on_lines(pos, by)
}

/// [`weak_square_move`] once a man of `by` stands on the square's lines
/// and both phases are over.
#[cold]
#[inline(never)]
fn weak_square_move_on_lines(pos: &Position, by: Color) -> Option<Move> {
    let ws = weak_square(!by);
    let b = pos.board();
    let occ = b.occupied();
    if occ.contains(ws) {
        return None;
    }
    let pawns = b.pieces(by, Role::Pawn);
    let step_from = ws
        .offset(0, by.fold(-1, 1))
        .map_or(Bitboard::EMPTY, Bitboard::from_square);
    let reach = (attackers_to(pos, ws, by, occ) & !pawns) | (step_from & pawns);
    let king = b.king_of(by)?;
    reach
        .into_iter()
        .find(|&from| king_safe_after(pos, by, king, from, ws))
        .map(|from| Move::normal(from, ws))
}

/// Whether `by`'s king, on `king`, is safe once its man on `from` has
/// moved to `to` (C1), a man on `to` captured: the enemy's attackers on
/// the new occupancy, the captured man left out.
#[inline]
fn king_safe_after(pos: &Position, by: Color, king: Square, from: Square, to: Square) -> bool {
    let occ = (pos.board().occupied() ^ from) | to;
    let k = if from == king { to } else { king };
    (attackers_to(pos, k, !by, occ) & !Bitboard::from_square(to)).is_empty()
}

/// Turns `color`'s jumping phase on or off (J4, J6), hashed.
fn set_jumping(pos: &mut Position, color: Color, on: bool) {
    if pos.is_jumping(color) != on {
        pos.toggle_phase(phase_bit(color));
    }
}

// ---- Move generation ----

/// Appends every legal move.
pub(crate) fn legal_moves(pos: &Position, list: &mut MoveList) {
    legal_moves_kept(pos, list, |_| true)
}

/// Appends the legal moves that `keep` accepts, in the order of
/// [`legal_moves`]: `keep` is asked first, and the legality of the kept
/// moves only is tested.
fn legal_moves_kept(pos: &Position, list: &mut MoveList, mut keep: impl FnMut(Move) -> bool) {
    let us = pos.turn();
    if pos.weak_square_taken() {
        return; // C3: the game is over.
    }
    if pos.is_jumping(us) {
        // The stuck rule (J6) has cleared the bit if no jump exists.
        jumps(pos, list, &mut keep);
    } else if pos.is_jumping(!us) {
        // J6: wait while the opponent jumps; a passing king in check is mated.
        if pos.checkers().is_empty() {
            push_kept(list, &mut keep, Move::pass());
        }
    } else {
        fide_moves(pos, list, &mut keep);
    }
}

/// Whether the side to move may place a `role` on `sq` (J5: a side's
/// bishops stand on squares of different colours).
#[inline]
fn placement_ok(pos: &Position, us: Color, role: Role, sq: Square) -> bool {
    if pos.reserve(us, role) == 0 {
        return false;
    }
    if role != Role::Bishop {
        return true;
    }
    let same_colour = if LIGHT.contains(sq) { LIGHT } else { !LIGHT };
    (pos.board().pieces(us, Role::Bishop) & same_colour).is_empty()
}

/// The squares the jumping king of the side to move may reach, and the men
/// it may leave behind (`None` for the first jump, J4).
fn jump_parts(pos: &Position) -> (Square, Bitboard, Option<[bool; 4]>) {
    let us = pos.turn();
    let b = pos.board();
    let ksq = b.king_of(us).expect("a king");
    let dests = knight_att(ksq) & area(us) & !b.occupied();
    if ksq == weak_square(us) {
        return (ksq, dests, None);
    }
    let roles = MEN.map(|r| placement_ok(pos, us, r, ksq));
    (ksq, dests, Some(roles))
}

/// J7: the jump that places the last man must not leave the king attacked.
/// The placed man stands where the king stood, so the occupancy only gains
/// the king's new square.
#[inline]
fn last_jump_safe(pos: &Position, to: Square) -> bool {
    let us = pos.turn();
    attackers_to(pos, to, !us, pos.board().occupied() | to).is_empty()
}

fn jumps(pos: &Position, list: &mut MoveList, keep: &mut impl FnMut(Move) -> bool) {
    let (ksq, dests, roles) = jump_parts(pos);
    let Some(roles) = roles else {
        for to in dests {
            push_kept(list, keep, Move::jump(ksq, to, None));
        }
        return;
    };
    let last = pos.unplaced(pos.turn()) == 1;
    for to in dests {
        // Tested once per square, and only for a kept jump.
        let mut safe = None;
        for (i, &ok) in roles.iter().enumerate() {
            if !ok {
                continue;
            }
            let m = Move::jump(ksq, to, Some(MEN[i]));
            if keep(m) && (!last || *safe.get_or_insert_with(|| last_jump_safe(pos, to))) {
                list.push(m);
            }
        }
    }
}

/// Whether the jumping side to move has a legal jump (J5, J7); without one
/// its king is stuck (J6).
fn has_jump(pos: &Position) -> bool {
    let (_, dests, roles) = jump_parts(pos);
    match roles {
        None => dests.any(),
        Some(roles) => {
            if !roles.iter().any(|&ok| ok) {
                return false;
            }
            if pos.unplaced(pos.turn()) > 1 {
                return dests.any();
            }
            for to in dests {
                if last_jump_safe(pos, to) {
                    return true;
                }
            }
            false
        }
    }
}

/// Our men pinned to our king `ksq` by sliders on this board.
fn pinned(pos: &Position, us: Color, ksq: Square) -> Bitboard {
    let b = pos.board();
    let snipers = ((rook_att(ksq, Bitboard::EMPTY) & b.rook_likes())
        | (bishop_att(ksq, Bitboard::EMPTY) & b.bishop_likes()))
        & b.by_color(!us);
    let mut pinned = Bitboard::EMPTY;
    for s in snipers {
        let blockers = between(ksq, s) & b.occupied();
        if !blockers.more_than_one() {
            pinned |= blockers & b.by_color(us);
        }
    }
    pinned
}

/// The FIDE moves of J8 on this board: no castling, no double step, no en
/// passant; never onto one's own weak square (J3); optional promotion on
/// rank 7 (White) or 2 (Black) from the pool of J9.
fn fide_moves(pos: &Position, list: &mut MoveList, keep: &mut impl FnMut(Move) -> bool) {
    let b = pos.board();
    let us = pos.turn();
    let them = !us;
    let ours = b.by_color(us);
    let theirs = b.by_color(them);
    let occ = b.occupied();
    let ksq = b.king_of(us).expect("a king");
    // Kings are never captured: a king next to the enemy king can only
    // arise when a stuck king's phase ends beside it (see the rules doc),
    // and then the side to move is in check and must step away.
    let targets =
        MASK & !ours & !Bitboard::from_square(weak_square(us)) & !b.pieces(them, Role::King);

    // Whether our king is safe after moving `from` to `to`. Out of check,
    // only king moves and pinned men can expose it (no en passant, J8);
    // in check, the move is made on the occupancy and the king tested.
    let in_check = pos.checkers().any();
    let pinned = if in_check {
        Bitboard::EMPTY
    } else {
        pinned(pos, us, ksq)
    };
    let safe = |from: Square, to: Square| -> bool {
        if !in_check && from != ksq {
            return !pinned.contains(from) || line(ksq, from).contains(to);
        }
        king_safe_after(pos, us, ksq, from, to)
    };
    let mut push = |from: Square, to: Square| {
        let m = Move::normal(from, to);
        if keep(m) && safe(from, to) {
            list.push(m);
        }
    };

    for to in king_att(ksq) & targets {
        push(ksq, to);
    }
    for from in b.pieces(us, Role::Knight) {
        for to in knight_att(from) & targets {
            push(from, to);
        }
    }
    for from in b.bishop_likes() & ours {
        for to in bishop_att(from, occ) & targets {
            push(from, to);
        }
    }
    for from in b.rook_likes() & ours {
        for to in rook_att(from, occ) & targets {
            push(from, to);
        }
    }

    let promo_rank = us.fold(6, 1);
    for from in b.pieces(us, Role::Pawn) {
        let step = from
            .offset(0, us.fold(1, -1))
            .map(Bitboard::from_square)
            .unwrap_or_default()
            & targets
            & !occ;
        let caps = pawn_attacks(us, from) & targets & theirs;
        for to in step | caps {
            // Tested once per square, and only for a kept move.
            let mut is_safe = None;
            let m = Move::normal(from, to);
            if keep(m) && *is_safe.get_or_insert_with(|| safe(from, to)) {
                list.push(m);
            }
            if to.rank().index() == promo_rank {
                // J9: the pool of a kind is 4 minus that kind on the board,
                // the man this move captures already off.
                let left = b.occupied().without(to);
                for role in [Role::Rook, Role::Bishop, Role::Knight] {
                    if (b.by_role(role) & left).count() < 4 {
                        let m = Move::promotion(from, to, role);
                        if keep(m) && *is_safe.get_or_insert_with(|| safe(from, to)) {
                            list.push(m);
                        }
                    }
                }
            }
        }
    }
}

// ---- Making moves ----

/// Plays a legal move.
pub(crate) fn play(pos: &mut Position, m: Move) {
    let us = pos.turn();
    match m.kind() {
        MoveKind::Pass => pos.count_turn(false),
        MoveKind::Jump => {
            let from = m.from().expect("a jump has an origin");
            let to = m.to().expect("a jump has a destination");
            let king = pos.take_piece(from).expect("the king");
            pos.put_piece(to, king);
            if let Some(role) = m.role() {
                pos.put_piece(from, Piece::new(us, role));
                let n = pos.reserve(us, role);
                pos.set_reserve(us, role, n - 1);
                if pos.unplaced(us) == 0 {
                    set_jumping(pos, us, false); // J6: all nine placed.
                }
            }
            pos.count_turn(false); // C4: jumps and placements count.
        }
        _ => {
            // J8: FIDE moves without castling or en passant.
            let (piece, captured) = super::chess::move_piece(pos, m);
            pos.count_turn(captured.is_some() || piece.role == Role::Pawn);
        }
    }
    pos.switch_turn();
    start_turn(pos);
}

/// The start of a turn: the stuck rule (J6), then the checkers (a jumping
/// king is never in check, J7).
fn start_turn(pos: &mut Position) {
    let us = pos.turn();
    if pos.is_jumping(us) && !has_jump(pos) {
        set_jumping(pos, us, false);
    }
    pos.checkers = if pos.is_jumping(us) {
        Bitboard::EMPTY
    } else {
        let ksq = pos.board().king_of(us).expect("a king");
        attackers_to(pos, ksq, !us, pos.board().occupied())
    };
}

// ---- Checking a setup ----

/// The checks of a position text (J1-J9), each with its own error.
fn validate(pos: &Position) -> Result<(), FenError> {
    let b = pos.board();
    for c in Color::ALL {
        let kings = b.count(c, Role::King);
        if kings != 1 {
            return Err(FenError::KingCount(c.name(), kings));
        }
    }
    if let Some(sq) = b.by_role(Role::Queen).first() {
        return Err(JumpingKingError::Queen(sq.to_string()).into());
    }
    for c in Color::ALL {
        let owned = |r: Role| b.count(c, r) + pos.reserve(c, r) as u32;
        let men: u32 = MEN.iter().map(|&r| owned(r)).sum();
        if men > 9 {
            return Err(JumpingKingError::TooManyMen {
                color: c.name(),
                men,
            }
            .into());
        }
        let pawns = owned(Role::Pawn);
        if pawns > 3 {
            return Err(JumpingKingError::TooManyPawns {
                color: c.name(),
                pawns,
            }
            .into());
        }
        // Rooks, bishops and knights beyond two each, and a second bishop
        // on one colour (J5 places them on both colours, J9).
        let mut army = START_RESERVE;
        army[Role::King.index()] = 1;
        let (promoted, _) = super::material::promoted(pos, c, &army, true);
        if promoted > 3 - pawns {
            return Err(JumpingKingError::TooManyPromoted {
                color: c.name(),
                promoted,
                pawns_gone: 3 - pawns,
            }
            .into());
        }
    }
    // No cap on the men of a kind on the board: J9's pool of 4 limits
    // promotion only, and a man placed after a promotion may make a fifth.
    for c in Color::ALL {
        let weak = weak_square(c);
        match b.piece_at(weak) {
            Some(p) if p.color == c && p.role != Role::King => {
                return Err(JumpingKingError::OwnWeakSquare {
                    color: c.name(),
                    square: weak.to_string(),
                }
                .into());
            }
            Some(p) if p.color != c && pos.turn() != c => {
                return Err(JumpingKingError::WonWrongTurn {
                    winner: (!c).name(),
                    loser: c.name(),
                    square: weak.to_string(),
                }
                .into());
            }
            _ => {}
        }
    }
    for c in Color::ALL {
        if !pos.is_jumping(c) {
            continue;
        }
        let ksq = b.king_of(c).expect("one king");
        if !area(c).contains(ksq) && ksq != weak_square(c) {
            return Err(JumpingKingError::JumpingOutsideArea {
                color: c.name(),
                square: ksq.to_string(),
                area: c.fold("2-4", "5-7"),
            }
            .into());
        }
        if pos.unplaced(c) == 0 {
            return Err(JumpingKingError::JumpingWithoutMen(c.name()).into());
        }
    }
    // The side that just moved left its king safe (a jumping king is
    // outside the check rules, J7).
    // One exception: a king whose jumping phase ended because it was stuck
    // (J6) starts to attack, and may then stand next to the enemy king,
    // which jumped there while it attacked nothing (J4, J7).
    let them = !pos.turn();
    if !pos.is_jumping(them) {
        let ksq = b.king_of(them).expect("one king");
        let mut attackers = attackers_to(pos, ksq, pos.turn(), b.occupied());
        let stuck = !pos.is_jumping(pos.turn()) && pos.unplaced(pos.turn()) > 0;
        if stuck {
            attackers &= !b.by_role(Role::King);
        }
        if attackers.any() {
            return Err(FenError::OppositeCheck(them.name()));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
