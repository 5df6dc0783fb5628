//! Piece values by two independent methods:
//!
//! - odds: matches where one side lacks the piece (the sides swapped game
//!   by game, so the first move's edge cancels out); the Elo the giver
//!   loses, over the Elo a pawn's odds cost, is the piece in pawns;
//! - fit: a logistic fit of the self-play games' results on the material
//!   difference of their positions (board and reserve), the coefficient of
//!   a piece over the pawn's, per phase of the game.
//!
//! The two measure different things (a piece taken before the game starts,
//! against material won or lost in play, which follows from the position
//! as much as it decides it), so where they disagree the lab says so.

use super::runner::{GameRecord, SetSpec};
use super::sets::{giver, Lab, Level, Odds};
use super::stats::{self, Estimate, Logistic};
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
/// `sets`: positions every fourth ply from ply 8.
pub fn fit(
    variant: Variant,
    sets: &[(&SetSpec, &[GameRecord])],
    phase: Option<Phase>,
) -> Result<Values> {
    let roles = roles(variant);
    let mut rows: Vec<(Vec<f64>, f64)> = Vec::new();
    for (spec, games) in sets {
        for g in games.iter() {
            for (ply, (pos, _)) in spec.replay(g)?.iter().enumerate() {
                if ply < 8 || ply % 4 != 0 || ply >= g.plies() {
                    continue;
                }
                if phase.is_some_and(|p| Phase::of_ply(ply) != p) {
                    continue;
                }
                rows.push((roles.iter().map(|&r| material(pos, r)).collect(), g.white));
            }
        }
    }
    let label = phase.map_or("all phases", Phase::name);
    let mut out = Values {
        n: rows.len(),
        ..Values::default()
    };
    // Pieces whose difference is too rare to fit are left out.
    let kept: Vec<usize> = (0..roles.len())
        .filter(|&i| rows.iter().filter(|r| r.0[i] != 0.0).count() >= MIN_ROWS)
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
    let rows: Vec<(Vec<f64>, f64)> = rows
        .into_iter()
        .map(|(x, y)| (kept.iter().map(|&i| x[i]).collect(), y))
        .collect();
    match Logistic::fit(&rows) {
        Ok(fit) => {
            for (j, &i) in kept.iter().enumerate() {
                // Coefficient j + 1 over the pawn's (the first kept: 1).
                match fit.ratio(j + 1, 1) {
                    Some(e) => out.values.push((roles[i], e)),
                    None => out.notes.push(format!(
                        "{variant}, {label}: the {} has no finite fitted value",
                        title(roles[i]).to_lowercase()
                    )),
                }
            }
        }
        Err(e) => out.notes.push(format!("{variant}, {label}: no fit ({e})")),
    }
    Ok(out)
}

/// Each odds match's Elo for the side giving the piece (none at 0% or 100%).
pub type OddsElos = Vec<(Role, Option<Estimate>)>;

/// The odds method at `level`: `games` games per piece. Gives the values
/// and each odds match's Elo for the giver.
pub fn odds(lab: &Lab, variant: Variant, level: Level, games: usize) -> Result<(Values, OddsElos)> {
    let mut elos = Vec::new();
    let mut played = 0;
    for piece in Odds::of(variant) {
        let spec = lab.odds(variant, level, piece)?;
        let records = lab.games_of(&spec, games)?;
        played += records.len();
        let wdl = tally::wdl(records.iter().map(|g| g.score_of(giver(g.number))));
        elos.push((piece.role(), stats::elo(wdl)));
    }
    let mut out = Values {
        n: played,
        ..Values::default()
    };
    let pawn = elos.iter().find(|e| e.0 == Role::Pawn).and_then(|e| e.1);
    for &(role, elo) in &elos {
        match (elo, pawn) {
            (Some(e), Some(p)) => match stats::odds_to_pawns(e, p) {
                Some(v) => out.values.push((role, v)),
                None => out.notes.push(format!(
                    "{variant}: the pawn's odds cost no Elo here, so no piece converts to pawns"
                )),
            },
            (None, _) => out.notes.push(format!(
                "{variant}: the side without the {} scored 0% or 100% in {games} games: no finite Elo, no value by odds",
                title(role).to_lowercase()
            )),
            (Some(_), None) => {}
        }
    }
    out.notes.dedup();
    Ok((out, elos))
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
                    "{variant}: the {} is {} pawns by odds but {} by the fit: the 95% intervals do not overlap",
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
