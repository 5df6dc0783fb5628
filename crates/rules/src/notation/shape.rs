//! What a pasted text looks like before it is read: a position text (FEN),
//! a game text (PGN) or neither, and which game's position text a FEN has
//! the shape of (its fields, its reserve brackets), so that a refused text
//! is explained in terms of the game it really belongs to, and prose is not
//! taken for any game's position.

use crate::error::{FenError, JumpingKingError};
use crate::position::Position;
use crate::types::Piece;
use crate::variant::Variant;

/// Whether `field` (a text's first word) can be a FEN's board: ranks
/// separated by `/`, written with piece letters and digits, and reserve
/// brackets.
pub(crate) fn looks_like_board(field: &str) -> bool {
    field.contains('/')
        && field
            .chars()
            .all(|c| Piece::from_char(c).is_some() || c.is_ascii_digit() || "/[]".contains(c))
}

/// Whether `text` can be meant as a game text (PGN): it has a tag line, a
/// move number, a comment, a result, or starts with a word written like a
/// move (`e4`, `Nf3`, `O-O`, `g8f6@d5`, `Ke3<B`, `--`).
pub(crate) fn looks_like_game(text: &str) -> bool {
    if text.lines().any(|l| {
        let l = l.trim();
        l.starts_with('[') && l.contains('"')
    }) {
        return true;
    }
    let mut words = text.split_whitespace();
    let Some(first) = words.next() else {
        return false;
    };
    let numbered = |w: &str| {
        let digits = w.trim_start_matches(|c: char| c.is_ascii_digit());
        digits.len() < w.len() && digits.starts_with('.')
    };
    first.starts_with(['{', ';', '%', '('])
        || numbered(first)
        || is_result(first)
        || is_move_word(first)
        || text.split_whitespace().any(numbered)
}

/// The results PGN writes, and the seeds' `resign`.
fn is_result(word: &str) -> bool {
    matches!(word, "1-0" | "0-1" | "1/2-1/2" | "*" | "resign" | "resigns")
}

/// Whether `word` is written like a move of some notation the readers
/// know: only the characters of moves, and a square in it (or castling, a
/// pass).
fn is_move_word(word: &str) -> bool {
    let w = word.trim_end_matches(['+', '#', '!', '?']);
    if matches!(w, "O-O" | "O-O-O" | "0-0" | "0-0-0" | "--" | "0000") {
        return true;
    }
    let chars: Vec<char> = w.chars().collect();
    let has_square = chars
        .windows(2)
        .any(|p| ('a'..='h').contains(&p[0]) && ('1'..='8').contains(&p[1]));
    has_square
        && chars
            .iter()
            .all(|c| "KQRBNHTPabcdefgh12345678x-@:<=".contains(*c))
}

/// Whether a game's reader refused a text for its shape: the number of
/// fields, reserve brackets where the game has none or none where it has
/// them. Any other error says the text has the game's shape but something
/// in it is wrong.
fn is_shape_error(e: &FenError) -> bool {
    matches!(
        e,
        FenError::FieldCount { .. }
            | FenError::MissingReserve
            | FenError::UnexpectedReserve(_)
            | FenError::BadPieceChar { ch: '[' | ']' }
            | FenError::JumpingKing(JumpingKingError::MissingReserve(_))
    )
}

/// Whether an error is about how a field is written (rather than about the
/// position the fields describe).
fn is_field_error(e: &FenError) -> bool {
    is_shape_error(e)
        || matches!(
            e,
            FenError::RankCount(_)
                | FenError::RankLength { .. }
                | FenError::BadPieceChar { .. }
                | FenError::MissingSquare(_)
                | FenError::BadReserve(_)
                | FenError::BadTurn(_)
                | FenError::BadHalfmove(_)
                | FenError::BadFullmove(_)
                | FenError::JumpingKing(JumpingKingError::BadPhase(_))
        )
}

/// The games whose position text `fen` has the shape of, with what each
/// says of it (`Ok` when it reads it). The games' shapes differ, so this is
/// one game at most for any text; an empty list: no game's.
///
/// A Jumping King text without its brackets of men to place counts as the
/// game's when the brackets are all it lacks: its board stays on the 38
/// squares and its other fields read.
pub(crate) fn games_by_shape(fen: &str) -> Vec<(Variant, Result<Position, FenError>)> {
    Variant::implemented()
        .filter_map(|v| {
            let read = Position::from_fen(v, fen);
            let fits = match &read {
                Ok(_) => true,
                Err(FenError::JumpingKing(JumpingKingError::MissingReserve(_))) => {
                    with_empty_brackets(fen).is_some_and(|t| match Position::from_fen(v, &t) {
                        Ok(_) => true,
                        Err(e) => !is_field_error(&e),
                    })
                }
                Err(e) => !is_shape_error(e),
            };
            fits.then_some((v, read))
        })
        .collect()
}

/// `fen` with `[]` after its board.
fn with_empty_brackets(fen: &str) -> Option<String> {
    let fen = fen.trim();
    let end = fen.find(char::is_whitespace).unwrap_or(fen.len());
    Some(format!("{}[]{}", fen.get(..end)?, fen.get(end..)?))
}

/// The number of fields of a game's position text (its start position's).
pub(crate) fn field_count(v: Variant) -> usize {
    v.start_fen().split_whitespace().count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards_and_prose() {
        assert!(looks_like_board("8/8/8"));
        assert!(looks_like_board("8/K7[RRr]"));
        assert!(looks_like_board(
            Variant::JumpingKing.start_fen().split(' ').next().unwrap()
        ));
        assert!(!looks_like_board("this"));
        assert!(!looks_like_board("8/8/x"));
        assert!(!looks_like_board("rnbqkbnr"));
    }

    #[test]
    fn game_texts() {
        for text in [
            "1. e4 e5",
            "[Event \"x\"]",
            "e4 e5 Nf3",
            "Nf6@d5",
            "g8f6@d5",
            "Ke3<B",
            "O-O",
            "--",
            "{a comment} 1. e4",
            "1-0",
            "1.e4",
        ] {
            assert!(looks_like_game(text), "{text}");
        }
        for text in [
            "this is not a fen",
            "hello",
            "8/8/8 w - - 0 1",
            "K7[RR] w Jj 0 1",
            "",
        ] {
            assert!(!looks_like_game(text), "{text}");
        }
    }

    #[test]
    fn shapes_name_one_game() {
        let names = |fen: &str| -> Vec<Variant> {
            games_by_shape(fen).into_iter().map(|(v, _)| v).collect()
        };
        for v in Variant::implemented() {
            assert_eq!(names(v.start_fen()), vec![v], "{v}");
        }
        // The Jumping King's start without its brackets: the game's.
        assert_eq!(
            names("5k2/8/8/8/8/8/8/K7 w Jj 0 1"),
            vec![Variant::JumpingKing]
        );
        // Five fields of prose, or of a chess board: nobody's.
        assert_eq!(names("this is not a fen"), vec![]);
        assert_eq!(
            names("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0"),
            vec![]
        );
        // A chess text with a bad field is still chess-shaped.
        assert_eq!(
            names("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1"),
            vec![Variant::Chess]
        );
        assert_eq!(field_count(Variant::Chess), 6);
        assert_eq!(field_count(Variant::HopChess), 8);
    }
}
