//! `lab jumpingking`: in The Weak Square of the Jumping King, who is
//! favoured (the first mover; the side that finishes its jumping phase
//! first), how many games end on the weak square, and how soon.

use super::json::{figure, shares, BarSeries, Chart, HistSeries, Report, Value};
use super::runner::{Ending, GameRecord, SetSpec};
use super::sets::Lab;
use super::stats;
use super::tally;
use super::values::{self, title};
use anyhow::Result;
use springboard_rules::{Color, Variant};

pub const QUESTION: &str = "jumpingking";
pub const DEFAULT_GAMES: usize = 2000;
/// Games per exchange match (one piece against one number of pawns).
pub const DEFAULT_EXCHANGE_GAMES: usize = 100;

/// The colour whose jumping phase ended first (`None` when neither ended).
fn first_to_finish(spec: &SetSpec, game: &GameRecord) -> Result<Option<Color>> {
    for (pos, _) in spec.replay(game)? {
        let white = pos.is_jumping(Color::White);
        let black = pos.is_jumping(Color::Black);
        match (white, black) {
            (false, true) => return Ok(Some(Color::White)),
            (true, false) => return Ok(Some(Color::Black)),
            // Both over at once: the one that moved last finished last.
            (false, false) => return Ok(Some(!pos.turn())),
            (true, true) => {}
        }
    }
    Ok(None)
}

pub fn run(lab: &Lab) -> Result<Report> {
    let games = lab.games(DEFAULT_GAMES);
    let v = Variant::JumpingKing;
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
    let cats = vec![
        "first mover".to_string(),
        "first to end its jumping phase".to_string(),
    ];
    let mut favour = Vec::new();
    let mut weak_plies = Vec::new();
    let mut answer_parts = Vec::new();
    for (level, spec, records) in &sets {
        let first = stats::score(tally::first_mover(records));
        let mut finisher = Vec::new();
        let mut unfinished = 0;
        for g in records {
            match first_to_finish(spec, g)? {
                Some(c) => finisher.push(g.score_of(c)),
                None => unfinished += 1,
            }
        }
        let fin = stats::score(tally::wdl(finisher.iter().copied()));
        if unfinished > 0 {
            notes.push(format!(
                "{} level: {unfinished} of {} games ended before either king's jumping phase did; they are left out of the finisher's score",
                level.name,
                records.len()
            ));
        }
        if let (Some(f), Some(e)) = (first, fin) {
            favour.push(BarSeries {
                name: level.label(),
                values: vec![Value::from(f.scaled(100.0)), Value::from(e.scaled(100.0))],
            });
            figures.push(figure(
                format!("First mover's score, {}", level.name),
                f.scaled(100.0),
                "%",
                records.len(),
            ));
            figures.push(figure(
                format!(
                    "Score of the side that ends its jumping phase first, {}",
                    level.name
                ),
                e.scaled(100.0),
                "%",
                finisher.len(),
            ));
            answer_parts.push(format!(
                "at the {} level the first mover scores {} and the side that ends its jumping phase first {}",
                level.name,
                tally::pct_ci(f),
                tally::pct_ci(e)
            ));
        }
        if let Some(w) = tally::ending_share(records, Ending::WeakSquare) {
            figures.push(figure(
                format!("Games ended on the weak square, {}", level.name),
                w.scaled(100.0),
                "%",
                records.len(),
            ));
            let plies: Vec<f64> = records
                .iter()
                .filter(|g| g.ending == Ending::WeakSquare)
                .map(|g| g.plies() as f64)
                .collect();
            if let Some(m) = stats::mean(&plies) {
                figures.push(figure(
                    format!("Ply of a weak-square ending, {}", level.name),
                    m,
                    "plies",
                    plies.len(),
                ));
            }
            answer_parts.push(format!(
                "{} of its games end on the weak square",
                tally::pct_ci(w)
            ));
            weak_plies.push((level.label(), plies));
        }
    }
    let edges: Vec<f64> = (0..=10).map(|i| f64::from(i) * 20.0).collect();
    let named: Vec<(String, &[GameRecord])> = sets
        .iter()
        .map(|(l, _, r)| (l.label(), r.as_slice()))
        .collect();
    let pooled: Vec<(&SetSpec, &[GameRecord])> =
        sets.iter().map(|(_, s, r)| (s, r.as_slice())).collect();
    let fitted = values::fit(v, &pooled, None)?;
    notes.extend(fitted.notes.iter().cloned());
    for (role, e) in &fitted.values {
        figures.push(figure(
            format!("{} by the fit", title(*role)),
            *e,
            "pawns",
            fitted.n,
        ));
    }
    let exchange_games = lab.games(DEFAULT_EXCHANGE_GAMES);
    let exchanges = values::exchange(lab, v, lab.strong(), exchange_games)?;
    played += exchanges.n;
    let by_exchange = exchanges.values();
    for (role, e) in &by_exchange.values {
        figures.push(figure(
            format!("{} by exchange", title(*role)),
            *e,
            "pawns",
            by_exchange.n,
        ));
    }
    figures.extend(values::match_figures(v, &exchanges));
    notes.extend(by_exchange.notes.iter().cloned());
    notes.extend(values::disagreements(v, &by_exchange, &fitted));
    notes.push(
        "The finisher's score mixes cause and effect: a side may end its phase first because it is doing well. A bigger run (--games) narrows the intervals by the square root of the games."
            .to_string(),
    );
    Ok(Report {
        schema: super::json::SCHEMA,
        question: QUESTION.to_string(),
        title: "The Weak Square of the Jumping King: who is favoured, and how often does the weak square decide?".to_string(),
        games: vec![v.name().to_string()],
        quote: "Who is favoured: the first mover, the side that finishes its jumping phase first? How many games end on the weak square, and how soon?".to_string(),
        answer: format!("In {games} games per strength, {}.", answer_parts.join("; ")),
        method: format!("Self-play from the start position at two strengths (as in every.json: the engine's own choice among near-best moves, seeded). The side that ends its jumping phase first is read from each game's positions (Position::is_jumping); its score is counted over the games where a phase ended. Weak-square endings are the games the rules end on J3. Piece values: the fit (as in every.json, its intervals by a bootstrap over games) and exchange matches. {}", values::exchange_method(exchange_games, lab.strong())),
        commit: lab.commit.clone(),
        command: lab.command.clone(),
        date: lab.date.clone(),
        games_played: played as u64,
        figures,
        charts: vec![
            Chart::Bars {
                x_label: None,
                id: "jumpingking-favoured".to_string(),
                title: "Who is favoured: score".to_string(),
                y_label: "%".to_string(),
                categories: cats,
                series: favour,
            },
            tally::endings_chart("jumpingking-endings", "How games end", &named),
            values::exchange_chart(
                "jumpingking-exchanges",
                "Exchange matches: score of the side without the piece",
                &[(v, &exchanges)],
            ),
            Chart::Histogram {
                id: "jumpingking-weak-square-ply".to_string(),
                title: "When the weak square decides (share of weak-square endings)".to_string(),
                x_label: "ply".to_string(),
                y_label: "share of weak-square endings".to_string(),
                bins: edges.clone(),
                series: weak_plies
                    .iter()
                    .filter(|(_, p)| !p.is_empty())
                    .map(|(name, p)| HistSeries {
                        name: name.clone(),
                        values: shares(p, &edges),
                    })
                    .collect(),
            },
        ],
        notes,
    })
}
