//! Notifications (`crates/web/src/notify/`) on SQLite and, when
//! `SPRINGBOARD_TEST_POSTGRES` names a server, on PostgreSQL: the kinds
//! made at the right moments and never for the player who acted ("your
//! turn" in a correspondence game, one unread per game; "challenge"; "game
//! ended"), read and unread, another account's refused, the live socket;
//! and email through a real SMTP server (Python's `aiosmtpd`, started by
//! the test): the confirmation link, the notification's email and its
//! unsubscribe link, forged, reused and expired tokens refused; an email
//! that could not be sent waits in the outbox for the next process; the
//! "game ended" and "challenge" emails are written in the transaction of
//! their notification (none lost when the process stops right after it,
//! none sent twice).

use crate::support;

use axum::http::StatusCode;
use axum::Router;
use serde_json::{json, Value};
use springboard_web::lobby::{ChallengeRecord, LobbyStore};
use springboard_web::notify::{EmailRecord, MailConfig, NotifyHook, NotifyStore};
use springboard_web::store::{Ending, GameEndHook, GameEnded};
use springboard_web::{app_with, Clock, ManualClock, Options, PgStore, SqliteStore, Store};
use std::sync::Arc;
use std::time::Duration;
use support::browser::Browser;
use support::postgres::postgres_options;

const PASSWORD: &str = "correct horse battery";

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

    /// The app over this backend with every domain, email as `mail` says.
    async fn app(&self, clock: Arc<ManualClock>, mail: Option<MailConfig>) -> Router {
        let mut options = Options::new(None);
        options.clock = clock;
        options.lobby_grace = Duration::from_secs(600);
        options.mail = mail;
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

    fn store(&self) -> Arc<dyn Store> {
        match self {
            Backend::Sqlite(s) => s.clone(),
            Backend::Postgres(s) => s.clone(),
        }
    }

    fn notify(&self) -> Arc<dyn NotifyStore> {
        match self {
            Backend::Sqlite(s) => s.clone(),
            Backend::Postgres(s) => s.clone(),
        }
    }

    fn lobby(&self) -> Arc<dyn LobbyStore> {
        match self {
            Backend::Sqlite(s) => s.clone(),
            Backend::Postgres(s) => s.clone(),
        }
    }

    /// The one number `sql` answers with `arg` bound to `$1`.
    async fn number(&self, sql: &str, arg: &str) -> i64 {
        match self {
            Backend::Sqlite(s) => sqlx::query_scalar(sql)
                .bind(arg)
                .fetch_one(s.pool())
                .await
                .unwrap(),
            Backend::Postgres(s) => sqlx::query_scalar(sql)
                .bind(arg)
                .fetch_one(s.pool())
                .await
                .unwrap(),
        }
    }

    /// The addresses the outbox holds mail for, sorted.
    async fn outbox(&self) -> Vec<String> {
        let sql = "SELECT address FROM notify_outbox ORDER BY address";
        match self {
            Backend::Sqlite(s) => sqlx::query_scalar(sql).fetch_all(s.pool()).await.unwrap(),
            Backend::Postgres(s) => sqlx::query_scalar(sql).fetch_all(s.pool()).await.unwrap(),
        }
    }

    /// The id of the account named `name`.
    async fn user_id(&self, name: &str) -> String {
        let sql = "SELECT id FROM users WHERE name = $1";
        match self {
            Backend::Sqlite(s) => sqlx::query_scalar(sql)
                .bind(name)
                .fetch_one(s.pool())
                .await
                .unwrap(),
            Backend::Postgres(s) => sqlx::query_scalar(sql)
                .bind(name)
                .fetch_one(s.pool())
                .await
                .unwrap(),
        }
    }

    /// Gives account `name` the confirmed address `address`, getting the
    /// emails of `kinds`.
    async fn confirmed(&self, name: &str, address: &str, kinds: &[&str]) {
        let e = EmailRecord {
            user_id: self.user_id(name).await,
            address: address.to_string(),
            confirmed: true,
            kinds: kinds.iter().map(|k| k.to_string()).collect(),
        };
        self.notify().set_email(&e, 0).await.unwrap();
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

async fn list(b: &mut Browser) -> Value {
    let a = b.get("/api/notify").await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.body);
    a.body
}

/// `b`'s notifications once there are `n` (they are written off the
/// request path), waiting up to 5 s.
async fn wait_for(b: &mut Browser, n: usize, what: &str) -> Vec<Value> {
    for _ in 0..250 {
        let l = list(b).await;
        let items = l["notifications"].as_array().unwrap().clone();
        if items.len() >= n {
            return items;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("{what}: fewer than {n} notifications: {}", list(b).await);
}

/// A friend game of `white` (its creator) joined by `black`; its id.
async fn friend_game(white: &mut Browser, black: &mut Browser, clock: Option<Value>) -> String {
    let mut body = json!({"variant": "chess", "mode": "friend"});
    if let Some(c) = clock {
        body["clock"] = c;
    }
    let g = white.new_game(body).await;
    let id = g["id"].as_str().unwrap().to_string();
    let join = white.invite_path(&id).await;
    let r = black.post(&join, json!({})).await;
    assert_eq!(r.status, StatusCode::OK, "join: {}", r.body);
    id
}

async fn play(b: &mut Browser, game: &str, mv: &str, ply: usize) {
    let r = b
        .post(
            &format!("/api/games/{game}/move"),
            json!({"move": mv, "ply": ply}),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{mv}: {}", r.body);
}

/// Lets the background tasks run.
async fn settle() {
    tokio::time::sleep(Duration::from_millis(200)).await;
}

#[tokio::test]
async fn kinds_come_at_the_right_moments_and_never_to_the_actor() {
    for backend in backends("notify_kinds").await {
        let which = backend.name();
        let clock = support::apps::manual_clock();
        let app = backend.app(clock.clone(), None).await;
        let mut ann = Browser::new(&app);
        ann.sign_up("Ann", PASSWORD).await;
        let mut bob = Browser::new(&app);
        bob.sign_up("bob", PASSWORD).await;

        // A correspondence game (no clock): Ann is white.
        let game = friend_game(&mut ann, &mut bob, None).await;
        play(&mut ann, &game, "e2e4", 0).await;
        let got = wait_for(&mut bob, 1, which).await;
        assert_eq!(got[0]["kind"], "your_turn", "{which}: {got:?}");
        assert_eq!(got[0]["game"], game.as_str());
        assert_eq!(got[0]["opponent"], "Ann");
        assert_eq!(got[0]["url"], format!("/g/{game}"));
        assert_eq!(got[0]["read"], false);
        settle().await;
        assert_eq!(
            list(&mut ann).await["unread"],
            0,
            "{which}: not to the mover"
        );

        play(&mut bob, &game, "e7e5", 1).await;
        wait_for(&mut ann, 1, which).await;
        play(&mut ann, &game, "g1f3", 2).await;
        // Bob's unread "your turn" of this game is replaced, not piled up.
        for _ in 0..250 {
            let l = list(&mut bob).await;
            if l["notifications"][0]["move"] == "Nf3" {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let l = list(&mut bob).await;
        assert_eq!(l["unread"], 1, "{which}: {l}");
        assert_eq!(l["notifications"].as_array().unwrap().len(), 1, "{which}");
        assert_eq!(l["notifications"][0]["move"], "Nf3", "{which}: {l}");

        // A game with a live clock: no "your turn".
        let blitz = friend_game(
            &mut ann,
            &mut bob,
            Some(json!({"initial": 300, "increment": 2})),
        )
        .await;
        play(&mut ann, &blitz, "f2f3", 0).await;
        settle().await;
        assert_eq!(list(&mut bob).await["unread"], 1, "{which}: nothing new");

        // Ann resigns the first game: Bob is told, not Ann.
        clock.advance(1000);
        let r = ann
            .post(&format!("/api/games/{game}/resign"), json!({}))
            .await;
        assert_eq!(r.status, StatusCode::OK, "{which}: {}", r.body);
        let got = wait_for(&mut bob, 2, which).await;
        assert_eq!(got[0]["kind"], "game_ended", "{which}: {got:?}");
        assert_eq!(got[0]["outcome"], "won");
        assert_eq!(got[0]["reason"], "resignation");
        assert_eq!(got[0]["opponent"], "Ann");
        let l = list(&mut ann).await;
        assert!(
            l["notifications"]
                .as_array()
                .unwrap()
                .iter()
                .all(|n| n["kind"] != "game_ended"),
            "{which}: the resigner is not told: {l}"
        );
        // The blitz game ends on the board, by Bob's mate: Ann is told.
        clock.advance(1000);
        play(&mut bob, &blitz, "e7e5", 1).await;
        play(&mut ann, &blitz, "g2g4", 2).await;
        play(&mut bob, &blitz, "d8h4", 3).await;
        let got = wait_for(&mut ann, 2, which).await;
        assert_eq!(got[0]["kind"], "game_ended", "{which}: {got:?}");
        assert_eq!(got[0]["outcome"], "lost");
        assert_eq!(got[0]["reason"], "checkmate");
        settle().await;
        assert_eq!(
            list(&mut bob).await["notifications"]
                .as_array()
                .unwrap()
                .len(),
            2,
            "{which}: not to the mating player"
        );

        // A personal challenge: the challenged account is told.
        clock.advance(1000);
        let r = ann
            .post(
                "/api/lobby/challenges",
                json!({"variant": "hoplit", "to": "bob"}),
            )
            .await;
        assert_eq!(r.status, StatusCode::CREATED, "{which}: {}", r.body);
        let challenge = r.body["id"].as_str().unwrap().to_string();
        let got = wait_for(&mut bob, 3, which).await;
        assert_eq!(got[0]["kind"], "challenge", "{which}: {got:?}");
        assert_eq!(got[0]["challenge"], challenge.as_str());
        assert_eq!(got[0]["from"], "Ann");
        assert_eq!(got[0]["url"], "/");
        settle().await;
        assert!(
            list(&mut ann).await["notifications"]
                .as_array()
                .unwrap()
                .iter()
                .all(|n| n["kind"] != "challenge"),
            "{which}: not to the author"
        );
    }
}

#[tokio::test]
async fn read_and_unread_and_another_accounts_are_refused() {
    for backend in backends("notify_read").await {
        let which = backend.name();
        let app = backend.app(support::apps::manual_clock(), None).await;
        let mut ann = Browser::new(&app);
        ann.sign_up("Ann", PASSWORD).await;
        let mut bob = Browser::new(&app);
        bob.sign_up("bob", PASSWORD).await;
        for _ in 0..2 {
            let r = ann
                .post(
                    "/api/lobby/challenges",
                    json!({"variant": "chess", "to": "bob"}),
                )
                .await;
            assert_eq!(r.status, StatusCode::CREATED, "{which}: {}", r.body);
        }
        let got = wait_for(&mut bob, 2, which).await;
        let first = got[0]["id"].as_str().unwrap().to_string();
        assert_eq!(bob.get("/api/notify/unread").await.body["unread"], 2);

        // Anonymous visitors have no list.
        let mut anon = Browser::new(&app);
        let r = anon.get("/api/notify").await;
        assert_eq!(r.status, StatusCode::UNAUTHORIZED, "{which}: {}", r.body);
        assert!(r.body["error"].is_string());
        let r = anon
            .post(&format!("/api/notify/{first}/read"), json!({}))
            .await;
        assert_eq!(r.status, StatusCode::UNAUTHORIZED, "{which}");
        // Another account's: refused as unknown, and nothing changes.
        let r = ann
            .post(&format!("/api/notify/{first}/read"), json!({}))
            .await;
        assert_eq!(r.status, StatusCode::NOT_FOUND, "{which}: {}", r.body);
        assert!(r.body["error"].is_string());
        let r = ann.post("/api/notify/read-all", json!({})).await;
        assert_eq!(r.status, StatusCode::OK, "{which}: {}", r.body);
        assert_eq!(
            bob.get("/api/notify/unread").await.body["unread"],
            2,
            "{which}"
        );
        let r = bob
            .post(
                "/api/notify/%3Cscript%3Ealert(1)%3C%2Fscript%3E/read",
                json!({}),
            )
            .await;
        assert_eq!(r.status, StatusCode::NOT_FOUND, "{which}: {}", r.body);
        // A forged origin: refused.
        let mut forged = bob.clone();
        forged.origin = Some("http://evil.test".into());
        let r = forged
            .post(&format!("/api/notify/{first}/read"), json!({}))
            .await;
        assert_eq!(r.status, StatusCode::FORBIDDEN, "{which}: {}", r.body);
        assert_eq!(
            bob.get("/api/notify/unread").await.body["unread"],
            2,
            "{which}"
        );

        let r = bob
            .post(&format!("/api/notify/{first}/read"), json!({}))
            .await;
        assert_eq!(r.status, StatusCode::OK, "{which}: {}", r.body);
        assert_eq!(r.body["unread"], 1);
        let l = list(&mut bob).await;
        assert_eq!(l["notifications"][0]["read"], true, "{which}: {l}");
        let r = bob.post("/api/notify/read-all", json!({})).await;
        assert_eq!(r.body["marked"], 1, "{which}: {}", r.body);
        assert_eq!(bob.get("/api/notify/unread").await.body["unread"], 0);
    }
}

/// An SMTP server (Python's aiosmtpd) writing each message into a
/// Maildir; killed when dropped.
struct Smtp {
    child: std::process::Child,
    port: u16,
    dir: tempfile::TempDir,
}

impl Drop for Smtp {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Smtp {
    /// Starts one, or None (with a message) when aiosmtpd is missing and
    /// `CI` is unset; under `CI` a missing aiosmtpd fails the test.
    async fn start() -> Option<Smtp> {
        // Debian's python3-aiosmtpd is for /usr/bin/python3, which another
        // python3 on the PATH (pyenv's) may hide.
        let python = ["python3", "/usr/bin/python3"].into_iter().find(|p| {
            std::process::Command::new(p)
                .args(["-c", "import aiosmtpd"])
                .stderr(std::process::Stdio::null())
                .status()
                .is_ok_and(|s| s.success())
        });
        let Some(python) = python else {
            assert!(
                std::env::var_os("CI").is_none(),
                "python3-aiosmtpd is missing (scripts/packages.sh installs it)"
            );
            eprintln!(
                "SKIPPED: the email tests need python3-aiosmtpd (apt-get install python3-aiosmtpd)"
            );
            return None;
        };
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let dir = tempfile::tempdir().unwrap();
        let maildir = dir.path().join("mail");
        let child = std::process::Command::new(python)
            .args(["-m", "aiosmtpd", "-n", "-l"])
            .arg(format!("127.0.0.1:{port}"))
            .args(["-c", "aiosmtpd.handlers.Mailbox"])
            .arg(&maildir)
            .spawn()
            .expect("aiosmtpd starts");
        // Held (killed and waited for when dropped) before anything can fail.
        let smtp = Smtp { child, port, dir };
        for _ in 0..100 {
            if tokio::net::TcpStream::connect(("127.0.0.1", port))
                .await
                .is_ok()
            {
                return Some(smtp);
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("aiosmtpd did not listen on {port}");
    }

    /// Every message received so far, as text.
    fn messages(&self) -> Vec<String> {
        let mut out = Vec::new();
        for sub in ["new", "cur"] {
            let Ok(entries) = std::fs::read_dir(self.dir.path().join("mail").join(sub)) else {
                continue;
            };
            for e in entries.flatten() {
                out.push(std::fs::read_to_string(e.path()).unwrap_or_default());
            }
        }
        out
    }

    /// Waits for a message with every one of `needles` (up to 10 s): its
    /// text, its soft line breaks undone.
    async fn wait(&self, needles: &[&str]) -> String {
        for _ in 0..200 {
            if let Some(m) = self
                .messages()
                .into_iter()
                .map(|m| {
                    m.replace("=\r\n", "")
                        .replace("=\n", "")
                        .replace("=3D", "=")
                })
                .find(|m| needles.iter().all(|n| m.contains(n)))
            {
                return m;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("no email with {needles:?}: {:?}", self.messages());
    }
}

/// The path of the first link in `text` under `prefix` (without the site).
fn link(text: &str, prefix: &str) -> String {
    let at = text
        .find(prefix)
        .unwrap_or_else(|| panic!("no {prefix} in {text}"));
    text[at..]
        .split(|c: char| c.is_whitespace())
        .next()
        .unwrap()
        .trim_start_matches("http://play.test")
        .to_string()
}

/// The email's link to `http://play.test/email/{what}/{token}`: a page of
/// the site (answered with the page), whose script takes the token to the
/// API path answered here.
async fn page_link(anon: &mut Browser, text: &str, what: &str) -> String {
    let path = link(text, &format!("http://play.test/email/{what}/"));
    let page = anon.send("GET", &path, None).await;
    assert_eq!(page.status, StatusCode::OK, "{path}");
    format!("/api/notify{path}")
}

#[tokio::test]
async fn email_is_confirmed_sent_and_unsubscribed_by_its_links() {
    let Some(smtp) = Smtp::start().await else {
        return;
    };
    for backend in backends("notify_email").await {
        let which = backend.name();
        let clock = support::apps::manual_clock();
        let mail = MailConfig {
            smtp: format!("smtp://127.0.0.1:{}", smtp.port),
            from: "Springboard <noreply@play.test>".into(),
            public_url: "http://play.test".into(),
        };
        let app = backend.app(clock.clone(), Some(mail)).await;
        let mut ann = Browser::new(&app);
        ann.sign_up("Ann", PASSWORD).await;
        let mut bob = Browser::new(&app);
        bob.sign_up("bob", PASSWORD).await;
        let mut anon = Browser::new(&app);
        let e = bob.get("/api/notify/email").await.body;
        assert_eq!(e["enabled"], true, "{which}: {e}");
        assert_eq!(e["address"], Value::Null);
        // Bad addresses, HTML among them: refused.
        for bad in [
            "nope",
            "<b>x</b>@example.org",
            &format!("{}@x.org", "a".repeat(300)),
        ] {
            let r = bob.post("/api/notify/email", json!({"address": bad})).await;
            assert_eq!(
                r.status,
                StatusCode::BAD_REQUEST,
                "{which}: {bad}: {}",
                r.body
            );
        }
        let address = format!("bob-{which}@example.org");
        let r = bob
            .post("/api/notify/email", json!({"address": address}))
            .await;
        assert_eq!(r.status, StatusCode::OK, "{which}: {}", r.body);
        assert_eq!(r.body["confirmed"], false);
        let m = smtp.wait(&[&format!("To: {address}")]).await;
        let confirm = page_link(&mut anon, &m, "confirm").await;
        // Nothing is sent to an unconfirmed address.
        let r = ann
            .post(
                "/api/lobby/challenges",
                json!({"variant": "chess", "to": "bob"}),
            )
            .await;
        assert_eq!(r.status, StatusCode::CREATED, "{which}: {}", r.body);
        wait_for(&mut bob, 1, which).await;
        // A forged token and one of the wrong shape: refused.
        for forged in [
            "/api/notify/email/confirm/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA".to_string(),
            "/api/notify/email/confirm/%3Cscript%3E".to_string(),
        ] {
            let r = anon.get(&forged).await;
            assert_eq!(r.status, StatusCode::NOT_FOUND, "{which}: {}", r.body);
            assert!(r.body["error"].is_string());
        }
        let r = anon.get(&confirm).await;
        assert_eq!(r.status, StatusCode::OK, "{which}: {}", r.body);
        assert_eq!(r.body["confirmed"], address.as_str());
        // Used once only.
        let r = anon.get(&confirm).await;
        assert_eq!(
            r.status,
            StatusCode::NOT_FOUND,
            "{which}: reused: {}",
            r.body
        );
        assert_eq!(bob.get("/api/notify/email").await.body["confirmed"], true);

        // A confirmed address gets the notification, with its links.
        let r = ann
            .post(
                "/api/lobby/challenges",
                json!({"variant": "hoplit", "to": "bob"}),
            )
            .await;
        assert_eq!(r.status, StatusCode::CREATED, "{which}: {}", r.body);
        let m = smtp
            .wait(&[&format!("To: {address}"), "Subject: Ann challenges you"])
            .await;
        assert!(m.contains(&format!("To: {address}")), "{which}: {m}");
        assert!(m.contains("Open it: http://play.test/"), "{which}: {m}");
        let unsubscribe = page_link(&mut anon, &m, "unsubscribe").await;
        let r = anon.get(&unsubscribe).await;
        assert_eq!(r.status, StatusCode::OK, "{which}: {}", r.body);
        assert_eq!(r.body["unsubscribed"], "challenge");
        assert!(r.body["message"]
            .as_str()
            .unwrap()
            .contains("personal challenge"));
        let r = anon.get(&unsubscribe).await;
        assert_eq!(
            r.status,
            StatusCode::NOT_FOUND,
            "{which}: reused: {}",
            r.body
        );
        let e = bob.get("/api/notify/email").await.body;
        assert_eq!(
            e["kinds"],
            json!(["your_turn", "game_ended"]),
            "{which}: {e}"
        );

        // A your-turn email's link opens the game.
        let game = friend_game(&mut ann, &mut bob, None).await;
        play(&mut ann, &game, "e2e4", 0).await;
        let m = smtp.wait(&[&format!("/g/{game}")]).await;
        assert!(m.contains("Subject: Your turn against Ann"), "{which}: {m}");
        let page = anon.send("GET", &format!("/g/{game}"), None).await;
        assert_eq!(page.status, StatusCode::OK, "{which}");
        let view = anon.get(&format!("/api/games/{game}")).await;
        assert_eq!(view.status, StatusCode::OK, "{which}");

        // An expired confirmation link: refused, and nothing confirmed.
        let other = format!("bob2-{which}@example.org");
        let r = bob
            .post("/api/notify/email", json!({"address": other}))
            .await;
        assert_eq!(r.status, StatusCode::OK, "{which}: {}", r.body);
        let m = smtp.wait(&[&format!("To: {other}")]).await;
        let confirm = page_link(&mut anon, &m, "confirm").await;
        clock.advance(25 * 3600 * 1000);
        let r = anon.get(&confirm).await;
        assert_eq!(r.status, StatusCode::FORBIDDEN, "{which}: {}", r.body);
        assert_eq!(bob.get("/api/notify/email").await.body["confirmed"], false);
    }
}

/// An email that could not be sent (the SMTP server out of reach) waits
/// in the outbox: the next process on the database sends it, once.
#[tokio::test]
async fn a_queued_email_is_sent_by_the_next_process() {
    let Some(smtp) = Smtp::start().await else {
        return;
    };
    let dead = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let config = |port: u16| MailConfig {
        smtp: format!("smtp://127.0.0.1:{port}"),
        from: "Springboard <noreply@play.test>".into(),
        public_url: "http://play.test".into(),
    };
    for backend in backends("notify_outbox").await {
        let which = backend.name();
        let clock = support::apps::manual_clock();
        let first = backend.app(clock.clone(), Some(config(smtp.port))).await;
        let mut ann = Browser::new(&first);
        ann.sign_up("Ann", PASSWORD).await;
        let mut bob = Browser::new(&first);
        bob.sign_up("bob", PASSWORD).await;
        let address = format!("bob-outbox-{which}@example.org");
        let r = bob
            .post("/api/notify/email", json!({"address": address}))
            .await;
        assert_eq!(r.status, StatusCode::OK, "{which}: {}", r.body);
        let m = smtp.wait(&[&format!("To: {address}")]).await;
        let confirm = page_link(&mut bob, &m, "confirm").await;
        assert_eq!(bob.get(&confirm).await.status, StatusCode::OK, "{which}");
        let game = friend_game(&mut ann, &mut bob, None).await;

        // A second process whose SMTP server is out of reach: the move's
        // email cannot go.
        let second = backend.app(clock.clone(), Some(config(dead))).await;
        ann.app = second.clone();
        bob.app = second.clone();
        drop(first);
        play(&mut ann, &game, "e2e4", 0).await;
        wait_for(&mut bob, 1, which).await;
        tokio::time::sleep(Duration::from_millis(2500)).await;
        let sent = |smtp: &Smtp| {
            smtp.messages()
                .iter()
                .filter(|m| m.contains(&format!("/g/{game}")))
                .count()
        };
        assert_eq!(sent(&smtp), 0, "{which}");

        // The next process (a claim of the first is stale by then) sends it.
        drop(second);
        clock.advance(springboard_web::notify::mail::CLAIM_MS + 1000);
        let third = backend.app(clock.clone(), Some(config(smtp.port))).await;
        let m = smtp.wait(&[&format!("/g/{game}")]).await;
        assert!(m.contains("Subject: Your turn against Ann"), "{which}: {m}");
        settle().await;
        assert_eq!(sent(&smtp), 1, "{which}: sent once");
        drop(third);
    }
}

#[tokio::test]
async fn without_smtp_email_is_off() {
    let backend = Backend::Sqlite(Arc::new(SqliteStore::memory().await.unwrap()));
    let app = backend.app(support::apps::manual_clock(), None).await;
    let mut bob = Browser::new(&app);
    bob.sign_up("bob", PASSWORD).await;
    let e = bob.get("/api/notify/email").await.body;
    assert_eq!(e["enabled"], false, "{e}");
    let r = bob
        .post("/api/notify/email", json!({"address": "bob@example.org"}))
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.body);
    assert!(r.body["error"].as_str().unwrap().contains("--smtp"));
}

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// The notifications socket of the browser with session cookie `session`
/// at `addr`.
async fn socket(addr: &str, session: &str) -> Socket {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut req = format!("ws://{addr}/api/notify/socket")
        .into_client_request()
        .unwrap();
    req.headers_mut()
        .insert("origin", format!("http://{addr}").parse().unwrap());
    req.headers_mut()
        .insert("cookie", format!("sb_session={session}").parse().unwrap());
    tokio_tungstenite::connect_async(req).await.unwrap().0
}

/// The next message of type `t` (others skipped), within 5 s.
async fn next_of(ws: &mut Socket, t: &str) -> Value {
    use futures_util::StreamExt;
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(5), ws.next())
            .await
            .unwrap_or_else(|_| panic!("a '{t}' message within 5 s"))
            .expect("the socket is open")
            .unwrap();
        if let tokio_tungstenite::tungstenite::Message::Text(text) = msg {
            let v: Value = serde_json::from_str(&text).unwrap();
            if v["t"] == t {
                return v;
            }
        }
    }
}

/// The socket hears the count and each new notification live; on
/// PostgreSQL from another server process (the NOTIFY channel).
#[tokio::test]
async fn the_socket_tells_the_count_and_new_ones_across_processes() {
    let mut pairs: Vec<(&str, Backend, Backend)> = Vec::new();
    let one = Backend::Sqlite(Arc::new(SqliteStore::memory().await.unwrap()));
    pairs.push(("sqlite", one.clone(), one));
    if let Some(options) = postgres_options("notify_socket").await {
        pairs.push((
            "postgres",
            Backend::Postgres(Arc::new(
                PgStore::connect_with(options.clone()).await.unwrap(),
            )),
            Backend::Postgres(Arc::new(PgStore::connect_with(options).await.unwrap())),
        ));
    }
    for (which, first, second) in pairs {
        let clock = support::apps::manual_clock();
        let app_a = first.app(clock.clone(), None).await;
        let app_b = if which == "sqlite" {
            app_a.clone()
        } else {
            second.app(clock, None).await
        };
        let addr_b = support::loopback::listen(app_b.clone()).await;
        let mut ann = Browser::new(&app_a);
        ann.sign_up("Ann", PASSWORD).await;
        let mut bob = Browser::new(&app_b);
        bob.sign_up("bob", PASSWORD).await;
        let session = bob.cookie("sb_session").expect("a session cookie");
        // Anonymous: refused.
        {
            use tokio_tungstenite::tungstenite::client::IntoClientRequest;
            let mut req = format!("ws://{addr_b}/api/notify/socket")
                .into_client_request()
                .unwrap();
            req.headers_mut()
                .insert("origin", format!("http://{addr_b}").parse().unwrap());
            assert!(
                tokio_tungstenite::connect_async(req).await.is_err(),
                "{which}"
            );
        }
        let mut ws = socket(&addr_b, &session).await;
        assert_eq!(next_of(&mut ws, "unread").await["unread"], 0, "{which}");
        // Ann challenges Bob through the other process.
        let r = ann
            .post(
                "/api/lobby/challenges",
                json!({"variant": "chess", "to": "bob"}),
            )
            .await;
        assert_eq!(r.status, StatusCode::CREATED, "{which}: {}", r.body);
        let m = next_of(&mut ws, "notification").await;
        assert_eq!(m["unread"], 1, "{which}: {m}");
        assert_eq!(m["notification"]["kind"], "challenge");
        assert_eq!(m["notification"]["from"], "Ann");
        let id = m["notification"]["id"].as_str().unwrap().to_string();
        let r = bob.post(&format!("/api/notify/{id}/read"), json!({})).await;
        assert_eq!(r.status, StatusCode::OK, "{which}: {}", r.body);
        assert_eq!(next_of(&mut ws, "unread").await["unread"], 0, "{which}");
    }
}

fn mail_to(port: u16) -> MailConfig {
    MailConfig {
        smtp: format!("smtp://127.0.0.1:{port}"),
        from: "Springboard <noreply@play.test>".into(),
        public_url: "http://play.test".into(),
    }
}

/// The messages `smtp` received to `address` with `needle`.
fn received(smtp: &Smtp, address: &str, needle: &str) -> usize {
    smtp.messages()
        .iter()
        .filter(|m| m.contains(&format!("To: {address}")) && m.contains(needle))
        .count()
}

/// A game's "game ended" email is written in the transaction that ends
/// the game: when the process stops right after the commit (the store's
/// change alone, with the notifications' hook, and no server to deliver),
/// the outbox holds one email per player who wants it, which the next
/// process sends once; with the server delivering, one email, never two.
#[tokio::test]
async fn a_game_ended_email_is_written_with_its_notification() {
    let Some(smtp) = Smtp::start().await else {
        return;
    };
    let config = mail_to(smtp.port);
    for backend in backends("notify_end_mail").await {
        let which = backend.name();
        let clock = support::apps::manual_clock();
        let first = backend.app(clock.clone(), Some(config.clone())).await;
        let mut ann = Browser::new(&first);
        ann.sign_up("Ann", PASSWORD).await;
        let mut bob = Browser::new(&first);
        bob.sign_up("bob", PASSWORD).await;
        let ann_at = format!("ann-end-{which}@example.org");
        let bob_at = format!("bob-end-{which}@example.org");
        // Ann wants "game ended" emails; Bob only the other kinds.
        backend.confirmed("Ann", &ann_at, &["game_ended"]).await;
        backend
            .confirmed("bob", &bob_at, &["your_turn", "challenge"])
            .await;
        let game = friend_game(&mut ann, &mut bob, None).await;
        drop(first);
        settle().await;

        // The ending transaction commits, and nothing runs after it.
        clock.advance(1000);
        let store = backend.store();
        let before = store.load(&game).await.unwrap().unwrap();
        let mut after = before.clone();
        after.status = springboard_web::Status::Ended;
        after.result = Some("0-1".into());
        after.reason = Some("time".into());
        after.version = before.version + 1;
        after.updated_at = clock.now_ms();
        let event = GameEnded::of_change(&before, &after).unwrap();
        let hooks: Vec<Arc<dyn GameEndHook>> = vec![Arc::new(NotifyHook::new(Some(&config)))];
        let ending = Ending {
            event: &event,
            hooks: &hooks,
        };
        assert!(store
            .update(&after, before.version, &[], Some(ending))
            .await
            .unwrap());
        let told = backend
            .number(
                "SELECT COUNT(*) FROM notifications WHERE kind = 'game_ended' AND subject = $1",
                &game,
            )
            .await;
        assert_eq!(told, 2, "{which}: both players are told");
        assert_eq!(backend.outbox().await, vec![ann_at.clone()], "{which}");

        // The next process sends it, once.
        let second = backend.app(clock.clone(), Some(config.clone())).await;
        let needle = format!("/g/{game}");
        let m = smtp.wait(&[&format!("To: {ann_at}"), &needle]).await;
        assert!(
            m.contains("Subject: Your game against bob ended"),
            "{which}: {m}"
        );
        settle().await;
        assert_eq!(received(&smtp, &ann_at, &needle), 1, "{which}: sent once");
        assert_eq!(received(&smtp, &bob_at, &needle), 0, "{which}");
        assert!(backend.outbox().await.is_empty(), "{which}");

        // With the server delivering: one email, not a second one from
        // the delivery after the commit.
        ann.app = second.clone();
        bob.app = second.clone();
        backend
            .confirmed("bob", &bob_at, &["your_turn", "game_ended"])
            .await;
        let game = friend_game(&mut ann, &mut bob, None).await;
        clock.advance(1000);
        let r = bob
            .post(&format!("/api/games/{game}/resign"), json!({}))
            .await;
        assert_eq!(r.status, StatusCode::OK, "{which}: {}", r.body);
        let needle = format!("/g/{game}");
        smtp.wait(&[&format!("To: {ann_at}"), &needle]).await;
        tokio::time::sleep(Duration::from_millis(1000)).await;
        assert_eq!(received(&smtp, &ann_at, &needle), 1, "{which}: sent once");
        // Bob resigned: he is not told.
        assert_eq!(received(&smtp, &bob_at, &needle), 0, "{which}");
        assert!(backend.outbox().await.is_empty(), "{which}");
        drop(second);
    }
}

/// A personal challenge's email is written in the transaction that
/// stores the challenge: stored with the notifications' hook and nothing
/// after it, the outbox holds the challenged player's email, which the
/// next process sends once; posted through the server, one email.
#[tokio::test]
async fn a_challenge_email_is_written_with_the_challenge() {
    let Some(smtp) = Smtp::start().await else {
        return;
    };
    let config = mail_to(smtp.port);
    for backend in backends("notify_challenge_mail").await {
        let which = backend.name();
        let clock = support::apps::manual_clock();
        let first = backend.app(clock.clone(), Some(config.clone())).await;
        let mut ann = Browser::new(&first);
        ann.sign_up("Ann", PASSWORD).await;
        let mut bob = Browser::new(&first);
        bob.sign_up("bob", PASSWORD).await;
        let ann_at = format!("ann-ch-{which}@example.org");
        let bob_at = format!("bob-ch-{which}@example.org");
        backend.confirmed("Ann", &ann_at, &["challenge"]).await;
        backend.confirmed("bob", &bob_at, &["challenge"]).await;
        drop(first);
        settle().await;

        // The challenge's transaction commits, and nothing runs after it.
        let rec = ChallengeRecord {
            id: "challengeKept01".into(),
            author_seat: "a-seat-of-ann".into(),
            author_user: Some(backend.user_id("Ann").await),
            author_name: Some("Ann".into()),
            target_user: Some(backend.user_id("bob").await),
            target_name: Some("bob".into()),
            variant: "chess".into(),
            clock_initial_ms: None,
            clock_increment_ms: None,
            correspondence: None,
            color: "random".into(),
            rated: false,
            min_rating: None,
            max_rating: None,
            process: "a-process-that-died".into(),
            created_at: clock.now_ms(),
            start_fen: None,
        };
        let hook = NotifyHook::new(Some(&config));
        backend
            .lobby()
            .insert_challenge(&rec, Some(&hook))
            .await
            .unwrap();
        let told = backend
            .number(
                "SELECT COUNT(*) FROM notifications WHERE kind = 'challenge' AND subject = $1",
                &rec.id,
            )
            .await;
        assert_eq!(told, 1, "{which}");
        assert_eq!(backend.outbox().await, vec![bob_at.clone()], "{which}");

        // The next process sends it, once.
        let second = backend.app(clock.clone(), Some(config.clone())).await;
        let subject = "Subject: Ann challenges you";
        smtp.wait(&[&format!("To: {bob_at}"), subject]).await;
        settle().await;
        assert_eq!(received(&smtp, &bob_at, subject), 1, "{which}: sent once");
        assert!(backend.outbox().await.is_empty(), "{which}");

        // Posted through the server: one email more, not two.
        ann.app = second.clone();
        let r = ann
            .post(
                "/api/lobby/challenges",
                json!({"variant": "hoplit", "to": "bob"}),
            )
            .await;
        assert_eq!(r.status, StatusCode::CREATED, "{which}: {}", r.body);
        for _ in 0..200 {
            if received(&smtp, &bob_at, subject) >= 2 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        tokio::time::sleep(Duration::from_millis(1000)).await;
        assert_eq!(received(&smtp, &bob_at, subject), 2, "{which}: one each");
        assert_eq!(received(&smtp, &ann_at, subject), 0, "{which}");
        assert!(backend.outbox().await.is_empty(), "{which}");
        drop(second);
    }
}

/// A socket to `path` at `addr` with the cookies `cookies`.
async fn ws_with(addr: &str, path: &str, cookies: &str) -> Socket {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut req = format!("ws://{addr}{path}").into_client_request().unwrap();
    req.headers_mut()
        .insert("origin", format!("http://{addr}").parse().unwrap());
    req.headers_mut().insert("cookie", cookies.parse().unwrap());
    tokio_tungstenite::connect_async(req).await.unwrap().0
}

/// Who is online counts a signed-in player whose only open page is a game
/// (its game socket) or who has only the notifications socket open: on
/// one process (SQLite), and, on PostgreSQL, seen from another process
/// than the one holding the socket.
#[tokio::test]
async fn who_is_online_counts_the_game_and_notifications_sockets() {
    let mut pairs: Vec<(&str, Backend, Backend)> = Vec::new();
    let one = Backend::Sqlite(Arc::new(SqliteStore::memory().await.unwrap()));
    pairs.push(("sqlite", one.clone(), one));
    if let Some(options) = postgres_options("notify_online").await {
        pairs.push((
            "postgres",
            Backend::Postgres(Arc::new(
                PgStore::connect_with(options.clone()).await.unwrap(),
            )),
            Backend::Postgres(Arc::new(PgStore::connect_with(options).await.unwrap())),
        ));
    }
    for (which, first, second) in pairs {
        let clock = support::apps::manual_clock();
        let app_a = first.app(clock.clone(), None).await;
        let app_b = if which == "sqlite" {
            app_a.clone()
        } else {
            second.app(clock, None).await
        };
        let addr_a = support::loopback::listen(app_a.clone()).await;
        let addr_b = support::loopback::listen(app_b.clone()).await;
        // An anonymous lobby page on the first process watches.
        let mut watcher = ws_with(
            &addr_a,
            "/api/lobby/socket",
            "sb_player=OnlineWatcherToken0001",
        )
        .await;
        let list = next_of(&mut watcher, "list").await;
        assert_eq!(list["online"]["count"], 0, "{which}: {list}");
        let mut bob = Browser::new(&app_b);
        bob.sign_up("bob", PASSWORD).await;
        let cookies = format!(
            "sb_player={}; sb_session={}",
            bob.cookie("sb_player").unwrap(),
            bob.cookie("sb_session").unwrap()
        );
        let online = |v: &Value| v["online"].clone();

        // Only the notifications socket, on the second process.
        let ws = ws_with(&addr_b, "/api/notify/socket", &cookies).await;
        let m = next_of(&mut watcher, "online").await;
        assert_eq!(online(&m), json!({"count": 1, "names": ["bob"]}), "{which}");
        drop(ws);
        let m = next_of(&mut watcher, "online").await;
        assert_eq!(online(&m)["count"], 0, "{which}: {m}");

        // Only a game's page (its socket), on the second process.
        let g = bob
            .new_game(json!({"variant": "chess", "mode": "friend"}))
            .await;
        let id = g["id"].as_str().unwrap();
        let ws = ws_with(&addr_b, &format!("/api/games/{id}/ws"), &cookies).await;
        let m = next_of(&mut watcher, "online").await;
        assert_eq!(online(&m), json!({"count": 1, "names": ["bob"]}), "{which}");
        // A second page of the same account: still one.
        let ws2 = ws_with(&addr_b, "/api/notify/socket", &cookies).await;
        settle().await;
        drop(ws);
        settle().await;
        let r = bob.get("/api/lobby/challenges").await;
        assert_eq!(r.body["online"]["count"], 1, "{which}: {}", r.body);
        drop(ws2);
        let m = next_of(&mut watcher, "online").await;
        assert_eq!(online(&m)["count"], 0, "{which}: {m}");
        let r = bob.get("/api/lobby/challenges").await;
        assert_eq!(r.body["online"]["count"], 0, "{which}: {}", r.body);
    }
}
