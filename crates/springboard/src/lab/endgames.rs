//! The Hop Chess endgame claim: of a set of king-and-pawn endgames (the
//! stronger side a pawn up, with zero, one or two minor pieces each) that
//! the stronger side wins in chess, how many it still wins in Hop Chess,
//! from the same positions at the same strength.

use super::json::{figure, BarSeries, Chart, Figure, Value};
use super::runner::SetSpec;
use super::sets::Lab;
use super::stats;
use super::tally;
use crate::suites::Rng;
use anyhow::Result;
use springboard_rules::{Color, Position, Variant};

/// Endgames per number of minor pieces when `--games` is not given.
pub const DEFAULT_POSITIONS: usize = 100;

/// What the endgame part adds to `hopchess.json`.
pub struct Part {
    pub answer: String,
    pub method: String,
    pub games_played: usize,
    pub figures: Vec<Figure>,
    pub charts: Vec<Chart>,
    pub notes: Vec<String>,
}

/// A random endgame with `minors` minor pieces a side: White (to move)
/// has its king, two pawns and the minors, Black its king, one pawn and
/// the same minors. Pawns stand on ranks 2-6 (White) and 3-7 (Black);
/// the position is legal, not in check and not over.
fn endgame(rng: &mut Rng, minors: usize) -> Result<String> {
    for _ in 0..100_000 {
        let mut board = [[None::<char>; 8]; 8]; // [rank][file]
        let mut place = |rng: &mut Rng, c: char, ranks: std::ops::Range<usize>| loop {
            let r = ranks.start + rng.below(ranks.len());
            let f = rng.below(8);
            if board[r][f].is_none() {
                board[r][f] = Some(c);
                break;
            }
        };
        place(rng, 'K', 0..8);
        place(rng, 'k', 0..8);
        place(rng, 'P', 1..6);
        place(rng, 'P', 1..6);
        place(rng, 'p', 2..7);
        for _ in 0..minors {
            let kind = if rng.below(2) == 0 { 'N' } else { 'B' };
            place(rng, kind, 0..8);
            place(rng, kind.to_ascii_lowercase(), 0..8);
        }
        let rows: Vec<String> = (0..8)
            .rev()
            .map(|r| {
                let mut out = String::new();
                let mut empty = 0;
                for cell in &board[r] {
                    match *cell {
                        Some(c) => {
                            if empty > 0 {
                                out.push_str(&empty.to_string());
                                empty = 0;
                            }
                            out.push(c);
                        }
                        None => empty += 1,
                    }
                }
                if empty > 0 {
                    out.push_str(&empty.to_string());
                }
                out
            })
            .collect();
        let fen = format!("{} w - - 0 1", rows.join("/"));
        let Ok(pos) = Position::from_fen(Variant::Chess, &fen) else {
            continue;
        };
        if pos.is_check() || pos.outcome().is_some() || crate::suites::wins_at_once(&pos) {
            continue;
        }
        let hop = format!("{fen} -,- -");
        if Position::from_fen(Variant::HopChess, &hop).is_err() {
            continue;
        }
        return Ok(fen);
    }
    anyhow::bail!("no legal endgame with {minors} minor pieces in 100000 tries")
}

fn set(lab: &Lab, variant: Variant, minors: usize, starts: Vec<String>) -> SetSpec {
    let level = lab.strong();
    SetSpec {
        key: format!(
            "endgames-{variant}-m{minors}-s{}-n{}-seed{}",
            level.skill, level.nodes, lab.seed
        ),
        variant,
        starts,
        skill: level.skill,
        nodes: level.nodes,
        seed: lab.seed,
        max_plies: 200,
    }
}

pub fn run(lab: &Lab) -> Result<Part> {
    let count = lab.games(DEFAULT_POSITIONS);
    let level = lab.strong();
    let mut figures = Vec::new();
    let mut notes = Vec::new();
    let mut played = 0;
    let mut hop_values = Vec::new();
    let mut chess_values = Vec::new();
    let mut cats = Vec::new();
    let mut answer = Vec::new();
    for minors in 0..=2 {
        let mut rng = Rng::new(lab.seed.wrapping_mul(31).wrapping_add(minors as u64 + 1));
        let starts = (0..count)
            .map(|_| endgame(&mut rng, minors))
            .collect::<Result<Vec<String>>>()?;
        let chess = set(lab, Variant::Chess, minors, starts.clone());
        let hop = set(
            lab,
            Variant::HopChess,
            minors,
            starts.iter().map(|s| format!("{s} -,- -")).collect(),
        );
        let chess_games = lab.games_of(&chess, count)?;
        let hop_games = lab.games_of(&hop, count)?;
        played += chess_games.len() + hop_games.len();
        let chess_won: Vec<usize> = chess_games
            .iter()
            .filter(|g| g.score_of(Color::White) == 1.0)
            .map(|g| g.number)
            .collect();
        let still = hop_games
            .iter()
            .filter(|g| chess_won.contains(&g.number) && g.score_of(Color::White) == 1.0)
            .count();
        let label = match minors {
            0 => "no minor piece".to_string(),
            1 => "one minor piece each".to_string(),
            _ => "two minor pieces each".to_string(),
        };
        let chess_rate = stats::wilson(chess_won.len() as u64, count as u64);
        let kept = stats::wilson(still as u64, chess_won.len() as u64);
        match (chess_rate, kept) {
            (Some(c), Some(k)) => {
                cats.push(label.clone());
                chess_values.push(Value::from(c.scaled(100.0)));
                hop_values.push(Value::from(k.scaled(100.0)));
                figures.push(figure(
                    format!("Chess wins still won in Hop Chess, {label}"),
                    k.scaled(100.0),
                    "%",
                    chess_won.len(),
                ));
                answer.push(format!(
                    "{label}: {still} of the {} endgames chess wins are still won in Hop Chess ({})",
                    chess_won.len(),
                    tally::pct_ci(k)
                ));
            }
            _ => notes.push(format!(
                "Endgames with {label}: chess won none of the {count}, so there is nothing to compare"
            )),
        }
    }
    notes.push("The endgames are random placements, not studies: some are won for reasons other than the extra pawn, and a bigger --games gives more positions.".to_string());
    Ok(Part {
        answer: format!("in the king-and-pawn endgames, {}", answer.join("; ")),
        method: format!(
            "The endgame claim: {count} random king-and-pawn endgames per number of minor pieces (White a pawn up and to move, the minors the same kind for both), played once in chess and once in Hop Chess from the same position at the {}; the share is over the endgames White wins in chess.",
            level.label()
        ),
        games_played: played,
        figures,
        charts: vec![Chart::Bars {
            x_label: None,
            id: "hopchess-endgames".to_string(),
            title: "King-and-pawn endgames: won in chess, still won in Hop Chess".to_string(),
            y_label: "%".to_string(),
            categories: cats,
            series: vec![
                BarSeries {
                    name: "Chess: won by the side a pawn up".to_string(),
                    values: chess_values,
                },
                BarSeries {
                    name: "Hop Chess: of those, still won".to_string(),
                    values: hop_values,
                },
            ],
        }],
        notes,
    })
}
