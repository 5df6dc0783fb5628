//! Rule facts for the crates above the rules core: what a game's rules say
//! about a position, beyond its legal moves, for evaluations, searches and
//! front ends that must not keep copies of the rules.
//!
//! - Per game ([`crate::Variant`]): [`Variant::roles`](crate::Variant::roles),
//!   [`Variant::reserve_roles`](crate::Variant::reserve_roles),
//!   [`Variant::has_trampolines`](crate::Variant::has_trampolines),
//!   [`Variant::bounce_rules`](crate::Variant::bounce_rules),
//!   [`Variant::board_size`](crate::Variant::board_size),
//!   [`Variant::mask`](crate::Variant::mask).
//! - Per position ([`crate::Position`]): [`crate::Position::usable_trampolines`],
//!   [`crate::Position::bounce_leg`], [`crate::Position::reserve_in_play`],
//!   [`crate::Position::splits_turn`], and the Jumping King state
//!   ([`crate::Position::is_jumping`], [`crate::Position::unplaced`],
//!   [`crate::Position::weak_square_taken`]).
//! - Trampolines: [`BounceRules`] (H4/H6/H7 against T3-T6) and [`Reach`],
//!   where one bounce would take a side's pieces.
//! - [`jumping_king`]: the weak squares, the jumping areas and the men;
//!   per position [`crate::Position::is_stuck`] and
//!   [`crate::Position::weak_square`].
//! - Checks: [`crate::Position::check_lines`], each checker's path to the
//!   king through the trampolines (P8).

pub use crate::games::bounce::{Reach, Rules as BounceRules};

/// The Weak Square of the Jumping King: its fixed squares and men.
pub mod jumping_king {
    pub use crate::games::jumpingking::{
        area, weak_square, weak_square_approaches, MEN, START_RESERVE, WEAK_SQUARES,
    };
}

#[cfg(test)]
mod tests {
    use super::jumping_king::{
        area, weak_square, weak_square_approaches, MEN, START_RESERVE, WEAK_SQUARES,
    };
    use super::*;
    use crate::notation::uci::parse_uci;
    use crate::{Bitboard, Color, Position, Role, Square, Variant};

    fn pos(variant: Variant, fen: &str) -> Position {
        Position::from_fen(variant, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
    }

    #[test]
    fn roles_and_reserves_per_game() {
        use Role::*;
        assert_eq!(
            Variant::Chess.roles(),
            [Pawn, Knight, Bishop, Rook, Queen, King]
        );
        assert_eq!(Variant::HopChess.roles(), Variant::Chess.roles());
        assert_eq!(Variant::Trampoline.roles(), Variant::Chess.roles());
        // J2: no queens.
        assert_eq!(
            Variant::JumpingKing.roles(),
            [Pawn, Knight, Bishop, Rook, King]
        );
        // L1: the Hoplit.
        assert_eq!(
            Variant::Hoplit.roles(),
            [Pawn, Knight, Bishop, Rook, Queen, King, Hoplit]
        );
        assert_eq!(
            Variant::JumpingKing.reserve_roles(),
            [Rook, Bishop, Knight, Pawn]
        );
        assert_eq!(Variant::Hoplit.reserve_roles(), [Hoplit]);
        for v in [Variant::Chess, Variant::HopChess, Variant::Trampoline] {
            assert!(v.reserve_roles().is_empty(), "{v}");
        }
        // Every start position holds exactly the reserve kinds the game
        // names, and only kinds of the game stand on its board.
        for v in Variant::ALL {
            let p = Position::startpos(v);
            for c in Color::ALL {
                for r in Role::ALL {
                    assert_eq!(
                        p.reserve(c, r) > 0,
                        v.reserve_roles().contains(&r),
                        "{v} {c:?} {r:?}"
                    );
                }
            }
            for (_, piece) in p.board().iter() {
                assert!(v.roles().contains(&piece.role), "{v} {piece:?}");
            }
        }
    }

    #[test]
    fn board_sizes() {
        assert_eq!(Variant::JumpingKing.board_size(), (6, 8)); // J1
        for v in [
            Variant::Chess,
            Variant::HopChess,
            Variant::Trampoline,
            Variant::Hoplit,
        ] {
            assert_eq!(v.board_size(), (8, 8), "{v}");
        }
    }

    #[test]
    fn trampoline_games() {
        let with: Vec<Variant> = Variant::ALL
            .into_iter()
            .filter(|v| v.has_trampolines())
            .collect();
        assert_eq!(with, [Variant::HopChess, Variant::Trampoline]);
        let hop = Variant::HopChess.bounce_rules().unwrap();
        let tramp = Variant::Trampoline.bounce_rules().unwrap();
        assert!(hop.both_usable && hop.queen_line && hop.double_step_onto); // H4 H6 H7
        assert!(!hop.promoted_may_return); // H5
        assert!(!tramp.both_usable && !tramp.queen_line && !tramp.double_step_onto); // T3 T4 T5
        assert!(tramp.promoted_may_return); // T6
    }

    #[test]
    fn h4_t3_usable_trampolines() {
        // White's trampoline on d4, Black's on e5.
        let hop = pos(Variant::HopChess, "4k3/8/8/8/8/8/8/4K3 w - - 0 1 d4,e5 -");
        let both = Bitboard::from_square(Square::D4) | Square::E5;
        assert_eq!(hop.usable_trampolines(Color::White), both);
        assert_eq!(hop.usable_trampolines(Color::Black), both);
        let tramp = pos(Variant::Trampoline, "4k3/8/8/8/8/8/8/4K3 w - - 0 1 d4,e5");
        assert_eq!(
            tramp.usable_trampolines(Color::White),
            Bitboard::from_square(Square::D4)
        );
        assert_eq!(
            tramp.usable_trampolines(Color::Black),
            Bitboard::from_square(Square::E5)
        );
        let chess = Position::startpos(Variant::Chess);
        assert!(chess.usable_trampolines(Color::White).is_empty());
    }

    #[test]
    fn h6_t4_queen_line_after_a_bounce() {
        // A queen from a1 lands on the trampoline a4 along the file.
        let occ = Bitboard::from_square(Square::A1) | Square::D4;
        let hop = Position::startpos(Variant::HopChess);
        let tramp = Position::startpos(Variant::Trampoline);
        let leg_hop = hop.bounce_leg(Role::Queen, Square::A1, Square::A4, occ);
        let leg_tramp = tramp.bounce_leg(Role::Queen, Square::A1, Square::A4, occ);
        // H6: on along ranks and files only; a1 is vacated (P7).
        assert_eq!(
            leg_hop,
            crate::attacks::rook_attacks(Square::A4, occ.without(Square::A1))
        );
        assert!(leg_hop.contains(Square::A1) && leg_hop.contains(Square::D4));
        assert!(!leg_hop.contains(Square::B5));
        // T4: any queen move.
        assert_eq!(
            leg_tramp,
            crate::attacks::queen_attacks(Square::A4, occ.without(Square::A1))
        );
        // Arriving on a diagonal, the Hop Chess queen keeps the diagonals.
        let diag = hop.bounce_leg(Role::Queen, Square::B3, Square::D5, Bitboard::EMPTY);
        assert_eq!(
            diag,
            crate::attacks::bishop_attacks(Square::D5, Bitboard::EMPTY)
        );
        // A knight goes on as a knight; pawns and kings: nothing.
        assert_eq!(
            hop.bounce_leg(Role::Knight, Square::B1, Square::C3, Bitboard::EMPTY),
            crate::attacks::knight_attacks(Square::C3)
        );
        assert!(hop
            .bounce_leg(Role::Pawn, Square::C2, Square::C3, Bitboard::EMPTY)
            .is_empty());
        let chess = Position::startpos(Variant::Chess);
        assert!(chess
            .bounce_leg(Role::Queen, Square::A1, Square::A4, occ)
            .is_empty());
    }

    #[test]
    fn reach_through_a_trampoline() {
        let p = Position::startpos(Variant::HopChess);
        let b = p.board();
        let white = Reach::of(b, Color::White);
        // Knights reach a3, c3, f3, h3; pawns the third rank; the sliders
        // are shut in.
        assert_eq!(
            white.knight,
            Bitboard::from_square(Square::A3) | Square::C3 | Square::F3 | Square::H3
        );
        assert_eq!(white.pawn, Bitboard::rank(crate::Rank::new(2).unwrap()));
        assert!(white.orth.is_empty() && white.diag.is_empty());
        // A trampoline on c3: knight b1 goes on with a knight's jump, pawns
        // b2 and d2 go on with a pawn's captures.
        let hits = white.through(Square::C3, b.occupied(), Color::White);
        assert_eq!(
            hits,
            crate::attacks::knight_attacks(Square::C3)
                | crate::attacks::pawn_attacks(Color::White, Square::C3)
        );
        // Not reached: nothing.
        assert!(white
            .through(Square::E5, b.occupied(), Color::White)
            .is_empty());
        let black = Reach::of(b, Color::Black);
        assert_eq!(black.pawn, Bitboard::rank(crate::Rank::new(5).unwrap()));
    }

    #[test]
    fn j3_j4_jumping_king_squares() {
        assert_eq!(weak_square(Color::White), Square::A1);
        assert_eq!(weak_square(Color::Black), Square::F8);
        assert_eq!(WEAK_SQUARES, Bitboard::from_square(Square::A1) | Square::F8);
        // J4: ranks 2-4 and 5-7 of the six files.
        assert_eq!(area(Color::White).count(), 18);
        assert!(area(Color::White).contains(Square::A2));
        assert!(area(Color::White).contains(Square::F4));
        assert!(!area(Color::White).contains(Square::G2));
        assert!(area(Color::Black).contains(Square::C7));
        assert!(!area(Color::Black).contains(Square::C4));
        assert!(area(Color::White) & !Variant::JumpingKing.mask() == Bitboard::EMPTY);
        assert_eq!(MEN, [Role::Rook, Role::Bishop, Role::Knight, Role::Pawn]);
        // J2: 2 R, 2 B, 2 N, 3 P.
        let p = Position::startpos(Variant::JumpingKing);
        for r in MEN {
            assert_eq!(p.reserve(Color::White, r), START_RESERVE[r.index()]);
        }
        assert_eq!(p.unplaced(Color::Black), 9);
        // J1, J3: the lines onto each weak square on the 38 squares.
        use crate::attacks::{bishop_attacks, king_attacks, knight_attacks, rook_attacks};
        let mask = Variant::JumpingKing.mask();
        for c in Color::ALL {
            let ws = weak_square(c);
            let lines = rook_attacks(ws, !mask)
                | bishop_attacks(ws, !mask)
                | knight_attacks(ws)
                | king_attacks(ws);
            assert_eq!(weak_square_approaches(c), lines & mask, "{c:?}");
        }
        assert_eq!(weak_square_approaches(Color::White).count(), 13);
        assert!(weak_square_approaches(Color::Black).contains(Square::A3));
    }

    #[test]
    fn reserve_in_play_per_game() {
        let hoplit = Position::startpos(Variant::Hoplit);
        assert!(hoplit.reserve_in_play(Color::White));
        let jk = Position::startpos(Variant::JumpingKing);
        assert!(jk.reserve_in_play(Color::White) && jk.reserve_in_play(Color::Black));
        // J6: Black's king is stuck with two rooks unplaced; they never enter.
        let stuck = pos(Variant::JumpingKing, "8/4k3/8/8/3P4/1K6/3P4/8[Rr] w j 0 1");
        assert!(!stuck.is_jumping(Color::White));
        assert!(!stuck.reserve_in_play(Color::White));
        for v in [Variant::Chess, Variant::HopChess, Variant::Trampoline] {
            assert!(!Position::startpos(v).reserve_in_play(Color::White), "{v}");
        }
    }

    #[test]
    fn h2_h3_split_turns() {
        let mut p = Position::startpos(Variant::HopChess);
        assert!(!p.splits_turn()); // H3: White's first turn is one step.
        p.play(parse_uci(&p, "e2e4").unwrap());
        assert!(p.splits_turn());
        let mut steps = crate::MoveList::new();
        p.legal_steps_into(&mut steps);
        p.play_step(steps[0]);
        assert!(p.placement_pending() && !p.splits_turn());
        for v in [
            Variant::Chess,
            Variant::Trampoline,
            Variant::JumpingKing,
            Variant::Hoplit,
        ] {
            assert!(!Position::startpos(v).splits_turn(), "{v}");
        }
    }

    #[test]
    fn color_names() {
        assert_eq!(Color::White.name(), "White");
        assert_eq!(Color::Black.name(), "Black");
    }

    fn after(variant: Variant, moves: &str) -> Position {
        let mut p = Position::startpos(variant);
        for text in moves.split_whitespace() {
            let m = parse_uci(&p, text).unwrap();
            p.play_checked(m).unwrap();
        }
        p
    }

    #[test]
    fn check_lines_through_a_trampoline() {
        // P8: the knight on c4 checks e8 by bouncing off White's trampoline
        // on d6.
        let p = after(Variant::HopChess, "g1f3 b7b6@e5 f3e5c4@d6");
        assert_eq!(
            p.check_lines(),
            vec![vec![Square::C4, Square::D6, Square::E8]]
        );
        // A direct check: the checker and the king.
        let p = after(Variant::Chess, "f2f3 e7e5 g2g4 d8h4");
        assert_eq!(p.check_lines(), vec![vec![Square::H4, Square::E1]]);
        // Trampoline Chess: the bishop bounces off its own trampoline d4
        // (T3) and goes on to b6.
        let p = pos(Variant::Trampoline, "8/8/1k6/8/8/8/8/B3K3 b - - 0 1 d4,-");
        assert_eq!(
            p.check_lines(),
            vec![vec![Square::A1, Square::D4, Square::B6]]
        );
        // Hoplit Chess: c7 steps diagonally to its turning square e5, then
        // north over the screen e2 onto e1 (L2, L3).
        let p = pos(Variant::Hoplit, "7k/2h5/8/8/8/8/4P3/3RK3[] w - - 0 1");
        assert_eq!(
            p.check_lines(),
            vec![vec![Square::C7, Square::E5, Square::E1]]
        );
        // Not in check: none.
        assert!(Position::startpos(Variant::HopChess)
            .check_lines()
            .is_empty());
    }

    #[test]
    fn stuck_kings_and_weak_squares() {
        // White's king jumps no more with men in reserve (J6): stuck.
        let p = pos(
            Variant::JumpingKing,
            "5k2/8/8/8/8/8/2K5/8[Rrrbbnnppp] b j 0 5",
        );
        assert!(p.is_stuck(Color::White));
        assert!(!p.is_stuck(Color::Black));
        assert_eq!(p.weak_square(Color::White), Some(weak_square(Color::White)));
        assert_eq!(p.weak_square(Color::Black), Some(Square::F8));
        assert!(!Position::startpos(Variant::JumpingKing).is_stuck(Color::White));
        assert!(WEAK_SQUARES.contains(Square::A1) && WEAK_SQUARES.contains(Square::F8));
        let chess = Position::startpos(Variant::Chess);
        assert_eq!(chess.weak_square(Color::White), None);
        assert!(!chess.is_stuck(Color::White));
    }
}
