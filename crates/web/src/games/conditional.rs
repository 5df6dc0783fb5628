//! Conditional moves of a correspondence game: a player who is not to move
//! enters lines of `[expected reply, answer, expected reply, answer,
//! ...]`, each move checked by the rules core from the current position;
//! when the opponent plays an expected reply, the answer is played at
//! once in the same change (checked again), the line shortened and the
//! lines that did not match dropped, as lichess does. Routes: `GET`,
//! `POST` and `DELETE /api/games/{id}/conditional`.

use super::engine::after_change;
use super::request::{holder, Shared};
use super::*;
use crate::error::ApiError;
use crate::extract::body;
use crate::store::corr::{MAX_LINES, MAX_LINE_PLIES};
use crate::store::kinds::color_name;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::Json;
use serde::{Deserialize, Serialize};

/// The longest move text of a line.
const MAX_MOVE_TEXT: usize = 64;

impl Live {
    /// The seat of `mine` whose conditional moves a request sets or
    /// reads: the one not to move (in a game being played).
    fn conditional_seat(&self, mine: &[Color]) -> Option<Color> {
        let turn = self.game.position().turn();
        mine.iter().copied().find(|&c| c != turn)
    }

    /// Replaces the conditional moves of the asker's seat that is not to
    /// move by `lines`, each checked move by move by the rules core from
    /// the current position (and kept in long notation).
    pub(super) fn set_conditionals(
        &mut self,
        mine: &[Color],
        lines: &[Vec<String>],
    ) -> Result<(), GameError> {
        if mine.is_empty() {
            return Err(GameError::NotYourSeat);
        }
        if !self.rec.is_correspondence() {
            return Err(GameError::NotCorrespondence);
        }
        match self.rec.status {
            Status::Waiting => return Err(GameError::Waiting),
            Status::Ended => {
                return Err(GameError::Over {
                    result: self.rec.result.clone().unwrap_or_default(),
                    reason: self.rec.reason.clone().unwrap_or_default(),
                })
            }
            Status::Playing => {}
        }
        let me = self
            .conditional_seat(mine)
            .ok_or(GameError::ConditionalOnYourMove)?;
        if lines.len() > MAX_LINES {
            return Err(GameError::BadConditional(format!(
                "at most {MAX_LINES} lines, not {}",
                lines.len()
            )));
        }
        let mut checked = Vec::with_capacity(lines.len());
        for (i, line) in lines.iter().enumerate() {
            checked.push(check_line(&self.game, i + 1, line)?);
        }
        *self.rec.conditionals.of_mut(me) = checked;
        Ok(())
    }

    /// After a move: while the side to move has a line that expected it,
    /// plays that line's answer (the first matching line's), keeps the
    /// lines that matched both moves (shortened) and drops the others;
    /// then the other side's lines meet that answer in turn.
    pub(super) fn answer_conditionals(&mut self, now: i64) {
        loop {
            if self.is_over() || !self.rec.is_correspondence() {
                self.rec.conditionals = Default::default();
                return;
            }
            let Some(last) = self.rec.moves.last().map(|m| m.uci.clone()) else {
                return;
            };
            let side = self.game.position().turn();
            let lines = std::mem::take(self.rec.conditionals.of_mut(side));
            let matching: Vec<Vec<String>> = lines
                .into_iter()
                .filter(|l| l.len() >= 2 && l[0] == last)
                .collect();
            let Some(answer) = matching.first().map(|l| l[1].clone()) else {
                return;
            };
            let Ok(m) = resolve(self.game.position(), &answer) else {
                return;
            };
            if self.play(m, now).is_err() {
                return;
            }
            tracing::info!(game = %self.rec.id, answer = %answer, "conditional move played");
            *self.rec.conditionals.of_mut(side) = matching
                .into_iter()
                .filter(|l| l[1] == answer && l.len() > 2)
                .map(|l| l[2..].to_vec())
                .collect();
        }
    }
}

/// Line `n` checked from the game's current position: an even number of
/// moves (each reply has its answer), each legal where it is played, the
/// game not over before its last; the moves in long notation.
fn check_line(game: &Game, n: usize, line: &[String]) -> Result<Vec<String>, GameError> {
    let bad = |what: String| GameError::BadConditional(format!("line {n}: {what}"));
    if line.is_empty() || !line.len().is_multiple_of(2) {
        return Err(bad(
            "a line is pairs of an expected reply and your answer".into()
        ));
    }
    if line.len() > MAX_LINE_PLIES {
        return Err(bad(format!("at most {MAX_LINE_PLIES} moves")));
    }
    let mut game = game.clone();
    let mut out = Vec::with_capacity(line.len());
    for (i, text) in line.iter().enumerate() {
        let at = |why: String| bad(format!("move {} ('{}'): {why}", i + 1, text));
        if text.len() > MAX_MOVE_TEXT {
            return Err(bad(format!(
                "move {}: a move is at most {MAX_MOVE_TEXT} characters",
                i + 1
            )));
        }
        if let Some(o) = game.outcome() {
            return Err(at(format!(
                "the game is over there ({})",
                outcome_words(o).1
            )));
        }
        let pos = game.position().clone();
        let m = resolve(&pos, text).map_err(|e| at(e.to_string()))?;
        game.play(m).map_err(|e| at(e.to_string()))?;
        let played = *game.moves().last().unwrap_or(&m);
        out.push(to_uci(&pos, played));
    }
    Ok(out)
}

/// The conditional moves of the asker's seat.
#[derive(Serialize)]
pub struct ConditionalView {
    /// The asker's seat whose lines these are (the one not to move).
    color: Option<&'static str>,
    /// Whether lines may be entered now: a correspondence game being
    /// played, the opponent to move.
    editable: bool,
    lines: Vec<Vec<String>>,
}

fn conditional_view(live: &Live, mine: &[Color]) -> Result<ConditionalView, GameError> {
    if mine.is_empty() {
        return Err(GameError::NotYourSeat);
    }
    let seat = live.conditional_seat(mine);
    Ok(ConditionalView {
        color: seat.or(mine.first().copied()).map(color_name),
        editable: seat.is_some()
            && live.rec.is_correspondence()
            && live.rec.status == Status::Playing,
        lines: seat
            .map(|c| live.rec.conditionals.of(c).clone())
            .unwrap_or_default(),
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConditionalRequest {
    lines: Vec<Vec<String>>,
}

/// `GET /api/games/{id}/conditional`: the asker's lines (only a seat's
/// holder sees them).
pub async fn list(
    State(app): Shared,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<ConditionalView>, ApiError> {
    let who = holder(&app, &headers, false).await?;
    let live = app.games.get(&id).await?;
    let mine = live.seats_of(Some(&who));
    Ok(Json(conditional_view(&live, &mine)?))
}

async fn replace(
    app: &GamesCtx,
    id: &str,
    headers: &HeaderMap,
    lines: Vec<Vec<String>>,
) -> Result<Json<ConditionalView>, ApiError> {
    let who = holder(app, headers, false).await?;
    let done = app
        .games
        .change(id, Some(&who), Action::Conditional(lines))
        .await?;
    after_change(app, &done);
    let mine = done.live.seats_of(Some(&who));
    Ok(Json(conditional_view(&done.live, &mine)?))
}

/// `POST /api/games/{id}/conditional` `{"lines": [[reply, answer, ...],
/// ...]}`: replaces the asker's lines.
pub async fn set(
    State(app): Shared,
    Path(id): Path<String>,
    headers: HeaderMap,
    req: Result<Json<ConditionalRequest>, JsonRejection>,
) -> Result<Json<ConditionalView>, ApiError> {
    let req = body(req)?;
    replace(&app, &id, &headers, req.lines).await
}

/// `DELETE /api/games/{id}/conditional`: clears the asker's lines.
pub async fn clear(
    State(app): Shared,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<ConditionalView>, ApiError> {
    replace(&app, &id, &headers, Vec::new()).await
}
