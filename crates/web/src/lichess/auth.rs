//! Personal API tokens: issued (shown once; only their SHA-256 is
//! stored), and read from a request's `Authorization: Bearer` header. A
//! token's request acts for its account: it holds every seat of the
//! account, and the seats it takes are the token's own (a browser of the
//! account in `player_users`, so the games it plays are the account's on
//! the page too). A bearer-authorised request carries no cookie, so it
//! needs no `Origin` check.

use super::store::{TokenRecord, TokenStore};
use super::LichessState;
use crate::accounts::{AccountStore, UserRecord};
use crate::error::ApiError;
use crate::outage::api_error;
use crate::seat::{self, Holder};
use crate::store::StoreError;
use axum::http::header::AUTHORIZATION;
use axum::http::HeaderMap;

/// Every token starts with this (lichess's start with `lip_`).
pub const TOKEN_PREFIX: &str = "sbp_";
/// Random base62 characters after the prefix: about 190 bits.
pub const TOKEN_CHARS: usize = 32;
/// Characters of a token's public id.
pub const ID_CHARS: usize = 12;
/// The most tokens one account has.
pub const MAX_TOKENS: usize = 20;
/// The longest description, in characters.
pub const MAX_DESCRIPTION: usize = 100;

/// A request authorised by a token: its account and the seats it holds.
#[derive(Clone, Debug)]
pub struct Authed {
    pub user: UserRecord,
    pub holder: Holder,
}

/// Whether `text` has a token's shape.
fn is_token(text: &str) -> bool {
    text.strip_prefix(TOKEN_PREFIX).is_some_and(|rest| {
        rest.len() == TOKEN_CHARS && rest.bytes().all(|b| b.is_ascii_alphanumeric())
    })
}

/// Issues a new token for account `user` (which must exist), described
/// as `description`: its record and the token itself, to show once. Its
/// seat is a new browser of the account.
pub async fn issue(
    tokens: &dyn TokenStore,
    accounts: &dyn AccountStore,
    user: &str,
    description: &str,
    now: i64,
) -> Result<(TokenRecord, String), StoreError> {
    let token = format!("{TOKEN_PREFIX}{}", seat::random_base62(TOKEN_CHARS));
    let seat = seat::hash_token(&seat::random_base62(seat::TOKEN_LEN));
    accounts.link_player(&seat, user, now).await?;
    let rec = TokenRecord {
        id: seat::random_base62(ID_CHARS),
        hash: seat::hash_token(&token),
        user_id: user.to_string(),
        seat,
        description: description.to_string(),
        created_at: now,
        last_used: None,
    };
    tokens.insert_token(&rec).await?;
    Ok((rec, token))
}

/// The request's bearer token: None without an `Authorization` header;
/// an error for one that is not `Bearer <token>`.
fn bearer(headers: &HeaderMap) -> Result<Option<&str>, ApiError> {
    let Some(value) = headers.get(AUTHORIZATION) else {
        return Ok(None);
    };
    let text = value.to_str().unwrap_or_default().trim();
    let token = text
        .strip_prefix("Bearer ")
        .or_else(|| text.strip_prefix("bearer "))
        .map(str::trim)
        .ok_or_else(|| {
            ApiError::Unauthorized("the Authorization header is not 'Bearer <token>'".into())
        })?;
    Ok(Some(token))
}

fn no_such_token() -> ApiError {
    ApiError::Unauthorized("No such token".into())
}

/// The account and seats of the request's bearer token: None when the
/// request has none; 401 for a forged, malformed or revoked one.
pub(crate) async fn authed(
    app: &LichessState,
    headers: &HeaderMap,
) -> Result<Option<Authed>, ApiError> {
    let Some(token) = bearer(headers)? else {
        return Ok(None);
    };
    let tokens = app.tokens()?;
    if !is_token(token) {
        return Err(no_such_token());
    }
    let rec = tokens
        .token_by_hash(&seat::hash_token(token))
        .await
        .map_err(api_error)?
        .ok_or_else(no_such_token)?;
    let Some(accounts) = &app.accounts.accounts else {
        return Err(no_such_token());
    };
    let user = accounts
        .store
        .user(&rec.user_id)
        .await
        .map_err(api_error)?
        .ok_or_else(no_such_token)?;
    let mut held = accounts
        .store
        .players_of(&user.id)
        .await
        .map_err(api_error)?;
    if !held.contains(&rec.seat) {
        held.push(rec.seat.clone());
    }
    let now = app.now();
    // At most one write a minute per token.
    if rec.last_used.is_none_or(|t| now.saturating_sub(t) > 60_000) {
        tokens.touch_token(&rec.id, now).await.map_err(api_error)?;
    }
    Ok(Some(Authed {
        holder: Holder {
            seat: Some(rec.seat),
            held,
            user: Some(user.id.clone()),
            cookie: None,
        },
        user,
    }))
}

/// [`authed`], required: 401 without a token.
pub(crate) async fn require(app: &LichessState, headers: &HeaderMap) -> Result<Authed, ApiError> {
    authed(app, headers).await?.ok_or_else(|| {
        ApiError::Unauthorized(
            "this request needs a personal API token: 'Authorization: Bearer <token>'".into(),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_well_formed_tokens_are_looked_up() {
        let t = format!("{TOKEN_PREFIX}{}", seat::random_base62(TOKEN_CHARS));
        assert!(is_token(&t));
        assert!(!is_token(&t[1..]));
        assert!(!is_token(&format!("{t}x")));
        assert!(!is_token("sbp_!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"));
        let mut h = HeaderMap::new();
        assert_eq!(bearer(&h), Ok(None));
        h.insert(AUTHORIZATION, format!("Bearer {t}").parse().unwrap());
        assert_eq!(bearer(&h), Ok(Some(t.as_str())));
        h.insert(AUTHORIZATION, "Basic abc".parse().unwrap());
        assert!(bearer(&h).is_err());
    }
}
