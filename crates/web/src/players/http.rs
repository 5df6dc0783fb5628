//! A player's JSON for the player page: the rating history per game
//! (`GET /api/user/{name}/rating-history`, lichess's shape with what the
//! chart needs added), the games (`GET /api/user/{name}/games`, ongoing
//! and finished, by game, a page at a time) and the results counted per
//! game (`GET /api/user/{name}/counts`).

use super::date::ymd0;
use super::{rating, PlayersCtx, Stores};
use crate::error::ApiError;
use crate::outage::api_error;
use crate::ratings::store::AccountName;
use crate::store::players::{GameStatus, PlayerGameRecord, SeatRecord};
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::Json;
use serde::{Deserialize, Serialize};
use springboard_rules::Variant;
use std::collections::BTreeMap;

/// Games per page of `GET /api/user/{name}/games` unless `nb` says.
pub const GAMES_PER_PAGE: i64 = 20;
/// The most games a page may have.
pub const MAX_GAMES_PER_PAGE: i64 = 100;
/// The last page number a request may ask for.
pub const MAX_PAGE: i64 = 10_000;

/// The stores, or a 404 for a server without accounts.
pub(crate) fn stores(ctx: &PlayersCtx) -> Result<Stores<'_>, ApiError> {
    ctx.stores()
        .ok_or_else(|| ApiError::NotFound("this server has no accounts".into()))
}

/// The account called `name` (any case), or a 404 that names it.
pub(crate) async fn account(stores: &Stores<'_>, name: &str) -> Result<AccountName, ApiError> {
    let missing = || ApiError::NotFound(format!("no player '{name}'"));
    let id = crate::accounts::name::check(name).map_err(|_| missing())?;
    stores
        .ratings
        .account(&id)
        .await
        .map_err(api_error)?
        .ok_or_else(missing)
}

/// One game's rating history (lichess: `{"name", "points"}`).
#[derive(Serialize, Debug)]
pub struct HistoryView {
    /// The game's title (lichess: the perf's name).
    name: &'static str,
    /// The game's name, as `perfs` keys it.
    perf: &'static str,
    /// `[year, month (0-11), day, rating]` after each rated game, oldest
    /// first (lichess's points).
    points: Vec<[i64; 4]>,
    /// When each point's game ended (ms since the Unix epoch).
    at: Vec<i64>,
    /// The rating deviation after each point's game (rounded).
    rd: Vec<i64>,
    /// Each point's game id.
    games: Vec<String>,
}

pub async fn rating_history(
    State(ctx): State<PlayersCtx>,
    Path(name): Path<String>,
) -> Result<Json<Vec<HistoryView>>, ApiError> {
    let stores = stores(&ctx)?;
    let account = account(&stores, &name).await?;
    let points = stores
        .players
        .history(&account.id)
        .await
        .map_err(api_error)?;
    let views = Variant::implemented()
        .map(|v| {
            let mut view = HistoryView {
                name: v.title(),
                perf: v.name(),
                points: Vec::new(),
                at: Vec::new(),
                rd: Vec::new(),
                games: Vec::new(),
            };
            for p in points.iter().filter(|p| p.variant == v.name()) {
                let [y, m, d] = ymd0(p.at);
                let after = rating(p.after);
                view.points.push([y, m, d, after.rounded()]);
                view.at.push(p.at);
                view.rd.push(after.deviation.round() as i64);
                view.games.push(p.game_id.clone());
            }
            view
        })
        .collect();
    Ok(Json(views))
}

/// A player's results in one game.
#[derive(Serialize, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct CountView {
    /// Ended games with a result: won + drawn + lost.
    played: i64,
    won: i64,
    drawn: i64,
    lost: i64,
}

/// `GET /api/user/{name}/counts`: every game the server offers.
#[derive(Serialize, Debug)]
pub struct CountsView {
    username: String,
    /// By game name.
    counts: BTreeMap<&'static str, CountView>,
    /// All games together.
    all: CountView,
}

pub async fn counts(
    State(ctx): State<PlayersCtx>,
    Path(name): Path<String>,
) -> Result<Json<CountsView>, ApiError> {
    let stores = stores(&ctx)?;
    let account = account(&stores, &name).await?;
    let rows = stores
        .players
        .results(&account.id)
        .await
        .map_err(api_error)?;
    let mut counts: BTreeMap<&'static str, CountView> = Variant::implemented()
        .map(|v| (v.name(), CountView::default()))
        .collect();
    let mut all = CountView::default();
    for row in &rows {
        let Some(count) = Variant::from_name(&row.variant).and_then(|v| counts.get_mut(v.name()))
        else {
            continue;
        };
        // A game against oneself (both seats the account's) is no
        // result of the player's.
        let won = match (row.side.as_str(), row.result.as_deref()) {
            ("white", Some("1-0")) | ("black", Some("0-1")) => Some(1),
            ("white", Some("0-1")) | ("black", Some("1-0")) => Some(-1),
            ("white" | "black", Some("1/2-1/2")) => Some(0),
            _ => None,
        };
        let Some(won) = won else { continue };
        for c in [&mut *count, &mut all] {
            c.played = c.played.saturating_add(row.count);
            let slot = match won {
                1 => &mut c.won,
                0 => &mut c.drawn,
                _ => &mut c.lost,
            };
            *slot = slot.saturating_add(row.count);
        }
    }
    Ok(Json(CountsView {
        username: account.name,
        counts,
        all,
    }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GamesRequest {
    /// A game's name: only its games.
    game: Option<String>,
    /// `all` (the default), `ongoing` or `finished`.
    status: Option<String>,
    /// From 1.
    page: Option<i64>,
    /// Games per page.
    nb: Option<i64>,
}

/// A seat of a listed game.
#[derive(Serialize, Debug)]
pub struct SeatView {
    /// The account's name, the engine's, `Anonymous` (a browser of no
    /// account) or `waiting` (a free seat).
    name: String,
    /// The account's id (the player page's), when the seat is an
    /// account's.
    user: Option<String>,
}

#[derive(Serialize, Debug)]
pub struct ClockView {
    /// Seconds.
    initial: i64,
    increment: i64,
}

/// One of the player's games.
#[derive(Serialize, Debug)]
pub struct GameView {
    id: String,
    variant: String,
    title: &'static str,
    /// `engine` or `friend`.
    mode: String,
    /// `waiting`, `playing` or `ended`.
    status: String,
    result: Option<String>,
    reason: Option<String>,
    rated: bool,
    white: SeatView,
    black: SeatView,
    /// The player's side: `white`, `black` or `both`.
    color: &'static str,
    /// Null: unlimited.
    clock: Option<ClockView>,
    /// Single moves played.
    plies: usize,
    created_at: i64,
    updated_at: i64,
}

#[derive(Serialize, Debug)]
pub struct GamesView {
    games: Vec<GameView>,
    page: i64,
    /// Whether a next page has games.
    more: bool,
}

fn seat_view(ctx: &PlayersCtx, g: &PlayerGameRecord, color: &str, seat: &SeatRecord) -> SeatView {
    if g.engine_color.as_deref() == Some(color) {
        let engine = ctx
            .engine
            .as_ref()
            .map_or_else(|| "engine".into(), |e| e.name());
        return SeatView {
            name: format!("{engine}, level {}", g.engine_level.unwrap_or(1)),
            user: None,
        };
    }
    match (&seat.account, seat.seated) {
        (Some((id, name)), _) => SeatView {
            name: name.clone(),
            user: Some(id.clone()),
        },
        (None, true) => SeatView {
            name: "Anonymous".into(),
            user: None,
        },
        (None, false) => SeatView {
            name: "waiting".into(),
            user: None,
        },
    }
}

fn game_view(ctx: &PlayersCtx, user: &str, g: PlayerGameRecord) -> GameView {
    let mine = |s: &SeatRecord| s.account.as_ref().is_some_and(|(id, _)| id == user);
    let color = match (mine(&g.white), mine(&g.black)) {
        (true, true) => "both",
        (false, true) => "black",
        _ => "white",
    };
    GameView {
        title: Variant::from_name(&g.variant).map_or("?", |v| v.title()),
        white: seat_view(ctx, &g, "white", &g.white),
        black: seat_view(ctx, &g, "black", &g.black),
        color,
        clock: g.clock_initial_ms.map(|i| ClockView {
            initial: i / 1000,
            increment: g.clock_increment_ms.unwrap_or(0) / 1000,
        }),
        id: g.id,
        variant: g.variant,
        mode: g.mode,
        status: g.status,
        result: g.result,
        reason: g.reason,
        rated: g.rated,
        plies: g.plies,
        created_at: g.created_at,
        updated_at: g.updated_at,
    }
}

pub async fn games(
    State(ctx): State<PlayersCtx>,
    Path(name): Path<String>,
    q: Result<Query<GamesRequest>, QueryRejection>,
) -> Result<Json<GamesView>, ApiError> {
    let q = q
        .map(|Query(v)| v)
        .map_err(|e| ApiError::BadRequest(format!("bad query: {}", e.body_text())))?;
    let variant = match q.game.as_deref() {
        None | Some("") => None,
        Some(g) => Some(
            Variant::from_name(g)
                .filter(|v| v.is_implemented())
                .ok_or_else(|| ApiError::BadRequest(format!("unknown game '{g}'")))?,
        ),
    };
    let status = match q.status.as_deref() {
        None | Some("") => GameStatus::All,
        Some(s) => GameStatus::ALL
            .into_iter()
            .find(|k| k.as_str() == s)
            .ok_or_else(|| {
                ApiError::BadRequest(format!(
                    "unknown status '{s}': expected all, ongoing or finished"
                ))
            })?,
    };
    let page = q.page.unwrap_or(1);
    if !(1..=MAX_PAGE).contains(&page) {
        return Err(ApiError::BadRequest(format!(
            "page {page} is out of range 1-{MAX_PAGE}"
        )));
    }
    let nb = q.nb.unwrap_or(GAMES_PER_PAGE);
    if !(1..=MAX_GAMES_PER_PAGE).contains(&nb) {
        return Err(ApiError::BadRequest(format!(
            "nb {nb} is out of range 1-{MAX_GAMES_PER_PAGE}"
        )));
    }
    let stores = stores(&ctx)?;
    let account = account(&stores, &name).await?;
    let offset = page
        .checked_sub(1)
        .and_then(|p| p.checked_mul(nb))
        .ok_or_else(|| ApiError::BadRequest("page out of range".into()))?;
    // One more than a page tells whether another page follows.
    let mut recs = stores
        .players
        .games(
            &account.id,
            variant.map(|v| v.name()),
            status,
            nb.saturating_add(1),
            offset,
        )
        .await
        .map_err(api_error)?;
    let more = recs.len() > nb as usize;
    recs.truncate(nb as usize);
    let games = recs
        .into_iter()
        .map(|g| game_view(&ctx, &account.id, g))
        .collect();
    Ok(Json(GamesView { games, page, more }))
}
