//! The browser identities, their requests and sockets, playing and
//! watching games.

use anyhow::{anyhow, bail, Context, Result};
use futures_util::{SinkExt, StreamExt};
use reqwest::cookie::{CookieStore, Jar};
use serde_json::{json, Value};
use springboard_rules::notation::uci::to_uci;
use springboard_rules::{Position, Variant};
use springboard_web::protocol::{ClientMessage, MoveRequest, ServerMessage};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::net::TcpSocket;
use tokio::sync::Barrier;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

/// Counters shared by every client.
#[derive(Default)]
pub(crate) struct Stats {
    pub(crate) moves: AtomicU64,
    pub(crate) requests: AtomicU64,
    pub(crate) errors: AtomicU64,
    pub(crate) latencies_us: Mutex<Vec<u64>>,
    pub(crate) first_errors: Mutex<Vec<String>>,
}

impl Stats {
    pub(crate) fn error(&self, what: String) {
        self.errors.fetch_add(1, Ordering::Relaxed);
        let mut e = self.first_errors.lock().unwrap_or_else(|e| e.into_inner());
        if e.len() < 20 {
            e.push(what);
        }
    }
}

/// One server.
pub(crate) struct Target {
    base: String,
    addr: SocketAddr,
}

impl Target {
    pub(crate) fn parse(url: &str) -> Result<Target> {
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
pub(crate) fn client_ip(n: u64) -> IpAddr {
    let n = n % (250 * 250);
    IpAddr::V4(Ipv4Addr::new(
        127,
        1,
        u8::try_from(n / 250 + 1).unwrap_or(1),
        u8::try_from(n % 250 + 1).unwrap_or(1),
    ))
}

pub(crate) type Ws = tokio_tungstenite::WebSocketStream<tokio::net::TcpStream>;

/// One browser: its own cookie jar and source address.
pub(crate) struct Browser {
    http: reqwest::Client,
    jar: Arc<Jar>,
    ip: IpAddr,
    target: Arc<Target>,
    stats: Arc<Stats>,
}

impl Browser {
    pub(crate) fn new(n: u64, target: Arc<Target>, stats: Arc<Stats>) -> Result<Browser> {
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

    pub(crate) async fn send(&self, req: reqwest::RequestBuilder) -> Result<(u16, Value)> {
        self.stats.requests.fetch_add(1, Ordering::Relaxed);
        let resp = req.send().await?;
        let status = resp.status().as_u16();
        let text = resp.text().await?;
        Ok((status, serde_json::from_str(&text).unwrap_or(Value::Null)))
    }

    pub(crate) async fn get(&self, path: &str) -> Result<(u16, Value)> {
        self.send(self.http.get(format!("{}{path}", self.target.base)))
            .await
    }

    pub(crate) async fn post(&self, path: &str, body: Value) -> Result<(u16, Value)> {
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
    pub(crate) async fn expect_get(&self, path: &str, want: u16) -> Option<Value> {
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
    pub(crate) async fn ws(&self, id: &str) -> Result<Ws> {
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
pub(crate) type Acks = Vec<(usize, String)>;

/// How a player plays.
#[derive(Clone, Copy)]
pub(crate) struct Style {
    pub(crate) max_plies: usize,
    pub(crate) think_min_ms: u64,
    pub(crate) think_max_ms: u64,
    /// How long without any message before the player gives up.
    pub(crate) idle: Duration,
}

/// Reads the next message (None: the socket ended).
pub(crate) async fn next_message(ws: &mut Ws, idle: Duration) -> Result<Option<ServerMessage>> {
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
pub(crate) fn choose_move(view: &Value) -> Result<String> {
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
pub(crate) async fn play(
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
pub(crate) async fn watch(b: &Browser, id: &str, idle: Duration) -> Result<i64> {
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
pub(crate) struct Pair {
    pub(crate) id: String,
    white: Browser,
    black: Browser,
}

pub(crate) const VARIANTS: [&str; 5] = ["chess", "hopchess", "trampoline", "jumpingking", "hoplit"];

/// Creates a friend game through `white` and joins it through `black`.
pub(crate) async fn create_pair(white: Browser, black: Browser, variant: &str) -> Result<Pair> {
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
pub(crate) async fn play_pair(p: &Pair, style: Style, start: Option<Arc<Barrier>>) -> Result<Acks> {
    let (ws_w, ws_b) = tokio::try_join!(p.white.ws(&p.id), p.black.ws(&p.id))?;
    let (a, b) = tokio::try_join!(
        play(&p.white, &p.id, "white", ws_w, style, start.clone()),
        play(&p.black, &p.id, "black", ws_b, style, start)
    )?;
    Ok(a.into_iter().chain(b).collect())
}
