//! The "your turn" list (`GET /api/games/your-turn`): every game being
//! played where the asker (the signed-in account's every seat, or this
//! browser's) is to move, the least time left first.

use super::list::{accounts_of, item, ListItem};
use super::request::{holder, Shared};
use super::Live;
use crate::error::ApiError;
use crate::store::kinds::color_name;
use crate::store::{GameRecord, ListQuery};
use axum::extract::State;
use axum::http::HeaderMap;
use axum::Json;
use serde::Serialize;
use std::collections::HashSet;

/// The most seats of one asker looked at (an account's browsers).
const MAX_SEATS: usize = 64;
/// The most games one seat's query reads.
const PER_SEAT: i64 = 200;

#[derive(Serialize)]
pub struct TurnItem {
    #[serde(flatten)]
    game: ListItem,
    /// The asker's side, to move.
    color: &'static str,
    /// The time the asker has left to move, in ms (null: no clock).
    left_ms: Option<i64>,
    /// When that time runs out (server time, ms since the Unix epoch).
    deadline: Option<i64>,
}

#[derive(Serialize)]
pub struct TurnView {
    games: Vec<TurnItem>,
    /// The server's time of the answer (ms since the Unix epoch).
    now: i64,
}

pub async fn your_turn(State(app): Shared, headers: HeaderMap) -> Result<Json<TurnView>, ApiError> {
    let who = holder(&app, &headers, false).await?;
    let now = app.games.now();
    let mut seen = HashSet::new();
    let mut recs: Vec<GameRecord> = Vec::new();
    for seat in who.held.iter().take(MAX_SEATS) {
        let found = app
            .games
            .store
            .list(&ListQuery::Playing(seat.clone()), PER_SEAT)
            .await
            .map_err(crate::outage::api_error)?;
        recs.extend(found.into_iter().filter(|r| seen.insert(r.id.clone())));
    }
    let mut mine = Vec::new();
    for rec in recs {
        let Ok(live) = Live::from_record(rec) else {
            continue;
        };
        let side = live.game.position().turn();
        if live.engine_color() == Some(side) || !live.seats_of(Some(&who)).contains(&side) {
            continue;
        }
        mine.push((live, side));
    }
    let recs: Vec<GameRecord> = mine.iter().map(|(l, _)| l.rec.clone()).collect();
    let accounts = accounts_of(&app, &recs).await?;
    let mut games: Vec<TurnItem> = mine
        .iter()
        .map(|(live, side)| {
            let left = live.remaining(*side, now).map(|ms| ms.max(0));
            TurnItem {
                game: item(&app, &live.rec, who.seat.as_deref(), &accounts),
                color: color_name(*side),
                left_ms: left,
                deadline: left
                    .filter(|_| live.running() == Some(*side))
                    .map(|ms| now.saturating_add(ms)),
            }
        })
        .collect();
    // The least time left first; the games without a clock last, the
    // most recently changed first among them.
    games.sort_by_key(|g| {
        (
            g.left_ms.is_none(),
            g.left_ms,
            std::cmp::Reverse(g.game.updated_at()),
        )
    });
    Ok(Json(TurnView { games, now }))
}
