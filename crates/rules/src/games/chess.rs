//! FIDE chess (rulings C1-C4): fully legal move generation with pins and
//! check masks, and making moves with incremental hashing.

use super::{material, push_kept, GameRules};
use crate::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, rook_attacks,
};
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::error::FenError;
use crate::moves::{Move, MoveKind, MoveList};
use crate::position::{Position, Setup};
use crate::types::{Color, Piece, Rank, Role, Square};
use crate::variant::Variant;

/// FIDE chess.
pub(crate) struct Chess;

impl GameRules for Chess {
    const VARIANT: Variant = Variant::Chess;
    const ROLES: &'static [Role] = &FIDE_ROLES;

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
        pos.attackers_to(sq, by, pos.board().occupied()).any()
    }

    fn from_setup(setup: Setup) -> Result<Position, FenError> {
        let (mut pos, ep_claim) = setup.into_position(Variant::Chess);
        material::check_state::<Chess>(&pos)?;
        validate_fide(&pos)?;
        if let Some(ep) = ep_claim {
            validate_ep_claim(&pos, ep)?;
            if ep_capture_possible(&pos, ep) {
                pos.ep_square = Some(ep);
            }
        }
        pos.update_checkers_fide();
        // A move checks with the moved piece and uncovers at most one line.
        let checkers = pos.checkers.count();
        if checkers > 2 {
            return Err(FenError::TooManyCheckers(checkers));
        }
        pos.hash = pos.compute_hash();
        Ok(pos)
    }

    #[inline]
    fn is_insufficient_material(pos: &Position) -> bool {
        insufficient_material(pos)
    }

    fn can_mate(pos: &Position, side: Color) -> bool {
        has_mating_material(pos, side)
    }
}

/// The pieces of FIDE chess, in [`Role::ALL`] order.
pub(crate) const FIDE_ROLES: [Role; 6] = [
    Role::Pawn,
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Queen,
    Role::King,
];

const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

/// Our pieces pinned to our king `ksq`.
#[inline]
pub(crate) fn pinned(pos: &Position, us: Color, ksq: Square) -> Bitboard {
    let b = pos.board();
    let them = b.by_color(!us);
    let occ = b.occupied();
    let snipers = ((rook_attacks(ksq, Bitboard::EMPTY) & b.rook_likes())
        | (bishop_attacks(ksq, Bitboard::EMPTY) & b.bishop_likes()))
        & them;
    let mut pinned = Bitboard::EMPTY;
    for s in snipers {
        let blockers = between(ksq, s) & occ;
        if !blockers.more_than_one() {
            pinned |= blockers & b.by_color(us);
        }
    }
    pinned
}

/// Whether a square is attacked by `by`, given occupancy `occ`.
#[inline]
fn attacked(pos: &Position, sq: Square, by: Color, occ: Bitboard) -> bool {
    pos.attackers_to(sq, by, occ).any()
}

#[inline]
fn push_pawn_moves(
    list: &mut MoveList,
    keep: &mut impl FnMut(Move) -> bool,
    from: Square,
    to: Square,
    promo_rank: Rank,
) {
    if to.rank() == promo_rank {
        for role in PROMOTIONS {
            push_kept(list, keep, Move::promotion(from, to, role));
        }
    } else {
        push_kept(list, keep, Move::normal(from, to));
    }
}

/// Appends every legal move of a chess position.
pub(crate) fn legal_moves(pos: &Position, list: &mut MoveList) {
    legal_moves_kept(pos, list, |_| true)
}

/// Appends the legal moves that `keep` accepts, in the order of
/// [`legal_moves`]: `keep` is asked first, and only the kept moves whose
/// legality needs a test (king steps, castling, en passant) are tested.
fn legal_moves_kept(pos: &Position, list: &mut MoveList, mut keep: impl FnMut(Move) -> bool) {
    let keep = &mut keep;
    let b = pos.board();
    let us = pos.turn();
    let them = !us;
    let ours = b.by_color(us);
    let theirs = b.by_color(them);
    let occ = b.occupied();
    let ksq = b.king_of(us).expect("a king");
    let checkers = pos.checkers();

    // King moves: the king must not step onto an attacked square, judged
    // with the king off the board (it must not hide behind itself).
    let occ_no_king = occ ^ ksq;
    for to in king_attacks(ksq) & !ours {
        let m = Move::normal(ksq, to);
        if keep(m) && !attacked(pos, to, them, occ_no_king) {
            list.push(m);
        }
    }
    if checkers.more_than_one() {
        return;
    }

    let target = match checkers.first() {
        Some(c) => between(ksq, c) | c,
        None => Bitboard::FULL,
    };
    let pinned = pinned(pos, us, ksq);

    // Knights (a pinned knight never moves).
    for from in b.pieces(us, Role::Knight) & !pinned {
        for to in knight_attacks(from) & !ours & target {
            push_kept(list, keep, Move::normal(from, to));
        }
    }
    // Sliders.
    for from in b.bishop_likes() & ours {
        let mut t = bishop_attacks(from, occ) & !ours & target;
        if pinned.contains(from) {
            t &= line(ksq, from);
        }
        for to in t {
            push_kept(list, keep, Move::normal(from, to));
        }
    }
    for from in b.rook_likes() & ours {
        let mut t = rook_attacks(from, occ) & !ours & target;
        if pinned.contains(from) {
            t &= line(ksq, from);
        }
        for to in t {
            push_kept(list, keep, Move::normal(from, to));
        }
    }

    // Pawns.
    let pawns = b.pieces(us, Role::Pawn);
    let empty = !occ;
    let (up, third, promo_rank): (i8, Bitboard, Rank) = match us {
        Color::White => (8, Bitboard(0xff << 16), Rank::new(7).expect("rank")),
        Color::Black => (-8, Bitboard(0xff << 40), Rank::new(0).expect("rank")),
    };
    let shift = |bb: Bitboard| match us {
        Color::White => bb.north(),
        Color::Black => bb.south(),
    };
    let single = shift(pawns) & empty;
    let double = shift(single & third) & empty & target;
    for to in single & target {
        let from = Square::from_index((to as i32 - up as i32) as u32);
        if pinned.contains(from) && !line(ksq, from).contains(to) {
            continue;
        }
        push_pawn_moves(list, keep, from, to, promo_rank);
    }
    for to in double {
        let from = Square::from_index((to as i32 - 2 * up as i32) as u32);
        if pinned.contains(from) && !line(ksq, from).contains(to) {
            continue;
        }
        push_kept(list, keep, Move::double_step(from, to));
    }
    for from in pawns {
        let mut t = pawn_attacks(us, from) & theirs & target;
        if pinned.contains(from) {
            t &= line(ksq, from);
        }
        for to in t {
            push_pawn_moves(list, keep, from, to, promo_rank);
        }
    }
    if let Some(ep) = pos.ep_square() {
        // The en-passant square is set only when a capture is legal; which
        // pawns may take is checked by making the capture.
        for from in pawn_attacks(them, ep) & pawns {
            let m = Move::en_passant(from, ep);
            if keep(m) && ep_capture_legal(pos, from, ep) {
                list.push(m);
            }
        }
    }

    // Castling (C1): not out of, through or into check.
    if checkers.is_empty() {
        for king_side in [true, false] {
            if !pos.castling().has(us, king_side) {
                continue;
            }
            let (rook_sq, king_to, _) = castle_squares(us, king_side);
            let m = Move::castle(ksq, king_to);
            if !keep(m) {
                continue;
            }
            let path = between(ksq, rook_sq);
            if (path & occ).any() {
                continue;
            }
            let king_path = between(ksq, king_to) | king_to;
            if king_path.any_map(|sq| attacked(pos, sq, them, occ)) {
                continue;
            }
            list.push(m);
        }
    }
}

trait AnyMap {
    fn any_map(self, f: impl FnMut(Square) -> bool) -> bool;
}

impl AnyMap for Bitboard {
    #[inline]
    fn any_map(self, mut f: impl FnMut(Square) -> bool) -> bool {
        for sq in self {
            if f(sq) {
                return true;
            }
        }
        false
    }
}

/// The rook's square, the king's destination and the rook's destination.
#[inline]
pub(crate) fn castle_squares(us: Color, king_side: bool) -> (Square, Square, Square) {
    match (us, king_side) {
        (Color::White, true) => (Square::H1, Square::G1, Square::F1),
        (Color::White, false) => (Square::A1, Square::C1, Square::D1),
        (Color::Black, true) => (Square::H8, Square::G8, Square::F8),
        (Color::Black, false) => (Square::A8, Square::C8, Square::D8),
    }
}

/// Whether the pawn on `from` may legally capture en passant on `ep`: the
/// capture is made on the occupancy and the king tested against sliders,
/// and against the checker if the double-stepped pawn is not it.
fn ep_capture_legal(pos: &Position, from: Square, ep: Square) -> bool {
    let b = pos.board();
    let us = pos.turn();
    let ksq = match b.king_of(us) {
        Some(k) => k,
        None => return false,
    };
    let captured = Square::from_index(match us {
        Color::White => ep as u32 - 8,
        Color::Black => ep as u32 + 8,
    });
    let occ = (b.occupied() ^ from ^ captured) | ep;
    let attackers = pos.attackers_to(ksq, !us, occ) & !Bitboard::from_square(captured);
    attackers.is_empty()
}

/// Whether the side to move has a legal en-passant capture on `ep`.
pub(crate) fn ep_capture_possible(pos: &Position, ep: Square) -> bool {
    let us = pos.turn();
    (pawn_attacks(!us, ep) & pos.board().pieces(us, Role::Pawn))
        .any_map(|from| ep_capture_legal(pos, from, ep))
}

/// What a piece move changes squares on: a bare [`Board`] (legality tests
/// try moves on a copy) or a [`Position`] (its hash kept).
pub(crate) trait Squares {
    fn take(&mut self, sq: Square) -> Option<Piece>;
    fn put(&mut self, sq: Square, piece: Piece);
}

impl Squares for Board {
    #[inline(always)]
    fn take(&mut self, sq: Square) -> Option<Piece> {
        Board::take(self, sq)
    }

    #[inline(always)]
    fn put(&mut self, sq: Square, piece: Piece) {
        Board::put(self, sq, piece)
    }
}

impl Squares for Position {
    #[inline(always)]
    fn take(&mut self, sq: Square) -> Option<Piece> {
        self.take_piece(sq)
    }

    #[inline(always)]
    fn put(&mut self, sq: Square, piece: Piece) {
        self.put_piece(sq, piece)
    }
}

/// The one piece mover of every game: moves the piece of the move `m`
/// from its origin to its final square (a bounce's too: the path leaves
/// no trace), promoted if it promotes, capturing there or en passant;
/// castling (C1) moves the rook too. Returns the piece that moved (as it
/// was before promoting) and the piece captured, if any.
#[inline(always)]
pub(crate) fn move_piece<S: Squares>(squares: &mut S, m: Move) -> (Piece, Option<Piece>) {
    let from = m.from().expect("a piece move has an origin");
    let to = m.to().expect("a piece move has a destination");
    let piece = squares.take(from).expect("a piece on the origin");
    let mut captured = None;
    match m.kind() {
        MoveKind::Castle => {
            let king_side = to.file() > from.file();
            let (rook_from, king_to, rook_to) = castle_squares(piece.color, king_side);
            let rook = squares.take(rook_from).expect("castling rook");
            squares.put(king_to, piece);
            squares.put(rook_to, rook);
        }
        MoveKind::EnPassant => {
            let sq = to
                .offset(0, piece.color.fold(-1, 1))
                .expect("the captured pawn is on the board");
            captured = squares.take(sq);
            squares.put(to, piece);
        }
        _ => {
            // T6: a promoted piece may come back to the (vacated) origin.
            captured = squares.take(to);
            let placed = match m.promotion_role() {
                Some(role) => Piece::new(piece.color, role),
                None => piece,
            };
            squares.put(to, placed);
        }
    }
    (piece, captured)
}

/// Plays the piece part of a move of a FIDE-like game on `pos`: the piece
/// moves ([`move_piece`]), the castling rights and the halfmove clock
/// (C4) follow, the en-passant square is cleared. Returns the skipped
/// square of a double step (the game decides its en-passant right once
/// the turn is over, C2). Does not switch the turn.
#[inline]
pub(crate) fn play_piece(pos: &mut Position, m: Move) -> Option<Square> {
    let from = m.from().expect("a piece move has an origin");
    let to = m.to().expect("a piece move has a destination");
    pos.set_ep(None);
    let (piece, captured) = move_piece(pos, m);
    let mut castling = pos.castling();
    castling.touch(from);
    castling.touch(to);
    pos.set_castling(castling);
    let reset_clock = piece.role == Role::Pawn || captured.is_some();
    pos.count_turn(reset_clock);
    (m.kind() == MoveKind::DoubleStep).then(|| Square::from_index((from as u32 + to as u32) / 2))
}

/// Plays a legal chess move.
pub(crate) fn play(pos: &mut Position, m: Move) {
    let double_step = play_piece(pos, m);
    pos.switch_turn();
    pos.update_checkers_fide();
    if let Some(ep) = double_step {
        if ep_capture_possible(pos, ep) {
            pos.set_ep(Some(ep));
        }
    }
}

// ---- Checks of a setup (C1, C2) shared by the FIDE-like games ----

/// Checks that hold for FIDE-like games: kings, pawns, piece counts and
/// the side not to move not in check.
pub(crate) fn validate_fide(pos: &Position) -> Result<(), FenError> {
    validate_men(pos)?;
    let them = !pos.turn();
    let their_king = pos.board().king_of(them).expect("one king");
    if pos
        .attackers_to(their_king, pos.turn(), pos.board().occupied())
        .any()
    {
        return Err(FenError::OppositeCheck(them.name()));
    }
    Ok(())
}

/// One king a side, at most 16 men a side, no more pawns or promoted men
/// than FIDE chess's army allows ([`material::check_army`]), no pawn on a
/// back rank.
pub(crate) fn validate_men(pos: &Position) -> Result<(), FenError> {
    let b = pos.board();
    for c in Color::ALL {
        let kings = b.count(c, Role::King);
        if kings != 1 {
            return Err(FenError::KingCount(c.name(), kings));
        }
        let n = b.by_color(c).count();
        if n > 16 {
            return Err(FenError::TooManyPieces(c.name(), n));
        }
    }
    material::check_army(pos, &material::FIDE_ARMY)?;
    validate_pawn_ranks(pos)
}

/// No pawn on a back rank.
pub(crate) fn validate_pawn_ranks(pos: &Position) -> Result<(), FenError> {
    let back =
        Bitboard::rank(Rank::new(0).expect("rank")) | Bitboard::rank(Rank::new(7).expect("rank"));
    if let Some(sq) = (pos.board().by_role(Role::Pawn) & back).first() {
        return Err(FenError::PawnOnBackRank(sq.to_string()));
    }
    Ok(())
}

/// The en-passant square must be the skipped square of a double step
/// just made by the side not to move.
pub(crate) fn validate_ep_claim(pos: &Position, ep: Square) -> Result<(), FenError> {
    let bad = || FenError::ImpossibleEnPassant(ep.to_string());
    let (rank, dir) = match pos.turn() {
        Color::White => (5, -1),
        Color::Black => (2, 1),
    };
    if ep.rank().index() != rank {
        return Err(bad());
    }
    let pawn_sq = ep.offset(0, dir).ok_or_else(bad)?;
    let origin = ep.offset(0, -dir).ok_or_else(bad)?;
    let b = pos.board();
    if b.piece_at(pawn_sq) != Some(Piece::new(!pos.turn(), Role::Pawn))
        || b.piece_at(ep).is_some()
        || b.piece_at(origin).is_some()
    {
        return Err(bad());
    }
    Ok(())
}

/// Ruling C2: K v K, K+minor v K, K+B v K+B with bishops on one colour (a
/// Hoplit anywhere, in reserve too, is mating material).
pub(crate) fn insufficient_material(pos: &Position) -> bool {
    let b = pos.board();
    if Color::ALL.iter().any(|&c| pos.reserve(c, Role::Hoplit) > 0) {
        return false;
    }
    let heavy = b.by_role(Role::Pawn)
        | b.by_role(Role::Rook)
        | b.by_role(Role::Queen)
        | b.by_role(Role::Hoplit);
    if heavy.any() {
        return false;
    }
    let minors = b.by_role(Role::Knight) | b.by_role(Role::Bishop);
    match minors.count() {
        0 | 1 => true,
        2 => {
            let bishops = b.by_role(Role::Bishop);
            let (w, bl) = (
                (bishops & b.by_color(Color::White)).single(),
                (bishops & b.by_color(Color::Black)).single(),
            );
            match (w, bl) {
                (Some(w), Some(bl)) if bishops.count() == 2 => w.is_light() == bl.is_light(),
                _ => false,
            }
        }
        _ => false,
    }
}

/// Ruling C2 for one side, the other reduced to its king: whether `side`
/// has mating material (a pawn, rook, queen or Hoplit on the board, a
/// Hoplit in reserve, or two minor pieces or more).
pub(crate) fn has_mating_material(pos: &Position, side: Color) -> bool {
    let b = pos.board();
    if pos.reserve(side, Role::Hoplit) > 0 {
        return true;
    }
    let heavy = [Role::Pawn, Role::Rook, Role::Queen, Role::Hoplit]
        .iter()
        .any(|&r| b.pieces(side, r).any());
    heavy || (b.pieces(side, Role::Knight) | b.pieces(side, Role::Bishop)).count() >= 2
}

#[cfg(test)]
mod tests {
    use crate::{Position, Variant};

    #[test]
    fn start_position_has_twenty_moves() {
        let pos = Position::startpos(Variant::Chess);
        assert_eq!(pos.legal_moves().len(), 20);
    }
}
