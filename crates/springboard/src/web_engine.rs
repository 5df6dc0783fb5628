//! The engine behind the web app: an adapter from `springboard-engine` to
//! the web crate's `EngineProvider` seam.

use springboard_engine::{Engine, Limits, Signals, Strength};
use springboard_rules::{Game, Move};
use springboard_web::EngineProvider;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Levels 1..=21 of the page are skill levels 0..=20; each gets a think
/// time that grows with the level, so low levels answer at once.
pub struct WebEngine {
    hash_mb: usize,
}

impl WebEngine {
    pub fn new(hash_mb: usize) -> WebEngine {
        WebEngine { hash_mb }
    }

    fn think_ms(level: u8) -> u64 {
        200 + 90 * u64::from(level.saturating_sub(1))
    }
}

impl EngineProvider for WebEngine {
    fn name(&self) -> String {
        format!("Springboard {}", env!("CARGO_PKG_VERSION"))
    }

    fn max_level(&self) -> u8 {
        21
    }

    fn best_move(&self, game: &Game, level: u8, stop: Arc<AtomicBool>) -> Option<Move> {
        // One engine per request: games on the page think independently.
        let mut engine = Engine::new(self.hash_mb);
        engine.strength = Strength::from_skill(i64::from(level.clamp(1, 21)) - 1);
        let limits = Limits {
            movetime: Some(WebEngine::think_ms(level)),
            ..Limits::default()
        };
        let positions = game.positions();
        let history: Vec<u64> = positions[..positions.len() - 1]
            .iter()
            .map(|p| p.hash())
            .collect();
        let signals = Signals::new();
        let done = AtomicBool::new(false);
        std::thread::scope(|scope| {
            // Relay the web server's stop flag into the search.
            scope.spawn(|| {
                while !done.load(Ordering::Relaxed) {
                    if stop.load(Ordering::Relaxed) {
                        signals.stop();
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(5));
                }
            });
            let result = engine.search(game.position(), &history, &limits, &signals, &mut |_| {});
            done.store(true, Ordering::Relaxed);
            if stop.load(Ordering::Relaxed) {
                None
            } else {
                result.best
            }
        })
    }
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
}
