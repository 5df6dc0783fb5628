//! What a chat line may be, and the per-author flood limit.

use super::MAX_CHARS;
use crate::error::ApiError;
use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

/// The line `text` as kept: trimmed, 1 to [`MAX_CHARS`] characters, with
/// no control characters (line breaks, tabs, escapes); anything else is a
/// 400 with its reason. HTML is text like any other: the page shows it as
/// written.
pub(crate) fn line(text: &str) -> Result<String, ApiError> {
    let t = text.trim();
    if t.is_empty() {
        return Err(ApiError::BadRequest("a chat line is not empty".into()));
    }
    if t.chars().any(char::is_control) {
        return Err(ApiError::BadRequest(
            "a chat line has no control characters (line breaks, tabs)".into(),
        ));
    }
    let n = t.chars().count();
    if n > MAX_CHARS {
        return Err(ApiError::BadRequest(format!(
            "a chat line has at most {MAX_CHARS} characters; this one has {n}"
        )));
    }
    Ok(t.to_string())
}

/// The times of each author's latest lines: an author (an account, or an
/// anonymous seat) writes at most `lines` lines in `window_ms`.
pub(crate) struct Flood {
    lines: usize,
    window_ms: i64,
    recent: Mutex<HashMap<String, VecDeque<i64>>>,
}

impl Flood {
    pub(crate) fn new(lines: usize, window_ms: i64) -> Flood {
        Flood {
            lines,
            window_ms,
            recent: Mutex::new(HashMap::new()),
        }
    }

    /// Counts a line of `author` at `now`, or refuses it (429) when the
    /// author wrote its allowance in the window.
    pub(crate) fn take(&self, author: &str, now: i64) -> Result<(), ApiError> {
        let mut recent = self.recent.lock().unwrap_or_else(|e| e.into_inner());
        let window = self.window_ms;
        if recent.len() > 100_000 {
            recent.retain(|_, t| t.back().is_some_and(|&b| now.saturating_sub(b) < window));
        }
        let times = recent.entry(author.to_string()).or_default();
        while times
            .front()
            .is_some_and(|&t| now.saturating_sub(t) >= window)
        {
            times.pop_front();
        }
        if times.len() >= self.lines {
            return Err(ApiError::TooManyRequests(format!(
                "you are writing too fast: at most {} lines in {} seconds",
                self.lines,
                window / 1000
            )));
        }
        times.push_back(now);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_is_trimmed_and_checked() {
        assert_eq!(line("  hi <b>you</b> ").unwrap(), "hi <b>you</b>");
        assert!(line("   ").is_err());
        assert!(line("a\nb").is_err());
        assert!(line("a\u{1b}[31m").is_err());
        assert!(line(&"é".repeat(MAX_CHARS)).is_ok());
        assert!(line(&"é".repeat(MAX_CHARS + 1)).is_err());
    }

    #[test]
    fn an_author_is_refused_over_the_limit_until_the_window_moves() {
        let f = Flood::new(2, 1000);
        assert!(f.take("a", 0).is_ok());
        assert!(f.take("a", 10).is_ok());
        assert!(f.take("a", 20).is_err());
        assert!(f.take("b", 20).is_ok());
        assert!(f.take("a", 1000).is_ok());
        assert!(f.take("a", 1005).is_err());
        assert!(f.take("a", 1010).is_ok());
    }
}
