//! `Position::legal_steps_filtered_into`, `Position::has_legal_step`,
//! `Position::step_candidates_into` with `Position::candidate_is_legal`, and
//! `Position::checking_placements` against `legal_steps_into`: on the
//! positions of random games of every game (turn starts, Hop Chess's
//! `place` states, mates and stalemates at the games' ends), the filtered
//! list is exactly the full list with a `retain` of the same filter, in the
//! same order, a position has a legal step exactly when the full list is
//! not empty, and a legal placement is among the checking ones exactly
//! when its position is in check.

use springboard_rules::{Move, MoveKind, MoveList, Position, Role, Variant};

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
    }
}

fn is_capture(pos: &Position, m: Move) -> bool {
    m.kind() == MoveKind::EnPassant
        || m.to()
            .and_then(|t| pos.board().piece_at(t))
            .is_some_and(|p| p.color != pos.turn())
}

/// Checks one position; returns how many of its legal placements check
/// and how many of its candidate steps are illegal.
fn check(pos: &Position) -> (usize, usize) {
    let mut all = MoveList::new();
    pos.legal_steps_into(&mut all);
    // The checking placements are those whose position is in check.
    let checking = pos.checking_placements();
    let mut checks = 0;
    if pos.placement_pending() {
        for &m in &all {
            let mut child = pos.clone();
            child.play_step(m);
            let to = m.to().expect("a placement square");
            assert_eq!(
                checking.contains(to),
                child.is_check(),
                "{} {to}",
                pos.to_fen()
            );
            checks += usize::from(child.is_check());
        }
    } else {
        assert!(checking.is_empty(), "{}", pos.to_fen());
    }
    assert_eq!(pos.has_legal_step(), !all.is_empty(), "{}", pos.to_fen());
    // The candidates: the legal steps in order, and where legality is
    // deferred perhaps illegal ones, which `candidate_is_legal` rejects.
    let mut candidates = MoveList::new();
    pos.step_candidates_into(&mut candidates);
    let ctx = pos.candidate_context();
    let legal: MoveList = candidates
        .iter()
        .copied()
        .filter(|&m| pos.candidate_is_legal(&ctx, m))
        .collect();
    assert_eq!(legal, all, "candidates: {}", pos.to_fen());
    if !pos.defers_legality() {
        assert_eq!(candidates, all, "undeferred candidates: {}", pos.to_fen());
    }
    let filters: [&dyn Fn(Move) -> bool; 5] = [
        &|_| true,
        &|_| false,
        &|m| is_capture(pos, m),
        &|m| is_capture(pos, m) || m.promotion_role().is_some(),
        &|m| m.to().is_some_and(|t| t.index() % 3 == 1),
    ];
    // The noisy steps: captures and queen promotions.
    let noisy: MoveList = all
        .iter()
        .copied()
        .filter(|&m| is_capture(pos, m) || m.promotion_role() == Some(Role::Queen))
        .collect();
    assert!(all.iter().all(|&m| pos.is_noisy(m) == noisy.contains(&m)));
    let mut got = vec![Move::trampoline(springboard_rules::Square::A1)];
    pos.legal_noisy_steps_into(&mut got);
    assert_eq!(got[1..], noisy[..], "noisy: {}", pos.to_fen());
    for (i, keep) in filters.iter().enumerate() {
        let want: MoveList = all.iter().copied().filter(|&m| keep(m)).collect();
        // Appends after what the list holds already.
        let mut got = vec![Move::trampoline(springboard_rules::Square::A1)];
        pos.legal_steps_filtered_into(&mut got, keep);
        assert_eq!(got[0], Move::trampoline(springboard_rules::Square::A1));
        assert_eq!(got[1..], want[..], "filter {i}: {}", pos.to_fen());
    }
    (checks, candidates.len() - legal.len())
}

#[test]
fn filtered_steps_are_the_full_list_retained() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut positions = 0;
    let mut ends = 0;
    let mut places = 0;
    let mut checks = 0;
    let mut rejected = 0;
    for variant in [
        Variant::HopChess,
        Variant::Trampoline,
        Variant::Chess,
        Variant::Hoplit,
        Variant::JumpingKing,
    ] {
        // Chess, Trampoline Chess and the Jumping King have their own
        // filtered generators too (the filter asked first).
        let games = if variant == Variant::HopChess {
            200
        } else {
            40
        };
        for _ in 0..games {
            let mut pos = Position::startpos(variant);
            for _ in 0..300 {
                let (c, r) = check(&pos);
                checks += c;
                rejected += r;
                positions += 1;
                places += usize::from(pos.placement_pending());
                let mut steps = MoveList::new();
                pos.legal_steps_into(&mut steps);
                if steps.is_empty() {
                    ends += 1;
                    break;
                }
                // Captures first half of the time: games that reach mates.
                let captures: MoveList = steps
                    .iter()
                    .copied()
                    .filter(|&m| is_capture(&pos, m))
                    .collect();
                let pool = if !captures.is_empty() && rng.below(2) == 0 {
                    &captures
                } else {
                    &steps
                };
                pos.play_step(pool[rng.below(pool.len())]);
            }
        }
    }
    assert!(positions > 10_000, "{positions}");
    assert!(places > 2_000, "{places}");
    assert!(ends > 20, "{ends}");
    assert!(checks > 1_000, "{checks}");
    // Hop Chess's deferred legality is tested on illegal candidates too.
    assert!(rejected > 1_000, "{rejected}");
    println!("{positions} positions, {places} placement states, {checks} checking placements, {rejected} illegal candidates, {ends} ends");
}

/// Hand-picked positions of the trampoline games whose noisy steps come
/// from a pawn's bounce: promoted on a trampoline of the last rank, the
/// queen goes on to quiet squares (queen promotions, so noisy), the rook
/// and the others do not; a pawn bounced off a trampoline ahead captures
/// or steps on. The generators that leave out quiet moves (`quiet: false`
/// in `bounce::piece_moves`) must keep every one of the noisy ones.
#[test]
fn noisy_steps_keep_the_bounced_promotions_and_captures() {
    for (variant, fen, want) in [
        // e7-e8 onto White's trampoline, then a queen's line from e8.
        (
            Variant::Trampoline,
            "8/4P3/7k/8/8/8/8/K7 w - - 0 1 e8,-",
            "e7e8e1q",
        ),
        (
            Variant::HopChess,
            "8/4P3/7k/8/8/8/8/K7 w - - 0 1 e8,a3 -",
            "e7e8e1q",
        ),
        // e2-e3 onto a trampoline, then a pawn's capture from e3.
        (
            Variant::Trampoline,
            "k7/8/8/8/3n1n2/8/4P3/K7 w - - 0 1 e3,-",
            "e2e3d4",
        ),
        (
            Variant::HopChess,
            "k7/8/8/8/3n1n2/8/4P3/K7 w - - 0 1 e3,h8 -",
            "e2e3d4",
        ),
    ] {
        let pos = Position::from_fen(variant, fen).unwrap();
        let mut all = MoveList::new();
        pos.legal_steps_into(&mut all);
        let noisy: MoveList = all.iter().copied().filter(|&m| pos.is_noisy(m)).collect();
        let mut got = MoveList::new();
        pos.legal_noisy_steps_into(&mut got);
        assert_eq!(got, noisy, "{fen}");
        let texts: Vec<String> = got
            .iter()
            .map(|&m| springboard_rules::notation::uci::to_uci(&pos, m))
            .collect();
        assert!(texts.iter().any(|t| t == want), "{want} in {texts:?}");
        assert!(got.len() < all.len(), "{fen}: quiet moves left out");
    }
}
