//! The account page's personal API tokens, for a signed-in browser (its
//! session cookie; the `POST` and `DELETE` pass the CSRF check): list
//! them, create one (the token is in the answer, once; only its hash is
//! kept) and revoke one.

use super::auth::{self, MAX_DESCRIPTION, MAX_TOKENS};
use super::store::TokenRecord;
use super::LichessCtx;
use crate::error::ApiError;
use crate::extract::body;
use crate::outage::api_error;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};

/// A token as the account page lists it (never the token itself).
#[derive(Serialize)]
pub struct TokenView {
    id: String,
    description: String,
    created_at: i64,
    last_used: Option<i64>,
}

impl From<&TokenRecord> for TokenView {
    fn from(t: &TokenRecord) -> TokenView {
        TokenView {
            id: t.id.clone(),
            description: t.description.clone(),
            created_at: t.created_at,
            last_used: t.last_used,
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewToken {
    description: String,
}

/// The signed-in account (401 without a session).
async fn account(app: &super::LichessState, headers: &HeaderMap) -> Result<String, ApiError> {
    app.tokens()?;
    let (_, user) = crate::accounts::http::signed_in(&app.accounts, headers)
        .await?
        .ok_or_else(|| ApiError::Unauthorized("not signed in".into()))?;
    Ok(user.id)
}

pub async fn list(
    State(app): State<LichessCtx>,
    headers: HeaderMap,
) -> Result<Json<serde_json::Value>, ApiError> {
    let user = account(&app, &headers).await?;
    let tokens = app.tokens()?.tokens_of(&user).await.map_err(api_error)?;
    let views: Vec<TokenView> = tokens.iter().map(TokenView::from).collect();
    Ok(Json(serde_json::json!({ "tokens": views })))
}

pub async fn create(
    State(app): State<LichessCtx>,
    headers: HeaderMap,
    req: Result<Json<NewToken>, JsonRejection>,
) -> Result<Response, ApiError> {
    let user = account(&app, &headers).await?;
    let req = body(req)?;
    let description = req.description.trim();
    if description.is_empty() || description.chars().count() > MAX_DESCRIPTION {
        return Err(ApiError::BadRequest(format!(
            "a token's description has 1 to {MAX_DESCRIPTION} characters"
        )));
    }
    let tokens = app.tokens()?;
    let have = tokens.tokens_of(&user).await.map_err(api_error)?.len();
    if have >= MAX_TOKENS {
        return Err(ApiError::Conflict(format!(
            "you have {have} tokens; at most {MAX_TOKENS}: revoke one first"
        )));
    }
    let Some(accounts) = &app.accounts.accounts else {
        return Err(ApiError::NotFound("this server has no accounts".into()));
    };
    let (rec, token) = auth::issue(&**tokens, &*accounts.store, &user, description, app.now())
        .await
        .map_err(api_error)?;
    tracing::info!(user = %user, token = %rec.id, "API token created");
    let mut view = serde_json::to_value(TokenView::from(&rec))
        .map_err(|e| ApiError::Internal(e.to_string()))?;
    view["token"] = serde_json::Value::String(token);
    Ok((StatusCode::CREATED, Json(view)).into_response())
}

pub async fn revoke(
    State(app): State<LichessCtx>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<serde_json::Value>, ApiError> {
    let user = account(&app, &headers).await?;
    if !app
        .tokens()?
        .revoke_token(&user, &id)
        .await
        .map_err(api_error)?
    {
        return Err(ApiError::NotFound("no such token".into()));
    }
    tracing::info!(user = %user, token = %id, "API token revoked");
    Ok(Json(serde_json::json!({ "revoked": id })))
}
