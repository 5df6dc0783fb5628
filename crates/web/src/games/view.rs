//! What the page sees: JSON views of a game, built only from the rules
//! core's data (board mask, pieces, trampolines, reserves, legal moves), so
//! that every variant is drawn and played the same way.

use crate::error::ApiError;
use crate::games::rated::{RatedSeat, RatedSeats};
use crate::games::{Live, Mode, Origin, Status};
use serde::Serialize;
use springboard_rules::{Color, Variant};
// The position's part of the view (board, legal moves, half-steps), shared
// with the page's WebAssembly build.
pub use springboard_view::{
    check_line_views, check_square, jumping_king_views, legal_views, move_view, outcome_view,
    reserve_views, square_views, step_views, trampoline_views, MoveView, OutcomeView, ReserveView,
    SquareView, StepView, StuckView, TrampolineView, WeakSquareView,
};
use std::collections::BTreeMap;

/// A game as the page draws it.
#[derive(Serialize, Debug)]
pub struct GameView {
    /// The game's public id (8 base62 characters).
    pub id: String,
    /// +1 on every change of the game.
    pub version: i64,
    /// `engine`, `friend` or `local`.
    pub mode: Mode,
    /// `played`, `analysis` or `imported`: where the game comes from.
    pub origin: Origin,
    /// The token of a waiting friend game's invitation link
    /// (`/g/{id}?invite=TOKEN`), for the browser that holds a seat only.
    pub invite: Option<String>,
    /// The tags a loaded PGN kept (Event, Site, Date, Round, White, Black).
    pub tags: BTreeMap<String, String>,
    /// A rated game: its end moves the players' ratings.
    pub rated: bool,
    /// The seats this browser holds: `white`, `black`, `both` or null.
    pub you: Option<&'static str>,
    pub seats: SeatsView,
    pub engine: Option<EngineSeatView>,
    pub clock: Option<ClockView>,
    /// `waiting`, `playing` or `ended`.
    pub status: Status,
    pub result: Option<String>,
    pub reason: Option<String>,
    pub offers: OffersView,
    /// The id of the rematch game, once it started.
    pub rematch: Option<String>,
    /// Whether the server's engine is thinking about this game.
    pub engine_thinking: bool,
    pub created_at: i64,
    pub updated_at: i64,
    pub variant: &'static str,
    pub title: &'static str,
    /// The position shown (the current one unless `ply` asks for another).
    pub fen: String,
    pub start_fen: String,
    pub turn: &'static str,
    pub fullmove: u32,
    /// The number of moves played in the game.
    pub plies: usize,
    /// Which position is shown: after this many moves.
    pub ply: usize,
    /// The 64 squares, a1, b1, ..., h8.
    pub squares: Vec<SquareView>,
    pub trampolines: Vec<TrampolineView>,
    /// Whether the game uses trampolines (so the page shows one that is
    /// off the board).
    pub trampolines_in_play: bool,
    pub reserves: Vec<ReserveView>,
    /// The square of the king in check, if any.
    pub check: Option<String>,
    /// Each checking piece's line to that king: its square, the trampolines
    /// it bounces off, the king's square (from the rules core, P8).
    pub check_lines: Vec<Vec<String>>,
    /// Jumping King: the weak squares (J3), each with its owner.
    pub weak_squares: Vec<WeakSquareView>,
    /// Jumping King: the sides whose king is stuck (J6) and the men that
    /// will never enter; the sides whose king still jumps (J4).
    pub stuck: Vec<StuckView>,
    pub jumping: Vec<&'static str>,
    /// Hop Chess: the board after each legal piece move of the turn, before
    /// its placement (the half-made turn the page shows while the
    /// trampoline square is chosen). Empty when no move may be entered.
    pub steps: Vec<StepView>,
    pub last_move: Option<MoveView>,
    pub history: Vec<HistoryView>,
    /// Set only on the current position.
    pub outcome: Option<OutcomeView>,
    /// The legal moves (empty when the game is over or an older position
    /// is shown).
    pub legal: Vec<MoveView>,
}

#[derive(Serialize, Debug)]
pub struct SeatView {
    /// `human` or `engine`.
    pub kind: &'static str,
    pub taken: bool,
    pub name: String,
    /// In a rated game, the account's rating in this game (and, once the
    /// game has ended, its change).
    pub rating: Option<RatedSeat>,
}

#[derive(Serialize, Debug)]
pub struct SeatsView {
    pub white: SeatView,
    pub black: SeatView,
}

#[derive(Serialize, Debug)]
pub struct EngineSeatView {
    pub color: &'static str,
    pub level: i64,
}

#[derive(Serialize, Debug)]
pub struct ClockView {
    pub initial_ms: i64,
    pub increment_ms: i64,
    /// Remaining time at the moment of the answer.
    pub white_ms: i64,
    pub black_ms: i64,
    /// The side whose clock runs.
    pub running: Option<&'static str>,
    /// When the running side's time runs out (server time, ms since the
    /// Unix epoch); absent when no clock runs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deadline: Option<i64>,
    /// A correspondence game's time control (its times are the same
    /// fields, in ms); absent for a live clock.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub correspondence: Option<super::corr::CorrView>,
}

#[derive(Serialize, Debug)]
pub struct OffersView {
    pub draw: Option<&'static str>,
    pub takeback: Option<&'static str>,
    pub rematch: Option<&'static str>,
}

/// What the view needs besides the game.
pub struct Context<'a> {
    /// The seats of the asking browser.
    pub you: &'a [Color],
    pub now: i64,
    /// The engine's name, if the server has one.
    pub engine_name: Option<String>,
    pub engine_thinking: bool,
    /// The accounts and ratings of a rated game's seats.
    pub rated: Option<RatedSeats>,
}

#[derive(Serialize, Debug)]
pub struct HistoryView {
    pub ply: usize,
    /// The move number (the position's fullmove number before the move).
    pub number: u32,
    pub color: &'static str,
    pub uci: String,
    pub san: String,
}

pub use crate::games::kinds::color_name;

fn seat_view(live: &Live, c: Color, ctx: &Context) -> SeatView {
    if live.engine_color() == Some(c) {
        let name = ctx.engine_name.clone().unwrap_or_else(|| "engine".into());
        return SeatView {
            kind: "engine",
            taken: true,
            name: format!("{name}, level {}", live.rec.engine_level.unwrap_or(1)),
            rating: None,
        };
    }
    let taken = live.seat(c).is_some();
    let rating = ctx.rated.as_ref().and_then(|r| match c {
        Color::White => r.white.clone(),
        Color::Black => r.black.clone(),
    });
    SeatView {
        kind: "human",
        taken,
        name: if let Some(r) = &rating {
            r.name.clone()
        } else if !taken {
            "waiting".into()
        } else if live.rec.mode == Mode::Local {
            live.rec.loaded_name(c).unwrap_or("Player").into()
        } else {
            "Anonymous".into()
        },
        rating,
    }
}

/// The view of a game after `ply` moves (the current position if `None`).
pub fn game_view(live: &Live, ply: Option<usize>, ctx: &Context) -> Result<GameView, ApiError> {
    let entry = live;
    let game = &entry.game;
    let plies = game.moves().len();
    let ply = ply.unwrap_or(plies);
    if ply > plies {
        return Err(ApiError::BadRequest(format!(
            "ply {ply} is beyond the game's {plies} moves"
        )));
    }
    let pos = &game.positions()[ply];
    let variant: Variant = pos.variant();
    let squares = square_views(pos);
    let trampolines = trampoline_views(pos);
    let reserves = reserve_views(pos);
    let current = ply == plies;
    // The end as the rules core sees it, or as the game ended otherwise
    // (resignation, time, agreement).
    let outcome = match (&live.rec.result, &live.rec.reason) {
        (Some(result), Some(reason)) if current => Some(match game.outcome() {
            Some(o) => outcome_view(o),
            None => OutcomeView {
                result: match result.as_str() {
                    "1-0" => "1-0",
                    "0-1" => "0-1",
                    _ => "1/2-1/2",
                },
                winner: match result.as_str() {
                    "1-0" => Some("white"),
                    "0-1" => Some("black"),
                    _ => None,
                },
                reason: reason.clone(),
            },
        }),
        _ => None,
    };
    let last_move = if ply > 0 {
        Some(move_view(&game.positions()[ply - 1], game.moves()[ply - 1]))
    } else {
        None
    };
    let history = entry
        .rec
        .moves
        .iter()
        .enumerate()
        .map(|(i, r)| HistoryView {
            ply: i + 1,
            number: game.positions()[i].fullmove_number(),
            color: color_name(game.positions()[i].turn()),
            uci: r.uci.clone(),
            san: r.san.clone(),
        })
        .collect();
    let rec = &live.rec;
    let playing = rec.status == Status::Playing;
    let legal = if current && outcome.is_none() && playing {
        legal_views(pos)
    } else {
        Vec::new()
    };
    let steps = if legal.is_empty() {
        Vec::new()
    } else {
        step_views(pos)
    };
    let (weak_squares, stuck, jumping) = jumping_king_views(pos);
    let clock = rec.clock_initial_ms.map(|initial_ms| ClockView {
        initial_ms,
        increment_ms: rec.clock_increment_ms.unwrap_or(0),
        white_ms: live.remaining(Color::White, ctx.now).unwrap_or(0).max(0),
        black_ms: live.remaining(Color::Black, ctx.now).unwrap_or(0).max(0),
        running: live.running().map(color_name),
        deadline: live
            .running()
            .and_then(|c| live.remaining(c, ctx.now))
            .map(|ms| ctx.now.saturating_add(ms.max(0))),
        correspondence: rec.correspondence.map(super::corr::CorrView::of),
    });
    Ok(GameView {
        id: rec.id.clone(),
        version: rec.version,
        mode: rec.mode,
        origin: rec.origin,
        invite: if ctx.you.is_empty() || rec.status != Status::Waiting {
            None
        } else {
            rec.invite.clone()
        },
        tags: rec.tags.iter().cloned().collect(),
        rated: rec.rated,
        you: match ctx.you {
            [] => None,
            [c] => Some(color_name(*c)),
            _ => Some("both"),
        },
        seats: SeatsView {
            white: seat_view(live, Color::White, ctx),
            black: seat_view(live, Color::Black, ctx),
        },
        engine: live.engine_color().map(|c| EngineSeatView {
            color: color_name(c),
            level: rec.engine_level.unwrap_or(1),
        }),
        clock,
        status: rec.status,
        result: rec.result.clone(),
        reason: rec.reason.clone(),
        offers: OffersView {
            draw: rec.draw_offer.map(color_name),
            takeback: rec.takeback_offer.map(color_name),
            rematch: rec.rematch_offer.map(color_name),
        },
        rematch: rec.rematch_id.clone(),
        engine_thinking: ctx.engine_thinking,
        created_at: rec.created_at,
        updated_at: rec.updated_at,
        variant: variant.name(),
        title: variant.title(),
        fen: pos.to_fen(),
        start_fen: game.start().to_fen(),
        turn: color_name(pos.turn()),
        fullmove: pos.fullmove_number(),
        plies,
        ply,
        squares,
        trampolines,
        trampolines_in_play: variant.has_trampolines(),
        reserves,
        check: check_square(pos),
        check_lines: check_line_views(pos),
        weak_squares,
        stuck,
        jumping,
        steps,
        last_move,
        history,
        outcome,
        legal,
    })
}
