//! `position startpos|fen F [moves ...]`.

use super::{Session, ECHO_MAX};
use crate::searcher::clip;
use springboard_rules::notation::uci::parse_uci;
use springboard_rules::{Game, Position};

impl Session {
    /// The game of `position startpos|fen F [moves ...]`, built apart from
    /// the session's (the caller swaps it in when it is good).
    pub(super) fn set_position(&self, args: &str) -> Result<Game, String> {
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
                "position needs 'startpos' or 'fen': position {}",
                clip(args, ECHO_MAX)
            ));
        };
        let mut game = Game::new(start);
        for text in moves.split_whitespace() {
            let m = parse_uci(game.position(), text).map_err(|e| e.to_string())?;
            game.play(m).map_err(|e| e.to_string())?;
        }
        Ok(game)
    }
}
