//! Time management: how long to think about one move.

use crate::limits::Limits;
use springboard_rules::Color;
use std::time::Duration;
// `std::time::Instant` panics on wasm32-unknown-unknown (no clock there):
// the browser build reads the page's clock through `web-time`.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) use std::time::Instant;
#[cfg(target_arch = "wasm32")]
pub(crate) use web_time::Instant;

/// The time budget of one search.
#[derive(Clone, Copy, Debug)]
pub struct TimeManager {
    pub start: Instant,
    /// Do not start a new iteration after this.
    pub soft: Option<Duration>,
    /// Stop the search at this point.
    pub hard: Option<Duration>,
}

/// `x * num / den` without overflow (`den` > 0, `num <= den`).
fn scale(x: u64, num: u64, den: u64) -> u64 {
    (u128::from(x) * u128::from(num) / u128::from(den)) as u64
}

impl TimeManager {
    /// `moves_left`: how many more moves the game is expected to last,
    /// where the clock does not say (`movestogo`).
    pub fn new(
        limits: &Limits,
        us: Color,
        overhead_ms: u64,
        start: Instant,
        moves_left: u64,
    ) -> TimeManager {
        if limits.infinite {
            return TimeManager {
                start,
                soft: None,
                hard: None,
            };
        }
        if let Some(mt) = limits.movetime {
            let t = Duration::from_millis(mt.saturating_sub(overhead_ms).max(1));
            return TimeManager {
                start,
                soft: Some(t),
                hard: Some(t),
            };
        }
        let (time, inc) = match us {
            Color::White => (limits.wtime, limits.winc),
            Color::Black => (limits.btime, limits.binc),
        };
        let Some(time) = time else {
            return TimeManager {
                start,
                soft: None,
                hard: None,
            };
        };
        // Clocks come from outside (a GUI, a user): any u64 is taken, the
        // arithmetic saturates.
        let inc = inc.unwrap_or(0);
        let mtg = limits.movestogo.map_or(moves_left, u64::from).clamp(1, 50);
        // Keep a reserve: the overhead, and a little more on short clocks.
        let avail = time
            .saturating_sub(overhead_ms.saturating_add(time / 50))
            .max(1);
        let soft = (avail / mtg)
            .saturating_add(scale(inc, 3, 4))
            .min(avail / 2)
            .max(1);
        let hard_cap = if mtg == 1 {
            scale(avail, 3, 4)
        } else {
            avail / 3
        };
        let hard = soft.saturating_mul(5).min(hard_cap).max(soft);
        TimeManager {
            start,
            soft: Some(Duration::from_millis(soft)),
            hard: Some(Duration::from_millis(hard)),
        }
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Whether the hard limit has passed.
    pub fn out_of_time(&self) -> bool {
        self.hard.is_some_and(|h| self.elapsed() >= h)
    }

    /// Whether to start another iteration.
    pub fn may_start_iteration(&self) -> bool {
        self.soft.is_none_or(|s| self.elapsed() < s / 2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_second_game_budget() {
        let limits = Limits {
            wtime: Some(1000),
            btime: Some(1000),
            winc: Some(10),
            binc: Some(10),
            ..Limits::default()
        };
        let now = Instant::now();
        let tm = TimeManager::new(&limits, Color::White, 30, now, 30);
        assert_eq!(tm.soft, Some(Duration::from_millis(38)));
        assert_eq!(tm.hard, Some(Duration::from_millis(190)));
        // With almost no time left, never more than a third of it.
        let low = Limits {
            wtime: Some(60),
            winc: Some(10),
            ..Limits::default()
        };
        let tm = TimeManager::new(&low, Color::White, 30, now, 30);
        assert!(tm.hard.unwrap() <= Duration::from_millis(10));
    }

    #[test]
    fn the_expected_game_length_sets_a_moves_share() {
        let now = Instant::now();
        let clock = Limits {
            wtime: Some(10_000),
            winc: Some(100),
            ..Limits::default()
        };
        // 10,000 ms less the overhead (30) and the reserve (200): 9,770;
        // its share, and three quarters of the increment.
        let soft = |moves_left| TimeManager::new(&clock, Color::White, 30, now, moves_left).soft;
        assert_eq!(soft(30), Some(Duration::from_millis(325 + 75)));
        assert_eq!(soft(18), Some(Duration::from_millis(542 + 75)));
        assert_eq!(soft(12), Some(Duration::from_millis(814 + 75)));
        // The clock's own count wins over the guess.
        let with_mtg = Limits {
            movestogo: Some(40),
            ..clock.clone()
        };
        for moves_left in [12, 18, 30] {
            let tm = TimeManager::new(&with_mtg, Color::White, 30, now, moves_left);
            assert_eq!(tm.soft, Some(Duration::from_millis(244 + 75)));
        }
    }

    #[test]
    fn huge_clocks_saturate() {
        let now = Instant::now();
        let max = Limits {
            wtime: Some(u64::MAX),
            btime: Some(u64::MAX),
            winc: Some(u64::MAX),
            binc: Some(u64::MAX),
            movestogo: Some(u32::MAX),
            ..Limits::default()
        };
        let tm = TimeManager::new(&max, Color::White, u64::MAX, now, 30);
        assert_eq!(tm.soft, Some(Duration::from_millis(1)));
        assert_eq!(tm.hard, Some(Duration::from_millis(1)));
        let tm = TimeManager::new(&max, Color::Black, 30, now, 30);
        let avail = u64::MAX - 30 - u64::MAX / 50;
        assert_eq!(tm.soft, Some(Duration::from_millis(avail / 2)));
        assert_eq!(tm.hard, Some(Duration::from_millis(avail / 2)));
        let i64_max = Limits {
            wtime: Some(i64::MAX as u64),
            winc: Some(i64::MAX as u64),
            ..Limits::default()
        };
        let tm = TimeManager::new(&i64_max, Color::White, 30, now, 30);
        let avail = i64::MAX as u64 - 30 - i64::MAX as u64 / 50;
        assert_eq!(tm.soft, Some(Duration::from_millis(avail / 2)));
        assert!(!tm.out_of_time() && tm.may_start_iteration());
        let mt = Limits {
            movetime: Some(u64::MAX),
            ..Limits::default()
        };
        let tm = TimeManager::new(&mt, Color::White, 30, now, 30);
        assert_eq!(tm.hard, Some(Duration::from_millis(u64::MAX - 30)));
        assert!(!tm.out_of_time());
    }

    #[test]
    fn movetime_and_infinite() {
        let now = Instant::now();
        let mt = Limits {
            movetime: Some(500),
            ..Limits::default()
        };
        let tm = TimeManager::new(&mt, Color::Black, 30, now, 30);
        assert_eq!(tm.hard, Some(Duration::from_millis(470)));
        let inf = Limits {
            infinite: true,
            wtime: Some(10),
            ..Limits::default()
        };
        assert_eq!(TimeManager::new(&inf, Color::White, 30, now, 30).hard, None);
    }
}
