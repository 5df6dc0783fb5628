//! Moves as XBoard writes them, to and from our long notation (RULINGS
//! N1-N6).
//!
//! - A bounce is a multi-leg move, one leg per straight part, separated by
//!   commas: `c1e3,e3f4` is our `c1e3f4` (N3); a promotion letter ends the
//!   last leg (`e7e8,e8a4q`).
//! - Hop Chess (H2): the trampoline placement is the *first* leg, to the
//!   placement square, and the piece's path follows from there:
//!   `g8d5,d5f6` is our `g8f6@d5`, `g1e5,e5f3,f3d4` is `g1f3d4@e5`. XBoard
//!   thus shows the piece on its real final square (an intermediate leg to
//!   an empty square takes nothing). A placement on the trampoline the
//!   piece bounces off first is one leg: `c6d4,d4f5,f5g3` is
//!   `c6d4f5g3@d4`. A move without placement leg places the trampoline on
//!   the square the piece left: `h2g3` is `h2g3@h2`. When a text could mean
//!   several turns, the first reading above that is legal wins, and the
//!   engine writes a turn only in a form that reads back as that turn
//!   (else in long notation). Castling is XBoard's plain king move, so it
//!   has legs only with the trampoline left on the king's square (`e1g1`;
//!   else `e1g1@d4`). White's first turn (H3) has no placement.
//! - A Hoplit drop is XBoard's drop `H@d1` (N6); a Jumping King jump that
//!   places a man is written like gating, `c2e3b` (N6); a pass is XBoard's
//!   null move `@@@@` (`0000` is read too).
//! - Everything else is our long notation as it is (a Trampoline Chess
//!   trampoline move `@e5`, N5; a Hop Chess turn typed as `g8f6@d5`, N4).

use springboard_rules::notation::uci::{parse_uci, UciMove};
use springboard_rules::{Move, MoveKind, Position, Role, Square, Variant};

/// Whether a Hop Chess turn in `pos` ends with a placement (H2, H3).
pub fn needs_placement(pos: &Position) -> bool {
    pos.variant() == Variant::HopChess && !pos.is_first_turn() && !pos.placement_pending()
}

/// One reading of the squares after the origin: the placement, then the
/// trampolines and the final square.
pub type Reading = (Option<Square>, Vec<Square>);

/// The readings of the squares clicked after `origin`, first one first.
pub fn readings(pos: &Position, origin: Square, points: &[Square]) -> Vec<Reading> {
    if points.is_empty() {
        return vec![];
    }
    if !needs_placement(pos) {
        return vec![(None, points.to_vec())];
    }
    if points.len() == 1 {
        return vec![(Some(origin), points.to_vec())];
    }
    vec![
        (Some(points[0]), points[1..].to_vec()),
        (Some(points[0]), points.to_vec()),
        (Some(origin), points.to_vec()),
    ]
}

/// The squares clicked after the origin to enter `m` along the bounce path
/// `via` (see the module documentation; the caller checks that they read
/// back as `m`). `None` for Hop Chess castling with the trampoline placed
/// elsewhere than on the king's square (written in long notation).
pub fn clicks(m: Move, via: &[Square]) -> Option<Vec<Square>> {
    let (from, to) = (m.from()?, m.to()?);
    let mut out = Vec::with_capacity(via.len() + 2);
    if let Some(place) = m.place() {
        // XBoard knows castling only as the king's plain two-square move:
        // castling legs would leave its rook behind.
        if m.kind() == MoveKind::Castle && place != from {
            return None;
        }
        if place != from && via.first() != Some(&place) {
            out.push(place);
        }
    }
    out.extend_from_slice(via);
    out.push(to);
    Some(out)
}

/// Our long notation of a reading.
fn long_text(origin: Square, (place, path): &Reading, letter: Option<char>) -> String {
    let mut t = origin.to_string();
    for sq in path {
        t.push_str(&sq.to_string());
    }
    t.extend(letter);
    if let Some(p) = place {
        t.push('@');
        t.push_str(&p.to_string());
    }
    t
}

/// The move the clicks stand for: the first legal reading.
fn read_points(
    pos: &Position,
    origin: Square,
    points: &[Square],
    letter: Option<char>,
) -> Option<Move> {
    readings(pos, origin, points).iter().find_map(|r| {
        let long = long_text(origin, r, letter);
        parse_uci(pos, &long)
            .ok()
            .or_else(|| plain_pawn_move(pos, &long))
    })
}

/// The trampoline paths by which `m` (a legal move with a from square) can
/// be entered: the canonical one first, then every other valid one (N3).
pub fn paths(pos: &Position, m: Move) -> Vec<Vec<Square>> {
    let (Some(from), Some(to)) = (m.from(), m.to()) else {
        return vec![];
    };
    let mut out = vec![m.via().collect::<Vec<_>>()];
    let tramps: Vec<Square> = [pos.trampoline(pos.turn()), pos.trampoline(!pos.turn())]
        .into_iter()
        .flatten()
        .collect();
    let mut candidates: Vec<Vec<Square>> = vec![vec![]];
    for &t in &tramps {
        candidates.push(vec![t]);
        for &u in &tramps {
            if u != t {
                candidates.push(vec![t, u]);
            }
        }
    }
    for via in candidates {
        if out.contains(&via) {
            continue;
        }
        let text = long_text(
            from,
            &(m.place(), [&via[..], &[to]].concat()),
            m.role().map(Role::char),
        );
        if parse_uci(pos, &text).is_ok_and(|x| x == m && x.kind() == m.kind()) {
            out.push(via);
        }
    }
    out
}

/// Legs text: `c1e3,e3f4`, with the letter at the end.
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
        MoveKind::Drop | MoveKind::Trampoline => long(),
        _ => {
            let Some(from) = m.from() else {
                return long();
            };
            let letter = m.role().map(Role::char);
            let direct: Vec<Square> = m.via().collect();
            // The canonical path first; others only when it cannot be said.
            let all = if needs_placement(pos) {
                paths(pos, m)
            } else {
                vec![direct]
            };
            all.iter()
                .filter_map(|via| clicks(m, via))
                .find(|points| {
                    read_points(pos, from, points, letter)
                        .is_some_and(|x| x == m && x.kind() == m.kind())
                })
                .map_or_else(long, |points| legs_text(from, &points, letter))
        }
    }
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
/// the letter. `None` if the legs are malformed or do not chain.
fn parse_legs(text: &str) -> Option<(Square, Vec<Square>, Option<char>)> {
    let parts: Vec<&str> = text.split(',').collect();
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
    if text.contains(',') || needs_placement(pos) {
        if let Some((origin, points, letter)) = parse_legs(text) {
            return read_points(pos, origin, &points, letter);
        }
    }
    parse_uci(pos, text)
        .ok()
        .or_else(|| plain_pawn_move(pos, text))
}

/// `e6e7p`: a pawn that reaches the last rank and stays a pawn (Jumping
/// King's optional promotion, J9), as XBoard writes the pawn chosen from a
/// `choice`.
fn plain_pawn_move(pos: &Position, long: &str) -> Option<Move> {
    let body = long.strip_suffix('p')?;
    let from: Square = body.get(0..2)?.parse().ok()?;
    if pos.board().role_at(from) != Some(Role::Pawn) {
        return None;
    }
    let m = parse_uci(pos, body).ok()?;
    (m.promotion_role().is_none() && m.kind() == MoveKind::Normal).then_some(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(v: Variant, fen: &str) -> Position {
        Position::from_fen(v, fen).unwrap()
    }

    #[test]
    fn bounce_legs_both_ways() {
        // N3: the bounce c1-e3(T)-f4 is the direct move c1f4 (P9).
        let p = pos(Variant::Trampoline, "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1 e3,-");
        let m = parse_xboard(&p, "c1e3,e3g1").unwrap();
        assert_eq!(to_xboard(&p, m), "c1e3,e3g1");
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
        // White's trampoline f5, Black's d4: c6-d4(T)-f5(T)-g3.
        let p = pos(
            Variant::HopChess,
            "r1bqkbnr/pppppppp/2n5/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 1 1 f5,d4 -",
        );
        let stays = parse_xboard(&p, "c6d4,d4f5,f5g3").unwrap();
        assert_eq!(stays, parse_uci(&p, "c6d4f5g3@d4").unwrap());
        assert_eq!(to_xboard(&p, stays), "c6d4,d4f5,f5g3");
        let moved = parse_xboard(&p, "c6e6,e6d4,d4f5,f5g3").unwrap();
        assert_eq!(moved, parse_uci(&p, "c6d4f5g3@e6").unwrap());
        assert_eq!(to_xboard(&p, moved), "c6e6,e6d4,d4f5,f5g3");
        // On the vacated square: "c6d4,d4f5,f5g3" already means @d4, so
        // the engine says it in long notation.
        let home = parse_uci(&p, "c6d4f5g3@c6").unwrap();
        assert_eq!(parse_xboard(&p, "c6d4,d4f5,f5g3"), Some(stays));
        assert_eq!(to_xboard(&p, home), "c6d4f5g3@c6");
        assert_eq!(parse_xboard(&p, "c6d4f5g3@c6"), Some(home));
    }
}
