//! The SQLite store ([`SqliteStore`]): one file, WAL journal, versioned
//! migrations (`migrations/sqlite/`), one server process (it is the only
//! writer: it announces nothing and listens to nobody).

use super::games::{
    conditionals_json, game_queries, game_row_codec, moves_json, tags_json, GameRecord, GameStore,
    ListQuery, COLUMNS, INSERT, UPDATE,
};
use super::{is_unique_violation, Ending, StoreError, StoreTx};
use async_trait::async_trait;
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteRow, SqliteSynchronous,
};
use sqlx::{Row, SqlitePool};
use std::path::Path;
use std::str::FromStr;
use std::time::Duration;

/// The SQLite store: one file, WAL journal, versioned migrations.
pub struct SqliteStore {
    pool: SqlitePool,
    path: String,
}

type Query<'q> = sqlx::query::Query<'q, sqlx::Sqlite, sqlx::sqlite::SqliteArguments<'q>>;

game_row_codec!(SqliteRow);
game_queries!(SqlitePool, sqlx::Sqlite);

impl SqliteStore {
    /// Opens (creating it and its directory if needed) the database file
    /// `path` and brings its tables up to date.
    pub async fn open(path: &Path) -> Result<SqliteStore, StoreError> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|source| StoreError::DataDir {
                path: dir.display().to_string(),
                source,
            })?;
        }
        let options = SqliteConnectOptions::new()
            .filename(path)
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            // With WAL, NORMAL loses nothing when the process is killed
            // (only a power cut may lose the last commits).
            .synchronous(SqliteSynchronous::Normal)
            .busy_timeout(Duration::from_secs(5))
            .foreign_keys(true);
        let pool = SqlitePoolOptions::new()
            .max_connections(4)
            .connect_with(options)
            .await?;
        Self::migrate(&pool).await?;
        Ok(SqliteStore {
            pool,
            path: path.display().to_string(),
        })
    }

    /// A private database in memory (tests, and `app()` without a data
    /// directory): one connection, gone with the process.
    pub async fn memory() -> Result<SqliteStore, StoreError> {
        let options = SqliteConnectOptions::from_str("sqlite::memory:")?;
        let pool = SqlitePoolOptions::new()
            .max_connections(1)
            .min_connections(1)
            .idle_timeout(None)
            .max_lifetime(None)
            .connect_with(options)
            .await?;
        Self::migrate(&pool).await?;
        Ok(SqliteStore {
            pool,
            path: ":memory:".into(),
        })
    }

    /// The pool (tests, and the live domain's queries).
    pub fn pool(&self) -> &SqlitePool {
        &self.pool
    }

    async fn migrate(pool: &SqlitePool) -> Result<(), StoreError> {
        super::migrations::sqlite().await?.run(pool).await?;
        Ok(())
    }
}

#[async_trait]
impl GameStore for SqliteStore {
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
            ending.run(&mut StoreTx::Sqlite(&mut tx)).await?;
        }
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

    fn describe(&self) -> String {
        format!("SQLite database {}", self.path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::kinds::{Mode, Status};
    use crate::store::MoveRecord;

    fn record(id: &str, updated_at: i64) -> GameRecord {
        GameRecord {
            moves: vec![MoveRecord {
                uci: "e2e4@e3".into(),
                san: "e4@e3".into(),
                ms: Some(61_000),
                at: 5,
            }],
            white_seat: Some("aa".into()),
            clock_initial_ms: Some(60_000),
            clock_increment_ms: Some(1_000),
            white_ms: Some(61_000),
            black_ms: Some(60_000),
            turn_started_at: Some(5),
            status: Status::Waiting,
            updated_at,
            ..GameRecord::new(id.into(), "hopchess", "start".into(), Mode::Friend, 1)
        }
    }

    #[tokio::test]
    async fn a_game_round_trips_and_updates_by_compare_and_set() {
        let store = SqliteStore::memory().await.unwrap();
        let g = record("abcdEFGH", 10);
        store.insert(&g).await.unwrap();
        assert_eq!(store.load("abcdEFGH").await.unwrap(), Some(g.clone()));
        assert_eq!(store.load("nothere1").await.unwrap(), None);
        assert!(matches!(
            store.insert(&g).await,
            Err(StoreError::Duplicate(id)) if id == "abcdEFGH"
        ));
        let mut next = g.clone();
        next.version = 2;
        next.black_seat = Some("bb".into());
        next.status = Status::Playing;
        assert!(store.update(&next, 1, &[], None).await.unwrap());
        // A second writer that read version 1 changes nothing.
        let mut stale = g.clone();
        stale.version = 2;
        stale.result = Some("1-0".into());
        assert!(!store.update(&stale, 1, &[], None).await.unwrap());
        assert_eq!(store.load("abcdEFGH").await.unwrap(), Some(next));
    }

    #[tokio::test]
    async fn a_rematch_is_inserted_with_the_update_or_not_at_all() {
        let store = SqliteStore::memory().await.unwrap();
        let g = record("game0001", 10);
        let other = record("game0002", 11);
        store.insert(&g).await.unwrap();
        store.insert(&other).await.unwrap();
        let mut next = g.clone();
        next.version = 2;
        next.rematch_id = Some("game0002".into());
        // The new game's id is taken: the update is rolled back too.
        assert!(matches!(
            store
                .update(&next, 1, std::slice::from_ref(&other), None)
                .await,
            Err(StoreError::Duplicate(_))
        ));
        assert_eq!(store.load("game0001").await.unwrap().unwrap().version, 1);
        let new = record("game0003", 12);
        next.rematch_id = Some("game0003".into());
        assert!(store
            .update(&next, 1, std::slice::from_ref(&new), None)
            .await
            .unwrap());
        assert_eq!(store.load("game0003").await.unwrap(), Some(new));
    }

    #[tokio::test]
    async fn lists_recent_ongoing_and_mine() {
        let store = SqliteStore::memory().await.unwrap();
        let mut a = record("aaaaaaaa", 1);
        a.status = Status::Ended;
        let b = record("bbbbbbbb", 2);
        let mut c = record("cccccccc", 3);
        c.white_seat = Some("cc".into());
        c.black_seat = Some("aa".into());
        let mut d = record("dddddddd", 4);
        d.white_seat = Some("dd".into());
        for g in [&a, &b, &c, &d] {
            store.insert(g).await.unwrap();
        }
        let ids = |v: Vec<GameRecord>| v.into_iter().map(|g| g.id).collect::<Vec<_>>();
        // The waiting invitations are listed to their creators only.
        assert_eq!(
            ids(store.list(&ListQuery::Recent, 3).await.unwrap()),
            ["aaaaaaaa"]
        );
        assert!(store
            .list(&ListQuery::Ongoing, 10)
            .await
            .unwrap()
            .is_empty());
        assert_eq!(
            ids(store.list(&ListQuery::Mine("aa".into()), 10).await.unwrap()),
            ["cccccccc", "bbbbbbbb", "aaaaaaaa"]
        );
        assert_eq!(
            store.unfinished().await.unwrap(),
            ["bbbbbbbb", "cccccccc", "dddddddd"]
        );
    }

    #[tokio::test]
    async fn a_file_database_is_created_with_its_directory_and_survives_reopening() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nested/dir/springboard.sqlite3");
        {
            let store = SqliteStore::open(&path).await.unwrap();
            store.insert(&record("persist1", 1)).await.unwrap();
            store.pool.close().await;
        }
        assert!(path.exists());
        let store = SqliteStore::open(&path).await.unwrap();
        assert_eq!(
            store.load("persist1").await.unwrap(),
            Some(record("persist1", 1))
        );
        let mode: String = sqlx::query_scalar("PRAGMA journal_mode")
            .fetch_one(&store.pool)
            .await
            .unwrap();
        assert_eq!(mode, "wal");
    }
}
