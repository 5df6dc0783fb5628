//! Search results on fixed positions (fixed depths: deterministic).

use springboard_engine::{Engine, Limits, Score, SearchResult, Signals};
use springboard_rules::notation::uci::{parse_uci, to_uci};
use springboard_rules::{Position, Variant};

fn search(fen: &str, depth: u32) -> (Position, SearchResult) {
    let pos = Position::from_fen(Variant::Chess, fen).unwrap();
    let mut engine = Engine::new(16);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let result = engine.search(&pos, &[], &limits, &Signals::new(), &mut |_| {});
    (pos, result)
}

fn best_uci(pos: &Position, r: &SearchResult) -> String {
    to_uci(pos, r.best.expect("a best move"))
}

#[test]
fn mate_in_one() {
    let (pos, r) = search("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 4);
    assert_eq!(best_uci(&pos, &r), "d1d8");
    assert_eq!(r.score, Score::Mate(1));
}

#[test]
fn mate_in_two() {
    let (pos, r) = search(
        "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 10",
        6,
    );
    assert_eq!(best_uci(&pos, &r), "d5f6");
    assert_eq!(r.score, Score::Mate(2));
}

#[test]
fn mate_in_three() {
    // Fairy-Stockfish 11.1 agrees: 1.Ra6+ f6 2.Bxf6+ Rg7 3.Rxa8#.
    let (pos, r) = search("r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1", 8);
    assert_eq!(best_uci(&pos, &r), "f6a6");
    assert_eq!(r.score, Score::Mate(3));
}

#[test]
fn being_mated_is_reported() {
    // Black to move: 1...Kb8 2.Rh8#.
    let (pos, r) = search("k7/8/1K6/8/8/8/8/7R b - - 0 1", 4);
    assert!(pos.is_legal(r.best.unwrap()));
    assert_eq!(r.score, Score::Mate(-1));
}

#[test]
fn avoids_stalemate_and_wins() {
    // Most queen moves stalemate the bare king; the engine must not.
    let (pos, r) = search("k7/2Q5/8/8/8/8/8/K7 w - - 0 1", 10);
    let mut child = pos.clone();
    child.play(r.best.unwrap());
    assert!(!child.legal_moves().is_empty(), "{}", best_uci(&pos, &r));
    let winning = match r.score {
        Score::Mate(n) => n > 0,
        Score::Cp(cp) => cp > 800,
    };
    assert!(winning, "{:?}", r.score);
}

#[test]
fn no_legal_move_gives_no_best_move() {
    let (_, r) = search("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", 5);
    assert_eq!(r.best, None);
    assert_eq!(r.ponder, None);
}

#[test]
fn repetition_with_the_game_history_is_a_draw() {
    // Black is a queen down. The game went 1...Nf6 2.Kg2 Ng8 3.Kg1, so
    // 3...Nf6 repeats the position after 1...Nf6: the search scores it 0.
    let start = Position::from_fen(Variant::Chess, "6nk/8/8/8/8/8/Q7/6K1 b - - 0 1").unwrap();
    let mut pos = start.clone();
    let mut history = Vec::new();
    for text in ["g8f6", "g1g2", "f6g8", "g2g1"] {
        history.push(pos.hash());
        pos.play(parse_uci(&pos, text).unwrap());
    }
    assert!(pos.same_for_repetition(&start));
    let limits = Limits {
        depth: Some(6),
        ..Limits::default()
    };
    let mut engine = Engine::new(8);
    let r = engine.search(&pos, &history, &limits, &Signals::new(), &mut |_| {});
    assert_eq!(best_uci(&pos, &r), "g8f6");
    assert_eq!(r.score, Score::Cp(0));
    // Without the history the same position is lost.
    let mut engine = Engine::new(8);
    let r = engine.search(&pos, &[], &limits, &Signals::new(), &mut |_| {});
    assert!(matches!(r.score, Score::Cp(s) if s < -500), "{:?}", r.score);
}

#[test]
fn node_limit_is_exact_and_deterministic() {
    let pos = Position::startpos(Variant::Chess);
    let limits = Limits {
        nodes: Some(5_000),
        ..Limits::default()
    };
    let run = || {
        let mut engine = Engine::new(8);
        engine.search(&pos, &[], &limits, &Signals::new(), &mut |_| {})
    };
    let (a, b) = (run(), run());
    assert_eq!(a, b);
    assert_eq!(a.nodes, 5_000);
    let m = a.best.unwrap();
    assert_eq!(parse_uci(&pos, &to_uci(&pos, m)).unwrap(), m);
}

#[test]
fn info_is_reported_each_iteration() {
    let pos = Position::startpos(Variant::Chess);
    let mut engine = Engine::new(8);
    engine.multipv = 3;
    let limits = Limits {
        depth: Some(4),
        ..Limits::default()
    };
    let mut infos = Vec::new();
    engine.search(&pos, &[], &limits, &Signals::new(), &mut |i| {
        infos.push(i.clone())
    });
    let seen: Vec<(u32, usize)> = infos.iter().map(|i| (i.depth, i.multipv)).collect();
    let expected: Vec<(u32, usize)> = (1..=4).flat_map(|d| (1..=3).map(move |k| (d, k))).collect();
    assert_eq!(seen, expected);
    for i in &infos {
        assert!(!i.pv.is_empty());
        let mut p = pos.clone();
        for &m in &i.pv {
            assert!(p.is_legal(m));
            p.play(m);
        }
    }
}

#[test]
fn self_play_games_only_make_legal_moves() {
    // Low node counts make many different positions (openings, middle
    // games, endings) in little time.
    for nodes in [300, 1_000] {
        let mut engine = Engine::new(1);
        let mut game = springboard_rules::Game::new(Position::startpos(Variant::Chess));
        let limits = Limits {
            nodes: Some(nodes),
            ..Limits::default()
        };
        while game.outcome().is_none() && game.moves().len() < 300 {
            let pos = game.position().clone();
            let history: Vec<u64> = game.positions()[..game.positions().len() - 1]
                .iter()
                .map(|p| p.hash())
                .collect();
            let r = engine.search(&pos, &history, &limits, &Signals::new(), &mut |_| {});
            let m = r.best.expect("a move while the game is on");
            game.play(m).expect("a legal move");
            if let Some(p) = r.ponder {
                let mut next = game.position().clone();
                next.play_checked(p).expect("a legal ponder move");
            }
        }
    }
}
