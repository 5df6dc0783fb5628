//! Relations between accounts: blocks (issue 42, item 7). An account
//! blocks another; between the two no personal challenge is posted and no
//! open challenge accepted, either way (the lobby asks `RelationState::between`),
//! and the blocker is shown no chat line of the blocked (the chat asks
//! `RelationState::blocking`).
//!
//! - `store.rs`: the table (`migrations/*/0009_chat.sql`, `blocks`) and
//!   its [`RelationStore`] queries for SQLite and PostgreSQL;
//! - `http.rs`: the routes under `/api/rel` (block, unblock, the list).
//!
//! It sits just above the accounts (who is signed in, whether a name is an
//! account) and below the lobby and the chat, which use it.

pub(crate) mod http;
pub mod store;

pub use store::RelationStore;

use crate::accounts::AccountsCtx;
use crate::error::ApiError;
use crate::outage::api_error;
use std::collections::HashSet;
use std::sync::Arc;

/// The most accounts one account blocks.
pub const MAX_BLOCKS: i64 = 500;

/// The relations' part of the server.
pub struct RelationState {
    /// Where blocks are kept; None: the server has no accounts, nobody
    /// blocks anybody and `/api/rel/...` answers 404.
    pub(crate) store: Option<Arc<dyn RelationStore>>,
    pub(crate) accounts: AccountsCtx,
}

/// What the relations' handlers (`State<RelationCtx>`) hold.
pub type RelationCtx = Arc<RelationState>;

impl RelationState {
    /// Whether account `a` blocks account `b` or `b` blocks `a`.
    pub(crate) async fn between(&self, a: &str, b: &str) -> Result<bool, ApiError> {
        let Some(store) = &self.store else {
            return Ok(false);
        };
        Ok(store.blocks(a, b).await.map_err(api_error)?
            || store.blocks(b, a).await.map_err(api_error)?)
    }

    /// The accounts `user` blocks (their ids).
    pub(crate) async fn blocking(&self, user: &str) -> Result<HashSet<String>, ApiError> {
        let Some(store) = &self.store else {
            return Ok(HashSet::new());
        };
        Ok(store
            .blocking(user)
            .await
            .map_err(api_error)?
            .into_iter()
            .map(|(id, _)| id)
            .collect())
    }

    /// Whether account `blocker` blocks account `blocked`.
    pub(crate) async fn blocks(&self, blocker: &str, blocked: &str) -> Result<bool, ApiError> {
        match &self.store {
            Some(store) => store.blocks(blocker, blocked).await.map_err(api_error),
            None => Ok(false),
        }
    }
}
