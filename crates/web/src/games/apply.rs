//! Applying an action to a game: a move, a resignation, an offer and its
//! answer, an undo or a rematch, checked against the game's state and the
//! seat that asks, with the log line of each change of the game's life.

use super::*;

pub(super) struct Applied {
    pub(super) changed: bool,
    pub(super) rematch: Option<GameRecord>,
}

/// Logs what a committed change did to the game's life: a seat taken, a
/// rematch created (the end is logged by its subscriber, `ended.rs`).
pub(super) fn log_lifecycle(after: &Live, action: &Action, rematch: Option<&GameRecord>) {
    let id = &after.rec.id;
    if matches!(action, Action::Join) {
        tracing::info!(game = %id, "game joined");
    }
    if let Some(r) = rematch {
        tracing::info!(game = %r.id, rematch_of = %id, variant = %r.variant, mode = %r.mode, "game created");
    }
}

fn changed() -> Result<Applied, ApiError> {
    Ok(Applied {
        changed: true,
        rematch: None,
    })
}

fn unchanged() -> Result<Applied, ApiError> {
    Ok(Applied {
        changed: false,
        rematch: None,
    })
}

fn over(live: &Live) -> ApiError {
    ApiError::Conflict(format!(
        "the game is over ({}, {})",
        live.rec.result.as_deref().unwrap_or("?"),
        live.rec.reason.as_deref().unwrap_or("?")
    ))
}

/// Resolves a move text: the legal move whose long notation it is, or any
/// other valid path of a legal move (ruling N3).
pub fn resolve(pos: &Position, text: &str) -> Result<Move, ApiError> {
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
        // A near miss: the rules core says what the text lacks.
        springboard_rules::MoveError::Illegal(_) => match missing_part(pos, text) {
            Some(missing) => ApiError::Conflict(missing.to_string()),
            None => ApiError::Conflict(e.to_string()),
        },
        _ => ApiError::Conflict(e.to_string()),
    })
}

pub(super) fn apply(
    live: &mut Live,
    who: Option<&str>,
    action: &Action,
    now: i64,
) -> Result<Applied, ApiError> {
    let mine = live.seats_of(who);
    let need_seat = || -> Result<(), ApiError> {
        if mine.is_empty() {
            Err(ApiError::Forbidden("not your seat".into()))
        } else {
            Ok(())
        }
    };
    match action {
        Action::Touch { restart } => {
            if *restart && live.running().is_some() {
                live.rec.turn_started_at = Some(now);
                return changed();
            }
            unchanged()
        }
        Action::Move { text, ply } => {
            need_seat()?;
            let plies = live.plies();
            if let Some(p) = *ply {
                if p < plies {
                    // A resend of a move already played answers as before.
                    let pos = &live.game.positions()[p];
                    let same = resolve(pos, text)
                        .is_ok_and(|m| m == live.game.moves()[p] && mine.contains(&pos.turn()));
                    if same {
                        return unchanged();
                    }
                    return Err(ApiError::Stale {
                        reason: format!("move {p} was already played; the game is at move {plies}"),
                        version: live.rec.version,
                    });
                }
                if p > plies {
                    return Err(ApiError::Stale {
                        reason: format!("ply {p} is ahead of the game's {plies} moves"),
                        version: live.rec.version,
                    });
                }
            }
            if live.is_over() {
                return Err(over(live));
            }
            if live.rec.status == "waiting" {
                return Err(ApiError::Conflict("waiting for an opponent to join".into()));
            }
            let turn = live.game.position().turn();
            if !mine.contains(&turn) || live.engine_color() == Some(turn) {
                return Err(ApiError::Conflict("not your turn".into()));
            }
            let m = resolve(live.game.position(), text)?;
            live.play(m, now)?;
            changed()
        }
        Action::Engine { m, version } => {
            if live.rec.version != *version {
                return Err(ApiError::Conflict(
                    "the game changed while the engine was thinking".into(),
                ));
            }
            if live.is_over() {
                return Err(over(live));
            }
            live.play(*m, now)?;
            changed()
        }
        Action::Join => {
            if !mine.is_empty() {
                return unchanged();
            }
            let Some(who) = who else {
                return Err(ApiError::BadRequest("no player cookie".into()));
            };
            if live.rec.mode != "friend" || live.rec.status != "waiting" {
                return Err(ApiError::Conflict("the game has no free seat".into()));
            }
            let free = Color::ALL
                .into_iter()
                .find(|&c| live.seat(c).is_none())
                .ok_or_else(|| ApiError::Conflict("the game has no free seat".into()))?;
            match free {
                Color::White => live.rec.white_seat = Some(who.to_string()),
                Color::Black => live.rec.black_seat = Some(who.to_string()),
            }
            live.rec.status = "playing".into();
            if live.rec.turn_started_at.is_some() {
                live.rec.turn_started_at = Some(now);
            }
            changed()
        }
        Action::Resign => {
            need_seat()?;
            if live.is_over() {
                return Err(over(live));
            }
            // In a local game the side to move resigns.
            let loser = if mine.len() == 2 {
                live.game.position().turn()
            } else {
                mine[0]
            };
            live.end(win_result(!loser), "resignation");
            changed()
        }
        Action::Draw(answer) => {
            need_seat()?;
            if live.is_over() {
                return Err(over(live));
            }
            if mine.len() == 2 {
                return Err(ApiError::Conflict("no draw offers in a local game".into()));
            }
            let me = mine[0];
            if live.rec.mode == "engine" {
                return Err(ApiError::Conflict("the engine declines the draw".into()));
            }
            let offer = live.rec.draw_offer.as_deref().and_then(color_from);
            match (answer, offer) {
                (Answer::Offer, Some(c)) if c == !me => {
                    live.end("1/2-1/2", "draw agreed");
                    changed()
                }
                (Answer::Offer, Some(_)) => unchanged(),
                (Answer::Offer, None) => {
                    live.rec.draw_offer = Some(color_name(me).into());
                    changed()
                }
                (Answer::Accept, Some(c)) if c == !me => {
                    live.end("1/2-1/2", "draw agreed");
                    changed()
                }
                (Answer::Decline, Some(c)) if c == !me => {
                    live.rec.draw_offer = None;
                    changed()
                }
                _ => Err(ApiError::Conflict(
                    "there is no draw offer to answer".into(),
                )),
            }
        }
        Action::Takeback(answer) => {
            need_seat()?;
            if live.is_over() {
                return Err(over(live));
            }
            if mine.len() == 2 {
                return Err(ApiError::Conflict(
                    "a local game takes back with undo".into(),
                ));
            }
            let me = mine[0];
            let count = |c: Color| -> usize {
                // The offerer's last move, and the opponent's after it.
                let turn = live.game.position().turn();
                if turn == c {
                    2
                } else {
                    1
                }
            };
            let has_move = |c: Color| {
                live.game
                    .positions()
                    .iter()
                    .take(live.plies())
                    .any(|p| p.turn() == c)
            };
            let offer = live.rec.takeback_offer.as_deref().and_then(color_from);
            match answer {
                Answer::Offer => {
                    if !has_move(me) {
                        return Err(ApiError::Conflict("you have no move to take back".into()));
                    }
                    if live.rec.mode == "engine" {
                        let n = count(me).min(live.plies());
                        live.take_back(n, now)?;
                        return changed();
                    }
                    match offer {
                        Some(c) if c == me => unchanged(),
                        _ => {
                            live.rec.takeback_offer = Some(color_name(me).into());
                            changed()
                        }
                    }
                }
                Answer::Accept => match offer {
                    Some(c) if c == !me => {
                        let n = count(c).min(live.plies());
                        live.take_back(n, now)?;
                        changed()
                    }
                    _ => Err(ApiError::Conflict("there is no takeback to answer".into())),
                },
                Answer::Decline => match offer {
                    Some(c) if c == !me => {
                        live.rec.takeback_offer = None;
                        changed()
                    }
                    _ => Err(ApiError::Conflict("there is no takeback to answer".into())),
                },
            }
        }
        Action::Rematch(answer) => {
            need_seat()?;
            if !live.is_over() {
                return Err(ApiError::Conflict("the game is not over".into()));
            }
            if live.rec.rematch_id.is_some() {
                return Err(ApiError::Conflict("the rematch has started".into()));
            }
            if mine.len() == 2 {
                return Err(ApiError::Conflict("no rematch in a local game".into()));
            }
            let me = mine[0];
            let offer = live.rec.rematch_offer.as_deref().and_then(color_from);
            let start = match (answer, offer) {
                _ if live.rec.mode == "engine" => *answer != Answer::Decline,
                (Answer::Offer | Answer::Accept, Some(c)) if c == !me => true,
                (Answer::Offer, _) => {
                    if offer == Some(me) {
                        return unchanged();
                    }
                    live.rec.rematch_offer = Some(color_name(me).into());
                    return changed();
                }
                (Answer::Decline, Some(c)) if c == !me => {
                    live.rec.rematch_offer = None;
                    return changed();
                }
                _ => {
                    return Err(ApiError::Conflict(
                        "there is no rematch offer to answer".into(),
                    ))
                }
            };
            if !start {
                return unchanged();
            }
            let new = rematch_of(&live.rec, now);
            live.rec.rematch_id = Some(new.id.clone());
            live.rec.rematch_offer = None;
            Ok(Applied {
                changed: true,
                rematch: Some(new),
            })
        }
        Action::Undo(n) => {
            need_seat()?;
            if live.rec.mode != "local" {
                return Err(ApiError::Conflict(
                    "undo is for local games; ask for a takeback".into(),
                ));
            }
            if live.plies() == 0 {
                return Err(ApiError::Conflict("there is no move to take back".into()));
            }
            let n = (*n).min(live.plies());
            live.take_back(n, now)?;
            changed()
        }
    }
}

/// The new game of a rematch: colours swapped, same game, start, mode and
/// clock.
fn rematch_of(old: &GameRecord, now: i64) -> GameRecord {
    GameRecord {
        white_seat: old.black_seat.clone(),
        black_seat: old.white_seat.clone(),
        engine_color: old
            .engine_color
            .as_deref()
            .and_then(color_from)
            .map(|c| color_name(!c).to_string()),
        engine_level: old.engine_level,
        clock_initial_ms: old.clock_initial_ms,
        clock_increment_ms: old.clock_increment_ms,
        white_ms: old.clock_initial_ms,
        black_ms: old.clock_initial_ms,
        turn_started_at: old.clock_initial_ms.map(|_| now),
        ..GameRecord::new(
            seat::new_game_id(),
            &old.variant,
            old.start_fen.clone(),
            &old.mode,
            now,
        )
    }
}
