//! The search: iterative deepening over a principal-variation alpha-beta
//! search with aspiration windows, a transposition table, quiescence search,
//! check extensions, null-move pruning, late-move reductions and pruning,
//! and draw detection (repetition, 50-move rule, insufficient material).
//!
//! Scores are centipawns for the side to move; a mate in `n` plies from
//! the root is `MATE - n` (and `-MATE + n` when mated).
//!
//! Several threads (Lazy SMP) search the same root and share the
//! transposition table; the first thread reports and decides.

use crate::eval::evaluate;
use crate::limits::{Limits, Signals};
use crate::strength::Rng;
use crate::time::TimeManager;
use crate::tt::{encode_move, Bound, Tt};
use crate::Engine;
use springboard_rules::attacks::{bishop_attacks, knight_attacks, pawn_attacks, rook_attacks};
use springboard_rules::{
    Bitboard, Board, Color, Move, MoveKind, MoveList, Position, Role, Square, Variant,
};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

pub const MAX_PLY: usize = 128;
pub const INF: i32 = 32_000;
pub const MATE: i32 = 31_000;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;

/// A score as the protocols show it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns for the side to move.
    Cp(i32),
    /// Mate in this many moves (negative: the side to move is mated).
    Mate(i32),
}

impl Score {
    pub fn from_internal(v: i32) -> Score {
        if v >= MATE_BOUND {
            Score::Mate((MATE - v + 1) / 2)
        } else if v <= -MATE_BOUND {
            Score::Mate(-(MATE + v) / 2)
        } else {
            Score::Cp(v)
        }
    }
}

/// Progress of a search, reported after each iteration (one per line with
/// `MultiPV`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    pub depth: u32,
    pub seldepth: u32,
    /// 1-based index of the line.
    pub multipv: usize,
    pub score: Score,
    /// `Some` when the iteration was cut short and the score is only a bound.
    pub bound: Option<Bound>,
    pub nodes: u64,
    pub nps: u64,
    pub time_ms: u64,
    pub hashfull: u32,
    pub pv: Vec<Move>,
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// `None` only when the root has no legal move.
    pub best: Option<Move>,
    /// The expected reply, for pondering.
    pub ponder: Option<Move>,
    pub score: Score,
    pub depth: u32,
    pub nodes: u64,
}

/// Whether a game may use null-move pruning in `pos`: the side to move
/// needs a piece besides king and pawns on the board (zugzwang care: pawn
/// endings are where passing would lie; a Hoplit in reserve does not
/// count), and passing must be a sound idea in the game's current state:
/// - chess, Trampoline Chess, Hoplit Chess: always;
/// - Hop Chess: only where a turn starts (never in the `place` state: the
///   placement belongs to the turn already begun; never on White's first
///   turn, whose phase bit [`Position::play_null`] would hand to Black);
/// - Jumping King: only when both kings' jumping phases are over (J4, J6:
///   the jumps, placements and forced passes are not FIDE turns).
pub fn null_move_allowed(pos: &Position) -> bool {
    let b = pos.board();
    let us = b.by_color(pos.turn());
    let has_piece = (us & !b.by_role(Role::Pawn) & !b.by_role(Role::King)).any();
    has_piece
        && match pos.variant() {
            Variant::Chess | Variant::Trampoline | Variant::Hoplit => true,
            Variant::HopChess => !pos.placement_pending() && !pos.is_first_turn(),
            Variant::JumpingKing => !pos.is_jumping(Color::White) && !pos.is_jumping(Color::Black),
        }
}

/// Hop Chess's `place` state: whether the piece step just made attacks the
/// enemy king with the trampolines where they stand (the placement to come
/// may add paths, never take one away: trampolines block nothing, P1).
fn piece_step_checks(pos: &Position) -> bool {
    pos.board()
        .king_of(!pos.turn())
        .is_some_and(|k| pos.is_attacked(k, pos.turn()))
}

/// Hop Chess: whether the search splits the turn of `pos` into a piece
/// step and a placement step (a turn starts, and it is not White's first
/// turn, which is a piece move only, H3).
fn splits_turn(pos: &Position) -> bool {
    pos.variant() == Variant::HopChess && !pos.placement_pending() && !pos.is_first_turn()
}

/// Piece values for exchange evaluation and capture ordering, by
/// [`Role::index`]: pawn, knight, bishop, rook, queen, king, Hoplit (about
/// a bishop, L2).
const SEE_VALUE: [i32; 7] = [100, 320, 330, 500, 900, 20_000, 300];

fn value(role: Role) -> i32 {
    SEE_VALUE[role.index()]
}

/// The attacker's rank in MVV-LVA ordering (the least valuable first): the
/// Hoplit ranks with the bishop.
fn attacker_rank(role: Role) -> i32 {
    match role {
        Role::Pawn => 0,
        Role::Knight => 1,
        Role::Bishop | Role::Hoplit => 2,
        Role::Rook => 3,
        Role::Queen => 4,
        Role::King => 5,
    }
}

/// Whether `m` captures: its destination holds an enemy piece, or it takes
/// en passant.
pub fn is_capture(pos: &Position, m: Move) -> bool {
    m.kind() == MoveKind::EnPassant
        || m.to()
            .and_then(|t| pos.board().piece_at(t))
            .is_some_and(|p| p.color != pos.turn())
}

fn captured_role(pos: &Position, m: Move) -> Option<Role> {
    if m.kind() == MoveKind::EnPassant {
        return Some(Role::Pawn);
    }
    m.to()
        .and_then(|t| pos.board().piece_at(t))
        .filter(|p| p.color != pos.turn())
        .map(|p| p.role)
}

/// The empty squares the pieces of one side reach with a non-capturing
/// first leg, by kind of leg: where a trampoline would launch them (P2).
struct Reach {
    knight: Bitboard,
    orth: Bitboard,
    diag: Bitboard,
    pawn: Bitboard,
}

impl Reach {
    fn of(board: &Board, color: Color) -> Reach {
        let occ = board.occupied();
        let ours = board.by_color(color);
        let mut reach = Reach {
            knight: Bitboard::EMPTY,
            orth: Bitboard::EMPTY,
            diag: Bitboard::EMPTY,
            pawn: Bitboard::EMPTY,
        };
        for sq in board.pieces(color, Role::Knight) {
            reach.knight |= knight_attacks(sq);
        }
        for sq in ours & board.rook_likes() {
            reach.orth |= rook_attacks(sq, occ);
        }
        for sq in ours & board.bishop_likes() {
            reach.diag |= bishop_attacks(sq, occ);
        }
        let pawns = board.pieces(color, Role::Pawn);
        reach.pawn = match color {
            Color::White => pawns.north(),
            Color::Black => pawns.south(),
        };
        let empty = !occ;
        reach.knight &= empty;
        reach.orth &= empty;
        reach.diag &= empty;
        reach.pawn &= empty;
        reach
    }

    /// The squares the pieces of `color` would attack by bouncing off a
    /// trampoline on `s` (one bounce, the same kind of leg on: a queen keeps
    /// her line, H6).
    fn through(&self, s: Square, occ: Bitboard, color: Color) -> Bitboard {
        let mut hits = Bitboard::EMPTY;
        if self.knight.contains(s) {
            hits |= knight_attacks(s);
        }
        if self.orth.contains(s) {
            hits |= rook_attacks(s, occ);
        }
        if self.diag.contains(s) {
            hits |= bishop_attacks(s, occ);
        }
        if self.pawn.contains(s) {
            hits |= pawn_attacks(color, s);
        }
        hits
    }
}

/// A cheap guess at what a Hop Chess placement is worth, for move
/// ordering. Either trampoline serves both sides (H4), so a placement on
/// `s` gives the mover's pieces new targets and the enemy's pieces new
/// targets too: checks first, then the most valuable enemy piece attacked
/// through `s` minus the most valuable own piece exposed through it.
struct PlacementGuess {
    us: Color,
    occ: Bitboard,
    ours: Reach,
    theirs: Reach,
    our_men: Bitboard,
    their_men: Bitboard,
    their_king: Option<Square>,
    stay: Option<Square>,
}

/// The ordering score of a checking placement (above killers, below the
/// TT move).
const PLACEMENT_CHECK: i32 = 1_200_000;

impl PlacementGuess {
    fn new(pos: &Position) -> PlacementGuess {
        let b = pos.board();
        let us = pos.turn();
        let kings = b.by_role(Role::King);
        PlacementGuess {
            us,
            occ: b.occupied(),
            ours: Reach::of(b, us),
            theirs: Reach::of(b, !us),
            our_men: b.by_color(us) & !kings,
            their_men: b.by_color(!us) & !kings,
            their_king: b.king_of(!us),
            stay: pos.trampoline(us),
        }
    }

    fn best_value(board: &Board, targets: Bitboard) -> i32 {
        targets
            .filter_map(|sq| board.role_at(sq))
            .map(value)
            .max()
            .unwrap_or(0)
    }

    fn score(&self, board: &Board, s: Square) -> i32 {
        let ours = self.ours.through(s, self.occ, self.us);
        let theirs = self.theirs.through(s, self.occ, !self.us);
        let check = self.their_king.is_some_and(|k| ours.contains(k));
        let gain = Self::best_value(board, ours & self.their_men);
        let risk = Self::best_value(board, theirs & self.our_men);
        // Ties keep the trampoline where it stands.
        let stay = i32::from(self.stay == Some(s));
        let check = if check { PLACEMENT_CHECK } else { 0 };
        check + 32 * (gain - risk) + stay
    }
}

/// Whether the FIDE attacks of [`Position::attackers_to`] are every
/// capture onto `to` in `pos`, so that the FIDE exchange of [`see_ge`]
/// holds:
/// - chess: yes;
/// - Hoplit Chess: when no Hoplit stands on the board (a Hoplit captures
///   over a screen, L2, and every capture in the exchange changes the
///   screens; one in reserve never captures);
/// - Jumping King: in the moving phase (a jumping king attacks nothing,
///   J4), and not on a weak square (a1, f8: entering one ends the game, J3). The
///   squares off the 38-square board are always empty and no line through
///   them comes back onto the board, so FIDE lines are the game's lines;
/// - Hop Chess and Trampoline Chess: no. Pieces reach the square through
///   trampolines (P2, P8), and each capture in the exchange opens or
///   closes bounce paths: answering with FIDE attacks would prune good
///   captures.
fn fide_exchange(pos: &Position, to: Square) -> bool {
    match pos.variant() {
        Variant::Chess => true,
        Variant::Hoplit => pos.board().by_role(Role::Hoplit).is_empty(),
        Variant::JumpingKing => {
            !pos.is_jumping(Color::White)
                && !pos.is_jumping(Color::Black)
                && to != Square::A1
                && to != Square::F8
        }
        Variant::HopChess | Variant::Trampoline => false,
    }
}

/// For quiescence where [`see_ge`] cannot judge (bounces, Hoplit
/// screens): whether `m` takes a piece worth less than the capturer on a
/// square the enemy attacks (P8 attacks, trampolines and screens
/// included). A guess, not an exchange: the capture may still win (the
/// recapture may be illegal, or lose more), but quiescence in the bounce
/// games has far more captures than chess and needs some filter.
fn likely_losing(pos: &Position, m: Move) -> bool {
    let (Some(from), Some(to)) = (m.from(), m.to()) else {
        return false;
    };
    if m.promotion_role().is_some() || fide_exchange(pos, to) {
        return false;
    }
    let victim = captured_role(pos, m).map_or(0, value);
    let attacker = pos.board().role_at(from).map_or(0, value);
    victim < attacker && pos.is_attacked(to, !pos.turn())
}

/// Static exchange evaluation: whether the exchange `m` starts on its
/// destination wins at least `threshold` centipawns. Exact for FIDE
/// captures (pins aside) where [`fide_exchange`] says FIDE attacks hold;
/// elsewhere it answers `threshold <= 0` (no pruning, no reordering).
pub fn see_ge(pos: &Position, m: Move, threshold: i32) -> bool {
    if m.kind() != MoveKind::Normal || m.role().is_some() {
        return threshold <= 0;
    }
    let (Some(from), Some(to)) = (m.from(), m.to()) else {
        return threshold <= 0;
    };
    if !fide_exchange(pos, to) {
        return threshold <= 0;
    }
    let b = pos.board();
    let mut swap = captured_role(pos, m).map_or(0, value) - threshold;
    if swap < 0 {
        return false;
    }
    swap = b.role_at(from).map_or(0, value) - swap;
    if swap <= 0 {
        return true;
    }
    let mut occ = b.occupied().without(from).without(to);
    let mut stm = pos.turn();
    let mut attackers =
        pos.attackers_to(to, Color::White, occ) | pos.attackers_to(to, Color::Black, occ);
    let bishops = b.bishop_likes();
    let rooks = b.rook_likes();
    let mut res = 1;
    loop {
        stm = !stm;
        attackers &= occ;
        let ours = attackers & b.by_color(stm);
        if ours.is_empty() {
            break;
        }
        res ^= 1;
        let Some(role) = [
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
            Role::King,
        ]
        .into_iter()
        .find(|&r| (ours & b.by_role(r)).any()) else {
            break;
        };
        if role == Role::King {
            return if (attackers & !b.by_color(stm)).any() {
                res ^ 1 == 1
            } else {
                res == 1
            };
        }
        swap = value(role) - swap;
        if swap < res {
            break;
        }
        if let Some(sq) = (ours & b.by_role(role)).first() {
            occ = occ.without(sq);
        }
        if matches!(role, Role::Pawn | Role::Bishop | Role::Queen) {
            attackers |= bishop_attacks(to, occ) & bishops;
        }
        if matches!(role, Role::Rook | Role::Queen) {
            attackers |= rook_attacks(to, occ) & rooks;
        }
    }
    res == 1
}

/// What the threads of one search share.
struct Shared<'a> {
    tt: &'a Tt,
    signals: &'a Signals,
    limits: &'a Limits,
    time: TimeManager,
    /// Set when the main thread is done: helpers stop.
    abort: AtomicBool,
    /// Nodes flushed by every thread.
    nodes: AtomicU64,
    depth_cap: u32,
    node_cap: Option<u64>,
}

/// One line of a MultiPV iteration.
#[derive(Clone, Debug)]
struct Line {
    score: i32,
    pv: Vec<Move>,
}

const HISTORY_MAX: i32 = 16_384;

/// How many placements quiescence tries in Hop Chess's `place` state.
const QS_PLACEMENTS: usize = 2;

/// Late-move pruning of placements: at a non-PV `place` node, the first
/// `PLACEMENT_LMP + depth * depth` placements are searched.
const PLACEMENT_LMP: i32 = 3;

struct Worker<'a, 'b> {
    sh: &'b Shared<'a>,
    main: bool,
    nodes: u64,
    flushed: u64,
    seldepth: usize,
    stopped: bool,
    /// Keys of the game's positions and of the current search path; the
    /// current position's key is last.
    keys: Vec<u64>,
    /// Index of the first key a repetition may match (after a null move,
    /// earlier positions do not count).
    null_floor: usize,
    killers: Vec<[Option<Move>; 2]>,
    history: Vec<[i32; 64]>,
    pv: Vec<Vec<Move>>,
    lists: Vec<MoveList>,
    order: Vec<Vec<i32>>,
    quiets: Vec<Vec<Move>>,
    /// Root moves (whole turns) a MultiPV iteration leaves out.
    excluded: Vec<Move>,
    lmr: Vec<[i32; 64]>,
    /// Turns from the root to each ply of the search stack: the unit of
    /// mate scores. A Hop Chess turn searched as two half-steps is two
    /// plies of the stack and one turn.
    turns: Vec<i32>,
    /// Whether the root's steps are Hop Chess piece steps (the root's
    /// turns are then a root step and a placement at ply 1).
    root_split: bool,
    /// The root step being searched, when `root_split`.
    root_step: Option<Move>,
    /// The depth of the current iteration.
    iteration_depth: i32,
}

impl<'a, 'b> Worker<'a, 'b> {
    fn new(sh: &'b Shared<'a>, main: bool, keys: Vec<u64>) -> Self {
        let lmr = (0..64)
            .map(|d| {
                let mut row = [0; 64];
                for (m, r) in row.iter_mut().enumerate() {
                    if d > 0 && m > 0 {
                        *r = (0.75 + (d as f64).ln() * (m as f64).ln() / 2.25) as i32;
                    }
                }
                row
            })
            .collect();
        Worker {
            sh,
            main,
            nodes: 0,
            flushed: 0,
            seldepth: 0,
            stopped: false,
            keys,
            null_floor: 0,
            killers: vec![[None; 2]; MAX_PLY + 2],
            history: vec![[0; 64]; 16],
            pv: vec![Vec::new(); MAX_PLY + 2],
            lists: (0..MAX_PLY + 2)
                .map(|_| MoveList::with_capacity(64))
                .collect(),
            order: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(64)).collect(),
            quiets: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(64)).collect(),
            excluded: Vec::new(),
            lmr,
            turns: vec![0; MAX_PLY + 2],
            root_split: false,
            root_step: None,
            iteration_depth: 0,
        }
    }

    fn total_nodes(&self) -> u64 {
        self.sh.nodes.load(Ordering::Relaxed) + self.nodes - self.flushed
    }

    /// Counts a node and tells whether the search must stop.
    fn count_node(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.main {
            if let Some(cap) = self.sh.node_cap {
                if self.total_nodes() >= cap {
                    self.stopped = true;
                    return true;
                }
            }
        }
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            self.sh
                .nodes
                .fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
            self.flushed = self.nodes;
            let told = self.sh.signals.is_stopped() || self.sh.abort.load(Ordering::Relaxed);
            let late = self.main && !self.sh.signals.is_pondering() && self.sh.time.out_of_time();
            if told || late {
                self.stopped = true;
            }
        }
        self.stopped
    }

    fn is_draw(&self, pos: &Position) -> bool {
        if pos.halfmove_clock() >= 100 && !pos.is_check() {
            return true;
        }
        if pos.is_insufficient_material() {
            return true;
        }
        let n = self.keys.len();
        let key = pos.hash();
        let since = pos.halfmove_clock() as usize;
        if pos.variant() == Variant::HopChess {
            // The search path holds the half-step positions of the
            // `place` state between turns and the game history does not:
            // look at every earlier key of the last `since` turns (at most
            // two keys a turn). The phase bits and the side to move in the
            // key keep the other positions apart.
            let window = (2 * since + 1).min(n - 1 - self.null_floor);
            return (1..=window).any(|back| self.keys[n - 1 - back] == key);
        }
        let window = since.min(n - 1 - self.null_floor);
        (2..=window)
            .step_by(2)
            .any(|back| self.keys[n - 1 - back] == key)
    }

    fn history_index(pos: &Position, m: Move) -> usize {
        let role = m
            .from()
            .and_then(|f| pos.board().role_at(f))
            .or(m.role())
            .map_or(7, |r| r.index());
        pos.turn().index() * 8 + role
    }

    fn history_slot(pos: &Position, m: Move) -> (usize, usize) {
        (Self::history_index(pos, m), m.to().map_or(0, |t| t.index()))
    }

    fn update_history(&mut self, pos: &Position, m: Move, bonus: i32) {
        let (p, t) = Self::history_slot(pos, m);
        let h = &mut self.history[p][t];
        *h += bonus - *h * bonus.abs() / HISTORY_MAX;
    }

    /// Orders the moves of `self.lists[ply]` into `self.order[ply]`.
    fn score_moves(&mut self, pos: &Position, ply: usize, tt_move: u32, quiescence: bool) {
        let mut order = std::mem::take(&mut self.order[ply]);
        order.clear();
        let guess = pos.placement_pending().then(|| PlacementGuess::new(pos));
        for &m in &self.lists[ply] {
            let s = if tt_move != 0 && encode_move(m) == tt_move {
                4_000_000
            } else if let (Some(guess), Some(to)) = (&guess, m.to()) {
                // A Hop Chess placement step.
                let killer = if self.killers[ply][0] == Some(m) {
                    1_000_000
                } else if self.killers[ply][1] == Some(m) {
                    900_000
                } else {
                    0
                };
                let (p, t) = Self::history_slot(pos, m);
                (guess.score(pos.board(), to) + self.history[p][t]).max(killer)
            } else if let Some(victim) = captured_role(pos, m) {
                let attacker = m
                    .from()
                    .and_then(|f| pos.board().role_at(f))
                    .map_or(0, attacker_rank);
                let mvv = value(victim) * 8 - attacker;
                if quiescence || see_ge(pos, m, 0) {
                    2_000_000 + mvv
                } else {
                    -1_000_000 + mvv
                }
            } else if m.promotion_role() == Some(Role::Queen) {
                1_900_000
            } else if self.killers[ply][0] == Some(m) {
                1_000_000
            } else if self.killers[ply][1] == Some(m) {
                900_000
            } else if m.promotion_role().is_some() {
                -2_000_000
            } else {
                let (p, t) = Self::history_slot(pos, m);
                self.history[p][t]
            };
            order.push(s);
        }
        self.order[ply] = order;
    }

    /// Brings the best remaining move to index `i`.
    fn pick(&mut self, ply: usize, i: usize) -> Move {
        let order = &mut self.order[ply];
        let mut best = i;
        for j in i + 1..order.len() {
            if order[j] > order[best] {
                best = j;
            }
        }
        order.swap(i, best);
        self.lists[ply].swap(i, best);
        self.lists[ply][i]
    }

    fn set_pv(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(m);
        line.extend_from_slice(&tail[0]);
    }

    /// Searches the child `child` of the node at `ply` with the parent's
    /// window `(alpha, beta)` and returns its score for the parent. A child
    /// with the same side to move (a Hop Chess placement after the piece
    /// step) continues the parent's turn: its score and window are the
    /// parent's, not negated.
    fn visit(
        &mut self,
        child: &Position,
        same_side: bool,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        if same_side {
            self.search(child, depth, alpha, beta, ply + 1, false)
        } else {
            -self.search(child, depth, -beta, -alpha, ply + 1, false)
        }
    }

    /// Whether the node at `ply` leaves out the MultiPV lines found before:
    /// the root, or the placements under the root's piece step.
    fn excludes(&self, ply: usize) -> bool {
        !self.excluded.is_empty() && ply == usize::from(self.root_split)
    }

    /// Whether the node at `ply` is the root or the placement under a root
    /// piece step in a MultiPV pass after the first line: its results lack
    /// the excluded turns, so the table must neither keep nor give them.
    fn multipv_pass(&self, ply: usize) -> bool {
        !self.excluded.is_empty() && ply <= usize::from(self.root_split)
    }

    /// Whether `m` at the node at `ply` (see [`Worker::excludes`]) makes
    /// one of the excluded root turns.
    fn is_excluded(&self, ply: usize, m: Move) -> bool {
        let turn = match (ply, self.root_step) {
            (1, Some(step)) => step.with_place(m.to()),
            _ => m,
        };
        self.excluded.contains(&turn)
    }

    fn search(
        &mut self,
        pos: &Position,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        after_null: bool,
    ) -> i32 {
        self.pv[ply].clear();
        let turns = self.turns[ply];
        // J3: the side to move has lost, its weak square is taken.
        if pos.weak_square_taken() {
            return -MATE + turns;
        }
        let in_check = pos.is_check();
        // Hop Chess: the piece step of the turn is made, the placement is
        // searched here at the depth of the turn (the pruning decisions of
        // the turn were taken at its piece step).
        let place = pos.placement_pending();
        // Check extension. In the trampoline games checks come cheap (a
        // placement or a trampoline move checks through a bounce): two
        // sides checking in turn would extend for ever. There only checks
        // within the iteration's depth (in turns) are extended, and checks
        // at the horizon go to quiescence's evasions.
        let cheap_checks = matches!(pos.variant(), Variant::HopChess | Variant::Trampoline);
        let extend = !cheap_checks || (depth > 0 && turns < self.iteration_depth);
        let depth = if in_check && ply < MAX_PLY / 2 && extend {
            depth + 1
        } else {
            depth
        };
        if depth <= 0 {
            return self.qsearch(pos, alpha, beta, ply);
        }
        let root = ply == 0;
        let pv_node = beta - alpha > 1;
        if self.count_node() {
            return 0;
        }
        self.seldepth = self.seldepth.max(turns as usize);
        if !root {
            // Draws are judged where turns start.
            if !place && self.is_draw(pos) {
                return 0;
            }
            if ply >= MAX_PLY - 1 {
                return if in_check { 0 } else { evaluate(pos) };
            }
            // Mate distance pruning.
            alpha = alpha.max(-MATE + turns);
            beta = beta.min(MATE - turns - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        let excludes = self.excludes(ply);
        let multipv_pass = self.multipv_pass(ply);

        let key = pos.hash();
        let entry = self.sh.tt.probe(key);
        let tt_move = entry.map_or(0, |e| e.mv);
        if let Some(e) = entry {
            if !pv_node && !multipv_pass && e.depth >= depth {
                let s = score_from_tt(e.score, turns);
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if cut {
                    return s;
                }
            }
        }

        let static_eval = if in_check || place {
            -INF
        } else {
            evaluate(pos)
        };
        if !pv_node && !in_check && !root && !place {
            // Reverse futility pruning.
            if depth <= 6 && static_eval - 90 * depth >= beta && static_eval < MATE_BOUND {
                return static_eval;
            }
            // Null-move pruning.
            if !after_null
                && depth >= 3
                && static_eval >= beta
                && beta > -MATE_BOUND
                && null_move_allowed(pos)
            {
                let r = 3 + depth / 4 + ((static_eval - beta) / 200).min(3);
                let mut child = pos.clone();
                child.play_null();
                self.keys.push(child.hash());
                self.turns[ply + 1] = turns + 1;
                let floor = std::mem::replace(&mut self.null_floor, self.keys.len() - 1);
                let s = -self.search(&child, depth - 1 - r, -beta, -beta + 1, ply + 1, true);
                self.null_floor = floor;
                self.keys.pop();
                if self.stopped {
                    return 0;
                }
                if s >= beta {
                    return if s >= MATE_BOUND { beta } else { s };
                }
            }
        }

        let mut moves = std::mem::take(&mut self.lists[ply]);
        moves.clear();
        pos.legal_steps_into(&mut moves);
        if moves.is_empty() {
            self.lists[ply] = moves;
            // A piece step is legal only when a placement follows it, so a
            // `place` node always has moves; none would be a broken turn.
            return if in_check || place { -MATE + turns } else { 0 };
        }
        if excludes {
            moves.retain(|&m| !self.is_excluded(ply, m));
            if moves.is_empty() {
                // Every turn through here is an earlier MultiPV line.
                self.lists[ply] = moves;
                return -INF;
            }
        }
        self.lists[ply] = moves;
        self.score_moves(pos, ply, tt_move, false);
        let mut quiets = std::mem::take(&mut self.quiets[ply]);
        quiets.clear();

        let mut best = -INF;
        let mut best_move: Option<Move> = None;
        let mut searched = 0;
        let count = self.lists[ply].len();
        let step_checks = place && piece_step_checks(pos);
        for i in 0..count {
            let m = self.pick(ply, i);
            let capture = is_capture(pos, m);
            let quiet = !capture && m.promotion_role().is_none();
            let killer = self.killers[ply].contains(&Some(m));
            if !root && !pv_node && !in_check && best > -MATE_BOUND {
                // Late-move pruning of quiet moves (placements below).
                if !place && quiet && depth <= 4 && searched >= 4 + 3 * depth * depth {
                    continue;
                }
                // Losing captures near the leaves.
                if capture && depth <= 4 && !see_ge(pos, m, -120 * depth) {
                    continue;
                }
            }
            let mut child = pos.clone();
            child.play_step(m);
            let same = child.turn() == pos.turn();
            let gives_check = child.is_check();
            // Late-move pruning of placements: most of the thirty-odd
            // squares do about the same, and the ordering puts the ones
            // that check, attack or keep pieces safe first, so the late
            // ones go at every depth. Not after a piece step that checks:
            // every placement checks then, and the one that mates (or
            // does not let the enemy out) may be anywhere.
            if place
                && !pv_node
                && !step_checks
                && best > -MATE_BOUND
                && searched >= PLACEMENT_LMP + depth * depth
            {
                continue;
            }
            self.keys.push(child.hash());
            self.turns[ply + 1] = turns + i32::from(!same);
            if root && self.root_split {
                self.root_step = Some(m);
            }
            // The placement step of a turn is searched at the turn's depth.
            let new_depth = if same { depth } else { depth - 1 };
            let mut score;
            if searched == 0 {
                score = self.visit(&child, same, new_depth, alpha, beta, ply);
            } else {
                let mut r = 0;
                if depth >= 3 && quiet && !in_check && !gives_check && searched >= 2 {
                    r = self.lmr[depth.min(63) as usize][searched.min(63) as usize];
                    if pv_node {
                        r -= 1;
                    }
                    if killer {
                        r -= 1;
                    }
                    r = r.clamp(0, (new_depth - 1).max(0));
                }
                score = self.visit(&child, same, new_depth - r, alpha, alpha + 1, ply);
                if score > alpha && r > 0 {
                    score = self.visit(&child, same, new_depth, alpha, alpha + 1, ply);
                }
                if score > alpha && score < beta {
                    score = self.visit(&child, same, new_depth, alpha, beta, ply);
                }
            }
            self.keys.pop();
            if self.stopped {
                self.quiets[ply] = quiets;
                return 0;
            }
            searched += 1;
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(m);
                    alpha = score;
                    self.set_pv(ply, m);
                    if score >= beta {
                        if quiet {
                            let k = &mut self.killers[ply];
                            if k[0] != Some(m) {
                                k[1] = k[0];
                                k[0] = Some(m);
                            }
                            let bonus = (depth * depth).min(400);
                            self.update_history(pos, m, bonus);
                            for &q in &quiets {
                                self.update_history(pos, q, -bonus);
                            }
                        }
                        break;
                    }
                }
            }
            if quiet {
                quiets.push(m);
            }
        }
        self.quiets[ply] = quiets;

        let bound = if best >= beta {
            Bound::Lower
        } else if best_move.is_some() {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if !multipv_pass {
            self.sh.tt.store(
                key,
                best_move.map_or(0, encode_move),
                score_to_tt(best, turns),
                depth,
                bound,
            );
        }
        best
    }

    fn qsearch(&mut self, pos: &Position, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.pv[ply].clear();
        if self.count_node() {
            return 0;
        }
        let turns = self.turns[ply];
        self.seldepth = self.seldepth.max(turns as usize);
        if pos.weak_square_taken() {
            return -MATE + turns;
        }
        if pos.placement_pending() {
            return self.qsearch_place(pos, alpha, beta, ply);
        }
        let in_check = pos.is_check();
        if ply >= MAX_PLY - 1 {
            return if in_check { 0 } else { evaluate(pos) };
        }
        if pos.is_insufficient_material() {
            return 0;
        }
        let mut best = -INF;
        let mut stand = -INF;
        if !in_check {
            stand = evaluate(pos);
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
            best = stand;
        }
        let mut moves = std::mem::take(&mut self.lists[ply]);
        moves.clear();
        pos.legal_steps_into(&mut moves);
        if moves.is_empty() {
            self.lists[ply] = moves;
            return if in_check { -MATE + turns } else { 0 };
        }
        if !in_check {
            moves.retain(|&m| is_capture(pos, m) || m.promotion_role() == Some(Role::Queen));
        }
        self.lists[ply] = moves;
        self.score_moves(pos, ply, 0, true);
        let count = self.lists[ply].len();
        for i in 0..count {
            let m = self.pick(ply, i);
            if !in_check {
                let gain = captured_role(pos, m).map_or(0, value)
                    + if m.promotion_role().is_some() { 800 } else { 0 };
                // Delta pruning, then losing exchanges.
                if stand + gain + 200 <= alpha || !see_ge(pos, m, 0) || likely_losing(pos, m) {
                    continue;
                }
            }
            let mut child = pos.clone();
            child.play_step(m);
            let score = if child.turn() == pos.turn() {
                self.turns[ply + 1] = turns;
                self.qsearch(&child, alpha, beta, ply + 1)
            } else {
                self.turns[ply + 1] = turns + 1;
                -self.qsearch(&child, -beta, -alpha, ply + 1)
            };
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    self.set_pv(ply, m);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// Quiescence in Hop Chess's `place` state: the turn is not over, so
    /// there is no standing pat. The side tries the few placements that do
    /// not give check the ordering likes best (the table's move, attacks
    /// through the trampoline, no exposed pieces) and takes the best: a
    /// lower bound of the turn's worth, as cheap as a capture or two.
    fn qsearch_place(&mut self, pos: &Position, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        let turns = self.turns[ply];
        let mut moves = std::mem::take(&mut self.lists[ply]);
        moves.clear();
        pos.legal_steps_into(&mut moves);
        if moves.is_empty() {
            // Not after a legal piece step (see `search`).
            self.lists[ply] = moves;
            return -MATE + turns;
        }
        self.lists[ply] = moves;
        let tt_move = self.sh.tt.probe(pos.hash()).map_or(0, |e| e.mv);
        self.score_moves(pos, ply, tt_move, true);
        let count = self.lists[ply].len();
        let mut best = -INF;
        let mut tried = 0;
        let mut checking: Option<(Move, Position)> = None;
        let mut i = 0;
        loop {
            // No checks: each would make the other side search all its
            // evasions, and placements that check come cheap, so check
            // would follow check. Only when every placement checks (the
            // piece step checked already) is the first of them tried.
            let (m, child) = if i < count {
                let m = self.pick(ply, i);
                i += 1;
                let mut child = pos.clone();
                child.play_step(m);
                if child.is_check() {
                    if checking.is_none() {
                        checking = Some((m, child));
                    }
                    continue;
                }
                (m, child)
            } else if tried == 0 {
                match checking.take() {
                    Some(found) => found,
                    None => break,
                }
            } else {
                break;
            };
            tried += 1;
            self.turns[ply + 1] = turns + 1;
            let score = -self.qsearch(&child, -beta, -alpha, ply + 1);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    self.set_pv(ply, m);
                    if score >= beta {
                        break;
                    }
                }
            }
            if tried == QS_PLACEMENTS {
                break;
            }
        }
        best
    }

    /// Searches one root line at `depth` with an aspiration window around
    /// `prev` (when given).
    fn aspiration(&mut self, root: &Position, depth: i32, prev: Option<i32>) -> i32 {
        let mut delta = 25;
        let (mut alpha, mut beta) = match prev {
            Some(p) if depth >= 5 && p.abs() < MATE_BOUND => (p - delta, p + delta),
            _ => (-INF, INF),
        };
        self.iteration_depth = depth;
        loop {
            let score = self.search(root, depth, alpha, beta, 0, false);
            if self.stopped {
                return score;
            }
            if score <= alpha && alpha > -INF {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INF);
            } else if score >= beta && beta < INF {
                beta = (score + delta).min(INF);
            } else {
                return score;
            }
            delta += delta / 2;
            if delta > 800 {
                alpha = -INF;
                beta = INF;
            }
        }
    }

    /// Iterative deepening. Returns the lines of the last iteration (best
    /// first) and the depth they come from.
    fn iterate(
        &mut self,
        root: &Position,
        root_count: usize,
        multipv: usize,
        offset: u32,
        mut on_info: Option<&mut dyn FnMut(&Info)>,
    ) -> (Vec<Line>, u32) {
        let mut lines: Vec<Line> = Vec::new();
        let mut reached = 0;
        let multipv = multipv.min(root_count).max(1);
        self.root_split = splits_turn(root);
        self.root_step = None;
        self.turns[0] = 0;
        for depth in 1..=self.sh.depth_cap {
            let depth = (depth + offset).min(self.sh.depth_cap);
            self.seldepth = 0;
            self.excluded.clear();
            let mut fresh: Vec<Line> = Vec::new();
            for idx in 0..multipv {
                let prev = lines.get(idx).map(|l| l.score);
                let prev = if multipv == 1 { prev } else { None };
                let score = self.aspiration(root, depth as i32, prev);
                let pv = turns_of_steps(self.sh.tt, root, &self.pv[0]);
                let Some(&first) = pv.first() else { break };
                fresh.push(Line { score, pv });
                if self.stopped {
                    break;
                }
                self.excluded.push(first);
            }
            self.excluded.clear();
            if fresh.is_empty() {
                break;
            }
            if self.stopped {
                // Keep a better first line found by the unfinished iteration.
                if let Some(line) = fresh.into_iter().next() {
                    if lines.is_empty()
                        || line.pv[0] == lines[0].pv[0]
                        || line.score > lines[0].score
                    {
                        lines.retain(|l| l.pv[0] != line.pv[0]);
                        lines.insert(0, line);
                    }
                }
                break;
            }
            fresh.sort_by_key(|l| std::cmp::Reverse(l.score));
            lines = fresh;
            reached = depth;
            if let Some(report) = on_info.as_deref_mut() {
                let time = self.sh.time.elapsed();
                let nodes = self.total_nodes();
                for (i, line) in lines.iter().enumerate() {
                    report(&Info {
                        depth,
                        seldepth: self.seldepth as u32,
                        multipv: i + 1,
                        score: Score::from_internal(line.score),
                        bound: None,
                        nodes,
                        nps: nps(nodes, time),
                        time_ms: time.as_millis() as u64,
                        hashfull: self.sh.tt.hashfull(),
                        pv: line.pv.clone(),
                    });
                }
            }
            if !self.main {
                continue;
            }
            let best = lines[0].score;
            if let Some(mate) = self.sh.limits.mate {
                if best >= MATE - 2 * mate as i32 {
                    break;
                }
            }
            let timed = !self.sh.signals.is_pondering();
            if timed && !self.sh.time.may_start_iteration() {
                break;
            }
            // A forced move needs no thought under a clock.
            if timed && root_count == 1 && self.sh.time.soft.is_some() {
                break;
            }
        }
        (lines, reached)
    }
}

fn nps(nodes: u64, time: Duration) -> u64 {
    let ms = time.as_millis().max(1) as u64;
    nodes.saturating_mul(1000) / ms
}

/// A mate score `turns` from the root made relative to the node.
fn score_to_tt(score: i32, turns: i32) -> i32 {
    if score >= MATE_BOUND {
        score + turns
    } else if score <= -MATE_BOUND {
        score - turns
    } else {
        score
    }
}

fn score_from_tt(score: i32, turns: i32) -> i32 {
    if score >= MATE_BOUND {
        score - turns
    } else if score <= -MATE_BOUND {
        score + turns
    } else {
        score
    }
}

/// The whole search (see [`Engine::search`]).
pub(crate) fn run(
    engine: &mut Engine,
    root: &Position,
    history: &[u64],
    limits: &Limits,
    signals: &Signals,
    on_info: &mut dyn FnMut(&Info),
) -> SearchResult {
    let start = Instant::now();
    let time = TimeManager::new(limits, root.turn(), engine.move_overhead_ms, start);
    let strength = engine.strength;
    let depth_cap = limits
        .depth
        .unwrap_or(MAX_PLY as u32 - 2)
        .clamp(1, MAX_PLY as u32 - 2)
        .min(strength.depth_cap().unwrap_or(u32::MAX));
    let node_cap = match (limits.nodes, strength.node_cap()) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    let multipv = if strength.is_limited() {
        engine.multipv.max(crate::Strength::CANDIDATES)
    } else {
        engine.multipv
    };
    engine.tt.new_search();
    let sh = Shared {
        tt: &engine.tt,
        signals,
        limits,
        time,
        abort: AtomicBool::new(false),
        nodes: AtomicU64::new(0),
        depth_cap,
        node_cap,
    };
    let root_moves = root.legal_moves();
    let mut keys: Vec<u64> = history.to_vec();
    keys.push(root.hash());

    let (lines, depth, nodes) = if root_moves.is_empty() {
        (Vec::new(), 0, 0)
    } else {
        std::thread::scope(|scope| {
            let helpers: Vec<_> = (1..engine.threads.max(1))
                .map(|id| {
                    let sh = &sh;
                    let keys = keys.clone();
                    let count = root_moves.len();
                    scope.spawn(move || {
                        let mut w = Worker::new(sh, false, keys);
                        w.iterate(root, count, 1, (id % 2) as u32, None);
                        sh.nodes.fetch_add(w.nodes - w.flushed, Ordering::Relaxed);
                    })
                })
                .collect();
            let mut main = Worker::new(&sh, true, keys.clone());
            let (lines, depth) = main.iterate(root, root_moves.len(), multipv, 0, Some(on_info));
            // An infinite or pondering search answers only when told to.
            while !signals.is_stopped() && (limits.infinite || signals.is_pondering()) {
                std::thread::sleep(Duration::from_millis(1));
            }
            sh.abort.store(true, Ordering::Relaxed);
            for h in helpers {
                // A helper that panicked has only lost its own work.
                let _ = h.join();
            }
            let nodes = main.nodes - main.flushed + sh.nodes.load(Ordering::Relaxed);
            (lines, depth, nodes)
        })
    };

    let best = if strength.is_limited() {
        let candidates: Vec<(Move, i32)> = lines.iter().map(|l| (l.pv[0], l.score)).collect();
        let mut rng = Rng::new(start.elapsed().as_nanos() as u64 ^ root.hash());
        strength.pick(&candidates, || rng.next_u64())
    } else {
        lines.first().map(|l| l.pv[0])
    }
    .or_else(|| root_moves.first().copied());
    let line = best.and_then(|b| lines.iter().find(|l| l.pv[0] == b));
    let ponder = best.and_then(|b| {
        line.and_then(|l| l.pv.get(1).copied())
            .or_else(|| ponder_from_tt(&engine.tt, root, b))
    });
    SearchResult {
        best,
        ponder,
        score: Score::from_internal(line.map_or(0, |l| l.score)),
        depth,
        nodes,
    }
}

/// The reply the table remembers after `best`, as a whole turn.
fn ponder_from_tt(tt: &Tt, root: &Position, best: Move) -> Option<Move> {
    let mut child = root.clone();
    child.play(best);
    let step = tt_step(tt, &child)?;
    if !splits_turn(&child) {
        return Some(step);
    }
    let mut mid = child;
    mid.play_step(step);
    let place = tt_step(tt, &mid).or_else(|| guessed_placement(&mid))?;
    Some(step.with_place(place.to()))
}

/// The step the table remembers for `pos`, found among its legal steps.
fn tt_step(tt: &Tt, pos: &Position) -> Option<Move> {
    let code = tt.probe(pos.hash())?.mv;
    let mut steps = MoveList::new();
    pos.legal_steps_into(&mut steps);
    steps.into_iter().find(|&m| encode_move(m) == code)
}

/// The placement [`PlacementGuess`] likes best in Hop Chess's `place`
/// state (`None` if there is none).
fn guessed_placement(pos: &Position) -> Option<Move> {
    let guess = PlacementGuess::new(pos);
    let mut steps = MoveList::new();
    pos.legal_steps_into(&mut steps);
    steps
        .into_iter()
        .filter_map(|m| Some((m, guess.score(pos.board(), m.to()?))))
        .max_by_key(|&(_, s)| s)
        .map(|(m, _)| m)
}

/// The whole turns of a line of search steps from `root`: in Hop Chess a
/// piece step and the placement after it make one turn
/// (`Move::with_place`), the move the rules core's `legal_moves` lists. A
/// piece step whose placement the line lacks (a line cut short) is
/// completed from the table or by [`guessed_placement`] when it is the
/// first turn, and dropped later on.
fn turns_of_steps(tt: &Tt, root: &Position, steps: &[Move]) -> Vec<Move> {
    let mut pos = root.clone();
    let mut out = Vec::with_capacity(steps.len());
    let mut i = 0;
    while i < steps.len() {
        let step = steps[i];
        if !splits_turn(&pos) {
            out.push(step);
            pos.play_step(step);
            i += 1;
            continue;
        }
        let mut mid = pos.clone();
        mid.play_step(step);
        let place = match steps.get(i + 1) {
            Some(&p) if p.kind() == MoveKind::Trampoline => Some(p),
            _ if i == 0 => tt_step(tt, &mid).or_else(|| guessed_placement(&mid)),
            _ => None,
        };
        let Some(place) = place else { break };
        out.push(step.with_place(place.to()));
        pos = mid;
        pos.play_step(place);
        i += 2;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use springboard_rules::notation::uci::parse_uci;

    fn shared<'a>(tt: &'a Tt, signals: &'a Signals, limits: &'a Limits) -> Shared<'a> {
        Shared {
            tt,
            signals,
            limits,
            time: TimeManager::new(limits, springboard_rules::Color::White, 0, Instant::now()),
            abort: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            depth_cap: 10,
            node_cap: None,
        }
    }

    #[test]
    fn repetition_since_last_irreversible_move() {
        let tt = Tt::new(1);
        let (signals, limits) = (Signals::new(), Limits::default());
        let sh = shared(&tt, &signals, &limits);
        let mut pos = Position::startpos(Variant::Chess);
        let mut w = Worker::new(&sh, true, vec![pos.hash()]);
        let mut draws = Vec::new();
        for text in ["g1f3", "g8f6", "f3g1", "f6g8", "e2e4", "f6g8"] {
            let Ok(m) = parse_uci(&pos, text) else {
                // f6g8 after e2e4 is not legal: play the knight out first.
                let m = parse_uci(&pos, "g8f6").unwrap();
                pos.play(m);
                w.keys.push(pos.hash());
                draws.push(w.is_draw(&pos));
                let m = parse_uci(&pos, "e4e5").unwrap();
                pos.play(m);
                w.keys.push(pos.hash());
                draws.push(w.is_draw(&pos));
                continue;
            };
            pos.play(m);
            w.keys.push(pos.hash());
            draws.push(w.is_draw(&pos));
        }
        // The start position again after four plies; the pawn move resets
        // the window, so g8f6 after it is no repetition.
        assert_eq!(draws, [false, false, false, true, false, false, false]);
        // A null move hides the positions before it.
        w.null_floor = w.keys.len() - 1;
        assert!(!w.is_draw(&pos));
    }

    #[test]
    fn hop_chess_repetition_across_half_steps() {
        let tt = Tt::new(1);
        let (signals, limits) = (Signals::new(), Limits::default());
        let sh = shared(&tt, &signals, &limits);
        let mut pos = Position::startpos(Variant::HopChess);
        // The game history has one key a turn: the start and four turns.
        let mut keys = vec![pos.hash()];
        for text in ["g1f3", "g8f6@d5", "f3g1@e4", "f6g8@d5"] {
            pos.play(parse_uci(&pos, text).unwrap());
            keys.push(pos.hash());
        }
        let mut w = Worker::new(&sh, true, keys);
        // The search path has two keys a turn (the `place` state between).
        let mut draws = Vec::new();
        for text in ["g1f3@e4", "g8f6@d5", "f3g1@e4"] {
            let turn = parse_uci(&pos, text).unwrap();
            pos.play_step(turn.piece_part());
            w.keys.push(pos.hash());
            pos.play_step(Move::trampoline(turn.place().unwrap()));
            w.keys.push(pos.hash());
            draws.push(w.is_draw(&pos));
        }
        // The third turn repeats the position after 2.f3g1@e4, seven
        // keys back (an odd distance: every key must be looked at).
        assert_eq!(draws, [false, false, true]);
    }

    #[test]
    fn exchange_evaluation() {
        let pos = Position::from_fen(
            Variant::Chess,
            "1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1",
        )
        .unwrap();
        let rxe5 = parse_uci(&pos, "e1e5").unwrap();
        assert!(see_ge(&pos, rxe5, 0));
        assert!(see_ge(&pos, rxe5, 100));
        assert!(!see_ge(&pos, rxe5, 101));
        let pos = Position::from_fen(
            Variant::Chess,
            "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1",
        )
        .unwrap();
        let nxe5 = parse_uci(&pos, "d3e5").unwrap();
        assert!(!see_ge(&pos, nxe5, 0));
        assert!(see_ge(&pos, nxe5, -220));
    }

    #[test]
    fn scores_for_protocols() {
        assert_eq!(Score::from_internal(MATE - 1), Score::Mate(1));
        assert_eq!(Score::from_internal(MATE - 3), Score::Mate(2));
        assert_eq!(Score::from_internal(-MATE + 2), Score::Mate(-1));
        assert_eq!(Score::from_internal(-MATE), Score::Mate(0));
        assert_eq!(Score::from_internal(35), Score::Cp(35));
    }
}
