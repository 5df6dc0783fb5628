//! The blocks' table (`migrations/*/0009_chat.sql`): the
//! [`RelationStore`] queries over each backend's pool, the same portable
//! statements for SQLite and PostgreSQL.

use crate::store::{PgStore, SqliteStore, StoreError};
use async_trait::async_trait;

/// Where blocks are kept.
#[async_trait]
pub trait RelationStore: Send + Sync + 'static {
    /// Account `blocker` blocks account `blocked` (again: nothing changes).
    async fn block(&self, blocker: &str, blocked: &str, now: i64) -> Result<(), StoreError>;

    /// Account `blocker` no longer blocks account `blocked`.
    async fn unblock(&self, blocker: &str, blocked: &str) -> Result<(), StoreError>;

    /// Whether account `blocker` blocks account `blocked`.
    async fn blocks(&self, blocker: &str, blocked: &str) -> Result<bool, StoreError>;

    /// The accounts `blocker` blocks, the latest first: id and name.
    async fn blocking(&self, blocker: &str) -> Result<Vec<(String, String)>, StoreError>;

    /// How many accounts `blocker` blocks.
    async fn blocked_count(&self, blocker: &str) -> Result<i64, StoreError>;
}

/// The [`RelationStore`] of a store type whose `pool()` is a sqlx pool;
/// one text for both backends.
macro_rules! relation_store {
    ($store:ty) => {
        #[async_trait]
        impl RelationStore for $store {
            async fn block(
                &self,
                blocker: &str,
                blocked: &str,
                now: i64,
            ) -> Result<(), StoreError> {
                sqlx::query(
                    "INSERT INTO blocks (blocker, blocked, created_at) VALUES ($1, $2, $3) \
                     ON CONFLICT (blocker, blocked) DO NOTHING",
                )
                .bind(blocker)
                .bind(blocked)
                .bind(now)
                .execute(self.pool())
                .await?;
                Ok(())
            }

            async fn unblock(&self, blocker: &str, blocked: &str) -> Result<(), StoreError> {
                sqlx::query("DELETE FROM blocks WHERE blocker = $1 AND blocked = $2")
                    .bind(blocker)
                    .bind(blocked)
                    .execute(self.pool())
                    .await?;
                Ok(())
            }

            async fn blocks(&self, blocker: &str, blocked: &str) -> Result<bool, StoreError> {
                let n: i64 = sqlx::query_scalar(
                    "SELECT COUNT(*) FROM blocks WHERE blocker = $1 AND blocked = $2",
                )
                .bind(blocker)
                .bind(blocked)
                .fetch_one(self.pool())
                .await?;
                Ok(n > 0)
            }

            async fn blocking(&self, blocker: &str) -> Result<Vec<(String, String)>, StoreError> {
                Ok(sqlx::query_as(
                    "SELECT b.blocked, u.name FROM blocks b JOIN users u ON u.id = b.blocked \
                     WHERE b.blocker = $1 ORDER BY b.created_at DESC, b.blocked",
                )
                .bind(blocker)
                .fetch_all(self.pool())
                .await?)
            }

            async fn blocked_count(&self, blocker: &str) -> Result<i64, StoreError> {
                Ok(
                    sqlx::query_scalar("SELECT COUNT(*) FROM blocks WHERE blocker = $1")
                        .bind(blocker)
                        .fetch_one(self.pool())
                        .await?,
                )
            }
        }
    };
}

relation_store!(SqliteStore);
relation_store!(PgStore);
