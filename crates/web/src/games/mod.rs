//! The games being played: each one a [`GameRecord`] in the store and, in
//! memory, the rules core's [`Game`] rebuilt from it. Every change goes
//! through [`Games::change`]: the game's own lock (no global lock is held
//! while a move is checked or a view built), the flag check, the change on
//! a copy, the compare-and-set write to the store, and only then the new
//! state in memory and the news to every socket of the game.

pub(crate) mod analysis;
mod apply;
pub(crate) mod conditional;
pub mod corr;
pub(crate) mod ctx;
pub(crate) mod ended;
pub(crate) mod engine;
pub mod error;
pub(crate) mod export;
pub(crate) mod http;
pub(crate) mod limit;
pub(crate) mod list;
pub mod news;
pub mod rated;
mod request;
pub(crate) mod turn;
pub(crate) mod view;
pub use crate::store::kinds;

use crate::clock::Clock;
use crate::seat::{self, Holder};
use crate::store::{Ending, GameEndHook, GameEnded, GameRecord, GameStore, MoveRecord, StoreError};
use springboard_rules::notation::missing::missing_part;
use springboard_rules::notation::san::to_san;
use springboard_rules::notation::uci::{parse_uci, to_uci};
use springboard_rules::{Color, DrawReason, Game, Move, Outcome, Position, Variant, WinReason};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

pub use apply::resolve;
use apply::{apply, log_lifecycle, Applied};
pub use ctx::{GamesCtx, GamesState};
pub use error::{GameError, OfferKind};
pub use kinds::{color_from, Mode, Origin, Status};

/// How many games are kept in memory (the others are read from the store
/// when asked for).
pub const CACHE_CAPACITY: usize = 4096;

/// A game nobody has asked for in this long (milliseconds), that no
/// request holds and no socket watches, leaves memory (it stays in the
/// store): a server that runs for weeks keeps only the games in use, not
/// the last [`CACHE_CAPACITY`] ever opened.
pub const IDLE_MS: i64 = 10 * 60 * 1000;

/// How long a side of a rated game has for its first move (from the
/// start of the game for White, from White's first move for Black); then
/// the game is aborted: no result, no rating change (as lichess aborts a
/// game nobody starts).
pub const ABORT_MS: i64 = 30_000;

/// The result and reason of an aborted game.
pub const ABORTED: (&str, &str) = ("*", "aborted");

/// A game in memory: its record and the rules core's game.
#[derive(Clone, Debug)]
pub struct Live {
    pub rec: GameRecord,
    pub game: Game,
    /// Raised when the game changes: stops an engine thinking about it.
    pub engine_stop: Arc<AtomicBool>,
    /// Raised when the game changes or a newer analysis starts.
    pub analysis_stop: Arc<AtomicBool>,
}

impl Live {
    /// Rebuilds the game from its record: every stored move is played again
    /// by the rules core.
    pub fn from_record(rec: GameRecord) -> Result<Live, GameError> {
        let corrupt = |what: String| GameError::Corrupt {
            id: rec.id.clone(),
            what,
        };
        let variant: Variant = rec
            .variant
            .parse()
            .map_err(|e: springboard_rules::VariantError| corrupt(e.to_string()))?;
        let start = Position::from_fen(variant, &rec.start_fen)
            .map_err(|e| corrupt(format!("bad start position: {e}")))?;
        let mut game = Game::new(start);
        for m in &rec.moves {
            let mv = parse_uci(game.position(), &m.uci)
                .map_err(|e| corrupt(format!("stored move {}: {e}", m.uci)))?;
            game.play(mv)
                .map_err(|e| corrupt(format!("stored move {}: {e}", m.uci)))?;
        }
        Ok(Live {
            rec,
            game,
            engine_stop: Arc::new(AtomicBool::new(false)),
            analysis_stop: Arc::new(AtomicBool::new(false)),
        })
    }

    pub fn plies(&self) -> usize {
        self.game.moves().len()
    }

    pub fn seat(&self, c: Color) -> Option<&str> {
        match c {
            Color::White => self.rec.white_seat.as_deref(),
            Color::Black => self.rec.black_seat.as_deref(),
        }
    }

    /// The seats of this game that `who` holds.
    pub fn seats_of(&self, who: Option<&Holder>) -> Vec<Color> {
        Color::ALL
            .into_iter()
            .filter(|&c| who.is_some_and(|w| w.holds(self.seat(c))))
            .collect()
    }

    pub fn engine_color(&self) -> Option<Color> {
        self.rec.engine_color
    }

    pub fn is_over(&self) -> bool {
        self.rec.status == Status::Ended
    }

    /// Whether the engine is to move in a game still being played.
    pub fn engine_to_move(&self) -> bool {
        self.rec.status == Status::Playing
            && self.engine_color() == Some(self.game.position().turn())
    }

    /// The side whose clock runs: the side to move once the first move is
    /// made (in a correspondence game, from the start), in a game with a
    /// clock that is being played.
    pub fn running(&self) -> Option<Color> {
        (self.rec.clock_initial_ms.is_some()
            && self.rec.status == Status::Playing
            && (self.plies() > 0 || self.rec.is_correspondence()))
        .then(|| self.game.position().turn())
    }

    fn stored_ms(&self, c: Color) -> i64 {
        match c {
            Color::White => self.rec.white_ms.unwrap_or(0),
            Color::Black => self.rec.black_ms.unwrap_or(0),
        }
    }

    fn set_ms(&mut self, c: Color, ms: i64) {
        match c {
            Color::White => self.rec.white_ms = Some(ms),
            Color::Black => self.rec.black_ms = Some(ms),
        }
    }

    /// The remaining time of `c` at `now` (None without a clock).
    pub fn remaining(&self, c: Color, now: i64) -> Option<i64> {
        self.rec.clock_initial_ms?;
        let stored = self.stored_ms(c);
        Some(if self.running() == Some(c) {
            let started = self.rec.turn_started_at.unwrap_or(now);
            stored.saturating_sub(now.saturating_sub(started).max(0))
        } else {
            stored
        })
    }

    fn end(&mut self, result: &str, reason: &str) {
        self.rec.status = Status::Ended;
        self.rec.result = Some(result.into());
        self.rec.reason = Some(reason.into());
        self.rec.draw_offer = None;
        self.rec.takeback_offer = None;
        self.rec.conditionals = Default::default();
    }

    /// Whether the game may still be aborted: being played (or waiting)
    /// and before both sides have moved.
    pub fn abortable(&self) -> bool {
        self.rec.status != Status::Ended && self.plies() < 2
    }

    /// When a rated game is aborted if the side to move has not made its
    /// first move ([`ABORT_MS`] after the turn started); None when no
    /// such limit runs (a correspondence game's first moves have its
    /// whole time: a flag that falls before both sides have moved aborts
    /// a rated one).
    pub fn abort_at(&self) -> Option<i64> {
        if !self.rec.rated
            || self.rec.status != Status::Playing
            || self.plies() >= 2
            || self.rec.is_correspondence()
        {
            return None;
        }
        self.rec.turn_started_at.map(|t| t.saturating_add(ABORT_MS))
    }

    fn abort(&mut self) {
        self.end(ABORTED.0, ABORTED.1);
    }

    /// Ends the game on time if the running side's time is up, or aborts
    /// a rated game whose side to move has not made its first move in
    /// time (a flag that falls before both sides have moved in a rated
    /// game aborts it too). True if it did.
    fn check_flag(&mut self, now: i64) -> bool {
        if self.abort_at().is_some_and(|at| now >= at) {
            self.abort();
            return true;
        }
        let Some(side) = self.running() else {
            return false;
        };
        if self.remaining(side, now).is_some_and(|ms| ms > 0) {
            return false;
        }
        self.set_ms(side, 0);
        self.rec.turn_started_at = Some(now);
        if self.rec.rated && self.plies() < 2 {
            self.abort();
        } else if self.game.position().can_mate(!side) {
            self.end(win_result(!side), "time");
        } else {
            self.end("1/2-1/2", "time vs insufficient material");
        }
        true
    }

    /// Plays a move checked by the rules core, with its clock reading.
    fn play(&mut self, m: Move, now: i64) -> Result<(), GameError> {
        let before = self.game.position().clone();
        let mover = before.turn();
        self.game
            .play(m)
            .map_err(|e| GameError::IllegalMove(e.to_string()))?;
        let played = *self.game.moves().last().unwrap_or(&m);
        let mut ms = None;
        if self.rec.clock_initial_ms.is_some() {
            let left = if let Some(corr) = self.rec.correspondence {
                let started = self.rec.turn_started_at.unwrap_or(now);
                corr.after_move(
                    self.stored_ms(mover)
                        .saturating_sub(now.saturating_sub(started).max(0)),
                )
            } else if self.plies() > 1 {
                let started = self.rec.turn_started_at.unwrap_or(now);
                self.stored_ms(mover)
                    .saturating_sub(now.saturating_sub(started).max(0))
                    .saturating_add(self.rec.clock_increment_ms.unwrap_or(0))
            } else {
                self.stored_ms(mover)
            };
            self.set_ms(mover, left);
            self.rec.turn_started_at = Some(now);
            ms = Some(left);
        }
        self.rec.moves.push(MoveRecord {
            uci: to_uci(&before, played),
            san: to_san(&before, played),
            ms,
            at: now,
        });
        self.rec.takeback_offer = None;
        if self.rec.draw_offer != Some(mover) {
            self.rec.draw_offer = None;
        }
        if let Some(o) = self.game.outcome() {
            let (result, reason) = outcome_words(o);
            self.end(result, reason);
        }
        Ok(())
    }

    /// Takes back `n` moves (at least one), with the clocks as they were.
    fn take_back(&mut self, n: usize, now: i64) -> Result<(), GameError> {
        if n == 0 || self.plies() < n {
            return Err(GameError::NothingToTakeBack);
        }
        for _ in 0..n {
            self.game.undo();
            self.rec.moves.pop();
        }
        if self.rec.clock_initial_ms.is_some() {
            for c in Color::ALL {
                let ms = self
                    .game
                    .positions()
                    .iter()
                    .zip(&self.rec.moves)
                    .rev()
                    .find(|(p, _)| p.turn() == c)
                    .and_then(|(_, m)| m.ms)
                    .or(self.rec.clock_initial_ms);
                self.set_ms(c, ms.unwrap_or(0));
            }
            self.rec.turn_started_at = Some(now);
        }
        if self.rec.status == Status::Ended {
            self.rec.status = Status::Playing;
        }
        self.rec.result = None;
        self.rec.reason = None;
        self.rec.draw_offer = None;
        self.rec.takeback_offer = None;
        self.rec.conditionals = Default::default();
        Ok(())
    }
}

fn win_result(winner: Color) -> &'static str {
    match winner {
        Color::White => "1-0",
        Color::Black => "0-1",
    }
}

/// The result and the reason's words of the rules core's outcome.
pub fn outcome_words(o: Outcome) -> (&'static str, &'static str) {
    let reason = match o {
        Outcome::Win {
            reason: WinReason::Checkmate,
            ..
        } => "checkmate",
        Outcome::Win {
            reason: WinReason::WeakSquare,
            ..
        } => "weak square",
        Outcome::Draw(DrawReason::Stalemate) => "stalemate",
        Outcome::Draw(DrawReason::Repetition) => "threefold repetition",
        Outcome::Draw(DrawReason::FiftyMoves) => "fifty moves",
        Outcome::Draw(DrawReason::InsufficientMaterial) => "insufficient material",
    };
    (o.result_str(), reason)
}

/// What a request asks of a game.
#[derive(Clone, Debug)]
pub enum Action {
    /// A move in long notation; `ply`: the number of moves before it.
    Move {
        text: String,
        ply: Option<usize>,
    },
    /// Take the free seat of a waiting friend game with its invitation's
    /// token.
    Join {
        invite: Option<String>,
    },
    Resign,
    /// A player ends the game before both sides have moved: no result.
    Abort,
    Draw(Answer),
    Takeback(Answer),
    Rematch(Answer),
    /// Local games: take back `n` moves.
    Undo(usize),
    /// The engine's move, found for the game at `version`.
    Engine {
        m: Move,
        version: i64,
    },
    /// Nothing but the flag check (and the clocks' restart after a restart
    /// of the server when `restart`; a correspondence game's clock never
    /// restarts: the time the server was down counts).
    Touch {
        restart: bool,
    },
    /// Replaces the asker's conditional moves in a correspondence game
    /// (`conditional.rs`); an empty list clears them.
    Conditional(Vec<Vec<String>>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    Offer,
    Accept,
    Decline,
}

/// What a change did.
#[derive(Debug)]
pub struct Done {
    /// The game after the change (a snapshot: views are built from it with
    /// no lock held).
    pub live: Live,
    /// Whether the game changed (and was written).
    pub changed: bool,
    /// The new game of a rematch.
    pub rematch: Option<GameRecord>,
}

/// A game in memory and when it was last asked for (the clock's
/// milliseconds).
struct Entry {
    slot: Arc<tokio::sync::Mutex<Live>>,
    used: i64,
}

impl Entry {
    fn new(live: Live, now: i64) -> Entry {
        Entry {
            slot: Arc::new(tokio::sync::Mutex::new(live)),
            used: now,
        }
    }
}

type Cache = HashMap<String, Entry>;

/// How many game ends a slow subscriber may fall behind before it misses
/// some ([`tokio::sync::broadcast`]).
pub const ENDED_CAPACITY: usize = 1024;

/// Who hears of the games' changes: the live domain's hub implements it
/// (the games domain knows nothing of sockets).
pub trait ChangeSink: Send + Sync {
    /// Game `id` is now at `version` (after the change's commit).
    fn publish(&self, id: &str, version: i64);
    /// Game `id` is now at `version` after one move, told as `news`
    /// ([`news::MoveNews`]); a sink that does not carry moves hears only
    /// the version.
    fn moved(&self, id: &str, version: i64, news: &news::MoveNews) {
        let _ = news;
        self.publish(id, version);
    }
    /// Whether someone watches game `id` (it then stays in memory).
    fn has(&self, id: &str) -> bool;
}

/// Nobody watches: the sink of games that are not served (tests).
struct Unwatched;

impl ChangeSink for Unwatched {
    fn publish(&self, _id: &str, _version: i64) {}
    fn has(&self, _id: &str) -> bool {
        false
    }
}

/// The games: store, clock and the games in memory.
pub struct Games {
    pub store: Arc<dyn GameStore>,
    pub clock: Arc<dyn Clock>,
    /// Who is told of every change (the live domain's hub).
    pub watchers: Arc<dyn ChangeSink>,
    /// The other domains' hooks, run in the transaction that ends a game.
    pub end_hooks: Vec<Arc<dyn GameEndHook>>,
    /// Every game's end, after its commit, to the in-process subscribers.
    pub ended: tokio::sync::broadcast::Sender<GameEnded>,
    cache: Mutex<Cache>,
}

impl Games {
    pub fn new(store: Arc<dyn GameStore>, clock: Arc<dyn Clock>) -> Games {
        Games {
            store,
            clock,
            watchers: Arc::new(Unwatched),
            end_hooks: Vec::new(),
            ended: tokio::sync::broadcast::channel(ENDED_CAPACITY).0,
            cache: Mutex::new(HashMap::new()),
        }
    }

    pub fn now(&self) -> i64 {
        self.clock.now_ms()
    }

    fn cache(&self) -> std::sync::MutexGuard<'_, Cache> {
        self.cache.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Makes room for a game about to enter memory: the games idle for
    /// [`IDLE_MS`] (no request holds them, no socket watches them) leave,
    /// and when the cache is still full, a quarter of those nobody is
    /// using (they stay in the store).
    fn make_room(&self, cache: &mut Cache) {
        let now = self.now();
        cache.retain(|id, e| {
            Arc::strong_count(&e.slot) > 1
                || now.saturating_sub(e.used) <= IDLE_MS
                || self.watchers.has(id)
        });
        if cache.len() >= CACHE_CAPACITY {
            let unused: Vec<String> = cache
                .iter()
                .filter(|(_, e)| Arc::strong_count(&e.slot) == 1)
                .map(|(k, _)| k.clone())
                .take(CACHE_CAPACITY / 4 + 1)
                .collect();
            for k in unused {
                cache.remove(&k);
            }
        }
    }

    /// The game `id` in memory, read from the store if needed.
    async fn slot(&self, id: &str) -> Result<Arc<tokio::sync::Mutex<Live>>, GameError> {
        let missing = || GameError::NotFound(id.to_string());
        if !seat::is_game_id(id) {
            return Err(missing());
        }
        let now = self.now();
        if let Some(e) = self.cache().get_mut(id) {
            e.used = now;
            return Ok(Arc::clone(&e.slot));
        }
        let rec = self.store.load(id).await?.ok_or_else(missing)?;
        let live = Live::from_record(rec)?;
        let mut cache = self.cache();
        self.make_room(&mut cache);
        let e = cache
            .entry(id.to_string())
            .or_insert_with(|| Entry::new(live, now));
        e.used = now;
        Ok(Arc::clone(&e.slot))
    }

    /// Forgets the game in memory (after a lost compare-and-set: the store
    /// has a newer version).
    fn forget(&self, id: &str) {
        self.cache().remove(id);
    }

    /// Stores a new game and keeps it in memory.
    pub async fn insert(&self, mut rec: GameRecord) -> Result<Live, GameError> {
        loop {
            match self.store.insert(&rec).await {
                Ok(()) => break,
                Err(StoreError::Duplicate(_)) => rec.id = seat::new_game_id(),
                Err(e) => return Err(e.into()),
            }
        }
        let live = Live::from_record(rec)?;
        tracing::info!(
            game = %live.rec.id,
            variant = %live.rec.variant,
            mode = %live.rec.mode,
            status = %live.rec.status,
            clock_ms = live.rec.clock_initial_ms,
            "game created"
        );
        let now = self.now();
        let mut cache = self.cache();
        self.make_room(&mut cache);
        cache.insert(live.rec.id.clone(), Entry::new(live.clone(), now));
        Ok(live)
    }

    /// A snapshot of game `id` (its flag checked first).
    pub async fn get(&self, id: &str) -> Result<Live, GameError> {
        Ok(self
            .change(id, None, Action::Touch { restart: false })
            .await?
            .live)
    }

    /// Applies `action` of `who` (None: the server itself) to game `id`.
    pub async fn change(
        &self,
        id: &str,
        who: Option<&Holder>,
        action: Action,
    ) -> Result<Done, GameError> {
        let slot = self.slot(id).await?;
        let mut guard = slot.lock().await;
        self.refresh(&mut guard).await?;
        let now = self.now();
        let mut next = guard.clone();
        let flagged = next.check_flag(now);
        let outcome = apply(&mut next, who, &action, now);
        let (changed, rematch, result) = match outcome {
            Ok(Applied { changed, rematch }) => (changed || flagged, rematch, Ok(())),
            // A refused request still lets a fallen flag be recorded.
            Err(e) => (flagged, None, Err(e)),
        };
        if changed {
            let expected = guard.rec.version;
            next.rec.version = expected.saturating_add(1);
            next.rec.updated_at = now;
            let also: Vec<GameRecord> = rematch.iter().cloned().collect();
            let ended = GameEnded::of_change(&guard.rec, &next.rec);
            let ending = ended.as_ref().map(|event| Ending {
                event,
                hooks: &self.end_hooks,
            });
            let written = self
                .store
                .update(&next.rec, expected, &also, ending)
                .await?;
            if !written {
                drop(guard);
                self.forget(id);
                return Err(GameError::Raced);
            }
            log_lifecycle(&next, &action, rematch.as_ref());
            // A player's conditional moves are theirs alone: setting them
            // tells no socket (nor another process) that the game moved.
            let quiet = matches!(action, Action::Conditional(_)) && !flagged;
            // One move played: the sockets get the move itself.
            let news = news::MoveNews::of_change(&guard.rec, &next, now);
            if let Some(event) = ended {
                // No subscriber is no error.
                let _ = self.ended.send(event);
            }
            guard.engine_stop.store(true, Ordering::Relaxed);
            guard.analysis_stop.store(true, Ordering::Relaxed);
            next.engine_stop = Arc::new(AtomicBool::new(false));
            next.analysis_stop = Arc::new(AtomicBool::new(false));
            *guard = next;
            let version = guard.rec.version;
            drop(guard);
            if let Some(r) = &rematch {
                if let Ok(live) = Live::from_record(r.clone()) {
                    let now = self.now();
                    let mut cache = self.cache();
                    self.make_room(&mut cache);
                    cache.insert(r.id.clone(), Entry::new(live, now));
                }
            }
            if !quiet {
                match &news {
                    Some(n) => self.watchers.moved(id, version, n),
                    None => self.watchers.publish(id, version),
                }
                // Other processes learn of it (PostgreSQL); a failure here
                // does not undo the committed change.
                let _ = self.store.changed(id, version).await;
            }
            let live = slot.lock().await.clone();
            result?;
            return Ok(Done {
                live,
                changed: true,
                rematch,
            });
        }
        result?;
        Ok(Done {
            live: guard.clone(),
            changed: false,
            rematch: None,
        })
    }

    /// Raises the analysis stop flag of game `id` and gives a fresh one:
    /// only one analysis per game runs.
    pub async fn new_analysis(&self, id: &str) -> Result<(Live, Arc<AtomicBool>), GameError> {
        let slot = self.slot(id).await?;
        let mut guard = slot.lock().await;
        guard.analysis_stop.store(true, Ordering::Relaxed);
        guard.analysis_stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&guard.analysis_stop);
        Ok((guard.clone(), flag))
    }

    /// Stops the engine request of game `id` that is running, if any, and
    /// gives the flag a new one watches: one engine job per game.
    pub async fn new_engine_job(&self, id: &str) -> Result<(Live, Arc<AtomicBool>), GameError> {
        let slot = self.slot(id).await?;
        let mut guard = slot.lock().await;
        guard.engine_stop.store(true, Ordering::Relaxed);
        guard.engine_stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&guard.engine_stop);
        Ok((guard.clone(), flag))
    }

    /// The in-memory state of game `id` without a flag check (for the
    /// engine pool).
    pub async fn peek(&self, id: &str) -> Result<Live, GameError> {
        let slot = self.slot(id).await?;
        let mut guard = slot.lock().await;
        self.refresh(&mut guard).await?;
        Ok(guard.clone())
    }

    /// With other processes writing the same games (a shared store), the
    /// game in memory is trusted only while the stored version is its
    /// own: otherwise it is rebuilt from the store (and a search for the
    /// old position is stopped). Called with the game's lock held.
    async fn refresh(&self, live: &mut Live) -> Result<(), GameError> {
        if !self.store.shared() {
            return Ok(());
        }
        let id = live.rec.id.clone();
        let rec = self
            .store
            .load(&id)
            .await?
            .ok_or_else(|| GameError::NotFound(id.clone()))?;
        if rec.version != live.rec.version {
            live.engine_stop.store(true, Ordering::Relaxed);
            live.analysis_stop.store(true, Ordering::Relaxed);
            *live = Live::from_record(rec)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A new local chess game with no moves.
    fn new_record() -> GameRecord {
        let start = Position::startpos(Variant::Chess);
        GameRecord::new(seat::new_game_id(), "chess", start.to_fen(), Mode::Local, 1)
    }

    /// Creating games (which puts them in memory) keeps the games in
    /// memory under the capacity, as reading them does.
    #[tokio::test]
    async fn created_games_do_not_grow_the_memory_past_the_capacity() {
        let store = crate::store::SqliteStore::memory().await.unwrap();
        let games = Games::new(Arc::new(store), Arc::new(crate::clock::SystemClock));
        for _ in 0..CACHE_CAPACITY + 100 {
            games.insert(new_record()).await.unwrap();
            assert!(games.cache().len() <= CACHE_CAPACITY);
        }
    }

    /// Issue 16's soak: memory grew with every game ever opened (up to the
    /// capacity). A game idle for IDLE_MS that no socket watches leaves
    /// memory when another enters, and is read back from the store when
    /// asked for; a watched one stays.
    #[tokio::test]
    async fn idle_games_leave_memory_and_watched_ones_stay() {
        let store = crate::store::SqliteStore::memory().await.unwrap();
        let clock = Arc::new(crate::clock::ManualClock::new(1_000));
        let mut games = Games::new(Arc::new(store), clock.clone());
        let hub = Arc::new(crate::live::hub::Hub::default());
        games.watchers = hub.clone();
        let idle = games.insert(new_record()).await.unwrap().rec.id;
        let watched = games.insert(new_record()).await.unwrap().rec.id;
        let rx = hub.join(&watched, crate::live::hub::Presence::default());
        let recent = games.insert(new_record()).await.unwrap().rec.id;
        clock.advance(IDLE_MS);
        // Touched just now: stays, like the watched one.
        games.get(&recent).await.unwrap();
        clock.advance(1);
        let newcomer = games.insert(new_record()).await.unwrap().rec.id;
        {
            let cache = games.cache();
            assert!(!cache.contains_key(&idle), "an idle game left memory");
            assert!(cache.contains_key(&watched), "a watched game stays");
            assert!(cache.contains_key(&recent), "a recently used game stays");
            assert!(cache.contains_key(&newcomer));
        }
        // The idle game is still there for whoever asks.
        let back = games.get(&idle).await.unwrap();
        assert_eq!(back.rec.id, idle);
        assert!(games.cache().contains_key(&idle));
        hub.leave(&watched, crate::live::hub::Presence::default(), rx);
    }
}
