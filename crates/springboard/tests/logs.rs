//! The binary's logs: `springboard serve --log-format json` logs requests
//! and engine jobs (with nodes and the game) on standard error; `springboard
//! uci` keeps standard output for the protocol, its logs go to standard
//! error.

use serde_json::Value;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

mod support;
use support::Server;

fn http(addr: &str, method: &str, path: &str, body: &str) -> (u16, Value) {
    let (status, body) = support::http(
        addr,
        method,
        path,
        "Cookie: sb_player=BinLogsBinLogsBinLogs001\r\n",
        body,
    );
    (status, serde_json::from_str(&body).unwrap_or(Value::Null))
}

/// Reads JSON log lines from `rx` until `pred` accepts one (30 s at most).
fn wait_for(
    rx: &mpsc::Receiver<String>,
    seen: &mut Vec<String>,
    pred: impl Fn(&Value) -> bool,
) -> Value {
    let start = Instant::now();
    if let Some(v) = seen
        .iter()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find(|v| pred(v))
    {
        return v;
    }
    while start.elapsed() < Duration::from_secs(30) {
        let Ok(line) = rx.recv_timeout(Duration::from_millis(200)) else {
            continue;
        };
        seen.push(line.clone());
        let v: Value = serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("a log line that is not JSON ({e}): {line}"));
        if pred(&v) {
            return v;
        }
    }
    panic!("no such log line in:\n{}", seen.join("\n"));
}

#[test]
fn serve_logs_requests_and_engine_jobs_as_json_on_stderr() {
    let mut server = Server::start_fresh("logs", |c| {
        c.args(["--log-format", "json"])
            .env_remove("SPRINGBOARD_LOG")
            .env_remove("RUST_LOG")
            .stderr(Stdio::piped());
    });
    let stderr = server.child.stderr.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    let addr = server.addr.clone();
    let mut seen = Vec::new();
    // Start-up: address and database kind.
    let up = wait_for(&rx, &mut seen, |l| l["message"] == "listening");
    assert_eq!(
        (up["address"].as_str(), up["database"].as_str()),
        (Some(addr.as_str()), Some("sqlite"))
    );
    // A request line.
    let (status, _) = http(&addr, "GET", "/api/info", "");
    assert_eq!(status, 200);
    let line = wait_for(&rx, &mut seen, |l| l["span"]["path"] == "/api/info");
    assert_eq!(
        (
            line["level"].as_str(),
            line["span"]["method"].as_str(),
            line["status"].as_u64()
        ),
        (Some("INFO"), Some("GET"), Some(200))
    );
    assert!(line["span"]["request_id"].as_u64().is_some(), "{line}");
    // The engine plays White: its search, in its job's span, with nodes.
    let (status, view) = http(
        &addr,
        "POST",
        "/api/games",
        r#"{"mode":"engine","color":"black"}"#,
    );
    assert_eq!(status, 201, "{view}");
    let game = view["id"].as_str().unwrap().to_string();
    let search = wait_for(&rx, &mut seen, |l| {
        l["message"] == "search finished" && l["span"]["game"] == game.as_str()
    });
    assert!(search["nodes"].as_u64().is_some_and(|n| n > 0), "{search}");
    wait_for(&rx, &mut seen, |l| {
        l["message"] == "engine job finished" && l["span"]["game"] == game.as_str()
    });
    drop(server);
}

#[test]
fn uci_keeps_stdout_for_the_protocol_and_logs_on_stderr() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_springboard"))
        .args(["uci", "--log-level", "debug"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"uci\nisready\nposition startpos moves e2e4\ngo depth 1\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    // Only protocol lines on stdout.
    for line in stdout.lines() {
        let word = line.split_whitespace().next().unwrap_or("");
        assert!(
            ["id", "option", "uciok", "readyok", "info", "bestmove"].contains(&word),
            "not a UCI line on stdout: {line}"
        );
    }
    assert!(stdout.contains("bestmove "), "{stdout}");
    // The debug log of the input, on stderr.
    assert!(
        stderr.contains("uci input") && stderr.contains("position startpos moves e2e4"),
        "{stderr}"
    );
    // At the default level (warn) the same session logs nothing.
    let mut child = Command::new(env!("CARGO_BIN_EXE_springboard"))
        .arg("uci")
        .env_remove("SPRINGBOARD_LOG")
        .env_remove("RUST_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"uci\nisready\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    // SPRINGBOARD_LOG sets the level too.
    let mut child = Command::new(env!("CARGO_BIN_EXE_springboard"))
        .arg("uci")
        .env("SPRINGBOARD_LOG", "debug")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"isready\n").unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("isready"));
}
