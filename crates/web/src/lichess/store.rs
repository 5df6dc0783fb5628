//! The personal API tokens' table (`migrations/*/0010_api_tokens.sql`): a
//! [`TokenStore`] trait and its implementation for both stores, the same
//! portable statements over each one's pool.

use crate::store::{PgStore, SqliteStore, StoreError};
use async_trait::async_trait;
use sqlx::Row;

/// A token as stored: `hash` is the SHA-256 (hex) of the token itself,
/// which is shown once and never kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenRecord {
    /// The public id (the account page lists and revokes by it).
    pub id: String,
    pub hash: String,
    /// The account (its lower-cased name).
    pub user_id: String,
    /// The seat hash (a browser of the account in `player_users`) that
    /// the token's requests take seats with.
    pub seat: String,
    pub description: String,
    pub created_at: i64,
    pub last_used: Option<i64>,
}

/// Where the tokens are kept.
#[async_trait]
pub trait TokenStore: Send + Sync + 'static {
    async fn insert_token(&self, token: &TokenRecord) -> Result<(), StoreError>;

    /// The token whose hash is `hash`, if it exists (not revoked).
    async fn token_by_hash(&self, hash: &str) -> Result<Option<TokenRecord>, StoreError>;

    /// The tokens of account `user`, the newest first.
    async fn tokens_of(&self, user: &str) -> Result<Vec<TokenRecord>, StoreError>;

    /// Revokes (deletes) token `id` of account `user`; whether it was
    /// there.
    async fn revoke_token(&self, user: &str, id: &str) -> Result<bool, StoreError>;

    /// Records that token `id` was used at `now`.
    async fn touch_token(&self, id: &str, now: i64) -> Result<(), StoreError>;
}

const COLUMNS: &str = "id, hash, user_id, seat, description, created_at, last_used";

/// A row of `api_tokens` as a [`TokenRecord`] (either backend's row).
macro_rules! read_token {
    ($r:expr) => {
        TokenRecord {
            id: $r.try_get("id")?,
            hash: $r.try_get("hash")?,
            user_id: $r.try_get("user_id")?,
            seat: $r.try_get("seat")?,
            description: $r.try_get("description")?,
            created_at: $r.try_get("created_at")?,
            last_used: $r.try_get("last_used")?,
        }
    };
}

/// The [`TokenStore`] implementation of a store type whose `pool()` is a
/// sqlx pool; one text for SQLite and PostgreSQL.
macro_rules! token_store {
    ($store:ty) => {
        #[async_trait]
        impl TokenStore for $store {
            async fn insert_token(&self, t: &TokenRecord) -> Result<(), StoreError> {
                sqlx::query(
                    "INSERT INTO api_tokens \
                     (id, hash, user_id, seat, description, created_at, last_used) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7)",
                )
                .bind(&t.id)
                .bind(&t.hash)
                .bind(&t.user_id)
                .bind(&t.seat)
                .bind(&t.description)
                .bind(t.created_at)
                .bind(t.last_used)
                .execute(self.pool())
                .await?;
                Ok(())
            }

            async fn token_by_hash(&self, hash: &str) -> Result<Option<TokenRecord>, StoreError> {
                let row = sqlx::query(&format!("SELECT {COLUMNS} FROM api_tokens WHERE hash = $1"))
                    .bind(hash)
                    .fetch_optional(self.pool())
                    .await?;
                match row {
                    Some(r) => Ok(Some(read_token!(r))),
                    None => Ok(None),
                }
            }

            async fn tokens_of(&self, user: &str) -> Result<Vec<TokenRecord>, StoreError> {
                let rows = sqlx::query(&format!(
                    "SELECT {COLUMNS} FROM api_tokens WHERE user_id = $1 \
                     ORDER BY created_at DESC, id"
                ))
                .bind(user)
                .fetch_all(self.pool())
                .await?;
                let mut out = Vec::with_capacity(rows.len());
                for r in rows {
                    out.push(read_token!(r));
                }
                Ok(out)
            }

            async fn revoke_token(&self, user: &str, id: &str) -> Result<bool, StoreError> {
                let done = sqlx::query("DELETE FROM api_tokens WHERE id = $1 AND user_id = $2")
                    .bind(id)
                    .bind(user)
                    .execute(self.pool())
                    .await?;
                Ok(done.rows_affected() > 0)
            }

            async fn touch_token(&self, id: &str, now: i64) -> Result<(), StoreError> {
                sqlx::query("UPDATE api_tokens SET last_used = $2 WHERE id = $1")
                    .bind(id)
                    .bind(now)
                    .execute(self.pool())
                    .await?;
                Ok(())
            }
        }
    };
}

token_store!(SqliteStore);
token_store!(PgStore);
