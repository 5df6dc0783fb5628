//! The clocks and limits of `level`, `st`, `sd`, `time` and `otim`, and
//! the search limits they give.

use springboard_engine::Limits;
use springboard_rules::{Color, Position};

/// Clocks and limits set by `level`, `st`, `sd`, `time` and `otim`.
#[derive(Clone, Debug, Default)]
pub(super) struct Clock {
    /// Moves per time control (0: the whole game).
    pub(super) mps: u32,
    pub(super) inc_ms: u64,
    /// Fixed seconds per move (`st`), in ms.
    pub(super) st_ms: Option<u64>,
    pub(super) depth: Option<u32>,
    pub(super) own_ms: Option<u64>,
    pub(super) opp_ms: Option<u64>,
}

impl Clock {
    /// The limits of a search for the side to move in `root`, where the
    /// engine has made `engine_moves` moves (for moves per time control).
    pub(super) fn limits(&self, root: &Position, engine_moves: usize) -> Limits {
        let us = root.turn();
        let mut limits = Limits {
            depth: self.depth,
            // A move XBoard would mangle stops the game there: never play
            // one while another is legal.
            excluded: super::notation::unrelayable(root),
            ..Limits::default()
        };
        if let Some(st) = self.st_ms {
            limits.movetime = Some(st);
        } else if let Some(own) = self.own_ms {
            let opp = self.opp_ms.unwrap_or(own);
            let (w, b) = if us == Color::White {
                (own, opp)
            } else {
                (opp, own)
            };
            limits.wtime = Some(w);
            limits.btime = Some(b);
            limits.winc = Some(self.inc_ms);
            limits.binc = Some(self.inc_ms);
            if self.mps > 0 {
                let mps = self.mps as usize;
                limits.movestogo = Some((mps - engine_moves % mps) as u32);
            }
        } else if self.depth.is_none() {
            // No clock given: think five seconds.
            limits.movetime = Some(5000);
        }
        limits
    }
}

/// Minutes or `minutes:seconds` of `level`, in ms.
pub(super) fn parse_base(text: &str) -> Option<u64> {
    let (m, s) = text.split_once(':').unwrap_or((text, "0"));
    let m: f64 = m.parse().ok()?;
    let s: u64 = s.parse().ok()?;
    // Huge values saturate (a float cast does; the seconds must too).
    (m.is_finite() && m >= 0.0)
        .then(|| ((m * 60_000.0) as u64).saturating_add(s.saturating_mul(1000)))
}

pub(super) fn parse_secs(text: &str) -> Option<u64> {
    let s: f64 = text.parse().ok()?;
    (s.is_finite() && s >= 0.0).then_some((s * 1000.0) as u64)
}
