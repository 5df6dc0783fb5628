//! The play server's levels: 1 (weakest) to [`Level::MAX`] (full strength),
//! what the page offers and the server and the browser's engine both play
//! by. Level L is skill L-1 ([`Strength::from_skill`]) with a think time
//! that grows with the level, so the low levels answer at once.

use crate::strength::Strength;

/// A playing level of the page, 1..=[`Level::MAX`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level(u8);

impl Level {
    /// The strongest level: full strength.
    pub const MAX: u8 = 21;

    /// Level `level`, clamped to 1..=[`Level::MAX`].
    pub fn new(level: u8) -> Level {
        Level(level.clamp(1, Level::MAX))
    }

    pub fn get(self) -> u8 {
        self.0
    }

    /// Its strength: skill `level - 1`.
    pub fn strength(self) -> Strength {
        Strength::from_skill(i64::from(self.0) - 1)
    }

    /// The most it thinks over a move, in milliseconds: 200 at level 1,
    /// 90 more each level.
    pub fn think_ms(self) -> u64 {
        200 + 90 * u64::from(self.0 - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_clamp_and_map_to_skills_and_think_times() {
        assert_eq!(Level::new(0).get(), 1);
        assert_eq!(Level::new(99).get(), Level::MAX);
        assert_eq!(Level::new(1).strength(), Strength::from_skill(0));
        assert_eq!(Level::new(21).strength(), Strength::FULL);
        assert_eq!(Level::new(1).think_ms(), 200);
        assert_eq!(Level::new(21).think_ms(), 2000);
    }
}
