//! The accounts' JSON API under `/api/account`: sign up, sign in, sign
//! out, sign out everywhere, change the password, who am I, my games.
//! Every `POST` passes the CSRF check (`crate::csrf`) first.

use super::store::{SessionRecord, UserRecord};
use super::{limit, name, password, session, Accounts, AccountsCtx, AccountsState};
use crate::csrf;
use crate::error::ApiError;
use crate::extract::body;
use crate::outage::api_error;
use crate::proxy::client_ip;
use crate::proxy::Client;
use crate::seat;
use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRef, State};
use axum::http::{header, Extensions, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};

/// The most games `GET /api/account/games` lists.
pub const MAX_LISTED_GAMES: i64 = 100;
/// The longest user agent kept with a session, in bytes.
const MAX_USER_AGENT_BYTES: usize = 256;

/// The accounts' state, as their handlers take it.
type Shared = State<AccountsCtx>;

/// The accounts' routes, on any router state that gives their state
/// ([`AccountsCtx`]).
pub(crate) fn routes<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    AccountsCtx: FromRef<S>,
{
    Router::new()
        .route("/api/account/games", get(my_games))
        .route("/api/account/signup", post(sign_up))
        .route("/api/account/signin", post(sign_in))
        .route("/api/account/signout", post(sign_out))
        .route("/api/account/signout-all", post(sign_out_everywhere))
        .route("/api/account/password", post(change_password))
}

/// Name and password, as the sign-up and sign-in forms send them (no
/// `Debug`: a password is never printed).
#[derive(Deserialize)]
pub struct Credentials {
    name: String,
    password: String,
}

#[derive(Deserialize)]
pub struct NewPassword {
    old: String,
    new: String,
}

/// The signed-in user as the API shows it.
#[derive(Serialize)]
pub struct AccountView {
    name: String,
    /// When the account was made, ms since the Unix epoch.
    created_at: i64,
}

impl From<&UserRecord> for AccountView {
    fn from(u: &UserRecord) -> AccountView {
        AccountView {
            name: u.name.clone(),
            created_at: u.created_at,
        }
    }
}

fn accounts(app: &AccountsState) -> Result<&Accounts, ApiError> {
    app.accounts
        .as_ref()
        .ok_or_else(|| ApiError::NotFound("this server has no accounts".into()))
}

fn https(ext: &Extensions) -> bool {
    ext.get::<Client>().is_some_and(|c| c.https)
}

/// The session and user of the request's `sb_session` cookie; None for
/// no cookie, a forged or revoked one, or one that is over (deleted then).
pub(crate) async fn signed_in(
    app: &AccountsState,
    headers: &HeaderMap,
) -> Result<Option<(SessionRecord, UserRecord)>, ApiError> {
    let Some(accounts) = app.accounts.as_ref() else {
        return Ok(None);
    };
    session::signed_in(&*accounts.store, headers, app.now())
        .await
        .map_err(api_error)
}

pub(super) async fn require(
    app: &AccountsState,
    headers: &HeaderMap,
) -> Result<(SessionRecord, UserRecord), ApiError> {
    signed_in(app, headers)
        .await?
        .ok_or_else(|| ApiError::Unauthorized("not signed in".into()))
}

/// A response of `status` and `body` with the `Set-Cookie` values
/// `cookies`.
pub(super) fn answer(
    status: StatusCode,
    body: serde_json::Value,
    cookies: Vec<String>,
) -> Response {
    let mut resp = (status, Json(body)).into_response();
    for c in cookies {
        if let Ok(v) = HeaderValue::from_str(&c) {
            resp.headers_mut().append(header::SET_COOKIE, v);
        }
    }
    resp
}

/// Starts a session of `user` for this browser: a new random token (a
/// new id at every sign-in), its row, and its cookie. The browser's games
/// become the user's: its `sb_player` token is linked to the user (a
/// browser that belongs to another user, or that has no token yet, gets a
/// new token linked to this one). The `Set-Cookie` values to send.
pub(super) async fn start_session(
    app: &AccountsState,
    accounts: &Accounts,
    user: &UserRecord,
    headers: &HeaderMap,
    ext: &Extensions,
) -> Result<Vec<String>, ApiError> {
    let now = app.now();
    // The session the browser had, if any, ends: a sign-in never keeps a
    // session id that was known before it (session fixation).
    if let Some(old) = session::token_from(headers) {
        accounts
            .store
            .delete_session(&seat::hash_token(&old))
            .await
            .map_err(api_error)?;
    }
    let token = session::new_token();
    let user_agent = headers
        .get(header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .map(|ua| truncate(ua.to_string(), MAX_USER_AGENT_BYTES));
    accounts
        .store
        .create_session(&SessionRecord {
            id: seat::hash_token(&token),
            user_id: user.id.clone(),
            created_at: now,
            last_seen: now,
            user_agent,
        })
        .await
        .map_err(api_error)?;
    let mut cookies = vec![session::set_cookie(&token, https(ext))];
    let owner = match seat::token_from(headers) {
        Some(player) => Some(
            accounts
                .store
                .link_player(&seat::hash_token(&player), &user.id, now)
                .await
                .map_err(api_error)?,
        ),
        None => None,
    };
    if owner.as_deref() != Some(user.id.as_str()) {
        let player = seat::random_base62(seat::TOKEN_LEN);
        accounts
            .store
            .link_player(&seat::hash_token(&player), &user.id, now)
            .await
            .map_err(api_error)?;
        cookies.push(seat::set_cookie(&player));
    }
    Ok(cookies)
}

fn truncate(mut text: String, max: usize) -> String {
    if text.len() > max {
        let mut end = max;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
    }
    text
}

pub async fn me(State(app): Shared, headers: HeaderMap) -> Result<Json<AccountView>, ApiError> {
    accounts(&app)?;
    let (_, user) = require(&app, &headers).await?;
    Ok(Json(AccountView::from(&user)))
}

pub async fn my_games(
    State(app): Shared,
    headers: HeaderMap,
) -> Result<Json<serde_json::Value>, ApiError> {
    let accounts = accounts(&app)?;
    let (_, user) = require(&app, &headers).await?;
    let ids = accounts
        .store
        .games_of(&user.id, MAX_LISTED_GAMES)
        .await
        .map_err(api_error)?;
    Ok(Json(serde_json::json!({ "games": ids })))
}

pub async fn sign_up(
    State(app): Shared,
    headers: HeaderMap,
    ext: Extensions,
    req: Result<Json<Credentials>, JsonRejection>,
) -> Result<Response, ApiError> {
    let accounts = accounts(&app)?;
    csrf::check(&headers, &ext)?;
    let req = body(req)?;
    let id = name::check(&req.name)?;
    password::check_new(&req.password)?;
    let now = app.now();
    let ip = client_ip(&ext);
    if accounts.sign_ups.over(&ip, now) {
        return Err(ApiError::TooManyRequests(format!(
            "too many new accounts from your address; at most {} in {} minutes",
            accounts.sign_ups.limit,
            limit::WINDOW_MS / 60_000
        )));
    }
    if accounts.store.user(&id).await.map_err(api_error)?.is_some() {
        return Err(taken(&req.name));
    }
    accounts.sign_ups.count(ip, now);
    let user = UserRecord {
        id,
        name: req.name.clone(),
        password_hash: accounts.hasher.hash(req.password).await?,
        created_at: now,
    };
    if !accounts.store.create_user(&user).await.map_err(api_error)? {
        return Err(taken(&req.name));
    }
    tracing::info!(user = %user.id, "account created");
    let cookies = start_session(&app, accounts, &user, &headers, &ext).await?;
    Ok(answer(
        StatusCode::CREATED,
        serde_json::to_value(AccountView::from(&user)).unwrap_or_default(),
        cookies,
    ))
}

fn taken(name: &str) -> ApiError {
    ApiError::Conflict(format!("the username '{name}' is taken"))
}

/// The one answer to a wrong password and an unknown name.
fn bad_credentials() -> ApiError {
    ApiError::Unauthorized("wrong username or password".into())
}

pub async fn sign_in(
    State(app): Shared,
    headers: HeaderMap,
    ext: Extensions,
    req: Result<Json<Credentials>, JsonRejection>,
) -> Result<Response, ApiError> {
    let accounts = accounts(&app)?;
    csrf::check(&headers, &ext)?;
    let req = body(req)?;
    // A name that cannot exist is looked up no further, and a password
    // too long to be one is not hashed; both fail like a wrong password.
    let well_formed = name::check(&req.name);
    let id = well_formed
        .clone()
        .unwrap_or_else(|_| req.name.to_ascii_lowercase());
    let now = app.now();
    let ip = client_ip(&ext);
    if accounts.failures_by_address.over(&ip, now) || accounts.failures_by_account.over(&id, now) {
        return Err(ApiError::TooManyRequests(format!(
            "too many failed sign-ins; try again in {} minutes",
            limit::WINDOW_MS / 60_000
        )));
    }
    let user = match well_formed {
        Ok(_) => accounts.store.user(&id).await.map_err(api_error)?,
        Err(_) => None,
    };
    let ok = req.password.len() <= password::MAX_PASSWORD_BYTES
        && accounts
            .hasher
            .verify(req.password, user.as_ref().map(|u| u.password_hash.clone()))
            .await?;
    let Some(user) = user.filter(|_| ok) else {
        accounts.failures_by_address.count(ip, now);
        if id.len() <= name::MAX_NAME_CHARS {
            accounts.failures_by_account.count(id, now);
        }
        return Err(bad_credentials());
    };
    tracing::info!(user = %user.id, "signed in");
    let cookies = start_session(&app, accounts, &user, &headers, &ext).await?;
    Ok(answer(
        StatusCode::OK,
        serde_json::to_value(AccountView::from(&user)).unwrap_or_default(),
        cookies,
    ))
}

/// The cookies of a browser that signs out: the session cookie removed,
/// and a new `sb_player` token, so that what it plays next is not the
/// account's (the account keeps the games it has).
fn signed_out_cookies(ext: &Extensions) -> Vec<String> {
    vec![
        session::clear_cookie(https(ext)),
        seat::set_cookie(&seat::random_base62(seat::TOKEN_LEN)),
    ]
}

pub async fn sign_out(
    State(app): Shared,
    headers: HeaderMap,
    ext: Extensions,
) -> Result<Response, ApiError> {
    let accounts = accounts(&app)?;
    csrf::check(&headers, &ext)?;
    if let Some((s, _)) = signed_in(&app, &headers).await? {
        accounts
            .store
            .delete_session(&s.id)
            .await
            .map_err(api_error)?;
    }
    Ok(answer(
        StatusCode::OK,
        serde_json::json!({}),
        signed_out_cookies(&ext),
    ))
}

pub async fn sign_out_everywhere(
    State(app): Shared,
    headers: HeaderMap,
    ext: Extensions,
) -> Result<Response, ApiError> {
    let accounts = accounts(&app)?;
    csrf::check(&headers, &ext)?;
    let (_, user) = require(&app, &headers).await?;
    let n = accounts
        .store
        .delete_sessions(&user.id)
        .await
        .map_err(api_error)?;
    tracing::info!(user = %user.id, sessions = n, "signed out everywhere");
    Ok(answer(
        StatusCode::OK,
        serde_json::json!({ "sessions": n }),
        signed_out_cookies(&ext),
    ))
}

pub async fn change_password(
    State(app): Shared,
    headers: HeaderMap,
    ext: Extensions,
    req: Result<Json<NewPassword>, JsonRejection>,
) -> Result<Response, ApiError> {
    let accounts = accounts(&app)?;
    csrf::check(&headers, &ext)?;
    let (_, user) = require(&app, &headers).await?;
    let req = body(req)?;
    password::check_new(&req.new)?;
    let now = app.now();
    let ip = client_ip(&ext);
    if accounts.failures_by_address.over(&ip, now)
        || accounts.failures_by_account.over(&user.id, now)
    {
        return Err(ApiError::TooManyRequests(format!(
            "too many failed sign-ins; try again in {} minutes",
            limit::WINDOW_MS / 60_000
        )));
    }
    let ok = req.old.len() <= password::MAX_PASSWORD_BYTES
        && accounts
            .hasher
            .verify(req.old, Some(user.password_hash.clone()))
            .await?;
    if !ok {
        accounts.failures_by_address.count(ip, now);
        accounts.failures_by_account.count(user.id.clone(), now);
        return Err(ApiError::Forbidden("the old password is wrong".into()));
    }
    let hash = accounts.hasher.hash(req.new).await?;
    // Every session ends, this one too; this browser gets a new one.
    accounts
        .store
        .set_password(&user.id, &hash)
        .await
        .map_err(api_error)?;
    tracing::info!(user = %user.id, "password changed");
    let cookies = start_session(&app, accounts, &user, &headers, &ext).await?;
    Ok(answer(
        StatusCode::OK,
        serde_json::to_value(AccountView::from(&user)).unwrap_or_default(),
        cookies,
    ))
}
