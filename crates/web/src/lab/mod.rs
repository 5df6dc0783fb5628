//! The lab: the measured answers to the games' own questions (issue 43),
//! as `springboard lab` writes them, `lab/<question>.json`, served to the
//! Lab page (`/lab`). It reads files and writes nothing, and uses no other
//! domain.
//!
//! - `schema.rs`: a result's shape (serde structs, unknown fields
//!   refused) and the checks serde cannot make;
//! - `source.rs`: where the results come from (embedded at build time, or
//!   `serve --lab DIR`), the list and one question, each bad file an
//!   error naming it;
//! - `http.rs`: `GET /api/lab` and `GET /api/lab/{question}`.
//!
//! Its handlers take [`LabCtx`], which `state.rs` builds from
//! `Options::lab` and hands to [`routes`] through `FromRef`.

mod http;
pub mod schema;
mod source;

pub(crate) use source::Source;

use axum::extract::FromRef;
use axum::Router;
use std::sync::Arc;

/// The lab domain's state: where its results are read from.
#[derive(Debug)]
pub struct LabState {
    pub(crate) source: Source,
}

/// What the lab's handlers (`State<LabCtx>`) hold.
pub type LabCtx = Arc<LabState>;

/// The lab's routes, on any state that gives a [`LabCtx`].
pub fn routes<S>() -> Router<S>
where
    S: Clone + Send + Sync + 'static,
    LabCtx: FromRef<S>,
{
    use axum::routing::get;
    Router::new()
        .route("/api/lab", get(http::list))
        .route("/api/lab/{question}", get(http::question))
}
