//! The streams' bodies: newline-delimited JSON (`application/x-ndjson`),
//! one object a line, and an empty line now and then with nothing to
//! tell (lichess's keep-alive). The producer is a task that writes into
//! [`Lines`]; when the client goes, its writes fail and it ends.

use axum::body::{Body, Bytes};
use axum::http::{header, HeaderValue};
use axum::response::Response;
use serde_json::Value;
use std::convert::Infallible;
use tokio::sync::mpsc;

/// Lines written ahead of a slow client before the writer waits.
const BACKLOG: usize = 64;

/// The writing end of a stream.
pub struct Lines {
    tx: mpsc::Sender<Bytes>,
}

impl Lines {
    /// Sends `value` as a line; false once the client is gone.
    pub async fn send(&self, value: &Value) -> bool {
        let mut text = value.to_string();
        text.push('\n');
        self.tx.send(Bytes::from(text)).await.is_ok()
    }

    /// Sends an empty line; false once the client is gone.
    pub async fn keep_alive(&self) -> bool {
        self.tx.send(Bytes::from_static(b"\n")).await.is_ok()
    }

    /// Waits until the client is gone (the stream's body dropped).
    pub async fn closed(&self) {
        self.tx.closed().await
    }
}

/// A new stream: its writer and the response whose body it fills.
pub fn stream() -> (Lines, Response) {
    let (tx, rx) = mpsc::channel::<Bytes>(BACKLOG);
    let body = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|b| (Ok::<Bytes, Infallible>(b), rx))
    });
    let mut resp = Response::new(Body::from_stream(body));
    let h = resp.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/x-ndjson"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    (Lines { tx }, resp)
}
