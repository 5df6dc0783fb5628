//! Runs the engine in a thread so that a protocol loop keeps reading
//! commands (`stop`, `ponderhit`, `isready`) while it thinks. Shared by the
//! UCI and XBoard front ends. Other long work (`go perft`) runs in the same
//! kind of thread, with the same stop signal.

use springboard_engine::{Engine, Info, Limits, SearchResult, Signals};
use springboard_rules::Position;
use std::any::Any;
use std::io::{BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;

/// The output of a protocol session, shared with the search thread.
pub type Out = Arc<Mutex<Box<dyn Write + Send>>>;

/// An output for `w`.
pub fn out(w: impl Write + Send + 'static) -> Out {
    Arc::new(Mutex::new(Box::new(w)))
}

/// Writes one line and flushes it.
pub fn say(out: &Out, line: &str) -> std::io::Result<()> {
    let mut w = out.lock().unwrap_or_else(PoisonError::into_inner);
    writeln!(w, "{line}")?;
    w.flush()
}

/// The longest command line a protocol session reads (1 MiB: a
/// `position ... moves` line of a thousand-turn game is some 10 kB).
pub const MAX_LINE: usize = 1 << 20;

/// One line of protocol input.
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    Text(String),
    /// The line is not UTF-8.
    NotUtf8,
    /// The line is longer than the limit; it was skipped, never held whole.
    TooLong,
}

/// Reads the next line of `input` (its end of line removed), holding at
/// most `max` bytes of it; `None` at the end of the input.
pub fn read_line(input: &mut impl BufRead, max: usize) -> std::io::Result<Option<Line>> {
    let mut buf = Vec::new();
    let mut fits = true;
    let mut any = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            break;
        }
        any = true;
        let end = chunk.iter().position(|&b| b == b'\n');
        let part = &chunk[..end.unwrap_or(chunk.len())];
        if fits {
            if buf.len() + part.len() > max {
                fits = false;
                buf = Vec::new();
            } else {
                buf.extend_from_slice(part);
            }
        }
        let used = end.map_or(chunk.len(), |i| i + 1);
        input.consume(used);
        if end.is_some() {
            break;
        }
    }
    if !any {
        return Ok(None);
    }
    if !fits {
        return Ok(Some(Line::TooLong));
    }
    Ok(Some(match String::from_utf8(buf) {
        Ok(text) => Line::Text(text),
        Err(_) => Line::NotUtf8,
    }))
}

/// At most `max` characters of `text` (for echoing input in errors).
pub fn clip(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((i, _)) => format!("{}... ({} bytes)", &text[..i], text.len()),
        None => text.to_string(),
    }
}

/// The message of a caught panic.
pub fn panic_message(payload: &(dyn Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_string())
}

/// Logs a panic caught in the search thread (the panic hook has logged
/// where it happened); gives the message back.
fn caught(message: String, work: &'static str) -> String {
    tracing::error!(work, error = %message, "the search thread panicked; the session goes on");
    message
}

/// How the work in the thread ends, besides by `stop`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ends {
    /// By itself (a search with limits): `quit` stops it, the end of the
    /// input waits for it.
    ByItself,
    /// Only when told (`go infinite`, pondering, no limit): `quit` and the
    /// end of the input stop it.
    WhenTold,
    /// At the end of its count (`go perft`, Stockfish's convention: a
    /// piped `go perft N` then `quit` prints the full count): `quit` and
    /// the end of the input wait for it.
    AtItsEnd,
}

/// The work running in the thread.
struct Running {
    handle: JoinHandle<()>,
    signals: Arc<Signals>,
    ends: Ends,
}

/// The engine and the search (or other job) running on it, if any.
pub struct Searcher {
    engine: Arc<Mutex<Engine>>,
    running: Option<Running>,
}

impl Searcher {
    pub fn new(engine: Engine) -> Searcher {
        Searcher {
            engine: Arc::new(Mutex::new(engine)),
            running: None,
        }
    }

    /// Starts a search; `done` receives its result in the search thread.
    /// A running search is stopped first. A panic in the search is caught
    /// and logged; `done` is not called then (see
    /// [`Searcher::start_guarded`] to answer it).
    pub fn start(
        &mut self,
        root: Position,
        history: Vec<u64>,
        limits: Limits,
        ponder: bool,
        on_info: impl FnMut(&Info) + Send + 'static,
        done: impl FnOnce(SearchResult) + Send + 'static,
    ) {
        // The panic is logged where it is caught.
        self.start_guarded(root, history, limits, ponder, on_info, done, |_| {});
    }

    /// [`Searcher::start`], where `failed` receives the message of a panic
    /// in the search instead of `done` receiving a result.
    #[allow(clippy::too_many_arguments)]
    pub fn start_guarded(
        &mut self,
        root: Position,
        history: Vec<u64>,
        limits: Limits,
        ponder: bool,
        mut on_info: impl FnMut(&Info) + Send + 'static,
        done: impl FnOnce(SearchResult) + Send + 'static,
        failed: impl FnOnce(String) + Send + 'static,
    ) {
        let ends = if ponder || !limits.is_bounded() {
            Ends::WhenTold
        } else {
            Ends::ByItself
        };
        let engine = Arc::clone(&self.engine);
        self.spawn(ponder, ends, move |sig| {
            let result = catch_unwind(AssertUnwindSafe(|| {
                let mut engine = engine.lock().unwrap_or_else(PoisonError::into_inner);
                engine.search(&root, &history, &limits, sig, &mut on_info)
            }));
            match result {
                Ok(result) => done(result),
                Err(panic) => failed(caught(panic_message(panic.as_ref()), "search")),
            }
        });
    }

    /// Runs `job` in the thread (after stopping what runs): it gets the
    /// stop signal and ends when told by `stop`, or by itself; `quit` and
    /// the end of the input wait for it (a count such as `go perft`). A
    /// panic in it is caught and handed to `failed`.
    pub fn run(
        &mut self,
        job: impl FnOnce(&Signals) + Send + 'static,
        failed: impl FnOnce(String) + Send + 'static,
    ) {
        self.spawn(false, Ends::AtItsEnd, move |sig| {
            if let Err(panic) = catch_unwind(AssertUnwindSafe(|| job(sig))) {
                failed(caught(panic_message(panic.as_ref()), "job"));
            }
        });
    }

    fn spawn(&mut self, ponder: bool, ends: Ends, work: impl FnOnce(&Signals) + Send + 'static) {
        self.stop();
        let signals = Arc::new(Signals::with_ponder(ponder));
        let sig = Arc::clone(&signals);
        let handle = std::thread::spawn(move || work(&sig));
        self.running = Some(Running {
            handle,
            signals,
            ends,
        });
    }

    /// Whether a search is running.
    #[cfg(test)]
    pub fn is_running(&self) -> bool {
        self.running
            .as_ref()
            .is_some_and(|r| !r.handle.is_finished())
    }

    /// Stops the running search (if any) and waits for its result.
    pub fn stop(&mut self) {
        if let Some(r) = &self.running {
            r.signals.stop();
        }
        self.wait();
    }

    /// Waits for the running search to end by itself.
    pub fn wait(&mut self) {
        if let Some(r) = self.running.take() {
            // A panic in the thread was caught and answered by it.
            let _ = r.handle.join();
        }
    }

    /// The end of the input: work with limits (a search with limits,
    /// perft) runs to its end, work that ends only when told (infinite or
    /// pondering searches) stops.
    pub fn finish(&mut self) {
        if self.running_ends() == Some(Ends::WhenTold) {
            self.stop();
        } else {
            self.wait();
        }
    }

    /// `quit`: a search stops, a count (perft) runs to its end.
    pub fn quit(&mut self) {
        if self.running_ends() == Some(Ends::AtItsEnd) {
            self.wait();
        } else {
            self.stop();
        }
    }

    fn running_ends(&self) -> Option<Ends> {
        self.running.as_ref().map(|r| r.ends)
    }

    /// The opponent played the expected move: the pondering search now
    /// plays under its clock.
    pub fn ponderhit(&self) {
        if let Some(r) = &self.running {
            r.signals.ponderhit();
        }
    }

    /// The engine, once no search runs (a running one is stopped).
    pub fn engine(&mut self) -> MutexGuard<'_, Engine> {
        self.stop();
        self.engine.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Drop for Searcher {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The keys of the positions before the current one since the last
/// irreversible move, oldest first (what the search needs for repetitions).
pub fn history_keys(game: &springboard_rules::Game) -> Vec<u64> {
    let positions = game.positions();
    let current = game.position();
    let window = (current.halfmove_clock() as usize).min(positions.len() - 1);
    positions[positions.len() - 1 - window..positions.len() - 1]
        .iter()
        .map(|p| p.hash())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_read_bounded() {
        let mut input = &b"isready\r\n\xff\n0123456789\nabc\nlast"[..];
        let mut lines = Vec::new();
        while let Some(line) = read_line(&mut input, 5).unwrap() {
            lines.push(line);
        }
        assert_eq!(
            lines,
            [
                Line::TooLong,
                Line::NotUtf8,
                Line::TooLong,
                Line::Text("abc".into()),
                Line::Text("last".into())
            ]
        );
        let mut input = &b"isready\r\n\n"[..];
        assert_eq!(
            read_line(&mut input, 10).unwrap(),
            Some(Line::Text("isready\r".into()))
        );
        assert_eq!(
            read_line(&mut input, 10).unwrap(),
            Some(Line::Text(String::new()))
        );
        assert_eq!(read_line(&mut input, 10).unwrap(), None);
    }

    #[test]
    fn a_panic_in_the_search_thread_is_logged_where_it_is_caught() {
        let captured = crate::logs::tests::capture();
        let mut searcher = Searcher::new(Engine::new(1));
        searcher.run(|_| panic!("the search broke 5519"), |_| {});
        searcher.wait();
        let lines = captured.lines();
        let has = |pred: &dyn Fn(&serde_json::Value) -> bool| lines.iter().any(pred);
        // The hook's line: message and place.
        assert!(
            has(&|l| l["message"] == "panicked: the search broke 5519"
                && l["location"]
                    .as_str()
                    .is_some_and(|p| p.contains("searcher.rs"))),
            "{lines:?}"
        );
        // The catch's line.
        assert!(
            has(&|l| l["level"] == "ERROR"
                && l["error"] == "the search broke 5519"
                && l["work"] == "job"),
            "{lines:?}"
        );
    }

    #[test]
    fn a_job_that_panics_is_answered() {
        let mut searcher = Searcher::new(Engine::new(1));
        let (tx, rx) = std::sync::mpsc::channel();
        searcher.run(|_| panic!("perft broke"), move |e| tx.send(e).unwrap());
        searcher.wait();
        assert_eq!(rx.recv().unwrap(), "perft broke");
        // A job sees `stop`.
        let (tx, rx) = std::sync::mpsc::channel();
        searcher.run(
            move |signals| {
                while !signals.is_stopped() {
                    std::thread::yield_now();
                }
                tx.send("stopped").unwrap();
            },
            |_| {},
        );
        searcher.stop();
        assert_eq!(rx.recv().unwrap(), "stopped");
    }

    #[test]
    fn clip_keeps_short_texts() {
        assert_eq!(clip("abc", 3), "abc");
        assert_eq!(clip("abcd", 3), "abc... (4 bytes)");
        assert_eq!(clip("ééé", 2), "éé... (6 bytes)");
    }
}
