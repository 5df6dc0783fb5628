//! The games' JSON API (create, import, join, play, offers, undo) and
//! its routes (with the lists of `list.rs` and the exports of
//! `export.rs`). Every handler checks what the page sends: moves are
//! resolved against the rules core's legal moves and played by
//! `Game::play`, and every failure is a 4xx answer with a reason.

use super::engine::{after_change, schedule_engine, schedule_flag};
pub(crate) use super::request::*;
use super::view::{self, GameView, MoveView};
use super::{GamesCtx, GamesState};
use crate::error::ApiError;
pub(crate) use crate::extract::{body, query};
use crate::games::{self, color_from, Action, Answer, Mode, Origin, Status};
use crate::logs::{self};
use crate::seat::{self, Holder};
use crate::store::GameRecord;
use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};
use springboard_rules::notation::pgn::{self, PgnError, Tags, TextKind, VariantHint};
use springboard_rules::notation::san::to_san;
use springboard_rules::notation::uci::to_uci;
use springboard_rules::{Color, Game, Position, Variant};
use std::collections::BTreeMap;
use std::net::IpAddr;

/// The seat a request that takes one gets (see [`holder`] with `take`).
fn seat_to_take(who: &Holder) -> Result<String, ApiError> {
    who.seat
        .clone()
        .ok_or_else(|| games::GameError::NoCookie.into())
}

pub(crate) fn with_cookie(status: StatusCode, cookie: Option<String>, view: GameView) -> Response {
    let mut resp = (status, Json(view)).into_response();
    if let Some(c) = cookie.and_then(|c| HeaderValue::from_str(&c).ok()) {
        resp.headers_mut().insert(header::SET_COOKIE, c);
    }
    resp
}

/// A variant the page may play: known and implemented.
pub(crate) fn playable_variant(name: &str) -> Result<Variant, ApiError> {
    let v: Variant = name
        .parse()
        .map_err(|e: springboard_rules::VariantError| ApiError::BadRequest(e.to_string()))?;
    if !v.is_implemented() {
        return Err(ApiError::BadRequest(format!(
            "the variant '{v}' is not implemented yet"
        )));
    }
    Ok(v)
}

#[derive(Serialize)]
pub struct VariantInfo {
    name: &'static str,
    title: &'static str,
    start_fen: &'static str,
}

#[derive(Serialize)]
pub struct EngineInfo {
    name: String,
    max_level: u8,
    /// By game (its name): the levels that have a label (name, rough
    /// rating).
    levels: BTreeMap<&'static str, Vec<LevelView>>,
}

#[derive(Serialize)]
pub struct LevelView {
    level: u8,
    name: String,
    elo: Option<u32>,
}

#[derive(Serialize)]
pub struct Info {
    /// The games the page offers: the implemented ones.
    variants: Vec<VariantInfo>,
    /// The engine, if the server has one.
    engine: Option<EngineInfo>,
}

pub async fn info(State(app): Shared) -> Json<Info> {
    Json(Info {
        variants: Variant::implemented()
            .map(|v| VariantInfo {
                name: v.name(),
                title: v.title(),
                start_fen: v.start_fen(),
            })
            .collect(),
        engine: app.engine.as_ref().map(|e| {
            let max_level = e.max_level().max(1);
            EngineInfo {
                name: e.name(),
                max_level,
                levels: Variant::implemented()
                    .map(|v| {
                        let labels = (1..=max_level)
                            .filter_map(|level| {
                                e.level_label(v, level).map(|l| LevelView {
                                    level,
                                    name: l.name,
                                    elo: l.elo,
                                })
                            })
                            .collect();
                        (v.name(), labels)
                    })
                    .collect(),
            }
        }),
    })
}

#[derive(Serialize)]
pub struct RulesView {
    variant: &'static str,
    title: &'static str,
    text: &'static str,
}

pub async fn rules(Path(name): Path<String>) -> Result<Json<RulesView>, ApiError> {
    let v = Variant::from_name(&name)
        .ok_or_else(|| ApiError::NotFound(format!("no rules for '{name}'")))?;
    Ok(Json(RulesView {
        variant: v.name(),
        title: v.title(),
        text: crate::assets::rules_text(v),
    }))
}

/// A new game: a variant from its start, from a FEN, or a whole PGN game;
/// how it is played, the creator's side, the engine's level and the clock.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct CreateGame {
    variant: Option<String>,
    fen: Option<String>,
    pgn: Option<String>,
    mode: Option<String>,
    color: Option<String>,
    level: Option<u8>,
    clock: Option<ClockRequest>,
    /// A correspondence time control (friend games), instead of a clock.
    correspondence: Option<super::corr::CorrespondenceRequest>,
    /// A rated game (a friend game between two accounts, with a clock).
    rated: Option<bool>,
}

#[derive(Deserialize, Clone, Copy)]
#[serde(deny_unknown_fields)]
pub struct ClockRequest {
    /// Seconds.
    initial: u32,
    /// Seconds added per move.
    increment: u32,
}

/// The longest initial time of a clock, in seconds (3 hours).
pub const MAX_INITIAL_S: u32 = 10_800;
/// The largest increment, in seconds.
pub const MAX_INCREMENT_S: u32 = 180;

/// The tags of a loaded PGN a game keeps (shown on the game page and
/// written again by the export); the rest the server writes itself.
const KEPT_TAGS: [&str; 6] = ["Event", "Site", "Date", "Round", "White", "Black"];

/// What a loaded text gives a game beyond its moves: the end it states when
/// the rules did not end it (a resignation, a flag: result and reason) and
/// the tags it keeps.
#[derive(Default)]
pub(crate) struct Loaded {
    pub(crate) end: Option<(String, String)>,
    pub(crate) tags: Vec<(String, String)>,
}

/// The kept tags of a PGN's tags: those of [`KEPT_TAGS`] that say
/// something (not PGN's unknown `?`, `????.??.??`), at most 256 bytes each.
fn kept_tags(tags: &Tags) -> Vec<(String, String)> {
    KEPT_TAGS
        .iter()
        .filter_map(|&name| {
            let value = tags.get(name)?.trim();
            let unknown = value.is_empty() || value.chars().all(|c| c == '?' || c == '.');
            (!unknown && value.len() <= 256).then(|| (name.to_string(), value.to_string()))
        })
        .collect()
}

/// The game a request asks for, and what its text gives beyond the moves.
pub(crate) fn build_game(req: &CreateGame) -> Result<(Game, Loaded), ApiError> {
    let hint = match &req.variant {
        Some(name) => VariantHint::Game(playable_variant(name)?),
        None => VariantHint::Any,
    };
    match (&req.fen, &req.pgn) {
        (Some(_), Some(_)) => Err(ApiError::BadRequest(
            "give a FEN or a PGN, not both".to_string(),
        )),
        (Some(fen), None) => {
            let pos = pgn::read_fen(fen, hint).map_err(text_error)?;
            Ok((Game::new(pos), Loaded::default()))
        }
        (None, Some(text)) => {
            let (game, tags) = pgn::read(text, hint).map_err(text_error)?;
            let end = pgn::stated_end(&game, &tags).map(|(result, reason)| {
                let reason = reason_from_termination(&reason, tags.get("Termination").is_some());
                (result, reason)
            });
            let tags = kept_tags(&tags);
            Ok((game, Loaded { end, tags }))
        }
        (None, None) => {
            let v = match hint {
                VariantHint::Game(v) => v,
                VariantHint::Any => Variant::Chess,
            };
            Ok((Game::new(Position::startpos(v)), Loaded::default()))
        }
    }
}

/// A position or game text the readers refuse: their reason, as a
/// sentence (it says what the text is and what is wrong with it).
pub(crate) fn text_error(e: PgnError) -> ApiError {
    let reason = e.to_string();
    let mut chars = reason.chars();
    ApiError::BadRequest(match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => reason,
    })
}

/// The page's reason for an end a game text states (its `Termination`
/// tag; `export.rs` writes it back).
pub(crate) fn reason_from_termination(termination: &str, tagged: bool) -> String {
    let t = termination.to_ascii_lowercase();
    if !tagged {
        "game text".to_string()
    } else if t == "time forfeit" {
        "time".to_string()
    } else if t.ends_with(" resigns") || t == "resignation" {
        "resignation".to_string()
    } else if t == "draw agreed" || t == "agreement" {
        "draw agreed".to_string()
    } else {
        termination.to_string()
    }
}

/// What a text is and which games read it, for the page's Load buttons.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DetectRequest {
    text: String,
}

#[derive(Serialize)]
pub struct DetectView {
    /// `position` (a FEN) or `game` (a PGN, or neither).
    kind: &'static str,
    /// The games that read the text, by name; empty when none does.
    variants: Vec<&'static str>,
}

pub async fn detect(
    req: Result<Json<DetectRequest>, JsonRejection>,
) -> Result<Json<DetectView>, ApiError> {
    let req = body(req)?;
    let (kind, variants) = pgn::detect(&req.text);
    Ok(Json(DetectView {
        kind: match kind {
            TextKind::Position => "position",
            TextKind::Game => "game",
        },
        variants: variants.into_iter().map(Variant::name).collect(),
    }))
}

/// The client's address (behind a trusted proxy, the one it names).
pub(crate) fn client_ip(parts: &axum::http::Extensions) -> IpAddr {
    crate::proxy::client_ip(parts)
}

pub async fn create(
    State(app): Shared,
    headers: HeaderMap,
    ext: axum::http::Extensions,
    req: Result<Json<CreateGame>, JsonRejection>,
) -> Result<Response, ApiError> {
    let req = body(req)?;
    let (game, loaded) = build_game(&req)?;
    let stated_end = loaded.end;
    let mode = match req.mode.as_deref() {
        None => Mode::Local,
        Some(text) => text.parse().map_err(|_| {
            ApiError::BadRequest(format!(
                "unknown mode '{text}': expected engine, friend or local"
            ))
        })?,
    };
    let who = holder(&app, &headers, true).await?;
    let hash = seat_to_take(&who)?;
    let rated = req.rated.unwrap_or(false);
    if rated {
        check_rated(&app, &headers, &hash, &req, mode).await?;
    }
    let me = match req.color.as_deref().unwrap_or("white") {
        "random" => {
            if rand::random::<bool>() {
                Color::White
            } else {
                Color::Black
            }
        }
        other => color_from(other).ok_or_else(|| {
            ApiError::BadRequest(format!(
                "unknown color '{other}': expected white, black or random"
            ))
        })?,
    };
    let level = match (mode, req.level) {
        (Mode::Engine, level) => {
            let engine = app.engine()?;
            let max = engine.max_level().max(1);
            let level = level.unwrap_or(1);
            if !(1..=max).contains(&level) {
                return Err(ApiError::BadRequest(format!(
                    "level {level} is out of range 1-{max}"
                )));
            }
            Some(i64::from(level))
        }
        (_, None) => None,
        (_, Some(_)) => {
            return Err(ApiError::BadRequest(
                "a level is for engine games only".into(),
            ))
        }
    };
    let clock = match req.clock {
        None => None,
        Some(c) => {
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
            Some((i64::from(c.initial) * 1000, i64::from(c.increment) * 1000))
        }
    };
    let correspondence = super::corr::read(req.correspondence, req.clock.is_some())?;
    if correspondence.is_some() && mode != Mode::Friend {
        return Err(ApiError::BadRequest(format!(
            "correspondence is for games with a friend, not a {mode} game"
        )));
    }
    let clock = match correspondence {
        Some(c) => Some(super::corr::clock_of(c)?),
        None => clock,
    };
    let now = app.games.now();
    if !app.limiter.allow(client_ip(&ext), now) {
        return Err(ApiError::TooManyRequests(format!(
            "too many new games from your address; at most {} a minute",
            app.limiter.per_minute
        )));
    }
    let origin = match mode {
        Mode::Engine | Mode::Friend => Origin::Played,
        Mode::Local if req.fen.is_some() || req.pgn.is_some() => Origin::Imported,
        Mode::Local => Origin::Analysis,
    };
    let over = game.outcome().is_some() || stated_end.is_some();
    let mut moves = Vec::new();
    for (pos, &m) in game.positions().iter().zip(game.moves()) {
        moves.push(crate::store::MoveRecord {
            uci: to_uci(pos, m),
            san: to_san(pos, m),
            ms: None,
            at: now,
        });
    }
    let (white_seat, black_seat) = match (mode, me) {
        (Mode::Local, _) => (Some(hash.clone()), Some(hash.clone())),
        (_, Color::White) => (Some(hash.clone()), None),
        (_, Color::Black) => (None, Some(hash.clone())),
    };
    let rec = GameRecord {
        moves,
        white_seat,
        black_seat,
        engine_color: (mode == Mode::Engine).then_some(!me),
        engine_level: level,
        clock_initial_ms: clock.map(|c| c.0),
        clock_increment_ms: clock.map(|c| c.1),
        white_ms: clock.map(|c| c.0),
        black_ms: clock.map(|c| c.0),
        turn_started_at: clock.map(|_| now),
        // A game imported over (a finished PGN) is shown as it ended.
        status: if over {
            Status::Ended
        } else if mode == Mode::Friend {
            Status::Waiting
        } else {
            Status::Playing
        },
        result: game
            .outcome()
            .map(|o| games::outcome_words(o).0.to_string())
            .or_else(|| stated_end.as_ref().map(|e| e.0.clone())),
        reason: game
            .outcome()
            .map(|o| games::outcome_words(o).1.to_string())
            .or_else(|| stated_end.as_ref().map(|e| e.1.clone())),
        origin,
        // A friend game waits for the one who has its invitation's link.
        invite: (mode == Mode::Friend && !over).then(seat::new_invite),
        tags: loaded.tags,
        rated,
        correspondence,
        ..GameRecord::new(
            seat::new_game_id(),
            game.start().variant().name(),
            game.start().to_fen(),
            mode,
            now,
        )
    };
    // A finished game loaded again opens the first load of it.
    let rec = GameRecord {
        import_key: (origin == Origin::Imported && over).then(|| import_key(&rec)),
        ..rec
    };
    if let Some(key) = &rec.import_key {
        if let Some(first) = first_import(&app, key, &rec).await? {
            let live = app.games.get(&first).await?;
            let view = view_of(&app, &live, Some(&who), None).await?;
            return Ok(with_cookie(StatusCode::OK, who.cookie.clone(), view));
        }
    }
    let live = app.games.insert(rec).await?;
    schedule_engine(&app, &live);
    schedule_flag(&app, &live);
    let view = view_of(&app, &live, Some(&who), None).await?;
    Ok(with_cookie(StatusCode::CREATED, who.cookie.clone(), view))
}

/// What makes a finished loaded game the same game: its variant, start,
/// moves, end and kept tags (SHA-256, hex).
fn import_key(rec: &GameRecord) -> String {
    let moves: Vec<&str> = rec.moves.iter().map(|m| m.uci.as_str()).collect();
    let what = serde_json::json!([
        rec.variant,
        rec.start_fen,
        moves,
        rec.result,
        rec.reason,
        rec.tags
    ]);
    seat::hash_token(&what.to_string())
}

/// The first stored load of the finished game `rec`, if it is still that
/// game (a game at one screen can be taken back and played on).
async fn first_import(
    app: &GamesState,
    key: &str,
    rec: &GameRecord,
) -> Result<Option<String>, ApiError> {
    let found = app
        .games
        .store
        .imported(key)
        .await
        .map_err(crate::outage::api_error)?;
    let same = |other: &GameRecord| {
        other.status == Status::Ended
            && other.result == rec.result
            && other.moves.len() == rec.moves.len()
            && other
                .moves
                .iter()
                .zip(&rec.moves)
                .all(|(a, b)| a.uci == b.uci)
    };
    Ok(found.into_iter().find(same).map(|g| g.id))
}

/// Refuses a rated game that is not a friend game from the start with a
/// clock, or whose creator may not create one (the ratings domain says:
/// an anonymous creator, a browser of another account).
async fn check_rated(
    app: &GamesState,
    headers: &HeaderMap,
    player: &str,
    req: &CreateGame,
    mode: Mode,
) -> Result<(), ApiError> {
    if mode != Mode::Friend {
        return Err(ApiError::BadRequest(format!(
            "only a game with a friend can be rated, not a {mode} game"
        )));
    }
    if req.fen.is_some() || req.pgn.is_some() {
        return Err(ApiError::BadRequest(
            "a game from a position or an imported game cannot be rated".into(),
        ));
    }
    if req.clock.is_none() && req.correspondence.is_none() {
        return Err(ApiError::BadRequest("a rated game needs a clock".into()));
    }
    let Some(policy) = &app.rated else {
        return Err(ApiError::BadRequest(
            "this server has no accounts: no game is rated".into(),
        ));
    };
    policy.may_create(headers, Some(player)).await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlyQuery {
    ply: Option<usize>,
}

pub async fn get_game(
    State(app): Shared,
    Path(id): Path<String>,
    headers: HeaderMap,
    q: Result<Query<PlyQuery>, QueryRejection>,
) -> Result<Json<GameView>, ApiError> {
    let q = query(q)?;
    let live = app.games.get(&id).await?;
    let who = holder(&app, &headers, false).await?;
    Ok(Json(view_of(&app, &live, Some(&who), q.ply).await?))
}

/// `?invite=`: the token of the game's invitation link.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JoinQuery {
    invite: Option<String>,
}

pub async fn join(
    State(app): Shared,
    Path(id): Path<String>,
    headers: HeaderMap,
    q: Result<Query<JoinQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let invite = query(q)?.invite;
    let who = holder(&app, &headers, true).await?;
    if let Some(policy) = &app.rated {
        let live = app.games.get(&id).await?;
        if live.rec.rated {
            policy
                .may_join(&headers, who.seat.as_deref(), &live.rec)
                .await?;
        }
    }
    let done = app
        .games
        .change(&id, Some(&who), Action::Join { invite })
        .await?;
    // A rated game's first-move limit starts now.
    after_change(&app, &done);
    let view = view_of(&app, &done.live, Some(&who), None).await?;
    Ok(with_cookie(StatusCode::OK, who.cookie.clone(), view))
}

pub async fn legal_moves(
    State(app): Shared,
    Path(id): Path<String>,
) -> Result<Json<Vec<MoveView>>, ApiError> {
    let live = app.games.get(&id).await?;
    if live.game.outcome().is_some() || live.rec.status != Status::Playing {
        return Ok(Json(Vec::new()));
    }
    // Off the async workers, like the game's view.
    let moves = tokio::task::spawn_blocking(move || view::legal_views(live.game.position()))
        .await
        .map_err(|e| ApiError::Internal(format!("listing the moves {}", logs::join_error(e))))?;
    Ok(Json(moves))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayMove {
    /// The move in long notation (RULINGS N1-N6).
    #[serde(rename = "move")]
    text: String,
    /// The number of moves played before this one (a resend of a played
    /// move is answered as the first time).
    ply: Option<usize>,
}

/// Applies `action` for the browser of `headers` and answers the view;
/// schedules the engine's reply when it is to move.
pub(crate) async fn act(
    app: &GamesCtx,
    id: &str,
    headers: &HeaderMap,
    action: Action,
) -> Result<Json<GameView>, ApiError> {
    let who = holder(app, headers, false).await?;
    let done = app.games.change(id, Some(&who), action).await?;
    after_change(app, &done);
    Ok(Json(view_of(app, &done.live, Some(&who), None).await?))
}

pub async fn play(
    State(app): Shared,
    Path(id): Path<String>,
    headers: HeaderMap,
    req: Result<Json<PlayMove>, JsonRejection>,
) -> Result<Json<GameView>, ApiError> {
    let req = body(req)?;
    if req.text.len() > 64 {
        return Err(ApiError::BadRequest(
            "a move is at most 64 characters".into(),
        ));
    }
    act(
        &app,
        &id,
        &headers,
        Action::Move {
            text: req.text,
            ply: req.ply,
        },
    )
    .await
}

pub async fn resign(
    State(app): Shared,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<GameView>, ApiError> {
    act(&app, &id, &headers, Action::Resign).await
}

pub async fn abort(
    State(app): Shared,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<GameView>, ApiError> {
    act(&app, &id, &headers, Action::Abort).await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OfferRequest {
    action: String,
}

pub(crate) fn answer(req: Result<Json<OfferRequest>, JsonRejection>) -> Result<Answer, ApiError> {
    match body(req)?.action.as_str() {
        "offer" => Ok(Answer::Offer),
        "accept" => Ok(Answer::Accept),
        "decline" => Ok(Answer::Decline),
        other => Err(ApiError::BadRequest(format!(
            "unknown action '{other}': expected offer, accept or decline"
        ))),
    }
}

pub async fn draw(
    State(app): Shared,
    Path(id): Path<String>,
    headers: HeaderMap,
    req: Result<Json<OfferRequest>, JsonRejection>,
) -> Result<Json<GameView>, ApiError> {
    let a = answer(req)?;
    act(&app, &id, &headers, Action::Draw(a)).await
}

pub async fn takeback(
    State(app): Shared,
    Path(id): Path<String>,
    headers: HeaderMap,
    req: Result<Json<OfferRequest>, JsonRejection>,
) -> Result<Json<GameView>, ApiError> {
    let a = answer(req)?;
    act(&app, &id, &headers, Action::Takeback(a)).await
}

pub async fn rematch(
    State(app): Shared,
    Path(id): Path<String>,
    headers: HeaderMap,
    req: Result<Json<OfferRequest>, JsonRejection>,
) -> Result<Json<GameView>, ApiError> {
    let a = answer(req)?;
    act(&app, &id, &headers, Action::Rematch(a)).await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UndoQuery {
    plies: Option<usize>,
}

pub async fn undo(
    State(app): Shared,
    Path(id): Path<String>,
    headers: HeaderMap,
    q: Result<Query<UndoQuery>, QueryRejection>,
) -> Result<Json<GameView>, ApiError> {
    let plies = query(q)?.plies.unwrap_or(1);
    if plies == 0 {
        return Err(ApiError::BadRequest("plies must be at least 1".into()));
    }
    act(&app, &id, &headers, Action::Undo(plies)).await
}

/// The games' HTTP routes (`/api/...`; the socket's route is the live
/// domain's), on any router state that gives the games' state
/// ([`GamesCtx`]). The requests that the `sb_player` cookie authorises to
/// change a game (create, join, move, resign, offers, undo, the engine's
/// move) pass the `Origin` check (`crate::csrf`) first; the others read
/// or compute and change nothing a cookie holds (GETs, `detect`, and
/// `analysis`, `line`, `read`, which store nothing).
pub(crate) fn routes<S>() -> axum::Router<S>
where
    S: Clone + Send + Sync + 'static,
    GamesCtx: axum::extract::FromRef<S>,
{
    use axum::routing::{get, post};
    let cookie_authorised = axum::Router::new()
        .route("/api/games", post(create))
        .route("/api/games/{id}/join", post(join))
        .route("/api/games/{id}/move", post(play))
        .route("/api/games/{id}/resign", post(resign))
        .route("/api/games/{id}/abort", post(abort))
        .route("/api/games/{id}/draw", post(draw))
        .route("/api/games/{id}/takeback", post(takeback))
        .route("/api/games/{id}/rematch", post(rematch))
        .route("/api/games/{id}/undo", post(undo))
        .route("/api/games/{id}/engine", post(super::engine::engine_move))
        .route(
            "/api/games/{id}/conditional",
            post(super::conditional::set).delete(super::conditional::clear),
        )
        .route_layer(axum::middleware::from_fn(crate::csrf::require_origin));
    axum::Router::new()
        .route("/api/info", get(info))
        .route("/api/rules/{variant}", get(rules))
        .route("/api/detect", post(detect))
        .route("/api/games", get(super::list::list))
        .route("/api/games/your-turn", get(super::turn::your_turn))
        .route("/api/games/{id}/conditional", get(super::conditional::list))
        .route("/api/games/{id}", get(get_game))
        .route("/api/games/{id}/moves", get(legal_moves))
        .route("/api/games/{id}/fen", get(super::export::export_fen))
        .route("/api/games/{id}/pgn", get(super::export::export_pgn))
        .route("/api/games/{id}/analysis", post(super::analysis::analyse))
        .route("/api/games/{id}/line", post(super::analysis::line))
        .route("/api/games/{id}/read", post(super::analysis::read_move))
        .merge(cookie_authorised)
}
