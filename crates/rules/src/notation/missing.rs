//! What a move text in long notation lacks when it names no legal move but
//! is one part short of some (or, for a Hoplit drop, why the square takes
//! none): the text players and front ends get instead of a bare "illegal
//! move". It only explains: the readers ([`super::uci`]) decide, and a text
//! they refuse stays refused.

use super::uci::UciMove;
use crate::games::hoplit::{drop_refusal, DropRefusal};
use crate::moves::{Move, MoveKind};
use crate::position::Position;
use crate::types::{Role, Square};
use crate::variant::Variant;
use thiserror::Error;

/// The part a move text lacks (or has too much), with a legal example.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Missing {
    /// A Hop Chess turn without its trampoline square (H2).
    #[error(
        "'{text}' needs its trampoline square: this turn is the piece move and where \
         your trampoline stands after it, like {example}"
    )]
    Placement { text: String, example: String },
    /// A Hop Chess placement on a square the trampoline may not take.
    #[error("'{text}': your trampoline cannot stand on {square} after this move; try {example}")]
    BadPlacement {
        text: String,
        square: Square,
        example: String,
    },
    /// A placement on a turn that has none (White's first Hop Chess turn, H3).
    #[error("'{text}': this turn places no trampoline, write the piece move alone: {example}")]
    NoPlacement { text: String, example: String },
    /// A pawn reaching the last rank without the piece it becomes.
    #[error("'{text}' needs the piece the pawn becomes: {examples}")]
    Promotion { text: String, examples: String },
    /// A Jumping King jump without the letter of the man it leaves (J4).
    #[error(
        "'{text}' needs the letter of the man the king leaves on the square it jumped \
         from: {examples}"
    )]
    PlacedMan { text: String, examples: String },
    /// A Hoplit drop on a square that takes none (L4).
    #[error("no Hoplit can be dropped on {square}: {reason}")]
    Drop {
        square: Square,
        reason: &'static str,
    },
}

/// What `text` lacks in `pos`, when the rules can tell: `None` when the
/// text is not long notation, is a legal move, or is no near miss of one.
pub fn missing_part(pos: &Position, text: &str) -> Option<Missing> {
    let text = text.trim();
    let uci: UciMove = text.parse().ok()?;
    match uci {
        UciMove::Drop { role, to } => {
            if pos.variant() != Variant::Hoplit || role != Role::Hoplit {
                return None;
            }
            let reason = match drop_refusal(pos, to)? {
                DropRefusal::NoneInReserve => "you have no Hoplit left in reserve",
                DropRefusal::NotFirstRank => "a Hoplit is dropped on your own first rank",
                DropRefusal::Occupied => "the square is not empty",
                DropRefusal::NoPawn => {
                    "no pawn of yours stands right in front of it to be pushed forward"
                }
                DropRefusal::PawnBlocked => {
                    "the pawn in front of it cannot step forward (the square ahead is taken)"
                }
                DropRefusal::KingInCheck => "the pawn's step would leave your king in check",
            };
            Some(Missing::Drop { square: to, reason })
        }
        UciMove::Normal {
            from,
            ref via,
            to,
            role,
            place,
        } => {
            let legal = pos.legal_moves();
            if legal.iter().any(|m| UciMove::from_move(*m) == uci) {
                return None;
            }
            // The legal moves of the same piece along the same path.
            let same: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|m| {
                    !matches!(
                        m.kind(),
                        MoveKind::Drop | MoveKind::Trampoline | MoveKind::Pass
                    ) && m.from() == Some(from)
                        && m.to() == Some(to)
                        && m.via().eq(via.iter().copied())
                })
                .collect();
            if same.is_empty() {
                return None;
            }
            if role.is_none() && same.iter().all(|m| m.role().is_some()) {
                let examples = alternatives(&same);
                let text = text.to_string();
                return Some(if same.iter().any(|m| m.kind() == MoveKind::Jump) {
                    Missing::PlacedMan { text, examples }
                } else {
                    Missing::Promotion { text, examples }
                });
            }
            let turns: Vec<Move> = same.into_iter().filter(|m| m.role() == role).collect();
            let first = *turns.first()?;
            let text = text.to_string();
            match place {
                None => Some(Missing::Placement {
                    text,
                    example: with_kept_place(pos, &turns),
                }),
                Some(_) if first.place().is_none() => Some(Missing::NoPlacement {
                    text,
                    example: UciMove::from_move(first.piece_part()).to_string(),
                }),
                Some(square) => Some(Missing::BadPlacement {
                    text,
                    square,
                    example: with_kept_place(pos, &turns),
                }),
            }
        }
        UciMove::Trampoline { .. } | UciMove::Pass => None,
    }
}

/// The distinct texts of `moves` without their placements, `a, b or c`.
fn alternatives(moves: &[Move]) -> String {
    let mut texts: Vec<String> = Vec::new();
    for m in moves {
        let t = UciMove::from_move(m.piece_part()).to_string();
        if !texts.contains(&t) {
            texts.push(t);
        }
    }
    match texts.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => texts.concat(),
    }
}

/// One of the Hop Chess `turns` (the same piece move with its placements)
/// in long notation, the trampoline kept where it stands if it can be.
fn with_kept_place(pos: &Position, turns: &[Move]) -> String {
    let kept = pos.trampoline(pos.turn());
    let m = turns
        .iter()
        .find(|m| m.place().is_some() && m.place() == kept)
        .or_else(|| turns.first())
        .copied()
        .expect("at least one turn");
    UciMove::from_move(m).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::uci::parse_uci;

    fn after(variant: Variant, fen: Option<&str>, moves: &str) -> Position {
        let mut p = match fen {
            Some(f) => Position::from_fen(variant, f).unwrap(),
            None => Position::startpos(variant),
        };
        for t in moves.split_whitespace() {
            let m = parse_uci(&p, t).unwrap_or_else(|e| panic!("{t}: {e}"));
            p.play(m);
        }
        p
    }

    #[test]
    fn h2_hop_chess_turn_without_its_placement() {
        let p = after(Variant::HopChess, None, "e2e4");
        let missing = missing_part(&p, "e7e5").unwrap();
        let Missing::Placement { example, .. } = &missing else {
            panic!("{missing:?}");
        };
        assert!(example.starts_with("e7e5@"), "{example}");
        assert!(parse_uci(&p, example).is_ok(), "{example}");
        assert!(missing.to_string().contains("needs its trampoline square"));
        assert_eq!(
            missing_part(&p, example),
            None,
            "a legal move lacks nothing"
        );
    }

    #[test]
    fn h3_first_turn_places_no_trampoline() {
        let p = Position::startpos(Variant::HopChess);
        assert_eq!(
            missing_part(&p, "e2e4@e5"),
            Some(Missing::NoPlacement {
                text: "e2e4@e5".into(),
                example: "e2e4".into()
            })
        );
    }

    #[test]
    fn a_placement_on_a_taken_square() {
        let p = after(Variant::HopChess, None, "e2e4");
        // e8 holds Black's own king.
        let Some(Missing::BadPlacement {
            square, example, ..
        }) = missing_part(&p, "e7e5@e8")
        else {
            panic!("{:?}", missing_part(&p, "e7e5@e8"));
        };
        assert_eq!(square, Square::E8);
        assert!(parse_uci(&p, &example).is_ok());
    }

    #[test]
    fn a_promotion_without_its_piece() {
        let p = after(Variant::Chess, Some("8/4P3/8/8/8/8/k7/4K3 w - - 0 1"), "");
        let Some(Missing::Promotion { examples, .. }) = missing_part(&p, "e7e8") else {
            panic!("{:?}", missing_part(&p, "e7e8"));
        };
        for piece in ["e7e8q", "e7e8r", "e7e8b", "e7e8n"] {
            assert!(examples.contains(piece), "{examples}");
        }
        assert_eq!(missing_part(&p, "e7e8q"), None);
        assert_eq!(missing_part(&p, "e1e3"), None, "no near miss");
        assert_eq!(missing_part(&p, "e7e"), None, "not long notation");
    }

    #[test]
    fn j4_a_jump_without_its_man() {
        let mut p = Position::startpos(Variant::JumpingKing);
        for _ in 0..2 {
            let m = p.legal_moves()[0];
            p.play(m);
        }
        let jump = p
            .legal_moves()
            .into_iter()
            .find(|m| m.kind() == MoveKind::Jump && m.role().is_some())
            .expect("a second jump places a man");
        let bare = format!("{}{}", jump.from().unwrap(), jump.to().unwrap());
        let Some(Missing::PlacedMan { examples, .. }) = missing_part(&p, &bare) else {
            panic!("{bare}: {:?}", missing_part(&p, &bare));
        };
        assert!(
            examples.contains(&UciMove::from_move(jump).to_string()),
            "{examples}"
        );
    }

    /// Every short text in every game's start position and after a few
    /// moves: no panic, and a text is explained only when it is refused.
    #[test]
    fn explains_only_refused_texts_and_never_panics() {
        let games = [
            (Variant::Chess, "e2e4 e7e5"),
            (Variant::HopChess, "e2e4 e7e5@e2"),
            (Variant::Trampoline, "e2e4 e7e5"),
            (Variant::JumpingKing, "a1c2 f8d7"),
            (Variant::Hoplit, "g1f3 g8f6"),
        ];
        let mut explained = 0;
        for (variant, moves) in games {
            for p in [Position::startpos(variant), after(variant, None, moves)] {
                let mut texts = Vec::new();
                for from in Square::ALL {
                    texts.push(format!("H@{from}"));
                    for to in Square::ALL {
                        texts.push(format!("{from}{to}"));
                        texts.push(format!("{from}{to}q"));
                        texts.push(format!("{from}{to}@{to}"));
                    }
                }
                for t in texts {
                    if let Some(m) = missing_part(&p, &t) {
                        assert!(parse_uci(&p, &t).is_err(), "{variant:?} {t}: {m}");
                        explained += 1;
                    }
                }
            }
        }
        assert!(explained > 0);
    }

    #[test]
    fn l4_drops_that_cannot_be() {
        let reason = |p: &Position, t: &str| match missing_part(p, t) {
            Some(Missing::Drop { reason, .. }) => reason,
            other => panic!("{t}: {other:?}"),
        };
        let start = Position::startpos(Variant::Hoplit);
        assert_eq!(reason(&start, "H@e1"), "the square is not empty");
        assert_eq!(
            reason(&start, "H@e4"),
            "a Hoplit is dropped on your own first rank"
        );
        let p = after(Variant::Hoplit, None, "g1f3 g8f6");
        assert_eq!(missing_part(&p, "H@g1"), None, "L4's example drop is legal");
        let p = after(Variant::Hoplit, None, "g2g4 g8f6 g1f3 f6e4");
        assert_eq!(
            reason(&p, "H@g1"),
            "no pawn of yours stands right in front of it to be pushed forward"
        );
        // L4's own example: a knight on g3 keeps the pawn from stepping.
        let fen = "rnbqkbnr/pppppppp/8/8/8/6N1/PPPPPPPP/RNBQKB1R[Hh] w KQkq - 0 1";
        let p = after(Variant::Hoplit, Some(fen), "");
        assert_eq!(
            reason(&p, "H@g1"),
            "the pawn in front of it cannot step forward (the square ahead is taken)"
        );
        let fen = "rnbqkbnr/pppppppp/8/8/8/6N1/PPPPPPPP/RNBQKB1R[h] w KQkq - 0 1";
        let p = after(Variant::Hoplit, Some(fen), "");
        assert_eq!(reason(&p, "H@g1"), "you have no Hoplit left in reserve");
        assert_eq!(missing_part(&p, "N@g1"), None, "not a Hoplit");
    }
}
