//! Issue 16 item 7: building a large game view must not hold up requests
//! about other games. A Hop Chess position with 5,141 legal moves makes a
//! view of about 0.55 MB (every move with its SAN); ten GETs of it at once
//! used to delay a request about another, small game by the time of all
//! ten (one global lock held while views were built, then the async
//! workers busy building them). The test sends the small request while
//! ten large views are being built: it must be answered before any of
//! them (an order, not a time limit). Plain std over TCP against
//! `springboard serve`, so it runs against any version of the server.

use std::process::Stdio;
use std::time::{Duration, Instant};

/// Many legal moves: two queens, two rooks, two bishops and two knights in
/// the open, trampolines on c6 and f6.
const LARGE: &str = "6k1/8/1N4N1/1B4B1/3QQ3/8/8/R3K2R w - - 0 1 c6,f6 -";

mod support;
use support::Server;

fn start() -> (Server, String) {
    let server = Server::start_fresh("view-lock", |c| {
        c.stderr(Stdio::null());
    });
    let addr = server.addr.clone();
    (server, addr)
}

/// One request: its status, body and how long the answer took.
fn request(addr: &str, method: &str, path: &str, body: &str) -> (u16, String, Duration) {
    let start = Instant::now();
    let (status, body) = support::http(addr, method, path, "", body);
    (status, body, start.elapsed())
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
