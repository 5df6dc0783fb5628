//! Playing levels a person can beat: `Skill Level` 0..20 and
//! `UCI_LimitStrength`/`UCI_Elo`. A limited engine searches shallow and few
//! nodes, looks at several candidate moves and picks among the near-best
//! ones at random, the weaker the level the wider.
//!
//! The levels' ratings ([`Strength::rating`]) were measured by matches at
//! chess (docs/engine.md, "The levels' ratings") and are rough; `UCI_Elo`
//! picks the level whose measured rating is nearest ([`Strength::from_elo`]).

use springboard_rules::Move;

/// A playing strength: skill 0 (weakest) to 20 (full strength).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strength {
    skill: u8,
}

impl Strength {
    pub const FULL: Strength = Strength { skill: 20 };
    /// The `UCI_Elo` range: the measured ratings of the weakest level and
    /// of full strength.
    pub const ELO_MIN: u32 = RATINGS[0];
    pub const ELO_MAX: u32 = RATINGS[20];
    /// Candidate moves a limited engine looks at.
    pub const CANDIDATES: usize = 4;

    /// Skill level 0..=20 (out-of-range values are clamped).
    pub fn from_skill(level: i64) -> Strength {
        Strength {
            skill: level.clamp(0, 20) as u8,
        }
    }

    /// The level whose measured rating ([`RATINGS`]) is nearest to `elo`,
    /// the weaker of two equally near; below the weakest level's rating the
    /// weakest level, from full strength's rating up full strength.
    pub fn from_elo(elo: u32) -> Strength {
        let skill = (0..RATINGS.len())
            .min_by_key(|&s| RATINGS[s].abs_diff(elo))
            .unwrap_or(0);
        Strength::from_skill(skill as i64)
    }

    pub fn skill(self) -> u8 {
        self.skill
    }

    pub fn is_limited(self) -> bool {
        self.skill < 20
    }

    /// The deepest iteration a limited engine searches.
    pub fn depth_cap(self) -> Option<u32> {
        self.is_limited().then(|| 1 + u32::from(self.skill) / 2)
    }

    /// The most nodes a limited engine searches.
    pub fn node_cap(self) -> Option<u64> {
        self.is_limited()
            .then(|| 2_000u64 << (u32::from(self.skill) / 2))
    }

    /// Picks a move among `lines` (move, centipawn score), best first: each
    /// candidate's score gets a random push that grows with the weakness
    /// (the rule of Stockfish's skill levels). `random` gives fresh numbers.
    pub fn pick(self, lines: &[(Move, i32)], mut random: impl FnMut() -> u64) -> Option<Move> {
        let &(first, top) = lines.first()?;
        if !self.is_limited() {
            return Some(first);
        }
        let weakness = 120 - 2 * i64::from(self.skill);
        let worst = lines.iter().map(|l| l.1).min().unwrap_or(top);
        let delta = i64::from(top - worst).min(100);
        let mut best = (first, i64::MIN);
        for &(m, score) in lines {
            let push = (weakness * i64::from(top - score)
                + delta * (random() % weakness as u64) as i64)
                / 128;
            let value = i64::from(score) + push;
            if value > best.1 {
                best = (m, value);
            }
        }
        Some(best.0)
    }
}

/// The levels' ratings at chess, by skill, on Fairy-Stockfish 11.1's
/// `UCI_Elo` scale at 5+0.05: a ladder of matches between every other
/// skill (32 to 60 games a pair), anchored to Fairy-Stockfish at three
/// points, fitted by weighted least squares; odd skills (not played) are
/// the mean of their neighbours. Rough: +-100 to +-200 (95%) at the
/// middle levels, +-400 at the ends (docs/engine.md, "The levels' ratings").
const RATINGS: [u32; 21] = [
    1000, 1130, 1260, 1360, 1460, 1510, 1570, 1640, 1710, 1790, 1880, 1910, 1950, 1970, 2000, 2010,
    2030, 2060, 2100, 2280, 2460,
];

impl Strength {
    /// The level's rough chess rating (see [`RATINGS`]).
    pub fn rating(self) -> u32 {
        RATINGS[usize::from(self.skill)]
    }

    /// A name for the level, from its rating; full strength is its own.
    pub fn name(self) -> &'static str {
        if !self.is_limited() {
            return "Full strength";
        }
        match self.rating() {
            0..1200 => "Beginner",
            1200..1500 => "Casual player",
            1500..1800 => "Club player",
            1800..2100 => "Strong club player",
            2100..2400 => "Expert",
            _ => "Master",
        }
    }
}

/// A small xorshift generator for the random choice of limited levels.
#[derive(Clone, Debug)]
pub(crate) struct Rng(u64);

impl Rng {
    pub(crate) fn new(seed: u64) -> Rng {
        Rng(seed | 1)
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use springboard_rules::Square;

    #[test]
    fn levels() {
        assert_eq!(Strength::from_elo(100).skill(), 0);
        assert_eq!(Strength::from_elo(1000).skill(), 0);
        // 1500 lies between skill 4 (1460) and skill 5 (1510): 5 is nearer.
        assert_eq!(Strength::from_elo(1500).skill(), 5);
        // 1485 is as near to either: the weaker.
        assert_eq!(Strength::from_elo(1485).skill(), 4);
        assert_eq!(Strength::from_elo(2000).skill(), 14);
        assert_eq!(Strength::from_elo(2300).skill(), 19);
        assert_eq!(Strength::from_elo(Strength::ELO_MAX), Strength::FULL);
        assert_eq!(Strength::from_elo(9999), Strength::FULL);
        // Every level is reached from its own rating.
        for s in 0..=20 {
            let level = Strength::from_skill(s);
            assert_eq!(Strength::from_elo(level.rating()), level);
        }
        assert_eq!(Strength::from_skill(3).depth_cap(), Some(2));
        assert_eq!(Strength::FULL.depth_cap(), None);
    }

    #[test]
    fn level_ratings_rise_and_name_the_levels() {
        let levels: Vec<Strength> = (0..=20).map(Strength::from_skill).collect();
        assert!(levels.windows(2).all(|w| w[0].rating() < w[1].rating()));
        assert_eq!(Strength::from_skill(0).name(), "Beginner");
        assert_eq!(Strength::from_skill(8).name(), "Club player");
        assert_eq!(Strength::from_skill(14).name(), "Strong club player");
        assert_eq!(Strength::FULL.name(), "Full strength");
    }

    #[test]
    fn full_strength_takes_the_best_and_weak_levels_vary() {
        let a = Move::normal(Square::E2, Square::E4);
        let b = Move::normal(Square::D2, Square::D4);
        let c = Move::normal(Square::G1, Square::F3);
        let lines = [(a, 40), (b, 30), (c, -500)];
        let mut rng = Rng::new(7);
        assert_eq!(Strength::FULL.pick(&lines, || rng.next_u64()), Some(a));
        let weak = Strength::from_skill(0);
        let picks: Vec<Move> = (0..50)
            .map(|_| weak.pick(&lines, || rng.next_u64()).unwrap())
            .collect();
        assert!(picks.contains(&a) && picks.contains(&b), "{picks:?}");
        assert_eq!(Strength::FULL.pick(&[], || 0), None);
    }
}
