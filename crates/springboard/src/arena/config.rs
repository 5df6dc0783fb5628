//! The options of a match (`springboard match --help`): engines, game,
//! clocks or fixed searches, openings, adjudication, output; and the `go`
//! command they make.

use super::stats::Sprt;
use clap::Args;
use springboard_rules::Variant;
use std::path::PathBuf;

#[derive(Args, Clone)]
pub struct MatchArgs {
    /// The first engine's command (program and arguments).
    #[arg(long)]
    pub(super) engine1: String,
    /// The second engine's command.
    #[arg(long)]
    pub(super) engine2: String,
    /// A UCI option for the first engine, `Name=Value` (repeatable).
    #[arg(long = "option1", value_parser = parse_option)]
    pub(super) options1: Vec<(String, String)>,
    /// A UCI option for the second engine, `Name=Value` (repeatable).
    #[arg(long = "option2", value_parser = parse_option)]
    pub(super) options2: Vec<(String, String)>,
    /// The game (sent as UCI_Variant to engines that have the option).
    #[arg(long, default_value = "chess", value_parser = crate::args::parse_variant)]
    pub(super) variant: Variant,
    /// Time control: seconds per game plus increment, e.g. `10+0.1`.
    #[arg(long, default_value = "10+0.1", value_parser = parse_tc)]
    pub(super) tc: TimeControl,
    /// Search every move to N nodes (`go nodes N`) instead of playing on
    /// the clock: no clocks, so no time losses.
    #[arg(long)]
    pub(super) nodes: Option<u64>,
    /// Search every move to depth N (`go depth N`; with `--nodes`, both).
    #[arg(long)]
    pub(super) depth: Option<u32>,
    /// The first engine thinks MS milliseconds a move (`go movetime MS`)
    /// instead of playing on the clock; with `--movetime2`. The way the
    /// play page gives each level its time (levels at the page's time).
    #[arg(long, value_name = "MS", requires = "movetime2", conflicts_with_all = ["nodes", "depth"])]
    pub(super) movetime1: Option<u64>,
    /// The second engine's milliseconds a move (`go movetime MS`).
    #[arg(long, value_name = "MS", requires = "movetime1", conflicts_with_all = ["nodes", "depth"])]
    pub(super) movetime2: Option<u64>,
    /// With `--nodes`, `--depth` or `--movetime1/2`: seconds an engine may
    /// think on one move beyond its movetime;
    /// an engine that gives no bestmove by then has crashed (it loses).
    #[arg(long, default_value_t = 60)]
    pub(super) move_timeout: u64,
    /// Games to play (each opening is played twice, colours swapped).
    #[arg(long, default_value_t = 20)]
    pub(super) games: usize,
    /// Play each opening once (engine1 still alternates colours). For
    /// self-play at fixed nodes or depth, where the colour-swapped replay
    /// of an opening repeats the same game move for move.
    #[arg(long)]
    pub(super) no_swap: bool,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    pub(super) concurrency: usize,
    /// The openings: a file of positions (one position text per line, `#`
    /// starts a comment line), or `none` for random plies from the start
    /// position. Default: the game's suite (openings/<variant>.txt, built
    /// into the binary; docs/engine.md, "Opening suites").
    #[arg(long, value_name = "FILE|none")]
    pub(super) openings: Option<String>,
    /// Random plies from the start position instead of a suite (default 8
    /// with `--openings none`).
    #[arg(long)]
    pub(super) random_plies: Option<usize>,
    /// Seed of the random openings, and of the order the suite's positions
    /// are played in (the same seed plays the same positions in the same
    /// order).
    #[arg(long, default_value_t = 1)]
    pub(super) seed: u64,
    /// Append the games to this PGN file.
    #[arg(long)]
    pub(super) pgn: Option<PathBuf>,
    /// Resign adjudication: a side whose engine scores at most -N cp while
    /// the other scores at least N for `--resign-moves` moves each loses.
    #[arg(long, default_value_t = 1000)]
    pub(super) resign_score: i32,
    /// Moves for resign adjudication (0: no resign adjudication).
    #[arg(long, default_value_t = 4)]
    pub(super) resign_moves: u32,
    /// Draw adjudication: both engines within N cp of 0 for
    /// `--draw-moves` moves each, from move `--draw-movenumber` on.
    #[arg(long, default_value_t = 10)]
    pub(super) draw_score: i32,
    /// Moves for draw adjudication (0: no draw adjudication).
    #[arg(long, default_value_t = 8)]
    pub(super) draw_moves: u32,
    #[arg(long, default_value_t = 40)]
    pub(super) draw_movenumber: u32,
    /// A game still running after this many plies is a draw.
    #[arg(long, default_value_t = 600)]
    pub(super) max_plies: usize,
    /// Milliseconds an engine may exceed its clock before it loses on time.
    #[arg(long, default_value_t = 0)]
    pub(super) time_margin: u64,
    /// Start no game after this many seconds: the games running finish and
    /// the report counts the games played (a bounded run).
    #[arg(long)]
    pub(super) max_seconds: Option<u64>,
    /// SPRT `elo0,elo1,alpha,beta` (e.g. `0,10,0.05,0.05`): stop when decided.
    #[arg(long)]
    pub(super) sprt: Option<Sprt>,
}

impl MatchArgs {
    /// How many openings the games need.
    pub(super) fn opening_count(&self) -> usize {
        if self.no_swap {
            self.games
        } else {
            self.games.div_ceil(2)
        }
    }

    /// The opening of game `index` (from 0).
    pub(super) fn opening_of(&self, index: usize) -> usize {
        if self.no_swap {
            index
        } else {
            index / 2
        }
    }

    /// Whether moves are searched to a fixed node count, depth or time
    /// (no clocks).
    pub(super) fn fixed_search(&self) -> bool {
        self.nodes.is_some() || self.depth.is_some() || self.movetime1.is_some()
    }

    /// The fixed thinking time of a move of engine1 (`engine1`) or engine2,
    /// in milliseconds, if the match gives one.
    pub(super) fn movetime(&self, engine1: bool) -> Option<u64> {
        if engine1 {
            self.movetime1
        } else {
            self.movetime2
        }
    }

    /// The `go` command for a move of engine1 (`engine1`) or engine2, given
    /// both clocks in milliseconds.
    pub(super) fn go_command(&self, clocks: [i64; 2], engine1: bool) -> String {
        if let Some(ms) = self.movetime(engine1) {
            return format!("go movetime {ms}");
        }
        if self.fixed_search() {
            let mut go = "go".to_string();
            if let Some(d) = self.depth {
                go.push_str(&format!(" depth {d}"));
            }
            if let Some(n) = self.nodes {
                go.push_str(&format!(" nodes {n}"));
            }
            return go;
        }
        let inc = self.tc.inc_ms;
        format!(
            "go wtime {} btime {} winc {inc} binc {inc}",
            clocks[0].max(1),
            clocks[1].max(1)
        )
    }
}

/// Base time and increment in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub(super) base_ms: u64,
    pub(super) inc_ms: u64,
}

impl std::fmt::Display for TimeControl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let secs = |ms: u64| {
            let s = format!("{}.{:03}", ms / 1000, ms % 1000);
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        };
        write!(f, "{}+{}", secs(self.base_ms), secs(self.inc_ms))
    }
}

fn seconds_to_ms(text: &str) -> Option<u64> {
    let s: f64 = text.trim().parse().ok()?;
    (s.is_finite() && s >= 0.0).then(|| (s * 1000.0).round() as u64)
}

fn parse_tc(text: &str) -> Result<TimeControl, String> {
    let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
    match (seconds_to_ms(base), seconds_to_ms(inc)) {
        (Some(base_ms), Some(inc_ms)) if base_ms > 0 => Ok(TimeControl { base_ms, inc_ms }),
        _ => Err(format!(
            "time control needs seconds+increment like 10+0.1, not '{text}'"
        )),
    }
}

fn parse_option(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((n, v)) if !n.trim().is_empty() => Ok((n.trim().to_string(), v.trim().to_string())),
        _ => Err(format!("an option needs Name=Value, not '{text}'")),
    }
}

#[cfg(test)]
#[derive(clap::Parser)]
pub(super) struct Cli {
    #[command(flatten)]
    pub(super) m: MatchArgs,
}

/// The options of `match` with `extra` after two engine commands.
#[cfg(test)]
pub(super) fn parse_args(extra: &[&str]) -> MatchArgs {
    use clap::Parser;
    let mut words = vec!["x", "--engine1", "a", "--engine2", "b"];
    words.extend_from_slice(extra);
    Cli::parse_from(words).m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls() {
        assert_eq!(
            parse_tc("10+0.1"),
            Ok(TimeControl {
                base_ms: 10_000,
                inc_ms: 100
            })
        );
        assert_eq!(
            parse_tc("1+0.01"),
            Ok(TimeControl {
                base_ms: 1_000,
                inc_ms: 10
            })
        );
        assert_eq!(
            parse_tc("60"),
            Ok(TimeControl {
                base_ms: 60_000,
                inc_ms: 0
            })
        );
        assert_eq!(parse_tc("10+0.1").unwrap().to_string(), "10+0.1");
        for bad in ["", "x+1", "0+1", "-5+0", "10+y"] {
            assert!(parse_tc(bad).is_err(), "{bad}");
        }
        assert_eq!(
            parse_option("UCI_Elo=1800"),
            Ok(("UCI_Elo".into(), "1800".into()))
        );
        assert!(parse_option("=3").is_err());
        assert!(parse_option("Hash").is_err());
    }

    #[test]
    fn go_commands() {
        let clocks = [900, -5];
        assert_eq!(
            parse_args(&["--tc", "1+0.01"]).go_command(clocks, true),
            "go wtime 900 btime 1 winc 10 binc 10"
        );
        let nodes = parse_args(&["--nodes", "2000"]);
        assert!(nodes.fixed_search());
        assert_eq!(nodes.go_command(clocks, false), "go nodes 2000");
        assert_eq!(
            parse_args(&["--depth", "3"]).go_command(clocks, true),
            "go depth 3"
        );
        assert_eq!(
            parse_args(&["--nodes", "50", "--depth", "4"]).go_command(clocks, true),
            "go depth 4 nodes 50"
        );
        assert!(!parse_args(&[]).fixed_search());
        let times = parse_args(&["--movetime1", "200", "--movetime2", "380"]);
        assert!(times.fixed_search());
        assert_eq!(times.go_command(clocks, true), "go movetime 200");
        assert_eq!(times.go_command(clocks, false), "go movetime 380");
    }

    #[test]
    fn movetimes_come_in_pairs_and_not_with_nodes_or_depth() {
        use clap::Parser;
        let parse = |args: &[&str]| {
            let mut all = vec!["x", "--engine1", "a", "--engine2", "b"];
            all.extend_from_slice(args);
            Cli::try_parse_from(all).map(|c| c.m)
        };
        assert!(parse(&["--movetime1", "200"]).is_err());
        assert!(parse(&["--movetime2", "200"]).is_err());
        assert!(parse(&["--movetime1", "200", "--movetime2", "9", "--nodes", "5"]).is_err());
        assert!(parse(&["--movetime1", "200", "--movetime2", "9", "--depth", "5"]).is_err());
        assert!(parse(&["--movetime1", "x", "--movetime2", "9"]).is_err());
        assert!(parse(&["--movetime1", "200", "--movetime2", "9"]).is_ok());
    }
}
