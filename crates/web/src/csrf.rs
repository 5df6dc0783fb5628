//! Cross-site request forgery: a state-changing request that a cookie may
//! authorise (the `sb_player` seat cookie, the `sb_session` session
//! cookie) must carry an `Origin` header naming this server: the
//! accounts' `POST`s, the games' changes (create, join, move, offers,
//! undo, the engine's move) and the WebSocket's upgrade. The
//! server's own origin is the scheme and host the client used: `https`
//! when the request came over https (a trusted proxy's
//! `X-Forwarded-Proto`, `proxy.rs`), the host a trusted proxy names in
//! `X-Forwarded-Host`, else the `Host` header. A missing, `null` or
//! foreign `Origin` is refused with 403.

use crate::error::ApiError;
use axum::extract::Request;
use axum::http::header::ORIGIN;
use axum::http::{Extensions, HeaderMap};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

/// `scheme://host[:port]` lower-cased, the default port of the scheme
/// left out.
fn normalise(scheme: &str, host: &str) -> String {
    let scheme = scheme.to_ascii_lowercase();
    let host = host.trim().to_ascii_lowercase();
    let default = if scheme == "https" { ":443" } else { ":80" };
    let host = host.strip_suffix(default).unwrap_or(&host);
    format!("{scheme}://{host}")
}

/// Refuses (403) a request whose `Origin` is not this server's.
pub(crate) fn check(headers: &HeaderMap, ext: &Extensions) -> Result<(), ApiError> {
    let refuse = |why: &str| {
        Err(ApiError::Forbidden(format!(
            "{why}: this request must come from the site's own page"
        )))
    };
    let Some(origin) = headers.get(ORIGIN).and_then(|v| v.to_str().ok()) else {
        return refuse("the request has no Origin header");
    };
    let Some((scheme, host)) = origin.split_once("://") else {
        return refuse("the request's Origin is not this site");
    };
    match crate::proxy::origin(headers, ext) {
        Some(own) if own == normalise(scheme, host) => Ok(()),
        _ => refuse("the request's Origin is not this site"),
    }
}

/// [`check`] as a middleware, for the routes of a router that a cookie
/// authorises (`Router::route_layer`): a refused request reaches no
/// handler, so it changes nothing.
pub(crate) async fn require_origin(req: Request, next: Next) -> Response {
    match check(req.headers(), req.extensions()) {
        Ok(()) => next.run(req).await,
        Err(e) => e.into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proxy::{Client, ForwardedHost};
    use axum::http::HeaderValue;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(*k, HeaderValue::from_static(v));
        }
        h
    }

    fn ext(https: bool, forwarded: Option<&str>) -> Extensions {
        let mut e = Extensions::new();
        e.insert(Client {
            ip: [127, 0, 0, 1].into(),
            https,
        });
        if let Some(f) = forwarded {
            e.insert(ForwardedHost(f.into()));
        }
        e
    }

    #[test]
    fn only_the_own_origin_passes() {
        let ok = headers(&[
            ("host", "play.example:8080"),
            ("origin", "http://play.example:8080"),
        ]);
        assert!(check(&ok, &ext(false, None)).is_ok());
        // Over https (a trusted proxy said so), the scheme must be https.
        assert!(check(&ok, &ext(true, None)).is_err());
        let tls = headers(&[
            ("host", "play.example"),
            ("origin", "https://PLAY.example:443"),
        ]);
        assert!(check(&tls, &ext(true, None)).is_ok());
        for bad in [
            headers(&[("host", "play.example")]),
            headers(&[("host", "play.example"), ("origin", "null")]),
            headers(&[("host", "play.example"), ("origin", "http://evil.example")]),
            headers(&[
                ("host", "play.example"),
                ("origin", "http://play.example.evil"),
            ]),
            headers(&[("origin", "http://play.example")]),
        ] {
            assert!(check(&bad, &ext(false, None)).is_err(), "{bad:?}");
        }
        // The host a trusted proxy names counts, not the Host header.
        let proxied = headers(&[
            ("host", "127.0.0.1:8080"),
            ("origin", "https://play.example"),
        ]);
        assert!(check(&proxied, &ext(true, Some("play.example"))).is_ok());
        assert!(check(&proxied, &ext(true, None)).is_err());
    }
}
