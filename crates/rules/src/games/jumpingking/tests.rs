//! Tests of the Jumping King rules: one small position per ruling (named
//! after its id), the position text, notation, the seed game, and
//! cross-checks against the slow reference implementation.

#[path = "reference.rs"]
mod reference;

use super::*;
use crate::error::MoveError;
use crate::notation::san::{parse_san, to_san};
use crate::notation::seed;
use crate::notation::uci::{parse_uci, to_uci};
use crate::perft::perft;
use crate::position::DrawReason;
use crate::Game;
use reference::Ref;

const SEED_GAME: &str = include_str!("../../../tests/games/jumping-king.txt");

fn pos(fen: &str) -> Position {
    Position::from_fen(Variant::JumpingKing, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn fen_error(fen: &str) -> FenError {
    Position::from_fen(Variant::JumpingKing, fen).expect_err(fen)
}

fn sorted(list: impl IntoIterator<Item = String>) -> Vec<String> {
    let mut v: Vec<String> = list.into_iter().collect();
    v.sort();
    v
}

fn moves(p: &Position) -> Vec<String> {
    sorted(p.legal_moves().into_iter().map(|m| to_uci(p, m)))
}

fn moves_from(p: &Position, from: Square) -> Vec<String> {
    sorted(
        p.legal_moves()
            .into_iter()
            .filter(|m| m.from() == Some(from))
            .map(|m| to_uci(p, m)),
    )
}

fn strs(list: &[&str]) -> Vec<String> {
    sorted(list.iter().map(|s| s.to_string()))
}

fn play(p: &Position, line: &str) -> Position {
    let mut p = p.clone();
    for text in line.split_whitespace() {
        let m = parse_uci(&p, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        p.play(m);
    }
    p
}

fn start() -> Position {
    Position::startpos(Variant::JumpingKing)
}

// ---- J1: the board ----

#[test]
fn j1_bishop_reaches_a1_through_b2_and_stops_at_holes() {
    let p = pos("8/2k5/8/8/4K3/2b5/8/8[] b - 0 1");
    assert_eq!(
        moves_from(&p, Square::C3),
        strs(&["c3a1", "c3b2", "c3d2", "c3b4", "c3a5", "c3d4", "c3e5", "c3f6"])
    );
}

#[test]
fn j1_rook_on_b2_cannot_go_to_b1() {
    let p = pos("8/2k5/8/8/4K3/8/1R6/8[] w - 0 1");
    assert_eq!(
        moves_from(&p, Square::B2),
        strs(&["b2a2", "b2c2", "b2d2", "b2e2", "b2f2", "b2b3", "b2b4", "b2b5", "b2b6", "b2b7"])
    );
}

#[test]
fn j1_knights_and_kings_land_only_on_the_38_squares() {
    let p = pos("8/5k2/8/8/8/8/2K1N3/8[] w - 0 1");
    assert_eq!(moves_from(&p, Square::E2), strs(&["e2c3", "e2d4", "e2f4"]));
    // b1 is not a square: the position text refuses a king there.
    assert_eq!(
        fen_error("8/5k2/8/8/8/8/8/1K6[] w - 0 1"),
        FenError::MissingSquare("b1".to_string())
    );
    // The black king on f7: e8, g6-g8 do not exist, f8 is its own weak square.
    let p = pos("8/5k2/8/8/8/8/2K5/8[] b - 0 1");
    assert_eq!(moves(&p), strs(&["f7e6", "f7e7", "f7f6"]));
}

// ---- J2: the start ----

#[test]
fn j2_start_position() {
    let p = start();
    assert_eq!(p.board().king_of(Color::White), Some(Square::A1));
    assert_eq!(p.board().king_of(Color::Black), Some(Square::F8));
    assert_eq!(p.board().occupied().count(), 2);
    for c in Color::ALL {
        assert_eq!(p.reserve(c, Role::Rook), 2);
        assert_eq!(p.reserve(c, Role::Bishop), 2);
        assert_eq!(p.reserve(c, Role::Knight), 2);
        assert_eq!(p.reserve(c, Role::Pawn), 3);
        assert_eq!(p.reserve(c, Role::Queen), 0);
        assert!(p.is_jumping(c));
        assert_eq!(p.unplaced(c), 9);
    }
    assert_eq!(
        p.to_fen(),
        "5k2/8/8/8/8/8/8/K7[RRBBNNPPPrrbbnnppp] w Jj 0 1"
    );
}

// ---- J3: weak squares ----

#[test]
fn j3_entering_the_opponents_weak_square_wins() {
    let p = pos("8/2k5/8/8/4K3/8/5R2/8[] w - 0 1");
    let m = parse_uci(&p, "f2f8").unwrap();
    let mut after = p.clone();
    after.play(m);
    assert!(after.legal_moves().is_empty());
    assert_eq!(
        after.outcome(),
        Some(Outcome::Win {
            winner: Color::White,
            reason: WinReason::WeakSquare
        })
    );
    assert_eq!(to_san(&p, m), "Rf8");
    // Black's bishop takes the road c3-b2-a1.
    let p = pos("8/2k5/8/8/4K3/2b5/8/8[] b - 0 1");
    let after = play(&p, "c3a1");
    assert_eq!(
        after.outcome(),
        Some(Outcome::Win {
            winner: Color::Black,
            reason: WinReason::WeakSquare
        })
    );
    assert_eq!(after.to_fen(), "8/2k5/8/8/4K3/8/8/b7[] w - 1 2");
    assert_eq!(pos(&after.to_fen()), after);
}

#[test]
fn j3_entering_ones_own_weak_square_is_illegal() {
    let p = pos("8/2k5/8/R7/4K3/8/8/8[] w - 0 1");
    assert!(!moves_from(&p, Square::A5).contains(&"a5a1".to_string()));
    assert!(moves_from(&p, Square::A5).contains(&"a5a2".to_string()));
    let p = pos("8/2k5/8/8/8/8/1K6/8[] w - 0 1");
    assert_eq!(moves(&p), strs(&["b2a2", "b2a3", "b2b3", "b2c2", "b2c3"]));
    let p = pos("8/4k3/8/8/8/8/2K5/8[] b - 0 1");
    assert!(!moves(&p).contains(&"e7f8".to_string()));
}

#[test]
fn j3_a_winning_move_must_be_legal() {
    // The white king on a3 is in check from a6: Rf2-f8 would win, but it
    // leaves the king in check.
    let p = pos("8/2k5/r7/8/8/K7/5R2/8[] w - 0 1");
    assert!(p.is_check());
    assert!(!moves(&p).contains(&"f2f8".to_string()));
    assert!(parse_uci(&p, "f2f8").is_err());
    assert!(p.weak_square_win().is_none());
}

#[test]
fn j3_whether_the_side_to_move_can_take_the_weak_square() {
    let wins = |fen: &str| {
        let p = pos(fen);
        let win = p.weak_square_win();
        assert!(win.is_none_or(|m| p.legal_moves().contains(&m)), "{fen}");
        win.is_some()
    };
    // The rook f2 sees f8; not with Black to move, nor behind a man.
    let p = pos("8/2k5/8/8/4K3/8/5R2/8[] w - 0 1");
    assert_eq!(
        p.weak_square_win().map(|m| to_uci(&p, m)).as_deref(),
        Some("f2f8")
    );
    assert!(!wins("8/2k5/8/8/4K3/8/5R2/8[] b - 0 1"));
    assert!(!wins("8/2k2n2/8/8/4K3/8/5R2/8[] w - 0 1"));
    // A pawn steps onto it (J9), from f7 for White and a2 for Black.
    assert!(wins("8/2k2P2/8/8/4K3/8/8/8[] w - 0 1"));
    assert!(wins("8/2k5/8/8/4K3/8/p7/8[] b - 0 1"));
    // A pawn beside it attacks it, but only steps forward.
    assert!(!wins("8/2k1P3/8/8/4K3/8/8/8[] w - 0 1"));
    // Not while a king jumps (J4, J6): the white rook waits.
    let jumping = "8/8/8/3k4/8/4K3/5R2/8[RBBNNPPPrrbbnnppp] w j 0 1";
    assert!(!wins(jumping));
    // The bishop c3's road to a1.
    assert!(wins("8/2k5/8/8/4K3/2b5/8/8[] b - 0 1"));
}

// ---- J4: the jumping phase ----

#[test]
fn j4_first_jump_places_nothing_then_every_jump_places() {
    let p = start();
    assert_eq!(moves(&p), strs(&["a1b3", "a1c2"]));
    let p = play(&p, "a1c2");
    assert_eq!(moves(&p), strs(&["f8d7", "f8e6"]));
    let p = play(&p, "f8d7");
    assert_eq!(
        p.board().occupied().count(),
        2,
        "the first jumps leave a1 and f8 empty"
    );
    let mut expected = Vec::new();
    for to in ["a3", "b4", "d4", "e3"] {
        for man in ["r", "b", "n", "p"] {
            expected.push(format!("c2{to}{man}"));
        }
    }
    assert_eq!(moves(&p), sorted(expected));
    let p = play(&p, "c2e3b");
    assert_eq!(
        p.board().piece_at(Square::C2),
        Some(Piece::new(Color::White, Role::Bishop))
    );
    assert_eq!(p.reserve(Color::White, Role::Bishop), 1);
    assert_eq!(p.unplaced(Color::White), 8);
    assert_eq!(
        p.to_fen(),
        "8/3k4/8/8/8/4K3/2B5/8[RRBNNPPPrrbbnnppp] b Jj 3 2"
    );
}

#[test]
fn j4_jumps_stay_in_the_own_area_on_empty_squares() {
    let p = pos("8/4k3/8/8/2K5/8/8/8[Rr] w Jj 0 1");
    assert_eq!(moves(&p), strs(&["c4a3r", "c4b2r", "c4d2r", "c4e3r"]));
    let p = pos("8/4k3/8/8/2K5/4R3/3p4/8[Rr] w Jj 0 1");
    assert_eq!(moves(&p), strs(&["c4a3r", "c4b2r"]));
    let p = pos("8/8/3k4/8/8/8/8/K7[Rr] b Jj 0 1");
    assert_eq!(moves(&p), strs(&["d6b5r", "d6b7r", "d6f5r", "d6f7r"]));
}

#[test]
fn j4_a_jumping_king_attacks_nothing() {
    // Black's king (its phase over) stands next to White's jumping king,
    // and the pawn c5 attacks it: neither is check. Black waits (J6).
    let p = pos("8/8/8/2p1k3/3K4/8/8/8[R] b J 0 1");
    assert!(!p.is_check());
    assert_eq!(moves(&p), strs(&["0000"]));
    assert!(!p.is_attacked(Square::E5, Color::White));
    assert!(p.is_attacked(Square::D4, Color::Black));
    let p = play(&p, "0000");
    assert!(!p.is_check());
    assert_eq!(moves(&p), strs(&["d4b3r", "d4c2r", "d4e2r", "d4f3r"]));
}

// ---- J5: the bishop colour rule ----

#[test]
fn j5_bishops_stand_on_different_colours() {
    // The king leaves c2 (light); White's bishop stands on e4 (light).
    let p = pos("8/4k3/8/8/4B3/8/2K5/8[BNr] w Jj 0 1");
    assert_eq!(moves(&p), strs(&["c2a3n", "c2b4n", "c2d4n", "c2e3n"]));
    // With the bishop on d4 (dark), the second bishop may go to c2.
    let p = pos("8/4k3/8/8/3B4/8/2K5/8[BNr] w Jj 0 1");
    assert_eq!(
        moves(&p),
        strs(&["c2a3b", "c2a3n", "c2b4b", "c2b4n", "c2e3b", "c2e3n"])
    );
    // A Black bishop on a light square does not matter.
    let p = pos("8/4k3/4b3/8/8/8/2K5/8[Br] w Jj 0 1");
    assert_eq!(moves(&p).len(), 4);
}

#[test]
fn j5_no_legal_placement_means_no_jump() {
    // Only a bishop is left, and it may not stand on c2: White is stuck.
    let p = pos("8/4k3/8/8/4B3/8/2K5/8[Br] w Jj 0 1");
    assert!(!p.is_jumping(Color::White));
    assert_eq!(moves(&p), strs(&["0000"]));
    assert_eq!(p.to_fen(), "8/4k3/8/8/4B3/8/2K5/8[Br] w j 0 1");
}

// ---- J6: stuck kings ----

#[test]
fn j6_a_stuck_king_passes_while_the_opponent_jumps() {
    let p = pos("8/4k3/8/8/3P4/1K6/3P4/8[Rr] w Jj 0 1");
    assert!(!p.is_jumping(Color::White));
    assert!(p.is_jumping(Color::Black));
    assert_eq!(moves(&p), strs(&["0000"]));
    assert_eq!(p.to_fen(), "8/4k3/8/8/3P4/1K6/3P4/8[Rr] w j 0 1");
    let after = play(&p, "0000");
    assert_eq!(
        after.reserve(Color::White, Role::Rook),
        1,
        "its men never enter"
    );
    assert_eq!(after.halfmove_clock(), 1);
    assert!(p.to_string().contains("White: stuck, never placed: R"));
}

#[test]
fn j6_a_passing_king_in_check_is_mated() {
    let p = pos("8/4k3/8/2n5/3P4/1K6/3P4/8[Rr] w Jj 0 1");
    assert!(p.is_check());
    assert!(p.legal_moves().is_empty());
    assert_eq!(
        p.outcome(),
        Some(Outcome::Win {
            winner: Color::Black,
            reason: WinReason::Checkmate
        })
    );
}

/// Found by the random playouts: White's ninth man was placed with its king
/// beside Black's jumping king (which attacks nothing, J4, J7); then Black
/// is stuck (J6), its phase ends and its king attacks. Kings are never
/// captured: Black, in check from White's king, must step away.
#[test]
fn j6_a_king_stuck_beside_the_enemy_king_steps_away() {
    let fen = "8/b1r1n3/2npb3/1r1p1k2/RPN2K2/B1PR4/BNP5/8[p] b - 19 10";
    let p = pos(fen);
    assert_eq!(p.to_fen(), fen);
    assert!(p.is_check());
    assert_eq!(moves(&p), strs(&["f5f6"]));
    // The same position with White to move has White's king attacked by a
    // king that is not stuck: no game reaches it.
    assert!(matches!(
        fen_error("8/b1r1n3/2npb3/1r1p1k2/RPN2K2/B1PR4/BNP5/8[] b - 19 10"),
        FenError::OppositeCheck(_)
    ));
}

#[test]
fn j6_a_stuck_king_moves_when_the_opponents_phase_is_over() {
    let p = pos("8/4k3/8/8/3P4/1K6/3P4/8[R] w J 0 1");
    assert_eq!(p.to_fen(), "8/4k3/8/8/3P4/1K6/3P4/8[R] w - 0 1");
    assert_eq!(
        moves(&p),
        strs(&["b3a2", "b3a3", "b3a4", "b3b2", "b3b4", "b3c2", "b3c3", "b3c4", "d2d3", "d4d5"])
    );
}

#[test]
fn j6_a_king_gets_stuck_during_the_game() {
    // Kc2-b4 leaves a rook on c2; b4's other jumps a2 and d3 are taken.
    let p = pos("8/4k3/8/8/8/3P4/P1K5/8[RNrn] w Jj 0 1");
    let p = play(&p, "c2b4r");
    assert!(p.is_jumping(Color::White));
    let p = play(&p, "e7d5n");
    assert!(!p.is_jumping(Color::White));
    assert_eq!(moves(&p), strs(&["0000"]));
    assert_eq!(p.unplaced(Color::White), 1);
    // Black places its last man: c7 is attacked by the rook c2 (J7).
    let p = play(&p, "0000");
    assert_eq!(moves(&p), strs(&["d5b6r", "d5f6r"]));
}

#[test]
fn j6_placing_the_ninth_man_ends_the_phase() {
    let p = pos("8/4k3/8/8/2K5/8/8/8[Rr] w Jj 0 1");
    let p = play(&p, "c4e3r");
    assert!(!p.is_jumping(Color::White));
    assert_eq!(p.unplaced(Color::White), 0);
    // Black's last jump may not go to c6, where the rook c4 attacks (J7).
    assert_eq!(moves(&p), strs(&["e7d5r", "e7f5r"]));
    let p = play(&p, "e7d5r");
    assert!(!p.is_jumping(Color::Black));
    assert_eq!(p.to_fen(), "8/4r3/8/3k4/2R5/4K3/8/8[] w - 2 2");
}

// ---- J7: a jumping king and check ----

#[test]
fn j7_a_jumping_king_may_jump_onto_attacked_squares() {
    // The pawn d5 attacks c4 and e4; with two men left both are open.
    let p = pos("8/4k3/8/3p4/8/8/3K4/8[RNr] w Jj 0 1");
    let mut expected = Vec::new();
    for to in ["b3", "c4", "e4", "f3"] {
        for man in ["r", "n"] {
            expected.push(format!("d2{to}{man}"));
        }
    }
    assert_eq!(moves(&p), sorted(expected));
    let p = play(&p, "d2e4r e7c6r");
    assert!(p.is_attacked(Square::E4, Color::Black));
    assert!(!p.is_check(), "an attack on a jumping king is not check");
    // Its last jump must leave it safe (the knight is its ninth man).
    assert_eq!(moves(&p), strs(&["e4c3n", "e4f2n"]));
}

#[test]
fn j7_the_jump_placing_the_ninth_man_must_leave_the_king_safe() {
    let p = pos("8/4k3/8/3p4/8/8/3K4/8[Rr] w Jj 0 1");
    assert_eq!(moves(&p), strs(&["d2b3r", "d2f3r"]));
    // Every last jump attacked: the king is stuck and waits.
    let p = pos("8/4k3/3r4/8/8/1K6/8/8[Rr] w Jj 0 1");
    assert!(!p.is_jumping(Color::White));
    assert_eq!(moves(&p), strs(&["0000"]));
}

#[test]
fn j7_after_its_phase_the_king_is_checked_and_mated() {
    // White has placed all nine; Black's placed bishop checks b3 and Black
    // still jumps, so White must pass in check: mate.
    let p = pos("8/8/4k3/8/8/1K6/8/8[bn] b j 0 1");
    assert_eq!(moves(&p), strs(&["e6c5b", "e6c5n", "e6c7b", "e6c7n"]));
    let m = parse_uci(&p, "e6c5b").unwrap();
    assert_eq!(to_san(&p, m), "Kc5<b#");
    let p = play(&p, "e6c5b");
    assert!(p.is_check());
    assert_eq!(
        p.outcome(),
        Some(Outcome::Win {
            winner: Color::Black,
            reason: WinReason::Checkmate
        })
    );
}

// ---- J8: the moving phase ----

#[test]
fn j8_fide_king_no_castling_no_double_step() {
    let p = pos("8/4k3/8/8/8/8/1P2K3/8[] w - 0 1");
    assert_eq!(moves_from(&p, Square::B2), strs(&["b2b3"]));
    assert_eq!(
        moves_from(&p, Square::E2),
        strs(&["e2d2", "e2d3", "e2e3", "e2f2", "e2f3"])
    );
    assert!(parse_uci(&p, "b2b4").is_err());
    // No castling field in the position text, no en passant: after b2-b3
    // the black pawn c4 has no capture on b3's side.
    let p = pos("8/4k3/8/8/2p5/8/1P2K3/8[] w - 0 1");
    let p = play(&p, "b2b3");
    assert_eq!(p.ep_square(), None);
    assert_eq!(moves_from(&p, Square::C4), strs(&["c4b3", "c4c3"]));
}

// ---- J9: promotion ----

#[test]
fn j9_optional_promotion_on_rank_7() {
    let p = pos("8/2k5/4P3/8/8/8/2K5/8[] w - 0 1");
    assert_eq!(
        moves_from(&p, Square::E6),
        strs(&["e6e7", "e6e7b", "e6e7n", "e6e7r"])
    );
    let plain = parse_uci(&p, "e6e7").unwrap();
    let rook = parse_uci(&p, "e6e7r").unwrap();
    assert_eq!(to_san(&p, plain), "e7");
    assert_eq!(to_san(&p, rook), "e7=R+");
    assert_eq!(parse_san(&p, "e7=R").unwrap(), rook);
    assert_eq!(parse_san(&p, "e7").unwrap(), plain);
    assert!(parse_uci(&p, "e6e7q").is_err(), "no queens");
    let after = play(&p, "e6e7r");
    assert_eq!(
        after.board().piece_at(Square::E7),
        Some(Piece::new(Color::White, Role::Rook))
    );
    assert_eq!(after.halfmove_clock(), 0);
}

#[test]
fn j9_the_pool_counts_both_colours_and_frees_the_captured_man() {
    // Four rooks stand: no rook on e7; taking the rook d7 frees one.
    let p = pos("8/2kr4/4P3/8/8/r7/R1K2R2/8[] w - 0 1");
    assert_eq!(
        moves_from(&p, Square::E6),
        strs(&["e6d7", "e6d7b", "e6d7n", "e6d7r", "e6e7", "e6e7b", "e6e7n"])
    );
    // Two knights a side: knights only by taking one.
    let p = pos("8/2k2n2/4P3/n7/8/8/1NK1N3/8[] w - 0 1");
    assert_eq!(
        moves_from(&p, Square::E6),
        strs(&["e6e7", "e6e7b", "e6e7r", "e6f7", "e6f7b", "e6f7n", "e6f7r"])
    );
}

#[test]
fn j9_black_promotes_on_rank_2_and_an_unpromoted_pawn_may_win() {
    let p = pos("8/4k3/8/8/8/1p2K3/p7/8[] b - 0 1");
    assert_eq!(moves_from(&p, Square::A2), strs(&["a2a1"]));
    assert_eq!(
        moves_from(&p, Square::B3),
        strs(&["b3b2", "b3b2b", "b3b2n", "b3b2r"])
    );
    let after = play(&p, "a2a1");
    assert_eq!(
        after.outcome(),
        Some(Outcome::Win {
            winner: Color::Black,
            reason: WinReason::WeakSquare
        })
    );
    // White pawns that stayed pawns on rank 7: f7 steps to f8 and wins,
    // a7 has nowhere to go.
    let p = pos("8/P4P2/8/2k5/8/8/2K5/8[] w - 0 1");
    assert_eq!(moves_from(&p, Square::F7), strs(&["f7f8"]));
    assert_eq!(moves_from(&p, Square::A7), Vec::<String>::new());
    assert_eq!(to_san(&p, parse_uci(&p, "f7f8").unwrap()), "f8");
}

// ---- J10: draws ----

#[test]
fn j10_no_insufficient_material_rule() {
    let p = pos("8/4k3/8/8/8/8/2K5/8[] w - 0 1");
    assert!(!p.is_insufficient_material());
    assert_eq!(p.outcome(), None);
}

#[test]
fn j10_fifty_moves_stalemate_and_repetition() {
    let p = pos("8/4k3/8/8/8/8/2K5/8[] w - 100 80");
    assert_eq!(p.outcome(), Some(Outcome::Draw(DrawReason::FiftyMoves)));
    // The king a2 may not enter a1 (J3); a3, b2 and b3 are guarded.
    let p = pos("8/1r6/4k3/2b5/8/8/K7/8[] w - 0 1");
    assert!(!p.is_check());
    assert_eq!(p.outcome(), Some(Outcome::Draw(DrawReason::Stalemate)));
    let mut game = Game::new(pos("8/4k3/8/8/8/8/2K5/8[] w - 0 1"));
    for text in "c2c3 e7e6 c3c2 e6e7 c2c3 e7e6 c3c2 e6e7".split_whitespace() {
        assert_eq!(game.outcome(), None);
        let m = parse_uci(game.position(), text).unwrap();
        game.play(m).unwrap();
    }
    assert_eq!(game.outcome(), Some(Outcome::Draw(DrawReason::Repetition)));
}

#[test]
fn c4_jumps_placements_and_passes_count_for_the_fifty_moves() {
    let p = play(&start(), "a1c2 f8d7 c2e3b");
    assert_eq!(p.halfmove_clock(), 3);
    let p = pos("8/4k3/8/8/3P4/1K6/3P4/8[Rr] w Jj 7 1");
    assert_eq!(play(&p, "0000").halfmove_clock(), 8);
}

#[test]
fn c2_repetition_counts_phase_and_reserves() {
    // The same men on the same squares, but White's king still jumps in one.
    let a = pos("8/4k3/8/8/3P4/1K6/8/8[R] w - 0 1");
    let b = pos("8/4k3/8/8/3P4/1K6/8/8[R] w J 0 1");
    assert!(b.is_jumping(Color::White));
    assert!(!a.same_for_repetition(&b));
    assert_ne!(a.hash(), b.hash());
    let c = pos("8/4k3/8/8/3P4/1K6/8/8[] w - 0 1");
    assert!(!a.same_for_repetition(&c));
    assert_ne!(a.hash(), c.hash());
}

// ---- N6 and the seed's notation ----

#[test]
fn n6_long_notation() {
    let p = start();
    let m = parse_uci(&p, "a1c2").unwrap();
    assert_eq!(m, Move::jump(Square::A1, Square::C2, None));
    assert_eq!(to_uci(&p, m), "a1c2");
    let p = play(&p, "a1c2 f8d7");
    let m = parse_uci(&p, "c2e3b").unwrap();
    assert_eq!(m, Move::jump(Square::C2, Square::E3, Some(Role::Bishop)));
    assert_eq!(to_uci(&p, m), "c2e3b");
    assert!(matches!(parse_uci(&p, "c2e3"), Err(MoveError::Illegal(_))));
    assert!(matches!(parse_uci(&p, "c2e3q"), Err(MoveError::Illegal(_))));
    assert!(matches!(parse_uci(&p, "0000"), Err(MoveError::Illegal(_))));
    assert!(matches!(
        parse_uci(&p, "c2e3x"),
        Err(MoveError::Malformed(_))
    ));
    let p = pos("8/4k3/8/8/3P4/1K6/3P4/8[Rr] w Jj 0 1");
    let m = parse_uci(&p, "0000").unwrap();
    assert_eq!(m.kind(), MoveKind::Pass);
    assert_eq!(to_uci(&p, m), "0000");
    assert_eq!(to_san(&p, m), "--");
    assert_eq!(parse_san(&p, "--").unwrap(), m);
}

#[test]
fn n6_short_notation_of_jumps() {
    let p = start();
    assert_eq!(to_san(&p, parse_uci(&p, "a1c2").unwrap()), "Kc2");
    assert_eq!(
        parse_san(&p, "Kc2").unwrap(),
        parse_uci(&p, "a1c2").unwrap()
    );
    let p = play(&p, "a1c2 f8d7");
    let m = parse_uci(&p, "c2e3b").unwrap();
    assert_eq!(to_san(&p, m), "Ke3<B");
    for text in ["Ke3<B", "Ke3<b", "Ke3<B+", "Ke3<B!?"] {
        assert_eq!(parse_san(&p, text).unwrap(), m, "{text}");
    }
    match parse_san(&p, "Ke3") {
        Err(MoveError::Ambiguous { candidates, .. }) => {
            assert_eq!(candidates, "Ke3<R, Ke3<B, Ke3<N, Ke3<P")
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        parse_san(&p, "Ke3<Q"),
        Err(MoveError::Malformed(_))
    ));
    assert!(matches!(parse_san(&p, "Ke5<B"), Err(MoveError::Illegal(_))));
    assert!(matches!(
        parse_san(&p, "e3<B"),
        Err(MoveError::Malformed(_))
    ));
    // Black's men in lower case, as the seed writes 4...Kc7<p.
    let p = play(&p, "c2e3b");
    let m = parse_uci(&p, "d7f6p").unwrap();
    assert_eq!(to_san(&p, m), "Kf6<p");
    assert_eq!(parse_san(&p, "Kf6<P").unwrap(), m);
}

/// The seed's text of a move as Springboard prints it: `?` dropped, `++`
/// for mate written `#`, Black's placed men in lower case.
fn seed_token_as_san(token: &str, black: bool) -> String {
    let mut t = token.trim_end_matches('?').replace("++", "#");
    if black {
        if let Some(i) = t.find('<') {
            t = format!("{}{}", &t[..i + 1], t[i + 1..].to_ascii_lowercase());
        }
    }
    t
}

#[test]
fn seed_game_replays_to_blacks_mate() {
    let r = seed::replay(&start(), SEED_GAME).unwrap();
    assert_eq!(r.moves.len(), 32);
    assert_eq!(
        r.outcome,
        Some(Outcome::Win {
            winner: Color::Black,
            reason: WinReason::Checkmate
        })
    );
    let long: Vec<String> = r
        .moves
        .iter()
        .zip(&r.positions)
        .map(|(&m, p)| to_uci(p, m))
        .collect();
    assert_eq!(
        long.join(" "),
        "a1c2 f8d7 c2e3b d7f6b e3c4r f6d5b c4d2p d5c7p d2e4b c7a6n e4c3p a6c5r \
         c3a2n c5b7p a2b4r b7d6r b4d3p d6b5n d3b2n b5a7p a2a6 a7a6 c4b5 c7b5 \
         b4c5 b5c3 b2a3 d6b5 a3b2 b5d4 b2a3 d4c2"
    );
    // Every move prints back as the seed writes it.
    let tokens = seed::tokens(SEED_GAME);
    for (i, ((&m, p), token)) in r.moves.iter().zip(&r.positions).zip(&tokens).enumerate() {
        assert_eq!(
            to_san(p, m),
            seed_token_as_san(token, i % 2 == 1),
            "ply {}",
            i + 1
        );
    }
    // J7 as the seed plays it: 5.Ke4<B lands on a square the pawn d5
    // attacks, and that is not check.
    let after_5 = &r.positions[9];
    assert!(after_5.is_attacked(Square::E4, Color::Black));
    assert!(!after_5.is_check());
    // Both phases end together on move 10; 11.Rxa6+ is a check.
    let moving = &r.positions[20];
    assert!(!moving.is_jumping(Color::White) && !moving.is_jumping(Color::Black));
    assert_eq!(
        moving.unplaced(Color::White) + moving.unplaced(Color::Black),
        0
    );
    assert_eq!(
        moving.to_fen(),
        "8/krnb4/r2n1b2/1ppp4/1PP1P3/2NNR3/RKBB4/8[] w - 20 11"
    );
}

// ---- Position text ----

const START_FEN: &str = "5k2/8/8/8/8/8/8/K7[RRBBNNPPPrrbbnnppp] w Jj 0 1";

#[test]
fn position_text_round_trips() {
    for fen in [
        START_FEN,
        "8/3k4/8/8/8/4K3/2B5/8[RRBNNPPPrrbbnnppp] b Jj 3 2",
        "8/4k3/8/8/4B3/8/2K5/8[Br] w j 0 1",
        "8/krnb4/r2n1b2/1ppp4/1PP1P3/2NNR3/RKBB4/8[] w - 20 11",
        "8/2k5/8/8/4K3/8/8/b7[] w - 1 2",
        "8/8/8/2p1k3/3K4/8/8/8[R] b J 0 1",
        "8/4k3/8/8/2K5/8/8/8[Rr] w Jj 0 1",
    ] {
        let p = pos(fen);
        assert_eq!(p.to_fen(), fen);
        assert_eq!(p.hash(), p.compute_hash(), "{fen}");
    }
    // Men to place in any order; the clocks may be left out.
    assert_eq!(
        pos("5k2/8/8/8/8/8/8/K7[pppnnbbrrPPPNNBBRR] w Jj").to_fen(),
        START_FEN
    );
    assert_eq!(pos(START_FEN), start());
}

#[test]
fn position_text_errors() {
    use JumpingKingError as J;
    let cases: Vec<(&str, FenError)> = vec![
        ("", FenError::Empty),
        (
            "5k2/8/8/8/8/8/8/K7[] w - 0",
            FenError::FieldCount {
                expected: "5 (or 3)",
                found: 4,
            },
        ),
        (
            "5k2/8/8/8/8/8/8/K7 w Jj 0 1",
            J::MissingReserve("5k2/8/8/8/8/8/8/K7".into()).into(),
        ),
        (
            "5k2/8/8/8/8/8/8/K7[RR w J 0 1",
            FenError::BadReserve("5k2/8/8/8/8/8/8/K7[RR".into()),
        ),
        (
            "5k2/8/8/8/8/8/8/KR6[] w - 0 1",
            FenError::MissingSquare("b1".into()),
        ),
        (
            "5k1R/8/8/8/8/8/8/K7[] w - 0 1",
            FenError::MissingSquare("h8".into()),
        ),
        (
            "5k2/8/8/8/8/8/8/K7[RRR] w J 0 1",
            J::ReserveTooLarge {
                color: "White",
                kind: "rooks",
                count: 3,
                max: 2,
            }
            .into(),
        ),
        (
            "5k2/8/8/8/8/8/8/K7[Q] w J 0 1",
            J::BadReserveLetter { ch: 'Q' }.into(),
        ),
        (
            "5k2/8/8/8/8/8/8/K7[k] w J 0 1",
            J::BadReserveLetter { ch: 'k' }.into(),
        ),
        (
            "5k2/8/8/8/8/8/Q7/K7[R] w J 0 1",
            J::Queen("a2".into()).into(),
        ),
        (
            "8/4k3/8/8/RRBBNN2/PPP5/2K5/8[R] w - 0 1",
            J::TooManyMen {
                color: "White",
                men: 10,
            }
            .into(),
        ),
        (
            "8/4k3/8/8/8/PPP5/2K5/8[P] w - 0 1",
            J::TooManyPawns {
                color: "White",
                pawns: 4,
            }
            .into(),
        ),
        (
            "8/4k3/8/8/RRR5/PPP5/2K5/8[] w - 0 1",
            J::TooManyPromoted {
                color: "White",
                promoted: 1,
                pawns_gone: 0,
            }
            .into(),
        ),
        (
            "8/4k3/8/8/8/8/2K5/R7[] w - 0 1",
            J::OwnWeakSquare {
                color: "White",
                square: "a1".into(),
            }
            .into(),
        ),
        (
            "5R2/4k3/8/8/8/8/2K5/8[] w - 0 1",
            J::WonWrongTurn {
                winner: "White",
                loser: "Black",
                square: "f8".into(),
            }
            .into(),
        ),
        (
            "5k2/8/8/8/8/8/8/K7[RRBBNNPPPrrbbnnppp] w jJ 0 1",
            J::BadPhase("jJ".into()).into(),
        ),
        (
            "5k2/8/8/8/8/8/8/K7[RRBBNNPPPrrbbnnppp] w KQkq 0 1",
            J::BadPhase("KQkq".into()).into(),
        ),
        (
            "8/4k3/8/4K3/8/8/8/8[R] w J 0 1",
            J::JumpingOutsideArea {
                color: "White",
                square: "e5".into(),
                area: "2-4",
            }
            .into(),
        ),
        (
            "8/4k3/8/8/2K5/8/8/8[] w J 0 1",
            J::JumpingWithoutMen("White").into(),
        ),
        (
            "8/4k3/8/8/8/8/2K1R3/8[] w - 0 1",
            FenError::OppositeCheck("Black"),
        ),
        (
            "8/8/8/8/8/8/2K5/8[] w - 0 1",
            FenError::KingCount("Black", 0),
        ),
        (
            "5k2/8/8/8/8/8/8/K7[] x - 0 1",
            FenError::BadTurn("x".into()),
        ),
        (
            "5k2/8/8/8/8/8/8/K7[] w - -1 1",
            FenError::BadHalfmove("-1".into()),
        ),
        (
            "5k2/8/8/8/8/8/8/K7[] w - 0 0",
            FenError::BadFullmove("0".into()),
        ),
        (
            "5k2/8/8/8/8/8/8/K6H[] w - 0 1",
            FenError::BadPieceChar { ch: 'H' },
        ),
    ];
    for (fen, expected) in cases {
        assert_eq!(fen_error(fen), expected, "{fen}");
    }
    assert_eq!(
        fen_error("5k2/8/8/8/8/8/8/KR6[] w - 0 1").to_string(),
        "a piece stands on b1, which is not a square of this board"
    );
    assert_eq!(
        fen_error("8/4k3/8/8/8/PPP5/2K5/8[P] w - 0 1").to_string(),
        "White has 4 pawns on the board and to place; a side owns 3"
    );
}

#[test]
fn board_picture_shows_the_holes_and_the_phase() {
    let text = start().to_string();
    for line in [
        "8 | # | # | # | # | # | k | # | # |",
        "7 |   |   |   |   |   |   | # | # |",
        "1 | K | # | # | # | # | # | # | # |",
        "White: jumping, to place: RRBBNNPPP (weak square a1)",
        "Black: jumping, to place: rrbbnnppp (weak square f8)",
        "Fen: 5k2/8/8/8/8/8/8/K7[RRBBNNPPPrrbbnnppp] w Jj 0 1",
    ] {
        assert!(text.lines().any(|l| l == line), "{line}\n{text}");
    }
    let text = pos("8/krnb4/r2n1b2/1ppp4/1PP1P3/2NNR3/RKBB4/8[] w - 20 11").to_string();
    assert!(text.contains("White: all men placed, moving (weak square a1)"));
}

// ---- Cross-checks with the reference implementation ----

/// Starting points of the random playouts: both phases, stuck kings,
/// bishop-colour limits, last placements, promotions.
const PLAYOUT_STARTS: &[&str] = &[
    START_FEN,
    "8/4k3/8/8/4B3/8/2K5/8[BNPr] w Jj 0 1",
    "8/4k3/3r4/8/8/1K6/8/8[RPr] w Jj 0 1",
    "8/4k3/8/3p4/8/8/3K4/8[RNrb] w Jj 0 1",
    "8/8/4k3/8/8/1K6/8/8[bn] b j 0 1",
    "8/krnb4/r2n1b2/1ppp4/1PP1P3/2NNR3/RKBB4/8[] w - 20 11",
    "8/2kr4/4P3/8/8/r7/R1K2R2/8[] w - 0 1",
    "8/2k2n2/4P3/n7/8/8/1NK1N3/8[] w - 0 1",
    "8/1P2kP2/8/3p4/8/1p2K3/p7/8[] b - 0 1",
];

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// What the random playouts went through, to show they reach every rule.
#[derive(Default, Debug)]
struct Seen {
    placements: usize,
    passes: usize,
    stuck: usize,
    promotions: usize,
    unpromoted_last_rank: usize,
    weak_square_wins: usize,
    mates: usize,
    jumping_attacked: usize,
    weak_square_threats: usize,
}

/// Plays a random game from `fen`, checking at every node: the move list
/// against the reference, the state against the reference's, the
/// incremental hash, the position text round trip and the check flag.
fn playout(fen: &str, seed: u64, plies: usize, seen: &mut Seen) {
    let mut rng = Rng(seed | 1);
    let mut p = pos(fen);
    let mut r = Ref::from_position(&p);
    for ply in 0..plies {
        let here = format!("{fen}, seed {seed}, ply {ply}: {}", p.to_fen());
        assert_eq!(Ref::from_position(&p), r, "{here}");
        assert_eq!(p.hash(), p.compute_hash(), "{here}");
        assert_eq!(pos(&p.to_fen()), p, "{here}");
        let us = p.turn();
        let king = p.board().king_of(us).unwrap();
        assert_eq!(
            p.is_check(),
            !p.is_jumping(us) && p.is_attacked(king, !us),
            "{here}"
        );
        if p.is_jumping(us) && p.is_attacked(king, !us) {
            seen.jumping_attacked += 1;
        }
        let legal = p.legal_moves();
        let expected = sorted(r.moves().into_iter().map(|m| to_uci(&p, m)));
        assert_eq!(moves(&p), expected, "{here}");
        let wins = r.moves().iter().any(|m| m.to() == Some(weak_square(!us)));
        let win = p.weak_square_win();
        assert_eq!(win.is_some(), wins, "{here}");
        if let Some(m) = win {
            assert!(
                legal.contains(&m) && m.to() == Some(weak_square(!us)),
                "{here}"
            );
        }
        seen.weak_square_threats += usize::from(wins);
        // The same for the other side, were it its move (out of check,
        // where passing the turn makes a position).
        if p.is_jumping(us) || p.is_jumping(!us) {
            assert!(!p.weak_square_threat(), "{here}");
        } else if !p.is_check() {
            let mut passed = p.clone();
            passed.play_null();
            let theirs = Ref::from_position(&passed).moves();
            let threat = theirs.iter().any(|m| m.to() == Some(weak_square(us)));
            assert_eq!(p.weak_square_threat(), threat, "{here}");
            seen.weak_square_threats += usize::from(threat);
        }
        match p.outcome() {
            Some(Outcome::Win {
                reason: WinReason::WeakSquare,
                ..
            }) => seen.weak_square_wins += 1,
            Some(Outcome::Win {
                reason: WinReason::Checkmate,
                ..
            }) => seen.mates += 1,
            _ => {}
        }
        if legal.is_empty() || p.outcome().is_some() {
            return;
        }
        let m = legal[rng.below(legal.len())];
        let to_last_rank = m.kind() == MoveKind::Normal
            && p.board().role_at(m.from().unwrap()) == Some(Role::Pawn)
            && m.to().unwrap().rank().index() == us.fold(6, 1);
        match m.kind() {
            MoveKind::Jump if m.role().is_some() => seen.placements += 1,
            MoveKind::Pass => seen.passes += 1,
            MoveKind::Normal if m.role().is_some() => seen.promotions += 1,
            _ if to_last_rank => seen.unpromoted_last_rank += 1,
            _ => {}
        }
        let next_was_jumping = p.is_jumping(!us);
        p.play(m);
        r = r.play(m);
        if next_was_jumping && !p.is_jumping(!us) {
            // J6: its phase ended at the start of its turn, men unplaced.
            assert!(p.unplaced(!us) > 0, "{here}");
            seen.stuck += 1;
        }
    }
}

#[test]
fn playouts_match_the_reference() {
    let mut seen = Seen::default();
    for (i, fen) in PLAYOUT_STARTS.iter().enumerate() {
        for seed in 0..40 {
            playout(fen, 0x9E37_79B9 * (i as u64 + 1) + seed, 200, &mut seen);
        }
    }
    assert!(seen.placements > 0, "{seen:?}");
    assert!(seen.weak_square_threats > 0, "{seen:?}");
    assert!(seen.passes > 0, "{seen:?}");
    assert!(seen.stuck > 0, "{seen:?}");
    assert!(seen.promotions > 0, "{seen:?}");
    assert!(seen.unpromoted_last_rank > 0, "{seen:?}");
    assert!(seen.weak_square_wins > 0, "{seen:?}");
    assert!(seen.mates > 0, "{seen:?}");
    assert!(seen.jumping_attacked > 0, "{seen:?}");
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]
    #[test]
    fn random_playouts_match_the_reference(
        start in 0..PLAYOUT_STARTS.len(),
        seed in proptest::prelude::any::<u64>(),
    ) {
        playout(PLAYOUT_STARTS[start], seed, 200, &mut Seen::default());
    }
}

/// The cases of the perft file: (FEN, depth, nodes, slow).
fn perft_cases() -> Vec<(String, u32, u64, bool)> {
    let text = include_str!("../../../tests/perft/jumpingking.perft");
    let mut fen = String::new();
    let mut out = Vec::new();
    for line in text.lines().map(str::trim) {
        if let Some(f) = line.strip_prefix("epd ") {
            fen = f.to_string();
        } else if let Some(rest) = line
            .strip_prefix("perft ")
            .map(|r| (r, false))
            .or_else(|| line.strip_prefix("perft-slow ").map(|r| (r, true)))
        {
            let (r, slow) = rest;
            let (d, n) = r.split_once(' ').unwrap();
            out.push((fen.clone(), d.parse().unwrap(), n.parse().unwrap(), slow));
        }
    }
    out
}

fn perft_file_matches_reference(slow: bool) {
    let cases = perft_cases();
    assert!(!cases.is_empty());
    for (fen, depth, nodes, is_slow) in cases {
        if is_slow != slow {
            continue;
        }
        let p = pos(&fen);
        assert_eq!(
            Ref::from_position(&p).perft(depth),
            nodes,
            "{fen} depth {depth}"
        );
        assert_eq!(perft(&p, depth), nodes, "{fen} depth {depth}");
    }
}

#[test]
fn perft_file_counts_match_the_reference() {
    perft_file_matches_reference(false);
}

#[test]
#[ignore = "deep reference perft: minutes"]
fn perft_file_slow_counts_match_the_reference() {
    perft_file_matches_reference(true);
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]

    /// Damaged position texts are refused with an error or read as a
    /// position that works; never a panic.
    #[test]
    fn damaged_position_texts_never_panic(
        start in 0..PLAYOUT_STARTS.len(),
        edits in proptest::collection::vec((0usize..80, "[ -~]"), 1..4),
    ) {
        let mut text: Vec<char> = PLAYOUT_STARTS[start].chars().collect();
        for (at, ch) in edits {
            let at = at % (text.len() + 1);
            let ch = ch.chars().next().unwrap_or(' ');
            if at < text.len() && ch != ' ' {
                text[at] = ch;
            } else {
                text.insert(at, ch);
            }
        }
        let text: String = text.into_iter().collect();
        if let Ok(p) = Position::from_fen(Variant::JumpingKing, &text) {
            proptest::prop_assert_eq!(p.hash(), p.compute_hash());
            proptest::prop_assert_eq!(pos(&p.to_fen()), p.clone());
            for m in p.legal_moves() {
                let mut next = p.clone();
                next.play(m);
                proptest::prop_assert_eq!(next.hash(), next.compute_hash());
                let _ = to_san(&p, m);
            }
            let _ = p.outcome();
            let _ = p.to_string();
        }
    }

    /// Any move text gets an answer (a move, or an error naming it).
    #[test]
    fn any_move_text_gets_an_answer(
        start in 0..PLAYOUT_STARTS.len(),
        text in "[KRBNPkrbnp<>+#!?x:=0-9a-h -]{0,8}",
    ) {
        let p = pos(PLAYOUT_STARTS[start]);
        if let Ok(m) = parse_san(&p, &text) {
            proptest::prop_assert!(p.legal_moves().contains(&m));
        }
        if let Ok(m) = parse_uci(&p, &text) {
            proptest::prop_assert!(p.legal_moves().contains(&m));
        }
    }
}
