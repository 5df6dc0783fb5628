//! The JSON API. Every handler checks what the page sends: moves are
//! resolved against the rules core's legal moves and played by
//! `Game::play`, and every failure is a 4xx answer with a reason.

use crate::error::ApiError;
use crate::pgn;
use crate::store::Entry;
use crate::view::{self, GameView, MoveView};
use crate::AppState;
use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::Json;
use serde::{Deserialize, Serialize};
use springboard_rules::notation::uci::{parse_uci, to_uci};
use springboard_rules::{Game, Move, Position, Variant};
use std::sync::Arc;

type Shared = State<Arc<AppState>>;

/// Reads a JSON body, turning the extractor's rejection into a JSON reason.
fn body<T>(b: Result<Json<T>, JsonRejection>) -> Result<T, ApiError> {
    b.map(|Json(v)| v).map_err(|e| {
        let reason = format!("bad request body: {}", e.body_text());
        match e {
            JsonRejection::MissingJsonContentType(_) => ApiError::UnsupportedMediaType(reason),
            _ => ApiError::BadRequest(reason),
        }
    })
}

fn query<T>(q: Result<Query<T>, QueryRejection>) -> Result<T, ApiError> {
    q.map(|Query(v)| v)
        .map_err(|e| ApiError::BadRequest(format!("bad query: {}", e.body_text())))
}

fn game_id(text: &str) -> Result<u64, ApiError> {
    text.parse()
        .map_err(|_| ApiError::NotFound(format!("no game with id '{text}'")))
}

/// A variant the page may play: known and implemented.
fn playable_variant(name: &str) -> Result<Variant, ApiError> {
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
        engine: app.engine.as_ref().map(|e| EngineInfo {
            name: e.name(),
            max_level: e.max_level().max(1),
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

/// A new game: a variant from its start, from a FEN, or a whole PGN game.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct CreateGame {
    variant: Option<String>,
    fen: Option<String>,
    pgn: Option<String>,
}

fn build_game(req: &CreateGame) -> Result<Game, ApiError> {
    let variant = match &req.variant {
        Some(name) => playable_variant(name)?,
        None => Variant::Chess,
    };
    match (&req.fen, &req.pgn) {
        (Some(_), Some(_)) => Err(ApiError::BadRequest(
            "give a FEN or a PGN, not both".to_string(),
        )),
        (Some(fen), None) => {
            let pos = Position::from_fen(variant, fen.trim())
                .map_err(|e| ApiError::BadRequest(format!("bad FEN: {e}")))?;
            Ok(Game::new(pos))
        }
        (None, Some(text)) => {
            pgn::import(text, variant).map_err(|e| ApiError::BadRequest(format!("bad PGN: {e}")))
        }
        (None, None) => Ok(Game::new(Position::startpos(variant))),
    }
}

pub async fn create(
    State(app): Shared,
    req: Result<Json<CreateGame>, JsonRejection>,
) -> Result<(StatusCode, Json<GameView>), ApiError> {
    let req = body(req)?;
    let game = build_game(&req)?;
    let mut store = app.store();
    let id = store.insert(game);
    let entry = store.get_mut(id)?;
    Ok((StatusCode::CREATED, Json(view::game_view(id, entry, None)?)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlyQuery {
    ply: Option<usize>,
}

pub async fn get_game(
    State(app): Shared,
    Path(id): Path<String>,
    q: Result<Query<PlyQuery>, QueryRejection>,
) -> Result<Json<GameView>, ApiError> {
    let id = game_id(&id)?;
    let q = query(q)?;
    let mut store = app.store();
    let entry = store.get_mut(id)?;
    Ok(Json(view::game_view(id, entry, q.ply)?))
}

pub async fn legal_moves(
    State(app): Shared,
    Path(id): Path<String>,
) -> Result<Json<Vec<MoveView>>, ApiError> {
    let id = game_id(&id)?;
    let mut store = app.store();
    let entry = store.get_mut(id)?;
    if entry.game.outcome().is_some() {
        return Ok(Json(Vec::new()));
    }
    Ok(Json(view::legal_views(entry.game.position())))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayMove {
    /// The move in long notation (RULINGS N1-N6).
    #[serde(rename = "move")]
    text: String,
}

/// Resolves a move text: the legal move whose long notation it is, or any
/// other valid path of a legal move (ruling N3).
fn resolve(pos: &Position, text: &str) -> Result<Move, ApiError> {
    let text = text.trim();
    if let Some(m) = pos
        .legal_moves()
        .into_iter()
        .find(|&m| to_uci(pos, m) == text)
    {
        return Ok(m);
    }
    parse_uci(pos, text).map_err(|e| match e {
        springboard_rules::MoveError::Malformed(_) => ApiError::BadRequest(e.to_string()),
        _ => ApiError::Conflict(e.to_string()),
    })
}

pub async fn play(
    State(app): Shared,
    Path(id): Path<String>,
    req: Result<Json<PlayMove>, JsonRejection>,
) -> Result<Json<GameView>, ApiError> {
    let id = game_id(&id)?;
    let req = body(req)?;
    let mut store = app.store();
    let entry: &mut Entry = store.get_mut(id)?;
    if let Some(o) = entry.game.outcome() {
        return Err(ApiError::Conflict(format!(
            "the game is over ({}, {})",
            o.result_str(),
            o.reason_str()
        )));
    }
    let m = resolve(entry.game.position(), &req.text)?;
    entry.play(m)?;
    Ok(Json(view::game_view(id, entry, None)?))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UndoQuery {
    plies: Option<usize>,
}

pub async fn undo(
    State(app): Shared,
    Path(id): Path<String>,
    q: Result<Query<UndoQuery>, QueryRejection>,
) -> Result<Json<GameView>, ApiError> {
    let id = game_id(&id)?;
    let plies = query(q)?.plies.unwrap_or(1);
    if plies == 0 {
        return Err(ApiError::BadRequest("plies must be at least 1".into()));
    }
    let mut store = app.store();
    let entry = store.get_mut(id)?;
    entry.undo(plies)?;
    Ok(Json(view::game_view(id, entry, None)?))
}

#[derive(Serialize)]
pub struct TextView {
    text: String,
}

pub async fn export_pgn(
    State(app): Shared,
    Path(id): Path<String>,
) -> Result<Json<TextView>, ApiError> {
    let id = game_id(&id)?;
    let mut store = app.store();
    let entry = store.get_mut(id)?;
    Ok(Json(TextView {
        text: pgn::export(&entry.game),
    }))
}

pub async fn export_fen(
    State(app): Shared,
    Path(id): Path<String>,
) -> Result<Json<TextView>, ApiError> {
    let id = game_id(&id)?;
    let mut store = app.store();
    let entry = store.get_mut(id)?;
    Ok(Json(TextView {
        text: entry.game.position().to_fen(),
    }))
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct EngineRequest {
    level: Option<u8>,
}

/// The engine plays the next move of the game. It thinks on a blocking
/// worker thread; a change of the game meanwhile stops it and its answer is
/// dropped. Its move is checked by the rules core like any other.
pub async fn engine_move(
    State(app): Shared,
    Path(id): Path<String>,
    req: Result<Json<EngineRequest>, JsonRejection>,
) -> Result<Json<GameView>, ApiError> {
    let id = game_id(&id)?;
    let req = body(req)?;
    let engine = app
        .engine
        .clone()
        .ok_or_else(|| ApiError::NotFound("this server has no engine".into()))?;
    let max = engine.max_level().max(1);
    let level = req.level.unwrap_or(1);
    if !(1..=max).contains(&level) {
        return Err(ApiError::BadRequest(format!(
            "level {level} is out of range 1-{max}"
        )));
    }
    let (game, stop, generation) = {
        let mut store = app.store();
        let entry = store.get_mut(id)?;
        if let Some(o) = entry.game.outcome() {
            return Err(ApiError::Conflict(format!(
                "the game is over ({})",
                o.reason_str()
            )));
        }
        (entry.game.clone(), entry.stop_flag(), entry.generation)
    };
    let found = tokio::task::spawn_blocking(move || engine.best_move(&game, level, stop))
        .await
        .map_err(|e| ApiError::Internal(format!("the engine failed: {e}")))?;
    let mut store = app.store();
    let entry = store.get_mut(id)?;
    if entry.generation != generation {
        return Err(ApiError::Conflict(
            "the game changed while the engine was thinking".into(),
        ));
    }
    let m = found.ok_or_else(|| ApiError::Conflict("the engine found no move".into()))?;
    entry.play(m)?;
    Ok(Json(view::game_view(id, entry, None)?))
}
