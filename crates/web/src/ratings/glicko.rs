//! Glicko-2 as lichess uses it, the maths by the `skillratings` crate
//! (its `glicko2` module implements Glickman's paper): a new player is
//! 1500 with a deviation (RD) of 500 and a volatility of 0.06, a rating is
//! provisional while its RD is over 110, each game is a rating period of
//! its own, and a player's RD grows with the time since the last game
//! (whole rating periods of no game, lichess's 0.21436 periods a day, up
//! to the crate's cap of 350: an RD above that stays as it is).

use skillratings::glicko2::{decay_deviation, glicko2, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;

/// A new player's rating.
pub const START_RATING: f64 = 1500.0;
/// A new player's deviation (lichess's; Glickman's paper uses 350).
pub const START_DEVIATION: f64 = 500.0;
pub const START_VOLATILITY: f64 = 0.06;
/// A rating is provisional (shown with a `?`) while its RD is above this.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;
/// The system constant tau (lichess's).
pub const TAU: f64 = 0.75;
/// Rating periods per day of no game (lichess's).
pub const PERIODS_PER_DAY: f64 = 0.21436;
const MS_PER_DAY: f64 = 86_400_000.0;
/// More idle periods than this change nothing more (the RD is capped
/// long before).
const MAX_IDLE_PERIODS: u32 = 10_000;

/// A player's Glicko-2 rating on the usual (Glicko) scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

/// A game's result from White's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    WhiteWins,
    BlackWins,
    Draw,
}

impl Score {
    /// The score of a stored result (`1-0`, `0-1`, `1/2-1/2`); None for
    /// anything else (an aborted game's `*`).
    pub fn of_result(result: &str) -> Option<Score> {
        match result {
            "1-0" => Some(Score::WhiteWins),
            "0-1" => Some(Score::BlackWins),
            "1/2-1/2" => Some(Score::Draw),
            _ => None,
        }
    }
}

impl Default for Rating {
    fn default() -> Rating {
        Rating::START
    }
}

impl Rating {
    /// A player who never played a rated game of this kind.
    pub const START: Rating = Rating {
        rating: START_RATING,
        deviation: START_DEVIATION,
        volatility: START_VOLATILITY,
    };

    /// Whether the rating is provisional (RD over 110).
    pub fn provisional(&self) -> bool {
        self.deviation > PROVISIONAL_DEVIATION
    }

    /// The rating rounded, as shown.
    pub fn rounded(&self) -> i64 {
        self.rating.round() as i64
    }

    /// The rating as the page shows it: `1500?` while provisional.
    pub fn shown(&self) -> String {
        let mark = if self.provisional() { "?" } else { "" };
        format!("{}{mark}", self.rounded())
    }

    /// The rating after `idle_ms` with no rated game: one rating period of
    /// no game (the crate's `decay_deviation`) per whole period elapsed;
    /// the RD grows up to the crate's cap, never shrinks.
    pub fn after_idle(self, idle_ms: i64) -> Rating {
        let periods = (idle_ms.max(0) as f64 / MS_PER_DAY * PERIODS_PER_DAY).floor();
        let periods = if periods >= f64::from(MAX_IDLE_PERIODS) {
            MAX_IDLE_PERIODS
        } else {
            periods as u32
        };
        let mut r = self.to_crate();
        for _ in 0..periods {
            let next = decay_deviation(&r);
            if next.deviation <= r.deviation {
                break;
            }
            r = next;
        }
        Rating::from_crate(r)
    }

    fn to_crate(self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }

    fn from_crate(r: Glicko2Rating) -> Rating {
        Rating {
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
        }
    }
}

fn config(tau: f64) -> Glicko2Config {
    Glicko2Config {
        tau,
        ..Glicko2Config::new()
    }
}

/// Both players' ratings after one game between them (a rating period of
/// its own for each).
pub fn rate(white: Rating, black: Rating, score: Score) -> (Rating, Rating) {
    let outcome = match score {
        Score::WhiteWins => Outcomes::WIN,
        Score::BlackWins => Outcomes::LOSS,
        Score::Draw => Outcomes::DRAW,
    };
    let (w, b) = glicko2(&white.to_crate(), &black.to_crate(), &outcome, &config(TAU));
    (Rating::from_crate(w), Rating::from_crate(b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use skillratings::glicko2::glicko2_rating_period;

    /// Glickman's worked example (glicko2.pdf, "Example calculation"):
    /// 1500 / RD 200 / 0.06 against 1400/30, 1550/100, 1700/300, results
    /// 1, 0, 0 in one rating period, tau 0.5: 1464.06 / 151.52 / 0.05999.
    #[test]
    fn glickmans_worked_example() {
        let player = Rating {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        let opponent = |rating, deviation| {
            Rating {
                rating,
                deviation,
                volatility: 0.06,
            }
            .to_crate()
        };
        let results = [
            (opponent(1400.0, 30.0), Outcomes::WIN),
            (opponent(1550.0, 100.0), Outcomes::LOSS),
            (opponent(1700.0, 300.0), Outcomes::LOSS),
        ];
        let r = Rating::from_crate(glicko2_rating_period(
            &player.to_crate(),
            &results,
            &config(0.5),
        ));
        assert!((r.rating - 1464.06).abs() < 0.01, "{r:?}");
        assert!((r.deviation - 151.52).abs() < 0.01, "{r:?}");
        assert!((r.volatility - 0.05999).abs() < 0.00001, "{r:?}");
    }

    #[test]
    fn a_game_between_two_new_players_moves_both_by_the_same_amount() {
        let (w, b) = rate(Rating::START, Rating::START, Score::WhiteWins);
        assert!(w.rating > 1500.0 && b.rating < 1500.0);
        assert!((w.rating - 1500.0 - (1500.0 - b.rating)).abs() < 1e-9);
        assert!(w.deviation < START_DEVIATION && w.provisional());
        let (w, b) = rate(Rating::START, Rating::START, Score::Draw);
        assert_eq!((w.rounded(), b.rounded()), (1500, 1500));
        assert_eq!(w.shown(), "1500?");
    }

    #[test]
    fn the_deviation_grows_with_idle_time_up_to_the_cap() {
        let r = Rating {
            rating: 1700.0,
            deviation: 60.0,
            volatility: 0.06,
        };
        assert!(!r.provisional());
        assert_eq!(r.shown(), "1700");
        // Less than one period (4.67 days): nothing.
        assert_eq!(r.after_idle(4 * 86_400_000), r);
        let later = r.after_idle(30 * 86_400_000);
        assert!(
            later.deviation > 60.0 && later.rating == 1700.0,
            "{later:?}"
        );
        let much_later = r.after_idle(i64::MAX);
        assert!(
            (much_later.deviation - 350.0).abs() < 1e-9,
            "{much_later:?}"
        );
        // A new player's 500 does not fall to the cap.
        assert_eq!(Rating::START.after_idle(365 * 86_400_000), Rating::START);
    }
}
