//! Slow and idle connections are closed (issue 16 item 6).

use springboard_web::{app, serve_with};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

async fn server(header_timeout: Duration) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(serve_with(listener, app(None).await, header_timeout));
    addr.to_string()
}

/// Reads until the server closes the connection; what it sent.
async fn until_closed(s: &mut tokio::net::TcpStream) -> String {
    let mut out = Vec::new();
    tokio::time::timeout(Duration::from_secs(5), s.read_to_end(&mut out))
        .await
        .expect("the server closes the connection within 5 s")
        .unwrap();
    String::from_utf8_lossy(&out).into_owned()
}

#[tokio::test]
async fn a_request_head_that_never_ends_is_cut() {
    let addr = server(Duration::from_millis(300)).await;
    let mut s = tokio::net::TcpStream::connect(&addr).await.unwrap();
    s.write_all(b"GET /api/info HTTP/1.1\r\nHost: x\r\n")
        .await
        .unwrap();
    until_closed(&mut s).await;
}

#[tokio::test]
async fn an_idle_connection_is_closed_after_its_request() {
    let addr = server(Duration::from_millis(300)).await;
    let mut s = tokio::net::TcpStream::connect(&addr).await.unwrap();
    s.write_all(b"GET /api/info HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    let answer = until_closed(&mut s).await;
    assert!(answer.starts_with("HTTP/1.1 200 OK"), "{answer}");
}
