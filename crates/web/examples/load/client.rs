//! The browser identities, their requests and sockets, playing and
//! watching games.

use anyhow::{anyhow, bail, Context, Result};
use futures_util::{SinkExt, StreamExt};
use reqwest::cookie::{CookieStore, Jar};
use serde_json::{json, Value};
use springboard_rules::notation::uci::{parse_uci, to_uci};
use springboard_rules::{Color, Game, Position, Variant};
use springboard_web::protocol::{ClientMessage, MoveRequest, PlayedNews, ServerMessage};
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

/// A random legal move of the position, chosen with the rules core.
pub(crate) fn choose_move(pos: &Position) -> Result<String> {
    let legal = pos.legal_moves();
    if legal.is_empty() {
        bail!("no legal move in a game being played: {}", pos.to_fen());
    }
    let m = legal[rand::random_range(0..legal.len())];
    Ok(to_uci(pos, m))
}

/// A game as a page knows it: read once (`GET /api/games/{id}`, as the
/// page's first load), then kept up to date from the socket's move
/// messages with the rules core, as the page does; read again only when a
/// version is missed or the game changed otherwise (a `state` message).
pub(crate) struct Known {
    pub(crate) game: Game,
    pub(crate) version: i64,
    pub(crate) ended: bool,
}

impl Known {
    /// Reads the game's view (one HTTP request, counted).
    pub(crate) async fn read(b: &Browser, id: &str) -> Result<Known> {
        let view = b
            .expect_get(&format!("/api/games/{id}"), 200)
            .await
            .ok_or_else(|| anyhow!("cannot read game {id}"))?;
        let name = view["variant"].as_str().unwrap_or_default();
        let variant = Variant::from_name(name).ok_or_else(|| anyhow!("unknown variant {name}"))?;
        let fen = view["start_fen"].as_str().unwrap_or_default();
        let start = Position::from_fen(variant, fen).map_err(|e| anyhow!("bad FEN {fen}: {e}"))?;
        let mut game = Game::new(start);
        for h in view["history"].as_array().into_iter().flatten() {
            let uci = h["uci"].as_str().unwrap_or_default();
            let m = parse_uci(game.position(), uci).map_err(|e| anyhow!("{uci}: {e}"))?;
            game.play(m).map_err(|e| anyhow!("{uci}: {e}"))?;
        }
        Ok(Known {
            game,
            version: view["version"].as_i64().unwrap_or(0),
            ended: view["status"] == "ended",
        })
    }

    /// Plays the move of a socket's move message; false when it is not the
    /// next version (the caller reads the game again).
    pub(crate) fn apply(&mut self, v: i64, d: &PlayedNews) -> Result<bool> {
        if v != self.version + 1 || d.ply != self.game.moves().len() + 1 {
            return Ok(false);
        }
        let m = parse_uci(self.game.position(), &d.uci).map_err(|e| anyhow!("{}: {e}", d.uci))?;
        self.game.play(m).map_err(|e| anyhow!("{}: {e}", d.uci))?;
        self.version = v;
        self.ended = d.status == "ended";
        Ok(true)
    }

    /// Brings the game up to `msg` (a move played on it, or the game read
    /// again when a version was missed).
    pub(crate) async fn hear(&mut self, b: &Browser, id: &str, msg: &ServerMessage) -> Result<()> {
        match msg {
            // A move the rules core could not follow: read the game again.
            ServerMessage::Move { v, d } if *v > self.version && !self.apply(*v, d)? => {
                *self = Known::read(b, id).await?;
            }
            ServerMessage::State { v } | ServerMessage::Ack { v, .. } if *v > self.version => {
                *self = Known::read(b, id).await?;
            }
            _ => {}
        }
        Ok(())
    }
}

/// Plays `color` in game `id` over `ws` until the game ends, as the page
/// does: the game read once, every move (its own and the opponent's)
/// played from the socket's move messages, its own sent over the socket;
/// returns the moves acknowledged to this player.
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
    let me = if color == "white" {
        Color::White
    } else {
        Color::Black
    };
    let mut acks = Acks::new();
    let mut known = Known::read(b, id).await?;
    let mut pending: Option<(u64, usize, String, Instant)> = None;
    // A resignation sent: the game is over once the server says so.
    let mut resigned = false;
    let mut next_ack = 0u64;
    loop {
        // A move that ends the game is announced to the game's sockets
        // (`move`, with the result) and acknowledged to its sender; the
        // announcement may come first, and the ack is still read.
        if known.ended && pending.is_none() {
            break;
        }
        let plies = known.game.moves().len();
        if pending.is_none() && !resigned && known.game.position().turn() == me {
            if plies >= style.max_plies {
                let (s, v) = b
                    .post(&format!("/api/games/{id}/resign"), json!({}))
                    .await?;
                if s != 200 {
                    b.stats.error(format!("resign {id}: {s} {v}"));
                }
                resigned = true;
                continue;
            }
            let uci = choose_move(known.game.position())?;
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
            continue;
        }
        let Some(msg) = next_message(&mut ws, style.idle).await? else {
            bail!("the socket of game {id} ended before the game");
        };
        if let ServerMessage::Ack { a: ack, .. } = &msg {
            let Some((a, ply, uci, sent)) = pending.take() else {
                bail!("an ack without a move: {}", msg.to_text());
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
        }
        if let ServerMessage::Error { .. } = &msg {
            b.stats
                .error(format!("move refused in {id}: {}", msg.to_text()));
            pending = None;
            known = Known::read(b, id).await?;
            continue;
        }
        known.hear(b, id, &msg).await?;
    }
    let _ = ws.close(None).await;
    Ok(acks)
}

/// Follows game `id` until it ends, as a watching page does (the game
/// read once, then its moves from the socket); returns its last version.
pub(crate) async fn watch(b: &Browser, id: &str, idle: Duration) -> Result<i64> {
    let mut ws = b.ws(id).await?;
    let mut known = Known::read(b, id).await?;
    while !known.ended {
        let Some(msg) = next_message(&mut ws, idle).await? else {
            bail!("a watcher's socket of {id} ended");
        };
        known.hear(b, id, &msg).await?;
    }
    let _ = ws.close(None).await;
    Ok(known.version)
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
