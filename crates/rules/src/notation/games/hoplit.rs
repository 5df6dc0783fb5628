//! Hoplit Chess's position text: FEN with the reserve in brackets right
//! after the board (`...RNBQKBNR[Hh] w KQkq - 0 1`), as Fairy-Stockfish
//! writes pockets; at most one Hoplit a side (L1). Its SAN drop `H@g1` (N6)
//! is shared SAN.

use super::GameNotation;
use crate::error::FenError;
use crate::games::hoplit::Hoplit;
use crate::games::GameRules;
use crate::notation::fen::parse_fide_fields;
use crate::position::Position;
use crate::types::{Color, Piece, Role};

impl GameNotation for Hoplit {
    fn read_fen(fen: &str) -> Result<Position, FenError> {
        read(fen)
    }

    fn write_fen(pos: &Position) -> String {
        write(pos)
    }
}

/// Splits `board[reserve]` into the board and the reserve counts.
fn parse_reserve(field: &str) -> Result<(&str, [u8; 2]), FenError> {
    let Some(open) = field.find('[') else {
        return Err(FenError::MissingReserve);
    };
    let (board, rest) = field.split_at(open);
    let inner = rest
        .strip_prefix('[')
        .and_then(|r| r.strip_suffix(']'))
        .filter(|r| !r.contains(['[', ']']))
        .ok_or_else(|| FenError::BadReserve(rest.to_string()))?;
    let mut counts = [0u8; 2];
    for ch in inner.chars() {
        let color = match ch {
            'H' => Color::White,
            'h' => Color::Black,
            _ if Role::from_char(ch).is_some() => {
                return Err(FenError::ReserveContent {
                    text: rest.to_string(),
                    reason: "only the Hoplit (H, h) can be in reserve",
                })
            }
            _ => return Err(FenError::BadReserve(rest.to_string())),
        };
        if counts[color.index()] == 1 {
            return Err(FenError::ReserveContent {
                text: rest.to_string(),
                reason: "a side has at most one Hoplit in reserve",
            });
        }
        counts[color.index()] = 1;
    }
    Ok((board, counts))
}

/// Reads a Hoplit Chess position text: FEN with the reserve in brackets
/// after the board, as Fairy-Stockfish writes pockets.
fn read(fen: &str) -> Result<Position, FenError> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.is_empty() {
        return Err(FenError::Empty);
    }
    if fields.len() > 1 && fields[1].starts_with('[') {
        return Err(FenError::ReserveContent {
            text: format!("{} {}", fields[0], fields[1]),
            reason: "write the reserve right after the board, without a space",
        });
    }
    if fields.len() != 4 && fields.len() != 6 {
        return Err(FenError::FieldCount {
            expected: "6 (or 4)",
            found: fields.len(),
        });
    }
    let (board_text, reserve) = parse_reserve(fields[0])?;
    let mut fide_fields = fields.clone();
    fide_fields[0] = board_text;
    let mut setup = parse_fide_fields(Hoplit::VARIANT, &fide_fields)?;
    for c in Color::ALL {
        setup.reserves[c.index()][Role::Hoplit.index()] = reserve[c.index()];
    }
    Hoplit::from_setup(setup)
}

/// Writes the position text: FEN with the reserve after the board.
fn write(pos: &Position) -> String {
    let fide = pos.fide_fen();
    let (board, rest) = fide.split_once(' ').expect("FEN fields");
    let mut out = String::with_capacity(fide.len() + 4);
    out.push_str(board);
    out.push('[');
    for c in Color::ALL {
        for _ in 0..pos.reserve(c, Role::Hoplit) {
            out.push(Piece::new(c, Role::Hoplit).char());
        }
    }
    out.push_str("] ");
    out.push_str(rest);
    out
}
