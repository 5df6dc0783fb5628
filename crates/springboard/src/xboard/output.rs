//! The lines the session writes: variant names, results, thinking output
//! and Hop Chess's trampoline marks.

use super::board;
use super::notation::to_xboard;
use springboard_engine::{Info, Score};
use springboard_rules::{Color, DrawReason, Outcome, Position, Variant, WinReason};

/// The XBoard name of a variant we play.
pub(super) fn xboard_name(v: Variant) -> &'static str {
    match v {
        Variant::Chess => "normal",
        other => other.name(),
    }
}

/// The result line for a finished game, e.g. `1-0 {White mates}`.
pub(super) fn result_line(outcome: Outcome) -> String {
    let why = match outcome {
        Outcome::Win {
            winner,
            reason: WinReason::Checkmate,
        } => format!("{} mates", winner.fold("White", "Black")),
        Outcome::Win {
            winner,
            reason: WinReason::WeakSquare,
        } => format!("{} enters the weak square", winner.fold("White", "Black")),
        Outcome::Draw(DrawReason::Stalemate) => "Stalemate".into(),
        Outcome::Draw(DrawReason::Repetition) => "Draw by repetition".into(),
        Outcome::Draw(DrawReason::FiftyMoves) => "Draw by fifty move rule".into(),
        Outcome::Draw(DrawReason::InsufficientMaterial) => "Insufficient material".into(),
    };
    format!("{} {{{why}}}", outcome.result_str())
}

/// The thinking output line: ply, score (centipawns; mates as
/// 100000 + moves), time in centiseconds, nodes, PV.
pub(super) fn thinking_line(pos: &Position, info: &Info) -> String {
    let score = match info.score {
        Score::Cp(cp) => cp,
        Score::Mate(n) if n > 0 => 100_000 + n,
        Score::Mate(n) => -100_000 + n,
    };
    let mut line = pos.clone();
    let mut pv = Vec::with_capacity(info.pv.len());
    for &m in &info.pv {
        if !line.is_legal(m) {
            break;
        }
        pv.push(to_xboard(&line, m));
        line.play(m);
    }
    format!(
        "{} {score} {} {} {}",
        info.depth,
        info.time_ms / 10,
        info.nodes,
        pv.join(" ")
    )
}

/// Hop Chess: the trampolines as dots, a `highlight` that XBoard keeps
/// until the next click: White's white (`W`), Black's black (`D`). They are
/// no XBoard pieces there (docs/xboard.md). `None` in the other games.
pub(super) fn trampoline_marks(pos: &Position) -> Option<String> {
    if pos.variant() != Variant::HopChess {
        return None;
    }
    let (w, b) = (pos.trampoline(Color::White), pos.trampoline(Color::Black));
    let text = board::board_text(pos.variant(), |sq| {
        if w == Some(sq) {
            Some('W')
        } else if b == Some(sq) {
            Some('D')
        } else {
            None
        }
    });
    Some(format!("highlight {text}"))
}
