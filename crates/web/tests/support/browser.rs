//! A browser through the router (no network): a cookie jar that keeps what
//! the server sets, a peer address, and the page's `Origin` on every
//! request but a `GET` (as a browser's fetch sends it), which a test may
//! take away or forge.

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::net::SocketAddr;
use tower::ServiceExt;

/// The host the browser's requests name.
pub const HOST: &str = "play.test";
/// The site's own origin.
pub const ORIGIN: &str = "http://play.test";

/// An answer: status, its `Set-Cookie` values, its JSON body (null if
/// none).
pub struct Answer {
    pub status: StatusCode,
    pub cookies: Vec<String>,
    pub body: Value,
}

/// A browser: its cookies, its address, the `Origin` it sends.
#[derive(Clone)]
pub struct Browser {
    pub app: Router,
    pub peer: String,
    pub jar: HashMap<String, String>,
    /// The `Origin` of its requests but `GET`s (None: no header).
    pub origin: Option<String>,
    /// The other headers of every request (a User-Agent to begin with; a
    /// test adds a proxy's `X-Forwarded-*`).
    pub extra: Vec<(String, String)>,
}

impl Browser {
    pub fn new(app: &Router) -> Browser {
        Browser {
            app: app.clone(),
            peer: "127.0.0.1".into(),
            jar: HashMap::new(),
            origin: Some(ORIGIN.into()),
            extra: vec![("user-agent".into(), "TestBrowser/1.0".into())],
        }
    }

    /// The same browser at address `peer`.
    pub fn at(mut self, peer: &str) -> Browser {
        self.peer = peer.into();
        self
    }

    pub fn cookie(&self, name: &str) -> Option<String> {
        self.jar.get(name).cloned()
    }

    pub async fn send(&mut self, method: &str, uri: &str, body: Option<Value>) -> Answer {
        let mut req = Request::builder()
            .method(method)
            .uri(uri)
            .header("host", HOST);
        if method != "GET" {
            if let Some(o) = &self.origin {
                req = req.header("origin", o.as_str());
            }
        }
        for (k, v) in &self.extra {
            req = req.header(k.as_str(), v.as_str());
        }
        if !self.jar.is_empty() {
            let c: Vec<String> = self.jar.iter().map(|(k, v)| format!("{k}={v}")).collect();
            req = req.header("cookie", c.join("; "));
        }
        if body.is_some() {
            req = req.header("content-type", "application/json");
        }
        let mut req = req
            .body(body.map_or_else(Body::empty, |b| Body::from(b.to_string())))
            .unwrap();
        let addr: SocketAddr = format!("{}:40000", self.peer).parse().unwrap();
        req.extensions_mut().insert(ConnectInfo(addr));
        let resp = self.app.clone().oneshot(req).await.unwrap();
        let status = resp.status();
        let cookies: Vec<String> = resp
            .headers()
            .get_all("set-cookie")
            .iter()
            .map(|v| v.to_str().unwrap().to_string())
            .collect();
        for c in &cookies {
            let (kv, _) = c.split_once(';').unwrap_or((c, ""));
            let (k, v) = kv.split_once('=').unwrap();
            if c.contains("Max-Age=0") {
                self.jar.remove(k);
            } else {
                self.jar.insert(k.into(), v.into());
            }
        }
        let bytes = resp.into_body().collect().await.unwrap().to_bytes();
        let body = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        Answer {
            status,
            cookies,
            body,
        }
    }

    pub async fn post(&mut self, uri: &str, body: Value) -> Answer {
        self.send("POST", uri, Some(body)).await
    }

    /// The join path of game `id` as its creator (this browser) hands it
    /// out: with the invitation's token while a friend game waits.
    pub async fn invite_path(&mut self, id: &str) -> String {
        let g = self.get(&format!("/api/games/{id}")).await.body;
        match g["invite"].as_str() {
            Some(token) => format!("/api/games/{id}/join?invite={token}"),
            None => format!("/api/games/{id}/join"),
        }
    }

    pub async fn get(&mut self, uri: &str) -> Answer {
        self.send("GET", uri, None).await
    }

    /// Signs up as `name`, answered 201.
    pub async fn sign_up(&mut self, name: &str, password: &str) {
        let a = self
            .post(
                "/api/account/signup",
                json!({"name": name, "password": password}),
            )
            .await;
        assert_eq!(a.status, StatusCode::CREATED, "sign-up {name}: {}", a.body);
    }

    /// Signs in as `name`, answered 200.
    pub async fn sign_in(&mut self, name: &str, password: &str) {
        let a = self
            .post(
                "/api/account/signin",
                json!({"name": name, "password": password}),
            )
            .await;
        assert_eq!(a.status, StatusCode::OK, "sign-in {name}: {}", a.body);
    }

    /// A new game of `body`, answered 201: its view.
    pub async fn new_game(&mut self, body: Value) -> Value {
        let a = self.post("/api/games", body).await;
        assert_eq!(a.status, StatusCode::CREATED, "{}", a.body);
        a.body
    }

    /// The ids of the signed-in account's games.
    pub async fn account_games(&mut self) -> Vec<String> {
        let a = self.get("/api/account/games").await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.body);
        a.body["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect()
    }
}
