//! The session cookie `sb_session`: a random token (only its SHA-256 is
//! stored, as the `sessions` row's id), `HttpOnly; SameSite=Lax; Path=/`,
//! and `Secure` when the request came over https. Every sign-in makes a
//! new token.

use super::store::{AccountStore, SessionRecord, UserRecord};
use crate::seat;
use crate::store::StoreError;
use axum::http::header::COOKIE;
use axum::http::HeaderMap;

pub const SESSION_COOKIE: &str = "sb_session";
/// Length of a session token: 32 base62 characters, about 190 bits.
pub const SESSION_TOKEN_LEN: usize = 32;
/// A session unused for this long is over (ms): 30 days.
pub const SESSION_IDLE_MS: i64 = 30 * 24 * 3_600_000;
/// A session is over this long after its sign-in, used or not (ms): one
/// year, the cookie's `Max-Age`.
pub const SESSION_MAX_MS: i64 = 365 * 24 * 3_600_000;
/// `last_seen` is written at most this often per session (ms).
pub const TOUCH_MS: i64 = 60_000;

/// A new session token.
pub fn new_token() -> String {
    seat::random_base62(SESSION_TOKEN_LEN)
}

/// The browser's session token, if it sent a well-formed one.
pub fn token_from(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, v)| {
            *k == SESSION_COOKIE
                && v.len() == SESSION_TOKEN_LEN
                && v.bytes().all(|b| b.is_ascii_alphanumeric())
        })
        .map(|(_, v)| v.to_string())
}

/// The session and user of the request's `sb_session` cookie at `now`;
/// None for no cookie, a forged or revoked one, or one that is over
/// (deleted then). A session's `last_seen` is written at most every
/// [`TOUCH_MS`].
pub(crate) async fn signed_in(
    store: &dyn AccountStore,
    headers: &HeaderMap,
    now: i64,
) -> Result<Option<(SessionRecord, UserRecord)>, StoreError> {
    let Some(token) = token_from(headers) else {
        return Ok(None);
    };
    let Some(s) = store.session(&seat::hash_token(&token)).await? else {
        return Ok(None);
    };
    if now.saturating_sub(s.last_seen) > SESSION_IDLE_MS
        || now.saturating_sub(s.created_at) > SESSION_MAX_MS
    {
        store.delete_session(&s.id).await?;
        return Ok(None);
    }
    let Some(user) = store.user(&s.user_id).await? else {
        return Ok(None);
    };
    if now.saturating_sub(s.last_seen) > TOUCH_MS {
        store.touch_session(&s.id, now).await?;
    }
    Ok(Some((s, user)))
}

/// The `Set-Cookie` value of a new session.
pub fn set_cookie(token: &str, https: bool) -> String {
    let secure = if https { "; Secure" } else { "" };
    format!(
        "{SESSION_COOKIE}={token}; HttpOnly; SameSite=Lax; Path=/; Max-Age={}{secure}",
        SESSION_MAX_MS / 1000
    )
}

/// The `Set-Cookie` value that removes the session cookie.
pub fn clear_cookie(https: bool) -> String {
    let secure = if https { "; Secure" } else { "" };
    format!("{SESSION_COOKIE}=; HttpOnly; SameSite=Lax; Path=/; Max-Age=0{secure}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    #[test]
    fn the_cookie_is_read_only_when_well_formed() {
        let t = new_token();
        assert_eq!(t.len(), SESSION_TOKEN_LEN);
        assert_ne!(t, new_token());
        let mut h = HeaderMap::new();
        h.insert(
            COOKIE,
            HeaderValue::from_str(&format!("sb_player=x; sb_session={t}")).unwrap(),
        );
        assert_eq!(token_from(&h), Some(t.clone()));
        h.insert(COOKIE, HeaderValue::from_static("sb_session=short"));
        assert_eq!(token_from(&h), None);
        assert!(set_cookie(&t, true).ends_with("; Secure"));
        assert!(!set_cookie(&t, false).contains("Secure"));
        assert!(clear_cookie(false).contains("Max-Age=0"));
    }
}
