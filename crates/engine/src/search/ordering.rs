//! Move ordering: the scores that decide which moves the search tries
//! first (the table's move, captures by MVV-LVA and exchange, promotions,
//! killers, history) and, for Hop Chess's placement step, a cheap guess at
//! what each placement is worth ([`PlacementGuess`], from the rules core's
//! [`Reach`] through a trampoline).

use super::eval_cache::pawn_mix;
use super::histories::{
    CONT_SIZE, CORR_ENTRIES, CORR_GRAIN, CORR_MAX, CORR_SCALE, CORR_WEIGHT, NO_CONT,
};
use super::profile::continuation_history;
use super::see::{see_ge, value};
use super::worker::Worker;
use crate::tt::{destination_code, encode_move, square_code};
use springboard_rules::facts::Reach;
use springboard_rules::{
    Bitboard, Board, CandidateContext, Color, Move, MoveKind, MoveList, Position, Role, Square,
};

/// The bound of history scores.
const HISTORY_MAX: i32 = 16_384;

/// Ordering scores, best first. The table's move.
const TT_MOVE: i32 = 4_000_000;
/// A capture that does not lose material (or any capture in quiescence),
/// plus its MVV-LVA score.
const GOOD_CAPTURE: i32 = 2_000_000;
/// A promotion to a queen.
const QUEEN_PROMOTION: i32 = 1_900_000;
/// The ordering score of a checking placement (above killers, below the
/// TT move).
const PLACEMENT_CHECK: i32 = 1_200_000;
/// The newer and the older killer move of the ply.
const KILLERS: [i32; 2] = [1_000_000, 900_000];
/// A capture that loses material, plus its MVV-LVA score.
const BAD_CAPTURE: i32 = -1_000_000;
/// A promotion to anything but a queen.
const UNDER_PROMOTION: i32 = -2_000_000;

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

/// Every role, by falling exchange [`value`] (a test keeps it so).
const BY_VALUE: [Role; 7] = [
    Role::King,
    Role::Queen,
    Role::Rook,
    Role::Bishop,
    Role::Knight,
    Role::Hoplit,
    Role::Pawn,
];

/// A cheap guess at what a Hop Chess placement is worth, for move
/// ordering. Either trampoline serves both sides (H4), so a placement on
/// `s` gives the mover's pieces new targets and the enemy's pieces new
/// targets too: checks first, then the most valuable enemy piece attacked
/// through `s` minus the most valuable own piece exposed through it (a
/// piece bounces once off `s` and goes on with the same kind of leg,
/// [`Reach::through`]).
///
/// Every square's guess is made at once, from the pieces attacked: a
/// piece on `p` is attacked through `s` by a kind of leg exactly when `s`
/// is reached by that kind and the same leg from `p` reaches `s` (the
/// lines between two squares do not depend on which end one starts
/// from; a pawn attacks `p` from the squares a pawn of the other colour
/// on `p` attacks). So a node looks up the legs of its thirty-odd pieces
/// instead of those of sixty-odd squares for each side.
struct PlacementGuess {
    /// Each square's guess but the bonus for staying.
    scores: [i32; 64],
    stay: Option<Square>,
}

impl PlacementGuess {
    fn new(pos: &Position) -> PlacementGuess {
        let b = pos.board();
        let us = pos.turn();
        let kings = b.by_role(Role::King);
        let ours = Reach::of(b, us);
        let theirs = Reach::of(b, !us);
        let occ = b.occupied();
        let gain = Self::best_values(b, occ, &ours, us, b.by_color(!us) & !kings);
        let risk = Self::best_values(b, occ, &theirs, !us, b.by_color(us) & !kings);
        let checks = b.king_of(!us).map_or(Bitboard::EMPTY, |k| {
            Self::attacked_from(&ours, us, Bitboard::from_square(k), occ)
        });
        let mut scores = [0; 64];
        for (score, (g, r)) in scores.iter_mut().zip(gain.iter().zip(&risk)) {
            *score = 32 * (g - r);
        }
        for k in checks {
            scores[k.index()] += PLACEMENT_CHECK;
        }
        PlacementGuess {
            scores,
            stay: pos.trampoline(us),
        }
    }

    /// The squares `s` through which the pieces of `color`, whose reach
    /// is `reach`, would attack some piece on `targets`: the `s` for
    /// which `reach.through(s, occ, color)` meets `targets`.
    #[inline]
    fn attacked_from(reach: &Reach, color: Color, targets: Bitboard, occ: Bitboard) -> Bitboard {
        use springboard_rules::attacks::{
            bishop_attacks, knight_attacks, pawn_attacks, rook_attacks,
        };
        let (mut knight, mut orth, mut diag, mut pawn) = (
            Bitboard::EMPTY,
            Bitboard::EMPTY,
            Bitboard::EMPTY,
            Bitboard::EMPTY,
        );
        for p in targets {
            knight |= knight_attacks(p);
            orth |= rook_attacks(p, occ);
            diag |= bishop_attacks(p, occ);
            pawn |= pawn_attacks(!color, p);
        }
        (reach.knight & knight) | (reach.orth & orth) | (reach.diag & diag) | (reach.pawn & pawn)
    }

    /// For every square `s`, the highest [`value`] of a piece of `men`
    /// that the pieces of `color` (reach `reach`) attack through `s` (0
    /// for none): the roles are walked from the least valuable up, so a
    /// square keeps the value of the most valuable one it reaches.
    fn best_values(
        b: &Board,
        occ: Bitboard,
        reach: &Reach,
        color: Color,
        men: Bitboard,
    ) -> [i32; 64] {
        let mut best = [0; 64];
        for &role in BY_VALUE.iter().rev() {
            let targets = men & b.by_role(role);
            if targets.is_empty() {
                continue;
            }
            for s in Self::attacked_from(reach, color, targets, occ) {
                best[s.index()] = value(role);
            }
        }
        best
    }

    #[inline]
    fn score(&self, s: Square) -> i32 {
        // Ties keep the trampoline where it stands.
        self.scores[s.index()] + i32::from(self.stay == Some(s))
    }
}

/// The placement [`PlacementGuess`] likes best in Hop Chess's `place`
/// state (`None` if there is none).
pub(super) fn guessed_placement(pos: &Position) -> Option<Move> {
    let guess = PlacementGuess::new(pos);
    let mut steps = MoveList::new();
    pos.legal_steps_into(&mut steps);
    steps
        .into_iter()
        .filter_map(|m| Some((m, guess.score(m.to()?))))
        .max_by_key(|&(_, s)| s)
        .map(|(m, _)| m)
}

impl Worker<'_, '_> {
    /// The correction-history slot of `pos`: its side to move and its
    /// pawns (the high bits of [`pawn_mix`]).
    #[inline]
    fn corr_slot(pos: &Position) -> usize {
        let b = pos.board();
        let pawns = b.by_role(Role::Pawn);
        let mix = pawn_mix(
            pawns & b.by_color(Color::White),
            pawns & b.by_color(Color::Black),
        );
        pos.turn().index() * CORR_ENTRIES + (mix >> (64 - CORR_ENTRIES.trailing_zeros())) as usize
    }

    /// The static evaluation `raw` of `pos` corrected by what searches
    /// found of positions with the same pawns and side to move: the
    /// average of their results less their static evaluations.
    #[inline]
    pub(super) fn corrected(&self, pos: &Position, raw: i32) -> i32 {
        raw + i32::from(self.hist.corr[Self::corr_slot(pos)]) / CORR_GRAIN
    }

    /// Moves the correction of `pos` towards `best - raw`, a search's
    /// result at `depth` less the raw static evaluation, weighted by the
    /// depth.
    pub(super) fn update_correction(&mut self, pos: &Position, depth: i32, best: i32, raw: i32) {
        let slot = Self::corr_slot(pos);
        let weight = (depth + 1).min(CORR_WEIGHT);
        let old = i32::from(self.hist.corr[slot]);
        let diff = (best - raw).clamp(-CORR_MAX / CORR_GRAIN, CORR_MAX / CORR_GRAIN) * CORR_GRAIN;
        let new = (old * (CORR_SCALE - weight) + diff * weight) / CORR_SCALE;
        self.hist.corr[slot] = new.clamp(-CORR_MAX, CORR_MAX) as i16;
    }

    /// The continuation index of the step `m` in `pos`: the side and
    /// mover of [`Worker::history_index`] and the destination.
    pub(super) fn cont_index(pos: &Position, m: Move) -> usize {
        let (p, t) = Self::history_slot(pos, m);
        p * 64 + t
    }

    /// The continuation contexts of a quiet step at `ply`: the steps one
    /// and two plies before it on the path (in Hop Chess the placement and
    /// the piece step before a turn's piece step, or the piece step and
    /// the enemy's placement before a placement), where the game uses
    /// them ([`continuation_history`]). The same for every step of a node:
    /// [`Worker::score_moves`] reads them once.
    fn cont_rows(&self, pos: &Position, ply: usize) -> [Option<usize>; 2] {
        if !continuation_history(pos.variant()) {
            return [None, None];
        }
        let back = |n: usize| {
            ply.checked_sub(n)
                .map(|p| self.played[p])
                .filter(|&c| c != NO_CONT)
                .map(|c| c * CONT_SIZE)
        };
        [back(1), back(2)]
    }

    /// The ordering score of a quiet step `m` at `ply`: its history and
    /// its continuation histories.
    pub(super) fn quiet_score(&self, pos: &Position, ply: usize, m: Move) -> i32 {
        self.quiet_score_in(pos, self.cont_rows(pos, ply), m)
    }

    /// [`Worker::quiet_score`] with the node's [`Worker::cont_rows`] given.
    #[inline(always)]
    fn quiet_score_in(&self, pos: &Position, rows: [Option<usize>; 2], m: Move) -> i32 {
        let (p, t) = Self::history_slot(pos, m);
        let c = p * 64 + t;
        let mut score = self.hist.history[p][t];
        // (Two `if let`s: an iterator over the rows was not unrolled.)
        if let Some(row) = rows[0] {
            score += i32::from(self.hist.cont[row + c]);
        }
        if let Some(row) = rows[1] {
            score += i32::from(self.hist.cont[row + c]);
        }
        score
    }

    /// Rewards (`bonus` > 0) or punishes a quiet step `m` at `ply` in the
    /// history and the continuation histories.
    pub(super) fn update_quiet(&mut self, pos: &Position, ply: usize, m: Move, bonus: i32) {
        self.update_history(pos, m, bonus);
        let c = Self::cont_index(pos, m);
        for row in self.cont_rows(pos, ply).into_iter().flatten() {
            let h = &mut self.hist.cont[row + c];
            let v = i32::from(*h);
            let v = v + bonus - v * bonus.abs() / HISTORY_MAX;
            *h = v.clamp(-HISTORY_MAX, HISTORY_MAX) as i16;
        }
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
        let h = &mut self.hist.history[p][t];
        *h += bonus - *h * bonus.abs() / HISTORY_MAX;
    }

    /// The ordering score of `m` if it is one of the killers of `ply`;
    /// `ends` holds the killers' destinations ([`Worker::killer_ends`]),
    /// which most moves miss, sparing the comparison of identities.
    #[inline(always)]
    fn killer_score(&self, ply: usize, ends: Bitboard, m: Move) -> Option<i32> {
        if m.to().is_some_and(|to| !ends.contains(to)) {
            return None;
        }
        let k = &self.killers[ply];
        if k[0] == Some(m) {
            Some(KILLERS[0])
        } else if k[1] == Some(m) {
            Some(KILLERS[1])
        } else {
            None
        }
    }

    /// The destinations of the killers of `ply` (a killer without one,
    /// a pass, can only be a move without one).
    fn killer_ends(&self, ply: usize) -> Bitboard {
        self.killers[ply]
            .iter()
            .flatten()
            .filter_map(|k| k.to())
            .fold(Bitboard::EMPTY, |b, s| b | s)
    }

    /// Records `m`, a quiet move that failed high at `ply`, as its newest
    /// killer.
    pub(super) fn add_killer(&mut self, ply: usize, m: Move) {
        let k = &mut self.killers[ply];
        if k[0] != Some(m) {
            k[1] = k[0];
            k[0] = Some(m);
        }
    }

    /// Orders the moves of `self.lists[ply]` into `self.order[ply]`.
    pub(super) fn score_moves(
        &mut self,
        pos: &Position,
        ply: usize,
        tt_move: u32,
        quiescence: bool,
    ) {
        let mut order = std::mem::take(&mut self.order[ply]);
        order.clear();
        let guess = pos.placement_pending().then(|| PlacementGuess::new(pos));
        // History alone in quiescence; with the continuations elsewhere.
        let rows = if quiescence {
            [None, None]
        } else {
            self.cont_rows(pos, ply)
        };
        let ends = self.killer_ends(ply);
        let board = pos.board();
        let them = board.by_color(!pos.turn());
        let tt_to = destination_code(tt_move);
        // (`extend` over the list's own length: no capacity test a move.)
        order.extend(self.lists[ply].iter().map(|&m| {
            let to = m.to();
            // The captured piece (`see::captured_role`, read here with the
            // enemy's pieces at hand).
            let victim = if m.kind() == MoveKind::EnPassant {
                Some(Role::Pawn)
            } else {
                to.filter(|&t| them.contains(t))
                    .and_then(|t| board.role_at(t))
            };
            let promotion = m.promotion_role();
            if tt_move != 0 && square_code(to) == tt_to && encode_move(m) == tt_move {
                TT_MOVE
            } else if let (Some(guess), Some(to)) = (&guess, to) {
                // A Hop Chess placement step.
                let killer = self.killer_score(ply, ends, m).unwrap_or(0);
                let history = self.quiet_score_in(pos, rows, m);
                (guess.score(to) + history).max(killer)
            } else if let Some(victim) = victim {
                let attacker = m
                    .from()
                    .and_then(|f| board.role_at(f))
                    .map_or(0, attacker_rank);
                let mvv = value(victim) * 8 - attacker;
                if quiescence || see_ge(pos, m, 0) {
                    GOOD_CAPTURE + mvv
                } else {
                    BAD_CAPTURE + mvv
                }
            } else if promotion == Some(Role::Queen) {
                QUEEN_PROMOTION
            } else if let Some(killer) = self.killer_score(ply, ends, m) {
                killer
            } else if promotion.is_some() {
                UNDER_PROMOTION
            } else {
                self.quiet_score_in(pos, rows, m)
            }
        }));
        self.order[ply] = order;
    }

    /// Readies the node's list for [`next_move!`]. When `deferred`,
    /// `self.lists[ply]` holds candidate steps
    /// (`Position::step_candidates_into`): they are readied for
    /// [`Worker::pick_legal`] (none tested yet) and their position's
    /// candidate context is returned. Otherwise the list is legal and
    /// the context is empty.
    pub(super) fn begin_candidates(
        &mut self,
        pos: &Position,
        ply: usize,
        deferred: bool,
    ) -> CandidateContext {
        if !deferred {
            return CandidateContext::default();
        }
        let known = &mut self.known[ply];
        known.clear();
        known.resize(self.lists[ply].len(), false);
        pos.candidate_context()
    }

    /// Whether the node's list was candidates (`deferred`) and every one
    /// of them was illegal (after its loop over [`next_move!`]): no legal
    /// step.
    pub(super) fn no_legal_candidate(&self, deferred: bool, ply: usize) -> bool {
        deferred && self.lists[ply].is_empty()
    }

    /// [`Worker::pick`] over a list of candidate steps
    /// (`Position::step_candidates_into`, `ctx` its position's
    /// `candidate_context`), `known` sized to it: brings the
    /// best remaining legal move to index `i`, or `None` when no legal one
    /// remains. Each candidate is tested when it is about to be picked or
    /// swapped, and an illegal one is removed in place, so the legal moves
    /// keep their relative order and this picks the very moves, in the
    /// very order, that [`Worker::pick`] picks over the legal list: the
    /// first best from `i` on, swapped with the (legal) move at `i`.
    pub(super) fn pick_legal(
        &mut self,
        pos: &Position,
        ctx: &CandidateContext,
        ply: usize,
        i: usize,
    ) -> Option<Move> {
        loop {
            if i >= self.lists[ply].len() {
                return None;
            }
            if !self.known[ply][i] {
                if !pos.candidate_is_legal(ctx, self.lists[ply][i]) {
                    self.remove_illegal(pos, ctx, ply, i);
                    continue;
                }
                self.known[ply][i] = true;
            }
            let best = first_best(&self.order[ply], i);
            if !self.known[ply][best] {
                if !pos.candidate_is_legal(ctx, self.lists[ply][best]) {
                    self.remove_illegal(pos, ctx, ply, best);
                    continue;
                }
                self.known[ply][best] = true;
            }
            self.order[ply].swap(i, best);
            self.lists[ply].swap(i, best);
            self.known[ply].swap(i, best);
            return Some(self.lists[ply][i]);
        }
    }

    /// Takes the illegal candidate at `index` out of the node's lists,
    /// keeping the order of the others, and with it the untested ones
    /// right after it as long as they are illegal too (their first legal
    /// one is then known): one shift of the lists for a run of them, as in
    /// check, where most candidates are illegal. Legality does not depend
    /// on when it is tested, and taking out illegal candidates keeps the
    /// legal ones in their order, so [`Worker::pick_legal`] still picks
    /// the moves of [`Worker::pick`] over the legal list.
    fn remove_illegal(&mut self, pos: &Position, ctx: &CandidateContext, ply: usize, index: usize) {
        let len = self.lists[ply].len();
        let mut end = index + 1;
        while end < len && !self.known[ply][end] {
            if pos.candidate_is_legal(ctx, self.lists[ply][end]) {
                self.known[ply][end] = true;
                break;
            }
            end += 1;
        }
        self.lists[ply].drain(index..end);
        self.order[ply].drain(index..end);
        self.known[ply].drain(index..end);
    }

    /// Brings the best remaining move to index `i`.
    pub(super) fn pick(&mut self, ply: usize, i: usize) -> Move {
        let best = first_best(&self.order[ply], i);
        self.order[ply].swap(i, best);
        self.lists[ply].swap(i, best);
        self.lists[ply][i]
    }
}

/// The index of the first highest score of `order` from `i` on.
#[inline]
fn first_best(order: &[i32], i: usize) -> usize {
    // Every pick scans the rest of the list, and late-move pruning picks
    // to the end, so this scan is a tenth of a search. One pass that
    // keeps the best score and its index is a chain of dependent
    // conditional moves (two cycles a score); the highest score alone is
    // a maximum that the compiler turns into SIMD (`pmaxsd`, four scores
    // an instruction), and its first place is then found eight scores at
    // a time by comparing them all with it.
    let Some(rest) = order.get(i..).filter(|r| !r.is_empty()) else {
        return i;
    };
    // (`Iterator::max` keeps a reference to the last maximum, which is
    // not vectorised; a fold of `i32::max` is.)
    let top = rest.iter().fold(i32::MIN, |a, &b| a.max(b));
    let mut chunks = rest.chunks_exact(8);
    let mut base = i;
    for chunk in chunks.by_ref() {
        let hits = chunk
            .iter()
            .enumerate()
            .fold(0u32, |m, (k, &s)| m | (u32::from(s == top) << k));
        if hits != 0 {
            return base + hits.trailing_zeros() as usize;
        }
        base += 8;
    }
    let tail = chunks.remainder();
    base + tail.iter().position(|&s| s == top).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::{first_best, value, PlacementGuess, PLACEMENT_CHECK};
    use crate::strength::Rng;
    use springboard_rules::facts::Reach;
    use springboard_rules::{Bitboard, MoveList, Position, Role, Square, Variant};

    /// The first highest score from `i` on, by the plain definition.
    fn first_best_by_definition(order: &[i32], i: usize) -> usize {
        let top = order[i..].iter().max().copied();
        order[i..]
            .iter()
            .position(|&s| Some(s) == top)
            .map_or(i, |j| i + j)
    }

    /// The placement guess of `s` by its definition: the pieces of each
    /// side that reach `s` bounce off it once ([`Reach::through`]); a
    /// check, then the most valuable enemy piece (not the king) attacked
    /// minus the most valuable own one exposed, and the bonus for staying.
    fn placement_guess_by_definition(pos: &Position, s: Square) -> i32 {
        let b = pos.board();
        let us = pos.turn();
        let occ = b.occupied();
        let kings = b.by_role(Role::King);
        let best = |targets: Bitboard| {
            Role::ALL
                .iter()
                .filter(|&&r| (targets & b.by_role(r)).any())
                .map(|&r| value(r))
                .max()
                .unwrap_or(0)
        };
        let ours = Reach::of(b, us).through(s, occ, us);
        let theirs = Reach::of(b, !us).through(s, occ, !us);
        let check = b.king_of(!us).is_some_and(|k| ours.contains(k));
        let gain = best(ours & b.by_color(!us) & !kings);
        let risk = best(theirs & b.by_color(us) & !kings);
        i32::from(check) * PLACEMENT_CHECK
            + 32 * (gain - risk)
            + i32::from(pos.trampoline(us) == Some(s))
    }

    /// `PlacementGuess` gives every placement of random Hop Chess games
    /// its guess by definition.
    #[test]
    fn placement_guess_is_its_definition() {
        let mut rng = Rng::new(11);
        let (mut placements, mut checks, mut gains) = (0, 0, 0);
        for _game in 0..60 {
            let mut pos = Position::startpos(Variant::HopChess);
            for _step in 0..200 {
                let mut steps = MoveList::new();
                pos.legal_steps_into(&mut steps);
                if steps.is_empty() {
                    break;
                }
                if pos.placement_pending() {
                    let guess = PlacementGuess::new(&pos);
                    for m in &steps {
                        let to = m.to().expect("a placement has a square");
                        let want = placement_guess_by_definition(&pos, to);
                        assert_eq!(guess.score(to), want, "{} {to:?}", pos.to_fen());
                        placements += 1;
                        // (A check outweighs any gain or risk.)
                        checks += usize::from(want > PLACEMENT_CHECK / 2);
                        gains += usize::from(want.abs() > 1 && want.abs() < PLACEMENT_CHECK / 2);
                    }
                }
                let m = steps[(rng.next_u64() % steps.len() as u64) as usize];
                pos.play_step(m);
            }
        }
        assert!(
            placements > 50_000 && checks > 500 && gains > 5_000,
            "{placements} {checks} {gains}"
        );
    }

    #[test]
    fn by_value_lists_every_role_by_falling_value() {
        use super::{value, BY_VALUE};
        assert!(BY_VALUE.windows(2).all(|w| value(w[0]) > value(w[1])));
        let mut indices: Vec<usize> = BY_VALUE.iter().map(|r| r.index()).collect();
        indices.sort_unstable();
        assert_eq!(indices, (0..7).collect::<Vec<_>>());
    }

    #[test]
    fn first_best_is_the_first_of_the_highest_scores() {
        let mut rng = Rng::new(7);
        for _ in 0..2000 {
            let len = (rng.next_u64() % 80) as usize;
            // Few distinct scores: ties everywhere, and negative ones.
            let order: Vec<i32> = (0..len).map(|_| (rng.next_u64() % 7) as i32 - 3).collect();
            for i in 0..=len {
                assert_eq!(
                    first_best(&order, i),
                    first_best_by_definition(&order, i),
                    "{order:?} from {i}"
                );
            }
        }
        assert_eq!(first_best(&[], 0), 0);
        assert_eq!(first_best(&[5, 9, 9, 1], 0), 1);
        assert_eq!(first_best(&[5, 9, 9, 1], 2), 2);
    }
}
