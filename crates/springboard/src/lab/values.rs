//! Piece values by two independent methods:
//!
//! - exchange: matches of the side without the piece against the side
//!   without k pawns (or another piece and k pawns), for k around the
//!   expected worth so that each match is near 50%, the sides swapped game
//!   by game; the k where the score crosses 50%, interpolated on the
//!   matches' Elo, is the piece in pawns (`stats::crossing`);
//! - fit: a logistic fit of the self-play games' results on the material
//!   difference of their positions (board and reserve), the coefficient of
//!   a piece over the pawn's, per phase of the game, its interval by a
//!   bootstrap over games.
//!
//! The two measure different things (a piece taken before the game starts,
//! against material won or lost in play, which follows from the position
//! as much as it decides it), so where they disagree the lab says so.

use super::json::{bars, figure, BarSeries, Chart, Figure, Value};
use super::runner::{GameRecord, SetSpec};
use super::sets::{giver, Lab, Level, Plan};
use super::stats::{self, Crossing, Estimate, Exchange, Row};
use super::tally;
use anyhow::Result;
use springboard_rules::{Color, Position, Role, Variant};

/// A part of the game, by ply: what the fit is split by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Opening,
    Middlegame,
    Endgame,
}

impl Phase {
    pub const ALL: [Phase; 3] = [Phase::Opening, Phase::Middlegame, Phase::Endgame];

    pub fn name(self) -> &'static str {
        match self {
            Phase::Opening => "opening",
            Phase::Middlegame => "middlegame",
            Phase::Endgame => "endgame",
        }
    }

    /// Plies 0-19 are the opening, 20-59 the middlegame, the rest the endgame.
    pub fn of_ply(ply: usize) -> Phase {
        match ply {
            0..20 => Phase::Opening,
            20..60 => Phase::Middlegame,
            _ => Phase::Endgame,
        }
    }
}

/// The pieces whose worth a game's questions ask, the pawn first.
pub fn roles(variant: Variant) -> Vec<Role> {
    match variant {
        Variant::JumpingKing => vec![Role::Pawn, Role::Knight, Role::Bishop, Role::Rook],
        Variant::Hoplit => vec![
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
            Role::Hoplit,
        ],
        _ => vec![
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
        ],
    }
}

/// A piece's name for labels: "Knight".
pub fn title(role: Role) -> &'static str {
    match role {
        Role::Pawn => "Pawn",
        Role::Knight => "Knight",
        Role::Bishop => "Bishop",
        Role::Rook => "Rook",
        Role::Queen => "Queen",
        Role::King => "King",
        Role::Hoplit => "Hoplit",
    }
}

/// White's men of `role` less Black's, on the board and in reserve.
fn material(pos: &Position, role: Role) -> f64 {
    let side = |c: Color| f64::from(pos.board().count(c, role)) + f64::from(pos.reserve(c, role));
    side(Color::White) - side(Color::Black)
}

/// The fewest rows with a difference in a piece for the fit to value it.
const MIN_ROWS: usize = 20;

/// Values in pawns of one method: by piece, with notes on what is missing.
#[derive(Clone, Debug, Default)]
pub struct Values {
    pub values: Vec<(Role, Estimate)>,
    /// The sample: rows of the fit, games of the odds matches.
    pub n: usize,
    pub notes: Vec<String>,
}

impl Values {
    pub fn get(&self, role: Role) -> Option<Estimate> {
        self.values.iter().find(|v| v.0 == role).map(|v| v.1)
    }
}

/// The fit's values in `phase` (all phases with `None`) over the games of
/// `sets`: positions every fourth ply from ply 8; the intervals by a
/// bootstrap over games (`stats::fit_ratios`).
pub fn fit(
    variant: Variant,
    sets: &[(&SetSpec, &[GameRecord])],
    phase: Option<Phase>,
) -> Result<Values> {
    let roles = roles(variant);
    let mut games: Vec<Vec<Row>> = Vec::new();
    for (spec, records) in sets {
        for g in records.iter() {
            let mut rows = Vec::new();
            for (ply, (pos, _)) in spec.replay(g)?.iter().enumerate() {
                if ply < 8 || ply % 4 != 0 || ply >= g.plies() {
                    continue;
                }
                if phase.is_some_and(|p| Phase::of_ply(ply) != p) {
                    continue;
                }
                rows.push((roles.iter().map(|&r| material(pos, r)).collect(), g.white));
            }
            if !rows.is_empty() {
                games.push(rows);
            }
        }
    }
    let label = phase.map_or("all phases", Phase::name);
    let mut out = Values {
        n: games.iter().map(Vec::len).sum(),
        ..Values::default()
    };
    // Pieces whose difference is too rare to fit are left out.
    let kept: Vec<usize> = (0..roles.len())
        .filter(|&i| games.iter().flatten().filter(|r| r.0[i] != 0.0).count() >= MIN_ROWS)
        .collect();
    for (i, r) in roles.iter().enumerate() {
        if !kept.contains(&i) {
            out.notes.push(format!(
                "{variant}, {label}: fewer than {MIN_ROWS} positions with a {} difference: no fitted value",
                title(*r).to_lowercase()
            ));
        }
    }
    if !kept.contains(&0) {
        return Ok(out);
    }
    let games: Vec<Vec<Row>> = games
        .into_iter()
        .map(|rows| {
            rows.into_iter()
                .map(|(x, y)| (kept.iter().map(|&i| x[i]).collect(), y))
                .collect()
        })
        .collect();
    match stats::fit_ratios(&games, stats::BOOTSTRAP_DRAWS, stats::BOOTSTRAP_SEED) {
        Ok(ratios) => {
            for (&i, ratio) in kept.iter().zip(ratios) {
                match ratio {
                    Some(e) => out.values.push((roles[i], e)),
                    None => out.notes.push(format!(
                        "{variant}, {label}: the {} has no finite fitted value in 95% of the bootstrap's draws",
                        title(roles[i]).to_lowercase()
                    )),
                }
            }
        }
        Err(e) => out.notes.push(format!("{variant}, {label}: no fit ({e})")),
    }
    Ok(out)
}

/// One exchange match's result: the side without `role` against `against`
/// ("3 pawns", "a rook and 3 pawns"), its score with its interval, games.
#[derive(Clone, Debug)]
pub struct MatchScore {
    pub role: Role,
    pub against: String,
    pub score: Estimate,
    pub games: usize,
}

/// The exchange method's answers: each piece's crossing, the matches'
/// scores, the games played.
#[derive(Clone, Debug, Default)]
pub struct Exchanges {
    pub crossings: Vec<(Role, Crossing)>,
    pub matches: Vec<MatchScore>,
    pub n: usize,
    pub notes: Vec<String>,
}

impl Exchanges {
    /// The pieces with a value (a crossing between two finite Elo), for the
    /// charts and the comparison with the fit; the bounds are in the notes.
    pub fn values(&self) -> Values {
        Values {
            values: self
                .crossings
                .iter()
                .filter_map(|&(r, c)| match c {
                    Crossing::Value(e) => Some((r, e)),
                    _ => None,
                })
                .collect(),
            n: self.n,
            notes: self.notes.clone(),
        }
    }

    /// The crossing of `role`, if measured.
    pub fn get(&self, role: Role) -> Option<Crossing> {
        self.crossings.iter().find(|c| c.0 == role).map(|c| c.1)
    }
}

/// The exchange method at `level`: for each piece of [`Plan::of`], `games`
/// games per k.
pub fn exchange(lab: &Lab, variant: Variant, level: Level, games: usize) -> Result<Exchanges> {
    let mut out = Exchanges::default();
    for plan in Plan::of(variant) {
        let role = plan.piece.role();
        let mut matches = Vec::new();
        for &k in &plan.ks {
            let spec = lab.exchange(variant, level, &plan, k)?;
            let records = lab.games_of(&spec, games)?;
            out.n += records.len();
            let wdl = tally::wdl(records.iter().map(|g| g.score_of(giver(g.number))));
            let Some(score) = stats::score(wdl) else {
                continue;
            };
            let against = match plan.base {
                Some(b) => format!("a {} and {k} pawns", b.name()),
                None => format!("{k} pawns"),
            };
            out.matches.push(MatchScore {
                role,
                against,
                score,
                games: records.len(),
            });
            matches.push(Exchange {
                k: k as f64,
                score: score.value,
                elo: stats::elo(wdl),
            });
        }
        let Some(crossing) = stats::crossing(&matches) else {
            continue;
        };
        let name = title(role).to_lowercase();
        let crossing = match plan.base {
            None => crossing,
            Some(b) => match out.get(b.role()) {
                Some(Crossing::Value(base)) => crossing.plus(base),
                _ => {
                    out.notes.push(format!(
                        "{variant}: the {name} is measured against a {} and pawns, and the {} has no value here (a bound or nothing), so the {name} has none either",
                        b.name(),
                        b.name()
                    ));
                    continue;
                }
            },
        };
        if !matches!(crossing, Crossing::Value(_)) {
            out.notes.push(format!(
                "{variant}: by exchange the {name} is worth {} pawns: a bound, not a value (no two matches on either side of 50% with a finite Elo each)",
                crossing.text()
            ));
        }
        out.crossings.push((role, crossing));
    }
    Ok(out)
}

/// The exchange matches' scores as figures (in %, for the side without
/// the piece), labelled by `variant`'s title.
pub fn match_figures(variant: Variant, ex: &Exchanges) -> Vec<Figure> {
    ex.matches
        .iter()
        .map(|m| {
            figure(
                format!(
                    "{}: score without a {} against {}",
                    variant.title(),
                    title(m.role).to_lowercase(),
                    m.against
                ),
                m.score.scaled(100.0),
                "%",
                m.games,
            )
        })
        .collect()
}

/// A bars chart of the exchange matches' scores (the side without the
/// piece, in %): one category per match ("Knight v 3 pawns"), one series
/// per game; the games must have the same plans.
pub fn exchange_chart(id: &str, title_text: &str, sets: &[(Variant, &Exchanges)]) -> Chart {
    let categories: Vec<String> = sets.first().map_or(Vec::new(), |(_, ex)| {
        ex.matches
            .iter()
            .map(|m| format!("{} v {}", title(m.role), m.against))
            .collect()
    });
    let series = sets
        .iter()
        .filter(|(_, ex)| ex.matches.len() == categories.len())
        .map(|(v, ex)| BarSeries {
            name: v.title().to_string(),
            values: ex
                .matches
                .iter()
                .map(|m| Value::from(m.score.scaled(100.0)))
                .collect(),
        })
        .collect();
    bars(
        id,
        title_text,
        "% for the side without the piece",
        categories,
        series,
    )
}

/// The exchange method in words, for a file's method.
pub fn exchange_method(games: usize, level: Level) -> String {
    format!(
        "Exchange: at the {}, the side without a piece plays the side without k pawns (the queen: without a rook and k pawns; in The Weak Square of the Jumping King the rook: without a knight and k pawns), {games} games for each of three k around the expected worth, colours swapped game by game; the pawns go in the order a, b, c, h, g, f, d, e (from the reserve in The Weak Square of the Jumping King). The k where the score of the side without the piece crosses 50%, interpolated linearly on the two neighbouring matches' Elo, is the piece in pawns (plus the other piece's worth where it is measured against one), its 95% interval by the delta method from those matches' Elo intervals. Where every match is on one side of 50%, or a neighbour scored 0% or 100%, the file gives a bound in its notes, not a value. Scores' intervals are Wilson intervals of the points (a draw half a point).",
        level.label()
    )
}

/// Notes where the two methods' intervals do not overlap.
pub fn disagreements(variant: Variant, a: &Values, b: &Values) -> Vec<String> {
    let mut notes = Vec::new();
    for &(role, x) in &a.values {
        if role == Role::Pawn {
            continue;
        }
        if let Some(y) = b.get(role) {
            if x.hi < y.lo || y.hi < x.lo {
                notes.push(format!(
                    "{variant}: the {} is {} pawns by exchange but {} by the fit: the 95% intervals do not overlap",
                    title(role).to_lowercase(),
                    tally::ci(x),
                    tally::ci(y)
                ));
            }
        }
    }
    notes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phases_and_material() {
        assert_eq!(Phase::of_ply(0), Phase::Opening);
        assert_eq!(Phase::of_ply(20), Phase::Middlegame);
        assert_eq!(Phase::of_ply(60), Phase::Endgame);
        let pos = Position::from_fen(
            Variant::Hoplit,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR[Hh] w KQkq - 0 1",
        )
        .unwrap();
        assert_eq!(material(&pos, Role::Knight), -1.0);
        assert_eq!(material(&pos, Role::Hoplit), 0.0);
        let pos = Position::from_fen(
            Variant::Hoplit,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[H] w KQkq - 0 1",
        )
        .unwrap();
        assert_eq!(material(&pos, Role::Hoplit), 1.0);
    }
}
