//! The text of the search's reports: scores and `info` lines.

use springboard_engine::baseline::Choice;
use springboard_engine::{Info, Score};
use springboard_rules::notation::uci::to_uci;
use springboard_rules::Position;

/// The text of a score: `cp N` or `mate N`.
pub fn score_text(score: Score) -> String {
    match score {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(n) => format!("mate {n}"),
    }
}

/// The `info` line of a search report.
pub fn info_line(pos: &Position, info: &Info) -> String {
    let bound = match info.bound {
        Some(springboard_engine::tt::Bound::Lower) => " lowerbound",
        Some(springboard_engine::tt::Bound::Upper) => " upperbound",
        _ => "",
    };
    let pv: Vec<String> = info.pv.iter().map(|&m| to_uci(pos, m)).collect();
    format!(
        "info depth {} seldepth {} multipv {} score {}{bound} nodes {} nps {} hashfull {} time {} pv {}",
        info.depth,
        info.seldepth,
        info.multipv,
        score_text(info.score),
        info.nodes,
        info.nps,
        info.hashfull,
        info.time_ms,
        pv.join(" ")
    )
}

/// The `info` line of the baseline's answer: depth 1, its material
/// balance in centipawns (or `mate 1`), the moves it looked at.
pub(super) fn baseline_info(pos: &Position, choice: &Choice) -> String {
    let score = if choice.wins() {
        Score::Mate(1)
    } else {
        Score::Cp(choice.score * 100)
    };
    format!(
        "info depth 1 seldepth 1 score {} nodes {} pv {}",
        score_text(score),
        choice.moves,
        to_uci(pos, choice.best)
    )
}
