//! The lichess-compatible API (`crates/web/src/lichess/`, docs/api.md) on
//! SQLite and, when `SPRINGBOARD_TEST_POSTGRES` names a server, on
//! PostgreSQL (the streams across two processes): tokens made and revoked
//! on the account page (forged and revoked ones refused), each route's
//! shape, and hostile input (another's challenge or game, one's own or a
//! taken challenge, bad parameters), each a JSON error that changes
//! nothing.

use crate::support;

use axum::http::StatusCode;
use axum::Router;
use serde_json::{json, Value};
use springboard_web::{app_with, ManualClock, Options, PgStore, SqliteStore, Store};
use std::sync::Arc;
use std::time::Duration;
use support::browser::Browser;
use support::loopback::listen;
use support::postgres::postgres_options;

const PASSWORD: &str = "correct horse battery";

/// The app over `store` with every domain, on a manual clock (`clock`).
async fn app_on(store: Arc<dyn Store>, options: Options) -> Router {
    app_with(store, options).await.unwrap()
}

async fn sqlite_app() -> Router {
    let store = Arc::new(SqliteStore::memory().await.unwrap());
    let mut options = Options::new(None);
    options.clock = Arc::new(ManualClock::new(support::apps::START_MS));
    options.domains_on(&store);
    app_on(store, options).await
}

/// Signs `name` up in a new browser and makes a token on the account
/// page: the browser and the token.
async fn member(app: &Router, name: &str) -> (Browser, String) {
    let mut b = Browser::new(app);
    b.sign_up(name, PASSWORD).await;
    let a = b
        .post("/api/account/tokens", json!({"description": "a client"}))
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.body);
    (b, a.body["token"].as_str().unwrap().to_string())
}

/// A client of the API over loopback with a bearer token.
struct Api {
    http: reqwest::Client,
    base: String,
    token: String,
}

impl Api {
    fn new(addr: &str, token: &str) -> Api {
        Api {
            http: reqwest::Client::new(),
            base: format!("http://{addr}"),
            token: token.to_string(),
        }
    }

    fn req(&self, method: reqwest::Method, path: &str) -> reqwest::RequestBuilder {
        self.http
            .request(method, format!("{}{path}", self.base))
            .bearer_auth(&self.token)
    }

    async fn answer(r: reqwest::RequestBuilder) -> (StatusCode, Value) {
        let resp = r.send().await.unwrap();
        let status = StatusCode::from_u16(resp.status().as_u16()).unwrap();
        let body = resp.text().await.unwrap();
        (
            status,
            serde_json::from_str(&body).unwrap_or(Value::String(body)),
        )
    }

    async fn get(&self, path: &str) -> (StatusCode, Value) {
        Self::answer(self.req(reqwest::Method::GET, path)).await
    }

    async fn post(&self, path: &str, body: Value) -> (StatusCode, Value) {
        Self::answer(self.req(reqwest::Method::POST, path).json(&body)).await
    }

    async fn form(&self, path: &str, form: &'static str) -> (StatusCode, Value) {
        Self::answer(
            self.req(reqwest::Method::POST, path)
                .header("content-type", "application/x-www-form-urlencoded")
                .body(form),
        )
        .await
    }

    async fn text(&self, path: &str, accept: &str) -> (StatusCode, String) {
        let resp = self
            .req(reqwest::Method::GET, path)
            .header("accept", accept)
            .send()
            .await
            .unwrap();
        let status = StatusCode::from_u16(resp.status().as_u16()).unwrap();
        (status, resp.text().await.unwrap())
    }

    async fn stream(&self, method: reqwest::Method, path: &str, form: &'static str) -> Lines {
        let resp = self
            .req(method, path)
            .header("content-type", "application/x-www-form-urlencoded")
            .body(form)
            .send()
            .await
            .unwrap();
        assert_eq!(resp.status().as_u16(), 200, "{path}");
        assert_eq!(
            resp.headers()["content-type"].to_str().unwrap(),
            "application/x-ndjson"
        );
        Lines {
            resp,
            buf: String::new(),
        }
    }
}

/// An ndjson stream's lines.
struct Lines {
    resp: reqwest::Response,
    buf: String,
}

impl Lines {
    /// The next JSON line (keep-alive lines skipped); None at the end.
    async fn next(&mut self) -> Option<Value> {
        loop {
            if let Some(i) = self.buf.find('\n') {
                let line: String = self.buf.drain(..=i).collect();
                if line.trim().is_empty() {
                    continue;
                }
                return Some(serde_json::from_str(&line).unwrap());
            }
            let chunk = tokio::time::timeout(Duration::from_secs(10), self.resp.chunk())
                .await
                .expect("a line within 10 s")
                .unwrap()?;
            self.buf.push_str(std::str::from_utf8(&chunk).unwrap());
        }
    }

    /// The next line of type `kind` within 30 s, the others skipped.
    async fn next_of(&mut self, kind: &str) -> Value {
        let mut seen = Vec::new();
        let found = tokio::time::timeout(Duration::from_secs(30), async {
            loop {
                let v = self.next().await?;
                if v["type"] == kind {
                    return Some(v);
                }
                seen.push(v);
            }
        })
        .await;
        match found {
            Ok(Some(v)) => v,
            Ok(None) => panic!("the stream ended before {kind}, after {seen:?}"),
            Err(_) => panic!("no {kind} within 30 s, after {seen:?}"),
        }
    }
}

fn error(v: &Value) -> &str {
    v["error"]
        .as_str()
        .unwrap_or_else(|| panic!("not an error: {v}"))
}

#[tokio::test]
async fn tokens_are_made_listed_and_revoked_on_the_account_page() {
    let app = sqlite_app().await;
    let addr = listen(app.clone()).await;
    let (mut ann, token) = member(&app, "Ann").await;
    assert!(token.starts_with("sbp_") && token.len() == 36, "{token}");
    let list = ann.get("/api/account/tokens").await;
    assert_eq!(list.status, StatusCode::OK);
    let tokens = list.body["tokens"].as_array().unwrap();
    assert_eq!(tokens.len(), 1);
    assert_eq!(tokens[0]["description"], "a client");
    // Only its hash is kept: the token is never shown again.
    assert!(!list.body.to_string().contains(&token));

    let api = Api::new(&addr, &token);
    let (status, me) = api.get("/api/account").await;
    assert_eq!(status, StatusCode::OK, "{me}");
    assert_eq!(me["id"], "ann");
    assert_eq!(me["username"], "Ann");
    assert_eq!(me["perfs"]["hopchess"]["rating"], 1500);
    // The browser's session still gets the site's own account view.
    let own = ann.get("/api/account").await;
    assert_eq!(own.body["name"], "Ann", "{}", own.body);
    assert!(own.body.get("perfs").is_none());

    // A token does not manage tokens; a cookie request needs its Origin.
    let (status, body) = api.get("/api/account/tokens").await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
    let mut forged = ann.clone();
    forged.origin = Some("http://evil.test".into());
    let a = forged
        .post("/api/account/tokens", json!({"description": "x"}))
        .await;
    assert_eq!(a.status, StatusCode::FORBIDDEN);
    for bad in [
        json!({"description": ""}),
        json!({"description": "x".repeat(101)}),
        json!({}),
    ] {
        let a = ann.post("/api/account/tokens", bad.clone()).await;
        assert_eq!(a.status, StatusCode::BAD_REQUEST, "{bad}: {}", a.body);
    }
    assert_eq!(
        ann.get("/api/account/tokens").await.body["tokens"]
            .as_array()
            .unwrap()
            .len(),
        1
    );

    // Forged tokens: malformed, of the right shape, not Bearer.
    for t in ["nope", &format!("sbp_{}", "A".repeat(32)), &token[..35]] {
        let (status, body) = Api::new(&addr, t).get("/api/account").await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{t}");
        assert_eq!(body, json!({"error": "No such token"}));
    }
    let basic = reqwest::Client::new()
        .get(format!("http://{addr}/api/account"))
        .header("authorization", "Basic YTpi")
        .send()
        .await
        .unwrap();
    assert_eq!(basic.status().as_u16(), 401);

    // Revoked: refused from then on; revoking again is a 404.
    let id = tokens[0]["id"].as_str().unwrap().to_string();
    let r = ann
        .send("DELETE", &format!("/api/account/tokens/{id}"), None)
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let (status, body) = api.get("/api/account").await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(error(&body), "No such token");
    let r = ann
        .send("DELETE", &format!("/api/account/tokens/{id}"), None)
        .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    // Another account cannot revoke Ann's.
    let (mut bob, _) = member(&app, "bob").await;
    let (_, ann2) = {
        let a = ann
            .post("/api/account/tokens", json!({"description": "second"}))
            .await;
        (
            a.body["id"].as_str().unwrap().to_string(),
            a.body["token"].as_str().unwrap().to_string(),
        )
    };
    let id2 = ann.get("/api/account/tokens").await.body["tokens"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let r = bob
        .send("DELETE", &format!("/api/account/tokens/{id2}"), None)
        .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    assert_eq!(
        Api::new(&addr, &ann2).get("/api/account").await.0,
        StatusCode::OK
    );
}

#[tokio::test]
async fn challenges_and_the_board_refuse_what_is_not_theirs() {
    let app = sqlite_app().await;
    let addr = listen(app.clone()).await;
    let (_, ann) = member(&app, "ann").await;
    let (_, bob) = member(&app, "bob").await;
    let (_, cat) = member(&app, "cat").await;
    let (ann, bob, cat) = (
        Api::new(&addr, &ann),
        Api::new(&addr, &bob),
        Api::new(&addr, &cat),
    );
    // Ann's event stream holds the lobby for her challenges.
    let mut events = ann
        .stream(reqwest::Method::GET, "/api/stream/event", "")
        .await;

    // Bad parameters: each a 400 (or 404) that posts nothing.
    let clock = json!({"clock.limit": 300, "clock.increment": 2});
    for (path, body, status, text) in [
        (
            "/api/challenge/bob",
            json!({"days": 4}),
            400,
            "4 days per move is not offered",
        ),
        (
            "/api/challenge/bob",
            json!({"days": 3, "clock.limit": 300}),
            400,
            "a clock or a correspondence time control, not both",
        ),
        (
            "/api/challenge/bob",
            json!({"fen": "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "rated": true, "days": 3}),
            400,
            "a game from a position cannot be rated",
        ),
        (
            "/api/challenge/bob",
            json!({"rated": "maybe"}),
            400,
            "'rated' must be",
        ),
        (
            "/api/challenge/bob",
            json!({"clock.limit": -5}),
            400,
            "'clock.limit' must be",
        ),
        (
            "/api/challenge/bob",
            json!({"clock.limit": 99999, "clock.increment": 0}),
            400,
            "a clock has at most",
        ),
        (
            "/api/challenge/bob",
            json!({"variant": "nochess"}),
            400,
            "nochess",
        ),
        (
            "/api/challenge/bob",
            json!({"rated": true}),
            400,
            "a rated game needs a clock",
        ),
        (
            "/api/challenge/bob",
            json!({"color": "green"}),
            400,
            "unknown color",
        ),
        ("/api/challenge/ann", clock.clone(), 400, "yourself"),
        (
            "/api/challenge/nobody",
            clock.clone(),
            404,
            "no player is named",
        ),
        ("/api/challenge/x%20y", clock.clone(), 400, ""),
    ] {
        let (s, b) = ann.post(path, body.clone()).await;
        assert_eq!(s.as_u16(), status, "{body}: {b}");
        assert!(error(&b).contains(text), "{body}: {b}");
    }
    let (s, b) = ann.form("/api/challenge/bob", "rated=maybe").await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{b}");
    let (s, b) = Api::answer(
        ann.req(reqwest::Method::POST, "/api/challenge/bob")
            .header("content-type", "text/plain")
            .body("x"),
    )
    .await;
    assert_eq!(s, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{b}");

    // A personal challenge, in lichess's shape.
    let (s, c) = ann
        .post(
            "/api/challenge/bob",
            json!({"rated": true, "clock.limit": 300, "clock.increment": 2, "variant": "hopchess", "color": "white", "days": null}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{c}");
    let id = c["id"].as_str().unwrap().to_string();
    assert_eq!(c["status"], "created");
    assert_eq!(c["challenger"]["id"], "ann");
    assert_eq!(c["challenger"]["rating"], 1500);
    assert_eq!(c["destUser"]["id"], "bob");
    assert_eq!(
        c["variant"],
        json!({"key": "hopchess", "name": "Hop Chess", "short": "Hop Chess"})
    );
    assert_eq!(c["speed"], "blitz");
    assert_eq!(
        c["timeControl"],
        json!({"type": "clock", "limit": 300, "increment": 2, "show": "5+2"})
    );
    assert_eq!(c["color"], "white");
    assert_eq!(c["direction"], "out");
    let told = events.next_of("challenge").await;
    assert_eq!(told["challenge"]["id"], id.as_str());

    // Not Cat's to accept or decline, not Bob's to cancel, not Ann's to
    // accept or decline; none of these changes it.
    for (who, what, status, text) in [
        (&cat, "accept", 403, "this challenge is for bob"),
        (&cat, "decline", 403, "only the challenged player"),
        (&bob, "cancel", 403, "only its author"),
        (&ann, "accept", 409, "your own challenge"),
        (&ann, "decline", 403, "only the challenged player"),
    ] {
        let (s, b) = who
            .post(&format!("/api/challenge/{id}/{what}"), json!({}))
            .await;
        assert_eq!(s.as_u16(), status, "{what}: {b}");
        assert!(error(&b).contains(text), "{what}: {b}");
    }
    // No token: 401.
    let (s, b) = Api::answer(
        reqwest::Client::new().post(format!("http://{addr}/api/challenge/{id}/accept")),
    )
    .await;
    assert_eq!(s, StatusCode::UNAUTHORIZED, "{b}");

    let (s, b) = bob
        .post(&format!("/api/challenge/{id}/accept"), json!({}))
        .await;
    assert_eq!(s, StatusCode::OK, "{b}");
    let game = b["game"].as_str().unwrap().to_string();
    // Taken: gone for everyone.
    for who in [&bob, &cat] {
        let (s, b) = who
            .post(&format!("/api/challenge/{id}/accept"), json!({}))
            .await;
        assert_eq!(s, StatusCode::NOT_FOUND, "{b}");
        assert!(error(&b).contains("no such challenge"));
    }
    let start = events.next_of("gameStart").await;
    assert_eq!(start["game"]["gameId"], game.as_str());
    assert_eq!(start["game"]["color"], "white");
    assert_eq!(start["game"]["opponent"]["username"], "bob");
    assert_eq!(start["game"]["isMyTurn"], true);

    // The board: only the players act, and only in turn.
    let mv = |g: &str, m: &str| format!("/api/board/game/{g}/move/{m}");
    let (s, b) = cat.post(&mv(&game, "e2e4"), json!({})).await;
    assert_eq!(s, StatusCode::FORBIDDEN, "{b}");
    let (s, b) = bob.post(&mv(&game, "e2e4"), json!({})).await;
    assert_eq!(s, StatusCode::CONFLICT, "{b}");
    let (s, b) = ann.post(&mv(&game, "e2e5"), json!({})).await;
    assert_eq!(s, StatusCode::CONFLICT, "{b}");
    let (s, b) = ann.post(&mv(&game, &"a".repeat(65)), json!({})).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{b}");
    let (s, b) = ann.post(&mv("nosuchgm", "e2e4"), json!({})).await;
    assert_eq!(s, StatusCode::NOT_FOUND, "{b}");
    let (s, b) = cat.get(&format!("/api/board/game/stream/{game}")).await;
    assert_eq!(s, StatusCode::FORBIDDEN, "{b}");
    for (who, path) in [
        (&cat, format!("/api/board/game/{game}/resign")),
        (&cat, format!("/api/board/game/{game}/abort")),
        (&cat, format!("/api/board/game/{game}/draw/yes")),
        (&ann, format!("/api/board/game/{game}/draw/maybe")),
        (&ann, format!("/api/board/game/{game}/takeback/perhaps")),
    ] {
        let (s, b) = who.post(&path, json!({})).await;
        assert!(s.is_client_error(), "{path}: {s} {b}");
        error(&b);
    }
    // The board chat: a player writes in the players' room, where both
    // players read it; Cat, no player, may not write there, and reads
    // (and writes) the spectators' room.
    let chat = format!("/api/board/game/{game}/chat");
    let (s, b) = cat
        .post(&chat, json!({"room": "player", "text": "hi"}))
        .await;
    assert_eq!(s, StatusCode::FORBIDDEN, "{b}");
    assert!(error(&b).contains("players' room"), "{b}");
    let (s, b) = ann
        .post(&chat, json!({"room": "spectator", "text": "hi"}))
        .await;
    assert_eq!(s, StatusCode::FORBIDDEN, "{b}");
    for bad in [
        json!({"room": "lounge", "text": "hi"}),
        json!({"room": "player"}),
    ] {
        let (s, b) = ann.post(&chat, bad).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{b}");
    }
    let (s, b) = ann
        .post(
            &chat,
            json!({"room": "player", "text": "good luck <b>bob</b>"}),
        )
        .await;
    assert_eq!((s, b), (StatusCode::OK, json!({"ok": true})));
    let (s, b) = bob.form(&chat, "room=player&text=thanks").await;
    assert_eq!((s, b), (StatusCode::OK, json!({"ok": true})));
    let lines = json!([
        {"user": "ann", "text": "good luck <b>bob</b>"},
        {"user": "bob", "text": "thanks"},
    ]);
    assert_eq!(ann.get(&chat).await, (StatusCode::OK, lines.clone()));
    assert_eq!(bob.get(&chat).await, (StatusCode::OK, lines));
    assert_eq!(cat.get(&chat).await, (StatusCode::OK, json!([])));
    let (s, b) = cat
        .post(&chat, json!({"room": "spectator", "text": "watching"}))
        .await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert_eq!(
        cat.get(&chat).await.1,
        json!([{"user": "cat", "text": "watching"}])
    );
    let (s, _) = ann.get("/api/board/game/nosuchgm/chat").await;
    assert_eq!(s, StatusCode::NOT_FOUND);

    // Nothing of that moved the game.
    let mut board = ann
        .stream(
            reqwest::Method::GET,
            &format!("/api/board/game/stream/{game}"),
            "",
        )
        .await;
    let full = board.next_of("gameFull").await;
    assert_eq!(full["id"], game.as_str());
    assert_eq!(full["rated"], true);
    assert_eq!(full["white"]["id"], "ann");
    assert_eq!(full["black"]["name"], "bob");
    assert_eq!(full["initialFen"], "startpos");
    assert_eq!(full["clock"], json!({"initial": 300000, "increment": 2000}));
    assert_eq!(full["state"]["moves"], "");
    assert_eq!(full["state"]["status"], "started");
    assert_eq!(full["state"]["wtime"], 300000);

    // Moves and offers through the Board API, each a gameState.
    let (s, b) = ann.post(&mv(&game, "e2e4"), json!({})).await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert_eq!(b, json!({"ok": true}));
    assert_eq!(board.next_of("gameState").await["moves"], "e2e4");
    let (s, _) = bob.post(&mv(&game, "e7e5@a6"), json!({})).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(board.next_of("gameState").await["moves"], "e2e4 e7e5@a6");
    let (s, _) = bob
        .post(&format!("/api/board/game/{game}/draw/yes"), json!({}))
        .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(board.next_of("gameState").await["bdraw"], true);
    let (s, _) = ann
        .post(&format!("/api/board/game/{game}/draw/no"), json!({}))
        .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(board.next_of("gameState").await["bdraw"], false);
    let (s, _) = bob
        .post(&format!("/api/board/game/{game}/resign"), json!({}))
        .await;
    assert_eq!(s, StatusCode::OK);
    let last = board.next_of("gameState").await;
    assert_eq!(last["status"], "resign");
    assert_eq!(last["winner"], "white");
    assert!(
        board.next().await.is_none(),
        "the stream ends with the game"
    );
    let fin = events.next_of("gameFinish").await;
    assert_eq!(fin["game"]["gameId"], game.as_str());
    assert_eq!(fin["game"]["status"]["name"], "resign");
    // After the end: refused.
    let (s, _) = ann.post(&mv(&game, "g1f3@h3"), json!({})).await;
    assert_eq!(s, StatusCode::CONFLICT);

    // The exports: PGN with the accounts' names, JSON on request.
    let (s, pgn) = ann
        .text(&format!("/game/export/{game}"), "application/x-chess-pgn")
        .await;
    assert_eq!(s, StatusCode::OK);
    assert!(
        pgn.contains("[White \"ann\"]") && pgn.contains("[Black \"bob\"]"),
        "{pgn}"
    );
    assert!(
        pgn.contains("[Result \"1-0\"]") && pgn.contains("1. e4 e5 a6"),
        "{pgn}"
    );
    let (_, j) = ann
        .text(&format!("/game/export/{game}"), "application/json")
        .await;
    let j: Value = serde_json::from_str(&j).unwrap();
    assert_eq!(j["players"]["white"]["user"]["name"], "ann");
    assert_eq!(j["status"], "resign");
    assert_eq!(j["winner"], "white");
    assert_eq!(j["moves"], "e2e4 e7e5@a6");
    let (s, all) = cat
        .text("/api/games/user/bob", "application/x-chess-pgn")
        .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(all.matches("[Event ").count(), 1, "{all}");
    let (_, nd) = cat
        .text("/api/games/user/bob?max=5", "application/x-ndjson")
        .await;
    assert_eq!(nd.lines().count(), 1);
    let (s, _) = cat
        .text("/api/games/user/nobody", "application/x-chess-pgn")
        .await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (s, _) = cat
        .text("/game/export/nosuchgm", "application/x-chess-pgn")
        .await;
    assert_eq!(s, StatusCode::NOT_FOUND);

    // The ratings moved.
    let (_, user) = cat.get("/api/user/ann").await;
    assert_eq!(user["perfs"]["hopchess"]["games"], 1);
    assert!(user["perfs"]["hopchess"]["rating"].as_i64().unwrap() > 1500);
}

/// `fen`: a challenge from a position the rules core read and checked;
/// the game starts there (casual only).
#[tokio::test]
async fn a_challenge_from_a_position_starts_the_game_there() {
    let app = sqlite_app().await;
    let addr = listen(app.clone()).await;
    let (_, ann) = member(&app, "ann").await;
    let (_, bob) = member(&app, "bob").await;
    let (ann, bob) = (Api::new(&addr, &ann), Api::new(&addr, &bob));
    let mut events = ann
        .stream(reqwest::Method::GET, "/api/stream/event", "")
        .await;
    let fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
    // Refused, each with the reason: no kings (the rules core's), too
    // long, decided already, rated; nothing is posted.
    for (body, text) in [
        (json!({"fen": "8/8/8/8/8/8/8/8 w - - 0 1"}), ""),
        (json!({"fen": "x".repeat(300)}), "at most 256"),
        (
            json!({"fen": "7k/5QQ1/8/8/8/8/8/4K3 b - - 0 1"}),
            "already decided",
        ),
        (
            json!({"fen": fen, "rated": true, "clock.limit": 300, "clock.increment": 0}),
            "cannot be rated",
        ),
    ] {
        let (s, b) = ann.post("/api/challenge/bob", body.clone()).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{body}: {b}");
        assert!(error(&b).contains(text), "{body}: {b}");
    }
    let (s, c) = ann
        .post(
            "/api/challenge/bob",
            json!({"fen": fen, "color": "white", "clock.limit": 300, "clock.increment": 0}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{c}");
    assert_eq!(c["initialFen"], fen, "{c}");
    let id = c["id"].as_str().unwrap().to_string();
    let (s, b) = bob
        .post(&format!("/api/challenge/{id}/accept"), json!({}))
        .await;
    assert_eq!(s, StatusCode::OK, "{b}");
    let start = events.next_of("gameStart").await;
    let game = start["game"]["gameId"].as_str().unwrap().to_string();
    let mut board = ann
        .stream(
            reqwest::Method::GET,
            &format!("/api/board/game/stream/{game}"),
            "",
        )
        .await;
    let full = board.next_of("gameFull").await;
    assert_eq!(full["initialFen"], fen, "{full}");
    assert_eq!(full["rated"], false);
    let (s, b) = ann
        .post(&format!("/api/board/game/{game}/move/e2e4"), json!({}))
        .await;
    assert_eq!(s, StatusCode::OK, "{b}");
    assert_eq!(board.next_of("gameState").await["moves"], "e2e4");
    // The start position "startpos" is the game's usual start.
    let (s, c) = ann
        .post(
            "/api/challenge/bob",
            json!({"fen": "startpos", "clock.limit": 300, "clock.increment": 0}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{c}");
    assert_eq!(c["initialFen"], "startpos");
}

#[tokio::test]
async fn declines_cancels_and_seeks_reach_the_event_stream() {
    let app = sqlite_app().await;
    let addr = listen(app.clone()).await;
    let (_, ann) = member(&app, "ann").await;
    let (_, bob) = member(&app, "bob").await;
    let (ann, bob) = (Api::new(&addr, &ann), Api::new(&addr, &bob));
    let mut a_events = ann
        .stream(reqwest::Method::GET, "/api/stream/event", "")
        .await;
    let mut b_events = bob
        .stream(reqwest::Method::GET, "/api/stream/event", "")
        .await;

    // Declined: the author hears it.
    let (_, c) = ann
        .form("/api/challenge/bob", "clock.limit=60&clock.increment=0")
        .await;
    let id = c["id"].as_str().unwrap().to_string();
    let seen = b_events.next_of("challenge").await;
    assert_eq!(seen["challenge"]["direction"], "in");
    assert_eq!(seen["challenge"]["speed"], "bullet");
    let (s, _) = bob
        .post(
            &format!("/api/challenge/{id}/decline"),
            json!({"reason": "later"}),
        )
        .await;
    assert_eq!(s, StatusCode::OK);
    let d = a_events.next_of("challengeDeclined").await;
    assert_eq!(d["challenge"]["id"], id.as_str());
    assert_eq!(d["challenge"]["status"], "declined");

    // Cancelled: the challenged player hears it.
    let (_, c) = ann
        .post("/api/challenge/bob", json!({"clock.limit": 60}))
        .await;
    let id = c["id"].as_str().unwrap().to_string();
    b_events.next_of("challenge").await;
    let (s, _) = ann
        .post(&format!("/api/challenge/{id}/cancel"), json!({}))
        .await;
    assert_eq!(s, StatusCode::OK);
    let x = b_events.next_of("challengeCanceled").await;
    assert_eq!(x["challenge"]["id"], id.as_str());

    // An open challenge: anyone may accept it.
    let (s, c) = ann
        .post(
            "/api/challenge/open",
            json!({"clock.limit": 180, "clock.increment": 0}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{c}");
    assert_eq!(c["destUser"], Value::Null);
    let (s, b) = bob
        .post(
            &format!("/api/challenge/{}/accept", c["id"].as_str().unwrap()),
            json!({}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{b}");
    let g = a_events.next_of("gameStart").await;
    assert_eq!(
        b_events.next_of("gameStart").await["game"]["gameId"],
        g["game"]["gameId"]
    );
    let game = g["game"]["gameId"].as_str().unwrap().to_string();
    let (s, _) = ann
        .post(&format!("/api/board/game/{game}/abort"), json!({}))
        .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(
        a_events.next_of("gameFinish").await["game"]["status"]["name"],
        "aborted"
    );

    // A seek: open while its request is (its author's stream tells it, as
    // lichess's does; nobody else's); accepted, it ends.
    let (s, b) = ann
        .form("/api/board/seek", "rated=false&variant=chess&color=random")
        .await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{b}");
    assert!(error(&b).contains("a seek needs `time` (minutes) or `days`"));
    let mut seek = ann
        .stream(
            reqwest::Method::POST,
            "/api/board/seek",
            "rated=false&time=3&increment=2&variant=standard&ratingRange=",
        )
        .await;
    let offered = a_events.next_of("challenge").await;
    assert_eq!(offered["challenge"]["direction"], "out");
    assert_eq!(offered["challenge"]["variant"]["key"], "chess");
    assert_eq!(offered["challenge"]["timeControl"]["limit"], 180);
    let sid = offered["challenge"]["id"].as_str().unwrap().to_string();
    let (s, _) = bob
        .post(&format!("/api/challenge/{sid}/accept"), json!({}))
        .await;
    assert_eq!(s, StatusCode::OK);
    assert!(seek.next().await.is_none(), "the seek's stream ends");
    a_events.next_of("gameStart").await;

    // A seek whose client goes is cancelled.
    let seek = ann
        .stream(
            reqwest::Method::POST,
            "/api/board/seek",
            "time=5&increment=0",
        )
        .await;
    let offered = a_events.next_of("challenge").await;
    drop(seek);
    let gone = a_events.next_of("challengeCanceled").await;
    assert_eq!(gone["challenge"]["id"], offered["challenge"]["id"]);
}

/// Two server processes on one PostgreSQL database: the event and game
/// streams of one see what is done through the other.
#[tokio::test]
async fn streams_see_the_other_process_on_postgres() {
    let Some(options) = postgres_options("lichess_two").await else {
        return;
    };
    let mut apps = Vec::new();
    for _ in 0..2 {
        let store = Arc::new(PgStore::connect_with(options.clone()).await.unwrap());
        let mut o = Options::new(None);
        o.domains_on(&store);
        apps.push(app_on(store, o).await);
    }
    let one = listen(apps[0].clone()).await;
    let two = listen(apps[1].clone()).await;
    let (_, ann) = member(&apps[0], "ann").await;
    let (_, bob) = member(&apps[0], "bob").await;
    let (ann1, bob1, bob2) = (
        Api::new(&one, &ann),
        Api::new(&one, &bob),
        Api::new(&two, &bob),
    );
    let ann2 = Api::new(&two, &ann);
    let mut b_events = bob1
        .stream(reqwest::Method::GET, "/api/stream/event", "")
        .await;
    let mut a_events = ann2
        .stream(reqwest::Method::GET, "/api/stream/event", "")
        .await;
    let (s, c) = ann2
        .post(
            "/api/challenge/bob",
            json!({"clock.limit": 300, "clock.increment": 0, "color": "white"}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{c}");
    let id = c["id"].as_str().unwrap();
    assert_eq!(b_events.next_of("challenge").await["challenge"]["id"], id);
    let (s, b) = bob1
        .post(&format!("/api/challenge/{id}/accept"), json!({}))
        .await;
    assert_eq!(s, StatusCode::OK, "{b}");
    let game = b["game"].as_str().unwrap().to_string();
    assert_eq!(
        a_events.next_of("gameStart").await["game"]["gameId"],
        game.as_str()
    );
    let mut board = ann1
        .stream(
            reqwest::Method::GET,
            &format!("/api/board/game/stream/{game}"),
            "",
        )
        .await;
    board.next_of("gameFull").await;
    let (s, _) = ann2
        .post(&format!("/api/board/game/{game}/move/e2e4"), json!({}))
        .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(board.next_of("gameState").await["moves"], "e2e4");
    let (s, _) = bob2
        .post(&format!("/api/board/game/{game}/resign"), json!({}))
        .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(board.next_of("gameState").await["status"], "resign");
    assert!(board.next().await.is_none());
    assert_eq!(
        b_events.next_of("gameFinish").await["game"]["gameId"],
        game.as_str()
    );
}
