//! The relations' routes (lichess's paths): `POST /api/rel/block/{name}`,
//! `POST /api/rel/unblock/{name}` (both `{"ok": true}`), and
//! `GET /api/rel/blocking`, the accounts the signed-in one blocks
//! (`{"blocking": [{"id", "name"}]}`). Each needs a signed-in account
//! (401); the `POST`s pass the CSRF check (`crate::csrf`).

use super::{RelationCtx, MAX_BLOCKS};
use crate::accounts::http::signed_in;
use crate::error::ApiError;
use crate::outage::api_error;
use axum::extract::{FromRef, Path, State};
use axum::http::HeaderMap;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{json, Value};

pub(crate) fn routes<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    RelationCtx: FromRef<S>,
{
    let cookie_authorised = Router::new()
        .route("/api/rel/block/{name}", post(block))
        .route("/api/rel/unblock/{name}", post(unblock))
        .route_layer(axum::middleware::from_fn(crate::csrf::require_origin));
    Router::new()
        .route("/api/rel/blocking", get(blocking))
        .merge(cookie_authorised)
}

/// The store and the signed-in account's id.
async fn me(
    ctx: &RelationCtx,
    headers: &HeaderMap,
) -> Result<(std::sync::Arc<dyn super::RelationStore>, String), ApiError> {
    let Some(store) = ctx.store.clone() else {
        return Err(ApiError::NotFound("this server has no accounts".into()));
    };
    let Some((_, user)) = signed_in(&ctx.accounts, headers).await? else {
        return Err(ApiError::Unauthorized("sign in to block a player".into()));
    };
    Ok((store, user.id))
}

/// The account named `name` (its id), or a 400/404.
async fn account(ctx: &RelationCtx, name: &str) -> Result<String, ApiError> {
    let id = crate::accounts::name::check(name)?;
    let found = match &ctx.accounts.accounts {
        Some(a) => a.store.user(&id).await.map_err(api_error)?,
        None => None,
    };
    match found {
        Some(u) => Ok(u.id),
        None => Err(ApiError::NotFound(format!("no player is named '{name}'"))),
    }
}

pub async fn block(
    State(ctx): State<RelationCtx>,
    Path(name): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let (store, me) = me(&ctx, &headers).await?;
    let target = account(&ctx, &name).await?;
    if target == me {
        return Err(ApiError::BadRequest("you cannot block yourself".into()));
    }
    if !store.blocks(&me, &target).await.map_err(api_error)?
        && store.blocked_count(&me).await.map_err(api_error)? >= MAX_BLOCKS
    {
        return Err(ApiError::Conflict(format!(
            "you block {MAX_BLOCKS} players already: unblock one first"
        )));
    }
    store
        .block(&me, &target, ctx.accounts.now())
        .await
        .map_err(api_error)?;
    tracing::info!("player blocked");
    Ok(Json(json!({"ok": true})))
}

pub async fn unblock(
    State(ctx): State<RelationCtx>,
    Path(name): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let (store, me) = me(&ctx, &headers).await?;
    let target = account(&ctx, &name).await?;
    store.unblock(&me, &target).await.map_err(api_error)?;
    Ok(Json(json!({"ok": true})))
}

pub async fn blocking(
    State(ctx): State<RelationCtx>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let (store, me) = me(&ctx, &headers).await?;
    let list: Vec<Value> = store
        .blocking(&me)
        .await
        .map_err(api_error)?
        .into_iter()
        .map(|(id, name)| json!({"id": id, "name": name}))
        .collect();
    Ok(Json(json!({ "blocking": list })))
}
