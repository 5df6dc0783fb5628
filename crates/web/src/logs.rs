//! Structured logs of the server (the `tracing` crate; whoever runs the
//! server installs a subscriber, see `docs/play-server.md`, "Logs"):
//! one line per HTTP request, the engine pool's jobs, panics in handlers.
//!
//! Every request runs in a span `request{request_id, method, path}` (the
//! path without its query), so what a handler logs carries the request's
//! id; the answer carries it too, in `x-request-id`.

use crate::error::{ApiError, ErrorReason};
use axum::extract::Request;
use axum::http::HeaderValue;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::any::Any;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;
use tracing::{debug, error, info, info_span, Instrument, Span};

/// The longest path a log line quotes.
const MAX_LOGGED_PATH: usize = 200;

static NEXT_REQUEST: AtomicU64 = AtomicU64::new(1);

/// A path as logged: at most [`MAX_LOGGED_PATH`] bytes (the query, which
/// may carry what is not ours to log, is never part of it).
fn logged_path(path: &str) -> String {
    if path.len() <= MAX_LOGGED_PATH {
        return path.to_string();
    }
    let mut end = MAX_LOGGED_PATH;
    while !path.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}... ({} bytes)", &path[..end], path.len())
}

/// Logs one line per request: status, latency and, for an error, its
/// reason (4xx at info, 5xx at error).
pub async fn log_request(req: Request, next: Next) -> Response {
    let request_id = NEXT_REQUEST.fetch_add(1, Ordering::Relaxed);
    let method = req.method().clone();
    let path = logged_path(req.uri().path());
    let span = info_span!("request", request_id, method = %method, path = %path);
    let start = Instant::now();
    let mut resp = next.run(req).instrument(span.clone()).await;
    let latency_ms = start.elapsed().as_secs_f64() * 1000.0;
    let status = resp.status().as_u16();
    let reason = resp.extensions().get::<ErrorReason>().map(|r| r.0.clone());
    span.in_scope(|| match (status, reason) {
        (500.., reason) => error!(
            status,
            latency_ms,
            error = reason.as_deref(),
            "request failed"
        ),
        (400.., Some(reason)) => info!(status, latency_ms, error = %reason, "request refused"),
        (400.., None) => info!(status, latency_ms, "request refused"),
        _ => info!(status, latency_ms, "request"),
    });
    if let Ok(v) = HeaderValue::from_str(&request_id.to_string()) {
        resp.headers_mut().insert("x-request-id", v);
    }
    resp
}

/// The message of a panic's payload.
pub fn panic_message(payload: &(dyn Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_string())
}

/// The answer to a request whose handler panicked: logged, and a JSON 500.
pub fn panic_response(payload: Box<dyn Any + Send + 'static>) -> Response {
    let message = panic_message(payload.as_ref());
    error!(panic = %message, "a request handler panicked");
    ApiError::Internal(format!("internal error: {message}")).into_response()
}

static NEXT_JOB: AtomicU64 = AtomicU64::new(1);

/// The log of one engine job of the pool: queued, started, then finished,
/// cancelled or failed (dropped unfinished: cancelled, its client left).
/// Its span `engine_job{job, kind, game}` is entered by the engine's
/// thread, so what the engine logs (nodes, depth) carries the game.
pub struct JobLog {
    span: Span,
    queued: Instant,
    started: Option<Instant>,
    ended: bool,
}

impl JobLog {
    /// A job of `kind` ("move", "request move", "analysis") for `game`.
    pub fn queued(kind: &'static str, game: &str) -> JobLog {
        let job = NEXT_JOB.fetch_add(1, Ordering::Relaxed);
        let span = info_span!("engine_job", job, kind, game = %game);
        span.in_scope(|| debug!("engine job queued"));
        JobLog {
            span,
            queued: Instant::now(),
            started: None,
            ended: false,
        }
    }

    /// The span the engine's work runs in.
    pub fn span(&self) -> Span {
        self.span.clone()
    }

    /// A worker took the job.
    pub fn started(&mut self) {
        let queued_ms = self.queued.elapsed().as_secs_f64() * 1000.0;
        self.started = Some(Instant::now());
        self.span
            .in_scope(|| debug!(queued_ms, "engine job started"));
    }

    fn think_ms(&self) -> f64 {
        self.started
            .map_or(0.0, |s| s.elapsed().as_secs_f64() * 1000.0)
    }

    /// The engine answered `answer`.
    pub fn finished(&mut self, answer: &str) {
        self.ended = true;
        let ms = self.think_ms();
        self.span
            .in_scope(|| info!(ms, answer, "engine job finished"));
    }

    /// The job ended without an answer that is used.
    pub fn cancelled(&mut self, reason: &str) {
        self.ended = true;
        let ms = self.think_ms();
        self.span
            .in_scope(|| info!(ms, reason, "engine job cancelled"));
    }

    /// The engine failed (a panic in it, or its move was refused).
    pub fn failed(&mut self, reason: &str) {
        self.ended = true;
        let ms = self.think_ms();
        self.span
            .in_scope(|| error!(ms, error = reason, "engine job failed"));
    }
}

impl Drop for JobLog {
    fn drop(&mut self) {
        if !self.ended {
            self.cancelled("the request was dropped (its client left)");
        }
    }
}

/// What ended a blocking task that gave no result: "panicked: message".
pub fn join_error(e: tokio::task::JoinError) -> String {
    if e.is_panic() {
        format!("panicked: {}", panic_message(e.into_panic().as_ref()))
    } else {
        format!("was cancelled: {e}")
    }
}
