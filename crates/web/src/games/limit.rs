//! The creation limiter: new games per client address and minute.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;

/// Creations per client address in the current minute.
pub(crate) struct Limiter {
    pub(crate) per_minute: u32,
    pub(crate) windows: Mutex<HashMap<IpAddr, (i64, u32)>>,
}

impl Limiter {
    /// Counts one creation by `ip` at `now`; false when over the limit.
    pub(crate) fn allow(&self, ip: IpAddr, now: i64) -> bool {
        let mut w = self.windows.lock().unwrap_or_else(|e| e.into_inner());
        if w.len() > 100_000 {
            w.retain(|_, (start, _)| now.saturating_sub(*start) < 60_000);
        }
        let entry = w.entry(ip).or_insert((now, 0));
        if now.saturating_sub(entry.0) >= 60_000 {
            *entry = (now, 0);
        }
        if entry.1 >= self.per_minute {
            return false;
        }
        entry.1 += 1;
        true
    }
}
