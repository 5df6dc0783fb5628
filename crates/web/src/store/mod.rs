//! The database, per domain: each domain's queries are a trait of their
//! own, implemented by both backends, SQLite ([`SqliteStore`], one file,
//! one server process) and PostgreSQL ([`PgStore`], several server
//! processes sharing one database).
//!
//! - `mod.rs` (here): what the backends share: [`StoreError`], the
//!   [`Notice`]s of the other processes, and [`Store`], every domain's
//!   trait at once (what the app is built over).
//! - `sqlite.rs`, `pg.rs`: each backend: opening it, its migrations
//!   (`migrations/sqlite/`, `migrations/postgres/`), its transactions,
//!   PostgreSQL's notices, and its [`GameStore`].
//! - `games.rs`: the games' records and queries ([`GameStore`]);
//!   `kinds.rs`: a game's mode and status, the texts they are stored as.
//! - `corr.rs`: correspondence play's part of a game: its time control
//!   ([`corr::Correspondence`]) and the players' conditional moves.
//! - `ended.rs`: the end of a game as an event ([`GameEnded`]) and the
//!   other domains' hooks run in the transaction that ends it
//!   ([`GameEndHook`]).
//! - `live.rs`: the live domain's queries ([`PresenceStore`]): the server
//!   processes' heartbeats and who is connected through each.
//!
//! The SQL is portable (`$1` placeholders, runtime queries, no
//! compile-time query macros), so both backends run the same statements.

pub mod corr;
mod ended;
mod games;
pub mod kinds;
mod live;
mod migrations;
mod pg;
pub mod players;
mod sqlite;

pub use ended::{Ending, GameEndHook, GameEnded, StoreTx};
pub use games::{GameRecord, GameStore, ListQuery, MoveRecord};
pub use live::{Crowd, PresenceStore};
pub use pg::PgStore;
pub use players::PlayerStore;
pub use sqlite::SqliteStore;

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
    /// An end-of-game hook refused the game's end (its own reason).
    #[error("an end-of-game hook failed: {0}")]
    Hook(String),
    #[error("cannot create the data directory {path}: {source}")]
    DataDir {
        path: String,
        #[source]
        source: std::io::Error,
    },
}

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

/// Every domain's queries over one database: what the app is built over
/// ([`crate::app_with`]); each part of the app keeps the trait it needs.
/// Any type with every domain's trait is one.
pub trait Store: GameStore + PresenceStore {}

impl<T: GameStore + PresenceStore> Store for T {}

pub(crate) fn is_unique_violation(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(d) if d.is_unique_violation())
}
