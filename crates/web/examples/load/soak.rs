//! The soak run: paced mixed load, samples into a CSV, a summary.

use crate::check::{percentile, print_errors, sample, verify, Sample};
use crate::cli::Cli;
use crate::client::{
    create_pair, play, play_pair, watch, Acks, Browser, Stats, Style, Target, VARIANTS,
};
use anyhow::{bail, Context, Result};
use serde_json::json;
use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Hands out fresh client numbers (source addresses).
struct Clients {
    next: AtomicU64,
    targets: Vec<Arc<Target>>,
    stats: Arc<Stats>,
}

impl Clients {
    fn browser(&self) -> Result<Browser> {
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        let t = self.targets[(n as usize) % self.targets.len()].clone();
        Browser::new(n, t, self.stats.clone())
    }
}

type Played = Arc<Mutex<Vec<(String, Acks, bool)>>>;

/// Games between two people, one after another, with watchers.
async fn people(c: Arc<Clients>, stop: Arc<AtomicBool>, played: Played, slot: usize) {
    let style = Style {
        max_plies: 60,
        think_min_ms: 300,
        think_max_ms: 1500,
        idle: Duration::from_secs(120),
    };
    let mut round = 0;
    while !stop.load(Ordering::Relaxed) {
        round += 1;
        let variant = VARIANTS[(slot + round) % VARIANTS.len()];
        let pair = match (c.browser(), c.browser()) {
            (Ok(w), Ok(b)) => create_pair(w, b, variant).await,
            (Err(e), _) | (_, Err(e)) => Err(e),
        };
        let pair = match pair {
            Ok(p) => p,
            Err(e) => {
                c.stats.error(format!("a game was not set up: {e:#}"));
                tokio::time::sleep(Duration::from_secs(5)).await;
                continue;
            }
        };
        let watcher = match c.browser() {
            Ok(b) => {
                let id = pair.id.clone();
                Some(tokio::spawn(
                    async move { watch(&b, &id, style.idle).await },
                ))
            }
            Err(_) => None,
        };
        match play_pair(&pair, style, None).await {
            Ok(acks) => {
                played
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push((pair.id.clone(), acks, true))
            }
            Err(e) => c.stats.error(format!("game {} failed: {e:#}", pair.id)),
        }
        if let Some(w) = watcher {
            match w.await {
                Ok(Ok(_)) => {}
                Ok(Err(e)) => c.stats.error(format!("watcher of {}: {e:#}", pair.id)),
                Err(e) => c.stats.error(format!("watcher of {}: {e}", pair.id)),
            }
        }
    }
}

/// Engine games at level 1: a person plays white over WebSocket.
async fn engine_games(c: Arc<Clients>, stop: Arc<AtomicBool>, played: Played, slot: usize) {
    let style = Style {
        max_plies: 40,
        think_min_ms: 500,
        think_max_ms: 2000,
        idle: Duration::from_secs(120),
    };
    let mut round = 0;
    while !stop.load(Ordering::Relaxed) {
        round += 1;
        let variant = VARIANTS[(slot + round) % VARIANTS.len()];
        let result: Result<(String, Acks)> = async {
            let b = c.browser()?;
            let (s, view) = b
                .post(
                    "/api/games",
                    json!({"variant": variant, "mode": "engine", "color": "white", "level": 1}),
                )
                .await?;
            if s != 201 {
                bail!("create an engine game: {s} {view}");
            }
            let id = view["id"].as_str().unwrap_or_default().to_string();
            let ws = b.ws(&id).await?;
            let acks = play(&b, &id, "white", ws, style, None).await?;
            Ok((id, acks))
        }
        .await;
        match result {
            Ok((id, acks)) => played
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push((id, acks, false)),
            Err(e) => {
                c.stats.error(format!("an engine game failed: {e:#}"));
                tokio::time::sleep(Duration::from_secs(5)).await;
            }
        }
    }
}

/// A visitor browsing: pages, assets and the read-only API, every
/// `every`; now and then a PGN import or an analysis.
async fn browsing(c: Arc<Clients>, stop: Arc<AtomicBool>, every: Duration) {
    let mut tick = tokio::time::interval(every);
    let mut b = match c.browser() {
        Ok(b) => b,
        Err(e) => return c.stats.error(format!("{e:#}")),
    };
    let mut n = 0u64;
    let mut ids: Vec<String> = Vec::new();
    while !stop.load(Ordering::Relaxed) {
        tick.tick().await;
        n += 1;
        // A new visitor now and then.
        if n.is_multiple_of(50) {
            if let Ok(nb) = c.browser() {
                b = nb;
            }
        }
        if n % 10 == 1 {
            if let Some(list) = b.expect_get("/api/games?list=recent&limit=50", 200).await {
                ids = list["games"]
                    .as_array()
                    .map(|g| {
                        g.iter()
                            .filter_map(|g| g["id"].as_str().map(String::from))
                            .collect()
                    })
                    .unwrap_or_default();
            }
            continue;
        }
        let id = if ids.is_empty() {
            None
        } else {
            Some(ids[rand::random_range(0..ids.len())].clone())
        };
        let variant = VARIANTS[rand::random_range(0..VARIANTS.len())];
        let path = match (rand::random_range(0..13u32), &id) {
            (0, _) => "/".to_string(),
            (1, _) => "/games".to_string(),
            (2, _) => "/static/app.js".to_string(),
            (3, _) => "/static/style.css".to_string(),
            (4, _) => "/api/info".to_string(),
            (5, _) => format!("/api/rules/{variant}"),
            (6, _) => "/api/games?list=ongoing".to_string(),
            (7, _) => "/api/games?list=mine".to_string(),
            (8, Some(id)) => format!("/g/{id}"),
            (9, Some(id)) => format!("/api/games/{id}/pgn"),
            (10, Some(id)) => format!("/api/games/{id}/fen"),
            (11, Some(id)) => format!("/api/games/{id}/moves"),
            (_, Some(id)) => format!("/api/games/{id}"),
            (_, None) => "/api/info".to_string(),
        };
        // Pages and assets are not JSON: the status is what counts.
        match b.get(&path).await {
            Ok((200, _)) => {}
            Ok((s, v)) => c.stats.error(format!("GET {path}: {s} {v}")),
            Err(e) => c.stats.error(format!("GET {path}: {e}")),
        }
        // An import of a stored game every 40 ticks, an analysis every 25.
        if let (0, Some(id)) = (n % 40, &id) {
            if let Some(pgn) = b.expect_get(&format!("/api/games/{id}/pgn"), 200).await {
                let text = pgn["text"].as_str().unwrap_or_default();
                let importer = c.browser();
                if let Ok(importer) = importer {
                    match importer
                        .post("/api/games", json!({"pgn": text, "mode": "local"}))
                        .await
                    {
                        Ok((201, _)) => {}
                        Ok((s, v)) => c.stats.error(format!("import of {id}: {s} {v}")),
                        Err(e) => c.stats.error(format!("import of {id}: {e}")),
                    }
                }
            }
        }
        if let (0, Some(id)) = (n % 25, &id) {
            match b
                .post(
                    &format!("/api/games/{id}/analysis"),
                    json!({"movetime": 100}),
                )
                .await
            {
                // 409: the game is over, or a newer analysis replaced it.
                Ok((200 | 409, _)) => {}
                Ok((s, v)) => c.stats.error(format!("analysis of {id}: {s} {v}")),
                Err(e) => c.stats.error(format!("analysis of {id}: {e}")),
            }
        }
    }
}

/// Least-squares slope of (x, y) in y per x.
fn slope(points: &[(f64, f64)]) -> f64 {
    let n = points.len() as f64;
    if points.len() < 2 {
        return 0.0;
    }
    let mx = points.iter().map(|p| p.0).sum::<f64>() / n;
    let my = points.iter().map(|p| p.1).sum::<f64>() / n;
    let sxy: f64 = points.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    let sxx: f64 = points.iter().map(|p| (p.0 - mx) * (p.0 - mx)).sum();
    if sxx == 0.0 {
        0.0
    } else {
        sxy / sxx
    }
}

#[allow(clippy::too_many_arguments)]
pub async fn run(
    cli: &Cli,
    targets: &[Arc<Target>],
    seconds: u64,
    every: u64,
    csv: &str,
    games: usize,
    engines: usize,
) -> Result<bool> {
    let stats = Arc::new(Stats::default());
    let clients = Arc::new(Clients {
        next: AtomicU64::new(0),
        targets: targets.to_vec(),
        stats: stats.clone(),
    });
    let stop = Arc::new(AtomicBool::new(false));
    let played: Played = Arc::new(Mutex::new(Vec::new()));
    let mut file = std::fs::File::create(csv).with_context(|| format!("cannot write {csv}"))?;
    writeln!(
        file,
        "seconds,pid,rss_kb,fds,cpu_s,moves,requests,errors,games_done"
    )?;
    let t0 = Instant::now();
    let mut tasks = Vec::new();
    for slot in 0..games {
        tasks.push(tokio::spawn(people(
            clients.clone(),
            stop.clone(),
            played.clone(),
            slot,
        )));
    }
    for slot in 0..engines {
        tasks.push(tokio::spawn(engine_games(
            clients.clone(),
            stop.clone(),
            played.clone(),
            slot,
        )));
    }
    for _ in 0..2 {
        tasks.push(tokio::spawn(browsing(
            clients.clone(),
            stop.clone(),
            Duration::from_millis(200),
        )));
    }
    let mut rows: Vec<(f64, u32, Sample)> = Vec::new();
    let mut tick = tokio::time::interval(Duration::from_secs(every.max(1)));
    let end = Duration::from_secs(seconds);
    loop {
        tick.tick().await;
        let t = t0.elapsed();
        for &pid in &cli.pid {
            let Some(s) = sample(pid) else {
                bail!("server process {pid} is gone after {} s", t.as_secs());
            };
            rows.push((t.as_secs_f64(), pid, s));
            writeln!(
                file,
                "{:.0},{pid},{},{},{:.2},{},{},{},{}",
                t.as_secs_f64(),
                s.rss_kb,
                s.fds,
                s.cpu_s,
                stats.moves.load(Ordering::Relaxed),
                stats.requests.load(Ordering::Relaxed),
                stats.errors.load(Ordering::Relaxed),
                played.lock().unwrap_or_else(|e| e.into_inner()).len()
            )?;
            file.flush()?;
        }
        if t >= end {
            break;
        }
    }
    stop.store(true, Ordering::Relaxed);
    // The games under way finish (at most 60 plies).
    for t in tasks {
        let _ = tokio::time::timeout(Duration::from_secs(300), t).await;
    }
    let secs = t0.elapsed().as_secs_f64();
    println!(
        "soak: {secs:.0} s, {} moves acknowledged, {} HTTP requests, {} games played",
        stats.moves.load(Ordering::Relaxed),
        stats.requests.load(Ordering::Relaxed),
        played.lock().unwrap_or_else(|e| e.into_inner()).len()
    );
    let mut lat = stats
        .latencies_us
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clone();
    lat.sort_unstable();
    println!(
        "move latency: p50 {:.2} ms, p99 {:.2} ms",
        percentile(&lat, 0.5),
        percentile(&lat, 0.99)
    );
    for &pid in &cli.pid {
        let mine: Vec<(f64, Sample)> = rows
            .iter()
            .filter(|r| r.1 == pid)
            .map(|r| (r.0, r.2))
            .collect();
        let (Some(first), Some(last)) = (mine.first(), mine.last()) else {
            continue;
        };
        let mib = |kb: u64| kb as f64 / 1024.0;
        let max_rss = mine.iter().map(|s| s.1.rss_kb).max().unwrap_or(0);
        let max_fds = mine.iter().map(|s| s.1.fds).max().unwrap_or(0);
        let rss: Vec<(f64, f64)> = mine.iter().map(|s| (s.0 / 60.0, mib(s.1.rss_kb))).collect();
        let half = &rss[rss.len() / 2..];
        let fds: Vec<(f64, f64)> = mine.iter().map(|s| (s.0 / 60.0, s.1.fds as f64)).collect();
        println!(
            "server pid {pid}: RSS start {:.1} MiB, end {:.1} MiB, max {:.1} MiB; \
             fds start {}, end {}, max {max_fds}",
            mib(first.1.rss_kb),
            mib(last.1.rss_kb),
            mib(max_rss),
            first.1.fds,
            last.1.fds
        );
        println!(
            "  CPU {:.0} s over {:.0} s ({:.0}% of one core)",
            last.1.cpu_s - first.1.cpu_s,
            last.0 - first.0,
            100.0 * (last.1.cpu_s - first.1.cpu_s) / (last.0 - first.0).max(1e-9)
        );
        println!(
            "  RSS slope {:.3} MiB/min over the run, {:.3} MiB/min over its second half; \
             fds slope {:.3}/min",
            slope(&rss),
            slope(half),
            slope(&fds)
        );
        println!("  minute  RSS MiB  fds");
        let mut next = 0.0;
        for s in &mine {
            if s.0 + 0.5 >= next {
                println!(
                    "  {:>6.0}  {:>7.1}  {:>3}",
                    s.0 / 60.0,
                    mib(s.1.rss_kb),
                    s.1.fds
                );
                next += 300.0;
            }
        }
    }
    print_errors(&stats);
    let played = played.lock().unwrap_or_else(|e| e.into_inner()).clone();
    let ok = verify(cli.database.as_deref(), &played, &[]).await?;
    Ok(ok && stats.errors.load(Ordering::Relaxed) == 0)
}
