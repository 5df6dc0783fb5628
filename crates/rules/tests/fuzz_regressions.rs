//! Inputs the fuzz targets (fuzz/, docs/fuzzing.md) found failing, each
//! kept as a test of the property it broke.

use springboard_rules::notation::san::{parse_san, to_san};
use springboard_rules::notation::seed::replay;
use springboard_rules::notation::uci::{parse_uci, to_uci};
use springboard_rules::{MoveKind, Position, Variant};

/// Every legal move's SAN reads back to that move.
fn san_round_trips(pos: &Position) {
    for m in pos.legal_moves() {
        let san = to_san(pos, m);
        match parse_san(pos, &san) {
            Ok(back) => assert_eq!(back, m, "{san} in {}", pos.to_fen()),
            Err(e) => panic!("{san} ({}) in {}: {e}", to_uci(pos, m), pos.to_fen()),
        }
    }
}

/// P9: the double step `d7d5` and the bounce `d7d6d5` are two moves; SAN
/// writes them `d5` and `d7-d6-d5`, and `d5` must read as the double step,
/// not be "ambiguous" (fen_trampoline).
#[test]
fn p9_san_double_step_beside_its_bounce_trampoline() {
    let pos = Position::from_fen(
        Variant::Trampoline,
        "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1 -,d6",
    )
    .unwrap();
    let double = parse_uci(&pos, "d7d5").unwrap();
    assert_eq!(double.kind(), MoveKind::DoubleStep);
    assert_eq!(to_san(&pos, double), "d5");
    assert_eq!(parse_san(&pos, "d5").unwrap(), double);
    let bounce = parse_uci(&pos, "d7d6d5").unwrap();
    assert_eq!(to_san(&pos, bounce), "d7-d6-d5");
    assert_eq!(parse_san(&pos, "d7-d6-d5").unwrap(), bounce);
    san_round_trips(&pos);
}

/// The same in Hop Chess, with the placement: `d4 f2` is `d2d4@f2`
/// (fen_hopchess).
#[test]
fn p9_san_double_step_beside_its_bounce_hopchess() {
    let pos =
        Position::from_fen(Variant::HopChess, "4k3/8/8/8/8/8/3P4/4K3 w - - 0 1 d3,a6 -").unwrap();
    let m = parse_uci(&pos, "d2d4@f2").unwrap();
    assert_eq!(to_san(&pos, m), "d4 f2");
    assert_eq!(parse_san(&pos, "d4 f2").unwrap(), m);
    san_round_trips(&pos);
}

/// A game text written in SAN replays with the seeds' reader: a Hop Chess
/// bounce path `d2-d3-d4` followed by its placement square `a1` (game).
#[test]
fn seed_reader_reads_a_hop_chess_path_with_its_placement() {
    let start =
        Position::from_fen(Variant::HopChess, "4k3/8/8/8/8/8/3P4/4K3 w - - 0 5 d3,a8 -").unwrap();
    let r = replay(&start, "d2-d3-d4 a1 Kd7 c1 d5 d1 Kd6 f1").unwrap();
    assert_eq!(r.moves.len(), 4);
    assert_eq!(to_uci(&start, r.moves[0]), "d2d3d4@a1");
}

/// A Hoplit Chess game text in SAN replays with the seeds' reader: the drop
/// `H@b8` (N6) is read as SAN reads it (game).
#[test]
fn seed_reader_reads_a_hoplit_drop() {
    let start = Position::from_fen(
        Variant::Hoplit,
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R[Hh] w KQkq - 4 4",
    )
    .unwrap();
    let r = replay(&start, "Kf1 H@b8 Ke2 Na5").unwrap();
    assert_eq!(r.moves.len(), 4);
    assert_eq!(to_uci(&r.positions[1], r.moves[1]), "H@b8");
}

/// J9's pool of 4 limits promotion only: Black's jumping king leaves its
/// last knight behind after a promotion made a fourth, a fifth knight on
/// the board, and the position text of every position after a legal move
/// is read back (fen_jumpingking).
#[test]
fn j9_a_placement_after_a_promotion_may_make_a_fifth_of_a_kind() {
    let pos = Position::from_fen(
        Variant::JumpingKing,
        "8/1rnb4/r2n1b2/1kpp4/1PP1P3/2NNR3/RKBB4/8[n] b j 9 10",
    )
    .unwrap();
    let jump = parse_uci(&pos, "b5a7n").unwrap();
    let mut after = pos.clone();
    after.play(jump);
    let text = after.to_fen();
    assert_eq!(
        text,
        "8/krnb4/r2n1b2/1npp4/1PP1P3/2NNR3/RKBB4/8[] w - 10 11"
    );
    assert_eq!(
        Position::from_fen(Variant::JumpingKing, &text).unwrap(),
        after
    );
    for m in pos.legal_moves() {
        let mut next = pos.clone();
        next.play(m);
        let text = next.to_fen();
        assert!(
            Position::from_fen(Variant::JumpingKing, &text).is_ok(),
            "{text}"
        );
    }
}

/// The seeds' reader of one piece move reads a Hop Chess bounce path as a
/// piece step (no placement): the path alone is the step, and a path with a
/// placement or trailing text after the promotion letter is no step (seed:
/// `e7-e8-e1=Q@a1+` was read as a whole turn).
#[test]
fn seed_reader_reads_a_hop_chess_path_as_a_step() {
    use springboard_rules::notation::seed::read_piece_move;
    let pos =
        Position::from_fen(Variant::HopChess, "4k3/8/8/8/8/8/3P4/4K3 w - - 0 1 d3,a6 -").unwrap();
    let mut steps = Vec::new();
    pos.legal_steps_into(&mut steps);
    let step = read_piece_move(&pos, "d2-d3-d4").unwrap();
    assert!(steps.contains(&step));
    assert_eq!(step.place(), None);
    assert!(step.is_bounce());
    assert!(read_piece_move(&pos, "d2-d3-d4@a1").is_err());
    // H8: promotion on the trampoline e8, then on to a4.
    let pos =
        Position::from_fen(Variant::HopChess, "8/4P3/8/8/8/8/8/1k5K w - - 0 5 e8,h3 -").unwrap();
    assert!(read_piece_move(&pos, "e7-e8-a4=Q@a1+").is_err());
    assert!(read_piece_move(&pos, "e7-e8-a4=Qx").is_err());
    let mut steps = Vec::new();
    pos.legal_steps_into(&mut steps);
    let promotion = read_piece_move(&pos, "e7-e8-a4=Q").unwrap();
    assert!(steps.contains(&promotion));
    assert_eq!(
        promotion.with_place(Some(springboard_rules::Square::G3)),
        parse_uci(&pos, "e7e8a4q@g3").unwrap()
    );
}

/// A `Termination` tag with a carriage return: the tag is written with the
/// line break as a space, and so must the closing comment that repeats it,
/// or the PGN read back writes another text (pgn).
#[test]
fn pgn_termination_with_a_line_break_writes_back_the_same() {
    use springboard_rules::notation::pgn::{read, write, VariantHint};
    let text = "[Termination \"time\rforfeit\"]\n\n*\n";
    let (game, tags) = read(text, VariantHint::Any).unwrap();
    let written = write(&game, &tags);
    assert!(written.contains("{time forfeit}"), "{written}");
    let (again, again_tags) = read(&written, VariantHint::Any).unwrap();
    assert_eq!(write(&again, &again_tags), written);
}

/// C4: the halfmove clock and the fullmove number stop at 999,999, the
/// most a position text holds, so every position play reaches is written
/// and read back. The Hop Chess text below, with its clock at 999,999,
/// once gave after a quiet move a text with clock 1000000 that its own
/// reader refused (fen_hopchess). Each game: every legal move from a
/// position with both counters at the bound, Black to move.
#[test]
fn c4_counters_stop_at_the_most_a_position_text_holds() {
    let found = Position::from_fen(
        Variant::HopChess,
        "r1b1k3/1r1p1q1p/8/p3N3/8/nK6/P4PPP/R4BNR w - - 999999 16 a6,e4 -",
    )
    .unwrap();
    let texts = [
        (Variant::Chess, "4k3/8/8/8/3p4/8/8/R3K3 b - - 999999 999999"),
        (
            Variant::HopChess,
            "4k3/8/8/8/3p4/8/8/R3K3 b - - 999999 999999 c6,f3 -",
        ),
        (
            Variant::Trampoline,
            "4k3/8/8/8/3p4/8/8/R3K3 b - - 999999 999999 c3,-",
        ),
        (
            Variant::Hoplit,
            "4k3/8/8/8/3p4/8/8/R3K3[h] b - - 999999 999999",
        ),
        (
            Variant::JumpingKing,
            "5k2/8/8/8/8/8/1R6/K7[rrbbnnppp] b j 999999 999999",
        ),
    ];
    let mut positions = vec![found];
    for (variant, text) in texts {
        positions.push(Position::from_fen(variant, text).unwrap_or_else(|e| panic!("{text}: {e}")));
    }
    for pos in positions {
        let moves = pos.legal_moves();
        assert!(!moves.is_empty(), "{}", pos.to_fen());
        for m in moves {
            let mut child = pos.clone();
            child.play(m);
            let text = child.to_fen();
            assert!(child.halfmove_clock() <= 999_999, "{text}");
            assert!(child.fullmove_number() <= 999_999, "{text}");
            let again = Position::from_fen(child.variant(), &text).unwrap_or_else(|e| {
                panic!(
                    "{} then {}: {text:?} is refused: {e}",
                    pos.to_fen(),
                    to_uci(&pos, m)
                )
            });
            assert_eq!(again.to_fen(), text);
        }
    }
    // Below the bound the counters still count.
    let pos =
        Position::from_fen(Variant::Chess, "4k3/8/8/8/8/8/8/R3K3 b - - 999997 999998").unwrap();
    let mut child = pos.clone();
    child.play(parse_uci(&pos, "e8d8").unwrap());
    assert_eq!(
        (child.halfmove_clock(), child.fullmove_number()),
        (999_998, 999_999)
    );
}
