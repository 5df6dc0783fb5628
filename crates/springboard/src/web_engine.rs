//! The engine behind the web app: an adapter from `springboard-engine` to
//! the web crate's `EngineProvider` seam.

use springboard_engine::{Engine, Info, Level, Limits, Score, SearchResult, Signals};
use springboard_rules::{Game, Move, Variant};
use springboard_web::{
    Analysis, AnalysisLimit, EngineClock, EngineProvider, Evaluation, LevelLabel,
};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Levels 1..=21 of the page are the engine's `Level`s: skill levels
/// 0..=20, each with a think time that grows with the level, so low levels
/// answer at once (the browser's engine plays them the same way).
pub struct WebEngine {
    hash_mb: usize,
}

impl WebEngine {
    pub fn new(hash_mb: usize) -> WebEngine {
        WebEngine { hash_mb }
    }
}

impl EngineProvider for WebEngine {
    fn name(&self) -> String {
        format!("Springboard {}", env!("CARGO_PKG_VERSION"))
    }

    fn max_level(&self) -> u8 {
        Level::MAX
    }

    /// Level L is skill L-1: its name and the rating measured in the game
    /// (docs/engine.md, "The levels' ratings").
    fn level_label(&self, variant: Variant, level: u8) -> Option<LevelLabel> {
        let strength = Level::new(level).strength();
        Some(LevelLabel {
            name: strength.name(variant).to_string(),
            elo: Some(strength.rating(variant)),
        })
    }

    fn best_move(&self, game: &Game, level: u8, stop: Arc<AtomicBool>) -> Option<Move> {
        // One engine per request: games on the page think independently.
        let mut engine = Engine::new(self.hash_mb);
        let level = Level::new(level);
        engine.strength = level.strength();
        let limits = Limits {
            movetime: Some(level.think_ms()),
            ..Limits::default()
        };
        let result = search(&mut engine, game, &limits, None, &stop, &mut |_| {});
        if stop.load(Ordering::Relaxed) {
            None
        } else {
            result.best
        }
    }

    /// In a game with a clock the engine's own time manager shares out
    /// the clock; the level's think time stays the most it takes.
    fn best_move_on_clock(
        &self,
        game: &Game,
        level: u8,
        clock: EngineClock,
        stop: Arc<AtomicBool>,
    ) -> Option<Move> {
        let mut engine = Engine::new(self.hash_mb);
        let level = Level::new(level);
        engine.strength = level.strength();
        let (mine, theirs) = (Some(clock.own_ms), Some(clock.opponent_ms));
        let white = game.position().turn() == springboard_rules::Color::White;
        let limits = Limits {
            wtime: if white { mine } else { theirs },
            btime: if white { theirs } else { mine },
            winc: Some(clock.increment_ms),
            binc: Some(clock.increment_ms),
            ..Limits::default()
        };
        let cap = Some(Duration::from_millis(level.think_ms()));
        let result = search(&mut engine, game, &limits, cap, &stop, &mut |_| {});
        if stop.load(Ordering::Relaxed) {
            None
        } else {
            result.best
        }
    }

    fn analyse(
        &self,
        game: &Game,
        limit: AnalysisLimit,
        stop: Arc<AtomicBool>,
    ) -> Option<Analysis> {
        let mut engine = Engine::new(self.hash_mb);
        // No movetime: the engine's time manager answers at once when the
        // root has one legal move (right for play, not for analysis), so
        // the think time is kept here and the search stopped at the end.
        let limits = Limits {
            depth: match limit {
                AnalysisLimit::Depth(d, _) => Some(d),
                AnalysisLimit::Time(_) => None,
            },
            ..Limits::default()
        };
        // The line of the last whole iteration; an iteration cut short only
        // gives a bound.
        let mut last: Option<Info> = None;
        let deadline = Some(limit.time());
        let result = search(&mut engine, game, &limits, deadline, &stop, &mut |info| {
            if info.multipv == 1 && (info.bound.is_none() || last.is_none()) {
                last = Some(info.clone());
            }
        });
        analysis_of(result, last)
    }
}

/// The analysis from a search's result and its last reported line.
fn analysis_of(result: SearchResult, last: Option<Info>) -> Option<Analysis> {
    let best = result.best?;
    let (score, depth, pv) = match last {
        Some(info) if info.pv.first() == Some(&best) => (info.score, info.depth, info.pv),
        _ => (result.score, result.depth, vec![best]),
    };
    Some(Analysis {
        score: match score {
            Score::Cp(cp) => Evaluation::Cp(cp),
            Score::Mate(n) => Evaluation::Mate(n),
        },
        pv,
        depth,
    })
}

/// Searches `game`'s current position, relaying the web server's `stop`
/// flag into the search, and stopping it after `deadline` if one is given.
fn search(
    engine: &mut Engine,
    game: &Game,
    limits: &Limits,
    deadline: Option<Duration>,
    stop: &AtomicBool,
    on_info: &mut dyn FnMut(&Info),
) -> SearchResult {
    let positions = game.positions();
    let history: Vec<u64> = positions[..positions.len() - 1]
        .iter()
        .map(|p| p.hash())
        .collect();
    let signals = Signals::new();
    let done = AtomicBool::new(false);
    let start = Instant::now();
    std::thread::scope(|scope| {
        scope.spawn(|| {
            while !done.load(Ordering::Relaxed) {
                if stop.load(Ordering::Relaxed) || deadline.is_some_and(|d| start.elapsed() >= d) {
                    signals.stop();
                    break;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        });
        let result = engine.search(game.position(), &history, limits, &signals, on_info);
        done.store(true, Ordering::Relaxed);
        // In the web pool's job span: the game and the job are on the line.
        tracing::info!(
            nodes = result.nodes,
            depth = result.depth,
            score = ?result.score,
            ms = start.elapsed().as_millis() as u64,
            stopped = stop.load(Ordering::Relaxed),
            "search finished"
        );
        result
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use springboard_rules::notation::uci::parse_uci;
    use springboard_rules::{Position, Variant};

    #[test]
    fn plays_a_legal_move_and_takes_a_mate_in_one() {
        let engine = WebEngine::new(1);
        let start =
            Position::from_fen(Variant::Chess, "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1").unwrap();
        let game = Game::new(start);
        let m = engine
            .best_move(&game, 21, Arc::new(AtomicBool::new(false)))
            .unwrap();
        assert_eq!(m, parse_uci(game.position(), "a1a8").unwrap());
    }

    #[test]
    fn a_raised_stop_flag_gives_no_move() {
        let engine = WebEngine::new(1);
        let game = Game::new(Position::startpos(Variant::Chess));
        assert_eq!(
            engine.best_move(&game, 21, Arc::new(AtomicBool::new(true))),
            None
        );
    }

    #[test]
    fn analysis_finds_the_mate_and_its_line() {
        let engine = WebEngine::new(1);
        // White mates in one: the score is for the side to move.
        let start =
            Position::from_fen(Variant::Chess, "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1").unwrap();
        let game = Game::new(start);
        let limit = AnalysisLimit::Depth(4, Duration::from_secs(10));
        let a = engine
            .analyse(&game, limit, Arc::new(AtomicBool::new(false)))
            .unwrap();
        assert_eq!(a.score, Evaluation::Mate(1));
        assert_eq!(a.pv, vec![parse_uci(game.position(), "a1a8").unwrap()]);
        assert!(a.depth >= 1);
        // Black to move and mated in one: a negative mate.
        let black = Position::from_fen(Variant::Chess, "k7/8/1K6/8/8/8/8/7R b - - 0 1").unwrap();
        let a = engine
            .analyse(
                &Game::new(black.clone()),
                limit,
                Arc::new(AtomicBool::new(false)),
            )
            .unwrap();
        assert_eq!(a.score, Evaluation::Mate(-1));
        // Its one legal move, and White's mate.
        let kb8 = parse_uci(&black, "a8b8").unwrap();
        assert_eq!(a.pv.first(), Some(&kb8));
        assert_eq!(a.pv.len(), 2);
    }

    #[test]
    fn analysis_stops_when_told() {
        let engine = WebEngine::new(1);
        let game = Game::new(Position::startpos(Variant::Chess));
        // A think of an hour, stopped from outside: it returns its line.
        let stop = Arc::new(AtomicBool::new(false));
        let a = std::thread::scope(|scope| {
            scope.spawn(|| {
                std::thread::sleep(Duration::from_millis(100));
                stop.store(true, Ordering::Relaxed);
            });
            let limit = AnalysisLimit::Time(Duration::from_secs(3600));
            engine.analyse(&game, limit, Arc::clone(&stop))
        })
        .unwrap();
        assert!(a.depth >= 1);
        assert!(game.position().is_legal(a.pv[0]));
    }

    #[test]
    fn analysis_of_a_hop_chess_position_gives_whole_moves() {
        let engine = WebEngine::new(1);
        let game = Game::new(Position::startpos(Variant::HopChess));
        let limit = AnalysisLimit::Time(Duration::from_millis(300));
        let a = engine
            .analyse(&game, limit, Arc::new(AtomicBool::new(false)))
            .unwrap();
        // Every move of the line is a legal move of the game, in turn.
        let mut pos = game.position().clone();
        assert!(!a.pv.is_empty());
        for &m in &a.pv {
            assert!(pos.is_legal(m), "{m:?} in {}", pos.to_fen());
            pos.play(m);
        }
    }
}
