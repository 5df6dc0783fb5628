//! `lab every`: in every game, the first mover's score and the draw rate
//! with their 95% intervals, how games end, how long they last, and the
//! pieces' values by the fit, each beside chess measured the same way.

use super::json::{figure, shares, BarSeries, Chart, HistSeries, Report, Value};
use super::runner::GameRecord;
use super::sets::Lab;
use super::stats::{self};
use super::tally;
use super::values::{self, title};
use anyhow::Result;
use springboard_rules::{Role, Variant};

pub const QUESTION: &str = "every";
/// Games per game and strength when `--games` is not given.
pub const DEFAULT_GAMES: usize = 1000;

pub fn run(lab: &Lab) -> Result<Report> {
    let games = lab.games(DEFAULT_GAMES);
    let levels = lab.levels();
    // sets[level][variant]
    let mut sets: Vec<Vec<(Variant, super::runner::SetSpec, Vec<GameRecord>)>> = Vec::new();
    let mut played = 0;
    for level in levels {
        let mut row = Vec::new();
        for v in Variant::ALL {
            let spec = lab.selfplay(v, level);
            let records = lab.games_of(&spec, games)?;
            played += records.len();
            row.push((v, spec, records));
        }
        sets.push(row);
    }
    let mut figures = Vec::new();
    let mut notes = Vec::new();
    let categories: Vec<String> = Variant::ALL.iter().map(|v| v.name().to_string()).collect();
    let mut first_series = Vec::new();
    let mut draw_series = Vec::new();
    for (level, row) in levels.iter().zip(&sets) {
        let mut firsts = Vec::new();
        let mut draws = Vec::new();
        for (v, _, records) in row {
            let first = stats::score(tally::first_mover(records));
            let draw = tally::draw_rate(records);
            match (first, draw) {
                (Some(f), Some(d)) => {
                    firsts.push(Value::from(f.scaled(100.0)));
                    draws.push(Value::from(d.scaled(100.0)));
                    figures.push(figure(
                        format!("{}, first mover's score, {}", v.title(), level.name),
                        f.scaled(100.0),
                        "%",
                        records.len(),
                    ));
                    figures.push(figure(
                        format!("{}, draw rate, {}", v.title(), level.name),
                        d.scaled(100.0),
                        "%",
                        records.len(),
                    ));
                }
                _ => notes.push(format!("{v} at the {} level: no games", level.name)),
            }
        }
        if firsts.len() == categories.len() {
            first_series.push(BarSeries {
                name: level.label(),
                values: firsts,
            });
            draw_series.push(BarSeries {
                name: level.label(),
                values: draws,
            });
        }
    }
    let strong = &sets[1];
    let named: Vec<(String, &[GameRecord])> = strong
        .iter()
        .map(|(v, _, r)| (v.title().to_string(), r.as_slice()))
        .collect();
    let edges: Vec<f64> = (0..=15).map(|i| f64::from(i) * 20.0).collect();
    let lengths = Chart::Histogram {
        id: "every-length".to_string(),
        title: format!("Game length, {} level", levels[1].name),
        x_label: "plies".to_string(),
        y_label: "share of games".to_string(),
        bins: edges.clone(),
        series: strong
            .iter()
            .map(|(v, _, r)| HistSeries {
                name: v.title().to_string(),
                values: shares(&tally::plies(r), &edges),
            })
            .collect(),
    };
    for (v, _, r) in strong {
        if let Some(m) = stats::mean(&tally::plies(r)) {
            figures.push(figure(
                format!("{}, mean game length, {}", v.title(), levels[1].name),
                m,
                "plies",
                r.len(),
            ));
        }
    }
    // The fit's values over both strengths' games, all phases.
    let value_roles = [Role::Knight, Role::Bishop, Role::Rook, Role::Queen];
    let mut value_series = Vec::new();
    for v in Variant::ALL {
        let pooled: Vec<(&super::runner::SetSpec, &[GameRecord])> = sets
            .iter()
            .flat_map(|row| row.iter().filter(|(w, _, _)| *w == v))
            .map(|(_, s, r)| (s, r.as_slice()))
            .collect();
        let fitted = values::fit(v, &pooled, None)?;
        notes.extend(fitted.notes.iter().cloned());
        let vals: Option<Vec<Value>> = value_roles
            .iter()
            .map(|&r| fitted.get(r).map(Value::from))
            .collect();
        match vals {
            Some(values) => value_series.push(BarSeries {
                name: v.title().to_string(),
                values,
            }),
            None if v == Variant::JumpingKing => notes.push(
                "The Weak Square of the Jumping King has no queen, so it is not in the values chart (its values are in jumpingking.json)."
                    .to_string(),
            ),
            None => notes.push(format!(
                "{}: not every piece has a fitted value, so it is not in the values chart",
                v.title()
            )),
        }
    }
    let chess_first = stats::score(tally::first_mover(&strong[0].2));
    let mut answer = String::from("At the strong level the first mover scores ");
    let parts: Vec<String> = strong
        .iter()
        .filter_map(|(v, _, r)| {
            let f = stats::score(tally::first_mover(r))?;
            let d = tally::draw_rate(r)?;
            Some(format!(
                "{} in {} ({} draws)",
                tally::pct_ci(f),
                v.title(),
                tally::pct(d.value)
            ))
        })
        .collect();
    answer.push_str(&parts.join(", "));
    answer.push_str(&format!(
        " ({} games each; the brackets are 95% intervals{}).",
        games,
        if chess_first.is_some_and(|f| f.hi - f.lo > 0.1) {
            ", wide at this size"
        } else {
            ""
        }
    ));
    notes.push(format!(
        "A bigger run (--games) narrows every interval by the square root of the games: four times the games halves them. The ply limit is {} plies.",
        strong[0].1.max_plies
    ));
    Ok(Report {
        schema: super::json::SCHEMA,
        question: QUESTION.to_string(),
        title: "Every game: who is favoured, how games end, how long they last".to_string(),
        games: Variant::ALL.iter().map(|v| v.name().to_string()).collect(),
        quote: "Every game: the first mover's score and the draw rate, how games end, game length, and piece values, each beside chess measured the same way.".to_string(),
        answer,
        method: format!(
            "Self-play from each game's real start position at two strengths: {} and {}. The engine searches {} candidate lines at fixed nodes and picks among the near-best as a limited level does (springboard_engine::Strength::pick), drawing from a generator seeded by the seed and the game's number, so the games vary without random opening moves that would change the start position, and game N of a seed is always the same game. A game is adjudicated won after ply 40 once the search scores one side 15 pawns up for 8 plies in a row, and drawn at the ply limit. Piece values here are the logistic fit of the results on the material difference of the positions (every fourth ply from ply 8, both strengths pooled), in pawns, their 95% intervals by a bootstrap over games (whole games resampled, fixed seed); the exchange method is in the Jumping King, Hoplit and Trampoline questions. Scores' intervals are Wilson intervals of the points (a draw half a point).",
            levels[0].label(),
            levels[1].label(),
            springboard_engine::Strength::CANDIDATES
        ),
        commit: lab.commit.clone(),
        command: lab.command.clone(),
        date: lab.date.clone(),
        games_played: played as u64,
        figures,
        charts: vec![
            Chart::Bars {
                x_label: None,
                id: "every-first-mover".to_string(),
                title: "First mover's score".to_string(),
                y_label: "%".to_string(),
                categories: categories.clone(),
                series: first_series,
            },
            Chart::Bars {
                x_label: None,
                id: "every-draw-rate".to_string(),
                title: "Draw rate".to_string(),
                y_label: "%".to_string(),
                categories: categories.clone(),
                series: draw_series,
            },
            tally::endings_chart(
                "every-endings",
                &format!("How games end, {} level", levels[1].name),
                &named,
            ),
            lengths,
            Chart::Bars {
                x_label: None,
                id: "every-values".to_string(),
                title: "Piece values by the fit (all phases)".to_string(),
                y_label: "pawns".to_string(),
                categories: value_roles.iter().map(|&r| title(r).to_string()).collect(),
                series: value_series,
            },
        ],
        notes,
    })
}
