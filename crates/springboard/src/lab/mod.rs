//! `springboard lab`: measured answers to the questions the rule pages of
//! the games ask (issue 43). One subcommand per question and `all`; each
//! plays (or reads, when kept from an earlier run) the games it needs with
//! the engine in-process and writes `<out>/<question>.json` (the shape in
//! `json.rs`, drawn by the site's Lab page). `lab/README.md` gives the
//! answers and the commands.
//!
//! Modules: `sets` (the run's settings, the strengths, the sets of games),
//! `runner` (playing a set on every core into a resumable file), `stats`
//! and `tally` (the statistics), `values` (piece values by two methods),
//! `json` (the result files), and one module per question.

mod endgames;
mod every;
mod hopchess;
mod hoplit;
mod json;
mod jumpingking;
mod runner;
mod sets;
mod stats;
mod tally;
mod trampoline;
mod values;

use anyhow::{bail, Result};
use clap::{Args, Subcommand};
use std::path::PathBuf;

#[derive(Args)]
pub struct LabArgs {
    #[command(subcommand)]
    question: Question,
    /// Where the result files go.
    #[arg(long, global = true, default_value = "lab")]
    out: PathBuf,
    /// Where the games are kept (a stopped run goes on from them); default
    /// `<out>/runs`.
    #[arg(long, global = true)]
    work: Option<PathBuf>,
    /// Games per set (the question's default when not given).
    #[arg(long, global = true)]
    games: Option<usize>,
    /// Nodes a move at the strong level (the weak level searches a quarter).
    #[arg(long, global = true)]
    nodes: Option<u64>,
    /// Seed: game N of a set is always the same game.
    #[arg(long, global = true, default_value_t = 1)]
    seed: u64,
    /// Games played at once (default: the machine's cores).
    #[arg(long, global = true)]
    concurrency: Option<usize>,
    /// A few games per set at very low nodes (for CI: checks the
    /// plumbing, answers nothing).
    #[arg(long, global = true)]
    tiny: bool,
}

#[derive(Subcommand, Clone, Copy, PartialEq, Eq)]
enum Question {
    /// Every game: first mover's score, draw rate, endings, length, values.
    Every,
    /// The Weak Square of the Jumping King: who is favoured, weak-square endings.
    Jumpingking,
    /// Hop Chess: more attacking than chess; king-and-pawn endgames.
    Hopchess,
    /// Hoplit Chess: the Hoplit's worth, and whether dropping it is worth it.
    Hoplit,
    /// Trampoline Chess: the pieces' worth against chess, the queen above all.
    Trampoline,
    /// Every question, one after the other.
    All,
}

fn answer(lab: &sets::Lab, q: Question) -> Result<()> {
    let report = match q {
        Question::Every => every::run(lab)?,
        Question::Jumpingking => jumpingking::run(lab)?,
        Question::Hopchess => hopchess::run(lab)?,
        Question::Hoplit => hoplit::run(lab)?,
        Question::Trampoline => trampoline::run(lab)?,
        Question::All => {
            for q in [
                Question::Every,
                Question::Jumpingking,
                Question::Hopchess,
                Question::Hoplit,
                Question::Trampoline,
            ] {
                answer(lab, q)?;
            }
            return Ok(());
        }
    };
    json::write(&report, &lab.out)
}

pub fn run(args: &LabArgs) -> Result<()> {
    if args.games == Some(0) || args.nodes == Some(0) || args.concurrency == Some(0) {
        bail!("--games, --nodes and --concurrency must be at least 1");
    }
    let concurrency = args.concurrency.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    let command = std::iter::once("springboard".to_string())
        .chain(std::env::args().skip(1))
        .collect::<Vec<_>>()
        .join(" ");
    let lab = sets::Lab {
        out: args.out.clone(),
        run: runner::RunOptions {
            work: args.work.clone().unwrap_or_else(|| args.out.join("runs")),
            concurrency,
        },
        games: args.games,
        nodes: args.nodes,
        seed: args.seed,
        tiny: args.tiny,
        command,
        commit: env!("SPRINGBOARD_COMMIT").to_string(),
        date: json::today(),
    };
    answer(&lab, args.question)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tiny run of every question: each file is written, parses back and
    /// has the shape the Lab page reads.
    #[test]
    fn a_tiny_run_writes_every_question_in_shape() {
        let dir = tempfile::tempdir().unwrap();
        let lab = sets::Lab {
            out: dir.path().to_path_buf(),
            run: runner::RunOptions {
                work: dir.path().join("runs"),
                concurrency: 2,
            },
            games: Some(2),
            nodes: None,
            seed: 1,
            tiny: true,
            command: "springboard lab all --tiny".to_string(),
            commit: "abc1234".to_string(),
            date: "2026-11-29".to_string(),
        };
        answer(&lab, Question::All).unwrap();
        let mut ids = std::collections::BTreeSet::new();
        for q in ["every", "jumpingking", "hopchess", "hoplit", "trampoline"] {
            let text = std::fs::read_to_string(dir.path().join(format!("{q}.json"))).unwrap();
            let v: serde_json::Value = serde_json::from_str(&text).unwrap();
            assert_eq!(v["schema"], 1, "{q}");
            assert_eq!(v["question"], q);
            for key in [
                "title", "quote", "answer", "method", "commit", "command", "date",
            ] {
                assert!(v[key].is_string(), "{q}: {key}");
            }
            assert!(v["games_played"].as_u64().unwrap() > 0, "{q}");
            assert!(!v["games"].as_array().unwrap().is_empty(), "{q}");
            for f in v["figures"].as_array().unwrap() {
                assert!(f["label"].is_string() && f["unit"].is_string(), "{q}: {f}");
                assert!(f["value"].is_number() && f["n"].is_u64(), "{q}: {f}");
                for b in ["lo", "hi"] {
                    assert!(f[b].is_number() || f[b].is_null(), "{q}: {f}");
                }
            }
            let charts = v["charts"].as_array().unwrap();
            assert!(!charts.is_empty(), "{q}");
            for c in charts {
                let id = c["id"].as_str().unwrap();
                assert!(id.starts_with(q), "{id}");
                assert!(ids.insert(id.to_string()), "{id} twice");
                // The page draws no empty chart (the web crate's check).
                assert!(
                    !c["series"].as_array().unwrap().is_empty(),
                    "{id}: no series"
                );
                match c["kind"].as_str().unwrap() {
                    "bars" => {
                        let n = c["categories"].as_array().unwrap().len();
                        for s in c["series"].as_array().unwrap() {
                            let values = s["values"].as_array().unwrap();
                            assert_eq!(values.len(), n, "{id}");
                            for x in values {
                                assert!(x["value"].is_number(), "{id}");
                            }
                        }
                        assert!(c["y_label"].is_string());
                    }
                    "histogram" => {
                        let n = c["bins"].as_array().unwrap().len();
                        for s in c["series"].as_array().unwrap() {
                            assert_eq!(s["values"].as_array().unwrap().len() + 1, n, "{id}");
                        }
                        assert!(c["x_label"].is_string() && c["y_label"].is_string());
                    }
                    other => panic!("{id}: kind {other}"),
                }
            }
            assert!(v["notes"].is_array());
        }
        // A second run reads the kept games and plays none.
        let runs = std::fs::read_dir(dir.path().join("runs")).unwrap().count();
        answer(&lab, Question::Every).unwrap();
        assert_eq!(
            std::fs::read_dir(dir.path().join("runs")).unwrap().count(),
            runs
        );
    }
}
