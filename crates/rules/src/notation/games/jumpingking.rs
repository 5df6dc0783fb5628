//! The Weak Square of the Jumping King's position text, board picture and
//! SAN forms (N6).
//!
//! Position text: `board[men to place] turn phase halfmove fullmove` (the
//! clocks may be left out; see docs/rules/jumpingking.md): the board on the
//! 38 squares (J1), the unplaced men of both sides, and the phase, `J`/`j`
//! for a jumping White/Black king (J4), `Jj` for both, `-` for neither.
//! SAN: jumps `Kc2`, `Ke3<B`, `Kc7<p` (the man left behind, J5), passes
//! `--`/`0000` (J6).

use super::GameNotation;
use crate::error::{FenError, JumpingKingError, MoveError};
use crate::games::jumpingking::{phase_bit, weak_square, JumpingKing, MEN, START_RESERVE};
use crate::games::GameRules;
use crate::moves::{Move, MoveKind};
use crate::notation::fen::{parse_board, parse_clocks, parse_turn};
use crate::position::{Position, Setup};
use crate::types::{Color, Piece, Role, Square};

impl GameNotation for JumpingKing {
    fn read_fen(fen: &str) -> Result<Position, FenError> {
        read(fen)
    }

    fn write_fen(pos: &Position) -> String {
        write(pos)
    }

    fn describe(pos: &Position) -> String {
        describe(pos)
    }

    fn san_suffix(pos: &Position, m: Move) -> String {
        placement_suffix(pos, m)
    }

    fn parse_san_special(pos: &Position, text: &str) -> Option<Result<Vec<Move>, MoveError>> {
        parse_san_special(pos, text)
    }

    fn seed_is_san(_pos: &Position) -> bool {
        true
    }
}

/// Reads a position text: `board[men to place] turn phase halfmove
/// fullmove` (the clocks may be left out). See docs/rules/jumpingking.md.
fn read(fen: &str) -> Result<Position, FenError> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.is_empty() {
        return Err(FenError::Empty);
    }
    if fields.len() != 3 && fields.len() != 5 {
        return Err(FenError::FieldCount {
            expected: "5 (or 3)",
            found: fields.len(),
        });
    }
    let (board_text, reserve_text) = match fields[0].split_once('[') {
        Some((board, rest)) => match rest.strip_suffix(']') {
            Some(inner) if !inner.contains(['[', ']']) => (board, inner),
            _ => return Err(FenError::BadReserve(fields[0].to_string())),
        },
        None => return Err(JumpingKingError::MissingReserve(fields[0].to_string()).into()),
    };
    let board = parse_board(JumpingKing::VARIANT, board_text)?;
    let mut reserves = [[0u8; 7]; 2];
    for ch in reserve_text.chars() {
        let piece = Piece::from_char(ch)
            .filter(|p| MEN.contains(&p.role))
            .ok_or(JumpingKingError::BadReserveLetter { ch })?;
        let n = &mut reserves[piece.color.index()][piece.role.index()];
        *n += 1;
        if *n > START_RESERVE[piece.role.index()] {
            return Err(JumpingKingError::ReserveTooLarge {
                color: piece.color.name(),
                kind: piece.role.plural(),
                count: *n as u32,
                max: START_RESERVE[piece.role.index()] as u32,
            }
            .into());
        }
    }
    let turn = parse_turn(fields[1])?;
    let (white, black) = (phase_bit(Color::White), phase_bit(Color::Black));
    let phase = match fields[2] {
        "-" => 0,
        "J" => white,
        "j" => black,
        "Jj" => white | black,
        other => return Err(JumpingKingError::BadPhase(other.to_string()).into()),
    };
    let (halfmove, fullmove) = if fields.len() == 5 {
        parse_clocks(fields[3], fields[4])?
    } else {
        (0, 1)
    };
    let mut setup = Setup::new(board);
    setup.turn = turn;
    setup.halfmove = halfmove;
    setup.fullmove = fullmove;
    setup.reserves = reserves;
    setup.phase = phase;
    JumpingKing::from_setup(setup)
}

/// The men of both sides not placed, `[RRBBNNPPPrrbbnnppp]` style.
fn reserve_text(pos: &Position) -> String {
    let mut out = String::new();
    for c in Color::ALL {
        for role in MEN {
            for _ in 0..pos.reserve(c, role) {
                out.push(Piece::new(c, role).char());
            }
        }
    }
    out
}

/// Writes the position text.
fn write(pos: &Position) -> String {
    let board = pos.fide_board();
    let phase = match (pos.is_jumping(Color::White), pos.is_jumping(Color::Black)) {
        (false, false) => "-",
        (true, false) => "J",
        (false, true) => "j",
        (true, true) => "Jj",
    };
    format!(
        "{board}[{}] {} {phase} {} {}",
        reserve_text(pos),
        pos.turn().char(),
        pos.halfmove_clock(),
        pos.fullmove_number()
    )
}

/// Lines for the board picture: each side's phase and unplaced men.
fn describe(pos: &Position) -> String {
    let mut out = String::new();
    for c in Color::ALL {
        let mut men = String::new();
        for role in MEN {
            for _ in 0..pos.reserve(c, role) {
                men.push(Piece::new(c, role).char());
            }
        }
        let state = if pos.is_jumping(c) {
            format!("jumping, to place: {men}")
        } else if men.is_empty() {
            "all men placed, moving".to_string()
        } else {
            format!("stuck, never placed: {men}")
        };
        out.push_str(&format!(
            "{}: {state} (weak square {})\n",
            c.name(),
            weak_square(c)
        ));
    }
    out
}

/// The man letter of a placement in the seed's style: uppercase for
/// White's men, lowercase for Black's (`Ke3<B`, `Kc7<p`).
fn placement_suffix(pos: &Position, m: Move) -> String {
    match (m.kind(), m.role()) {
        (MoveKind::Jump, Some(role)) => format!("<{}", Piece::new(pos.turn(), role).char()),
        _ => String::new(),
    }
}

/// Reads the short forms only this game has: passes (`--`, `0000`) and
/// jumps (`Kc2`, `Ke3<B`, `Kc7<p`; the man's letter in either case).
/// `None` when the text is none of these (an ordinary SAN move); else
/// the legal moves it names (several: ambiguous).
fn parse_san_special(pos: &Position, text: &str) -> Option<Result<Vec<Move>, MoveError>> {
    let trimmed = text.trim().trim_end_matches(['+', '#', '!', '?']);
    if matches!(trimmed, "--" | "0000") {
        return Some(
            pos.legal_moves()
                .into_iter()
                .find(|m| m.kind() == MoveKind::Pass)
                .map(|m| vec![m])
                .ok_or_else(|| MoveError::Illegal(text.to_string())),
        );
    }
    let (base, man) = match trimmed.split_once('<') {
        Some((base, man)) => {
            let mut chars = man.chars();
            let role = match (chars.next(), chars.next()) {
                (Some(c), None) => Role::from_char(c).filter(|r| MEN.contains(r)),
                _ => None,
            };
            match role {
                Some(r) => (base, Some(r)),
                None => return Some(Err(MoveError::Malformed(text.to_string()))),
            }
        }
        None if pos.is_jumping(pos.turn()) => (trimmed, None),
        None => return None,
    };
    let to: Square = match base.strip_prefix('K').and_then(|s| s.parse().ok()) {
        Some(sq) => sq,
        None if man.is_some() => return Some(Err(MoveError::Malformed(text.to_string()))),
        None => return None,
    };
    let candidates: Vec<Move> = pos
        .legal_moves()
        .into_iter()
        .filter(|m| {
            m.kind() == MoveKind::Jump && m.to() == Some(to) && (man.is_none() || m.role() == man)
        })
        .collect();
    // Several: ambiguous, named by the SAN reader.
    Some(if candidates.is_empty() {
        Err(MoveError::Illegal(text.to_string()))
    } else {
        Ok(candidates)
    })
}
