//! The players' API through the router (no network), on SQLite and, when
//! `SPRINGBOARD_TEST_POSTGRES` names a server, on PostgreSQL: a player's
//! rating history after rated games, the results counted per game, the
//! games list with its filters and pages, the leaderboards (best first,
//! provisional ratings left out), and unknown or hostile names.

use crate::support;

use axum::http::StatusCode;
use axum::Router;
use serde_json::{json, Value};
use springboard_web::ratings::glicko::{rate, Rating, Score};
use springboard_web::{app_with, ManualClock, Options, PgStore, SqliteStore, Store};
use std::sync::Arc;
use support::browser::Browser;
use support::postgres::postgres_options;

const PASSWORD: &str = "correct horse battery";
/// 2027-01-15T08:00:00Z.
const T0: i64 = 1_800_000_000_000;

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
                options.accounts = Some(s.clone());
                options.ratings = Some(s.clone());
                options.players = Some(s.clone());
                s.clone()
            }
            Backend::Postgres(s) => {
                options.accounts = Some(s.clone());
                options.ratings = Some(s.clone());
                options.players = Some(s.clone());
                s.clone()
            }
        };
        app_with(store, options).await.unwrap()
    }

    /// Sets `user`'s stored rating in `variant` (the leaderboards' input,
    /// without playing the dozens of games a low deviation takes).
    async fn set_rating(&self, user: &str, variant: &str, rating: f64, deviation: f64) {
        let sql = "INSERT INTO ratings \
            (user_id, variant, rating, deviation, volatility, games, last_game_at) \
            VALUES ($1, $2, $3, $4, 0.06, 30, $5)";
        match self {
            Backend::Sqlite(s) => {
                sqlx::query(sql)
                    .bind(user)
                    .bind(variant)
                    .bind(rating)
                    .bind(deviation)
                    .bind(T0)
                    .execute(s.pool())
                    .await
                    .unwrap();
            }
            Backend::Postgres(s) => {
                sqlx::query(sql)
                    .bind(user)
                    .bind(variant)
                    .bind(rating)
                    .bind(deviation)
                    .bind(T0)
                    .execute(s.pool())
                    .await
                    .unwrap();
            }
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

async fn signed_up(app: &Router, name: &str) -> Browser {
    let mut b = Browser::new(app);
    b.sign_up(name, PASSWORD).await;
    b
}

async fn ok(b: &mut Browser, uri: &str, body: Value) -> Value {
    let a = b.post(uri, body).await;
    assert!(a.status.is_success(), "POST {uri}: {} {}", a.status, a.body);
    a.body
}

async fn get_ok(b: &mut Browser, uri: &str) -> Value {
    let a = b.get(uri).await;
    assert_eq!(a.status, StatusCode::OK, "GET {uri}: {}", a.body);
    a.body
}

/// A friend game of `white` (rated or not) in `variant`, joined by
/// `black`, with 1. e4 e5 (chess) played: its id.
async fn started(white: &mut Browser, black: &mut Browser, variant: &str, rated: bool) -> String {
    let mut body = json!({"variant": variant, "mode": "friend", "rated": rated});
    if rated {
        body["clock"] = json!({"initial": 300, "increment": 2});
    }
    let g = white.new_game(body).await;
    let id = g["id"].as_str().unwrap().to_string();
    let path = white.invite_path(&id).await;
    let g = ok(black, &path, json!({})).await;
    assert_eq!(g["status"], "playing", "{g}");
    id
}

async fn play(b: &mut Browser, id: &str, m: &str, ply: usize) {
    ok(
        b,
        &format!("/api/games/{id}/move"),
        json!({"move": m, "ply": ply}),
    )
    .await;
}

async fn resign(b: &mut Browser, id: &str) {
    ok(b, &format!("/api/games/{id}/resign"), json!({})).await;
}

/// The ids of the games `uri` lists.
async fn listed(b: &mut Browser, uri: &str) -> (Vec<String>, bool) {
    let v = get_ok(b, uri).await;
    let ids = v["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap().to_string())
        .collect();
    (ids, v["more"].as_bool().unwrap())
}

#[tokio::test]
async fn rated_games_make_history_points_and_every_game_is_counted_and_listed() {
    for backend in backends("sb_players_history").await {
        let db = backend.name();
        let clock = Arc::new(ManualClock::new(T0));
        let app = backend.app(clock.clone()).await;
        let mut alice = signed_up(&app, "alice").await;
        let mut bob = signed_up(&app, "Bob").await;

        // No games yet: every game has an empty history and zero counts.
        let h = get_ok(&mut alice, "/api/user/alice/rating-history").await;
        let h = h.as_array().unwrap();
        assert_eq!(h.len(), 5, "{db}: one entry per game");
        assert_eq!(h[0]["name"], "Chess", "{db}");
        assert_eq!(h[0]["perf"], "chess", "{db}");
        assert!(h.iter().all(|e| e["points"] == json!([])), "{db}");

        // Rated game 1: alice (white) resigns at once.
        let g1 = started(&mut alice, &mut bob, "chess", true).await;
        play(&mut alice, &g1, "e2e4", 0).await;
        play(&mut bob, &g1, "e7e5", 1).await;
        resign(&mut alice, &g1).await;
        // A day later, rated game 2: bob (white) resigns.
        clock.advance(86_400_000);
        let g2 = started(&mut bob, &mut alice, "chess", true).await;
        play(&mut bob, &g2, "d2d4", 0).await;
        play(&mut alice, &g2, "d7d5", 1).await;
        resign(&mut bob, &g2).await;
        // A casual Hoplit Chess game drawn by agreement, and a casual chess
        // game still being played.
        clock.advance(1_000);
        let g3 = started(&mut alice, &mut bob, "hoplit", false).await;
        play(&mut alice, &g3, "e2e4", 0).await;
        play(&mut bob, &g3, "e7e5", 1).await;
        ok(
            &mut alice,
            &format!("/api/games/{g3}/draw"),
            json!({"action": "offer"}),
        )
        .await;
        let g = ok(
            &mut bob,
            &format!("/api/games/{g3}/draw"),
            json!({"action": "accept"}),
        )
        .await;
        assert_eq!(g["result"], "1/2-1/2", "{db}");
        clock.advance(1_000);
        let g4 = started(&mut bob, &mut alice, "chess", false).await;

        // The history: two points in chess, the ratings after each game
        // (Glicko-2's amounts), dated by the games' ends.
        let (a1, _) = rate(Rating::START, Rating::START, Score::BlackWins);
        let user = get_ok(&mut bob, "/api/user/alice").await;
        let h = get_ok(&mut bob, "/api/user/ALICE/rating-history").await;
        let chess = &h[0];
        assert_eq!(chess["points"].as_array().unwrap().len(), 2, "{db}: {h}");
        assert_eq!(
            chess["points"][0],
            json!([2027, 0, 15, a1.rounded()]),
            "{db}"
        );
        assert_eq!(
            chess["points"][1].as_array().unwrap()[..3],
            [json!(2027), json!(0), json!(16)],
            "{db}"
        );
        assert_eq!(
            chess["points"][1][3], user["perfs"]["chess"]["rating"],
            "{db}: the last point is the rating now"
        );
        assert_eq!(chess["games"], json!([g1, g2]), "{db}");
        assert_eq!(chess["at"][1], T0 + 86_400_000, "{db}");
        assert_eq!(chess["rd"][1], user["perfs"]["chess"]["rd"], "{db}");
        // Casual games make no point.
        let hop = h
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["perf"] == "hoplit")
            .unwrap();
        assert_eq!(hop["points"], json!([]), "{db}");

        // The counts: all games, rated or casual, ended with a result.
        let c = get_ok(&mut bob, "/api/user/alice/counts").await;
        let zero = json!({"played": 0, "won": 0, "drawn": 0, "lost": 0});
        assert_eq!(c["username"], "alice", "{db}");
        assert_eq!(
            c["counts"]["chess"],
            json!({"played": 2, "won": 1, "drawn": 0, "lost": 1}),
            "{db}"
        );
        assert_eq!(
            c["counts"]["hoplit"],
            json!({"played": 1, "won": 0, "drawn": 1, "lost": 0}),
            "{db}"
        );
        assert_eq!(c["counts"]["trampoline"], zero, "{db}");
        assert_eq!(
            c["all"],
            json!({"played": 3, "won": 1, "drawn": 1, "lost": 1}),
            "{db}"
        );
        let c = get_ok(&mut bob, "/api/user/bob/counts").await;
        assert_eq!(
            c["all"],
            json!({"played": 3, "won": 1, "drawn": 1, "lost": 1}),
            "{db}"
        );

        // The games: the last changed first, filtered, a page at a time.
        let base = "/api/user/alice/games";
        let (all, more) = listed(&mut bob, base).await;
        assert_eq!(
            all,
            vec![g4.clone(), g3.clone(), g2.clone(), g1.clone()],
            "{db}"
        );
        assert!(!more, "{db}");
        let (ongoing, _) = listed(&mut bob, &format!("{base}?status=ongoing")).await;
        assert_eq!(ongoing, vec![g4.clone()], "{db}");
        let (finished, _) = listed(&mut bob, &format!("{base}?status=finished")).await;
        assert_eq!(finished, vec![g3.clone(), g2.clone(), g1.clone()], "{db}");
        let (hop, _) = listed(&mut bob, &format!("{base}?game=hoplit")).await;
        assert_eq!(hop, vec![g3.clone()], "{db}");
        let (chess, _) = listed(&mut bob, &format!("{base}?game=chess&status=finished")).await;
        assert_eq!(chess, vec![g2.clone(), g1.clone()], "{db}");
        let (p1, more) = listed(&mut bob, &format!("{base}?nb=3")).await;
        assert_eq!((p1.len(), more), (3, true), "{db}");
        let (p2, more) = listed(&mut bob, &format!("{base}?nb=3&page=2")).await;
        assert_eq!((p2, more), (vec![g1.clone()], false), "{db}");
        // A game's entry: both names (accounts' ids to link), the side,
        // the result.
        let v = get_ok(&mut bob, &format!("{base}?game=chess&status=finished")).await;
        let first = &v["games"][0];
        assert_eq!(first["id"], g2.as_str(), "{db}");
        assert_eq!(
            first["white"],
            json!({"name": "Bob", "user": "bob"}),
            "{db}"
        );
        assert_eq!(
            first["black"],
            json!({"name": "alice", "user": "alice"}),
            "{db}"
        );
        assert_eq!(
            (&first["color"], &first["result"], &first["rated"]),
            (&json!("black"), &json!("0-1"), &json!(true)),
            "{db}"
        );
        assert_eq!(
            (&first["plies"], &first["status"]),
            (&json!(2), &json!("ended"))
        );

        // The site's games list names an account's seats by the account,
        // with its id for the link; a seat of no account stays anonymous.
        let v = get_ok(&mut bob, "/api/games?list=recent").await;
        let listed = v["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["id"] == g2.as_str())
            .unwrap();
        assert_eq!(
            listed["white"],
            json!({"name": "Bob", "user": "bob"}),
            "{db}"
        );
        assert_eq!(
            listed["black"],
            json!({"name": "alice", "user": "alice"}),
            "{db}"
        );
        let mut stranger = Browser::new(&app);
        let g = stranger.new_game(json!({"mode": "friend"})).await;
        let v = get_ok(&mut stranger, "/api/games?list=mine").await;
        assert_eq!(v["games"][0]["id"], g["id"], "{db}");
        assert_eq!(
            v["games"][0]["white"],
            json!({"name": "Anonymous", "user": null}),
            "{db}"
        );

        // Bad filters are refused.
        for q in [
            "game=shogi",
            "status=won",
            "page=0",
            "nb=101",
            "page=x",
            "colour=white",
        ] {
            let a = bob.get(&format!("{base}?{q}")).await;
            assert_eq!(a.status, StatusCode::BAD_REQUEST, "{db} {q}: {}", a.body);
            assert!(a.body["error"].is_string(), "{db} {q}");
        }
    }
}

#[tokio::test]
async fn leaderboards_list_the_non_provisional_ratings_best_first() {
    for backend in backends("sb_players_top").await {
        let db = backend.name();
        let app = backend.app(Arc::new(ManualClock::new(T0))).await;
        let mut any = Browser::new(&app);
        for name in ["Carol", "dave", "erin", "fred"] {
            signed_up(&app, name).await;
        }
        // Nobody rated: empty boards.
        let v = get_ok(&mut any, "/api/player/top/10/chess").await;
        assert_eq!(v, json!({"users": []}), "{db}");
        backend.set_rating("carol", "chess", 1810.4, 60.0).await;
        // The best, but provisional (RD over 110): left out.
        backend.set_rating("dave", "chess", 2100.0, 110.5).await;
        backend.set_rating("erin", "chess", 1700.0, 110.0).await;
        backend.set_rating("fred", "hopchess", 1600.0, 50.0).await;

        let v = get_ok(&mut any, "/api/player/top/10/chess").await;
        let users = v["users"].as_array().unwrap();
        let names: Vec<&str> = users
            .iter()
            .map(|u| u["username"].as_str().unwrap())
            .collect();
        assert_eq!(names, vec!["Carol", "erin"], "{db}: {v}");
        assert_eq!(
            users[0],
            json!({"id": "carol", "username": "Carol",
                   "perfs": {"chess": {"rating": 1810, "progress": 0, "rd": 60, "games": 30}}}),
            "{db}"
        );
        let v = get_ok(&mut any, "/api/player/top/1/chess").await;
        assert_eq!(v["users"].as_array().unwrap().len(), 1, "{db}");
        assert_eq!(v["users"][0]["id"], "carol", "{db}");
        // The game name in any case, as `/api/user` keys it.
        let v = get_ok(&mut any, "/api/player/top/10/HopChess").await;
        assert_eq!(v["users"][0]["id"], "fred", "{db}");

        // Every game's leaders at once.
        let v = get_ok(&mut any, "/api/player").await;
        assert_eq!(v.as_object().unwrap().len(), 5, "{db}: {v}");
        assert_eq!(v["chess"].as_array().unwrap().len(), 2, "{db}");
        assert_eq!(v["hopchess"][0]["id"], "fred", "{db}");
        assert_eq!(v["trampoline"], json!([]), "{db}");

        for (uri, status) in [
            ("/api/player/top/0/chess", StatusCode::BAD_REQUEST),
            ("/api/player/top/201/chess", StatusCode::BAD_REQUEST),
            ("/api/player/top/ten/chess", StatusCode::BAD_REQUEST),
            (
                "/api/player/top/99999999999999999999/chess",
                StatusCode::BAD_REQUEST,
            ),
            ("/api/player/top/10/shogi", StatusCode::NOT_FOUND),
        ] {
            let a = any.get(uri).await;
            assert_eq!(a.status, status, "{db} {uri}: {}", a.body);
            assert!(a.body["error"].is_string(), "{db} {uri}");
        }
    }
}

#[tokio::test]
async fn unknown_and_hostile_names_are_a_clear_404() {
    let backend = Backend::Sqlite(Arc::new(SqliteStore::memory().await.unwrap()));
    let app = backend.app(Arc::new(ManualClock::new(T0))).await;
    let mut any = Browser::new(&app);
    signed_up(&app, "alice").await;
    for name in [
        "nobody",
        "%3Cscript%3Ealert(1)%3C%2Fscript%3E",
        "%3Cb%3E",
        "a%22b",
        "x",
        &"y".repeat(300),
    ] {
        for what in ["rating-history", "games", "counts"] {
            let uri = format!("/api/user/{name}/{what}");
            let a = any.get(&uri).await;
            assert_eq!(a.status, StatusCode::NOT_FOUND, "{uri}: {}", a.body);
            let e = a.body["error"].as_str().unwrap();
            assert!(e.starts_with("no player '"), "{uri}: {e}");
        }
    }
    // A name with HTML cannot be taken.
    let mut b = Browser::new(&app);
    let a = b
        .post(
            "/api/account/signup",
            json!({"name": "<img src=x>", "password": PASSWORD}),
        )
        .await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST, "{}", a.body);
}

#[tokio::test]
async fn a_server_without_accounts_has_no_player_pages() {
    let store = Arc::new(SqliteStore::memory().await.unwrap());
    let app = app_with(store, Options::new(None)).await.unwrap();
    let mut any = Browser::new(&app);
    for uri in [
        "/api/user/alice/rating-history",
        "/api/user/alice/games",
        "/api/user/alice/counts",
        "/api/player",
        "/api/player/top/10/chess",
    ] {
        let a = any.get(uri).await;
        assert_eq!(a.status, StatusCode::NOT_FOUND, "{uri}: {}", a.body);
    }
    // The pages themselves are the app's page, which says so.
    for uri in ["/@/alice", "/player"] {
        let a = any.get(uri).await;
        assert_eq!(a.status, StatusCode::OK, "{uri}");
    }
}
