//! One game between two engines: the engines started for it, the clocks,
//! every move checked by the rules core, faults (illegal moves, time losses,
//! crashes) and score adjudication.

use super::config::MatchArgs;
use super::engine::{self, UciEngine};
use anyhow::{bail, Result};
use springboard_rules::notation::uci::parse_uci;
use springboard_rules::{Color, Game, Move, Outcome, Position, Variant};
use std::time::Duration;

/// How a game ended, from White's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    WhiteWins,
    BlackWins,
    Draw,
}

impl GameResult {
    pub(super) fn pgn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    pub(super) fn win_for(color: Color) -> GameResult {
        match color {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }
}

/// Something that went wrong for one side (counted in the summary).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Fault {
    Illegal,
    Time,
    /// The engine's process died, or it gave no bestmove.
    Crash,
}

/// How a game was adjudicated rather than played out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Adjudication {
    Resign,
    Draw,
    MaxPlies,
}

/// One finished game.
pub(super) struct Played {
    pub(super) index: usize,
    pub(super) white_is_engine1: bool,
    pub(super) white: String,
    pub(super) black: String,
    pub(super) start: Position,
    pub(super) moves: Vec<Move>,
    pub(super) result: GameResult,
    pub(super) reason: String,
    /// The side at fault, and what it did.
    pub(super) fault: Option<(Color, Fault)>,
    pub(super) adjudication: Option<Adjudication>,
}

/// Score adjudication state.
#[derive(Default)]
pub(super) struct Adjudicator {
    /// The last score of each side's engine, from its own side.
    last: [Option<i32>; 2],
    resign_count: [u32; 2],
    draw_count: u32,
}

impl Adjudicator {
    /// Records `mover`'s score and tells the result it adjudicates, if any.
    fn record(
        &mut self,
        args: &MatchArgs,
        pos_after: &Position,
        mover: Color,
        score: Option<i32>,
    ) -> Option<(GameResult, String, Adjudication)> {
        self.last[mover.index()] = score;
        let (Some(ours), Some(theirs)) = (score, self.last[(!mover).index()]) else {
            self.resign_count[mover.index()] = 0;
            self.draw_count = 0;
            return None;
        };
        if ours <= -args.resign_score && theirs >= args.resign_score {
            self.resign_count[mover.index()] += 1;
        } else {
            self.resign_count[mover.index()] = 0;
        }
        if args.resign_moves > 0 && self.resign_count[mover.index()] >= args.resign_moves {
            return Some((
                GameResult::win_for(!mover),
                "adjudication: resign score".into(),
                Adjudication::Resign,
            ));
        }
        if pos_after.fullmove_number() >= args.draw_movenumber
            && ours.abs() <= args.draw_score
            && theirs.abs() <= args.draw_score
        {
            self.draw_count += 1;
        } else {
            self.draw_count = 0;
        }
        if args.draw_moves > 0 && self.draw_count >= 2 * args.draw_moves {
            return Some((
                GameResult::Draw,
                "adjudication: draw score".into(),
                Adjudication::Draw,
            ));
        }
        None
    }
}

pub(super) fn outcome_result(outcome: Outcome) -> (GameResult, String) {
    let result = match outcome {
        Outcome::Win { winner, .. } => GameResult::win_for(winner),
        Outcome::Draw(_) => GameResult::Draw,
    };
    (result, outcome.reason_str().to_string())
}

/// Plays one game; engines are started for it and quit after it.
pub(super) fn play_game(args: &MatchArgs, index: usize, start: Position) -> Result<Played> {
    let white_is_engine1 = index.is_multiple_of(2);
    let mut e1 = UciEngine::start(&args.engine1, &args.options1)?;
    let mut e2 = UciEngine::start(&args.engine2, &args.options2)?;
    for e in [&mut e1, &mut e2] {
        if e.has_option("UCI_Variant") {
            e.send(&format!(
                "setoption name UCI_Variant value {}",
                args.variant.name()
            ))?;
        } else if args.variant != Variant::Chess {
            bail!(
                "engine {} has no UCI_Variant option for {}",
                e.name,
                args.variant
            );
        }
        e.send("ucinewgame")?;
        e.ready()?;
    }
    let (white, black) = if white_is_engine1 { (e1, e2) } else { (e2, e1) };
    let mut engines = [white, black];
    let names = [engines[0].name.clone(), engines[1].name.clone()];
    let mut game = Game::new(start.clone());
    let mut clocks = [args.tc.base_ms as i64; 2];
    let inc = args.tc.inc_ms as i64;
    let mut adjudicator = Adjudicator::default();
    let start_fen = start.to_fen();
    let mut fault = None;
    let mut adjudication = None;
    let (result, reason) = loop {
        if let Some(outcome) = game.outcome() {
            break outcome_result(outcome);
        }
        if game.moves().len() >= args.max_plies {
            adjudication = Some(Adjudication::MaxPlies);
            break (
                GameResult::Draw,
                format!("adjudication: {} plies", args.max_plies),
            );
        }
        let mover = game.position().turn();
        let moves: Vec<String> = game
            .moves()
            .iter()
            .zip(game.positions())
            .map(|(&m, p)| springboard_rules::notation::uci::to_uci(p, m))
            .collect();
        let position = if moves.is_empty() {
            format!("position fen {start_fen}")
        } else {
            format!("position fen {start_fen} moves {}", moves.join(" "))
        };
        let engine1_moves = (mover == Color::White) == white_is_engine1;
        let go = args.go_command(clocks, engine1_moves);
        let budget = if args.fixed_search() {
            Duration::from_secs(args.move_timeout)
                + Duration::from_millis(args.movetime(engine1_moves).unwrap_or(0))
        } else {
            Duration::from_millis(clocks[mover.index()].max(0) as u64 + args.time_margin + 5000)
        };
        let engine = &mut engines[mover.index()];
        let answer = match engine.go(&position, &go, budget) {
            Ok(a) => a,
            Err(engine::EngineError::Timeout(..)) if args.fixed_search() => {
                fault = Some((mover, Fault::Crash));
                break (
                    GameResult::win_for(!mover),
                    format!(
                        "{} gives no bestmove within {} s",
                        names[mover.index()],
                        args.move_timeout
                    ),
                );
            }
            Err(engine::EngineError::Timeout(..)) => {
                fault = Some((mover, Fault::Time));
                break flag_fall(game.position(), mover, &names, "no answer".to_string());
            }
            Err(e) => {
                fault = Some((mover, Fault::Crash));
                break (
                    GameResult::win_for(!mover),
                    format!("{} fails: {e}", names[mover.index()]),
                );
            }
        };
        let had = clocks[mover.index()];
        if !args.fixed_search() {
            clocks[mover.index()] -= answer.elapsed.as_millis() as i64;
        }
        if clocks[mover.index()] + (args.time_margin as i64) < 0 {
            fault = Some((mover, Fault::Time));
            break flag_fall(
                game.position(),
                mover,
                &names,
                format!("had {had} ms, used {} ms", answer.elapsed.as_millis()),
            );
        }
        clocks[mover.index()] += inc;
        let m = match parse_uci(game.position(), &answer.bestmove) {
            Ok(m) => m,
            Err(e) => {
                fault = Some((mover, Fault::Illegal));
                break (
                    GameResult::win_for(!mover),
                    format!(
                        "{} plays an illegal move '{}' in {}: {e}",
                        names[mover.index()],
                        answer.bestmove,
                        game.position().to_fen()
                    ),
                );
            }
        };
        if let Err(e) = game.play(m) {
            fault = Some((mover, Fault::Illegal));
            break (
                GameResult::win_for(!mover),
                format!("{} plays an illegal move: {e}", names[mover.index()]),
            );
        }
        if let Some((result, reason, kind)) =
            adjudicator.record(args, game.position(), mover, answer.score)
        {
            if game.outcome().is_none() {
                adjudication = Some(kind);
                break (result, reason);
            }
        }
    };
    for e in engines {
        e.quit();
    }
    Ok(Played {
        index,
        white_is_engine1,
        white: names[0].clone(),
        black: names[1].clone(),
        start,
        moves: game.moves().to_vec(),
        result,
        reason,
        fault,
        adjudication,
    })
}

/// The end of a game where `mover`'s flag fell in `pos` (`detail`: how):
/// a loss, or a draw when the other side cannot mate by its game's
/// material rule (FIDE's rule; the rules core's `Position::can_mate`).
fn flag_fall(
    pos: &Position,
    mover: Color,
    names: &[String; 2],
    detail: String,
) -> (GameResult, String) {
    let name = &names[mover.index()];
    if pos.can_mate(!mover) {
        (
            GameResult::win_for(!mover),
            format!("{name} loses on time ({detail})"),
        )
    } else {
        (
            GameResult::Draw,
            format!(
                "{name} runs out of time ({detail}), but {} cannot mate: a draw",
                names[(!mover).index()]
            ),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::config::parse_args;

    #[test]
    fn a_flag_fall_loses_unless_the_other_side_cannot_mate() {
        let names = ["W".to_string(), "B".to_string()];
        let chess = |fen: &str| Position::from_fen(Variant::Chess, fen).unwrap();
        // Black has a queen: White's flag loses; White has a knight alone:
        // Black's flag draws.
        let p = chess("4k3/8/8/8/8/8/3q4/N3K3 w - - 0 1");
        let (result, why) = flag_fall(&p, Color::White, &names, "no answer".into());
        assert_eq!(
            (result, why.as_str()),
            (GameResult::BlackWins, "W loses on time (no answer)")
        );
        let (result, why) = flag_fall(&p, Color::Black, &names, "no answer".into());
        assert_eq!(
            (result, why.as_str()),
            (
                GameResult::Draw,
                "B runs out of time (no answer), but W cannot mate: a draw"
            )
        );
        // A Hoplit in reserve can mate.
        let p = Position::from_fen(Variant::Hoplit, "4k3/8/8/8/8/8/8/4K3[H] b - - 0 1").unwrap();
        let (result, _) = flag_fall(&p, Color::Black, &names, "no answer".into());
        assert_eq!(result, GameResult::WhiteWins);
    }

    #[test]
    fn zero_adjudication_moves_turn_adjudication_off() {
        let pos = Position::startpos(Variant::Chess);
        let off = parse_args(&[
            "--resign-moves",
            "0",
            "--draw-moves",
            "0",
            "--draw-movenumber",
            "0",
        ]);
        let mut adj = Adjudicator::default();
        for _ in 0..20 {
            assert!(adj.record(&off, &pos, Color::White, Some(-5000)).is_none());
            assert!(adj.record(&off, &pos, Color::Black, Some(5000)).is_none());
        }
        let on = parse_args(&["--resign-moves", "2"]);
        let mut adj = Adjudicator::default();
        assert!(adj.record(&on, &pos, Color::White, Some(-5000)).is_none());
        assert!(adj.record(&on, &pos, Color::Black, Some(5000)).is_none());
        // White's first losing score with Black's answer counts 1 of 2.
        assert!(adj.record(&on, &pos, Color::White, Some(-5000)).is_none());
        assert!(adj.record(&on, &pos, Color::Black, Some(5000)).is_none());
        let (result, _, kind) = adj.record(&on, &pos, Color::White, Some(-5000)).unwrap();
        assert_eq!(
            (result, kind),
            (GameResult::BlackWins, Adjudication::Resign)
        );
        let draw = parse_args(&["--draw-moves", "1", "--draw-movenumber", "0"]);
        let mut adj = Adjudicator::default();
        assert!(adj.record(&draw, &pos, Color::White, Some(0)).is_none());
        assert!(adj.record(&draw, &pos, Color::Black, Some(3)).is_none());
        let (result, _, kind) = adj.record(&draw, &pos, Color::White, Some(-2)).unwrap();
        assert_eq!((result, kind), (GameResult::Draw, Adjudication::Draw));
    }
}
