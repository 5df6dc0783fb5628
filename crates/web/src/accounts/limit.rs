//! Counting failures per key (a client address, an account) in a window,
//! as the app's creation limiter (`state.rs`) counts creations: a key over
//! its limit is refused until its window ends.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::Mutex;

/// Failed sign-ins allowed per client address in a window.
pub const SIGN_IN_FAILURES_PER_ADDRESS: u32 = 20;
/// Failed sign-ins allowed per account in a window.
pub const SIGN_IN_FAILURES_PER_ACCOUNT: u32 = 5;
/// Sign-ups allowed per client address in a window.
pub const SIGN_UPS_PER_ADDRESS: u32 = 10;
/// The windows of the sign-in and sign-up limits (ms): 5 minutes.
pub const WINDOW_MS: i64 = 300_000;

/// Counts per key in the current window.
pub(crate) struct Counter<K> {
    pub(crate) limit: u32,
    windows: Mutex<HashMap<K, (i64, u32)>>,
}

impl<K: Eq + Hash> Counter<K> {
    pub(crate) fn new(limit: u32) -> Counter<K> {
        Counter {
            limit,
            windows: Mutex::new(HashMap::new()),
        }
    }

    /// Whether `key` has used its allowance in the window holding `now`.
    pub(crate) fn over(&self, key: &K, now: i64) -> bool {
        let w = self.windows.lock().unwrap_or_else(|e| e.into_inner());
        w.get(key)
            .is_some_and(|(start, n)| now.saturating_sub(*start) < WINDOW_MS && *n >= self.limit)
    }

    /// Counts one for `key` at `now`.
    pub(crate) fn count(&self, key: K, now: i64) {
        let mut w = self.windows.lock().unwrap_or_else(|e| e.into_inner());
        if w.len() > 100_000 {
            w.retain(|_, (start, _)| now.saturating_sub(*start) < WINDOW_MS);
        }
        let entry = w.entry(key).or_insert((now, 0));
        if now.saturating_sub(entry.0) >= WINDOW_MS {
            *entry = (now, 0);
        }
        entry.1 = entry.1.saturating_add(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_refused_over_its_limit_until_the_window_ends() {
        let c = Counter::new(2);
        assert!(!c.over(&"a", 0));
        c.count("a", 0);
        c.count("a", 10);
        assert!(c.over(&"a", 20));
        assert!(!c.over(&"b", 20));
        assert!(!c.over(&"a", WINDOW_MS));
        c.count("a", WINDOW_MS);
        assert!(!c.over(&"a", WINDOW_MS + 1));
    }
}
