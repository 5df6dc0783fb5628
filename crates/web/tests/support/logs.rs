//! The log lines of a test process, captured as JSON (the layout of
//! `--log-format json`) by a global tracing subscriber.

use std::io::Write;
use std::sync::{Arc, Mutex, OnceLock};

/// Every log line of this test process so far (JSON, one a line).
#[derive(Clone, Default)]
pub struct Captured(pub Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Captured {
    /// Everything logged so far, as text.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }
}

/// Installs the process's subscriber with `filter` (an `EnvFilter`
/// directive) on the first call, and gives its captured lines; a test
/// binary passes the same filter every time.
pub fn capture(filter: &str) -> &'static Captured {
    static LOGS: OnceLock<Captured> = OnceLock::new();
    LOGS.get_or_init(|| {
        let captured = Captured::default();
        let writer = captured.clone();
        tracing_subscriber::fmt()
            .with_env_filter(tracing_subscriber::EnvFilter::new(filter))
            .with_writer(move || writer.clone())
            .json()
            .flatten_event(true)
            .init();
        captured
    })
}
