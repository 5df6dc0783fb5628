//! The opening positions of a match: the game's suite (built in, see
//! `crate::suites`), a file of positions, or random plies from the start
//! position (reproducible by seed).

use super::config::MatchArgs;
use crate::suites::{self, random_plies, wins_at_once, Rng};
use anyhow::{bail, Context, Result};
use springboard_rules::Position;
use std::collections::HashSet;

/// The start positions of a match's openings (one per pair of games, or
/// per game with `--no-swap`) and where they come from.
pub(super) struct Openings {
    pub(super) list: Vec<Position>,
    /// What the match prints: the suite or file and its size, or the
    /// random plies.
    pub(super) source: String,
}

/// The openings of a match: `--random-plies N` or `--openings none`:
/// random plies; `--openings FILE`: that file; else the game's suite. The
/// positions of a suite or file are played in an order shuffled by the
/// seed, from the first on; when all are used, each later pass through
/// them plays every position after [`PASS_PLIES`] random plies of its own
/// (see [`later_pass`]), so that no pass repeats an earlier one.
pub(super) fn openings(args: &MatchArgs) -> Result<Openings> {
    let pairs = args.opening_count();
    let file = match args.openings.as_deref() {
        Some("none") => None,
        Some(path) => {
            if args.random_plies.is_some() {
                bail!("--random-plies goes with --openings none, not with a file of openings");
            }
            Some(path)
        }
        None if args.random_plies.is_some() => None,
        None => {
            let (name, text) = suites::builtin(args.variant);
            let list = suites::parse_suite(args.variant, text)
                .with_context(|| format!("the built-in suite {name}"))?;
            return Ok(from_list(args, list, &format!("suite {name} (built in)")));
        }
    };
    if let Some(path) = file {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read openings {path}"))?;
        let list =
            suites::parse_suite(args.variant, &text).with_context(|| format!("openings {path}"))?;
        return Ok(from_list(args, list, &format!("file {path}")));
    }
    let plies = args.random_plies.unwrap_or(8);
    let mut rng = Rng::new(args.seed);
    let mut list = Vec::new();
    while list.len() < pairs {
        let mut pos = Position::startpos(args.variant);
        random_plies(&mut pos, plies, &mut rng);
        if pos.outcome().is_none() && !wins_at_once(&pos) {
            list.push(pos);
        }
    }
    Ok(Openings {
        list,
        source: format!("{plies} random plies from the start (seed {})", args.seed),
    })
}

/// Random plies that a later pass through a suite plays from each of its
/// positions: one move of each side, so the side to move is the suite's.
pub(super) const PASS_PLIES: usize = 2;

/// Draws of random plies a later pass tries before it takes more plies.
const PASS_TRIES: usize = 64;

/// The openings taken from a suite or file in the seed's order. The first
/// pass plays the positions as they are; pass `p` (from 1) plays position
/// `i` of the shuffled list after random plies drawn by `later_pass`.
fn from_list(args: &MatchArgs, mut list: Vec<Position>, name: &str) -> Openings {
    let mut rng = Rng::new(args.seed);
    for i in (1..list.len()).rev() {
        list.swap(i, rng.below(i + 1));
    }
    let size = list.len();
    let pairs = args.opening_count();
    let mut seen: HashSet<u64> = list.iter().map(Position::hash).collect();
    let mut repeated = 0;
    let openings: Vec<Position> = (0..pairs)
        .map(|i| {
            let (pass, at) = (i / size, i % size);
            if pass == 0 {
                return list[at].clone();
            }
            match later_pass(&list[at], args.seed, pass, at, &mut seen) {
                Some(pos) => pos,
                None => {
                    repeated += 1;
                    list[at].clone()
                }
            }
        })
        .collect();
    let passes = pairs.div_ceil(size);
    let mut source = format!(
        "{name}: {size} positions, shuffled by seed {}, {}",
        args.seed,
        if args.no_swap {
            "one game each"
        } else {
            "each played with both colours"
        }
    );
    if passes > 1 {
        source.push_str(&format!(
            "; {passes} passes, each after the first from the positions after \
             {PASS_PLIES} random plies of its own"
        ));
        if repeated > 0 {
            source.push_str(&format!(
                " ({repeated} position(s) with no new random plies, played as they are)"
            ));
        }
    }
    Openings {
        list: openings,
        source,
    }
}

/// Position `pos` (number `at` of the shuffled list) as a later pass
/// (`pass` counts from 1) plays it: after random plies drawn from a
/// generator seeded by the match's seed, the pass and `at`, giving a
/// position that is not over, that the side to move cannot win at once,
/// and that no opening of the match has had (its key goes into `seen`).
/// [`PASS_PLIES`] plies first, then more for positions whose short lines
/// are used up; `None` when no draw gives a new position.
fn later_pass(
    pos: &Position,
    seed: u64,
    pass: usize,
    at: usize,
    seen: &mut HashSet<u64>,
) -> Option<Position> {
    let mut rng = Rng::new(
        seed ^ (pass as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ (at as u64).rotate_left(32),
    );
    for plies in [PASS_PLIES, 2 * PASS_PLIES, 4 * PASS_PLIES] {
        for _ in 0..PASS_TRIES {
            let mut next = pos.clone();
            random_plies(&mut next, plies, &mut rng);
            if next.outcome().is_none() && !wins_at_once(&next) && seen.insert(next.hash()) {
                return Some(next);
            }
        }
    }
    None
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
        let list = openings(&args).unwrap().list;
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
        let first = openings(&a).unwrap().list;
        assert_eq!(first.len(), 3);
        assert!(first.iter().all(|p| p.fullmove_number() == 4));
        let again = openings(&a).unwrap().list;
        assert_eq!(first, again);
        args_text.extend(["--seed", "2"]);
        let b = Cli::parse_from(&args_text).m;
        assert_ne!(openings(&b).unwrap().list, first);
        // Without colour swaps every game has its own opening.
        args_text.push("--no-swap");
        let c = Cli::parse_from(&args_text).m;
        let own = openings(&c).unwrap().list;
        assert_eq!(own.len(), 6);
        assert_eq!((c.opening_of(4), b.opening_of(4)), (4, 2));
        let distinct: std::collections::HashSet<String> = own.iter().map(|p| p.to_fen()).collect();
        assert_eq!(distinct.len(), 6);
    }
}

#[cfg(test)]
mod suite_tests {
    use super::*;
    use crate::arena::config::parse_args;
    use springboard_rules::Variant;

    #[test]
    fn the_default_is_the_games_suite_each_position_with_both_colours() {
        for v in Variant::ALL {
            let args = parse_args(&["--variant", v.name(), "--games", "10"]);
            let o = openings(&args).unwrap();
            let (name, text) = suites::builtin(v);
            let suite = suites::parse_suite(v, text).unwrap();
            assert_eq!(o.list.len(), 5);
            assert!(
                o.source.starts_with(&format!(
                    "suite {name} (built in): {} positions",
                    suite.len()
                )),
                "{}",
                o.source
            );
            assert!(o.source.ends_with("each played with both colours"));
            assert!(o.list.iter().all(|p| suite.contains(p)));
            // Games 2i and 2i+1 share opening i.
            assert_eq!((args.opening_of(6), args.opening_of(7)), (3, 3));
            // Another seed, another order; the same seed, the same.
            let other = openings(&parse_args(&[
                "--variant",
                v.name(),
                "--games",
                "10",
                "--seed",
                "2",
            ]))
            .unwrap();
            assert_ne!(other.list, o.list);
            assert_eq!(openings(&args).unwrap().list, o.list);
        }
        let random = openings(&parse_args(&["--openings", "none", "--games", "4"])).unwrap();
        assert_eq!(random.source, "8 random plies from the start (seed 1)");
        assert!(random.list.iter().all(|p| p.fullmove_number() == 5));
        let plies = openings(&parse_args(&["--random-plies", "2", "--games", "4"])).unwrap();
        assert!(plies.list.iter().all(|p| p.fullmove_number() == 2));
    }

    #[test]
    fn a_file_of_openings_is_checked() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("o.txt");
        let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
        std::fs::write(
            &path,
            format!(
                "# two\n{fen}\n\n{}\n",
                Position::startpos(Variant::Chess).to_fen()
            ),
        )
        .unwrap();
        let p = path.to_str().unwrap();
        let o = openings(&parse_args(&["--openings", p, "--games", "6"])).unwrap();
        assert_eq!(o.list.len(), 3);
        assert!(o.source.starts_with(&format!("file {p}: 2 positions")));
        assert!(openings(&parse_args(&["--openings", p, "--random-plies", "3"])).is_err());
        // Three passes through the two positions: the first plays them as
        // they are, each later one after two random plies, never a
        // position played before (the SPRT must not count a game twice:
        // at fixed nodes the same opening replays the same game).
        let args = parse_args(&["--openings", p, "--games", "12", "--seed", "5"]);
        let o = openings(&args).unwrap();
        assert_eq!(o.list.len(), 6);
        assert!(
            o.source.ends_with(
                "each played with both colours; 3 passes, each after the first \
                 from the positions after 2 random plies of its own"
            ),
            "{}",
            o.source
        );
        let mut first: Vec<String> = o.list[..2].iter().map(|p| p.to_fen()).collect();
        first.sort();
        let mut expected = vec![fen.to_string(), Position::startpos(Variant::Chess).to_fen()];
        expected.sort();
        assert_eq!(first, expected);
        let keys: std::collections::HashSet<u64> = o.list.iter().map(|p| p.hash()).collect();
        assert_eq!(keys.len(), 6);
        for (k, later) in o.list[2..].iter().enumerate() {
            // Opening 2 + k is position k % 2 of the first pass, two plies on.
            let from = &o.list[k % 2];
            let reached = from.legal_moves().into_iter().any(|a| {
                let mut one = from.clone();
                one.play(a);
                one.legal_moves().into_iter().any(|b| {
                    let mut two = one.clone();
                    two.play(b);
                    two == *later
                })
            });
            assert!(reached, "{} from {}", later.to_fen(), from.to_fen());
            assert_eq!(later.turn(), from.turn());
            assert!(later.outcome().is_none() && !wins_at_once(later));
        }
        assert_eq!(openings(&args).unwrap().list, o.list);
        std::fs::write(&path, format!("{fen}\n{fen}\n")).unwrap();
        let e = openings(&parse_args(&["--openings", p])).err().unwrap();
        assert!(
            format!("{e:#}").ends_with("line 2: the same position as line 1"),
            "{e:#}"
        );
        std::fs::write(&path, "rnbqkbnr/pppppppp/8/8 w\n").unwrap();
        assert!(openings(&parse_args(&["--openings", p])).is_err());
        assert!(openings(&parse_args(&["--openings", "/nonexistent/o.txt"])).is_err());
    }
}
