//! The PostgreSQL store ([`PgStore`]): the same [`GameStore`] as
//! [`super::SqliteStore`] (the same statements, compare-and-set on
//! `version` in a transaction), with its own versioned migrations
//! (`migrations/postgres/`), for several server processes sharing one
//! database.
//!
//! A committed change is announced with
//! `pg_notify('springboard_games', '{"id":..,"v":..}')`; each process
//! listens on that channel ([`PgStore::notices`]) and tells the sockets
//! of the game it has. Because other processes write the same rows, the
//! store says it is [`GameStore::shared`]: every request re-reads the
//! game's version before trusting the copy in memory.

use super::games::{
    conditionals_json, game_queries, game_row_codec, moves_json, tags_json, GameRecord, GameStore,
    ListQuery, COLUMNS, INSERT, UPDATE,
};
use super::{is_unique_violation, Ending, Notice, StoreError, StoreTx};
use async_trait::async_trait;
use serde::Deserialize;
use sqlx::postgres::{PgConnectOptions, PgListener, PgPoolOptions, PgRow};
use sqlx::{PgPool, Row};
use std::str::FromStr;
use std::time::Duration;
use tokio::sync::mpsc;

/// The channel of the change notices.
pub const CHANNEL: &str = "springboard_games";

/// Games in a PostgreSQL database.
pub struct PgStore {
    pool: PgPool,
    name: String,
}

type Query<'q> = sqlx::query::Query<'q, sqlx::Postgres, sqlx::postgres::PgArguments>;

game_row_codec!(PgRow);
game_queries!(PgPool, sqlx::Postgres);

/// The payload of a notice: `{"id", "v"}` (a change) or `{"id", "p"}`
/// (process `p`'s presence in game `id` changed).
#[derive(Deserialize)]
struct Payload {
    id: String,
    v: Option<i64>,
    p: Option<String>,
}

/// Reads a notice's payload; None for anything else on the channel.
fn parse_payload(text: &str) -> Option<Notice> {
    let p: Payload = serde_json::from_str(text).ok()?;
    match (p.v, p.p) {
        (Some(version), None) => Some(Notice::Changed { id: p.id, version }),
        (None, Some(process)) => Some(Notice::Presence { id: p.id, process }),
        _ => None,
    }
}

impl PgStore {
    /// Connects to the database at `url` (`postgres://user:pass@host/db`)
    /// and brings its tables up to date (the migrations take PostgreSQL's
    /// advisory lock, so processes starting together do not race).
    pub async fn connect(url: &str) -> Result<PgStore, StoreError> {
        let options = PgConnectOptions::from_str(url)?;
        Self::connect_with(options).await
    }

    /// [`PgStore::connect`] with options already read.
    pub async fn connect_with(options: PgConnectOptions) -> Result<PgStore, StoreError> {
        let name = format!(
            "PostgreSQL database {} on {}:{}",
            options.get_database().unwrap_or("(default)"),
            options.get_host(),
            options.get_port()
        );
        let pool = PgPoolOptions::new()
            .max_connections(16)
            .acquire_timeout(Duration::from_secs(3))
            .connect_with(options)
            .await?;
        super::migrations::postgres().await?.run(&pool).await?;
        Ok(PgStore { pool, name })
    }

    /// The pool (tests, and the live domain's queries).
    pub fn pool(&self) -> &PgPool {
        &self.pool
    }

    /// The changes other processes make (LISTEN on [`CHANNEL`]), for
    /// this process's sockets; a lost connection is re-made and reported
    /// as [`Notice::Resync`].
    pub(crate) async fn notices(&self) -> Result<mpsc::UnboundedReceiver<Notice>, StoreError> {
        let mut listener = PgListener::connect_with(&self.pool).await?;
        listener.listen(CHANNEL).await?;
        let (tx, rx) = mpsc::unbounded_channel();
        tokio::spawn(async move {
            loop {
                let notice = match listener.try_recv().await {
                    Ok(Some(n)) => match parse_payload(n.payload()) {
                        Some(notice) => notice,
                        None => continue,
                    },
                    // The connection was lost and is re-made (and LISTEN
                    // re-issued) on the next call: notices may be lost.
                    Ok(None) => Notice::Resync,
                    Err(e) => {
                        tracing::warn!(error = %e, "listening for game changes failed; retrying");
                        tokio::time::sleep(Duration::from_secs(1)).await;
                        Notice::Resync
                    }
                };
                if tx.send(notice).is_err() {
                    break;
                }
            }
        });
        Ok(rx)
    }
}

#[async_trait]
impl GameStore for PgStore {
    async fn insert(&self, game: &GameRecord) -> Result<(), StoreError> {
        insert_game(&self.pool, game).await
    }

    async fn load(&self, id: &str) -> Result<Option<GameRecord>, StoreError> {
        load_game(&self.pool, id).await
    }

    async fn update(
        &self,
        game: &GameRecord,
        expected: i64,
        also: &[GameRecord],
        ending: Option<Ending<'_>>,
    ) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        // Dropped without a commit, the transaction rolls back.
        if !update_game(&mut tx, game, expected, also).await? {
            return Ok(false);
        }
        if let Some(ending) = ending {
            ending.run(&mut StoreTx::Postgres(&mut tx)).await?;
        }
        // In the transaction: delivered at commit, never for a change that
        // was rolled back.
        let payload = serde_json::json!({"id": game.id, "v": game.version}).to_string();
        sqlx::query("SELECT pg_notify($1, $2)")
            .bind(CHANNEL)
            .bind(payload)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(true)
    }

    async fn list(&self, query: &ListQuery, limit: i64) -> Result<Vec<GameRecord>, StoreError> {
        list_games(&self.pool, query, limit).await
    }

    async fn unfinished(&self) -> Result<Vec<String>, StoreError> {
        unfinished_games(&self.pool).await
    }

    async fn imported(&self, key: &str) -> Result<Vec<GameRecord>, StoreError> {
        imported_games(&self.pool, key).await
    }

    fn shared(&self) -> bool {
        true
    }

    fn describe(&self) -> String {
        self.name.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payloads_are_read_and_strangers_ignored() {
        assert_eq!(
            parse_payload(r#"{"id":"abcdEFGH","v":7}"#),
            Some(Notice::Changed {
                id: "abcdEFGH".into(),
                version: 7
            })
        );
        assert_eq!(
            parse_payload(r#"{"id":"abcdEFGH","p":"proc1"}"#),
            Some(Notice::Presence {
                id: "abcdEFGH".into(),
                process: "proc1".into()
            })
        );
        assert_eq!(parse_payload("hello"), None);
        assert_eq!(parse_payload(r#"{"id":"x"}"#), None);
        assert_eq!(parse_payload(r#"{"id":"x","v":1,"p":"y"}"#), None);
    }
}
