//! The load run: many games at once, as fast as the server answers.

use crate::check::{percentile, print_errors, sample, sampler, verify, Sample};
use crate::cli::Cli;
use crate::client::{create_pair, play_pair, watch, Browser, Stats, Style, Target, VARIANTS};
use anyhow::Result;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::Barrier;

pub(crate) async fn load(
    cli: &Cli,
    targets: &[Arc<Target>],
    games: usize,
    plies: usize,
    watchers: usize,
    think_ms: u64,
) -> Result<bool> {
    let stats = Arc::new(Stats::default());
    let t0 = Instant::now();
    let (samples, sampling) = sampler(cli.pid.clone(), Duration::from_millis(500), t0);
    let before: Vec<(u32, Option<Sample>)> = cli.pid.iter().map(|&p| (p, sample(p))).collect();

    // Set-up: every game created and joined.
    let mut setups = Vec::new();
    for g in 0..games {
        let n = 2 * g as u64;
        let w = Browser::new(n, targets[(2 * g) % targets.len()].clone(), stats.clone())?;
        let b = Browser::new(
            n + 1,
            targets[(2 * g + 1) % targets.len()].clone(),
            stats.clone(),
        )?;
        let variant = VARIANTS[g % VARIANTS.len()];
        setups.push(tokio::spawn(create_pair(w, b, variant)));
    }
    let mut pairs = Vec::new();
    for s in setups {
        pairs.push(s.await??);
    }
    println!(
        "{} games created and joined in {:.1} s",
        pairs.len(),
        t0.elapsed().as_secs_f64()
    );

    let idle = Duration::from_secs(120);
    let mut watch_tasks = Vec::new();
    for w in 0..watchers {
        let id = pairs[w % pairs.len()].id.clone();
        let n = 2 * games as u64 + w as u64;
        let b = Browser::new(n, targets[w % targets.len()].clone(), stats.clone())?;
        watch_tasks.push(tokio::spawn(async move {
            let v = watch(&b, &id, idle).await?;
            anyhow::Ok((id, v))
        }));
    }

    let style = Style {
        max_plies: plies,
        think_min_ms: think_ms,
        think_max_ms: think_ms,
        idle,
    };
    let barrier = Arc::new(Barrier::new(2 * games + 1));
    let mut play_tasks = Vec::new();
    for p in pairs {
        let barrier = barrier.clone();
        play_tasks.push(tokio::spawn(async move {
            let acks = play_pair(&p, style, Some(barrier)).await?;
            anyhow::Ok((p.id.clone(), acks, true))
        }));
    }
    barrier.wait().await;
    let start = Instant::now();
    let connected: Vec<Option<Sample>> = cli.pid.iter().map(|&p| sample(p)).collect();
    let mut played = Vec::new();
    let mut failed = 0;
    for t in play_tasks {
        match t.await? {
            Ok(g) => played.push(g),
            Err(e) => {
                failed += 1;
                stats.error(format!("a game failed: {e:#}"));
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let mut watched = Vec::new();
    for t in watch_tasks {
        match t.await? {
            Ok(w) => watched.push(w),
            Err(e) => stats.error(format!("a watcher failed: {e:#}")),
        }
    }
    sampling.abort();
    let after: Vec<(u32, Option<Sample>)> = cli.pid.iter().map(|&p| (p, sample(p))).collect();

    let moves = stats.moves.load(Ordering::Relaxed);
    let mut lat = stats
        .latencies_us
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clone();
    lat.sort_unstable();
    println!(
        "{games} games ({} finished, {failed} failed), {} WebSocket players and {watchers} watchers on {} server(s)",
        played.len(),
        2 * games,
        targets.len()
    );
    println!(
        "moves: {moves} in {secs:.1} s = {:.0} moves/s; {} HTTP requests",
        moves as f64 / secs.max(1e-9),
        stats.requests.load(Ordering::Relaxed)
    );
    println!(
        "move latency (send -> ack): p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        percentile(&lat, 0.5),
        percentile(&lat, 0.9),
        percentile(&lat, 0.99),
        percentile(&lat, 1.0)
    );
    let samples = samples.lock().unwrap_or_else(|e| e.into_inner()).clone();
    for (i, (pid, b)) in before.iter().enumerate() {
        let mine: Vec<Sample> = samples
            .iter()
            .filter(|s| s.1 == *pid)
            .map(|s| s.2)
            .chain([*b, connected[i], after[i].1].into_iter().flatten())
            .collect();
        let max_rss = mine.iter().map(|s| s.rss_kb).max().unwrap_or(0);
        let max_fds = mine.iter().map(|s| s.fds).max().unwrap_or(0);
        let show = |s: &Option<Sample>| match s {
            Some(s) => format!("RSS {:.1} MiB, {} fds", s.rss_kb as f64 / 1024.0, s.fds),
            None => "gone".to_string(),
        };
        println!(
            "server pid {pid}: before {}; all connected {}; max RSS {:.1} MiB, max {} fds; after {}",
            show(b),
            show(&connected[i]),
            max_rss as f64 / 1024.0,
            max_fds,
            show(&after[i].1)
        );
        if let (Some(c), Some(a)) = (connected[i], after[i].1) {
            println!(
                "  CPU time while the games were played: {:.1} s ({:.0}% of one core)",
                a.cpu_s - c.cpu_s,
                100.0 * (a.cpu_s - c.cpu_s) / secs.max(1e-9)
            );
        }
    }
    print_errors(&stats);
    let ok = verify(cli.database.as_deref(), &played, &watched).await?;
    Ok(ok && failed == 0 && stats.errors.load(Ordering::Relaxed) == 0)
}
