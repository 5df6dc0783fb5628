//! Counting over a set's games: scores as wins, draws and losses, endings,
//! lengths. Shared by the questions.

use super::json::{BarSeries, Chart, Value};
use super::runner::{Ending, GameRecord};
use super::stats::{self, Wdl};
use springboard_rules::Color;

/// Wins, draws and losses from a list of scores (1, 1/2, 0).
pub fn wdl(scores: impl IntoIterator<Item = f64>) -> Wdl {
    let mut w = Wdl::default();
    for s in scores {
        if s > 0.75 {
            w.wins += 1;
        } else if s < 0.25 {
            w.losses += 1;
        } else {
            w.draws += 1;
        }
    }
    w
}

/// The first mover's (White's) results.
pub fn first_mover(games: &[GameRecord]) -> Wdl {
    wdl(games.iter().map(|g| g.score_of(Color::White)))
}

/// The draw rate with its Wilson interval.
pub fn draw_rate(games: &[GameRecord]) -> Option<stats::Estimate> {
    let draws = games.iter().filter(|g| g.white == 0.5).count();
    stats::wilson(draws as u64, games.len() as u64)
}

/// The share of games that end so, with its Wilson interval.
pub fn ending_share(games: &[GameRecord], ending: Ending) -> Option<stats::Estimate> {
    let k = games.iter().filter(|g| g.ending == ending).count();
    stats::wilson(k as u64, games.len() as u64)
}

/// The endings any of `sets` reaches, in their fixed order.
pub fn endings_seen<'a>(sets: impl IntoIterator<Item = &'a [GameRecord]>) -> Vec<Ending> {
    let mut seen = std::collections::BTreeSet::new();
    for games in sets {
        seen.extend(games.iter().map(|g| g.ending));
    }
    Ending::ALL
        .into_iter()
        .filter(|e| seen.contains(e))
        .collect()
}

/// A bars chart of how games end: one series per named set.
pub fn endings_chart(id: &str, title: &str, sets: &[(String, &[GameRecord])]) -> Chart {
    let endings = endings_seen(sets.iter().map(|(_, g)| *g));
    Chart::Bars {
        x_label: None,
        id: id.to_string(),
        title: title.to_string(),
        y_label: "share of games".to_string(),
        categories: endings.iter().map(|e| e.label().to_string()).collect(),
        series: sets
            .iter()
            .filter(|(_, games)| !games.is_empty())
            .map(|(name, games)| BarSeries {
                name: name.clone(),
                values: endings
                    .iter()
                    .map(|&e| match ending_share(games, e) {
                        Some(est) => Value::from(est),
                        None => Value {
                            value: 0.0,
                            lo: None,
                            hi: None,
                        },
                    })
                    .collect(),
            })
            .collect(),
    }
}

/// The games' lengths in plies.
pub fn plies(games: &[GameRecord]) -> Vec<f64> {
    games.iter().map(|g| g.plies() as f64).collect()
}

/// A percentage for sentences: 54.3%.
pub fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// An estimate of a share as "54.3% [50.1, 58.4]".
pub fn pct_ci(e: stats::Estimate) -> String {
    format!(
        "{:.1}% [{:.1}, {:.1}]",
        100.0 * e.value,
        100.0 * e.lo,
        100.0 * e.hi
    )
}

/// An estimate as "2.9 [2.5, 3.3]".
pub fn ci(e: stats::Estimate) -> String {
    format!("{:.2} [{:.2}, {:.2}]", e.value, e.lo, e.hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(white: f64, ending: Ending) -> GameRecord {
        GameRecord {
            number: 1,
            white,
            ending,
            moves: Vec::new(),
        }
    }

    #[test]
    fn counts() {
        let games = [
            game(1.0, Ending::Checkmate),
            game(0.5, Ending::Repetition),
            game(0.0, Ending::Checkmate),
            game(1.0, Ending::Adjudicated),
        ];
        assert_eq!(
            first_mover(&games),
            Wdl {
                wins: 2,
                draws: 1,
                losses: 1
            }
        );
        assert_eq!(draw_rate(&games).unwrap().value, 0.25);
        assert_eq!(ending_share(&games, Ending::Checkmate).unwrap().value, 0.5);
        assert_eq!(
            endings_seen([&games[..]]),
            vec![Ending::Checkmate, Ending::Repetition, Ending::Adjudicated]
        );
        assert_eq!(pct(0.5432), "54.3%");
    }
}
