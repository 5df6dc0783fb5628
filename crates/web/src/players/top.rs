//! The leaderboards: `GET /api/player/top/{nb}/{perf}` (one game's best
//! non-provisional ratings, best first, in lichess's shape) and
//! `GET /api/player` (the first [`LEADERS_PER_GAME`] of every game).

use super::http::stores;
use super::{rating, PlayersCtx, Stores};
use crate::error::ApiError;
use crate::outage::api_error;
use crate::ratings::glicko::PROVISIONAL_DEVIATION;
use crate::ratings::http::PROGRESS_GAMES;
use crate::store::players::LeaderRecord;
use axum::extract::{Path, State};
use axum::Json;
use serde::Serialize;
use springboard_rules::Variant;
use std::collections::BTreeMap;

/// The most players `GET /api/player/top/{nb}/{perf}` lists.
pub const MAX_TOP: i64 = 200;
/// Players per game in `GET /api/player`.
pub const LEADERS_PER_GAME: i64 = 10;

#[derive(Serialize, Debug)]
pub struct LeaderPerf {
    rating: i64,
    /// The change over the last rated games (as `/api/user/{name}`'s
    /// `prog`).
    progress: i64,
    rd: i64,
    /// Rated games played in this game.
    games: i64,
}

/// A player on a leaderboard (lichess: `id`, `username`, `perfs`).
#[derive(Serialize, Debug)]
pub struct LeaderView {
    id: String,
    username: String,
    /// Only the leaderboard's game.
    perfs: BTreeMap<&'static str, LeaderPerf>,
}

#[derive(Serialize, Debug)]
pub struct TopView {
    users: Vec<LeaderView>,
}

/// The game called `perf`, or a 404.
fn game(perf: &str) -> Result<Variant, ApiError> {
    Variant::from_name(perf)
        .filter(|v| v.is_implemented())
        .ok_or_else(|| ApiError::NotFound(format!("no game '{perf}'")))
}

/// The `limit` leaders of game `v`, with their progress.
async fn leaders_of(
    stores: &Stores<'_>,
    v: Variant,
    limit: i64,
) -> Result<Vec<LeaderView>, ApiError> {
    let rows: Vec<LeaderRecord> = stores
        .players
        .top(v.name(), PROVISIONAL_DEVIATION, limit)
        .await
        .map_err(api_error)?;
    let mut views = Vec::with_capacity(rows.len());
    for r in rows {
        let recent = stores
            .ratings
            .recent(&r.user_id, v.name(), PROGRESS_GAMES)
            .await
            .map_err(api_error)?;
        let r_now = rating(r.rating);
        let shown = r_now.rounded();
        let progress = recent
            .last()
            .map_or(0, |h| shown.saturating_sub(h.before.rounded()));
        let perf = LeaderPerf {
            rating: shown,
            progress,
            rd: r_now.deviation.round() as i64,
            games: r.games,
        };
        views.push(LeaderView {
            id: r.user_id,
            username: r.name,
            perfs: BTreeMap::from([(v.name(), perf)]),
        });
    }
    Ok(views)
}

pub async fn top(
    State(ctx): State<PlayersCtx>,
    Path((nb, perf)): Path<(String, String)>,
) -> Result<Json<TopView>, ApiError> {
    let nb: i64 = nb
        .parse()
        .ok()
        .filter(|n| (1..=MAX_TOP).contains(n))
        .ok_or_else(|| ApiError::BadRequest(format!("nb '{nb}' is not a number 1-{MAX_TOP}")))?;
    let v = game(&perf)?;
    let stores = stores(&ctx)?;
    Ok(Json(TopView {
        users: leaders_of(&stores, v, nb).await?,
    }))
}

/// `GET /api/player`: every game's leaders, by game name.
pub async fn leaders(
    State(ctx): State<PlayersCtx>,
) -> Result<Json<BTreeMap<&'static str, Vec<LeaderView>>>, ApiError> {
    let stores = stores(&ctx)?;
    let mut all = BTreeMap::new();
    for v in Variant::implemented() {
        all.insert(v.name(), leaders_of(&stores, v, LEADERS_PER_GAME).await?);
    }
    Ok(Json(all))
}
