//! Hoplit Chess rulings L1-L5 and C1/C2 as they apply to it.

use crate::notation::uci::{parse_uci, to_uci};
use crate::{DrawReason, FenError, Game, Outcome, Position, Square, Variant};

fn pos(fen: &str) -> Position {
    Position::from_fen(Variant::Hoplit, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The legal moves (long notation, sorted) whose text starts with `prefix`.
fn moves(p: &Position, prefix: &str) -> Vec<String> {
    let mut out: Vec<String> = p
        .legal_moves()
        .into_iter()
        .map(|m| to_uci(p, m))
        .filter(|t| t.starts_with(prefix))
        .collect();
    out.sort();
    out
}

fn play(p: &mut Position, text: &str) {
    let m = parse_uci(p, text).unwrap_or_else(|e| panic!("{text}: {e}"));
    p.play(m);
    assert_eq!(p.hash(), p.compute_hash());
}

#[test]
fn l2_no_screen_no_move() {
    let p = pos("7k/8/8/8/8/8/8/H6K[] w - - 0 1");
    assert!(moves(&p, "a1").is_empty());
}

#[test]
fn hoplit_targets_accessor_matches_the_moves() {
    // The same position as below: the accessor's squares are exactly
    // the destinations of the legal Hoplit moves; no Hoplit, no squares.
    let p = pos("7k/8/8/8/1P6/4n3/8/H6K[] w - - 0 1");
    let targets: Vec<Square> = p.hoplit_targets(Square::A1).collect();
    assert_eq!(
        targets,
        [
            Square::F3,
            Square::G3,
            Square::H3,
            Square::B5,
            Square::B6,
            Square::B7,
            Square::B8
        ]
    );
    assert!(p.hoplit_targets(Square::H1).is_empty());
    assert!(p.hoplit_targets(Square::C3).is_empty());
}

#[test]
fn l2_first_leg_lengths_outward_directions_and_screens() {
    // a1-b2 (one step), north: b3 empty, own pawn b4 screens, lands on
    // b5-b8. a1-c3 (two steps), east: d3 empty, black knight e3 screens,
    // lands on f3-h3. Other turning squares find no screen.
    let p = pos("7k/8/8/8/1P6/4n3/8/H6K[] w - - 0 1");
    assert_eq!(
        moves(&p, "a1"),
        ["a1b5", "a1b6", "a1b7", "a1b8", "a1f3", "a1g3", "a1h3"]
    );
}

#[test]
fn l2_stops_before_the_next_piece_and_captures_enemies_only() {
    // Beyond the screen b4: b5 empty, black rook b6 taken, not further.
    // Beyond the screen e3: f3 empty, own bishop g3 ends the leg.
    let p = pos("7k/8/1r6/8/1P6/4n1B1/8/H6K[] w - - 0 1");
    assert_eq!(moves(&p, "a1"), ["a1b5", "a1b6", "a1f3"]);
}

#[test]
fn l2_board_edges() {
    // h1 has one diagonal. g2 north: rook g6 screens, g7-g8; g2 west:
    // pawn c2 screens, b2-a2. f3 north: the screen f8 stands on the
    // edge, nothing beyond; b7 north: the same with b8; a8 is a corner.
    // e4 north: the king e8 is only a screen.
    let p = pos("1b2kn2/8/6r1/8/8/8/2P5/4K2H[] w - - 0 1");
    assert_eq!(moves(&p, "h1"), ["h1a2", "h1b2", "h1g7", "h1g8"]);
}

#[test]
fn l3_enemy_pawn_screen_reaches_only_the_square_behind() {
    // b4: black pawn, only b5. e3: black pawn, only f3 (a capture).
    // g4: black pawn with the own rook h4 behind: nothing.
    let p = pos("k7/8/8/8/1p4pR/4pn2/8/H6K[] w - - 0 1");
    assert_eq!(moves(&p, "a1"), ["a1b5", "a1f3"]);
    // An own pawn as screen is an ordinary screen (L2).
    let p = pos("k7/8/8/8/1P6/8/8/H6K[] w - - 0 1");
    assert_eq!(moves(&p, "a1"), ["a1b5", "a1b6", "a1b7", "a1b8"]);
}

#[test]
fn l3_pawn_in_front_of_the_king_screens_a_check() {
    // Black Hoplit c7-d6-e5, south: e4, e3 empty, the white pawn e2
    // screens and e1 is directly behind it: check.
    let p = pos("k7/2h5/8/8/8/8/4P3/4K3[] w - - 0 1");
    assert!(p.is_check());
    assert_eq!(p.checkers().first(), Some(Square::C7));
    // With e1 two squares behind the pawn (e3), no check.
    let p = pos("k7/2h5/8/8/8/4P3/8/4K3[] w - - 0 1");
    assert!(!p.is_check());
}

#[test]
fn l2_new_screen_of_an_enemy_hoplit_is_illegal() {
    // Black Hoplit c7-d6-e5, south along the e-file to the king e1 with
    // no screen: the knight may not become the screen on e2 or e4.
    let p = pos("k7/2h5/8/8/8/2N5/8/4K3[] w - - 0 1");
    assert!(!p.is_check());
    assert_eq!(
        moves(&p, "c3"),
        ["c3a2", "c3a4", "c3b1", "c3b5", "c3d1", "c3d5"]
    );
}

#[test]
fn l2_removed_screen_of_an_enemy_hoplit_is_illegal() {
    // Two pieces between the turning square e5 and the king: no check,
    // but neither may leave (the other would become the only screen).
    let p = pos("7k/2h5/8/8/4B3/4N3/8/4K3[] w - - 0 1");
    assert!(!p.is_check());
    assert!(moves(&p, "e4").is_empty());
    assert!(moves(&p, "e3").is_empty());
    // With the diagonal leg blocked on d6 both screens move freely.
    let p = pos("7k/2h5/3R4/8/4B3/4N3/8/4K3[] w - - 0 1");
    assert_eq!(moves(&p, "e4").len(), 13);
    assert_eq!(moves(&p, "e3").len(), 8);
}

#[test]
fn l2_check_evasions_against_a_hoplit() {
    // The pawn e2 screens the check c7-d6-e5-e1. Answers: move the king
    // off the line, block the diagonal (Rd6), add a second screen (Re4),
    // or capture the Hoplit (Rxc7).
    let p = pos("7k/2h5/8/8/8/8/4P3/3RK3[] w - - 0 1");
    assert!(p.is_check());
    assert_eq!(moves(&p, "d1"), ["d1d6"]);
    let p = pos("7k/2h5/8/8/8/8/4P3/2R1K3[] w - - 0 1");
    assert_eq!(moves(&p, "c1"), ["c1c7"]);
    let p = pos("7k/2h5/8/8/R7/8/4P3/4K3[] w - - 0 1");
    assert_eq!(moves(&p, "a4"), ["a4e4"]);
    assert_eq!(moves(&p, "e1"), ["e1d1", "e1d2", "e1f1", "e1f2"]);
    // e2-e3 moves the screen so that e1 is no longer directly behind
    // it (L3) and leaves one screen: no check; e2-e4 likewise.
    let p = pos("k7/2h5/8/8/8/8/4P3/4K3[] w - - 0 1");
    assert_eq!(moves(&p, "e2"), ["e2e3", "e2e4"]);
}

#[test]
fn l2_discovered_checks_by_own_hoplit() {
    // White Hoplit c2-d3-e4, north to the king e8: a knight arriving on
    // e6 becomes the screen and gives check.
    let mut p = pos("4k3/8/8/6N1/8/8/2H5/4K3[] w - - 0 1");
    play(&mut p, "g5e6");
    assert!(p.is_check());
    assert_eq!(p.checkers().first(), Some(Square::C2));
    // Two screens e5 and e6: moving one away gives check.
    let mut p = pos("4k3/8/4N3/4N3/8/8/2H5/4K3[] w - - 0 1");
    assert!(!p.is_check());
    play(&mut p, "e5c4");
    assert!(p.is_check());
    assert_eq!(p.checkers().first(), Some(Square::C2));
}

#[test]
fn l4_drops() {
    // The start: the first rank is full, no drop.
    let p = Position::startpos(Variant::Hoplit);
    assert!(moves(&p, "H@").is_empty());
    // After 1.Nf3 Nf6: H@g1, the pawn steps to g3, the clock resets.
    let mut p = pos("rnbqkb1r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKB1R[Hh] w KQkq - 2 2");
    assert_eq!(moves(&p, "H@"), ["H@g1"]);
    play(&mut p, "H@g1");
    assert_eq!(
        p.to_fen(),
        "rnbqkb1r/pppppppp/5n2/8/8/5NP1/PPPPPP1P/RNBQKBHR[h] b KQkq - 0 2"
    );
    // Black drops with `H@` too, behind b7.
    let mut p = pos("4k3/1p6/8/8/8/8/8/4K3[h] b - - 0 1");
    assert_eq!(moves(&p, "H@"), ["H@b8"]);
    play(&mut p, "H@b8");
    assert_eq!(p.to_fen(), "1h2k3/8/1p6/8/8/8/8/4K3[] w - - 0 2");
    // No pawn in front, or the pawn's next square taken: no drop.
    let p = pos("4k3/8/8/8/8/1N6/1P6/4K3[H] w - - 0 1");
    assert!(moves(&p, "H@").is_empty());
    // Nothing in reserve: no drop.
    let p = pos("4k3/8/8/8/8/8/1P6/4K3[] w - - 0 1");
    assert!(moves(&p, "H@").is_empty());
    let p = pos("4k3/8/8/8/8/8/1P6/4K3[H] w - - 0 1");
    assert_eq!(moves(&p, "H@"), ["H@b1"]);
}

#[test]
fn l4_drop_in_check() {
    // Bishop a5 checks along a5-e1: the pawn step c2-c3 blocks it, f2-f3
    // does not.
    let p = pos("4k3/8/8/b7/8/8/2P2P2/4K3[H] w - - 0 1");
    assert!(p.is_check());
    assert_eq!(moves(&p, "H@"), ["H@c1"]);
    // Rook a1 checks along the first rank: the Hoplit itself blocks on
    // d1 (the king is not attacked after the drop).
    let p = pos("4k3/8/8/8/8/8/3P4/r3K3[H] w - - 0 1");
    assert!(p.is_check());
    assert_eq!(moves(&p, "H@"), ["H@d1"]);
}

#[test]
fn l4_drop_answers_a_double_check() {
    // Rook a1 and bishop a5 both check: H@c1 blocks the rook with the
    // Hoplit and the bishop with the pawn step c2-c3.
    let p = pos("4k3/8/8/b7/8/8/2P5/r3K3[H] w - - 0 1");
    assert_eq!(p.checkers().count(), 2);
    assert_eq!(moves(&p, ""), ["H@c1", "e1e2", "e1f2"]);
}

#[test]
fn l4_drop_that_exposes_the_king_is_illegal() {
    // The pawn d2 is pinned by the bishop a5.
    let p = pos("4k3/8/8/b7/8/8/3P4/4K3[H] w - - 0 1");
    assert!(moves(&p, "H@").is_empty());
    // d2-d3 would make the pawn the screen of the Hoplit a5-b4-c3,
    // east: an enemy pawn (L3), with the king e3 directly behind it.
    // d2-d4 is fine.
    let p = pos("4k3/8/8/h7/8/4K3/3P4/8[H] w - - 0 1");
    assert!(!p.is_check());
    assert!(moves(&p, "H@").is_empty());
    assert_eq!(moves(&p, "d2"), ["d2d4"]);
}

#[test]
fn l5_promotion_to_hoplit() {
    let mut p = pos("4k3/P7/8/8/8/8/8/4K3[] w - - 0 1");
    assert_eq!(
        moves(&p, "a7"),
        ["a7a8b", "a7a8h", "a7a8n", "a7a8q", "a7a8r"]
    );
    play(&mut p, "a7a8h");
    assert_eq!(p.to_fen(), "H3k3/8/8/8/8/8/8/4K3[] b - - 0 1");
}

#[test]
fn c1_castling_judged_after_the_move() {
    // O-O would vacate e1, a turning square of the Hoplit c3-d2-e1,
    // whose leg east then jumps the rook f1 onto the king g1.
    let p = pos("4k3/8/8/8/8/2h5/8/4K2R[] w K - 0 1");
    assert!(!p.is_check());
    assert!(moves(&p, "e1g1").is_empty());
    // Without the Hoplit it is legal.
    let p = pos("4k3/8/8/8/8/8/8/4K2R[] w K - 0 1");
    assert_eq!(moves(&p, "e1g1"), ["e1g1"]);
    // The crossed square f1 is attacked (Hoplit b3-c2-d1, east over the
    // king): no castling.
    let p = pos("4k3/8/8/8/8/1h6/8/4K2R[] w K - 0 1");
    assert!(!p.is_check());
    assert!(moves(&p, "e1g1").is_empty());
}

#[test]
fn c2_insufficient_material_counts_hoplits() {
    for (fen, draw) in [
        ("8/8/4k3/8/8/4K3/8/8[] w - - 0 1", true),
        ("8/8/4k3/8/8/4K3/8/8[H] w - - 0 1", false),
        ("8/8/4k3/8/8/4K3/8/8[h] w - - 0 1", false),
        ("8/8/4k3/8/8/4K3/4H3/8[] w - - 0 1", false),
        ("8/8/4k3/8/8/4K3/4N3/8[] w - - 0 1", true),
    ] {
        assert_eq!(pos(fen).is_insufficient_material(), draw, "{fen}");
    }
    let p = pos("8/8/4k3/8/8/4K3/8/8[] w - - 0 1");
    assert_eq!(
        p.outcome(),
        Some(Outcome::Draw(DrawReason::InsufficientMaterial))
    );
}

#[test]
fn c2_repetition_counts_reserves() {
    // The knights' dance repeats the start three times.
    let mut game = Game::new(Position::startpos(Variant::Hoplit));
    for text in "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8".split_whitespace() {
        game.play(parse_uci(game.position(), text).unwrap())
            .unwrap();
    }
    assert_eq!(game.repetitions(), 3);
    assert_eq!(game.outcome(), Some(Outcome::Draw(DrawReason::Repetition)));
    // The same placement with another reserve is another position.
    let a = pos("4k3/8/8/8/8/8/8/4K3[Hh] w - - 0 1");
    let b = pos("4k3/8/8/8/8/8/8/4K3[h] w - - 0 1");
    assert_ne!(a.hash(), b.hash());
    assert!(!a.same_for_repetition(&b));
}

#[test]
fn position_text_round_trip_and_errors() {
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Hh] w KQkq - 0 1",
        "rnbqkb1r/pppppppp/5n2/8/8/5NP1/PPPPPP1P/RNBQKBHR[h] b KQkq - 0 2",
        "r1h1k2r/pp2bppp/2n1pn2/q2p4/3P4/2NBPN2/PP1H1PPP/R2QK2R[] w KQkq - 0 1",
        "4k3/8/8/8/8/8/1P6/4K3[H] w - - 5 40",
    ] {
        assert_eq!(pos(fen).to_fen(), fen);
    }
    // Reserve letters in any order; four fields.
    assert_eq!(
        pos("4k3/8/8/8/8/8/8/4K3[hH] w - -").to_fen(),
        "4k3/8/8/8/8/8/8/4K3[Hh] w - - 0 1"
    );
    let err = |fen: &str| Position::from_fen(Variant::Hoplit, fen).unwrap_err();
    assert_eq!(
        err("4k3/8/8/8/8/8/8/4K3 w - - 0 1"),
        FenError::MissingReserve
    );
    assert!(matches!(
        err("4k3/8/8/8/8/8/8/4K3[Q] w - - 0 1"),
        FenError::ReserveContent { .. }
    ));
    assert!(matches!(
        err("4k3/8/8/8/8/8/8/4K3[HH] w - - 0 1"),
        FenError::ReserveContent { .. }
    ));
    assert!(matches!(
        err("4k3/8/8/8/8/8/8/4K3[H w - - 0 1"),
        FenError::BadReserve(_)
    ));
    assert!(matches!(
        err("4k3/8/8/8/8/8/8/4K3[H1] w - - 0 1"),
        FenError::BadReserve(_)
    ));
    assert!(matches!(
        err("4k3/8/8/8/8/8/8/4K3 [H] w - - 0 1"),
        FenError::ReserveContent { .. }
    ));
    // The side not to move may not be in check, by a Hoplit either.
    assert_eq!(
        err("k7/2h5/8/8/8/8/4P3/4K3[] b - - 0 1"),
        FenError::OppositeCheck("White")
    );
    // 16 men and the Hoplit in reserve is too many.
    assert!(matches!(
        err("rnbqkbnr/pppppppp/8/8/8/7H/PPPPPPPP/RNBQKBNR[Hh] w KQkq - 0 1"),
        FenError::TooManyPieces("White", 18)
    ));
    // A Hoplit is no piece of chess.
    assert!(Position::from_fen(Variant::Chess, "4k3/8/8/8/8/8/8/H3K3 w - - 0 1").is_err());
    // Messages name the bad text.
    assert!(err("4k3/8/8/8/8/8/8/4K3[Q] w - - 0 1")
        .to_string()
        .contains("[Q]"));
}

#[test]
fn ep_square_kept_only_when_legal_with_hoplits() {
    // After e7-e5, d5xe6 would empty e5 and d5 on the leg of the Hoplit
    // h6-g5, west onto the king a5, leaving the knight c5 as its only
    // screen: the capture is illegal, so the square is not kept (C2).
    let mut p = pos("4k3/4p3/7h/K1NP4/8/8/8/8[] b - - 0 1");
    play(&mut p, "e7e5");
    assert_eq!(p.ep_square(), None);
    assert_eq!(moves(&p, "d5"), ["d5d6"]);
    assert_eq!(p.to_fen(), "4k3/8/7h/K1NPp3/8/8/8/8[] w - - 0 2");
    let mut p = pos("4k3/4p3/8/K1NP4/8/8/8/8[] b - - 0 1");
    play(&mut p, "e7e5");
    assert_eq!(p.ep_square(), Some(Square::E6));
    assert_eq!(moves(&p, "d5"), ["d5d6", "d5e6"]);
}
