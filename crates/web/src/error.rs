//! Errors of the web app: every failed request gets a status and a reason
//! in JSON, `{"error": "..."}`.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

/// The seconds `Retry-After` asks the client to wait.
pub const RETRY_AFTER_S: u32 = 2;

/// A request that cannot be served, with the reason the page shows.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ApiError {
    /// The request is malformed or names something invalid (400).
    #[error("{0}")]
    BadRequest(String),
    /// Not signed in, or a wrong name or password (401).
    #[error("{0}")]
    Unauthorized(String),
    /// Not the holder of a seat of the game (403).
    #[error("{0}")]
    Forbidden(String),
    /// No such game or resource (404).
    #[error("{0}")]
    NotFound(String),
    /// A method the path does not take (405).
    #[error("{0}")]
    MethodNotAllowed(String),
    /// The request is well formed but the game does not allow it now (409):
    /// an illegal move, a move after the end, nothing to take back.
    #[error("{0}")]
    Conflict(String),
    /// A move for a position the game has left (409), with the game's
    /// version so the page can catch up.
    #[error("{reason}")]
    Stale { reason: String, version: i64 },
    /// A body too large (413).
    #[error("{0}")]
    PayloadTooLarge(String),
    /// A request target (path and query) too long (414).
    #[error("{0}")]
    UriTooLong(String),
    /// Request headers too many or too large (431).
    #[error("{0}")]
    HeadersTooLarge(String),
    /// A body that is not sent as JSON (415).
    #[error("{0}")]
    UnsupportedMediaType(String),
    /// Too many requests from one client (429).
    #[error("{0}")]
    TooManyRequests(String),
    /// The database is out of reach for now (503, with `Retry-After`;
    /// `outage.rs`).
    #[error("{0}")]
    Unavailable(String),
    /// Something that should not fail did (500).
    #[error("{0}")]
    Internal(String),
}

impl ApiError {
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::MethodNotAllowed(_) => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::Conflict(_) | ApiError::Stale { .. } => StatusCode::CONFLICT,
            ApiError::PayloadTooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::UriTooLong(_) => StatusCode::URI_TOO_LONG,
            ApiError::HeadersTooLarge(_) => StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            ApiError::UnsupportedMediaType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiError::TooManyRequests(_) => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The JSON body: `{"error": reason}` (and `version` for a stale move).
    pub fn body(&self) -> serde_json::Value {
        match self {
            ApiError::Stale { reason, version } => json!({"error": reason, "version": version}),
            e => json!({"error": e.to_string()}),
        }
    }
}

/// The reason of an error answer, kept on the response for the request
/// log (`lib.rs`'s `log_request`).
#[derive(Clone, Debug)]
pub struct ErrorReason(pub String);

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut resp = (self.status(), Json(self.body())).into_response();
        if matches!(self, ApiError::Unavailable(_)) {
            resp.headers_mut().insert(
                axum::http::header::RETRY_AFTER,
                axum::http::HeaderValue::from(RETRY_AFTER_S),
            );
        }
        resp.extensions_mut().insert(ErrorReason(self.to_string()));
        resp
    }
}

/// Errors of starting the server.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error("bad host '{0}': expected an IP address such as 127.0.0.1")]
    BadHost(String),
    #[error("port {port} on {host} is already in use; choose another with --port")]
    PortInUse { host: String, port: u16 },
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        addr: String,
        #[source]
        source: std::io::Error,
    },
    #[error("the server failed: {0}")]
    Io(#[from] std::io::Error),
    #[error("{0}")]
    Store(#[from] crate::store::StoreError),
    #[error("unsupported database '{0}': give a path, sqlite://... or postgres://...")]
    Database(String),
    /// An account that cannot be added (`springboard user add`).
    #[error("{0}")]
    Account(String),
    /// A bad email setting (`serve --smtp`, `--smtp-from`, `--public-url`).
    #[error("{0}")]
    Mail(String),
}
