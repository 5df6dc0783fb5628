//! A UCI engine in a child process, driven line by line.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Why talking to an engine failed.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error("cannot start engine '{0}': {1}")]
    Start(String, std::io::Error),
    #[error("the engine command is empty")]
    EmptyCommand,
    #[error("engine {0} closed its output (crashed or quit)")]
    Closed(String),
    #[error("engine {0} did not answer '{1}' within {2:?}")]
    Timeout(String, String, Duration),
    #[error("cannot write to engine {0}: {1}")]
    Write(String, std::io::Error),
}

/// A running UCI engine.
pub struct UciEngine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// The name it gave (`id name`), or its command.
    pub name: String,
    /// The options it announced.
    pub options: Vec<String>,
}

/// What an engine answered to `go`.
pub struct Answer {
    pub bestmove: String,
    /// The last score it reported, from its side: centipawns (mates as
    /// +-100000 minus the distance).
    pub score: Option<i32>,
    pub elapsed: Duration,
}

const HANDSHAKE: Duration = Duration::from_secs(20);

impl UciEngine {
    /// Starts `command` (program and arguments separated by spaces), does
    /// the UCI handshake and sets `options` (`Name=Value`).
    pub fn start(command: &str, options: &[(String, String)]) -> Result<UciEngine, EngineError> {
        let mut words = command.split_whitespace();
        let program = words.next().ok_or(EngineError::EmptyCommand)?;
        let mut child = Command::new(program)
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| EngineError::Start(command.to_string(), e))?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut engine = UciEngine {
            child,
            stdin,
            lines,
            name: command.to_string(),
            options: Vec::new(),
        };
        engine.send("uci")?;
        loop {
            let line = engine.recv("uci", Instant::now() + HANDSHAKE)?;
            if let Some(name) = line.strip_prefix("id name ") {
                engine.name = name.trim().to_string();
            } else if let Some(opt) = line.strip_prefix("option name ") {
                let name = opt.split(" type ").next().unwrap_or(opt).trim();
                engine.options.push(name.to_string());
            } else if line.trim() == "uciok" {
                break;
            }
        }
        for (name, value) in options {
            engine.send(&format!("setoption name {name} value {value}"))?;
        }
        engine.ready()?;
        Ok(engine)
    }

    /// Whether the engine announced the option `name`.
    pub fn has_option(&self, name: &str) -> bool {
        self.options.iter().any(|o| o.eq_ignore_ascii_case(name))
    }

    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| EngineError::Write(self.name.clone(), e))
    }

    fn recv(&mut self, waiting_for: &str, deadline: Instant) -> Result<String, EngineError> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(EngineError::Timeout(
                self.name.clone(),
                waiting_for.to_string(),
                left,
            )),
            Err(RecvTimeoutError::Disconnected) => Err(EngineError::Closed(self.name.clone())),
        }
    }

    /// `isready` until `readyok`.
    pub fn ready(&mut self) -> Result<(), EngineError> {
        self.send("isready")?;
        let deadline = Instant::now() + HANDSHAKE;
        while self.recv("isready", deadline)?.trim() != "readyok" {}
        Ok(())
    }

    /// Sends `position` and `go`, and waits for `bestmove` until `limit`.
    pub fn go(&mut self, position: &str, go: &str, limit: Duration) -> Result<Answer, EngineError> {
        self.send(position)?;
        self.send(go)?;
        let start = Instant::now();
        let deadline = start + limit;
        let mut score = None;
        loop {
            let line = self.recv("go", deadline)?;
            let mut words = line.split_whitespace();
            match words.next() {
                Some("bestmove") => {
                    let bestmove = words.next().unwrap_or("").to_string();
                    return Ok(Answer {
                        bestmove,
                        score,
                        elapsed: start.elapsed(),
                    });
                }
                Some("info") => {
                    let tokens: Vec<&str> = line.split_whitespace().collect();
                    let multipv = tokens
                        .windows(2)
                        .find(|w| w[0] == "multipv")
                        .and_then(|w| w[1].parse::<u32>().ok())
                        .unwrap_or(1);
                    if multipv != 1 {
                        continue;
                    }
                    if let Some(w) = tokens.windows(3).find(|w| w[0] == "score") {
                        let v = w[2].parse::<i32>().ok();
                        score = match (w[1], v) {
                            ("cp", Some(cp)) => Some(cp),
                            ("mate", Some(n)) if n > 0 => Some(100_000 - n),
                            ("mate", Some(n)) => Some(-100_000 - n),
                            _ => score,
                        };
                    }
                }
                _ => {}
            }
        }
    }

    /// Asks the engine to quit, and kills it if it does not.
    pub fn quit(mut self) {
        let _ = self.send("quit");
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
