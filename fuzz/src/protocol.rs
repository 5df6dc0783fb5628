//! The protocol targets: command streams fed line by line to a UCI or an
//! XBoard session of the `springboard` binary (its lib target), with the
//! engine's work bounded by the harness so that an input takes
//! milliseconds (see docs/fuzzing.md).
//!
//! The session runs its searches in a thread, as in play; the harness
//! waits for each search to answer before the next line (so every answer
//! is checked against the command that asked for it, and an input replays
//! the same way). What a command line cannot do here: interrupt a running
//! search (`stop`, `ponderhit`, `?` find nothing running).

use springboard::searcher::{self, Out};
use springboard::{uci, xboard};
use springboard_rules::notation::uci::parse_uci;
use springboard_rules::Position;
use std::io::Write;
use std::sync::{Arc, Mutex, PoisonError};

/// The most command lines one input feeds.
pub const MAX_LINES: usize = 64;
/// The node budget the harness adds to every UCI `go` (later words win).
pub const UCI_NODES: u64 = 200;

/// A session's output, kept in memory and read by the harness.
#[derive(Clone, Default)]
struct Buffer(Arc<Mutex<Vec<u8>>>);

impl Write for Buffer {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Buffer {
    fn out(&self) -> Out {
        searcher::out(self.clone())
    }

    /// What was written since the last call.
    fn take(&self) -> String {
        let mut bytes = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        String::from_utf8(std::mem::take(&mut *bytes)).expect("the session writes UTF-8")
    }
}

/// The command word of a line and the rest, as the sessions split it.
fn command(line: &str) -> (&str, &str) {
    let line = line.trim();
    line.split_once(char::is_whitespace)
        .map(|(c, r)| (c, r.trim()))
        .unwrap_or((line, ""))
}

/// A UCI line with the engine's work bounded: `go perft N` counts at most
/// depth 1, every other `go` gets `nodes 200` added (UCI: the last word
/// given wins), `setoption` of `Hash` or `Threads` asks at most 1. Other
/// lines, and values that are not numbers, are left as they are.
pub fn bound_uci(line: &str) -> String {
    let (cmd, rest) = command(line);
    match cmd {
        "go" => {
            let words: Vec<&str> = rest.split_whitespace().collect();
            match words.as_slice() {
                ["perft", depth] => match depth.parse::<u64>() {
                    Ok(d) if d > 1 => "go perft 1".to_string(),
                    _ => line.to_string(),
                },
                ["perft", ..] => line.to_string(),
                _ => format!("{} nodes {UCI_NODES}", line.trim_end()),
            }
        }
        "setoption" => {
            let heavy = matches!(option_name(rest).as_deref(), Some("hash" | "threads"));
            match rest.rsplit_once(' ') {
                Some((head, value)) if heavy && value.parse::<u64>().is_ok_and(|v| v > 1) => {
                    format!("setoption {head} 1")
                }
                _ => line.to_string(),
            }
        }
        _ => line.to_string(),
    }
}

/// The option a `setoption` line's `rest` names, read by the session's own
/// reader ([`uci::parse_setoption`]), in lower case.
fn option_name(rest: &str) -> Option<String> {
    uci::parse_setoption(rest)
        .ok()
        .map(|(name, _)| name.to_ascii_lowercase())
}

/// `uci_session`: a UCI command stream (the first byte picks the player:
/// the engine or the 1-ply baseline). Properties: no panic (in the session
/// or its search thread), no hang; every search `go` answers exactly one
/// `bestmove`, a legal move of the position or `0000` (the answer after a
/// refused `position`, or when there is no move), or is refused with an
/// `info string` alone; `go perft` answers no `bestmove`; a refused
/// command (answered with `info string`) leaves the position as it was;
/// no command but `position`, `ucinewgame` and `setoption` changes it.
pub fn uci_target(data: &[u8]) {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let player = if first & 1 == 0 {
        uci::Player::Full
    } else {
        uci::Player::Material1
    };
    let buffer = Buffer::default();
    let mut session = uci::Session::with_hash(buffer.out(), player, 1);
    // Whether the last `position` was refused (UCI: `go` answers 0000).
    let mut refused = false;
    for raw in text.lines().take(MAX_LINES) {
        let line = bound_uci(raw);
        let (cmd, rest) = command(&line);
        let before = session.position().clone();
        let flow = session.handle(&line).expect("the output is memory");
        let words: Vec<&str> = rest.split_whitespace().collect();
        let perft = cmd == "go" && words.first() == Some(&"perft");
        if cmd == "go" {
            if words.iter().any(|w| matches!(*w, "infinite" | "ponder")) {
                // Ends only when told: as at the end of the input.
                session.finish().expect("the output is memory");
            } else {
                session.wait().expect("the output is memory");
            }
        }
        let said = buffer.take();
        let lines: Vec<&str> = said.lines().collect();
        assert!(
            !lines.iter().any(|l| [
                "info string error: the search failed:",
                "info string error: perft failed:"
            ]
            .iter()
            .any(|p| l.starts_with(p))),
            "{line:?}: the session reports a panic:\n{said}"
        );
        let errors = lines
            .iter()
            .filter(|l| l.starts_with("info string"))
            .count();
        let bestmoves: Vec<&str> = lines
            .iter()
            .copied()
            .filter(|l| l.starts_with("bestmove"))
            .collect();
        if cmd == "go" {
            assert!(
                *session.position() == before,
                "{line:?} changed the position"
            );
            if perft {
                assert!(bestmoves.is_empty(), "{line:?} answered {bestmoves:?}");
            } else if bestmoves.is_empty() {
                assert!(
                    !lines.is_empty() && errors == lines.len(),
                    "{line:?}: no bestmove and no reason:\n{said}"
                );
            } else {
                assert_eq!(bestmoves.len(), 1, "{line:?}:\n{said}");
                check_bestmove(&before, bestmoves[0], refused, &line);
            }
        } else if errors > 0 {
            assert!(
                *session.position() == before,
                "{line:?} was refused but changed the position:\n{said}"
            );
        } else if !matches!(cmd, "position" | "ucinewgame" | "setoption") {
            assert!(
                *session.position() == before,
                "{line:?} changed the position"
            );
        }
        match cmd {
            "position" => refused = errors > 0,
            "ucinewgame" => refused = false,
            // A new variant sets its start position.
            "setoption" if errors == 0 && option_name(rest).as_deref() == Some("uci_variant") => {
                refused = false
            }
            _ => {}
        }
        if flow == uci::Flow::Quit {
            break;
        }
    }
    session.finish().expect("the output is memory");
    let said = buffer.take();
    assert!(
        !said.contains("bestmove"),
        "an answer after the end: {said}"
    );
}

/// `bestmove M [ponder P]`: `M` is a legal move of `pos` (a pass, `0000`,
/// where there is one), or `0000` or `(none)` when `pos` has none, or
/// `0000` when the last `position` was refused.
fn check_bestmove(pos: &Position, line: &str, refused: bool, go: &str) {
    let mut words = line.split_whitespace().skip(1);
    let best = words.next().unwrap_or_else(|| panic!("{go:?}: {line:?}"));
    if refused {
        assert_eq!(best, "0000", "{go:?} after a refused position: {line:?}");
        return;
    }
    // `0000` is a legal move where a pass is (Jumping King, J6).
    if matches!(best, "0000" | "(none)") && parse_uci(pos, best).is_err() {
        assert!(
            pos.legal_moves().is_empty(),
            "{go:?}: {best} in {} with legal moves",
            pos.to_fen()
        );
        return;
    }
    parse_uci(pos, best).unwrap_or_else(|e| panic!("{go:?}: {line:?} in {}: {e}", pos.to_fen()));
}

/// An XBoard line with the engine's work bounded: `sd N` asks at most
/// depth 1, and every session starts (and every `new` restarts) with
/// `sd 1`, so that every search stops after depth 1 whatever the clock
/// (`level`, `st`, `time` are left as they are).
pub fn bound_xboard(line: &str) -> Vec<String> {
    let (cmd, rest) = command(line);
    match cmd {
        "sd" if rest.parse::<u64>().is_ok_and(|d| d > 1) => vec!["sd 1".to_string()],
        "new" => vec![line.to_string(), "sd 1".to_string()],
        _ => vec![line.to_string()],
    }
}

/// `xboard_session`: an XBoard command stream. Properties: no panic, no
/// hang; at most one `move` per command; `go` (the game not over) answers
/// exactly one `move`, a legal move of the position, which the session
/// plays, or else the game's result; a command answered with `Error`,
/// `Illegal move` or `tellusererror` leaves the position as it was.
pub fn xboard_target(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let buffer = Buffer::default();
    let mut session = xboard::Session::with_hash(buffer.out(), 1);
    session.handle("sd 1").expect("the output is memory");
    for raw in text.lines().take(MAX_LINES) {
        let mut quit = false;
        for line in bound_xboard(raw) {
            let before = session.position();
            let flow = session.handle(&line).expect("the output is memory");
            session.wait();
            let said = buffer.take();
            check_xboard(&line, &before, &session.position(), &said);
            if flow == xboard::Flow::Quit {
                quit = true;
                break;
            }
        }
        if quit {
            break;
        }
    }
}

fn check_xboard(line: &str, before: &Position, after: &Position, said: &str) {
    let (cmd, _) = command(line);
    let lines: Vec<&str> = said.lines().collect();
    let moves = lines.iter().filter(|l| l.starts_with("move ")).count();
    let results = lines
        .iter()
        .filter(|l| {
            ["1-0 ", "0-1 ", "1/2-1/2 "]
                .iter()
                .any(|r| l.starts_with(r))
        })
        .count();
    let refused = lines.iter().any(|l| {
        l.starts_with("Error (") || l.starts_with("Illegal move") || l.starts_with("tellusererror")
    });
    assert!(moves <= 1, "{line:?} answered {moves} moves:\n{said}");
    if refused {
        assert!(
            after == before,
            "{line:?} was refused but changed the position:\n{said}"
        );
    }
    if cmd == "go" {
        assert!(
            moves == 1 || results > 0,
            "{line:?}: no move and no result in {}:\n{said}",
            before.to_fen()
        );
        if moves == 1 {
            let reached = before.legal_moves().into_iter().any(|m| {
                let mut next = before.clone();
                next.play(m);
                next == *after
            });
            assert!(
                reached,
                "{line:?}: the engine's move does not lead from {} to {}:\n{said}",
                before.to_fen(),
                after.to_fen()
            );
        }
    }
}
