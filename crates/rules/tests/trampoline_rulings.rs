//! One test per ruling of the trampoline games (RULINGS.md P1-P9, H1-H10,
//! T1-T7, N3-N5), each on a small hand-built position.

use springboard_rules::notation::san::{parse_san, to_san};
use springboard_rules::notation::seed::replay;
use springboard_rules::notation::uci::{parse_uci, to_uci};
use springboard_rules::{
    Color, FenError, Game, MoveError, MoveKind, Outcome, Position, Square, Variant, WinReason,
};

fn hop(fen: &str) -> Position {
    Position::from_fen(Variant::HopChess, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn tramp(fen: &str) -> Position {
    Position::from_fen(Variant::Trampoline, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn legal(pos: &Position, uci: &str) -> bool {
    parse_uci(pos, uci).is_ok()
}

fn list(pos: &Position) -> Vec<String> {
    let mut v: Vec<String> = pos.legal_moves().iter().map(|&m| to_uci(pos, m)).collect();
    v.sort();
    v
}

#[test]
fn p9_n3_double_step_and_its_bounce_twin_are_two_moves() {
    let pos = hop("4k3/8/8/8/8/8/3P4/4K3 w - - 0 1 d3,a6 -");
    let double = parse_uci(&pos, "d2d4@h1").unwrap();
    let bounce = parse_uci(&pos, "d2d3d4@h1").unwrap();
    assert_eq!(double.kind(), MoveKind::DoubleStep);
    assert_eq!(bounce.kind(), MoveKind::Normal);
    assert_ne!(double, bounce);
    let moves = list(&pos);
    assert!(moves.contains(&"d2d4@h1".to_string()));
    assert!(moves.contains(&"d2d3d4@h1".to_string()));
}

#[test]
fn p9_n3_direct_move_and_its_bounce_twin_are_one_move() {
    let pos = tramp("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1 e3,-");
    let direct = parse_uci(&pos, "c1f4").unwrap();
    let bounce = parse_uci(&pos, "c1e3f4").unwrap();
    assert_eq!(direct, bounce);
    assert_eq!(to_uci(&pos, bounce), "c1f4");
    let to_f4 = pos
        .legal_moves()
        .into_iter()
        .filter(|m| m.from() == Some(Square::C1) && m.to() == Some(Square::F4))
        .count();
    assert_eq!(to_f4, 1);
    // A path the bishop cannot take is refused, though its move exists.
    assert!(matches!(
        parse_uci(&pos, "c1d2f4"),
        Err(MoveError::Illegal(_))
    ));
}

#[test]
fn n3_canonical_path_fewest_squares_then_alphabetical() {
    // b1-a3-b5 and b1-c3-b5: the alphabetically smaller text wins.
    let pos = hop("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1 a3,c3 -");
    let m = parse_uci(&pos, "b1c3b5@h1").unwrap();
    assert_eq!(to_uci(&pos, m), "b1a3b5@h1");
    assert_eq!(parse_uci(&pos, "b1a3b5@h1").unwrap(), m);
}

#[test]
fn h6_queen_keeps_the_line_she_arrived_on() {
    let pos = hop("4k3/8/8/8/8/8/8/3QK3 w - - 0 1 d4,a6 -");
    assert!(legal(&pos, "d1d4h4@d4"));
    assert!(legal(&pos, "d1d4d7@d4"));
    assert!(!legal(&pos, "d1d4f6@d4"));
    assert!(!pos
        .legal_moves()
        .iter()
        .any(|m| m.from() == Some(Square::D1) && m.to() == Some(Square::F6)));
}

#[test]
fn t4_queen_turns_on_her_trampoline() {
    let pos = tramp("4k3/8/8/8/8/8/8/3QK3 w - - 0 1 d4,a6");
    assert!(legal(&pos, "d1d4f6"));
    assert!(legal(&pos, "d1d4h4"));
}

#[test]
fn h4_double_bounce_and_p8_check_through_both_trampolines() {
    let pos = hop("7k/4p3/8/8/8/8/8/R6K w - - 0 1 a4,e4 -");
    assert!(legal(&pos, "a1a4e4e7@a4"));
    // The same attack is a check with Black to move.
    let pos = hop("4k3/8/8/8/8/8/8/R6K b - - 0 1 a4,e4 -");
    assert!(pos.is_check());
    assert!(pos.is_attacked(Square::E8, Color::White));
}

#[test]
fn t3_only_the_own_trampoline_once() {
    // White's pieces may not use Black's trampoline on e4.
    let pos = tramp("7k/4p3/8/8/8/8/8/R6K w - - 0 1 a4,e4");
    assert!(!legal(&pos, "a1a4e4e7"));
    assert!(!pos.legal_moves().iter().any(|m| m.to() == Some(Square::E4)));
    // A bishop passes over the enemy trampoline.
    let pos = tramp("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1 -,e3");
    assert!(legal(&pos, "c1f4"));
}

#[test]
fn p6_h8_promotion_on_a_trampoline_then_full_queen() {
    let pos = hop("8/4P3/8/8/7k/8/8/K7 w - - 0 1 e8,h3 -");
    assert!(legal(&pos, "e7e8a4q@e8"));
    assert!(legal(&pos, "e7e8f6n@e8"));
    assert!(legal(&pos, "e7e8e3r@e8"));
    // H5: never back to the origin, even promoted.
    assert!(!legal(&pos, "e7e8e7r@e8"));
}

#[test]
fn h6_promoted_queen_is_bound_on_the_second_trampoline() {
    let pos = hop("8/4P3/8/8/7k/8/8/K7 w - - 0 1 e8,b5 -");
    assert!(legal(&pos, "e7e8b5a4q@e8"));
    assert!(!legal(&pos, "e7e8b5b1q@e8"));
    assert!(!pos
        .legal_moves()
        .iter()
        .any(|m| m.to() == Some(Square::B1) && m.from() == Some(Square::E7)));
}

#[test]
fn t6_promoted_piece_may_return_to_the_origin() {
    let pos = tramp("8/4P3/8/8/7k/8/8/K7 w - - 0 1 e8,-");
    let m = parse_uci(&pos, "e7e8e7r").unwrap();
    let mut after = pos.clone();
    after.play(m);
    assert_eq!(after.to_fen(), "8/4R3/8/8/7k/8/8/K7 b - - 0 1 e8,-");
    assert!(legal(&pos, "e7e8e7q"));
}

#[test]
fn t6_p8_a_pawn_promoting_on_its_trampoline_pins_back_over_its_origin() {
    // White's pawn c7 may play c7-c8(T)=R and slide back over its vacated
    // origin c7 (P7, T6): the knight c6 is pinned to its king c5 (P8).
    let pos = tramp("8/2P5/2n5/2k5/8/8/8/3K4 b - - 0 1 c8,-");
    let piece_moves: Vec<String> = list(&pos)
        .into_iter()
        .filter(|m| !m.starts_with('@'))
        .collect();
    assert_eq!(piece_moves, ["c5b4", "c5b5", "c5c4", "c5d4", "c5d5"]);
    // Without the knight the king stands in check from that path.
    assert!(tramp("8/2P5/8/2k5/8/8/8/3K4 b - - 0 1 c8,-").is_check());
    // Hop Chess: either trampoline serves, the pin is the same (H4).
    let hop_pos = hop("8/2P5/2n5/2k5/8/8/8/3K4 b - - 0 5 c8,a1 -");
    assert!(list(&hop_pos).iter().all(|m| !m.starts_with("c6")));
}

#[test]
fn p4_pawn_enters_straight_and_captures_from_the_trampoline() {
    let pos = hop("4k3/8/3n4/8/4P3/8/8/4K3 w - - 0 1 e5,a6 -");
    assert!(legal(&pos, "e4e5d6@e5"));
    // No double step from a trampoline.
    let pos = hop("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 e3,a6 -");
    assert!(!legal(&pos, "e2e3e5@e3"));
    assert!(legal(&pos, "e2e3e4@e3"));
}

#[test]
fn h7_double_step_onto_a_trampoline_t5_not() {
    // The seed's d2-d4:c5.
    let fen = "r1bqkbnr/pp2pppp/2np4/2p5/8/6P1/PPPPPPBP/RNBQK1NR w KQkq - 0 1 d4,f5";
    let pos = hop(&format!("{fen} -"));
    assert!(legal(&pos, "d2d4c5@a3"));
    let pos = tramp("4k3/8/8/2p5/8/8/3P4/4K3 w - - 0 1 d4,-");
    assert!(!legal(&pos, "d2d4c5"));
    assert!(!legal(&pos, "d2d4"));
    // T5: over the own trampoline on the third rank.
    let pos = tramp("4k3/8/8/2p5/8/8/3P4/4K3 w - - 0 1 d3,-");
    assert!(legal(&pos, "d2d4"));
}

#[test]
fn seed_example_moves_of_hop_chess() {
    let fen = "r1bqkbnr/pp2pppp/2np4/2p5/8/6P1/PPPPPPBP/RNBQK1NR b KQkq - 0 1 d4,f5 -";
    let pos = hop(fen);
    let m = parse_uci(&pos, "c8f5e4@a3").unwrap();
    assert_eq!(to_san(&pos, m), "Bc8-f5-e4 a3");
    let m = parse_uci(&pos, "c6d4f5g3@a3").unwrap();
    assert_eq!(to_san(&pos, m), "Nc6-d4-f5:g3 a3");
    assert_eq!(parse_san(&pos, "Nc6-d4-f5:g3 a3").unwrap(), m);
    let pos = hop(&fen.replace(" b ", " w "));
    let m = parse_uci(&pos, "d2d4c5@a3").unwrap();
    assert_eq!(to_san(&pos, m), "d2-d4:c5 a3");
}

#[test]
fn p5_en_passant_blocked_by_the_placement() {
    let pos = hop("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1 h3,a3 -");
    let mut open = pos.clone();
    open.play(parse_uci(&pos, "d7d5@a3").unwrap());
    assert_eq!(open.ep_square(), Some(Square::D6));
    assert!(legal(&open, "e5d6@h3"));
    let mut blocked = pos.clone();
    blocked.play(parse_uci(&pos, "d7d5@d6").unwrap());
    assert_eq!(blocked.ep_square(), None);
    assert!(!legal(&blocked, "e5d6@h3"));
}

#[test]
fn p5_a_bounce_gives_no_en_passant_right() {
    let pos = hop("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1 h3,d6 -");
    let mut after = pos.clone();
    after.play(parse_uci(&pos, "d7d6d5@a3").unwrap());
    assert_eq!(after.ep_square(), None);
}

#[test]
fn p5_trampoline_on_the_skipped_square() {
    // T5: the pawn double-steps over its own trampoline; no capture onto it.
    let pos = tramp("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1 h3,d6");
    let mut after = pos.clone();
    after.play(parse_uci(&pos, "d7d5").unwrap());
    assert_eq!(after.ep_square(), None);
    assert!(!legal(&after, "e5d6"));
}

#[test]
fn p3_h10_castling_and_trampolines() {
    let free = hop("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1 h4,a6 -");
    assert!(legal(&free, "e1g1@h4"));
    assert!(legal(&free, "e1c1@h4"));
    for (tramps, short, long) in [
        ("f1,a6", false, true),
        ("g1,a6", false, true),
        ("b1,a6", true, false),
        ("d1,a6", true, false),
        ("h4,c1", true, false),
    ] {
        let pos = hop(&format!("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1 {tramps} -"));
        let place = pos.trampoline(Color::White).unwrap();
        assert_eq!(legal(&pos, &format!("e1g1@{place}")), short, "{tramps}");
        assert_eq!(legal(&pos, &format!("e1c1@{place}")), long, "{tramps}");
    }
    // H10: f1 is attacked through the trampoline f6 (b6-f6-f1).
    let pos = hop("4k3/8/1r6/8/8/8/8/4K2R w K - 0 1 f6,a8 -");
    assert!(!pos.is_check());
    assert!(!legal(&pos, "e1g1@f6"));
    assert!(!pos
        .legal_moves()
        .iter()
        .any(|m| m.kind() == MoveKind::Castle));
}

#[test]
fn p3_kings_never_bounce() {
    let pos = hop("4k3/8/8/8/8/8/8/4K3 w - - 0 1 e2,a6 -");
    assert!(!pos.legal_moves().iter().any(|m| m.to() == Some(Square::E2)));
}

#[test]
fn h5_no_return_to_the_origin() {
    let pos = hop("4k3/8/8/8/8/8/8/4K1N1 w - - 0 1 f3,a6 -");
    assert!(!legal(&pos, "g1f3g1@f3"));
    assert!(legal(&pos, "g1f3d4@f3"));
}

#[test]
fn t7_a_trampoline_move_gives_check_and_never_resolves_one() {
    let pos = tramp("4k3/3p4/8/1Q6/8/8/8/4K3 w - - 0 1 -,-");
    let m = parse_uci(&pos, "@e5").unwrap();
    assert_eq!(to_san(&pos, m), "Te5+");
    let mut after = pos.clone();
    after.play(m);
    assert!(after.is_check());
    assert!(!after
        .legal_moves()
        .iter()
        .any(|m| m.kind() == MoveKind::Trampoline));
}

#[test]
fn t2_a_trampoline_move_must_change_square() {
    let pos = tramp("4k3/8/8/8/8/8/8/4K3 w - - 0 1 e4,-");
    assert!(!legal(&pos, "@e4"));
    assert!(legal(&pos, "@e5"));
    assert_eq!(pos.legal_moves().len(), 5 + 61);
}

#[test]
fn h2_check_given_by_the_placement() {
    let pos = hop("4k3/3p4/8/1Q6/8/8/8/4K3 w - - 0 1 -,a6 -");
    let m = parse_uci(&pos, "e1f1@e5").unwrap();
    assert_eq!(to_san(&pos, m), "Kf1 e5+");
    let mut after = pos.clone();
    after.play(m);
    assert!(after.is_check());
}

#[test]
fn h3_white_first_turn_has_no_placement_then_black_places() {
    let pos = Position::startpos(Variant::HopChess);
    assert!(pos.is_first_turn());
    assert!(pos.legal_moves().iter().all(|m| m.place().is_none()));
    let mut next = pos.clone();
    next.play(parse_uci(&pos, "e2e4").unwrap());
    assert!(!next.is_first_turn());
    assert!(next.legal_moves().iter().all(|m| m.place().is_some()));
    // Black's turn needs its placement (N4): the error says so (issue 11,
    // item 14).
    assert!(matches!(
        parse_uci(&next, "g8f6"),
        Err(MoveError::NeedsPlacement { .. })
    ));
}

#[test]
fn hop_quick_mate_na3_b6_nc4() {
    // 1.Na3 b6@e5 2.Nc4@d6: the knight checks through d6 (c4-d6-e8).
    let mut game = Game::new(Position::startpos(Variant::HopChess));
    for text in ["b1a3", "b7b6@e5", "a3c4@d6"] {
        let m = parse_uci(game.position(), text).unwrap();
        game.play(m).unwrap();
    }
    assert_eq!(
        game.outcome(),
        Some(Outcome::Win {
            winner: Color::White,
            reason: WinReason::Checkmate
        })
    );
}

#[test]
fn half_steps_make_a_turn() {
    let pos = Position::startpos(Variant::HopChess);
    let mut a = pos.clone();
    a.play(parse_uci(&pos, "e2e4").unwrap());
    let mut b = a.clone();
    let mut steps = Vec::new();
    b.legal_steps_into(&mut steps);
    assert_eq!(steps.len(), 20);
    let step = parse_uci(&b, "g8f6@d5").unwrap().piece_part();
    b.play_step(step);
    assert!(b.placement_pending());
    assert_eq!(
        b.to_fen(),
        "rnbqkb1r/pppppppp/5n2/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 1 1 -,- place"
    );
    assert_eq!(
        Position::from_fen(Variant::HopChess, &b.to_fen())
            .unwrap()
            .hash(),
        b.hash()
    );
    assert_eq!(
        parse_san(&b, "d5").unwrap(),
        springboard_rules::Move::trampoline(Square::D5)
    );
    b.play_step(springboard_rules::Move::trampoline(Square::D5));
    a.play(parse_uci(&a, "g8f6@d5").unwrap());
    assert_eq!(a.to_fen(), b.to_fen());
    assert_eq!(a.hash(), b.hash());
}

#[test]
fn position_text_round_trip_and_errors() {
    for (variant, fen) in [
        (Variant::HopChess, Variant::HopChess.start_fen()),
        (Variant::Trampoline, Variant::Trampoline.start_fen()),
        (
            Variant::HopChess,
            "r1b1k3/3p1p1p/8/pB2N3/8/K7/P4PPP/R5NR b - - 0 17 e1,b4 -",
        ),
        (
            Variant::HopChess,
            "4k3/8/8/8/8/8/8/4K3 b - - 3 9 -,c4 place",
        ),
        (
            Variant::Trampoline,
            "2Q1k2r/1p1q1ppp/p1nQ4/8/8/4B1P1/PPP2P1P/2K4R b - - 0 25 d8,g4",
        ),
    ] {
        let pos = Position::from_fen(variant, fen).unwrap();
        assert_eq!(pos.to_fen(), fen);
        assert_eq!(pos.hash(), pos.compute_hash());
    }
    let hop_err = |fen: &str| Position::from_fen(Variant::HopChess, fen).unwrap_err();
    assert!(matches!(
        hop_err("4k3/8/8/8/8/8/8/4K3 w - - 0 1 e1,- -"),
        FenError::TrampolineOnPiece { .. }
    ));
    assert!(matches!(
        hop_err("4k3/8/8/8/8/8/8/4K3 w - - 0 1 c3,c3 -"),
        FenError::TrampolinesOnOneSquare(_)
    ));
    for bad in ["c3", "c3,d4,e5", "c3;d4", "z9,-", ""] {
        let fen = format!("4k3/8/8/8/8/8/8/4K3 w - - 0 1 {bad} -");
        assert!(
            Position::from_fen(Variant::HopChess, &fen).is_err(),
            "{fen}"
        );
    }
    assert!(matches!(
        hop_err("4k3/8/8/8/8/8/8/4K3 w - - 0 1 -,- later"),
        FenError::BadState(_)
    ));
    assert!(matches!(
        hop_err("4k3/8/8/8/8/8/8/4K3 w - - 0 1 -,-"),
        FenError::FieldCount { .. }
    ));
    assert_eq!(
        hop_err("4k3/8/8/8/8/8/8/4K3 b - - 0 1 -,- first"),
        FenError::FirstTurnMisplaced
    );
    // The side not to move in check through a trampoline (P8).
    assert!(matches!(
        hop_err("4k3/8/8/8/8/8/8/R6K w - - 0 1 a4,e4 -"),
        FenError::OppositeCheck(_)
    ));
    assert!(
        Position::from_fen(Variant::Trampoline, "4k3/8/8/8/8/8/8/4K3 w - - 0 1 -,- -").is_err()
    );
}

#[test]
fn replays_the_hop_chess_seed_game_to_the_diagram() {
    let text = include_str!("games/hop-chess.txt");
    let r = replay(&Position::startpos(Variant::HopChess), text).unwrap();
    assert_eq!(r.moves.len(), 33);
    let last = r.positions.last().unwrap();
    // The diagram after the game: '@' White's trampoline e1, '#' Black's b4.
    assert_eq!(
        last.to_fen(),
        "r1b1k3/3p1p1p/8/pB2N3/8/K7/P4PPP/R5NR b - - 0 17 e1,b4 -"
    );
    assert_eq!(r.outcome, None);
}

#[test]
fn replays_the_trampoline_chess_seed_game_to_mate() {
    let text = include_str!("games/trampoline-chess.txt");
    let r = replay(&Position::startpos(Variant::Trampoline), text).unwrap();
    assert_eq!(r.moves.len(), 49);
    assert_eq!(
        r.outcome,
        Some(Outcome::Win {
            winner: Color::White,
            reason: WinReason::Checkmate
        })
    );
}

#[test]
fn seed_importer_reports_ambiguity_with_candidates() {
    // Two knights can take on d4: "NxP" names the captured piece only.
    let pos = tramp("4k3/8/8/8/3p4/8/2N1N3/4K3 w - - 0 1 -,-");
    let err = replay(&pos, "1. NxP").unwrap_err();
    match err.source {
        MoveError::Ambiguous { candidates, .. } => {
            assert!(candidates.contains("c2d4"), "{candidates}");
            assert!(candidates.contains("e2d4"), "{candidates}");
        }
        other => panic!("{other}"),
    }
    assert!(replay(&pos, "1. NcxP").is_ok());
}

#[test]
fn c2_c4_repetition_and_clock_with_trampoline_moves() {
    // Trampoline moves count for the 50-move clock (C4) and the position
    // repeats with the trampolines back on their squares (C2).
    let mut game = Game::new(tramp("4k3/8/8/8/8/8/8/4K3 w - - 0 1 a1,h8"));
    for text in ["@e4", "@e5", "@a1", "@h8", "@e4", "@e5", "@a1"] {
        let m = parse_uci(game.position(), text).unwrap();
        game.play(m).unwrap();
        assert_eq!(game.outcome(), None, "{text}");
    }
    assert_eq!(game.position().halfmove_clock(), 7);
    game.play(parse_uci(game.position(), "@h8").unwrap())
        .unwrap();
    assert_eq!(
        game.outcome(),
        Some(Outcome::Draw(springboard_rules::DrawReason::Repetition))
    );
}

#[test]
fn h9_a_hop_turn_is_one_ply_and_placement_counts_for_repetition() {
    let mut game = Game::new(hop("4k3/8/8/8/8/8/8/4K3 w - - 0 1 a1,h8 -"));
    for text in [
        "e1d1@a1", "e8d8@h8", "d1e1@a1", "d8e8@h8", "e1d1@a1", "e8d8@h8", "d1e1@a1",
    ] {
        game.play(parse_uci(game.position(), text).unwrap())
            .unwrap();
        assert_eq!(game.outcome(), None, "{text}");
    }
    assert_eq!(game.position().halfmove_clock(), 7);
    // The same king moves with the trampoline elsewhere are no repetition.
    let mut other = game.clone();
    other
        .play(parse_uci(other.position(), "d8e8@g8").unwrap())
        .unwrap();
    assert_eq!(other.outcome(), None);
    game.play(parse_uci(game.position(), "d8e8@h8").unwrap())
        .unwrap();
    assert_eq!(
        game.outcome(),
        Some(Outcome::Draw(springboard_rules::DrawReason::Repetition))
    );
}
