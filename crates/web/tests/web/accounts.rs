//! Accounts through the router (no network), on SQLite and, when
//! `SPRINGBOARD_TEST_POSTGRES` names a server, on PostgreSQL: sign up, in
//! and out, the session cookie, sign out everywhere, the password change,
//! bad names, the sign-in limits, CSRF, forged sessions, the games of a
//! browser becoming the account's, the stored hash, and the logs.

use crate::support;

use axum::http::StatusCode;
use axum::Router;
use serde_json::json;
use sha2::{Digest, Sha256};
use springboard_web::proxy::Trusted;
use springboard_web::{app_with, AccountStore, GameStore, Options, PgStore, SqliteStore, Store};
use std::sync::Arc;
use support::browser::Answer;
use support::logs::Captured;
use support::postgres::postgres_options;

const PASSWORD: &str = "correct horse battery";

fn logs() -> &'static Captured {
    support::logs::capture("warn,springboard_web=trace")
}

/// The app over each backend, with its account store; a trusted proxy at
/// 127.0.0.3.
async fn apps() -> Vec<(&'static str, Router, Arc<dyn AccountStore>)> {
    logs();
    let mut v = Vec::new();
    let sqlite = Arc::new(SqliteStore::memory().await.unwrap());
    v.push((
        "sqlite",
        app(sqlite.clone(), sqlite.clone()).await,
        sqlite as Arc<dyn AccountStore>,
    ));
    if let Some(options) = postgres_options("sb_accounts").await {
        let pg = Arc::new(PgStore::connect_with(options).await.unwrap());
        v.push((
            "postgres",
            app(pg.clone(), pg.clone()).await,
            pg as Arc<dyn AccountStore>,
        ));
    }
    v
}

async fn app(games: Arc<dyn Store>, accounts: Arc<dyn AccountStore>) -> Router {
    let mut options = Options::new(None);
    options.accounts = Some(accounts);
    options.trusted_proxies = Trusted::parse(&["127.0.0.3"]).unwrap();
    app_with(games, options).await.unwrap()
}

/// A browser (`support::browser`'s cookie jar, address, page `Origin` and
/// headers) whose sign-up and sign-in answer whatever the server says.
#[derive(Clone)]
struct Browser(support::browser::Browser);

impl std::ops::Deref for Browser {
    type Target = support::browser::Browser;
    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl std::ops::DerefMut for Browser {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.0
    }
}

impl Browser {
    fn new(app: &Router) -> Browser {
        Browser(support::browser::Browser::new(app))
    }

    fn at(self, peer: &str) -> Browser {
        Browser(self.0.at(peer))
    }

    async fn sign_up(&mut self, name: &str, password: &str) -> Answer {
        self.post(
            "/api/account/signup",
            json!({"name": name, "password": password}),
        )
        .await
    }

    async fn sign_in(&mut self, name: &str, password: &str) -> Answer {
        self.post(
            "/api/account/signin",
            json!({"name": name, "password": password}),
        )
        .await
    }

    /// The signed-in name, or None (401).
    async fn who(&mut self) -> Option<String> {
        let a = self.get("/api/account").await;
        match a.status {
            StatusCode::OK => Some(a.body["name"].as_str().unwrap().to_string()),
            StatusCode::UNAUTHORIZED => None,
            s => panic!("GET /api/account: {s} {}", a.body),
        }
    }
}

fn sha256_hex(text: &str) -> String {
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[tokio::test]
async fn sign_up_in_and_out_with_a_new_session_each_time() {
    for (db, app, store) in apps().await {
        let mut b = Browser::new(&app);
        assert_eq!(b.who().await, None, "{db}");
        let a = b.sign_up("Alice", PASSWORD).await;
        assert_eq!(a.status, StatusCode::CREATED, "{db}: {}", a.body);
        assert_eq!(a.body["name"], "Alice");
        let session = a
            .cookies
            .iter()
            .find(|c| c.starts_with("sb_session="))
            .unwrap_or_else(|| panic!("{db}: no session cookie in {:?}", a.cookies));
        for attr in ["HttpOnly", "SameSite=Lax", "Path=/"] {
            assert!(session.split("; ").any(|a| a == attr), "{db}: {session}");
        }
        assert!(!session.contains("Secure"), "plain http: {session}");
        // Signing up signs in.
        assert_eq!(b.who().await.as_deref(), Some("Alice"), "{db}");
        let first = b.cookie("sb_session").unwrap();
        // Only the token's hash is stored, with the user agent.
        let row = store.session(&sha256_hex(&first)).await.unwrap().unwrap();
        assert_eq!(row.user_id, "alice");
        assert_eq!(row.user_agent.as_deref(), Some("TestBrowser/1.0"));
        assert!(store.session(&first).await.unwrap().is_none(), "{db}");

        let out = b.post("/api/account/signout", json!({})).await;
        assert_eq!(out.status, StatusCode::OK, "{db}: {}", out.body);
        assert!(out
            .cookies
            .iter()
            .any(|c| c.starts_with("sb_session=;") && c.contains("Max-Age=0")));
        assert_eq!(b.who().await, None, "{db}");
        assert!(store.session(&sha256_hex(&first)).await.unwrap().is_none());

        // Any case of the name signs in; the session id is new.
        let a = b.sign_in("aLiCe", PASSWORD).await;
        assert_eq!(a.status, StatusCode::OK, "{db}: {}", a.body);
        assert_eq!(a.body["name"], "Alice");
        let second = b.cookie("sb_session").unwrap();
        assert_ne!(first, second, "{db}");
        // Signing in again while signed in: a new id, the old one ends.
        assert_eq!(b.sign_in("alice", PASSWORD).await.status, StatusCode::OK);
        let third = b.cookie("sb_session").unwrap();
        assert_ne!(second, third, "{db}");
        let mut old = Browser::new(&app);
        old.jar.insert("sb_session".into(), second);
        assert_eq!(old.who().await, None, "{db}: the replaced session ends");
        assert_eq!(b.who().await.as_deref(), Some("Alice"));

        // The stored hash is Argon2id, never the password.
        let user = store.user("alice").await.unwrap().unwrap();
        assert!(
            user.password_hash.starts_with("$argon2id$v=19$"),
            "{db}: {}",
            user.password_hash
        );
        assert!(!user.password_hash.contains(PASSWORD));
    }
}

#[tokio::test]
async fn over_https_the_session_cookie_is_secure() {
    for (db, app, _) in apps().await {
        let mut b = Browser::new(&app).at("127.0.0.3");
        b.origin = Some("https://play.test".into());
        b.extra.push(("x-forwarded-proto".into(), "https".into()));
        b.extra
            .push(("x-forwarded-for".into(), "198.51.100.7".into()));
        let a = b.sign_up("secure_sam", PASSWORD).await;
        assert_eq!(a.status, StatusCode::CREATED, "{db}: {}", a.body);
        assert!(
            a.cookies
                .iter()
                .filter(|c| c.starts_with("sb_session=") || c.starts_with("sb_player="))
                .all(|c| c.ends_with("; Secure") && c.matches("Secure").count() == 1),
            "{db}: {:?}",
            a.cookies
        );
    }
}

#[tokio::test]
async fn sign_out_everywhere_ends_every_session() {
    for (db, app, _) in apps().await {
        let mut phone = Browser::new(&app);
        let mut laptop = Browser::new(&app);
        assert_eq!(
            phone.sign_up("bob", PASSWORD).await.status,
            StatusCode::CREATED
        );
        assert_eq!(laptop.sign_in("BOB", PASSWORD).await.status, StatusCode::OK);
        assert_eq!(laptop.who().await.as_deref(), Some("bob"));
        let a = phone.post("/api/account/signout-all", json!({})).await;
        assert_eq!(a.status, StatusCode::OK, "{db}: {}", a.body);
        assert_eq!(a.body["sessions"], 2, "{db}");
        assert_eq!(phone.who().await, None, "{db}");
        assert_eq!(laptop.who().await, None, "{db}");
        // Signed out, it cannot sign out everywhere.
        let a = laptop.post("/api/account/signout-all", json!({})).await;
        assert_eq!(a.status, StatusCode::UNAUTHORIZED, "{db}");
    }
}

#[tokio::test]
async fn a_password_change_needs_the_old_one_and_ends_the_other_sessions() {
    for (db, app, _) in apps().await {
        let mut b = Browser::new(&app);
        let mut other = Browser::new(&app);
        assert_eq!(
            b.sign_up("carol", PASSWORD).await.status,
            StatusCode::CREATED
        );
        assert_eq!(
            other.sign_in("carol", PASSWORD).await.status,
            StatusCode::OK
        );
        let before = b.cookie("sb_session").unwrap();
        let a = b
            .post(
                "/api/account/password",
                json!({"old": "not the password", "new": "a new password"}),
            )
            .await;
        assert_eq!(a.status, StatusCode::FORBIDDEN, "{db}: {}", a.body);
        let a = b
            .post(
                "/api/account/password",
                json!({"old": PASSWORD, "new": "short"}),
            )
            .await;
        assert_eq!(a.status, StatusCode::BAD_REQUEST, "{db}: {}", a.body);
        assert_eq!(other.who().await.as_deref(), Some("carol"), "{db}");
        let a = b
            .post(
                "/api/account/password",
                json!({"old": PASSWORD, "new": "a new password"}),
            )
            .await;
        assert_eq!(a.status, StatusCode::OK, "{db}: {}", a.body);
        // This browser goes on with a new session; the other is out.
        assert_ne!(b.cookie("sb_session").unwrap(), before);
        assert_eq!(b.who().await.as_deref(), Some("carol"), "{db}");
        assert_eq!(other.who().await, None, "{db}");
        assert_eq!(
            other.sign_in("carol", PASSWORD).await.status,
            StatusCode::UNAUTHORIZED
        );
        assert_eq!(
            other.sign_in("carol", "a new password").await.status,
            StatusCode::OK
        );
        // Not signed in: 401.
        let mut anon = Browser::new(&app);
        let a = anon
            .post(
                "/api/account/password",
                json!({"old": PASSWORD, "new": "another one"}),
            )
            .await;
        assert_eq!(a.status, StatusCode::UNAUTHORIZED, "{db}");
    }
}

#[tokio::test]
async fn bad_names_and_passwords_are_refused() {
    for (db, app, store) in apps().await {
        let mut b = Browser::new(&app);
        for bad in [
            "ab",
            "abcdefghijklmnopqrstu",
            "<b>x</b>",
            "a b c",
            "émile",
            "",
            "x'; DROP TABLE users; --",
        ] {
            let a = b.sign_up(bad, PASSWORD).await;
            assert_eq!(
                a.status,
                StatusCode::BAD_REQUEST,
                "{db}: {bad:?}: {}",
                a.body
            );
            assert!(a.body["error"].as_str().unwrap().contains("username"));
        }
        assert_eq!(
            b.sign_up("Dave", PASSWORD).await.status,
            StatusCode::CREATED
        );
        let mut c = Browser::new(&app);
        let a = c.sign_up("dAVE", "another password").await;
        assert_eq!(a.status, StatusCode::CONFLICT, "{db}: {}", a.body);
        assert_eq!(a.body["error"], "the username 'dAVE' is taken");
        assert_eq!(store.user("dave").await.unwrap().unwrap().name, "Dave");
        for (bad, why) in [
            ("1234567", "at least 8"),
            (&*"x".repeat(257), "at most 256 bytes"),
            (&*"x".repeat(200_000), "at most 256 bytes"),
        ] {
            let a = c.sign_up("erin", bad).await;
            assert_eq!(a.status, StatusCode::BAD_REQUEST, "{db}: {}", a.body);
            assert!(
                a.body["error"].as_str().unwrap().contains(why),
                "{}",
                a.body
            );
        }
        assert!(store.user("erin").await.unwrap().is_none(), "{db}");
        // A field missing: 400 in JSON.
        let a = c.post("/api/account/signup", json!({"name": "erin"})).await;
        assert_eq!(a.status, StatusCode::BAD_REQUEST, "{db}: {}", a.body);
        assert!(a.body["error"].is_string());
    }
}

#[tokio::test]
async fn a_wrong_password_and_an_unknown_name_get_the_same_answer() {
    for (db, app, _) in apps().await {
        let mut b = Browser::new(&app);
        assert_eq!(
            b.sign_up("frank", PASSWORD).await.status,
            StatusCode::CREATED
        );
        b.post("/api/account/signout", json!({})).await;
        let wrong = b.sign_in("frank", "wrong password").await;
        let unknown = b.sign_in("nobody_here", "wrong password").await;
        let malformed = b.sign_in("<x>", "wrong password").await;
        let huge = b.sign_in("frank", &"y".repeat(10_000)).await;
        for a in [&wrong, &unknown, &malformed, &huge] {
            assert_eq!(a.status, StatusCode::UNAUTHORIZED, "{db}: {}", a.body);
            assert_eq!(a.body, json!({"error": "wrong username or password"}));
            assert!(a.cookies.is_empty(), "{db}: {:?}", a.cookies);
        }
        assert_eq!(b.who().await, None);
    }
}

#[tokio::test]
async fn failed_sign_ins_are_limited_per_account_and_per_address() {
    use springboard_web::accounts::limit::{
        SIGN_IN_FAILURES_PER_ACCOUNT, SIGN_IN_FAILURES_PER_ADDRESS,
    };
    for (db, app, _) in apps().await {
        let mut owner = Browser::new(&app).at("127.0.0.9");
        assert_eq!(
            owner.sign_up("grace", PASSWORD).await.status,
            StatusCode::CREATED
        );
        assert_eq!(
            owner.sign_up("heidi", PASSWORD).await.status,
            StatusCode::CREATED
        );
        // An attacker on several addresses guesses grace's password.
        for i in 0..SIGN_IN_FAILURES_PER_ACCOUNT {
            let mut b = Browser::new(&app).at(&format!("10.0.0.{}", i + 1));
            assert_eq!(
                b.sign_in("grace", "guess guess").await.status,
                StatusCode::UNAUTHORIZED
            );
        }
        // Now even the right password waits, from anywhere.
        let mut b = Browser::new(&app).at("10.0.1.1");
        let a = b.sign_in("GRACE", PASSWORD).await;
        assert_eq!(a.status, StatusCode::TOO_MANY_REQUESTS, "{db}: {}", a.body);
        assert!(a.body["error"].is_string());
        // Another account is not held up.
        assert_eq!(b.sign_in("heidi", PASSWORD).await.status, StatusCode::OK);
        // One address guessing many names is stopped too, for every name.
        let mut spray = Browser::new(&app).at("10.0.2.1");
        for i in 0..SIGN_IN_FAILURES_PER_ADDRESS {
            let a = spray.sign_in(&format!("name{i}"), "guess guess").await;
            assert_eq!(a.status, StatusCode::UNAUTHORIZED, "{db}: {i}");
        }
        let a = spray.sign_in("heidi", PASSWORD).await;
        assert_eq!(a.status, StatusCode::TOO_MANY_REQUESTS, "{db}: {}", a.body);
        // Behind the trusted proxy, the address it names counts.
        let mut proxied = Browser::new(&app).at("127.0.0.3");
        proxied
            .extra
            .push(("x-forwarded-for".into(), "10.0.2.2".into()));
        assert_eq!(
            proxied.sign_in("heidi", PASSWORD).await.status,
            StatusCode::OK
        );
        proxied.extra.pop();
        proxied
            .extra
            .push(("x-forwarded-for".into(), "10.0.2.1".into()));
        assert_eq!(
            proxied.sign_in("heidi", PASSWORD).await.status,
            StatusCode::TOO_MANY_REQUESTS
        );
    }
}

#[tokio::test]
async fn state_changing_account_requests_need_the_own_origin() {
    for (db, app, store) in apps().await {
        let mut b = Browser::new(&app);
        assert_eq!(
            b.sign_up("ivan", PASSWORD).await.status,
            StatusCode::CREATED
        );
        let mut forged = b.clone();
        for origin in [
            None,
            Some("http://evil.test"),
            Some("null"),
            Some("https://play.test"),
        ] {
            forged.origin = origin.map(str::to_string);
            for (uri, body) in [
                ("/api/account/signout", json!({})),
                ("/api/account/signout-all", json!({})),
                (
                    "/api/account/password",
                    json!({"old": PASSWORD, "new": "hijacked password"}),
                ),
                (
                    "/api/account/signin",
                    json!({"name": "ivan", "password": PASSWORD}),
                ),
                (
                    "/api/account/signup",
                    json!({"name": "mallory", "password": PASSWORD}),
                ),
            ] {
                let a = forged.post(uri, body).await;
                assert_eq!(a.status, StatusCode::FORBIDDEN, "{db}: {origin:?} {uri}");
                assert!(
                    a.body["error"].as_str().unwrap().contains("Origin"),
                    "{}",
                    a.body
                );
                assert!(a.cookies.is_empty());
            }
        }
        // Nothing changed: still signed in, same password, no mallory.
        assert_eq!(b.who().await.as_deref(), Some("ivan"), "{db}");
        assert!(store.user("mallory").await.unwrap().is_none());
        // The own origin (any case, the default port written out) passes.
        b.origin = Some("HTTP://Play.Test:80".into());
        let a = b.post("/api/account/signout", json!({})).await;
        assert_eq!(a.status, StatusCode::OK, "{db}: {}", a.body);
        // Behind the trusted proxy the host it names is the site.
        let mut proxied = Browser::new(&app).at("127.0.0.3");
        proxied.origin = Some("https://chess.example".into());
        proxied
            .extra
            .push(("x-forwarded-proto".into(), "https".into()));
        proxied
            .extra
            .push(("x-forwarded-host".into(), "chess.example".into()));
        assert_eq!(
            proxied.sign_in("ivan", PASSWORD).await.status,
            StatusCode::OK
        );
        // From anyone else, X-Forwarded-Host means nothing.
        let mut direct = proxied.clone().at("127.0.0.1");
        assert_eq!(
            direct.sign_in("ivan", PASSWORD).await.status,
            StatusCode::FORBIDDEN
        );
    }
}

#[tokio::test]
async fn a_forged_or_revoked_session_cookie_is_anonymous() {
    for (db, app, _) in apps().await {
        let mut b = Browser::new(&app);
        assert_eq!(
            b.sign_up("judy", PASSWORD).await.status,
            StatusCode::CREATED
        );
        let real = b.cookie("sb_session").unwrap();
        for forged in [
            "A".repeat(32),
            format!("{}x", &real[..31]),
            real.to_lowercase(),
            sha256_hex(&real),
            "../../etc/passwd".into(),
            "".into(),
        ] {
            if forged == real {
                continue;
            }
            let mut f = Browser::new(&app);
            f.jar.insert("sb_session".into(), forged.clone());
            assert_eq!(f.who().await, None, "{db}: {forged}");
            let a = f.get("/api/account/games").await;
            assert_eq!(a.status, StatusCode::UNAUTHORIZED, "{db}");
            // Signing out with it changes nothing.
            assert_eq!(
                f.post("/api/account/signout", json!({})).await.status,
                StatusCode::OK
            );
        }
        assert_eq!(b.who().await.as_deref(), Some("judy"), "{db}");
    }
}

#[tokio::test]
async fn the_games_of_the_browser_become_the_accounts() {
    for (db, app, _) in apps().await {
        let mut b = Browser::new(&app);
        let new_game = |b: &mut Browser| {
            let mut b = b.clone();
            async move {
                let a = b
                    .post(
                        "/api/games",
                        json!({"mode": "friend", "variant": "hopchess"}),
                    )
                    .await;
                assert_eq!(a.status, StatusCode::CREATED, "{}", a.body);
                (b, a.body["id"].as_str().unwrap().to_string())
            }
        };
        // Anonymous play: two games on this browser's seat.
        let (next, g1) = new_game(&mut b).await;
        b = next;
        let (next, g2) = new_game(&mut b).await;
        b = next;
        let player = b.cookie("sb_player").unwrap();
        // Someone else's game stays theirs.
        let mut stranger = Browser::new(&app);
        let (_, g3) = new_game(&mut stranger).await;

        let a = b.sign_up("kim", PASSWORD).await;
        assert_eq!(a.status, StatusCode::CREATED);
        // The browser keeps its seat cookie (its games go on as before).
        assert_eq!(b.cookie("sb_player").unwrap(), player, "{db}");
        let games = |b: &mut Browser| {
            let mut b = b.clone();
            async move {
                let a = b.get("/api/account/games").await;
                assert_eq!(a.status, StatusCode::OK, "{}", a.body);
                let mut ids: Vec<String> = a.body["games"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_str().unwrap().to_string())
                    .collect();
                ids.sort();
                ids
            }
        };
        let mut want = vec![g1.clone(), g2.clone()];
        want.sort();
        assert_eq!(games(&mut b).await, want, "{db}");
        // A game made while signed in is the account's too.
        let (next, g4) = new_game(&mut b).await;
        b = next;
        want.push(g4.clone());
        want.sort();
        assert_eq!(games(&mut b).await, want, "{db}");
        assert!(!games(&mut b).await.contains(&g3));

        // Signing out gives the browser a new seat cookie: what it plays
        // next is not kim's ...
        b.post("/api/account/signout", json!({})).await;
        assert_ne!(b.cookie("sb_player").unwrap(), player, "{db}");
        let (next, g5) = new_game(&mut b).await;
        b = next;
        // ... until kim signs in on it again.
        let mut other = Browser::new(&app);
        assert_eq!(other.sign_in("kim", PASSWORD).await.status, StatusCode::OK);
        assert_eq!(games(&mut other).await, want, "{db}");
        assert_eq!(b.sign_in("kim", PASSWORD).await.status, StatusCode::OK);
        want.push(g5);
        want.sort();
        assert_eq!(games(&mut other).await, want, "{db}");

        // A browser of kim's where someone else signs in: its games stay
        // kim's, and it gets a new seat cookie for the other account.
        b.post("/api/account/signout", json!({})).await;
        let (next, _) = new_game(&mut b).await;
        b = next;
        assert_eq!(b.sign_in("kim", PASSWORD).await.status, StatusCode::OK);
        let kims = games(&mut b).await;
        let seat = b.cookie("sb_player").unwrap();
        b.post("/api/account/signout", json!({})).await;
        b.jar.insert("sb_player".into(), seat.clone());
        assert_eq!(b.sign_up("leo", PASSWORD).await.status, StatusCode::CREATED);
        assert_ne!(b.cookie("sb_player").unwrap(), seat, "{db}");
        assert!(games(&mut b).await.is_empty(), "{db}");
        assert_eq!(games(&mut other).await, kims, "{db}");
    }
}

#[tokio::test]
async fn no_password_or_token_is_logged() {
    for (db, app, _) in apps().await {
        let secret = format!("Secret-{db}-pa55word");
        let mut b = Browser::new(&app);
        let name = format!("logged_{db}");
        assert_eq!(b.sign_up(&name, &secret).await.status, StatusCode::CREATED);
        let token = b.cookie("sb_session").unwrap();
        assert_eq!(
            b.sign_in(&name, "a wrong password").await.status,
            StatusCode::UNAUTHORIZED
        );
        assert_eq!(b.sign_in(&name, &secret).await.status, StatusCode::OK);
        let second = b.cookie("sb_session").unwrap();
        b.post(
            "/api/account/password",
            json!({"old": secret, "new": format!("{secret}-new")}),
        )
        .await;
        let text = String::from_utf8_lossy(&logs().0.lock().unwrap()).to_string();
        // The test sees the log: the account's creation is there.
        assert!(
            text.lines()
                .any(|l| l.contains("account created") && l.contains(&name.to_lowercase())),
            "{db}: no creation line in the log:\n{text}"
        );
        for s in [
            secret.as_str(),
            token.as_str(),
            second.as_str(),
            "a wrong password",
        ] {
            assert!(!text.contains(s), "{db}: {s} is in the log");
        }
    }
}

#[tokio::test]
async fn a_server_without_accounts_says_so() {
    let app = app_with(
        Arc::new(SqliteStore::memory().await.unwrap()),
        Options::new(None),
    )
    .await
    .unwrap();
    let mut b = Browser::new(&app);
    let a = b.sign_up("nora", PASSWORD).await;
    assert_eq!(a.status, StatusCode::NOT_FOUND);
    assert_eq!(a.body, json!({"error": "this server has no accounts"}));
}

/// A database made before accounts existed (migrations 0001 and 0002 only)
/// gets the accounts' tables when the server opens it, and keeps its games.
#[tokio::test]
async fn an_existing_database_upgrades_in_place() {
    use sqlx::sqlite::SqliteConnectOptions;
    use sqlx::{ConnectOptions, Connection};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.sqlite3");
    let id = {
        let store = Arc::new(SqliteStore::open(&path).await.unwrap());
        let mut b = Browser::new(&app(store.clone(), store.clone()).await);
        let a = b.post("/api/games", json!({"mode": "local"})).await;
        assert_eq!(a.status, StatusCode::CREATED, "{}", a.body);
        a.body["id"].as_str().unwrap().to_string()
    };
    // Back to the schema before accounts.
    let mut conn = SqliteConnectOptions::new()
        .filename(&path)
        .connect()
        .await
        .unwrap();
    for sql in [
        "DROP TABLE player_users",
        "DROP TABLE sessions",
        "DROP TABLE users",
        "DELETE FROM _sqlx_migrations WHERE version = 3",
    ] {
        sqlx::query(sql).execute(&mut conn).await.unwrap();
    }
    conn.close().await.unwrap();
    let store = Arc::new(SqliteStore::open(&path).await.unwrap());
    assert!(store.load(&id).await.unwrap().is_some(), "the game is kept");
    let mut b = Browser::new(&app(store.clone(), store.clone()).await);
    assert_eq!(
        b.sign_up("olga", PASSWORD).await.status,
        StatusCode::CREATED
    );
    assert_eq!(
        b.get(&format!("/api/games/{id}")).await.status,
        StatusCode::OK
    );
}
