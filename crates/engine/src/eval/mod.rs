//! Static evaluation, in centipawns from the side to move's point of view.
//!
//! [`evaluate`] dispatches on the game: every game shares the FIDE terms of
//! [`fide`] (they read the board of any game), and a game with themes of its
//! own (trampolines, weak squares, reserves) adds a module `eval/<game>.rs`
//! with its terms and its weights in [`weights`], called from the `match`
//! below. All weights live in [`weights::WEIGHTS`].

pub mod fide;
pub mod hoplit;
pub mod jumpingking;
pub mod trampoline;
pub mod weights;

pub use weights::tuned;

use springboard_rules::{Bitboard, Color, Position, Variant};
use weights::{Weights, PHASE_TOTAL, S};

/// A game's terms for White minus the same terms for Black.
fn white_minus_black(
    pos: &Position,
    w: &Weights,
    side_terms: fn(&Position, &Weights, Color) -> S,
) -> S {
    side_terms(pos, w, Color::White) - side_terms(pos, w, Color::Black)
}

/// The static evaluation of `pos` for the side to move.
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, weights::for_variant(pos.variant()))
}

/// The game's terms for White minus those for Black, and the game phase
/// (0 to [`PHASE_TOTAL`]) that blends them.
pub fn white_terms(pos: &Position, w: &Weights) -> (S, i32) {
    white_terms_with(pos, w, |white, black| fide::pawn_terms(w, white, black))
}

/// [`white_terms`], with the FIDE pawn structure asked of `pawns` (see
/// [`fide::terms_with`]).
pub(crate) fn white_terms_with(
    pos: &Position,
    w: &Weights,
    pawns: impl FnOnce(Bitboard, Bitboard) -> S,
) -> (S, i32) {
    match pos.variant() {
        // Chess: the shared FIDE terms and those of both sides' attacks.
        Variant::Chess => (fide::terms_with_attacks(pos, w, pawns), fide::phase(pos)),
        Variant::HopChess | Variant::Trampoline => (
            fide::terms_with(pos, w, pawns) + trampoline::terms(pos, w),
            fide::phase(pos),
        ),
        Variant::Hoplit => {
            // A Hoplit (board or reserve) weighs in the phase; the start
            // position is still the full phase.
            let full = PHASE_TOTAL + 2 * w.hoplit.phase;
            let p = fide::phase_material(pos) + hoplit::phase_weight(pos, w);
            (
                fide::terms_with_attacks(pos, w, pawns) + hoplit::terms(pos, w),
                (p * PHASE_TOTAL / full).min(PHASE_TOTAL),
            )
        }
        // Its own board and goal: its own terms (eval/jumpingking.rs).
        Variant::JumpingKing => (jumpingking::terms(pos, w), jumpingking::phase(pos)),
    }
}

/// The static evaluation of `pos` for the side to move, the FIDE pawn
/// structure asked of `pawns` (see [`white_terms_with`]).
pub(crate) fn evaluate_with_pawns(
    pos: &Position,
    pawns: impl FnOnce(&Weights, Bitboard, Bitboard) -> S,
) -> i32 {
    let w = weights::for_variant(pos.variant());
    let (score, phase) = white_terms_with(pos, w, |white, black| pawns(w, white, black));
    blend(pos, w, score, phase)
}

/// The static evaluation with the given weights (for tuning).
pub fn evaluate_with(pos: &Position, w: &Weights) -> i32 {
    let (score, phase) = white_terms(pos, w);
    blend(pos, w, score, phase)
}

/// White's terms `score` blended by `phase`, for the side to move, and the
/// tempo.
fn blend(pos: &Position, w: &Weights, score: S, phase: i32) -> i32 {
    let white = (score.0 * phase + score.1 * (PHASE_TOTAL - phase)) / PHASE_TOTAL;
    let stm = match pos.turn() {
        Color::White => white,
        Color::Black => -white,
    };
    stm + (w.tempo.0 * phase + w.tempo.1 * (PHASE_TOTAL - phase)) / PHASE_TOTAL
}

#[cfg(test)]
mod tests {
    use super::*;
    use weights::WEIGHTS;

    /// Swaps the colour of the piece letters.
    fn swap_case(text: &str) -> String {
        text.chars()
            .map(|c| {
                if c.is_ascii_uppercase() {
                    c.to_ascii_lowercase()
                } else {
                    c.to_ascii_uppercase()
                }
            })
            .collect()
    }

    /// The board field as an 8x8 grid of characters, rank 8 first.
    fn grid(board: &str) -> Vec<Vec<char>> {
        board
            .split('/')
            .map(|row| {
                let mut out = Vec::new();
                for c in row.chars() {
                    match c.to_digit(10) {
                        Some(n) => out.extend(std::iter::repeat_n('.', n as usize)),
                        None => out.push(c),
                    }
                }
                assert_eq!(out.len(), 8, "{row}");
                out
            })
            .collect()
    }

    fn board_text(grid: &[Vec<char>]) -> String {
        let rows: Vec<String> = grid
            .iter()
            .map(|row| {
                let mut text = String::new();
                let mut empty = 0;
                for &c in row {
                    if c == '.' {
                        empty += 1;
                    } else {
                        if empty > 0 {
                            text.push_str(&empty.to_string());
                            empty = 0;
                        }
                        text.push(c);
                    }
                }
                if empty > 0 {
                    text.push_str(&empty.to_string());
                }
                text
            })
            .collect();
        rows.join("/")
    }

    fn flip_square(sq: &str) -> String {
        if sq == "-" {
            return sq.to_string();
        }
        let (f, r) = sq.split_at(1);
        let r: u32 = r.parse().expect("rank");
        format!("{f}{}", 9 - r)
    }

    /// The colour-mirrored twin of a position text: White and Black swap
    /// men, side to move, rights, reserves and trampolines. The chess
    /// boards flip their ranks; Jumping King's board turns by 180 degrees
    /// within its six files (a1 onto f8, J1), its symmetry.
    fn mirror(variant: Variant, fen: &str) -> String {
        let fields: Vec<&str> = fen.split(' ').collect();
        let (board, reserve) = match fields[0].split_once('[') {
            Some((b, r)) => (b, Some(swap_case(r.trim_end_matches(']')))),
            None => (fields[0], None),
        };
        let g = grid(board);
        let mirrored: Vec<Vec<char>> = if variant == Variant::JumpingKing {
            (0..8)
                .map(|r| {
                    (0..8)
                        .map(|f| if f < 6 { g[7 - r][5 - f] } else { '.' })
                        .collect()
                })
                .collect()
        } else {
            g.iter().rev().cloned().collect()
        };
        let mut out = swap_case(&board_text(&mirrored));
        if let Some(r) = reserve {
            out.push('[');
            out.push_str(&r);
            out.push(']');
        }
        let turn = if fields[1] == "w" { "b" } else { "w" };
        let mut rest = vec![out, turn.to_string()];
        if variant == Variant::JumpingKing {
            // Phase letters, clocks.
            let phase = fields[2];
            let mut p = String::new();
            if phase.contains('j') {
                p.push('J');
            }
            if phase.contains('J') {
                p.push('j');
            }
            rest.push(if p.is_empty() { "-".into() } else { p });
            rest.extend(fields[3..].iter().map(|f| f.to_string()));
        } else {
            let castling = swap_case(fields[2]);
            let mut c: Vec<char> = castling.chars().collect();
            c.sort_by_key(|&ch| (ch.is_ascii_lowercase(), ch != 'K' && ch != 'k'));
            rest.push(c.into_iter().collect());
            rest.push(flip_square(fields[3]));
            rest.push(fields[4].to_string());
            rest.push(fields[5].to_string());
            if let Some(tramps) = fields.get(6) {
                let (w, b) = tramps.split_once(',').expect("trampolines");
                rest.push(format!("{},{}", flip_square(b), flip_square(w)));
            }
            rest.extend(fields.iter().skip(7).map(|f| f.to_string()));
        }
        rest.join(" ")
    }

    /// Positions of every game, with their themes in play.
    const POSITIONS: [(Variant, &str); 15] = [
        (
            Variant::Chess,
            "r1bqk2r/pp1n1ppp/2pbpn2/3p4/2PP4/2N1PN2/PPQ2PPP/R1B1KB1R w KQkq - 2 7",
        ),
        (Variant::Chess, "4k3/1p6/8/2P5/8/8/5PPP/R5K1 b - - 0 40"),
        (
            Variant::Hoplit,
            "rnbqkbnr/pppppppp/8/8/8/5NP1/PPPPPP1P/RNBQKBHR[h] b KQkq - 0 2",
        ),
        (
            Variant::Hoplit,
            "r1h1k2r/pp2bppp/2n1pn2/q2p4/3P4/2NBPN2/PP1H1PPP/R2QK2R[] w KQkq - 0 1",
        ),
        (Variant::Hoplit, "8/8/8/8/1P4k1/4n3/8/H6K[h] w - - 0 1"),
        (
            Variant::HopChess,
            "r1b1k3/3p1p1p/8/pB2N3/8/K7/P4PPP/R5NR b - - 0 17 e1,b4 -",
        ),
        (
            Variant::HopChess,
            "rnbqkb1r/pppppppp/5n2/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 1 1 -,- place",
        ),
        (
            Variant::HopChess,
            "rnbqkb1r/pppppppp/5n2/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2 -,d5 -",
        ),
        (
            Variant::Trampoline,
            "r1bbk2r/ppp2ppp/2npq3/8/4P3/2NQB3/PPP1BPPP/R3K2R w KQkq - 6 12 d5,g4",
        ),
        (
            Variant::Trampoline,
            "2Q1k2r/1p1q1ppp/p1nQ4/8/8/4B1P1/PPP2P1P/2K4R b - - 0 25 d8,g4",
        ),
        (
            Variant::Trampoline,
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3 -,c5",
        ),
        (
            Variant::JumpingKing,
            "8/krnb4/r2n1b2/1ppp4/1PP1P3/2NNR3/RKBB4/8[] w - 20 11",
        ),
        (
            Variant::JumpingKing,
            "8/3k4/8/8/8/4K3/2B5/8[RRBNNPPPrrbbnnppp] b Jj 3 2",
        ),
        (Variant::JumpingKing, "8/5P2/2k5/8/8/5R2/1K6/8[] b - 0 1"),
        (
            Variant::JumpingKing,
            "8/2k5/8/8/2N5/K7/8/8[RRBBNPPPrrbbnnppp] w Jj 0 1",
        ),
    ];

    #[test]
    fn mirror_twins_score_equal_and_opposite() {
        for (variant, fen) in POSITIONS {
            let pos = Position::from_fen(variant, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            let twin_fen = mirror(variant, fen);
            let twin = Position::from_fen(variant, &twin_fen)
                .unwrap_or_else(|e| panic!("{twin_fen}: {e}"));
            assert_eq!(mirror(variant, &twin_fen), fen, "mirror of the mirror");
            let (s, phase) = white_terms(&pos, &WEIGHTS);
            let (t, twin_phase) = white_terms(&twin, &WEIGHTS);
            assert_eq!(s, -t, "{variant} {fen} / {twin_fen}");
            assert_eq!(phase, twin_phase, "{fen}");
            assert_eq!(evaluate(&pos), evaluate(&twin), "{fen}");
            assert_ne!(s, S::ZERO, "{fen}: the position is not level");
        }
    }

    #[test]
    fn mirror_twins_along_random_games() {
        // Positions from pseudo-random legal games of every game (a fixed
        // linear congruential sequence): each scores as its mirrored twin.
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = |n: usize| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ((seed >> 33) as usize) % n
        };
        let mut checked = 0;
        for variant in Variant::ALL {
            for _game in 0..3 {
                let mut pos = Position::startpos(variant);
                for _ply in 0..60 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    pos.play(moves[next(moves.len())]);
                    if pos.is_first_turn() {
                        continue; // `first` is White's alone: no twin.
                    }
                    let fen = pos.to_fen();
                    let twin_fen = mirror(variant, &fen);
                    let twin = Position::from_fen(variant, &twin_fen)
                        .unwrap_or_else(|e| panic!("{fen} -> {twin_fen}: {e}"));
                    let (s, phase) = white_terms(&pos, &WEIGHTS);
                    let (t, twin_phase) = white_terms(&twin, &WEIGHTS);
                    assert_eq!((s, phase), (-t, twin_phase), "{fen} / {twin_fen}");
                    assert_eq!(evaluate(&pos), evaluate(&twin), "{fen}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 800, "{checked} positions");
    }

    #[test]
    fn every_game_has_its_own_terms() {
        // Each game has a position that scores differently from the
        // shared FIDE terms alone: its own module adds something (chess
        // and Hoplit Chess the terms of both sides' attacks).
        for variant in [
            Variant::Chess,
            Variant::HopChess,
            Variant::Trampoline,
            Variant::JumpingKing,
            Variant::Hoplit,
        ] {
            let differs = POSITIONS
                .iter()
                .filter(|(v, _)| *v == variant)
                .any(|(_, fen)| {
                    let pos = Position::from_fen(variant, fen).unwrap();
                    white_terms(&pos, &WEIGHTS).0 != fide::terms(&pos, &WEIGHTS)
                });
            assert!(differs, "{variant}");
        }
        // Chess has nothing beyond them.
        for (_, fen) in POSITIONS.iter().filter(|(v, _)| *v == Variant::Chess) {
            let chess = Position::from_fen(Variant::Chess, fen).unwrap();
            let pawns = |white, black| fide::pawn_terms(&WEIGHTS, white, black);
            assert_eq!(
                white_terms(&chess, &WEIGHTS).0,
                fide::terms_with_attacks(&chess, &WEIGHTS, pawns)
            );
        }
    }

    #[test]
    fn side_to_move_view() {
        let pos = Position::from_fen(Variant::Chess, "4k3/8/8/8/8/8/8/QQQQK3 w - - 0 1").unwrap();
        let flipped =
            Position::from_fen(Variant::Chess, "4k3/8/8/8/8/8/8/QQQQK3 b - - 0 1").unwrap();
        assert!(evaluate(&pos) > 3000);
        assert!(evaluate(&flipped) < -3000);
        let start = Position::startpos(Variant::Chess);
        assert_eq!(evaluate(&start), WEIGHTS.tempo.0);
    }
}
