//! The position: everything that decides the legal moves and the game's
//! future, for every game. Each game's rules live in `crate::games`; this
//! module holds the shared state, its invariants and the dispatch.

pub(crate) mod fen;
mod trampoline_fen;

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::games;
use crate::moves::{Move, MoveList};
use crate::types::{Color, Piece, Role, Square};
use crate::variant::Variant;
use crate::zobrist;

/// Castling rights, one bit each: White king side, White queen side, Black
/// king side, Black queen side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Castling(u8);

impl Castling {
    pub const NONE: Castling = Castling(0);
    pub const ALL: Castling = Castling(15);

    const fn bit(color: Color, king_side: bool) -> u8 {
        1 << (color as u8 * 2 + if king_side { 0 } else { 1 })
    }

    #[inline]
    pub const fn has(self, color: Color, king_side: bool) -> bool {
        self.0 & Castling::bit(color, king_side) != 0
    }

    pub fn set(&mut self, color: Color, king_side: bool) {
        self.0 |= Castling::bit(color, king_side);
    }

    #[inline]
    pub const fn bits(self) -> u8 {
        self.0
    }

    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The rights that remain after a move touches `sq` (from or to).
    #[inline]
    pub(crate) fn touch(&mut self, sq: Square) {
        self.0 &= match sq {
            Square::E1 => !3,
            Square::H1 => !1,
            Square::A1 => !2,
            Square::E8 => !12,
            Square::H8 => !4,
            Square::A8 => !8,
            _ => !0,
        };
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Win { winner: Color, reason: WinReason },
    Draw(DrawReason),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WinReason {
    Checkmate,
    /// Jumping King: a piece entered the loser's weak square (ruling J3).
    WeakSquare,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrawReason {
    Stalemate,
    Repetition,
    FiftyMoves,
    InsufficientMaterial,
}

impl Outcome {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn result_str(self) -> &'static str {
        match self {
            Outcome::Win {
                winner: Color::White,
                ..
            } => "1-0",
            Outcome::Win {
                winner: Color::Black,
                ..
            } => "0-1",
            Outcome::Draw(_) => "1/2-1/2",
        }
    }

    /// Words for people: "checkmate", "stalemate", ...
    pub fn reason_str(self) -> &'static str {
        match self {
            Outcome::Win {
                reason: WinReason::Checkmate,
                ..
            } => "checkmate",
            Outcome::Win {
                reason: WinReason::WeakSquare,
                ..
            } => "weak square entered",
            Outcome::Draw(DrawReason::Stalemate) => "stalemate",
            Outcome::Draw(DrawReason::Repetition) => "threefold repetition",
            Outcome::Draw(DrawReason::FiftyMoves) => "50-move rule",
            Outcome::Draw(DrawReason::InsufficientMaterial) => "insufficient material",
        }
    }
}

/// A position of one of the games.
///
/// Build one with [`Position::startpos`] or [`Position::from_fen`]; change it
/// only through [`Position::play`] with a legal move. Positions are cheap to
/// copy (copy-make is the undo of search and perft).
#[derive(Clone, Debug)]
pub struct Position {
    pub(crate) board: Board,
    pub(crate) variant: Variant,
    pub(crate) turn: Color,
    pub(crate) castling: Castling,
    /// Set only when an en-passant capture is legal (ruling C2).
    pub(crate) ep_square: Option<Square>,
    pub(crate) halfmove: u32,
    pub(crate) fullmove: u32,
    /// Each side's trampoline, if on the board (Hop Chess, Trampoline Chess).
    pub(crate) trampolines: [Option<Square>; 2],
    /// Men in reserve by colour and kind (Hoplit Chess's Hoplit, Jumping
    /// King's unplaced men).
    pub(crate) reserves: [[u8; 7]; 2],
    /// Game-specific phase bits; each game documents its own.
    pub(crate) phase: u8,
    pub(crate) hash: u64,
    pub(crate) checkers: Bitboard,
}

impl Position {
    /// The start position of `variant`.
    pub fn startpos(variant: Variant) -> Position {
        Position::from_fen(variant, variant.start_fen()).expect("start positions are valid")
    }

    #[inline]
    pub fn variant(&self) -> Variant {
        self.variant
    }

    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    #[inline]
    pub fn castling(&self) -> Castling {
        self.castling
    }

    /// The en-passant target square, only when a capture there is legal.
    #[inline]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }

    /// Plies since the last capture or pawn move (ruling C4).
    #[inline]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    #[inline]
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// The trampoline of `owner`, if on the board.
    #[inline]
    pub fn trampoline(&self, owner: Color) -> Option<Square> {
        self.trampolines[owner.index()]
    }

    /// How many men of a kind `color` holds in reserve.
    #[inline]
    pub fn reserve(&self, color: Color, role: Role) -> u8 {
        self.reserves[color.index()][role.index()]
    }

    /// The Zobrist key, kept incrementally.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    #[inline]
    pub fn is_check(&self) -> bool {
        self.checkers.any()
    }

    /// The king of the side to move.
    #[inline]
    pub fn our_king(&self) -> Option<Square> {
        self.board.king_of(self.turn)
    }

    /// Appends every legal move to `list`.
    pub fn legal_moves_into(&self, list: &mut MoveList) {
        match self.variant {
            Variant::Chess => games::chess::legal_moves(self, list),
            Variant::HopChess => games::hopchess::legal_moves(self, list),
            Variant::Trampoline => games::trampoline::legal_moves(self, list),
            Variant::JumpingKing => games::jumpingking::legal_moves(self, list),
            Variant::Hoplit => games::hoplit::legal_moves(self, list),
        }
    }

    /// The number of legal moves, without listing them when the game can
    /// count faster (perft's last ply).
    pub fn count_legal_moves(&self) -> u64 {
        match self.variant {
            Variant::HopChess => games::hopchess::count_moves(self),
            Variant::Trampoline => games::trampoline::count_moves(self),
            _ => self.legal_moves().len() as u64,
        }
    }

    /// Appends the legal half-steps: a search may split a turn into steps.
    /// In Hop Chess a turn is two steps, the piece move (`place` unset; legal
    /// when some placement leaves the king safe) and then, in the
    /// placement phase, the placement (`Move::trampoline(sq)`); White's first
    /// turn is one step. In every other game the steps are the moves.
    pub fn legal_steps_into(&self, list: &mut MoveList) {
        match self.variant {
            Variant::HopChess => games::hopchess::legal_steps(self, list),
            _ => self.legal_moves_into(list),
        }
    }

    /// Plays a legal half-step (see [`Position::legal_steps_into`]).
    pub fn play_step(&mut self, m: Move) {
        match self.variant {
            Variant::HopChess => games::hopchess::play_step(self, m),
            _ => self.play(m),
        }
    }

    /// Hop Chess: whether the piece step of the turn is made and the side to
    /// move must now place its trampoline.
    pub fn placement_pending(&self) -> bool {
        self.variant == Variant::HopChess && self.phase & games::hopchess::PLACE != 0
    }

    /// Hop Chess: whether this is White's first turn (a piece move only, H3).
    pub fn is_first_turn(&self) -> bool {
        self.variant == Variant::HopChess && self.phase & games::hopchess::FIRST != 0
    }

    /// Every legal move.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::with_capacity(64);
        self.legal_moves_into(&mut list);
        list
    }

    /// Whether `m` is among the legal moves.
    pub fn is_legal(&self, m: Move) -> bool {
        self.legal_moves().contains(&m)
    }

    /// Plays a legal move. The move must come from [`Position::legal_moves`]
    /// (or be equal to one, ruling P9); anything else breaks the position.
    /// Use [`Position::play_checked`] for moves from outside.
    pub fn play(&mut self, m: Move) {
        match self.variant {
            Variant::Chess => games::chess::play(self, m),
            Variant::HopChess => games::hopchess::play(self, m),
            Variant::Trampoline => games::trampoline::play(self, m),
            Variant::JumpingKing => games::jumpingking::play(self, m),
            Variant::Hoplit => games::hoplit::play(self, m),
        }
    }

    /// Passes the turn without moving: the "null move" of search (null-move
    /// pruning). Only for a side that is not in check; the other side then
    /// cannot be in check either, so the checkers are empty. The en-passant
    /// right lapses and the 50-move clock runs as after a quiet move. Not a
    /// move of any game: it never appears in a legal move list.
    pub fn play_null(&mut self) {
        debug_assert!(!self.is_check(), "no null move out of check");
        self.set_ep(None);
        self.halfmove += 1;
        self.switch_turn();
        self.checkers = Bitboard::EMPTY;
    }

    /// Whether `sq` is attacked by a piece of `by` (ruling P8 for games
    /// with trampolines: bounces included, pins ignored).
    pub fn is_attacked(&self, sq: Square, by: Color) -> bool {
        match self.variant {
            Variant::Chess => self.attackers_to(sq, by, self.board.occupied()).any(),
            Variant::HopChess => games::hopchess::is_attacked(self, sq, by),
            Variant::Trampoline => games::trampoline::is_attacked(self, sq, by),
            Variant::JumpingKing => {
                games::jumpingking::attackers_to(self, sq, by, self.board.occupied()).any()
            }
            Variant::Hoplit => games::hoplit::is_attacked(self, sq, by),
        }
    }

    /// Plays `m` if it is legal, else leaves the position as it was.
    pub fn play_checked(&mut self, m: Move) -> Result<(), crate::error::MoveError> {
        match self.legal_moves().into_iter().find(|&l| l == m) {
            Some(legal) => {
                self.play(legal);
                Ok(())
            }
            None => Err(crate::error::MoveError::Illegal(
                crate::notation::uci::to_uci(self, m),
            )),
        }
    }

    /// The pieces of `by` that attack `sq` with FIDE movement on the full
    /// board, given the occupancy `occ`.
    #[inline]
    pub fn attackers_to(&self, sq: Square, by: Color, occ: Bitboard) -> Bitboard {
        let b = &self.board;
        let them = b.by_color(by);
        them & ((attacks::rook_attacks(sq, occ) & b.rook_likes())
            | (attacks::bishop_attacks(sq, occ) & b.bishop_likes())
            | (attacks::knight_attacks(sq) & b.by_role(Role::Knight))
            | (attacks::king_attacks(sq) & b.by_role(Role::King))
            | (attacks::pawn_attacks(!by, sq) & b.by_role(Role::Pawn)))
    }

    /// The game's end that the position alone shows (a weak square taken
    /// (J3), checkmate, stalemate, the 50-move rule, insufficient material), or `None`. Repetition needs
    /// the history: see [`crate::Game`].
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(o) = games::jumpingking::weak_square_outcome(self) {
            return Some(o);
        }
        if self.legal_moves().is_empty() {
            return Some(if self.is_check() {
                Outcome::Win {
                    winner: !self.turn,
                    reason: WinReason::Checkmate,
                }
            } else {
                Outcome::Draw(DrawReason::Stalemate)
            });
        }
        if self.halfmove >= 100 {
            return Some(Outcome::Draw(DrawReason::FiftyMoves));
        }
        if self.is_insufficient_material() {
            return Some(Outcome::Draw(DrawReason::InsufficientMaterial));
        }
        None
    }

    /// Ruling C2: K v K, K+minor v K, K+B v K+B with bishops on one colour.
    /// Only in `chess` and `hoplit` (a Hoplit anywhere is mating material).
    pub fn is_insufficient_material(&self) -> bool {
        if !matches!(self.variant, Variant::Chess | Variant::Hoplit) {
            return false;
        }
        let b = &self.board;
        if self.reserves.iter().any(|r| r[Role::Hoplit.index()] > 0) {
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

    /// The Zobrist key computed from scratch (tests compare it with
    /// [`Position::hash`]).
    pub fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for (sq, p) in self.board.iter() {
            h ^= zobrist::piece(p.color, p.role, sq);
        }
        if self.turn == Color::Black {
            h ^= zobrist::SIDE;
        }
        h ^= zobrist::CASTLING[self.castling.bits() as usize];
        if let Some(ep) = self.ep_square {
            h ^= zobrist::EP_FILE[ep.file().index() as usize];
        }
        for c in Color::ALL {
            if let Some(t) = self.trampolines[c.index()] {
                h ^= zobrist::TRAMPOLINE[c.index() * 64 + t.index()];
            }
            for r in Role::ALL {
                let n = self.reserves[c.index()][r.index()] as usize;
                if n > 0 {
                    h ^= zobrist::RESERVE[(c.index() * 7 + r.index()) * 16 + n.min(15)];
                }
            }
        }
        for bit in 0..8 {
            if self.phase & (1 << bit) != 0 {
                h ^= zobrist::PHASE[bit];
            }
        }
        h
    }

    /// Equality of everything that counts for repetition (ruling C2): the
    /// placement, trampolines, side to move, castling and (legal) en-passant
    /// rights, reserves and phase. Clocks do not count.
    pub fn same_for_repetition(&self, other: &Position) -> bool {
        self.hash == other.hash
            && self.board == other.board
            && self.turn == other.turn
            && self.castling == other.castling
            && self.ep_square == other.ep_square
            && self.trampolines == other.trampolines
            && self.reserves == other.reserves
            && self.phase == other.phase
    }

    // ---- Incremental updates used by the games' `play` ----

    #[inline]
    pub(crate) fn put_piece(&mut self, sq: Square, piece: Piece) {
        self.board.put(sq, piece);
        self.hash ^= zobrist::piece(piece.color, piece.role, sq);
    }

    #[inline]
    pub(crate) fn take_piece(&mut self, sq: Square) -> Option<Piece> {
        let p = self.board.take(sq)?;
        self.hash ^= zobrist::piece(p.color, p.role, sq);
        Some(p)
    }

    #[inline]
    pub(crate) fn set_castling(&mut self, castling: Castling) {
        self.hash ^= zobrist::CASTLING[self.castling.bits() as usize]
            ^ zobrist::CASTLING[castling.bits() as usize];
        self.castling = castling;
    }

    #[inline]
    pub(crate) fn set_ep(&mut self, ep: Option<Square>) {
        if let Some(old) = self.ep_square {
            self.hash ^= zobrist::EP_FILE[old.file().index() as usize];
        }
        if let Some(new) = ep {
            self.hash ^= zobrist::EP_FILE[new.file().index() as usize];
        }
        self.ep_square = ep;
    }

    #[inline]
    pub(crate) fn switch_turn(&mut self) {
        if self.turn == Color::Black {
            self.fullmove += 1;
        }
        self.turn = !self.turn;
        self.hash ^= zobrist::SIDE;
    }

    /// Puts `owner`'s trampoline on `sq` (or off the board), hashed.
    #[inline]
    pub(crate) fn set_trampoline(&mut self, owner: Color, sq: Option<Square>) {
        let i = owner.index();
        if let Some(old) = self.trampolines[i] {
            self.hash ^= zobrist::TRAMPOLINE[i * 64 + old.index()];
        }
        if let Some(new) = sq {
            self.hash ^= zobrist::TRAMPOLINE[i * 64 + new.index()];
        }
        self.trampolines[i] = sq;
    }

    /// Flips the phase bits `bits`, hashed.
    #[inline]
    pub(crate) fn toggle_phase(&mut self, bits: u8) {
        for bit in 0..8 {
            if bits & (1 << bit) != 0 {
                self.hash ^= zobrist::PHASE[bit];
            }
        }
        self.phase ^= bits;
    }

    /// Recomputes the checkers of the side to move with FIDE attacks.
    #[inline]
    pub(crate) fn update_checkers_fide(&mut self) {
        self.checkers = match self.board.king_of(self.turn) {
            Some(k) => self.attackers_to(k, !self.turn, self.board.occupied()),
            None => Bitboard::EMPTY,
        };
    }
}

impl PartialEq for Position {
    /// Positions are equal when everything is, clocks included.
    fn eq(&self, other: &Position) -> bool {
        self.same_for_repetition(other)
            && self.variant == other.variant
            && self.halfmove == other.halfmove
            && self.fullmove == other.fullmove
    }
}

impl Eq for Position {}
