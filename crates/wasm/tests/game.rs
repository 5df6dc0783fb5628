//! The bindings' Rust side, natively: a game read, played and written
//! back, refusals with the rules core's reasons, and a search that reports
//! its progress and stops when its callback says so. (The WebAssembly
//! build itself is tested in Node: e2e/wasm/.)

use springboard_wasm::search::{Analyser, ScoreView, SearchLimits};
use springboard_wasm::{GameState, WasmError};

#[test]
fn play_san_fen_and_pgn() {
    let mut g = GameState::new("chess", None).unwrap();
    assert_eq!(g.legal().len(), 20);
    assert_eq!(g.san("g1f3").unwrap(), "Nf3");
    let m = g.play("e2e4").unwrap();
    assert_eq!(
        (m.uci.as_str(), m.san.as_str(), m.kind),
        ("e2e4", "e4", "double_step")
    );
    g.play("e5").unwrap();
    assert_eq!(
        g.fen(),
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    );
    let back = GameState::from_pgn(&g.pgn(), Some("chess")).unwrap();
    assert_eq!(back.fen(), g.fen());
    assert_eq!(back.moves(), g.moves());
    assert_eq!(g.undo().as_deref(), Some("e7e5"));
    assert_eq!(g.history_keys().len(), 1);
    assert!(matches!(g.play("e2e5"), Err(WasmError::Move(_))));
    assert!(matches!(
        GameState::new("shogi", None),
        Err(WasmError::UnknownGame(_))
    ));
    assert!(matches!(
        GameState::new("chess", Some("8/8/8 w")),
        Err(WasmError::Fen(_))
    ));
}

#[test]
fn hop_chess_turns_and_half_steps() {
    let mut g = GameState::new("hopchess", None).unwrap();
    g.play("e2e4").unwrap();
    let view = g.view();
    assert_eq!(view.turn, "black");
    assert!(view.legal.iter().all(|m| m.place.is_some()));
    assert!(!view.steps.is_empty());
    assert_eq!(view.last_move.map(|m| m.uci), Some("e2e4".to_string()));
    assert_eq!(g.perft(1), view.legal.len() as u64);
}

#[test]
fn a_game_over_takes_no_move() {
    // Fool's mate.
    let mut g = GameState::new("chess", None).unwrap();
    for m in ["f3", "e5", "g4", "Qh4#"] {
        g.play(m).unwrap();
    }
    assert!(g.view().outcome.is_some());
    assert!(g.legal().is_empty());
    assert!(matches!(g.play("e2e4"), Err(WasmError::GameOver)));
}

#[test]
fn search_reports_and_stops() {
    let g = GameState::new("chess", None).unwrap();
    let mut a = Analyser::new(4);
    let mut depths = Vec::new();
    let limits = SearchLimits::from_json(r#"{"depth": 4}"#).unwrap();
    let r = a.search(&g, &limits, &mut |info| {
        assert!(info.nodes > 0 && !info.pv.is_empty());
        assert_eq!(info.pv.len(), info.pv_san.len());
        depths.push(info.depth);
        false
    });
    assert_eq!(depths, [1, 2, 3, 4]);
    assert_eq!(r.depth, 4);
    assert!(r.best.is_some() && matches!(r.score, ScoreView::Cp(_)));
    // No limit: it would search to the engine's depth cap, but the
    // callback asks it to stop at the second report; the search checks
    // the stop every few thousand nodes, so a short iteration or two may
    // still end and report.
    let mut reports = 0;
    let r = a.search(&g, &SearchLimits::default(), &mut |_| {
        reports += 1;
        reports >= 2
    });
    assert!((2..=6).contains(&reports), "{reports} reports");
    assert!((2..=6).contains(&r.depth), "depth {}", r.depth);
    assert!(matches!(
        SearchLimits::from_json(r#"{"depht": 3}"#),
        Err(WasmError::Limits(_))
    ));
}

#[test]
fn a_level_plays_as_the_servers_level() {
    // Level 1 is skill 0: one ply deep at most, a legal move of the game.
    let g = GameState::new("hopchess", None).unwrap();
    let mut a = Analyser::new(4);
    let limits = SearchLimits::from_json(r#"{"level": 1}"#).unwrap();
    let r = a.search(&g, &limits, &mut |_| false);
    assert_eq!(r.depth, 1);
    let best = r.best.expect("a move");
    assert!(g.legal().iter().any(|m| m.uci == best), "{best}");
    // Level 21 is full strength: no depth cap, bounded here by the depth.
    let limits = SearchLimits::from_json(r#"{"level": 21, "depth": 3}"#).unwrap();
    assert_eq!(a.search(&g, &limits, &mut |_| false).depth, 3);
    // A level out of range is clamped, as the server clamps it.
    let limits = SearchLimits::from_json(r#"{"level": 0, "depth": 3}"#).unwrap();
    assert_eq!(a.search(&g, &limits, &mut |_| false).depth, 1);
}

#[test]
fn pgn_with_the_players_and_a_resignation() {
    let mut g = GameState::new("hopchess", None).unwrap();
    let first = g.legal()[0].uci.clone();
    g.play(&first).unwrap();
    let tags = springboard_wasm::game::PgnTags::from_json(
        r#"{"tags": [["Event", "Offline game"], ["Result", "0-1"], ["Termination", "normal"]],
            "white": {"human": "You"}, "black": {"engine": {"name": "Springboard", "level": 4}}}"#,
    )
    .unwrap();
    let text = g.pgn_tagged(&tags);
    for line in [
        "[Event \"Offline game\"]",
        "[White \"You\"]",
        "[Black \"Springboard (level 4)\"]",
        "[Result \"0-1\"]",
        "[Variant \"hopchess\"]",
        "[BlackType \"program\"]",
    ] {
        assert!(text.contains(line), "{line} in {text}");
    }
    assert!(text.trim_end().ends_with("0-1"), "{text}");
    // The text reads back to the same game.
    let back = GameState::from_pgn(&text, None).unwrap();
    assert_eq!(back.fen(), g.fen());
    assert!(springboard_wasm::game::PgnTags::from_json(r#"{"tag": []}"#).is_err());
}
