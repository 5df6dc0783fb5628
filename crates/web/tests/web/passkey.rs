//! Passkeys through the router (no network), on SQLite and, when
//! `SPRINGBOARD_TEST_POSTGRES` names a server, on PostgreSQL, driven by
//! `webauthn-authenticator-rs`'s software authenticator (`SoftPasskey`):
//! a passkey added from a signed-in account signs in alone (no name
//! typed), with the same session and seats as a password; a replayed
//! challenge, garbage, an unknown credential, another account's handle
//! and an expired ceremony are refused and change nothing; another
//! account's passkey cannot be removed; migration 0011 upgrades an
//! existing database.
//!
//! `SoftPasskey` keeps no resident keys: where a browser's authenticator
//! finds the credential of the site by itself and gives back the user
//! handle it keeps with it, the test names the credential in the request
//! and puts the handle (the registration's `user.id`) in the answer.
//! Neither is signed, so the server's checks are the same.

use crate::support;

use axum::http::StatusCode;
use axum::Router;
use serde_json::{json, Value};
use springboard_web::accounts::passkey::CEREMONY_MS;
use springboard_web::{app_with, ManualClock, Options, PgStore, SqliteStore, Store};
use std::sync::Arc;
use support::browser::{Answer, Browser};
use support::postgres::postgres_options;
use webauthn_authenticator_rs::softpasskey::SoftPasskey;
use webauthn_authenticator_rs::WebauthnAuthenticator;
use webauthn_rs::prelude::{
    Base64UrlSafeData, CreationChallengeResponse, RequestChallengeResponse, Url,
};
use webauthn_rs_proto::{AllowCredentials, ResidentKeyRequirement};

const PASSWORD: &str = "correct horse battery";
const T0: i64 = 1_800_000_000_000;
/// The page's origin as the authenticator sees it (the relying party of
/// a server without a public URL is `localhost`, any port).
const PAGE: &str = "http://localhost:8080";

#[derive(Clone)]
enum Backend {
    Sqlite(Arc<SqliteStore>),
    Postgres(Arc<PgStore>),
}

impl Backend {
    fn name(&self) -> &'static str {
        match self {
            Backend::Sqlite(_) => "sqlite",
            Backend::Postgres(_) => "postgres",
        }
    }

    async fn app(&self, clock: Arc<ManualClock>) -> Router {
        let mut options = Options::new(None);
        options.clock = clock;
        let store: Arc<dyn Store> = match self {
            Backend::Sqlite(s) => {
                options.domains_on(s);
                s.clone()
            }
            Backend::Postgres(s) => {
                options.domains_on(s);
                s.clone()
            }
        };
        app_with(store, options).await.unwrap()
    }

    /// The rows of `table`.
    async fn count(&self, table: &str) -> i64 {
        let sql = format!("SELECT COUNT(*) FROM {table}");
        match self {
            Backend::Sqlite(s) => sqlx::query_scalar(&sql).fetch_one(s.pool()).await.unwrap(),
            Backend::Postgres(s) => sqlx::query_scalar(&sql).fetch_one(s.pool()).await.unwrap(),
        }
    }
}

async fn backends(prefix: &str) -> Vec<Backend> {
    let mut v = vec![Backend::Sqlite(Arc::new(
        SqliteStore::memory().await.unwrap(),
    ))];
    if let Some(options) = postgres_options(prefix).await {
        v.push(Backend::Postgres(Arc::new(
            PgStore::connect_with(options).await.unwrap(),
        )));
    }
    v
}

/// A software authenticator and what a resident key would keep: the
/// credential and the user handle.
struct Key {
    auth: WebauthnAuthenticator<SoftPasskey>,
    credential: Option<Base64UrlSafeData>,
    handle: Option<Base64UrlSafeData>,
}

impl Key {
    fn new() -> Key {
        Key {
            // `true`: it says it verified the user, which the server asks.
            auth: WebauthnAuthenticator::new(SoftPasskey::new(true)),
            credential: None,
            handle: None,
        }
    }
}

fn page() -> Url {
    Url::parse(PAGE).unwrap()
}

/// Starts a registration named `name`: the ceremony and the credential
/// the authenticator makes for it.
async fn register_credential(b: &mut Browser, key: &mut Key, name: &str) -> (String, Value) {
    let a = b
        .post(
            "/api/account/passkey/register/start",
            json!({ "name": name }),
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "register/start: {}", a.body);
    let ceremony = a.body["ceremony"].as_str().unwrap().to_string();
    let mut options: CreationChallengeResponse =
        serde_json::from_value(a.body["options"].clone()).unwrap();
    // The server asks for a discoverable credential...
    let selection = options.public_key.authenticator_selection.as_mut().unwrap();
    assert!(selection.require_resident_key);
    assert_eq!(
        selection.resident_key,
        Some(ResidentKeyRequirement::Required)
    );
    // ...which this authenticator stands for without keeping one.
    selection.require_resident_key = false;
    selection.resident_key = None;
    key.handle = Some(options.public_key.user.id.clone());
    let credential = key.auth.do_registration(page(), options).unwrap();
    key.credential = Some(credential.raw_id.clone());
    (ceremony, serde_json::to_value(&credential).unwrap())
}

/// Adds a passkey named `name` to `b`'s account: its view.
async fn register(b: &mut Browser, key: &mut Key, name: &str) -> Value {
    let (ceremony, credential) = register_credential(b, key, name).await;
    let a = b
        .post(
            "/api/account/passkey/register/finish",
            json!({ "ceremony": ceremony, "credential": credential }),
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "register/finish: {}", a.body);
    a.body
}

/// Starts a sign-in: the ceremony and the authenticator's answer, with
/// the user handle `handle` (the key's own unless given).
async fn assertion(
    b: &mut Browser,
    key: &mut Key,
    handle: Option<Base64UrlSafeData>,
) -> (String, Value) {
    let a = b.post("/api/account/passkey/signin/start", json!({})).await;
    assert_eq!(a.status, StatusCode::OK, "signin/start: {}", a.body);
    let ceremony = a.body["ceremony"].as_str().unwrap().to_string();
    let mut options: RequestChallengeResponse =
        serde_json::from_value(a.body["options"].clone()).unwrap();
    // No credential named: the authenticator finds the site's own.
    assert!(options.public_key.allow_credentials.is_empty());
    assert!(options.mediation.is_none());
    options.public_key.allow_credentials.push(AllowCredentials {
        type_: "public-key".into(),
        id: key.credential.clone().unwrap(),
        transports: None,
    });
    let mut credential = key.auth.do_authentication(page(), options).unwrap();
    credential.response.user_handle = handle.or_else(|| key.handle.clone());
    (ceremony, serde_json::to_value(&credential).unwrap())
}

async fn finish_sign_in(b: &mut Browser, ceremony: &str, credential: &Value) -> Answer {
    b.post(
        "/api/account/passkey/signin/finish",
        json!({ "ceremony": ceremony, "credential": credential }),
    )
    .await
}

async fn passkeys(b: &mut Browser) -> Vec<Value> {
    let a = b.get("/api/account/passkeys").await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.body);
    a.body["passkeys"].as_array().unwrap().clone()
}

async fn signed_up(app: &Router, name: &str) -> Browser {
    let mut b = Browser::new(app);
    b.sign_up(name, PASSWORD).await;
    b
}

#[tokio::test]
async fn a_passkey_added_to_an_account_signs_in_alone() {
    for backend in backends("passkey_signin").await {
        let clock = Arc::new(ManualClock::new(T0));
        let app = backend.app(clock.clone()).await;
        let mut pia = signed_up(&app, "Pia").await;
        let mut key = Key::new();
        let view = register(&mut pia, &mut key, "  my laptop ").await;
        assert_eq!(view["name"], "my laptop", "{}", backend.name());
        assert_eq!(view["created_at"], T0);
        assert_eq!(view["last_used"], Value::Null);
        let id = view["id"].as_str().unwrap().to_string();
        assert_eq!(passkeys(&mut pia).await, vec![view.clone()]);

        // Another browser, with a game of its own, signs in with the
        // passkey alone: a session of Pia's, and the game is hers.
        let mut other = Browser::new(&app);
        let game = other.new_game(json!({"mode": "local"})).await["id"]
            .as_str()
            .unwrap()
            .to_string();
        clock.advance(1_000);
        let (ceremony, credential) = assertion(&mut other, &mut key, None).await;
        let a = finish_sign_in(&mut other, &ceremony, &credential).await;
        assert_eq!(a.status, StatusCode::OK, "{}: {}", backend.name(), a.body);
        assert_eq!(a.body["name"], "Pia");
        assert!(a.cookies.iter().any(|c| c.starts_with("sb_session=")));
        let me = other.get("/api/account").await;
        assert_eq!(me.status, StatusCode::OK, "{}", me.body);
        assert_eq!(other.account_games().await, vec![game]);
        let listed = passkeys(&mut other).await;
        assert_eq!(listed.len(), 1);
        assert_eq!(listed[0]["id"], id.as_str());
        assert_eq!(listed[0]["last_used"], T0 + 1_000);

        // A second sign-in with it (the counter moves on) works too.
        let mut third = Browser::new(&app);
        let (ceremony, credential) = assertion(&mut third, &mut key, None).await;
        let a = finish_sign_in(&mut third, &ceremony, &credential).await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.body);
        assert_eq!(backend.count("passkey_ceremonies").await, 0);
    }
}

#[tokio::test]
async fn replays_garbage_and_strangers_are_refused_and_change_nothing() {
    for backend in backends("passkey_refused").await {
        let clock = Arc::new(ManualClock::new(T0));
        let app = backend.app(clock.clone()).await;
        let mut pia = signed_up(&app, "Pia").await;
        let mut key = Key::new();
        register(&mut pia, &mut key, "laptop").await;

        // A registration's finish replayed: the ceremony is gone.
        let mut second = Key::new();
        let (ceremony, credential) = register_credential(&mut pia, &mut second, "phone").await;
        let body = json!({ "ceremony": ceremony, "credential": credential });
        let a = pia
            .post("/api/account/passkey/register/finish", body.clone())
            .await;
        assert_eq!(a.status, StatusCode::CREATED, "{}", a.body);
        let a = pia.post("/api/account/passkey/register/finish", body).await;
        assert_eq!(a.status, StatusCode::BAD_REQUEST, "{}", backend.name());
        assert!(a.body["error"]
            .as_str()
            .unwrap()
            .contains("no such passkey ceremony"));
        assert_eq!(passkeys(&mut pia).await.len(), 2);

        // A sign-in replayed: the same answer to the same ceremony, then
        // the old answer to a new ceremony (another challenge).
        let mut b = Browser::new(&app);
        let (ceremony, credential) = assertion(&mut b, &mut key, None).await;
        assert_eq!(
            finish_sign_in(&mut b, &ceremony, &credential).await.status,
            StatusCode::OK
        );
        let mut thief = Browser::new(&app).at("10.0.0.9");
        let a = finish_sign_in(&mut thief, &ceremony, &credential).await;
        assert_eq!(a.status, StatusCode::BAD_REQUEST, "{}", a.body);
        let (fresh, _) = assertion(&mut thief, &mut key, None).await;
        let a = finish_sign_in(&mut thief, &fresh, &credential).await;
        assert_eq!(a.status, StatusCode::UNAUTHORIZED, "{}", a.body);
        assert_eq!(a.body, json!({"error": "this passkey was not accepted"}));
        assert!(thief.cookie("sb_session").is_none());

        // Another account's user handle with Pia's credential.
        let mut ola = signed_up(&app, "Ola").await;
        let mut ola_key = Key::new();
        register(&mut ola, &mut ola_key, "key").await;
        let (ceremony, credential) = assertion(&mut thief, &mut key, ola_key.handle.clone()).await;
        let a = finish_sign_in(&mut thief, &ceremony, &credential).await;
        assert_eq!(a.status, StatusCode::UNAUTHORIZED, "{}", a.body);

        // An unknown credential: Ola's, removed.
        let ola_id = passkeys(&mut ola).await[0]["id"]
            .as_str()
            .unwrap()
            .to_string();
        let a = ola
            .send("DELETE", &format!("/api/account/passkeys/{ola_id}"), None)
            .await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.body);
        let (ceremony, credential) = assertion(&mut thief, &mut ola_key, None).await;
        let a = finish_sign_in(&mut thief, &ceremony, &credential).await;
        assert_eq!(a.status, StatusCode::UNAUTHORIZED, "{}", a.body);

        // An expired ceremony.
        let (ceremony, credential) = assertion(&mut thief, &mut key, None).await;
        clock.advance(CEREMONY_MS + 1);
        let a = finish_sign_in(&mut thief, &ceremony, &credential).await;
        assert_eq!(a.status, StatusCode::BAD_REQUEST, "{}", a.body);

        // Garbage.
        for body in [
            json!("nonsense"),
            json!({ "ceremony": "x" }),
            json!({ "ceremony": "x", "credential": {} }),
            json!({ "ceremony": "x", "credential": credential, "more": 1 }),
        ] {
            for uri in [
                "/api/account/passkey/signin/finish",
                "/api/account/passkey/register/finish",
            ] {
                let a = pia.post(uri, body.clone()).await;
                assert_eq!(
                    a.status,
                    StatusCode::BAD_REQUEST,
                    "{uri} {body}: {}",
                    a.body
                );
                assert!(a.body["error"].is_string(), "{}", a.body);
            }
        }
        let a = pia
            .post(
                "/api/account/passkey/register/start",
                json!({ "name": " " }),
            )
            .await;
        assert_eq!(a.status, StatusCode::BAD_REQUEST, "{}", a.body);
        let long = "x".repeat(101);
        let a = pia
            .post(
                "/api/account/passkey/register/start",
                json!({ "name": long }),
            )
            .await;
        assert_eq!(a.status, StatusCode::BAD_REQUEST, "{}", a.body);

        // Signed out, no registration; without the page's Origin, nothing.
        let mut nobody = Browser::new(&app);
        let a = nobody
            .post(
                "/api/account/passkey/register/start",
                json!({ "name": "k" }),
            )
            .await;
        assert_eq!(a.status, StatusCode::UNAUTHORIZED, "{}", a.body);
        assert_eq!(
            nobody.get("/api/account/passkeys").await.status,
            StatusCode::UNAUTHORIZED
        );
        nobody.origin = Some("http://evil.test".into());
        let a = nobody
            .post("/api/account/passkey/signin/start", json!({}))
            .await;
        assert_eq!(a.status, StatusCode::FORBIDDEN, "{}", a.body);

        assert_eq!(passkeys(&mut pia).await.len(), 2);
        assert_eq!(backend.count("passkeys").await, 2);
    }
}

#[tokio::test]
async fn failed_passkey_sign_ins_count_against_the_limits() {
    let backend = backends("passkey_limit").await.remove(0);
    let app = backend.app(Arc::new(ManualClock::new(T0))).await;
    let mut pia = signed_up(&app, "Pia").await;
    let mut key = Key::new();
    register(&mut pia, &mut key, "laptop").await;
    let mut ola = signed_up(&app, "Ola").await;
    let mut ola_key = Key::new();
    register(&mut ola, &mut ola_key, "key").await;
    // Pia's credential with Ola's handle, 20 times from one address.
    let mut thief = Browser::new(&app).at("10.0.0.7");
    for _ in 0..springboard_web::accounts::limit::SIGN_IN_FAILURES_PER_ADDRESS {
        let (ceremony, credential) = assertion(&mut thief, &mut key, ola_key.handle.clone()).await;
        let a = finish_sign_in(&mut thief, &ceremony, &credential).await;
        assert_eq!(a.status, StatusCode::UNAUTHORIZED, "{}", a.body);
    }
    let a = thief
        .post("/api/account/passkey/signin/start", json!({}))
        .await;
    assert_eq!(a.status, StatusCode::TOO_MANY_REQUESTS, "{}", a.body);
    let a = thief
        .post(
            "/api/account/signin",
            json!({"name": "Pia", "password": PASSWORD}),
        )
        .await;
    assert_eq!(a.status, StatusCode::TOO_MANY_REQUESTS, "{}", a.body);
    // Another address is not held back.
    let mut b = Browser::new(&app).at("10.0.0.8");
    let (ceremony, credential) = assertion(&mut b, &mut key, None).await;
    assert_eq!(
        finish_sign_in(&mut b, &ceremony, &credential).await.status,
        StatusCode::OK
    );
}

#[tokio::test]
async fn another_accounts_passkey_cannot_be_removed() {
    for backend in backends("passkey_remove").await {
        let app = backend.app(Arc::new(ManualClock::new(T0))).await;
        let mut pia = signed_up(&app, "Pia").await;
        let mut key = Key::new();
        let id = register(&mut pia, &mut key, "laptop").await["id"]
            .as_str()
            .unwrap()
            .to_string();
        let mut ola = signed_up(&app, "Ola").await;
        let uri = format!("/api/account/passkeys/{id}");
        let a = ola.send("DELETE", &uri, None).await;
        assert_eq!(
            a.status,
            StatusCode::NOT_FOUND,
            "{}: {}",
            backend.name(),
            a.body
        );
        assert_eq!(a.body, json!({"error": "no such passkey"}));
        assert!(passkeys(&mut ola).await.is_empty());
        assert_eq!(passkeys(&mut pia).await.len(), 1);
        // Without the page's Origin, not even its owner.
        pia.origin = None;
        assert_eq!(
            pia.send("DELETE", &uri, None).await.status,
            StatusCode::FORBIDDEN
        );
        pia.origin = Some(support::browser::ORIGIN.into());
        let a = pia.send("DELETE", &uri, None).await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.body);
        assert_eq!(a.body, json!({ "removed": id }));
        assert!(passkeys(&mut pia).await.is_empty());
        // Removed, it signs in no more.
        let mut b = Browser::new(&app);
        let (ceremony, credential) = assertion(&mut b, &mut key, None).await;
        let a = finish_sign_in(&mut b, &ceremony, &credential).await;
        assert_eq!(a.status, StatusCode::UNAUTHORIZED, "{}", a.body);
    }
}

/// A database made before passkeys (every migration but 0011) gets their
/// tables when the server opens it, and keeps its accounts.
#[tokio::test]
async fn an_existing_database_upgrades_to_passkeys() {
    use sqlx::sqlite::SqliteConnectOptions;
    use sqlx::{ConnectOptions, Connection};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.sqlite3");
    {
        let store = Arc::new(SqliteStore::open(&path).await.unwrap());
        let app = Backend::Sqlite(store)
            .app(Arc::new(ManualClock::new(T0)))
            .await;
        signed_up(&app, "Pia").await;
    }
    let mut conn = SqliteConnectOptions::new()
        .filename(&path)
        .connect()
        .await
        .unwrap();
    for sql in [
        "DROP TABLE passkey_ceremonies",
        "DROP TABLE passkeys",
        "DELETE FROM _sqlx_migrations WHERE version = 11",
    ] {
        sqlx::query(sql).execute(&mut conn).await.unwrap();
    }
    conn.close().await.unwrap();
    let store = Arc::new(SqliteStore::open(&path).await.unwrap());
    let app = Backend::Sqlite(store)
        .app(Arc::new(ManualClock::new(T0)))
        .await;
    let mut pia = Browser::new(&app);
    pia.sign_in("Pia", PASSWORD).await;
    let mut key = Key::new();
    register(&mut pia, &mut key, "laptop").await;
    let mut b = Browser::new(&app);
    let (ceremony, credential) = assertion(&mut b, &mut key, None).await;
    let a = finish_sign_in(&mut b, &ceremony, &credential).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.body);
    assert_eq!(a.body["name"], "Pia");
}

/// A server whose public URL is not a domain has no passkeys (and says
/// so), and keeps its password sign-in.
#[tokio::test]
async fn a_public_url_without_a_domain_turns_passkeys_off() {
    let store = Arc::new(SqliteStore::memory().await.unwrap());
    let mut options = Options::new(None);
    options.domains_on(&store);
    options.public_url = Some("http://192.0.2.1:8080".into());
    let app = app_with(store, options).await.unwrap();
    let mut b = signed_up(&app, "Pia").await;
    let a = b.post("/api/account/passkey/signin/start", json!({})).await;
    assert_eq!(a.status, StatusCode::NOT_FOUND, "{}", a.body);
    assert_eq!(a.body, json!({"error": "this server has no passkeys"}));
}
