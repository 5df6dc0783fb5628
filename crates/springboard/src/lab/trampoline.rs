//! `lab trampoline`: the pieces' worth in Trampoline Chess against chess,
//! the queen above all (by exchange and by the fit), and how often a
//! trampoline decides the game (`Bounces`: the mating move bounces; the
//! winner bounced or moved its trampoline in the game's last plies).

use super::json::{figure, BarSeries, Chart, Report, Value};
use super::runner::{Ending, GameRecord, SetSpec};
use super::sets::Lab;
use super::stats;
use super::tally;
use super::values::{self, title, Values};
use anyhow::Result;
use springboard_rules::{Color, Move, MoveKind, Role, Variant};

pub const QUESTION: &str = "trampoline";
pub const DEFAULT_GAMES: usize = 1000;
/// Games per exchange match (one piece against one number of pawns).
pub const DEFAULT_EXCHANGE_GAMES: usize = 100;
/// The last plies of a game in which a winner's bounce or trampoline move
/// counts as deciding it.
pub const DECIDING_PLIES: usize = 10;

/// What a set's games say of the trampolines.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Bounces {
    mates: u64,
    /// Mates whose mating move bounces.
    bounced_mates: u64,
    moves: u64,
    /// Moves that bounce off a trampoline.
    bounce_moves: u64,
    /// Games won (by mate or adjudicated).
    decisive: u64,
    /// Of those, the games whose winner bounced or moved its trampoline in
    /// the last [`DECIDING_PLIES`] plies.
    decided: u64,
}

/// A move that bounces or moves a trampoline.
fn trampoline_move(m: Move) -> bool {
    m.is_bounce() || m.kind() == MoveKind::Trampoline
}

fn bounces(spec: &SetSpec, games: &[GameRecord]) -> Result<Bounces> {
    let mut b = Bounces::default();
    for g in games {
        let positions = spec.replay(g)?;
        let moves: Vec<(Color, Move)> = positions
            .iter()
            .filter_map(|(pos, m)| m.map(|m| (pos.turn(), m)))
            .collect();
        b.moves += moves.len() as u64;
        b.bounce_moves += moves.iter().filter(|(_, m)| m.is_bounce()).count() as u64;
        if g.ending == Ending::Checkmate {
            b.mates += 1;
            if moves
                .last()
                .is_some_and(|(_, m)| m.is_bounce() && m.kind() != MoveKind::Trampoline)
            {
                b.bounced_mates += 1;
            }
        }
        if g.white != 0.5 {
            let winner = if g.white == 1.0 {
                Color::White
            } else {
                Color::Black
            };
            b.decisive += 1;
            let tail = &moves[moves.len().saturating_sub(DECIDING_PLIES)..];
            if tail
                .iter()
                .any(|&(side, m)| side == winner && trampoline_move(m))
            {
                b.decided += 1;
            }
        }
    }
    Ok(b)
}

pub fn run(lab: &Lab) -> Result<Report> {
    let games = lab.games(DEFAULT_GAMES);
    let exchange_games = lab.games(DEFAULT_EXCHANGE_GAMES);
    let mut figures = Vec::new();
    let mut notes = Vec::new();
    let mut played = 0;
    let pieces = [Role::Knight, Role::Bishop, Role::Rook, Role::Queen];
    let mut series = Vec::new();
    let mut answer = Vec::new();
    let mut queen = Vec::new();
    let mut all_exchanges = Vec::new();
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
        let exchanges = values::exchange(lab, v, lab.strong(), exchange_games)?;
        played += exchanges.n;
        let by_exchange = exchanges.values();
        figures.extend(values::match_figures(v, &exchanges));
        all_exchanges.push((v, exchanges.clone()));
        notes.extend(fit.notes.iter().cloned());
        notes.extend(by_exchange.notes.iter().cloned());
        notes.extend(values::disagreements(v, &by_exchange, &fit));
        for (method, vals) in [("exchange", &by_exchange), ("fit", &fit)] {
            push_series(&mut series, &mut notes, v, method, vals, &pieces);
            if let Some(q) = vals.get(Role::Queen) {
                figures.push(figure(
                    format!("{} queen by {method}", v.title()),
                    q,
                    "pawns",
                    vals.n,
                ));
            }
        }
        if let Some(q) = exchanges.get(Role::Queen) {
            queen.push(format!("{} by exchange in {}", q.text(), v.title()));
        }
        if let Some(q) = fit.get(Role::Queen) {
            queen.push(format!("{} by the fit in {}", tally::ci(q), v.title()));
        }
        if v == Variant::Trampoline {
            let strong = &sets[1];
            let b = bounces(&strong.0, &strong.1)?;
            if let Some(share) = stats::wilson(b.decided, b.decisive) {
                figures.push(figure(
                    format!(
                        "Won games whose winner bounced or moved its trampoline in the last {DECIDING_PLIES} plies"
                    ),
                    share.scaled(100.0),
                    "% of won games",
                    b.decisive as usize,
                ));
                answer.push(format!(
                    "a trampoline decides {} of the won games at the strong level (the winner bounced or moved its trampoline in the last {DECIDING_PLIES} plies)",
                    tally::pct_ci(share)
                ));
            }
            if let Some(share) = stats::wilson(b.bounced_mates, b.mates) {
                figures.push(figure(
                    "Mates given by a bounce off a trampoline",
                    share.scaled(100.0),
                    "% of mates",
                    b.mates as usize,
                ));
                answer.push(format!(
                    "{} of the mates are given by a bounce",
                    tally::pct_ci(share)
                ));
            }
            if let Some(share) = stats::wilson(b.bounce_moves, b.moves) {
                figures.push(figure(
                    "Moves that bounce off a trampoline",
                    share.scaled(100.0),
                    "% of moves",
                    b.moves as usize,
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
    notes.push("What a trampoline itself is worth is not measured: the rules core's position text has no side without a trampoline (its trampolines field gives each side's trampoline a square or '-', in hand and still to be placed), so no match of a side without one against a side without k pawns can be set up without a rule of the rules core's own. The Ferz in place of the queen is not measured either: see lab/README.md.".to_string());
    notes.push("A trampoline 'decides' a won game here when the winner made a bounce or a trampoline move in the game's last 10 plies: a contribution near the end, not proof that the game turned on it. A bigger run (--games) narrows the intervals.".to_string());
    Ok(Report {
        schema: super::json::SCHEMA,
        question: QUESTION.to_string(),
        title: "Trampoline Chess: is the queen too dominating?".to_string(),
        games: vec!["trampoline".to_string(), "chess".to_string()],
        quote: "It may enhance the power of friendly pieces so much as to make the Queen too dominating; perhaps a variant on the variant would be to demote Her Highness back to a Ferz.".to_string(),
        answer: format!("{}.", answer.join("; ")),
        method: format!(
            "Two methods, the same in both games. {} Fit: a logistic fit of self-play results (both strengths, {games} games each) on the material difference every fourth ply, its intervals by a bootstrap over games ({} draws, whole games resampled, fixed seed). How often a trampoline decides, at the strong level: the share of won games (mate or adjudicated) whose winner made a bounce or a trampoline move in the game's last {DECIDING_PLIES} plies, and the share of mates whose mating move bounces, each with its Wilson interval.",
            values::exchange_method(exchange_games, lab.strong()),
            stats::BOOTSTRAP_DRAWS
        ),
        commit: lab.commit.clone(),
        command: lab.command.clone(),
        date: lab.date.clone(),
        games_played: played as u64,
        figures,
        charts: vec![
            values::exchange_chart(
                "trampoline-exchanges",
                "Exchange matches: score of the side without the piece",
                &all_exchanges.iter().map(|(v, e)| (*v, e)).collect::<Vec<_>>(),
            ),
            Chart::Bars {
            x_label: None,
            id: "trampoline-values".to_string(),
            title: "Piece values, Trampoline Chess against chess".to_string(),
            y_label: "pawns".to_string(),
            categories: pieces.iter().map(|&r| title(r).to_string()).collect(),
            series,
            },
        ],
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
