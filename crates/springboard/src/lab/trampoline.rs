//! `lab trampoline`: the pieces' worth in Trampoline Chess against chess,
//! the queen above all (by odds and by the fit), and how often a
//! trampoline decides the game (the mating move bounces).

use super::json::{BarSeries, Chart, Figure, Report, Value};
use super::runner::{Ending, GameRecord, SetSpec};
use super::sets::Lab;
use super::stats;
use super::tally;
use super::values::{self, title, Values};
use anyhow::Result;
use springboard_rules::{MoveKind, Role, Variant};

pub const QUESTION: &str = "trampoline";
pub const DEFAULT_GAMES: usize = 200;
pub const DEFAULT_ODDS_GAMES: usize = 80;

/// Of the games ended by mate, those whose mating move bounces; and of
/// all moves, those that bounce or move a trampoline.
fn bounces(spec: &SetSpec, games: &[GameRecord]) -> Result<(u64, u64, u64, u64)> {
    let (mut mates, mut bounced_mates, mut moves, mut bounce_moves) = (0, 0, 0, 0);
    for g in games {
        let positions = spec.replay(g)?;
        for (_, m) in &positions {
            if let Some(m) = m {
                moves += 1;
                if m.is_bounce() {
                    bounce_moves += 1;
                }
            }
        }
        if g.ending == Ending::Checkmate {
            mates += 1;
            let last = positions.iter().rev().find_map(|(_, m)| *m);
            if last.is_some_and(|m| m.is_bounce() && m.kind() != MoveKind::Trampoline) {
                bounced_mates += 1;
            }
        }
    }
    Ok((mates, bounced_mates, moves, bounce_moves))
}

pub fn run(lab: &Lab) -> Result<Report> {
    let games = lab.games(DEFAULT_GAMES);
    let odds_games = lab.games(DEFAULT_ODDS_GAMES);
    let mut figures = Vec::new();
    let mut notes = Vec::new();
    let mut played = 0;
    let pieces = [Role::Knight, Role::Bishop, Role::Rook, Role::Queen];
    let mut series = Vec::new();
    let mut answer = Vec::new();
    let mut queen = Vec::new();
    for v in [Variant::Trampoline, Variant::Chess] {
        let mut sets = Vec::new();
        for level in lab.levels() {
            let spec = lab.selfplay(v, level);
            let records = lab.games_of(&spec, games)?;
            played += records.len();
            sets.push((spec, records));
        }
        let pooled: Vec<(&SetSpec, &[GameRecord])> =
            sets.iter().map(|(s, r)| (s, r.as_slice())).collect();
        let fit = values::fit(v, &pooled, None)?;
        let (odds, _) = values::odds(lab, v, lab.strong(), odds_games)?;
        played += odds.n;
        notes.extend(fit.notes.iter().cloned());
        notes.extend(odds.notes.iter().cloned());
        notes.extend(values::disagreements(v, &odds, &fit));
        for (method, vals) in [("odds", &odds), ("fit", &fit)] {
            push_series(&mut series, &mut notes, v, method, vals, &pieces);
            if let Some(q) = vals.get(Role::Queen) {
                figures.push(Figure::estimate(
                    format!("{} queen by {method}", v.title()),
                    q,
                    "pawns",
                    vals.n,
                ));
                queen.push(format!("{} by {method} in {}", tally::ci(q), v.title()));
            }
        }
        if v == Variant::Trampoline {
            let strong = &sets[1];
            let (mates, bounced, moves, bounce_moves) = bounces(&strong.0, &strong.1)?;
            if let Some(share) = stats::wilson(bounced, mates) {
                figures.push(Figure::estimate(
                    "Mates given by a bounce off a trampoline",
                    share.scaled(100.0),
                    "% of mates",
                    mates as usize,
                ));
                answer.push(format!(
                    "{} of the mates at the strong level are given by a bounce",
                    tally::pct_ci(share)
                ));
            }
            if let Some(share) = stats::wilson(bounce_moves, moves) {
                figures.push(Figure::estimate(
                    "Moves that bounce off a trampoline",
                    share.scaled(100.0),
                    "% of moves",
                    moves as usize,
                ));
            }
        }
    }
    if !queen.is_empty() {
        answer.insert(0, format!("The queen is worth {}", queen.join(", ")));
    }
    if answer.is_empty() {
        answer.push("This run is too small for an answer".to_string());
    }
    notes.push("What a trampoline itself is worth is not measured: an odds match needs a side that may never drop a trampoline, which the rules core cannot set up without a rule of its own (a lab-only flag in Trampoline Chess's position). The Ferz in place of the queen is not measured either: see lab/README.md.".to_string());
    notes.push("A bigger run (--games) narrows the intervals; the odds values rest on the pawn's odds, whose small Elo makes every ratio wide.".to_string());
    Ok(Report {
        schema: 1,
        question: QUESTION.to_string(),
        title: "Trampoline Chess: is the queen too dominating?".to_string(),
        games: vec!["trampoline".to_string(), "chess".to_string()],
        quote: "It may enhance the power of friendly pieces so much as to make the Queen too dominating; perhaps a variant on the variant would be to demote Her Highness back to a Ferz.".to_string(),
        answer: format!("{}.", answer.join("; ")),
        method: format!(
            "Two methods, the same in both games. Odds: {odds_games} games per piece at the {} with one side lacking it, colours swapped game by game; the Elo lost over a pawn's is the value in pawns. Fit: a logistic fit of self-play results (both strengths, {games} games each) on the material difference every fourth ply. How often a trampoline decides: the share of mates whose mating move bounces, at the strong level.",
            lab.strong().label()
        ),
        commit: lab.commit.clone(),
        command: lab.command.clone(),
        date: lab.date.clone(),
        games_played: played,
        figures,
        charts: vec![Chart::Bars {
            id: "trampoline-values".to_string(),
            title: "Piece values, Trampoline Chess against chess".to_string(),
            y_label: "pawns".to_string(),
            categories: pieces.iter().map(|&r| title(r).to_string()).collect(),
            series,
        }],
        notes,
    })
}

fn push_series(
    series: &mut Vec<BarSeries>,
    notes: &mut Vec<String>,
    v: Variant,
    method: &str,
    vals: &Values,
    pieces: &[Role],
) {
    let values: Option<Vec<Value>> = pieces
        .iter()
        .map(|&r| vals.get(r).map(Value::from))
        .collect();
    match values {
        Some(values) => series.push(BarSeries {
            name: format!("{}, {method}", v.title()),
            values,
        }),
        None => notes.push(format!(
            "{}: not every piece has a value by {method}, so that series is left out of the chart",
            v.title()
        )),
    }
}
