//! The XBoard/WinBoard front end (CECP, protocol version 2, with H.G.
//! Muller's extensions of XBoard 4.8: engine-defined variants with `setup`
//! and `piece`, `highlight` answers to `lift` and `put`, multi-leg moves).
//! The engine thinks in a thread; its move is played on the shared game
//! before `move ...` is written, so the next command sees it. See
//! docs/xboard.md.

//!
//! The session and its command loop are here; the clocks in `clock`, the
//! moves played (the opponent's and the engine's) in `play`, `lift` and
//! `put` in `lift`, the lines written in `output`.

mod board;
mod clicks;
mod clock;
mod lift;
mod notation;
mod output;
mod play;
#[cfg(test)]
mod tests;

use crate::searcher::{say, Out, Searcher};
use anyhow::Result;
use clicks::Lifted;
use clock::{parse_base, parse_secs, Clock};
use notation::parse_xboard;
use output::{trampoline_marks, xboard_name};
use springboard_engine::Engine;
use springboard_rules::{Color, Game, Position, Variant};
use std::io::BufRead;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// The transposition table of a session, in megabytes.
const HASH_MB: usize = 64;

/// What the session does after a command.
#[derive(Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

/// The state the search thread also touches.
struct Shared {
    game: Game,
}

/// One XBoard session.
pub struct Session {
    shared: Arc<Mutex<Shared>>,
    searcher: Searcher,
    out: Out,
    variant: Variant,
    /// The side the engine plays; `None` in force mode.
    engine_color: Option<Color>,
    clock: Clock,
    post: bool,
    /// The piece lifted in XBoard's board, with the squares put so far.
    lifted: Option<Lifted>,
}

fn lock(shared: &Mutex<Shared>) -> MutexGuard<'_, Shared> {
    shared.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Session {
    pub fn new(out: Out) -> Session {
        Session::with_hash(out, HASH_MB)
    }

    /// [`Session::new`] with a transposition table of `hash_mb` megabytes.
    pub fn with_hash(out: Out, hash_mb: usize) -> Session {
        Session {
            shared: Arc::new(Mutex::new(Shared {
                game: Game::new(Position::startpos(Variant::Chess)),
            })),
            searcher: Searcher::new(Engine::new(hash_mb)),
            out,
            variant: Variant::Chess,
            engine_color: Some(Color::Black),
            clock: Clock::default(),
            post: false,
            lifted: None,
        }
    }

    /// Waits for the engine's move, if it is thinking.
    pub fn wait(&mut self) {
        self.searcher.wait();
    }

    /// The current position.
    pub fn position(&self) -> Position {
        lock(&self.shared).game.position().clone()
    }

    fn say(&self, line: &str) -> std::io::Result<()> {
        say(&self.out, line)
    }

    fn error(&self, cmd: &str, why: &str) -> std::io::Result<()> {
        self.say(&format!("Error ({why}): {cmd}"))
    }

    /// Handles one command line.
    pub fn handle(&mut self, line: &str) -> std::io::Result<Flow> {
        let line = line.trim();
        let (cmd, rest) = line
            .split_once(char::is_whitespace)
            .map(|(c, r)| (c, r.trim()))
            .unwrap_or((line, ""));
        // A lifted piece lives until the move is made or anything else happens.
        if !matches!(cmd, "lift" | "put" | "hover") {
            self.lifted = None;
        }
        match cmd {
            "" | "xboard" | "accepted" | "rejected" | "computer" | "random" | "hard" | "easy"
            | "name" | "rating" | "ics" | "draw" | "hint" | "bk" | "." | "exit" => {}
            "protover" => {
                let variants: Vec<&str> = Variant::implemented().map(xboard_name).collect();
                self.say(&format!(
                    "feature myname=\"Springboard {}\" ping=1 setboard=1 usermove=1 san=0 time=1 draw=0 sigint=0 sigterm=0 reuse=1 analyze=0 colors=0 name=0 nps=0 highlight=1 variants=\"{}\" done=1",
                    env!("CARGO_PKG_VERSION"),
                    variants.join(",")
                ))?;
            }
            "new" => {
                self.searcher.stop();
                self.variant = Variant::Chess;
                lock(&self.shared).game = Game::new(Position::startpos(Variant::Chess));
                self.searcher.engine().new_game();
                self.engine_color = Some(Color::Black);
                self.clock.depth = None;
            }
            "variant" => {
                let found = Variant::implemented().find(|&v| xboard_name(v) == rest);
                match found {
                    Some(v) => {
                        self.searcher.stop();
                        self.variant = v;
                        self.lifted = None;
                        let start = Position::startpos(v);
                        lock(&self.shared).game = Game::new(start.clone());
                        // Engine-defined variants: XBoard waits for `setup`.
                        if let Some(setup) = board::setup_line(&start) {
                            self.say(&setup)?;
                        }
                        for piece in board::piece_lines(v) {
                            self.say(piece)?;
                        }
                    }
                    None => self.error(line, "unsupported variant")?,
                }
            }
            "force" => {
                self.searcher.stop();
                self.engine_color = None;
            }
            "go" => {
                self.searcher.stop();
                let turn = lock(&self.shared).game.position().turn();
                self.engine_color = Some(turn);
                self.think()?;
            }
            "playother" => {
                self.searcher.stop();
                let turn = lock(&self.shared).game.position().turn();
                self.engine_color = Some(!turn);
            }
            "white" | "black" => {
                // Protocol 1: the engine plays the other colour, force off.
                let c = if cmd == "white" {
                    Color::White
                } else {
                    Color::Black
                };
                self.engine_color = Some(!c);
            }
            "usermove" => self.usermove(rest)?,
            "lift" => self.lift(line, rest)?,
            "put" => self.put(line, rest)?,
            // Hovering changes nothing we show.
            "hover" => {}
            "setboard" => {
                self.searcher.stop();
                match board::read_setboard(self.variant, rest) {
                    // XBoard 4.9.1 forwards the opponent's null move (a
                    // Jumping King pass, J6) as `setboard` of the position
                    // after it, and then waits for our move: played as the
                    // pass, as if it came by `usermove`.
                    Ok(pos) if self.is_pass_to(&pos) => self.usermove("@@@@")?,
                    Ok(pos) => {
                        let marks = trampoline_marks(&pos);
                        lock(&self.shared).game = Game::new(pos);
                        if let Some(m) = marks {
                            self.say(&m)?;
                        }
                    }
                    Err(e) => self.say(&format!("tellusererror Illegal position: {e}"))?,
                }
            }
            "undo" | "remove" => {
                self.searcher.stop();
                let plies = if cmd == "undo" { 1 } else { 2 };
                let mut shared = lock(&self.shared);
                if shared.game.moves().len() < plies {
                    drop(shared);
                    self.error(line, "no move to take back")?;
                } else {
                    for _ in 0..plies {
                        shared.game.undo();
                    }
                    let marks = trampoline_marks(shared.game.position());
                    drop(shared);
                    if let Some(m) = marks {
                        self.say(&m)?;
                    }
                }
            }
            "time" | "otim" => match rest.parse::<i64>() {
                Ok(cs) => {
                    let ms = Some(u64::try_from(cs).unwrap_or(0).saturating_mul(10));
                    if cmd == "time" {
                        self.clock.own_ms = ms;
                    } else {
                        self.clock.opp_ms = ms;
                    }
                }
                Err(_) => self.error(line, "bad time")?,
            },
            "level" => {
                let parts: Vec<&str> = rest.split_whitespace().collect();
                let parsed = match parts.as_slice() {
                    [mps, base, inc] => {
                        match (mps.parse::<u32>(), parse_base(base), parse_secs(inc)) {
                            (Ok(mps), Some(base), Some(inc)) => Some((mps, base, inc)),
                            _ => None,
                        }
                    }
                    _ => None,
                };
                match parsed {
                    Some((mps, base, inc)) => {
                        self.clock.mps = mps;
                        self.clock.inc_ms = inc;
                        self.clock.own_ms = Some(base);
                        self.clock.opp_ms = Some(base);
                        self.clock.st_ms = None;
                    }
                    None => self.error(line, "level needs MPS BASE INC")?,
                }
            }
            "st" => match parse_secs(rest) {
                Some(ms) if ms > 0 => self.clock.st_ms = Some(ms),
                _ => self.error(line, "st needs seconds")?,
            },
            "sd" => match rest.parse::<u32>() {
                Ok(d) if d >= 1 => self.clock.depth = Some(d),
                _ => self.error(line, "sd needs a depth")?,
            },
            "?" => self.searcher.stop(),
            "ping" => self.say(&format!("pong {rest}"))?,
            "result" => {
                self.searcher.stop();
                self.engine_color = None;
                // A comment line (XBoard ignores it) with the engine's view
                // of the final position, for the XBoard tests.
                let fen = board::xboard_fen(&self.position());
                self.say(&format!("# final position {fen}"))?;
            }
            "post" => self.post = true,
            "nopost" => self.post = false,
            "quit" => {
                self.searcher.stop();
                return Ok(Flow::Quit);
            }
            _ => {
                // Protocol 1 engines get moves without `usermove`.
                let pos = self.position();
                if parse_xboard(&pos, line).is_some() {
                    self.usermove(line)?;
                } else {
                    self.error(line, "unknown command")?;
                }
            }
        }
        Ok(Flow::Continue)
    }
}

/// Runs a session until `quit` or the end of the input.
pub fn run(input: impl BufRead, out: Out) -> Result<()> {
    let mut session = Session::new(out.clone());
    for line in input.lines() {
        let line = match line {
            Ok(l) => l,
            Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
                say(&out, "Error (input is not UTF-8): ?")?;
                continue;
            }
            Err(e) => return Err(e.into()),
        };
        tracing::debug!(command = %crate::searcher::clip(&line, 200), "xboard input");
        if session.handle(&line)? == Flow::Quit {
            return Ok(());
        }
    }
    session.wait();
    Ok(())
}
