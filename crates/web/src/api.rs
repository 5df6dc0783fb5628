//! The JSON API. Every handler checks what the page sends: moves are
//! resolved against the rules core's legal moves and played by
//! `Game::play`, and every failure is a 4xx answer with a reason.

use crate::engine::{AnalysisLimit, Evaluation};
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
use springboard_rules::notation::san::to_san;
use springboard_rules::notation::uci::{parse_uci, to_uci};
use springboard_rules::{Color, Game, Move, Position, Variant};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

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
    let engine = app.engine()?;
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

/// The think time of an analysis that names no limit.
pub const DEFAULT_ANALYSIS_MS: u64 = 1000;
/// The longest an analysis may think, whatever it asks for.
pub const MAX_ANALYSIS_MS: u64 = 10_000;
/// The deepest search an analysis may ask for.
pub const MAX_ANALYSIS_DEPTH: u32 = 64;

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct AnalysisRequest {
    /// The position after this many moves (the current one if absent).
    ply: Option<usize>,
    /// Search to this depth (within the time cap)...
    depth: Option<u32>,
    /// ...or think this many milliseconds (the default: 1 s).
    movetime: Option<u64>,
}

impl AnalysisRequest {
    fn limit(&self) -> Result<AnalysisLimit, ApiError> {
        let cap = Duration::from_millis(MAX_ANALYSIS_MS);
        match (self.depth, self.movetime) {
            (Some(_), Some(_)) => Err(ApiError::BadRequest(
                "give a depth or a movetime, not both".into(),
            )),
            (Some(d), None) if (1..=MAX_ANALYSIS_DEPTH).contains(&d) => {
                Ok(AnalysisLimit::Depth(d, cap))
            }
            (Some(d), None) => Err(ApiError::BadRequest(format!(
                "depth {d} is out of range 1-{MAX_ANALYSIS_DEPTH}"
            ))),
            (None, Some(ms)) if (1..=MAX_ANALYSIS_MS).contains(&ms) => {
                Ok(AnalysisLimit::Time(Duration::from_millis(ms)))
            }
            (None, Some(ms)) => Err(ApiError::BadRequest(format!(
                "movetime {ms} is out of range 1-{MAX_ANALYSIS_MS} ms"
            ))),
            (None, None) => Ok(AnalysisLimit::Time(Duration::from_millis(
                DEFAULT_ANALYSIS_MS,
            ))),
        }
    }
}

/// An evaluation as the page shows it: always from White's point of view.
#[derive(Serialize, Debug, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum ScoreView {
    /// Centipawns, positive when White stands better.
    Cp(i32),
    /// Mate in this many moves: positive when White mates, negative when
    /// Black does.
    Mate(i32),
}

impl ScoreView {
    fn for_white(score: Evaluation, turn: Color) -> ScoreView {
        let sign = if turn == Color::White { 1 } else { -1 };
        match score {
            Evaluation::Cp(cp) => ScoreView::Cp(sign * cp),
            Evaluation::Mate(n) => ScoreView::Mate(sign * n),
        }
    }
}

#[derive(Serialize, Debug)]
pub struct AnalysisView {
    /// The analysed position: after this many moves of the game, and its FEN
    /// (the page drops an answer that is not about the position it shows).
    ply: usize,
    fen: String,
    /// Whose point of view the score takes: always `"white"`.
    pov: &'static str,
    score: ScoreView,
    depth: u32,
    /// The best line in long notation and in SAN (checked and written by
    /// the rules core), and in SAN with move numbers.
    pv_uci: Vec<String>,
    pv_san: Vec<String>,
    pv_text: String,
}

/// The engine's line checked move by move by the rules core: its long
/// notation, SAN and numbered text. The line stops before a move that is
/// not legal; a line with no legal first move is refused.
fn checked_line(
    pos: &Position,
    pv: &[Move],
) -> Result<(Vec<String>, Vec<String>, String), ApiError> {
    let mut pos = pos.clone();
    let (mut ucis, mut sans) = (Vec::new(), Vec::new());
    let mut text = String::new();
    let mut last_mover = None;
    for &m in pv {
        if !pos.is_legal(m) {
            if ucis.is_empty() {
                return Err(ApiError::Conflict(format!(
                    "the engine's line starts with an illegal move '{}'",
                    to_uci(&pos, m)
                )));
            }
            break;
        }
        let san = to_san(&pos, m);
        if !text.is_empty() {
            text.push(' ');
        }
        match pos.turn() {
            Color::White => text.push_str(&format!("{}. ", pos.fullmove_number())),
            Color::Black if last_mover != Some(Color::White) => {
                text.push_str(&format!("{}... ", pos.fullmove_number()))
            }
            Color::Black => {}
        }
        text.push_str(&san);
        ucis.push(to_uci(&pos, m));
        sans.push(san);
        last_mover = Some(pos.turn());
        pos.play(m);
    }
    if ucis.is_empty() {
        return Err(ApiError::Conflict("the engine gave no line".into()));
    }
    Ok((ucis, sans, text))
}

/// The engine analyses a position of the game (the current one, or the one
/// after `ply` moves) at full strength: evaluation from White's point of
/// view and the best line. It thinks on a blocking worker thread for a
/// bounded time; a newer analysis of the same game, or a change of the
/// game, stops it and its answer is refused (409).
pub async fn analyse(
    State(app): Shared,
    Path(id): Path<String>,
    req: Result<Json<AnalysisRequest>, JsonRejection>,
) -> Result<Json<AnalysisView>, ApiError> {
    let id = game_id(&id)?;
    let req = body(req)?;
    let engine = app.engine()?;
    let limit = req.limit()?;
    let (game, stop, generation) = {
        let mut store = app.store();
        let entry = store.get_mut(id)?;
        let plies = entry.game.moves().len();
        let ply = req.ply.unwrap_or(plies);
        if ply > plies {
            return Err(ApiError::BadRequest(format!(
                "ply {ply} is beyond the game's {plies} moves"
            )));
        }
        if ply == plies {
            if let Some(o) = entry.game.outcome() {
                return Err(ApiError::Conflict(format!(
                    "the game is over ({}), there is nothing to analyse",
                    o.reason_str()
                )));
            }
        }
        // The game up to `ply`, with its history for repetitions.
        let mut game = Game::new(entry.game.start().clone());
        for &m in &entry.game.moves()[..ply] {
            game.play(m)
                .map_err(|e| ApiError::Internal(format!("the game does not replay: {e}")))?;
        }
        (game, entry.new_analysis(), entry.generation)
    };
    let watched = Arc::clone(&stop);
    let found = tokio::task::spawn_blocking(move || {
        let found = engine.analyse(&game, limit, watched);
        (game, found)
    })
    .await
    .map_err(|e| ApiError::Internal(format!("the engine failed: {e}")))?;
    let (game, found) = found;
    {
        let mut store = app.store();
        let entry = store.get_mut(id)?;
        if entry.generation != generation {
            return Err(ApiError::Conflict(
                "the game changed while the engine was analysing".into(),
            ));
        }
    }
    if stop.load(Ordering::Relaxed) {
        return Err(ApiError::Conflict(
            "a newer analysis of this game replaced this one".into(),
        ));
    }
    let analysis = found.ok_or_else(|| ApiError::Conflict("the engine gave no analysis".into()))?;
    let pos = game.position();
    let (pv_uci, pv_san, pv_text) = checked_line(pos, &analysis.pv)?;
    Ok(Json(AnalysisView {
        ply: game.moves().len(),
        fen: pos.to_fen(),
        pov: "white",
        score: ScoreView::for_white(analysis.score, pos.turn()),
        depth: analysis.depth,
        pv_uci,
        pv_san,
        pv_text,
    }))
}
