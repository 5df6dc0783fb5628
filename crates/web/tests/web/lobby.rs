//! The lobby (`crates/web/src/lobby/`) on SQLite and, when
//! `SPRINGBOARD_TEST_POSTGRES` names a server, on PostgreSQL: open
//! challenges posted, listed, cancelled and accepted (the game starts with
//! both seats); rated ones between accounts, with a rating range; the
//! accept race (many accepts at once, exactly one wins); hostile input
//! (one's own challenge, a taken one, anonymous rated, out of range, a
//! forged origin, HTML in fields, huge bodies, floods); personal
//! challenges; and the lobby socket's messages (the list at connect,
//! additions, removals, the game's start for both players, withdrawal
//! when the author's socket is gone), across two processes on PostgreSQL.

use crate::support;

use axum::http::StatusCode;
use axum::Router;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use springboard_web::{app_with, ManualClock, Options, PgStore, SqliteStore, Store};
use std::sync::Arc;
use std::time::Duration;
use support::browser::Browser;
use support::postgres::postgres_options;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

const PASSWORD: &str = "correct horse battery";
const CHALLENGES: &str = "/api/lobby/challenges";

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

    /// The app over this backend, with accounts, ratings and the lobby; a
    /// challenge outlives its author's last socket by `grace`.
    async fn app(&self, grace: Duration) -> Router {
        let mut options = Options::new(None);
        options.clock = Arc::new(ManualClock::new(support::apps::START_MS));
        options.lobby_grace = grace;
        let store: Arc<dyn Store> = match self {
            Backend::Sqlite(s) => {
                options.accounts = Some(s.clone());
                options.ratings = Some(s.clone());
                options.lobby = Some(s.clone());
                s.clone()
            }
            Backend::Postgres(s) => {
                options.accounts = Some(s.clone());
                options.ratings = Some(s.clone());
                options.lobby = Some(s.clone());
                s.clone()
            }
        };
        app_with(store, options).await.unwrap()
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

const LONG: Duration = Duration::from_secs(600);

/// The challenges `b` sees.
async fn listed(b: &mut Browser) -> Vec<Value> {
    let a = b.get(CHALLENGES).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.body);
    a.body["challenges"].as_array().unwrap().clone()
}

/// Posts `body` as `b`, answered 201: the challenge's id.
async fn post(b: &mut Browser, body: Value) -> String {
    let a = b.post(CHALLENGES, body).await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.body);
    a.body["id"].as_str().unwrap().to_string()
}

fn accept_path(id: &str) -> String {
    format!("{CHALLENGES}/{id}/accept")
}

#[tokio::test]
async fn open_challenges_are_posted_listed_cancelled_and_accepted() {
    for backend in backends("lobby_basic").await {
        let which = backend.name();
        let app = backend.app(LONG).await;
        let mut a = Browser::new(&app);
        let mut b = Browser::new(&app);
        let id = post(
            &mut a,
            json!({"variant": "chess", "clock": {"initial": 300, "increment": 3}, "color": "white"}),
        )
        .await;
        let seen = listed(&mut b).await;
        assert_eq!(seen.len(), 1, "{which}");
        assert_eq!(seen[0]["id"], id.as_str());
        assert_eq!(seen[0]["mine"], false);
        assert_eq!(seen[0]["rated"], false);
        assert_eq!(seen[0]["author"], Value::Null, "{which}: anonymous");
        assert_eq!(seen[0]["clock"], json!({"initial": 300, "increment": 3}));
        assert_eq!(listed(&mut a).await[0]["mine"], true, "{which}");
        // Only its author cancels it.
        let r = b
            .post(&format!("{CHALLENGES}/{id}/cancel"), json!({}))
            .await;
        assert_eq!(r.status, StatusCode::FORBIDDEN, "{which}: {}", r.body);
        let r = a.send("DELETE", &format!("{CHALLENGES}/{id}"), None).await;
        assert_eq!(r.status, StatusCode::OK, "{which}: {}", r.body);
        assert!(listed(&mut b).await.is_empty(), "{which}");
        // A cancelled one is not accepted.
        let r = b.post(&accept_path(&id), json!({})).await;
        assert_eq!(r.status, StatusCode::NOT_FOUND, "{which}: {}", r.body);
        assert!(r.body["error"].is_string());

        let id = post(&mut a, json!({"variant": "hoplit", "color": "black"})).await;
        // One's own challenge is not accepted.
        let r = a.post(&accept_path(&id), json!({})).await;
        assert_eq!(r.status, StatusCode::CONFLICT, "{which}: {}", r.body);
        assert_eq!(listed(&mut b).await.len(), 1, "{which}: nothing changed");
        let r = b.post(&accept_path(&id), json!({})).await;
        assert_eq!(r.status, StatusCode::OK, "{which}: {}", r.body);
        let game = r.body["game"].as_str().unwrap().to_string();
        assert!(listed(&mut b).await.is_empty(), "{which}");
        // Taken: a second accept is refused.
        let mut c = Browser::new(&app);
        let r = c.post(&accept_path(&id), json!({})).await;
        assert_eq!(r.status, StatusCode::NOT_FOUND, "{which}: {}", r.body);
        // The game is played between the two: the author is black.
        let g = b.get(&format!("/api/games/{game}")).await.body;
        assert_eq!(g["status"], "playing", "{which}: {g}");
        assert_eq!(g["variant"], "hoplit");
        let r = b
            .post(
                &format!("/api/games/{game}/move"),
                json!({"move": "e2e4", "ply": 0}),
            )
            .await;
        assert_eq!(r.status, StatusCode::OK, "{which}: white moves: {}", r.body);
        let r = a
            .post(&format!("/api/games/{game}/resign"), json!({}))
            .await;
        assert_eq!(
            r.status,
            StatusCode::OK,
            "{which}: black resigns: {}",
            r.body
        );
        assert_eq!(r.body["result"], "1-0", "{which}");
    }
}

#[tokio::test]
async fn rated_challenges_need_accounts_a_clock_and_the_range() {
    for backend in backends("lobby_rated").await {
        let which = backend.name();
        let app = backend.app(LONG).await;
        let mut ann = Browser::new(&app);
        ann.sign_up("Ann", PASSWORD).await;
        let mut bob = Browser::new(&app);
        bob.sign_up("bob", PASSWORD).await;
        let mut anon = Browser::new(&app);
        let clock = json!({"initial": 180, "increment": 2});
        // Anonymous: casual only.
        let r = anon
            .post(
                CHALLENGES,
                json!({"variant": "trampoline", "clock": clock, "rated": true}),
            )
            .await;
        assert_eq!(r.status, StatusCode::UNAUTHORIZED, "{which}: {}", r.body);
        // Rated needs a clock.
        let r = ann
            .post(CHALLENGES, json!({"variant": "trampoline", "rated": true}))
            .await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{which}: {}", r.body);
        // A range is for rated challenges, and a sane one.
        for bad in [
            json!({"variant": "chess", "clock": clock, "min_rating": 1400}),
            json!({"variant": "chess", "clock": clock, "rated": true, "min_rating": 1600, "max_rating": 1400}),
            json!({"variant": "chess", "clock": clock, "rated": true, "max_rating": 99999}),
        ] {
            let r = ann.post(CHALLENGES, bad.clone()).await;
            assert_eq!(
                r.status,
                StatusCode::BAD_REQUEST,
                "{which}: {bad}: {}",
                r.body
            );
        }
        assert!(listed(&mut bob).await.is_empty(), "{which}");
        // Out of range: bob is 1500.
        let high = post(
            &mut ann,
            json!({"variant": "trampoline", "clock": clock, "rated": true, "min_rating": 1600}),
        )
        .await;
        let r = bob.post(&accept_path(&high), json!({})).await;
        assert_eq!(r.status, StatusCode::FORBIDDEN, "{which}: {}", r.body);
        assert!(r.body["error"].as_str().unwrap().contains("1500"));
        let id = post(
            &mut ann,
            json!({"variant": "trampoline", "clock": clock, "rated": true,
                   "min_rating": 1400, "max_rating": 1600, "color": "white"}),
        )
        .await;
        let seen = listed(&mut bob).await;
        assert_eq!(seen.len(), 2, "{which}");
        let ours = seen.iter().find(|c| c["id"] == id.as_str()).unwrap();
        assert_eq!(ours["author"]["name"], "Ann", "{which}: {ours}");
        assert_eq!(ours["author"]["rating"], 1500);
        assert_eq!(ours["author"]["provisional"], true);
        // Anonymous may not accept a rated one.
        let r = anon.post(&accept_path(&id), json!({})).await;
        assert_eq!(r.status, StatusCode::UNAUTHORIZED, "{which}: {}", r.body);
        let r = bob.post(&accept_path(&id), json!({})).await;
        assert_eq!(r.status, StatusCode::OK, "{which}: {}", r.body);
        let game = r.body["game"].as_str().unwrap().to_string();
        let g = bob.get(&format!("/api/games/{game}")).await.body;
        assert_eq!(g["rated"], true, "{which}: {g}");
        assert_eq!(g["status"], "playing");
        // Bob (black) resigns: both ratings move.
        let r = ann
            .post(
                &format!("/api/games/{game}/move"),
                json!({"move": "e2e4", "ply": 0}),
            )
            .await;
        assert_eq!(r.status, StatusCode::OK, "{which}: {}", r.body);
        let r = bob
            .post(&format!("/api/games/{game}/resign"), json!({}))
            .await;
        assert_eq!(r.status, StatusCode::OK, "{which}: {}", r.body);
        for (name, up) in [("ann", true), ("bob", false)] {
            let u = bob.get(&format!("/api/user/{name}")).await.body;
            let r = u["perfs"]["trampoline"]["rating"].as_i64().unwrap();
            assert_eq!(r > 1500, up, "{which}: {name}: {u}");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn of_many_accepts_at_once_exactly_one_wins() {
    for backend in backends("lobby_race").await {
        let which = backend.name();
        let app = backend.app(LONG).await;
        for round in 0..3 {
            let mut author = Browser::new(&app);
            let id = post(&mut author, json!({"variant": "chess"})).await;
            let mut tasks = Vec::new();
            for i in 0..16 {
                let mut b = Browser::new(&app);
                b.peer = format!("127.0.{round}.{i}");
                let path = accept_path(&id);
                tasks.push(tokio::spawn(async move {
                    let r = b.post(&path, json!({})).await;
                    (r.status, r.body)
                }));
            }
            let mut games = Vec::new();
            for t in tasks {
                let (status, body) = t.await.unwrap();
                match status {
                    StatusCode::OK => games.push(body["game"].as_str().unwrap().to_string()),
                    StatusCode::CONFLICT | StatusCode::NOT_FOUND => {
                        assert!(body["error"].is_string(), "{which}: {body}")
                    }
                    other => panic!("{which}: {other}: {body}"),
                }
            }
            assert_eq!(games.len(), 1, "{which}: round {round}: {games:?}");
            let g = author.get(&format!("/api/games/{}", games[0])).await.body;
            assert_eq!(g["status"], "playing", "{which}: {g}");
            assert!(listed(&mut author).await.is_empty(), "{which}");
        }
    }
}

#[tokio::test]
async fn hostile_input_gets_a_json_error_and_changes_nothing() {
    let backend = Backend::Sqlite(Arc::new(SqliteStore::memory().await.unwrap()));
    let app = backend.app(LONG).await;
    let mut a = Browser::new(&app);
    a.sign_up("mallory", PASSWORD).await;
    let mut b = Browser::new(&app);
    let huge = "x".repeat(300 * 1024);
    let cases = [
        (
            json!({"variant": "<script>alert(1)</script>"}),
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({"variant": "chess", "to": "<b>bob</b>"}),
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({"variant": "chess", "to": "nobody_here"}),
            StatusCode::NOT_FOUND,
        ),
        (
            json!({"variant": "chess", "to": "Mallory"}),
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({"variant": "chess", "color": "purple"}),
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({"variant": "chess", "clock": {"initial": 999999, "increment": 0}}),
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({"variant": "chess", "clock": {"initial": 0, "increment": 0}}),
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({"variant": "chess", "extra": 1}),
            StatusCode::BAD_REQUEST,
        ),
        (json!({"variant": huge}), StatusCode::PAYLOAD_TOO_LARGE),
    ];
    for (body, status) in cases {
        let r = a.post(CHALLENGES, body).await;
        assert_eq!(r.status, status, "{}", r.body);
        assert!(r.body["error"].is_string(), "{}", r.body);
    }
    // A forged or missing Origin: refused before anything is read.
    for origin in [Some("http://evil.test".to_string()), None] {
        let mut forged = a.clone();
        forged.origin = origin;
        let r = forged.post(CHALLENGES, json!({"variant": "chess"})).await;
        assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.body);
    }
    assert!(listed(&mut b).await.is_empty());
    // A forged origin does not accept either.
    let id = post(&mut a, json!({"variant": "chess"})).await;
    let mut forged = b.clone();
    forged.origin = Some("http://evil.test".into());
    let r = forged.post(&accept_path(&id), json!({})).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.body);
    let r = b
        .post(&format!("{CHALLENGES}/{id}/decline"), json!({}))
        .await;
    assert_eq!(
        r.status,
        StatusCode::BAD_REQUEST,
        "an open one is not declined: {}",
        r.body
    );
    assert_eq!(listed(&mut b).await.len(), 1);
    // A flood: a few open challenges per author, then a few posts per
    // address.
    for _ in 1..springboard_web::lobby::MAX_OPEN_PER_AUTHOR {
        post(&mut a, json!({"variant": "chess"})).await;
    }
    let r = a.post(CHALLENGES, json!({"variant": "chess"})).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.body);
    let mut refused = false;
    for i in 0..springboard_web::lobby::POSTS_PER_WINDOW + 5 {
        let mut c = Browser::new(&app);
        c.peer = "10.0.0.9".into();
        let r = c.post(CHALLENGES, json!({"variant": "chess"})).await;
        if r.status == StatusCode::TOO_MANY_REQUESTS {
            refused = true;
            assert!(
                i >= springboard_web::lobby::POSTS_PER_WINDOW,
                "refused at {i}"
            );
            break;
        }
        assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
    }
    assert!(refused, "the address's posts are limited");
}

#[tokio::test]
async fn personal_challenges_are_seen_by_the_two_and_declined() {
    for backend in backends("lobby_personal").await {
        let which = backend.name();
        let app = backend.app(LONG).await;
        let mut ann = Browser::new(&app);
        ann.sign_up("ann", PASSWORD).await;
        let mut bob = Browser::new(&app);
        bob.sign_up("Bob", PASSWORD).await;
        let mut cat = Browser::new(&app);
        cat.sign_up("cat", PASSWORD).await;
        let mut anon = Browser::new(&app);
        let r = anon
            .post(CHALLENGES, json!({"variant": "chess", "to": "bob"}))
            .await;
        assert_eq!(r.status, StatusCode::UNAUTHORIZED, "{which}: {}", r.body);
        let id = post(&mut ann, json!({"variant": "chess", "to": "bob"})).await;
        let seen = listed(&mut bob).await;
        assert_eq!(seen.len(), 1, "{which}");
        assert_eq!(seen[0]["to"], "Bob");
        assert_eq!(listed(&mut ann).await.len(), 1, "{which}");
        assert!(listed(&mut cat).await.is_empty(), "{which}: not cat's");
        assert!(listed(&mut anon).await.is_empty(), "{which}");
        let r = cat.post(&accept_path(&id), json!({})).await;
        assert_eq!(r.status, StatusCode::FORBIDDEN, "{which}: {}", r.body);
        let r = cat
            .post(&format!("{CHALLENGES}/{id}/decline"), json!({}))
            .await;
        assert_eq!(r.status, StatusCode::FORBIDDEN, "{which}: {}", r.body);
        let r = bob
            .post(&format!("{CHALLENGES}/{id}/decline"), json!({}))
            .await;
        assert_eq!(r.status, StatusCode::OK, "{which}: {}", r.body);
        assert!(listed(&mut ann).await.is_empty(), "{which}");
        let id = post(&mut ann, json!({"variant": "chess", "to": "BOB"})).await;
        let r = bob.post(&accept_path(&id), json!({})).await;
        assert_eq!(r.status, StatusCode::OK, "{which}: {}", r.body);
    }
}

// ---- the socket, over loopback ----

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

fn token(n: u32) -> String {
    format!("LobbyTestToken{n:010}")
}

async fn socket(addr: &str, cookie: &str) -> Socket {
    let mut req = format!("ws://{addr}/api/lobby/socket")
        .into_client_request()
        .unwrap();
    req.headers_mut()
        .insert("origin", format!("http://{addr}").parse().unwrap());
    req.headers_mut()
        .insert("cookie", format!("sb_player={cookie}").parse().unwrap());
    tokio_tungstenite::connect_async(req).await.unwrap().0
}

/// The next message of type `t` (others skipped), within 5 s.
async fn next_of(ws: &mut Socket, t: &str) -> Value {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(5), ws.next())
            .await
            .unwrap_or_else(|_| panic!("a '{t}' message within 5 s"))
            .expect("the socket is open")
            .unwrap();
        if let Message::Text(text) = msg {
            let v: Value = serde_json::from_str(&text).unwrap();
            if v["t"] == t {
                return v;
            }
        }
    }
}

async fn http(addr: &str, method: &str, path: &str, cookie: &str, body: Value) -> (u16, Value) {
    support::loopback::http(addr, method, path, cookie, Some(body)).await
}

#[tokio::test]
async fn the_socket_sends_the_list_then_changes_and_the_start() {
    for backend in backends("lobby_socket").await {
        let which = backend.name();
        let addr = support::loopback::listen(backend.app(Duration::from_millis(300)).await).await;
        let (a, b) = (token(1), token(2));
        let (status, _) = http(&addr, "POST", CHALLENGES, &b, json!({"variant": "chess"})).await;
        assert_eq!(status, 201, "{which}");
        let mut wa = socket(&addr, &a).await;
        let list = next_of(&mut wa, "list").await;
        assert_eq!(
            list["challenges"].as_array().unwrap().len(),
            1,
            "{which}: {list}"
        );
        assert_eq!(list["online"]["count"], 0);
        // B has no socket: its challenge is withdrawn after the grace time.
        let gone = next_of(&mut wa, "remove").await;
        assert_eq!(gone["id"], list["challenges"][0]["id"], "{which}");
        // A posts with its socket open: it stays, and A sees it as its own.
        let (status, c) = http(
            &addr,
            "POST",
            CHALLENGES,
            &a,
            json!({"variant": "hopchess"}),
        )
        .await;
        assert_eq!(status, 201, "{which}: {c}");
        let add = next_of(&mut wa, "add").await;
        assert_eq!(add["challenge"]["id"], c["id"], "{which}");
        assert_eq!(add["challenge"]["mine"], true);
        let mut wb = socket(&addr, &b).await;
        let list = next_of(&mut wb, "list").await;
        assert_eq!(list["challenges"][0]["mine"], false, "{which}: {list}");
        tokio::time::sleep(Duration::from_millis(500)).await;
        // B accepts: both sockets get the game.
        let id = c["id"].as_str().unwrap();
        let (status, r) = http(&addr, "POST", &accept_path(id), &b, json!({})).await;
        assert_eq!(status, 200, "{which}: {r}");
        for ws in [&mut wa, &mut wb] {
            let start = next_of(ws, "start").await;
            assert_eq!(start["game"], r["game"], "{which}: {start}");
            assert_eq!(start["challenge"], id);
        }
        // A ping is answered; a forged origin opens no socket.
        wa.send(Message::Text(r#"{"t":"ping"}"#.into()))
            .await
            .unwrap();
        next_of(&mut wa, "pong").await;
        let mut req = format!("ws://{addr}/api/lobby/socket")
            .into_client_request()
            .unwrap();
        req.headers_mut()
            .insert("origin", "http://evil.test".parse().unwrap());
        assert!(
            tokio_tungstenite::connect_async(req).await.is_err(),
            "{which}"
        );
        // A's socket closes: its new challenge is withdrawn.
        let (status, c) = http(&addr, "POST", CHALLENGES, &a, json!({"variant": "chess"})).await;
        assert_eq!(status, 201, "{which}: {c}");
        next_of(&mut wb, "add").await;
        drop(wa);
        let gone = next_of(&mut wb, "remove").await;
        assert_eq!(gone["id"], c["id"], "{which}");
    }
}

#[tokio::test]
async fn who_is_online_is_the_signed_in_players_with_a_socket() {
    let backend = Backend::Sqlite(Arc::new(SqliteStore::memory().await.unwrap()));
    let app = backend.app(LONG).await;
    let addr = support::loopback::listen(app.clone()).await;
    let mut ann = Browser::new(&app);
    ann.sign_up("Ann", PASSWORD).await;
    let session = ann.cookie("sb_session").unwrap();
    let player = ann.cookie("sb_player").unwrap();
    let mut watcher = socket(&addr, &token(9)).await;
    let list = next_of(&mut watcher, "list").await;
    assert_eq!(list["online"], json!({"count": 0, "names": []}));
    let mut req = format!("ws://{addr}/api/lobby/socket")
        .into_client_request()
        .unwrap();
    req.headers_mut()
        .insert("origin", format!("http://{addr}").parse().unwrap());
    req.headers_mut().insert(
        "cookie",
        format!("sb_player={player}; sb_session={session}")
            .parse()
            .unwrap(),
    );
    let ws = tokio_tungstenite::connect_async(req).await.unwrap().0;
    let online = next_of(&mut watcher, "online").await;
    assert_eq!(online["online"], json!({"count": 1, "names": ["Ann"]}));
    drop(ws);
    let online = next_of(&mut watcher, "online").await;
    assert_eq!(online["online"]["count"], 0);
}

#[tokio::test]
async fn on_postgresql_every_process_sees_the_lobby() {
    let Some(options) = postgres_options("lobby_two").await else {
        return;
    };
    let one = Backend::Postgres(Arc::new(
        PgStore::connect_with(options.clone()).await.unwrap(),
    ));
    let two = Backend::Postgres(Arc::new(PgStore::connect_with(options).await.unwrap()));
    let app_one = one.app(LONG).await;
    let first = support::loopback::listen(app_one.clone()).await;
    let second = support::loopback::listen(two.app(LONG).await).await;
    let (a, b) = (token(11), token(12));
    let mut wa = socket(&first, &a).await;
    next_of(&mut wa, "list").await;
    let mut wb = socket(&second, &b).await;
    next_of(&mut wb, "list").await;
    let (status, c) = http(&first, "POST", CHALLENGES, &a, json!({"variant": "chess"})).await;
    assert_eq!(status, 201, "{c}");
    let add = next_of(&mut wb, "add").await;
    assert_eq!(add["challenge"]["id"], c["id"]);
    let id = c["id"].as_str().unwrap();
    let (status, r) = http(&second, "POST", &accept_path(id), &b, json!({})).await;
    assert_eq!(status, 200, "{r}");
    // The author's process hears of it: the challenge goes, the game
    // starts.
    let gone = next_of(&mut wa, "remove").await;
    assert_eq!(gone["id"], c["id"]);
    let start = next_of(&mut wa, "start").await;
    assert_eq!(start["game"], r["game"]);
    let start = next_of(&mut wb, "start").await;
    assert_eq!(start["game"], r["game"]);
    // Who is online reaches the other process too.
    let mut ann = Browser::new(&app_one);
    ann.sign_up("ann", PASSWORD).await;
    let cookies = format!(
        "sb_player={}; sb_session={}",
        ann.cookie("sb_player").unwrap(),
        ann.cookie("sb_session").unwrap()
    );
    let mut req = format!("ws://{first}/api/lobby/socket")
        .into_client_request()
        .unwrap();
    req.headers_mut()
        .insert("origin", format!("http://{first}").parse().unwrap());
    req.headers_mut().insert("cookie", cookies.parse().unwrap());
    let ws = tokio_tungstenite::connect_async(req).await.unwrap().0;
    let online = next_of(&mut wb, "online").await;
    assert_eq!(online["online"], json!({"count": 1, "names": ["ann"]}));
    drop(ws);
    let online = next_of(&mut wb, "online").await;
    assert_eq!(online["online"]["count"], 0);
}

#[tokio::test]
async fn a_restart_withdraws_the_challenges_of_the_process_before() {
    for backend in backends("lobby_restart").await {
        let which = backend.name();
        let app = backend.app(LONG).await;
        let mut a = Browser::new(&app);
        post(&mut a, json!({"variant": "chess"})).await;
        assert_eq!(listed(&mut a).await.len(), 1, "{which}");
        // Another process on the same database: on SQLite the one before
        // is gone (one process per file); on PostgreSQL it is alive (its
        // heartbeat is fresh) and its challenges stay.
        let again = backend.app(LONG).await;
        let mut b = Browser::new(&again);
        let left = listed(&mut b).await.len();
        match backend {
            Backend::Sqlite(_) => assert_eq!(left, 0, "{which}"),
            Backend::Postgres(_) => assert_eq!(left, 1, "{which}"),
        }
    }
}
