//! The server's structured logs (issue 16): every request with its
//! method, path, status and id; engine jobs; panics in a handler and in an
//! engine job. One JSON subscriber for this test process writes into a
//! buffer; each test looks for its own lines (its game, its message).

mod support;

use serde_json::{json, Value};
use springboard_rules::{Game, Move};
use springboard_web::{app, Analysis, AnalysisLimit, EngineProvider};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};
use support::logs::Captured;
use support::loopback::{exchange, listen};

/// The log lines so far, as JSON (the layout of `--log-format json`).
fn lines() -> Vec<Value> {
    let bytes = logs().0.lock().unwrap().clone();
    String::from_utf8_lossy(&bytes)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect()
}

fn logs() -> &'static Captured {
    support::logs::capture("warn,springboard_web=debug")
}

/// Waits up to 5 s for a line that `pred` accepts.
async fn wait_for_line(what: &str, pred: impl Fn(&Value) -> bool) -> Value {
    let start = Instant::now();
    loop {
        if let Some(l) = lines().into_iter().find(|l| pred(l)) {
            return l;
        }
        if start.elapsed() > Duration::from_secs(5) {
            panic!("no log line {what} in:\n{:#?}", lines());
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

async fn server(engine: Option<Arc<dyn EngineProvider>>) -> String {
    logs();
    listen(app(engine).await).await
}

/// One request over TCP: status, the `x-request-id` header, the body.
async fn http(addr: &str, method: &str, path: &str, body: Option<Value>) -> (u16, u64, Value) {
    let (status, head, value) =
        exchange(addr, method, path, "LogsLogsLogsLogsLogs0001", body).await;
    let id = head
        .lines()
        .find_map(|l| l.strip_prefix("x-request-id: "))
        .expect("the answer carries its request id")
        .parse()
        .unwrap();
    (status, id, value)
}

fn span<'a>(l: &'a Value, field: &str) -> &'a Value {
    &l["span"][field]
}

#[tokio::test]
async fn every_request_is_logged_with_method_path_status_and_its_id() {
    let addr = server(None).await;
    let (status, id, _) = http(&addr, "GET", "/api/info?token=SECRET1234", None).await;
    assert_eq!(status, 200);
    let line = wait_for_line("for the info request", |l| {
        span(l, "request_id") == id && l["message"] == "request"
    })
    .await;
    assert_eq!(line["level"], "INFO");
    assert_eq!(span(&line, "method"), "GET");
    assert_eq!(span(&line, "path"), "/api/info");
    assert_eq!(line["status"], 200);
    assert!(line["latency_ms"].as_f64().is_some(), "{line}");
    // The query is never logged.
    let all = String::from_utf8_lossy(&logs().0.lock().unwrap()).into_owned();
    assert!(!all.contains("SECRET1234"));
    // A refused request: its reason, at info.
    let (status, id, body) = http(&addr, "GET", "/api/games/nosuchgm", None).await;
    assert_eq!(status, 404);
    let line = wait_for_line("for the 404", |l| span(l, "request_id") == id).await;
    assert_eq!(
        (&line["level"], &line["status"], &line["message"]),
        (&json!("INFO"), &json!(404), &json!("request refused"))
    );
    assert_eq!(line["error"], body["error"]);
    assert_eq!(line["error"], "no game with id 'nosuchgm'");
}

/// Plays the first legal move; its `name` or `analyse` can be made to
/// panic.
struct Engine {
    name_panics: bool,
}

impl EngineProvider for Engine {
    fn name(&self) -> String {
        if self.name_panics {
            panic!("the engine's name broke 9182");
        }
        "first move".into()
    }
    fn max_level(&self) -> u8 {
        1
    }
    fn best_move(&self, game: &Game, _level: u8, _stop: Arc<AtomicBool>) -> Option<Move> {
        game.position().legal_moves().first().copied()
    }
    fn analyse(&self, _: &Game, _: AnalysisLimit, _: Arc<AtomicBool>) -> Option<Analysis> {
        panic!("the analysis broke 4471");
    }
}

#[tokio::test]
async fn engine_jobs_and_games_are_logged() {
    let addr = server(Some(Arc::new(Engine { name_panics: false }))).await;
    // The engine plays White: a job of the pool.
    let (status, _, view) = http(
        &addr,
        "POST",
        "/api/games",
        Some(json!({"mode": "engine", "color": "black"})),
    )
    .await;
    assert_eq!(status, 201, "{view}");
    let game = view["id"].as_str().unwrap().to_string();
    let created = wait_for_line("of the game's creation", |l| {
        l["message"] == "game created" && l["game"] == game.as_str()
    })
    .await;
    assert_eq!(
        (&created["mode"], &created["variant"]),
        (&json!("engine"), &json!("chess"))
    );
    let in_job = |l: &Value, msg: &str| {
        l["message"] == msg && span(l, "game") == game.as_str() && span(l, "kind") == "move"
    };
    wait_for_line("of the queued job", |l| in_job(l, "engine job queued")).await;
    wait_for_line("of the started job", |l| in_job(l, "engine job started")).await;
    let done = wait_for_line("of the finished job", |l| in_job(l, "engine job finished")).await;
    assert_eq!(done["level"], "INFO");
    let first = Game::new(springboard_rules::Position::startpos(
        springboard_rules::Variant::Chess,
    ));
    let expected = springboard_rules::notation::uci::to_uci(
        first.position(),
        first.position().legal_moves()[0],
    );
    assert_eq!(done["answer"], expected.as_str());
    assert!(done["ms"].as_f64().is_some(), "{done}");
    // Black resigns: the game's end with its result and reason.
    let (status, _, _) = http(&addr, "POST", &format!("/api/games/{game}/resign"), None).await;
    assert_eq!(status, 200);
    let end = wait_for_line("of the game's end", |l| {
        l["message"] == "game finished" && l["game"] == game.as_str()
    })
    .await;
    assert_eq!(
        (&end["result"], &end["reason"]),
        (&json!("1-0"), &json!("resignation"))
    );
}

#[tokio::test]
async fn a_panic_in_a_handler_is_logged_and_answered_in_json() {
    let addr = server(Some(Arc::new(Engine { name_panics: true }))).await;
    let (status, id, body) = http(&addr, "GET", "/api/info", None).await;
    assert_eq!(status, 500);
    assert!(
        body["error"]
            .as_str()
            .is_some_and(|e| e.contains("the engine's name broke 9182")),
        "{body}"
    );
    let panic = wait_for_line("of the handler's panic", |l| {
        l["message"] == "a request handler panicked" && span(l, "request_id") == id
    })
    .await;
    assert_eq!(panic["level"], "ERROR");
    assert_eq!(panic["panic"], "the engine's name broke 9182");
    let request = wait_for_line("of the 500", |l| {
        l["message"] == "request failed" && span(l, "request_id") == id
    })
    .await;
    assert_eq!(
        (&request["level"], &request["status"]),
        (&json!("ERROR"), &json!(500))
    );
    assert_eq!(span(&request, "path"), "/api/info");
}

#[tokio::test]
async fn a_panic_in_an_engine_job_is_logged() {
    let addr = server(Some(Arc::new(Engine { name_panics: false }))).await;
    let (_, _, view) = http(&addr, "POST", "/api/games", Some(json!({}))).await;
    let game = view["id"].as_str().unwrap().to_string();
    let (status, id, body) = http(
        &addr,
        "POST",
        &format!("/api/games/{game}/analysis"),
        Some(json!({"movetime": 10})),
    )
    .await;
    assert_eq!(status, 500, "{body}");
    let failed = wait_for_line("of the failed job", |l| {
        l["message"] == "engine job failed" && span(l, "game") == game.as_str()
    })
    .await;
    assert_eq!(failed["level"], "ERROR");
    assert_eq!(span(&failed, "kind"), "analysis");
    assert_eq!(
        failed["error"],
        "the engine panicked: the analysis broke 4471"
    );
    let request = wait_for_line("of the 500", |l| span(l, "request_id") == id).await;
    assert_eq!(request["status"], 500);
    assert_eq!(request["error"], failed["error"]);
}
