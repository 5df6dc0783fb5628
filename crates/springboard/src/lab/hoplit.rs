//! `lab hoplit`: what the Hoplit is worth in pawns (by exchange and by the fit
//! per phase), whether dropping it is worth it (the sides that drop it
//! against the sides that never do), and when it is dropped.

use super::json::{figure, shares, BarSeries, Chart, HistSeries, Report, Value};
use super::runner::{GameRecord, SetSpec};
use super::sets::Lab;
use super::stats;
use super::tally;
use super::values::{self, title, Phase};
use anyhow::Result;
use springboard_rules::{Color, MoveKind, Role, Variant};

pub const QUESTION: &str = "hoplit";
/// Self-play games per strength.
pub const DEFAULT_GAMES: usize = 1000;
/// Games per exchange match (one piece against one number of pawns).
pub const DEFAULT_EXCHANGE_GAMES: usize = 100;

/// The ply at which each side dropped its Hoplit, if it did.
fn drops(spec: &SetSpec, game: &GameRecord) -> Result<[Option<usize>; 2]> {
    let mut out = [None, None];
    for (ply, (pos, m)) in spec.replay(game)?.iter().enumerate() {
        if let Some(m) = m {
            if m.kind() == MoveKind::Drop && m.role() == Some(Role::Hoplit) {
                out[pos.turn().index()].get_or_insert(ply);
            }
        }
    }
    Ok(out)
}

pub fn run(lab: &Lab) -> Result<Report> {
    let games = lab.games(DEFAULT_GAMES);
    let exchange_games = lab.games(DEFAULT_EXCHANGE_GAMES);
    let v = Variant::Hoplit;
    let mut figures = Vec::new();
    let mut notes = Vec::new();
    let mut played = 0;
    let mut sets = Vec::new();
    for level in lab.levels() {
        let spec = lab.selfplay(v, level);
        let records = lab.games_of(&spec, games)?;
        played += records.len();
        sets.push((level, spec, records));
    }
    // Dropping: each side of each game, dropped or not.
    let mut dropped = Vec::new();
    let mut kept = Vec::new();
    let mut drop_plies = Vec::new();
    for (_, spec, records) in &sets {
        for g in records {
            let d = drops(spec, g)?;
            for c in [Color::White, Color::Black] {
                match d[c.index()] {
                    Some(ply) => {
                        dropped.push(g.score_of(c));
                        drop_plies.push(ply as f64);
                    }
                    None => kept.push(g.score_of(c)),
                }
            }
        }
    }
    let sides = dropped.len() + kept.len();
    let mut drop_bars = Vec::new();
    let mut drop_cats = Vec::new();
    for (name, scores) in [("dropped it", &dropped), ("never dropped it", &kept)] {
        if let Some(s) = stats::score(tally::wdl(scores.iter().copied())) {
            drop_cats.push(name.to_string());
            drop_bars.push(Value::from(s.scaled(100.0)));
            figures.push(figure(
                format!("Score of the sides that {name}"),
                s.scaled(100.0),
                "%",
                scores.len(),
            ));
        } else {
            notes.push(format!("No side {name}: no score to compare"));
        }
    }
    if let Some(share) = stats::wilson(dropped.len() as u64, sides as u64) {
        figures.push(figure(
            "Sides that drop the Hoplit",
            share.scaled(100.0),
            "%",
            sides,
        ));
    }
    if let Some(m) = stats::mean(&drop_plies) {
        figures.push(figure("Ply of the drop", m, "plies", drop_plies.len()));
    }
    // Values: the fit per phase, and exchange matches.
    let pooled: Vec<(&SetSpec, &[GameRecord])> =
        sets.iter().map(|(_, s, r)| (s, r.as_slice())).collect();
    let mut phase_values = Vec::new();
    for phase in Phase::ALL {
        let f = values::fit(v, &pooled, Some(phase))?;
        notes.extend(f.notes.iter().cloned());
        phase_values.push((phase, f));
    }
    let fit_all = values::fit(v, &pooled, None)?;
    notes.extend(fit_all.notes.iter().cloned());
    let exchanges = values::exchange(lab, v, lab.strong(), exchange_games)?;
    played += exchanges.n;
    let by_exchange = exchanges.values();
    notes.extend(by_exchange.notes.iter().cloned());
    notes.extend(values::disagreements(v, &by_exchange, &fit_all));
    figures.extend(values::match_figures(v, &exchanges));
    let by_phase: Option<Vec<Value>> = phase_values
        .iter()
        .map(|(_, f)| f.get(Role::Hoplit).map(Value::from))
        .collect();
    for (phase, f) in &phase_values {
        if let Some(e) = f.get(Role::Hoplit) {
            figures.push(figure(
                format!("Hoplit by the fit, {}", phase.name()),
                e,
                "pawns",
                f.n,
            ));
        }
    }
    let mut phase_series = Vec::new();
    match by_phase {
        Some(values) => phase_series.push(BarSeries {
            name: "Hoplit (fit)".to_string(),
            values,
        }),
        None => notes.push(
            "The Hoplit has no fitted value in every phase, so the phase chart is left empty"
                .to_string(),
        ),
    }
    let pieces = [
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::Hoplit,
    ];
    let mut method_series = Vec::new();
    for (name, vals) in [("exchange", &by_exchange), ("fit (all phases)", &fit_all)] {
        let values: Option<Vec<Value>> = pieces
            .iter()
            .map(|&r| vals.get(r).map(Value::from))
            .collect();
        match values {
            Some(values) => method_series.push(BarSeries {
                name: name.to_string(),
                values,
            }),
            None => notes.push(format!(
                "Not every piece has a value by {name}: that series is left out of the values chart"
            )),
        }
    }
    let mut answer = Vec::new();
    if let Some(c) = exchanges.get(Role::Hoplit) {
        answer.push(format!(
            "By exchange the Hoplit is worth {} pawns",
            c.text()
        ));
    }
    if let Some(e) = fit_all.get(Role::Hoplit) {
        answer.push(format!("by the fit {} pawns", tally::ci(e)));
    }
    if let (Some(d), Some(k)) = (
        stats::score(tally::wdl(dropped.iter().copied())),
        stats::score(tally::wdl(kept.iter().copied())),
    ) {
        answer.push(format!(
            "sides that drop it score {} against {} for sides that never do",
            tally::pct_ci(d),
            tally::pct_ci(k)
        ));
    }
    if answer.is_empty() {
        answer.push("This run is too small for an answer".to_string());
    }
    notes.push("Whether a side drops its Hoplit depends on the game it is having, so the drop comparison is an association, not the effect of dropping. A bigger run (--games) narrows every interval.".to_string());
    let edges: Vec<f64> = (0..=10).map(|i| f64::from(i) * 10.0).collect();
    Ok(Report {
        schema: super::json::SCHEMA,
        question: QUESTION.to_string(),
        title: "Hoplit Chess: what is the Hoplit worth, and is dropping it worth it?".to_string(),
        games: vec!["hoplit".to_string(), "chess".to_string()],
        quote: "The Hoplit's value is 3, that is, the same as a bishop or knight (preliminary estimate).".to_string(),
        answer: format!("{}.", answer.join("; ")),
        method: format!(
            "Two methods for values. {} The Hoplit is taken from its reserve. Fit: a logistic fit of the self-play results (both strengths, {games} games each) on the material difference (board and reserve) every fourth ply, by phase (plies 0-19, 20-59, 60 on), its intervals by a bootstrap over games ({} draws, whole games resampled, fixed seed). Dropping: each side of each self-play game, scored by whether it ever dropped its Hoplit.",
            values::exchange_method(exchange_games, lab.strong()),
            stats::BOOTSTRAP_DRAWS
        ),
        commit: lab.commit.clone(),
        command: lab.command.clone(),
        date: lab.date.clone(),
        games_played: played as u64,
        figures,
        charts: vec![
            Chart::Bars {
                x_label: None,
                id: "hoplit-values".to_string(),
                title: "The Hoplit by phase (fit)".to_string(),
                y_label: "pawns".to_string(),
                categories: Phase::ALL.iter().map(|p| p.name().to_string()).collect(),
                series: phase_series,
            },
            Chart::Bars {
                x_label: None,
                id: "hoplit-methods".to_string(),
                title: "Piece values by two methods".to_string(),
                y_label: "pawns".to_string(),
                categories: pieces.iter().map(|&r| title(r).to_string()).collect(),
                series: method_series,
            },
            Chart::Bars {
                x_label: None,
                id: "hoplit-drop-score".to_string(),
                title: "Score of a side by whether it drops the Hoplit".to_string(),
                y_label: "%".to_string(),
                categories: drop_cats,
                series: vec![BarSeries {
                    name: "Hoplit Chess".to_string(),
                    values: drop_bars,
                }],
            },
            values::exchange_chart(
                "hoplit-exchanges",
                "Exchange matches: score of the side without the piece",
                &[(v, &exchanges)],
            ),
            Chart::Histogram {
                id: "hoplit-drop-ply".to_string(),
                title: "When the Hoplit is dropped".to_string(),
                x_label: "ply".to_string(),
                y_label: "share of drops".to_string(),
                bins: edges.clone(),
                series: vec![HistSeries {
                    name: "Hoplit Chess".to_string(),
                    values: shares(&drop_plies, &edges),
                }],
            },
        ],
        notes,
    })
}
