//! Match statistics: score, Elo with a 95% interval, and the sequential
//! probability ratio test (SPRT).
//!
//! The Elo and LLR formulas use the normal approximation of the
//! per-game score distribution (wins 1, draws 1/2, losses 0), as
//! cutechess-cli and fastchess report them.

/// Wins, draws and losses of the first engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

/// The expected score for an Elo difference.
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference for an expected score in (0, 1).
pub fn elo_from_score(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// SPRT parameters: H0 elo0, H1 elo1, error rates alpha and beta.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

impl std::str::FromStr for Sprt {
    type Err = String;
    /// `elo0,elo1,alpha,beta`, e.g. `0,10,0.05,0.05`.
    fn from_str(text: &str) -> Result<Sprt, String> {
        let parts: Vec<&str> = text.split(',').map(str::trim).collect();
        let bad =
            || format!("--sprt needs elo0,elo1,alpha,beta (like 0,10,0.05,0.05), not '{text}'");
        let [e0, e1, a, b] = parts.as_slice() else {
            return Err(bad());
        };
        let num = |s: &str| s.parse::<f64>().map_err(|_| bad());
        let sprt = Sprt {
            elo0: num(e0)?,
            elo1: num(e1)?,
            alpha: num(a)?,
            beta: num(b)?,
        };
        let rate_ok = |r: f64| r > 0.0 && r < 0.5;
        let valid = sprt.elo0 < sprt.elo1 && rate_ok(sprt.alpha) && rate_ok(sprt.beta);
        if !valid {
            return Err(format!(
                "--sprt needs elo0 < elo1 and alpha, beta in (0, 0.5): '{text}'"
            ));
        }
        Ok(sprt)
    }
}

/// What the SPRT says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtState {
    /// H1 accepted: the first engine is at least elo1 stronger.
    H1,
    /// H0 accepted: it is at most elo0 stronger.
    H0,
    Continue,
}

impl Sprt {
    /// The lower and upper LLR bounds.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0.
    pub fn llr(&self, wdl: Wdl) -> f64 {
        let n = wdl.games() as f64;
        if wdl.wins == 0 || wdl.losses == 0 || n == 0.0 {
            // Not enough information for the variance yet.
            return 0.0;
        }
        let mean = wdl.score();
        let var = wdl.variance();
        let (s0, s1) = (expected_score(self.elo0), expected_score(self.elo1));
        (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var / n)
    }

    pub fn state(&self, wdl: Wdl) -> SprtState {
        self.decide(self.llr(wdl))
    }
}

/// The first engine's results by pairs of games (one opening, both
/// colours): how many pairs it scored 0, 1/2, 1, 3/2 and 2 points
/// (fishtest's "Ptnml(0-2)"). Pairs cancel most of an opening's bias, so
/// the SPRT of a match with colour swaps is computed on them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Penta(pub [u32; 5]);

impl Penta {
    /// Counts a pair from the first engine's two game scores (0, 1/2, 1
    /// each, given in half points: 0, 1, 2).
    pub fn add(&mut self, half_points: [u32; 2]) {
        let k = (half_points[0] + half_points[1]).min(4) as usize;
        self.0[k] += 1;
    }

    pub fn pairs(&self) -> u32 {
        self.0.iter().sum()
    }

    /// The mean pair score (as a fraction of 2 points) and its variance
    /// per pair, with every empty count set to 1e-3 as fishtest does, so
    /// that a run of identical pairs has a small variance and not none.
    fn mean_var(&self) -> (f64, f64) {
        let counts = self.0.map(|c| f64::from(c).max(1e-3));
        let n: f64 = counts.iter().sum();
        let x = |k: usize| k as f64 / 4.0;
        let mean = (0..5).map(|k| counts[k] * x(k)).sum::<f64>() / n;
        let var = (0..5)
            .map(|k| counts[k] * (x(k) - mean).powi(2))
            .sum::<f64>()
            / n;
        (mean, var)
    }
}

/// The fewest pairs an SPRT on pairs decides on.
pub const MIN_PAIRS: u32 = 10;

impl Sprt {
    /// The log-likelihood ratio of H1 against H0 from pairs (the same
    /// normal approximation as [`Sprt::llr`], with the pair as the sample).
    pub fn llr_pairs(&self, p: Penta) -> f64 {
        let n = f64::from(p.pairs());
        if n == 0.0 {
            return 0.0;
        }
        let (mean, var) = p.mean_var();
        let (s0, s1) = (expected_score(self.elo0), expected_score(self.elo1));
        (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var / n)
    }

    /// The SPRT's state from pairs: no decision before [`MIN_PAIRS`]
    /// pairs (with fewer, one pair's kind alone has a variance near 0, and
    /// the first pair would decide).
    pub fn state_pairs(&self, p: Penta) -> SprtState {
        if p.pairs() < MIN_PAIRS {
            return SprtState::Continue;
        }
        self.decide(self.llr_pairs(p))
    }

    fn decide(&self, llr: f64) -> SprtState {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtState::H1
        } else if llr <= lower {
            SprtState::H0
        } else {
            SprtState::Continue
        }
    }
}

/// An SPRT followed game by game. The test stops at its first crossing of
/// a bound, and its verdict rests on the results of that moment: a game
/// that ends later (the twin of a pair already being played) is reported
/// in the match's totals, never counted in the verdict, so the verdict
/// printed at the end is the one that stopped the match.
#[derive(Clone, Copy, Debug)]
pub struct SprtWatch {
    pub sprt: Sprt,
    decided: Option<(Wdl, Option<Penta>)>,
}

impl SprtWatch {
    pub fn new(sprt: Sprt) -> Self {
        Self {
            sprt,
            decided: None,
        }
    }

    /// Takes the results after a game (W/D/L of the first engine and, with
    /// colour swaps, its pairs); true the first time a bound is crossed.
    pub fn see(&mut self, wdl: Wdl, pairs: Option<Penta>) -> bool {
        if self.decided.is_some() {
            return false;
        }
        let state = match pairs {
            Some(p) => self.sprt.state_pairs(p),
            None => self.sprt.state(wdl),
        };
        if state == SprtState::Continue {
            return false;
        }
        self.decided = Some((wdl, pairs));
        true
    }

    /// The results the verdict rests on: those where a bound was crossed,
    /// else the latest ones (`wdl`, `pairs`).
    pub fn counted(&self, wdl: Wdl, pairs: Option<Penta>) -> (Wdl, Option<Penta>) {
        self.decided.unwrap_or((wdl, pairs))
    }
}

impl Wdl {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The mean score per game (0 with no games).
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.0;
        }
        (self.wins as f64 + self.draws as f64 / 2.0) / n as f64
    }

    /// The variance of one game's score.
    fn variance(&self) -> f64 {
        let n = self.games() as f64;
        let s = self.score();
        (self.wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.losses as f64 * s.powi(2))
            / n
    }

    /// The Elo difference and its 95% interval, or `None` while the score
    /// is 0% or 100% (no finite estimate).
    pub fn elo(&self) -> Option<(f64, f64, f64)> {
        let n = self.games() as f64;
        let s = self.score();
        if n == 0.0 || s <= 0.0 || s >= 1.0 {
            return None;
        }
        let se = (self.variance() / n).sqrt();
        let lo = (s - 1.959_964 * se).max(1e-6);
        let hi = (s + 1.959_964 * se).min(1.0 - 1e-6);
        Some((elo_from_score(s), elo_from_score(lo), elo_from_score(hi)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A match of 2026-11-24 (Hop Chess, fixed nodes): the bound was
    /// crossed after 263 games; game 264, the twin already being played,
    /// ended a pair lost twice and took the LLR back under the bound, and
    /// the match printed "Undecided" for a test that had stopped at H1.
    #[test]
    fn the_verdict_is_the_one_that_stopped_the_match() {
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let at_263 = (
            Wdl {
                wins: 169,
                draws: 1,
                losses: 93,
            },
            Penta([9, 1, 73, 0, 48]),
        );
        let at_264 = (
            Wdl {
                wins: 169,
                draws: 1,
                losses: 94,
            },
            Penta([10, 1, 73, 0, 48]),
        );
        assert_eq!(sprt.state_pairs(at_263.1), SprtState::H1);
        assert_eq!(sprt.state_pairs(at_264.1), SprtState::Continue);
        let mut watch = SprtWatch::new(sprt);
        assert!(watch.see(at_263.0, Some(at_263.1)));
        assert!(!watch.see(at_264.0, Some(at_264.1)), "decided once");
        assert_eq!(
            watch.counted(at_264.0, Some(at_264.1)),
            (at_263.0, Some(at_263.1))
        );
        // Before a decision the latest results count.
        let mut open = SprtWatch::new(sprt);
        assert!(!open.see(at_264.0, Some(at_264.1)));
        assert_eq!(
            open.counted(at_264.0, Some(at_264.1)),
            (at_264.0, Some(at_264.1))
        );
        // Without colour swaps the games decide.
        let strong = Wdl {
            wins: 200,
            draws: 0,
            losses: 50,
        };
        let mut games = SprtWatch::new(sprt);
        assert!(games.see(strong, None));
        assert_eq!(games.counted(at_264.0, None), (strong, None));
    }

    #[test]
    fn elo_and_interval() {
        assert!((elo_from_score(0.75) - 190.848).abs() < 0.01);
        assert!((expected_score(190.848) - 0.75).abs() < 1e-4);
        let wdl = Wdl {
            wins: 30,
            draws: 40,
            losses: 30,
        };
        let (elo, lo, hi) = wdl.elo().unwrap();
        assert!(elo.abs() < 1e-9);
        // var = 0.3 * 0.25 * 2 = 0.15, se = sqrt(0.15 / 100) = 0.0387
        assert!((hi - elo_from_score(0.5 + 1.959_964 * 0.15f64.sqrt() / 10.0)).abs() < 1e-9);
        assert!((lo + hi).abs() < 1e-9);
        assert_eq!(
            Wdl {
                wins: 3,
                draws: 0,
                losses: 0
            }
            .elo(),
            None
        );
    }

    #[test]
    fn sprt_llr_and_decisions() {
        let sprt: Sprt = "0,10,0.05,0.05".parse().unwrap();
        let (lower, upper) = sprt.bounds();
        assert!((upper - 2.944_438_979).abs() < 1e-6);
        assert!((lower + 2.944_438_979).abs() < 1e-6);
        let strong = Wdl {
            wins: 600,
            draws: 300,
            losses: 100,
        };
        assert!(sprt.llr(strong) > upper);
        assert_eq!(sprt.state(strong), SprtState::H1);
        let weak = Wdl {
            wins: 100,
            draws: 300,
            losses: 600,
        };
        assert_eq!(sprt.state(weak), SprtState::H0);
        let even = Wdl {
            wins: 10,
            draws: 10,
            losses: 10,
        };
        assert_eq!(sprt.state(even), SprtState::Continue);
        assert!("1,0,0.05,0.05".parse::<Sprt>().is_err());
        assert!("0,10,0.05,0.05".parse::<Sprt>().is_ok());
    }

    #[test]
    fn sprt_on_pairs() {
        let sprt: Sprt = "0,5,0.05,0.05".parse().unwrap();
        let mut p = Penta::default();
        p.add([2, 0]);
        p.add([1, 1]);
        p.add([0, 2]);
        p.add([2, 1]);
        p.add([0, 0]);
        p.add([2, 2]);
        p.add([4, 4]); // clamped to the top count
        assert_eq!(p, Penta([1, 0, 3, 1, 2]));
        assert_eq!(p.pairs(), 7);
        // Identical pairs (every pair 1 point of 2, as the same engine at
        // fixed nodes plays): H0 after 10 pairs, never H1.
        let same = Penta([0, 0, 10, 0, 0]);
        assert_eq!(sprt.state_pairs(same), SprtState::H0);
        assert!(sprt.llr_pairs(same) < -2.944);
        assert_eq!(
            sprt.state_pairs(Penta([0, 0, 5, 0, 0])),
            SprtState::Continue
        );
        // One pair decides nothing, though its variance is near 0 (at
        // [0, 10], its LLR is beyond the lower bound).
        let one = Penta([0, 1, 0, 0, 0]);
        let wide: Sprt = "0,10,0.05,0.05".parse().unwrap();
        assert!(wide.llr_pairs(one) < -2.944);
        assert_eq!(wide.state_pairs(one), SprtState::Continue);
        assert_eq!(sprt.state_pairs(one), SprtState::Continue);
        assert_eq!(
            sprt.state_pairs(Penta([0, 9, 0, 0, 0])),
            SprtState::Continue
        );
        assert_eq!(sprt.state_pairs(Penta([0, 10, 0, 0, 0])), SprtState::H0);
        // Fixed inputs against values computed apart (Python): counts
        // 10, 100, 300, 160, 20 (590 pairs): mean 0.53390, var 0.03911,
        // LLR = (s1 - s0) (2 mean - s0 - s1) / (2 var / n) = 3.2893.
        let p = Penta([10, 100, 300, 160, 20]);
        let llr = sprt.llr_pairs(p);
        assert!((llr - 3.2893).abs() < 0.001, "{llr}");
        assert_eq!(sprt.state_pairs(p), SprtState::H1);
        // 10 fewer 3/2 pairs: 2.8465, not yet decided.
        let p = Penta([10, 100, 300, 150, 20]);
        assert!((sprt.llr_pairs(p) - 2.8465).abs() < 0.001);
        assert_eq!(sprt.state_pairs(p), SprtState::Continue);
        // Mirrored: -3.6172, H0.
        let worse = Penta([20, 150, 300, 100, 10]);
        assert!((sprt.llr_pairs(worse) + 3.6172).abs() < 0.001);
        assert_eq!(sprt.state_pairs(worse), SprtState::H0);
        assert_eq!(sprt.llr_pairs(Penta::default()), 0.0);
        assert!("0,10,0.05".parse::<Sprt>().is_err());
    }
}
