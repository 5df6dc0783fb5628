//! Who may act on a seat, against hostile requests, through the router on
//! SQLite and, when `SPRINGBOARD_TEST_POSTGRES` names a server, on
//! PostgreSQL (the socket over loopback): every request a cookie
//! authorises to change a game is refused without the site's own `Origin`
//! (none, `null`, another site) and changes nothing; a cross-site page
//! cannot open a game's socket; seats follow the account to every browser
//! signed in to it, and to no other (a signed-out browser, a stolen seat
//! cookie, a forged session, another account).

use crate::support;

use axum::http::StatusCode;
use axum::Router;
use serde_json::{json, Value};
use springboard_web::{app_with, AccountStore, Options, PgStore, SqliteStore, Store};
use std::sync::Arc;
use support::browser::Browser;
use support::postgres::postgres_options;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

const PASSWORD: &str = "correct horse battery";

/// The app with accounts over each backend.
async fn apps() -> Vec<(&'static str, Router)> {
    let mut v = Vec::new();
    let sqlite = Arc::new(SqliteStore::memory().await.unwrap());
    v.push(("sqlite", app(sqlite.clone(), sqlite).await));
    if let Some(options) = postgres_options("sb_seats").await {
        let pg = Arc::new(PgStore::connect_with(options).await.unwrap());
        v.push(("postgres", app(pg.clone(), pg).await));
    }
    v
}

async fn app(games: Arc<dyn Store>, accounts: Arc<dyn AccountStore>) -> Router {
    let mut options = Options::new(None);
    options.accounts = Some(accounts);
    app_with(games, options).await.unwrap()
}

/// What a request could change of a game: its version, moves, status,
/// result and offers (as `browser` sees it).
async fn state(b: &mut Browser, id: &str) -> Value {
    let a = b.get(&format!("/api/games/{id}")).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.body);
    let v = a.body;
    json!({
        "version": v["version"],
        "history": v["history"],
        "status": v["status"],
        "result": v["result"],
        "reason": v["reason"],
        "seats": v["seats"],
        "offers": v["offers"],
        "rematch": v["rematch"],
    })
}

/// The side the browser holds in game `id` (`white`, `black`, `both`), if
/// any.
async fn side(b: &mut Browser, id: &str) -> Option<String> {
    let a = b.get(&format!("/api/games/{id}")).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.body);
    a.body["you"].as_str().map(str::to_string)
}

async fn play(b: &mut Browser, id: &str, mv: &str) -> StatusCode {
    let a = b
        .post(&format!("/api/games/{id}/move"), json!({ "move": mv }))
        .await;
    a.status
}

/// The forged origins: none, `null` (a sandboxed frame, a redirect), and
/// others that are not `http://play.test`.
const FORGED: [Option<&str>; 6] = [
    None,
    Some("null"),
    Some("http://evil.test"),
    Some("https://play.test"),
    Some("http://play.test.evil.test"),
    Some("http://play.test:8080"),
];

#[tokio::test]
async fn cross_site_game_requests_are_refused_and_change_nothing() {
    for (db, app) in apps().await {
        let mut alice = Browser::new(&app);
        let mut bob = Browser::new(&app);
        let friend = alice
            .new_game(json!({"mode": "friend", "color": "white"}))
            .await["id"]
            .as_str()
            .unwrap()
            .to_string();
        let join = alice.invite_path(&friend).await;
        let a = bob.post(&join, json!({})).await;
        assert_eq!(a.status, StatusCode::OK, "{db}: {}", a.body);
        assert_eq!(play(&mut alice, &friend, "e2e4").await, StatusCode::OK);
        let local = alice.new_game(json!({"mode": "local"})).await["id"]
            .as_str()
            .unwrap()
            .to_string();
        assert_eq!(play(&mut alice, &local, "d2d4").await, StatusCode::OK);
        // A third game, waiting for someone to join.
        let open = alice.new_game(json!({"mode": "friend"})).await["id"]
            .as_str()
            .unwrap()
            .to_string();
        let open_join = alice.invite_path(&open).await;
        let games_before = alice.get("/api/games?list=recent").await.body["games"]
            .as_array()
            .unwrap()
            .len();
        let before = [
            state(&mut alice, &friend).await,
            state(&mut alice, &local).await,
            state(&mut alice, &open).await,
        ];

        // Each request as the one browser for whom it would work.
        let requests: Vec<(&Browser, String, Value)> = vec![
            (&bob, "/api/games".into(), json!({"mode": "local"})),
            (&bob, open_join.clone(), json!({})),
            (
                &bob,
                format!("/api/games/{friend}/move"),
                json!({"move": "e7e5"}),
            ),
            (&bob, format!("/api/games/{friend}/resign"), json!({})),
            (
                &bob,
                format!("/api/games/{friend}/draw"),
                json!({"action": "offer"}),
            ),
            (
                &alice,
                format!("/api/games/{friend}/takeback"),
                json!({"action": "offer"}),
            ),
            (
                &alice,
                format!("/api/games/{friend}/rematch"),
                json!({"action": "offer"}),
            ),
            (&alice, format!("/api/games/{local}/undo"), json!({})),
            (
                &alice,
                format!("/api/games/{local}/engine"),
                json!({"level": 1}),
            ),
        ];
        for (b, uri, body) in requests {
            for origin in FORGED {
                let mut forged = b.clone();
                forged.origin = origin.map(str::to_string);
                let a = forged.post(&uri, body.clone()).await;
                assert_eq!(
                    a.status,
                    StatusCode::FORBIDDEN,
                    "{db}: {uri} from {origin:?}: {}",
                    a.body
                );
                let error = a.body["error"].as_str().unwrap();
                assert!(error.contains("Origin"), "{db}: {error}");
                assert!(a.cookies.is_empty(), "{db}: {uri} set {:?}", a.cookies);
            }
        }
        // A cookie-less cross-site creation gets no cookie and no game.
        let mut stranger = Browser::new(&app);
        stranger.origin = Some("http://evil.test".into());
        let a = stranger.post("/api/games", json!({})).await;
        assert_eq!(a.status, StatusCode::FORBIDDEN, "{db}");
        assert!(stranger.jar.is_empty(), "{db}: {:?}", stranger.jar);

        let after = [
            state(&mut alice, &friend).await,
            state(&mut alice, &local).await,
            state(&mut alice, &open).await,
        ];
        assert_eq!(before, after, "{db}: a refused request changed a game");
        let games_after = alice.get("/api/games?list=recent").await.body["games"]
            .as_array()
            .unwrap()
            .len();
        assert_eq!(games_before, games_after, "{db}: a game was created");
        // From the page itself, the same requests go through.
        assert_eq!(play(&mut bob, &friend, "e7e5").await, StatusCode::OK);
        let a = bob.post(&open_join, json!({})).await;
        assert_eq!(a.status, StatusCode::OK, "{db}: {}", a.body);
    }
}

#[tokio::test]
async fn reading_needs_no_origin() {
    for (db, app) in apps().await {
        let mut alice = Browser::new(&app);
        let id = alice.new_game(json!({"mode": "local"})).await["id"]
            .as_str()
            .unwrap()
            .to_string();
        alice.origin = None;
        for uri in [
            format!("/api/games/{id}"),
            format!("/api/games/{id}/moves"),
            format!("/api/games/{id}/pgn"),
            format!("/api/games/{id}/fen"),
            "/api/games".to_string(),
        ] {
            let a = alice.get(&uri).await;
            assert_eq!(a.status, StatusCode::OK, "{db}: {uri}: {}", a.body);
        }
        // The requests that compute and store nothing need none either.
        let a = alice
            .post(
                &format!("/api/games/{id}/line"),
                json!({"ply": 0, "moves": ["e2e4"]}),
            )
            .await;
        assert_eq!(a.status, StatusCode::OK, "{db}: {}", a.body);
        let a = alice
            .post(&format!("/api/games/{id}/read"), json!({"text": "e4"}))
            .await;
        assert_eq!(a.status, StatusCode::OK, "{db}: {}", a.body);
        let a = alice.post("/api/detect", json!({"text": "1. e4"})).await;
        assert_eq!(a.status, StatusCode::OK, "{db}: {}", a.body);
    }
}

/// A WebSocket handshake for game `id` on `addr` from `origin` with the
/// `sb_player` cookie `cookie`: the HTTP status of a refusal, or 101.
async fn handshake(addr: &str, id: &str, cookie: &str, origin: Option<&str>) -> u16 {
    let mut req = format!("ws://{addr}/api/games/{id}/ws")
        .into_client_request()
        .unwrap();
    req.headers_mut()
        .insert("cookie", format!("sb_player={cookie}").parse().unwrap());
    if let Some(o) = origin {
        req.headers_mut().insert("origin", o.parse().unwrap());
    }
    match tokio_tungstenite::connect_async(req).await {
        Ok((mut ws, resp)) => {
            let _ = ws.close(None).await;
            resp.status().as_u16()
        }
        Err(tokio_tungstenite::tungstenite::Error::Http(resp)) => {
            let body = resp.body().clone().unwrap_or_default();
            let text = String::from_utf8_lossy(&body);
            assert!(text.contains("Origin"), "{text}");
            resp.status().as_u16()
        }
        Err(e) => panic!("the handshake failed: {e}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cross_site_page_cannot_open_a_game_socket() {
    use support::loopback::{create_game, http, server};
    const A: &str = "SeatsSocketPlayerA000001";
    let addr = server().await;
    let id = create_game(&addr, A, "local").await;
    let own = format!("http://{addr}");
    let wrong_port = format!("http://{}:1", addr.split(':').next().unwrap());
    for origin in [
        None,
        Some("null"),
        Some("http://evil.test"),
        Some(wrong_port.as_str()),
    ] {
        assert_eq!(handshake(&addr, &id, A, origin).await, 403, "{origin:?}");
    }
    assert_eq!(handshake(&addr, &id, A, Some(&own)).await, 101);
    // Nothing changed: the game is at its first version.
    let (status, view) = http(&addr, "GET", &format!("/api/games/{id}"), A, None).await;
    assert_eq!(status, 200);
    assert_eq!(view["version"], 1, "{view}");
}

#[tokio::test]
async fn seats_follow_the_account_to_every_browser_signed_in_to_it() {
    for (db, app) in apps().await {
        let mut first = Browser::new(&app);
        first.sign_up("alice", PASSWORD).await;
        let id = first
            .new_game(json!({"mode": "friend", "color": "white"}))
            .await["id"]
            .as_str()
            .unwrap()
            .to_string();
        let mut carol = Browser::new(&app);
        let join = first.invite_path(&id).await;
        let a = carol.post(&join, json!({})).await;
        assert_eq!(a.status, StatusCode::OK, "{db}: {}", a.body);

        // A second browser: nobody's seat until alice signs in there.
        let mut second = Browser::new(&app);
        assert_eq!(side(&mut second, &id).await, None, "{db}");
        assert_eq!(
            play(&mut second, &id, "e2e4").await,
            StatusCode::FORBIDDEN,
            "{db}"
        );
        second.sign_in("alice", PASSWORD).await;
        assert_ne!(second.cookie("sb_player"), first.cookie("sb_player"));
        assert_eq!(side(&mut second, &id).await.as_deref(), Some("white"));
        assert_eq!(second.account_games().await, vec![id.clone()], "{db}");
        assert_eq!(play(&mut second, &id, "e2e4").await, StatusCode::OK, "{db}");
        assert_eq!(play(&mut carol, &id, "e7e5").await, StatusCode::OK, "{db}");
        // The first browser plays on, and offers; the second sees the offer
        // as its own.
        assert_eq!(play(&mut first, &id, "g1f3").await, StatusCode::OK, "{db}");
        assert_eq!(play(&mut carol, &id, "b8c6").await, StatusCode::OK, "{db}");
        let a = first
            .post(&format!("/api/games/{id}/draw"), json!({"action": "offer"}))
            .await;
        assert_eq!(a.status, StatusCode::OK, "{db}: {}", a.body);
        let a = second
            .post(
                &format!("/api/games/{id}/draw"),
                json!({"action": "accept"}),
            )
            .await;
        assert!(
            a.status.is_client_error(),
            "{db}: one's own offer: {}",
            a.body
        );

        // A game made on the second browser is the first one's too.
        let other = second
            .new_game(json!({"mode": "friend", "color": "black"}))
            .await["id"]
            .as_str()
            .unwrap()
            .to_string();
        assert_eq!(side(&mut first, &other).await.as_deref(), Some("black"));
        let mut mine = first.account_games().await;
        mine.sort();
        let mut want = vec![id.clone(), other.clone()];
        want.sort();
        assert_eq!(mine, want, "{db}");

        // Signed out, the second browser holds nothing of alice's, though
        // it kept no session cookie and may keep an old seat cookie.
        let seat_cookie = second.cookie("sb_player").unwrap();
        let a = second.post("/api/account/signout", json!({})).await;
        assert_eq!(a.status, StatusCode::OK, "{db}");
        assert_eq!(side(&mut second, &id).await, None, "{db}");
        assert_eq!(
            play(&mut second, &id, "f1c4").await,
            StatusCode::FORBIDDEN,
            "{db}"
        );
        second.jar.insert("sb_player".into(), seat_cookie.clone());
        assert_eq!(side(&mut second, &id).await, None, "{db}");
        assert_eq!(
            play(&mut second, &id, "f1c4").await,
            StatusCode::FORBIDDEN,
            "{db}"
        );
        let a = second
            .post(&format!("/api/games/{id}/resign"), json!({}))
            .await;
        assert_eq!(a.status, StatusCode::FORBIDDEN, "{db}: {}", a.body);
        // Creating a game there gives the browser a seat of its own, not
        // alice's.
        let anon = second.new_game(json!({"mode": "local"})).await;
        assert_ne!(second.cookie("sb_player").unwrap(), seat_cookie, "{db}");
        assert_eq!(anon["you"], "both");
        assert!(!first
            .account_games()
            .await
            .contains(&anon["id"].as_str().unwrap().to_string()));
        // Signing in again gives it back.
        second.sign_in("alice", PASSWORD).await;
        assert_eq!(side(&mut second, &id).await.as_deref(), Some("white"));

        // Signed out everywhere (from the first browser): no browser of
        // alice's acts for her until it signs in again.
        let a = first.post("/api/account/signout-all", json!({})).await;
        assert_eq!(a.status, StatusCode::OK, "{db}: {}", a.body);
        for b in [&mut first, &mut second] {
            assert_eq!(side(b, &id).await, None, "{db}");
            assert_eq!(play(b, &id, "f1c4").await, StatusCode::FORBIDDEN, "{db}");
        }
        first.sign_in("alice", PASSWORD).await;
        assert_eq!(play(&mut first, &id, "f1c4").await, StatusCode::OK, "{db}");
    }
}

#[tokio::test]
async fn stolen_cookies_forged_sessions_and_other_accounts_get_nothing() {
    for (db, app) in apps().await {
        let mut alice = Browser::new(&app);
        alice.sign_up("alice", PASSWORD).await;
        let mut bob = Browser::new(&app);
        bob.sign_up("bob", PASSWORD).await;
        let id = alice
            .new_game(json!({"mode": "friend", "color": "white"}))
            .await["id"]
            .as_str()
            .unwrap()
            .to_string();
        let join = alice.invite_path(&id).await;
        let a = bob.post(&join, json!({})).await;
        assert_eq!(a.status, StatusCode::OK, "{db}: {}", a.body);
        let before = state(&mut alice, &id).await;
        let alice_seat = alice.cookie("sb_player").unwrap();
        let alice_session = alice.cookie("sb_session").unwrap();

        let mut mallory = Browser::new(&app);
        mallory.sign_up("mallory", PASSWORD).await;
        // A stolen seat cookie of a signed-in browser, alone ...
        let mut thief = Browser::new(&app);
        thief.jar.insert("sb_player".into(), alice_seat.clone());
        // ... with a forged session cookie ...
        let mut forger = thief.clone();
        // (its last character changed: to 'y' where it was an 'x')
        let (head, last) = alice_session.split_at(alice_session.len() - 1);
        let swap = if last == "x" { "y" } else { "x" };
        forger
            .jar
            .insert("sb_session".into(), format!("{head}{swap}"));
        // ... or with another account's session.
        let mut mallory_thief = mallory.clone();
        mallory_thief
            .jar
            .insert("sb_player".into(), alice_seat.clone());
        for (who, b) in [
            ("another account", &mut mallory),
            ("a stolen seat cookie", &mut thief),
            ("a forged session", &mut forger),
            (
                "another account with a stolen seat cookie",
                &mut mallory_thief,
            ),
        ] {
            assert_eq!(side(b, &id).await, None, "{db}: {who}");
            for (uri, body) in [
                ("move", json!({"move": "e2e4"})),
                ("resign", json!({})),
                ("draw", json!({"action": "offer"})),
                ("takeback", json!({"action": "offer"})),
                ("rematch", json!({"action": "offer"})),
                ("join", json!({})),
                ("undo", json!({})),
            ] {
                let a = b.post(&format!("/api/games/{id}/{uri}"), body).await;
                assert!(
                    a.status.is_client_error(),
                    "{db}: {who}: {uri} answered {}: {}",
                    a.status,
                    a.body
                );
                assert!(a.body["error"].is_string(), "{db}: {who}: {}", a.body);
            }
        }
        assert_eq!(state(&mut alice, &id).await, before, "{db}");
        // Neither the stolen cookie nor the forged session made anyone
        // alice: her games are hers alone.
        assert_eq!(mallory.account_games().await, Vec::<String>::new());
        let a = forger.get("/api/account").await;
        assert_eq!(a.status, StatusCode::UNAUTHORIZED, "{db}");
        assert_eq!(alice.account_games().await, vec![id.clone()]);
        assert_eq!(play(&mut alice, &id, "e2e4").await, StatusCode::OK, "{db}");
    }
}
