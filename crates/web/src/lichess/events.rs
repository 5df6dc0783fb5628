//! `GET /api/stream/event`: the token's account's events as ndjson. At
//! the start, a `gameStart` for each of its games being played and a
//! `challenge` for each open challenge it wrote or is challenged by; then
//! `challenge` when one is posted, `challengeDeclined`,
//! `challengeCanceled` (cancelled or withdrawn), `gameStart` when a
//! challenge of its becomes a game, and `gameFinish` when one of its games
//! ends. The lobby's news come from its hub (other processes' through
//! its NOTIFY channel); the ends of games are read from the games every
//! [`POLL`], so that those ended in another process are seen too.
//!
//! While the stream is open, the account holds the lobby like a lobby
//! socket: its challenges are not withdrawn, and it shows as online.

use super::auth::Authed;
use super::{ndjson, views, LichessCtx, KEEP_ALIVE};
use crate::error::ApiError;
use crate::games::Status;
use crate::lobby::hub::{self, Event};
use crate::lobby::view::{Listed, Viewer};
use crate::lobby::Lobby;
use axum::extract::State;
use axum::http::{Extensions, HeaderMap};
use axum::response::Response;
use serde_json::{json, Value};
use springboard_rules::Color;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::broadcast::error::RecvError;

/// How often the games of the stream are looked at for their end.
pub const POLL: Duration = Duration::from_secs(1);
/// How long a challenge that left the lobby waits for the news of what
/// became of it (a game started, a decline) before it is told as
/// cancelled.
const SETTLE: Duration = Duration::from_secs(2);
/// The most games looked at when the stream opens.
const START_GAMES: i64 = 50;

pub async fn stream(
    State(app): State<LichessCtx>,
    headers: HeaderMap,
    ext: Extensions,
) -> Result<Response, ApiError> {
    let me = super::auth::require(&app, &headers).await?;
    let lobby = app.lobby.get()?.clone();
    let origin = crate::proxy::origin(&headers, &ext).unwrap_or_default();
    let (lines, resp) = ndjson::stream();
    tokio::spawn(async move {
        let viewer = Viewer {
            held: me.holder.held.clone(),
            user: Some(me.user.id.clone()),
        };
        let (events, online) = lobby.hub.join(&viewer, Some(&me.user.name));
        if online {
            hub::online_changed(&lobby).await;
        }
        let mut s = Stream {
            app,
            lobby: lobby.clone(),
            me,
            viewer: viewer.clone(),
            origin,
            lines,
            challenges: HashMap::new(),
            leaving: HashMap::new(),
            games: HashMap::new(),
        };
        s.run(events).await;
        hub::leave(&lobby, &viewer).await;
    });
    Ok(resp)
}

struct Stream {
    app: LichessCtx,
    lobby: Arc<Lobby>,
    me: Authed,
    viewer: Viewer,
    origin: String,
    lines: ndjson::Lines,
    /// The challenges told, by id.
    challenges: HashMap<String, Value>,
    /// Those that left the lobby, until what became of them is known.
    leaving: HashMap<String, (Value, Instant)>,
    /// The games being played, and the account's colour in each.
    games: HashMap<String, Color>,
}

/// The client is gone.
struct Gone;

impl Stream {
    fn concerns(&self, c: &Listed) -> bool {
        let me = Some(&self.me.user.id);
        c.author_user.as_ref() == me || c.target_user.as_ref() == me
    }

    async fn send(&self, v: Value) -> Result<(), Gone> {
        if self.lines.send(&v).await {
            Ok(())
        } else {
            Err(Gone)
        }
    }

    async fn run(&mut self, mut events: tokio::sync::broadcast::Receiver<Event>) {
        if self.start().await.is_err() {
            return;
        }
        let mut poll = tokio::time::interval(POLL);
        let mut quiet_since = Instant::now();
        loop {
            let done = tokio::select! {
                e = events.recv() => match e {
                    Ok(e) => self.event(e).await,
                    Err(RecvError::Lagged(_)) => self.resync().await,
                    Err(RecvError::Closed) => Err(Gone),
                },
                _ = poll.tick() => {
                    let r = self.poll().await;
                    if r.is_ok() && quiet_since.elapsed() >= KEEP_ALIVE {
                        quiet_since = Instant::now();
                        if self.lines.keep_alive().await { Ok(()) } else { Err(Gone) }
                    } else {
                        r
                    }
                }
                _ = self.lines.closed() => Err(Gone),
            };
            if done.is_err() {
                return;
            }
        }
    }

    /// The games being played and the open challenges, as the stream
    /// opens.
    async fn start(&mut self) -> Result<(), Gone> {
        let ids = match &self.app.accounts.accounts {
            Some(a) => a
                .store
                .games_of(&self.me.user.id, START_GAMES)
                .await
                .unwrap_or_default(),
            None => Vec::new(),
        };
        for id in ids {
            self.game_started(&id).await?;
        }
        self.resync().await
    }

    /// Tells the challenges of the lobby's list not told yet.
    async fn resync(&mut self) -> Result<(), Gone> {
        for c in self.lobby.hub.list() {
            if self.concerns(&c) && !self.challenges.contains_key(&c.view.id) {
                self.added(&c).await?;
            }
        }
        Ok(())
    }

    async fn added(&mut self, c: &Listed) -> Result<(), Gone> {
        let v = views::challenge(c, &self.me.user.id, &self.origin);
        self.challenges.insert(c.view.id.clone(), v.clone());
        self.send(json!({"type": "challenge", "challenge": v}))
            .await
    }

    async fn event(&mut self, e: Event) -> Result<(), Gone> {
        match e {
            // An add may repeat a challenge the list had.
            Event::Add(c) if self.concerns(&c) && !self.challenges.contains_key(&c.view.id) => {
                self.added(&c).await
            }
            Event::Remove(id) => {
                if let Some(v) = self.challenges.remove(&id) {
                    self.leaving.insert(id, (v, Instant::now()));
                }
                Ok(())
            }
            Event::Start(s) if s.concerns(&self.viewer) => {
                self.leaving.remove(&s.challenge);
                self.challenges.remove(&s.challenge);
                self.game_started(&s.game).await
            }
            Event::Declined(d) => {
                let v = self
                    .leaving
                    .remove(&d.challenge)
                    .map(|(v, _)| v)
                    .or_else(|| self.challenges.remove(&d.challenge));
                // Told to its author; the decliner hears nothing more.
                match v {
                    Some(mut v) if d.concerns(&self.viewer) => {
                        v["status"] = json!("declined");
                        v["declineReason"] = json!("I'm not accepting challenges at the moment.");
                        self.send(json!({"type": "challengeDeclined", "challenge": v}))
                            .await
                    }
                    _ => Ok(()),
                }
            }
            _ => Ok(()),
        }
    }

    /// A game of the account: told as started if it is being played.
    async fn game_started(&mut self, id: &str) -> Result<(), Gone> {
        if self.games.contains_key(id) {
            return Ok(());
        }
        let Ok(live) = self.app.games.games.get(id).await else {
            return Ok(());
        };
        let Some(&color) = live.seats_of(Some(&self.me.holder)).first() else {
            return Ok(());
        };
        if live.rec.status == Status::Ended {
            return Ok(());
        }
        let now = self.app.now();
        let Ok(game) = views::event_game(&self.app, &live, color, now).await else {
            return Ok(());
        };
        self.games.insert(id.to_string(), color);
        self.send(json!({"type": "gameStart", "game": game})).await
    }

    /// Tells the challenges that left without news as cancelled, and the
    /// games that ended.
    async fn poll(&mut self) -> Result<(), Gone> {
        let settled: Vec<String> = self
            .leaving
            .iter()
            .filter(|(_, (_, at))| at.elapsed() >= SETTLE)
            .map(|(id, _)| id.clone())
            .collect();
        for id in settled {
            if let Some((mut v, _)) = self.leaving.remove(&id) {
                v["status"] = json!("canceled");
                self.send(json!({"type": "challengeCanceled", "challenge": v}))
                    .await?;
            }
        }
        let games: Vec<(String, Color)> = self.games.iter().map(|(k, c)| (k.clone(), *c)).collect();
        for (id, color) in games {
            let Ok(live) = self.app.games.games.get(&id).await else {
                continue;
            };
            if live.rec.status != Status::Ended {
                continue;
            }
            self.games.remove(&id);
            let now = self.app.now();
            if let Ok(game) = views::event_game(&self.app, &live, color, now).await {
                self.send(json!({"type": "gameFinish", "game": game}))
                    .await?;
            }
        }
        Ok(())
    }
}
