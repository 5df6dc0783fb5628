//! `springboard tune`: a logistic (Texel) fit of a game's evaluation
//! weights to the results of `springboard datagen` records. The fit itself
//! is `springboard_engine::tune`; use and design: "The tuner" in
//! docs/engine.md.

use crate::datagen::{Record, WhiteResult};
use anyhow::{bail, Context, Result};
use clap::Args;
use springboard_engine::eval::weights;
use springboard_engine::tune::{rust_source, with_values, Trace, TuneOptions, Tuner};
use springboard_rules::{Position, Variant};
use std::path::PathBuf;

#[derive(Args)]
pub struct TuneArgs {
    /// The game.
    #[arg(long, value_parser = crate::args::parse_variant)]
    variant: Variant,
    /// Data files written by `springboard datagen` for this game (records
    /// after a file's last `# game` line, a cut-off game, are skipped).
    #[arg(long, required = true, num_args = 1..)]
    data: Vec<PathBuf>,
    /// Full passes of Adam over the data.
    #[arg(long, default_value_t = 2000)]
    epochs: usize,
    /// Adam's step in centipawns.
    #[arg(long, default_value_t = 1.0)]
    rate: f64,
    /// Weight of the search score in the target (0: game results only).
    #[arg(long, default_value_t = 0.0)]
    blend: f64,
    /// L2 pull of each weight towards its current value (per squared cp).
    #[arg(long, default_value_t = 0.0)]
    l2: f64,
    /// The records of every Nth game are held out to measure the fit (0: none).
    #[arg(long, default_value_t = 10)]
    holdout: usize,
    /// At most this many records (the first ones of the files).
    #[arg(long)]
    max_records: Option<usize>,
    /// Write the tuned weights as Rust source to this file (else stdout).
    #[arg(long)]
    out: Option<PathBuf>,
    /// The name of the constant in the Rust source.
    #[arg(long, default_value = "TUNED")]
    name: String,
}

/// The records of the complete games of a data file, each with the
/// number of its game in the file (from 0).
fn read_records(variant: Variant, path: &PathBuf) -> Result<Vec<(usize, Position, Record)>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let mut out = Vec::new();
    let mut game = Vec::new();
    let mut games = 0;
    for (n, line) in text.lines().enumerate() {
        if line.starts_with("# game ") {
            out.extend(game.drain(..).map(|(p, r)| (games, p, r)));
            games += 1;
            continue;
        }
        if line.trim().is_empty() {
            continue;
        }
        let record = Record::parse(variant, line)
            .with_context(|| format!("{} line {}", path.display(), n + 1))?;
        let pos = Position::from_fen(variant, &record.fen)
            .with_context(|| format!("{} line {}", path.display(), n + 1))?;
        game.push((pos, record));
    }
    Ok(out)
}

fn result_value(r: WhiteResult) -> f64 {
    match r {
        WhiteResult::Win => 1.0,
        WhiteResult::Draw => 0.5,
        WhiteResult::Loss => 0.0,
    }
}

pub fn run(args: &TuneArgs) -> Result<()> {
    if !(0.0..=1.0).contains(&args.blend) {
        bail!("--blend must be between 0 and 1");
    }
    let rate_ok = args.rate > 0.0 && args.rate.is_finite();
    if !(rate_ok && args.l2 >= 0.0 && args.l2.is_finite()) {
        bail!("--rate must be positive and --l2 not negative");
    }
    let mut records = Vec::new();
    for path in &args.data {
        records.extend(read_records(args.variant, path)?);
    }
    if let Some(max) = args.max_records {
        records.truncate(max);
    }
    if records.is_empty() {
        bail!("no complete game in the data");
    }
    let base = weights::for_variant(args.variant);
    let mut train = Trace::new(base);
    let mut held = Trace::new(base);
    let started = std::time::Instant::now();
    for (game, pos, r) in &records {
        let trace = if args.holdout > 0 && game % args.holdout == args.holdout - 1 {
            &mut held
        } else {
            &mut train
        };
        trace.add(pos, result_value(r.result), f64::from(r.white_cp), base);
    }
    let used = train.used().iter().filter(|&&u| u).count();
    eprintln!(
        "{}: {} records ({} to fit, {} held out) traced in {:.1} s; {} of {} tuned weights in use",
        args.variant,
        records.len(),
        train.entries.len(),
        held.entries.len(),
        started.elapsed().as_secs_f64(),
        used,
        train.tuned.len()
    );
    let options = TuneOptions {
        epochs: args.epochs,
        rate: args.rate,
        score_blend: args.blend,
        l2: args.l2,
    };
    let mut tuner = Tuner::new(&train, options);
    let k = tuner.fit_k();
    let mut check = Tuner::new(&held, TuneOptions { l2: 0.0, ..options });
    check.k = k;
    let start = train.start();
    let before = tuner.loss_and_gradient(&start).0;
    // The held-out loss as text ("-" when no game is held out).
    let held_loss = |theta: &[f64]| {
        if held.entries.is_empty() {
            "-".to_string()
        } else {
            format!("{:.6}", check.loss_and_gradient(theta).0)
        }
    };
    let held_before = held_loss(&start);
    eprintln!("K = {k:.4}; loss {before:.6} (held out {held_before})");
    let theta = tuner.run(|epoch, loss| eprintln!("epoch {epoch}: loss {loss:.6}"));
    let after = tuner.loss_and_gradient(&theta).0;
    let held_after = held_loss(&theta);
    eprintln!(
        "after {} epochs: loss {after:.6} (held out {held_after}), was {before:.6} ({held_before})",
        args.epochs
    );
    let all = tuner.all_values(&theta);
    let tuned = with_values(base, &train.params, &all);
    // The largest changes, for the log.
    let mut changes: Vec<(f64, &str, i32, i32)> = train
        .tuned
        .iter()
        .zip(&theta)
        .map(|(&i, &v)| {
            let old = train.base[i];
            let new = v.round() as i32;
            (
                (new - old).abs() as f64,
                train.params[i].name.as_str(),
                old,
                new,
            )
        })
        .filter(|c| c.0 > 0.0)
        .collect();
    changes.sort_by(|a, b| b.0.total_cmp(&a.0));
    eprintln!("{} weights changed; the largest:", changes.len());
    for (_, name, old, new) in changes.iter().take(25) {
        eprintln!("  {name}: {old} -> {new}");
    }
    let source = rust_source(&args.name, &tuned);
    match &args.out {
        Some(path) => {
            std::fs::write(path, source).with_context(|| format!("writing {}", path.display()))?
        }
        None => print!("{source}"),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_of_complete_games_only() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("data.txt");
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let text = format!(
            "{start} | 12 | 1.0\n{start} | -3 | 1.0\n# game 1: 1-0 mate, 30 plies\n\
             {start} | 5 | 0.5\n# game 2: 1/2-1/2 repetition, 9 plies\n{start} | 7 | 0.0\n"
        );
        std::fs::write(&path, text).unwrap();
        let records = read_records(Variant::Chess, &path).unwrap();
        let games: Vec<usize> = records.iter().map(|r| r.0).collect();
        assert_eq!(games, vec![0, 0, 1]);
        assert_eq!(records[1].2.white_cp, -3);
        assert_eq!(records[2].2.result, WhiteResult::Draw);
        std::fs::write(
            &path,
            format!("{start} | x | 1.0\n# game 1: 1-0 mate, 3 plies\n"),
        )
        .unwrap();
        let err = read_records(Variant::Chess, &path).unwrap_err();
        assert!(format!("{err:#}").contains("line 1"), "{err:#}");
    }
}
