//! The database out of reach: which store errors mean that, and the
//! answer the client gets then (503 with a JSON reason and `Retry-After`;
//! on a socket, an error and a close with code 1013, "try again later",
//! after which the page reconnects). The pools reconnect by themselves
//! when the database is back.

use crate::error::ApiError;
use crate::store::StoreError;

/// The reason an answer gives while the database is out of reach.
pub const REASON: &str = "the database is unavailable; try again shortly";
/// The WebSocket close code for an outage (1013: try again later).
pub const CLOSE_CODE: u16 = 1013;

/// Whether `e` means the database cannot be reached (rather than a
/// wrong query or damaged data): no connection in time, a connection
/// lost or refused, the server shutting down or starting.
pub fn is_outage(e: &StoreError) -> bool {
    let StoreError::Db(e) = e else {
        return false;
    };
    match e {
        sqlx::Error::PoolTimedOut
        | sqlx::Error::PoolClosed
        | sqlx::Error::Io(_)
        | sqlx::Error::Tls(_)
        | sqlx::Error::WorkerCrashed => true,
        sqlx::Error::Database(d) => d.code().is_some_and(|c| {
            // Class 08: connection exceptions; 57P01-57P03: admin or
            // crash shutdown, cannot connect now.
            c.starts_with("08") || matches!(c.as_ref(), "57P01" | "57P02" | "57P03")
        }),
        _ => false,
    }
}

/// The API error of a store error: [`ApiError::Unavailable`] for an
/// outage, else an internal error.
pub fn api_error(e: StoreError) -> ApiError {
    if is_outage(&e) {
        tracing::warn!(error = %e, "the database is out of reach");
        ApiError::Unavailable(REASON.into())
    } else {
        ApiError::Internal(e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outages_are_told_from_other_errors() {
        assert!(is_outage(&StoreError::Db(sqlx::Error::PoolTimedOut)));
        assert!(is_outage(&StoreError::Db(sqlx::Error::Io(
            std::io::Error::from(std::io::ErrorKind::ConnectionRefused)
        ))));
        assert!(!is_outage(&StoreError::Db(sqlx::Error::RowNotFound)));
        assert!(!is_outage(&StoreError::Corrupt("x".into())));
        let e = api_error(StoreError::Db(sqlx::Error::PoolTimedOut));
        assert_eq!(e, ApiError::Unavailable(REASON.into()));
        assert_eq!(e.status(), axum::http::StatusCode::SERVICE_UNAVAILABLE);
        assert!(matches!(
            api_error(StoreError::Corrupt("x".into())),
            ApiError::Internal(_)
        ));
    }
}
