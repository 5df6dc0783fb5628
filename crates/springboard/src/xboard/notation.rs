//! Moves as XBoard 4.9.1 writes and applies them, to and from our long
//! notation (RULINGS N1-N6). See docs/xboard.md for why each form.
//!
//! - A piece move is one leg, origin to final square, whatever its bounce
//!   path: the path is no part of a move's identity (P9) and XBoard 4.9.1
//!   removes whatever stands on the middle square of a multi-leg move (a
//!   Trampoline Chess trampoline is an XBoard piece), forwards a Black
//!   two-leg move through an empty square mangled as castling, and plays a
//!   three-leg engine move wrong. A promotion letter ends it (`e7a4q`).
//! - Hop Chess (H2): `g8d5,d5f6` is our `g8f6@d5` (the placement is the
//!   first leg; the trampolines are not XBoard pieces there, so the middle
//!   square is empty), `g8f6` is `g8f6@g8` (the trampoline on the vacated
//!   square). Castling is the king's plain move (`e1g1`, trampoline on
//!   `e1`); with another placement it is written in long notation.
//!   White's first turn (H3) has no placement.
//! - Trampoline Chess (T2): the trampoline is XBoard's piece `T`, dropped
//!   from the holdings (`T@e5`) or moved (`d4e5`): our `@e5`.
//! - A Hoplit drop is XBoard's drop `H@d1`; a Jumping King jump that
//!   places a man is written like S-Chess gating, `c2e3b`; a pass is
//!   XBoard's null move `@@@@`.
//! - Read too: our long notation, chained legs (`c1e3,e3g1`), and the
//!   form XBoard 4.9.1 forwards a Black two-leg move in (`g8f6,d5g6` for
//!   `g8d5,d5f6`: its castling kludge, docs/xboard.md).

use springboard_rules::notation::uci::{parse_uci, UciMove};
use springboard_rules::{Move, MoveKind, Position, Role, Square, Variant};

/// Whether a Hop Chess turn in `pos` ends with a placement (H2, H3).
pub fn needs_placement(pos: &Position) -> bool {
    pos.variant() == Variant::HopChess && !pos.is_first_turn() && !pos.placement_pending()
}

/// The letter at the end of a move: promotion, placed man (J4).
fn letter(m: Move) -> Option<char> {
    match m.kind() {
        MoveKind::Drop | MoveKind::Trampoline | MoveKind::Pass => None,
        _ => m.role().map(Role::char),
    }
}

/// The squares clicked after the origin to enter `m` (a legal move with a
/// from square): the Hop Chess placement square (unless it is the
/// vacated square), then the final square. `None` for a move XBoard
/// cannot be given by clicks (Hop Chess castling with the trampoline away
/// from the king's square).
pub fn clicks(m: Move) -> Option<Vec<Square>> {
    let (from, to) = (m.from()?, m.to()?);
    let mut out = Vec::with_capacity(2);
    if let Some(place) = m.place() {
        if place != from {
            // XBoard knows castling only as the king's plain move.
            if m.kind() == MoveKind::Castle {
                return None;
            }
            out.push(place);
        }
    }
    // T6: a promoted pawn back on its origin needs the trampoline leg.
    if to == from {
        out.extend(m.via().next());
    }
    out.push(to);
    Some(out)
}

/// Whether a text ending in `letter` may mean `m` (`p`: a pawn that stays
/// a pawn, J9).
fn letter_fits(m: Move, letter: Option<char>) -> bool {
    match (self::letter(m), letter) {
        (l, Some('p')) if m.role().is_none() => l.is_none(),
        (l, w) => l == w,
    }
}

/// The move clicked among `found`, the legal moves with the clicks and
/// letter given, in list order: when a pawn's direct double step and its
/// bounce over the same squares (P9: two moves) are both there, the double
/// step.
fn pick_clicked(found: &[Move]) -> Option<Move> {
    found
        .iter()
        .copied()
        .find(|m| m.kind() == MoveKind::DoubleStep)
        .or_else(|| found.first().copied())
}

/// The move clicked: the legal move of `pos` with these clicks after
/// `origin` and this letter (see [`pick_clicked`]).
fn read_points(
    pos: &Position,
    origin: Square,
    points: &[Square],
    letter: Option<char>,
) -> Option<Move> {
    let found: Vec<Move> = pos
        .legal_moves()
        .into_iter()
        .filter(|&m| {
            m.from() == Some(origin)
                && m.kind() != MoveKind::Trampoline
                && clicks(m).as_deref() == Some(points)
                && letter_fits(m, letter)
        })
        .collect();
    pick_clicked(&found)
}

/// Whether the move read from `m`'s own text is `m` itself.
fn reads_back(read: Option<Move>, m: Move) -> bool {
    read.is_some_and(|x| x == m && x.kind() == m.kind())
}

/// The clicks of `m` if they read back as `m` (see `clicks`).
pub fn readable_clicks(pos: &Position, m: Move) -> Option<Vec<Square>> {
    let from = m.from()?;
    let points = clicks(m)?;
    reads_back(read_points(pos, from, &points, letter(m)), m).then_some(points)
}

/// Legs text: `g8d5,d5f6`, with the letter at the end.
fn legs_text(origin: Square, points: &[Square], letter: Option<char>) -> String {
    let mut text = String::new();
    let mut at = origin;
    for (i, &p) in points.iter().enumerate() {
        if i > 0 {
            text.push(',');
        }
        text.push_str(&format!("{at}{p}"));
        at = p;
    }
    text.extend(letter);
    text
}

/// The legal move `m` of `pos` in XBoard's format.
pub fn to_xboard(pos: &Position, m: Move) -> String {
    let long = || UciMove::from_move(m).to_string();
    match m.kind() {
        MoveKind::Pass => "@@@@".to_string(),
        MoveKind::Drop => long(),
        MoveKind::Trampoline => match (m.to(), pos.trampoline(pos.turn())) {
            (Some(to), Some(at)) if pos.variant() == Variant::Trampoline => format!("{at}{to}"),
            (Some(to), None) if pos.variant() == Variant::Trampoline => format!("T@{to}"),
            _ => long(),
        },
        _ => {
            // Only a text that reads back as this very move.
            match (m.from(), readable_clicks(pos, m)) {
                (Some(from), Some(points)) => legs_text(from, &points, letter(m)),
                _ => long(),
            }
        }
    }
}

/// The legal moves of `pos` that XBoard 4.9.1 cannot be given: those
/// [`to_xboard`] writes in our long notation (a pawn's bounce over its
/// double step's squares, P9; Hop Chess castling with the trampoline away
/// from the king's square; Trampoline Chess's promoted pawn back on its
/// origin, T6), where XBoard would mangle the text and the game would
/// stop. Drops and passes are XBoard's own forms. The same moves as
/// testing `readable_clicks` one by one, in one pass over the legal moves.
pub fn unrelayable(pos: &Position) -> Vec<Move> {
    use std::collections::HashMap;
    let moves = pos.legal_moves();
    let keys: Vec<Option<(Square, Vec<Square>)>> = moves
        .iter()
        .map(|&m| match m.kind() {
            MoveKind::Drop | MoveKind::Trampoline | MoveKind::Pass => None,
            _ => Some((m.from()?, clicks(m)?)),
        })
        .collect();
    // The moves sharing an origin and clicks, in list order.
    let mut groups: HashMap<&(Square, Vec<Square>), Vec<Move>> = HashMap::new();
    for (key, &m) in keys.iter().zip(&moves) {
        if let Some(key) = key {
            groups.entry(key).or_default().push(m);
        }
    }
    let relayable = |m: Move, key: &Option<(Square, Vec<Square>)>| match m.kind() {
        MoveKind::Pass | MoveKind::Drop => true,
        MoveKind::Trampoline => pos.variant() == Variant::Trampoline && m.to().is_some(),
        _ => key.as_ref().is_some_and(|key| {
            // What `read_points` makes of this move's text.
            let found: Vec<Move> = groups[key]
                .iter()
                .copied()
                .filter(|&c| letter_fits(c, letter(m)))
                .collect();
            reads_back(pick_clicked(&found), m)
        }),
    };
    moves
        .iter()
        .zip(&keys)
        .filter(|&(&m, key)| !relayable(m, key))
        .map(|(&m, _)| m)
        .collect()
}

/// One leg `e2e4`, maybe with a letter (promotion or placed man) at the end.
fn parse_leg(text: &str) -> Option<(Square, Square, Option<char>)> {
    if !text.is_ascii() || !(4..=5).contains(&text.len()) {
        return None;
    }
    let from = text[0..2].parse().ok()?;
    let to = text[2..4].parse().ok()?;
    let letter = text[4..].chars().next();
    Some((from, to, letter))
}

/// A comma-separated multi-leg move: the origin, the squares after it and
/// the letter. `None` if the legs are malformed or do not chain. XBoard
/// 4.9.1's castling kludge (a two-leg move `a k,k b` forwarded as
/// `a b,k c` with `c` one file from `b`) is undone.
fn parse_legs(text: &str) -> Option<(Square, Vec<Square>, Option<char>)> {
    let parts: Vec<&str> = text.split(',').collect();
    if let [first, second] = parts[..] {
        let (a, b, l1) = parse_leg(first)?;
        // The kludge's last square is the final square's neighbour on the
        // rank, off the board beside file a or h too (`a5` gives `` `5``).
        let kludge = second.is_ascii() && (4..=5).contains(&second.len());
        if kludge && l1.is_none() {
            let k: Square = second[0..2].parse().ok()?;
            let c = second.as_bytes();
            let file_apart = (i16::from(c[2]) - i16::from(b'a' + b.file().index())).abs() == 1;
            let same_rank = char::from(c[3]) == b.rank().char();
            if k != b && file_apart && same_rank {
                let letter = second[4..].chars().next();
                return Some((a, vec![k, b], letter));
            }
        }
    }
    let mut origin = None;
    let mut points: Vec<Square> = Vec::with_capacity(parts.len());
    let mut letter = None;
    for (i, part) in parts.iter().enumerate() {
        let (from, to, l) = parse_leg(part)?;
        // The legs chain, and only the last one may carry a letter.
        let at = points.last().copied().or(origin);
        if at.is_some_and(|at| at != from) || (l.is_some() && i + 1 < parts.len()) {
            return None;
        }
        origin.get_or_insert(from);
        points.push(to);
        letter = l;
    }
    Some((origin?, points, letter))
}

/// Reads a move from XBoard (or typed in our long notation) and resolves it
/// against the legal moves of `pos`. `None` when it is not a legal move.
pub fn parse_xboard(pos: &Position, text: &str) -> Option<Move> {
    if text == "@@@@" {
        return parse_uci(pos, "0000").ok();
    }
    // Trampoline Chess: the trampoline piece dropped or moved (T2).
    if pos.variant() == Variant::Trampoline {
        if let Some(sq) = text.strip_prefix("T@").or_else(|| text.strip_prefix("t@")) {
            return pos
                .trampoline(pos.turn())
                .is_none()
                .then(|| parse_uci(pos, &format!("@{sq}")).ok())?;
        }
        if let Some((from, to, None)) = parse_leg(text) {
            if pos.trampoline(pos.turn()) == Some(from) {
                return parse_uci(pos, &format!("@{to}")).ok();
            }
        }
    }
    if let Some((origin, points, letter)) = parse_legs(text) {
        if let Some(m) = read_points(pos, origin, &points, letter) {
            return Some(m);
        }
        // Chained legs through trampolines (`c1e3,e3g1`), as typed.
        if points.len() > 1 && !needs_placement(pos) {
            let mut long = origin.to_string();
            for p in &points {
                long.push_str(&p.to_string());
            }
            long.extend(letter);
            return parse_uci(pos, &long).ok();
        }
    }
    parse_uci(pos, text).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `unrelayable` in one pass is `readable_clicks` move by move, on the
    /// positions of random games of every game.
    #[test]
    fn unrelayable_is_the_moves_without_readable_clicks() {
        let slow = |pos: &Position| -> Vec<Move> {
            pos.legal_moves()
                .into_iter()
                .filter(|&m| !match m.kind() {
                    MoveKind::Pass | MoveKind::Drop => true,
                    MoveKind::Trampoline => {
                        pos.variant() == Variant::Trampoline && m.to().is_some()
                    }
                    _ => m.from().is_some() && readable_clicks(pos, m).is_some(),
                })
                .collect()
        };
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut found = 0;
        for variant in Variant::implemented() {
            for _ in 0..6 {
                let mut pos = Position::startpos(variant);
                for _ in 0..40 {
                    assert_eq!(unrelayable(&pos), slow(&pos), "{}", pos.to_fen());
                    found += slow(&pos).len();
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    let m = moves[(seed % moves.len() as u64) as usize];
                    pos.play(m);
                }
            }
        }
        assert!(found > 0, "no position had a move XBoard cannot be given");
    }

    /// P9: a pawn's bounce over its double step's squares reads as the
    /// double step in XBoard's form: the engine must not play it there.
    #[test]
    fn a_pawn_bounce_over_its_double_step_is_unrelayable() {
        let pos = Position::from_fen(
            Variant::HopChess,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 2 g3,- -",
        )
        .unwrap();
        let bad = unrelayable(&pos);
        assert!(!bad.is_empty());
        for m in &bad {
            assert_eq!(m.from(), Some(Square::G2), "{m:?}");
            assert_eq!(m.to(), Some(Square::G4), "{m:?}");
            assert_ne!(m.kind(), MoveKind::DoubleStep);
        }
        // The double step itself is given as `g2g4`.
        assert!(pos
            .legal_moves()
            .into_iter()
            .any(|m| m.kind() == MoveKind::DoubleStep && !bad.contains(&m)));
    }

    fn pos(v: Variant, fen: &str) -> Position {
        Position::from_fen(v, fen).unwrap()
    }

    #[test]
    fn bounce_legs_both_ways() {
        // N3: the bounce c1-e3(T)-f4 is the direct move c1f4 (P9).
        let p = pos(Variant::Trampoline, "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1 e3,-");
        // One leg, origin to final square, whatever the path (P9).
        let m = parse_xboard(&p, "c1e3,e3g1").unwrap();
        assert_eq!(to_xboard(&p, m), "c1g1");
        assert_eq!(parse_xboard(&p, "c1g1"), Some(m));
        assert_eq!(parse_xboard(&p, "c1e3g1"), Some(m));
        let f4 = parse_xboard(&p, "c1e3,e3f4").unwrap();
        assert_eq!(to_xboard(&p, f4), "c1f4");
        // Broken chains, bad legs and impossible paths are refused.
        for bad in [
            "c1e3,e4g1",
            "c1e3,e3h3",
            "c1e3q,e3g1",
            "c1e3,",
            ",c1e3",
            "c1e3,e3g1,g1h2",
            "c1d2,d2e3",
        ] {
            assert_eq!(parse_xboard(&p, bad), None, "{bad}");
        }
    }

    #[test]
    fn hop_chess_placement_is_the_first_leg() {
        let p = pos(
            Variant::HopChess,
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 -,- -",
        );
        let m = parse_xboard(&p, "g8d5,d5f6").unwrap();
        assert_eq!(m, parse_uci(&p, "g8f6@d5").unwrap());
        assert_eq!(to_xboard(&p, m), "g8d5,d5f6");
        // No placement leg: the trampoline goes to the vacated square.
        let stay = parse_xboard(&p, "g8f6").unwrap();
        assert_eq!(stay, parse_uci(&p, "g8f6@g8").unwrap());
        assert_eq!(to_xboard(&p, stay), "g8f6");
        // A placement on an occupied square is no move.
        assert_eq!(parse_xboard(&p, "g8e7,e7f6"), None);
        // White's first turn has no placement (H3).
        let start = Position::startpos(Variant::HopChess);
        let e4 = parse_xboard(&start, "e2e4").unwrap();
        assert_eq!(to_xboard(&start, e4), "e2e4");
    }

    #[test]
    fn hop_chess_castling_is_a_plain_king_move() {
        let p = pos(
            Variant::HopChess,
            "r3k2r/pppq1ppp/2npbn2/4p3/4P3/2NPBN2/PPPQ1PPP/R3K2R w KQkq - 0 8 -,- -",
        );
        let home = parse_xboard(&p, "e1g1").unwrap();
        assert_eq!(home, parse_uci(&p, "e1g1@e1").unwrap());
        assert_eq!(to_xboard(&p, home), "e1g1");
        let away = parse_uci(&p, "e1c1@d4").unwrap();
        assert_eq!(to_xboard(&p, away), "e1c1@d4");
        assert_eq!(parse_xboard(&p, "e1c1@d4"), Some(away));
    }

    #[test]
    fn hop_chess_two_bounces() {
        // White's trampoline f5, Black's d4: c6-d4(T)-f5(T)-g3. The path
        // is not written (P9): placement leg, then the final square.
        let p = pos(
            Variant::HopChess,
            "r1bqkbnr/pppppppp/2n5/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 1 1 f5,d4 -",
        );
        let stays = parse_xboard(&p, "c6d4,d4g3").unwrap();
        assert_eq!(stays, parse_uci(&p, "c6d4f5g3@d4").unwrap());
        assert_eq!(to_xboard(&p, stays), "c6d4,d4g3");
        let moved = parse_xboard(&p, "c6e6,e6g3").unwrap();
        assert_eq!(moved, parse_uci(&p, "c6d4f5g3@e6").unwrap());
        assert_eq!(to_xboard(&p, moved), "c6e6,e6g3");
        // On the vacated square: one leg.
        let home = parse_uci(&p, "c6d4f5g3@c6").unwrap();
        assert_eq!(to_xboard(&p, home), "c6g3");
        assert_eq!(parse_xboard(&p, "c6g3"), Some(home));
        // XBoard 4.9.1 forwards Black's `c6e6,e6g3` as castling: `c6g3,e6f3`.
        assert_eq!(parse_xboard(&p, "c6g3,e6f3"), Some(moved));
        assert_eq!(parse_xboard(&p, "c6g3,e6h3"), Some(moved));
        // Beside file a the kludge's square is off the board.
        let q = pos(
            Variant::HopChess,
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 -,- -",
        );
        let a5 = parse_uci(&q, "a7a5@f6").unwrap();
        assert_eq!(to_xboard(&q, a5), "a7f6,f6a5");
        assert_eq!(parse_xboard(&q, "a7a5,f6`5"), Some(a5));
    }

    #[test]
    fn trampoline_chess_trampoline_is_a_piece() {
        let p = pos(Variant::Trampoline, "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1 e3,-");
        let m = parse_uci(&p, "@e5").unwrap();
        assert_eq!(to_xboard(&p, m), "e3e5");
        assert_eq!(parse_xboard(&p, "e3e5"), Some(m));
        let q = pos(Variant::Trampoline, "4k3/8/8/8/8/8/8/2B1K3 b - - 0 1 e3,-");
        let drop = parse_uci(&q, "@d5").unwrap();
        assert_eq!(to_xboard(&q, drop), "T@d5");
        assert_eq!(parse_xboard(&q, "T@d5"), Some(drop));
        assert_eq!(parse_xboard(&q, "e3e5"), None);
    }
}
