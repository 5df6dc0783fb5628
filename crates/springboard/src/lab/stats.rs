//! The lab's statistics: proportions and scores with their 95% intervals,
//! Elo (from the arena's [`Wdl`]: one formula for matches and the lab),
//! the logistic fit of game results on material, and the conversion of an
//! odds match's Elo into pawns.

pub use crate::arena::stats::Wdl;

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
    if n == 0 || k > n {
        return None;
    }
    let n = n as f64;
    let p = k as f64 / n;
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

/// The mean score per game (wins 1, draws 1/2) with its normal 95%
/// interval from the games' own spread (`None` without games).
pub fn score(wdl: Wdl) -> Option<Estimate> {
    let n = f64::from(wdl.games());
    if n == 0.0 {
        return None;
    }
    let s = wdl.score();
    let var = (f64::from(wdl.wins) * (1.0 - s).powi(2)
        + f64::from(wdl.draws) * (0.5 - s).powi(2)
        + f64::from(wdl.losses) * s.powi(2))
        / n;
    let half = Z95 * (var / n).sqrt();
    Some(Estimate {
        value: s,
        lo: (s - half).max(0.0),
        hi: (s + half).min(1.0),
    })
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

/// `a / b` with a 95% interval from the standard errors of two
/// independent estimates (the delta method:
/// se(a/b) = |a/b| sqrt((se_a/a)^2 + (se_b/b)^2)). `None` when b is 0.
pub fn ratio(a: f64, se_a: f64, b: f64, se_b: f64) -> Option<Estimate> {
    if b == 0.0 {
        return None;
    }
    let r = a / b;
    // Written without dividing by a, so that a = 0 has an interval too.
    let se = ((se_a / b).powi(2) + (r * se_b / b).powi(2)).sqrt();
    Estimate {
        value: r,
        lo: r - Z95 * se,
        hi: r + Z95 * se,
    }
    .finite()
}

/// The standard error behind a symmetric-enough 95% interval.
pub fn se_of(e: Estimate) -> f64 {
    (e.hi - e.lo) / (2.0 * Z95)
}

/// A piece's worth in pawns from two odds matches: the Elo the side
/// giving the piece loses, over the Elo the side giving a pawn loses
/// (each the negative of the giver's Elo, with its interval).
pub fn odds_to_pawns(piece_elo: Estimate, pawn_elo: Estimate) -> Option<Estimate> {
    ratio(
        -piece_elo.value,
        se_of(piece_elo),
        -pawn_elo.value,
        se_of(pawn_elo),
    )
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

    /// 60 wins, 20 draws, 20 losses: score 0.7; per-game variance
    /// (60 * 0.09 + 20 * 0.04 + 20 * 0.49) / 100 = 0.16, se 0.04, so the
    /// score is 0.7 +- 0.0784 = [0.6216, 0.7784]; Elo -400 log10(1/s - 1):
    /// 147.2 [86.2, 218.3].
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
            near(s.lo, 0.6216, 1e-4) && near(s.hi, 0.7784, 1e-4),
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

    /// 2, 4, 6: mean 4, sample variance 4, se sqrt(4/3) = 1.1547, half
    /// 2.2632.
    #[test]
    fn mean_with_interval() {
        let m = mean(&[2.0, 4.0, 6.0]).unwrap();
        assert!(near(m.value, 4.0, 1e-12));
        assert!(near(m.hi - m.value, 2.2632, 1e-4), "{m:?}");
        assert_eq!(mean(&[1.0]), None);
    }

    /// A knight-odds match costs 300 +- 30 Elo (se), a pawn-odds match 100
    /// +- 10: the knight is 3 pawns, se 3 sqrt(0.1^2 + 0.1^2) = 0.4243,
    /// interval 3 +- 0.8315.
    #[test]
    fn odds_to_pawns_by_hand() {
        let knight = Estimate {
            value: -300.0,
            lo: -300.0 - Z95 * 30.0,
            hi: -300.0 + Z95 * 30.0,
        };
        let pawn = Estimate {
            value: -100.0,
            lo: -100.0 - Z95 * 10.0,
            hi: -100.0 + Z95 * 10.0,
        };
        let v = odds_to_pawns(knight, pawn).unwrap();
        assert!(near(v.value, 3.0, 1e-12));
        assert!(
            near(v.lo, 2.1685, 1e-3) && near(v.hi, 3.8315, 1e-3),
            "{v:?}"
        );
        let zero = Estimate {
            value: 0.0,
            lo: -1.0,
            hi: 1.0,
        };
        assert_eq!(odds_to_pawns(knight, zero), None);
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
