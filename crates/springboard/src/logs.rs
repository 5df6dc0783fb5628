//! The process's logs: a `tracing` subscriber writing to standard error
//! (standard output belongs to the UCI and XBoard protocols), as text or
//! JSON lines, filtered by `--log-level`, else `SPRINGBOARD_LOG`, else
//! `RUST_LOG`, else the command's default; and a panic hook that logs every
//! panic with its place.

use std::io::IsTerminal;
use tracing_subscriber::EnvFilter;

/// The crates whose level a bare level names; others stay at `warn` at
/// most (the database driver, HTTP).
const OURS: [&str; 4] = [
    "springboard",
    "springboard_web",
    "springboard_engine",
    "springboard_rules",
];

/// How log lines are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// One human-readable line per event.
    #[default]
    Text,
    /// One JSON object per line (fields flattened; spans under `span`).
    Json,
}

/// The filter directives: `--log-level`, else `SPRINGBOARD_LOG`, else
/// `RUST_LOG`, else `default`. A bare level (`debug`) applies to
/// Springboard's crates, the others log at `warn` or quieter; anything
/// else is read as `EnvFilter` directives (`info,sqlx=debug`).
pub fn directives(flag: Option<&str>, default: &str) -> String {
    let given = flag
        .map(str::to_string)
        .or_else(|| std::env::var("SPRINGBOARD_LOG").ok())
        .or_else(|| std::env::var("RUST_LOG").ok())
        .filter(|s| !s.trim().is_empty());
    let text = given.unwrap_or_else(|| default.to_string());
    let level = text.trim().to_ascii_lowercase();
    let others = match level.as_str() {
        "off" => "off",
        "error" => "error",
        "warn" | "info" | "debug" | "trace" => "warn",
        _ => return text,
    };
    let mut out = others.to_string();
    for c in OURS {
        out.push_str(&format!(",{c}={level}"));
    }
    out
}

/// Installs the subscriber (standard error) and the panic hook. Fails on
/// directives `EnvFilter` cannot read.
pub fn init(flag: Option<&str>, format: LogFormat, default: &str) -> anyhow::Result<()> {
    let directives = directives(flag, default);
    let filter = EnvFilter::try_new(&directives)
        .map_err(|e| anyhow::anyhow!("bad log level '{directives}': {e}"))?;
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    let result = match format {
        LogFormat::Text => builder
            .with_ansi(std::io::stderr().is_terminal())
            .try_init(),
        LogFormat::Json => builder
            .json()
            .flatten_event(true)
            .with_current_span(true)
            .with_span_list(false)
            .try_init(),
    };
    result.map_err(|e| anyhow::anyhow!("cannot start the logs: {e}"))?;
    install_panic_hook();
    Ok(())
}

/// Every panic (in any thread: a request handler, an engine job, the
/// search thread) is logged at error with its message, place and thread,
/// inside the span it happened in. When the logs drop errors (level off),
/// the standard hook prints it instead.
pub fn install_panic_hook() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if !tracing::enabled!(target: "panic", tracing::Level::ERROR) {
            previous(info);
            return;
        }
        let message = crate::searcher::panic_message(info.payload());
        let location = info
            .location()
            .map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column()))
            .unwrap_or_else(|| "unknown".to_string());
        let thread = std::thread::current();
        let thread = thread.name().unwrap_or("unnamed");
        tracing::error!(target: "panic", location = %location, thread, "panicked: {message}");
    }));
}

#[cfg(test)]
pub mod tests {
    use super::*;
    use std::io::Write;
    use std::sync::{Arc, Mutex, OnceLock};

    /// What the test subscriber wrote (JSON lines).
    #[derive(Clone, Default)]
    pub struct Captured(Arc<Mutex<Vec<u8>>>);

    impl Write for Captured {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Captured {
        /// The lines logged so far, as JSON.
        pub fn lines(&self) -> Vec<serde_json::Value> {
            let bytes = self.0.lock().unwrap_or_else(|e| e.into_inner()).clone();
            String::from_utf8_lossy(&bytes)
                .lines()
                .filter_map(|l| serde_json::from_str(l).ok())
                .collect()
        }
    }

    /// One subscriber for the whole test process (JSON into a buffer, as
    /// `--log-format json` writes it), with the panic hook.
    pub fn capture() -> Captured {
        static CAPTURED: OnceLock<Captured> = OnceLock::new();
        CAPTURED
            .get_or_init(|| {
                let captured = Captured::default();
                let writer = captured.clone();
                tracing_subscriber::fmt()
                    .with_env_filter(EnvFilter::new("warn,springboard=debug,panic=error"))
                    .with_writer(move || writer.clone())
                    .json()
                    .flatten_event(true)
                    .try_init()
                    .expect("the test subscriber is the first");
                install_panic_hook();
                captured
            })
            .clone()
    }

    #[test]
    fn a_bare_level_is_for_springboards_crates() {
        assert_eq!(
            directives(Some("debug"), "info"),
            "warn,springboard=debug,springboard_web=debug,springboard_engine=debug,springboard_rules=debug"
        );
        assert_eq!(
            directives(Some("OFF"), "info"),
            "off,springboard=off,springboard_web=off,springboard_engine=off,springboard_rules=off"
        );
        assert_eq!(
            directives(Some("info,sqlx=debug"), "info"),
            "info,sqlx=debug"
        );
        EnvFilter::try_new(directives(Some("debug"), "info")).unwrap();
    }

    #[test]
    fn a_panic_is_logged_with_its_message_and_place() {
        let captured = capture();
        let caught = std::thread::Builder::new()
            .name("doomed".into())
            .spawn(|| panic!("a panic the log must show 7431"))
            .unwrap()
            .join();
        assert!(caught.is_err());
        let line = captured
            .lines()
            .into_iter()
            .find(|l| {
                l["message"]
                    .as_str()
                    .is_some_and(|m| m.contains("a panic the log must show 7431"))
            })
            .expect("the panic is logged");
        assert_eq!(line["level"], "ERROR");
        assert_eq!(line["target"], "panic");
        assert_eq!(line["thread"], "doomed");
        assert!(
            line["location"]
                .as_str()
                .is_some_and(|l| l.contains("logs.rs")),
            "{line}"
        );
    }
}
