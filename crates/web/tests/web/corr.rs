//! Correspondence play on SQLite and, when `SPRINGBOARD_TEST_POSTGRES`
//! names a server, on PostgreSQL: the time controls (days per move and
//! banks) accepted and refused for friend games and the lobby's
//! challenges; a flag that falls while the server is down, found at its
//! restart (a controllable clock); the "your turn" list; conditional
//! moves entered, refused (illegal, the side to move, another seat,
//! another game, a live game, a forged origin, oversized), played at once
//! when the expected reply comes, dropped when another one does.

use crate::support;

use axum::http::StatusCode;
use axum::Router;
use serde_json::{json, Value};
use springboard_web::{app_with, GameStore, ManualClock, Options, PgStore, SqliteStore, Store};
use std::sync::Arc;
use support::apps::START_MS;
use support::browser::Browser;
use support::postgres::postgres_options;

const DAY_MS: i64 = 86_400_000;

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

    /// The app over this backend at `clock`, with every domain.
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
    Arc::new(ManualClock::new(START_MS))
}

/// A correspondence friend game of `alice` (white) joined by `bob`: its id.
async fn corr_game(alice: &mut Browser, bob: &mut Browser, corr: Value) -> String {
    let g = alice
        .new_game(json!({"mode": "friend", "color": "white", "correspondence": corr}))
        .await;
    let id = g["id"].as_str().unwrap().to_string();
    let join = alice.invite_path(&id).await;
    let a = bob.post(&join, json!({})).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.body);
    id
}

async fn play(b: &mut Browser, id: &str, mv: &str) -> Value {
    let a = b
        .post(&format!("/api/games/{id}/move"), json!({"move": mv}))
        .await;
    assert_eq!(a.status, StatusCode::OK, "{mv}: {}", a.body);
    a.body
}

fn conditional(id: &str) -> String {
    format!("/api/games/{id}/conditional")
}

async fn lines_of(b: &mut Browser, id: &str) -> Value {
    let a = b.get(&conditional(id)).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.body);
    a.body["lines"].clone()
}

#[tokio::test]
async fn time_controls_are_accepted_and_refused() {
    for backend in backends("corr_controls").await {
        let which = backend.name();
        let app = backend.app(clock()).await;
        let mut alice = Browser::new(&app);
        let mut bob = Browser::new(&app);
        for (corr, kind, initial, label) in [
            (json!({"days_per_move": 3}), "days", 3, "3 days per move"),
            (json!({"days_per_move": 1}), "days", 1, "1 day per move"),
            (
                json!({"bank_days": 10, "days_per_move": 2}),
                "bank",
                10,
                "10 days + 2 per move",
            ),
        ] {
            let id = corr_game(&mut alice, &mut bob, corr.clone()).await;
            let g = alice.get(&format!("/api/games/{id}")).await.body;
            let c = &g["clock"];
            assert_eq!(c["correspondence"]["kind"], kind, "{which} {corr}");
            assert_eq!(c["correspondence"]["label"], label, "{which}");
            assert_eq!(c["initial_ms"], initial * DAY_MS, "{which} {corr}");
            // The clock runs from the start: White's deadline is set.
            assert_eq!(c["running"], "white", "{which} {corr}");
            assert_eq!(c["deadline"], START_MS + initial * DAY_MS, "{which}");
        }
        for (body, why) in [
            (json!({"days_per_move": 4}), "4 days per move"),
            (json!({"days_per_move": 0}), "0 days"),
            (json!({"days_per_move": 99999999999u64}), "past u32"),
            (json!({"days_per_move": -1}), "negative"),
            (json!({"bank_days": 0, "days_per_move": 1}), "empty bank"),
            (
                json!({"bank_days": 4294967295u64, "days_per_move": 1}),
                "bank overflow",
            ),
            (
                json!({"bank_days": 5, "days_per_move": 15}),
                "bank adds too much",
            ),
            (json!({"days": 3}), "unknown field"),
        ] {
            let a = alice
                .post(
                    "/api/games",
                    json!({"mode": "friend", "correspondence": body}),
                )
                .await;
            assert_eq!(
                a.status,
                StatusCode::BAD_REQUEST,
                "{which} {why}: {}",
                a.body
            );
            assert!(a.body["error"].is_string(), "{which} {why}");
        }
        for (body, why) in [
            (
                json!({"mode": "friend", "clock": {"initial": 60, "increment": 0}, "correspondence": {"days_per_move": 3}}),
                "clock and correspondence",
            ),
            (
                json!({"mode": "local", "correspondence": {"days_per_move": 3}}),
                "a local game",
            ),
        ] {
            let a = alice.post("/api/games", body).await;
            assert_eq!(
                a.status,
                StatusCode::BAD_REQUEST,
                "{which} {why}: {}",
                a.body
            );
        }
        // The lobby's challenges take it too, and the game started from one
        // has it.
        let a = alice
            .post(
                "/api/lobby/challenges",
                json!({"variant": "chess", "color": "white", "correspondence": {"days_per_move": 7}}),
            )
            .await;
        assert_eq!(a.status, StatusCode::CREATED, "{which}: {}", a.body);
        let challenge = a.body["id"].as_str().unwrap().to_string();
        let listed = bob.get("/api/lobby/challenges").await.body;
        let c = &listed["challenges"][0];
        assert_eq!(c["correspondence"]["label"], "7 days per move", "{which}");
        let a = alice
            .post(
                "/api/lobby/challenges",
                json!({"variant": "chess", "correspondence": {"days_per_move": 6}}),
            )
            .await;
        assert_eq!(a.status, StatusCode::BAD_REQUEST, "{which}: {}", a.body);
        let a = bob
            .post(
                &format!("/api/lobby/challenges/{challenge}/accept"),
                json!({}),
            )
            .await;
        assert_eq!(a.status, StatusCode::OK, "{which}: {}", a.body);
        let game = a.body["game"].as_str().unwrap().to_string();
        let g = bob.get(&format!("/api/games/{game}")).await.body;
        assert_eq!(g["clock"]["correspondence"]["days_per_move"], 7, "{which}");
        assert_eq!(g["clock"]["black_ms"], 7 * DAY_MS, "{which}");
    }
}

/// A bank grows by its days per move after each move, never past a fresh
/// bank and one move's days; days per move start again at each move.
#[tokio::test]
async fn a_move_fills_the_bank_and_resets_days_per_move() {
    let backend = backends("corr_bank").await.remove(0);
    let clock = clock();
    let app = backend.app(clock.clone()).await;
    let mut alice = Browser::new(&app);
    let mut bob = Browser::new(&app);
    let bank = corr_game(
        &mut alice,
        &mut bob,
        json!({"bank_days": 3, "days_per_move": 1}),
    )
    .await;
    let days = corr_game(&mut alice, &mut bob, json!({"days_per_move": 2})).await;
    clock.advance(DAY_MS / 2);
    let g = play(&mut alice, &bank, "e2e4").await;
    // 3 days - half a day + a day, capped at 3 + 1 = 4 days.
    assert_eq!(g["clock"]["white_ms"], 3 * DAY_MS + DAY_MS / 2);
    let g = play(&mut bob, &bank, "e7e5").await;
    // Black's time did not run while White was to move: 3 + 1, the cap.
    assert_eq!(g["clock"]["black_ms"], 4 * DAY_MS);
    let g = play(&mut alice, &bank, "g1f3").await;
    assert_eq!(g["clock"]["white_ms"], 4 * DAY_MS, "the cap");
    let g = play(&mut alice, &days, "d2d4").await;
    assert_eq!(g["clock"]["white_ms"], 2 * DAY_MS);
    assert_eq!(g["clock"]["running"], "black");
    assert_eq!(g["clock"]["deadline"], START_MS + DAY_MS / 2 + 2 * DAY_MS);
}

/// The time a server was down counts in a correspondence game: a mover
/// whose time ran out meanwhile loses at the restart, before anyone asks.
#[tokio::test]
async fn a_correspondence_flag_falls_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("corr.sqlite3");
    let mut stores = vec![Backend::Sqlite(Arc::new(
        SqliteStore::open(&path).await.unwrap(),
    ))];
    let pg = postgres_options("corr_restart").await;
    if let Some(options) = &pg {
        stores.push(Backend::Postgres(Arc::new(
            PgStore::connect_with(options.clone()).await.unwrap(),
        )));
    }
    for backend in stores {
        let which = backend.name();
        let (one_day, three_days) = {
            let app = backend.app(clock()).await;
            let mut alice = Browser::new(&app);
            let mut bob = Browser::new(&app);
            let one = corr_game(&mut alice, &mut bob, json!({"days_per_move": 1})).await;
            let three = corr_game(&mut alice, &mut bob, json!({"days_per_move": 3})).await;
            for id in [&one, &three] {
                play(&mut alice, id, "e2e4").await;
                play(&mut bob, id, "e7e5").await;
            }
            (one, three)
        };
        // The server is down for a day and a minute.
        let later = Arc::new(ManualClock::new(START_MS + DAY_MS + 60_000));
        let again = match &backend {
            Backend::Sqlite(_) => {
                Backend::Sqlite(Arc::new(SqliteStore::open(&path).await.unwrap()))
            }
            Backend::Postgres(_) => Backend::Postgres(Arc::new(
                PgStore::connect_with(pg.clone().unwrap()).await.unwrap(),
            )),
        };
        let app = again.app(later.clone()).await;
        let stored = match &again {
            Backend::Sqlite(s) => s.load(&one_day).await.unwrap().unwrap(),
            Backend::Postgres(s) => s.load(&one_day).await.unwrap().unwrap(),
        };
        assert_eq!(
            stored.status.as_str(),
            "ended",
            "{which}: found at start-up"
        );
        assert_eq!(stored.reason.as_deref(), Some("time"), "{which}");
        assert_eq!(
            stored.result.as_deref(),
            Some("0-1"),
            "{which}: White's flag"
        );
        let mut visitor = Browser::new(&app);
        let g = visitor.get(&format!("/api/games/{three_days}")).await.body;
        assert_eq!(g["status"], "playing", "{which}");
        // Its time was not given back at the restart.
        assert_eq!(
            g["clock"]["white_ms"],
            3 * DAY_MS - DAY_MS - 60_000,
            "{which}"
        );
        // The same check as live flags when time passes with the server up.
        later.advance(2 * DAY_MS);
        let g = visitor.get(&format!("/api/games/{three_days}")).await.body;
        assert_eq!(
            (&g["status"], &g["reason"]),
            (&json!("ended"), &json!("time")),
            "{which}"
        );
    }
}

#[tokio::test]
async fn the_your_turn_list_has_the_games_to_move_in_least_time_first() {
    for backend in backends("corr_turn").await {
        let which = backend.name();
        let clock = clock();
        let app = backend.app(clock.clone()).await;
        let mut alice = Browser::new(&app);
        let mut bob = Browser::new(&app);
        let seven = corr_game(&mut alice, &mut bob, json!({"days_per_move": 7})).await;
        let one = corr_game(&mut alice, &mut bob, json!({"days_per_move": 1})).await;
        let moved = corr_game(&mut alice, &mut bob, json!({"days_per_move": 2})).await;
        let live = alice
            .new_game(json!({"mode": "friend", "color": "white", "clock": {"initial": 300, "increment": 0}}))
            .await["id"]
            .as_str()
            .unwrap()
            .to_string();
        let join = alice.invite_path(&live).await;
        assert_eq!(bob.post(&join, json!({})).await.status, StatusCode::OK);
        play(&mut alice, &moved, "e2e4").await;
        clock.advance(1000);
        let a = alice.get("/api/games/your-turn").await;
        assert_eq!(a.status, StatusCode::OK, "{which}: {}", a.body);
        let ids: Vec<&str> = a.body["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["id"].as_str().unwrap())
            .collect();
        // The live game's clock has not started: 5 minutes left, first.
        assert_eq!(
            ids,
            vec![live.as_str(), one.as_str(), seven.as_str()],
            "{which}"
        );
        let first_corr = &a.body["games"][1];
        assert_eq!(first_corr["color"], "white");
        assert_eq!(first_corr["left_ms"], DAY_MS - 1000, "{which}");
        assert_eq!(first_corr["deadline"], START_MS + DAY_MS, "{which}");
        assert_eq!(first_corr["correspondence"]["kind"], "days");
        let b = bob.get("/api/games/your-turn").await.body;
        let ids: Vec<&str> = b["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["id"].as_str().unwrap())
            .collect();
        assert_eq!(ids, vec![moved.as_str()], "{which}");
        assert_eq!(b["games"][0]["color"], "black");
        // A browser with no seat has an empty list.
        let mut visitor = Browser::new(&app);
        let v = visitor.get("/api/games/your-turn").await;
        assert_eq!(v.status, StatusCode::OK);
        assert_eq!(v.body["games"], json!([]), "{which}");
    }
}

#[tokio::test]
async fn conditional_moves_are_checked_and_played_at_once() {
    for backend in backends("corr_conditional").await {
        let which = backend.name();
        let app = backend.app(clock()).await;
        let mut alice = Browser::new(&app);
        let mut bob = Browser::new(&app);
        let mut visitor = Browser::new(&app);
        let id = corr_game(&mut alice, &mut bob, json!({"days_per_move": 3})).await;
        let other = corr_game(&mut alice, &mut visitor, json!({"days_per_move": 3})).await;
        // Bob, not to move, enters two lines (the second in another
        // notation: kept as the site's long notation).
        let lines = json!([["e2e4", "e7e5", "g1f3", "b8c6"], ["d2d4", "d7d5"]]);
        let a = bob.post(&conditional(&id), json!({"lines": lines})).await;
        assert_eq!(a.status, StatusCode::OK, "{which}: {}", a.body);
        assert_eq!(a.body["color"], "black");
        assert_eq!(a.body["editable"], true);
        assert_eq!(lines_of(&mut bob, &id).await, lines, "{which}");
        let version = bob.get(&format!("/api/games/{id}")).await.body["version"].clone();
        // Refused, each changing nothing.
        for (who, path, body, status, why) in [
            (
                1,
                conditional(&id),
                json!({"lines": [["e2e5", "e7e5"]]}),
                StatusCode::BAD_REQUEST,
                "an illegal expected reply",
            ),
            (
                1,
                conditional(&id),
                json!({"lines": [["e2e4", "e7e4"]]}),
                StatusCode::BAD_REQUEST,
                "an illegal answer",
            ),
            (
                1,
                conditional(&id),
                json!({"lines": [["e2e4"]]}),
                StatusCode::BAD_REQUEST,
                "a reply with no answer",
            ),
            (
                1,
                conditional(&id),
                json!({"lines": [[]]}),
                StatusCode::BAD_REQUEST,
                "an empty line",
            ),
            (
                1,
                conditional(&id),
                json!({"lines": vec![json!(["e2e4", "e7e5"]); 21]}),
                StatusCode::BAD_REQUEST,
                "too many lines",
            ),
            (
                1,
                conditional(&id),
                json!({"lines": [["e2e4", "x".repeat(100)]]}),
                StatusCode::BAD_REQUEST,
                "a move text too long",
            ),
            (
                1,
                conditional(&id),
                json!({"lines": "e2e4"}),
                StatusCode::BAD_REQUEST,
                "not a list",
            ),
            (
                0,
                conditional(&id),
                json!({"lines": [["e7e5", "g1f3"]]}),
                StatusCode::CONFLICT,
                "the side to move",
            ),
            (
                2,
                conditional(&id),
                json!({"lines": [["e2e4", "e7e5"]]}),
                StatusCode::FORBIDDEN,
                "no seat of this game",
            ),
            (
                1,
                conditional(&other),
                json!({"lines": [["e2e4", "e7e5"]]}),
                StatusCode::FORBIDDEN,
                "another game",
            ),
            (
                1,
                conditional("nosuchg1"),
                json!({"lines": []}),
                StatusCode::NOT_FOUND,
                "no such game",
            ),
        ] {
            let b = match who {
                0 => &mut alice,
                1 => &mut bob,
                _ => &mut visitor,
            };
            let a = b.post(&path, body).await;
            assert_eq!(a.status, status, "{which} {why}: {}", a.body);
            assert!(a.body["error"].is_string(), "{which} {why}");
        }
        // Clearing is the owner's too.
        let a = visitor.send("DELETE", &conditional(&id), None).await;
        assert_eq!(a.status, StatusCode::FORBIDDEN, "{which}");
        let a = alice.send("DELETE", &conditional(&id), None).await;
        assert_eq!(a.status, StatusCode::CONFLICT, "{which}");
        // A forged origin is refused before anything.
        let mut forger = bob.clone();
        forger.origin = Some("http://evil.test".into());
        let a = forger
            .post(&conditional(&id), json!({"lines": [["e2e4", "e7e5"]]}))
            .await;
        assert_eq!(a.status, StatusCode::FORBIDDEN, "{which}");
        // Nobody else reads Bob's lines.
        assert_eq!(
            visitor.get(&conditional(&id)).await.status,
            StatusCode::FORBIDDEN
        );
        let a = alice.get(&conditional(&id)).await.body;
        assert_eq!((&a["color"], &a["lines"]), (&json!("white"), &json!([])));
        assert!(!alice
            .get(&format!("/api/games/{id}"))
            .await
            .body
            .to_string()
            .contains("b8c6"));
        assert_eq!(lines_of(&mut bob, &id).await, lines, "{which}: unchanged");
        let g = bob.get(&format!("/api/games/{id}")).await.body;
        assert_eq!(g["version"], version, "{which}: nothing written");
        // The expected reply comes: the answer is played at once.
        let g = play(&mut alice, &id, "e2e4").await;
        assert_eq!(g["plies"], 2, "{which}");
        assert_eq!(g["last_move"]["uci"], "e7e5", "{which}");
        assert_eq!(g["turn"], "white");
        assert_eq!(
            lines_of(&mut bob, &id).await,
            json!([["g1f3", "b8c6"]]),
            "{which}: the line shortened, the other dropped"
        );
        // Another reply: no answer, the lines are dropped.
        let g = play(&mut alice, &id, "d2d4").await;
        assert_eq!(g["plies"], 3, "{which}");
        assert_eq!(g["turn"], "black");
        assert_eq!(lines_of(&mut bob, &id).await, json!([]), "{which}");
        // A live game has none.
        let live = alice
            .new_game(json!({"mode": "friend", "color": "white", "clock": {"initial": 300, "increment": 0}}))
            .await["id"]
            .as_str()
            .unwrap()
            .to_string();
        let join = alice.invite_path(&live).await;
        assert_eq!(bob.post(&join, json!({})).await.status, StatusCode::OK);
        let a = bob
            .post(&conditional(&live), json!({"lines": [["e2e4", "e7e5"]]}))
            .await;
        assert_eq!(a.status, StatusCode::CONFLICT, "{which}: {}", a.body);
    }
}

/// Each player's lines while the other is to move: Alice's answer, then
/// Bob's mating answer, which ends the game and leaves no lines.
#[tokio::test]
async fn conditional_answers_follow_the_turns_and_end_with_the_game() {
    let backend = backends("corr_chain").await.remove(0);
    let app = backend.app(clock()).await;
    let mut alice = Browser::new(&app);
    let mut bob = Browser::new(&app);
    let id = corr_game(&mut alice, &mut bob, json!({"days_per_move": 5})).await;
    play(&mut alice, &id, "f2f3").await;
    // Alice, not to move, expects e7e5 and answers g2g4.
    let a = alice
        .post(&conditional(&id), json!({"lines": [["e7e5", "g2g4"]]}))
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.body);
    // Bob plays e7e5 and, after g2g4, mates: his own line waits for it.
    play(&mut bob, &id, "e7e5").await;
    let g = bob.get(&format!("/api/games/{id}")).await.body;
    assert_eq!(g["plies"], 3);
    assert_eq!(g["last_move"]["uci"], "g2g4");
    let a = bob
        .post(&conditional(&id), json!({"lines": [["a2a3", "d8h4"]]}))
        .await;
    assert_eq!(a.status, StatusCode::CONFLICT, "Bob is to move: {}", a.body);
    play(&mut bob, &id, "a7a6").await;
    let a = bob
        .post(&conditional(&id), json!({"lines": [["a2a3", "d8h4"]]}))
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.body);
    let g = play(&mut alice, &id, "a2a3").await;
    assert_eq!(g["status"], "ended");
    assert_eq!(g["reason"], "checkmate");
    assert_eq!(g["result"], "0-1");
    assert_eq!(lines_of(&mut bob, &id).await, json!([]));
}
