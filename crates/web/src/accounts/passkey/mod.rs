//! Passkeys: WebAuthn credentials (through `webauthn-rs`) that an account
//! adds from the account page and then signs in with alone (a
//! discoverable credential: no username typed).
//!
//! - `mod.rs` (here): the relying party (`Passkeys`, from the site's
//!   public URL) and the limits;
//! - `store.rs`: the tables of passkeys and of the ceremonies under way
//!   (in the database, so that a ceremony started on one server process
//!   finishes on another);
//! - `http.rs`: the routes under `/api/account/passkey`.

pub(crate) mod http;
pub mod store;

pub use store::{CeremonyKind, CeremonyRecord, PasskeyRecord, PasskeyStore};

use std::sync::Arc;
use webauthn_rs::prelude::{Url, Webauthn, WebauthnBuilder};

/// How long a ceremony may take between its start and its finish, in ms.
pub const CEREMONY_MS: i64 = 5 * 60_000;
/// The most passkeys an account has.
pub const MAX_PASSKEYS: usize = 20;
/// The longest name of a passkey, in characters.
pub const MAX_NAME_CHARS: usize = 100;

/// The relying party's name, shown by the browser's passkey dialogs.
const RP_NAME: &str = "Springboard";

/// Why passkeys are off on this server.
#[derive(Debug, thiserror::Error)]
pub enum RelyingPartyError {
    #[error("the public URL '{0}' is not a URL")]
    Url(String),
    #[error(
        "the public URL '{0}' has no domain name (a passkey's relying party \
         is a domain, not an address)"
    )]
    NoDomain(String),
    #[error("webauthn refused the relying party of '{url}': {reason}")]
    Webauthn { url: String, reason: String },
}

/// The passkeys' part of the accounts: the relying party and the store.
pub(crate) struct Passkeys {
    pub(crate) webauthn: Webauthn,
    pub(crate) store: Arc<dyn PasskeyStore>,
}

impl Passkeys {
    pub(crate) fn new(webauthn: Webauthn, store: Arc<dyn PasskeyStore>) -> Passkeys {
        Passkeys { webauthn, store }
    }
}

/// The passkeys over `store` with the relying party of `public_url`
/// ([`relying_party`]); None without a store, or (with a warning) where
/// the URL cannot be a relying party's.
pub(crate) fn passkeys_on(
    store: Option<Arc<dyn PasskeyStore>>,
    public_url: Option<&str>,
) -> Option<Passkeys> {
    let store = store?;
    match relying_party(public_url) {
        Ok(webauthn) => Some(Passkeys::new(webauthn, store)),
        Err(e) => {
            tracing::warn!(error = %e, "passkeys are off");
            None
        }
    }
}

/// The relying party of a site whose public URL is `public_url`: its id
/// is the URL's host, the one origin allowed is the URL's. None: any port
/// of `http://localhost` (tests, and a server built without a URL).
pub fn relying_party(public_url: Option<&str>) -> Result<Webauthn, RelyingPartyError> {
    let (url, any_port) = match public_url {
        Some(text) => (
            Url::parse(text.trim()).map_err(|_| RelyingPartyError::Url(text.to_string()))?,
            false,
        ),
        None => (
            Url::parse("http://localhost")
                .map_err(|_| RelyingPartyError::Url("localhost".into()))?,
            true,
        ),
    };
    let Some(domain) = url.domain() else {
        return Err(RelyingPartyError::NoDomain(url.to_string()));
    };
    let webauthn_error = |e: webauthn_rs::prelude::WebauthnError| RelyingPartyError::Webauthn {
        url: url.to_string(),
        reason: e.to_string(),
    };
    WebauthnBuilder::new(domain, &url)
        .map_err(webauthn_error)?
        .rp_name(RP_NAME)
        .allow_any_port(any_port)
        .build()
        .map_err(webauthn_error)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_relying_party_is_the_public_urls_host() {
        assert!(relying_party(Some("https://play.example.org")).is_ok());
        assert!(relying_party(Some("http://localhost:8080/")).is_ok());
        assert!(relying_party(None).is_ok());
        assert!(matches!(
            relying_party(Some("http://127.0.0.1:8080")),
            Err(RelyingPartyError::NoDomain(_))
        ));
        assert!(matches!(
            relying_party(Some("not a url")),
            Err(RelyingPartyError::Url(_))
        ));
    }
}
