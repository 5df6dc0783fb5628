//! Issue 16 item 7: building a large game view must not hold up requests
//! about other games. A Hop Chess position with 5,141 legal moves makes a
//! view of about 0.55 MB (every move with its SAN); ten GETs of it at once
//! used to delay a request about another, small game by the time of all
//! ten (one global lock held while views were built, then the async
//! workers busy building them). The test sends the small request while
//! ten large views are being built: it must be answered before any of
//! them (an order, not a time limit). Plain std over TCP against
//! `springboard serve`, so it runs against any version of the server.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Many legal moves: two queens, two rooks, two bishops and two knights in
/// the open, trampolines on c6 and f6.
const LARGE: &str = "6k1/8/1N4N1/1B4B1/3QQ3/8/8/R3K2R w - - 0 1 c6,f6 -";

struct Server(Child, std::path::PathBuf);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
        let _ = std::fs::remove_dir_all(&self.1);
    }
}

fn start() -> (Server, String) {
    // The data directory is a fresh one (versions without --data take it
    // from the environment).
    let dir = std::env::temp_dir().join(format!("springboard-view-lock-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_springboard"))
        .args(["serve", "--port", "0"])
        .env("HOME", &dir)
        .env("XDG_DATA_HOME", &dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let server = Server(child, dir);
    let mut lines = BufReader::new(stdout).lines();
    let addr = loop {
        let line = lines.next().expect("the server prints its URL").unwrap();
        if let Some(rest) = line.split("running at http://").nth(1) {
            break rest.split('/').next().unwrap().to_string();
        }
    };
    // Keep reading stdout so the server never blocks on it.
    std::thread::spawn(move || for _ in lines {});
    (server, addr)
}

/// One request: its status, body and how long the answer took.
fn request(addr: &str, method: &str, path: &str, body: &str) -> (u16, String, Duration) {
    let start = Instant::now();
    let mut s = TcpStream::connect(addr).unwrap();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut out = Vec::new();
    s.read_to_end(&mut out).unwrap();
    let took = start.elapsed();
    let text = String::from_utf8_lossy(&out).into_owned();
    let status = text[9..12].parse().unwrap();
    let body = text
        .split_once("\r\n\r\n")
        .map_or("", |(_, b)| b)
        .to_string();
    (status, body, took)
}

/// The game id of a created game's view (a number or a string).
fn id_of(view: &str) -> String {
    let rest = &view[view.find("\"id\":").expect("the view has an id") + 5..];
    rest.trim_start()
        .trim_start_matches('"')
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .collect()
}

fn create(addr: &str, body: &str) -> String {
    let (status, view, _) = request(addr, "POST", "/api/games", body);
    assert_eq!(status, 201, "{view}");
    id_of(&view)
}

#[test]
fn large_views_do_not_hold_up_requests_about_other_games() {
    let (_server, addr) = start();
    let large = create(
        &addr,
        &format!("{{\"variant\":\"hopchess\",\"fen\":\"{LARGE}\"}}"),
    );
    let small = create(&addr, "{}");
    let large_path = format!("/api/games/{large}");
    let small_path = format!("/api/games/{small}/fen");
    // One large view alone (the quickest of three).
    let alone = (0..3)
        .map(|_| {
            let (status, body, took) = request(&addr, "GET", &large_path, "");
            assert_eq!(status, 200);
            assert!(body.len() > 400_000, "a large view: {} bytes", body.len());
            took
        })
        .min()
        .unwrap();
    // The small request, sent while ten large views are being built: it
    // must be answered before any of them. With one lock for every game
    // (or the async workers busy building the views) it waits for at least
    // the view being built, usually for several. The best of three rounds.
    let mut fewest = usize::MAX;
    let mut during = Duration::MAX;
    for _ in 0..3 {
        let heavy: Vec<_> = (0..10)
            .map(|_| {
                let (addr, path) = (addr.clone(), large_path.clone());
                std::thread::spawn(move || {
                    let (status, _, _) = request(&addr, "GET", &path, "");
                    (status, Instant::now())
                })
            })
            .collect();
        std::thread::sleep(Duration::from_millis(20));
        let (status, body, took) = request(&addr, "GET", &small_path, "");
        let answered = Instant::now();
        assert_eq!(status, 200, "{body}");
        let mut before = 0;
        for h in heavy {
            let (status, done) = h.join().unwrap();
            assert_eq!(status, 200);
            if done < answered {
                before += 1;
            }
        }
        fewest = fewest.min(before);
        during = during.min(took);
    }
    eprintln!(
        "one large view alone: {alone:?}; a small request during ten: {during:?}, \
         answered after {fewest} of them"
    );
    assert_eq!(
        fewest, 0,
        "a small request was answered only after {fewest} of ten large views \
         (it took {during:?}; one large view alone takes {alone:?})"
    );
}
