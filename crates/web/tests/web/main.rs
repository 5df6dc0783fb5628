//! The web crate's integration tests, one test binary (`cargo test --test
//! web`) with a module a domain: each test file linked on its own repeated
//! the link of axum, sqlx and tokio and their monomorphised code, most of
//! the test build's time (CONTRIBUTING.md, "CI").
//!
//! A new test module: the file `tests/web/<name>.rs`, its helpers from
//! `crate::support` (`use crate::support;` where a test file of its own
//! would have `mod support;`), and its `mod <name>;` line below, in
//! alphabetical order. Tests here share one process: a test that needs the
//! process to itself (a global tracing subscriber of its own, environment
//! variables) stays a file of its own in `tests/`, as `tests/logs.rs` does.

#[path = "../support/mod.rs"]
mod support;

mod accounts;
mod api;
mod chat;
mod corr;
mod deploy;
mod ended;
mod errors;
mod flood;
mod lab;
mod lichess;
mod lobby;
mod notify;
mod offline;
mod passkey;
mod play;
mod players;
mod pool;
mod protocol;
mod ratings;
mod seats;
mod store;
mod timeouts;
mod ws;
mod wsmoves;
