//! The engine pool: every engine search of the server (engine moves and
//! analyses) waits for one of a few workers, so engine work is bounded
//! whatever the number of requests (issue 16 item 5). A game has at most
//! one engine move job: a newer one replaces it, and any change of the
//! game stops it (the game's stop flag).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// The pool's workers and the games with an engine move job.
pub struct Pool {
    workers: Arc<Semaphore>,
    /// Game id -> the token of its job (a newer job replaces it).
    jobs: Mutex<HashMap<String, u64>>,
    next: Mutex<u64>,
}

impl Pool {
    pub fn new(workers: usize) -> Pool {
        Pool {
            workers: Arc::new(Semaphore::new(workers.max(1))),
            jobs: Mutex::new(HashMap::new()),
            next: Mutex::new(0),
        }
    }

    fn jobs(&self) -> std::sync::MutexGuard<'_, HashMap<String, u64>> {
        self.jobs.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits for a free worker.
    pub async fn worker(&self) -> OwnedSemaphorePermit {
        Arc::clone(&self.workers)
            .acquire_owned()
            .await
            .expect("the pool's semaphore is never closed")
    }

    /// Registers an engine move job for `id`; the token identifies it.
    pub fn start_job(&self, id: &str) -> u64 {
        let mut next = self.next.lock().unwrap_or_else(|e| e.into_inner());
        *next += 1;
        self.jobs().insert(id.to_string(), *next);
        *next
    }

    /// Whether job `token` is still the job of `id`.
    pub fn is_current(&self, id: &str, token: u64) -> bool {
        self.jobs().get(id) == Some(&token)
    }

    /// Ends job `token` of `id` (if it is still the current one).
    pub fn end_job(&self, id: &str, token: u64) {
        let mut jobs = self.jobs();
        if jobs.get(id) == Some(&token) {
            jobs.remove(id);
        }
    }

    /// Whether the engine has a move job for game `id`.
    pub fn thinking(&self, id: &str) -> bool {
        self.jobs().contains_key(id)
    }
}
