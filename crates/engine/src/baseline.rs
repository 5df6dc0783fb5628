//! A 1-ply material-only player: the baseline the full engine is measured
//! against (`springboard uci --player material1`).
//!
//! It plays the legal move (a whole turn in every game: a Hop Chess piece
//! move with its placement, a Jumping King jump, placement or pass, a Hoplit
//! drop) whose resulting position has the best material balance for the
//! mover. A move that wins at once (checkmate, or a man on the opponent's
//! weak square in Jumping King, ruling J3) beats every balance. Ties are
//! broken pseudo-randomly but reproducibly: by a key mixed from the
//! position's Zobrist key and the move's place in the legal move list, so
//! the same position always gets the same answer and different positions
//! differ.
//!
//! It looks at nothing else: no draws (stalemate, repetition), no threats.

use springboard_rules::{Color, Move, MoveList, Position, Role};

/// Material values by [`Role::index`]: P1 N3 B3 R5 Q9, the king 0, the
/// Hoplit 3.
pub const MATERIAL: [i32; 7] = [1, 3, 3, 5, 9, 0, 3];

/// The score of a move that wins at once; above every material balance.
pub const WIN: i32 = 1_000_000;

/// What the player chose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The move to play.
    pub best: Move,
    /// The mover's material balance after it (pawns), or [`WIN`].
    pub score: i32,
    /// How many legal moves were looked at.
    pub moves: usize,
}

impl Choice {
    /// Whether the move ends the game in the mover's favour.
    pub fn wins(&self) -> bool {
        self.score == WIN
    }
}

/// The material of `color`: its men on the board, plus its men in reserve
/// that can still enter ([`Position::reserve_in_play`]: a Hoplit in reserve
/// always counts; Jumping King's unplaced men count while their king is in
/// its jumping phase, not after a stuck king's phase ended, J6).
pub fn material(pos: &Position, color: Color) -> i32 {
    let reserve_counts = pos.reserve_in_play(color);
    Role::ALL
        .iter()
        .map(|&role| {
            let mut n = pos.board().count(color, role) as i32;
            if reserve_counts {
                n += i32::from(pos.reserve(color, role));
            }
            n * MATERIAL[role.index()]
        })
        .sum()
}

/// `color`'s material minus its opponent's.
pub fn balance(pos: &Position, color: Color) -> i32 {
    material(pos, color) - material(pos, !color)
}

/// Whether the position after `mover`'s move is won for `mover` on the
/// spot: a man on the opponent's weak square (J3), or checkmate. The mate
/// test lists the opponent's half-steps (Hop Chess: piece moves that some
/// placement makes legal), which are empty exactly when its turns are.
fn won_by_mover(child: &Position) -> bool {
    if child.weak_square_taken() {
        return true;
    }
    if !child.is_check() {
        return false;
    }
    let mut replies = MoveList::new();
    child.legal_steps_into(&mut replies);
    replies.is_empty()
}

/// SplitMix64's finaliser: a well-mixed 64-bit key.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The move of the 1-ply material player, or `None` when the side to move
/// has no legal move (the game is over).
pub fn material_move(pos: &Position) -> Option<Choice> {
    let us = pos.turn();
    let moves = pos.legal_moves();
    let seed = mix(pos.hash());
    let mut best: Option<(i32, u64, Move)> = None;
    for (i, &m) in moves.iter().enumerate() {
        let mut child = pos.clone();
        child.play(m);
        let score = if won_by_mover(&child) {
            WIN
        } else {
            balance(&child, us)
        };
        let key = mix(seed ^ i as u64);
        if best.is_none_or(|(s, k, _)| (score, key) > (s, k)) {
            best = Some((score, key, m));
        }
    }
    best.map(|(score, _, best)| Choice {
        best,
        score,
        moves: moves.len(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use springboard_rules::notation::uci::{parse_uci, to_uci};
    use springboard_rules::Variant;

    fn pos(variant: Variant, fen: &str) -> Position {
        Position::from_fen(variant, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
    }

    fn answer(p: &Position) -> (String, i32) {
        let c = material_move(p).expect("a legal move");
        assert!(p.is_legal(c.best));
        (to_uci(p, c.best), c.score)
    }

    #[test]
    fn material_counts_board_and_reserves() {
        let start = Position::startpos(Variant::Chess);
        assert_eq!(material(&start, Color::White), 39);
        assert_eq!(balance(&start, Color::Black), 0);
        // Hoplit Chess: the reserve Hoplit counts 3 (L1).
        let hoplit = Position::startpos(Variant::Hoplit);
        assert_eq!(material(&hoplit, Color::White), 42);
        // Jumping King: 2R 2B 2N 3P unplaced, counted while jumping (J2, J4).
        let jk = Position::startpos(Variant::JumpingKing);
        assert_eq!(material(&jk, Color::White), 10 + 6 + 6 + 3);
        // A stuck king's men never enter (J6): White, not jumping, holds a rook.
        let stuck = pos(Variant::JumpingKing, "8/4k3/8/8/3P4/1K6/3P4/8[Rr] w j 0 1");
        assert_eq!(material(&stuck, Color::White), 2);
        assert_eq!(material(&stuck, Color::Black), 5);
    }

    #[test]
    fn takes_a_free_queen() {
        // The knight on c3 takes the queen on d5; nothing else wins material.
        let p = pos(
            Variant::Chess,
            "rnb1kbnr/pppp1ppp/8/3q4/8/2N5/PPPP1PPP/R1BQKBNR w KQkq - 0 4",
        );
        assert_eq!(answer(&p), ("c3d5".to_string(), 9));
        // Black takes the bigger of two hanging pieces: the rook (3 v 3 after).
        let p = pos(Variant::Chess, "4k3/8/8/3b4/8/1N3R2/8/4K3 b - - 0 1");
        assert_eq!(answer(&p), ("d5f3".to_string(), 0));
        let (m, _) = answer(&Position::startpos(Variant::Chess));
        assert!(parse_uci(&Position::startpos(Variant::Chess), &m).is_ok());
    }

    /// Plays the player's move and checks that it mates.
    fn assert_mates(p: &Position) {
        let (m, score) = answer(p);
        assert_eq!(score, WIN, "{m}");
        let mut after = p.clone();
        after.play(parse_uci(p, &m).unwrap());
        assert!(after.legal_moves().is_empty() && after.is_check(), "{m}");
    }

    #[test]
    fn mates_when_it_can() {
        // A back-rank mate (Rb8 or Re8) beats taking the queen on a1 (+9).
        assert_mates(&pos(
            Variant::Chess,
            "6k1/5ppp/8/8/8/8/5PPP/qR2R1K1 w - - 0 1",
        ));
        // Black mates on the first rank rather than taking the bishop.
        assert_mates(&pos(
            Variant::Chess,
            "3r3k/6pp/8/8/3q4/8/1B4PP/7K b - - 0 1",
        ));
    }

    #[test]
    fn prefers_the_weak_square_win() {
        // J3: the white rook on f7 can take the black rook on d7 (+5) or
        // enter f8 and win at once.
        let p = pos(Variant::JumpingKing, "8/3r1R2/8/8/3k4/8/1K6/8[] w - 0 1");
        assert_eq!(answer(&p), ("f7f8".to_string(), WIN));
    }

    #[test]
    fn hoplit_and_hopchess_whole_turns() {
        // Hop Chess: a whole turn with its placement (N4) that takes the queen.
        let mut p = Position::startpos(Variant::HopChess);
        for t in [
            "e2e4", "d7d5@a6", "b1c3@h3", "d8d6@a3", "c3b5@h4", "h7h6@a3",
        ] {
            p.play_checked(parse_uci(&p, t).unwrap()).unwrap();
        }
        let (m, score) = answer(&p);
        assert_eq!(score, 9, "{m}");
        assert!(m.contains('@'), "{m}");
        // Hoplit Chess: the reserve Hoplits count (White 41, Black 42);
        // Qxe4 wins the knight: 41 v 39. The drop H@d1 would keep -1.
        let p = pos(
            Variant::Hoplit,
            "rnbqkb1r/pppppppp/8/8/4n3/8/PPPPQPPP/RNB1KBNR[Hh] w KQkq - 0 1",
        );
        assert_eq!(answer(&p), ("e2e4".to_string(), 2));
    }

    #[test]
    fn ties_are_broken_reproducibly_by_position() {
        let start = Position::startpos(Variant::Chess);
        let first = material_move(&start).unwrap();
        assert_eq!(first.score, 0);
        assert_eq!(first.moves, 20);
        assert_eq!(material_move(&start), Some(first));
        // Different positions (all moves equal) get different answers.
        let mut seen = std::collections::HashSet::new();
        for m in start.legal_moves() {
            let mut p = start.clone();
            p.play(m);
            seen.insert(to_uci(&p, material_move(&p).unwrap().best));
        }
        assert!(seen.len() > 5, "{seen:?}");
    }

    #[test]
    fn no_move_when_the_game_is_over() {
        let mated = pos(Variant::Chess, "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1");
        assert_eq!(material_move(&mated), None);
    }
}
