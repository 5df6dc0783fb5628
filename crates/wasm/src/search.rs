//! The engine in the browser: one search thread, its progress reported
//! after each iteration (depth, score, best line, nodes) to a callback that
//! may stop it.

use crate::error::WasmError;
use crate::game::GameState;
use serde::{Deserialize, Serialize};
use springboard_engine::tt::Bound;
use springboard_engine::{Engine, Info, Level, Limits, Score, Signals, Strength};
use springboard_rules::notation::{san::to_san, uci::to_uci};
use springboard_rules::{Move, Position};

/// What bounds a search. With none the search goes on until the callback
/// stops it (or the depth cap of the engine).
#[derive(Deserialize, Debug, Default, Clone, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct SearchLimits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Milliseconds.
    pub movetime: Option<u64>,
    /// Lines to report, at least 1.
    pub multipv: Option<usize>,
    /// A playing level of the page (1..=21, clamped), as the server plays
    /// it (`springboard_engine::Level`): its strength, and its think time
    /// unless `movetime` is given. Without it, full strength.
    pub level: Option<u8>,
}

impl SearchLimits {
    pub fn from_json(text: &str) -> Result<SearchLimits, WasmError> {
        if text.trim().is_empty() {
            return Ok(SearchLimits::default());
        }
        serde_json::from_str(text).map_err(|e| WasmError::Limits(e.to_string()))
    }
}

/// A score for the side to move: centipawns or mate in moves.
#[derive(Serialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum ScoreView {
    Cp(i32),
    Mate(i32),
}

impl From<Score> for ScoreView {
    fn from(s: Score) -> ScoreView {
        match s {
            Score::Cp(v) => ScoreView::Cp(v),
            Score::Mate(v) => ScoreView::Mate(v),
        }
    }
}

/// One report of a running search (one per line and iteration).
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct InfoView {
    pub depth: u32,
    pub seldepth: u32,
    /// 1-based index of the line.
    pub multipv: usize,
    pub score: ScoreView,
    /// `lower` or `upper` when the iteration was cut short.
    pub bound: Option<&'static str>,
    pub nodes: u64,
    pub nps: u64,
    pub time_ms: u64,
    /// The best line in long notation and in SAN.
    pub pv: Vec<String>,
    pub pv_san: Vec<String>,
}

/// The outcome of a search.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct ResultView {
    /// None only when the position has no legal move.
    pub best: Option<String>,
    pub best_san: Option<String>,
    pub ponder: Option<String>,
    pub score: ScoreView,
    pub depth: u32,
    pub nodes: u64,
}

/// The long notation and SAN of `line` played from `pos` (cut where a move
/// is not legal, which a line from the search never is).
fn line_views(pos: &Position, line: &[Move]) -> (Vec<String>, Vec<String>) {
    let mut pos = pos.clone();
    let mut uci = Vec::with_capacity(line.len());
    let mut san = Vec::with_capacity(line.len());
    for &m in line {
        if !pos.is_legal(m) {
            break;
        }
        uci.push(to_uci(&pos, m));
        san.push(to_san(&pos, m));
        pos.play(m);
    }
    (uci, san)
}

fn info_view(pos: &Position, info: &Info) -> InfoView {
    let (pv, pv_san) = line_views(pos, &info.pv);
    InfoView {
        depth: info.depth,
        seldepth: info.seldepth,
        multipv: info.multipv,
        score: info.score.into(),
        bound: info.bound.map(|b| match b {
            Bound::Lower => "lower",
            Bound::Upper => "upper",
            Bound::Exact => "exact",
        }),
        nodes: info.nodes,
        nps: info.nps,
        time_ms: info.time_ms,
        pv,
        pv_san,
    }
}

/// An engine with its transposition table, kept from one search to the
/// next (a new game forgets it).
pub struct Analyser {
    engine: Engine,
}

impl Analyser {
    /// An engine with a `hash_mb` megabyte table (at least 1).
    pub fn new(hash_mb: usize) -> Analyser {
        Analyser {
            engine: Engine::new(hash_mb.max(1)),
        }
    }

    pub fn new_game(&mut self) {
        self.engine.new_game();
    }

    /// Searches the current position of `game`. `on_info` hears every
    /// report and returns true to stop the search, which then answers with
    /// the best move so far.
    pub fn search(
        &mut self,
        game: &GameState,
        limits: &SearchLimits,
        on_info: &mut dyn FnMut(&InfoView) -> bool,
    ) -> ResultView {
        // One thread: a browser's WebAssembly has none to share memory with
        // here. Never `infinite`: the search cannot sleep while it waits
        // for a stop, so an unbounded search ends at the engine's depth cap.
        self.engine.threads = 1;
        self.engine.multipv = limits.multipv.unwrap_or(1).max(1);
        let level = limits.level.map(Level::new);
        self.engine.strength = level.map_or(Strength::FULL, Level::strength);
        let engine_limits = Limits {
            depth: limits.depth,
            nodes: limits.nodes,
            movetime: limits.movetime.or(level.map(Level::think_ms)),
            ..Limits::default()
        };
        let pos = game.position();
        let signals = Signals::new();
        let result = self.engine.search(
            pos,
            &game.history_keys(),
            &engine_limits,
            &signals,
            &mut |info| {
                if on_info(&info_view(pos, info)) {
                    signals.stop();
                }
            },
        );
        ResultView {
            best: result.best.map(|m| to_uci(pos, m)),
            best_san: result.best.map(|m| to_san(pos, m)),
            ponder: result.best.zip(result.ponder).map(|(b, p)| {
                let mut after = pos.clone();
                after.play(b);
                to_uci(&after, p)
            }),
            score: result.score.into(),
            depth: result.depth,
            nodes: result.nodes,
        }
    }
}
