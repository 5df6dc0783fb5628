//! The notifications' routes (all under `/api/notify`; every one but the
//! email links needs a signed-in account, and reads or changes only its
//! own notifications):
//!
//! - `GET /api/notify`: `{"unread": N, "notifications": [...]}`, the
//!   newest first (at most [`super::LIST_LIMIT`]);
//! - `GET /api/notify/unread`: `{"unread": N}`;
//! - `POST /api/notify/{id}/read`, `POST /api/notify/read-all`;
//! - `GET /api/notify/socket`: the live count and new notifications;
//! - `GET /api/notify/email`, `POST /api/notify/email` (`{"address"}`),
//!   `POST /api/notify/email/kinds` (`{"kinds": [...]}`),
//!   `DELETE /api/notify/email`;
//! - `GET /api/notify/email/confirm/{token}`,
//!   `GET /api/notify/email/unsubscribe/{token}` (the emails' links, no
//!   sign-in: the token is the proof).

use super::hub;
use super::store::EmailRecord;
use super::view::view;
use super::{mail, Kind, Notify, NotifyCtx, LIST_LIMIT};
use crate::error::ApiError;
use crate::extract::body;
use crate::outage::api_error;
use axum::extract::rejection::JsonRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{FromRef, Path, State};
use axum::http::{Extensions, HeaderMap};
use axum::response::Response;
use axum::routing::{get, post};
use axum::{Json, Router};
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Arc;

type Shared = State<NotifyCtx>;

/// The longest email address accepted (RFC 5321's path limit).
pub const MAX_ADDRESS: usize = 254;

pub(crate) fn routes<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    NotifyCtx: FromRef<S>,
{
    Router::new()
        .route("/api/notify", get(list))
        .route("/api/notify/unread", get(unread))
        .route("/api/notify/read-all", post(read_all))
        .route("/api/notify/{id}/read", post(read_one))
        .route("/api/notify/socket", get(socket))
        .route(
            "/api/notify/email",
            get(email).post(set_email).delete(remove_email),
        )
        .route("/api/notify/email/kinds", post(set_kinds))
        .route("/api/notify/email/confirm/{token}", get(confirm))
        .route("/api/notify/email/unsubscribe/{token}", get(unsubscribe))
}

/// The signed-in account's id, or a 401.
async fn user(notify: &Notify, headers: &HeaderMap) -> Result<String, ApiError> {
    crate::accounts::http::signed_in(&notify.accounts, headers)
        .await?
        .map(|(_, u)| u.id)
        .ok_or_else(|| ApiError::Unauthorized("not signed in".into()))
}

async fn list(State(ctx): Shared, headers: HeaderMap) -> Result<Json<Value>, ApiError> {
    let notify = ctx.get()?;
    let user = user(notify, &headers).await?;
    let list = notify
        .store
        .list(&user, LIST_LIMIT)
        .await
        .map_err(api_error)?;
    let unread = notify.store.unread(&user).await.map_err(api_error)?;
    Ok(Json(json!({
        "unread": unread,
        "notifications": list.iter().map(view).collect::<Vec<_>>(),
    })))
}

async fn unread(State(ctx): Shared, headers: HeaderMap) -> Result<Json<Value>, ApiError> {
    let notify = ctx.get()?;
    let user = user(notify, &headers).await?;
    let unread = notify.store.unread(&user).await.map_err(api_error)?;
    Ok(Json(json!({ "unread": unread })))
}

async fn read_one(
    State(ctx): Shared,
    headers: HeaderMap,
    ext: Extensions,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    crate::csrf::check(&headers, &ext)?;
    let notify = ctx.get()?;
    let user = user(notify, &headers).await?;
    // Another account's notification is answered as one that does not exist.
    if !notify
        .store
        .mark_read(&user, &id)
        .await
        .map_err(api_error)?
    {
        return Err(ApiError::NotFound("no such notification".into()));
    }
    hub::tell(notify, &user, None).await;
    let unread = notify.store.unread(&user).await.map_err(api_error)?;
    Ok(Json(json!({ "unread": unread })))
}

async fn read_all(
    State(ctx): Shared,
    headers: HeaderMap,
    ext: Extensions,
) -> Result<Json<Value>, ApiError> {
    crate::csrf::check(&headers, &ext)?;
    let notify = ctx.get()?;
    let user = user(notify, &headers).await?;
    let marked = notify.store.mark_all_read(&user).await.map_err(api_error)?;
    hub::tell(notify, &user, None).await;
    Ok(Json(json!({ "marked": marked, "unread": 0 })))
}

async fn socket(
    State(ctx): Shared,
    headers: HeaderMap,
    ext: Extensions,
    upgrade: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    crate::csrf::check(&headers, &ext)?;
    let notify = ctx.get()?.clone();
    let user = user(&notify, &headers).await?;
    Ok(upgrade
        .max_message_size(1024)
        .max_frame_size(1024)
        .on_upgrade(move |s| run(notify, user, s)))
}

async fn run(notify: Arc<Notify>, user: String, socket: WebSocket) {
    let (mut tx, mut rx) = socket.split();
    let mut events = notify.hub.join(&user);
    notify.online.opened(&user);
    let first = match notify.store.unread(&user).await {
        Ok(n) => json!({"t": "unread", "unread": n}),
        Err(_) => json!({"t": "unread", "unread": null}),
    };
    if tx
        .send(Message::Text(first.to_string().into()))
        .await
        .is_ok()
    {
        loop {
            tokio::select! {
                ev = events.recv() => match ev {
                    Ok(text) => {
                        if tx.send(Message::Text(text.to_string().into())).await.is_err() {
                            break;
                        }
                    }
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => continue,
                    Err(_) => break,
                },
                msg = rx.next() => match msg {
                    Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break,
                    Some(Ok(_)) => {}
                },
            }
        }
    }
    drop(events);
    notify.hub.leave();
    notify.online.closed(&user);
}

fn email_view(notify: &Notify, e: Option<&EmailRecord>) -> Value {
    json!({
        "enabled": notify.mail.is_some(),
        "address": e.map(|e| e.address.clone()),
        "confirmed": e.is_some_and(|e| e.confirmed),
        "kinds": e.map_or_else(Vec::new, |e| e.kinds.clone()),
        "all_kinds": Kind::ALL.iter().map(|k| k.as_str()).collect::<Vec<_>>(),
    })
}

async fn email(State(ctx): Shared, headers: HeaderMap) -> Result<Json<Value>, ApiError> {
    let notify = ctx.get()?;
    let user = user(notify, &headers).await?;
    let e = notify.store.email(&user).await.map_err(api_error)?;
    Ok(Json(email_view(notify, e.as_ref())))
}

#[derive(Deserialize)]
pub struct SetEmail {
    address: String,
}

fn mailer(notify: &Notify) -> Result<&mail::Mailer, ApiError> {
    notify.mail.as_ref().ok_or_else(|| {
        ApiError::Conflict("email is off on this server (it was started without --smtp)".into())
    })
}

async fn set_email(
    State(ctx): Shared,
    headers: HeaderMap,
    ext: Extensions,
    req: Result<Json<SetEmail>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    crate::csrf::check(&headers, &ext)?;
    let notify = ctx.get()?;
    let user = user(notify, &headers).await?;
    let mailer = mailer(notify)?;
    let req = body(req)?;
    let address = req.address.trim().to_string();
    if address.len() > MAX_ADDRESS || address.parse::<lettre::Address>().is_err() {
        return Err(ApiError::BadRequest(format!(
            "not an email address (at most {MAX_ADDRESS} characters, name@domain)"
        )));
    }
    let rec = EmailRecord {
        user_id: user.clone(),
        address: address.clone(),
        confirmed: false,
        kinds: Kind::ALL.iter().map(|k| k.as_str().to_string()).collect(),
    };
    notify
        .store
        .set_email(&rec, notify.now())
        .await
        .map_err(api_error)?;
    mail::confirmation(notify, mailer, &user, &address)
        .await
        .map_err(api_error)?;
    Ok(Json(email_view(notify, Some(&rec))))
}

#[derive(Deserialize)]
pub struct SetKinds {
    kinds: Vec<String>,
}

async fn set_kinds(
    State(ctx): Shared,
    headers: HeaderMap,
    ext: Extensions,
    req: Result<Json<SetKinds>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    crate::csrf::check(&headers, &ext)?;
    let notify = ctx.get()?;
    let user = user(notify, &headers).await?;
    let req = body(req)?;
    let mut kinds = Vec::new();
    for k in &req.kinds {
        let kind = Kind::parse(k).ok_or_else(|| {
            ApiError::BadRequest(
                "unknown kind: expected your_turn, challenge or game_ended".to_string(),
            )
        })?;
        if !kinds.contains(&kind.as_str().to_string()) {
            kinds.push(kind.as_str().to_string());
        }
    }
    let Some(mut e) = notify.store.email(&user).await.map_err(api_error)? else {
        return Err(ApiError::NotFound("no email address: add one first".into()));
    };
    notify
        .store
        .set_kinds(&user, &kinds, notify.now())
        .await
        .map_err(api_error)?;
    e.kinds = kinds;
    Ok(Json(email_view(notify, Some(&e))))
}

async fn remove_email(
    State(ctx): Shared,
    headers: HeaderMap,
    ext: Extensions,
) -> Result<Json<Value>, ApiError> {
    crate::csrf::check(&headers, &ext)?;
    let notify = ctx.get()?;
    let user = user(notify, &headers).await?;
    notify.store.remove_email(&user).await.map_err(api_error)?;
    Ok(Json(email_view(notify, None)))
}

/// The token of a link: taken (it works once), and refused when forged,
/// used or expired.
async fn take(
    notify: &Notify,
    token: &str,
    purpose: &str,
) -> Result<super::store::TokenRecord, ApiError> {
    let refused =
        || ApiError::NotFound("this link is not valid (mistyped, or already used)".into());
    if !mail::is_token(token) {
        return Err(refused());
    }
    let hash = crate::seat::hash_token(token);
    let t = notify
        .store
        .take_token(&hash, purpose)
        .await
        .map_err(api_error)?
        .ok_or_else(refused)?;
    if t.expires_at < notify.now() {
        return Err(ApiError::Forbidden("this link has expired".into()));
    }
    Ok(t)
}

async fn confirm(State(ctx): Shared, Path(token): Path<String>) -> Result<Json<Value>, ApiError> {
    let notify = ctx.get()?;
    let t = take(notify, &token, "confirm").await?;
    if !notify
        .store
        .confirm_email(&t.user_id, &t.address)
        .await
        .map_err(api_error)?
    {
        return Err(ApiError::Conflict(
            "this address is no longer the account's: nothing was confirmed".into(),
        ));
    }
    Ok(Json(json!({
        "confirmed": t.address,
        "message": format!("The address {} is confirmed: notifications will be sent to it.", t.address),
    })))
}

async fn unsubscribe(
    State(ctx): Shared,
    Path(token): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let notify = ctx.get()?;
    let t = take(notify, &token, "unsubscribe").await?;
    let e = notify.store.email(&t.user_id).await.map_err(api_error)?;
    let Some(e) = e.filter(|e| e.address == t.address) else {
        return Ok(Json(json!({
            "unsubscribed": t.kind,
            "message": "This address no longer gets any email from Springboard.",
        })));
    };
    let kinds: Vec<String> = e
        .kinds
        .iter()
        .filter(|k| Some(k.as_str()) != t.kind.as_deref())
        .cloned()
        .collect();
    notify
        .store
        .set_kinds(&t.user_id, &kinds, notify.now())
        .await
        .map_err(api_error)?;
    let words = t
        .kind
        .as_deref()
        .and_then(Kind::parse)
        .map_or("these", Kind::words);
    Ok(Json(json!({
        "unsubscribed": t.kind,
        "message": format!("Unsubscribed: {} gets no more emails of {words}.", t.address),
    })))
}
