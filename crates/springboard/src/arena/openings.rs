//! The opening positions of a match: the game's suite (built in, see
//! `crate::suites`), a file of positions, or random plies from the start
//! position (reproducible by seed).

use super::config::MatchArgs;
use crate::suites::{self, random_plies, wins_at_once, Rng};
use anyhow::{bail, Context, Result};
use springboard_rules::Position;

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
/// seed, from the first on, and again from the first when all are used.
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

/// The openings taken from a suite or file in the seed's order.
fn from_list(args: &MatchArgs, mut list: Vec<Position>, name: &str) -> Openings {
    let mut rng = Rng::new(args.seed);
    for i in (1..list.len()).rev() {
        list.swap(i, rng.below(i + 1));
    }
    let size = list.len();
    let pairs = args.opening_count();
    Openings {
        list: (0..pairs).map(|i| list[i % size].clone()).collect(),
        source: format!(
            "{name}: {size} positions, shuffled by seed {}, {}",
            args.seed,
            if args.no_swap {
                "one game each"
            } else {
                "each played with both colours"
            }
        ),
    }
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
