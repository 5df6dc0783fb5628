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
    fn jumpingking_session() {
        let mut s = Session::new();
        let out = talk(&mut s, "uci");
        assert!(out.contains(" var jumpingking"), "{out}");
        assert_eq!(
            talk(&mut s, "setoption name UCI_Variant value jumpingking"),
            ""
        );
        let out = talk(&mut s, "go perft 3");
        assert!(out.starts_with("a1c2: 32\na1b3: 16\n"), "{out}");
        assert!(out.ends_with("\n\nNodes searched: 48\n\n"), "{out}");
        talk(&mut s, "position startpos moves a1c2 f8d7 c2e3b");
        assert_eq!(
            s.position().to_fen(),
            "8/3k4/8/8/8/4K3/2B5/8[RRBNNPPPrrbbnnppp] b Jj 3 2"
        );
        let out = talk(&mut s, "go perft 1");
        assert!(out.contains("\nd7f6p: 1\n"), "{out}");
        assert!(out.ends_with("\n\nNodes searched: 16\n\n"), "{out}");
        let out = talk(&mut s, "d");
        assert!(
            out.contains("\n1 |   | # | # | # | # | # | # | # |\n"),
            "{out}"
        );
        assert!(
            out.contains("\nWhite: jumping, to place: RRBNNPPP (weak square a1)\n"),
            "{out}"
        );
        // A stuck king passes: 0000 (J6, N6).
        talk(
            &mut s,
            "position fen 8/4k3/8/8/3P4/1K6/3P4/8[Rr] w Jj 0 1 moves 0000",
        );
        assert_eq!(s.position().to_fen(), "8/4k3/8/8/3P4/1K6/3P4/8[Rr] b j 1 1");
        let out = talk(&mut s, "position startpos moves a1c2 f8d7 c2e3");
        assert!(out.starts_with("info string illegal move 'c2e3'"), "{out}");
        let out = talk(&mut s, "position fen 5k2/8/8/8/8/8/8/KR6[] w - 0 1");
        assert!(
            out.contains("b1, which is not a square of this board"),
            "{out}"
        );
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

    #[test]
    fn hoplit_drops_in_position_and_perft() {
        let mut s = Session::new();
        let out = talk(&mut s, "uci");
        assert!(out.contains(" var hoplit"), "{out}");
        assert_eq!(talk(&mut s, "setoption name UCI_Variant value hoplit"), "");
        assert_eq!(
            s.position().to_fen(),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Hh] w KQkq - 0 1"
        );
        let out = talk(&mut s, "go perft 3");
        assert!(
            out.ends_with(
                "

Nodes searched: 8982

"
            ),
            "{out}"
        );
        // Drops in long notation (N6), for both sides.
        talk(&mut s, "position startpos moves g1f3 g8f6 H@g1");
        assert_eq!(
            s.position().to_fen(),
            "rnbqkb1r/pppppppp/5n2/8/8/5NP1/PPPPPP1P/RNBQKBHR[h] b KQkq - 0 2"
        );
        let out = talk(&mut s, "go perft 1");
        assert!(out.lines().any(|l| l == "H@g8: 1"), "{out}");
        assert!(
            out.ends_with(
                "

Nodes searched: 23

"
            ),
            "{out}"
        );
        let out = talk(&mut s, "position startpos moves g1f3 g8f6 H@g1 H@b8");
        assert!(out.starts_with("info string illegal move 'H@b8'"), "{out}");
        let out = talk(
            &mut s,
            "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        );
        assert!(out.contains("reserve in brackets"), "{out}");
    }
}
