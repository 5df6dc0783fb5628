//! What the games' handlers share: the domain's state as an extractor
//! ([`Shared`]), the seats a request holds ([`holder`]), the game's view
//! for it ([`view_of`]) and a player's name ([`player_name`]).

use super::view::{self, GameView};
use super::{GamesCtx, GamesState};
use super::{Live, Mode};
use crate::error::ApiError;
use crate::logs;
use crate::seat::Holder;
use crate::store::GameRecord;
use axum::extract::State;
use axum::http::HeaderMap;
use springboard_rules::Color;

pub(crate) type Shared = State<GamesCtx>;

/// The seats the request with `headers` holds (the server's
/// `seat::Holders`: the browser's own, or the account's when signed in);
/// with `take`, a request that is to take a seat gets one of its own if
/// it has none (its `Set-Cookie` in [`Holder::cookie`]).
pub(crate) async fn holder(
    app: &GamesState,
    headers: &HeaderMap,
    take: bool,
) -> Result<Holder, ApiError> {
    app.seats
        .holder(headers, take)
        .await
        .map_err(crate::outage::api_error)
}

/// The view of `live` for `who`, built with
/// no lock held and on a blocking thread: a view of a position with
/// thousands of legal moves (each with its SAN) takes a while, and the
/// async workers keep serving other requests meanwhile (issue 16 item 7).
pub(crate) async fn view_of(
    app: &GamesState,
    live: &Live,
    who: Option<&Holder>,
    ply: Option<usize>,
) -> Result<GameView, ApiError> {
    let you = live.seats_of(who);
    let now = app.games.now();
    let engine_name = app.engine.as_ref().map(|e| e.name());
    let engine_thinking = app.pool.thinking(&live.rec.id);
    let rated = match &app.rated {
        Some(r) if live.rec.rated => r.seats(&live.rec).await?,
        _ => None,
    };
    let live = live.clone();
    let span = tracing::Span::current();
    tokio::task::spawn_blocking(move || {
        let _in_request = span.enter();
        let ctx = view::Context {
            you: &you,
            now,
            engine_name,
            engine_thinking,
            rated,
        };
        view::game_view(&live, ply, &ctx)
    })
    .await
    .map_err(|e| ApiError::Internal(format!("building the view {}", logs::join_error(e))))?
}

pub(crate) fn player_name(app: &GamesState, rec: &GameRecord, c: Color) -> String {
    if rec.engine_color == Some(c) {
        let name = app
            .engine
            .as_ref()
            .map_or_else(|| "engine".into(), |e| e.name());
        return format!("{name}, level {}", rec.engine_level.unwrap_or(1));
    }
    let seat = match c {
        Color::White => &rec.white_seat,
        Color::Black => &rec.black_seat,
    };
    match (seat, rec.mode) {
        (None, _) => "waiting".into(),
        (Some(_), Mode::Local) => rec.loaded_name(c).unwrap_or("Player").into(),
        (Some(_), _) => "Anonymous".into(),
    }
}
