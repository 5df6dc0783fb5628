//! The lab's statistics: proportions and scores with their Wilson 95%
//! intervals, Elo (from the arena's [`Wdl`]: one formula for matches and
//! the lab), where a series of exchange matches crosses 50% (a piece's
//! worth in pawns), and the logistic fit of game results on material with
//! its intervals by a bootstrap over games.

pub use crate::arena::stats::Wdl;
use crate::suites::Rng;

/// The normal quantile of a two-sided 95% interval.
pub const Z95: f64 = 1.959_964;

/// An estimate with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    pub value: f64,
    pub lo: f64,
    pub hi: f64,
}

impl Estimate {
    /// The estimate if all three numbers are finite.
    pub fn finite(self) -> Option<Estimate> {
        (self.value.is_finite() && self.lo.is_finite() && self.hi.is_finite()).then_some(self)
    }

    /// Every number times `k` (a share as a percentage), the bounds kept in order.
    pub fn scaled(self, k: f64) -> Estimate {
        let (a, b) = (self.lo * k, self.hi * k);
        Estimate {
            value: self.value * k,
            lo: a.min(b),
            hi: a.max(b),
        }
    }
}

/// The share `k` of `n` with its Wilson score interval (`None` for n = 0).
pub fn wilson(k: u64, n: u64) -> Option<Estimate> {
    if k > n {
        return None;
    }
    wilson_points(k as f64, n as f64)
}

/// The Wilson score interval of `points` out of `n` trials (points may be
/// halves: a drawn game is half a point); `None` for n = 0.
fn wilson_points(points: f64, n: f64) -> Option<Estimate> {
    if n <= 0.0 || !(0.0..=n).contains(&points) {
        return None;
    }
    let p = points / n;
    let z2 = Z95 * Z95;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    Some(Estimate {
        value: p,
        lo: (centre - half).max(0.0),
        hi: (centre + half).min(1.0),
    })
}

/// The mean score per game (wins 1, draws 1/2) with a Wilson-style 95%
/// interval: the Wilson interval of the points (a draw half a point) out
/// of the games. Unlike the normal interval it never collapses to a point
/// when every game has the same result (`None` without games).
pub fn score(wdl: Wdl) -> Option<Estimate> {
    let n = f64::from(wdl.games());
    let points = f64::from(wdl.wins) + 0.5 * f64::from(wdl.draws);
    wilson_points(points, n)
}

/// The Elo difference of a score and its 95% interval (`None` at 0% or
/// 100%, where it is infinite).
pub fn elo(wdl: Wdl) -> Option<Estimate> {
    wdl.elo()
        .map(|(value, lo, hi)| Estimate { value, lo, hi })
        .and_then(Estimate::finite)
}

/// The mean of `xs` with its normal 95% interval (`None` for fewer than two).
pub fn mean(xs: &[f64]) -> Option<Estimate> {
    if xs.len() < 2 {
        return None;
    }
    let n = xs.len() as f64;
    let m = xs.iter().sum::<f64>() / n;
    let var = xs.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (n - 1.0);
    let half = Z95 * (var / n).sqrt();
    Estimate {
        value: m,
        lo: m - half,
        hi: m + half,
    }
    .finite()
}

/// The standard error behind a symmetric-enough 95% interval.
pub fn se_of(e: Estimate) -> f64 {
    (e.hi - e.lo) / (2.0 * Z95)
}

/// One exchange match: the side without the piece against the side
/// without `k` pawns (and the same base, for a piece measured against
/// another), scored for the side without the piece, with that score's Elo
/// (`None` at 0% or 100%).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Exchange {
    pub k: f64,
    pub score: f64,
    pub elo: Option<Estimate>,
}

/// Where a series of exchange matches crosses 50%: the piece's worth in
/// pawns, or a bound when the matches do not give one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Crossing {
    /// Interpolated between two matches' Elo, with its 95% interval.
    Value(Estimate),
    /// The crossing lies between these two k, but one of their matches
    /// scored 0% or 100% (no finite Elo to interpolate on).
    Between(f64, f64),
    /// Every match was below 50% for the side without the piece: it is
    /// worth more than the largest k played.
    Above(f64),
    /// Every match was above 50%: worth less than the smallest k.
    Below(f64),
}

impl Crossing {
    /// The crossing plus `base` (a piece measured against another piece
    /// and k pawns is worth the other piece plus k): the standard errors
    /// add in quadrature (the matches are independent); a bound moves by
    /// the base's far end, so it stays a bound.
    pub fn plus(self, base: Estimate) -> Crossing {
        match self {
            Crossing::Value(e) => {
                let se = (se_of(e).powi(2) + se_of(base).powi(2)).sqrt();
                let value = e.value + base.value;
                Crossing::Value(Estimate {
                    value,
                    lo: value - Z95 * se,
                    hi: value + Z95 * se,
                })
            }
            Crossing::Between(a, b) => Crossing::Between(a + base.lo, b + base.hi),
            Crossing::Above(k) => Crossing::Above(k + base.lo),
            Crossing::Below(k) => Crossing::Below(k + base.hi),
        }
    }

    /// In words, for answers and notes: "3.10 [2.71, 3.49]", "more than 4".
    pub fn text(self) -> String {
        match self {
            Crossing::Value(e) => format!("{:.2} [{:.2}, {:.2}]", e.value, e.lo, e.hi),
            Crossing::Between(a, b) => format!("between {a:.2} and {b:.2}"),
            Crossing::Above(k) => format!("more than {k:.2}"),
            Crossing::Below(k) => format!("less than {k:.2}"),
        }
    }
}

/// Where the matches (in increasing k) cross 50%. At the first pair of
/// neighbours on either side of 50% (or on it), k is interpolated linearly
/// on their Elo: k* = k_a - e_a (k_b - k_a) / (e_b - e_a); its 95%
/// interval by the delta method from the two Elo's standard errors:
/// var k* = (k_b - k_a)^2 (e_b^2 var e_a + e_a^2 var e_b) / (e_b - e_a)^4.
/// `None` without matches.
pub fn crossing(matches: &[Exchange]) -> Option<Crossing> {
    let first = matches.first()?;
    for w in matches.windows(2) {
        let (a, b) = (w[0], w[1]);
        if (a.score - 0.5) * (b.score - 0.5) > 0.0 {
            continue;
        }
        let (Some(ea), Some(eb)) = (a.elo, b.elo) else {
            return Some(Crossing::Between(a.k, b.k));
        };
        let d = eb.value - ea.value;
        if d == 0.0 {
            return Some(Crossing::Between(a.k, b.k));
        }
        let dk = b.k - a.k;
        let value = a.k - ea.value * dk / d;
        let var =
            dk * dk * (eb.value.powi(2) * se_of(ea).powi(2) + ea.value.powi(2) * se_of(eb).powi(2))
                / d.powi(4);
        let half = Z95 * var.sqrt();
        return Some(
            Estimate {
                value,
                lo: value - half,
                hi: value + half,
            }
            .finite()
            .map_or(Crossing::Between(a.k, b.k), Crossing::Value),
        );
    }
    let last = matches[matches.len() - 1];
    Some(if first.score < 0.5 {
        Crossing::Above(last.k)
    } else {
        Crossing::Below(first.k)
    })
}

/// The `q` quantile of sorted `xs` (linear between order statistics:
/// position q (n - 1)); `None` when empty.
pub fn percentile(xs: &[f64], q: f64) -> Option<f64> {
    let last = xs.len().checked_sub(1)?;
    let pos = q.clamp(0.0, 1.0) * last as f64;
    let i = pos.floor() as usize;
    let frac = pos - i as f64;
    let next = xs[(i + 1).min(last)];
    Some(xs[i] + frac * (next - xs[i]))
}

/// A row of the fit: its features and its target.
pub type Row = (Vec<f64>, f64);

/// Draws of the bootstrap over games.
pub const BOOTSTRAP_DRAWS: usize = 200;
/// The bootstrap's seed: the same games give the same intervals.
pub const BOOTSTRAP_SEED: u64 = 43;

/// Fits the rows of `games` (each game's positions together) and gives
/// each feature's coefficient over the first's (a piece over the pawn),
/// with a 95% interval by a percentile bootstrap over games: `draws`
/// times, as many games as there are are drawn with replacement (whole
/// games: a game's positions share its result, so they are not
/// independent), refitted, and the 2.5% and 97.5% quantiles of the ratios
/// taken. A feature has no interval (`None`) where fewer than 95% of the
/// draws give a finite ratio.
pub fn fit_ratios(
    games: &[Vec<Row>],
    draws: usize,
    seed: u64,
) -> Result<Vec<Option<Estimate>>, FitError> {
    let rows: Vec<Row> = games.iter().flatten().cloned().collect();
    let fit = Logistic::fit(&rows)?;
    let k = fit.coef.len() - 1;
    let mut samples = vec![Vec::with_capacity(draws); k];
    let mut rng = Rng::new(seed);
    for _ in 0..draws {
        let rows: Vec<Row> = (0..games.len())
            .flat_map(|_| games[rng.below(games.len())].iter().cloned())
            .collect();
        if let Ok(f) = Logistic::fit(&rows) {
            for (i, s) in samples.iter_mut().enumerate() {
                let r = f.coef[i + 1] / f.coef[1];
                if r.is_finite() {
                    s.push(r);
                }
            }
        }
    }
    Ok(samples
        .into_iter()
        .enumerate()
        .map(|(i, mut s)| {
            let value = fit.ratio(i + 1, 1)?.value;
            if s.len() * 20 < draws * 19 {
                return None;
            }
            s.sort_by(f64::total_cmp);
            Estimate {
                value,
                lo: percentile(&s, 0.025)?,
                hi: percentile(&s, 0.975)?,
            }
            .finite()
        })
        .collect())
}

/// A logistic fit: P(result) = 1 / (1 + e^-(b0 + sum b_i x_i)), fitted by
/// maximum likelihood (Newton's method) to targets in [0, 1] (a draw is
/// 1/2: the likelihood of a fractional result, as the tuner does).
#[derive(Clone, Debug, PartialEq)]
pub struct Logistic {
    /// The intercept first, then one coefficient per feature.
    pub coef: Vec<f64>,
    /// Their standard errors (from the inverse of the Fisher information).
    pub se: Vec<f64>,
    /// The covariance matrix of the coefficients.
    pub cov: Vec<Vec<f64>>,
}

/// Why a fit has no answer.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum FitError {
    #[error("no rows to fit")]
    Empty,
    #[error("the rows do not tell the coefficients apart (a feature never varies)")]
    Singular,
    #[error("Newton's method did not settle")]
    NoConvergence,
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// Inverts a small symmetric positive definite matrix (Gauss-Jordan with
/// partial pivoting); `None` when it is singular.
fn invert(m: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = m.len();
    let mut a: Vec<Vec<f64>> = m.to_vec();
    let mut inv: Vec<Vec<f64>> = (0..n)
        .map(|i| (0..n).map(|j| if i == j { 1.0 } else { 0.0 }).collect())
        .collect();
    let scale = m
        .iter()
        .enumerate()
        .map(|(i, r)| r[i].abs())
        .fold(0.0, f64::max);
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))?;
        if a[pivot][col].abs() <= 1e-10 * scale.max(1e-300) {
            return None;
        }
        a.swap(col, pivot);
        inv.swap(col, pivot);
        let p = a[col][col];
        for j in 0..n {
            a[col][j] /= p;
            inv[col][j] /= p;
        }
        for row in 0..n {
            if row != col {
                let f = a[row][col];
                if f != 0.0 {
                    for j in 0..n {
                        a[row][j] -= f * a[col][j];
                        inv[row][j] -= f * inv[col][j];
                    }
                }
            }
        }
    }
    Some(inv)
}

impl Logistic {
    /// Fits `rows` (features, target). Every row has the same number of
    /// features; the intercept is added here.
    pub fn fit(rows: &[(Vec<f64>, f64)]) -> Result<Logistic, FitError> {
        let Some(first) = rows.first() else {
            return Err(FitError::Empty);
        };
        let k = first.0.len() + 1;
        // The rows with the intercept's 1 in front.
        let xs: Vec<Vec<f64>> = rows
            .iter()
            .map(|row| std::iter::once(1.0).chain(row.0.iter().copied()).collect())
            .collect();
        // The gradient of the log-likelihood and its information matrix at b.
        let moments = |b: &[f64]| {
            let mut grad = vec![0.0; k];
            let mut info = vec![vec![0.0; k]; k];
            for (x, row) in xs.iter().zip(rows) {
                let z: f64 = b.iter().zip(x).map(|(b, x)| b * x).sum();
                let p = sigmoid(z);
                let w = p * (1.0 - p);
                for (i, line) in info.iter_mut().enumerate() {
                    grad[i] += (row.1 - p) * x[i];
                    for (j, h) in line.iter_mut().enumerate() {
                        *h += w * x[i] * x[j];
                    }
                }
            }
            (grad, info)
        };
        let mut b = vec![0.0; k];
        for _ in 0..100 {
            let (grad, info) = moments(&b);
            let inv = invert(&info).ok_or(FitError::Singular)?;
            let step: Vec<f64> = inv
                .iter()
                .map(|line| line.iter().zip(&grad).map(|(a, g)| a * g).sum())
                .collect();
            for (b, s) in b.iter_mut().zip(&step) {
                *b += s;
            }
            if b.iter().any(|v| !v.is_finite() || v.abs() > 50.0) {
                // A feature that separates the results: no finite answer.
                return Err(FitError::Singular);
            }
            if step.iter().all(|s| s.abs() < 1e-10) {
                let (_, info) = moments(&b);
                let cov = invert(&info).ok_or(FitError::Singular)?;
                let se = (0..k).map(|i| cov[i][i].max(0.0).sqrt()).collect();
                return Ok(Logistic { coef: b, se, cov });
            }
        }
        Err(FitError::NoConvergence)
    }

    /// Coefficient `i` (1-based: 0 is the intercept) over coefficient `j`,
    /// with its 95% interval by the delta method with their covariance.
    pub fn ratio(&self, i: usize, j: usize) -> Option<Estimate> {
        let (a, b) = (self.coef[i], self.coef[j]);
        if b == 0.0 {
            return None;
        }
        let r = a / b;
        // Gradient of a/b: (1/b, -a/b^2).
        let (ga, gb) = (1.0 / b, -a / (b * b));
        let var =
            ga * ga * self.cov[i][i] + gb * gb * self.cov[j][j] + 2.0 * ga * gb * self.cov[i][j];
        let half = Z95 * var.max(0.0).sqrt();
        Estimate {
            value: r,
            lo: r - half,
            hi: r + half,
        }
        .finite()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn near(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    /// 8 of 10, worked by hand: z^2 = 3.8415, centre = (0.8 + 0.19208) /
    /// 1.38416 = 0.71673, half = 1.96 sqrt(0.016 + 0.0096) / 1.38416 =
    /// 0.22658: [0.4902, 0.9433].
    #[test]
    fn wilson_interval_of_eight_in_ten() {
        let e = wilson(8, 10).unwrap();
        assert!(near(e.value, 0.8, 1e-12));
        assert!(near(e.lo, 0.4902, 1e-4), "{e:?}");
        assert!(near(e.hi, 0.9433, 1e-4), "{e:?}");
        // 0 of 10: from 0 to 3.8415 / 13.8415 = 0.2775.
        let none = wilson(0, 10).unwrap();
        assert_eq!(none.lo, 0.0);
        assert!(near(none.hi, 0.2775, 1e-4), "{none:?}");
        assert_eq!(wilson(0, 0), None);
        assert_eq!(wilson(3, 2), None);
    }

    /// 60 wins, 20 draws, 20 losses: 70 points of 100, score 0.7. Wilson:
    /// centre (0.7 + 0.019207) / 1.038415 = 0.692605, half 1.96 sqrt(0.0021 +
    /// 0.000096) / 1.038415 = 0.088450: [0.6042, 0.7811]. Elo -400
    /// log10(1/s - 1): 147.2 [86.2, 218.3] (the arena's formula).
    #[test]
    fn score_and_elo_with_intervals() {
        let wdl = Wdl {
            wins: 60,
            draws: 20,
            losses: 20,
        };
        let s = score(wdl).unwrap();
        assert!(near(s.value, 0.7, 1e-12));
        assert!(
            near(s.lo, 0.6042, 1e-4) && near(s.hi, 0.7811, 1e-4),
            "{s:?}"
        );
        let e = elo(wdl).unwrap();
        assert!(near(e.value, 147.19, 0.01), "{e:?}");
        assert!(near(e.lo, 86.22, 0.05), "{e:?}");
        assert!(near(e.hi, 218.25, 0.05), "{e:?}");
        assert_eq!(
            elo(Wdl {
                wins: 5,
                draws: 0,
                losses: 0
            }),
            None
        );
        assert_eq!(score(Wdl::default()), None);
    }

    /// The same result in every game still has an interval: 10 losses of
    /// 10 is [0, 0.2775] (as 0 of 10 above), 10 draws of 10 is 5 points of
    /// 10: centre 0.5, half 1.96 sqrt(0.025 + 0.0096) / 1.38415 = 0.26341:
    /// [0.2366, 0.7634].
    #[test]
    fn a_score_interval_never_collapses() {
        let lost = score(Wdl {
            wins: 0,
            draws: 0,
            losses: 10,
        })
        .unwrap();
        assert_eq!((lost.value, lost.lo), (0.0, 0.0));
        assert!(near(lost.hi, 0.2775, 1e-4), "{lost:?}");
        let drawn = score(Wdl {
            wins: 0,
            draws: 10,
            losses: 0,
        })
        .unwrap();
        assert!(near(drawn.value, 0.5, 1e-12));
        assert!(
            near(drawn.lo, 0.2366, 1e-4) && near(drawn.hi, 0.7634, 1e-4),
            "{drawn:?}"
        );
    }

    fn elo_of(value: f64, se: f64) -> Option<Estimate> {
        Some(Estimate {
            value,
            lo: value - Z95 * se,
            hi: value + Z95 * se,
        })
    }

    /// Knight against 2 pawns: -100 Elo (se 20) for the side without the
    /// knight; against 4 pawns +50 (se 20). k* = 2 + 100 x 2 / 150 =
    /// 3.3333; var = 4 (50^2 20^2 + 100^2 20^2) / 150^4 = 0.039506, se
    /// 0.19876, interval [2.9438, 3.7229]. A match at 0% gives no Elo: a
    /// bound between its k and the next; all on one side: a bound.
    #[test]
    fn exchange_crossing_by_hand() {
        let m = |k: f64, score: f64, elo| Exchange { k, score, elo };
        let matches = [
            m(2.0, 0.36, elo_of(-100.0, 20.0)),
            m(4.0, 0.57, elo_of(50.0, 20.0)),
            m(5.0, 0.8, elo_of(240.0, 30.0)),
        ];
        let Some(Crossing::Value(v)) = crossing(&matches) else {
            panic!("{:?}", crossing(&matches));
        };
        assert!(near(v.value, 3.3333, 1e-4), "{v:?}");
        assert!(
            near(v.lo, 2.9438, 1e-4) && near(v.hi, 3.7229, 1e-4),
            "{v:?}"
        );
        let zero = [m(2.0, 0.0, None), m(4.0, 0.6, elo_of(70.0, 20.0))];
        assert_eq!(crossing(&zero), Some(Crossing::Between(2.0, 4.0)));
        let below = [m(2.0, 0.1, elo_of(-380.0, 50.0)), m(3.0, 0.3, None)];
        assert_eq!(crossing(&below), Some(Crossing::Above(3.0)));
        let above = [m(2.0, 0.7, elo_of(150.0, 30.0)), m(3.0, 1.0, None)];
        assert_eq!(crossing(&above), Some(Crossing::Below(2.0)));
        assert_eq!(crossing(&[]), None);
        // A queen against a rook and k pawns is the rook plus k: 5 (se 0.3)
        // + 3.3333 (se 0.19876) = 8.3333, se sqrt(0.09 + 0.039506) =
        // 0.35987, half 0.70534.
        let rook = elo_of(5.0, 0.3).unwrap();
        let Crossing::Value(q) = Crossing::Value(v).plus(rook) else {
            panic!()
        };
        assert!(near(q.value, 8.3333, 1e-4), "{q:?}");
        assert!(near(q.hi - q.value, 0.70534, 1e-4), "{q:?}");
        assert_eq!(
            Crossing::Above(3.0).plus(rook),
            Crossing::Above(3.0 + rook.lo)
        );
    }

    /// 1..5: the 2.5% quantile is at position 0.1 (1.1), the 97.5% at 3.9
    /// (4.9).
    #[test]
    fn percentiles_by_hand() {
        let xs = [1.0, 2.0, 3.0, 4.0, 5.0];
        assert!(near(percentile(&xs, 0.025).unwrap(), 1.1, 1e-12));
        assert!(near(percentile(&xs, 0.975).unwrap(), 4.9, 1e-12));
        assert_eq!(percentile(&xs, 0.5), Some(3.0));
        assert_eq!(percentile(&[], 0.5), None);
    }

    /// Games of a pawn and a knight difference. Copying every game's
    /// positions ten times over leaves the fit and the bootstrap over
    /// games exactly as they were (the same games are drawn, the same
    /// likelihood up to a factor), where the Fisher information's interval
    /// would narrow by sqrt(10): positions of one game are not independent
    /// evidence.
    #[test]
    fn the_bootstrap_is_over_games() {
        let mut games = Vec::new();
        for i in 0..200 {
            let (x, y) = match i % 8 {
                0..=2 => (vec![1.0, 0.0], 1.0),
                3 => (vec![1.0, 0.0], 0.0),
                4 | 5 => (vec![-1.0, 1.0], 1.0),
                6 => (vec![-1.0, 1.0], 0.0),
                _ => (vec![0.0, -1.0], if i % 16 == 7 { 0.5 } else { 0.0 }),
            };
            games.push(vec![(x, y)]);
        }
        let once = fit_ratios(&games, 100, 7).unwrap();
        let copied: Vec<Vec<Row>> = games.iter().map(|g| vec![g[0].clone(); 10]).collect();
        let tenfold = fit_ratios(&copied, 100, 7).unwrap();
        let (a, b) = (once[1].unwrap(), tenfold[1].unwrap());
        assert!(near(a.value, b.value, 1e-6), "{a:?} {b:?}");
        assert!(
            near(a.lo, b.lo, 1e-6) && near(a.hi, b.hi, 1e-6),
            "{a:?} {b:?}"
        );
        assert!(a.lo < a.value && a.value < a.hi, "{a:?}");
        // The pawn over itself is 1 in every draw.
        assert_eq!(
            once[0],
            Some(Estimate {
                value: 1.0,
                lo: 1.0,
                hi: 1.0
            })
        );
        // The same seed gives the same interval.
        assert_eq!(fit_ratios(&games, 100, 7).unwrap(), once);
    }

    /// 2, 4, 6: mean 4, sample variance 4, se sqrt(4/3) = 1.1547, half
    /// 2.2632.
    #[test]
    fn mean_with_interval() {
        let m = mean(&[2.0, 4.0, 6.0]).unwrap();
        assert!(near(m.value, 4.0, 1e-12));
        assert!(near(m.hi - m.value, 2.2632, 1e-4), "{m:?}");
        assert_eq!(mean(&[1.0]), None);
    }

    /// One feature, symmetric data: at x = +1 the results 1, 1, 1, 0
    /// (mean 3/4), at x = -1 the results 0, 0, 0, 1 (mean 1/4). The
    /// intercept is 0 by symmetry and sigmoid(b) = 3/4 gives b = ln 3 =
    /// 1.0986. The Fisher information is 8 rows x 3/16 = 1.5 on the
    /// diagonal and 0 off it, so se(b) = 1 / sqrt(1.5) = 0.8165.
    #[test]
    fn logistic_fit_of_a_symmetric_set() {
        let mut rows = Vec::new();
        for r in [1.0, 1.0, 1.0, 0.0] {
            rows.push((vec![1.0], r));
            rows.push((vec![-1.0], 1.0 - r));
        }
        let fit = Logistic::fit(&rows).unwrap();
        assert!(near(fit.coef[0], 0.0, 1e-9), "{fit:?}");
        assert!(near(fit.coef[1], 3f64.ln(), 1e-9), "{fit:?}");
        assert!(near(fit.se[1], 0.8165, 1e-4), "{fit:?}");
    }

    /// Two features, each row with at most one: no difference scores 1/2
    /// (intercept logit(1/2) = 0), a pawn up 3/4 (ln 3), a knight up 9/10
    /// (ln 9 = 2 ln 3): the model is saturated, so the knight is worth
    /// exactly 2 pawns.
    #[test]
    fn logistic_fit_gives_a_knight_of_two_pawns() {
        let mut rows = vec![(vec![0.0, 0.0], 1.0), (vec![0.0, 0.0], 0.0)];
        for r in [1.0, 1.0, 1.0, 0.0] {
            rows.push((vec![1.0, 0.0], r));
        }
        for i in 0..10 {
            rows.push((vec![0.0, 1.0], if i < 9 { 1.0 } else { 0.0 }));
        }
        let fit = Logistic::fit(&rows).unwrap();
        assert!(near(fit.coef[0], 0.0, 1e-9), "{fit:?}");
        assert!(near(fit.coef[1], 3f64.ln(), 1e-9), "{fit:?}");
        assert!(near(fit.coef[2], 9f64.ln(), 1e-9), "{fit:?}");
        let knight = fit.ratio(2, 1).unwrap();
        assert!(near(knight.value, 2.0, 1e-9), "{knight:?}");
        assert!(knight.lo < 2.0 && knight.hi > 2.0);
        // Draws count as halves: a pawn up scoring 1/2 on average is worth
        // nothing.
        let flat = vec![
            (vec![1.0], 0.5),
            (vec![1.0], 0.5),
            (vec![0.0], 1.0),
            (vec![0.0], 0.0),
        ];
        let fit = Logistic::fit(&flat).unwrap();
        assert!(near(fit.coef[1], 0.0, 1e-9), "{fit:?}");
        // A feature that never varies cannot be fitted.
        let stuck = vec![(vec![0.0], 1.0), (vec![0.0], 0.0)];
        assert_eq!(Logistic::fit(&stuck), Err(FitError::Singular));
        assert_eq!(Logistic::fit(&[]), Err(FitError::Empty));
    }
}
