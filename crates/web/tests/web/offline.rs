//! The page's service worker (`/sw.js`, issue 44 item 4): served from the
//! root with no-cache, listing the page and every embedded file to keep
//! (the WebAssembly build under its hashed names when built), its version
//! a hash of them.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use springboard_web::app;
use tower::ServiceExt;

async fn get(app: &axum::Router, uri: &str) -> (StatusCode, axum::http::HeaderMap, String) {
    let req = Request::builder().uri(uri).body(Body::empty()).unwrap();
    let resp = app.clone().oneshot(req).await.unwrap();
    let status = resp.status();
    let headers = resp.headers().clone();
    // The WebAssembly build is over 1 MB; its bytes are not text.
    let body = axum::body::to_bytes(resp.into_body(), 16 << 20)
        .await
        .unwrap();
    (status, headers, String::from_utf8_lossy(&body).into_owned())
}

#[tokio::test]
async fn the_service_worker_lists_the_page_and_its_files() {
    let app = app(None).await;
    let (status, headers, script) = get(&app, "/sw.js").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers["content-type"], "text/javascript; charset=utf-8");
    assert_eq!(headers["cache-control"], "no-cache");
    assert_eq!(headers["service-worker-allowed"], "/");
    assert!(!script.contains("__SPRINGBOARD_"), "a placeholder left");
    // The files: a JSON list after `const FILES =`.
    let start = script.find("const FILES = ").expect("the files") + "const FILES = ".len();
    let end = start + script[start..].find(";\n").expect("the list's end");
    let list = script[start..end]
        .trim_start_matches("/** @type {any} */ (")
        .trim_end_matches(')');
    let files: Vec<String> = serde_json::from_str(list).expect(list);
    assert_eq!(files[0], "/");
    for f in [
        "/static/app.js",
        "/static/style.css",
        "/static/analysisworker.js",
        "/static/localgame.js",
    ] {
        assert!(files.iter().any(|x| x == f), "{f} in {files:?}");
    }
    // Every file listed is served.
    for f in &files {
        let (status, _, _) = get(&app, f).await;
        assert_eq!(status, StatusCode::OK, "{f}");
    }
    // With the WebAssembly build, its hashed files and wasm.json are kept.
    let (status, _, manifest) = get(&app, "/static/wasm.json").await;
    if status == StatusCode::OK {
        let names: serde_json::Value = serde_json::from_str(&manifest).unwrap();
        for key in ["js", "wasm"] {
            let uri = names[key].as_str().unwrap();
            assert!(files.iter().any(|x| x == uri), "{uri} in {files:?}");
        }
        assert!(files.iter().any(|x| x == "/static/wasm.json"));
    }
    // The version: 16 hex digits, the same at every request.
    let v = script.split("const VERSION = \"").nth(1).unwrap();
    let v = &v[..v.find('"').unwrap()];
    assert!(
        v.len() == 16 && v.chars().all(|c| c.is_ascii_hexdigit()),
        "{v}"
    );
    assert_eq!(get(&app, "/sw.js").await.2, script);
}
