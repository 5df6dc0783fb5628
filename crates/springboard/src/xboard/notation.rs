//! Moves as XBoard writes them, to and from our long notation (RULINGS
//! N1-N6).
//!
//! - A bounce is a multi-leg move, one leg per straight part, separated by
//!   commas: `c1e3,e3f4` is our `c1e3f4` (N3), `c6d4,d4f5,f5g3` is
//!   `c6d4f5g3`; a promotion letter ends the last leg (`e7e8,e8a4q`).
//! - Hop Chess (H2): the trampoline placement is the *first* leg, to the
//!   placement square, and the piece's path follows from there:
//!   `g8d5,d5f6` is our `g8f6@d5`, `g1e5,e5f3,f3d4` is `g1f3d4@e5`. XBoard
//!   thus shows the piece on its real final square (an intermediate leg to
//!   an empty square takes nothing). White's first turn (H3) has no
//!   placement leg.
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

/// The squares clicked after the origin to enter `m` along the bounce
/// path `via`: the Hop Chess placement square, the trampolines, the final
/// square. A placement on the trampoline the piece bounces off first is
/// one click. `None` when XBoard cannot say it: a Hop Chess placement on
/// the piece's own origin square (typed in long notation instead).
pub fn clicks(m: Move, via: &[Square]) -> Option<Vec<Square>> {
    let (from, to) = (m.from()?, m.to()?);
    let mut out = Vec::with_capacity(via.len() + 2);
    if let Some(place) = m.place() {
        if place == from {
            return None;
        }
        out.push(place);
    }
    for &v in via {
        if out.last() != Some(&v) {
            out.push(v);
        }
    }
    out.push(to);
    Some(out)
}

/// The move in XBoard's format.
pub fn to_xboard(m: Move) -> String {
    let long = || UciMove::from_move(m).to_string();
    match m.kind() {
        MoveKind::Pass => "@@@@".to_string(),
        MoveKind::Drop | MoveKind::Trampoline => long(),
        _ => {
            let via: Vec<Square> = m.via().collect();
            let (Some(from), Some(points)) = (m.from(), clicks(m, &via)) else {
                return long();
            };
            let mut text = String::new();
            let mut at = from;
            for (i, &p) in points.iter().enumerate() {
                if i > 0 {
                    text.push(',');
                }
                text.push_str(&format!("{at}{p}"));
                at = p;
            }
            if let Some(role) = m.role() {
                text.push(role.char());
            }
            text
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

/// The long notations a comma-separated multi-leg move may stand for
/// (empty if it is not well formed).
fn legs_to_long(pos: &Position, text: &str) -> Vec<String> {
    let parts: Vec<&str> = text.split(',').collect();
    let mut points = Vec::with_capacity(parts.len() + 1);
    let mut letter = None;
    for (i, part) in parts.iter().enumerate() {
        let Some((from, to, l)) = parse_leg(part) else {
            return vec![];
        };
        // The legs chain, and only the last one may carry a letter.
        let chained = points.last().is_none_or(|&at| at == from);
        if !chained || (l.is_some() && i + 1 < parts.len()) {
            return vec![];
        }
        if points.is_empty() {
            points.push(from);
        }
        points.push(to);
        letter = l;
    }
    let origin = points[0];
    let long = |path: &[Square], place: Option<Square>| {
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
    };
    if !needs_placement(pos) {
        return vec![long(&points[1..], None)];
    }
    // H2: the first leg goes to the placement square; the piece may also
    // have bounced off the trampoline standing there (one click, `clicks`).
    let place = points[1];
    let mut out = Vec::with_capacity(2);
    if points.len() > 2 {
        out.push(long(&points[2..], Some(place)));
    }
    out.push(long(&points[1..], Some(place)));
    out
}

/// Reads a move from XBoard (or typed in our long notation) and resolves it
/// against the legal moves of `pos`. `None` when it is not a legal move.
pub fn parse_xboard(pos: &Position, text: &str) -> Option<Move> {
    let candidates = if text == "@@@@" {
        vec!["0000".to_string()]
    } else if text.contains(',') {
        legs_to_long(pos, text)
    } else {
        vec![text.to_string()]
    };
    candidates.iter().find_map(|long| {
        parse_uci(pos, long)
            .ok()
            .or_else(|| plain_pawn_move(pos, long))
    })
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
        assert_eq!(to_xboard(m), "c1e3,e3g1");
        assert_eq!(parse_xboard(&p, "c1e3g1"), Some(m));
        assert!(parse_xboard(&p, "c1e3,e3f4").is_some());
        // Broken chains and foreign trampolines are refused.
        for bad in [
            "c1e3,e4g1",
            "c1e3,e3h3",
            "c1e3q,e3g1",
            "c1e3,",
            ",c1e3",
            "c1e3,e3g1,g1h2",
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
        assert_eq!(to_xboard(m), "g8d5,d5f6");
        // H2: a turn without its placement is not a move.
        assert_eq!(parse_xboard(&p, "g8f6"), None);
        // White's first turn has no placement (H3).
        let start = Position::startpos(Variant::HopChess);
        assert_eq!(to_xboard(parse_xboard(&start, "e2e4").unwrap()), "e2e4");
    }
}
