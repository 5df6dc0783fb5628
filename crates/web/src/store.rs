//! The database of games: a [`GameStore`] trait with a SQLite
//! implementation ([`SqliteStore`]).
//!
//! Every game is one row of the `games` table (see
//! `migrations/sqlite/`), written by compare-and-set on its `version`: an
//! update names the version it read and changes nothing when the row has
//! moved on (another process, or a request that won a race). The SQL is
//! portable (`$1` placeholders, runtime queries, no compile-time query
//! macros), so a PostgreSQL store can implement the same trait with the
//! same statements; its extra need, telling other processes that a game
//! changed, is the [`GameStore::changed`] hook (`pg_notify` there, nothing
//! to do for SQLite, whose only writer is this process).

use crate::games::kinds::{Kind, Mode, Status};
use async_trait::async_trait;
use serde::{Deserialize, Serialize};
use springboard_rules::Color;
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteRow, SqliteSynchronous,
};
use sqlx::{Row, SqlitePool};
use std::path::Path;
use std::str::FromStr;
use std::time::Duration;

/// A failure of the database.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database error: {0}")]
    Db(#[from] sqlx::Error),
    #[error("database migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    #[error("a stored game is damaged: {0}")]
    Corrupt(String),
    #[error("a game with id {0} already exists")]
    Duplicate(String),
    #[error("cannot create the data directory {path}: {source}")]
    DataDir {
        path: String,
        #[source]
        source: std::io::Error,
    },
}

/// One played move as stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveRecord {
    /// Long notation (RULINGS N1-N6).
    pub uci: String,
    pub san: String,
    /// The mover's clock after the move (increment added), in ms, when the
    /// game has a clock.
    pub ms: Option<i64>,
    /// The server's time of the move, in ms since the Unix epoch.
    pub at: i64,
}

/// One game as stored: everything needed to rebuild it after a restart.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    pub id: String,
    pub variant: String,
    pub start_fen: String,
    pub moves: Vec<MoveRecord>,
    pub mode: Mode,
    /// SHA-256 (hex) of the cookie holding each seat, if taken.
    pub white_seat: Option<String>,
    pub black_seat: Option<String>,
    /// The engine's side in an engine game.
    pub engine_color: Option<Color>,
    pub engine_level: Option<i64>,
    pub clock_initial_ms: Option<i64>,
    pub clock_increment_ms: Option<i64>,
    /// Remaining time of each side at the start of the running turn.
    pub white_ms: Option<i64>,
    pub black_ms: Option<i64>,
    /// When the running turn started (server clock, ms).
    pub turn_started_at: Option<i64>,
    pub status: Status,
    /// `1-0`, `0-1`, `1/2-1/2`, or the `Result` a game text stated.
    pub result: Option<String>,
    pub reason: Option<String>,
    /// The side that offers a draw, a takeback, a rematch.
    pub draw_offer: Option<Color>,
    pub takeback_offer: Option<Color>,
    pub rematch_offer: Option<Color>,
    pub rematch_id: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
    /// +1 on every change.
    pub version: i64,
}

impl GameRecord {
    /// A game just made at `now`: no moves, no seat taken, no engine, no
    /// clock, no offer, `playing`, version 1. Callers set the rest with
    /// struct update syntax.
    pub fn new(id: String, variant: &str, start_fen: String, mode: Mode, now: i64) -> GameRecord {
        GameRecord {
            id,
            variant: variant.to_string(),
            start_fen,
            moves: Vec::new(),
            mode,
            white_seat: None,
            black_seat: None,
            engine_color: None,
            engine_level: None,
            clock_initial_ms: None,
            clock_increment_ms: None,
            white_ms: None,
            black_ms: None,
            turn_started_at: None,
            status: Status::Playing,
            result: None,
            reason: None,
            draw_offer: None,
            takeback_offer: None,
            rematch_offer: None,
            rematch_id: None,
            created_at: now,
            updated_at: now,
            version: 1,
        }
    }
}

/// Which games a list shows, newest change first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ListQuery {
    Recent,
    Ongoing,
    /// The games where the cookie with this hash holds a seat.
    Mine(String),
}

/// Where games are kept.
#[async_trait]
pub trait GameStore: Send + Sync + 'static {
    /// Stores a new game; [`StoreError::Duplicate`] if its id is taken.
    async fn insert(&self, game: &GameRecord) -> Result<(), StoreError>;

    /// The game `id`, if stored.
    async fn load(&self, id: &str) -> Result<Option<GameRecord>, StoreError>;

    /// Replaces the stored game by `game` if the stored version is still
    /// `expected` (compare-and-set); `Ok(false)` changes nothing. `game`
    /// carries the new version. `also`: games inserted in the same
    /// transaction (a rematch).
    async fn update(
        &self,
        game: &GameRecord,
        expected: i64,
        also: &[GameRecord],
    ) -> Result<bool, StoreError>;

    /// Up to `limit` games, the most recently changed first.
    async fn list(&self, query: &ListQuery, limit: i64) -> Result<Vec<GameRecord>, StoreError>;

    /// The ids of every game not ended (resumed at start-up).
    async fn unfinished(&self) -> Result<Vec<String>, StoreError>;

    /// Tells other server processes that game `id` is now at `version`
    /// (PostgreSQL: NOTIFY). A store with a single writer does nothing.
    async fn changed(&self, _id: &str, _version: i64) -> Result<(), StoreError> {
        Ok(())
    }

    /// Whether other server processes write the same games (PostgreSQL):
    /// a game in memory is then re-read when its stored version moved on.
    fn shared(&self) -> bool {
        false
    }

    /// The changes other processes make, for this process's sockets
    /// (PostgreSQL: LISTEN). Called once at start-up; None when the store
    /// has no other writer.
    async fn listen(
        &self,
    ) -> Result<Option<tokio::sync::mpsc::UnboundedReceiver<Notice>>, StoreError> {
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

    /// Where the games are, for the start-up message.
    fn describe(&self) -> String;
}

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

pub(crate) const HEARTBEAT: &str = "INSERT INTO processes (id, started_at, seen_at) \
    VALUES ($1, $2, $2) ON CONFLICT (id) DO UPDATE SET seen_at = excluded.seen_at";
pub(crate) const OTHERS_ALIVE: &str =
    "SELECT COUNT(*) FROM processes WHERE id <> $1 AND seen_at >= $2";
pub(crate) const FORGET_PROCESSES: &str = "DELETE FROM processes WHERE seen_at < $1";

/// News of a change made by some server process.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    /// Game `id` is now at `version`.
    Changed { id: String, version: i64 },
    /// Who is connected to game `id` through process `process` changed.
    Presence { id: String, process: String },
    /// Notices may have been missed (the listening connection was lost
    /// and re-made): any game may have changed.
    Resync,
}

/// The SQLite store: one file, WAL journal, versioned migrations.
pub struct SqliteStore {
    pool: SqlitePool,
    path: String,
}

pub(crate) const COLUMNS: &str = "id, variant, start_fen, moves, mode, white_seat, black_seat, \
    engine_color, engine_level, clock_initial_ms, clock_increment_ms, white_ms, black_ms, \
    turn_started_at, status, result, reason, draw_offer, takeback_offer, rematch_offer, \
    rematch_id, created_at, updated_at, version";

pub(crate) const INSERT: &str =
    "INSERT INTO games (id, variant, start_fen, moves, mode, white_seat, \
    black_seat, engine_color, engine_level, clock_initial_ms, clock_increment_ms, white_ms, \
    black_ms, turn_started_at, status, result, reason, draw_offer, takeback_offer, \
    rematch_offer, rematch_id, created_at, updated_at, version) VALUES ($1, $2, $3, $4, $5, \
    $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24)";

pub(crate) const UPDATE: &str =
    "UPDATE games SET variant = $2, start_fen = $3, moves = $4, mode = $5, \
    white_seat = $6, black_seat = $7, engine_color = $8, engine_level = $9, \
    clock_initial_ms = $10, clock_increment_ms = $11, white_ms = $12, black_ms = $13, \
    turn_started_at = $14, status = $15, result = $16, reason = $17, draw_offer = $18, \
    takeback_offer = $19, rematch_offer = $20, rematch_id = $21, created_at = $22, \
    updated_at = $23, version = $24 WHERE id = $1 AND version = $25";

type Query<'q> = sqlx::query::Query<'q, sqlx::Sqlite, sqlx::sqlite::SqliteArguments<'q>>;

/// Defines `bind_all` (every column of a game, in `COLUMNS` order, bound to
/// the `INSERT`/`UPDATE` text) and `from_row` (a stored row read back) for
/// one backend: the calling module's `Query<'q>` type and `$row`, its row
/// type. One definition serves SQLite here and PostgreSQL (`pg.rs`).
macro_rules! game_row_codec {
    ($row:ty) => {
        fn bind_all<'q>(q: Query<'q>, g: &'q GameRecord, moves: String) -> Query<'q> {
            q.bind(&g.id)
                .bind(&g.variant)
                .bind(&g.start_fen)
                .bind(moves)
                .bind(g.mode.as_str())
                .bind(&g.white_seat)
                .bind(&g.black_seat)
                .bind(g.engine_color.map($crate::games::kinds::Kind::text))
                .bind(g.engine_level)
                .bind(g.clock_initial_ms)
                .bind(g.clock_increment_ms)
                .bind(g.white_ms)
                .bind(g.black_ms)
                .bind(g.turn_started_at)
                .bind(g.status.as_str())
                .bind(&g.result)
                .bind(&g.reason)
                .bind(g.draw_offer.map($crate::games::kinds::Kind::text))
                .bind(g.takeback_offer.map($crate::games::kinds::Kind::text))
                .bind(g.rematch_offer.map($crate::games::kinds::Kind::text))
                .bind(&g.rematch_id)
                .bind(g.created_at)
                .bind(g.updated_at)
                .bind(g.version)
        }

        fn from_row(row: &$row) -> Result<GameRecord, StoreError> {
            let moves: String = row.try_get("moves")?;
            let id: String = row.try_get("id")?;
            let moves = serde_json::from_str(&moves)
                .map_err(|e| StoreError::Corrupt(format!("the moves of game {id}: {e}")))?;
            use $crate::store::{read_kind, read_optional_kind};
            Ok(GameRecord {
                variant: row.try_get("variant")?,
                start_fen: row.try_get("start_fen")?,
                moves,
                mode: read_kind(&id, "mode", &row.try_get::<String, _>("mode")?)?,
                white_seat: row.try_get("white_seat")?,
                black_seat: row.try_get("black_seat")?,
                engine_color: read_optional_kind(
                    &id,
                    "engine_color",
                    row.try_get("engine_color")?,
                )?,
                engine_level: row.try_get("engine_level")?,
                clock_initial_ms: row.try_get("clock_initial_ms")?,
                clock_increment_ms: row.try_get("clock_increment_ms")?,
                white_ms: row.try_get("white_ms")?,
                black_ms: row.try_get("black_ms")?,
                turn_started_at: row.try_get("turn_started_at")?,
                status: read_kind(&id, "status", &row.try_get::<String, _>("status")?)?,
                result: row.try_get("result")?,
                reason: row.try_get("reason")?,
                draw_offer: read_optional_kind(&id, "draw_offer", row.try_get("draw_offer")?)?,
                takeback_offer: read_optional_kind(
                    &id,
                    "takeback_offer",
                    row.try_get("takeback_offer")?,
                )?,
                rematch_offer: read_optional_kind(
                    &id,
                    "rematch_offer",
                    row.try_get("rematch_offer")?,
                )?,
                rematch_id: row.try_get("rematch_id")?,
                created_at: row.try_get("created_at")?,
                updated_at: row.try_get("updated_at")?,
                version: row.try_get("version")?,
                id,
            })
        }
    };
}
pub(crate) use game_row_codec;

/// The column `column` of game `id` read as one of its kinds (a mode, a
/// status, a colour): a text the server does not know is a damaged game,
/// not a default.
pub(crate) fn read_kind<T: Kind>(id: &str, column: &str, text: &str) -> Result<T, StoreError> {
    T::from_text(text).map_err(|e| StoreError::Corrupt(format!("game {id}, column {column}: {e}")))
}

/// [`read_kind`] of a column that may be null.
pub(crate) fn read_optional_kind<T: Kind>(
    id: &str,
    column: &str,
    text: Option<String>,
) -> Result<Option<T>, StoreError> {
    text.map(|t| read_kind(id, column, &t)).transpose()
}

/// Defines the statements both backends run alike, as free functions over
/// the calling module's pool type `$pool` and database `$db` (they need
/// `bind_all` and `from_row` from [`game_row_codec!`]): a game's insert,
/// load, compare-and-set update (inside the caller's transaction, which
/// commits it or, dropped, rolls it back), the lists, and the processes'
/// heartbeats. Each store's [`GameStore`] methods call these and add only
/// what differs (PostgreSQL's notices).
macro_rules! game_queries {
    ($pool:ty, $db:ty) => {
        async fn insert_game(pool: &$pool, game: &GameRecord) -> Result<(), StoreError> {
            let moves = moves_json(game)?;
            match bind_all(sqlx::query(INSERT), game, moves)
                .execute(pool)
                .await
            {
                Ok(_) => Ok(()),
                Err(e) if is_unique_violation(&e) => Err(StoreError::Duplicate(game.id.clone())),
                Err(e) => Err(e.into()),
            }
        }

        async fn load_game(pool: &$pool, id: &str) -> Result<Option<GameRecord>, StoreError> {
            let sql = format!("SELECT {COLUMNS} FROM games WHERE id = $1");
            let row = sqlx::query(&sql).bind(id).fetch_optional(pool).await?;
            row.as_ref().map(from_row).transpose()
        }

        /// Writes `game` over the row at version `expected` and inserts
        /// `also`, in `tx`; false (and nothing written) when the row has
        /// moved on. The caller commits.
        async fn update_game(
            tx: &mut sqlx::Transaction<'_, $db>,
            game: &GameRecord,
            expected: i64,
            also: &[GameRecord],
        ) -> Result<bool, StoreError> {
            let moves = moves_json(game)?;
            // `WHERE version = expected`: under PostgreSQL's READ COMMITTED
            // a concurrent writer of the same row waits for ours, then
            // re-checks the condition on the new row and updates nothing.
            let done = bind_all(sqlx::query(UPDATE), game, moves)
                .bind(expected)
                .execute(&mut **tx)
                .await?;
            if done.rows_affected() != 1 {
                return Ok(false);
            }
            for other in also {
                let moves = moves_json(other)?;
                if let Err(e) = bind_all(sqlx::query(INSERT), other, moves)
                    .execute(&mut **tx)
                    .await
                {
                    return Err(if is_unique_violation(&e) {
                        StoreError::Duplicate(other.id.clone())
                    } else {
                        e.into()
                    });
                }
            }
            Ok(true)
        }

        async fn list_games(
            pool: &$pool,
            query: &ListQuery,
            limit: i64,
        ) -> Result<Vec<GameRecord>, StoreError> {
            let rows = match query {
                ListQuery::Recent => {
                    let sql = format!(
                        "SELECT {COLUMNS} FROM games ORDER BY updated_at DESC, id LIMIT $1"
                    );
                    sqlx::query(&sql).bind(limit).fetch_all(pool).await?
                }
                ListQuery::Ongoing => {
                    let sql = format!(
                        "SELECT {COLUMNS} FROM games WHERE status <> 'ended' \
                         ORDER BY updated_at DESC, id LIMIT $1"
                    );
                    sqlx::query(&sql).bind(limit).fetch_all(pool).await?
                }
                ListQuery::Mine(hash) => {
                    let sql = format!(
                        "SELECT {COLUMNS} FROM games WHERE white_seat = $1 OR black_seat = $1 \
                         ORDER BY updated_at DESC, id LIMIT $2"
                    );
                    sqlx::query(&sql)
                        .bind(hash)
                        .bind(limit)
                        .fetch_all(pool)
                        .await?
                }
            };
            rows.iter().map(from_row).collect()
        }

        async fn unfinished_games(pool: &$pool) -> Result<Vec<String>, StoreError> {
            let rows = sqlx::query("SELECT id FROM games WHERE status <> 'ended' ORDER BY id")
                .fetch_all(pool)
                .await?;
            rows.iter()
                .map(|r| r.try_get::<String, _>("id").map_err(StoreError::from))
                .collect()
        }

        async fn write_heartbeat(pool: &$pool, process: &str, now: i64) -> Result<(), StoreError> {
            sqlx::query(HEARTBEAT)
                .bind(process)
                .bind(now)
                .execute(pool)
                .await?;
            Ok(())
        }

        async fn any_other_alive(
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
pub(crate) use game_queries;

game_row_codec!(SqliteRow);
game_queries!(SqlitePool, sqlx::Sqlite);

pub(crate) fn moves_json(g: &GameRecord) -> Result<String, StoreError> {
    serde_json::to_string(&g.moves).map_err(|e| StoreError::Corrupt(e.to_string()))
}

pub(crate) fn is_unique_violation(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(d) if d.is_unique_violation())
}

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

    /// The pool (the accounts' queries, `accounts/store.rs`).
    pub(crate) fn pool(&self) -> &SqlitePool {
        &self.pool
    }

    async fn migrate(pool: &SqlitePool) -> Result<(), StoreError> {
        sqlx::migrate!("./migrations/sqlite").run(pool).await?;
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
    ) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        // Dropped without a commit, the transaction rolls back.
        if !update_game(&mut tx, game, expected, also).await? {
            return Ok(false);
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

    async fn heartbeat(&self, process: &str, now: i64) -> Result<(), StoreError> {
        write_heartbeat(&self.pool, process, now).await
    }

    async fn others_alive(&self, process: &str, since: i64) -> Result<bool, StoreError> {
        any_other_alive(&self.pool, process, since).await
    }

    async fn forget_processes(&self, before: i64) -> Result<(), StoreError> {
        sqlx::query(FORGET_PROCESSES)
            .bind(before)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    fn describe(&self) -> String {
        format!("SQLite database {}", self.path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert!(store.update(&next, 1, &[]).await.unwrap());
        // A second writer that read version 1 changes nothing.
        let mut stale = g.clone();
        stale.version = 2;
        stale.result = Some("1-0".into());
        assert!(!store.update(&stale, 1, &[]).await.unwrap());
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
            store.update(&next, 1, std::slice::from_ref(&other)).await,
            Err(StoreError::Duplicate(_))
        ));
        assert_eq!(store.load("game0001").await.unwrap().unwrap().version, 1);
        let new = record("game0003", 12);
        next.rematch_id = Some("game0003".into());
        assert!(store
            .update(&next, 1, std::slice::from_ref(&new))
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
        assert_eq!(
            ids(store.list(&ListQuery::Recent, 3).await.unwrap()),
            ["dddddddd", "cccccccc", "bbbbbbbb"]
        );
        assert_eq!(
            ids(store.list(&ListQuery::Ongoing, 10).await.unwrap()),
            ["dddddddd", "cccccccc", "bbbbbbbb"]
        );
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
