//! `springboard levels`: the levels' ratings fitted to a ladder's match
//! results (docs/engine.md, "The levels' ratings"). The committed ladders
//! are `levels/<game>.txt`; the rating tables in
//! `crates/engine/src/strength.rs` must be what this fit gives for them, and
//! a test below checks that they are.
//!
//! The input is the output of `springboard match` runs (as
//! `scripts/level-ladder.sh` writes it) whose results are headed by lines
//! such as
//!
//! ```text
//! === skill A vs skill B, ...
//! === skill A vs Fairy-Stockfish UCI_Elo=E, ...
//! === material1 vs skill A, ...      (the 1-ply material player)
//! ```
//!
//! each followed by the `engine1 ...: W wins, D draws, L losses` line.
//! A line `# anchor: skill 0=1000` fixes a player's rating (the variants,
//! where no outside engine plays, are anchored so); every Fairy-Stockfish
//! match is an anchor too (its `UCI_Elo`).
//!
//! The fit: each match gives an Elo difference with its standard error (at
//! least 20); the ratings are the weighted least-squares solution
//! (weights 1/se). A match won or lost without exception has no finite
//! difference: it counts with one more draw, a rough lower bound of the
//! gap. A higher skill searches deeper with less randomness, so where the
//! fit puts a level below a weaker one the two share their weighted mean
//! (pool-adjacent-violators, weights 1/se^2). Skills that played no match
//! lie on the straight line between their measured neighbours. Ratings are
//! rounded to tens (half to even).

use anyhow::{bail, Context, Result};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;

/// The number of skill levels (0 to 20).
pub const SKILLS: usize = 21;

#[derive(clap::Args)]
pub struct LevelsArgs {
    /// A player's fixed rating, e.g. "skill 0=1000" (besides the files'
    /// own `# anchor:` lines and their Fairy-Stockfish matches).
    #[arg(long, value_name = "PLAYER=R")]
    anchor: Vec<String>,
    /// Ladder files: `springboard match` output headed by `=== A vs B` lines.
    #[arg(required = true)]
    files: Vec<PathBuf>,
}

/// One player of a ladder.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Player {
    /// The 1-ply material player.
    Material,
    /// Springboard at a skill level.
    Skill(u8),
    /// Fairy-Stockfish at a `UCI_Elo`: a fixed rating.
    Fsf(u32),
}

impl Player {
    fn parse(text: &str) -> Option<Player> {
        let text = text.trim();
        if text == "material1" {
            return Some(Player::Material);
        }
        if let Some(n) = text.strip_prefix("skill ") {
            return n
                .parse()
                .ok()
                .filter(|&s: &u8| usize::from(s) < SKILLS)
                .map(Player::Skill);
        }
        text.strip_prefix("Fairy-Stockfish UCI_Elo=")
            .and_then(|e| e.parse().ok())
            .map(Player::Fsf)
    }

    fn name(self) -> String {
        match self {
            Player::Material => "material1".to_string(),
            Player::Skill(s) => format!("skill {s}"),
            Player::Fsf(e) => format!("Fairy-Stockfish UCI_Elo={e}"),
        }
    }
}

/// Wins, draws and losses of the first-named player.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

/// A ladder's results (summed over repeated pairings) and anchors.
#[derive(Debug, Default)]
pub struct Ladder {
    pub results: BTreeMap<(Player, Player), Wdl>,
    pub anchors: BTreeMap<Player, f64>,
}

impl Ladder {
    /// Reads one ladder text into this ladder.
    pub fn read(&mut self, text: &str) -> Result<()> {
        let mut current = None;
        for line in text.lines() {
            if let Some(rest) = line.strip_prefix("# anchor:") {
                self.add_anchor(rest)?;
            } else if let Some(rest) = line.strip_prefix("=== ") {
                let head = rest.split(',').next().unwrap_or("");
                current = head
                    .split_once(" vs ")
                    .and_then(|(a, b)| Some((Player::parse(a)?, Player::parse(b)?)));
            } else if line.starts_with("engine1 ") {
                if let (Some(pair), Some(wdl)) = (current.take(), parse_wdl(line)) {
                    let sum = self.results.entry(pair).or_default();
                    sum.wins += wdl.wins;
                    sum.draws += wdl.draws;
                    sum.losses += wdl.losses;
                }
            }
        }
        Ok(())
    }

    /// Adds an anchor written "PLAYER=R".
    pub fn add_anchor(&mut self, text: &str) -> Result<()> {
        let (name, value) = text
            .trim()
            .rsplit_once('=')
            .with_context(|| format!("an anchor is PLAYER=R, not {text:?}"))?;
        let player = Player::parse(name)
            .with_context(|| format!("no such player in an anchor: {name:?}"))?;
        let value: f64 = value
            .trim()
            .parse()
            .with_context(|| format!("bad rating {value:?}"))?;
        self.anchors.insert(player, value);
        Ok(())
    }
}

/// `engine1 (...) vs engine2 (...): W wins, D draws, L losses, ...`
fn parse_wdl(line: &str) -> Option<Wdl> {
    let (_, counts) = line.split_once("): ")?;
    let mut words = counts.split(", ");
    let mut count =
        |word: &str| -> Option<u32> { words.next()?.strip_suffix(word)?.trim().parse().ok() };
    Some(Wdl {
        wins: count(" wins")?,
        draws: count(" draws")?,
        losses: count(" losses")?,
    })
}

/// The Elo difference of a score, the score kept within (0.0005, 0.9995).
fn elo(p: f64) -> f64 {
    let p = p.clamp(0.5 / 1000.0, 1.0 - 0.5 / 1000.0);
    -400.0 * (1.0 / p - 1.0).log10()
}

/// One match's figures: games, score, Elo difference with its 95% interval
/// and its standard error in Elo (at least 20).
#[derive(Clone, Copy, Debug)]
pub struct MatchFigures {
    pub games: u32,
    pub score: f64,
    pub elo: f64,
    pub low: f64,
    pub high: f64,
    pub se: f64,
}

pub fn figures(wdl: Wdl) -> MatchFigures {
    let (w, mut d, l) = (
        f64::from(wdl.wins),
        f64::from(wdl.draws),
        f64::from(wdl.losses),
    );
    if w + d == 0.0 || d + l == 0.0 {
        d += 1.0;
    }
    let n = w + d + l;
    let p = (w + 0.5 * d) / n;
    let var = (w * (1.0 - p).powi(2) + d * (0.5 - p).powi(2) + l * p.powi(2)) / n;
    let se = (var / n).sqrt();
    let (low, high) = (elo(p - 1.96 * se), elo(p + 1.96 * se));
    MatchFigures {
        games: wdl.wins + wdl.draws + wdl.losses,
        score: p,
        elo: elo(p),
        low,
        high,
        se: ((high - low) / 3.92).max(20.0),
    }
}

/// The fitted ratings.
#[derive(Debug)]
pub struct Fit {
    /// Each player's rating and standard error, as fitted.
    pub fitted: BTreeMap<Player, (f64, f64)>,
    /// Groups of skills the fit could not tell apart (pooled).
    pub pooled: Vec<Vec<u8>>,
    /// Skill 0 to 20, rounded to tens.
    pub ratings: [u32; SKILLS],
}

/// Fits the ratings of a ladder's players.
pub fn fit(ladder: &Ladder) -> Result<Fit> {
    let players: Vec<Player> = {
        let mut set: Vec<Player> = ladder
            .results
            .keys()
            .flat_map(|&(a, b)| [a, b])
            .filter(|p| !matches!(p, Player::Fsf(_)))
            .collect();
        set.sort();
        set.dedup();
        set
    };
    let k = players.len();
    let idx = |p: Player| players.iter().position(|&q| q == p);
    // Rows of the design matrix, right-hand sides and weights.
    let mut rows: Vec<(Vec<f64>, f64, f64)> = Vec::new();
    for (&(a, b), &wdl) in &ladder.results {
        let f = figures(wdl);
        let mut r = vec![0.0; k];
        let Some(ia) = idx(a) else {
            bail!(
                "a Fairy-Stockfish player must be named second: {} vs {}",
                a.name(),
                b.name()
            );
        };
        r[ia] = 1.0;
        let rhs = match b {
            Player::Fsf(rating) => f64::from(rating) + f.elo,
            _ => {
                r[idx(b).expect("every non-anchor player is listed")] = -1.0;
                f.elo
            }
        };
        rows.push((r, rhs, 1.0 / f.se));
    }
    for (&player, &value) in &ladder.anchors {
        let Some(i) = idx(player) else {
            bail!("the anchor {} played no match", player.name());
        };
        let mut r = vec![0.0; k];
        r[i] = 1.0;
        rows.push((r, value, 1.0));
    }
    let fsf_matches = ladder
        .results
        .keys()
        .any(|(_, b)| matches!(b, Player::Fsf(_)));
    if !fsf_matches && ladder.anchors.is_empty() {
        bail!("no anchor: the ratings need a Fairy-Stockfish match or an anchor such as \"skill 0=1000\"");
    }
    // The normal equations.
    let mut normal = vec![vec![0.0; k]; k];
    let mut b = vec![0.0; k];
    for (r, y, w) in &rows {
        for i in 0..k {
            b[i] += w * w * r[i] * y;
            for j in 0..k {
                normal[i][j] += w * w * r[i] * r[j];
            }
        }
    }
    let cov = invert(&normal).context("the matches do not link every player to an anchor")?;
    let x: Vec<f64> = (0..k)
        .map(|i| (0..k).map(|j| cov[i][j] * b[j]).sum())
        .collect();
    let fitted: BTreeMap<Player, (f64, f64)> = players
        .iter()
        .enumerate()
        .map(|(i, &p)| (p, (x[i], cov[i][i].max(0.0).sqrt())))
        .collect();

    // Pool adjacent violators over the measured skills.
    let measured: Vec<u8> = players
        .iter()
        .filter_map(|p| match p {
            Player::Skill(s) => Some(*s),
            _ => None,
        })
        .collect();
    let mut blocks: Vec<(f64, f64, Vec<u8>)> = Vec::new();
    for &m in &measured {
        let (rating, se) = fitted[&Player::Skill(m)];
        let wt = 1.0 / se.max(1.0).powi(2);
        blocks.push((rating * wt, wt, vec![m]));
        while blocks.len() > 1 {
            let n = blocks.len();
            if blocks[n - 2].0 / blocks[n - 2].1 <= blocks[n - 1].0 / blocks[n - 1].1 {
                break;
            }
            let last = blocks.pop().expect("two blocks");
            let prev = blocks.last_mut().expect("two blocks");
            prev.0 += last.0;
            prev.1 += last.1;
            prev.2.extend(last.2);
        }
    }
    let mut mono = BTreeMap::new();
    for (total, weight, members) in &blocks {
        for &m in members {
            mono.insert(m, total / weight);
        }
    }
    let pooled = blocks
        .iter()
        .filter(|b| b.2.len() > 1)
        .map(|b| b.2.clone())
        .collect();

    let mut ratings = [0u32; SKILLS];
    for (s, slot) in ratings.iter_mut().enumerate() {
        let s = u8::try_from(s).expect("21 skills");
        let r = match mono.get(&s) {
            Some(&r) => r,
            None => {
                let lo = measured.iter().copied().filter(|&m| m < s).max();
                let hi = measured.iter().copied().filter(|&m| m > s).min();
                let (Some(lo), Some(hi)) = (lo, hi) else {
                    bail!("skill {s} lies outside the measured skills {measured:?}");
                };
                mono[&lo] + (mono[&hi] - mono[&lo]) * f64::from(s - lo) / f64::from(hi - lo)
            }
        };
        let tens = (r / 10.0).round_ties_even();
        if !(0.0..=1e6).contains(&tens) {
            bail!("skill {s} fits to {r:.0}, outside any rating");
        }
        // In range, checked above.
        *slot = tens as u32 * 10;
    }
    Ok(Fit {
        fitted,
        pooled,
        ratings,
    })
}

/// The inverse of a square matrix (Gauss-Jordan with partial pivoting), or
/// None where it is singular.
fn invert(m: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = m.len();
    let mut a: Vec<Vec<f64>> = m
        .iter()
        .enumerate()
        .map(|(i, row)| {
            let mut r = row.clone();
            r.extend((0..n).map(|j| if i == j { 1.0 } else { 0.0 }));
            r
        })
        .collect();
    for c in 0..n {
        let p = (c..n).max_by(|&x, &y| a[x][c].abs().total_cmp(&a[y][c].abs()))?;
        a.swap(c, p);
        let pivot = a[c][c];
        if pivot.abs() < 1e-12 {
            return None;
        }
        for v in a[c].iter_mut() {
            *v /= pivot;
        }
        let pivot_row = a[c].clone();
        for (r, row) in a.iter_mut().enumerate() {
            if r != c {
                let f = row[c];
                for (v, pv) in row.iter_mut().zip(&pivot_row) {
                    *v -= f * pv;
                }
            }
        }
    }
    Some(a.into_iter().map(|row| row[n..].to_vec()).collect())
}

/// The report `springboard levels` prints: each match, each fitted player,
/// the pooled skills and the table of ratings.
pub fn report(ladder: &Ladder, fit: &Fit) -> String {
    let mut out = String::new();
    out.push_str("| match | games | W-D-L (first named) | score | Elo difference (95%) |\n");
    out.push_str("|---|---|---|---|---|\n");
    for (&(a, b), &wdl) in &ladder.results {
        let f = figures(wdl);
        let _ = writeln!(
            out,
            "| {} vs {} | {} | {}-{}-{} | {:.1}% | {:+.0} ({:+.0} to {:+.0}) |",
            a.name(),
            b.name(),
            f.games,
            wdl.wins,
            wdl.draws,
            wdl.losses,
            100.0 * f.score,
            f.elo,
            f.low,
            f.high
        );
    }
    out.push_str("\n| player | rating | +- (1 s.e.) |\n|---|---|---|\n");
    for (p, (rating, se)) in &fit.fitted {
        let _ = writeln!(
            out,
            "| {} | {:.0} | {:.0} |",
            p.name(),
            (rating / 10.0).round() * 10.0,
            se
        );
    }
    if !fit.pooled.is_empty() {
        let groups: Vec<String> = fit
            .pooled
            .iter()
            .map(|g| {
                g.iter()
                    .map(|s| format!("skill {s}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            })
            .collect();
        let _ = writeln!(
            out,
            "\npooled (not told apart by the matches): {}",
            groups.join("; ")
        );
    }
    let table: Vec<String> = fit.ratings.iter().map(u32::to_string).collect();
    let _ = writeln!(out, "\nRATINGS [{}]", table.join(", "));
    out
}

pub fn run(args: &LevelsArgs) -> Result<()> {
    let mut ladder = Ladder::default();
    for file in &args.files {
        let text =
            std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
        ladder.read(&text)?;
    }
    for anchor in &args.anchor {
        ladder.add_anchor(anchor)?;
    }
    let fit = fit(&ladder)?;
    print!("{}", report(&ladder, &fit));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use springboard_engine::Strength;
    use springboard_rules::Variant;

    fn ladder_of(variant: Variant) -> Ladder {
        let path = format!(
            "{}/../../levels/{}.txt",
            env!("CARGO_MANIFEST_DIR"),
            variant.name()
        );
        let text = std::fs::read_to_string(&path).expect("the committed ladder");
        let mut ladder = Ladder::default();
        ladder.read(&text).expect("a ladder");
        ladder
    }

    #[test]
    fn the_engines_rating_tables_are_the_fit_of_the_committed_ladders() {
        for variant in Variant::ALL {
            let fit = fit(&ladder_of(variant)).expect("a fit");
            let table: Vec<u32> = (0..21)
                .map(|s| Strength::from_skill(s).rating(variant))
                .collect();
            assert_eq!(
                table,
                fit.ratings,
                "crates/engine/src/strength.rs's {} table is not the fit of levels/{}.txt \
                 (`springboard levels levels/{}.txt`)",
                variant.name(),
                variant.name(),
                variant.name()
            );
        }
    }

    #[test]
    fn matches_are_summed_and_anchors_read() {
        let mut ladder = Ladder::default();
        ladder
            .read(
                "# anchor: skill 0=1000\n\
                 === skill 0 vs skill 2, 10 games, x\n\
                 engine1 (A) vs engine2 (B): 2 wins, 1 draws, 7 losses, score 25.0%\n\
                 === skill 0 vs skill 2, 10 games, x\n\
                 engine1 (A) vs engine2 (B): 3 wins, 2 draws, 5 losses, score 40.0%\n",
            )
            .unwrap();
        assert_eq!(
            ladder.results[&(Player::Skill(0), Player::Skill(2))],
            Wdl {
                wins: 5,
                draws: 3,
                losses: 12
            }
        );
        assert_eq!(ladder.anchors[&Player::Skill(0)], 1000.0);
    }

    #[test]
    fn an_even_match_puts_two_skills_level_and_a_sweep_counts_one_draw() {
        let even = figures(Wdl {
            wins: 10,
            draws: 0,
            losses: 10,
        });
        assert_eq!(even.elo, 0.0);
        let sweep = figures(Wdl {
            wins: 20,
            draws: 0,
            losses: 0,
        });
        // 20-0 counts as 20-1-0: 20.5 / 21.
        assert!((sweep.score - 20.5 / 21.0).abs() < 1e-12);
    }

    #[test]
    fn a_level_fitted_below_a_weaker_one_is_pooled_with_it() {
        let mut ladder = Ladder::default();
        ladder
            .read(
                "# anchor: skill 0=1000\n\
                 === skill 0 vs skill 10, 40 games\n\
                 engine1 (A) vs engine2 (B): 5 wins, 0 draws, 35 losses, score 12.5%\n\
                 === skill 10 vs skill 20, 40 games\n\
                 engine1 (A) vs engine2 (B): 25 wins, 0 draws, 15 losses, score 62.5%\n",
            )
            .unwrap();
        let fit = fit(&ladder).unwrap();
        assert_eq!(fit.pooled, vec![vec![10, 20]]);
        assert_eq!(fit.ratings[10], fit.ratings[20]);
        assert_eq!(fit.ratings[0], 1000);
        // Skill 5 lies halfway between skills 0 and 10.
        let mid = (f64::from(fit.ratings[0]) + f64::from(fit.ratings[10])) / 2.0;
        assert!((f64::from(fit.ratings[5]) - mid).abs() <= 10.0);
    }

    #[test]
    fn unlinked_players_and_missing_anchors_are_refused() {
        let mut ladder = Ladder::default();
        ladder
            .read(
                "=== skill 0 vs skill 2, 2 games\n\
                 engine1 (A) vs engine2 (B): 1 wins, 0 draws, 1 losses, score 50.0%\n",
            )
            .unwrap();
        assert!(fit(&ladder).unwrap_err().to_string().contains("no anchor"));
        ladder.add_anchor("skill 0=1000").unwrap();
        ladder
            .read(
                "=== skill 4 vs skill 6, 2 games\n\
                 engine1 (A) vs engine2 (B): 1 wins, 0 draws, 1 losses, score 50.0%\n",
            )
            .unwrap();
        assert!(fit(&ladder)
            .unwrap_err()
            .to_string()
            .contains("do not link"));
        assert!(ladder.add_anchor("nobody=5").is_err());
    }
}
