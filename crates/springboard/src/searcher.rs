//! Runs the engine in a thread so that a protocol loop keeps reading
//! commands (`stop`, `ponderhit`, `isready`) while it thinks. Shared by the
//! UCI and XBoard front ends.

use springboard_engine::{Engine, Info, Limits, SearchResult, Signals};
use springboard_rules::Position;
use std::io::Write;
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

/// The engine and the search running on it, if any.
pub struct Searcher {
    engine: Arc<Mutex<Engine>>,
    running: Option<(JoinHandle<()>, Arc<Signals>)>,
}

impl Searcher {
    pub fn new(engine: Engine) -> Searcher {
        Searcher {
            engine: Arc::new(Mutex::new(engine)),
            running: None,
        }
    }

    /// Starts a search; `done` receives its result in the search thread.
    /// A running search is stopped first.
    pub fn start(
        &mut self,
        root: Position,
        history: Vec<u64>,
        limits: Limits,
        ponder: bool,
        mut on_info: impl FnMut(&Info) + Send + 'static,
        done: impl FnOnce(SearchResult) + Send + 'static,
    ) {
        self.stop();
        let signals = Arc::new(Signals::with_ponder(ponder));
        let engine = Arc::clone(&self.engine);
        let sig = Arc::clone(&signals);
        let handle = std::thread::spawn(move || {
            let result = {
                let mut engine = engine.lock().unwrap_or_else(PoisonError::into_inner);
                engine.search(&root, &history, &limits, &sig, &mut on_info)
            };
            done(result);
        });
        self.running = Some((handle, signals));
    }

    /// Whether a search is running.
    #[cfg(test)]
    pub fn is_running(&self) -> bool {
        self.running.as_ref().is_some_and(|(h, _)| !h.is_finished())
    }

    /// Stops the running search (if any) and waits for its result.
    pub fn stop(&mut self) {
        if let Some((_, signals)) = &self.running {
            signals.stop();
        }
        self.wait();
    }

    /// Waits for the running search to end by itself.
    pub fn wait(&mut self) {
        if let Some((handle, _)) = self.running.take() {
            // A panic in the search thread was already reported by it.
            let _ = handle.join();
        }
    }

    /// The opponent played the expected move: the pondering search now
    /// plays under its clock.
    pub fn ponderhit(&self) {
        if let Some((_, signals)) = &self.running {
            signals.ponderhit();
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
