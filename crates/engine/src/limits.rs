//! What bounds a search, and the signals a front end sends to it.

use springboard_rules::Move;
use std::sync::atomic::{AtomicBool, Ordering};

/// The limits of one search (UCI `go` parameters). Fields left `None` do
/// not limit. With no limit at all the search runs until stopped.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Exact time for this move, in milliseconds.
    pub movetime: Option<u64>,
    /// Clock times and increments in milliseconds, by colour.
    pub wtime: Option<u64>,
    pub btime: Option<u64>,
    pub winc: Option<u64>,
    pub binc: Option<u64>,
    pub movestogo: Option<u32>,
    /// Search until `stop`, whatever else is set.
    pub infinite: bool,
    /// Search for mate in this many moves (stops when found).
    pub mate: Option<u32>,
    /// Root moves (whole turns) the search must not play: a front end
    /// whose GUI cannot relay some moves leaves them out. Ignored when it
    /// would leave out every legal move.
    pub excluded: Vec<Move>,
}

impl Limits {
    /// Whether the search ends by itself: it has a depth, node, time or
    /// clock limit and is not `infinite`. (Without one it runs until
    /// stopped; a `mate` search without a limit may never find its mate.)
    pub fn is_bounded(&self) -> bool {
        !self.infinite
            && (self.depth.is_some()
                || self.nodes.is_some()
                || self.movetime.is_some()
                || self.wtime.is_some()
                || self.btime.is_some())
    }
}

/// Signals from the front end to a running search, shared between threads.
#[derive(Debug, Default)]
pub struct Signals {
    /// Stop as soon as possible and return the best move so far.
    pub stop: AtomicBool,
    /// The search is pondering: no time limit applies until this is
    /// cleared (UCI `ponderhit`), and the result waits for it.
    pub pondering: AtomicBool,
}

impl Signals {
    pub fn new() -> Signals {
        Signals::default()
    }

    /// A fresh set of signals for a search that ponders or not.
    pub fn with_ponder(ponder: bool) -> Signals {
        Signals {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(ponder),
        }
    }

    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    pub fn ponderhit(&self) {
        self.pondering.store(false, Ordering::SeqCst);
    }

    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    pub fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounded_searches() {
        assert!(!Limits::default().is_bounded());
        let depth = Limits {
            depth: Some(3),
            ..Limits::default()
        };
        assert!(depth.is_bounded());
        let infinite = Limits {
            infinite: true,
            ..depth.clone()
        };
        assert!(!infinite.is_bounded());
        let mate = Limits {
            mate: Some(2),
            ..Limits::default()
        };
        assert!(!mate.is_bounded());
        let clock = Limits {
            btime: Some(1000),
            ..Limits::default()
        };
        assert!(clock.is_bounded());
    }
}
