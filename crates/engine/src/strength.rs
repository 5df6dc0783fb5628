//! Playing levels a person can beat: `Skill Level` 0..20 and
//! `UCI_LimitStrength`/`UCI_Elo`. A limited engine searches shallow and few
//! nodes, looks at several candidate moves and picks among the near-best
//! ones at random, the weaker the level the wider.
//!
//! The levels' ratings ([`Strength::rating`]) were measured by matches in
//! every game (docs/engine.md, "The levels' ratings") and are rough;
//! `UCI_Elo` picks the level whose rating in the game is nearest
//! ([`Strength::from_elo`]).

use springboard_rules::{Move, Variant};

/// A playing strength: skill 0 (weakest) to 20 (full strength).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strength {
    skill: u8,
}

impl Strength {
    pub const FULL: Strength = Strength { skill: 20 };
    /// The `UCI_Elo` range: the lowest and the highest measured rating of
    /// a level in any game.
    pub const ELO_MIN: u32 = elo_bounds().0;
    pub const ELO_MAX: u32 = elo_bounds().1;
    /// Candidate moves a limited engine looks at.
    pub const CANDIDATES: usize = 4;

    /// Skill level 0..=20 (out-of-range values are clamped).
    pub fn from_skill(level: i64) -> Strength {
        Strength {
            skill: level.clamp(0, 20) as u8,
        }
    }

    /// The level whose measured rating in `variant` is nearest to `elo`,
    /// the weaker of two equally near; below the weakest level's rating the
    /// weakest level, from full strength's rating up full strength.
    pub fn from_elo(variant: Variant, elo: u32) -> Strength {
        let table = ratings(variant);
        let skill = (0..table.len())
            .min_by_key(|&s| table[s].abs_diff(elo))
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

/// The levels' ratings by game, by skill (docs/engine.md, "The levels'
/// ratings"; the matches' results are in `levels/<game>.txt`, fitted by
/// `springboard levels`, whose test checks that these tables are that
/// fit). Rough: 95% intervals of +-90 to +-550.
///
/// Chess: on Fairy-Stockfish 11.1's `UCI_Elo` scale at 5+0.05 on the chess
/// opening suite, a ladder of matches between every other skill (32 to 60
/// games a pair), anchored to Fairy-Stockfish at four points (1350, 1750,
/// 2000, 2600); odd skills (not played) lie on the line between their
/// neighbours.
const CHESS: [u32; 21] = [
    810, 950, 1090, 1200, 1300, 1400, 1490, 1550, 1620, 1710, 1800, 1850, 1900, 1970, 2040, 2130,
    2230, 2260, 2290, 2590, 2890,
];

/// The variants, where no outside engine plays: ladders of matches between
/// the skills two and four apart and between skill 0 and the 1-ply material
/// player (`uci --player material1`), at 5+0.05 on the game's opening
/// suite (32 to 40 games a pair), anchored at skill 0 = 1000: a shared
/// convention (how far a level stands above the weakest in that game), not
/// a rating in any players' pool.
const HOPCHESS: [u32; 21] = [
    1000, 1040, 1080, 1090, 1100, 1140, 1180, 1270, 1350, 1400, 1460, 1530, 1590, 1710, 1820, 1820,
    1820, 1830, 1840, 1930, 2030,
];
const TRAMPOLINE: [u32; 21] = [
    1000, 1230, 1470, 1600, 1730, 1830, 1930, 1990, 2050, 2090, 2130, 2230, 2330, 2450, 2570, 2620,
    2660, 2680, 2700, 3000, 3300,
];
const JUMPINGKING: [u32; 21] = [
    1000, 1100, 1190, 1300, 1410, 1490, 1570, 1610, 1660, 1770, 1880, 1910, 1950, 2000, 2050, 2090,
    2120, 2220, 2320, 2530, 2740,
];
const HOPLIT: [u32; 21] = [
    1000, 1180, 1360, 1450, 1540, 1660, 1790, 1880, 1970, 2100, 2220, 2220, 2230, 2280, 2340, 2460,
    2580, 2630, 2670, 2890, 3100,
];

/// The ratings of the levels in `variant`, by skill.
const fn ratings(variant: Variant) -> &'static [u32; 21] {
    match variant {
        Variant::Chess => &CHESS,
        Variant::HopChess => &HOPCHESS,
        Variant::Trampoline => &TRAMPOLINE,
        Variant::JumpingKing => &JUMPINGKING,
        Variant::Hoplit => &HOPLIT,
    }
}

/// The lowest and highest rating of any level in any game.
const fn elo_bounds() -> (u32, u32) {
    let mut low = u32::MAX;
    let mut high = 0;
    let mut i = 0;
    while i < Variant::ALL.len() {
        let table = ratings(Variant::ALL[i]);
        let mut s = 0;
        while s < table.len() {
            if table[s] < low {
                low = table[s];
            }
            if table[s] > high {
                high = table[s];
            }
            s += 1;
        }
        i += 1;
    }
    (low, high)
}

impl Strength {
    /// The level's rough rating in `variant` (from this module's tables,
    /// `CHESS` and `HOPCHESS` among them).
    pub fn rating(self, variant: Variant) -> u32 {
        ratings(variant)[usize::from(self.skill)]
    }

    /// A name for the level, from its rating in `variant`; full strength
    /// is its own.
    pub fn name(self, variant: Variant) -> &'static str {
        if !self.is_limited() {
            return "Full strength";
        }
        match self.rating(variant) {
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
        assert_eq!(Strength::from_skill(3).depth_cap(), Some(2));
        assert_eq!(Strength::FULL.depth_cap(), None);
    }

    #[test]
    fn uci_elo_picks_the_level_rated_nearest_in_the_game() {
        let chess = Variant::Chess;
        assert_eq!(Strength::from_elo(chess, 100).skill(), 0);
        assert_eq!(Strength::from_elo(chess, 810).skill(), 0);
        // 890 is nearer to skill 1 (950) than to skill 0 (810).
        assert_eq!(Strength::from_elo(chess, 890).skill(), 1);
        assert_eq!(Strength::from_elo(chess, 1000).skill(), 1);
        // 1480 lies between skill 5 (1400) and skill 6 (1490): 6 is nearer.
        assert_eq!(Strength::from_elo(chess, 1480).skill(), 6);
        // 1445 is as near to either: the weaker.
        assert_eq!(Strength::from_elo(chess, 1445).skill(), 5);
        assert_eq!(Strength::from_elo(chess, 2000).skill(), 13);
        assert_eq!(Strength::from_elo(chess, 2300).skill(), 18);
        assert_eq!(Strength::from_elo(chess, 9999), Strength::FULL);
        // Chess ratings rise level by level.
        let levels: Vec<Strength> = (0..=20).map(Strength::from_skill).collect();
        assert!(levels
            .windows(2)
            .all(|w| w[0].rating(chess) < w[1].rating(chess)));
        for v in Variant::ALL {
            assert_eq!(Strength::from_elo(v, Strength::ELO_MIN).skill(), 0, "{v}");
            assert_eq!(
                Strength::from_elo(v, Strength::ELO_MAX),
                Strength::FULL,
                "{v}"
            );
            // Every level's rating picks that level, or the weakest one of
            // the same rating (levels the matches could not tell apart).
            for s in 0..=20 {
                let level = Strength::from_skill(s);
                let picked = Strength::from_elo(v, level.rating(v));
                assert_eq!(picked.rating(v), level.rating(v), "{v}");
                assert!(picked.skill() <= level.skill(), "{v}");
            }
        }
    }

    #[test]
    fn level_ratings_rise_and_name_the_levels() {
        for v in Variant::ALL {
            let levels: Vec<Strength> = (0..=20).map(Strength::from_skill).collect();
            assert!(
                levels.windows(2).all(|w| w[0].rating(v) <= w[1].rating(v)),
                "{v}"
            );
            // The variants are anchored at level 1 = 1000; chess is on
            // Fairy-Stockfish's scale.
            if v != Variant::Chess {
                assert_eq!(Strength::from_skill(0).rating(v), 1000, "{v}");
            }
            assert!(
                Strength::FULL.rating(v) > Strength::from_skill(10).rating(v),
                "{v}"
            );
            assert_eq!(Strength::FULL.name(v), "Full strength");
        }
        let chess = Variant::Chess;
        assert_eq!(Strength::from_skill(0).name(chess), "Beginner");
        assert_eq!(Strength::from_skill(8).name(chess), "Club player");
        assert_eq!(Strength::from_skill(14).name(chess), "Strong club player");
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
