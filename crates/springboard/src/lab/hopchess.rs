//! `lab hopchess`: are Hop Chess's opening and middlegame more attacking
//! than chess's (mates before move 20, how games end, how long they
//! last), and are the king-and-pawn endgames chess wins still won
//! (`super::endgames`)?

use super::endgames;
use super::json::{figure, shares, BarSeries, Chart, HistSeries, Report, Value};
use super::runner::{Ending, GameRecord};
use super::sets::Lab;
use super::stats;
use super::tally;
use anyhow::Result;
use springboard_rules::Variant;

pub const QUESTION: &str = "hopchess";
pub const DEFAULT_GAMES: usize = 1000;

/// Mates before move 20: the mating move is at most the 38th ply (move 19
/// of Black).
const EARLY_MATE_PLIES: usize = 38;

fn early_mates(games: &[GameRecord]) -> Option<stats::Estimate> {
    let k = games
        .iter()
        .filter(|g| g.ending == Ending::Checkmate && g.plies() <= EARLY_MATE_PLIES)
        .count();
    stats::wilson(k as u64, games.len() as u64)
}

fn decisive(games: &[GameRecord]) -> Option<stats::Estimate> {
    let k = games.iter().filter(|g| g.white != 0.5).count();
    stats::wilson(k as u64, games.len() as u64)
}

pub fn run(lab: &Lab) -> Result<Report> {
    let games = lab.games(DEFAULT_GAMES);
    let pair = [Variant::HopChess, Variant::Chess];
    let mut figures = Vec::new();
    let mut notes = Vec::new();
    let mut played = 0;
    let mut by_level = Vec::new();
    for level in lab.levels() {
        let mut row = Vec::new();
        for v in pair {
            let spec = lab.selfplay(v, level);
            let records = lab.games_of(&spec, games)?;
            played += records.len();
            row.push((v, records));
        }
        by_level.push((level, row));
    }
    let cats: Vec<String> = vec![
        "mate before move 20".to_string(),
        "decisive".to_string(),
        "mate".to_string(),
    ];
    let mut bars = Vec::new();
    let mut answer = Vec::new();
    for (level, row) in &by_level {
        for (v, records) in row {
            let (Some(early), Some(dec), Some(mate)) = (
                early_mates(records),
                decisive(records),
                tally::ending_share(records, Ending::Checkmate),
            ) else {
                continue;
            };
            bars.push(BarSeries {
                name: format!("{}, {}", v.title(), level.name),
                values: [early, dec, mate]
                    .into_iter()
                    .map(|e| Value::from(e.scaled(100.0)))
                    .collect(),
            });
            figures.push(figure(
                format!("{}, mates before move 20, {}", v.title(), level.name),
                early.scaled(100.0),
                "%",
                records.len(),
            ));
            if let Some(m) = stats::mean(&tally::plies(records)) {
                figures.push(figure(
                    format!("{}, mean game length, {}", v.title(), level.name),
                    m,
                    "plies",
                    records.len(),
                ));
            }
        }
        if let [(_, hop), (_, chess)] = row.as_slice() {
            if let (Some(h), Some(c)) = (early_mates(hop), early_mates(chess)) {
                answer.push(format!(
                    "at the {} level {} of Hop Chess games end in mate before move 20 against {} in chess",
                    level.name,
                    tally::pct_ci(h),
                    tally::pct_ci(c)
                ));
            }
        }
    }
    let strong = &by_level[1].1;
    let edges: Vec<f64> = (0..=15).map(|i| f64::from(i) * 20.0).collect();
    let named: Vec<(String, &[GameRecord])> = strong
        .iter()
        .map(|(v, r)| (v.title().to_string(), r.as_slice()))
        .collect();
    let mut charts = vec![
        Chart::Bars {
            x_label: None,
            id: "hopchess-attack".to_string(),
            title: "Mates and decisive games".to_string(),
            y_label: "% of games".to_string(),
            categories: cats,
            series: bars,
        },
        tally::endings_chart(
            "hopchess-endings",
            &format!("How games end, {} level", by_level[1].0.name),
            &named,
        ),
        Chart::Histogram {
            id: "hopchess-length".to_string(),
            title: format!("Game length, {} level", by_level[1].0.name),
            x_label: "plies".to_string(),
            y_label: "share of games".to_string(),
            bins: edges.clone(),
            series: strong
                .iter()
                .map(|(v, r)| HistSeries {
                    name: v.title().to_string(),
                    values: shares(&tally::plies(r), &edges),
                })
                .collect(),
        },
    ];
    let mut method = "The attack claim: self-play from the start position at two strengths (as in every.json), the same sets for Hop Chess and chess; a mate before move 20 is a game the rules end by checkmate by the 38th ply (adjudicated wins are not counted as mates).".to_string();
    let end = endgames::run(lab)?;
    played += end.games_played;
    figures.extend(end.figures);
    charts.extend(end.charts);
    notes.extend(end.notes);
    answer.push(end.answer);
    method.push(' ');
    method.push_str(&end.method);
    notes.push("A bigger run (--games) narrows the intervals by the square root of the games; early mates are rare, so their intervals are the widest relative to their size.".to_string());
    Ok(Report {
        schema: super::json::SCHEMA,
        question: QUESTION.to_string(),
        title: "Hop Chess: more attacking than chess, but not in king-and-pawn endgames?".to_string(),
        games: vec!["hopchess".to_string(), "chess".to_string()],
        quote: "The existence of hoppers makes the opening and middle game much more attack-oriented ... it does NOT seem to be the case for most K & P endgames, even with a minor piece or two ... the weaker side can use his hopper to stop the stronger king.".to_string(),
        answer: format!("{}.", answer.join("; ")),
        method,
        commit: lab.commit.clone(),
        command: lab.command.clone(),
        date: lab.date.clone(),
        games_played: played as u64,
        figures,
        charts,
        notes,
    })
}
