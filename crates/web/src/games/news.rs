//! What a change did when it was one move played: the move, the clocks,
//! the end it made and the offers it declined. The games' sinks hear it
//! ([`super::ChangeSink::moved`]), so that a socket carries the move
//! itself rather than "re-read the game" (issue 44, item 3).

use crate::games::{Live, Status};
use crate::store::GameRecord;
use springboard_rules::Color;

/// One move played, as the game stands after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveNews {
    /// The move in long notation and in SAN.
    pub uci: String,
    pub san: String,
    /// The number of moves played with it.
    pub ply: usize,
    /// The clocks just after it, when the game has one.
    pub clock: Option<ClockNews>,
    pub status: Status,
    /// When the move ended the game: its result and reason.
    pub result: Option<String>,
    pub reason: Option<String>,
    /// The offers standing after it (a move declines a draw offer).
    pub draw_offer: Option<Color>,
    pub takeback_offer: Option<Color>,
}

/// The clocks at the moment of the news.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockNews {
    pub white_ms: i64,
    pub black_ms: i64,
    /// The side whose clock runs.
    pub running: Option<Color>,
    /// When the running side's time runs out (server ms).
    pub deadline: Option<i64>,
}

impl MoveNews {
    /// The news of the change from `before` to `after` (at `now`) when it
    /// played exactly one move and changed nothing a move does not change
    /// (the clocks, the end, the offers, a player's conditional moves);
    /// None for any other change (its sockets are told only the version).
    pub fn of_change(before: &GameRecord, after: &Live, now: i64) -> Option<MoveNews> {
        let a = &after.rec;
        if a.moves.len() != before.moves.len().checked_add(1)?
            || a.moves[..before.moves.len()] != before.moves[..]
            || a.version != before.version.checked_add(1)?
            || !same_but_a_move(before, a)
        {
            return None;
        }
        let last = a.moves.last()?;
        let clock = a.clock_initial_ms.map(|_| {
            let running = after.running();
            let left = |c| after.remaining(c, now).unwrap_or(0).max(0);
            ClockNews {
                white_ms: left(Color::White),
                black_ms: left(Color::Black),
                running,
                deadline: running.map(|c| now.saturating_add(left(c))),
            }
        });
        Some(MoveNews {
            uci: last.uci.clone(),
            san: last.san.clone(),
            ply: a.moves.len(),
            clock,
            status: a.status,
            result: a.result.clone(),
            reason: a.reason.clone(),
            draw_offer: a.draw_offer,
            takeback_offer: a.takeback_offer,
        })
    }
}

/// Whether `a` differs from `b` only in what a move changes. Every field
/// is named: a new field of the record must be placed on one side.
fn same_but_a_move(b: &GameRecord, a: &GameRecord) -> bool {
    let GameRecord {
        id,
        variant,
        start_fen,
        moves: _,
        mode,
        white_seat,
        black_seat,
        engine_color,
        engine_level,
        clock_initial_ms,
        clock_increment_ms,
        white_ms: _,
        black_ms: _,
        turn_started_at: _,
        status,
        result: _,
        reason: _,
        draw_offer: _,
        takeback_offer: _,
        rematch_offer,
        rematch_id,
        rated,
        created_at,
        updated_at: _,
        version: _,
        origin,
        invite,
        tags,
        import_key,
        correspondence,
        conditionals: _,
    } = b;
    *id == a.id
        && *variant == a.variant
        && *start_fen == a.start_fen
        && *mode == a.mode
        && *white_seat == a.white_seat
        && *black_seat == a.black_seat
        && *engine_color == a.engine_color
        && *engine_level == a.engine_level
        && *clock_initial_ms == a.clock_initial_ms
        && *clock_increment_ms == a.clock_increment_ms
        // A move is played in a game being played (it may end it).
        && *status == Status::Playing
        && *rematch_offer == a.rematch_offer
        && *rematch_id == a.rematch_id
        && *rated == a.rated
        && *created_at == a.created_at
        && *origin == a.origin
        && *invite == a.invite
        && *tags == a.tags
        && *import_key == a.import_key
        && *correspondence == a.correspondence
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Mode;
    use crate::store::MoveRecord;

    fn live(rec: GameRecord) -> Live {
        Live::from_record(rec).unwrap()
    }

    fn start() -> GameRecord {
        let fen = springboard_rules::Position::startpos(springboard_rules::Variant::Chess).to_fen();
        GameRecord::new("game0001".into(), "chess", fen, Mode::Friend, 1000)
    }

    fn played(before: &GameRecord, uci: &str, san: &str) -> GameRecord {
        let mut a = before.clone();
        a.moves.push(MoveRecord {
            uci: uci.into(),
            san: san.into(),
            ms: None,
            at: 2000,
        });
        a.version += 1;
        a.updated_at = 2000;
        a
    }

    #[test]
    fn one_move_is_news_and_other_changes_are_not() {
        let b = start();
        let a = played(&b, "e2e4", "e4");
        let news = MoveNews::of_change(&b, &live(a.clone()), 2000).unwrap();
        assert_eq!(
            (news.uci.as_str(), news.san.as_str(), news.ply),
            ("e2e4", "e4", 1)
        );
        assert_eq!(news.status, Status::Playing);
        assert_eq!(news.clock, None);
        // A seat taken with it, two moves, no move, a skipped version: no.
        let mut seat = a.clone();
        seat.black_seat = Some("x".into());
        assert_eq!(MoveNews::of_change(&b, &live(seat), 2000), None);
        let two = played(&a, "e7e5", "e5");
        let mut two_at_once = two.clone();
        two_at_once.version = b.version + 1;
        assert_eq!(MoveNews::of_change(&b, &live(two_at_once), 2000), None);
        assert_eq!(MoveNews::of_change(&a, &live(b.clone()), 2000), None);
        let mut skipped = a.clone();
        skipped.version += 1;
        assert_eq!(MoveNews::of_change(&b, &live(skipped), 2000), None);
        // A move after the end: no.
        let mut over = b.clone();
        over.status = Status::Ended;
        assert_eq!(MoveNews::of_change(&over, &live(a), 2000), None);
    }

    #[test]
    fn the_clocks_are_those_just_after_the_move() {
        let mut b = start();
        b.clock_initial_ms = Some(60_000);
        b.clock_increment_ms = Some(0);
        b.white_ms = Some(60_000);
        b.black_ms = Some(60_000);
        let mut a = played(&b, "e2e4", "e4");
        a.turn_started_at = Some(2000);
        let news = MoveNews::of_change(&b, &live(a), 2500).unwrap();
        assert_eq!(
            news.clock,
            Some(ClockNews {
                white_ms: 60_000,
                black_ms: 59_500,
                running: Some(Color::Black),
                deadline: Some(62_000),
            })
        );
    }
}
