//! A game exported as text: its PGN (with the tags of who played, where,
//! when, the clock and the end, and those a loaded game kept) and its FEN.

use super::request::{player_name, Shared};
use super::GamesState;
use crate::error::ApiError;
use crate::extract::query;
use crate::games::Mode;
use crate::store::GameRecord;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::{header, Extensions, HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};
use springboard_rules::notation::pgn::{self, Player, Tags};
use springboard_rules::{Color, Game};

/// The `Termination` tag of a stored end the rules did not make (the rules'
/// own ends are written `normal` by the PGN writer).
pub(crate) fn termination_of(rec: &GameRecord, game: &Game) -> Option<String> {
    if game.outcome().is_some() {
        return None;
    }
    let reason = rec.reason.as_deref()?;
    let loser = match rec.result.as_deref() {
        Some("1-0") => Some(Color::Black),
        Some("0-1") => Some(Color::White),
        _ => None,
    };
    Some(match (reason, loser) {
        ("time" | "time vs insufficient material", _) => "time forfeit".to_string(),
        ("resignation", Some(l)) => format!("{} resigns", l.name()),
        ("game text", _) => return None,
        (other, _) => other.to_string(),
    })
}

#[derive(Serialize)]
pub struct TextView {
    text: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PgnQuery {
    download: Option<u8>,
}

/// The PGN tags of a stored game: who played (the engine with its level),
/// where (`site`: the game's address), when, the clock, and how it ended.
/// A loaded game keeps the Event, Site, Date, Round, White and Black its
/// text had.
pub(crate) fn pgn_tags(app: &GamesState, rec: &GameRecord, game: &Game, site: &str) -> Tags {
    let mut tags = Tags::new();
    let event = match rec.mode {
        Mode::Engine => "Springboard game against the engine",
        Mode::Friend => "Springboard game between friends",
        Mode::Local => "Springboard game at one screen",
    };
    tags.set("Event", rec.tag("Event").unwrap_or(event));
    tags.set("Site", rec.tag("Site").unwrap_or(site));
    if let Some(date) = rec.tag("Date") {
        tags.set("Date", date);
    } else if rec.created_at >= 0 {
        tags.set("Date", pgn::date_from_days(rec.created_at / 86_400_000));
    }
    if let Some(round) = rec.tag("Round") {
        tags.set("Round", round);
    }
    for c in [Color::White, Color::Black] {
        if rec.engine_color == Some(c) {
            let name = app
                .engine
                .as_ref()
                .map_or_else(|| "engine".into(), |e| e.name());
            let level = rec.engine_level.and_then(|l| u32::try_from(l).ok());
            tags.set_player(c, Player::Engine { name: &name, level });
        } else {
            let seat = match c {
                Color::White => &rec.white_seat,
                Color::Black => &rec.black_seat,
            };
            if seat.is_some() {
                let name = player_name(app, rec, c);
                tags.set_player(c, Player::Human(&name));
            }
        }
    }
    if let Some(r) = &rec.result {
        tags.set("Result", r.clone());
    }
    if let Some(base) = rec.clock_initial_ms {
        let base = u64::try_from(base).unwrap_or(0);
        let inc = u64::try_from(rec.clock_increment_ms.unwrap_or(0)).unwrap_or(0);
        tags.set("TimeControl", pgn::time_control(base, inc));
    }
    if let Some(t) = termination_of(rec, game) {
        tags.set("Termination", t);
    }
    tags
}

/// The game's address as the client reached the server: its own origin
/// (the scheme and host a trusted proxy names, else the `Host` header) and
/// `/g/{id}`; `Springboard` when the request names no host.
pub(crate) fn game_url(headers: &HeaderMap, ext: &Extensions, id: &str) -> String {
    match crate::proxy::origin(headers, ext) {
        Some(origin) => format!("{origin}/g/{id}"),
        None => "Springboard".to_string(),
    }
}

pub async fn export_pgn(
    State(app): Shared,
    Path(id): Path<String>,
    headers: HeaderMap,
    ext: Extensions,
    q: Result<Query<PgnQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let q = query(q)?;
    let live = app.games.get(&id).await?;
    let rec = &live.rec;
    let site = game_url(&headers, &ext, &rec.id);
    let text = pgn::write(&live.game, &pgn_tags(&app, rec, &live.game, &site));
    if q.download.unwrap_or(0) != 0 {
        let mut resp = text.into_response();
        let h = resp.headers_mut();
        h.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/x-chess-pgn"),
        );
        if let Ok(v) = HeaderValue::from_str(&format!(
            "attachment; filename=\"springboard-{}.pgn\"",
            rec.id
        )) {
            h.insert(header::CONTENT_DISPOSITION, v);
        }
        return Ok(resp);
    }
    Ok(Json(TextView { text }).into_response())
}

pub async fn export_fen(
    State(app): Shared,
    Path(id): Path<String>,
) -> Result<Json<TextView>, ApiError> {
    let live = app.games.get(&id).await?;
    Ok(Json(TextView {
        text: live.game.position().to_fen(),
    }))
}
