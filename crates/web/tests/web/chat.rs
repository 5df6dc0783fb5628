//! Game chat (`crates/web/src/chat/`) and blocks (`crates/web/src/relation/`)
//! on SQLite and, when `SPRINGBOARD_TEST_POSTGRES` names a server, on
//! PostgreSQL: the players' and spectators' rooms, who reads and writes
//! each; hostile input (HTML kept as text, a line too long, control
//! characters, a flood, a spectator writing in the players' room, a forged
//! seat or origin, unknown fields); blocks (the blocked's lines hidden
//! from the blocker, challenges refused both ways); the chat socket's live
//! lines, and across two processes on PostgreSQL.

use crate::support;

use axum::http::StatusCode;
use axum::Router;
use futures_util::StreamExt;
use serde_json::{json, Value};
use springboard_web::{app_with, ManualClock, Options, PgStore, SqliteStore, Store};
use std::sync::Arc;
use std::time::Duration;
use support::browser::Browser;
use support::loopback::Socket;
use support::postgres::postgres_options;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

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

    /// The app over this backend with every domain, on `clock`.
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

fn clock() -> Arc<ManualClock> {
    Arc::new(ManualClock::new(support::apps::START_MS))
}

fn chat(id: &str) -> String {
    format!("/api/game/{id}/chat")
}

/// A signed-up browser.
async fn account(app: &Router, name: &str) -> Browser {
    let mut b = Browser::new(app);
    b.sign_up(name, PASSWORD).await;
    b
}

/// A friend game of `white` (white) joined by `black`: its id.
async fn friend_game(white: &mut Browser, black: &mut Browser) -> String {
    let id = white
        .new_game(json!({"mode": "friend", "color": "white"}))
        .await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let join = white.invite_path(&id).await;
    let r = black.post(&join, json!({})).await;
    assert_eq!(r.status, StatusCode::OK, "join: {}", r.body);
    id
}

/// Writes `text` as `b` in game `id`, answered 201: the line.
async fn say(b: &mut Browser, id: &str, text: &str) -> Value {
    let r = b.post(&chat(id), json!({ "text": text })).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.body);
    r.body
}

/// The room `b` sees in game `id`.
async fn room(b: &mut Browser, id: &str) -> Value {
    let r = b.get(&chat(id)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    r.body
}

fn texts(room: &Value) -> Vec<String> {
    room["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["text"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn players_and_spectators_have_rooms_of_their_own() {
    for backend in backends("chat_rooms").await {
        let which = backend.name();
        let app = backend.app(clock()).await;
        let mut alice = account(&app, "Alice").await;
        let mut bob = account(&app, "Bob").await;
        let mut carol = account(&app, "Carol").await;
        let mut dave = Browser::new(&app);
        let id = friend_game(&mut alice, &mut bob).await;

        let r = room(&mut alice, &id).await;
        assert_eq!(r["room"], "player", "{which}");
        assert_eq!(r["writable"], true);
        assert_eq!(r["lines"], json!([]));
        // HTML is text; the line is trimmed.
        let line = say(&mut alice, &id, "  hi <b>Bob</b> & <script>x()</script> ").await;
        assert_eq!(
            line["text"], "hi <b>Bob</b> & <script>x()</script>",
            "{which}"
        );
        assert_eq!(line["name"], "Alice");
        assert_eq!(line["user"], "alice");
        say(&mut bob, &id, "hello").await;
        let r = room(&mut bob, &id).await;
        assert_eq!(r["room"], "player");
        assert_eq!(
            texts(&r),
            ["hi <b>Bob</b> & <script>x()</script>", "hello"],
            "{which}"
        );

        // A signed-in spectator reads and writes the spectators' room.
        let r = room(&mut carol, &id).await;
        assert_eq!(r["room"], "spectator", "{which}");
        assert_eq!(r["writable"], true);
        assert_eq!(r["lines"], json!([]), "{which}: not the players' lines");
        say(&mut carol, &id, "nice opening").await;
        assert_eq!(texts(&room(&mut alice, &id).await).len(), 2, "{which}");
        // An anonymous one reads it and may not write.
        let r = room(&mut dave, &id).await;
        assert_eq!(r["room"], "spectator");
        assert_eq!(r["writable"], false);
        assert_eq!(texts(&r), ["nice opening"]);
        let r = dave.post(&chat(&id), json!({"text": "hi"})).await;
        assert_eq!(r.status, StatusCode::UNAUTHORIZED, "{which}: {}", r.body);
        assert!(r.body["error"].is_string());

        // A spectator never writes in the players' room, a player never in
        // the spectators'.
        let r = carol
            .post(&chat(&id), json!({"text": "psst", "room": "player"}))
            .await;
        assert_eq!(r.status, StatusCode::FORBIDDEN, "{which}: {}", r.body);
        let r = alice
            .post(&chat(&id), json!({"text": "psst", "room": "spectator"}))
            .await;
        assert_eq!(r.status, StatusCode::FORBIDDEN, "{which}: {}", r.body);
        // A forged seat (a cookie of the right shape that holds nothing)
        // is a spectator's.
        let mut forged = Browser::new(&app);
        forged
            .jar
            .insert("sb_player".into(), "ForgedSeatToken000000000".into());
        let r = room(&mut forged, &id).await;
        assert_eq!(r["room"], "spectator", "{which}");
        let r = forged
            .post(&chat(&id), json!({"text": "psst", "room": "player"}))
            .await;
        assert_eq!(r.status, StatusCode::FORBIDDEN, "{which}: {}", r.body);
        // A seat named in the body is no field of a line.
        let r = carol
            .post(&chat(&id), json!({"text": "psst", "seat": "white"}))
            .await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{which}: {}", r.body);
        // A forged origin.
        let mut evil = alice.clone();
        evil.origin = Some("http://evil.test".into());
        let r = evil.post(&chat(&id), json!({"text": "psst"})).await;
        assert_eq!(r.status, StatusCode::FORBIDDEN, "{which}: {}", r.body);
        // Texts: too long, empty, control characters.
        let long = "x".repeat(141);
        for bad in [long.as_str(), "   ", "a\nb", "\u{7}"] {
            let r = bob.post(&chat(&id), json!({"text": bad})).await;
            assert_eq!(r.status, StatusCode::BAD_REQUEST, "{which}: {}", r.body);
            assert!(r.body["error"].is_string());
        }
        let huge = "x".repeat(200_000);
        let r = bob.post(&chat(&id), json!({"text": huge})).await;
        assert!(r.status.is_client_error(), "{which}: {}", r.status);
        say(&mut bob, &id, &"é".repeat(140)).await;
        // Nothing refused was kept.
        assert_eq!(texts(&room(&mut alice, &id).await).len(), 3, "{which}");
        assert_eq!(texts(&room(&mut dave, &id).await).len(), 1, "{which}");
        // No such game.
        for path in [chat("NoSuchG1"), chat("bad%20id%21")] {
            let r = alice.get(&path).await;
            assert_eq!(r.status, StatusCode::NOT_FOUND, "{which}: {path}");
        }
        let r = alice.post(&chat("NoSuchG1"), json!({"text": "hi"})).await;
        assert_eq!(r.status, StatusCode::NOT_FOUND, "{which}");
    }
}

#[tokio::test]
async fn anonymous_players_are_named_by_their_side_and_one_board_has_no_players_room() {
    let backend = Backend::Sqlite(Arc::new(SqliteStore::memory().await.unwrap()));
    let app = backend.app(clock()).await;
    let mut white = Browser::new(&app);
    let mut black = Browser::new(&app);
    let id = friend_game(&mut white, &mut black).await;
    assert_eq!(say(&mut white, &id, "gl").await["name"], "White");
    let line = say(&mut black, &id, "hf").await;
    assert_eq!(line["name"], "Black");
    assert_eq!(line["user"], Value::Null);
    assert_eq!(texts(&room(&mut white, &id).await), ["gl", "hf"]);
    // A game on one board: its player is a spectator here.
    let local = white.new_game(json!({"mode": "local"})).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let r = room(&mut white, &local).await;
    assert_eq!(r["room"], "spectator");
    assert_eq!(r["writable"], false);
}

#[tokio::test]
async fn a_flood_is_refused_until_the_window_moves() {
    for backend in backends("chat_flood").await {
        let which = backend.name();
        let clock = clock();
        let app = backend.app(clock.clone()).await;
        let mut alice = account(&app, "Alice").await;
        let mut bob = account(&app, "Bob").await;
        let id = friend_game(&mut alice, &mut bob).await;
        for n in 0..4 {
            say(&mut alice, &id, &format!("line {n}")).await;
        }
        let r = alice.post(&chat(&id), json!({"text": "one more"})).await;
        assert_eq!(
            r.status,
            StatusCode::TOO_MANY_REQUESTS,
            "{which}: {}",
            r.body
        );
        assert!(r.body["error"].as_str().unwrap().contains("too fast"));
        // Another author is not held back.
        say(&mut bob, &id, "mine").await;
        clock.advance(10_000);
        say(&mut alice, &id, "again").await;
        assert_eq!(texts(&room(&mut bob, &id).await).len(), 6, "{which}");
    }
}

#[tokio::test]
async fn a_block_hides_chat_and_refuses_challenges_both_ways() {
    for backend in backends("chat_blocks").await {
        let which = backend.name();
        let app = backend.app(clock()).await;
        let mut alice = account(&app, "Alice").await;
        let mut bob = account(&app, "Bob").await;
        let mut anon = Browser::new(&app);
        let id = friend_game(&mut alice, &mut bob).await;
        say(&mut bob, &id, "before").await;

        // Who may block whom.
        let r = anon.post("/api/rel/block/Bob", json!({})).await;
        assert_eq!(r.status, StatusCode::UNAUTHORIZED, "{which}: {}", r.body);
        let r = alice.post("/api/rel/block/alice", json!({})).await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{which}: {}", r.body);
        let r = alice.post("/api/rel/block/nobody", json!({})).await;
        assert_eq!(r.status, StatusCode::NOT_FOUND, "{which}: {}", r.body);
        let r = alice
            .post("/api/rel/block/%3Cb%3Ex%3C%2Fb%3E", json!({}))
            .await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{which}: {}", r.body);
        let mut evil = alice.clone();
        evil.origin = Some("http://evil.test".into());
        let r = evil.post("/api/rel/block/Bob", json!({})).await;
        assert_eq!(r.status, StatusCode::FORBIDDEN, "{which}: {}", r.body);
        assert_eq!(
            alice.get("/api/rel/blocking").await.body,
            json!({"blocking": []})
        );

        let r = alice.post("/api/rel/block/Bob", json!({})).await;
        assert_eq!(r.status, StatusCode::OK, "{which}: {}", r.body);
        assert_eq!(r.body, json!({"ok": true}));
        // Twice is once.
        let r = alice.post("/api/rel/block/bob", json!({})).await;
        assert_eq!(r.status, StatusCode::OK, "{which}: {}", r.body);
        assert_eq!(
            alice.get("/api/rel/blocking").await.body,
            json!({"blocking": [{"id": "bob", "name": "Bob"}]}),
            "{which}"
        );
        assert_eq!(
            bob.get("/api/rel/blocking").await.body,
            json!({"blocking": []})
        );

        // Bob's lines are hidden from Alice, hers still reach him.
        say(&mut bob, &id, "after").await;
        say(&mut alice, &id, "from alice").await;
        assert_eq!(
            texts(&room(&mut alice, &id).await),
            ["from alice"],
            "{which}"
        );
        assert_eq!(
            texts(&room(&mut bob, &id).await),
            ["before", "after", "from alice"],
            "{which}"
        );

        // No personal challenge either way, no open challenge accepted.
        let challenges = "/api/lobby/challenges";
        for (from, to) in [(&mut bob, "Alice"), (&mut alice, "Bob")] {
            let r = from
                .post(challenges, json!({"variant": "chess", "to": to}))
                .await;
            assert_eq!(r.status, StatusCode::FORBIDDEN, "{which}: {}", r.body);
            assert!(r.body["error"].as_str().unwrap().contains("blocks"));
        }
        let r = bob.post(challenges, json!({"variant": "chess"})).await;
        assert_eq!(r.status, StatusCode::CREATED, "{which}: {}", r.body);
        let open = r.body["id"].as_str().unwrap().to_string();
        let r = alice
            .post(&format!("{challenges}/{open}/accept"), json!({}))
            .await;
        assert_eq!(r.status, StatusCode::FORBIDDEN, "{which}: {}", r.body);
        let r = alice.post(challenges, json!({"variant": "chess"})).await;
        let mine = r.body["id"].as_str().unwrap().to_string();
        let r = bob
            .post(&format!("{challenges}/{mine}/accept"), json!({}))
            .await;
        assert_eq!(r.status, StatusCode::FORBIDDEN, "{which}: {}", r.body);
        // The refused challenge is still open to others.
        let mut carol = account(&app, "Carol").await;
        let r = carol
            .post(&format!("{challenges}/{open}/accept"), json!({}))
            .await;
        assert_eq!(r.status, StatusCode::OK, "{which}: {}", r.body);

        // Unblocked: all is as before.
        let r = alice.post("/api/rel/unblock/Bob", json!({})).await;
        assert_eq!(r.status, StatusCode::OK, "{which}: {}", r.body);
        assert_eq!(texts(&room(&mut alice, &id).await).len(), 3, "{which}");
        let r = bob
            .post(challenges, json!({"variant": "chess", "to": "Alice"}))
            .await;
        assert_eq!(r.status, StatusCode::CREATED, "{which}: {}", r.body);
    }
}

/// The chat socket of game `id` for the browser `b` (its cookies).
async fn socket(addr: &str, id: &str, b: &Browser) -> Socket {
    let mut req = format!("ws://{addr}/api/game/{id}/chat/socket")
        .into_client_request()
        .unwrap();
    req.headers_mut()
        .insert("origin", format!("http://{addr}").parse().unwrap());
    let cookies: Vec<String> = b.jar.iter().map(|(k, v)| format!("{k}={v}")).collect();
    if !cookies.is_empty() {
        req.headers_mut()
            .insert("cookie", cookies.join("; ").parse().unwrap());
    }
    tokio_tungstenite::connect_async(req).await.unwrap().0
}

/// The next line on `ws` within 5 s (pongs skipped).
async fn next_line(ws: &mut Socket) -> Value {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(5), ws.next())
            .await
            .expect("a line within 5 s")
            .expect("the socket is open")
            .unwrap();
        if let Message::Text(text) = msg {
            let v: Value = serde_json::from_str(&text).unwrap();
            if v["t"] == "line" {
                return v["line"].clone();
            }
        }
    }
}

#[tokio::test]
async fn the_socket_delivers_each_room_its_own_lines() {
    let backend = Backend::Sqlite(Arc::new(SqliteStore::memory().await.unwrap()));
    let app = backend.app(clock()).await;
    let addr = support::loopback::listen(app.clone()).await;
    let mut alice = account(&app, "Alice").await;
    let mut bob = account(&app, "Bob").await;
    let mut carol = account(&app, "Carol").await;
    let mut erin = account(&app, "Erin").await;
    let id = friend_game(&mut alice, &mut bob).await;
    let other = friend_game(&mut carol, &mut erin).await;
    let mut wa = socket(&addr, &id, &alice).await;
    let mut wc = socket(&addr, &id, &carol).await;
    let dave = Browser::new(&app);
    let mut wd = socket(&addr, &id, &dave).await;
    let r = erin.post("/api/rel/block/Carol", json!({})).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let mut we = socket(&addr, &id, &erin).await;
    // Sockets are ready once they answer a ping... give them a moment.
    tokio::time::sleep(Duration::from_millis(100)).await;

    say(&mut carol, &other, "another game").await;
    say(&mut bob, &id, "<b>players</b>").await;
    say(&mut carol, &id, "from carol").await;
    say(&mut alice, &id, "players again").await;
    say(&mut erin, &id, "from erin").await;
    assert_eq!(next_line(&mut wa).await["text"], "<b>players</b>");
    assert_eq!(next_line(&mut wa).await["text"], "players again");
    assert_eq!(next_line(&mut wc).await["text"], "from carol");
    assert_eq!(next_line(&mut wc).await["text"], "from erin");
    assert_eq!(next_line(&mut wd).await["text"], "from carol");
    // Erin blocks Carol: her line is not sent to Erin.
    assert_eq!(next_line(&mut we).await["text"], "from erin");

    // A forged origin gets no socket.
    let mut req = format!("ws://{addr}/api/game/{id}/chat/socket")
        .into_client_request()
        .unwrap();
    req.headers_mut()
        .insert("origin", "http://evil.test".parse().unwrap());
    assert!(tokio_tungstenite::connect_async(req).await.is_err());
}

#[tokio::test]
async fn on_postgresql_a_line_reaches_every_process() {
    let Some(options) = postgres_options("chat_two").await else {
        return;
    };
    let one = Backend::Postgres(Arc::new(
        PgStore::connect_with(options.clone()).await.unwrap(),
    ));
    let two = Backend::Postgres(Arc::new(PgStore::connect_with(options).await.unwrap()));
    let app_one = one.app(clock()).await;
    let app_two = two.app(clock()).await;
    let second = support::loopback::listen(app_two.clone()).await;
    let mut alice = account(&app_one, "Alice").await;
    let mut bob = account(&app_one, "Bob").await;
    let id = friend_game(&mut alice, &mut bob).await;
    // Bob's page is served by the second process.
    let mut bob_there = bob.clone();
    bob_there.app = app_two.clone();
    let mut wb = socket(&second, &id, &bob_there).await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    say(&mut alice, &id, "across").await;
    let line = next_line(&mut wb).await;
    assert_eq!(line["text"], "across");
    assert_eq!(line["name"], "Alice");
    // And back, once.
    let mut wa = socket(&support::loopback::listen(app_one).await, &id, &alice).await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    say(&mut bob_there, &id, "back").await;
    assert_eq!(next_line(&mut wa).await["text"], "back");
    assert_eq!(next_line(&mut wb).await["text"], "back");
    let quiet = tokio::time::timeout(Duration::from_millis(300), wb.next()).await;
    assert!(quiet.is_err(), "each line comes once");
}
