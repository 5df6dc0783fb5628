//! The moves played: the opponent's (`usermove`, a pass sent as
//! `setboard`) and the engine's, found by a search in the thread.

use super::notation::{parse_xboard, to_xboard};
use super::output::{result_line, thinking_line, trampoline_marks};
use super::{board, lock, Session};
use crate::searcher::{history_keys, say};
use springboard_rules::notation::san::parse_san;
use springboard_rules::Position;
use std::sync::Arc;

impl Session {
    /// Whether `pos` (from `setboard`) is the current position after a
    /// legal pass, as XBoard writes it (board, holdings, side to move).
    pub(super) fn is_pass_to(&self, pos: &Position) -> bool {
        let shared = lock(&self.shared);
        let now = shared.game.position();
        let Some(pass) = parse_xboard(now, "@@@@") else {
            return false;
        };
        let mut after = now.clone();
        after.play(pass);
        let key = |p: &Position| {
            board::xboard_fen(p)
                .split_whitespace()
                .take(2)
                .collect::<Vec<_>>()
                .join(" ")
        };
        key(&after) == key(pos)
    }
    pub(super) fn usermove(&mut self, text: &str) -> std::io::Result<()> {
        self.searcher.stop();
        self.lifted = None;
        let played = {
            let mut shared = lock(&self.shared);
            let pos = shared.game.position().clone();
            if shared.game.outcome().is_some() {
                None
            } else {
                parse_xboard(&pos, text)
                    .or_else(|| parse_san(&pos, text).ok())
                    .and_then(|m| shared.game.play(m).ok())
            }
        };
        if played.is_none() {
            return self.say(&format!("Illegal move: {text}"));
        }
        let (turn, outcome, marks) = {
            let shared = lock(&self.shared);
            let pos = shared.game.position();
            (pos.turn(), shared.game.outcome(), trampoline_marks(pos))
        };
        if let Some(m) = marks {
            self.say(&m)?;
        }
        if let Some(o) = outcome {
            return self.say(&result_line(o));
        }
        if self.engine_color == Some(turn) {
            self.think()?;
        }
        Ok(())
    }
    /// Starts thinking on the current position, for the side to move.
    pub(super) fn think(&mut self) -> std::io::Result<()> {
        let (root, history, outcome, engine_moves) = {
            let shared = lock(&self.shared);
            let g = &shared.game;
            let us = g.position().turn();
            let engine_moves = g
                .positions()
                .iter()
                .filter(|p| p.turn() == us)
                .count()
                .saturating_sub(1);
            (
                g.position().clone(),
                history_keys(g),
                g.outcome(),
                engine_moves,
            )
        };
        if let Some(o) = outcome {
            return self.say(&result_line(o));
        }
        let limits = self.clock.limits(&root, engine_moves);
        let out_info = self.out.clone();
        let out_done = self.out.clone();
        let post = self.post;
        let info_root = root.clone();
        let shared = Arc::clone(&self.shared);
        self.searcher.start(
            root,
            history,
            limits,
            false,
            move |info| {
                if post && info.multipv == 1 {
                    let _ = say(&out_info, &thinking_line(&info_root, info));
                }
            },
            move |result| {
                let Some(best) = result.best else { return };
                let mut s = lock(&shared);
                let text = to_xboard(s.game.position(), best);
                if s.game.play(best).is_err() {
                    return;
                }
                let outcome = s.game.outcome();
                let marks = trampoline_marks(s.game.position());
                drop(s);
                let _ = say(&out_done, &format!("move {text}"));
                if let Some(m) = marks {
                    let _ = say(&out_done, &m);
                }
                if let Some(o) = outcome {
                    let _ = say(&out_done, &result_line(o));
                }
            },
        );
        Ok(())
    }
}
