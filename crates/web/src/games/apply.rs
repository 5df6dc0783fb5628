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
    if matches!(action, Action::Join { .. }) {
        tracing::info!(game = %id, "game joined");
    }
    if let Some(r) = rematch {
        tracing::info!(game = %r.id, rematch_of = %id, variant = %r.variant, mode = %r.mode, "game created");
    }
}

fn changed() -> Result<Applied, GameError> {
    Ok(Applied {
        changed: true,
        rematch: None,
    })
}

fn unchanged() -> Result<Applied, GameError> {
    Ok(Applied {
        changed: false,
        rematch: None,
    })
}

fn over(live: &Live) -> GameError {
    GameError::Over {
        result: live.rec.result.as_deref().unwrap_or("?").to_string(),
        reason: live.rec.reason.as_deref().unwrap_or("?").to_string(),
    }
}

/// Resolves a move text: the legal move whose long notation it is, or any
/// other valid path of a legal move (ruling N3).
pub fn resolve(pos: &Position, text: &str) -> Result<Move, GameError> {
    let text = text.trim();
    if let Some(m) = pos
        .legal_moves()
        .into_iter()
        .find(|&m| to_uci(pos, m) == text)
    {
        return Ok(m);
    }
    parse_uci(pos, text).map_err(|e| match e {
        springboard_rules::MoveError::Malformed(_) => GameError::MalformedMove(e.to_string()),
        // A near miss: the rules core says what the text lacks.
        springboard_rules::MoveError::Illegal(_) => match missing_part(pos, text) {
            Some(missing) => GameError::IllegalMove(missing.to_string()),
            None => GameError::IllegalMove(e.to_string()),
        },
        _ => GameError::IllegalMove(e.to_string()),
    })
}

pub(super) fn apply(
    live: &mut Live,
    who: Option<&Holder>,
    action: &Action,
    now: i64,
) -> Result<Applied, GameError> {
    let mine = live.seats_of(who);
    let need_seat = || -> Result<(), GameError> {
        if mine.is_empty() {
            Err(GameError::NotYourSeat)
        } else {
            Ok(())
        }
    };
    match action {
        Action::Touch { restart } => {
            if *restart && live.running().is_some() && !live.rec.is_correspondence() {
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
                    return Err(GameError::Stale {
                        reason: format!("move {p} was already played; the game is at move {plies}"),
                        version: live.rec.version,
                    });
                }
                if p > plies {
                    return Err(GameError::Stale {
                        reason: format!("ply {p} is ahead of the game's {plies} moves"),
                        version: live.rec.version,
                    });
                }
            }
            if live.is_over() {
                return Err(over(live));
            }
            if live.rec.status == Status::Waiting {
                return Err(GameError::Waiting);
            }
            let turn = live.game.position().turn();
            if !mine.contains(&turn) || live.engine_color() == Some(turn) {
                return Err(GameError::NotYourTurn);
            }
            let m = resolve(live.game.position(), text)?;
            live.play(m, now)?;
            live.answer_conditionals(now);
            changed()
        }
        Action::Engine { m, version } => {
            if live.rec.version != *version {
                return Err(GameError::EngineOutdated);
            }
            if live.is_over() {
                return Err(over(live));
            }
            live.play(*m, now)?;
            live.answer_conditionals(now);
            changed()
        }
        Action::Join { invite } => {
            if !mine.is_empty() {
                return unchanged();
            }
            let Some(who) = who.and_then(|w| w.seat.as_deref()) else {
                return Err(GameError::NoCookie);
            };
            if live.rec.mode != Mode::Friend || live.rec.status != Status::Waiting {
                return Err(GameError::NoFreeSeat);
            }
            // A waiting friend game is private: only its invitation's
            // token takes the seat.
            if !seat::holds(live.rec.invite.as_deref(), invite.as_deref()) {
                return Err(GameError::NotInvited);
            }
            let free = Color::ALL
                .into_iter()
                .find(|&c| live.seat(c).is_none())
                .ok_or(GameError::NoFreeSeat)?;
            match free {
                Color::White => live.rec.white_seat = Some(who.to_string()),
                Color::Black => live.rec.black_seat = Some(who.to_string()),
            }
            live.rec.invite = None;
            live.rec.status = Status::Playing;
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
        Action::Abort => {
            need_seat()?;
            if live.is_over() {
                return Err(over(live));
            }
            if !live.abortable() {
                return Err(GameError::NotAbortable);
            }
            live.abort();
            changed()
        }
        Action::Draw(answer) => {
            need_seat()?;
            if live.is_over() {
                return Err(over(live));
            }
            if mine.len() == 2 {
                return Err(GameError::LocalDraw);
            }
            let me = mine[0];
            if live.rec.mode == Mode::Engine {
                return Err(GameError::EngineDeclinesDraw);
            }
            let offer = live.rec.draw_offer;
            match (answer, offer) {
                (Answer::Offer, Some(c)) if c == !me => {
                    live.end("1/2-1/2", "draw agreed");
                    changed()
                }
                (Answer::Offer, Some(_)) => unchanged(),
                (Answer::Offer, None) => {
                    live.rec.draw_offer = Some(me);
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
                _ => Err(GameError::NoOffer(OfferKind::Draw)),
            }
        }
        Action::Takeback(answer) => {
            need_seat()?;
            if live.is_over() {
                return Err(over(live));
            }
            if mine.len() == 2 {
                return Err(GameError::LocalTakeback);
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
            let offer = live.rec.takeback_offer;
            match answer {
                Answer::Offer => {
                    if !has_move(me) {
                        return Err(GameError::NoMoveOfYours);
                    }
                    if live.rec.mode == Mode::Engine {
                        let n = count(me).min(live.plies());
                        live.take_back(n, now)?;
                        return changed();
                    }
                    match offer {
                        Some(c) if c == me => unchanged(),
                        _ => {
                            live.rec.takeback_offer = Some(me);
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
                    _ => Err(GameError::NoOffer(OfferKind::Takeback)),
                },
                Answer::Decline => match offer {
                    Some(c) if c == !me => {
                        live.rec.takeback_offer = None;
                        changed()
                    }
                    _ => Err(GameError::NoOffer(OfferKind::Takeback)),
                },
            }
        }
        Action::Rematch(answer) => {
            need_seat()?;
            if !live.is_over() {
                return Err(GameError::NotOver);
            }
            if live.rec.rematch_id.is_some() {
                return Err(GameError::RematchStarted);
            }
            if mine.len() == 2 {
                return Err(GameError::LocalRematch);
            }
            let me = mine[0];
            let offer = live.rec.rematch_offer;
            let start = match (answer, offer) {
                _ if live.rec.mode == Mode::Engine => *answer != Answer::Decline,
                (Answer::Offer | Answer::Accept, Some(c)) if c == !me => true,
                (Answer::Offer, _) => {
                    if offer == Some(me) {
                        return unchanged();
                    }
                    live.rec.rematch_offer = Some(me);
                    return changed();
                }
                (Answer::Decline, Some(c)) if c == !me => {
                    live.rec.rematch_offer = None;
                    return changed();
                }
                _ => return Err(GameError::NoOffer(OfferKind::Rematch)),
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
        Action::Conditional(lines) => {
            live.set_conditionals(&mine, lines)?;
            changed()
        }
        Action::Undo(n) => {
            need_seat()?;
            if live.rec.mode != Mode::Local {
                return Err(GameError::UndoNotLocal);
            }
            if live.plies() == 0 {
                return Err(GameError::NothingToTakeBack);
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
        engine_color: old.engine_color.map(|c| !c),
        engine_level: old.engine_level,
        clock_initial_ms: old.clock_initial_ms,
        clock_increment_ms: old.clock_increment_ms,
        correspondence: old.correspondence,
        white_ms: old.clock_initial_ms,
        black_ms: old.clock_initial_ms,
        turn_started_at: old.clock_initial_ms.map(|_| now),
        origin: old.origin,
        ..GameRecord::new(
            seat::new_game_id(),
            &old.variant,
            old.start_fen.clone(),
            old.mode,
            now,
        )
    }
}
