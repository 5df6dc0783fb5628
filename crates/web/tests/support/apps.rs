//! App builders: a manual clock at a fixed start, and the app over a fresh
//! in-memory SQLite store.

use axum::Router;
use springboard_web::{app_with, ManualClock, Options, SqliteStore};
use std::sync::Arc;

/// The instant every test clock starts at (milliseconds since 1970).
pub const START_MS: i64 = 1_800_000_000_000;

/// A clock that moves only when the test moves it, at [`START_MS`].
pub fn manual_clock() -> Arc<ManualClock> {
    Arc::new(ManualClock::new(START_MS))
}

/// The app with `options` over a fresh in-memory store.
pub async fn memory_app(options: Options) -> Router {
    let store = SqliteStore::memory().await.unwrap();
    app_with(Arc::new(store), options).await.unwrap()
}
