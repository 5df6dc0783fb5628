//! lichess's challenge routes on the lobby's challenges:
//! `POST /api/challenge/{name}` (a personal challenge), `/open` (an open
//! one), `/{id}/accept`, `/decline`, `/cancel`, and `POST
//! /api/board/seek`, an open challenge that lives while its request is
//! open and is cancelled when the client goes. Every refusal is the
//! lobby's (a JSON error that changes nothing).

use super::ndjson;
use super::params::Params;
use super::views;
use super::{auth, LichessCtx, KEEP_ALIVE};
use crate::error::ApiError;
use crate::games::corr::CorrespondenceRequest;
use crate::lobby::http::{
    accept_as, cancel_as, decline_as, post_as, ClockRequest, CreateChallenge,
};
use crate::lobby::hub::{self, Event};
use crate::lobby::view::{Listed, Viewer};
use crate::lobby::{Lobby, Who};
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{Extensions, HeaderMap};
use axum::response::Response;
use axum::Json;
use serde_json::{json, Value};
use std::sync::Arc;

/// lichess's `days` (days per move) of a request, if it names them.
fn days(p: &Params) -> Result<Option<CorrespondenceRequest>, ApiError> {
    Ok(p.number("days", u64::from(u32::MAX))?
        .map(|d| CorrespondenceRequest::days(u32::try_from(d).unwrap_or(u32::MAX))))
}

/// Our name of lichess's game `key` (lichess's `standard` is our chess).
fn game_name(key: Option<String>) -> String {
    match key.as_deref() {
        None | Some("standard") => "chess".into(),
        Some(k) => k.to_string(),
    }
}

/// A lobby challenge from lichess's parameters (`to`: a personal one).
fn request(p: &Params, to: Option<String>) -> Result<CreateChallenge, ApiError> {
    let limit = p.number("clock.limit", u64::from(u32::MAX))?;
    let increment = p.number("clock.increment", u64::from(u32::MAX))?;
    let clock = match (limit, increment) {
        (None, None) => None,
        (limit, increment) => Some(ClockRequest {
            initial: u32::try_from(limit.unwrap_or(0)).unwrap_or(u32::MAX),
            increment: u32::try_from(increment.unwrap_or(0)).unwrap_or(u32::MAX),
        }),
    };
    Ok(CreateChallenge {
        variant: game_name(p.text("variant")?),
        clock,
        color: p.text("color")?,
        rated: p.flag("rated")?,
        min_rating: None,
        max_rating: None,
        to,
        correspondence: days(p)?,
        fen: p.text("fen")?,
    })
}

/// The challenge `rec` was posted as: the lobby's listing (with its
/// author's rating) once it has it.
fn listed(lobby: &Lobby, rec: &crate::lobby::ChallengeRecord) -> Listed {
    lobby
        .hub
        .list()
        .into_iter()
        .find(|c| c.view.id == rec.id)
        .map_or_else(|| Listed::new(rec, None), |c| (*c).clone())
}

fn origin(headers: &HeaderMap, ext: &Extensions) -> String {
    crate::proxy::origin(headers, ext).unwrap_or_default()
}

async fn post_challenge(
    app: &LichessCtx,
    headers: &HeaderMap,
    ext: &Extensions,
    body: &Bytes,
    to: Option<String>,
) -> Result<Json<Value>, ApiError> {
    let me = auth::require(app, headers).await?;
    let lobby = app.lobby.get()?;
    let req = request(&Params::read(headers, body)?, to)?;
    let ip = crate::proxy::client_ip(ext);
    let (_, rec) = post_as(lobby, Who::Holder(me.holder), ip, req).await?;
    Ok(Json(views::challenge(
        &listed(lobby, &rec),
        &me.user.id,
        &origin(headers, ext),
    )))
}

/// `POST /api/challenge/{name}`.
pub async fn create(
    State(app): State<LichessCtx>,
    Path(name): Path<String>,
    headers: HeaderMap,
    ext: Extensions,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    post_challenge(&app, &headers, &ext, &body, Some(name)).await
}

/// `POST /api/challenge/open`.
pub async fn open(
    State(app): State<LichessCtx>,
    headers: HeaderMap,
    ext: Extensions,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    post_challenge(&app, &headers, &ext, &body, None).await
}

/// `POST /api/challenge/{id}/accept`.
pub async fn accept(
    State(app): State<LichessCtx>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let me = auth::require(&app, &headers).await?;
    let (_, game) = accept_as(app.lobby.get()?, &id, Who::Holder(me.holder)).await?;
    Ok(Json(json!({"ok": true, "game": game})))
}

/// `POST /api/challenge/{id}/decline` (a `reason` is accepted and not
/// kept).
pub async fn decline(
    State(app): State<LichessCtx>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let me = auth::require(&app, &headers).await?;
    decline_as(app.lobby.get()?, &id, Who::Holder(me.holder)).await?;
    Ok(Json(json!({"ok": true})))
}

/// `POST /api/challenge/{id}/cancel`.
pub async fn cancel(
    State(app): State<LichessCtx>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let me = auth::require(&app, &headers).await?;
    cancel_as(app.lobby.get()?, &id, Who::Holder(me.holder)).await?;
    Ok(Json(json!({"ok": true})))
}

/// Reads lichess's `ratingRange` (`1500-1800`; empty: none).
fn range(text: Option<String>) -> Result<(Option<i64>, Option<i64>), ApiError> {
    let Some(text) = text else {
        return Ok((None, None));
    };
    let bad = || ApiError::BadRequest("'ratingRange' must be like 1500-1800".into());
    let (lo, hi) = text.split_once('-').ok_or_else(bad)?;
    let lo = lo.trim().parse::<i64>().map_err(|_| bad())?;
    let hi = hi.trim().parse::<i64>().map_err(|_| bad())?;
    Ok((Some(lo), Some(hi)))
}

/// `POST /api/board/seek`: an open challenge (`time` minutes and
/// `increment` seconds) while the request's stream is open; it ends when
/// someone accepts (the game starts: the event stream tells it) and the
/// challenge is cancelled when the client goes first.
pub async fn seek(
    State(app): State<LichessCtx>,
    headers: HeaderMap,
    ext: Extensions,
    body: Bytes,
) -> Result<Response, ApiError> {
    let me = auth::require(&app, &headers).await?;
    let lobby = app.lobby.get()?.clone();
    let p = Params::read(&headers, &body)?;
    // A seek has a clock (`time` minutes) or days per move (`days`).
    let correspondence = days(&p)?;
    let clock = match p.number("time", 180)? {
        Some(minutes) => Some(ClockRequest {
            // Both at most 180: no overflow.
            initial: u32::try_from(minutes * 60).unwrap_or(u32::MAX),
            increment: u32::try_from(p.number("increment", 180)?.unwrap_or(0)).unwrap_or(u32::MAX),
        }),
        None if correspondence.is_some() => None,
        None => {
            return Err(ApiError::BadRequest(
                "a seek needs `time` (minutes) or `days`".into(),
            ))
        }
    };
    let (min_rating, max_rating) = range(p.text("ratingRange")?)?;
    let req = CreateChallenge {
        variant: game_name(p.text("variant")?),
        clock,
        color: p.text("color")?,
        rated: p.flag("rated")?,
        min_rating,
        max_rating,
        to: None,
        correspondence,
        fen: None,
    };
    let viewer = Viewer {
        held: me.holder.held.clone(),
        user: Some(me.user.id.clone()),
    };
    // The seeker holds the lobby like a socket: the seek is not withdrawn.
    let (events, online) = lobby.hub.join(&viewer, Some(&me.user.name));
    if online {
        hub::online_changed(&lobby).await;
    }
    let ip = crate::proxy::client_ip(&ext);
    let posted = post_as(&lobby, Who::Holder(me.holder.clone()), ip, req).await;
    let rec = match posted {
        Ok((_, rec)) => rec,
        Err(e) => {
            hub::leave(&lobby, &viewer).await;
            return Err(e);
        }
    };
    let (lines, resp) = ndjson::stream();
    tokio::spawn(wait_seek(lobby, viewer, me.holder, rec.id, events, lines));
    Ok(resp)
}

/// Keeps a seek's stream open until its challenge is gone (accepted or
/// withdrawn), or cancels it when the client goes.
async fn wait_seek(
    lobby: Arc<Lobby>,
    viewer: Viewer,
    holder: crate::seat::Holder,
    id: String,
    mut events: tokio::sync::broadcast::Receiver<Event>,
    lines: ndjson::Lines,
) {
    let mut tick = tokio::time::interval(KEEP_ALIVE);
    tick.tick().await;
    let client_left = loop {
        tokio::select! {
            e = events.recv() => match e {
                Ok(Event::Remove(gone)) if gone == id => break false,
                Ok(_) => {}
                Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {
                    if !lobby.hub.list().iter().any(|c| c.view.id == id) {
                        break false;
                    }
                }
                Err(_) => break false,
            },
            _ = tick.tick() => {
                if !lines.keep_alive().await {
                    break true;
                }
            }
            _ = lines.closed() => break true,
        }
    };
    if client_left {
        // Gone already (taken meanwhile) is no error.
        let _ = cancel_as(&lobby, &id, Who::Holder(holder)).await;
    }
    hub::leave(&lobby, &viewer).await;
}
