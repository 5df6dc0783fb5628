//! The games lists (`GET /api/games?list=...`): the played games, being
//! played or over, this browser's games with its side and whose move it
//! is, and its boards and loaded texts, kept apart from the played games.

use super::rated::SeatAccount;
use super::request::{holder, player_name, Shared};
use super::GamesState;
use crate::error::ApiError;
use crate::extract::query;
use crate::games::{Mode, Origin, Status};
use crate::seat;
use crate::store::kinds::color_name;
use crate::store::{GameRecord, ListQuery};
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::HeaderMap;
use axum::Json;
use serde::{Deserialize, Serialize};
use springboard_rules::{Color, Position, Variant};
use std::collections::HashMap;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ListRequest {
    list: Option<String>,
    limit: Option<i64>,
}

#[derive(Serialize)]
pub struct PlayerView {
    name: String,
    /// The account's id (its player page `/@/{name}`) when the seat is an
    /// account's, else null.
    user: Option<String>,
}

#[derive(Serialize)]
pub struct ListClock {
    initial: i64,
    increment: i64,
}

#[derive(Serialize)]
pub struct ListItem {
    id: String,
    variant: String,
    title: &'static str,
    mode: Mode,
    /// `played`, `analysis` or `imported`.
    origin: Origin,
    white: PlayerView,
    black: PlayerView,
    /// Seconds; null: unlimited.
    clock: Option<ListClock>,
    /// A correspondence game's time control (its `clock` is in seconds
    /// too); absent for the others.
    #[serde(skip_serializing_if = "Option::is_none")]
    correspondence: Option<super::corr::CorrView>,
    status: Status,
    result: Option<String>,
    reason: Option<String>,
    /// Moves as players count them (a white and a black move are one).
    moves: usize,
    /// Single moves (half-moves) played.
    plies: usize,
    /// The seats this browser holds: `white`, `black`, `both` or null.
    you: Option<&'static str>,
    /// The side to move while the game is being played, else null.
    turn: Option<&'static str>,
    created_at: i64,
    updated_at: i64,
}

impl ListItem {
    pub(super) fn updated_at(&self) -> i64 {
        self.updated_at
    }
}

#[derive(Serialize)]
pub struct ListView {
    games: Vec<ListItem>,
}

/// The side to move at the game's start.
fn start_side(rec: &GameRecord) -> Option<Color> {
    let v = Variant::from_name(&rec.variant)?;
    Position::from_fen(v, &rec.start_fen).ok().map(|p| p.turn())
}

/// The side to move after the game's moves: the start's side, turned once
/// a move (every stored move is one side's whole turn).
fn side_to_move(rec: &GameRecord) -> Option<Color> {
    let first = start_side(rec)?;
    Some(if rec.moves.len().is_multiple_of(2) {
        first
    } else {
        !first
    })
}

/// Full moves: a move of each side is one; a game that starts with
/// Black's move counts that one as a move too.
fn full_moves(rec: &GameRecord) -> usize {
    let plies = rec.moves.len();
    match start_side(rec) {
        Some(Color::Black) if plies > 0 => plies / 2 + 1,
        _ => plies.div_ceil(2),
    }
}

/// A seat's name in the list: its account's when it has one.
fn player(app: &GamesState, r: &GameRecord, c: Color, accounts: &Accounts) -> PlayerView {
    let seat = match c {
        Color::White => r.white_seat.as_deref(),
        Color::Black => r.black_seat.as_deref(),
    };
    match seat.and_then(|s| accounts.get(s)).and_then(Option::as_ref) {
        Some(a) if r.engine_color != Some(c) && r.mode != Mode::Local => PlayerView {
            name: a.name.clone(),
            user: Some(a.id.clone()),
        },
        _ => PlayerView {
            name: player_name(app, r, c),
            user: None,
        },
    }
}

/// The accounts of the seats of the listed games, by seat.
pub(super) type Accounts = HashMap<String, Option<SeatAccount>>;

pub(super) async fn accounts_of(
    app: &GamesState,
    recs: &[GameRecord],
) -> Result<Accounts, ApiError> {
    let mut accounts = Accounts::new();
    let Some(rated) = &app.rated else {
        return Ok(accounts);
    };
    for r in recs.iter().filter(|r| r.mode != Mode::Local) {
        for seat in [&r.white_seat, &r.black_seat].into_iter().flatten() {
            if !accounts.contains_key(seat) {
                let account = rated.account_of_seat(seat).await?;
                accounts.insert(seat.clone(), account);
            }
        }
    }
    Ok(accounts)
}

pub(super) fn item(
    app: &GamesState,
    r: &GameRecord,
    who: Option<&str>,
    accounts: &Accounts,
) -> ListItem {
    let white = seat::holds(r.white_seat.as_deref(), who);
    let black = seat::holds(r.black_seat.as_deref(), who);
    ListItem {
        id: r.id.clone(),
        variant: r.variant.clone(),
        title: Variant::from_name(&r.variant).map_or("?", |v| v.title()),
        mode: r.mode,
        origin: r.origin,
        white: player(app, r, Color::White, accounts),
        black: player(app, r, Color::Black, accounts),
        clock: r.clock_initial_ms.map(|i| ListClock {
            initial: i / 1000,
            increment: r.clock_increment_ms.unwrap_or(0) / 1000,
        }),
        correspondence: r.correspondence.map(super::corr::CorrView::of),
        status: r.status,
        result: r.result.clone(),
        reason: r.reason.clone(),
        moves: full_moves(r),
        plies: r.moves.len(),
        you: match (white, black) {
            (true, true) => Some("both"),
            (true, false) => Some("white"),
            (false, true) => Some("black"),
            (false, false) => None,
        },
        turn: if r.status == Status::Playing {
            side_to_move(r).map(color_name)
        } else {
            None
        },
        created_at: r.created_at,
        updated_at: r.updated_at,
    }
}

pub async fn list(
    State(app): Shared,
    headers: HeaderMap,
    q: Result<Query<ListRequest>, QueryRejection>,
) -> Result<Json<ListView>, ApiError> {
    let q = query(q)?;
    let limit = q.limit.unwrap_or(50);
    if !(1..=200).contains(&limit) {
        return Err(ApiError::BadRequest(format!(
            "limit {limit} is out of range 1-200"
        )));
    }
    // This browser's own seats (the account's games: `/api/account/games`).
    let who = holder(&app, &headers, false).await?.seat;
    let which = match (q.list.as_deref().unwrap_or("recent"), who.clone()) {
        ("recent", _) => ListQuery::Recent,
        ("ongoing", _) => ListQuery::Ongoing,
        ("mine", Some(h)) => ListQuery::Mine(h),
        ("analysis", Some(h)) => ListQuery::Analysis(h),
        ("mine" | "analysis", None) => return Ok(Json(ListView { games: Vec::new() })),
        (other, _) => {
            return Err(ApiError::BadRequest(format!(
                "unknown list '{other}': expected recent, ongoing, mine or analysis"
            )))
        }
    };
    let recs = app
        .games
        .store
        .list(&which, limit)
        .await
        .map_err(crate::outage::api_error)?;
    let accounts = accounts_of(&app, &recs).await?;
    let games = recs
        .iter()
        .map(|r| item(&app, r, who.as_deref(), &accounts))
        .collect();
    Ok(Json(ListView { games }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::MoveRecord;

    fn with_plies(fen: &str, plies: usize) -> GameRecord {
        let mut r = GameRecord::new("abcdefgh".into(), "chess", fen.into(), Mode::Local, 0);
        r.moves = (0..plies)
            .map(|_| MoveRecord {
                uci: String::new(),
                san: String::new(),
                ms: None,
                at: 0,
            })
            .collect();
        r
    }

    /// Moves are counted as players count them, from the start's side.
    #[test]
    fn moves_count_full_moves_and_the_side_to_move_follows() {
        let white = Position::startpos(Variant::Chess).to_fen();
        let black = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
        for (fen, plies, moves, turn) in [
            (white.as_str(), 0, 0, Color::White),
            (white.as_str(), 1, 1, Color::Black),
            (white.as_str(), 2, 1, Color::White),
            (white.as_str(), 5, 3, Color::Black),
            (black, 1, 1, Color::White),
            (black, 2, 2, Color::Black),
            (black, 3, 2, Color::White),
        ] {
            let r = with_plies(fen, plies);
            assert_eq!(full_moves(&r), moves, "{fen} {plies}");
            assert_eq!(side_to_move(&r), Some(turn), "{fen} {plies}");
        }
    }
}
