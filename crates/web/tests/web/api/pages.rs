//! The page and its static files (no path traversal), and the rules pages.

use crate::support::http::{call, send};
use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::json;
use springboard_web::app;
use tower::ServiceExt;

#[tokio::test]
async fn static_files_and_no_traversal() {
    let app = app(None).await;
    let (status, page) = send(&app, "GET", "/", None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(String::from_utf8_lossy(&page).contains("<title>Springboard</title>"));
    let req = Request::builder()
        .uri("/static/app.js")
        .body(Body::empty())
        .unwrap();
    let resp = app.clone().oneshot(req).await.unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    assert_eq!(
        resp.headers()["content-type"],
        "text/javascript; charset=utf-8"
    );
    for uri in [
        "/static/../Cargo.toml",
        "/static/..%2f..%2fCargo.toml",
        "/static/%2e%2e/%2e%2e/Cargo.toml",
        "/static/../../../../etc/passwd",
        "/static//etc/passwd",
        "/static/rules/../app.js",
        "/../Cargo.toml",
        "/static/",
    ] {
        let (status, body) = send(&app, "GET", uri, None).await;
        assert!(
            status == StatusCode::NOT_FOUND || status == StatusCode::BAD_REQUEST,
            "{uri}: {status}"
        );
        let text = String::from_utf8_lossy(&body);
        assert!(
            !text.contains("[workspace]") && !text.contains("root:"),
            "{uri}"
        );
    }
}

/// The page's WebAssembly build (scripts/wasm.sh), when the server was
/// built with it: `wasm.json` names its files, served under their
/// content's hash for good; without it `wasm.json` is a 404.
#[tokio::test]
async fn webassembly_build_when_built() {
    let app = app(None).await;
    let get = |uri: &str| {
        let req = Request::builder().uri(uri).body(Body::empty()).unwrap();
        app.clone().oneshot(req)
    };
    let manifest = get("/static/wasm.json").await.unwrap();
    if manifest.status() == StatusCode::NOT_FOUND {
        return;
    }
    assert_eq!(manifest.status(), StatusCode::OK);
    assert_eq!(manifest.headers()["cache-control"], "no-cache");
    let body = axum::body::to_bytes(manifest.into_body(), 1 << 16)
        .await
        .unwrap();
    let names: serde_json::Value = serde_json::from_slice(&body).unwrap();
    for (key, mime) in [
        ("js", "text/javascript; charset=utf-8"),
        ("wasm", "application/wasm"),
    ] {
        let uri = names[key].as_str().unwrap();
        let hashed = uri.rsplit_once('-').unwrap().1.split_once('.').unwrap().0;
        assert!(
            hashed.len() == 16 && hashed.chars().all(|c| c.is_ascii_hexdigit()),
            "{uri}"
        );
        let resp = get(uri).await.unwrap();
        assert_eq!(resp.status(), StatusCode::OK, "{uri}");
        assert_eq!(resp.headers()["content-type"], mime);
        assert_eq!(
            resp.headers()["cache-control"],
            "public, max-age=31536000, immutable"
        );
    }
}

#[tokio::test]
async fn rules_pages() {
    let app = app(None).await;
    for v in springboard_rules::Variant::ALL {
        let (status, rules) = call(&app, "GET", &format!("/api/rules/{}", v.name()), None).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(rules["title"], v.title());
        assert!(rules["text"]
            .as_str()
            .unwrap()
            .starts_with(&format!("# {}", v.title())));
        // Issue 11, item 10: written for players, without ruling ids.
        let text = rules["text"].as_str().unwrap();
        assert_eq!(ruling_ids(text), Vec::<String>::new(), "{text}");
    }
    // Nor do the reasons a refused position gets.
    for (variant, fen) in [
        ("jumpingking", "5k2/8/8/8/8/PPPP4/8/K7[] w - 0 1"),
        ("jumpingking", "5k2/8/8/8/8/8/1Q6/K7[] w - 0 1"),
        ("hopchess", "4k3/8/8/8/8/8/8/4K3 w - - 0 1 -,- first"),
    ] {
        let (status, err) = call(
            &app,
            "POST",
            "/api/games",
            Some(json!({"variant": variant, "fen": fen})),
        )
        .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{err}");
        let reason = err["error"].as_str().unwrap();
        assert_eq!(ruling_ids(reason), Vec::<String>::new(), "{reason}");
        assert!(
            reason.contains("a side owns 3")
                || reason.contains("no queens")
                || reason.contains("White's first turn"),
            "{reason}"
        );
    }
}

/// The words of `text` that look like ruling ids (`H5`, `P2`, `J1-J10`).
fn ruling_ids(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| {
            let mut chars = w.chars();
            matches!(chars.next(), Some('C' | 'P' | 'H' | 'T' | 'J' | 'L' | 'N'))
                && (2..=3).contains(&w.len())
                && chars.all(|c| c.is_ascii_digit())
        })
        .map(str::to_string)
        .collect()
}
