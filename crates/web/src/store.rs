//! The games being played: an in-memory store keyed by game id, bounded in
//! size (the least recently used game goes when it is full).

use crate::error::ApiError;
use springboard_rules::notation::{san::to_san, uci::to_uci};
use springboard_rules::{Game, Move, Position};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// One played move, with its notations (computed once, when played).
#[derive(Clone, Debug)]
pub struct PlyRecord {
    pub uci: String,
    pub san: String,
}

/// A game in the store.
#[derive(Debug)]
pub struct Entry {
    pub game: Game,
    pub history: Vec<PlyRecord>,
    /// Raised to stop an engine that thinks about this game; replaced by a
    /// fresh flag on every change.
    stop: Arc<AtomicBool>,
    /// Counts changes, so that an engine's answer for an old position is
    /// thrown away.
    pub generation: u64,
    /// Raised to stop the analysis of this game that is running, when a
    /// newer one starts or the game changes.
    analysis_stop: Arc<AtomicBool>,
    last_used: u64,
}

impl Entry {
    fn new(game: Game) -> Entry {
        let mut history = Vec::with_capacity(game.moves().len());
        for (pos, &m) in game.positions().iter().zip(game.moves()) {
            history.push(record(pos, m));
        }
        Entry {
            game,
            history,
            stop: Arc::new(AtomicBool::new(false)),
            generation: 0,
            analysis_stop: Arc::new(AtomicBool::new(false)),
            last_used: 0,
        }
    }

    fn changed(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        self.stop = Arc::new(AtomicBool::new(false));
        self.analysis_stop.store(true, Ordering::Relaxed);
        self.generation += 1;
    }

    /// The flag an engine thinking about the current position watches.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// Stops the analysis of this game that is running, if any, and returns
    /// the flag a new analysis watches: only one analysis per game runs.
    pub fn new_analysis(&mut self) -> Arc<AtomicBool> {
        self.analysis_stop.store(true, Ordering::Relaxed);
        self.analysis_stop = Arc::new(AtomicBool::new(false));
        Arc::clone(&self.analysis_stop)
    }

    /// Plays a move checked by the rules core.
    pub fn play(&mut self, m: Move) -> Result<(), ApiError> {
        if let Some(outcome) = self.game.outcome() {
            return Err(ApiError::Conflict(format!(
                "the game is over ({}, {})",
                outcome.result_str(),
                outcome.reason_str()
            )));
        }
        let before = self.game.position().clone();
        self.game
            .play(m)
            .map_err(|e| ApiError::Conflict(e.to_string()))?;
        let played = *self.game.moves().last().unwrap_or(&m);
        self.history.push(record(&before, played));
        self.changed();
        Ok(())
    }

    /// Takes back up to `plies` moves; an error if there is none.
    pub fn undo(&mut self, plies: usize) -> Result<(), ApiError> {
        if self.game.moves().is_empty() {
            return Err(ApiError::Conflict("there is no move to take back".into()));
        }
        for _ in 0..plies {
            if self.game.undo().is_none() {
                break;
            }
            self.history.pop();
        }
        self.changed();
        Ok(())
    }
}

fn record(pos: &Position, m: Move) -> PlyRecord {
    PlyRecord {
        uci: to_uci(pos, m),
        san: to_san(pos, m),
    }
}

/// The store of games.
#[derive(Debug)]
pub struct Store {
    games: HashMap<u64, Entry>,
    capacity: usize,
    next_id: u64,
    clock: u64,
}

/// How many games the server keeps at most.
pub const DEFAULT_CAPACITY: usize = 256;

impl Store {
    pub fn new(capacity: usize) -> Store {
        Store {
            games: HashMap::new(),
            capacity: capacity.max(1),
            next_id: 1,
            clock: 0,
        }
    }

    /// Adds a game and returns its id, dropping the least recently used
    /// game when the store is full.
    pub fn insert(&mut self, game: Game) -> u64 {
        while self.games.len() >= self.capacity {
            let oldest = self
                .games
                .iter()
                .min_by_key(|(_, e)| e.last_used)
                .map(|(&id, _)| id);
            match oldest {
                Some(id) => {
                    if let Some(mut e) = self.games.remove(&id) {
                        e.changed();
                    }
                }
                None => break,
            }
        }
        let id = self.next_id;
        self.next_id += 1;
        self.clock += 1;
        let mut entry = Entry::new(game);
        entry.last_used = self.clock;
        self.games.insert(id, entry);
        id
    }

    /// The game `id`, marked as used.
    pub fn get_mut(&mut self, id: u64) -> Result<&mut Entry, ApiError> {
        self.clock += 1;
        let clock = self.clock;
        let entry = self
            .games
            .get_mut(&id)
            .ok_or_else(|| ApiError::NotFound(format!("no game with id {id}")))?;
        entry.last_used = clock;
        Ok(entry)
    }

    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.games.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use springboard_rules::Variant;

    #[test]
    fn store_is_bounded_and_drops_the_least_recently_used() {
        let mut store = Store::new(2);
        let a = store.insert(Game::new(Position::startpos(Variant::Chess)));
        let b = store.insert(Game::new(Position::startpos(Variant::Chess)));
        store.get_mut(a).unwrap();
        let c = store.insert(Game::new(Position::startpos(Variant::Chess)));
        assert_eq!(store.len(), 2);
        assert!(store.get_mut(a).is_ok());
        assert!(matches!(store.get_mut(b), Err(ApiError::NotFound(_))));
        assert!(store.get_mut(c).is_ok());
    }
}
