//! The passkeys' routes: add one to the signed-in account (start and
//! finish the registration ceremony), sign in with one alone (start and
//! finish the authentication ceremony with a discoverable credential),
//! list and remove the account's. Every `POST` and `DELETE` passes the
//! CSRF check (`crate::csrf`) first; a sign-in counts against the same
//! limits as a password's and starts the same session.

use super::store::{CeremonyKind, CeremonyRecord, PasskeyRecord};
use super::{Passkeys, CEREMONY_MS, MAX_NAME_CHARS, MAX_PASSKEYS};
use crate::accounts::http::{answer, require, start_session, AccountView};
use crate::accounts::{limit, Accounts, AccountsCtx, AccountsState};
use crate::csrf;
use crate::error::ApiError;
use crate::extract::body;
use crate::outage::api_error;
use crate::proxy::client_ip;
use crate::seat;
use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRef, Path, State};
use axum::http::{Extensions, HeaderMap, StatusCode};
use axum::response::Response;
use axum::routing::{delete, get, post};
use axum::{Json, Router};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use serde::{Deserialize, Serialize};
use webauthn_rs::prelude::{
    DiscoverableAuthentication, DiscoverableKey, Passkey, PasskeyRegistration, PublicKeyCredential,
    RegisterPublicKeyCredential, Uuid,
};
use webauthn_rs_proto::{AuthenticatorSelectionCriteria, ResidentKeyRequirement};

/// The accounts' state, as their handlers take it.
type Shared = State<AccountsCtx>;

/// The passkeys' routes, on any router state that gives the accounts'
/// state ([`AccountsCtx`]).
pub(crate) fn routes<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    AccountsCtx: FromRef<S>,
{
    Router::new()
        .route("/api/account/passkeys", get(list))
        .route("/api/account/passkeys/{id}", delete(remove))
        .route("/api/account/passkey/register/start", post(register_start))
        .route(
            "/api/account/passkey/register/finish",
            post(register_finish),
        )
        .route("/api/account/passkey/signin/start", post(sign_in_start))
        .route("/api/account/passkey/signin/finish", post(sign_in_finish))
}

/// A passkey as the account page lists it.
#[derive(Serialize)]
pub struct PasskeyView {
    /// The credential id (base64url), what removing it names.
    id: String,
    name: String,
    created_at: i64,
    last_used: Option<i64>,
}

impl From<&PasskeyRecord> for PasskeyView {
    fn from(p: &PasskeyRecord) -> PasskeyView {
        PasskeyView {
            id: p.id.clone(),
            name: p.name.clone(),
            created_at: p.created_at,
            last_used: p.last_used,
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewPasskey {
    name: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Registered {
    ceremony: String,
    credential: RegisterPublicKeyCredential,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Asserted {
    ceremony: String,
    credential: PublicKeyCredential,
}

/// The accounts and their passkeys (404 where the server has either not).
fn passkeys(app: &AccountsState) -> Result<(&Accounts, &Passkeys), ApiError> {
    let accounts = app
        .accounts
        .as_ref()
        .ok_or_else(|| ApiError::NotFound("this server has no accounts".into()))?;
    let passkeys = accounts
        .passkeys
        .as_ref()
        .ok_or_else(|| ApiError::NotFound("this server has no passkeys".into()))?;
    Ok((accounts, passkeys))
}

fn internal(e: impl std::fmt::Display) -> ApiError {
    ApiError::Internal(e.to_string())
}

fn gone() -> ApiError {
    ApiError::BadRequest(
        "no such passkey ceremony: it was finished already, or it is over; start again".into(),
    )
}

/// A new ceremony's id.
fn ceremony_id() -> String {
    seat::random_base62(seat::TOKEN_LEN)
}

/// The credential id as kept and shown: base64url without padding.
fn credential_text(id: &[u8]) -> String {
    URL_SAFE_NO_PAD.encode(id)
}

pub async fn list(
    State(app): Shared,
    headers: HeaderMap,
) -> Result<Json<serde_json::Value>, ApiError> {
    let (_, passkeys) = passkeys(&app)?;
    let (_, user) = require(&app, &headers).await?;
    let all = passkeys
        .store
        .passkeys_of(&user.id)
        .await
        .map_err(api_error)?;
    let views: Vec<PasskeyView> = all.iter().map(PasskeyView::from).collect();
    Ok(Json(serde_json::json!({ "passkeys": views })))
}

pub async fn remove(
    State(app): Shared,
    Path(id): Path<String>,
    headers: HeaderMap,
    ext: Extensions,
) -> Result<Json<serde_json::Value>, ApiError> {
    let (_, passkeys) = passkeys(&app)?;
    csrf::check(&headers, &ext)?;
    let (_, user) = require(&app, &headers).await?;
    if !passkeys
        .store
        .delete_passkey(&user.id, &id)
        .await
        .map_err(api_error)?
    {
        return Err(ApiError::NotFound("no such passkey".into()));
    }
    tracing::info!(user = %user.id, passkey = %id, "passkey removed");
    Ok(Json(serde_json::json!({ "removed": id })))
}

pub async fn register_start(
    State(app): Shared,
    headers: HeaderMap,
    ext: Extensions,
    req: Result<Json<NewPasskey>, JsonRejection>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let (_, passkeys) = passkeys(&app)?;
    csrf::check(&headers, &ext)?;
    let (_, user) = require(&app, &headers).await?;
    let req = body(req)?;
    let name = req.name.trim();
    if name.is_empty() || name.chars().count() > MAX_NAME_CHARS {
        return Err(ApiError::BadRequest(format!(
            "a passkey's name has 1 to {MAX_NAME_CHARS} characters"
        )));
    }
    let have = passkeys
        .store
        .passkeys_of(&user.id)
        .await
        .map_err(api_error)?;
    if have.len() >= MAX_PASSKEYS {
        return Err(ApiError::Conflict(format!(
            "you have {} passkeys; at most {MAX_PASSKEYS}: remove one first",
            have.len()
        )));
    }
    // One user handle per account: the one its passkeys have, else a new
    // one.
    let handle = match have.first() {
        Some(p) => Uuid::parse_str(&p.user_handle).map_err(internal)?,
        None => Uuid::new_v4(),
    };
    let mut exclude = Vec::with_capacity(have.len());
    for p in &have {
        let key: Passkey = serde_json::from_str(&p.passkey).map_err(internal)?;
        exclude.push(key.cred_id().clone());
    }
    let (mut options, state) = passkeys
        .webauthn
        .start_passkey_registration(handle, &user.name, &user.name, Some(exclude))
        .map_err(internal)?;
    // A passkey that signs in alone must be discoverable: the
    // authenticator keeps it with the user handle.
    let selection = options
        .public_key
        .authenticator_selection
        .get_or_insert_with(AuthenticatorSelectionCriteria::default);
    selection.resident_key = Some(ResidentKeyRequirement::Required);
    selection.require_resident_key = true;
    let now = app.now();
    let id = ceremony_id();
    passkeys
        .store
        .create_ceremony(
            &CeremonyRecord {
                id: id.clone(),
                kind: CeremonyKind::Register,
                user_id: Some(user.id.clone()),
                name: Some(name.to_string()),
                user_handle: Some(handle.to_string()),
                state: serde_json::to_string::<PasskeyRegistration>(&state).map_err(internal)?,
                expires_at: now.saturating_add(CEREMONY_MS),
            },
            now,
        )
        .await
        .map_err(api_error)?;
    Ok(Json(
        serde_json::json!({ "ceremony": id, "options": options }),
    ))
}

pub async fn register_finish(
    State(app): Shared,
    headers: HeaderMap,
    ext: Extensions,
    req: Result<Json<Registered>, JsonRejection>,
) -> Result<Response, ApiError> {
    let (_, passkeys) = passkeys(&app)?;
    csrf::check(&headers, &ext)?;
    let (_, user) = require(&app, &headers).await?;
    let req = body(req)?;
    let now = app.now();
    let ceremony = passkeys
        .store
        .take_ceremony(&req.ceremony, CeremonyKind::Register, now)
        .await
        .map_err(api_error)?
        .ok_or_else(gone)?;
    // A ceremony is its account's: another session of another account
    // cannot finish it.
    if ceremony.user_id.as_deref() != Some(user.id.as_str()) {
        return Err(gone());
    }
    let state: PasskeyRegistration = serde_json::from_str(&ceremony.state).map_err(internal)?;
    let key = passkeys
        .webauthn
        .finish_passkey_registration(&req.credential, &state)
        .map_err(|e| ApiError::BadRequest(format!("the passkey was not accepted: {e}")))?;
    let record = PasskeyRecord {
        id: credential_text(key.cred_id().as_ref()),
        user_id: user.id.clone(),
        user_handle: ceremony.user_handle.unwrap_or_default(),
        passkey: serde_json::to_string(&key).map_err(internal)?,
        name: ceremony.name.unwrap_or_default(),
        created_at: now,
        last_used: None,
    };
    if !passkeys
        .store
        .create_passkey(&record)
        .await
        .map_err(api_error)?
    {
        return Err(ApiError::Conflict(
            "this passkey is registered already".into(),
        ));
    }
    tracing::info!(user = %user.id, passkey = %record.id, "passkey added");
    Ok(answer(
        StatusCode::CREATED,
        serde_json::to_value(PasskeyView::from(&record)).map_err(internal)?,
        Vec::new(),
    ))
}

/// The answer to too many failed sign-ins from this address.
fn too_many() -> ApiError {
    ApiError::TooManyRequests(format!(
        "too many failed sign-ins; try again in {} minutes",
        limit::WINDOW_MS / 60_000
    ))
}

pub async fn sign_in_start(
    State(app): Shared,
    headers: HeaderMap,
    ext: Extensions,
) -> Result<Json<serde_json::Value>, ApiError> {
    let (accounts, passkeys) = passkeys(&app)?;
    csrf::check(&headers, &ext)?;
    let now = app.now();
    if accounts.failures_by_address.over(&client_ip(&ext), now) {
        return Err(too_many());
    }
    let (mut options, state) = passkeys
        .webauthn
        .start_discoverable_authentication()
        .map_err(internal)?;
    // Asked for by a button, not offered in the username field's
    // autofill: the browser's ordinary dialog.
    options.mediation = None;
    let id = ceremony_id();
    passkeys
        .store
        .create_ceremony(
            &CeremonyRecord {
                id: id.clone(),
                kind: CeremonyKind::SignIn,
                user_id: None,
                name: None,
                user_handle: None,
                state: serde_json::to_string::<DiscoverableAuthentication>(&state)
                    .map_err(internal)?,
                expires_at: now.saturating_add(CEREMONY_MS),
            },
            now,
        )
        .await
        .map_err(api_error)?;
    Ok(Json(
        serde_json::json!({ "ceremony": id, "options": options }),
    ))
}

/// The one answer to a passkey that does not sign in (unknown, another
/// account's handle, a bad signature).
fn not_accepted() -> ApiError {
    ApiError::Unauthorized("this passkey was not accepted".into())
}

pub async fn sign_in_finish(
    State(app): Shared,
    headers: HeaderMap,
    ext: Extensions,
    req: Result<Json<Asserted>, JsonRejection>,
) -> Result<Response, ApiError> {
    let (accounts, passkeys) = passkeys(&app)?;
    csrf::check(&headers, &ext)?;
    let req = body(req)?;
    let now = app.now();
    let ip = client_ip(&ext);
    if accounts.failures_by_address.over(&ip, now) {
        return Err(too_many());
    }
    let ceremony = passkeys
        .store
        .take_ceremony(&req.ceremony, CeremonyKind::SignIn, now)
        .await
        .map_err(api_error)?
        .ok_or_else(gone)?;
    let state: DiscoverableAuthentication =
        serde_json::from_str(&ceremony.state).map_err(internal)?;
    // A failure counts against the address, and against the account
    // once the passkey names one, as a wrong password does.
    let fail = |user: Option<&str>| {
        accounts.failures_by_address.count(ip, now);
        if let Some(user) = user {
            accounts.failures_by_account.count(user.to_string(), now);
        }
        not_accepted()
    };
    let Ok((handle, credential)) = passkeys
        .webauthn
        .identify_discoverable_authentication(&req.credential)
    else {
        return Err(fail(None));
    };
    let Some(mut record) = passkeys
        .store
        .passkey(&credential_text(credential))
        .await
        .map_err(api_error)?
    else {
        return Err(fail(None));
    };
    if record.user_handle != handle.to_string() {
        return Err(fail(None));
    }
    if accounts.failures_by_account.over(&record.user_id, now) {
        return Err(too_many());
    }
    let mut key: Passkey = serde_json::from_str(&record.passkey).map_err(internal)?;
    let Ok(result) = passkeys.webauthn.finish_discoverable_authentication(
        &req.credential,
        state,
        &[DiscoverableKey::from(&key)],
    ) else {
        return Err(fail(Some(&record.user_id)));
    };
    if key.update_credential(&result) == Some(true) {
        record.passkey = serde_json::to_string(&key).map_err(internal)?;
    }
    passkeys
        .store
        .use_passkey(&record.id, &record.passkey, now)
        .await
        .map_err(api_error)?;
    let user = accounts
        .store
        .user(&record.user_id)
        .await
        .map_err(api_error)?
        .ok_or_else(not_accepted)?;
    tracing::info!(user = %user.id, passkey = %record.id, "signed in with a passkey");
    let cookies = start_session(&app, accounts, &user, &headers, &ext).await?;
    Ok(answer(
        StatusCode::OK,
        serde_json::to_value(AccountView::from(&user)).map_err(internal)?,
        cookies,
    ))
}
