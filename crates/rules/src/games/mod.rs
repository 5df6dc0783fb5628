//! The rules of each game, one zero-sized type per game implementing
//! [`GameRules`], and the one dispatch point, [`with_game!`], that turns a
//! [`Variant`] into its game type.
//!
//! This layer sits on the position state (`crate::position`) and the
//! primitives; it never imports the notation layer. The game-dependent
//! part of [`Position`]'s API (legal moves, playing, attacks, the outcome)
//! is here, each method a single dispatch.

pub(crate) mod bounce;
pub(crate) mod chess;
pub(crate) mod hopchess;
pub(crate) mod hoplit;
pub(crate) mod jumpingking;
pub(crate) mod material;
pub(crate) mod trampoline;

use crate::bitboard::Bitboard;
use crate::error::FenError;
use crate::moves::{Move, MoveList};
use crate::position::{DrawReason, Outcome, Position, Setup, WinReason};
use crate::types::{Color, Role, Square};
use crate::variant::Variant;

/// What the legality tests of one position's candidate steps share
/// ([`Position::candidate_context`]): in the trampoline games the
/// legality tests' node (the mover's king, whether it is in check, and
/// the squares whose vacating may open an enemy path to it). Empty in the
/// games whose candidates are all legal.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CandidateContext {
    pub(crate) node: Option<bounce::Node>,
}

/// Appends `m` to `list` if `keep` accepts it: the push of the
/// generators that ask a search's filter first
/// ([`GameRules::legal_steps_filtered`]).
#[inline(always)]
pub(crate) fn push_kept(list: &mut MoveList, keep: &mut impl FnMut(Move) -> bool, m: Move) {
    if keep(m) {
        list.push(m);
    }
}

/// The rules of one game. Implemented by one zero-sized type per game
/// ([`chess::Chess`], [`hopchess::HopChess`], [`trampoline::Trampoline`],
/// [`jumpingking::JumpingKing`], [`hoplit::Hoplit`]); calls are static,
/// through [`with_game!`].
pub(crate) trait GameRules {
    /// The game these rules belong to.
    const VARIANT: Variant;

    /// The kinds of piece that can stand on the board, in [`Role::ALL`] order.
    const ROLES: &'static [Role];

    /// The kinds of man a side may hold in reserve, in position-text order.
    const RESERVE_ROLES: &'static [Role] = &[];

    /// How many men of each kind (by [`Role::index`]) a side holds in
    /// reserve at the start; a reserve never grows (captured men never go
    /// there), so this is also its most. None in the games without one.
    const RESERVE_START: [u8; 7] = [0; 7];

    /// The phase bits the game uses (`Position::phase`); none by default.
    const PHASE_BITS: u8 = 0;

    /// The bounce rules, for the games with trampolines.
    const BOUNCE: Option<bounce::Rules> = None;

    /// Appends every legal move of `pos` to `list`.
    fn legal_moves(pos: &Position, list: &mut MoveList);

    /// The number of legal moves (perft's last ply); a game may count
    /// faster than it lists. `scratch` is a list the count may use (what
    /// it holds is lost), so that perft allocates none per position.
    #[inline]
    fn count_moves(pos: &Position, scratch: &mut MoveList) -> u64 {
        scratch.clear();
        Self::legal_moves(pos, scratch);
        scratch.len() as u64
    }

    /// Appends the legal half-steps (see [`Position::legal_steps_into`]);
    /// the moves themselves in every game whose turn is one step.
    #[inline]
    fn legal_steps(pos: &Position, list: &mut MoveList) {
        Self::legal_moves(pos, list)
    }

    /// Appends the legal half-steps that `keep` accepts, in the order of
    /// [`GameRules::legal_steps`]: the same list as `legal_steps` followed
    /// by a `retain(keep)`. A game may test `keep` first and the legality
    /// of the kept steps only.
    #[inline]
    fn legal_steps_filtered(pos: &Position, list: &mut MoveList, keep: impl FnMut(Move) -> bool) {
        let start = list.len();
        let mut keep = keep;
        Self::legal_steps(pos, list);
        let mut index = 0;
        list.retain(|&m| {
            index += 1;
            index <= start || keep(m)
        });
    }

    /// Appends the legal half-steps that capture or promote to a queen
    /// ([`Position::is_noisy`]): [`GameRules::legal_steps_filtered`] with
    /// that filter. A game may leave the others out before it finds them.
    #[inline]
    fn legal_noisy_steps(pos: &Position, list: &mut MoveList) {
        Self::legal_steps_filtered(pos, list, |m| pos.is_noisy(m))
    }

    /// Appends the candidate half-steps: every legal half-step, in the
    /// order of [`GameRules::legal_steps`], with perhaps some illegal ones
    /// among them that [`GameRules::candidate_is_legal`] tells apart. A game
    /// whose legality test is dear may leave it to the caller; by default
    /// the candidates are the legal steps.
    #[inline]
    fn step_candidates(pos: &Position, list: &mut MoveList) {
        Self::legal_steps(pos, list)
    }

    /// What the legality tests of `pos`'s candidates share.
    #[inline]
    fn candidate_context(_pos: &Position) -> CandidateContext {
        CandidateContext::default()
    }

    /// Whether the candidate `m` (a half-step of
    /// [`GameRules::step_candidates`]) is legal; `ctx` is `pos`'s
    /// [`GameRules::candidate_context`].
    #[inline]
    fn candidate_is_legal(_pos: &Position, _ctx: &CandidateContext, _m: Move) -> bool {
        true
    }

    /// Whether [`GameRules::step_candidates`] may hold illegal steps in
    /// `pos` (false: every candidate is legal).
    #[inline]
    fn defers_legality(_pos: &Position) -> bool {
        false
    }

    /// Whether the side to move has a legal half-step (a legal move, in the
    /// games whose turn is one step).
    #[inline]
    fn has_legal_step(pos: &Position) -> bool {
        let mut list = MoveList::with_capacity(64);
        Self::legal_steps(pos, &mut list);
        !list.is_empty()
    }

    /// Plays a legal move.
    fn play(pos: &mut Position, m: Move);

    /// Plays a legal half-step.
    #[inline]
    fn play_step(pos: &mut Position, m: Move) {
        Self::play(pos, m)
    }

    /// Whether `sq` is attacked by `by` (P8 in the trampoline games).
    fn is_attacked(pos: &Position, sq: Square, by: Color) -> bool;

    /// Checks an unchecked setup (read from a position text, say) against
    /// the game's rules and makes it a position: checkers, the legal
    /// en-passant right (C2) and the hash are computed here.
    fn from_setup(setup: Setup) -> Result<Position, FenError>;

    /// A game end the rules of this game add to mate, stalemate and the
    /// draws (Jumping King's weak square, J3), decided first.
    #[inline]
    fn decided(_pos: &Position) -> Option<Outcome> {
        None
    }

    /// Whether neither side can mate (C2), where the game draws for it.
    #[inline]
    fn is_insufficient_material(_pos: &Position) -> bool {
        false
    }

    /// Whether `side` could still mate by the game's material rule (C2,
    /// with the other side reduced to its king); every side can where the
    /// game knows no insufficient material.
    #[inline]
    fn can_mate(_pos: &Position, _side: Color) -> bool {
        true
    }

    /// Whether `color`'s men in reserve may still enter the game.
    #[inline]
    fn reserve_in_play(_pos: &Position, _color: Color) -> bool {
        false
    }
}

/// The one dispatch point: evaluates `$body` with `$G` naming the game
/// type of `$variant`. Every per-game call in the crate goes through here,
/// so a new game is one more arm in this match and nowhere else.
///
/// ```ignore
/// with_game!(pos.variant(), G => G::legal_moves(pos, list))
/// ```
macro_rules! with_game {
    ($variant:expr, $G:ident => $body:expr) => {
        match $variant {
            $crate::variant::Variant::Chess => {
                type $G = $crate::games::chess::Chess;
                $body
            }
            $crate::variant::Variant::HopChess => {
                type $G = $crate::games::hopchess::HopChess;
                $body
            }
            $crate::variant::Variant::Trampoline => {
                type $G = $crate::games::trampoline::Trampoline;
                $body
            }
            $crate::variant::Variant::JumpingKing => {
                type $G = $crate::games::jumpingking::JumpingKing;
                $body
            }
            $crate::variant::Variant::Hoplit => {
                type $G = $crate::games::hoplit::Hoplit;
                $body
            }
        }
    };
}
pub(crate) use with_game;

impl Variant {
    /// The kinds of piece that can stand on the board in this game, in
    /// [`Role::ALL`] order (kings included): no queens in Jumping King (J2),
    /// the Hoplit in Hoplit Chess (L1).
    pub fn roles(self) -> &'static [Role] {
        with_game!(self, G => G::ROLES)
    }

    /// The kinds of man a side may hold in reserve, in the order the
    /// position text lists them: Jumping King's men to place (rooks,
    /// bishops, knights, pawns, J2), Hoplit Chess's Hoplit (L1); none in
    /// the other games. See [`Position::reserve`] for the counts and
    /// [`Position::reserve_in_play`] for whether they may still enter.
    pub fn reserve_roles(self) -> &'static [Role] {
        with_game!(self, G => G::RESERVE_ROLES)
    }

    /// Whether the game has trampolines (Hop Chess, Trampoline Chess).
    #[inline]
    pub fn has_trampolines(self) -> bool {
        self.bounce_rules().is_some()
    }

    /// The bounce rules of a game with trampolines (which trampolines a
    /// piece may use, the queen's line, H4/H6/H7 against T3-T6), `None` in
    /// the games without.
    #[inline]
    pub fn bounce_rules(self) -> Option<bounce::Rules> {
        with_game!(self, G => G::BOUNCE)
    }
}

impl Position {
    /// Appends every legal move to `list`.
    #[inline]
    pub fn legal_moves_into(&self, list: &mut MoveList) {
        with_game!(self.variant, G => G::legal_moves(self, list))
    }

    /// The number of legal moves, without listing them when the game can
    /// count faster (perft's last ply).
    #[inline]
    pub fn count_legal_moves(&self) -> u64 {
        self.count_legal_moves_with(&mut MoveList::with_capacity(64))
    }

    /// [`Position::count_legal_moves`] with a list it may use (what it
    /// holds is lost): perft's last ply allocates nothing.
    #[inline]
    pub fn count_legal_moves_with(&self, scratch: &mut MoveList) -> u64 {
        with_game!(self.variant, G => G::count_moves(self, scratch))
    }

    /// Appends the legal half-steps: a search may split a turn into steps.
    /// In Hop Chess a turn is two steps, the piece move (`place` unset; legal
    /// when some placement leaves the king safe) and then, in the
    /// placement phase, the placement (`Move::trampoline(sq)`); White's first
    /// turn is one step. In every other game the steps are the moves.
    #[inline]
    pub fn legal_steps_into(&self, list: &mut MoveList) {
        with_game!(self.variant, G => G::legal_steps(self, list))
    }

    /// Appends the legal half-steps (see [`Position::legal_steps_into`])
    /// that `keep` accepts, in the same order: the list of
    /// `legal_steps_into` followed by a `retain(keep)`, cheaper where a game
    /// tests `keep` before legality (Hop Chess: a search that wants only
    /// captures does not pay for the legality of every quiet step).
    #[inline]
    pub fn legal_steps_filtered_into(&self, list: &mut MoveList, keep: impl FnMut(Move) -> bool) {
        with_game!(self.variant, G => G::legal_steps_filtered(self, list, keep))
    }

    /// Whether the step `m` captures (en passant, or onto a square of an
    /// enemy piece) or promotes to a queen: the steps of a quiescence
    /// search.
    #[inline]
    pub fn is_noisy(&self, m: Move) -> bool {
        m.kind() == crate::moves::MoveKind::EnPassant
            || m.promotion_role() == Some(Role::Queen)
            || m.to()
                .and_then(|t| self.board().piece_at(t))
                .is_some_and(|p| p.color != self.turn())
    }

    /// Appends the legal half-steps that are noisy ([`Position::is_noisy`]),
    /// in the order of [`Position::legal_steps_into`]: the same list as
    /// `legal_steps_filtered_into(list, |m| pos.is_noisy(m))`, found
    /// without the quiet ones where a game can (the trampoline games).
    #[inline]
    pub fn legal_noisy_steps_into(&self, list: &mut MoveList) {
        with_game!(self.variant, G => G::legal_noisy_steps(self, list))
    }

    /// Appends the candidate half-steps: every legal half-step (see
    /// [`Position::legal_steps_into`]) in the same order, and, where
    /// [`Position::defers_legality`] says so, illegal ones among them,
    /// which [`Position::candidate_is_legal`] tells apart. For a search
    /// that examines few of a node's steps (a cut after the first): in Hop
    /// Chess a piece step is legal only when some placement leaves the
    /// king safe, a test that costs more than making the list, so the
    /// search pays for the steps it reaches only.
    #[inline]
    pub fn step_candidates_into(&self, list: &mut MoveList) {
        with_game!(self.variant, G => G::step_candidates(self, list))
    }

    /// What the legality tests of this position's candidate steps share,
    /// made once for [`Position::candidate_is_legal`].
    #[inline]
    pub fn candidate_context(&self) -> CandidateContext {
        with_game!(self.variant, G => G::candidate_context(self))
    }

    /// Whether `m`, a half-step of [`Position::step_candidates_into`], is
    /// legal; `ctx` is this position's [`Position::candidate_context`] (a
    /// move from elsewhere, or another position's context, gets no
    /// meaningful answer).
    #[inline]
    pub fn candidate_is_legal(&self, ctx: &CandidateContext, m: Move) -> bool {
        with_game!(self.variant, G => G::candidate_is_legal(self, ctx, m))
    }

    /// Whether [`Position::step_candidates_into`] may hold illegal steps
    /// here: false when the candidates are the legal steps.
    #[inline]
    pub fn defers_legality(&self) -> bool {
        with_game!(self.variant, G => G::defers_legality(self))
    }

    /// Whether the side to move has a legal half-step (see
    /// [`Position::legal_steps_into`]): without one, the position is mate
    /// or stalemate.
    #[inline]
    pub fn has_legal_step(&self) -> bool {
        with_game!(self.variant, G => G::has_legal_step(self))
    }

    /// Plays a legal half-step (see [`Position::legal_steps_into`]).
    #[inline]
    pub fn play_step(&mut self, m: Move) {
        with_game!(self.variant, G => G::play_step(self, m))
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
    #[inline]
    pub fn play(&mut self, m: Move) {
        with_game!(self.variant, G => G::play(self, m))
    }

    /// Whether `sq` is attacked by a piece of `by` (ruling P8 for games
    /// with trampolines: bounces included, pins ignored).
    #[inline]
    pub fn is_attacked(&self, sq: Square, by: Color) -> bool {
        with_game!(self.variant, G => G::is_attacked(self, sq, by))
    }

    /// The game's end that the position alone shows (a weak square taken
    /// (J3), checkmate, stalemate, the 50-move rule, insufficient material),
    /// or `None`. Repetition needs the history: see [`crate::Game`].
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(o) = with_game!(self.variant, G => G::decided(self)) {
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
        with_game!(self.variant, G => G::is_insufficient_material(self))
    }

    /// Whether `side` could still mate, by its game's material rule: in
    /// `chess` and `hoplit`, ruling C2 with the other side reduced to its
    /// king (a pawn, rook, queen or Hoplit, a Hoplit in reserve, or two
    /// minor pieces can; a bare king or one minor piece cannot). The other
    /// games know no insufficient material: every side can (trampolines,
    /// men in hand). Asked when a flag falls: a flag against a side whose
    /// opponent cannot mate is a draw, as in FIDE's rules.
    pub fn can_mate(&self, side: Color) -> bool {
        with_game!(self.variant, G => G::can_mate(self, side))
    }

    /// Whether `color`'s men in reserve ([`Position::reserve`]) may still
    /// enter the game: Hoplit Chess's Hoplit always may (L4; whether a drop
    /// is possible this turn depends on the pawns); Jumping King's men only
    /// while their king jumps (J4; a stuck king's men never enter, J6);
    /// the other games have no reserve.
    #[inline]
    pub fn reserve_in_play(&self, color: Color) -> bool {
        with_game!(self.variant, G => G::reserve_in_play(self, color))
    }

    /// Hop Chess: whether the piece step of the turn is made and the side to
    /// move must now place its trampoline.
    #[inline]
    pub fn placement_pending(&self) -> bool {
        self.variant == Variant::HopChess && self.phase & hopchess::PLACE != 0
    }

    /// Hop Chess, in the placement phase: the placement squares after
    /// which the enemy king is attacked (P8), so that the turn gives check,
    /// without playing them. Among the legal placements (see
    /// [`Position::legal_steps_into`]) these are exactly the ones whose
    /// position has [`Position::is_check`]. Empty in every other state and
    /// game.
    pub fn checking_placements(&self) -> Bitboard {
        if self.placement_pending() {
            hopchess::checking_placements(self)
        } else {
            Bitboard::EMPTY
        }
    }

    /// Hop Chess: whether this is White's first turn (a piece move only, H3).
    #[inline]
    pub fn is_first_turn(&self) -> bool {
        self.variant == Variant::HopChess && self.phase & hopchess::FIRST != 0
    }

    /// Jumping King: whether `color`'s king is in its jumping phase (J4) at
    /// this turn. Always `false` in other games.
    #[inline]
    pub fn is_jumping(&self, color: Color) -> bool {
        self.variant == Variant::JumpingKing && self.phase & jumpingking::phase_bit(color) != 0
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
                .contains(jumpingking::weak_square(self.turn))
    }

    /// Jumping King: a legal move of the side to move onto the enemy's
    /// weak square, a move that wins at once (J3), if there is one. None
    /// in the other games.
    #[inline]
    pub fn weak_square_win(&self) -> Option<Move> {
        if self.variant == Variant::JumpingKing {
            jumpingking::weak_square_win(self)
        } else {
            None
        }
    }

    /// Jumping King: whether the side not to move could take the weak
    /// square of the side to move were it its turn, a threat to win at
    /// once (J3). False in the other games.
    #[inline]
    pub fn weak_square_threat(&self) -> bool {
        self.variant == Variant::JumpingKing
            && jumpingking::weak_square_move(self, !self.turn).is_some()
    }

    /// Hoplit Chess: the squares the Hoplit on `from` moves or captures to
    /// (L2, L3) on the current board, its own men excluded; empty when no
    /// Hoplit stands on `from`. Pins are ignored (an evaluation's view).
    pub fn hoplit_targets(&self, from: Square) -> Bitboard {
        match self.board.piece_at(from) {
            Some(crate::types::Piece {
                color,
                role: Role::Hoplit,
            }) => hoplit::hoplit_targets(
                from,
                self.board.occupied(),
                self.board.by_color(color),
                self.board.pieces(!color, Role::Pawn),
            ),
            _ => Bitboard::EMPTY,
        }
    }

    /// The trampolines the pieces of `side` may bounce off now: both in Hop
    /// Chess (H4), its own in Trampoline Chess (T3), none in the other games.
    #[inline]
    pub fn usable_trampolines(&self, side: Color) -> Bitboard {
        match self.variant.bounce_rules() {
            Some(rules) => rules.usable(self.trampolines, side),
            None => Bitboard::EMPTY,
        }
    }

    /// The squares one more leg of `role` attacks from the trampoline `t`
    /// after arriving there from `from` (see [`crate::facts::BounceRules::leg_from`]: the
    /// queen's line, H6 against T4); empty in games without trampolines.
    #[inline]
    pub fn bounce_leg(&self, role: Role, from: Square, t: Square, occ: Bitboard) -> Bitboard {
        match self.variant.bounce_rules() {
            Some(rules) => rules.leg_from(role, from, t, occ),
            None => Bitboard::EMPTY,
        }
    }

    /// The lines along which the side to move is in check, one per
    /// checking piece: the checker's square, the trampolines it bounces off
    /// on its way (P8; of several paths the canonical one, N3: direct first,
    /// then the fewest and alphabetically first trampolines) or a Hoplit's
    /// turning square (L2), and the king's square last. Empty when the side
    /// to move is not in check.
    pub fn check_lines(&self) -> Vec<Vec<Square>> {
        let Some(king) = self.our_king() else {
            return Vec::new();
        };
        self.checkers
            .into_iter()
            .map(|from| {
                let mut best: Option<Move> = None;
                if let Some(rules) = self.variant.bounce_rules() {
                    bounce::for_each_path(
                        &self.board,
                        self.trampolines,
                        rules,
                        None,
                        from,
                        &mut |m| {
                            if m.to() == Some(king)
                                && best.is_none_or(|b| bounce::path_key(m) < bounce::path_key(b))
                            {
                                best = Some(m);
                            }
                        },
                    );
                }
                let mut line = vec![from];
                line.extend(best.into_iter().flat_map(|m| m.via()));
                if self.board.piece_at(from).map(|p| p.role) == Some(Role::Hoplit) {
                    line.extend(hoplit::hoplit_turn(
                        from,
                        king,
                        self.board.occupied(),
                        self.board.pieces(self.turn, Role::Pawn),
                    ));
                }
                line.push(king);
                line
            })
            .collect()
    }

    /// Jumping King: whether `color`'s king is stuck (J6): its jumping
    /// phase is over with men still in reserve, which never enter the
    /// game. Always `false` in other games.
    #[inline]
    pub fn is_stuck(&self, color: Color) -> bool {
        self.variant == Variant::JumpingKing && !self.is_jumping(color) && self.unplaced(color) > 0
    }

    /// Jumping King: `color`'s weak square (J3: a man of the other side
    /// entering it wins); `None` in other games.
    #[inline]
    pub fn weak_square(&self, color: Color) -> Option<Square> {
        (self.variant == Variant::JumpingKing).then(|| jumpingking::weak_square(color))
    }

    /// Whether the turn that starts here is made of two steps (see
    /// [`Position::legal_steps_into`]): Hop Chess, a turn starts (no
    /// placement pending) and it is not White's first turn (H2, H3).
    #[inline]
    pub fn splits_turn(&self) -> bool {
        self.variant == Variant::HopChess && !self.placement_pending() && !self.is_first_turn()
    }
}
