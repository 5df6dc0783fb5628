//! The UCI front end. Reads commands line by line; a bad command is answered
//! with `info string` and the session goes on. Searches run in a thread, so
//! `stop`, `ponderhit` and `isready` are answered while the engine thinks.
//!
//! The session and its command loop are here; the options in `options`,
//! `position` in `position`, `go` in `go`, `go perft` in `perft` and the
//! `info` lines in `output`.

mod go;
mod options;
mod output;
mod perft;
mod position;
#[cfg(test)]
pub(crate) mod tests;

use crate::searcher::{clip, read_line, say, Line, Out, Searcher, MAX_LINE};
use anyhow::Result;
use go::{parse_go, Go};
use options::HASH_DEFAULT;
use springboard_engine::Engine;
use springboard_rules::{Game, Position, Variant};
use std::io::BufRead;

pub use options::parse_setoption;
pub use output::{info_line, score_text};
pub use perft::PERFT_MAX;

/// What the session does after a command.
#[derive(Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

/// How much of a bad command line an error message repeats.
const ECHO_MAX: usize = 60;

/// Who answers `go`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Player {
    /// The full engine (search and evaluation).
    #[default]
    Full,
    /// A 1-ply material-only player (P1 N3 B3 R5 Q9 H3, reserves count,
    /// mates and weak-square wins first): the baseline to measure against.
    Material1,
}

/// The arguments of `springboard uci`.
#[derive(Clone, Debug, Default, clap::Args)]
pub struct UciArgs {
    /// Who plays: the full engine, or the 1-ply material-only baseline
    /// (answers `go` at once; `go perft` works for both).
    #[arg(long, value_enum, default_value_t = Player::Full)]
    pub player: Player,
}

/// One UCI session: the chosen variant, the current game and the engine.
pub struct Session {
    variant: Variant,
    game: Game,
    searcher: Searcher,
    out: Out,
    skill: i64,
    limit_strength: bool,
    elo: u32,
    player: Player,
    /// The baseline's answer to `go infinite` or `go ponder`, held until
    /// `stop` or `ponderhit` (UCI: no `bestmove` before them).
    held: Option<String>,
    /// Why the last `position` command was refused: `go` is refused until
    /// a position is set again (`position`, `ucinewgame`, `UCI_Variant`).
    refused: Option<String>,
}

impl Session {
    /// A session writing its answers to `out`, where `player` answers `go`.
    pub fn new(out: Out, player: Player) -> Session {
        Session::with_hash(out, player, HASH_DEFAULT)
    }

    /// [`Session::new`] with a transposition table of `hash_mb` megabytes
    /// (as after `setoption name Hash value N`) from the start.
    pub fn with_hash(out: Out, player: Player, hash_mb: usize) -> Session {
        Session {
            variant: Variant::Chess,
            game: Game::new(Position::startpos(Variant::Chess)),
            searcher: Searcher::new(Engine::new(hash_mb.clamp(1, options::HASH_MAX))),
            out,
            skill: 20,
            limit_strength: false,
            elo: 1500,
            player,
            held: None,
            refused: None,
        }
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.game.position()
    }

    /// Waits until the running search (if any) has answered (one that
    /// ends only when told, `go infinite` or `go ponder`, waits for `stop`:
    /// see [`Session::finish`]).
    pub fn wait(&mut self) -> std::io::Result<()> {
        self.searcher.wait();
        self.release_held()
    }

    /// The end of the input: a search with limits and `go perft` run to
    /// their end and answer; what ends only when told (`go infinite`,
    /// `go ponder`) is stopped, as by `stop`.
    pub fn finish(&mut self) -> std::io::Result<()> {
        self.searcher.finish();
        self.release_held()
    }

    /// Says the baseline's held `bestmove`, if any (the end of its "search").
    fn release_held(&mut self) -> std::io::Result<()> {
        match self.held.take() {
            Some(line) => self.say(&line),
            None => Ok(()),
        }
    }

    fn say(&self, line: &str) -> std::io::Result<()> {
        say(&self.out, line)
    }

    /// Handles one command line.
    pub fn handle(&mut self, line: &str) -> std::io::Result<Flow> {
        let line = line.trim();
        let (cmd, rest) = line
            .split_once(char::is_whitespace)
            .map(|(c, r)| (c, r.trim()))
            .unwrap_or((line, ""));
        match cmd {
            "" => {}
            "uci" => self.handshake()?,
            "isready" => self.say("readyok")?,
            "ucinewgame" => {
                self.game = Game::new(Position::startpos(self.variant));
                self.refused = None;
                self.searcher.engine().new_game();
            }
            "setoption" => {
                if let Err(e) = self.setoption(rest) {
                    self.say(&format!("info string {e}"))?;
                }
            }
            "position" => {
                self.searcher.stop();
                self.release_held()?;
                match self.set_position(rest) {
                    Ok(game) => {
                        self.game = game;
                        self.refused = None;
                    }
                    Err(e) => {
                        let e = clip(&e, 2 * ECHO_MAX);
                        self.say(&format!("info string {e}"))?;
                        self.refused = Some(e);
                    }
                }
            }
            "go" => match (parse_go(rest), self.refused.clone()) {
                (Ok(go), None) => self.go(go)?,
                (Ok(go), Some(why)) => {
                    self.searcher.stop();
                    self.release_held()?;
                    self.say(&format!(
                        "info string error: no position to search, the last position command was refused ({why})"
                    ))?;
                    // A search must answer (UCI); perft answers nothing.
                    if matches!(go, Go::Search { .. }) {
                        self.say("bestmove 0000")?;
                    }
                }
                (Err(e), _) => self.say(&format!("info string {e}"))?,
            },
            "stop" => {
                self.searcher.stop();
                self.release_held()?;
            }
            "ponderhit" => {
                self.searcher.ponderhit();
                self.release_held()?;
            }
            "d" => self.say(&self.position().to_string())?,
            "quit" => {
                // A search stops; `go perft` counts to its end first
                // (Stockfish's convention).
                self.searcher.quit();
                self.release_held()?;
                return Ok(Flow::Quit);
            }
            _ => self.say(&format!(
                "info string unknown command: {}",
                clip(line, ECHO_MAX)
            ))?,
        }
        Ok(Flow::Continue)
    }
}

/// Runs a session of `player` until `quit` or the end of the input.
pub fn run(mut input: impl BufRead, out: Out, player: Player) -> Result<()> {
    let mut session = Session::new(out.clone(), player);
    while let Some(line) = read_line(&mut input, MAX_LINE)? {
        let line = match line {
            Line::Text(l) => l,
            Line::NotUtf8 => {
                say(&out, "info string input is not UTF-8")?;
                continue;
            }
            Line::TooLong => {
                tracing::warn!(max = MAX_LINE, "a UCI input line is too long: skipped");
                say(
                    &out,
                    &format!("info string error: line longer than {MAX_LINE} bytes skipped"),
                )?;
                continue;
            }
        };
        tracing::debug!(command = %clip(&line, 200), "uci input");
        if session.handle(&line)? == Flow::Quit {
            return Ok(());
        }
    }
    session.finish()?;
    Ok(())
}
