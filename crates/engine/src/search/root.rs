//! The root: the whole search over Lazy SMP threads ([`run`]), iterative
//! deepening with MultiPV lines and aspiration windows, the progress
//! reports and the choice of the move (full strength or limited).

use super::api::{Info, Score, SearchResult, INF, MATE, MATE_BOUND, MAX_PLY};
use super::histories::Histories;
use super::profile::moves_left;
use super::pv::{ponder_from_tt, turns_of_steps};
use super::worker::{Shared, Worker};
use super::Engine;
use crate::limits::{Limits, Signals};
use crate::strength::Rng;
use crate::time::TimeManager;
use crate::tt::Bound;
use springboard_rules::{Move, Position};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// One line of a MultiPV iteration.
#[derive(Clone, Debug)]
struct Line {
    score: i32,
    pv: Vec<Move>,
}

impl Worker<'_, '_> {
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
            self.root_score = None;
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
        self.root_split = root.splits_turn();
        self.root_step = None;
        self.turns[0] = 0;
        for depth in 1..=self.sh.depth_cap {
            let depth = (depth + offset).min(self.sh.depth_cap);
            self.seldepth = 0;
            self.excluded.clear();
            self.excluded.extend_from_slice(&self.sh.banned);
            let mut fresh: Vec<Line> = Vec::new();
            for idx in 0..multipv {
                let prev = lines.get(idx).map(|l| l.score);
                let prev = if multipv == 1 { prev } else { None };
                let score = self.aspiration(root, depth as i32, prev);
                // A stopped search returns no score: a stopped iteration
                // keeps only a root move searched in full, with its score
                // (at least what the root is worth: a lower bound).
                let score = match (self.stopped, self.root_score) {
                    (false, _) => score,
                    (true, Some(s)) => s,
                    (true, None) => break,
                };
                let pv = turns_of_steps(self.sh.tt, root, &self.pv[0]);
                let Some(&first) = pv.first() else { break };
                fresh.push(Line { score, pv });
                if self.stopped {
                    break;
                }
                self.excluded.push(first);
            }
            self.excluded.clear();
            self.excluded.extend_from_slice(&self.sh.banned);
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
                        if let Some(report) = on_info.as_deref_mut() {
                            let time = self.sh.time.elapsed();
                            let nodes = self.total_nodes();
                            report(&Info {
                                depth,
                                seldepth: self.seldepth as u32,
                                multipv: 1,
                                score: Score::from_internal(line.score),
                                bound: Some(Bound::Lower),
                                nodes,
                                nps: nps(nodes, time),
                                time_ms: time.as_millis() as u64,
                                hashfull: self.sh.tt.hashfull(),
                                pv: line.pv.clone(),
                            });
                        }
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
            // A mate (or a weak square, J3) proven within the depth just
            // searched: deeper iterations find no shorter one and only
            // repeat it, so the search ends rather than report depths the
            // game never reaches. A turn is at most two plies (Hop Chess
            // searches its piece move and placement as plies).
            let turns = MATE - best.abs();
            if best.abs() >= MATE_BOUND && depth as i32 >= 2 * turns {
                break;
            }
            if let Some(mate) = self.sh.limits.mate {
                // `mate` comes from outside: any u32.
                let plies = i32::try_from(mate).unwrap_or(i32::MAX).saturating_mul(2);
                if best >= MATE.saturating_sub(plies) {
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
    let time = TimeManager::new(
        limits,
        root.turn(),
        engine.move_overhead_ms,
        start,
        moves_left(root.variant()),
    );
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
    let mut root_moves = root.legal_moves();
    // Moves the caller leaves out, unless that leaves none.
    let banned: Vec<Move> = if root_moves.iter().all(|m| limits.excluded.contains(m)) {
        Vec::new()
    } else {
        root_moves.retain(|m| !limits.excluded.contains(m));
        limits.excluded.clone()
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
        banned,
    };
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
                        let mut w = Worker::new(sh, false, keys, Histories::default());
                        w.iterate(root, count, 1, (id % 2) as u32, None);
                        sh.nodes.fetch_add(w.nodes - w.flushed, Ordering::Relaxed);
                    })
                })
                .collect();
            let hist = std::mem::replace(&mut engine.histories, Histories::none());
            let mut main = Worker::new(&sh, true, keys.clone(), hist);
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
            // The next search of the game starts from what this one learnt.
            engine.histories = std::mem::replace(&mut main.hist, Histories::none());
            (lines, depth, nodes)
        })
    };

    // Only a move some iteration searched (the first one always ends:
    // see `Worker::count_node`); none when the root has no legal move.
    let best = if strength.is_limited() {
        let candidates: Vec<(Move, i32)> = lines.iter().map(|l| (l.pv[0], l.score)).collect();
        let mut rng = Rng::new(start.elapsed().as_nanos() as u64 ^ root.hash());
        strength.pick(&candidates, || rng.next_u64())
    } else {
        lines.first().map(|l| l.pv[0])
    };
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
