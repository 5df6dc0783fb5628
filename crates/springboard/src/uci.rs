//! The UCI front end. Reads commands line by line; a bad command is answered
//! with `info string` and the session goes on.

use anyhow::Result;
use springboard_rules::notation::uci::{parse_uci, to_uci};
use springboard_rules::perft::divide;
use springboard_rules::{Game, Position, Variant};
use std::io::{BufRead, Write};

/// What the session does after a command.
#[derive(Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

/// One UCI session: the chosen variant and the current game.
pub struct Session {
    variant: Variant,
    game: Game,
}

impl Default for Session {
    fn default() -> Session {
        Session::new()
    }
}

impl Session {
    pub fn new() -> Session {
        Session {
            variant: Variant::Chess,
            game: Game::new(Position::startpos(Variant::Chess)),
        }
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.game.position()
    }

    /// Handles one command line, writing the answers to `out`.
    pub fn handle(&mut self, line: &str, out: &mut impl Write) -> std::io::Result<Flow> {
        let line = line.trim();
        let (cmd, rest) = line
            .split_once(char::is_whitespace)
            .map(|(c, r)| (c, r.trim()))
            .unwrap_or((line, ""));
        match cmd {
            "" => {}
            "uci" => {
                writeln!(out, "id name Springboard {}", env!("CARGO_PKG_VERSION"))?;
                writeln!(out, "id author the Springboard developers")?;
                let vars: Vec<&str> = Variant::implemented().map(|v| v.name()).collect();
                writeln!(
                    out,
                    "option name UCI_Variant type combo default chess{}",
                    vars.iter().map(|v| format!(" var {v}")).collect::<String>()
                )?;
                writeln!(out, "uciok")?;
            }
            "isready" => writeln!(out, "readyok")?,
            "ucinewgame" => self.game = Game::new(Position::startpos(self.variant)),
            "setoption" => {
                if let Err(e) = self.setoption(rest) {
                    writeln!(out, "info string {e}")?;
                }
            }
            "position" => {
                if let Err(e) = self.set_position(rest) {
                    writeln!(out, "info string {e}")?;
                }
            }
            "go" => self.go(rest, out)?,
            "d" => writeln!(out, "{}", self.position())?,
            "quit" => return Ok(Flow::Quit),
            "stop" | "ponderhit" => {}
            _ => writeln!(out, "info string unknown command: {line}")?,
        }
        Ok(Flow::Continue)
    }

    fn setoption(&mut self, args: &str) -> Result<(), String> {
        let rest = args
            .strip_prefix("name")
            .ok_or_else(|| format!("setoption needs 'name': setoption {args}"))?
            .trim();
        let (name, value) = match rest.split_once(" value") {
            Some((n, v)) => (n.trim(), Some(v.trim())),
            None => (rest, None),
        };
        if name.eq_ignore_ascii_case("UCI_Variant") {
            let value = value.ok_or("UCI_Variant needs a value")?;
            let variant: Variant = value.parse().map_err(|e| format!("{e}"))?;
            if !variant.is_implemented() {
                return Err(format!("the variant '{variant}' is not implemented yet"));
            }
            self.variant = variant;
            self.game = Game::new(Position::startpos(variant));
            Ok(())
        } else {
            Err(format!("unknown option '{name}'"))
        }
    }

    /// `position startpos|fen F [moves ...]`, built on a copy: a bad move
    /// leaves the old position in place.
    fn set_position(&mut self, args: &str) -> Result<(), String> {
        let (setup, moves) = match args.split_once(" moves") {
            Some((s, m)) => (s.trim(), m.trim()),
            None => (args.trim(), ""),
        };
        let start = if setup == "startpos" {
            Position::startpos(self.variant)
        } else if let Some(fen) = setup.strip_prefix("fen") {
            Position::from_fen(self.variant, fen.trim())
                .map_err(|e| format!("bad position '{}': {e}", fen.trim()))?
        } else {
            return Err(format!(
                "position needs 'startpos' or 'fen': position {args}"
            ));
        };
        let mut game = Game::new(start);
        for text in moves.split_whitespace() {
            let m = parse_uci(game.position(), text).map_err(|e| e.to_string())?;
            game.play(m).map_err(|e| e.to_string())?;
        }
        self.game = game;
        Ok(())
    }

    fn go(&mut self, args: &str, out: &mut impl Write) -> std::io::Result<()> {
        let tokens: Vec<&str> = args.split_whitespace().collect();
        match tokens.as_slice() {
            ["perft", depth] => match depth.parse::<u32>() {
                Ok(depth) if depth <= 64 => {
                    let pos = self.position();
                    let mut total = 0;
                    for (m, n) in divide(pos, depth) {
                        writeln!(out, "{}: {n}", to_uci(pos, m))?;
                        total += n;
                    }
                    writeln!(out)?;
                    writeln!(out, "Nodes searched: {total}")?;
                    writeln!(out)?;
                }
                _ => writeln!(out, "info string bad perft depth '{depth}'")?,
            },
            _ => writeln!(
                out,
                "info string search is not available yet: only 'go perft N' is supported"
            )?,
        }
        Ok(())
    }
}

/// Runs a session until `quit` or the end of the input.
pub fn run(input: impl BufRead, mut output: impl Write) -> Result<()> {
    let mut session = Session::new();
    for line in input.lines() {
        let line = match line {
            Ok(l) => l,
            Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
                writeln!(output, "info string input is not UTF-8")?;
                continue;
            }
            Err(e) => return Err(e.into()),
        };
        let flow = session.handle(&line, &mut output)?;
        output.flush()?;
        if flow == Flow::Quit {
            break;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn talk(session: &mut Session, line: &str) -> String {
        let mut out = Vec::new();
        session.handle(line, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn handshake_lists_variants() {
        let mut s = Session::new();
        let out = talk(&mut s, "uci");
        assert!(out.contains("option name UCI_Variant type combo default chess var chess"));
        assert!(out.ends_with("uciok\n"));
        assert_eq!(talk(&mut s, "isready"), "readyok\n");
    }

    #[test]
    fn go_perft_matches_stockfish_format() {
        let mut s = Session::new();
        talk(&mut s, "position startpos moves e2e4 e7e5");
        let out = talk(&mut s, "go perft 2");
        assert!(out.contains("\ng1f3: 29\n"), "{out}");
        assert!(out.ends_with("\n\nNodes searched: 835\n\n"), "{out}");
        let lines = out
            .lines()
            .filter(|l| l.contains(": ") && !l.starts_with("Nodes"))
            .count();
        assert_eq!(lines, 29);
    }

    #[test]
    fn hopchess_go_perft_prints_each_turn_once() {
        let mut s = Session::new();
        assert_eq!(
            talk(&mut s, "setoption name UCI_Variant value hopchess"),
            ""
        );
        talk(&mut s, "position startpos");
        let out = talk(&mut s, "go perft 1");
        let moves: Vec<&str> = out
            .lines()
            .filter(|l| l.ends_with(": 1"))
            .map(|l| l.trim_end_matches(": 1"))
            .collect();
        assert_eq!(moves.len(), 20, "{out}");
        assert!(moves.contains(&"g1f3"));
        assert!(out.ends_with("\n\nNodes searched: 20\n\n"), "{out}");
        let out = talk(&mut s, "go perft 2");
        assert!(out.lines().any(|l| l == "g1f3: 640"), "{out}");
        assert!(out.ends_with("\n\nNodes searched: 12788\n\n"), "{out}");
        talk(&mut s, "position startpos moves e2e4 g8f6@d5 d2d4@d3");
        assert!(
            s.position().to_fen().ends_with(" d3,d5 -"),
            "{}",
            s.position().to_fen()
        );
        let out = talk(&mut s, "go perft 1");
        let lines: Vec<&str> = out
            .lines()
            .filter(|l| l.contains(": ") && !l.starts_with("Nodes"))
            .collect();
        assert!(lines.len() > 500, "{out}");
        let unique: std::collections::HashSet<&str> = lines.iter().copied().collect();
        assert_eq!(lines.len(), unique.len());
        assert!(lines.iter().all(|l| l.contains('@')), "{out}");
    }

    #[test]
    fn trampoline_go_perft_and_uci_lists_variants() {
        let mut s = Session::new();
        let out = talk(&mut s, "uci");
        assert!(out.contains("var hopchess var trampoline"), "{out}");
        talk(&mut s, "setoption name UCI_Variant value trampoline");
        talk(
            &mut s,
            "position startpos moves b1c3 e7e5 e2e4 b8c6 @f3 @e7 d2d4 e5d4 g1f3d4",
        );
        let out = talk(&mut s, "go perft 1");
        assert!(out.lines().any(|l| l == "c6d4: 1"), "{out}");
        talk(&mut s, "position startpos");
        let out = talk(&mut s, "go perft 2");
        assert!(out.ends_with("\n\nNodes searched: 2652\n\n"), "{out}");
    }

    #[test]
    fn bad_input_keeps_the_session() {
        let mut s = Session::new();
        talk(&mut s, "position startpos moves e2e4");
        let before = s.position().to_fen();
        let out = talk(&mut s, "position startpos moves e2e4 e7e5 e1e3");
        assert!(out.starts_with("info string illegal move 'e1e3'"), "{out}");
        assert_eq!(s.position().to_fen(), before);
        let out = talk(&mut s, "position fen 8/8/8 w - - 0 1");
        assert!(out.starts_with("info string bad position"), "{out}");
        assert_eq!(s.position().to_fen(), before);
        for garbage in [
            "foo",
            "go perft x",
            "go perft -1",
            "setoption name Foo value 1",
            "setoption name UCI_Variant value nosuch",
            "position",
            "position moves e2e4",
        ] {
            let out = talk(&mut s, garbage);
            assert!(out.starts_with("info string"), "{garbage}: {out}");
        }
        assert_eq!(s.position().to_fen(), before);
        let mut out = Vec::new();
        assert_eq!(s.handle("quit", &mut out).unwrap(), Flow::Quit);
    }
}
