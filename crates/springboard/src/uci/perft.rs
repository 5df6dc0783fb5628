//! `go perft`: the count, by first move, in the search thread.

use crate::searcher::{say, Out};
use springboard_engine::Signals;
use springboard_rules::notation::uci::to_uci;
use springboard_rules::perft::perft;
use springboard_rules::Position;

/// The deepest `go perft` (it can be stopped; deeper counts would not
/// fit a u64 in any game).
pub const PERFT_MAX: u32 = 20;

/// `go perft depth` in the search thread: one line per first move as it
/// is counted, then the total (Stockfish's format). When stopped, it says
/// so instead of giving a total. Depth 0 counts the position itself: 1, as
/// `springboard perft --depth 0` does.
pub(super) fn perft_job(
    pos: &Position,
    depth: u32,
    out: &Out,
    signals: &Signals,
) -> std::io::Result<()> {
    let moves = if depth == 0 {
        Vec::new()
    } else {
        pos.legal_moves().into_iter().collect()
    };
    let mut total: u64 = if depth == 0 { 1 } else { 0 };
    for (i, &m) in moves.iter().enumerate() {
        let mut next = pos.clone();
        next.play(m);
        let Some(n) = stoppable_perft(&next, depth - 1, signals) else {
            return say(
                out,
                &format!(
                    "info string perft stopped: {i} of {} first moves counted",
                    moves.len()
                ),
            );
        };
        say(out, &format!("{}: {n}", to_uci(pos, m)))?;
        total = total.saturating_add(n);
    }
    say(out, &format!("\nNodes searched: {total}\n"))
}

/// Perft that looks at `signals` between subtrees of depth 2 (each a few
/// milliseconds in any game); `None` when stopped.
fn stoppable_perft(pos: &Position, depth: u32, signals: &Signals) -> Option<u64> {
    if signals.is_stopped() {
        return None;
    }
    if depth <= 2 {
        return Some(perft(pos, depth));
    }
    let mut total: u64 = 0;
    for m in pos.legal_moves() {
        let mut next = pos.clone();
        next.play(m);
        total = total.saturating_add(stoppable_perft(&next, depth - 1, signals)?);
    }
    Some(total)
}
