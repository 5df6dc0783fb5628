//! Helpers shared by the web crate's test files, written once: requests
//! through the router ([`http`]), a server on loopback and plain clients
//! for it ([`loopback`]), a browser with a cookie jar and an `Origin`
//! ([`browser`]), app builders ([`apps`]), the test engines
//! ([`engines`]), the captured log lines ([`logs`]) and the test PostgreSQL server ([`postgres`]). The
//! web test binary (`tests/web/main.rs`) includes it with
//! `#[path = "../support/mod.rs"] mod support;` and its modules use it as
//! `crate::support`; a test file of its own in `tests/` (`tests/logs.rs`)
//! includes it with `mod support;`.

// Each test binary uses a part of these helpers; the rest is not dead code
// but another binary's.
#![allow(dead_code)]

pub mod apps;
pub mod browser;
pub mod engines;
pub mod http;
pub mod logs;
pub mod loopback;
pub mod postgres;
