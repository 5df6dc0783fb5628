//! `searchmoves`: the root moves a search is given (the page deals the
//! root moves between several Web Workers, each searching its share), in
//! long notation, refused when one is not a legal move or none is given.

use springboard_wasm::search::{Analyser, ScoreView, SearchLimits};
use springboard_wasm::{GameState, WasmError};

/// White to move mates with Qh5xf7.
const SCHOLAR: &str = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4";

fn limits(json: &str) -> SearchLimits {
    SearchLimits::from_json(json).unwrap()
}

/// The first move of every reported line and the result's best move.
fn search(g: &GameState, json: &str) -> (Vec<String>, String, ScoreView, u64) {
    let mut firsts = Vec::new();
    let r = Analyser::new(4)
        .search(g, &limits(json), &mut |info| {
            firsts.push(info.pv[0].clone());
            false
        })
        .unwrap();
    (firsts, r.best.expect("a move"), r.score, r.nodes)
}

#[test]
fn only_the_listed_moves_are_searched() {
    let g = GameState::new("chess", None).unwrap();
    let (firsts, best, _, _) = search(
        &g,
        r#"{"depth": 4, "multipv": 2, "searchmoves": ["a2a3", "h2h3"]}"#,
    );
    assert!(firsts.len() >= 8, "{firsts:?}");
    assert!(
        firsts.iter().all(|m| m == "a2a3" || m == "h2h3"),
        "{firsts:?}"
    );
    assert!(firsts.contains(&"a2a3".to_string()) && firsts.contains(&"h2h3".to_string()));
    assert!(best == "a2a3" || best == "h2h3", "{best}");
    // One move: that move.
    let (_, best, _, _) = search(&g, r#"{"depth": 3, "searchmoves": ["b1a3"]}"#);
    assert_eq!(best, "b1a3");
}

#[test]
fn every_legal_move_listed_is_the_whole_search() {
    let g = GameState::new("chess", None).unwrap();
    let all: Vec<String> = g.legal().into_iter().map(|m| m.uci).collect();
    let json = format!(
        r#"{{"depth": 5, "searchmoves": {}}}"#,
        serde_json::to_string(&all).unwrap()
    );
    assert_eq!(search(&g, &json), search(&g, r#"{"depth": 5}"#));
}

#[test]
fn a_mate_is_found_in_the_share_that_holds_it() {
    let g = GameState::new("chess", Some(SCHOLAR)).unwrap();
    let (_, best, score, _) = search(&g, r#"{"depth": 4, "searchmoves": ["h5f7", "a2a3"]}"#);
    assert_eq!((best.as_str(), score), ("h5f7", ScoreView::Mate(1)));
    // The other share: every legal move but the mate.
    let others: Vec<String> = g
        .legal()
        .into_iter()
        .map(|m| m.uci)
        .filter(|m| m != "h5f7")
        .collect();
    let json = format!(
        r#"{{"depth": 4, "searchmoves": {}}}"#,
        serde_json::to_string(&others).unwrap()
    );
    let (firsts, best, score, _) = search(&g, &json);
    assert_ne!(best, "h5f7");
    assert!(!firsts.contains(&"h5f7".to_string()));
    assert!(matches!(score, ScoreView::Cp(_)), "{score:?}");
}

#[test]
fn hop_chess_shares_are_whole_turns() {
    let mut g = GameState::new("hopchess", None).unwrap();
    g.play("e2e4").unwrap();
    let turns: Vec<String> = g.legal().into_iter().map(|m| m.uci).collect();
    let pick = [turns[0].clone(), turns[turns.len() - 1].clone()];
    let json = format!(
        r#"{{"depth": 2, "multipv": 2, "searchmoves": {}}}"#,
        serde_json::to_string(&pick).unwrap()
    );
    let (firsts, best, _, _) = search(&g, &json);
    assert!(
        firsts.iter().all(|m| pick.contains(m)),
        "{firsts:?} {pick:?}"
    );
    assert!(pick.contains(&best));
    // A piece move without its trampoline square is half a turn.
    let half = pick[0].split('@').next().unwrap().to_string();
    let r = Analyser::new(4).search(
        &g,
        &limits(&format!(r#"{{"depth": 2, "searchmoves": ["{half}"]}}"#)),
        &mut |_| false,
    );
    assert!(matches!(r, Err(WasmError::SearchMove(_))), "{r:?}");
}

#[test]
fn an_unknown_or_illegal_move_is_refused() {
    let g = GameState::new("chess", None).unwrap();
    let mut a = Analyser::new(4);
    for (json, says) in [
        (
            r#"{"searchmoves": ["e2e4", "e2e5"]}"#,
            "bad search limits: searchmoves: illegal move 'e2e5' in this position",
        ),
        (
            r#"{"searchmoves": ["e2"]}"#,
            "bad search limits: searchmoves: malformed move 'e2'",
        ),
        (
            r#"{"searchmoves": []}"#,
            "bad search limits: searchmoves lists no move",
        ),
    ] {
        let mut called = false;
        let err = a
            .search(&g, &limits(json), &mut |_| {
                called = true;
                false
            })
            .unwrap_err();
        assert_eq!(err.to_string(), says);
        assert!(!called, "{json}: searched");
    }
    // Not a list of texts: refused as it is read.
    assert!(matches!(
        SearchLimits::from_json(r#"{"searchmoves": "e2e4"}"#),
        Err(WasmError::Limits(_))
    ));
}
