//! Hop Chess search: the first iteration always ends and is bounded, no
//! move or score is reported that no search produced, mates come only from
//! searching every reply, and every mate in one is found at depth 1 or at
//! any node limit (issue 16, item 1). Fixed depths and node limits, and a
//! search told to stop before it starts: deterministic.

use springboard_engine::{Engine, Info, Limits, Score, SearchResult, Signals};
use springboard_rules::notation::uci::{parse_uci, to_uci};
use springboard_rules::{Position, Variant};

/// The position of issue 16 where quiescence exploded (577k nodes, seldepth
/// 27 at depth 1).
const WIDE: &str = "1r1nk3/ppq2pb1/3pp1pn/2r1Nb1r/P5p1/1PN1P2P/R1PPBP2/2BQ1KRR w - - 0 18 a6,f8 -";

fn search(pos: &Position, limits: &Limits, signals: &Signals) -> (SearchResult, Vec<Info>) {
    let mut engine = Engine::new(16);
    let mut infos = Vec::new();
    let result = engine.search(pos, &[], limits, signals, &mut |i| infos.push(i.clone()));
    (result, infos)
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

fn nodes(n: u64) -> Limits {
    Limits {
        nodes: Some(n),
        ..Limits::default()
    }
}

fn stopped() -> Signals {
    let s = Signals::new();
    s.stop();
    s
}

/// The mating turns of `pos`, found by trying every legal turn.
fn mates_in_one(pos: &Position) -> Vec<String> {
    let mut mates: Vec<String> = pos
        .legal_moves()
        .into_iter()
        .filter(|&m| {
            let mut child = pos.clone();
            child.play(m);
            child.is_check() && child.legal_moves().is_empty()
        })
        .map(|m| to_uci(pos, m))
        .collect();
    mates.sort();
    mates
}

#[test]
fn depth_one_is_bounded_and_always_ends() {
    let pos = Position::from_fen(Variant::HopChess, WIDE).unwrap();
    let (r, infos) = search(&pos, &depth(1), &Signals::new());
    assert!(r.nodes <= 20_000, "{} nodes", r.nodes);
    assert!(infos[0].seldepth <= 10, "seldepth {}", infos[0].seldepth);
    let best = to_uci(&pos, r.best.unwrap());
    assert_eq!(best, "h3g4@b5");
    // Told to stop before it starts, or allowed one node, it still ends
    // its first iteration and answers what that iteration found, with its
    // report (before: no report and the first legal turn, c1b2@a1).
    for (limits, signals) in [(nodes(1), Signals::new()), (Limits::default(), stopped())] {
        let (s, infos) = search(&pos, &limits, &signals);
        assert_eq!(infos.len(), 1, "{limits:?}");
        assert_eq!(infos[0].depth, 1);
        assert_eq!(infos[0].pv[0], r.best.unwrap());
        assert_eq!(s.best, r.best);
        assert_eq!(s.score, r.score);
        assert_eq!(s.depth, 1);
    }
}

#[test]
fn no_legal_turn_gives_no_move() {
    // Black is mated (h7e7@e1 of the suite below): no move, no depth.
    let mut pos = Position::from_fen(
        Variant::HopChess,
        "4k3/2p4q/6p1/7p/7P/6PN/4pK1R/8 b - - 0 21 e5,b3 -",
    )
    .unwrap();
    pos.play(parse_uci(&pos, "h7e7@e1").unwrap());
    let (r, infos) = search(&pos, &depth(3), &Signals::new());
    assert_eq!((r.best, r.depth, infos.len()), (None, 0, 0));
}

#[test]
fn a_mate_needs_every_reply_searched() {
    // Issue 16: after these turns the engine said `mate 2` with
    // g2f3@c3 d1e1@g1 d3c3c1@d1 at 4000 nodes; White's d1e1@b3 defends.
    let moves = "c2c4 h7h5@b3 g1f3@e5 b8c6@d3 f3e5c6@d6 d7c6@f3 d2d4@d7 d8d4@e5 \
        d1d4@e3 e7e5d4@c5 e2e3d4@e3 c6c5d4@c5 c4c5c6@e3 b7c6@c5 c1f4@d7 f8b4@g5 \
        f4d2@c4 a8b8@f5 d2b4@d6 b8b4@f5 b1d2@c4 d4d3@d4 f1d3@e3 b4d4d3@h3 a1c1@c2 \
        c8h3g2@e3 e1d1@a1";
    let mut pos = Position::startpos(Variant::HopChess);
    for text in moves.split_whitespace() {
        pos.play(parse_uci(&pos, text).unwrap());
    }
    // The rules core's word: after g2f3@c3 d1e1@b3 Black has no mate.
    let mut defended = pos.clone();
    for text in ["g2f3@c3", "d1e1@b3"] {
        defended.play(parse_uci(&defended, text).unwrap());
    }
    assert_eq!(mates_in_one(&defended), Vec::<String>::new());
    // So no search may say mate in 2 (or 1) here; at 4000 nodes, or at
    // depths 1 to 3, none does.
    for limits in [nodes(4000), depth(3)] {
        let (r, infos) = search(&pos, &limits, &Signals::new());
        for info in &infos {
            assert!(
                !matches!(info.score, Score::Mate(n) if n <= 2),
                "{limits:?}: {info:?}"
            );
        }
        assert!(!matches!(r.score, Score::Mate(n) if n <= 2), "{r:?}");
    }
}

#[test]
fn every_mate_in_one_is_found_at_depth_one_and_at_one_node() {
    let text = include_str!("data/hop_chess_mates_in_one.txt");
    let mut count = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let fields: Vec<&str> = line.split('\t').collect();
        let [fen, turns, mates] = fields[..] else {
            panic!("bad line {line}")
        };
        let pos = Position::from_fen(Variant::HopChess, fen).unwrap();
        // The suite is checked against the rules core: every turn tried.
        assert_eq!(pos.legal_moves().len().to_string(), turns, "{fen}");
        let mut expected: Vec<String> = mates.split(' ').map(str::to_string).collect();
        expected.sort();
        assert_eq!(mates_in_one(&pos), expected, "{fen}");
        for limits in [depth(1), nodes(1)] {
            let (r, infos) = search(&pos, &limits, &Signals::new());
            let best = to_uci(&pos, r.best.expect("a move"));
            assert!(expected.contains(&best), "{fen} {limits:?}: {best}");
            assert_eq!(r.score, Score::Mate(1), "{fen} {limits:?}");
            assert_eq!(infos.last().map(|i| i.score), Some(Score::Mate(1)));
        }
        count += 1;
    }
    assert_eq!(count, 30);
}

#[test]
fn a_stopped_iteration_answers_only_what_it_searched() {
    // Whatever node limit stops the search, the answer is the move and
    // score of its last report (a stopped iteration reports the root move
    // it searched in full, as a lower bound), never a score of 0 made up
    // by the stop.
    let positions = [
        (
            Variant::Chess,
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
        ),
        (Variant::HopChess, WIDE),
    ];
    let mut checked = 0;
    for (variant, fen) in positions {
        let pos = Position::from_fen(variant, fen).unwrap();
        for n in (100..6000).step_by(149) {
            let (r, infos) = search(&pos, &nodes(n), &Signals::new());
            let last = infos.last().expect("a report");
            assert_eq!(r.best, Some(last.pv[0]), "{fen} at {n} nodes");
            assert_eq!(r.score, last.score, "{fen} at {n} nodes: {last:?}");
            checked += 1;
        }
    }
    assert_eq!(checked, 80);
}

/// `Limits::excluded`: the search never answers a left-out turn (in Hop
/// Chess a turn is a piece step and a placement: leaving out some
/// placements of a step keeps the others), and leaving out every legal
/// turn leaves out none.
#[test]
fn left_out_turns_are_never_played() {
    let pos = Position::from_fen(Variant::HopChess, WIDE).unwrap();
    let (first, _) = search(&pos, &depth(2), &Signals::new());
    let best = first.best.expect("a move");
    // Leave out the best turn and every other placement of its piece step
    // but one, then the best turns found in turn.
    let same_step: Vec<_> = pos
        .legal_moves()
        .into_iter()
        .filter(|m| m.from() == best.from() && m.to() == best.to() && m.kind() == best.kind())
        .collect();
    assert!(same_step.len() > 1);
    let mut excluded = same_step[1..].to_vec();
    excluded.push(best);
    excluded.dedup();
    for _ in 0..3 {
        let limits = Limits {
            depth: Some(2),
            excluded: excluded.clone(),
            ..Limits::default()
        };
        let (r, _) = search(&pos, &limits, &Signals::new());
        let m = r.best.expect("a move");
        assert!(!excluded.contains(&m), "{} was left out", to_uci(&pos, m));
        assert!(pos.legal_moves().contains(&m));
        excluded.push(m);
    }
    // Every legal turn left out: the limit is ignored.
    let chess = Position::startpos(Variant::Chess);
    let all = Limits {
        depth: Some(3),
        excluded: chess.legal_moves().into_iter().collect(),
        ..Limits::default()
    };
    let (r, _) = search(&chess, &all, &Signals::new());
    assert!(r.best.is_some());
    // All but one: that one.
    let moves = chess.legal_moves();
    let only = moves[7];
    let but_one = Limits {
        depth: Some(3),
        excluded: moves.into_iter().filter(|&m| m != only).collect(),
        ..Limits::default()
    };
    assert_eq!(search(&chess, &but_one, &Signals::new()).0.best, Some(only));
}
