//! The accounts' tables (`migrations/*/0003_accounts.sql`): an
//! [`AccountStore`] trait and its implementation for both stores, the same
//! portable statements (`$1` placeholders) over each one's pool.

use crate::store::PgStore;
use crate::store::{is_unique_violation, SqliteStore, StoreError};
use async_trait::async_trait;
use sqlx::Row;

/// A user as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UserRecord {
    /// The name lower-cased.
    pub id: String,
    /// The name as typed at sign-up.
    pub name: String,
    /// Argon2id PHC string.
    pub password_hash: String,
    pub created_at: i64,
}

/// A session as stored: `id` is the SHA-256 (hex) of the cookie's token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionRecord {
    pub id: String,
    pub user_id: String,
    pub created_at: i64,
    pub last_seen: i64,
    pub user_agent: Option<String>,
}

/// Where users, sessions and the browsers' links to users are kept.
#[async_trait]
pub trait AccountStore: Send + Sync + 'static {
    /// Stores a new user; `Ok(false)` (nothing stored) when its id, the
    /// lower-cased name, is taken.
    async fn create_user(&self, user: &UserRecord) -> Result<bool, StoreError>;

    /// The user with id `id` (a lower-cased name), if any.
    async fn user(&self, id: &str) -> Result<Option<UserRecord>, StoreError>;

    /// Replaces the password hash of user `id` and deletes every one of its
    /// sessions, in one transaction.
    async fn set_password(&self, id: &str, hash: &str) -> Result<(), StoreError>;

    async fn create_session(&self, session: &SessionRecord) -> Result<(), StoreError>;

    /// The session whose token hashes to `id`, if any.
    async fn session(&self, id: &str) -> Result<Option<SessionRecord>, StoreError>;

    /// Records that session `id` was used at `now`.
    async fn touch_session(&self, id: &str, now: i64) -> Result<(), StoreError>;

    async fn delete_session(&self, id: &str) -> Result<(), StoreError>;

    /// Deletes every session of user `user`; how many there were.
    async fn delete_sessions(&self, user: &str) -> Result<u64, StoreError>;

    /// Links the browser whose `sb_player` token hashes to `player` to user
    /// `user`, unless it belongs to a user already; the user it belongs to
    /// now.
    async fn link_player(&self, player: &str, user: &str, now: i64) -> Result<String, StoreError>;

    /// The ids of up to `limit` games with a seat held by a browser of
    /// user `user`, the most recently changed first.
    async fn games_of(&self, user: &str, limit: i64) -> Result<Vec<String>, StoreError>;

    /// The user that the browser whose `sb_player` token hashes to
    /// `player` belongs to, if any.
    async fn player_owner(&self, player: &str) -> Result<Option<String>, StoreError>;

    /// The hashes of the `sb_player` tokens of every browser of user
    /// `user`: the seats the account holds.
    async fn players_of(&self, user: &str) -> Result<Vec<String>, StoreError>;
}

const USER: &str = "SELECT id, name, password_hash, created_at FROM users WHERE id = $1";
const SESSION: &str =
    "SELECT id, user_id, created_at, last_seen, user_agent FROM sessions WHERE id = $1";
const GAMES_OF: &str = "SELECT id FROM games \
    WHERE white_seat IN (SELECT player FROM player_users WHERE user_id = $1) \
    OR black_seat IN (SELECT player FROM player_users WHERE user_id = $1) \
    ORDER BY updated_at DESC, id LIMIT $2";

/// The [`AccountStore`] implementation of a store type whose `pool()` is a
/// sqlx pool; one text for SQLite and PostgreSQL.
macro_rules! account_store {
    ($store:ty) => {
        #[async_trait]
        impl AccountStore for $store {
            async fn create_user(&self, user: &UserRecord) -> Result<bool, StoreError> {
                let done = sqlx::query(
                    "INSERT INTO users (id, name, password_hash, created_at) \
                     VALUES ($1, $2, $3, $4)",
                )
                .bind(&user.id)
                .bind(&user.name)
                .bind(&user.password_hash)
                .bind(user.created_at)
                .execute(self.pool())
                .await;
                match done {
                    Ok(_) => Ok(true),
                    Err(e) if is_unique_violation(&e) => Ok(false),
                    Err(e) => Err(e.into()),
                }
            }

            async fn user(&self, id: &str) -> Result<Option<UserRecord>, StoreError> {
                let row = sqlx::query(USER)
                    .bind(id)
                    .fetch_optional(self.pool())
                    .await?;
                row.map(|r| {
                    Ok(UserRecord {
                        id: r.try_get("id")?,
                        name: r.try_get("name")?,
                        password_hash: r.try_get("password_hash")?,
                        created_at: r.try_get("created_at")?,
                    })
                })
                .transpose()
            }

            async fn set_password(&self, id: &str, hash: &str) -> Result<(), StoreError> {
                let mut tx = self.pool().begin().await?;
                sqlx::query("UPDATE users SET password_hash = $2 WHERE id = $1")
                    .bind(id)
                    .bind(hash)
                    .execute(&mut *tx)
                    .await?;
                sqlx::query("DELETE FROM sessions WHERE user_id = $1")
                    .bind(id)
                    .execute(&mut *tx)
                    .await?;
                tx.commit().await?;
                Ok(())
            }

            async fn create_session(&self, s: &SessionRecord) -> Result<(), StoreError> {
                sqlx::query(
                    "INSERT INTO sessions (id, user_id, created_at, last_seen, user_agent) \
                     VALUES ($1, $2, $3, $4, $5)",
                )
                .bind(&s.id)
                .bind(&s.user_id)
                .bind(s.created_at)
                .bind(s.last_seen)
                .bind(&s.user_agent)
                .execute(self.pool())
                .await?;
                Ok(())
            }

            async fn session(&self, id: &str) -> Result<Option<SessionRecord>, StoreError> {
                let row = sqlx::query(SESSION)
                    .bind(id)
                    .fetch_optional(self.pool())
                    .await?;
                row.map(|r| {
                    Ok(SessionRecord {
                        id: r.try_get("id")?,
                        user_id: r.try_get("user_id")?,
                        created_at: r.try_get("created_at")?,
                        last_seen: r.try_get("last_seen")?,
                        user_agent: r.try_get("user_agent")?,
                    })
                })
                .transpose()
            }

            async fn touch_session(&self, id: &str, now: i64) -> Result<(), StoreError> {
                sqlx::query("UPDATE sessions SET last_seen = $2 WHERE id = $1")
                    .bind(id)
                    .bind(now)
                    .execute(self.pool())
                    .await?;
                Ok(())
            }

            async fn delete_session(&self, id: &str) -> Result<(), StoreError> {
                sqlx::query("DELETE FROM sessions WHERE id = $1")
                    .bind(id)
                    .execute(self.pool())
                    .await?;
                Ok(())
            }

            async fn delete_sessions(&self, user: &str) -> Result<u64, StoreError> {
                let done = sqlx::query("DELETE FROM sessions WHERE user_id = $1")
                    .bind(user)
                    .execute(self.pool())
                    .await?;
                Ok(done.rows_affected())
            }

            async fn link_player(
                &self,
                player: &str,
                user: &str,
                now: i64,
            ) -> Result<String, StoreError> {
                sqlx::query(
                    "INSERT INTO player_users (player, user_id, linked_at) \
                     VALUES ($1, $2, $3) ON CONFLICT (player) DO NOTHING",
                )
                .bind(player)
                .bind(user)
                .bind(now)
                .execute(self.pool())
                .await?;
                let owner: String =
                    sqlx::query_scalar("SELECT user_id FROM player_users WHERE player = $1")
                        .bind(player)
                        .fetch_one(self.pool())
                        .await?;
                Ok(owner)
            }

            async fn player_owner(&self, player: &str) -> Result<Option<String>, StoreError> {
                let owner: Option<String> =
                    sqlx::query_scalar("SELECT user_id FROM player_users WHERE player = $1")
                        .bind(player)
                        .fetch_optional(self.pool())
                        .await?;
                Ok(owner)
            }

            async fn players_of(&self, user: &str) -> Result<Vec<String>, StoreError> {
                let players: Vec<String> =
                    sqlx::query_scalar("SELECT player FROM player_users WHERE user_id = $1")
                        .bind(user)
                        .fetch_all(self.pool())
                        .await?;
                Ok(players)
            }

            async fn games_of(&self, user: &str, limit: i64) -> Result<Vec<String>, StoreError> {
                let ids: Vec<String> = sqlx::query_scalar(GAMES_OF)
                    .bind(user)
                    .bind(limit)
                    .fetch_all(self.pool())
                    .await?;
                Ok(ids)
            }
        }
    };
}

account_store!(SqliteStore);
account_store!(PgStore);
