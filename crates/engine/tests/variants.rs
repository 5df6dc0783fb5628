//! The search in the four variants: mates found (fixed depth, one thread:
//! deterministic), whole turns out of Hop Chess half-steps, and legal
//! moves in every position (a sweep over positions of random games).

use springboard_engine::{Engine, Info, Limits, Score, SearchResult, Signals};
use springboard_rules::notation::uci::{parse_uci, to_uci};
use springboard_rules::{Move, Position, Variant};

fn search_pos(pos: &Position, limits: &Limits, multipv: usize) -> (SearchResult, Vec<Info>) {
    let mut engine = Engine::new(16);
    engine.multipv = multipv;
    let mut infos = Vec::new();
    let r = engine.search(pos, &[], limits, &Signals::new(), &mut |i| {
        infos.push(i.clone())
    });
    (r, infos)
}

fn at_depth(depth: u32) -> Limits {
    Limits {
        depth: Some(depth),
        ..Limits::default()
    }
}

fn fen(variant: Variant, text: &str) -> Position {
    Position::from_fen(variant, text).unwrap()
}

/// The position after `moves` (long notation) from the start.
fn after(variant: Variant, moves: &str) -> Position {
    let mut pos = Position::startpos(variant);
    for text in moves.split_whitespace() {
        let m = parse_uci(&pos, text).unwrap();
        pos.play_checked(m).unwrap();
    }
    pos
}

/// Whether `m` wins at once: checkmate, or a weak square taken (J3).
fn wins_at_once(pos: &Position, m: Move) -> bool {
    let mut child = pos.clone();
    child.play_checked(m).unwrap();
    child.weak_square_taken() || (child.is_check() && child.legal_moves().is_empty())
}

/// The engine's best move in long notation, checked to be legal.
fn best(pos: &Position, r: &SearchResult) -> String {
    let m = r.best.expect("a best move");
    assert!(pos.is_legal(m), "illegal {}", to_uci(pos, m));
    to_uci(pos, m)
}

/// Every line of every report is a sequence of legal whole moves.
fn assert_lines_legal(pos: &Position, infos: &[Info]) {
    for info in infos {
        let mut p = pos.clone();
        for &m in &info.pv {
            assert!(p.is_legal(m), "{} in {:?}", to_uci(&p, m), info.pv);
            p.play(m);
        }
    }
}

/// A mate in one: the rules core finds exactly the winning moves `all`;
/// the engine plays `expected` with the mate score.
fn assert_mate_in_one(pos: &Position, all: &[&str], expected: &str) {
    let winning: Vec<String> = pos
        .legal_moves()
        .into_iter()
        .filter(|&m| wins_at_once(pos, m))
        .map(|m| to_uci(pos, m))
        .collect();
    assert_eq!(winning, all);
    for depth in [1, 3] {
        let (r, infos) = search_pos(pos, &at_depth(depth), 1);
        assert_eq!(best(pos, &r), expected, "depth {depth}");
        assert_eq!(r.score, Score::Mate(1), "depth {depth}");
        assert_lines_legal(pos, &infos);
    }
}

#[test]
fn hop_chess_mate_through_the_own_trampoline() {
    // 1.Na3 b6 e5: 2.Nc4 d6 mates, the knight checks e8 by bouncing off
    // its own trampoline on d6 (H4, P8).
    let pos = after(Variant::HopChess, "b1a3 b7b6@e5");
    assert_eq!(
        pos.to_fen(),
        "rnbqkbnr/p1pppppp/1p6/8/8/N7/PPPPPPPP/R1BQKBNR w KQkq - 0 2 -,e5 -"
    );
    // The knight may also check from b5 through d6.
    assert_mate_in_one(&pos, &["a3c4@d6", "a3b5@d6"], "a3c4@d6");
}

#[test]
fn hop_chess_mate_with_a_placement_that_keeps_the_king_safe() {
    // Qd7+ mates; the placement must not open a path to White's king.
    let pos = fen(
        Variant::HopChess,
        "q3kbnr/5ppp/2p5/2P5/3Q1p2/5P2/PPP2PPP/R3K2R w KQk - 0 11 e3,b1 -",
    );
    assert_mate_in_one(&pos, &["d4d7@d1"], "d4d7@d1");
}

#[test]
fn hop_chess_mate_in_two_for_black() {
    let pos = fen(
        Variant::HopChess,
        "r2qkbnr/ppp2ppp/2n5/3p4/3P1p2/2N2P2/PPP2PPP/R2QKB1R b KQkq - 1 5 b5,a5 -",
    );
    let (r, infos) = search_pos(&pos, &at_depth(3), 1);
    assert_eq!(r.score, Score::Mate(2));
    let line = &infos.last().unwrap().pv;
    assert_eq!(line.len(), 3, "{line:?}");
    assert_lines_legal(&pos, &infos);
    // The line ends in mate.
    let mut p = pos.clone();
    for &m in &line[..2] {
        p.play(m);
    }
    assert!(wins_at_once(&p, line[2]));
}

#[test]
fn hop_chess_first_turn_and_place_state() {
    // White's first turn is a piece move alone (H3).
    let start = Position::startpos(Variant::HopChess);
    for limits in [at_depth(1), at_depth(3)] {
        let (r, infos) = search_pos(&start, &limits, 1);
        let m = r.best.unwrap();
        assert!(start.is_legal(m) && m.place().is_none());
        assert_lines_legal(&start, &infos);
    }
    // In the `place` state the answer is a placement.
    let pos = fen(
        Variant::HopChess,
        "rnbqkb1r/pppppppp/5n2/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 1 1 -,- place",
    );
    for limits in [at_depth(1), at_depth(3), nodes(1)] {
        let (r, infos) = search_pos(&pos, &limits, 1);
        let m = r.best.unwrap();
        assert!(pos.is_legal(m), "{}", to_uci(&pos, m));
        assert_eq!(m.from(), None);
        assert_lines_legal(&pos, &infos);
    }
}

#[test]
fn hop_chess_lines_are_whole_turns() {
    let pos = after(Variant::HopChess, "g1f3 g8f6@d5");
    let (r, infos) = search_pos(&pos, &at_depth(3), 3);
    assert_eq!(infos.len(), 9);
    assert_lines_legal(&pos, &infos);
    let m = r.best.unwrap();
    assert!(m.place().is_some());
    assert!(pos.is_legal(m));
    // The best line's first turn is the best move; MultiPV lines differ.
    let last: Vec<&Info> = infos.iter().filter(|i| i.depth == 3).collect();
    assert_eq!(last[0].pv[0], m);
    assert_ne!(last[0].pv[0], last[1].pv[0]);
    assert_ne!(last[1].pv[0], last[2].pv[0]);
    assert_ne!(last[0].pv[0], last[2].pv[0]);
    for i in &last {
        assert!(i.pv.iter().all(|t| t.place().is_some()));
    }
    let ponder = r.ponder.expect("a ponder turn");
    let mut child = pos.clone();
    child.play(m);
    assert!(child.is_legal(ponder), "{}", to_uci(&child, ponder));
    assert!(ponder.place().is_some());
}

#[test]
fn trampoline_chess_bounce_mate() {
    // Rb1-e1(T)-e8#: b2 blocks the file, only the bounce reaches rank 8.
    let pos = fen(
        Variant::Trampoline,
        "6k1/5ppp/8/8/8/8/1P4PP/1R4K1 w - - 0 1 e1,-",
    );
    assert_mate_in_one(&pos, &["b1e1e8"], "b1e1e8");
}

#[test]
fn trampoline_chess_mate_by_a_trampoline_move() {
    // T7: moving the trampoline gives check; here it mates (Qe8-h8 bounce).
    let pos = fen(
        Variant::Trampoline,
        "4Q3/5pk1/p5pp/1p6/1P2p3/P5PP/5PK1/8 w - - 1 32 h7,e1",
    );
    assert_mate_in_one(&pos, &["@h8"], "@h8");
}

#[test]
fn hoplit_drop_mates() {
    // H@e1: the pawn steps to e3 and the Hoplit checks h8 along
    // f2-g3-h4, then h5-h6 over the bishop on h7 (L2, L4).
    let pos = fen(Variant::Hoplit, "6rk/6pb/6p1/8/8/8/4P3/K7[H] w - - 0 1");
    assert_mate_in_one(&pos, &["H@e1"], "H@e1");
}

#[test]
fn hoplit_chess_mate_in_two() {
    let pos = fen(Variant::Hoplit, "8/8/5Q2/3Q4/k7/6KH/6P1/8[h] w - - 7 73");
    let (r, infos) = search_pos(&pos, &at_depth(4), 1);
    // More than one move mates in two (g3f4, f6a1): whichever the search
    // plays is checked against every defence below.
    assert!(["g3f4", "f6a1"].contains(&best(&pos, &r).as_str()));
    assert_eq!(r.score, Score::Mate(2));
    assert_lines_legal(&pos, &infos);
    assert_mate_in_two(&pos, r.best.unwrap());
}

#[test]
fn jumping_king_weak_square_wins() {
    // Nf8 enters Black's weak square (J3): a win, scored as a mate.
    let pos = fen(
        Variant::JumpingKing,
        "8/kp1N4/8/2PK4/p2P4/8/3bB3/8[] w - 0 20",
    );
    assert_mate_in_one(&pos, &["d7f8"], "d7f8");
    let pos = fen(Variant::JumpingKing, "8/5p2/8/2K1p3/8/5k2/r7/8[] b - 1 32");
    assert_mate_in_one(&pos, &["a2a1"], "a2a1");
}

#[test]
fn a_proven_win_ends_the_search_at_the_depth_that_proves_it() {
    // Black wins by the weak square a1 in two (J3): 1...Ra5 and 2...Ra1;
    // White's king cannot stop the rook. Given three seconds, the search
    // stops once the win is proven instead of running on to depth 126.
    let pos = fen(Variant::JumpingKing, "8/8/3k4/4r3/8/8/5K2/8[] b - 0 30");
    let limits = Limits {
        movetime: Some(3000),
        ..Limits::default()
    };
    let (r, infos) = search_pos(&pos, &limits, 1);
    assert_eq!(r.score, Score::Mate(2));
    assert!(r.depth <= 6, "depth {}", r.depth);
    assert!(infos.iter().all(|i| i.depth <= 6), "{infos:?}");
    assert_lines_legal(&pos, &infos);
    assert_mate_in_two(&pos, r.best.unwrap());
}

#[test]
fn jumping_king_mate_in_two() {
    let pos = fen(
        Variant::JumpingKing,
        "8/kp1N4/8/b1Pp4/p2PK3/8/3RB3/8[] w - 0 19",
    );
    let (r, infos) = search_pos(&pos, &at_depth(4), 1);
    assert_eq!(r.score, Score::Mate(2));
    assert_lines_legal(&pos, &infos);
    assert_mate_in_two(&pos, r.best.unwrap());
}

#[test]
fn jumping_king_forced_pass() {
    // White has placed everything, Black's king still jumps: White passes
    // (J6), also with one node or one ply.
    let pos = fen(
        Variant::JumpingKing,
        "5k2/8/8/8/8/8/2K5/8[rrbbnnppp] w j 0 5",
    );
    for limits in [at_depth(1), at_depth(3), nodes(1)] {
        let (r, infos) = search_pos(&pos, &limits, 1);
        assert_eq!(best(&pos, &r), "0000");
        assert_lines_legal(&pos, &infos);
    }
    // Black's first jump leaves nothing behind (J4).
    let mut pos = pos;
    pos.play_checked(parse_uci(&pos, "0000").unwrap()).unwrap();
    let (r, infos) = search_pos(&pos, &at_depth(3), 1);
    let m = r.best.unwrap();
    assert!(pos.is_legal(m) && m.role().is_none());
    assert_lines_legal(&pos, &infos);
}

/// After `first`, every reply allows a win at once (brute force).
fn assert_mate_in_two(pos: &Position, first: Move) {
    let mut p = pos.clone();
    p.play_checked(first).unwrap();
    let replies = p.legal_moves();
    assert!(!replies.is_empty() && !wins_at_once(pos, first));
    for reply in replies {
        let mut q = p.clone();
        q.play(reply);
        assert!(
            q.legal_moves().into_iter().any(|m| wins_at_once(&q, m)),
            "no win after {}",
            to_uci(&p, reply)
        );
    }
}

fn nodes(n: u64) -> Limits {
    Limits {
        nodes: Some(n),
        ..Limits::default()
    }
}

/// xorshift64: random games without a dependency.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// Positions of random games of `variant` (every third ply), with Hop
/// Chess's `place` state after a random piece step now and then.
fn random_positions(variant: Variant, count: usize, seed: u64) -> Vec<Position> {
    let mut rng = Rng(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut pos = Position::startpos(variant);
        for ply in 0..80 {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.weak_square_taken() {
                break;
            }
            if ply % 3 == 2 {
                out.push(pos.clone());
                if variant == Variant::HopChess && rng.below(3) == 0 && !pos.is_first_turn() {
                    let mut steps = Vec::new();
                    pos.legal_steps_into(&mut steps);
                    let mut half = pos.clone();
                    half.play_step(steps[rng.below(steps.len())]);
                    assert!(half.placement_pending());
                    out.push(half);
                }
            }
            let m = moves[rng.below(moves.len())];
            pos.play(m);
        }
    }
    out.truncate(count);
    out
}

#[test]
fn legal_moves_in_random_positions() {
    let variants = [
        Variant::HopChess,
        Variant::Trampoline,
        Variant::JumpingKing,
        Variant::Hoplit,
        Variant::Chess,
    ];
    let mut engine = Engine::new(4);
    for (i, variant) in variants.into_iter().enumerate() {
        let mut checks = 0;
        for (j, pos) in random_positions(variant, 80, 0x9e37_79b9 + i as u64)
            .into_iter()
            .enumerate()
        {
            checks += usize::from(pos.is_check());
            let limits = match j % 4 {
                0 => nodes(1),
                1 => at_depth(1),
                2 => at_depth(2),
                _ => nodes(1_000),
            };
            let mut infos = Vec::new();
            let r = engine.search(&pos, &[], &limits, &Signals::new(), &mut |i| {
                infos.push(i.clone())
            });
            let fen = pos.to_fen();
            let m = r.best.expect(&fen);
            assert!(pos.is_legal(m), "{fen}: {}", to_uci(&pos, m));
            if let Some(p) = r.ponder {
                let mut child = pos.clone();
                child.play(m);
                assert!(child.is_legal(p), "{fen}: ponder {}", to_uci(&child, p));
            }
            assert_lines_legal(&pos, &infos);
        }
        assert!(checks > 0, "{variant:?}: no position in check");
    }
}
