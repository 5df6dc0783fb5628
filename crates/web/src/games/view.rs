//! What the page sees: JSON views of a game, built only from the rules
//! core's data (board mask, pieces, trampolines, reserves, legal moves), so
//! that every variant is drawn and played the same way.

use crate::error::ApiError;
use crate::games::rated::{RatedSeat, RatedSeats};
use crate::games::{Live, Mode, Origin, Status};
use serde::Serialize;
use springboard_rules::notation::{san::to_san, uci::to_uci};
use springboard_rules::{Color, Move, MoveKind, Outcome, Position, Role, Square, Variant};
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
pub struct SquareView {
    pub name: String,
    /// False for squares outside the variant's board (Jumping King's holes).
    pub exists: bool,
    /// The piece as its FEN letter (uppercase White, `H`/`h` a Hoplit).
    pub piece: Option<String>,
    /// The owner of a trampoline on this square.
    pub trampoline: Option<&'static str>,
}

#[derive(Serialize, Debug)]
pub struct TrampolineView {
    pub owner: &'static str,
    pub square: Option<String>,
}

#[derive(Serialize, Debug)]
pub struct ReserveView {
    pub color: &'static str,
    /// The lowercase piece letter.
    pub role: char,
    pub count: u8,
}

#[derive(Serialize, Debug, Clone)]
pub struct MoveView {
    /// Long notation (RULINGS N1-N6): what the page sends back to play it.
    pub uci: String,
    pub san: String,
    pub kind: &'static str,
    pub from: Option<String>,
    pub to: Option<String>,
    /// The trampolines the piece bounces off, in order.
    pub via: Vec<String>,
    /// Promotion piece, dropped piece, or the man a Jumping King places.
    pub role: Option<char>,
    /// Hop Chess: the mover's trampoline square after the turn.
    pub place: Option<String>,
    /// A drop (Hoplit Chess, L4): every square it changes, read from the
    /// rules core by playing it (the pushed pawn), so the page can show it
    /// before it is played. Absent for other moves.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub changes: Option<Vec<ChangeView>>,
}

#[derive(Serialize, Debug)]
pub struct WeakSquareView {
    pub square: String,
    pub owner: &'static str,
}

#[derive(Serialize, Debug)]
pub struct StuckView {
    pub color: &'static str,
    /// The men still in reserve, which never enter.
    pub men: Vec<ReserveView>,
}

/// A Hop Chess piece move without its placement (its fields as in
/// [`MoveView`]) and the squares it changes.
#[derive(Serialize, Debug)]
pub struct StepView {
    pub kind: &'static str,
    pub from: Option<String>,
    pub to: Option<String>,
    pub via: Vec<String>,
    pub role: Option<char>,
    pub changes: Vec<ChangeView>,
}

#[derive(Serialize, Debug, Clone)]
pub struct ChangeView {
    pub name: String,
    /// The piece standing there after the piece move, if any.
    pub piece: Option<String>,
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

#[derive(Serialize, Debug, PartialEq, Eq)]
pub struct OutcomeView {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: &'static str,
    pub winner: Option<&'static str>,
    pub reason: String,
}

pub use crate::games::kinds::color_name;

pub fn kind_name(k: MoveKind) -> &'static str {
    match k {
        MoveKind::Normal => "normal",
        MoveKind::DoubleStep => "double_step",
        MoveKind::EnPassant => "en_passant",
        MoveKind::Castle => "castle",
        MoveKind::Drop => "drop",
        MoveKind::Trampoline => "trampoline",
        MoveKind::Jump => "jump",
        MoveKind::Pass => "pass",
    }
}

pub fn outcome_view(o: Outcome) -> OutcomeView {
    OutcomeView {
        result: o.result_str(),
        winner: match o {
            Outcome::Win { winner, .. } => Some(color_name(winner)),
            Outcome::Draw(_) => None,
        },
        reason: o.reason_str().to_string(),
    }
}

/// A legal move of `pos` as the page sees it.
pub fn move_view(pos: &Position, m: Move) -> MoveView {
    MoveView {
        uci: to_uci(pos, m),
        san: to_san(pos, m),
        kind: kind_name(m.kind()),
        from: m.from().map(|s| s.to_string()),
        to: m.to().map(|s| s.to_string()),
        via: m.via().map(|s| s.to_string()).collect(),
        role: m.role().map(Role::char),
        place: m.place().map(|s| s.to_string()),
        changes: (m.kind() == MoveKind::Drop).then(|| {
            let mut after = pos.clone();
            after.play(m);
            changed_squares(pos, &after)
        }),
    }
}

/// The squares whose piece differs between `before` and `after`, with the
/// piece standing there after.
fn changed_squares(before: &Position, after: &Position) -> Vec<ChangeView> {
    Square::ALL
        .iter()
        .filter(|&&sq| before.board().piece_at(sq) != after.board().piece_at(sq))
        .map(|&sq| ChangeView {
            name: sq.to_string(),
            piece: after.board().piece_at(sq).map(|p| p.char().to_string()),
        })
        .collect()
}

/// Hop Chess: every legal piece move of a turn that splits (H2) with the
/// squares it changes, read from the rules core's half-steps.
pub fn step_views(pos: &Position) -> Vec<StepView> {
    if !pos.splits_turn() {
        return Vec::new();
    }
    let mut steps = springboard_rules::MoveList::new();
    pos.legal_steps_into(&mut steps);
    steps
        .into_iter()
        .map(|m| {
            let mut after = pos.clone();
            after.play_step(m);
            let changes = changed_squares(pos, &after);
            StepView {
                kind: kind_name(m.kind()),
                from: m.from().map(|s| s.to_string()),
                to: m.to().map(|s| s.to_string()),
                via: m.via().map(|s| s.to_string()).collect(),
                role: m.role().map(Role::char),
                changes,
            }
        })
        .collect()
}

/// The Jumping King facts of `pos` (empty in other games): weak squares,
/// stuck kings with their men, jumping kings.
fn jumping_king_views(pos: &Position) -> (Vec<WeakSquareView>, Vec<StuckView>, Vec<&'static str>) {
    let weak = Color::ALL
        .into_iter()
        .filter_map(|c| {
            pos.weak_square(c).map(|sq| WeakSquareView {
                square: sq.to_string(),
                owner: color_name(c),
            })
        })
        .collect();
    let stuck = Color::ALL
        .into_iter()
        .filter(|&c| pos.is_stuck(c))
        .map(|c| StuckView {
            color: color_name(c),
            men: pos
                .variant()
                .reserve_roles()
                .iter()
                .copied()
                .filter(|&r| pos.reserve(c, r) > 0)
                .map(|r| ReserveView {
                    color: color_name(c),
                    role: r.char(),
                    count: pos.reserve(c, r),
                })
                .collect(),
        })
        .collect();
    let jumping = Color::ALL
        .into_iter()
        .filter(|&c| pos.is_jumping(c))
        .map(color_name)
        .collect();
    (weak, stuck, jumping)
}

/// The legal moves of `pos`.
pub fn legal_views(pos: &Position) -> Vec<MoveView> {
    pos.legal_moves()
        .into_iter()
        .map(|m| move_view(pos, m))
        .collect()
}

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
    let mask = variant.mask();
    let squares = Square::ALL
        .iter()
        .map(|&sq| SquareView {
            name: sq.to_string(),
            exists: mask.contains(sq),
            piece: pos.board().piece_at(sq).map(|p| p.char().to_string()),
            trampoline: Color::ALL
                .into_iter()
                .find(|&c| pos.trampoline(c) == Some(sq))
                .map(color_name),
        })
        .collect();
    let trampolines = Color::ALL
        .into_iter()
        .map(|c| TrampolineView {
            owner: color_name(c),
            square: pos.trampoline(c).map(|s| s.to_string()),
        })
        .collect();
    let mut reserves = Vec::new();
    for c in Color::ALL {
        for r in Role::ALL {
            let count = pos.reserve(c, r);
            if count > 0 {
                reserves.push(ReserveView {
                    color: color_name(c),
                    role: r.char(),
                    count,
                });
            }
        }
    }
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
        check: if pos.is_check() {
            pos.our_king().map(|k| k.to_string())
        } else {
            None
        },
        check_lines: pos
            .check_lines()
            .into_iter()
            .map(|line| line.into_iter().map(|s| s.to_string()).collect())
            .collect(),
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
