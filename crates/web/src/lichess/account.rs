//! `GET /api/account`: for a bearer token, lichess's account (the
//! ratings' `GET /api/user/{name}` of the token's account, `perfs` keyed
//! by our game names); for a browser's session, the site's own
//! (`accounts::http::me`), as before the API.

use super::{auth, LichessCtx};
use crate::error::ApiError;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};

pub async fn account(
    State(app): State<LichessCtx>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    match auth::authed(&app, &headers).await? {
        None => Ok(
            crate::accounts::http::me(State(app.accounts.clone()), headers)
                .await?
                .into_response(),
        ),
        Some(me) => Ok(
            crate::ratings::http::user(State(app.ratings.clone()), Path(me.user.name))
                .await?
                .into_response(),
        ),
    }
}
