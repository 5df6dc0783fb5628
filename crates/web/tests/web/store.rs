//! The store's tests, run against every backend: SQLite always, PostgreSQL
//! when `SPRINGBOARD_TEST_POSTGRES` names a server (scripts/test.sh starts
//! one). Each PostgreSQL test gets a database of its own.

use crate::support;

use async_trait::async_trait;
use springboard_rules::Color;
use springboard_web::store::{
    Crowd, Ending, GameEndHook, GameEnded, GameRecord, GameStore, ListQuery, MoveRecord, Notice,
    PresenceStore, Store, StoreError, StoreTx,
};
use springboard_web::{Mode, Origin, PgStore, SqliteStore, Status};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use support::postgres::postgres_options;

fn record(id: &str, updated_at: i64) -> GameRecord {
    GameRecord {
        moves: vec![MoveRecord {
            uci: "e2e4@e3".into(),
            san: "e4@e3".into(),
            ms: Some(61_000),
            at: 5,
        }],
        white_seat: Some("aa".into()),
        engine_color: Some(Color::Black),
        engine_level: Some(3),
        clock_initial_ms: Some(60_000),
        clock_increment_ms: Some(1_000),
        white_ms: Some(61_000),
        black_ms: Some(60_000),
        turn_started_at: Some(5),
        status: Status::Waiting,
        updated_at,
        ..GameRecord::new(id.into(), "hopchess", "start".into(), Mode::Friend, 1)
    }
}

/// Every backend to test, each over a new empty database.
async fn stores() -> Vec<(&'static str, Box<dyn Store>)> {
    let mut v: Vec<(&'static str, Box<dyn Store>)> =
        vec![("sqlite", Box::new(SqliteStore::memory().await.unwrap()))];
    if let Some(options) = postgres_options("sb_store").await {
        v.push((
            "postgres",
            Box::new(PgStore::connect_with(options).await.unwrap()),
        ));
    }
    v
}

#[tokio::test]
async fn a_game_round_trips_and_updates_by_compare_and_set() {
    for (name, store) in stores().await {
        let g = record("abcdEFGH", 10);
        store.insert(&g).await.unwrap();
        assert_eq!(
            store.load("abcdEFGH").await.unwrap(),
            Some(g.clone()),
            "{name}"
        );
        assert_eq!(store.load("nothere1").await.unwrap(), None, "{name}");
        assert!(
            matches!(store.insert(&g).await, Err(StoreError::Duplicate(id)) if id == "abcdEFGH"),
            "{name}"
        );
        let mut next = g.clone();
        next.version = 2;
        next.black_seat = Some("bb".into());
        next.status = Status::Playing;
        assert!(store.update(&next, 1, &[], None).await.unwrap(), "{name}");
        // A second writer that read version 1 changes nothing.
        let mut stale = g.clone();
        stale.version = 2;
        stale.result = Some("1-0".into());
        assert!(!store.update(&stale, 1, &[], None).await.unwrap(), "{name}");
        assert_eq!(store.load("abcdEFGH").await.unwrap(), Some(next), "{name}");
        // An update of a game that is not stored changes nothing.
        assert!(
            !store
                .update(&record("nothere1", 1), 0, &[], None)
                .await
                .unwrap(),
            "{name}"
        );
    }
}

#[tokio::test]
async fn a_rematch_is_inserted_with_the_update_or_not_at_all() {
    for (name, store) in stores().await {
        let g = record("game0001", 10);
        let other = record("game0002", 11);
        store.insert(&g).await.unwrap();
        store.insert(&other).await.unwrap();
        let mut next = g.clone();
        next.version = 2;
        next.rematch_id = Some("game0002".into());
        // The new game's id is taken: the update is rolled back too.
        assert!(
            matches!(
                store
                    .update(&next, 1, std::slice::from_ref(&other), None)
                    .await,
                Err(StoreError::Duplicate(_))
            ),
            "{name}"
        );
        assert_eq!(
            store.load("game0001").await.unwrap().unwrap().version,
            1,
            "{name}"
        );
        let new = record("game0003", 12);
        next.rematch_id = Some("game0003".into());
        assert!(
            store
                .update(&next, 1, std::slice::from_ref(&new), None)
                .await
                .unwrap(),
            "{name}"
        );
        assert_eq!(store.load("game0003").await.unwrap(), Some(new), "{name}");
    }
}

#[tokio::test]
async fn lists_recent_ongoing_mine_and_analysis() {
    for (name, store) in stores().await {
        let mut a = record("aaaaaaaa", 1);
        a.status = Status::Ended;
        // A waiting invitation: listed to its creator only.
        let mut b = record("bbbbbbbb", 2);
        b.invite = Some("InviteToken0123456789a".into());
        let mut c = record("cccccccc", 3);
        c.white_seat = Some("cc".into());
        c.black_seat = Some("aa".into());
        c.status = Status::Playing;
        let mut d = record("dddddddd", 4);
        d.white_seat = Some("dd".into());
        d.status = Status::Playing;
        // A board and a finished loaded game of the same browser.
        let mut e = record("eeeeeeee", 5);
        e.mode = Mode::Local;
        e.origin = Origin::Analysis;
        e.status = Status::Playing;
        let mut f = record("ffffffff", 6);
        f.mode = Mode::Local;
        f.origin = Origin::Imported;
        f.status = Status::Ended;
        f.tags = vec![
            ("Event".into(), "London".into()),
            ("White".into(), "Adolf Anderssen".into()),
        ];
        f.import_key = Some("key1".into());
        for g in [&a, &b, &c, &d, &e, &f] {
            store.insert(g).await.unwrap();
        }
        assert_eq!(
            store.load("bbbbbbbb").await.unwrap().as_ref(),
            Some(&b),
            "{name}"
        );
        assert_eq!(
            store.load("ffffffff").await.unwrap().as_ref(),
            Some(&f),
            "{name}"
        );
        let ids = |v: Vec<GameRecord>| v.into_iter().map(|g| g.id).collect::<Vec<_>>();
        assert_eq!(
            ids(store.list(&ListQuery::Recent, 3).await.unwrap()),
            ["dddddddd", "cccccccc", "aaaaaaaa"],
            "{name}"
        );
        assert_eq!(
            ids(store.list(&ListQuery::Ongoing, 10).await.unwrap()),
            ["dddddddd", "cccccccc"],
            "{name}"
        );
        assert_eq!(
            ids(store.list(&ListQuery::Mine("aa".into()), 10).await.unwrap()),
            ["cccccccc", "bbbbbbbb", "aaaaaaaa"],
            "{name}"
        );
        assert_eq!(
            ids(store
                .list(&ListQuery::Analysis("aa".into()), 10)
                .await
                .unwrap()),
            ["ffffffff", "eeeeeeee"],
            "{name}"
        );
        assert_eq!(
            ids(store.imported("key1").await.unwrap()),
            ["ffffffff"],
            "{name}"
        );
        assert!(store.imported("key2").await.unwrap().is_empty(), "{name}");
        assert_eq!(
            store.unfinished().await.unwrap(),
            ["bbbbbbbb", "cccccccc", "dddddddd", "eeeeeeee"],
            "{name}"
        );
    }
}

/// A database made before migration 0004 gets the games list's columns
/// when the server opens it: a local game becomes an analysis board, a
/// friend game a played one, and a waiting invitation gets a token.
#[tokio::test]
async fn a_database_before_the_games_list_upgrades_in_place() {
    use sqlx::sqlite::SqliteConnectOptions;
    use sqlx::{ConnectOptions, Connection};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.sqlite3");
    {
        let store = SqliteStore::open(&path).await.unwrap();
        let mut local = record("local001", 1);
        local.mode = Mode::Local;
        local.status = Status::Playing;
        store.insert(&local).await.unwrap();
        store.insert(&record("friend01", 2)).await.unwrap();
    }
    // Back to the schema before 0004 (SQLite drops a column since 3.35).
    let mut conn = SqliteConnectOptions::new()
        .filename(&path)
        .connect()
        .await
        .unwrap();
    for sql in [
        "DROP INDEX games_origin_updated",
        "DROP INDEX games_import_key",
        "ALTER TABLE games DROP COLUMN origin",
        "ALTER TABLE games DROP COLUMN invite",
        "ALTER TABLE games DROP COLUMN tags",
        "ALTER TABLE games DROP COLUMN import_key",
        "DELETE FROM _sqlx_migrations WHERE version = 4",
    ] {
        sqlx::query(sql).execute(&mut conn).await.unwrap();
    }
    conn.close().await.unwrap();
    let store = SqliteStore::open(&path).await.unwrap();
    let local = store.load("local001").await.unwrap().unwrap();
    assert_eq!(local.origin, Origin::Analysis);
    assert_eq!(local.invite, None);
    let friend = store.load("friend01").await.unwrap().unwrap();
    assert_eq!(friend.origin, Origin::Played);
    assert_eq!(friend.status, Status::Waiting);
    assert_eq!(friend.invite.as_deref().map(str::len), Some(32));
    assert!(friend.tags.is_empty() && friend.import_key.is_none());
    assert_eq!(
        store
            .list(&ListQuery::Mine("aa".into()), 10)
            .await
            .unwrap()
            .len(),
        1
    );
}

/// Many writers race on one game: exactly one wins each version.
#[tokio::test]
async fn racing_writers_each_version_is_won_once() {
    for (name, store) in stores().await {
        let store: std::sync::Arc<dyn Store> = store.into();
        store.insert(&record("racegame", 1)).await.unwrap();
        let mut tasks = Vec::new();
        for w in 0..8 {
            let store = std::sync::Arc::clone(&store);
            tasks.push(tokio::spawn(async move {
                let mut won = 0;
                for _ in 0..20 {
                    let mut g = store.load("racegame").await.unwrap().unwrap();
                    let expected = g.version;
                    g.version += 1;
                    g.moves.push(MoveRecord {
                        uci: format!("w{w}"),
                        san: String::new(),
                        ms: None,
                        at: 0,
                    });
                    if store.update(&g, expected, &[], None).await.unwrap() {
                        won += 1;
                    }
                }
                won
            }));
        }
        let mut won = 0;
        for t in tasks {
            won += t.await.unwrap();
        }
        let g = store.load("racegame").await.unwrap().unwrap();
        // Every won update added exactly one move: none lost, none doubled.
        assert_eq!(g.version, 1 + won, "{name}");
        assert_eq!(g.moves.len() as i64, 1 + won, "{name}");
        assert!(won >= 1, "{name}");
    }
}

/// Another process's committed change reaches the listener, a rolled-back
/// one does not.
#[tokio::test]
async fn postgres_changes_are_announced_to_listeners() {
    let Some(options) = postgres_options("sb_store").await else {
        return;
    };
    let writer = PgStore::connect_with(options.clone()).await.unwrap();
    let reader = PgStore::connect_with(options).await.unwrap();
    assert!(writer.shared());
    let mut notices = reader.listen().await.unwrap().expect("PostgreSQL listens");
    writer.insert(&record("notified", 1)).await.unwrap();
    let mut next = record("notified", 1);
    next.version = 2;
    // A lost compare-and-set announces nothing.
    assert!(!writer.update(&next, 5, &[], None).await.unwrap());
    assert!(writer.update(&next, 1, &[], None).await.unwrap());
    let got = tokio::time::timeout(Duration::from_secs(10), notices.recv())
        .await
        .expect("the notice comes within 10 s");
    assert_eq!(
        got,
        Some(Notice::Changed {
            id: "notified".into(),
            version: 2
        })
    );
    assert!(
        tokio::time::timeout(Duration::from_millis(300), notices.recv())
            .await
            .is_err(),
        "one notice per committed change"
    );
}

#[tokio::test]
async fn sqlite_is_not_shared_and_does_not_listen() {
    let store = SqliteStore::memory().await.unwrap();
    assert!(!store.shared());
    assert!(store.listen().await.unwrap().is_none());
}

/// A process's heartbeat tells the others it is alive until it is stale;
/// its own heartbeat does not count; old rows are deleted.
#[tokio::test]
async fn heartbeats_tell_whether_another_process_is_alive() {
    for (name, store) in stores().await {
        assert!(!store.others_alive("a", 0).await.unwrap(), "{name}");
        store.heartbeat("a", 1_000).await.unwrap();
        assert!(!store.others_alive("a", 0).await.unwrap(), "{name}: own");
        assert!(store.others_alive("b", 1_000).await.unwrap(), "{name}");
        assert!(!store.others_alive("b", 1_001).await.unwrap(), "{name}");
        // A later heartbeat of the same process moves its time on.
        store.heartbeat("a", 5_000).await.unwrap();
        assert!(store.others_alive("b", 4_000).await.unwrap(), "{name}");
        store.heartbeat("b", 9_000).await.unwrap();
        store.forget_processes(6_000).await.unwrap();
        assert!(
            !store.others_alive("b", 0).await.unwrap(),
            "{name}: a forgotten"
        );
        assert!(store.others_alive("a", 0).await.unwrap(), "{name}: b kept");
    }
}

/// Presence rows: summed over the other live processes, a stale process's
/// rows ignored, a crowd of nobody deleted, each change announced.
#[tokio::test]
async fn postgres_presence_is_summed_over_the_other_live_processes() {
    let Some(options) = postgres_options("sb_store").await else {
        return;
    };
    let store = PgStore::connect_with(options.clone()).await.unwrap();
    let other = PgStore::connect_with(options).await.unwrap();
    let mut notices = other.listen().await.unwrap().unwrap();
    let crowd = |white, black, spectators| Crowd {
        white,
        black,
        spectators,
    };
    for p in ["p1", "p2", "p3"] {
        store.heartbeat(p, 10_000).await.unwrap();
    }
    store.heartbeat("dead", 1_000).await.unwrap();
    store
        .set_presence("p1", "game0001", crowd(1, 0, 2))
        .await
        .unwrap();
    store
        .set_presence("p2", "game0001", crowd(0, 1, 1))
        .await
        .unwrap();
    store
        .set_presence("p2", "game0002", crowd(0, 0, 1))
        .await
        .unwrap();
    store
        .set_presence("dead", "game0001", crowd(0, 0, 7))
        .await
        .unwrap();
    let got = tokio::time::timeout(Duration::from_secs(10), notices.recv())
        .await
        .unwrap();
    assert_eq!(
        got,
        Some(Notice::Presence {
            id: "game0001".into(),
            process: "p1".into()
        })
    );
    let games = vec![
        "game0001".to_string(),
        "game0002".to_string(),
        "game0003".to_string(),
    ];
    let mut seen = store.presence(&games, "p3", 5_000).await.unwrap();
    seen.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(
        seen,
        [
            ("game0001".to_string(), crowd(1, 1, 3)),
            ("game0002".to_string(), crowd(0, 0, 1))
        ]
    );
    // p1 does not count itself.
    let seen = store.presence(&games[..1], "p1", 5_000).await.unwrap();
    assert_eq!(seen, [("game0001".to_string(), crowd(0, 1, 1))]);
    // p2's sockets leave game0001.
    store
        .set_presence("p2", "game0001", Crowd::default())
        .await
        .unwrap();
    let seen = store.presence(&games[..1], "p3", 5_000).await.unwrap();
    assert_eq!(seen, [("game0001".to_string(), crowd(1, 0, 2))]);
    // p1 goes stale: nobody is left in game0001.
    let seen = store.presence(&games[..1], "p3", 10_001).await.unwrap();
    assert!(seen.is_empty(), "{seen:?}");
    // Forgetting the dead process deletes its rows too.
    store.forget_processes(5_000).await.unwrap();
    let left: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM presence WHERE process = 'dead'")
        .fetch_one(store.pool())
        .await
        .unwrap();
    assert_eq!(left, 0);
}

/// An end-of-game hook that writes the game's end in `ended_log`, then
/// fails when `fail`.
struct LogHook {
    fail: bool,
    calls: AtomicUsize,
}

impl LogHook {
    fn new(fail: bool) -> Arc<LogHook> {
        Arc::new(LogHook {
            fail,
            calls: AtomicUsize::new(0),
        })
    }

    fn calls(&self) -> usize {
        self.calls.load(Ordering::SeqCst)
    }
}

#[async_trait]
impl GameEndHook for LogHook {
    async fn on_end(&self, tx: &mut StoreTx<'_>, ended: &GameEnded) -> Result<(), StoreError> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        let sql = "INSERT INTO ended_log (game, result) VALUES ($1, $2)";
        match tx {
            StoreTx::Sqlite(c) => {
                sqlx::query(sql)
                    .bind(&ended.id)
                    .bind(&ended.result)
                    .execute(&mut **c)
                    .await?;
            }
            StoreTx::Postgres(c) => {
                sqlx::query(sql)
                    .bind(&ended.id)
                    .bind(&ended.result)
                    .execute(&mut **c)
                    .await?;
            }
        }
        if self.fail {
            return Err(StoreError::Hook("refused".into()));
        }
        Ok(())
    }
}

/// A backend's pool, to read what the hooks wrote.
enum Pool {
    Sqlite(sqlx::SqlitePool),
    Postgres(sqlx::PgPool),
}

impl Pool {
    async fn logged(&self) -> Vec<(String, String)> {
        let sql = "SELECT game, result FROM ended_log ORDER BY game";
        match self {
            Pool::Sqlite(p) => sqlx::query_as(sql).fetch_all(p).await.unwrap(),
            Pool::Postgres(p) => sqlx::query_as(sql).fetch_all(p).await.unwrap(),
        }
    }
}

/// Every backend over a new empty database with a table `ended_log`.
async fn stores_with_log() -> Vec<(&'static str, Box<dyn Store>, Pool)> {
    const TABLE: &str = "CREATE TABLE ended_log (game TEXT NOT NULL, result TEXT NOT NULL)";
    let sqlite = SqliteStore::memory().await.unwrap();
    sqlx::query(TABLE).execute(sqlite.pool()).await.unwrap();
    let pool = Pool::Sqlite(sqlite.pool().clone());
    let mut v: Vec<(&'static str, Box<dyn Store>, Pool)> = vec![("sqlite", Box::new(sqlite), pool)];
    if let Some(options) = postgres_options("sb_store").await {
        let pg = PgStore::connect_with(options).await.unwrap();
        sqlx::query(TABLE).execute(pg.pool()).await.unwrap();
        let pool = Pool::Postgres(pg.pool().clone());
        v.push(("postgres", Box::new(pg), pool));
    }
    v
}

/// The hooks of a game's end run in the transaction that ends it: what
/// they write is committed with the end, a failing one rolls the end and
/// every write back, and a change that does not end the game (or loses
/// its compare-and-set) runs none.
#[tokio::test]
async fn end_of_game_hooks_commit_or_roll_back_with_the_end() {
    for (name, store, pool) in stores_with_log().await {
        let writes = LogHook::new(false);
        let refuses = LogHook::new(true);
        let g = record("endgame1", 1);
        store.insert(&g).await.unwrap();
        // Joined: not an end.
        let mut next = g.clone();
        next.version = 2;
        next.status = Status::Playing;
        next.black_seat = Some("bb".into());
        assert_eq!(GameEnded::of_change(&g, &next), None, "{name}");
        assert!(store.update(&next, 1, &[], None).await.unwrap(), "{name}");
        // Resigned: the end.
        let mut end = next.clone();
        end.version = 3;
        end.updated_at = 77;
        end.status = Status::Ended;
        end.result = Some("0-1".into());
        end.reason = Some("resignation".into());
        let event = GameEnded::of_change(&next, &end).expect("an end");
        assert_eq!(
            event,
            GameEnded {
                id: "endgame1".into(),
                variant: "hopchess".into(),
                mode: Mode::Friend,
                rated: false,
                white_seat: Some("aa".into()),
                black_seat: Some("bb".into()),
                engine_color: Some(Color::Black),
                result: "0-1".into(),
                reason: "resignation".into(),
                plies: 1,
                version: 3,
                at: 77,
            },
            "{name}"
        );
        // An ended game that changes again (a rematch offer) ends nothing.
        assert_eq!(GameEnded::of_change(&end, &end), None, "{name}");
        // The second hook fails: the game is not ended, the first hook's
        // row is not kept.
        let hooks: Vec<Arc<dyn GameEndHook>> = vec![writes.clone(), refuses.clone()];
        let ending = Ending {
            event: &event,
            hooks: &hooks,
        };
        assert!(
            matches!(
                store.update(&end, 2, &[], Some(ending)).await,
                Err(StoreError::Hook(_))
            ),
            "{name}"
        );
        assert_eq!((writes.calls(), refuses.calls()), (1, 1), "{name}");
        let stored = store.load("endgame1").await.unwrap().unwrap();
        assert_eq!(
            (stored.version, stored.status.as_str()),
            (2, "playing"),
            "{name}"
        );
        assert!(pool.logged().await.is_empty(), "{name}");
        // The hook alone: its row is committed with the end.
        let hooks: Vec<Arc<dyn GameEndHook>> = vec![writes.clone()];
        let ending = Ending {
            event: &event,
            hooks: &hooks,
        };
        assert!(
            store.update(&end, 2, &[], Some(ending)).await.unwrap(),
            "{name}"
        );
        assert_eq!(
            store.load("endgame1").await.unwrap(),
            Some(end.clone()),
            "{name}"
        );
        assert_eq!(
            pool.logged().await,
            [("endgame1".to_string(), "0-1".to_string())],
            "{name}"
        );
        // A lost compare-and-set runs no hook.
        assert!(
            !store.update(&end, 2, &[], Some(ending)).await.unwrap(),
            "{name}"
        );
        assert_eq!(writes.calls(), 2, "{name}");
        assert_eq!(pool.logged().await.len(), 1, "{name}");
    }
}

/// A database connection of the test's own, beside the store's.
enum Raw {
    Sqlite(sqlx::SqlitePool),
    Postgres(sqlx::PgPool),
}

impl Raw {
    async fn execute(&self, sql: &str) {
        match self {
            Raw::Sqlite(p) => sqlx::query(sql).execute(p).await.map(|_| ()),
            Raw::Postgres(p) => sqlx::query(sql).execute(p).await.map(|_| ()),
        }
        .unwrap();
    }
}

/// A stored row whose mode, status or colour the server does not know is
/// a damaged game, an error naming the game, the column and the text:
/// not a panic, not a default.
#[tokio::test]
async fn a_row_with_an_unknown_mode_status_or_color_is_a_damaged_game() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.sqlite3");
    let sqlite = SqliteStore::open(&path).await.unwrap();
    let raw =
        sqlx::SqlitePool::connect_with(sqlx::sqlite::SqliteConnectOptions::new().filename(&path))
            .await
            .unwrap();
    let mut backends: Vec<(&str, Box<dyn GameStore>, Raw)> =
        vec![("sqlite", Box::new(sqlite), Raw::Sqlite(raw))];
    if let Some(options) = postgres_options("sb_store").await {
        let pg = PgStore::connect_with(options).await.unwrap();
        let raw = Raw::Postgres(pg.pool().clone());
        backends.push(("postgres", Box::new(pg), raw));
    }
    let cases = [
        ("mode", "blitz"),
        ("status", "Playing"),
        ("engine_color", "red"),
        ("draw_offer", "both"),
        ("takeback_offer", ""),
        ("rematch_offer", "White"),
    ];
    for (name, store, raw) in backends {
        for (i, (column, text)) in cases.iter().enumerate() {
            let id = format!("damaged{i}");
            store.insert(&record(&id, 1)).await.unwrap();
            raw.execute(&format!(
                "UPDATE games SET {column} = '{text}' WHERE id = '{id}'"
            ))
            .await;
            match store.load(&id).await {
                Err(StoreError::Corrupt(why)) => {
                    assert!(why.contains(&id), "{name}: {why}");
                    assert!(why.contains(column), "{name}: {why}");
                    assert!(why.contains(&format!("'{text}'")), "{name}: {why}");
                }
                other => panic!("{name} {column}: {other:?}"),
            }
        }
        // A known text reads back.
        let mut g = record("damaged9", 1);
        g.status = Status::Ended;
        g.draw_offer = Some(Color::White);
        store.insert(&g).await.unwrap();
        assert_eq!(store.load("damaged9").await.unwrap(), Some(g), "{name}");
    }
}
