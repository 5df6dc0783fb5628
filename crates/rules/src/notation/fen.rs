//! Position text: FEN, read strictly and written canonically. This file
//! holds what the games share (the FIDE fields); each game's own fields
//! are in `notation/games/`, and the entry points that hand a text to its
//! game in `notation/position_text.rs`. Reading makes an unchecked setup
//! and hands it to the game's rules, which check it.
//!
//! `board turn castling ep halfmove fullmove`; the last two fields may be
//! left out (they default to `0 1`). Reading checks that the text describes a
//! position that can be played: one king a side, no pawn on a back rank,
//! castling rights that match the pieces, an en-passant square that follows
//! a double step, and the side not to move not in check. An en-passant
//! square is kept (and written back) only when a capture there is legal
//! (ruling C2).

use crate::board::Board;
use crate::error::FenError;
use crate::position::{Castling, Position, Setup, MAX_COUNTER};
use crate::types::{Color, File, Piece, Rank, Role, Square};
use crate::variant::Variant;

pub(crate) fn parse_board(variant: Variant, text: &str) -> Result<Board, FenError> {
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::RankCount(ranks.len()));
    }
    let mut board = Board::empty();
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = 7 - i as u8;
        let mut file = 0u32;
        let mut last_digit = false;
        for ch in rank_text.chars() {
            if let Some(d) = ch.to_digit(10) {
                if d == 0 || d > 8 || last_digit {
                    return Err(FenError::BadPieceChar { ch });
                }
                file += d;
                last_digit = true;
                continue;
            }
            last_digit = false;
            let piece = Piece::from_char(ch).ok_or(FenError::BadPieceChar { ch })?;
            if piece.role == Role::Hoplit && !variant.roles().contains(&Role::Hoplit) {
                return Err(FenError::BadPieceChar { ch });
            }
            if file >= 8 {
                file += 1;
                continue;
            }
            let sq = Square::from_coords(
                File::new(file as u8).expect("< 8"),
                Rank::new(rank).expect("< 8"),
            );
            if !variant.mask().contains(sq) {
                return Err(FenError::MissingSquare(sq.to_string()));
            }
            board.put(sq, piece);
            file += 1;
        }
        if file != 8 {
            return Err(FenError::RankLength {
                rank: rank + 1,
                squares: file,
            });
        }
    }
    Ok(board)
}

pub(crate) fn parse_castling(text: &str, board: &Board) -> Result<Castling, FenError> {
    let mut castling = Castling::NONE;
    if text == "-" {
        return Ok(castling);
    }
    let mut seen = String::new();
    for ch in text.chars() {
        let (color, king_side) = match ch {
            'K' => (Color::White, true),
            'Q' => (Color::White, false),
            'k' => (Color::Black, true),
            'q' => (Color::Black, false),
            _ => return Err(FenError::BadCastling(text.to_string())),
        };
        // Rights must come in the order KQkq, each at most once.
        if seen.contains(ch) || seen.chars().any(|s| "KQkq".find(s) > "KQkq".find(ch)) {
            return Err(FenError::BadCastling(text.to_string()));
        }
        seen.push(ch);
        let (king, rook, king_name, rook_name) = match (color, king_side) {
            (Color::White, true) => (Square::E1, Square::H1, "e1", "h1"),
            (Color::White, false) => (Square::E1, Square::A1, "e1", "a1"),
            (Color::Black, true) => (Square::E8, Square::H8, "e8", "h8"),
            (Color::Black, false) => (Square::E8, Square::A8, "e8", "a8"),
        };
        if board.piece_at(king) != Some(Piece::new(color, Role::King))
            || board.piece_at(rook) != Some(Piece::new(color, Role::Rook))
        {
            return Err(FenError::CastlingWithoutPieces {
                right: ch,
                color: color.name(),
                king: king_name,
                rook: rook_name,
            });
        }
        castling.set(color, king_side);
    }
    Ok(castling)
}

/// The side to move: `w` or `b`.
pub(crate) fn parse_turn(text: &str) -> Result<Color, FenError> {
    match text {
        "w" => Ok(Color::White),
        "b" => Ok(Color::Black),
        other => Err(FenError::BadTurn(other.to_string())),
    }
}

/// The halfmove clock and the fullmove number (at least 1).
pub(crate) fn parse_clocks(half: &str, full: &str) -> Result<(u32, u32), FenError> {
    let h = parse_number(half).ok_or(FenError::BadHalfmove(half.to_string()))?;
    let f = parse_number(full)
        .filter(|&f| f >= 1)
        .ok_or(FenError::BadFullmove(full.to_string()))?;
    Ok((h, f))
}

/// A counter of the position text: at most [`MAX_COUNTER`] (six digits).
pub(crate) fn parse_number(text: &str) -> Option<u32> {
    if text.is_empty() || text.len() > 6 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok().filter(|&n| n <= MAX_COUNTER)
}

/// Reads the six (or four) FIDE fields into an unchecked setup (the
/// en-passant square as written).
pub(crate) fn parse_fide_fields(variant: Variant, fields: &[&str]) -> Result<Setup, FenError> {
    let board_text = fields[0];
    if board_text.contains('[') {
        return Err(FenError::UnexpectedReserve(board_text.to_string()));
    }
    let board = parse_board(variant, board_text)?;
    let turn = parse_turn(fields[1])?;
    let castling = parse_castling(fields[2], &board)?;
    let ep_text = fields[3];
    let ep_claim = if ep_text == "-" {
        None
    } else {
        Some(
            ep_text
                .parse::<Square>()
                .map_err(|_| FenError::BadEnPassant(ep_text.to_string()))?,
        )
    };
    let (halfmove, fullmove) = match fields {
        [_, _, _, _, half, full, ..] => parse_clocks(half, full)?,
        _ => (0, 1),
    };
    let mut setup = Setup::new(board);
    setup.turn = turn;
    setup.castling = castling;
    setup.ep_claim = ep_claim;
    setup.halfmove = halfmove;
    setup.fullmove = fullmove;
    Ok(setup)
}

/// The trampolines field of the trampoline games: `WHITE,BLACK`, each a
/// square or `-` (off the board): `-,-`, `e1,b4`, `d5,-`.
pub(crate) fn parse_trampolines(text: &str) -> Result<[Option<Square>; 2], FenError> {
    let bad = || FenError::BadTrampolines(text.to_string());
    let parts: Vec<&str> = text.split(',').collect();
    if parts.len() != 2 {
        return Err(bad());
    }
    let mut out = [None; 2];
    for (i, part) in parts.iter().enumerate() {
        out[i] = match *part {
            "-" => None,
            sq => Some(sq.parse::<Square>().map_err(|_| bad())?),
        };
    }
    Ok(out)
}

/// Writes the trampolines field (see [`parse_trampolines`]).
pub(crate) fn trampolines_text(pos: &Position) -> String {
    let mut out = String::new();
    for (i, c) in Color::ALL.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        match pos.trampoline(c) {
            Some(t) => out.push_str(&t.to_string()),
            None => out.push('-'),
        }
    }
    out
}

/// Reads a FIDE position text (six fields, or four) into a setup.
pub(crate) fn parse_fide_fen(variant: Variant, fen: &str) -> Result<Setup, FenError> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.is_empty() {
        return Err(FenError::Empty);
    }
    if fields.len() != 4 && fields.len() != 6 {
        return Err(FenError::FieldCount {
            expected: "6 (or 4)",
            found: fields.len(),
        });
    }
    parse_fide_fields(variant, &fields)
}

impl Position {
    /// The six FIDE fields.
    pub(crate) fn fide_fen(&self) -> String {
        let mut out = self.fide_board();
        out.push(' ');
        out.push(self.turn().char());
        out.push(' ');
        let castling = self.castling();
        if castling.is_empty() {
            out.push('-');
        } else {
            for (c, k, ch) in [
                (Color::White, true, 'K'),
                (Color::White, false, 'Q'),
                (Color::Black, true, 'k'),
                (Color::Black, false, 'q'),
            ] {
                if castling.has(c, k) {
                    out.push(ch);
                }
            }
        }
        out.push(' ');
        match self.ep_square() {
            Some(ep) => out.push_str(&ep.to_string()),
            None => out.push('-'),
        }
        out.push_str(&format!(
            " {} {}",
            self.halfmove_clock(),
            self.fullmove_number()
        ));
        out
    }

    /// The board field: the pieces rank by rank, from rank 8.
    pub(crate) fn fide_board(&self) -> String {
        let mut out = String::with_capacity(90);
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                let sq = Square::from_coords(
                    File::new(file).expect("file"),
                    Rank::new(rank).expect("rank"),
                );
                match self.board().piece_at(sq) {
                    Some(p) => {
                        if empty > 0 {
                            out.push(char::from_digit(empty, 10).expect("digit"));
                            empty = 0;
                        }
                        out.push(p.char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                out.push(char::from_digit(empty, 10).expect("digit"));
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out
    }
}
