//! Reading a request: its JSON body and its query, each failure turned
//! into the API's JSON answer.

use crate::error::ApiError;
use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::Query;
use axum::http::StatusCode;
use axum::Json;

/// The largest request body the API reads (a long PGN fits many times).
pub const MAX_BODY_BYTES: usize = 256 * 1024;

/// Reads a JSON body, turning the extractor's rejection into a JSON reason.
pub(crate) fn body<T>(b: Result<Json<T>, JsonRejection>) -> Result<T, ApiError> {
    b.map(|Json(v)| v).map_err(|e| {
        let reason = format!("bad request body: {}", e.body_text());
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            return ApiError::PayloadTooLarge(format!(
                "the request body is larger than {} bytes",
                MAX_BODY_BYTES
            ));
        }
        match e {
            JsonRejection::MissingJsonContentType(_) => ApiError::UnsupportedMediaType(reason),
            _ => ApiError::BadRequest(reason),
        }
    })
}

pub(crate) fn query<T>(q: Result<Query<T>, QueryRejection>) -> Result<T, ApiError> {
    q.map(|Query(v)| v)
        .map_err(|e| ApiError::BadRequest(format!("bad query: {}", e.body_text())))
}
