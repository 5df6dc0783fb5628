//! lichess's Board API on the site's games: the game's stream
//! (`gameFull`, then a `gameState` at every change, ending after the
//! game's end) and a player's actions (move, resign, abort, draw and
//! takeback offers), each through the games domain as the page's are.
//! The stream follows the live hub's room of the game, which hears the
//! other processes' changes too on PostgreSQL.

use super::auth::{self, Authed};
use super::{ndjson, views, LichessCtx, LichessState, KEEP_ALIVE};
use crate::error::ApiError;
use crate::games::engine::after_change;
use crate::games::{Action, Answer, Live};
use crate::live::hub::Presence;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::Response;
use axum::Json;
use serde_json::{json, Value};
use springboard_rules::Color;
use tokio::sync::broadcast::error::RecvError;

/// The most characters of a move.
const MAX_MOVE: usize = 64;

/// The game `id` and the colours the token's account plays in it (403
/// for a game it does not play).
async fn my_game(
    app: &LichessState,
    me: &Authed,
    id: &str,
) -> Result<(Live, Vec<Color>), ApiError> {
    let live = app.games.games.get(id).await?;
    let colors = live.seats_of(Some(&me.holder));
    if colors.is_empty() {
        return Err(ApiError::Forbidden("you do not play this game".into()));
    }
    Ok((live, colors))
}

/// `GET /api/board/game/stream/{id}`.
pub async fn stream(
    State(app): State<LichessCtx>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let me = auth::require(&app, &headers).await?;
    let (live, colors) = my_game(&app, &me, &id).await?;
    let first = views::full(&app, &live, app.now()).await?;
    let presence = Presence {
        white: colors.contains(&Color::White),
        black: colors.contains(&Color::Black),
    };
    let (lines, resp) = ndjson::stream();
    tokio::spawn(async move {
        // Joined before the game is read again: no change is missed.
        let mut rx = app.live.hub.join(&id, presence);
        let mut version = live.rec.version;
        let mut over = live.is_over();
        let mut alive = lines.send(&first).await;
        // A change between the first read and the join.
        if alive && !over {
            if let Ok(now) = app.games.games.get(&id).await {
                if now.rec.version != version {
                    version = now.rec.version;
                    over = now.is_over();
                    alive = lines.send(&views::state(&now, app.now())).await;
                }
            }
        }
        let mut tick = tokio::time::interval(KEEP_ALIVE);
        tick.tick().await;
        while alive && !over {
            tokio::select! {
                m = rx.recv() => match m {
                    Ok(_) | Err(RecvError::Lagged(_)) => {
                        let Ok(now) = app.games.games.get(&id).await else { break };
                        if now.rec.version != version {
                            version = now.rec.version;
                            over = now.is_over();
                            alive = lines.send(&views::state(&now, app.now())).await;
                        }
                    }
                    Err(RecvError::Closed) => break,
                },
                _ = tick.tick() => alive = lines.keep_alive().await,
                _ = lines.closed() => alive = false,
            }
        }
        app.live.hub.leave(&id, presence, rx);
    });
    Ok(resp)
}

/// Applies `action` of the token's account to game `id`.
async fn act(
    app: &LichessState,
    headers: &HeaderMap,
    id: &str,
    action: Action,
) -> Result<Json<Value>, ApiError> {
    let me = auth::require(app, headers).await?;
    let done = app.games.games.change(id, Some(&me.holder), action).await?;
    after_change(&app.games, &done);
    Ok(Json(json!({"ok": true})))
}

/// `POST /api/board/game/{id}/move/{move}`: a move in our long notation.
pub async fn play(
    State(app): State<LichessCtx>,
    Path((id, mv)): Path<(String, String)>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    if mv.len() > MAX_MOVE {
        return Err(ApiError::BadRequest(format!(
            "a move is at most {MAX_MOVE} characters"
        )));
    }
    act(
        &app,
        &headers,
        &id,
        Action::Move {
            text: mv,
            ply: None,
        },
    )
    .await
}

pub async fn resign(
    State(app): State<LichessCtx>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    act(&app, &headers, &id, Action::Resign).await
}

pub async fn abort(
    State(app): State<LichessCtx>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    act(&app, &headers, &id, Action::Abort).await
}

/// lichess's `yes` (offer, or accept the opponent's offer) or `no`
/// (decline it), given whether the opponent offers now.
fn answer(text: &str, offered: bool) -> Result<Answer, ApiError> {
    match text {
        "yes" if offered => Ok(Answer::Accept),
        "yes" => Ok(Answer::Offer),
        "no" => Ok(Answer::Decline),
        other => Err(ApiError::BadRequest(format!(
            "unknown answer '{other}': expected yes or no"
        ))),
    }
}

/// The answer to an offer (draw or takeback, chosen by `offer`) in game
/// `id`.
async fn offer(
    app: &LichessState,
    headers: &HeaderMap,
    id: &str,
    text: &str,
    takeback: bool,
) -> Result<Json<Value>, ApiError> {
    if !matches!(text, "yes" | "no") {
        answer(text, false)?;
    }
    let me = auth::require(app, headers).await?;
    let (live, colors) = my_game(app, &me, id).await?;
    let by = if takeback {
        live.rec.takeback_offer
    } else {
        live.rec.draw_offer
    };
    let offered = by.is_some_and(|c| !colors.contains(&c));
    let a = answer(text, offered)?;
    let action = if takeback {
        Action::Takeback(a)
    } else {
        Action::Draw(a)
    };
    let done = app.games.games.change(id, Some(&me.holder), action).await?;
    after_change(&app.games, &done);
    Ok(Json(json!({"ok": true})))
}

/// `POST /api/board/game/{id}/draw/{yes|no}`.
pub async fn draw(
    State(app): State<LichessCtx>,
    Path((id, text)): Path<(String, String)>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    offer(&app, &headers, &id, &text, false).await
}

/// `POST /api/board/game/{id}/takeback/{yes|no}`.
pub async fn takeback(
    State(app): State<LichessCtx>,
    Path((id, text)): Path<(String, String)>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    offer(&app, &headers, &id, &text, true).await
}
