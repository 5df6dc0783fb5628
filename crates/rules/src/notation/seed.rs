//! Reading game texts like those of the seed pages (shared/seeds/games/):
//! move numbers, `;` comments, and the old notations described in
//! shared/rules/SEED-GAMES.md. Every move is resolved against the legal
//! moves of the position; a text that fits several moves is an error that
//! names the candidates, never a guess.

use super::games::GameNotation;
use super::turns::with_place;
use crate::error::MoveError;
use crate::games::with_game;
use crate::moves::Move;
use crate::moves::MoveKind;
use crate::notation::san::{parse_san, resolve};
use crate::position::{Outcome, Position};
use crate::types::{File, Rank, Role, Square};

/// The move tokens of a game text, without move numbers, comments and the
/// closing result or `resign`.
pub fn tokens(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.split(';').next().unwrap_or("");
        for word in line.split_whitespace() {
            // "12." and "12..." are move numbers; "12.e4" carries a move;
            // "0-0" is castling.
            let digits = word.len() - word.trim_start_matches(|c: char| c.is_ascii_digit()).len();
            let word = if digits > 0 && word[digits..].starts_with('.') {
                word[digits..].trim_start_matches('.')
            } else {
                word
            };
            let word = word.trim();
            if word.is_empty() {
                continue;
            }
            if matches!(word, "resign" | "resigns" | "1-0" | "0-1" | "1/2-1/2" | "*") {
                return out;
            }
            out.push(word.to_string());
        }
    }
    out
}

/// Whether the game text ends with a resignation (`resign`, `resigns`):
/// the side to move after the last move resigned.
pub fn ends_in_resignation(text: &str) -> bool {
    text.lines()
        .map(|l| l.split(';').next().unwrap_or(""))
        .flat_map(str::split_whitespace)
        .any(|w| matches!(w, "resign" | "resigns"))
}

/// Reads the next move of a game text at `pos`, taking as many tokens from
/// `tokens` as that game's turn needs: one, or in Hop Chess (after White's
/// first turn) the piece move and then the placement square (`Nf6 d5`).
pub fn read_move(
    pos: &Position,
    tokens: &mut std::iter::Peekable<std::slice::Iter<'_, String>>,
) -> Result<Move, MoveError> {
    let text = tokens
        .next()
        .ok_or_else(|| MoveError::Malformed("(end of game text)".to_string()))?;
    // Jumping King's seed notation (`Ke3<B`, `++`) is read by SAN itself.
    if with_game!(pos.variant(), G => G::seed_is_san(pos)) {
        return parse_san(pos, text).or_else(|e| match e {
            MoveError::Ambiguous { .. } => Err(e),
            _ => match strip_marks(text).parse::<crate::notation::uci::UciMove>() {
                Ok(long) => long.to_move(pos).or(Err(e)),
                Err(_) => Err(e),
            },
        });
    }
    if !with_game!(pos.variant(), G => G::placement_follows(pos)) {
        return read_turn_part(pos, text, None);
    }
    // A Hop Chess turn: the piece move and the placement square, as two
    // words (`Nf6 d5`, `Bf1-c4:f7 c4+`) or joined by `@` (`Nf6@d5`,
    // `g8f6@d5`).
    if let Some((piece, place)) = text.rsplit_once('@').filter(|(p, _)| !p.is_empty()) {
        let sq: Square = strip_marks(place)
            .parse()
            .map_err(|_| MoveError::Malformed(text.to_string()))?;
        return read_turn_part(pos, piece, Some(sq)).map_err(|e| rename(e, text));
    }
    let place = tokens.peek().and_then(|t| {
        strip_marks(t)
            .trim_start_matches('@')
            .parse::<Square>()
            .ok()
    });
    let Some(sq) = place else {
        // No square follows: say so if the piece move itself is legal.
        let step = read_turn_part(pos, text, None)?;
        return Err(crate::notation::uci::needs_placement(pos, text, step));
    };
    let sq_text = tokens.next().expect("peeked");
    let full = format!("{text} {sq_text}");
    read_turn_part(pos, text, Some(sq)).map_err(|e| rename(e, &full))
}

/// The same error, naming the whole turn's text.
fn rename(e: MoveError, full: &str) -> MoveError {
    match e {
        MoveError::Illegal(_) => MoveError::Illegal(full.to_string()),
        MoveError::Malformed(_) => MoveError::Malformed(full.to_string()),
        other => other,
    }
}

/// Reads one move, or a Hop Chess piece move with its placement `place`,
/// in any notation a player may use: the seeds' old notation (which
/// includes SAN), a bounce path, a drop, or long notation.
fn read_turn_part(pos: &Position, text: &str, place: Option<Square>) -> Result<Move, MoveError> {
    let s = strip_marks(text);
    if s.contains('-') && !s.starts_with(['O', '0', 'o']) {
        // A path as written by SAN (`Bc8-f5-e4`, `d2-d4:c5`); a Hop Chess
        // piece move alone is a step.
        if place.is_none() && pos.splits_turn() {
            return crate::notation::san::parse_step(pos, s, text);
        }
        return crate::notation::san::parse_path(pos, s, place)
            .unwrap_or_else(|| Err(MoveError::Malformed(text.to_string())));
    }
    let read = match read_piece_move(pos, text) {
        Ok(m) => return with_place(pos, text, m, place),
        Err(e) => e,
    };
    if matches!(read, MoveError::Ambiguous { .. }) {
        return Err(read);
    }
    // SAN forms the old notation does not know (`exd6 e.p.`).
    let san = match place {
        Some(sq) => parse_san(pos, &format!("{s} {sq}")),
        None => parse_san(pos, s),
    };
    if let Ok(m) = san {
        return Ok(m);
    }
    // Long notation (`g1f3`, `b1c3b5`, `g8f6@d5`).
    match s.parse::<crate::notation::uci::UciMove>() {
        Ok(mut uci) => {
            if let (crate::notation::uci::UciMove::Normal { place: p, .. }, Some(sq)) =
                (&mut uci, place)
            {
                *p = Some(sq);
            }
            uci.to_move(pos).or(Err(read))
        }
        Err(_) => Err(read),
    }
}

/// The text without check, mate and comment marks (`+`, `++`, `#`, `!`, `?`).
fn strip_marks(text: &str) -> &str {
    text.trim().trim_end_matches(['+', '#', '!', '?'])
}

/// What an old-notation move text asks for.
#[derive(Debug, Default)]
struct OldPattern {
    role: Option<Role>,
    from_file: Option<File>,
    from_rank: Option<Rank>,
    capture: bool,
    captured: Option<Role>,
    to: Option<Square>,
    promotion: Option<Role>,
}

/// Reads the origin part: a piece letter, then a file, rank or square.
fn read_origin(text: &str, p: &mut OldPattern) -> Option<()> {
    let mut chars = text.chars().peekable();
    if let Some(&c) = chars.peek() {
        if "KQRBNH".contains(c) {
            p.role = Role::from_char(c);
            chars.next();
        }
    }
    for c in chars {
        if let (Some(f), None, None) = (File::from_char(c), p.from_file, p.from_rank) {
            p.from_file = Some(f);
        } else if let (Some(r), None) = (Rank::from_char(c), p.from_rank) {
            p.from_rank = Some(r);
        } else {
            return None;
        }
    }
    Some(())
}

/// Reads a target: a square, maybe a captured piece's letter before it
/// (`Be2` in `BxBe2`, or `Q` alone in `K:Q`), maybe a promotion after it.
fn read_target(text: &str, p: &mut OldPattern, after_capture: bool) -> Option<()> {
    let mut s = text;
    if after_capture && s.starts_with(['K', 'Q', 'R', 'B', 'N', 'P', 'H']) {
        p.captured = Role::from_char(s.chars().next()?);
        s = &s[1..];
        if s.is_empty() {
            return Some(());
        }
    }
    if s.len() < 2 || !s.is_char_boundary(2) {
        return None;
    }
    p.to = Some(s[..2].parse().ok()?);
    let promo = s[2..].trim_start_matches('=');
    if !promo.is_empty() {
        let mut cs = promo.chars();
        let c = cs.next()?;
        if cs.next().is_some() || !"QRBNH".contains(c) {
            return None;
        }
        p.promotion = Role::from_char(c);
    }
    Some(())
}

fn read_old_pattern(text: &str) -> Option<OldPattern> {
    let mut p = OldPattern::default();
    if !text.is_ascii() || text.is_empty() {
        return None;
    }
    match text.find(['x', ':']) {
        Some(i) => {
            p.capture = true;
            read_origin(&text[..i], &mut p)?;
            read_target(&text[i + 1..], &mut p, true)?;
        }
        None => {
            // The target is the last square (and promotion) of the text.
            let (body, promo) = match text.rfind(|c: char| c.is_ascii_digit()) {
                Some(i) => text.split_at(i + 1),
                None => return None,
            };
            if body.len() < 2 {
                return None;
            }
            let (origin, to) = body.split_at(body.len() - 2);
            read_origin(origin, &mut p)?;
            read_target(&format!("{to}{promo}"), &mut p, false)?;
        }
    }
    Some(p)
}

/// Reads one move (a Hop Chess piece step) in the seeds' old notation
/// (shared/rules/SEED-GAMES.md): `:` or `x` for captures, a captured piece
/// named instead of (or before) its square (`NxN`, `K:Q`, `BxBe2`,
/// `e:Q+`), a pawn capture with no origin (`xd6`), an unnamed promotion
/// meaning a queen, `T` for a trampoline move, castling as `o-o`, `0-0` or
/// `O-O`, marks `+ ++ # ! ?` ignored. Also reads what SAN reads.
pub fn read_piece_move(pos: &Position, text: &str) -> Result<Move, MoveError> {
    let s = strip_marks(text);
    let mut steps = Vec::new();
    pos.legal_steps_into(&mut steps);
    let castle = match s {
        "O-O" | "0-0" | "o-o" => Some(true),
        "O-O-O" | "0-0-0" | "o-o-o" => Some(false),
        _ => None,
    };
    if let Some(king_side) = castle {
        return resolve(pos, text, &steps, |m| {
            m.kind() == MoveKind::Castle
                && (m.to().map(|t| t.file()) > m.from().map(|f| f.file())) == king_side
        });
    }
    if s.contains('@') && !pos.splits_turn() {
        // A drop (`H@g1`, N6) is SAN. (In Hop Chess `@` joins a placement
        // to the piece move: no piece step.)
        return parse_san(pos, s);
    }
    if let Some(sq) = s.strip_prefix('T') {
        let to: Square = sq
            .parse()
            .map_err(|_| MoveError::Malformed(text.to_string()))?;
        return resolve(pos, text, &steps, |m| {
            m.kind() == MoveKind::Trampoline && m.to() == Some(to)
        });
    }
    if s.contains('-') && castle.is_none() {
        // A path as written by SAN (`Bc8-f5-e4`); in Hop Chess a piece step.
        if pos.splits_turn() {
            return crate::notation::san::parse_step(pos, s, text);
        }
        return crate::notation::san::parse_path(pos, s, None)
            .unwrap_or_else(|| Err(MoveError::Malformed(text.to_string())));
    }
    let p = read_old_pattern(s).ok_or_else(|| MoveError::Malformed(text.to_string()))?;
    let b = pos.board();
    resolve(pos, text, &steps, |m| {
        let (Some(from), Some(to)) = (m.from(), m.to()) else {
            return false;
        };
        if m.kind() == MoveKind::Castle || b.role_at(from) != Some(p.role.unwrap_or(Role::Pawn)) {
            return false;
        }
        let captured = if m.kind() == MoveKind::EnPassant {
            Some(Role::Pawn)
        } else {
            b.piece_at(to)
                .filter(|c| c.color != pos.turn())
                .map(|c| c.role)
        };
        p.from_file.is_none_or(|f| from.file() == f)
            && p.from_rank.is_none_or(|r| from.rank() == r)
            && p.to.is_none_or(|t| t == to)
            && (!p.capture || captured.is_some())
            && p.captured.is_none_or(|r| captured == Some(r))
            && match (p.promotion, m.promotion_role()) {
                (Some(want), got) => got == Some(want),
                // An unnamed promotion is a queen.
                (None, got) => got.is_none_or(|r| r == Role::Queen),
            }
    })
}

/// A replayed game: every move, and the end if the last position shows one.
#[derive(Debug)]
pub struct Replay {
    pub moves: Vec<Move>,
    pub positions: Vec<Position>,
    pub outcome: Option<Outcome>,
}

/// An error while replaying: which move (1-based ply) and why.
#[derive(Debug, thiserror::Error)]
#[error("move {ply} ('{text}'): {source}")]
pub struct ReplayError {
    pub ply: usize,
    pub text: String,
    #[source]
    pub source: MoveError,
}

/// Reads one move as a player types it, in any notation the game texts
/// use (rulings N1-N6): SAN (`Nf3`, `exd5`, a bounce path `Bf1-c4-e6`),
/// long notation (`g1f3`), a Hop Chess turn with its trampoline square
/// (`Nf3 e5`, `Nf3@e5`, `g1f3@e5`), a drop (`H@g1`), a Jumping King jump
/// (`Ke3<B`, `c2e3b`) or a pass (`--`, `0000`). The whole text must be
/// that one move: a second move after it is refused.
pub fn read_typed(pos: &Position, text: &str) -> Result<Move, MoveError> {
    let words = tokens(text);
    let mut iter = words.iter().peekable();
    if iter.peek().is_none() {
        return Err(MoveError::Malformed(text.trim().to_string()));
    }
    let m = read_move(pos, &mut iter)?;
    if iter.peek().is_some() {
        return Err(MoveError::Malformed(text.trim().to_string()));
    }
    Ok(m)
}

/// Replays a game text from `start`.
pub fn replay(start: &Position, text: &str) -> Result<Replay, ReplayError> {
    let tokens = tokens(text);
    let mut iter = tokens.iter().peekable();
    let mut game = crate::Game::new(start.clone());
    while iter.peek().is_some() {
        let next = iter.peek().map(|t| t.to_string()).unwrap_or_default();
        let ply = game.moves().len() + 1;
        let m = read_move(game.position(), &mut iter).map_err(|source| ReplayError {
            ply,
            text: next.clone(),
            source,
        })?;
        game.play(m).map_err(|source| ReplayError {
            ply,
            text: next,
            source,
        })?;
    }
    Ok(Replay {
        moves: game.moves().to_vec(),
        positions: game.positions().to_vec(),
        outcome: game.outcome(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Color, Variant, WinReason};

    /// A typed move in every notation of every game (N1-N6, H2, L1, J4).
    #[test]
    fn typed_moves_are_read_in_every_notation() {
        use crate::notation::uci::to_uci;
        let read = |variant: Variant, fen: Option<&str>, text: &str| {
            let pos = match fen {
                Some(f) => Position::from_fen(variant, f).unwrap(),
                None => Position::startpos(variant),
            };
            read_typed(&pos, text).map(|m| to_uci(&pos, m))
        };
        assert_eq!(read(Variant::Chess, None, "Nf3").unwrap(), "g1f3");
        assert_eq!(read(Variant::Chess, None, " g1f3 ").unwrap(), "g1f3");
        assert_eq!(read(Variant::Chess, None, "1. e4").unwrap(), "e2e4");
        // Hop Chess, after White's first turn: the turn with its placement.
        let hop = "rnbqkbnr/pppp1ppp/4p3/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2 d4,d5 -";
        for text in ["Nf3 e5", "Nf3@e5", "g1f3@e5", "Ng1f3 e5"] {
            assert_eq!(
                read(Variant::HopChess, Some(hop), text).unwrap(),
                "g1f3@e5",
                "{text}"
            );
        }
        assert!(matches!(
            read(Variant::HopChess, Some(hop), "Nf3"),
            Err(MoveError::NeedsPlacement { .. })
        ));
        let hoplit = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[Hh] w KQkq - 2 3";
        assert_eq!(read(Variant::Hoplit, Some(hoplit), "H@g1").unwrap(), "H@g1");
        let jk = "8/8/4k3/8/8/8/2K5/8[RRBBNNPPPrrbbnnppp] w Jj 2 2";
        assert_eq!(
            read(Variant::JumpingKing, Some(jk), "Ke3<B").unwrap(),
            "c2e3b"
        );
        assert_eq!(
            read(Variant::JumpingKing, Some(jk), "c2e3b").unwrap(),
            "c2e3b"
        );
        // A stuck king passes.
        let stuck = "5k2/8/8/8/8/8/2K5/8[RBrrbbnnppp] w j 0 5";
        assert_eq!(
            read(Variant::JumpingKing, Some(stuck), "--").unwrap(),
            "0000"
        );
        assert_eq!(
            read(Variant::JumpingKing, Some(stuck), "0000").unwrap(),
            "0000"
        );
        // Two moves, nothing, a wrong one, an ambiguous one.
        assert!(matches!(
            read(Variant::Chess, None, "e4 e5"),
            Err(MoveError::Malformed(_))
        ));
        assert!(matches!(
            read(Variant::Chess, None, "  "),
            Err(MoveError::Malformed(_))
        ));
        assert!(matches!(
            read(Variant::Chess, None, "Nf5"),
            Err(MoveError::Illegal(_))
        ));
        let two = "4k3/8/8/8/8/8/4K3/R6R w - - 0 1";
        assert!(matches!(
            read(Variant::Chess, Some(two), "Rd1"),
            Err(MoveError::Ambiguous { .. })
        ));
    }

    #[test]
    fn tokens_skip_numbers_and_comments() {
        let t = tokens("; a comment\n 1. e4 e5 ; more\n2.Nf3 2... Nc6 3. Bb5 resign 4. a3");
        assert!(ends_in_resignation("1. e4 resign ; and a comment"));
        assert!(!ends_in_resignation("1. e4 e5 ; he did not resign"));
        assert_eq!(t, ["e4", "e5", "Nf3", "Nc6", "Bb5"]);
    }

    #[test]
    fn replays_a_chess_game_to_mate() {
        let start = Position::startpos(Variant::Chess);
        let r = replay(&start, "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7#").unwrap();
        assert_eq!(r.moves.len(), 7);
        assert_eq!(
            r.outcome,
            Some(Outcome::Win {
                winner: Color::White,
                reason: WinReason::Checkmate
            })
        );
        let err = replay(&start, "1. e4 e5 2. Ke3").unwrap_err();
        assert_eq!(err.ply, 3);
        assert_eq!(err.text, "Ke3");
    }
}
