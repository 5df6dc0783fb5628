//! Analysis and side lines: `POST .../analysis`, `.../line` and `.../read`.

use super::view::{self, GameView, MoveView};
use crate::engine::{AnalysisLimit, Evaluation};
use crate::error::ApiError;
use crate::extract::body;
use crate::games::{self, GameError, Live, Status};
use crate::logs::{self, JobLog};
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::Json;
use serde::{Deserialize, Serialize};
use springboard_rules::notation::missing::missing_part;
use springboard_rules::notation::san::to_san;
use springboard_rules::notation::seed::read_typed;
use springboard_rules::notation::uci::to_uci;
use springboard_rules::{Color, Game, Move, MoveError, Outcome, Position, WinReason};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use super::engine::StopOnDrop;
use super::request::*;

/// The longest side line the page may ask for.
pub const MAX_LINE_MOVES: usize = 600;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LineRequest {
    /// The line leaves the game after this many moves...
    ply: usize,
    /// ...and goes on with these moves (long notation), each checked by
    /// the rules core.
    moves: Vec<String>,
}

/// The game up to `ply` and then `moves`: a game of its own (the stored
/// game is not touched). A move that is not legal, or one after the end,
/// is refused with its place in the line.
pub(crate) fn side_line(live: &Live, ply: usize, moves: &[String]) -> Result<Live, GameError> {
    let plies = live.game.moves().len();
    if ply > plies {
        return Err(GameError::PlyBeyond { ply, plies });
    }
    if moves.len() > MAX_LINE_MOVES {
        return Err(GameError::LineTooLong(MAX_LINE_MOVES));
    }
    let mut rec = live.rec.clone();
    rec.moves.truncate(ply);
    let mut game = Game::new(live.game.start().clone());
    for &m in &live.game.moves()[..ply] {
        game.play(m).map_err(|e| GameError::Replay(e.to_string()))?;
    }
    for (i, text) in moves.iter().enumerate() {
        let at = |reason: String| GameError::LineMove {
            n: i + 1,
            text: text.clone(),
            reason,
        };
        if let Some(o) = game.outcome() {
            return Err(at(format!("the game is over there ({})", o.reason_str())));
        }
        let before = game.position().clone();
        let m = games::resolve(&before, text).map_err(|e| at(e.to_string()))?;
        game.play(m).map_err(|e| at(e.to_string()))?;
        rec.moves.push(crate::store::MoveRecord {
            uci: to_uci(&before, m),
            san: to_san(&before, m),
            ms: None,
            at: 0,
        });
    }
    // The line's own end (or none): no clock, no offers, no rematch.
    let outcome = game.outcome();
    rec.status = if outcome.is_some() {
        Status::Ended
    } else {
        Status::Playing
    };
    rec.result = outcome.map(|o| o.result_str().to_string());
    rec.reason = outcome.map(|o| o.reason_str().to_string());
    rec.clock_initial_ms = None;
    rec.clock_increment_ms = None;
    rec.draw_offer = None;
    rec.takeback_offer = None;
    rec.rematch_offer = None;
    rec.rematch_id = None;
    Ok(Live {
        rec,
        game,
        engine_stop: Arc::new(std::sync::atomic::AtomicBool::new(false)),
        analysis_stop: Arc::new(std::sync::atomic::AtomicBool::new(false)),
    })
}

/// A side line (a variation) from a position of the game: the view of the
/// position at its end with its legal moves, for the page to play on
/// without changing the game, whose moves stay as the server keeps them.
pub async fn line(
    State(app): Shared,
    Path(id): Path<String>,
    headers: HeaderMap,
    req: Result<Json<LineRequest>, JsonRejection>,
) -> Result<Json<GameView>, ApiError> {
    let req = body(req)?;
    let live = app.games.get(&id).await?;
    let line = side_line(&live, req.ply, &req.moves)?;
    let who = holder(&app, &headers, false).await?;
    Ok(Json(view_of(&app, &line, Some(&who), None).await?))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReadRequest {
    /// The move as the player typed it.
    text: String,
    /// At the position after this many moves (the current one if absent)...
    ply: Option<usize>,
    /// ...and then these moves of a side line (long notation).
    #[serde(default)]
    moves: Vec<String>,
}

/// A typed move, read.
#[derive(Serialize)]
pub struct ReadView {
    uci: String,
    san: String,
}

/// Reads a move as a player types it (SAN or long notation, a Hop Chess
/// turn with its trampoline square, a drop, a jump, a pass: rulings
/// N1-N6) at a position of the game or of a side line, with the rules
/// core's reader, and plays nothing: the page plays the answer as it plays
/// a clicked move. An unreadable text gets the reader's reason (illegal,
/// ambiguous with the candidates, a Hop Chess turn without its square).
pub async fn read_move(
    State(app): Shared,
    Path(id): Path<String>,
    req: Result<Json<ReadRequest>, JsonRejection>,
) -> Result<Json<ReadView>, ApiError> {
    let req = body(req)?;
    if req.text.len() > 64 {
        return Err(ApiError::BadRequest(
            "a move is at most 64 characters".into(),
        ));
    }
    let live = app.games.get(&id).await?;
    let ply = req.ply.unwrap_or(live.game.moves().len());
    let line = side_line(&live, ply, &req.moves)?;
    if let Some(o) = line.game.outcome() {
        return Err(ApiError::BadRequest(format!(
            "the game is over there ({})",
            o.reason_str()
        )));
    }
    let pos = line.game.position();
    let m = read_typed(pos, &req.text).map_err(|e| match e {
        // A long-notation text one part short: the rules core says what
        // it lacks (as for a move sent to play).
        MoveError::Illegal(_) => match missing_part(pos, &req.text) {
            Some(missing) => ApiError::BadRequest(missing.to_string()),
            None => ApiError::BadRequest(e.to_string()),
        },
        _ => ApiError::BadRequest(e.to_string()),
    })?;
    Ok(Json(ReadView {
        uci: to_uci(pos, m),
        san: to_san(pos, m),
    }))
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
    /// A side line from the position after `ply` moves: the position at
    /// its end is analysed (see [`line`]).
    line: Option<Vec<String>>,
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
    /// How a mate score wins, read from the rules core at the end of the
    /// line: `"checkmate"` or `"weak square"` (Jumping King, J3); null for
    /// a score in centipawns or a line that stops before the end.
    win: Option<&'static str>,
    depth: u32,
    /// The best move with its squares (origin, trampolines, destination,
    /// Hop Chess placement), for the page's arrow.
    best: MoveView,
    /// The best line in long notation and in SAN (checked and written by
    /// the rules core), and in SAN with move numbers.
    pv_uci: Vec<String>,
    pv_san: Vec<String>,
    pv_text: String,
}

/// The engine's line checked by the rules core.
pub(crate) struct CheckedLine {
    ucis: Vec<String>,
    sans: Vec<String>,
    text: String,
    first: MoveView,
    /// The position at the end of the (legal part of the) line.
    end: Position,
}

/// The engine's line checked move by move by the rules core: its long
/// notation, SAN and numbered text. The line stops before a move that is
/// not legal; a line with no legal first move is refused.
pub(crate) fn checked_line(pos: &Position, pv: &[Move]) -> Result<CheckedLine, GameError> {
    let mut pos = pos.clone();
    let (mut ucis, mut sans) = (Vec::new(), Vec::new());
    let mut text = String::new();
    let mut last_mover = None;
    let mut first = None;
    for &m in pv {
        if !pos.is_legal(m) {
            if ucis.is_empty() {
                return Err(GameError::EngineIllegalLine(to_uci(&pos, m)));
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
        if first.is_none() {
            first = Some(view::move_view(&pos, m));
        }
        ucis.push(to_uci(&pos, m));
        sans.push(san);
        last_mover = Some(pos.turn());
        pos.play(m);
    }
    let Some(first) = first else {
        return Err(GameError::EngineNoLine);
    };
    Ok(CheckedLine {
        ucis,
        sans,
        text,
        first,
        end: pos,
    })
}

/// How the line's end wins, when the score says it does.
pub(crate) fn win_of(score: Evaluation, end: &Position) -> Option<&'static str> {
    match (score, end.outcome()) {
        (Evaluation::Mate(_), Some(Outcome::Win { reason, .. })) => Some(match reason {
            WinReason::Checkmate => "checkmate",
            WinReason::WeakSquare => "weak square",
        }),
        _ => None,
    }
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
    let req = body(req)?;
    let engine = app.engine()?;
    let limit = req.limit()?;
    let (game, stop, version) = {
        let (entry, stop) = app.games.new_analysis(&id).await?;
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
        // The game up to `ply` (and the side line), with its history for
        // repetitions.
        let game = match &req.line {
            Some(moves) if !moves.is_empty() => {
                let line = side_line(&entry, ply, moves)?;
                if let Some(o) = line.game.outcome() {
                    return Err(ApiError::Conflict(format!(
                        "the side line is over ({}), there is nothing to analyse",
                        o.reason_str()
                    )));
                }
                line.game
            }
            _ => {
                let mut game = Game::new(entry.game.start().clone());
                for &m in &entry.game.moves()[..ply] {
                    game.play(m).map_err(|e| {
                        ApiError::Internal(format!("the game does not replay: {e}"))
                    })?;
                }
                game
            }
        };
        (game, stop, entry.rec.version)
    };
    let _leave = StopOnDrop(Arc::clone(&stop));
    let mut log = JobLog::queued("analysis", &id);
    let _worker = app.pool.worker().await;
    let replaced = "a newer analysis of this game replaced this one";
    if stop.load(Ordering::Relaxed) {
        log.cancelled(replaced);
        return Err(ApiError::Conflict(replaced.into()));
    }
    log.started();
    let watched = Arc::clone(&stop);
    let span = log.span();
    let found = tokio::task::spawn_blocking(move || {
        let _in_job = span.enter();
        let found = engine.analyse(&game, limit, watched);
        (game, found)
    })
    .await;
    let (game, found) = match found {
        Ok(f) => f,
        Err(e) => {
            let reason = format!("the engine {}", logs::join_error(e));
            log.failed(&reason);
            return Err(ApiError::Internal(reason));
        }
    };
    if app.games.peek(&id).await?.rec.version != version {
        let reason = "the game changed while the engine was analysing";
        log.cancelled(reason);
        return Err(ApiError::Conflict(reason.into()));
    }
    if stop.load(Ordering::Relaxed) {
        log.cancelled(replaced);
        return Err(ApiError::Conflict(replaced.into()));
    }
    let Some(analysis) = found else {
        log.cancelled("the engine gave no analysis");
        return Err(ApiError::Conflict("the engine gave no analysis".into()));
    };
    log.finished(&format!("{:?} depth {}", analysis.score, analysis.depth));
    let pos = game.position();
    let line = checked_line(pos, &analysis.pv)?;
    Ok(Json(AnalysisView {
        ply: game.moves().len(),
        fen: pos.to_fen(),
        pov: "white",
        score: ScoreView::for_white(analysis.score, pos.turn()),
        win: win_of(analysis.score, &line.end),
        depth: analysis.depth,
        best: line.first,
        pv_uci: line.ucis,
        pv_san: line.sans,
        pv_text: line.text,
    }))
}
