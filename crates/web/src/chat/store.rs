//! The chat's lines (`migrations/*/0009_chat.sql`, `chat_lines`): the
//! [`ChatStore`] queries over each backend's pool, the same portable
//! statements for SQLite and PostgreSQL, and the new lines' notices
//! between server processes (PostgreSQL's NOTIFY on [`CHANNEL`]).

use crate::store::{PgStore, SqliteStore, StoreError};
use async_trait::async_trait;
use sqlx::postgres::PgListener;
use std::time::Duration;
use tokio::sync::mpsc;

/// The NOTIFY channel of new chat lines (the payload: a
/// `view::LineEvent` as JSON, under PostgreSQL's 8,000 bytes: a line has
/// at most 140 characters).
pub const CHANNEL: &str = "springboard_chat";

/// A line to keep.
#[derive(Clone, Debug)]
pub struct NewLine<'a> {
    pub game: &'a str,
    pub room: &'a str,
    pub author_user: Option<&'a str>,
    pub author_name: &'a str,
    pub text: &'a str,
    pub created_at: i64,
}

/// A kept line: id, author's account, author's name, text, time.
pub type LineRecord = (i64, Option<String>, String, String, i64);

/// Where the chat's lines are kept.
#[async_trait]
pub trait ChatStore: Send + Sync + 'static {
    /// Keeps `line`: its id (increasing).
    async fn add_line(&self, line: &NewLine<'_>) -> Result<i64, StoreError>;

    /// The latest `limit` lines of game `game`'s room `room`, the oldest
    /// first.
    async fn lines(
        &self,
        game: &str,
        room: &str,
        limit: i64,
    ) -> Result<Vec<LineRecord>, StoreError>;

    /// Tells every process of a new line (`payload`: a JSON text); a store
    /// with one process does nothing.
    async fn notify(&self, _payload: &str) -> Result<(), StoreError> {
        Ok(())
    }

    /// The new lines' notices of every process (this one's too); None for
    /// a store with one process.
    async fn listen(&self) -> Result<Option<mpsc::UnboundedReceiver<String>>, StoreError> {
        Ok(None)
    }
}

/// The statements of a store type whose `pool()` is a sqlx pool, as its
/// own methods; one text for both backends.
macro_rules! chat_queries {
    ($store:ty) => {
        impl $store {
        async fn insert_line(&self, l: &NewLine<'_>) -> Result<i64, StoreError> {
            Ok(sqlx::query_scalar(
                "INSERT INTO chat_lines (game, room, author_user, author_name, text, created_at) \
                 VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
            )
            .bind(l.game)
            .bind(l.room)
            .bind(l.author_user)
            .bind(l.author_name)
            .bind(l.text)
            .bind(l.created_at)
            .fetch_one(self.pool())
            .await?)
        }

        async fn latest_lines(
            &self,
            game: &str,
            room: &str,
            limit: i64,
        ) -> Result<Vec<LineRecord>, StoreError> {
            let mut rows: Vec<LineRecord> = sqlx::query_as(
                "SELECT id, author_user, author_name, text, created_at FROM chat_lines \
                 WHERE game = $1 AND room = $2 ORDER BY id DESC LIMIT $3",
            )
            .bind(game)
            .bind(room)
            .bind(limit)
            .fetch_all(self.pool())
            .await?;
            rows.reverse();
            Ok(rows)
        }
        }
    };
}

chat_queries!(SqliteStore);
chat_queries!(PgStore);

/// The [`ChatStore`] of `$store`: the methods both backends answer
/// alike, and `$extra` (the backend's own).
macro_rules! chat_store {
    ($store:ty, { $($extra:tt)* }) => {
        #[async_trait]
        impl ChatStore for $store {
            async fn add_line(&self, line: &NewLine<'_>) -> Result<i64, StoreError> {
                self.insert_line(line).await
            }

            async fn lines(
                &self,
                game: &str,
                room: &str,
                limit: i64,
            ) -> Result<Vec<LineRecord>, StoreError> {
                self.latest_lines(game, room, limit).await
            }

            $($extra)*
        }
    };
}

chat_store!(SqliteStore, {});

chat_store!(PgStore, {
    async fn notify(&self, payload: &str) -> Result<(), StoreError> {
        sqlx::query("SELECT pg_notify($1, $2)")
            .bind(CHANNEL)
            .bind(payload)
            .execute(self.pool())
            .await?;
        Ok(())
    }

    async fn listen(&self) -> Result<Option<mpsc::UnboundedReceiver<String>>, StoreError> {
        let mut listener = PgListener::connect_with(self.pool()).await?;
        listener.listen(CHANNEL).await?;
        let (tx, rx) = mpsc::unbounded_channel();
        tokio::spawn(async move {
            loop {
                // A lost connection is re-made on the next call; the lines
                // said meanwhile are read again with the page.
                let payload = match listener.try_recv().await {
                    Ok(Some(n)) => n.payload().to_string(),
                    Ok(None) => continue,
                    Err(e) => {
                        tracing::warn!(error = %e, "listening for chat lines failed; retrying");
                        tokio::time::sleep(Duration::from_secs(1)).await;
                        continue;
                    }
                };
                if tx.send(payload).is_err() {
                    break;
                }
            }
        });
        Ok(Some(rx))
    }
});
