//! Standard algebraic notation: printing, and a lenient reader.
//!
//! The reader accepts `x` or `:` for captures, `+`, `#`, `!` and `?`
//! suffixes, `=Q` or `Q` for promotions, `O-O`/`0-0`/`o-o` for castling, and
//! origins given as a file, a rank or a whole square, and drops `H@d1`
//! (Hoplit Chess, ruling N6). A text that fits
//! several legal moves is reported as ambiguous, never guessed.

use super::games::GameNotation;
use super::turns::with_place;
use crate::error::MoveError;
use crate::games::with_game;
use crate::moves::{Move, MoveKind};
use crate::position::Position;
use crate::types::{File, Rank, Role, Square};

/// The SAN of a legal move, with `+` or `#`.
///
/// Trampoline games: a bounce shows its path (`Bc8-f5-e4`, `d2-d4:c5`,
/// `e7-e8-a4=Q`), a Trampoline Chess trampoline move is `Tf3`, a Hop Chess
/// turn is the piece move and the placement square (`Nf6 d5`), and a lone
/// placement (the placement phase) is its square.
pub fn to_san(pos: &Position, m: Move) -> String {
    let mut out = if pos.placement_pending() {
        m.to().map(|s| s.to_string()).unwrap_or_default()
    } else {
        let mut s = san_without_suffix(pos, m);
        if let Some(place) = m.place() {
            s.push(' ');
            s.push_str(&place.to_string());
        }
        s
    };
    let mut after = pos.clone();
    after.play(m);
    if after.is_check() {
        // A weak-square win (J3) that also checks is no mate. (A side has
        // a legal move when it has a legal step.)
        let mut replies = Vec::new();
        after.legal_steps_into(&mut replies);
        out.push(if replies.is_empty() && !after.weak_square_taken() {
            '#'
        } else {
            '+'
        });
    }
    out
}

fn san_without_suffix(pos: &Position, m: Move) -> String {
    let b = pos.board();
    match m.kind() {
        MoveKind::Castle => {
            let (from, to) = (m.from().expect("from"), m.to().expect("to"));
            return if to.file() > from.file() {
                "O-O"
            } else {
                "O-O-O"
            }
            .to_string();
        }
        MoveKind::Pass => return "--".to_string(),
        MoveKind::Drop => {
            let role = m.role().expect("role");
            return format!("{}@{}", role.upper_char(), m.to().expect("to"));
        }
        MoveKind::Trampoline => return format!("T{}", m.to().expect("to")),
        _ => {}
    }
    let from = m.from().expect("from");
    let to = m.to().expect("to");
    let role = b.role_at(from).expect("a piece on the origin");
    let capture = b.piece_at(to).is_some() || m.kind() == MoveKind::EnPassant;
    let mut out = String::new();
    if m.is_bounce() {
        if role != Role::Pawn {
            out.push(role.upper_char());
        }
        out.push_str(&from.to_string());
        for v in m.via() {
            out.push('-');
            out.push_str(&v.to_string());
        }
        out.push(if capture { ':' } else { '-' });
        out.push_str(&to.to_string());
        if let Some(p) = m.promotion_role() {
            out.push('=');
            out.push(p.upper_char());
        }
        return out;
    }
    if role == Role::Pawn {
        if capture {
            out.push(from.file().char());
            out.push('x');
        }
    } else {
        out.push(role.upper_char());
        // Disambiguation among other pieces of the same kind that reach `to`.
        let mut steps = Vec::new();
        pos.legal_steps_into(&mut steps);
        let others: Vec<Square> = steps
            .into_iter()
            .filter(|o| {
                o.to() == Some(to)
                    && o.from() != Some(from)
                    && o.from().and_then(|f| b.role_at(f)) == Some(role)
            })
            .filter_map(|o| o.from())
            .collect();
        if !others.is_empty() {
            if others.iter().all(|o| o.file() != from.file()) {
                out.push(from.file().char());
            } else if others.iter().all(|o| o.rank() != from.rank()) {
                out.push(from.rank().char());
            } else {
                out.push_str(&from.to_string());
            }
        }
        if capture {
            out.push('x');
        }
    }
    out.push_str(&to.to_string());
    if let Some(p) = m.promotion_role() {
        out.push('=');
        out.push(p.upper_char());
    }
    out.push_str(&with_game!(pos.variant(), G => G::san_suffix(pos, m)));
    out
}

/// What a SAN text asks for.
#[derive(Debug, Default)]
struct SanPattern {
    /// A drop from the reserve, `H@d1` (ruling N6): the dropped piece.
    drop: Option<Role>,
    role: Option<Role>,
    from_file: Option<File>,
    from_rank: Option<Rank>,
    to: Option<Square>,
    promotion: Option<Role>,
    castle: Option<bool>,
}

fn parse_pattern(text: &str) -> Option<SanPattern> {
    let mut s: &str = text.trim();
    s = s.trim_end_matches(['+', '#', '!', '?']);
    if let Some(stripped) = s.strip_suffix("e.p.") {
        s = stripped.trim_end();
    }
    let mut p = SanPattern::default();
    match s {
        "O-O" | "0-0" | "o-o" => {
            p.castle = Some(true);
            return Some(p);
        }
        "O-O-O" | "0-0-0" | "o-o-o" => {
            p.castle = Some(false);
            return Some(p);
        }
        _ => {}
    }
    if !s.is_ascii() || s.len() < 2 {
        return None;
    }
    if let Some((piece, square)) = s.split_once('@') {
        let mut letters = piece.chars();
        let role = match (letters.next(), letters.next()) {
            (Some(c), None) if c.is_ascii_uppercase() => Role::from_char(c)?,
            _ => return None,
        };
        p.drop = Some(role);
        p.to = Some(square.parse().ok()?);
        return Some(p);
    }
    let mut chars: Vec<char> = s.chars().collect();
    // Promotion: "=Q" or a trailing piece letter.
    if let Some(&last) = chars.last() {
        if "QRBNH".contains(last) && chars.len() >= 3 {
            p.promotion = Role::from_char(last);
            chars.pop();
            if chars.last() == Some(&'=') {
                chars.pop();
            }
        }
    }
    if chars.len() < 2 {
        return None;
    }
    let to: String = chars[chars.len() - 2..].iter().collect();
    p.to = Some(to.parse().ok()?);
    chars.truncate(chars.len() - 2);
    if matches!(chars.last(), Some('x') | Some(':')) {
        chars.pop();
    }
    let mut rest = chars.as_slice();
    if let Some(&c) = rest.first() {
        if "KQRBNH".contains(c) {
            p.role = Role::from_char(c);
            rest = &rest[1..];
        }
    }
    for &c in rest {
        if let (Some(f), None, None) = (File::from_char(c), p.from_file, p.from_rank) {
            p.from_file = Some(f);
        } else if let (Some(r), None) = (Rank::from_char(c), p.from_rank) {
            p.from_rank = Some(r);
        } else {
            return None;
        }
    }
    Some(p)
}

/// Reads a SAN move and resolves it among the legal moves of `pos`.
///
/// Trampoline games also accept what [`to_san`] writes: `Tf3` (or `@f3`),
/// a bounce path `Bc8-f5-e4` / `d2-d4:c5` (any valid path, N3), and a Hop
/// Chess turn `Nf6 d5` (piece move, space, placement square; a lone square
/// in the placement phase).
pub fn parse_san(pos: &Position, text: &str) -> Result<Move, MoveError> {
    if let Some(result) = with_game!(pos.variant(), G => G::parse_san_special(pos, text)) {
        return match result?.as_slice() {
            [] => Err(MoveError::Illegal(text.to_string())),
            [m] => Ok(*m),
            many => Err(MoveError::Ambiguous {
                text: text.to_string(),
                candidates: many
                    .iter()
                    .map(|&m| to_san(pos, m))
                    .collect::<Vec<_>>()
                    .join(", "),
            }),
        };
    }
    let malformed = || MoveError::Malformed(text.to_string());
    let trimmed = text.trim().trim_end_matches(['+', '#', '!', '?']);
    // A Hop Chess turn after White's first: piece move, then the square.
    let (piece_text, place) = if with_game!(pos.variant(), G => G::placement_follows(pos)) {
        let split = trimmed
            .rsplit_once(|c: char| c.is_whitespace() || c == '@')
            .and_then(|(piece, place)| Some((piece, place.parse::<Square>().ok()?)));
        match split {
            Some((piece, place)) => (
                piece.trim().trim_end_matches(['+', '#', '!', '?']),
                Some(place),
            ),
            None => {
                // Only the piece move: say that the turn needs its square.
                let step = parse_step(pos, trimmed, text)?;
                return Err(crate::notation::uci::needs_placement(pos, text, step));
            }
        }
    } else {
        (trimmed, None)
    };
    if piece_text.contains('-') && !piece_text.starts_with(['O', '0', 'o']) {
        return parse_path(pos, piece_text, place).ok_or_else(malformed)?;
    }
    let m = parse_step(pos, piece_text, text)?;
    with_place(pos, text, m, place)
}

/// Reads the SAN `piece_text` (a part of `text`) as a legal step: a move,
/// or a Hop Chess piece move without its placement.
pub(crate) fn parse_step(pos: &Position, piece_text: &str, text: &str) -> Result<Move, MoveError> {
    let malformed = || MoveError::Malformed(text.to_string());
    if piece_text.contains('-') && !piece_text.starts_with(['O', '0', 'o']) {
        // A bounce path: its piece move alone.
        let squares = piece_text.trim_start_matches(['K', 'Q', 'R', 'B', 'N']);
        let body = squares.split('=').next().unwrap_or("");
        let parts: Option<Vec<Square>> = body
            .split(['-', ':', 'x'])
            .map(|p| p.parse().ok())
            .collect();
        let parts = parts.filter(|p| p.len() >= 2).ok_or_else(malformed)?;
        let mut steps = Vec::new();
        pos.legal_steps_into(&mut steps);
        // One promotion letter, nothing after it.
        let promo = match squares.split_once('=') {
            Some((_, p)) => {
                let mut letters = p.chars();
                match (letters.next().and_then(Role::from_char), letters.next()) {
                    (Some(role), None) => Some(role),
                    _ => return Err(malformed()),
                }
            }
            None => None,
        };
        let (from, to) = (parts[0], parts[parts.len() - 1]);
        let via = &parts[1..parts.len() - 1];
        if !via.is_empty() && !crate::games::bounce::path_exists(pos, from, via, to, promo) {
            return Err(MoveError::Illegal(text.to_string()));
        }
        return resolve(pos, text, &steps, |m| {
            m.from() == Some(from)
                && m.to() == Some(to)
                && m.role() == promo
                && if via.is_empty() {
                    !m.is_bounce()
                } else {
                    m.kind() == MoveKind::Normal
                }
        });
    }
    let pattern = parse_pattern(piece_text).ok_or_else(malformed)?;
    let mut steps = Vec::new();
    pos.legal_steps_into(&mut steps);
    resolve(pos, text, &steps, |m| matches_pattern(pos, &pattern, m))
}

/// The one move among `moves` that `keep` accepts; none is "illegal",
/// several are "ambiguous" with the candidates named.
pub(crate) fn resolve(
    pos: &Position,
    text: &str,
    moves: &[Move],
    keep: impl Fn(Move) -> bool,
) -> Result<Move, MoveError> {
    let mut candidates: Vec<Move> = moves.iter().copied().filter(|&m| keep(m)).collect();
    // A text without a bounce path names a direct move when there is one:
    // SAN writes a bounce with its path (`g2-g3-g4` beside the double
    // step `g4`).
    if candidates.len() > 1 && candidates.iter().any(|m| !m.is_bounce()) {
        candidates.retain(|m| !m.is_bounce());
    }
    match candidates.as_slice() {
        [] => Err(MoveError::Illegal(text.to_string())),
        [m] => Ok(*m),
        many => Err(MoveError::Ambiguous {
            text: text.to_string(),
            candidates: many
                .iter()
                .map(|&m| {
                    format!(
                        "{} ({})",
                        san_without_suffix(pos, m),
                        crate::notation::uci::to_uci(pos, m)
                    )
                })
                .collect::<Vec<_>>()
                .join(", "),
        }),
    }
}

fn matches_pattern(pos: &Position, pattern: &SanPattern, m: Move) -> bool {
    let b = pos.board();
    if let Some(role) = pattern.drop {
        return m.kind() == MoveKind::Drop && m.role() == Some(role) && m.to() == pattern.to;
    }
    match pattern.castle {
        Some(king_side) => {
            m.kind() == MoveKind::Castle
                && (m.to().map(|t| t.file()) > m.from().map(|f| f.file())) == king_side
        }
        None => {
            let (Some(from), Some(to)) = (m.from(), m.to()) else {
                return false;
            };
            m.kind() != MoveKind::Castle
                && Some(to) == pattern.to
                && b.role_at(from) == Some(pattern.role.unwrap_or(Role::Pawn))
                && pattern.from_file.is_none_or(|f| from.file() == f)
                && pattern.from_rank.is_none_or(|r| from.rank() == r)
                && m.promotion_role() == pattern.promotion
        }
    }
}

/// A path text `Bc8-f5-e4`, `d2-d4:c5`, `e7-e8-a4=Q` as long notation
/// (with the Hop Chess placement `place`); `None` when it is no path.
pub(crate) fn parse_path(
    pos: &Position,
    text: &str,
    place: Option<Square>,
) -> Option<Result<Move, MoveError>> {
    let mut s = text;
    if s.starts_with(['K', 'Q', 'R', 'B', 'N']) {
        s = &s[1..];
    }
    let (s, promo) = match s.split_once('=') {
        Some((body, p)) => (body, Some(Role::from_char(p.chars().next()?)?)),
        None => (s, None),
    };
    let squares: Option<Vec<Square>> = s
        .split(['-', ':', 'x'])
        .map(|part| part.parse().ok())
        .collect();
    let squares = squares?;
    if squares.len() < 2 || squares.len() > 4 {
        return None;
    }
    let uci = crate::notation::uci::UciMove::Normal {
        from: squares[0],
        via: squares[1..squares.len() - 1].to_vec(),
        to: squares[squares.len() - 1],
        role: promo,
        place,
    };
    Some(uci.to_move(pos).map_err(|e| match e {
        MoveError::NeedsPlacement { .. } => e,
        _ => MoveError::Illegal(text.to_string()),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;

    fn pos(fen: &str) -> Position {
        Position::from_fen(Variant::Chess, fen).unwrap()
    }

    #[test]
    fn prints_san() {
        let p = Position::startpos(Variant::Chess);
        let m = parse_san(&p, "Nf3").unwrap();
        assert_eq!(to_san(&p, m), "Nf3");
        // Disambiguation by file, by rank, and by square.
        let p = pos("k7/8/8/8/8/8/8/KR5R w - - 0 1");
        let m = parse_san(&p, "Rbd1").unwrap();
        assert_eq!(to_san(&p, m), "Rbd1");
        let p = pos("7k/8/8/8/R7/8/8/R3K3 w - - 0 1");
        let m = parse_san(&p, "R1a2").unwrap();
        assert_eq!(to_san(&p, m), "R1a2");
        let p = pos("8/7k/8/8/Q1Q5/8/Q7/4K3 w - - 0 1");
        let m = parse_san(&p, "Qa4b3").unwrap();
        assert_eq!(to_san(&p, m), "Qa4b3");
        assert!(matches!(
            parse_san(&p, "Qb3"),
            Err(MoveError::Ambiguous { .. })
        ));
        // Promotion with capture and mate.
        let p = pos("1r5k/P6p/7K/8/8/8/8/8 w - - 0 1");
        let m = parse_san(&p, "axb8=Q").unwrap();
        assert_eq!(to_san(&p, m), "axb8=Q#");
        // Castling.
        let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        let m = parse_san(&p, "0-0-0").unwrap();
        assert_eq!(to_san(&p, m), "O-O-O");
    }

    #[test]
    fn lenient_reading() {
        let p = pos("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
        for text in ["exd5", "e:d5", "exd5+", "e4xd5", "ed5"] {
            let m = parse_san(&p, text).unwrap();
            assert_eq!(to_san(&p, m), "exd5", "{text}");
        }
        let p = pos("7k/P7/8/8/8/8/8/K7 w - - 0 1");
        for text in ["a8=Q", "a8Q", "a8=Q+"] {
            assert_eq!(to_san(&p, parse_san(&p, text).unwrap()), "a8=Q+", "{text}");
        }
        assert!(matches!(parse_san(&p, "a8"), Err(MoveError::Illegal(_))));
        assert!(matches!(parse_san(&p, "Zz9"), Err(MoveError::Malformed(_))));
        assert!(matches!(parse_san(&p, ""), Err(MoveError::Malformed(_))));
    }

    fn hoplit(fen: &str) -> Position {
        Position::from_fen(Variant::Hoplit, fen).unwrap()
    }

    #[test]
    fn hoplit_san() {
        // A Hoplit capture (L2): a1-b2, north over the pawn b4, takes b6.
        let p = hoplit("7k/8/1r6/8/1P6/4n1B1/8/H6K[] w - - 0 1");
        let m = parse_san(&p, "Hxb6").unwrap();
        assert_eq!(crate::notation::uci::to_uci(&p, m), "a1b6");
        assert_eq!(to_san(&p, m), "Hxb6");
        // Two Hoplits reach d5 through the turning square d3: the file
        // tells them apart.
        let p = hoplit("4k3/8/8/8/3P4/8/8/1H2KH2[] w - - 0 1");
        let m = parse_san(&p, "Hbd5").unwrap();
        assert_eq!(crate::notation::uci::to_uci(&p, m), "b1d5");
        assert_eq!(to_san(&p, m), "Hbd5");
        assert_eq!(to_san(&p, parse_san(&p, "Hfd6").unwrap()), "Hfd6");
        assert!(matches!(
            parse_san(&p, "Hd5"),
            Err(MoveError::Ambiguous { .. })
        ));
        // Drops (L4, N6) and promotion to a Hoplit (L5).
        let p = hoplit("rnbqkb1r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKB1R[Hh] w KQkq - 2 2");
        let m = parse_san(&p, "H@g1").unwrap();
        assert_eq!(m, Move::drop(Role::Hoplit, Square::G1));
        assert_eq!(to_san(&p, m), "H@g1");
        assert!(matches!(parse_san(&p, "H@b1"), Err(MoveError::Illegal(_))));
        assert!(matches!(
            parse_san(&p, "h@g1"),
            Err(MoveError::Malformed(_))
        ));
        assert!(matches!(
            parse_san(&p, "H@g9"),
            Err(MoveError::Malformed(_))
        ));
        let p = hoplit("4k3/P7/8/8/8/8/8/4K3[] w - - 0 1");
        let m = parse_san(&p, "a8=H").unwrap();
        assert_eq!(crate::notation::uci::to_uci(&p, m), "a7a8h");
        assert_eq!(to_san(&p, m), "a8=H");
    }
}
