//! The test PostgreSQL server: a new database for each test that asks,
//! or none (a skip) on a machine without one.

use sqlx::postgres::PgConnectOptions;
use sqlx::{ConnectOptions, Connection};
use std::str::FromStr;
use std::sync::atomic::{AtomicU32, Ordering};

/// The test PostgreSQL server's URL (`SPRINGBOARD_TEST_POSTGRES`), or None
/// without one, so that a PostgreSQL test skips on a developer's machine.
/// In CI (the environment variable `CI` set) a missing server is a failure,
/// not a skip: the PostgreSQL tests must not pass there without running.
pub fn postgres_url() -> Option<String> {
    match std::env::var("SPRINGBOARD_TEST_POSTGRES") {
        Ok(url) => Some(url),
        Err(_) if std::env::var_os("CI").is_some() => {
            panic!(
                "CI is set but SPRINGBOARD_TEST_POSTGRES is not: the PostgreSQL tests cannot run"
            )
        }
        Err(_) => {
            eprintln!("SPRINGBOARD_TEST_POSTGRES is not set: PostgreSQL is not tested");
            None
        }
    }
}

/// A new database, named after `prefix`, on the test PostgreSQL server, or
/// None without one (see [`postgres_url`]).
pub async fn postgres_options(prefix: &str) -> Option<PgConnectOptions> {
    static COUNTER: AtomicU32 = AtomicU32::new(0);
    let url = postgres_url()?;
    let admin = PgConnectOptions::from_str(&url).expect("SPRINGBOARD_TEST_POSTGRES is a URL");
    let name = format!(
        "{prefix}_{}_{}_{}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .subsec_nanos()
    );
    let mut conn = admin.connect().await.expect("the test PostgreSQL answers");
    sqlx::query(&format!("CREATE DATABASE {name}"))
        .execute(&mut conn)
        .await
        .unwrap();
    conn.close().await.unwrap();
    Some(admin.database(&name))
}
