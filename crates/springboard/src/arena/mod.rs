//! `springboard match`: games between two UCI engines, with clocks,
//! openings, adjudication, PGN output, Elo and SPRT. Every move is checked
//! by the rules core: an illegal move loses the game and is reported.
//!
//! [`run`] here deals the games to worker threads by pairs (an opening
//! with both colours) and collects them;
//! `config` holds the options, `openings` the start positions, `game` one
//! game (clocks, faults, adjudication), `report` the PGN, running score and
//! final report, `engine` the UCI engine process and `stats` Elo and SPRT.

mod config;
mod engine;
mod game;
mod openings;
mod report;
pub(crate) mod stats;

use anyhow::{bail, Context, Result};
pub use config::MatchArgs;
use engine::UciEngine;
use game::play_game;
use openings::openings;
use report::{half_points, pgn, sprt_block, summary, Tally};
use stats::{Penta, SprtWatch};
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::channel;
use std::sync::Arc;
use std::time::Duration;

pub fn run(args: &MatchArgs) -> Result<()> {
    if args.games == 0 || args.concurrency == 0 {
        bail!("--games and --concurrency must be at least 1");
    }
    // Check both engines start before playing.
    let mut names = Vec::new();
    for cmd in [&args.engine1, &args.engine2] {
        let e = UciEngine::start(cmd, &[])?;
        names.push(e.name.clone());
        e.quit();
    }
    let openings = openings(args)?;
    println!("Openings: {}", openings.source);
    let openings = Arc::new(openings.list);
    // Work is handed out by pairs (the two games of an opening, colours
    // swapped; one game with --no-swap): a stop (SPRT, --max-seconds)
    // never leaves half a pair.
    let per_pair = if args.no_swap { 1 } else { 2 };
    let units = args.games.div_ceil(per_pair);
    let next = Arc::new(AtomicUsize::new(0));
    let halt = Arc::new(AtomicBool::new(false));
    let started = std::time::Instant::now();
    let (tx, rx) = channel();
    let mut workers = Vec::new();
    for _ in 0..args.concurrency.min(units) {
        let (args, openings, next, halt, tx) = (
            args.clone(),
            openings.clone(),
            next.clone(),
            halt.clone(),
            tx.clone(),
        );
        workers.push(std::thread::spawn(move || loop {
            let out_of_time = args
                .max_seconds
                .is_some_and(|s| started.elapsed() >= Duration::from_secs(s));
            if out_of_time || halt.load(Ordering::SeqCst) {
                break;
            }
            let unit = next.fetch_add(1, Ordering::SeqCst);
            if unit >= units {
                break;
            }
            let first = unit * per_pair;
            for index in first..(first + per_pair).min(args.games) {
                let played = play_game(&args, index, openings[args.opening_of(index)].clone());
                if tx.send((index, played)).is_err() {
                    return;
                }
            }
        }));
    }
    drop(tx);
    let mut pgn_file = match &args.pgn {
        Some(p) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .with_context(|| format!("cannot open {}", p.display()))?,
        ),
        None => None,
    };
    let mut tally = Tally::default();
    let mut watch = args.sprt.map(SprtWatch::new);
    // Pairs: the first game's half points until its twin ends.
    let mut penta = Penta::default();
    let mut halves = std::collections::HashMap::new();
    for (index, played) in rx {
        let g = match played {
            Ok(g) => g,
            Err(e) => {
                tally.not_played += 1;
                println!("Game {} not played: {e:#}", index + 1);
                continue;
            }
        };
        tally.add(&g);
        if !args.no_swap {
            let pair = g.index / 2;
            match halves.remove(&pair) {
                Some(other) => penta.add([other, half_points(&g)]),
                None => {
                    halves.insert(pair, half_points(&g));
                }
            }
        }
        let wdl = tally.engine1;
        println!(
            "Game {} ({} vs {}): {} {{{}}}",
            g.index + 1,
            g.white,
            g.black,
            g.result.pgn(),
            g.reason
        );
        if let Some(f) = pgn_file.as_mut() {
            f.write_all(pgn(args, &g).as_bytes())?;
        }
        let pairs = (!args.no_swap).then_some(penta);
        println!("{}", summary(wdl, pairs, args.sprt));
        if watch.as_mut().is_some_and(|w| w.see(wdl, pairs)) {
            halt.store(true, Ordering::SeqCst);
        }
    }
    for w in workers {
        // A worker that panicked lost only its own games, reported above.
        let _ = w.join();
    }
    let finished = (tally.engine1.games() + tally.not_played) as usize;
    if finished < args.games {
        println!(
            "Stopped early (--max-seconds or SPRT): {finished} of {} games",
            args.games
        );
    }
    println!("{}", tally.report([&names[0], &names[1]]));
    if let Some(w) = watch {
        let (wdl, pairs) = w.counted(tally.engine1, (!args.no_swap).then_some(penta));
        let later = tally.engine1.games().saturating_sub(wdl.games());
        if later > 0 {
            println!(
                "SPRT decided after {} games; the {later} game(s) that ended later \
                 (already being played) are not counted in it",
                wdl.games()
            );
        }
        println!("{}", sprt_block(w.sprt, wdl, pairs));
    }
    if tally.not_played > 0 {
        bail!("{} games could not be played", tally.not_played);
    }
    Ok(())
}
