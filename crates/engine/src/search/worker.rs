//! The search worker: one thread's state and its principal-variation
//! alpha-beta search (transposition table cuts, reverse futility and
//! null-move pruning, late-move reductions and pruning, check extensions,
//! draw detection). Quiescence, ordering and the root loop are `impl
//! Worker` blocks in their own modules.

use super::api::{score_from_tt, score_to_tt, INF, MATE, MATE_BOUND, MAX_PLY};
use super::eval_cache::EvalCache;
use super::histories::{Histories, NO_CONT};
use super::next_move::next_move;
use super::profile::{
    cheap_checks, half_steps, internal_reduction, null_move_allowed, piece_step_checks,
    quiet_futility, singular_extensions, threat_to_end,
};
use super::see::{is_capture, see_ge};
use super::step_checks::{played_step_may_check, step_may_check};
use crate::eval::evaluate;
use crate::limits::{Limits, Signals};
use crate::time::TimeManager;
use crate::tt::{encode_move, Bound, Tt};
use springboard_rules::{Move, MoveList, Position};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// What the threads of one search share.
pub(super) struct Shared<'a> {
    pub(super) tt: &'a Tt,
    pub(super) signals: &'a Signals,
    pub(super) limits: &'a Limits,
    pub(super) time: TimeManager,
    /// Set when the main thread is done: helpers stop.
    pub(super) abort: AtomicBool,
    /// Nodes flushed by every thread.
    pub(super) nodes: AtomicU64,
    pub(super) depth_cap: u32,
    pub(super) node_cap: Option<u64>,
    /// Root turns left out (`Limits::excluded`), handled as MultiPV lines
    /// found before (see [`Worker::excludes`]).
    pub(super) banned: Vec<Move>,
}

/// Late-move pruning of placements: at a non-PV `place` node, the first
/// `PLACEMENT_LMP + depth * depth` placements are searched.
const PLACEMENT_LMP: i32 = 3;

/// Futility pruning of quiet moves: a quiet move at a node whose static
/// evaluation is below `alpha - FUTILITY_BASE - FUTILITY_STEP * d` (`d`
/// the depth left after its late-move reduction) is not searched.
const FUTILITY_BASE: i32 = 100;
const FUTILITY_STEP: i32 = 110;

/// Exchange pruning of quiet moves: a quiet move losing more than
/// `SEE_QUIET * d * d` (`d` the depth after its reduction) is not searched.
const SEE_QUIET: i32 = 30;

/// Internal iterative reduction: from this depth, a node without a table
/// move is searched a ply shallower.
const IIR_DEPTH: i32 = 4;

/// Late-move reductions shrink by one for each `LMR_HISTORY` of history
/// score (and grow for a negative one).
const LMR_HISTORY: i32 = 8192;

/// Singular extensions: from this depth, a table move whose lower bound
/// is at most `SINGULAR_DEPTH_SLACK` plies shallower than the node is
/// extended by a ply when every other move fails low against its score
/// less `SINGULAR_MARGIN` x depth / 8 at half the depth.
const SINGULAR_DEPTH: i32 = 8;
const SINGULAR_DEPTH_SLACK: i32 = 3;
const SINGULAR_MARGIN: i32 = 16;

/// The history bonus of a quiet move that cuts at `depth` (and the malus
/// of the quiet moves tried before it): large enough against the bound
/// of the tables (`ordering`'s `HISTORY_MAX`) that recent cuts
/// outweigh old ones.
fn history_bonus(depth: i32) -> i32 {
    (44 * depth * depth + 200 * depth - 200).clamp(0, 4000)
}

pub(super) struct Worker<'a, 'b> {
    pub(super) sh: &'b Shared<'a>,
    pub(super) main: bool,
    pub(super) nodes: u64,
    pub(super) flushed: u64,
    pub(super) seldepth: usize,
    pub(super) stopped: bool,
    /// Keys of the game's positions and of the current search path; the
    /// current position's key is last.
    pub(super) keys: Vec<u64>,
    /// Index of the first key a repetition may match (after a null move,
    /// earlier positions do not count).
    pub(super) null_floor: usize,
    pub(super) killers: Vec<[Option<Move>; 2]>,
    /// History and continuation history (see [`Histories`]).
    pub(super) hist: Histories,
    pub(super) pv: Vec<Vec<Move>>,
    pub(super) lists: Vec<MoveList>,
    pub(super) order: Vec<Vec<i32>>,
    /// Per ply, whether the move at each index of `lists` is known to be
    /// legal (nodes whose list holds candidates, see [`Worker::pick_legal`]).
    pub(super) known: Vec<Vec<bool>>,
    pub(super) quiets: Vec<Vec<Move>>,
    /// Root moves (whole turns) a MultiPV iteration leaves out.
    pub(super) excluded: Vec<Move>,
    pub(super) lmr: Vec<[i32; 64]>,
    /// Turns from the root to each ply of the search stack: the unit of
    /// mate scores. A Hop Chess turn searched as two half-steps is two
    /// plies of the stack and one turn.
    pub(super) turns: Vec<i32>,
    /// Whether the root's steps are Hop Chess piece steps (the root's
    /// turns are then a root step and a placement at ply 1).
    pub(super) root_split: bool,
    /// The root step being searched, when `root_split`.
    pub(super) root_step: Option<Move>,
    /// The depth of the current iteration.
    pub(super) iteration_depth: i32,
    /// The score of the best root move of the current root search, once
    /// one has been searched in full (what a stopped iteration may keep).
    pub(super) root_score: Option<i32>,
    /// The static evaluation of each node of the search path (`-INF` in
    /// check, in Hop Chess's `place` state, or not evaluated).
    pub(super) evals: Vec<i32>,
    /// The continuation index of the step played from each node of the
    /// search path (`NO_CONT` after a null move).
    pub(super) played: Vec<usize>,
    /// The static evaluations of positions met before in this search.
    pub(super) eval_cache: EvalCache,
    /// Per ply, the table move a singular-extension search leaves out
    /// ([`encode_move`], 0 for none).
    pub(super) singular: Vec<u32>,
}

impl<'a, 'b> Worker<'a, 'b> {
    pub(super) fn new(sh: &'b Shared<'a>, main: bool, keys: Vec<u64>, hist: Histories) -> Self {
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
            hist: hist.or_fresh(),
            pv: vec![Vec::new(); MAX_PLY + 2],
            lists: (0..MAX_PLY + 2)
                .map(|_| MoveList::with_capacity(64))
                .collect(),
            order: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(64)).collect(),
            known: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(64)).collect(),
            quiets: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(64)).collect(),
            excluded: Vec::new(),
            lmr,
            turns: vec![0; MAX_PLY + 2],
            root_split: false,
            root_step: None,
            iteration_depth: 0,
            root_score: None,
            evals: vec![-INF; MAX_PLY + 2],
            played: vec![NO_CONT; MAX_PLY + 2],
            eval_cache: EvalCache::new(),
            singular: vec![0; MAX_PLY + 2],
        }
    }

    pub(super) fn total_nodes(&self) -> u64 {
        self.sh.nodes.load(Ordering::Relaxed) + self.nodes - self.flushed
    }

    /// Counts a node and tells whether the search must stop.
    pub(super) fn count_node(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        // The main thread's first iteration always ends (it is bounded:
        // one turn and quiescence): no move or score is reported that no
        // search produced.
        let first = self.main && self.iteration_depth <= 1;
        if self.main && !first {
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
            if (told || late) && !first {
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
        if half_steps(pos.variant()) {
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

    pub(super) fn set_pv(&mut self, ply: usize, m: Move) {
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

    /// Whether the static evaluation `eval` of the node at `ply` is
    /// better than at the same side's previous turn start on the path
    /// (the earliest node of the turn two turns back: two plies back in
    /// every game but Hop Chess, whose turns are two steps of a side).
    /// False when that node was not evaluated (in check) or is not on
    /// the path.
    fn improving(&self, ply: usize, eval: i32) -> bool {
        let want = self.turns[ply] - 2;
        let mut before = None;
        for p in (0..ply).rev() {
            match self.turns[p] {
                t if t == want => before = Some(self.evals[p]),
                t if t < want => break,
                _ => {}
            }
        }
        before.is_some_and(|b| b > -INF && eval > b)
    }

    /// Jumping King (J3): the score of a position the weak squares decide.
    /// The side to move has lost when its own is taken; it wins one turn
    /// on when it can take the enemy's (a quiet move, which pruning and
    /// quiescence could skip), that move its line. The root searches its
    /// moves instead, to have one to play.
    pub(super) fn weak_square_score(&mut self, pos: &Position, ply: usize) -> Option<i32> {
        let turns = self.turns[ply];
        if pos.weak_square_taken() {
            return Some(-MATE + turns);
        }
        if ply == 0 {
            return None;
        }
        let m = pos.weak_square_win()?;
        self.pv[ply + 1].clear();
        self.set_pv(ply, m);
        Some(MATE - (turns + 1))
    }

    pub(super) fn search(
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
        if let Some(score) = self.weak_square_score(pos, ply) {
            return score;
        }
        let in_check = pos.is_check();
        // Hop Chess: the piece step of the turn is made, the placement is
        // searched here at the depth of the turn (the pruning decisions of
        // the turn were taken at its piece step).
        let place = pos.placement_pending();
        // Check extension; where checks come cheap, only within the
        // iteration's depth (in turns, see [`cheap_checks`]).
        let extend = !cheap_checks(pos.variant()) || (depth > 0 && turns < self.iteration_depth);
        let depth = if in_check && ply < MAX_PLY / 2 && extend {
            depth + 1
        } else {
            depth
        };
        if depth <= 0 {
            return self.qsearch(pos, alpha, beta, ply, 0);
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
        // A singular-extension search of this node, leaving out its
        // table move: no table cut, no pruning of the whole node, no
        // store (its result lacks a move).
        let singular = self.singular[ply];
        let entry = self.sh.tt.probe(key);
        let tt_move = entry.map_or(0, |e| e.mv);
        if let Some(e) = entry {
            if !pv_node && !multipv_pass && singular == 0 && e.depth >= depth {
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

        // Internal iterative reduction: a node the table knows no move of
        // is searched a ply shallower (its ordering is a guess).
        let depth = if tt_move == 0 && depth >= IIR_DEPTH && !root && internal_reduction(pos) {
            depth - 1
        } else {
            depth
        };

        let raw_eval = if in_check || place {
            -INF
        } else {
            self.eval_cache.evaluate(pos)
        };
        let static_eval = if raw_eval > -INF {
            self.corrected(pos, raw_eval)
        } else {
            -INF
        };
        self.evals[ply] = static_eval;
        let improving = static_eval > -INF && self.improving(ply, static_eval);
        // The table's score, where its bound tells that the position is
        // worth more (a lower bound above) or less (an upper bound below)
        // than the static evaluation: the better guess for the pruning.
        let eval = match entry {
            Some(e) if static_eval > -INF => {
                let s = score_from_tt(e.score, turns);
                let tells = if s > static_eval {
                    e.bound != Bound::Upper
                } else {
                    e.bound != Bound::Lower
                };
                if s.abs() < MATE_BOUND && tells {
                    s
                } else {
                    static_eval
                }
            }
            _ => static_eval,
        };
        // Whether the side to move must answer a threat to end the game
        // (`threat_to_end`), asked once and only where pruning would
        // assume the position can wait.
        let mut threat: Option<bool> = None;
        let mut threatened = || *threat.get_or_insert_with(|| threat_to_end(pos));
        if !pv_node && !in_check && !root && !place && singular == 0 {
            // Reverse futility pruning.
            let margin = 90 * (depth - i32::from(improving));
            if depth <= 6 && eval - margin >= beta && eval < MATE_BOUND && !threatened() {
                return eval;
            }
            // Null-move pruning.
            if !after_null
                && depth >= 3
                && eval >= beta
                && beta > -MATE_BOUND
                && null_move_allowed(pos)
            {
                let r = 3 + depth / 4 + ((eval - beta) / 200).min(3);
                let mut child = pos.clone();
                child.play_null();
                self.played[ply] = NO_CONT;
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

        // Singular extension: a table move that alone holds the node's
        // score (every other move fails low against a bound a little
        // under it, at half the depth) is searched a ply deeper. If
        // that bound is at or above beta, other moves hold too: the
        // node fails high without a full search (multi-cut).
        let mut tt_extension = 0;
        if let Some(e) = entry {
            let tt_score = score_from_tt(e.score, turns);
            if !root
                && singular == 0
                && tt_move != 0
                && depth >= SINGULAR_DEPTH
                && e.depth >= depth - SINGULAR_DEPTH_SLACK
                && e.bound != Bound::Upper
                && tt_score.abs() < MATE_BOUND
                && !place
                && singular_extensions(pos.variant())
                && !multipv_pass
                && turns < 2 * self.iteration_depth
            {
                let s_beta = tt_score - SINGULAR_MARGIN * depth / 8;
                self.singular[ply] = tt_move;
                let s = self.search(pos, (depth - 1) / 2, s_beta - 1, s_beta, ply, after_null);
                self.singular[ply] = 0;
                // (The node's line is its own, not the one found here.)
                self.pv[ply].clear();
                if self.stopped {
                    return 0;
                }
                if s < s_beta {
                    tt_extension = 1;
                } else if s_beta >= beta {
                    return s_beta;
                }
            }
        }

        let mut moves = std::mem::take(&mut self.lists[ply]);
        moves.clear();
        // Where legality is dear (a Hop Chess piece step), the candidate
        // steps, each tested when it is picked (`pick_legal`): a cut after
        // the first move pays for one test. The root and its MultiPV
        // exclusions take the legal list.
        let deferred = !root && !excludes && pos.defers_legality();
        if deferred {
            pos.step_candidates_into(&mut moves);
        } else {
            pos.legal_steps_into(&mut moves);
        }
        // With no legal step: mate or stalemate. A piece step is legal
        // only when a placement follows it, so a `place` node always has
        // moves; none would be a broken turn.
        let no_step = if in_check || place { -MATE + turns } else { 0 };
        if moves.is_empty() {
            self.lists[ply] = moves;
            return no_step;
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
        let ctx = self.begin_candidates(pos, ply, deferred);
        let mut quiets = std::mem::take(&mut self.quiets[ply]);
        quiets.clear();

        let mut best = -INF;
        let mut best_move: Option<Move> = None;
        let mut searched = 0;
        let count = self.lists[ply].len();
        let step_checks = place && piece_step_checks(pos);
        let checking = pos.checking_placements();
        // Whether the moves after a late-move-pruned one were looked at
        // for one that could still be searched (see the pruning below).
        let mut tail_scanned = false;
        // A Hop Chess frontier, where late-move pruning spares the steps
        // that may check with their placement.
        let spares_checks = depth == 1 && half_steps(pos.variant());
        for i in 0..count {
            let m = next_move!(self, pos, deferred, &ctx, ply, i);
            if singular != 0 && encode_move(m) == singular {
                continue;
            }
            let capture = is_capture(pos, m);
            let quiet = !capture && m.promotion_role().is_none();
            let killer = self.killers[ply].contains(&Some(m));
            if !root && !pv_node && !in_check && best > -MATE_BOUND {
                // Late-move pruning of quiet moves (placements below).
                // At the frontier, not a Hop Chess step that may check with
                // its placement (a mating turn one turn past the horizon
                // is often one: tests/hop_chess_mates.rs).
                let lmp = if improving {
                    4 + 3 * depth * depth
                } else {
                    (4 + 3 * depth * depth) * 2 / 3
                };
                if !place
                    && quiet
                    && depth <= 4
                    && searched >= lmp
                    && !(spares_checks && step_may_check(pos, m))
                    && !threatened()
                {
                    // Every later quiet move goes too (the test only gets
                    // truer): with nothing else left, the node is done
                    // (not where steps that may check are spared).
                    if !(tail_scanned || spares_checks) {
                        tail_scanned = true;
                        if self.lists[ply][i + 1..]
                            .iter()
                            .all(|&r| !is_capture(pos, r) && r.promotion_role().is_none())
                        {
                            break;
                        }
                    }
                    continue;
                }
                // Losing captures near the leaves.
                if capture && depth <= 4 && !see_ge(pos, m, -120 * depth) && !threatened() {
                    continue;
                }
            }
            // Late-move pruning of placements: most of the thirty-odd
            // squares do about the same, and the ordering puts the ones
            // that check, attack or keep pieces safe first, so the late
            // ones go at every depth. Not after a piece step that checks:
            // every placement checks then, and the one that mates (or
            // does not let the enemy out) may be anywhere. Never a
            // placement that checks: it may mate (the ordering's guess of
            // checks misses some bounces; the rules core's set of
            // checking placements is exact, and spares playing the
            // pruned ones).
            if place
                && !pv_node
                && !step_checks
                && best > -MATE_BOUND
                && searched >= PLACEMENT_LMP + depth * depth
                && !m.to().is_some_and(|to| checking.contains(to))
            {
                // Every later placement but a checking one goes too: with
                // none of those left, the node is done.
                if !tail_scanned {
                    tail_scanned = true;
                    if !self.lists[ply][i + 1..]
                        .iter()
                        .any(|r| r.to().is_some_and(|to| checking.contains(to)))
                    {
                        break;
                    }
                }
                continue;
            }
            let mut child = pos.clone();
            child.play_step(m);
            let same = child.turn() == pos.turn();
            let gives_check = child.is_check();
            // Futility pruning of quiet moves: near the leaves, a quiet
            // move of a side far below alpha is left out, unless it checks
            // (in Hop Chess, where a turn starts, unless its placement may
            // check: the mates of tests/hop_chess_mates.rs).
            if quiet
                && !root
                && !pv_node
                && !in_check
                && !gives_check
                && !place
                && searched > 0
                && best > -MATE_BOUND
                && quiet_futility(pos.variant())
            {
                let lmr_depth = depth - self.lmr[depth.min(63) as usize][searched.min(63) as usize];
                let futile =
                    lmr_depth <= 6 && eval + FUTILITY_BASE + FUTILITY_STEP * lmr_depth <= alpha;
                // Exchange pruning: a quiet move onto a square where it is
                // lost (only where the exchange holds, `see_ge`).
                let lost = || {
                    let d = lmr_depth.max(0);
                    d <= 8 && !see_ge(pos, m, -SEE_QUIET * d * d)
                };
                if (futile || lost())
                    && !(half_steps(pos.variant()) && played_step_may_check(&child))
                    && !threatened()
                {
                    continue;
                }
            }
            self.played[ply] = Self::cont_index(pos, m);
            self.keys.push(child.hash());
            self.turns[ply + 1] = turns + i32::from(!same);
            if root && self.root_split {
                self.root_step = Some(m);
            }
            // The placement step of a turn is searched at the turn's depth.
            let mut new_depth = if same { depth } else { depth - 1 };
            if tt_extension > 0 && encode_move(m) == tt_move {
                new_depth += tt_extension;
            }
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
                    if !improving && !place {
                        r += 1;
                    }
                    r -= self.quiet_score(pos, ply, m) / LMR_HISTORY;
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
                    if root {
                        self.root_score = Some(score);
                    }
                    if score >= beta {
                        if quiet {
                            self.add_killer(ply, m);
                            let bonus = history_bonus(depth);
                            self.update_quiet(pos, ply, m, bonus);
                            for &q in &quiets {
                                self.update_quiet(pos, ply, q, -bonus);
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
        if singular != 0 && searched == 0 {
            // Only the left-out move (or none searched): it alone holds.
            return alpha;
        }
        if self.no_legal_candidate(deferred, ply) {
            // Every candidate was illegal.
            return no_step;
        }

        let bound = if best >= beta {
            Bound::Lower
        } else if best_move.is_some() {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // Correction history: a result that tells more than the static
        // evaluation (a lower bound above it, an upper bound below it),
        // unless a capture or promotion made it.
        if raw_eval > -INF
            && singular == 0
            && best.abs() < MATE_BOUND
            && best_move.is_none_or(|m| !is_capture(pos, m) && m.promotion_role().is_none())
            && !(bound == Bound::Lower && best <= static_eval)
            && !(bound == Bound::Upper && best >= static_eval)
        {
            self.update_correction(pos, depth, best, raw_eval);
        }
        if !multipv_pass && singular == 0 {
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use springboard_rules::notation::uci::parse_uci;
    use springboard_rules::Variant;
    use std::time::Instant;

    fn shared<'a>(tt: &'a Tt, signals: &'a Signals, limits: &'a Limits) -> Shared<'a> {
        Shared {
            tt,
            signals,
            limits,
            time: TimeManager::new(
                limits,
                springboard_rules::Color::White,
                0,
                Instant::now(),
                30,
            ),
            abort: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            depth_cap: 10,
            node_cap: None,
            banned: Vec::new(),
        }
    }

    #[test]
    fn repetition_since_last_irreversible_move() {
        let tt = Tt::new(1);
        let (signals, limits) = (Signals::new(), Limits::default());
        let sh = shared(&tt, &signals, &limits);
        let mut pos = Position::startpos(Variant::Chess);
        let mut w = Worker::new(&sh, true, vec![pos.hash()], Histories::default());
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

    /// Correction history: the slot of a side to move and its pawns
    /// moves towards the searches' results less the raw static
    /// evaluation, weighted by depth and bounded by 64 centipawns, and
    /// the other side's slot stays as it was.
    #[test]
    fn correction_history_learns_results_less_evaluations() {
        let tt = Tt::new(1);
        let (signals, limits) = (Signals::new(), Limits::default());
        let sh = shared(&tt, &signals, &limits);
        let mut w = Worker::new(&sh, true, Vec::new(), Histories::default());
        let white = Position::startpos(Variant::Chess);
        let mut black = white.clone();
        black.play(parse_uci(&black, "g1f3").unwrap());
        assert_eq!(w.corrected(&white, 10), 10);
        // One result at depth 3: a weight of 4/256 of 30 cp.
        w.update_correction(&white, 3, 40, 10);
        assert_eq!(w.corrected(&white, 10), 10);
        for _ in 0..400 {
            w.update_correction(&white, 20, 40, 10);
        }
        // The entries are in 1/256 cp, and both the update and the
        // reading round towards zero: the correction stops a centipawn
        // short (here of 30, below of the bound, 64).
        assert_eq!(w.corrected(&white, 10), 39);
        assert_eq!(w.corrected(&white, -500), -471);
        assert_eq!(w.corrected(&black, 10), 10);
        for _ in 0..400 {
            w.update_correction(&black, 20, -2000, 0);
        }
        assert_eq!(w.corrected(&black, 0), -63);
        assert_eq!(w.corrected(&white, 10), 39);
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
        let mut w = Worker::new(&sh, true, keys, Histories::default());
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

    /// `next_move!` over the candidate steps of the games that defer
    /// legality (Hop Chess, Trampoline Chess), readied by
    /// `begin_candidates`, picks the very moves, in the very order, that
    /// it picks over the legal steps alone,
    /// with the same scores (many of them tied, so that the order of ties
    /// is tested too), and then reports that none is left.
    #[test]
    fn next_move_over_candidates_is_next_move_over_the_legal_list() {
        let tt = Tt::new(1);
        let (signals, limits) = (Signals::new(), Limits::default());
        let sh = shared(&tt, &signals, &limits);
        let mut w = Worker::new(&sh, true, Vec::new(), Histories::default());
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = |n: usize| {
            seed ^= seed >> 12;
            seed ^= seed << 25;
            seed ^= seed >> 27;
            (seed.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
        };
        let score = |m: Move| (encode_move(m).wrapping_mul(2_654_435_761) >> 7) as i32 % 4;
        for variant in [Variant::HopChess, Variant::Trampoline] {
            let (mut nodes, mut rejected) = (0, 0);
            for _game in 0..40 {
                let mut pos = Position::startpos(variant);
                for _step in 0..160 {
                    let mut legal = MoveList::new();
                    pos.legal_steps_into(&mut legal);
                    if legal.is_empty() {
                        break;
                    }
                    if pos.defers_legality() {
                        let mut candidates = MoveList::new();
                        pos.step_candidates_into(&mut candidates);
                        rejected += candidates.len() - legal.len();
                        w.order[0] = legal.iter().map(|&m| score(m)).collect();
                        w.lists[0] = legal.clone();
                        w.order[1] = candidates.iter().map(|&m| score(m)).collect();
                        w.lists[1] = candidates;
                        let ctx = w.begin_candidates(&pos, 1, true);
                        let mut picked = 0;
                        for i in 0..legal.len() {
                            let want = next_move!(w, &pos, false, &ctx, 0, i);
                            let got = next_move!(w, &pos, true, &ctx, 1, i);
                            assert_eq!(got, want, "{}", pos.to_fen());
                            picked += 1;
                        }
                        assert_eq!(picked, legal.len());
                        assert_eq!(w.pick_legal(&pos, &ctx, 1, legal.len()), None);
                        assert!(!w.no_legal_candidate(true, 1));
                        nodes += 1;
                    }
                    pos.play_step(legal[next(legal.len())]);
                }
            }
            assert!(
                nodes > 2_000 && rejected > 500,
                "{variant:?}: {nodes} {rejected}"
            );
        }
    }
}
