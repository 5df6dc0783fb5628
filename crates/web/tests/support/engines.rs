//! The test engines behind the `EngineProvider` seam: one that plays the
//! first legal move and analyses, one that answers illegal moves, one that
//! answers a fixed line, and one that thinks until it is stopped.

use springboard_rules::{Game, Move, Variant};
use springboard_web::{Analysis, AnalysisLimit, EngineProvider, Evaluation, LevelLabel};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};

/// Plays the legal move with the smallest long notation; its analysis is
/// three such moves, +0.30 for the side to move, and it remembers the
/// limits it was given.
pub struct FirstMove {
    pub score: Evaluation,
    pub limits: Mutex<Vec<AnalysisLimit>>,
}

impl Default for FirstMove {
    fn default() -> FirstMove {
        FirstMove::scoring(Evaluation::Cp(30))
    }
}

impl FirstMove {
    pub fn scoring(score: Evaluation) -> FirstMove {
        FirstMove {
            score,
            limits: Mutex::new(Vec::new()),
        }
    }
}

/// The legal move with the smallest long notation.
pub fn first_move(pos: &springboard_rules::Position) -> Option<Move> {
    pos.legal_moves()
        .into_iter()
        .min_by_key(|&m| springboard_rules::notation::uci::to_uci(pos, m))
}

impl EngineProvider for FirstMove {
    fn name(&self) -> String {
        "first move".into()
    }
    fn max_level(&self) -> u8 {
        3
    }
    fn level_label(&self, variant: Variant, level: u8) -> Option<LevelLabel> {
        (level == 2 && variant != Variant::HopChess).then(|| LevelLabel {
            name: "Middle".into(),
            elo: Some(if variant == Variant::Chess {
                1500
            } else {
                1400
            }),
        })
    }
    fn best_move(&self, game: &Game, _level: u8, _stop: Arc<AtomicBool>) -> Option<Move> {
        first_move(game.position())
    }
    fn analyse(
        &self,
        game: &Game,
        limit: AnalysisLimit,
        _stop: Arc<AtomicBool>,
    ) -> Option<Analysis> {
        self.limits.lock().unwrap().push(limit);
        let mut pos = game.position().clone();
        let mut pv = Vec::new();
        while pv.len() < 3 {
            let Some(m) = first_move(&pos) else { break };
            pv.push(m);
            pos.play(m);
        }
        Some(Analysis {
            score: self.score,
            pv,
            depth: match limit {
                AnalysisLimit::Depth(d, _) => d,
                AnalysisLimit::Time(_) => 7,
            },
        })
    }
}

/// Answers a move that is not legal: the server must refuse it.
pub struct Cheater;

impl EngineProvider for Cheater {
    fn name(&self) -> String {
        "cheater".into()
    }
    fn max_level(&self) -> u8 {
        1
    }
    fn best_move(&self, _game: &Game, _level: u8, _stop: Arc<AtomicBool>) -> Option<Move> {
        Some(Move::normal(
            springboard_rules::Square::E2,
            springboard_rules::Square::E5,
        ))
    }
    /// Its line is e2e3 e2e5 in every position; it sees a mate in 2 for the
    /// side to move.
    fn analyse(
        &self,
        _game: &Game,
        _limit: AnalysisLimit,
        _stop: Arc<AtomicBool>,
    ) -> Option<Analysis> {
        use springboard_rules::Square::{E2, E3, E5};
        Some(Analysis {
            score: Evaluation::Mate(2),
            pv: vec![Move::normal(E2, E3), Move::normal(E2, E5)],
            depth: 3,
        })
    }
}

/// Answers a fixed line (long notation, read in each position) and score.
pub struct Scripted {
    pub line: Vec<&'static str>,
    pub score: Evaluation,
    pub depth: u32,
}

impl EngineProvider for Scripted {
    fn name(&self) -> String {
        "scripted".into()
    }
    fn max_level(&self) -> u8 {
        1
    }
    fn best_move(&self, game: &Game, _level: u8, _stop: Arc<AtomicBool>) -> Option<Move> {
        springboard_rules::notation::uci::parse_uci(game.position(), self.line[0]).ok()
    }
    fn analyse(
        &self,
        game: &Game,
        _limit: AnalysisLimit,
        _stop: Arc<AtomicBool>,
    ) -> Option<Analysis> {
        let mut pos = game.position().clone();
        let mut pv = Vec::new();
        for text in &self.line {
            let m = springboard_rules::notation::uci::parse_uci(&pos, text).ok()?;
            pv.push(m);
            pos.play(m);
        }
        Some(Analysis {
            score: self.score,
            pv,
            depth: self.depth,
        })
    }
}

/// Thinks until it is stopped, telling the test when it starts.
pub struct Waiter {
    pub started: Mutex<mpsc::Sender<()>>,
}

impl EngineProvider for Waiter {
    fn name(&self) -> String {
        "waiter".into()
    }
    fn max_level(&self) -> u8 {
        1
    }
    fn best_move(&self, game: &Game, _level: u8, stop: Arc<AtomicBool>) -> Option<Move> {
        let _ = self.started.lock().unwrap().send(());
        while !stop.load(Ordering::Relaxed) {
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
        game.position().legal_moves().first().copied()
    }
    fn analyse(
        &self,
        game: &Game,
        _limit: AnalysisLimit,
        stop: Arc<AtomicBool>,
    ) -> Option<Analysis> {
        let pv = vec![self.best_move(game, 1, stop)?];
        Some(Analysis {
            score: Evaluation::Cp(0),
            pv,
            depth: 1,
        })
    }
}
