//! Reading the stored games back and comparing their moves, the samples
//! of the servers' RSS and open files, percentiles and the report.

use crate::client::{Acks, Stats};
use anyhow::Result;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// One server process's memory and open files.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sample {
    pub(crate) rss_kb: u64,
    pub(crate) fds: u64,
    /// User and system CPU time so far, in seconds.
    pub(crate) cpu_s: f64,
}

pub(crate) fn sample(pid: u32) -> Option<Sample> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let rss_kb = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))?
        .split_whitespace()
        .next()?
        .parse()
        .ok()?;
    let fds = std::fs::read_dir(format!("/proc/{pid}/fd")).ok()?.count() as u64;
    // utime and stime: fields 14 and 15 of /proc/PID/stat, in USER_HZ
    // (100 per second on Linux), counted after the command's ")".
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(Sample {
        rss_kb,
        fds,
        cpu_s: ticks as f64 / 100.0,
    })
}

/// Samples taken: (seconds since the start, pid, sample).
pub(crate) type Samples = Arc<Mutex<Vec<(f64, u32, Sample)>>>;

/// Samples every pid every `every` until stopped.
pub(crate) fn sampler(
    pids: Vec<u32>,
    every: Duration,
    t0: Instant,
) -> (Samples, tokio::task::JoinHandle<()>) {
    let out = Arc::new(Mutex::new(Vec::new()));
    let out2 = out.clone();
    let h = tokio::spawn(async move {
        let mut tick = tokio::time::interval(every);
        loop {
            tick.tick().await;
            for &pid in &pids {
                if let Some(s) = sample(pid) {
                    out2.lock().unwrap_or_else(|e| e.into_inner()).push((
                        t0.elapsed().as_secs_f64(),
                        pid,
                        s,
                    ));
                }
            }
        }
    });
    (out, h)
}

/// Every game's stored moves (long notation, in order) and version.
pub(crate) async fn stored_games(
    database: &str,
    ids: &[String],
) -> Result<HashMap<String, (Vec<String>, i64)>> {
    let mut out = HashMap::new();
    let parse = |moves: String| -> Result<Vec<String>> {
        let v: Vec<Value> = serde_json::from_str(&moves)?;
        Ok(v.iter()
            .map(|m| m["uci"].as_str().unwrap_or_default().to_string())
            .collect())
    };
    // The same reading for either database (the pools' types differ).
    macro_rules! read_back {
        ($pool:expr) => {{
            let pool = $pool;
            for id in ids {
                let row: Option<(String, i64)> =
                    sqlx::query_as("SELECT moves, version FROM games WHERE id = $1")
                        .bind(id)
                        .fetch_optional(&pool)
                        .await?;
                if let Some((moves, v)) = row {
                    out.insert(id.clone(), (parse(moves)?, v));
                }
            }
            pool.close().await;
        }};
    }
    if database.starts_with("postgres://") || database.starts_with("postgresql://") {
        read_back!(sqlx::PgPool::connect(database).await?);
    } else {
        let path = database.strip_prefix("sqlite://").unwrap_or(database);
        let opts = sqlx::sqlite::SqliteConnectOptions::new()
            .filename(path)
            .read_only(true);
        read_back!(sqlx::SqlitePool::connect_with(opts).await?);
    }
    Ok(out)
}

/// Compares each game's acknowledged moves with the stored ones:
/// (games checked, moves checked, lost, duplicated, wrong, problems).
/// `complete`: every move of the game was made by these players (so the
/// stored list has nothing else).
pub(crate) fn check_moves(
    games: &[(String, Acks, bool)],
    stored: &HashMap<String, (Vec<String>, i64)>,
) -> (usize, usize, usize, usize, usize, Vec<String>) {
    let (mut moves, mut lost, mut dup, mut wrong) = (0, 0, 0, 0);
    let mut problems = Vec::new();
    for (id, acks, complete) in games {
        let Some((list, _)) = stored.get(id) else {
            lost += acks.len();
            problems.push(format!("game {id} is not in the database"));
            continue;
        };
        let mut by_ply: HashMap<usize, &str> = HashMap::new();
        for (ply, uci) in acks {
            moves += 1;
            if by_ply.insert(*ply, uci).is_some() {
                dup += 1;
                problems.push(format!("{id}: ply {ply} acknowledged twice"));
            }
            match list.get(*ply) {
                None => {
                    lost += 1;
                    problems.push(format!(
                        "{id}: acknowledged {uci} at ply {ply} is not stored"
                    ));
                }
                Some(s) if s != uci => {
                    wrong += 1;
                    problems.push(format!("{id}: ply {ply} stored {s}, acknowledged {uci}"));
                }
                Some(_) => {}
            }
        }
        if *complete && list.len() > by_ply.len() {
            dup += list.len() - by_ply.len();
            problems.push(format!(
                "{id}: {} moves stored, {} acknowledged",
                list.len(),
                by_ply.len()
            ));
        }
        if *complete && (0..list.len()).any(|p| !by_ply.contains_key(&p)) {
            problems.push(format!("{id}: a stored ply was never acknowledged"));
        }
    }
    (games.len(), moves, lost, dup, wrong, problems)
}

pub(crate) fn percentile(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)] as f64 / 1000.0
}

pub(crate) fn print_errors(stats: &Stats) {
    let n = stats.errors.load(Ordering::Relaxed);
    println!("errors: {n}");
    for e in stats
        .first_errors
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
    {
        println!("  {e}");
    }
}

pub(crate) async fn verify(
    database: Option<&str>,
    games: &[(String, Acks, bool)],
    watched: &[(String, i64)],
) -> Result<bool> {
    let Some(db) = database else {
        println!("moves not checked against the database (no --database)");
        return Ok(true);
    };
    let ids: Vec<String> = games.iter().map(|g| g.0.clone()).collect();
    let stored = stored_games(db, &ids).await?;
    let (n, moves, lost, dup, wrong, problems) = check_moves(games, &stored);
    println!(
        "database check: {n} games, {moves} acknowledged moves compared with the stored move lists: \
         {lost} lost, {dup} duplicated, {wrong} different"
    );
    for p in problems.iter().take(20) {
        println!("  {p}");
    }
    let stale = watched
        .iter()
        .filter(|(id, v)| stored.get(id).is_some_and(|s| s.1 != *v))
        .count();
    if !watched.is_empty() {
        println!(
            "watchers: {} followed a game to its end, {stale} ended on a version other than the stored one",
            watched.len()
        );
    }
    Ok(problems.is_empty() && stale == 0)
}
