//! Who is connected, across server processes: the heartbeat of this
//! process, the presence rows it writes for its sockets, the other
//! processes' rows it reads, and the store's change notices passed to this
//! process's sockets.

use crate::error::ServeError;
use crate::live::{LiveCtx, LiveState};
use crate::store;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

/// How often a server process writes its heartbeat row.
pub const HEARTBEAT_MS: i64 = 5_000;
/// A heartbeat older than this is a process that is gone: its presence
/// rows are ignored, and a process starting with no fresher heartbeat of
/// another restarts the running clocks.
pub const FRESH_MS: i64 = 15_000;
/// Heartbeat rows (and their presence rows) older than this are deleted.
pub const FORGET_MS: i64 = 3_600_000;

/// Passes the changes other server processes make (PostgreSQL's NOTIFY)
/// to this process's sockets of the game; after a lost connection, every
/// socket is told the current version.
pub(crate) async fn listen(state: &LiveCtx) -> Result<(), ServeError> {
    let Some(mut notices) = state.live_store.listen().await? else {
        return Ok(());
    };
    let weak = Arc::downgrade(state);
    tokio::spawn(async move {
        while let Some(notice) = notices.recv().await {
            let Some(app) = weak.upgrade() else { break };
            match notice {
                store::Notice::Changed { id, version } => app.hub.publish(&id, version),
                store::Notice::Presence { id, process } => {
                    if process != app.process && app.hub.has(&id) {
                        refresh_presence(&app, vec![id]).await;
                    }
                }
                store::Notice::Resync => {
                    for id in app.hub.games() {
                        if let Ok(live) = app.games.games.peek(&id).await {
                            app.hub.publish(&id, live.rec.version);
                        }
                    }
                }
            }
        }
    });
    Ok(())
}

/// Re-reads who is connected to `games` through the other processes and
/// tells this process's sockets.
async fn refresh_presence(app: &LiveState, games: Vec<String>) {
    if games.is_empty() {
        return;
    }
    let since = app.games.games.now().saturating_sub(FRESH_MS);
    match app.live_store.presence(&games, &app.process, since).await {
        Ok(rows) => {
            let rows: HashMap<String, store::Crowd> = rows.into_iter().collect();
            for id in games {
                let remote = rows.get(&id).copied().unwrap_or_default();
                app.hub.set_remote(&id, remote);
            }
        }
        Err(e) => tracing::warn!(error = %e, "cannot read who is connected"),
    }
}

/// Writes this process's heartbeat every `every` ([`crate::state::HEARTBEAT_MS`]), deletes the
/// rows of processes long gone, and re-reads the other processes'
/// presence in the games with sockets here (a process that died stops
/// counting once its heartbeat is stale).
pub(crate) fn heartbeats(state: &LiveCtx, every: Duration) {
    let weak = Arc::downgrade(state);
    tokio::spawn(async move {
        let mut tick = tokio::time::interval_at(tokio::time::Instant::now() + every, every);
        loop {
            tick.tick().await;
            let Some(app) = weak.upgrade() else { break };
            let now = app.games.games.now();
            let store = &app.live_store;
            if let Err(e) = store.heartbeat(&app.process, now).await {
                tracing::warn!(error = %e, "cannot write the heartbeat");
            }
            if let Err(e) = store.forget_processes(now.saturating_sub(FORGET_MS)).await {
                tracing::warn!(error = %e, "cannot delete old heartbeats");
            }
            refresh_presence(&app, app.hub.games()).await;
        }
    });
}

/// Writes who is connected here to the store, one game at a time, in
/// order (each write reads the current count, so a burst of joins and
/// leaves of one game ends with its last state), and reads the other
/// processes' presence for the game.
pub(crate) fn write_presence(
    state: &LiveCtx,
    mut rx: tokio::sync::mpsc::UnboundedReceiver<String>,
) {
    let weak = Arc::downgrade(state);
    tokio::spawn(async move {
        while let Some(first) = rx.recv().await {
            let mut ids = vec![first];
            while let Ok(more) = rx.try_recv() {
                if !ids.contains(&more) {
                    ids.push(more);
                }
            }
            let Some(app) = weak.upgrade() else { break };
            for id in &ids {
                let local = app.hub.local(id);
                if let Err(e) = app.live_store.set_presence(&app.process, id, local).await {
                    tracing::warn!(game = %id, error = %e, "cannot write who is connected");
                }
            }
            refresh_presence(&app, ids).await;
        }
    });
}
