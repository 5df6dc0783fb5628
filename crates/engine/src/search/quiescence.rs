//! Quiescence search: captures and queen promotions (every evasion in
//! check) until the position is quiet, with standing pat, delta pruning and
//! exchange filters; and Hop Chess's `place` state, where a turn is half
//! made and a few placements are tried instead.

use super::api::{score_from_tt, score_to_tt, INF, MATE, MATE_BOUND, MAX_PLY};
use super::next_move::next_move;
use super::profile::{mate_probe_at_horizon, quiescence_tt, quiescence_turns};
use super::see::{captured_role, likely_losing, see_ge, value};
use super::step_checks::step_may_check;
use super::worker::Worker;
use crate::eval::evaluate;
use crate::tt::{encode_move, Bound, Entry};
use springboard_rules::{Move, Position};

/// How many placements quiescence tries in Hop Chess's `place` state, in
/// its first turn and in the later ones (more only while each one tried
/// leaves the side mated: see [`Worker::qsearch_place`]).
const QS_PLACEMENTS: usize = 2;
const QS_PLACEMENTS_LATER: usize = 1;

impl Worker<'_, '_> {
    /// Quiescence at `ply`, `qturns` turns past the horizon.
    pub(super) fn qsearch(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qturns: i32,
    ) -> i32 {
        self.pv[ply].clear();
        if self.count_node() {
            return 0;
        }
        let turns = self.turns[ply];
        self.seldepth = self.seldepth.max(turns as usize);
        if let Some(score) = self.weak_square_score(pos, ply) {
            return score;
        }
        if pos.placement_pending() {
            return self.qsearch_place(pos, alpha, beta, ply, qturns);
        }
        let in_check = pos.is_check();
        if ply >= MAX_PLY - 1 {
            return if in_check { 0 } else { evaluate(pos) };
        }
        // Chains of captures, checks and evasions could go on for dozens
        // of turns: quiescence ends after a few (a mate is still seen;
        // otherwise the position is judged as it stands).
        if qturns >= quiescence_turns(pos.variant()) {
            if in_check {
                let mut moves = std::mem::take(&mut self.lists[ply]);
                moves.clear();
                pos.legal_steps_into(&mut moves);
                let mated = moves.is_empty();
                self.lists[ply] = moves;
                if mated {
                    return -MATE + turns;
                }
            }
            return evaluate(pos);
        }
        if pos.is_insufficient_material() {
            return 0;
        }
        let use_tt = quiescence_tt(pos.variant());
        let mut tt_move = 0;
        // An entry of the main search is kept (it is deeper).
        let mut store = use_tt;
        if use_tt {
            if let Some(e) = self.sh.tt.probe(pos.hash()) {
                if let Some(s) = tt_cut(&e, alpha, beta, turns) {
                    return s;
                }
                tt_move = e.mv;
                store = e.depth == 0;
            }
        }
        let alpha0 = alpha;
        let mut best_move: Option<Move> = None;
        let mut best = -INF;
        let mut stand = -INF;
        if !in_check {
            let raw = self.eval_cache.evaluate(pos);
            stand = self.corrected(pos, raw);
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
            best = stand;
        }
        // At the horizon of the first iteration (one turn deep), where a
        // mating turn is a quiet step and a checking placement that
        // captures alone never find, nor the evasions of a check (their
        // placements that check are tried only when the others are
        // mated; in Hop Chess the evasion that moves a trampoline away
        // may mate at once). From depth 2 on the main search sees every
        // checking reply (placements that check are never pruned there),
        // so the probe, dear in a Hop Chess leaf, is not made.
        if qturns == 0 && self.iteration_depth <= 1 && mate_probe_at_horizon(pos.variant()) {
            if self.mates_in_one(pos, ply) {
                return MATE - (turns + 1);
            }
            if self.stopped {
                return 0;
            }
        }
        let mut moves = std::mem::take(&mut self.lists[ply]);
        moves.clear();
        // In check where legality is dear (the trampoline games), the
        // candidate steps, each tested when it is picked, as in the main
        // search: a cut after the first evasion pays for one test.
        let deferred = in_check && pos.defers_legality();
        if deferred {
            pos.step_candidates_into(&mut moves);
        } else if in_check {
            pos.legal_steps_into(&mut moves);
        } else {
            // Only captures and queen promotions, and only their legality
            // tested (the rules core asks the filter first, or does not
            // look for quiet moves at all): most steps are quiet, and a
            // Hop Chess step's legality test is dear.
            pos.legal_noisy_steps_into(&mut moves);
        }
        if moves.is_empty() && (in_check || !pos.has_legal_step()) {
            self.lists[ply] = moves;
            return if in_check { -MATE + turns } else { 0 };
        }
        self.lists[ply] = moves;
        self.score_moves(pos, ply, tt_move, true);
        let ctx = self.begin_candidates(pos, ply, deferred);
        let count = self.lists[ply].len();
        for i in 0..count {
            let m = next_move!(self, pos, deferred, &ctx, ply, i);
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
                self.qsearch(&child, alpha, beta, ply + 1, qturns)
            } else {
                self.turns[ply + 1] = turns + 1;
                -self.qsearch(&child, -beta, -alpha, ply + 1, qturns + 1)
            };
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(m);
                    self.set_pv(ply, m);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        if self.no_legal_candidate(deferred, ply) {
            // Every candidate was illegal: mated.
            return -MATE + turns;
        }
        if store {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > alpha0 {
                Bound::Exact
            } else {
                Bound::Upper
            };
            let mv = best_move.map_or(0, encode_move);
            self.sh
                .tt
                .store(pos.hash(), mv, score_to_tt(best, turns), 0, bound);
        }
        best
    }

    /// Whether the side to move has a turn that mates: a
    /// step that may check with its placement ([`step_may_check`]), then a
    /// placement of the rules core's checking set after which the other
    /// side has no legal step. Every position it makes counts as a node.
    fn mates_in_one(&mut self, pos: &Position, ply: usize) -> bool {
        let mut steps = std::mem::take(&mut self.lists[ply + 1]);
        let mut places = std::mem::take(&mut self.lists[ply + 2]);
        steps.clear();
        pos.legal_steps_filtered_into(&mut steps, |m| step_may_check(pos, m));
        let mut found = false;
        'steps: for &m in &steps {
            if self.count_node() {
                break;
            }
            let mut child = pos.clone();
            child.play_step(m);
            let checking = child.checking_placements();
            if checking.is_empty() {
                continue;
            }
            places.clear();
            child.legal_steps_filtered_into(&mut places, |p| {
                p.to().is_some_and(|to| checking.contains(to))
            });
            for &p in &places {
                if self.count_node() {
                    break 'steps;
                }
                let mut after = child.clone();
                after.play_step(p);
                if !after.has_legal_step() {
                    debug_assert!(after.is_check(), "a checking placement checks");
                    found = true;
                    break 'steps;
                }
            }
        }
        self.lists[ply + 1] = steps;
        self.lists[ply + 2] = places;
        found
    }

    /// Quiescence in Hop Chess's `place` state: the turn is not over, so
    /// there is no standing pat. The side tries the few placements that do
    /// not give check the ordering likes best (the table's move, attacks
    /// through the trampoline, no exposed pieces) and takes the best: a
    /// lower bound of the turn's worth, as cheap as a capture or two.
    ///
    /// A lower bound that says "mated" proves nothing (another placement
    /// may escape): while every placement tried leaves the side mated, it
    /// tries the next one, checks included, so that a mated score comes
    /// only when every placement was searched.
    fn qsearch_place(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qturns: i32,
    ) -> i32 {
        let turns = self.turns[ply];
        let alpha0 = alpha;
        // The table first: a cut spares listing and ordering the placements.
        let use_tt = quiescence_tt(pos.variant());
        let entry = self.sh.tt.probe(pos.hash());
        if use_tt {
            if let Some(s) = entry.and_then(|e| tt_cut(&e, alpha, beta, turns)) {
                return s;
            }
        }
        let mut moves = std::mem::take(&mut self.lists[ply]);
        moves.clear();
        pos.legal_steps_into(&mut moves);
        if moves.is_empty() {
            // Not after a legal piece step (see `search`).
            self.lists[ply] = moves;
            return -MATE + turns;
        }
        self.lists[ply] = moves;
        let tt_move = entry.map_or(0, |e| e.mv);
        self.score_moves(pos, ply, tt_move, true);
        let count = self.lists[ply].len();
        let quota = if qturns == 0 {
            QS_PLACEMENTS
        } else {
            QS_PLACEMENTS_LATER
        };
        let mut best = -INF;
        let mut tried = 0;
        // The rules core's exact set: no placement is played to see that
        // it checks.
        let gives_check = pos.checking_placements();
        let mut checking: Vec<Move> = Vec::new();
        let mut i = 0;
        loop {
            // No checks: each would make the other side search all its
            // evasions, and placements that check come cheap, so check
            // would follow check. Only when every placement checks (the
            // piece step checked already), or while every placement tried
            // is mated, are they tried.
            let m = if i < count {
                let m = self.pick(ply, i);
                i += 1;
                if m.to().is_some_and(|to| gives_check.contains(to)) {
                    checking.push(m);
                    continue;
                }
                m
            } else if tried == 0 || best <= -MATE_BOUND {
                if checking.is_empty() {
                    break;
                }
                checking.remove(0)
            } else {
                break;
            };
            let mut child = pos.clone();
            child.play_step(m);
            tried += 1;
            self.turns[ply + 1] = turns + 1;
            let score = -self.qsearch(&child, -beta, -alpha, ply + 1, qturns + 1);
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
            if tried >= quota && best > -MATE_BOUND {
                break;
            }
        }
        if use_tt && best > -INF && entry.is_none_or(|e| e.depth == 0) {
            // The placements tried give a lower bound of the turn's worth
            // (a mated score only when every placement was tried).
            let mv = if best > alpha0 {
                self.pv[ply].first().map_or(0, |&m| encode_move(m))
            } else {
                0
            };
            self.sh
                .tt
                .store(pos.hash(), mv, score_to_tt(best, turns), 0, Bound::Lower);
        }
        best
    }
}

/// A cut of quiescence by the table's entry `e` at a node with the window
/// `(alpha, beta)`, `turns` turns from the root: only at non-PV nodes
/// (a zero window), where the entry's bound decides the window.
fn tt_cut(e: &Entry, alpha: i32, beta: i32, turns: i32) -> Option<i32> {
    if beta - alpha > 1 {
        return None;
    }
    let s = score_from_tt(e.score, turns);
    let cut = match e.bound {
        Bound::Exact => true,
        Bound::Lower => s >= beta,
        Bound::Upper => s <= alpha,
    };
    cut.then_some(s)
}
