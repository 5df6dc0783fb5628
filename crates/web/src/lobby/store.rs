//! The lobby's table (`migrations/*/0006_lobby.sql`): the
//! [`LobbyStore`] queries over each backend's pool, the same portable
//! statements for SQLite and PostgreSQL, and the lobby's change notices
//! between server processes (PostgreSQL's NOTIFY on [`CHANNEL`]).
//!
//! Accepting is [`LobbyStore::claim`]: one `DELETE ... RETURNING` of the
//! row, so of two accepts at once exactly one gets the challenge.

use super::ChallengeHook;
use crate::store::{PgStore, SqliteStore, StoreError, StoreTx};
use async_trait::async_trait;
use sqlx::postgres::PgListener;
use sqlx::Row;
use std::time::Duration;
use tokio::sync::mpsc;

/// The NOTIFY channel of the lobby's changes.
pub const CHANNEL: &str = "springboard_lobby";

/// A challenge as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChallengeRecord {
    pub id: String,
    /// The author's seat (browser cookie hash).
    pub author_seat: String,
    /// The author's account id and name (None: anonymous).
    pub author_user: Option<String>,
    pub author_name: Option<String>,
    /// A personal challenge's challenged account id and name.
    pub target_user: Option<String>,
    pub target_name: Option<String>,
    pub variant: String,
    pub clock_initial_ms: Option<i64>,
    pub clock_increment_ms: Option<i64>,
    /// A correspondence game's time control (its clock is the fields
    /// above, in ms).
    pub correspondence: Option<crate::store::corr::Correspondence>,
    /// `white`, `black` or `random`: the author's colour.
    pub color: String,
    pub rated: bool,
    pub min_rating: Option<i64>,
    pub max_rating: Option<i64>,
    /// The server process holding it.
    pub process: String,
    pub created_at: i64,
    /// The new game's start position (a position text the rules core
    /// read); None for the game's usual start.
    pub start_fen: Option<String>,
}

/// Where the challenges are kept.
#[async_trait]
pub trait LobbyStore: Send + Sync + 'static {
    /// Stores `c`, and runs `hook` (if any) in the same transaction: both
    /// are kept or neither.
    async fn insert_challenge(
        &self,
        c: &ChallengeRecord,
        hook: Option<&dyn ChallengeHook>,
    ) -> Result<(), StoreError>;

    async fn challenge(&self, id: &str) -> Result<Option<ChallengeRecord>, StoreError>;

    /// Every challenge, the oldest first.
    async fn challenges(&self) -> Result<Vec<ChallengeRecord>, StoreError>;

    /// How many challenges the author with seat `seat` (or account `user`)
    /// has open.
    async fn open_by(&self, seat: &str, user: Option<&str>) -> Result<i64, StoreError>;

    /// Deletes challenge `id` and answers it, if it is still there: the
    /// one winner of an accept, a cancel or a decline.
    async fn claim(&self, id: &str) -> Result<Option<ChallengeRecord>, StoreError>;

    /// Deletes the challenges of the authors with seats `seats` held by
    /// process `process`; how many.
    async fn withdraw(&self, seats: &[String], process: &str) -> Result<u64, StoreError>;

    /// Moves the challenges of the authors with seats `seats` to process
    /// `process` (their author's socket is there now).
    async fn adopt(&self, seats: &[String], process: &str) -> Result<(), StoreError>;

    /// Deletes the challenges of the processes other than `process` with
    /// no heartbeat at or after `since`; how many.
    async fn withdraw_dead(&self, process: &str, since: i64) -> Result<u64, StoreError>;

    /// Tells every process that the lobby changed (`payload`: a JSON
    /// text); a store with one process does nothing.
    async fn notify(&self, _payload: &str) -> Result<(), StoreError> {
        Ok(())
    }

    /// The lobby notices of every process (this one's too); None for a
    /// store with one process.
    async fn listen(&self) -> Result<Option<mpsc::UnboundedReceiver<Option<String>>>, StoreError> {
        Ok(None)
    }
}

const COLUMNS: &str = "id, author_seat, author_user, author_name, target_user, target_name, \
    variant, clock_initial_ms, clock_increment_ms, color, rated, min_rating, max_rating, \
    process, created_at, correspondence, start_fen";

/// The [`LobbyStore`] queries of a store type whose `pool()` is a sqlx
/// pool and whose rows are `$row`; one text for both backends.
macro_rules! lobby_queries {
    ($store:ty, $row:ty, $tx:ident) => {
        fn record(row: &$row) -> Result<ChallengeRecord, sqlx::Error> {
            Ok(ChallengeRecord {
                id: row.try_get("id")?,
                author_seat: row.try_get("author_seat")?,
                author_user: row.try_get("author_user")?,
                author_name: row.try_get("author_name")?,
                target_user: row.try_get("target_user")?,
                target_name: row.try_get("target_name")?,
                variant: row.try_get("variant")?,
                clock_initial_ms: row.try_get("clock_initial_ms")?,
                clock_increment_ms: row.try_get("clock_increment_ms")?,
                correspondence: row
                    .try_get::<Option<String>, _>("correspondence")?
                    .map(|t| crate::store::corr::Correspondence::from_text(&t))
                    .transpose()
                    .map_err(|e| sqlx::Error::Decode(Box::new(e)))?,
                color: row.try_get("color")?,
                rated: row.try_get("rated")?,
                min_rating: row.try_get("min_rating")?,
                max_rating: row.try_get("max_rating")?,
                process: row.try_get("process")?,
                created_at: row.try_get("created_at")?,
                start_fen: row.try_get("start_fen")?,
            })
        }

        impl $store {
            async fn insert_row(
                &self,
                c: &ChallengeRecord,
                hook: Option<&dyn ChallengeHook>,
            ) -> Result<(), StoreError> {
                let mut tx = self.pool().begin().await?;
                sqlx::query(&format!(
                    "INSERT INTO challenges ({COLUMNS}) VALUES \
                     ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)"
                ))
                .bind(&c.id)
                .bind(&c.author_seat)
                .bind(&c.author_user)
                .bind(&c.author_name)
                .bind(&c.target_user)
                .bind(&c.target_name)
                .bind(&c.variant)
                .bind(c.clock_initial_ms)
                .bind(c.clock_increment_ms)
                .bind(&c.color)
                .bind(c.rated)
                .bind(c.min_rating)
                .bind(c.max_rating)
                .bind(&c.process)
                .bind(c.created_at)
                .bind(c.correspondence.map(|c| c.text()))
                .bind(&c.start_fen)
                .execute(&mut *tx)
                .await?;
                // Dropped without a commit, the transaction rolls back.
                if let Some(hook) = hook {
                    hook.on_personal(&mut StoreTx::$tx(&mut tx), c).await?;
                }
                tx.commit().await?;
                Ok(())
            }

            async fn one(&self, id: &str) -> Result<Option<ChallengeRecord>, StoreError> {
                let row = sqlx::query(&format!("SELECT {COLUMNS} FROM challenges WHERE id = $1"))
                    .bind(id)
                    .fetch_optional(self.pool())
                    .await?;
                Ok(row.as_ref().map(record).transpose()?)
            }

            async fn all(&self) -> Result<Vec<ChallengeRecord>, StoreError> {
                let rows = sqlx::query(&format!(
                    "SELECT {COLUMNS} FROM challenges ORDER BY created_at, id"
                ))
                .fetch_all(self.pool())
                .await?;
                Ok(rows.iter().map(record).collect::<Result<_, _>>()?)
            }

            async fn count_by(&self, seat: &str, user: Option<&str>) -> Result<i64, StoreError> {
                Ok(sqlx::query_scalar(
                    "SELECT COUNT(*) FROM challenges WHERE author_seat = $1 \
                     OR (author_user IS NOT NULL AND author_user = $2)",
                )
                .bind(seat)
                .bind(user)
                .fetch_one(self.pool())
                .await?)
            }

            async fn delete_one(&self, id: &str) -> Result<Option<ChallengeRecord>, StoreError> {
                let row = sqlx::query(&format!(
                    "DELETE FROM challenges WHERE id = $1 RETURNING {COLUMNS}"
                ))
                .bind(id)
                .fetch_optional(self.pool())
                .await?;
                Ok(row.as_ref().map(record).transpose()?)
            }

            async fn delete_of(&self, seats: &[String], process: &str) -> Result<u64, StoreError> {
                let mut n = 0;
                for seat in seats {
                    n += sqlx::query(
                        "DELETE FROM challenges WHERE author_seat = $1 AND process = $2",
                    )
                    .bind(seat)
                    .bind(process)
                    .execute(self.pool())
                    .await?
                    .rows_affected();
                }
                Ok(n)
            }

            async fn move_to(&self, seats: &[String], process: &str) -> Result<(), StoreError> {
                for seat in seats {
                    sqlx::query("UPDATE challenges SET process = $2 WHERE author_seat = $1")
                        .bind(seat)
                        .bind(process)
                        .execute(self.pool())
                        .await?;
                }
                Ok(())
            }

            async fn delete_dead(&self, process: &str, since: i64) -> Result<u64, StoreError> {
                Ok(sqlx::query(
                    "DELETE FROM challenges WHERE process <> $1 AND process NOT IN \
                     (SELECT id FROM processes WHERE seen_at >= $2)",
                )
                .bind(process)
                .bind(since)
                .execute(self.pool())
                .await?
                .rows_affected())
            }
        }
    };
}

/// The [`LobbyStore`] of `$store`: the methods both backends answer
/// alike, and `$extra` (the backend's own).
macro_rules! lobby_store {
    ($store:ty, { $($extra:tt)* }) => {
        #[async_trait]
        impl LobbyStore for $store {
        async fn insert_challenge(
            &self,
            c: &ChallengeRecord,
            hook: Option<&dyn ChallengeHook>,
        ) -> Result<(), StoreError> {
            self.insert_row(c, hook).await
        }
        async fn challenge(&self, id: &str) -> Result<Option<ChallengeRecord>, StoreError> {
            self.one(id).await
        }
        async fn challenges(&self) -> Result<Vec<ChallengeRecord>, StoreError> {
            self.all().await
        }
        async fn open_by(&self, seat: &str, user: Option<&str>) -> Result<i64, StoreError> {
            self.count_by(seat, user).await
        }
        async fn claim(&self, id: &str) -> Result<Option<ChallengeRecord>, StoreError> {
            self.delete_one(id).await
        }
        async fn withdraw(&self, seats: &[String], process: &str) -> Result<u64, StoreError> {
            self.delete_of(seats, process).await
        }
        async fn adopt(&self, seats: &[String], process: &str) -> Result<(), StoreError> {
            self.move_to(seats, process).await
        }
        async fn withdraw_dead(&self, process: &str, since: i64) -> Result<u64, StoreError> {
            self.delete_dead(process, since).await
        }
        $($extra)*
        }
    };
}

mod sqlite {
    use super::*;
    use sqlx::sqlite::SqliteRow;
    lobby_queries!(SqliteStore, SqliteRow, Sqlite);

    lobby_store!(SqliteStore, {});
}

mod pg {
    use super::*;
    use sqlx::postgres::PgRow;
    lobby_queries!(PgStore, PgRow, Postgres);

    lobby_store!(PgStore, {
        async fn notify(&self, payload: &str) -> Result<(), StoreError> {
            sqlx::query("SELECT pg_notify($1, $2)")
                .bind(CHANNEL)
                .bind(payload)
                .execute(self.pool())
                .await?;
            Ok(())
        }

        async fn listen(
            &self,
        ) -> Result<Option<mpsc::UnboundedReceiver<Option<String>>>, StoreError> {
            let mut listener = PgListener::connect_with(self.pool()).await?;
            listener.listen(CHANNEL).await?;
            let (tx, rx) = mpsc::unbounded_channel();
            tokio::spawn(async move {
                loop {
                    // None: notices may have been lost (a reconnection).
                    let notice = match listener.try_recv().await {
                        Ok(Some(n)) => Some(n.payload().to_string()),
                        Ok(None) => None,
                        Err(e) => {
                            tracing::warn!(error = %e, "listening for lobby changes failed; retrying");
                            tokio::time::sleep(Duration::from_secs(1)).await;
                            None
                        }
                    };
                    if tx.send(notice).is_err() {
                        break;
                    }
                }
            });
            Ok(Some(rx))
        }
    });
}
