//! The position: everything that decides the legal moves and the game's
//! future, for every game. This module holds the shared state, its
//! accessors and the incremental updates the games' `play` use; it knows
//! no game's rules (those live in `crate::games`, which adds the
//! game-dependent methods: legal moves, playing, attacks, the outcome).

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::board::Board;
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

/// The largest halfmove clock and fullmove number: the most a position
/// text holds (six digits). Play stops both counters there (ruling C4), so
/// every position reached can be written and read again.
pub(crate) const MAX_COUNTER: u32 = 999_999;

/// An unchecked position: what a position text (or a caller) says, before
/// the game's rules have checked it. The games turn one into a
/// [`Position`] (`GameRules::from_setup`).
#[derive(Clone, Debug)]
pub(crate) struct Setup {
    pub board: Board,
    pub turn: Color,
    pub castling: Castling,
    /// The en-passant square as written, not yet checked.
    pub ep_claim: Option<Square>,
    pub halfmove: u32,
    pub fullmove: u32,
    pub trampolines: [Option<Square>; 2],
    pub reserves: [[u8; 7]; 2],
    pub phase: u8,
}

impl Setup {
    /// A setup with `board` and White to move, nothing else set.
    pub(crate) fn new(board: Board) -> Setup {
        Setup {
            board,
            turn: Color::White,
            castling: Castling::NONE,
            ep_claim: None,
            halfmove: 0,
            fullmove: 1,
            trampolines: [None; 2],
            reserves: [[0; 7]; 2],
            phase: 0,
        }
    }

    /// The position as set up, unchecked: no checkers, no en-passant
    /// right and no hash yet; and the claimed en-passant square.
    pub(crate) fn into_position(self, variant: Variant) -> (Position, Option<Square>) {
        let pos = Position {
            board: self.board,
            variant,
            turn: self.turn,
            castling: self.castling,
            ep_square: None,
            halfmove: self.halfmove,
            fullmove: self.fullmove,
            trampolines: self.trampolines,
            reserves: self.reserves,
            phase: self.phase,
            hash: 0,
            checkers: Bitboard::EMPTY,
        };
        (pos, self.ep_claim)
    }
}

impl Position {
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

    /// Counts a turn on the 50-move clock (ruling C4): back to 0 when it
    /// `resets` it (a capture or a pawn move), else one more, at most
    /// [`MAX_COUNTER`].
    #[inline]
    pub(crate) fn count_turn(&mut self, resets: bool) {
        if resets {
            self.halfmove = 0;
        } else if self.halfmove < MAX_COUNTER {
            self.halfmove += 1;
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
        self.count_turn(false);
        self.switch_turn();
        self.checkers = Bitboard::EMPTY;
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
        if self.turn == Color::Black && self.fullmove < MAX_COUNTER {
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

    /// Sets how many men of a kind `color` holds in reserve, hashed.
    #[inline]
    pub(crate) fn set_reserve(&mut self, color: Color, role: Role, n: u8) {
        let base = (color.index() * 7 + role.index()) * 16;
        let old = self.reserves[color.index()][role.index()] as usize;
        if old > 0 {
            self.hash ^= zobrist::RESERVE[base + old.min(15)];
        }
        if n > 0 {
            self.hash ^= zobrist::RESERVE[base + (n as usize).min(15)];
        }
        self.reserves[color.index()][role.index()] = n;
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
