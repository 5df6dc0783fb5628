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

use crate::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, rook_attacks,
};
use crate::bitboard::Bitboard;
use crate::error::{FenError, JumpingKingError};
use crate::moves::{Move, MoveKind, MoveList};
use crate::position::fen::{parse_board, parse_clocks, parse_turn};
use crate::position::{Castling, Outcome, Position, WinReason};
use crate::types::{Color, Piece, Role, Square};
use crate::variant::{Variant, JUMPING_KING_MASK};
use crate::zobrist;

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

#[inline]
const fn phase_bit(color: Color) -> u8 {
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

impl Position {
    /// Jumping King: whether `color`'s king is in its jumping phase (J4) at
    /// this turn. Always `false` in other games.
    #[inline]
    pub fn is_jumping(&self, color: Color) -> bool {
        self.variant == Variant::JumpingKing && self.phase & phase_bit(color) != 0
    }

    /// Jumping King: how many men `color` has not placed (still to place
    /// while jumping; never to enter once the phase is over, J6).
    pub fn unplaced(&self, color: Color) -> u32 {
        self.reserves[color.index()].iter().map(|&n| n as u32).sum()
    }

    /// Jumping King: whether a man of the side not to move stands on the
    /// weak square of the side to move, so the game is over (J3).
    #[inline]
    pub fn weak_square_taken(&self) -> bool {
        self.variant == Variant::JumpingKing
            && self
                .board
                .by_color(!self.turn)
                .contains(weak_square(self.turn))
    }

    fn set_jumping(&mut self, color: Color, on: bool) {
        if self.is_jumping(color) != on {
            self.phase ^= phase_bit(color);
            self.hash ^= zobrist::PHASE[color.index()];
        }
    }

    fn set_reserve(&mut self, color: Color, role: Role, n: u8) {
        let old = self.reserves[color.index()][role.index()];
        let key = |n: u8| {
            if n == 0 {
                0
            } else {
                zobrist::RESERVE[(color.index() * 7 + role.index()) * 16 + (n as usize).min(15)]
            }
        };
        self.hash ^= key(old) ^ key(n);
        self.reserves[color.index()][role.index()] = n;
    }
}

/// The game end the position shows by its weak squares (J3).
pub(crate) fn weak_square_outcome(pos: &Position) -> Option<Outcome> {
    pos.weak_square_taken().then_some(Outcome::Win {
        winner: !pos.turn(),
        reason: WinReason::WeakSquare,
    })
}

// ---- Move generation ----

/// Appends every legal move.
pub(crate) fn legal_moves(pos: &Position, list: &mut MoveList) {
    let us = pos.turn();
    if pos.weak_square_taken() {
        return; // C3: the game is over.
    }
    if pos.is_jumping(us) {
        // The stuck rule (J6) has cleared the bit if no jump exists.
        jumps(pos, list);
    } else if pos.is_jumping(!us) {
        // J6: wait while the opponent jumps; a passing king in check is mated.
        if pos.checkers().is_empty() {
            list.push(Move::pass());
        }
    } else {
        fide_moves(pos, list);
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

fn jumps(pos: &Position, list: &mut MoveList) {
    let (ksq, dests, roles) = jump_parts(pos);
    let Some(roles) = roles else {
        for to in dests {
            list.push(Move::jump(ksq, to, None));
        }
        return;
    };
    let last = pos.unplaced(pos.turn()) == 1;
    for to in dests {
        if last && !last_jump_safe(pos, to) {
            continue;
        }
        for (i, &ok) in roles.iter().enumerate() {
            if ok {
                list.push(Move::jump(ksq, to, Some(MEN[i])));
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
fn fide_moves(pos: &Position, list: &mut MoveList) {
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
        let occ = (occ ^ from) | to;
        let k = if from == ksq { to } else { ksq };
        (attackers_to(pos, k, them, occ) & !Bitboard::from_square(to)).is_empty()
    };
    let mut push = |from: Square, to: Square| {
        if safe(from, to) {
            list.push(Move::normal(from, to));
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
            if !safe(from, to) {
                continue;
            }
            list.push(Move::normal(from, to));
            if to.rank().index() == promo_rank {
                // J9: the pool of a kind is 4 minus that kind on the board,
                // the man this move captures already off.
                let left = b.occupied().without(to);
                for role in [Role::Rook, Role::Bishop, Role::Knight] {
                    if (b.by_role(role) & left).count() < 4 {
                        list.push(Move::promotion(from, to, role));
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
        MoveKind::Pass => pos.halfmove += 1,
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
                    pos.set_jumping(us, false); // J6: all nine placed.
                }
            }
            pos.halfmove += 1; // C4: jumps and placements count.
        }
        _ => {
            let from = m.from().expect("a move has an origin");
            let to = m.to().expect("a move has a destination");
            let piece = pos.take_piece(from).expect("a piece on the origin");
            let captured = pos.take_piece(to).is_some();
            let placed = match m.promotion_role() {
                Some(role) => Piece::new(us, role),
                None => piece,
            };
            pos.put_piece(to, placed);
            pos.halfmove = if captured || piece.role == Role::Pawn {
                0
            } else {
                pos.halfmove + 1
            };
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
        pos.set_jumping(us, false);
    }
    pos.checkers = if pos.is_jumping(us) {
        Bitboard::EMPTY
    } else {
        let ksq = pos.board().king_of(us).expect("a king");
        attackers_to(pos, ksq, !us, pos.board().occupied())
    };
}

// ---- Position text ----

fn kind_name(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawns",
        Role::Knight => "knights",
        Role::Bishop => "bishops",
        Role::Rook => "rooks",
        Role::Queen => "queens",
        Role::King => "kings",
        Role::Hoplit => "hoplits",
    }
}

/// Reads a position text: `board[men to place] turn phase halfmove
/// fullmove` (the clocks may be left out). See docs/rules/jumpingking.md.
pub(crate) fn from_fen(fen: &str) -> Result<Position, FenError> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.is_empty() {
        return Err(FenError::Empty);
    }
    if fields.len() != 3 && fields.len() != 5 {
        return Err(FenError::FieldCount {
            expected: "5 (or 3)",
            found: fields.len(),
        });
    }
    let (board_text, reserve_text) = match fields[0].split_once('[') {
        Some((board, rest)) => match rest.strip_suffix(']') {
            Some(inner) if !inner.contains(['[', ']']) => (board, inner),
            _ => return Err(FenError::BadReserve(fields[0].to_string())),
        },
        None => return Err(JumpingKingError::MissingReserve(fields[0].to_string()).into()),
    };
    let board = parse_board(Variant::JumpingKing, board_text)?;
    let mut reserves = [[0u8; 7]; 2];
    for ch in reserve_text.chars() {
        let piece = Piece::from_char(ch)
            .filter(|p| MEN.contains(&p.role))
            .ok_or(JumpingKingError::BadReserveLetter { ch })?;
        let n = &mut reserves[piece.color.index()][piece.role.index()];
        *n += 1;
        if *n > START_RESERVE[piece.role.index()] {
            return Err(JumpingKingError::ReserveTooLarge {
                color: piece.color.name(),
                kind: kind_name(piece.role),
                count: *n as u32,
                max: START_RESERVE[piece.role.index()] as u32,
            }
            .into());
        }
    }
    let turn = parse_turn(fields[1])?;
    let phase = match fields[2] {
        "-" => 0,
        "J" => 1,
        "j" => 2,
        "Jj" => 3,
        other => return Err(JumpingKingError::BadPhase(other.to_string()).into()),
    };
    let (halfmove, fullmove) = if fields.len() == 5 {
        parse_clocks(fields[3], fields[4])?
    } else {
        (0, 1)
    };
    let mut pos = Position {
        board,
        variant: Variant::JumpingKing,
        turn,
        castling: Castling::NONE,
        ep_square: None,
        halfmove,
        fullmove,
        trampolines: [None; 2],
        reserves,
        phase,
        hash: 0,
        checkers: Bitboard::EMPTY,
    };
    validate(&pos)?;
    pos.hash = pos.compute_hash();
    start_turn(&mut pos);
    Ok(pos)
}

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
        let promoted: u32 = MEN[..3].iter().map(|&r| owned(r).saturating_sub(2)).sum();
        if promoted > 3 - pawns {
            return Err(JumpingKingError::TooManyPromoted {
                color: c.name(),
                promoted,
                pawns_gone: 3 - pawns,
            }
            .into());
        }
    }
    for role in [Role::Rook, Role::Bishop, Role::Knight] {
        let count = b.by_role(role).count();
        if count > 4 {
            return Err(JumpingKingError::KindOverFour {
                kind: kind_name(role),
                count,
            }
            .into());
        }
    }
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

/// The men of both sides not placed, `[RRBBNNPPPrrbbnnppp]` style.
fn reserve_text(pos: &Position) -> String {
    let mut out = String::new();
    for c in Color::ALL {
        for role in MEN {
            for _ in 0..pos.reserve(c, role) {
                out.push(Piece::new(c, role).char());
            }
        }
    }
    out
}

/// Writes the position text.
pub(crate) fn to_fen(pos: &Position) -> String {
    let fide = pos.fide_fen();
    let board = fide.split(' ').next().unwrap_or_default();
    let phase = match (pos.is_jumping(Color::White), pos.is_jumping(Color::Black)) {
        (false, false) => "-",
        (true, false) => "J",
        (false, true) => "j",
        (true, true) => "Jj",
    };
    format!(
        "{board}[{}] {} {phase} {} {}",
        reserve_text(pos),
        pos.turn().char(),
        pos.halfmove,
        pos.fullmove
    )
}

/// Lines for the board picture: each side's phase and unplaced men.
pub(crate) fn describe(pos: &Position) -> String {
    let mut out = String::new();
    for c in Color::ALL {
        let mut men = String::new();
        for role in MEN {
            for _ in 0..pos.reserve(c, role) {
                men.push(Piece::new(c, role).char());
            }
        }
        let state = if pos.is_jumping(c) {
            format!("jumping, to place: {men}")
        } else if men.is_empty() {
            "all men placed, moving".to_string()
        } else {
            format!("stuck, never placed: {men}")
        };
        out.push_str(&format!(
            "{}: {state} (weak square {})\n",
            c.name(),
            weak_square(c)
        ));
    }
    out
}

// ---- Notation ----

/// The man letter of a placement in the seed's style: uppercase for
/// White's men, lowercase for Black's (`Ke3<B`, `Kc7<p`).
pub(crate) fn placement_suffix(pos: &Position, m: Move) -> String {
    match (m.kind(), m.role()) {
        (MoveKind::Jump, Some(role)) => format!("<{}", Piece::new(pos.turn(), role).char()),
        _ => String::new(),
    }
}

/// Reads the short forms only this game has: passes (`--`, `0000`) and
/// jumps (`Kc2`, `Ke3<B`, `Kc7<p`; the man's letter in either case).
/// `None` when the text is none of these (an ordinary SAN move).
pub(crate) fn parse_san_special(
    pos: &Position,
    text: &str,
) -> Option<Result<Move, crate::error::MoveError>> {
    use crate::error::MoveError;
    let trimmed = text.trim().trim_end_matches(['+', '#', '!', '?']);
    if matches!(trimmed, "--" | "0000") {
        return Some(
            pos.legal_moves()
                .into_iter()
                .find(|m| m.kind() == MoveKind::Pass)
                .ok_or_else(|| MoveError::Illegal(text.to_string())),
        );
    }
    let (base, man) = match trimmed.split_once('<') {
        Some((base, man)) => {
            let mut chars = man.chars();
            let role = match (chars.next(), chars.next()) {
                (Some(c), None) => Role::from_char(c).filter(|r| MEN.contains(r)),
                _ => None,
            };
            match role {
                Some(r) => (base, Some(r)),
                None => return Some(Err(MoveError::Malformed(text.to_string()))),
            }
        }
        None if pos.is_jumping(pos.turn()) => (trimmed, None),
        None => return None,
    };
    let to: Square = match base.strip_prefix('K').and_then(|s| s.parse().ok()) {
        Some(sq) => sq,
        None if man.is_some() => return Some(Err(MoveError::Malformed(text.to_string()))),
        None => return None,
    };
    let candidates: Vec<Move> = pos
        .legal_moves()
        .into_iter()
        .filter(|m| {
            m.kind() == MoveKind::Jump && m.to() == Some(to) && (man.is_none() || m.role() == man)
        })
        .collect();
    Some(match candidates.as_slice() {
        [] => Err(MoveError::Illegal(text.to_string())),
        [m] => Ok(*m),
        many => Err(MoveError::Ambiguous {
            text: text.to_string(),
            candidates: many
                .iter()
                .map(|&m| crate::notation::san::to_san(pos, m))
                .collect::<Vec<_>>()
                .join(", "),
        }),
    })
}

#[cfg(test)]
mod tests;
