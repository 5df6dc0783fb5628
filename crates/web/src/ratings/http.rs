//! The ratings' JSON API: `GET /api/user/{name}`, an account's ratings per
//! game in lichess's shape (`perfs` keyed by our game names).

use super::glicko::Rating;
use super::RatingsCtx;
use crate::error::ApiError;
use crate::outage::api_error;
use axum::extract::{FromRef, Path, State};
use axum::routing::get;
use axum::{Json, Router};
use serde::Serialize;
use springboard_rules::Variant;
use std::collections::BTreeMap;

/// How many of the last rated games `prog` (the rating's progress)
/// counts, as lichess.
pub const PROGRESS_GAMES: i64 = 12;

/// A rating as lichess's API shows it.
#[derive(Serialize, Debug)]
pub struct PerfView {
    games: i64,
    rating: i64,
    rd: i64,
    /// The change over the last [`PROGRESS_GAMES`] rated games.
    prog: i64,
    /// Provisional (RD over 110).
    prov: bool,
}

#[derive(Serialize, Debug)]
pub struct UserView {
    /// The name lower-cased.
    id: String,
    username: String,
    /// ms since the Unix epoch.
    #[serde(rename = "createdAt")]
    created_at: i64,
    /// By game name, every game the server offers.
    perfs: BTreeMap<&'static str, PerfView>,
}

pub async fn user(
    State(app): State<RatingsCtx>,
    Path(name): Path<String>,
) -> Result<Json<UserView>, ApiError> {
    let Some(store) = &app.ratings else {
        return Err(ApiError::NotFound("this server has no accounts".into()));
    };
    let missing = || ApiError::NotFound(format!("no user '{name}'"));
    let id = crate::accounts::name::check(&name).map_err(|_| missing())?;
    let account = store
        .account(&id)
        .await
        .map_err(api_error)?
        .ok_or_else(missing)?;
    let perfs = store.perfs(&account.id).await.map_err(api_error)?;
    let mut views = BTreeMap::new();
    for v in Variant::implemented() {
        let perf = perfs.iter().find(|p| p.variant == v.name());
        let (rating, games) = perf.map_or((Rating::START, 0), |p| (p.rating, p.games));
        let prog = if games > 0 {
            let recent = store
                .recent(&account.id, v.name(), PROGRESS_GAMES)
                .await
                .map_err(api_error)?;
            recent
                .last()
                .map_or(0, |h| rating.rounded().saturating_sub(h.before.rounded()))
        } else {
            0
        };
        views.insert(
            v.name(),
            PerfView {
                games,
                rating: rating.rounded(),
                rd: rating.deviation.round() as i64,
                prog,
                prov: rating.provisional(),
            },
        );
    }
    Ok(Json(UserView {
        id: account.id,
        username: account.name,
        created_at: account.created_at,
        perfs: views,
    }))
}

/// The ratings' routes, on any router state that gives their state
/// ([`RatingsCtx`]).
pub(crate) fn routes<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    RatingsCtx: FromRef<S>,
{
    Router::new().route("/api/user/{name}", get(user))
}
