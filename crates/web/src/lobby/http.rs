//! The lobby's JSON API under `/api/lobby`: list, post, cancel, accept and
//! decline challenges. Every `POST` and `DELETE` passes the CSRF check
//! (`crate::csrf`) first; every refusal is a JSON error that changes
//! nothing.

use super::hub::{self, Declined, Started};
use super::store::ChallengeRecord;
use super::view::{ChallengeView, Listed, OnlineView, Viewer};
use super::{Lobby, LobbyCtx, NewGame, Who, MAX_OPEN_PER_AUTHOR};
use crate::error::ApiError;
use crate::games::http::{body, playable_variant, MAX_INCREMENT_S, MAX_INITIAL_S};
use crate::outage::api_error;
use crate::seat::{self, Holder};
use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRef, Path, State};
use axum::http::{header, Extensions, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use springboard_rules::notation::pgn::VariantHint;
use springboard_rules::{Color, Position, Variant};
use std::sync::Arc;

/// The longest position text a challenge takes.
pub const MAX_FEN: usize = 256;

/// The lowest and highest rating a range may name.
pub const RATING_BOUNDS: (i64, i64) = (0, 4000);

/// The lobby's routes.
pub fn routes<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    LobbyCtx: FromRef<S>,
{
    let cookie_authorised = Router::new()
        .route("/api/lobby/challenges", post(create))
        .route("/api/lobby/challenges/{id}", axum::routing::delete(cancel))
        .route("/api/lobby/challenges/{id}/cancel", post(cancel))
        .route("/api/lobby/challenges/{id}/accept", post(accept))
        .route("/api/lobby/challenges/{id}/decline", post(decline))
        .route_layer(axum::middleware::from_fn(crate::csrf::require_origin));
    Router::new()
        .route("/api/lobby/challenges", get(list))
        .route("/api/lobby/socket", get(super::ws::connect))
        .merge(cookie_authorised)
}

#[derive(Deserialize, Clone, Copy)]
#[serde(deny_unknown_fields)]
pub struct ClockRequest {
    pub(crate) initial: u32,
    pub(crate) increment: u32,
}

/// A new challenge.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateChallenge {
    pub(crate) variant: String,
    pub(crate) clock: Option<ClockRequest>,
    /// A correspondence time control instead of a clock.
    pub(crate) correspondence: Option<crate::games::corr::CorrespondenceRequest>,
    /// `white`, `black` or `random` (the default).
    pub(crate) color: Option<String>,
    pub(crate) rated: Option<bool>,
    pub(crate) min_rating: Option<i64>,
    pub(crate) max_rating: Option<i64>,
    /// A personal challenge: the challenged player's username.
    pub(crate) to: Option<String>,
    /// A game from this position (a position text of the game), casual.
    #[serde(default)]
    pub(crate) fen: Option<String>,
}

#[derive(Serialize)]
pub struct ListView {
    challenges: Vec<ChallengeView>,
    online: OnlineView,
}

#[derive(Serialize)]
pub struct Accepted {
    game: String,
}

fn viewer(who: &Holder) -> Viewer {
    Viewer {
        held: who.held.clone(),
        user: who.user.clone(),
    }
}

/// `status` and `body` with the `Set-Cookie` of a new seat, if any.
fn with_cookie<T: Serialize>(status: StatusCode, cookie: Option<String>, body: T) -> Response {
    let mut resp = (status, Json(body)).into_response();
    if let Some(c) = cookie.and_then(|c| HeaderValue::from_str(&c).ok()) {
        resp.headers_mut().insert(header::SET_COOKIE, c);
    }
    resp
}

pub async fn list(
    State(ctx): State<LobbyCtx>,
    headers: HeaderMap,
) -> Result<Json<ListView>, ApiError> {
    let lobby = ctx.get()?;
    let who = lobby.desk.holder(&headers, false).await?;
    let v = viewer(&who);
    Ok(Json(ListView {
        challenges: lobby.hub.list().iter().filter_map(|c| v.view(c)).collect(),
        online: lobby.hub.online(),
    }))
}

fn read_clock(c: Option<ClockRequest>) -> Result<Option<(i64, i64)>, ApiError> {
    let Some(c) = c else { return Ok(None) };
    if c.initial > MAX_INITIAL_S || c.increment > MAX_INCREMENT_S {
        return Err(ApiError::BadRequest(format!(
            "a clock has at most {MAX_INITIAL_S} s and {MAX_INCREMENT_S} s per move"
        )));
    }
    if c.initial == 0 && c.increment == 0 {
        return Err(ApiError::BadRequest(
            "a clock of 0 s needs an increment".into(),
        ));
    }
    Ok(Some((
        i64::from(c.initial) * 1000,
        i64::from(c.increment) * 1000,
    )))
}

fn read_range(min: Option<i64>, max: Option<i64>) -> Result<(), ApiError> {
    let (lo, hi) = RATING_BOUNDS;
    for r in [min, max].into_iter().flatten() {
        if !(lo..=hi).contains(&r) {
            return Err(ApiError::BadRequest(format!(
                "a rating range lies within {lo}-{hi}"
            )));
        }
    }
    if let (Some(a), Some(b)) = (min, max) {
        if a > b {
            return Err(ApiError::BadRequest(
                "the rating range's minimum is above its maximum".into(),
            ));
        }
    }
    Ok(())
}

pub async fn create(
    State(ctx): State<LobbyCtx>,
    headers: HeaderMap,
    ext: Extensions,
    req: Result<Json<CreateChallenge>, JsonRejection>,
) -> Result<Response, ApiError> {
    let lobby = ctx.get()?;
    let req = body(req)?;
    let ip = crate::proxy::client_ip(&ext);
    let (who, rec) = post_as(lobby, Who::Request(&headers), ip, req).await?;
    let v = viewer(&who);
    let listed = lobby.hub.list().into_iter().find(|c| c.view.id == rec.id);
    let view = match listed {
        Some(c) => v.view(&c),
        None => v.view(&Listed::new(&rec, None)),
    };
    Ok(with_cookie(StatusCode::CREATED, who.cookie, view))
}

/// Posts the challenge `req` of `who` (from the client address `ip`):
/// who it was (with the cookie of a seat it took) and the challenge.
pub(crate) async fn post_as(
    lobby: &Arc<Lobby>,
    who: Who<'_>,
    ip: std::net::IpAddr,
    req: CreateChallenge,
) -> Result<(Holder, ChallengeRecord), ApiError> {
    let variant = playable_variant(&req.variant)?;
    let correspondence = crate::games::corr::read(req.correspondence, req.clock.is_some())?;
    let clock = match correspondence {
        Some(c) => Some(crate::games::corr::clock_of(c)?),
        None => read_clock(req.clock)?,
    };
    let color = req.color.unwrap_or_else(|| "random".to_string());
    if !matches!(color.as_str(), "white" | "black" | "random") {
        return Err(ApiError::BadRequest(
            "unknown color: expected white, black or random".into(),
        ));
    }
    let rated = req.rated.unwrap_or(false);
    read_range(req.min_rating, req.max_rating)?;
    if !rated && (req.min_rating.is_some() || req.max_rating.is_some()) {
        return Err(ApiError::BadRequest(
            "only a rated challenge has a rating range".into(),
        ));
    }
    if rated && !lobby.desk.rates() {
        return Err(ApiError::BadRequest(
            "this server has no accounts: no game is rated".into(),
        ));
    }
    if rated && clock.is_none() {
        return Err(ApiError::BadRequest("a rated game needs a clock".into()));
    }
    let start_fen = match &req.fen {
        Some(_) if rated => {
            return Err(ApiError::BadRequest(
                "a game from a position cannot be rated".into(),
            ))
        }
        Some(fen) => start_position(variant, fen)?,
        None => None,
    };
    // A personal challenge's name is checked before anything is looked up.
    let target = match &req.to {
        Some(name) => Some(crate::accounts::name::check(name)?),
        None => None,
    };
    let who = who.holder(&*lobby.desk, true).await?;
    let Some(seat) = who.seat.clone() else {
        return Err(ApiError::BadRequest(
            "this browser has no seat to play with".into(),
        ));
    };
    let author_name = match &who.user {
        Some(u) => lobby.desk.account_name(u).await?,
        None => None,
    };
    if rated && who.user.is_none() {
        return Err(ApiError::Unauthorized(
            "sign in to post a rated challenge".into(),
        ));
    }
    let target = match target {
        None => None,
        Some(id) => {
            if who.user.is_none() {
                return Err(ApiError::Unauthorized(
                    "sign in to challenge a player by name".into(),
                ));
            }
            if who.user.as_deref() == Some(id.as_str()) {
                return Err(ApiError::BadRequest("you cannot challenge yourself".into()));
            }
            let Some(name) = lobby.desk.account_name(&id).await? else {
                return Err(ApiError::NotFound(format!(
                    "no player is named '{}'",
                    req.to.as_deref().unwrap_or_default()
                )));
            };
            if let Some(me) = &who.user {
                refuse_blocked(lobby, me, &id, &name).await?;
            }
            Some((id, name))
        }
    };
    let now = lobby.desk.now();
    if lobby.posts.over(&ip, now) {
        return Err(ApiError::TooManyRequests(format!(
            "too many challenges from your address; at most {} in 5 minutes",
            lobby.posts.limit
        )));
    }
    let open = lobby
        .store
        .open_by(&seat, who.user.as_deref())
        .await
        .map_err(api_error)?;
    if open >= MAX_OPEN_PER_AUTHOR {
        return Err(ApiError::Conflict(format!(
            "you have {open} open challenges; at most {MAX_OPEN_PER_AUTHOR}: cancel one first"
        )));
    }
    lobby.posts.count(ip, now);
    let rec = ChallengeRecord {
        id: seat::new_game_id(),
        author_seat: seat.clone(),
        author_user: who.user.clone(),
        author_name,
        target_user: target.as_ref().map(|t| t.0.clone()),
        target_name: target.map(|t| t.1),
        variant: variant.name().to_string(),
        clock_initial_ms: clock.map(|c| c.0),
        clock_increment_ms: clock.map(|c| c.1),
        correspondence,
        color,
        rated,
        min_rating: req.min_rating,
        max_rating: req.max_rating,
        process: lobby.process.clone(),
        created_at: now,
        start_fen,
    };
    // A personal challenge's notification and email are written with it.
    let hook = match &lobby.hook {
        Some(h) if rec.target_user.is_some() => Some(&**h),
        _ => None,
    };
    lobby
        .store
        .insert_challenge(&rec, hook)
        .await
        .map_err(api_error)?;
    tracing::info!(challenge = %rec.id, variant = %rec.variant, rated, "challenge posted");
    if rec.target_user.is_some() {
        lobby.personal.personal(&rec);
    }
    hub::changed(lobby).await;
    // An author with no lobby socket here: withdrawn unless one opens.
    if !lobby.hub.has_author(&seat) {
        hub::withdraw_later(lobby, vec![seat]);
    }
    Ok((who, rec))
}

/// The start position `fen` of a game of `variant`, read and checked by
/// the rules core (400 with its reason); None when it is the game's usual
/// start.
fn start_position(variant: Variant, fen: &str) -> Result<Option<String>, ApiError> {
    let fen = fen.trim();
    if fen.len() > MAX_FEN {
        return Err(ApiError::BadRequest(format!(
            "a position text has at most {MAX_FEN} characters"
        )));
    }
    if fen.is_empty() || fen == "startpos" {
        return Ok(None);
    }
    let pos = springboard_rules::notation::pgn::read_fen(fen, VariantHint::Game(variant))
        .map_err(crate::games::http::text_error)?;
    if pos.outcome().is_some() {
        return Err(ApiError::BadRequest(
            "this position is already decided: no game starts from it".into(),
        ));
    }
    let text = pos.to_fen();
    Ok((text != Position::startpos(variant).to_fen()).then_some(text))
}

/// A 403 when account `me` blocks account `other` (named `name`) or is
/// blocked by it: neither challenges the other.
async fn refuse_blocked(
    lobby: &super::Lobby,
    me: &str,
    other: &str,
    name: &str,
) -> Result<(), ApiError> {
    if lobby.relation.between(me, other).await? {
        return Err(ApiError::Forbidden(format!(
            "you cannot play {name}: one of you blocks the other"
        )));
    }
    Ok(())
}

async fn find(lobby: &Lobby, id: &str) -> Result<ChallengeRecord, ApiError> {
    lobby
        .store
        .challenge(id)
        .await
        .map_err(api_error)?
        .ok_or_else(gone)
}

fn gone() -> ApiError {
    ApiError::NotFound("no such challenge: it was taken, cancelled or withdrawn".into())
}

fn wrote(who: &Holder, c: &ChallengeRecord) -> bool {
    who.held.contains(&c.author_seat)
        || (who.user.is_some() && c.author_user.as_ref() == who.user.as_ref())
}

pub async fn cancel(
    State(ctx): State<LobbyCtx>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<serde_json::Value>, ApiError> {
    let lobby = ctx.get()?;
    cancel_as(lobby, &id, Who::Request(&headers)).await?;
    Ok(Json(serde_json::json!({"cancelled": id})))
}

/// Cancels challenge `id` for `who`, its author: the challenge.
pub(crate) async fn cancel_as(
    lobby: &Arc<Lobby>,
    id: &str,
    who: Who<'_>,
) -> Result<ChallengeRecord, ApiError> {
    let c = find(lobby, id).await?;
    let who = who.holder(&*lobby.desk, false).await?;
    if !wrote(&who, &c) {
        return Err(ApiError::Forbidden(
            "only its author cancels a challenge".into(),
        ));
    }
    if lobby.store.claim(id).await.map_err(api_error)?.is_none() {
        return Err(gone());
    }
    tracing::info!(challenge = %id, "challenge cancelled");
    hub::changed(lobby).await;
    Ok(c)
}

pub async fn decline(
    State(ctx): State<LobbyCtx>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<serde_json::Value>, ApiError> {
    let lobby = ctx.get()?;
    decline_as(lobby, &id, Who::Request(&headers)).await?;
    Ok(Json(serde_json::json!({"declined": id})))
}

/// Declines challenge `id` for `who`, the challenged player: the
/// challenge.
pub(crate) async fn decline_as(
    lobby: &Arc<Lobby>,
    id: &str,
    who: Who<'_>,
) -> Result<ChallengeRecord, ApiError> {
    let c = find(lobby, id).await?;
    let who = who.holder(&*lobby.desk, false).await?;
    let Some(target) = &c.target_user else {
        return Err(ApiError::BadRequest(
            "an open challenge is not declined: leave it".into(),
        ));
    };
    if who.user.as_ref() != Some(target) {
        return Err(ApiError::Forbidden(
            "only the challenged player declines a challenge".into(),
        ));
    }
    if lobby.store.claim(id).await.map_err(api_error)?.is_none() {
        return Err(gone());
    }
    tracing::info!(challenge = %id, "challenge declined");
    hub::changed(lobby).await;
    let declined = Declined {
        challenge: id.to_string(),
        by: c.target_name.clone().unwrap_or_default(),
        seat: c.author_seat.clone(),
        user: c.author_user.clone(),
    };
    hub::announce(lobby, None, Some(declined)).await;
    Ok(c)
}

pub async fn accept(
    State(ctx): State<LobbyCtx>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let lobby = ctx.get()?;
    let (who, game) = accept_as(lobby, &id, Who::Request(&headers)).await?;
    Ok(with_cookie(StatusCode::OK, who.cookie, Accepted { game }))
}

/// Accepts challenge `id` for `who`: who it was (with the cookie of a
/// seat it took) and the new game's id.
pub(crate) async fn accept_as(
    lobby: &Arc<Lobby>,
    id: &str,
    who: Who<'_>,
) -> Result<(Holder, String), ApiError> {
    let c = find(lobby, id).await?;
    let who = who.holder(&*lobby.desk, true).await?;
    if wrote(&who, &c) {
        return Err(ApiError::Conflict(
            "this is your own challenge: another player must accept it".into(),
        ));
    }
    if let Some(target) = &c.target_user {
        if who.user.as_ref() != Some(target) {
            return Err(ApiError::Forbidden(format!(
                "this challenge is for {}",
                c.target_name.as_deref().unwrap_or(target)
            )));
        }
    }
    if let (Some(me), Some(author)) = (&who.user, &c.author_user) {
        let name = c.author_name.as_deref().unwrap_or(author);
        refuse_blocked(lobby, me, author, name).await?;
    }
    if c.rated {
        let Some(user) = &who.user else {
            return Err(ApiError::Unauthorized(
                "sign in to accept a rated challenge".into(),
            ));
        };
        if c.min_rating.is_some() || c.max_rating.is_some() {
            let (rating, _) = lobby.desk.rating(user, &c.variant).await?;
            let lo = c.min_rating.unwrap_or(i64::MIN);
            let hi = c.max_rating.unwrap_or(i64::MAX);
            if !(lo..=hi).contains(&rating) {
                return Err(ApiError::Forbidden(format!(
                    "your rating in this game, {rating}, is outside the challenge's range {}-{}",
                    c.min_rating.map_or("".into(), |r| r.to_string()),
                    c.max_rating.map_or("".into(), |r| r.to_string()),
                )));
            }
        }
    }
    let Some(seat) = who.seat.clone() else {
        return Err(ApiError::BadRequest(
            "this browser has no seat to play with".into(),
        ));
    };
    // The one winner: whoever deletes the row.
    let Some(c) = lobby.store.claim(id).await.map_err(api_error)? else {
        return Err(ApiError::Conflict(
            "this challenge was just taken, cancelled or withdrawn".into(),
        ));
    };
    let author_color = match c.color.as_str() {
        "white" => Color::White,
        "black" => Color::Black,
        _ if rand::random::<bool>() => Color::White,
        _ => Color::Black,
    };
    let new = NewGame {
        variant: c.variant.clone(),
        clock: c.clock_initial_ms.zip(c.clock_increment_ms),
        correspondence: c.correspondence,
        rated: c.rated,
        start_fen: c.start_fen.clone(),
        author_seat: c.author_seat.clone(),
        author_color,
        acceptor: who.clone(),
    };
    let game = match lobby.desk.start(new).await {
        Ok(g) => g,
        Err(e) => {
            // The game could not be made: the challenge is open again
            // (its notification was written when it was posted).
            if let Err(e2) = lobby.store.insert_challenge(&c, None).await {
                tracing::warn!(challenge = %id, error = %e2, "cannot restore the challenge");
            }
            hub::changed(lobby).await;
            return Err(e);
        }
    };
    tracing::info!(challenge = %id, game = %game, "challenge accepted");
    hub::changed(lobby).await;
    let started = Started {
        challenge: id.to_string(),
        game: game.clone(),
        seats: vec![c.author_seat.clone(), seat],
        users: c.author_user.iter().chain(&who.user).cloned().collect(),
    };
    hub::announce(lobby, Some(started), None).await;
    Ok((who, game))
}
