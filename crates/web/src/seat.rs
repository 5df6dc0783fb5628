//! Seats and ids: public random game ids, the `sb_player` cookie that
//! identifies a browser, and its hash, the only thing stored; and who
//! holds which seats ([`Holder`], found by a [`Holders`]): the browser's
//! own seat, or, signed in, every seat of the account (`accounts/seats.rs`).

use crate::store::StoreError;
use async_trait::async_trait;
use axum::http::header::COOKIE;
use axum::http::HeaderMap;
use rand::RngExt;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

const ALPHABET: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/// The cookie's name.
pub const COOKIE_NAME: &str = "sb_player";
/// Length of a game id.
pub const ID_LEN: usize = 8;
/// Length of a player token: 24 base62 characters, about 143 bits.
pub const TOKEN_LEN: usize = 24;

/// `n` random base62 characters from the operating system's CSPRNG-seeded
/// thread generator.
pub fn random_base62(n: usize) -> String {
    let mut rng = rand::rng();
    (0..n)
        .map(|_| char::from(ALPHABET[rng.random_range(0..ALPHABET.len())]))
        .collect()
}

/// Length of a friend game's invitation token: 22 base62 characters,
/// about 131 bits.
pub const INVITE_LEN: usize = 22;

/// A new invitation token (the secret of a friend game's invitation link).
pub fn new_invite() -> String {
    random_base62(INVITE_LEN)
}

pub fn new_game_id() -> String {
    random_base62(ID_LEN)
}

/// Whether `text` has the shape of a game id (8 base62 characters).
pub fn is_game_id(text: &str) -> bool {
    text.len() == ID_LEN && text.bytes().all(|b| b.is_ascii_alphanumeric())
}

fn is_token(text: &str) -> bool {
    text.len() == TOKEN_LEN && text.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// SHA-256 of a token, in hex.
pub fn hash_token(token: &str) -> String {
    let digest = Sha256::digest(token.as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// The browser's token from its `sb_player` cookie, if it sent a
/// well-formed one.
pub fn token_from(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, v)| *k == COOKIE_NAME && is_token(v))
        .map(|(_, v)| v.to_string())
}

/// The `Set-Cookie` value for a new token.
pub fn set_cookie(token: &str) -> String {
    format!("{COOKIE_NAME}={token}; HttpOnly; SameSite=Lax; Path=/; Max-Age=31536000")
}

/// Whether the seat hash `seat` is the hash `hash` (constant time).
pub fn holds(seat: Option<&str>, hash: Option<&str>) -> bool {
    match (seat, hash) {
        (Some(s), Some(h)) => s.len() == h.len() && bool::from(s.as_bytes().ct_eq(h.as_bytes())),
        _ => false,
    }
}

/// The seats a request acts for, found once per request (or socket) by the
/// server's [`Holders`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Holder {
    /// The seat hash a seat this request takes gets (a new game's, a
    /// joined one's); None when the request has none of its own to use.
    pub seat: Option<String>,
    /// Every seat hash the request holds: the browser's own seat, or, when
    /// it is signed in, the seats of every browser of the account.
    pub held: Vec<String>,
    /// The account (its id) when the request is signed in.
    pub user: Option<String>,
    /// The `Set-Cookie` value of a new `sb_player` token given to the
    /// browser for [`Holder::seat`], to send with the answer.
    pub cookie: Option<String>,
}

impl Holder {
    /// A request that holds no seat.
    pub fn nobody() -> Holder {
        Holder::default()
    }

    /// The holder of the one seat hash `hash` (a browser without an
    /// account, or a server without accounts).
    pub fn browser(hash: String) -> Holder {
        Holder {
            seat: Some(hash.clone()),
            held: vec![hash],
            user: None,
            cookie: None,
        }
    }

    /// The holder of a new `sb_player` token, its cookie to send.
    pub fn new_browser() -> Holder {
        let token = random_base62(TOKEN_LEN);
        let mut h = Holder::browser(hash_token(&token));
        h.cookie = Some(set_cookie(&token));
        h
    }

    /// Whether the request holds seat `seat` (constant time per seat).
    pub fn holds(&self, seat: Option<&str>) -> bool {
        self.held.iter().any(|h| holds(seat, Some(h)))
    }
}

/// Finds the seats a request holds: the one place that decides whether a
/// request acts for a browser's seat or an account's (the games' routes
/// and the socket ask it; a token API would be another way in to the
/// same [`Holder`]). Which account holds a stored seat is
/// `AccountStore::player_owner`.
#[async_trait]
pub trait Holders: Send + Sync + 'static {
    /// The seats the request with `headers` holds. With `take`, a request
    /// that is to take a seat and has no seat of its own to use gets one
    /// (a new `sb_player` token, [`Holder::cookie`]).
    async fn holder(&self, headers: &HeaderMap, take: bool) -> Result<Holder, StoreError>;
}

/// The [`Holders`] of a server without accounts: a seat is the browser's
/// `sb_player` cookie, nothing else.
pub struct CookieSeats;

#[async_trait]
impl Holders for CookieSeats {
    async fn holder(&self, headers: &HeaderMap, take: bool) -> Result<Holder, StoreError> {
        Ok(match token_from(headers) {
            Some(t) => Holder::browser(hash_token(&t)),
            None if take => Holder::new_browser(),
            None => Holder::nobody(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    #[test]
    fn ids_and_tokens_are_random_base62() {
        let a = new_game_id();
        let b = new_game_id();
        assert!(is_game_id(&a) && is_game_id(&b));
        assert_ne!(a, b);
        let t = random_base62(TOKEN_LEN);
        assert!(is_token(&t));
        assert!(!is_game_id("abc"));
        assert!(!is_game_id("abcdefg/"));
    }

    #[test]
    fn the_cookie_is_read_only_when_well_formed() {
        let token = random_base62(TOKEN_LEN);
        let mut h = HeaderMap::new();
        h.insert(
            COOKIE,
            HeaderValue::from_str(&format!("x=1; sb_player={token}; y=2")).unwrap(),
        );
        assert_eq!(token_from(&h), Some(token.clone()));
        let mut bad = HeaderMap::new();
        bad.insert(COOKIE, HeaderValue::from_static("sb_player=short"));
        assert_eq!(token_from(&bad), None);
        assert_eq!(token_from(&HeaderMap::new()), None);
        let hash = hash_token(&token);
        assert_eq!(hash.len(), 64);
        assert!(holds(Some(&hash), Some(&hash)));
        assert!(!holds(Some(&hash), Some(&hash_token("other"))));
        assert!(!holds(None, Some(&hash)));
        assert!(!holds(Some(&hash), None));
    }
}
