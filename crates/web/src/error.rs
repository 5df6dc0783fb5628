//! Errors of the web app: every failed request gets a status and a reason
//! in JSON, `{"error": "..."}`.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;

/// A request that cannot be served, with the reason the page shows.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ApiError {
    /// The request is malformed or names something invalid (400).
    #[error("{0}")]
    BadRequest(String),
    /// A body that is not sent as JSON (415).
    #[error("{0}")]
    UnsupportedMediaType(String),
    /// No such game or resource (404).
    #[error("{0}")]
    NotFound(String),
    /// The request is well formed but the game does not allow it now (409):
    /// an illegal move, a move after the end, nothing to take back.
    #[error("{0}")]
    Conflict(String),
    /// Something that should not fail did (500).
    #[error("{0}")]
    Internal(String),
}

impl ApiError {
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::UnsupportedMediaType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::Conflict(_) => StatusCode::CONFLICT,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

#[derive(Serialize)]
struct ErrorBody {
    error: String,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = ErrorBody {
            error: self.to_string(),
        };
        (self.status(), Json(body)).into_response()
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
}
