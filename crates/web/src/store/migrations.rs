//! The backends' migrations, embedded in the binary by `build.rs` (the
//! files of `migrations/sqlite/` and `migrations/postgres/`), read as sqlx
//! reads a migrations directory: the version and description from the
//! file name, the checksum from the SQL. Databases migrated by earlier
//! builds (with sqlx's `migrate!` macro) see the same checksums.

use futures_util::future::BoxFuture;
use sqlx::error::BoxDynError;
use sqlx::migrate::{MigrateError, Migration, MigrationSource, MigrationType, Migrator};
use std::borrow::Cow;

include!(concat!(env!("OUT_DIR"), "/migrations.rs"));

/// One backend's embedded migrations.
#[derive(Debug, Clone, Copy)]
struct Embedded(&'static [(i64, &'static str, &'static str)]);

impl MigrationSource<'static> for Embedded {
    fn resolve(self) -> BoxFuture<'static, Result<Vec<Migration>, BoxDynError>> {
        let migrations = self
            .0
            .iter()
            .map(|&(version, description, sql)| {
                Migration::new(
                    version,
                    Cow::Borrowed(description),
                    MigrationType::Simple,
                    Cow::Borrowed(sql),
                    sql.starts_with("-- no-transaction"),
                )
            })
            .collect();
        Box::pin(async move { Ok(migrations) })
    }
}

/// The SQLite store's migrations.
pub(super) async fn sqlite() -> Result<Migrator, MigrateError> {
    Migrator::new(Embedded(SQLITE)).await
}

/// The PostgreSQL store's migrations.
pub(super) async fn postgres() -> Result<Migrator, MigrateError> {
    Migrator::new(Embedded(POSTGRES)).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    /// The embedded migrations are the ones sqlx reads from the directory:
    /// the same versions, descriptions, checksums and transaction modes.
    async fn same_as_directory(embedded: Migrator, dir: &str) {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(dir);
        let read = Migrator::new(path).await.expect("sqlx reads the directory");
        let key = |m: &Migration| {
            (
                m.version,
                m.description.to_string(),
                m.checksum.to_vec(),
                m.no_tx,
                m.migration_type,
            )
        };
        let embedded: Vec<_> = embedded.iter().map(key).collect();
        let read: Vec<_> = read.iter().map(key).collect();
        assert!(!read.is_empty(), "{dir} has migrations");
        assert_eq!(embedded, read, "{dir}");
    }

    #[tokio::test]
    async fn sqlite_migrations_are_the_directory() {
        same_as_directory(sqlite().await.unwrap(), "migrations/sqlite").await;
    }

    #[tokio::test]
    async fn postgres_migrations_are_the_directory() {
        same_as_directory(postgres().await.unwrap(), "migrations/postgres").await;
    }
}
