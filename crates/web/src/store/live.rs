//! The live domain's queries ([`PresenceStore`]): each server process's
//! heartbeat (`processes`), and who is connected to each game through
//! each process (`presence`, PostgreSQL only: SQLite has one process,
//! which keeps its crowds in memory), with both backends' impls.

use super::pg::{PgStore, CHANNEL};
use super::sqlite::SqliteStore;
use super::{Notice, StoreError};
use async_trait::async_trait;
use tokio::sync::mpsc;

/// The sockets connected to a game: those holding each seat, and the
/// spectators.
#[derive(Default, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Crowd {
    pub white: u32,
    pub black: u32,
    pub spectators: u32,
}

impl Crowd {
    pub fn is_empty(&self) -> bool {
        *self == Crowd::default()
    }

    /// Both crowds together.
    pub fn plus(self, other: Crowd) -> Crowd {
        Crowd {
            white: self.white.saturating_add(other.white),
            black: self.black.saturating_add(other.black),
            spectators: self.spectators.saturating_add(other.spectators),
        }
    }
}

/// Where the server processes' heartbeats and presence are kept.
#[async_trait]
pub trait PresenceStore: Send + Sync + 'static {
    /// The changes other processes make, for this process's sockets
    /// (PostgreSQL: LISTEN). Called once at start-up; None when the store
    /// has no other writer.
    async fn listen(&self) -> Result<Option<mpsc::UnboundedReceiver<Notice>>, StoreError> {
        Ok(None)
    }

    /// Records that server process `process` is alive at `now` (ms): its
    /// heartbeat row, created with `started_at = now` when new.
    async fn heartbeat(&self, process: &str, now: i64) -> Result<(), StoreError>;

    /// Whether a server process other than `process` wrote its heartbeat
    /// at or after `since` (ms).
    async fn others_alive(&self, process: &str, since: i64) -> Result<bool, StoreError>;

    /// Deletes the heartbeats (and presence rows) of the processes not
    /// seen since `before`.
    async fn forget_processes(&self, before: i64) -> Result<(), StoreError>;

    /// Records who is connected to game `game` through process `process`
    /// (a crowd of nobody deletes the row) and tells the other processes
    /// (PostgreSQL: NOTIFY). A store with one process keeps presence in
    /// memory and does nothing.
    async fn set_presence(
        &self,
        _process: &str,
        _game: &str,
        _crowd: Crowd,
    ) -> Result<(), StoreError> {
        Ok(())
    }

    /// Who is connected to each of `games` through the processes other
    /// than `process` seen at or after `since`, summed per game (games
    /// nobody else has are left out).
    async fn presence(
        &self,
        _games: &[String],
        _process: &str,
        _since: i64,
    ) -> Result<Vec<(String, Crowd)>, StoreError> {
        Ok(Vec::new())
    }
}

const HEARTBEAT: &str = "INSERT INTO processes (id, started_at, seen_at) \
    VALUES ($1, $2, $2) ON CONFLICT (id) DO UPDATE SET seen_at = excluded.seen_at";
const OTHERS_ALIVE: &str = "SELECT COUNT(*) FROM processes WHERE id <> $1 AND seen_at >= $2";
const FORGET_PROCESSES: &str = "DELETE FROM processes WHERE seen_at < $1";

/// Defines `write_heartbeat` and `any_other_alive` over the pool type
/// `$pool`: the same statements on both backends, written once (as
/// `game_queries!` does for the games).
macro_rules! process_queries {
    ($pool:ty) => {
        pub(super) async fn write_heartbeat(
            pool: &$pool,
            process: &str,
            now: i64,
        ) -> Result<(), StoreError> {
            sqlx::query(HEARTBEAT)
                .bind(process)
                .bind(now)
                .execute(pool)
                .await?;
            Ok(())
        }

        pub(super) async fn any_other_alive(
            pool: &$pool,
            process: &str,
            since: i64,
        ) -> Result<bool, StoreError> {
            let n: i64 = sqlx::query_scalar(OTHERS_ALIVE)
                .bind(process)
                .bind(since)
                .fetch_one(pool)
                .await?;
            Ok(n > 0)
        }
    };
}

mod sqlite_processes {
    use super::{StoreError, HEARTBEAT, OTHERS_ALIVE};
    process_queries!(sqlx::SqlitePool);
}

mod pg_processes {
    use super::{StoreError, HEARTBEAT, OTHERS_ALIVE};
    process_queries!(sqlx::PgPool);
}

#[async_trait]
impl PresenceStore for SqliteStore {
    async fn heartbeat(&self, process: &str, now: i64) -> Result<(), StoreError> {
        sqlite_processes::write_heartbeat(self.pool(), process, now).await
    }

    async fn others_alive(&self, process: &str, since: i64) -> Result<bool, StoreError> {
        sqlite_processes::any_other_alive(self.pool(), process, since).await
    }

    async fn forget_processes(&self, before: i64) -> Result<(), StoreError> {
        sqlx::query(FORGET_PROCESSES)
            .bind(before)
            .execute(self.pool())
            .await?;
        Ok(())
    }
}

fn count(n: i64) -> u32 {
    u32::try_from(n.max(0)).unwrap_or(u32::MAX)
}

#[async_trait]
impl PresenceStore for PgStore {
    async fn listen(&self) -> Result<Option<mpsc::UnboundedReceiver<Notice>>, StoreError> {
        Ok(Some(self.notices().await?))
    }

    async fn heartbeat(&self, process: &str, now: i64) -> Result<(), StoreError> {
        pg_processes::write_heartbeat(self.pool(), process, now).await
    }

    async fn others_alive(&self, process: &str, since: i64) -> Result<bool, StoreError> {
        pg_processes::any_other_alive(self.pool(), process, since).await
    }

    async fn forget_processes(&self, before: i64) -> Result<(), StoreError> {
        let mut tx = self.pool().begin().await?;
        sqlx::query(
            "DELETE FROM presence WHERE process IN \
             (SELECT id FROM processes WHERE seen_at < $1)",
        )
        .bind(before)
        .execute(&mut *tx)
        .await?;
        sqlx::query(FORGET_PROCESSES)
            .bind(before)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    async fn set_presence(
        &self,
        process: &str,
        game: &str,
        crowd: Crowd,
    ) -> Result<(), StoreError> {
        let mut tx = self.pool().begin().await?;
        if crowd.is_empty() {
            sqlx::query("DELETE FROM presence WHERE process = $1 AND game = $2")
                .bind(process)
                .bind(game)
                .execute(&mut *tx)
                .await?;
        } else {
            sqlx::query(
                "INSERT INTO presence (process, game, white, black, spectators) \
                 VALUES ($1, $2, $3, $4, $5) ON CONFLICT (process, game) DO UPDATE \
                 SET white = excluded.white, black = excluded.black, \
                 spectators = excluded.spectators",
            )
            .bind(process)
            .bind(game)
            .bind(i64::from(crowd.white))
            .bind(i64::from(crowd.black))
            .bind(i64::from(crowd.spectators))
            .execute(&mut *tx)
            .await?;
        }
        let payload = serde_json::json!({"id": game, "p": process}).to_string();
        sqlx::query("SELECT pg_notify($1, $2)")
            .bind(CHANNEL)
            .bind(payload)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    async fn presence(
        &self,
        games: &[String],
        process: &str,
        since: i64,
    ) -> Result<Vec<(String, Crowd)>, StoreError> {
        let rows: Vec<(String, i64, i64, i64)> = sqlx::query_as(
            "SELECT p.game, SUM(p.white)::BIGINT, SUM(p.black)::BIGINT, \
             SUM(p.spectators)::BIGINT FROM presence p JOIN processes s ON s.id = p.process \
             WHERE p.game = ANY($1) AND p.process <> $2 AND s.seen_at >= $3 GROUP BY p.game",
        )
        .bind(games)
        .bind(process)
        .bind(since)
        .fetch_all(self.pool())
        .await?;
        Ok(rows
            .into_iter()
            .map(|(game, w, b, s)| {
                (
                    game,
                    Crowd {
                        white: count(w),
                        black: count(b),
                        spectators: count(s),
                    },
                )
            })
            .collect())
    }
}
