//! Load and soak runs against running play servers (issue 15's load run,
//! issue 16's soak run). Not a test: see docs/play-server.md, "Load and
//! soak runs", and `scripts/load.sh`, which starts a server and runs this.
//!
//! `load`: every game has two browser identities (each its own cookie jar
//! and its own loopback source address, so the per-address creation limit
//! sees distinct clients): one creates a friend game, the other joins by
//! the link, both connect by WebSocket and play legal moves chosen with
//! the rules core until the game ends or reaches `--plies` (then the side
//! to move resigns); a few watchers follow games too. All games start
//! moving at once. It reports moves per second, the move latency (from
//! sending the move to the `ack` event) and the servers' memory (RSS from
//! `/proc/PID/status`) and open files (`/proc/PID/fd`), then reads every
//! game's stored moves from the database and compares them with the
//! moves each player saw acknowledged, in order: any lost or duplicated
//! move fails the run.
//!
//! `soak`: mixed web load for `--seconds` (page and API GETs, game
//! creations, PGN imports, analyses, games between people over
//! WebSocket, engine games at level 1), paced to stay light, with the
//! servers' RSS and open files sampled every `--sample` seconds into a CSV;
//! prints a summary (start, end and max RSS and fds, the RSS slope) and
//! checks the people's games against the database like `load`.

use anyhow::{anyhow, bail, Context, Result};
use clap::{Parser, Subcommand};
use futures_util::{SinkExt, StreamExt};
use reqwest::cookie::{CookieStore, Jar};
use serde_json::{json, Value};
use springboard_rules::notation::uci::to_uci;
use springboard_rules::{Position, Variant};
use springboard_web::protocol::{ClientMessage, MoveRequest, ServerMessage};
use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::net::TcpSocket;
use tokio::sync::Barrier;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

#[derive(Parser)]
#[command(about = "Load and soak runs against Springboard play servers")]
struct Cli {
    /// A server's base URL (repeat it: clients are spread over the servers,
    /// the creator and the joiner of a game on different ones).
    #[arg(long, required = true)]
    url: Vec<String>,
    /// A server process to sample (RSS and open files); repeatable.
    #[arg(long)]
    pid: Vec<u32>,
    /// The servers' database (a SQLite file or postgres://...), read after
    /// the run to check every game's moves.
    #[arg(long)]
    database: Option<String>,
    #[command(subcommand)]
    mode: Mode,
}

#[derive(Subcommand)]
enum Mode {
    /// Many games at once, as fast as the server answers.
    Load {
        /// Games played at once (two WebSocket clients each).
        #[arg(long, default_value_t = 100)]
        games: usize,
        /// Plies after which the side to move resigns.
        #[arg(long, default_value_t = 60)]
        plies: usize,
        /// Watchers (each its own identity), spread over the games.
        #[arg(long, default_value_t = 20)]
        watchers: usize,
        /// A player's thinking time before each move, in ms.
        #[arg(long, default_value_t = 0)]
        think_ms: u64,
    },
    /// Mixed, paced load for a long time with memory sampled.
    Soak {
        #[arg(long, default_value_t = 3600)]
        seconds: u64,
        /// Seconds between samples.
        #[arg(long, default_value_t = 10)]
        sample: u64,
        /// The CSV of the samples.
        #[arg(long, default_value = "soak.csv")]
        csv: String,
        /// Games between people at once.
        #[arg(long, default_value_t = 8)]
        games: usize,
        /// Engine games (level 1) at once.
        #[arg(long, default_value_t = 2)]
        engine_games: usize,
    },
}

/// Counters shared by every client.
#[derive(Default)]
struct Stats {
    moves: AtomicU64,
    requests: AtomicU64,
    errors: AtomicU64,
    latencies_us: Mutex<Vec<u64>>,
    first_errors: Mutex<Vec<String>>,
}

impl Stats {
    fn error(&self, what: String) {
        self.errors.fetch_add(1, Ordering::Relaxed);
        let mut e = self.first_errors.lock().unwrap_or_else(|e| e.into_inner());
        if e.len() < 20 {
            e.push(what);
        }
    }
}

/// One server.
struct Target {
    base: String,
    addr: SocketAddr,
}

impl Target {
    fn parse(url: &str) -> Result<Target> {
        let base = url.trim_end_matches('/').to_string();
        let host = base
            .strip_prefix("http://")
            .ok_or_else(|| anyhow!("--url must be http://host:port, not {url}"))?;
        let addr = host
            .parse()
            .with_context(|| format!("--url needs an IP address and a port: {url}"))?;
        Ok(Target { base, addr })
    }
}

/// The `n`th client's loopback source address (127.0.0.0/8 is all
/// loopback on Linux): 127.1.x.y.
fn client_ip(n: u64) -> IpAddr {
    let n = n % (250 * 250);
    IpAddr::V4(Ipv4Addr::new(
        127,
        1,
        u8::try_from(n / 250 + 1).unwrap_or(1),
        u8::try_from(n % 250 + 1).unwrap_or(1),
    ))
}

type Ws = tokio_tungstenite::WebSocketStream<tokio::net::TcpStream>;

/// One browser: its own cookie jar and source address.
struct Browser {
    http: reqwest::Client,
    jar: Arc<Jar>,
    ip: IpAddr,
    target: Arc<Target>,
    stats: Arc<Stats>,
}

impl Browser {
    fn new(n: u64, target: Arc<Target>, stats: Arc<Stats>) -> Result<Browser> {
        let jar = Arc::new(Jar::default());
        let ip = client_ip(n);
        let http = reqwest::Client::builder()
            .cookie_provider(jar.clone())
            .local_address(ip)
            .timeout(Duration::from_secs(60))
            .build()?;
        Ok(Browser {
            http,
            jar,
            ip,
            target,
            stats,
        })
    }

    async fn send(&self, req: reqwest::RequestBuilder) -> Result<(u16, Value)> {
        self.stats.requests.fetch_add(1, Ordering::Relaxed);
        let resp = req.send().await?;
        let status = resp.status().as_u16();
        let text = resp.text().await?;
        Ok((status, serde_json::from_str(&text).unwrap_or(Value::Null)))
    }

    async fn get(&self, path: &str) -> Result<(u16, Value)> {
        self.send(self.http.get(format!("{}{path}", self.target.base)))
            .await
    }

    async fn post(&self, path: &str, body: Value) -> Result<(u16, Value)> {
        self.send(
            self.http
                .post(format!("{}{path}", self.target.base))
                // The page's origin, as a browser sends it (the CSRF check).
                .header("origin", self.target.base.as_str())
                .json(&body),
        )
        .await
    }

    /// A GET that must answer `want`; anything else is counted an error.
    async fn expect_get(&self, path: &str, want: u16) -> Option<Value> {
        match self.get(path).await {
            Ok((s, v)) if s == want => Some(v),
            Ok((s, v)) => {
                self.stats.error(format!("GET {path}: {s} {v}"));
                None
            }
            Err(e) => {
                self.stats.error(format!("GET {path}: {e}"));
                None
            }
        }
    }

    /// The game's WebSocket from this browser's address with its cookie.
    async fn ws(&self, id: &str) -> Result<Ws> {
        let socket = TcpSocket::new_v4()?;
        socket.bind(SocketAddr::new(self.ip, 0))?;
        let stream = socket.connect(self.target.addr).await?;
        let url = format!("ws://{}/api/games/{id}/ws", self.target.addr);
        let mut req = url.as_str().into_client_request()?;
        let page: reqwest::Url = format!("{}/g/{id}", self.target.base).parse()?;
        if let Some(cookie) = self.jar.cookies(&page) {
            req.headers_mut().insert("cookie", cookie);
        }
        req.headers_mut()
            .insert("origin", self.target.base.parse()?);
        let (ws, _) = tokio_tungstenite::client_async(req, stream).await?;
        Ok(ws)
    }
}

/// What one player saw acknowledged: (ply, move) in order.
type Acks = Vec<(usize, String)>;

/// How a player plays.
#[derive(Clone, Copy)]
struct Style {
    max_plies: usize,
    think_min_ms: u64,
    think_max_ms: u64,
    /// How long without any message before the player gives up.
    idle: Duration,
}

/// Reads the next message (None: the socket ended).
async fn next_message(ws: &mut Ws, idle: Duration) -> Result<Option<ServerMessage>> {
    loop {
        let msg = tokio::time::timeout(idle, ws.next())
            .await
            .map_err(|_| anyhow!("no message for {} s", idle.as_secs()))?;
        match msg {
            None => return Ok(None),
            Some(Err(e)) => return Err(e.into()),
            Some(Ok(Message::Text(t))) => return Ok(Some(ServerMessage::parse(&t)?)),
            Some(Ok(Message::Close(f))) => bail!("closed by the server: {f:?}"),
            Some(Ok(_)) => continue,
        }
    }
}

/// A random legal move of the view's position, chosen with the rules core.
fn choose_move(view: &Value) -> Result<String> {
    let name = view["variant"].as_str().unwrap_or_default();
    let variant = Variant::from_name(name).ok_or_else(|| anyhow!("unknown variant {name}"))?;
    let fen = view["fen"].as_str().unwrap_or_default();
    let pos = Position::from_fen(variant, fen).map_err(|e| anyhow!("bad FEN {fen}: {e}"))?;
    let legal = pos.legal_moves();
    if legal.is_empty() {
        bail!("no legal move in a game being played: {fen}");
    }
    let m = legal[rand::random_range(0..legal.len())];
    Ok(to_uci(&pos, m))
}

/// Plays `color` in game `id` over `ws` until the game ends; returns the
/// moves acknowledged to this player.
async fn play(
    b: &Browser,
    id: &str,
    color: &str,
    mut ws: Ws,
    style: Style,
    start: Option<Arc<Barrier>>,
) -> Result<Acks> {
    if let Some(barrier) = start {
        barrier.wait().await;
    }
    let mut acks = Acks::new();
    let mut known = 0i64; // the version of the last view read
    let mut latest = 1i64; // the newest version heard of
    let mut pending: Option<(u64, usize, String, Instant)> = None;
    let mut next_ack = 0u64;
    loop {
        if pending.is_none() && latest > known {
            let view = b
                .expect_get(&format!("/api/games/{id}"), 200)
                .await
                .ok_or_else(|| anyhow!("cannot read game {id}"))?;
            known = view["version"].as_i64().unwrap_or(known);
            latest = latest.max(known);
            match view["status"].as_str() {
                Some("ended") => break,
                Some("playing") if view["turn"] == color => {
                    let plies = view["plies"].as_u64().unwrap_or(0) as usize;
                    if plies >= style.max_plies {
                        let (s, v) = b
                            .post(&format!("/api/games/{id}/resign"), json!({}))
                            .await?;
                        if s != 200 {
                            b.stats.error(format!("resign {id}: {s} {v}"));
                        }
                        continue;
                    }
                    let uci = choose_move(&view)?;
                    if style.think_max_ms > 0 {
                        let ms = rand::random_range(style.think_min_ms..=style.think_max_ms);
                        tokio::time::sleep(Duration::from_millis(ms)).await;
                    }
                    next_ack += 1;
                    let msg = ClientMessage::Move {
                        d: MoveRequest {
                            u: uci.clone(),
                            ply: Some(plies),
                        },
                        a: Some(next_ack.into()),
                    };
                    pending = Some((next_ack, plies, uci, Instant::now()));
                    ws.send(Message::Text(msg.to_text().into())).await?;
                }
                _ => {}
            }
            continue;
        }
        let Some(msg) = next_message(&mut ws, style.idle).await? else {
            bail!("the socket of game {id} ended before the game");
        };
        match msg {
            ServerMessage::State { v } => latest = latest.max(v),
            ServerMessage::Ack { a: ack, v } => {
                let Some((a, ply, uci, sent)) = pending.take() else {
                    bail!(
                        "an ack without a move: {}",
                        ServerMessage::Ack { a: ack, v }.to_text()
                    );
                };
                if ack.as_u64() != Some(a) {
                    bail!("ack {ack} for move {a}");
                }
                let us = u64::try_from(sent.elapsed().as_micros()).unwrap_or(u64::MAX);
                b.stats
                    .latencies_us
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push(us);
                b.stats.moves.fetch_add(1, Ordering::Relaxed);
                acks.push((ply, uci));
                latest = latest.max(v);
            }
            ServerMessage::Error { .. } => {
                b.stats
                    .error(format!("move refused in {id}: {}", msg.to_text()));
                pending = None;
                known = 0;
            }
            ServerMessage::Crowd { .. } | ServerMessage::Pong => {}
        }
    }
    let _ = ws.close(None).await;
    Ok(acks)
}

/// Follows game `id` until it ends; returns the last version it read.
async fn watch(b: &Browser, id: &str, idle: Duration) -> Result<i64> {
    let mut ws = b.ws(id).await?;
    let mut known = 0;
    loop {
        let Some(msg) = next_message(&mut ws, idle).await? else {
            bail!("a watcher's socket of {id} ended");
        };
        if matches!(msg, ServerMessage::State { v } if v > known) {
            let view = b
                .expect_get(&format!("/api/games/{id}"), 200)
                .await
                .ok_or_else(|| anyhow!("cannot read game {id}"))?;
            known = view["version"].as_i64().unwrap_or(0);
            if view["status"] == "ended" {
                let _ = ws.close(None).await;
                return Ok(known);
            }
        }
    }
}

/// A game between two people: the creator (white) and the joiner.
struct Pair {
    id: String,
    white: Browser,
    black: Browser,
}

const VARIANTS: [&str; 5] = ["chess", "hopchess", "trampoline", "jumpingking", "hoplit"];

/// Creates a friend game through `white` and joins it through `black`.
async fn create_pair(white: Browser, black: Browser, variant: &str) -> Result<Pair> {
    let (s, view) = white
        .post(
            "/api/games",
            json!({"variant": variant, "mode": "friend", "color": "white",
                   "clock": {"initial": 900, "increment": 10}}),
        )
        .await?;
    if s != 201 {
        bail!("create: {s} {view}");
    }
    let id = view["id"]
        .as_str()
        .ok_or_else(|| anyhow!("no id"))?
        .to_string();
    // The invitation link's token, which the creator's view carries.
    let invite = view["invite"]
        .as_str()
        .ok_or_else(|| anyhow!("no invitation"))?
        .to_string();
    let (s, view) = black
        .post(&format!("/api/games/{id}/join?invite={invite}"), json!({}))
        .await?;
    if s != 200 || view["you"] != "black" {
        bail!("join {id}: {s} you={}", view["you"]);
    }
    Ok(Pair { id, white, black })
}

/// Plays a created pair to its end; the merged acknowledged moves.
async fn play_pair(p: &Pair, style: Style, start: Option<Arc<Barrier>>) -> Result<Acks> {
    let (ws_w, ws_b) = tokio::try_join!(p.white.ws(&p.id), p.black.ws(&p.id))?;
    let (a, b) = tokio::try_join!(
        play(&p.white, &p.id, "white", ws_w, style, start.clone()),
        play(&p.black, &p.id, "black", ws_b, style, start)
    )?;
    Ok(a.into_iter().chain(b).collect())
}

/// One server process's memory and open files.
#[derive(Clone, Copy, Debug)]
struct Sample {
    rss_kb: u64,
    fds: u64,
    /// User and system CPU time so far, in seconds.
    cpu_s: f64,
}

fn sample(pid: u32) -> Option<Sample> {
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
type Samples = Arc<Mutex<Vec<(f64, u32, Sample)>>>;

/// Samples every pid every `every` until stopped.
fn sampler(pids: Vec<u32>, every: Duration, t0: Instant) -> (Samples, tokio::task::JoinHandle<()>) {
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
async fn stored_games(
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
fn check_moves(
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

fn percentile(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)] as f64 / 1000.0
}

fn print_errors(stats: &Stats) {
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

async fn verify(
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

async fn load(
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

fn main() -> Result<()> {
    let cli = Cli::parse();
    let targets: Vec<Arc<Target>> = cli
        .url
        .iter()
        .map(|u| Target::parse(u).map(Arc::new))
        .collect::<Result<_>>()?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    let ok = runtime.block_on(async {
        match &cli.mode {
            Mode::Load {
                games,
                plies,
                watchers,
                think_ms,
            } => {
                if *games == 0 {
                    bail!("--games must be at least 1");
                }
                load(&cli, &targets, *games, *plies, *watchers, *think_ms).await
            }
            Mode::Soak {
                seconds,
                sample,
                csv,
                games,
                engine_games,
            } => {
                soak::run(
                    &cli,
                    &targets,
                    *seconds,
                    *sample,
                    csv,
                    *games,
                    *engine_games,
                )
                .await
            }
        }
    })?;
    if !ok {
        std::process::exit(1);
    }
    Ok(())
}

/// The soak run: paced mixed load, samples into a CSV, a summary.
mod soak {
    use super::*;
    use std::io::Write;
    use std::sync::atomic::AtomicBool;

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
                Ok(acks) => played.lock().unwrap_or_else(|e| e.into_inner()).push((
                    pair.id.clone(),
                    acks,
                    true,
                )),
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
}
