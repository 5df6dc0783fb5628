//! `Position::can_mate`: whether a side could still mate, by its game's
//! material rule (ruling C2 with the other side reduced to its king), as
//! asked when a flag falls.

use springboard_rules::{Color, Position, Variant};

fn pos(variant: Variant, fen: &str) -> Position {
    Position::from_fen(variant, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn sides(p: &Position) -> (bool, bool) {
    (p.can_mate(Color::White), p.can_mate(Color::Black))
}

#[test]
fn chess_by_ruling_c2_against_a_bare_king() {
    let chess = |fen| sides(&pos(Variant::Chess, fen));
    // K+N v K+Q: the knight's side cannot mate, the queen's can.
    assert_eq!(chess("4k3/8/8/8/8/8/3q4/N3K3 w - - 0 1"), (false, true));
    // Bare kings; a lone pawn.
    assert_eq!(chess("4k3/8/8/8/8/8/8/4K3 w - - 0 1"), (false, false));
    assert_eq!(chess("4k3/p7/8/8/8/8/8/4K3 w - - 0 1"), (false, true));
    // A rook, a queen; one bishop; two minors (of any kind and colour).
    assert_eq!(chess("4k3/8/8/8/8/8/8/R3K3 b - - 0 1"), (true, false));
    assert_eq!(chess("3qk3/8/8/8/8/8/8/4K3 w - - 0 1"), (false, true));
    assert_eq!(chess("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1"), (false, false));
    assert_eq!(chess("4k3/8/8/8/8/8/8/1NB1K3 w - - 0 1"), (true, false));
    assert_eq!(chess("4k3/8/8/8/8/8/8/1N2K1N1 w - - 0 1"), (true, false));
    assert_eq!(chess("4k3/8/8/8/8/8/3B4/2B1K3 w - - 0 1"), (true, false));
    // The other side's men do not help: K+B v K+B on one colour is a dead
    // position (C2) and neither can mate.
    let p = pos(Variant::Chess, "4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1");
    assert!(p.is_insufficient_material());
    assert_eq!(sides(&p), (false, false));
    // The start.
    assert_eq!(sides(&Position::startpos(Variant::Chess)), (true, true));
}

#[test]
fn hoplit_chess_counts_hoplits_on_the_board_and_in_reserve() {
    let hoplit = |fen| sides(&pos(Variant::Hoplit, fen));
    assert_eq!(sides(&Position::startpos(Variant::Hoplit)), (true, true));
    // A Hoplit in reserve is mating material (C2), the other side's is not.
    assert_eq!(hoplit("4k3/8/8/8/8/8/8/4K3[H] w - - 0 1"), (true, false));
    assert_eq!(hoplit("4k3/8/8/8/8/8/8/4K3[h] w - - 0 1"), (false, true));
    // On the board too.
    assert_eq!(hoplit("4k3/8/8/8/8/8/8/3HK3[] w - - 0 1"), (true, false));
    // Otherwise chess's rule.
    assert_eq!(hoplit("4k3/8/8/8/8/8/8/N3K3[] w - - 0 1"), (false, false));
    assert_eq!(hoplit("4k3/8/8/8/8/8/8/NN2K3[] w - - 0 1"), (true, false));
}

#[test]
fn the_bounce_games_and_jumping_king_know_no_insufficient_material() {
    // Trampolines: a lone king may still mate through them, every side can.
    assert_eq!(sides(&Position::startpos(Variant::HopChess)), (true, true));
    assert_eq!(
        sides(&Position::startpos(Variant::Trampoline)),
        (true, true)
    );
    let kings = pos(Variant::Trampoline, "4k3/8/8/8/8/8/8/4K3 w - - 0 1 -,-");
    assert_eq!(sides(&kings), (true, true));
    // Jumping King: men in hand enter while the king jumps (J4), and the
    // weak square wins (J3).
    assert_eq!(
        sides(&Position::startpos(Variant::JumpingKing)),
        (true, true)
    );
    let stuck = pos(Variant::JumpingKing, "8/4k3/8/8/3P4/1K6/3P4/8[Rr] w Jj 0 1");
    assert_eq!(sides(&stuck), (true, true));
}
