//! Accounts: users with a password (Argon2id), server-side sessions (the
//! `sb_session` cookie), and the link from a browser's `sb_player` token
//! to its user, through which the games of a browser's seats become the
//! account's, and its seats follow the account to every browser signed in
//! to it. Playing needs no account: seats stay the browser's.
//!
//! - `name.rs`: which usernames are allowed;
//! - `password.rs`: hashing and verifying, off the async workers;
//! - `session.rs`: the session cookie;
//! - `limit.rs`: failed sign-ins and sign-ups counted per address and
//!   account;
//! - `seats.rs`: the seats a request holds (the account's, when signed
//!   in), the server's `seat::Holders`;
//! - `store.rs`: the tables, for SQLite and PostgreSQL;
//! - `http.rs`: the routes under `/api/account`;
//! - `passkey/`: passkeys (WebAuthn), their tables and routes.

pub(crate) mod http;
pub mod limit;
pub mod name;
pub mod passkey;
pub mod password;
pub(crate) mod seats;
pub mod session;
pub mod store;

pub use passkey::PasskeyStore;
pub use store::{AccountStore, SessionRecord, UserRecord};

use crate::clock::Clock;
use limit::Counter;
use std::net::IpAddr;
use std::sync::Arc;

/// The accounts' part of the server's state.
pub(crate) struct Accounts {
    pub(crate) store: Arc<dyn AccountStore>,
    pub(crate) hasher: password::Hasher,
    pub(crate) failures_by_address: Counter<IpAddr>,
    pub(crate) failures_by_account: Counter<String>,
    pub(crate) sign_ups: Counter<IpAddr>,
    /// The passkeys, where the server has a relying party for them.
    pub(crate) passkeys: Option<passkey::Passkeys>,
}

impl Accounts {
    pub(crate) fn new(store: Arc<dyn AccountStore>) -> Accounts {
        Accounts {
            store,
            hasher: password::Hasher::default(),
            failures_by_address: Counter::new(limit::SIGN_IN_FAILURES_PER_ADDRESS),
            failures_by_account: Counter::new(limit::SIGN_IN_FAILURES_PER_ACCOUNT),
            sign_ups: Counter::new(limit::SIGN_UPS_PER_ADDRESS),
            passkeys: None,
        }
    }

    /// These accounts with `passkeys` (None: without).
    pub(crate) fn with_passkeys(mut self, passkeys: Option<passkey::Passkeys>) -> Accounts {
        self.passkeys = passkeys;
        self
    }
}

/// The accounts domain's state: the accounts (None: the server has none)
/// and the clock.
pub struct AccountsState {
    pub(crate) accounts: Option<Accounts>,
    pub(crate) clock: Arc<dyn Clock>,
}

/// What the accounts' handlers (`State<AccountsCtx>`) hold.
pub type AccountsCtx = Arc<AccountsState>;

impl AccountsState {
    pub(crate) fn now(&self) -> i64 {
        self.clock.now_ms()
    }
}
