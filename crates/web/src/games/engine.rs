//! Engine moves and flag timers: what runs after a change of a game with
//! an engine seat or a running clock, and `POST /api/games/{id}/engine`.

use super::view::GameView;
use super::GamesCtx;
use crate::engine::EngineClock;
use crate::error::ApiError;
use crate::extract::body;
use crate::games::{self, Action, GameError, Live, Mode};
use crate::logs::{self, JobLog};
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::Json;
use serde::Deserialize;
use springboard_rules::notation::uci::to_uci;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use super::request::*;

/// A timer that looks at the game when the running side's time would be
/// up, so that a flag falls (and every socket hears of it) without any
/// request. The flag itself is judged by the server's clock.
pub(crate) fn schedule_flag(app: &GamesCtx, live: &Live) {
    // One timer per game: a newer version of the game replaces the older
    // timer (which would otherwise sleep on, holding memory, until a time
    // that no longer matters), and a game whose clock stopped has none.
    let id = live.rec.id.clone();
    let version = live.rec.version;
    let mut flags = app.flags.lock().unwrap_or_else(|e| e.into_inner());
    match flags.get(&id) {
        // A newer change of the game already set its timer.
        Some((v, _)) if *v > version => return,
        Some((_, old)) => old.abort(),
        None => {}
    }
    flags.remove(&id);
    // The flag's fall or, in a rated game, the first move's limit
    // (whichever comes first).
    let now = app.games.now();
    let flag = live.running().and_then(|side| live.remaining(side, now));
    let abort = live.abort_at().map(|at| at.saturating_sub(now));
    let Some(left) = flag.into_iter().chain(abort).min() else {
        return;
    };
    let wait = Duration::from_millis(u64::try_from(left.max(0)).unwrap_or(0).saturating_add(20));
    let weak = Arc::downgrade(app);
    let key = id.clone();
    let task = tokio::spawn(async move {
        tokio::time::sleep(wait).await;
        let Some(app) = weak.upgrade() else { return };
        {
            let mut flags = app.flags.lock().unwrap_or_else(|e| e.into_inner());
            if flags.get(&key).is_some_and(|(v, _)| *v == version) {
                flags.remove(&key);
            }
        }
        if let Ok(l) = app.games.peek(&key).await {
            if l.rec.version == version {
                let _ = app.games.get(&key).await;
            }
        }
    });
    flags.insert(id, (version, task.abort_handle()));
}

/// Starts the engine's move in `live` if the engine is to move there: one
/// job per game, waiting for a worker of the pool, stopped by any change
/// of the game; its move is stored like any other.
pub(crate) fn schedule_engine(app: &GamesCtx, live: &Live) {
    let Some(engine) = app.engine.clone() else {
        return;
    };
    if !live.engine_to_move() {
        return;
    }
    let id = live.rec.id.clone();
    let version = live.rec.version;
    let token = app.pool.start_job(&id);
    let mut log = JobLog::queued("move", &id);
    let app = Arc::clone(app);
    tokio::spawn(async move {
        let _worker = app.pool.worker().await;
        let snap = match app.games.peek(&id).await {
            Ok(s) => s,
            Err(e) => {
                app.pool.end_job(&id, token);
                log.cancelled(&format!("the game cannot be read: {e}"));
                return;
            }
        };
        if !app.pool.is_current(&id, token) || snap.rec.version != version {
            app.pool.end_job(&id, token);
            log.cancelled("the game changed or a newer job replaced this one");
            return;
        }
        log.started();
        let level = u8::try_from(snap.rec.engine_level.unwrap_or(1)).unwrap_or(1);
        let now = app.games.now();
        let clock = snap.rec.clock_initial_ms.map(|_| {
            let turn = snap.game.position().turn();
            let ms = |c| u64::try_from(snap.remaining(c, now).unwrap_or(0).max(0)).unwrap_or(0);
            EngineClock {
                own_ms: ms(turn),
                opponent_ms: ms(!turn),
                increment_ms: u64::try_from(snap.rec.clock_increment_ms.unwrap_or(0)).unwrap_or(0),
            }
        });
        let stop = Arc::clone(&snap.engine_stop);
        let game = snap.game.clone();
        let span = log.span();
        let found = tokio::task::spawn_blocking(move || {
            let _in_job = span.enter();
            match clock {
                Some(c) => engine.best_move_on_clock(&game, level, c, stop),
                None => engine.best_move(&game, level, stop),
            }
        })
        .await;
        app.pool.end_job(&id, token);
        let m = match found {
            Ok(Some(m)) => m,
            Ok(None) => {
                log.cancelled("stopped, or no move");
                return;
            }
            Err(e) => {
                log.failed(&format!("the engine {}", logs::join_error(e)));
                return;
            }
        };
        let answer = to_uci(snap.game.position(), m);
        match app
            .games
            .change(&id, None, Action::Engine { m, version })
            .await
        {
            Ok(done) => {
                log.finished(&answer);
                after_change(&app, &done);
            }
            Err(e) if e.is_refusal() => log.cancelled(&e.to_string()),
            Err(e) => log.failed(&format!("the move {answer} was not stored: {e}")),
        }
    });
}

/// After a change: the engine moves where it is to move (in the game and
/// in a rematch game).
pub(crate) fn after_change(app: &GamesCtx, done: &games::Done) {
    if done.changed {
        schedule_engine(app, &done.live);
        schedule_flag(app, &done.live);
    }
    if let Some(r) = &done.rematch {
        if let Ok(live) = Live::from_record(r.clone()) {
            schedule_engine(app, &live);
        }
    }
}

/// Raises a stop flag when dropped: the engine stops when the request
/// that asked for its work is dropped (the client left).
pub(crate) struct StopOnDrop(pub(crate) Arc<std::sync::atomic::AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct EngineRequest {
    level: Option<u8>,
}

/// The engine plays the next move of a local game (the page's analysis
/// board). It thinks on a worker of the pool; a change of the game
/// meanwhile stops it and its answer is dropped. Its move is checked by
/// the rules core like any other.
pub async fn engine_move(
    State(app): Shared,
    Path(id): Path<String>,
    headers: HeaderMap,
    req: Result<Json<EngineRequest>, JsonRejection>,
) -> Result<Json<GameView>, ApiError> {
    let req = body(req)?;
    let engine = app.engine()?;
    let max = engine.max_level().max(1);
    let level = req.level.unwrap_or(1);
    if !(1..=max).contains(&level) {
        return Err(ApiError::BadRequest(format!(
            "level {level} is out of range 1-{max}"
        )));
    }
    let who = holder(&app, &headers, false).await?;
    let live = app.games.get(&id).await?;
    if live.seats_of(Some(&who)).is_empty() {
        return Err(GameError::NotYourSeat.into());
    }
    if live.rec.mode != Mode::Local {
        return Err(ApiError::Conflict(
            "the server plays the engine's moves itself in this game".into(),
        ));
    }
    if live.is_over() {
        return Err(ApiError::Conflict(format!(
            "the game is over ({})",
            live.rec.reason.as_deref().unwrap_or("?")
        )));
    }
    // A newer request for the game stops this one; a client that leaves
    // stops it too (the handler is dropped, and with it the guard).
    let (snap, stop) = app.games.new_engine_job(&id).await?;
    let _leave = StopOnDrop(Arc::clone(&stop));
    let mut log = JobLog::queued("request move", &id);
    let _worker = app.pool.worker().await;
    log.started();
    let version = snap.rec.version;
    let game = snap.game.clone();
    let watched = Arc::clone(&stop);
    let span = log.span();
    let found = match tokio::task::spawn_blocking(move || {
        let _in_job = span.enter();
        engine.best_move(&game, level, watched)
    })
    .await
    {
        Ok(found) => found,
        Err(e) => {
            let reason = format!("the engine {}", logs::join_error(e));
            log.failed(&reason);
            return Err(ApiError::Internal(reason));
        }
    };
    if stop.load(Ordering::Relaxed) {
        // Stopped: by a change of the game, a newer request, or the client.
        let now = app.games.peek(&id).await?;
        let reason = if now.rec.version != version {
            "the game changed while the engine was thinking"
        } else {
            "a newer engine request for this game replaced this one"
        };
        log.cancelled(reason);
        return Err(ApiError::Conflict(reason.into()));
    }
    let Some(m) = found else {
        log.cancelled("the engine found no move");
        return Err(ApiError::Conflict("the engine found no move".into()));
    };
    let answer = to_uci(snap.game.position(), m);
    let done = match app
        .games
        .change(&id, Some(&who), Action::Engine { m, version })
        .await
    {
        Ok(done) => done,
        Err(e) => {
            log.cancelled(&format!("the move {answer} was not stored: {e}"));
            return Err(e.into());
        }
    };
    log.finished(&answer);
    Ok(Json(view_of(&app, &done.live, Some(&who), None).await?))
}
