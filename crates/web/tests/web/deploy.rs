//! Behind a reverse proxy and through a database outage, through the
//! router (no network): the client address and scheme a trusted proxy
//! gives, and the 503 answers while the store cannot be reached.

use crate::support;

use async_trait::async_trait;
use axum::extract::ConnectInfo;
use axum::http::{HeaderMap, StatusCode};
use axum::Router;
use serde_json::{json, Value};
use springboard_web::proxy::Trusted;
use springboard_web::store::{Ending, GameRecord, ListQuery, StoreError};
use springboard_web::{app_with, GameStore, Options, PresenceStore, SqliteStore, Store};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use support::http::{request, respond};

/// A request from TCP peer `peer` with `headers`: status, headers, JSON.
async fn send(
    app: &Router,
    peer: &str,
    method: &str,
    uri: &str,
    headers: &[(&str, &str)],
    body: Option<Value>,
) -> (StatusCode, HeaderMap, Value) {
    let mut req = request(method, uri, None, headers, body.map(|b| b.to_string()));
    let addr: SocketAddr = format!("{peer}:40000").parse().unwrap();
    req.extensions_mut().insert(ConnectInfo(addr));
    let (status, headers, bytes) = respond(app, req).await;
    let value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    (status, headers, value)
}

async fn proxied_app(store: Arc<dyn Store>) -> Router {
    let mut options = Options::new(None);
    options.creations_per_minute = 1;
    options.trusted_proxies = Trusted::parse(&["127.0.0.3"]).unwrap();
    app_with(store, options).await.unwrap()
}

const PROXY: &str = "127.0.0.3";

#[tokio::test]
async fn the_limit_counts_the_address_a_trusted_proxy_gives() {
    let app = proxied_app(Arc::new(SqliteStore::memory().await.unwrap())).await;
    let create = |peer: &'static str, xff: &'static str| {
        let app = app.clone();
        async move {
            send(
                &app,
                peer,
                "POST",
                "/api/games",
                &[("x-forwarded-for", xff)],
                Some(json!({"mode": "local"})),
            )
            .await
            .0
        }
    };
    // Through the proxy: each browser has its own allowance.
    assert_eq!(create(PROXY, "198.51.100.1").await, StatusCode::CREATED);
    assert_eq!(
        create(PROXY, "198.51.100.1").await,
        StatusCode::TOO_MANY_REQUESTS
    );
    // A forged entry before the browser's own is not believed.
    assert_eq!(
        create(PROXY, "203.0.113.9, 198.51.100.1").await,
        StatusCode::TOO_MANY_REQUESTS
    );
    assert_eq!(create(PROXY, "198.51.100.2").await, StatusCode::CREATED);
    // Straight to the server, the header is ignored: the peer counts.
    assert_eq!(
        create("127.0.0.1", "198.51.100.3").await,
        StatusCode::CREATED
    );
    assert_eq!(
        create("127.0.0.1", "198.51.100.4").await,
        StatusCode::TOO_MANY_REQUESTS
    );
}

#[tokio::test]
async fn the_seat_cookie_is_secure_over_https_only() {
    let app = proxied_app(Arc::new(SqliteStore::memory().await.unwrap())).await;
    let cookie = |peer: &'static str, xff: &'static str, proto: &'static str| {
        let app = app.clone();
        // The page's origin: https where the trusted proxy says so.
        let origin = if peer == PROXY && proto == "https" {
            "https://springboard.test"
        } else {
            "http://springboard.test"
        };
        async move {
            let (status, headers, _) = send(
                &app,
                peer,
                "POST",
                "/api/games",
                &[
                    ("x-forwarded-for", xff),
                    ("x-forwarded-proto", proto),
                    ("origin", origin),
                ],
                Some(json!({"mode": "local"})),
            )
            .await;
            assert_eq!(status, StatusCode::CREATED);
            headers
                .get("set-cookie")
                .unwrap()
                .to_str()
                .unwrap()
                .to_string()
        }
    };
    let c = cookie(PROXY, "198.51.100.1", "https").await;
    assert!(
        c.starts_with("sb_player=") && c.ends_with("; Secure"),
        "{c}"
    );
    let c = cookie(PROXY, "198.51.100.2", "http").await;
    assert!(!c.contains("Secure"), "{c}");
    // A client cannot claim https straight to the server.
    let c = cookie("127.0.0.1", "198.51.100.3", "https").await;
    assert!(!c.contains("Secure"), "{c}");
}

/// A store that fails as an unreachable database does while `down`.
struct Flaky {
    inner: SqliteStore,
    down: AtomicBool,
}

impl Flaky {
    fn check(&self) -> Result<(), StoreError> {
        if self.down.load(Ordering::SeqCst) {
            Err(StoreError::Db(sqlx::Error::PoolTimedOut))
        } else {
            Ok(())
        }
    }
}

#[async_trait]
impl GameStore for Flaky {
    async fn insert(&self, game: &GameRecord) -> Result<(), StoreError> {
        self.check()?;
        self.inner.insert(game).await
    }
    async fn load(&self, id: &str) -> Result<Option<GameRecord>, StoreError> {
        self.check()?;
        self.inner.load(id).await
    }
    async fn update(
        &self,
        game: &GameRecord,
        expected: i64,
        also: &[GameRecord],
        ending: Option<Ending<'_>>,
    ) -> Result<bool, StoreError> {
        self.check()?;
        self.inner.update(game, expected, also, ending).await
    }
    async fn list(&self, query: &ListQuery, limit: i64) -> Result<Vec<GameRecord>, StoreError> {
        self.check()?;
        self.inner.list(query, limit).await
    }
    async fn unfinished(&self) -> Result<Vec<String>, StoreError> {
        self.check()?;
        self.inner.unfinished().await
    }
    async fn imported(&self, key: &str) -> Result<Vec<GameRecord>, StoreError> {
        self.check()?;
        self.inner.imported(key).await
    }
    fn describe(&self) -> String {
        "a store that fails on demand".into()
    }
}

#[async_trait]
impl PresenceStore for Flaky {
    async fn heartbeat(&self, process: &str, now: i64) -> Result<(), StoreError> {
        self.check()?;
        self.inner.heartbeat(process, now).await
    }
    async fn others_alive(&self, process: &str, since: i64) -> Result<bool, StoreError> {
        self.check()?;
        self.inner.others_alive(process, since).await
    }
    async fn forget_processes(&self, before: i64) -> Result<(), StoreError> {
        self.check()?;
        self.inner.forget_processes(before).await
    }
}

#[tokio::test]
async fn an_outage_answers_503_and_loses_no_acknowledged_move() {
    let store = Arc::new(Flaky {
        inner: SqliteStore::memory().await.unwrap(),
        down: AtomicBool::new(false),
    });
    let app = proxied_app(store.clone()).await;
    let cookie = [("cookie", "sb_player=TestBrowser0123456789abc")];
    let (status, _, game) = send(
        &app,
        "127.0.0.1",
        "POST",
        "/api/games",
        &cookie,
        Some(json!({"mode": "local"})),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{game}");
    let id = game["id"].as_str().unwrap().to_string();
    let mv = |m: &'static str| {
        let (app, id) = (app.clone(), id.clone());
        async move {
            send(
                &app,
                "127.0.0.1",
                "POST",
                &format!("/api/games/{id}/move"),
                &cookie,
                Some(json!({ "move": m })),
            )
            .await
        }
    };
    assert_eq!(mv("e2e4").await.0, StatusCode::OK);

    store.down.store(true, Ordering::SeqCst);
    let (status, headers, body) = mv("e7e5").await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    assert_eq!(
        body,
        json!({"error": "the database is unavailable; try again shortly"})
    );
    assert_eq!(headers.get("retry-after").unwrap(), "2");
    let (status, _, body) = send(&app, "127.0.0.1", "GET", "/api/games", &[], None).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    assert!(body["error"].is_string());

    // Back: the refused move was not taken; it is played now, and the
    // game holds every acknowledged move.
    store.down.store(false, Ordering::SeqCst);
    assert_eq!(mv("e7e5").await.0, StatusCode::OK);
    assert_eq!(mv("g1f3").await.0, StatusCode::OK);
    let stored = store.inner.load(&id).await.unwrap().unwrap();
    let ucis: Vec<&str> = stored.moves.iter().map(|m| m.uci.as_str()).collect();
    assert_eq!(ucis, ["e2e4", "e7e5", "g1f3"]);
}
