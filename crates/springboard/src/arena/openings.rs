//! The opening positions of a match: from a file of positions, or random
//! plies from the start position (reproducible by seed).

use super::config::MatchArgs;
use anyhow::{bail, Context, Result};
use springboard_rules::{Outcome, Position};

/// A small xorshift generator for openings.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// The opening positions: from the file, or random plies from the start.
pub(super) fn openings(args: &MatchArgs) -> Result<Vec<Position>> {
    let pairs = args.opening_count();
    if let Some(path) = &args.openings {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read openings {}", path.display()))?;
        let mut list = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let pos = Position::from_fen(args.variant, line)
                .with_context(|| format!("{}:{}: bad position '{line}'", path.display(), n + 1))?;
            if pos.outcome().is_some() {
                bail!("{}:{}: the game is already over", path.display(), n + 1);
            }
            list.push(pos);
        }
        if list.is_empty() {
            bail!("no positions in {}", path.display());
        }
        return Ok((0..pairs).map(|i| list[i % list.len()].clone()).collect());
    }
    let mut rng = Rng(args.seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let mut list = Vec::new();
    while list.len() < pairs {
        let mut pos = Position::startpos(args.variant);
        for _ in 0..args.random_plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play(moves[(rng.next() % moves.len() as u64) as usize]);
        }
        if pos.outcome().is_none() && !wins_at_once(&pos) {
            list.push(pos);
        }
    }
    Ok(list)
}

/// Whether the side to move has a move that wins on the spot (mate, or a
/// weak square entered, J3). Random plies often leave such a position in
/// the trampoline games, whose kings are open from the first move; a game
/// from it says nothing of the engines, so random openings skip it.
fn wins_at_once(pos: &Position) -> bool {
    pos.legal_moves().into_iter().any(|m| {
        let mut after = pos.clone();
        after.play(m);
        matches!(after.outcome(), Some(Outcome::Win { .. }))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::config::Cli;
    use springboard_rules::notation::uci::parse_uci;
    use springboard_rules::Variant;

    #[test]
    fn random_openings_skip_positions_won_at_once() {
        let start = Position::startpos(Variant::HopChess);
        assert!(!wins_at_once(&start));
        // 1.Na3 b6 with Black's trampoline on e5: 2.Nc4 and White's
        // trampoline to d6 mates (the knight checks via d6).
        let mut quick = start.clone();
        for m in ["b1a3", "b7b6@e5"] {
            quick.play(parse_uci(&quick, m).unwrap());
        }
        assert!(wins_at_once(&quick));
        use clap::Parser;
        let args = Cli::parse_from([
            "x",
            "--engine1",
            "a",
            "--engine2",
            "b",
            "--variant",
            "hopchess",
            "--games",
            "40",
            "--random-plies",
            "8",
        ])
        .m;
        let list = openings(&args).unwrap();
        assert_eq!(list.len(), 20);
        assert!(list.iter().all(|p| !wins_at_once(p)));
    }

    #[test]
    fn random_openings_are_reproducible() {
        let mut args_text = vec![
            "x",
            "--engine1",
            "a",
            "--engine2",
            "b",
            "--games",
            "6",
            "--random-plies",
            "6",
        ];
        use clap::Parser;
        let a = Cli::parse_from(&args_text).m;
        let first = openings(&a).unwrap();
        assert_eq!(first.len(), 3);
        assert!(first.iter().all(|p| p.fullmove_number() == 4));
        let again = openings(&a).unwrap();
        assert_eq!(first, again);
        args_text.extend(["--seed", "2"]);
        let b = Cli::parse_from(&args_text).m;
        assert_ne!(openings(&b).unwrap(), first);
        // Without colour swaps every game has its own opening.
        args_text.push("--no-swap");
        let c = Cli::parse_from(&args_text).m;
        let own = openings(&c).unwrap();
        assert_eq!(own.len(), 6);
        assert_eq!((c.opening_of(4), b.opening_of(4)), (4, 2));
        let distinct: std::collections::HashSet<String> = own.iter().map(|p| p.to_fen()).collect();
        assert_eq!(distinct.len(), 6);
    }
}
