//! Every error answer of the real server, over TCP, in the API's shape
//! `{"error": ...}` (issue 16 item 8): 405, 413, 414, 431 and a path that
//! is not UTF-8; and what is left to hyper beyond its own head limit.

use crate::support;

use serde_json::Value;
use springboard_web::{app, MAX_HEADERS, MAX_HEADER_BYTES, MAX_HEAD_BYTES, MAX_URI_BYTES};
use std::time::Duration;
use support::loopback::listen;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

async fn server() -> String {
    listen(app(None).await).await
}

/// Sends `head` (the request line and headers, without the blank line)
/// and `body`; the status, the content type and the body of the answer.
async fn send(addr: &str, head: &[u8], body: &[u8]) -> (u16, String, Vec<u8>) {
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let mut req = head.to_vec();
    req.extend_from_slice(b"\r\nHost: x\r\nConnection: close\r\n");
    if !String::from_utf8_lossy(head).contains("Content-Length") {
        req.extend_from_slice(format!("Content-Length: {}\r\n", body.len()).as_bytes());
    }
    req.extend_from_slice(b"\r\n");
    req.extend_from_slice(body);
    // The server may answer and close before reading a large request.
    let _ = s.write_all(&req).await;
    let mut out = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(10), s.read_to_end(&mut out))
        .await
        .expect("the server answers within 10 s");
    let text = String::from_utf8_lossy(&out).into_owned();
    assert!(text.starts_with("HTTP/1.1 "), "no HTTP answer: {text:?}");
    let status = text[9..12].parse().unwrap();
    let (head, _) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let content_type = head
        .lines()
        .find_map(|l| l.strip_prefix("content-type: "))
        .unwrap_or("")
        .to_string();
    let at = out
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map_or(out.len(), |p| p + 4);
    (status, content_type, out[at..].to_vec())
}

/// Asserts a JSON error answer with `status`; its reason.
async fn json_error(addr: &str, head: &[u8], body: &[u8], status: u16) -> String {
    let (got, content_type, bytes) = send(addr, head, body).await;
    let text = String::from_utf8_lossy(&bytes).into_owned();
    assert_eq!(got, status, "{text}");
    assert_eq!(content_type, "application/json", "{text}");
    let v: Value = serde_json::from_slice(&bytes).unwrap_or_else(|_| panic!("not JSON: {text}"));
    v["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error reason: {text}"))
        .to_string()
}

#[tokio::test]
async fn method_not_allowed_is_json() {
    let addr = server().await;
    let reason = json_error(&addr, b"DELETE /api/info HTTP/1.1", b"", 405).await;
    assert_eq!(reason, "this method is not allowed here");
}

#[tokio::test]
async fn a_body_over_the_limit_is_413_json() {
    let addr = server().await;
    let body = format!("{{\"x\":\"{}\"}}", "a".repeat(300_000));
    let head = b"POST /api/games HTTP/1.1\r\nContent-Type: application/json";
    let reason = json_error(&addr, head, body.as_bytes(), 413).await;
    assert!(reason.contains("larger than"), "{reason}");
    // 50 MB announced: refused before it is read, in JSON.
    let (status, content_type, _) = send(
        &addr,
        b"POST /api/games HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 50000000",
        b"",
    )
    .await;
    assert_eq!((status, content_type.as_str()), (413, "application/json"));
}

#[tokio::test]
async fn a_request_target_over_the_limit_is_414_json() {
    let addr = server().await;
    // Just within: served.
    let path = format!("/api/info?{}", "a".repeat(MAX_URI_BYTES - 10));
    let (status, ..) = send(&addr, format!("GET {path} HTTP/1.1").as_bytes(), b"").await;
    assert_eq!(status, 200);
    let path = format!("/api/info?{}", "a".repeat(MAX_URI_BYTES));
    let reason = json_error(&addr, format!("GET {path} HTTP/1.1").as_bytes(), b"", 414).await;
    assert!(reason.contains("request target"), "{reason}");
    let path = format!("/api/games/{}", "a".repeat(20_000));
    json_error(&addr, format!("GET {path} HTTP/1.1").as_bytes(), b"", 414).await;
}

#[tokio::test]
async fn headers_over_the_limit_are_431_json() {
    let addr = server().await;
    // One large header.
    let head = format!(
        "GET /api/info HTTP/1.1\r\nX-Big: {}",
        "b".repeat(MAX_HEADER_BYTES + 1)
    );
    let reason = json_error(&addr, head.as_bytes(), b"", 431).await;
    assert!(reason.contains("headers"), "{reason}");
    // Too many headers (still fewer than hyper's 100).
    let mut head = "GET /api/info HTTP/1.1".to_string();
    for i in 0..=MAX_HEADERS {
        head.push_str(&format!("\r\nX-H{i}: v"));
    }
    json_error(&addr, head.as_bytes(), b"", 431).await;
    // Beyond hyper's own buffer the app never sees the request: hyper
    // answers 431 itself, without a body (docs/play-server.md).
    let head = format!(
        "GET /api/info HTTP/1.1\r\nX-Huge: {}",
        "b".repeat(MAX_HEAD_BYTES + 1)
    );
    let (status, ..) = send(&addr, head.as_bytes(), b"").await;
    assert_eq!(status, 431);
}

#[tokio::test]
async fn a_path_that_is_not_utf8_is_400_json() {
    let addr = server().await;
    for path in [
        "/api/games/%FF%FEabcdef",
        "/static/%C3%28.js",
        "/api/rules/%80",
        "/g/%E2%82",
    ] {
        let reason = json_error(&addr, format!("GET {path} HTTP/1.1").as_bytes(), b"", 400).await;
        assert!(reason.contains("not UTF-8"), "{path}: {reason}");
    }
    // Raw bytes that are not ASCII in the request line: hyper's parser
    // refuses them before the app (400 without a body), as the HTTP
    // grammar asks.
    let (status, ..) = send(&addr, b"GET /api/games/\xff\xfe HTTP/1.1", b"").await;
    assert_eq!(status, 400);
    // UTF-8 escapes are fine: an unknown game, in JSON.
    let reason = json_error(&addr, b"GET /api/games/%C3%A9t%C3%A9 HTTP/1.1", b"", 404).await;
    assert!(reason.contains("no game"), "{reason}");
}
