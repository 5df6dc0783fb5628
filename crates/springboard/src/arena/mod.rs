//! `springboard match`: games between two UCI engines, with clocks,
//! openings, adjudication, PGN output, Elo and SPRT. Every move is checked
//! by the rules core: an illegal move loses the game and is reported.

mod engine;
mod stats;

use anyhow::{bail, Context, Result};
use clap::Args;
use engine::UciEngine;
use springboard_rules::notation::san::to_san;
use springboard_rules::notation::uci::parse_uci;
use springboard_rules::{Color, Game, Move, Outcome, Position, Variant};
use stats::{Sprt, SprtState, Wdl};
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::channel;
use std::sync::Arc;
use std::time::Duration;

#[derive(Args, Clone)]
pub struct MatchArgs {
    /// The first engine's command (program and arguments).
    #[arg(long)]
    engine1: String,
    /// The second engine's command.
    #[arg(long)]
    engine2: String,
    /// A UCI option for the first engine, `Name=Value` (repeatable).
    #[arg(long = "option1", value_parser = parse_option)]
    options1: Vec<(String, String)>,
    /// A UCI option for the second engine, `Name=Value` (repeatable).
    #[arg(long = "option2", value_parser = parse_option)]
    options2: Vec<(String, String)>,
    /// The game (sent as UCI_Variant to engines that have the option).
    #[arg(long, default_value = "chess", value_parser = crate::parse_variant)]
    variant: Variant,
    /// Time control: seconds per game plus increment, e.g. `10+0.1`.
    #[arg(long, default_value = "10+0.1", value_parser = parse_tc)]
    tc: TimeControl,
    /// Search every move to N nodes (`go nodes N`) instead of playing on
    /// the clock: no clocks, so no time losses.
    #[arg(long)]
    nodes: Option<u64>,
    /// Search every move to depth N (`go depth N`; with `--nodes`, both).
    #[arg(long)]
    depth: Option<u32>,
    /// With `--nodes` or `--depth`: seconds an engine may think on one move;
    /// an engine that gives no bestmove by then has crashed (it loses).
    #[arg(long, default_value_t = 60)]
    move_timeout: u64,
    /// Games to play (each opening is played twice, colours swapped).
    #[arg(long, default_value_t = 20)]
    games: usize,
    /// Play each opening once (engine1 still alternates colours). For
    /// self-play at fixed nodes or depth, where the colour-swapped replay
    /// of an opening repeats the same game move for move.
    #[arg(long)]
    no_swap: bool,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// A file of opening positions, one position text (FEN) per line.
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Random plies from the start position when no opening file is given.
    #[arg(long, default_value_t = 8)]
    random_plies: usize,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Append the games to this PGN file.
    #[arg(long)]
    pgn: Option<PathBuf>,
    /// Resign adjudication: a side whose engine scores at most -N cp while
    /// the other scores at least N for `--resign-moves` moves each loses.
    #[arg(long, default_value_t = 1000)]
    resign_score: i32,
    /// Moves for resign adjudication (0: no resign adjudication).
    #[arg(long, default_value_t = 4)]
    resign_moves: u32,
    /// Draw adjudication: both engines within N cp of 0 for
    /// `--draw-moves` moves each, from move `--draw-movenumber` on.
    #[arg(long, default_value_t = 10)]
    draw_score: i32,
    /// Moves for draw adjudication (0: no draw adjudication).
    #[arg(long, default_value_t = 8)]
    draw_moves: u32,
    #[arg(long, default_value_t = 40)]
    draw_movenumber: u32,
    /// A game still running after this many plies is a draw.
    #[arg(long, default_value_t = 600)]
    max_plies: usize,
    /// Milliseconds an engine may exceed its clock before it loses on time.
    #[arg(long, default_value_t = 0)]
    time_margin: u64,
    /// Start no game after this many seconds: the games running finish and
    /// the report counts the games played (a bounded run).
    #[arg(long)]
    max_seconds: Option<u64>,
    /// SPRT `elo0,elo1,alpha,beta` (e.g. `0,10,0.05,0.05`): stop when decided.
    #[arg(long)]
    sprt: Option<Sprt>,
}

impl MatchArgs {
    /// How many openings the games need.
    fn opening_count(&self) -> usize {
        if self.no_swap {
            self.games
        } else {
            self.games.div_ceil(2)
        }
    }

    /// The opening of game `index` (from 0).
    fn opening_of(&self, index: usize) -> usize {
        if self.no_swap {
            index
        } else {
            index / 2
        }
    }

    /// Whether moves are searched to a fixed node count or depth (no clocks).
    fn fixed_search(&self) -> bool {
        self.nodes.is_some() || self.depth.is_some()
    }

    /// The `go` command for a move, given both clocks in milliseconds.
    fn go_command(&self, clocks: [i64; 2]) -> String {
        if self.fixed_search() {
            let mut go = "go".to_string();
            if let Some(d) = self.depth {
                go.push_str(&format!(" depth {d}"));
            }
            if let Some(n) = self.nodes {
                go.push_str(&format!(" nodes {n}"));
            }
            return go;
        }
        let inc = self.tc.inc_ms;
        format!(
            "go wtime {} btime {} winc {inc} binc {inc}",
            clocks[0].max(1),
            clocks[1].max(1)
        )
    }
}

/// Base time and increment in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    base_ms: u64,
    inc_ms: u64,
}

impl std::fmt::Display for TimeControl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let secs = |ms: u64| {
            let s = format!("{}.{:03}", ms / 1000, ms % 1000);
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        };
        write!(f, "{}+{}", secs(self.base_ms), secs(self.inc_ms))
    }
}

fn seconds_to_ms(text: &str) -> Option<u64> {
    let s: f64 = text.trim().parse().ok()?;
    (s.is_finite() && s >= 0.0).then(|| (s * 1000.0).round() as u64)
}

fn parse_tc(text: &str) -> Result<TimeControl, String> {
    let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
    match (seconds_to_ms(base), seconds_to_ms(inc)) {
        (Some(base_ms), Some(inc_ms)) if base_ms > 0 => Ok(TimeControl { base_ms, inc_ms }),
        _ => Err(format!(
            "time control needs seconds+increment like 10+0.1, not '{text}'"
        )),
    }
}

fn parse_option(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((n, v)) if !n.trim().is_empty() => Ok((n.trim().to_string(), v.trim().to_string())),
        _ => Err(format!("an option needs Name=Value, not '{text}'")),
    }
}

/// How a game ended, from White's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    WhiteWins,
    BlackWins,
    Draw,
}

impl GameResult {
    fn pgn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    fn win_for(color: Color) -> GameResult {
        match color {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }
}

/// Something that went wrong for one side (counted in the summary).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fault {
    Illegal,
    Time,
    /// The engine's process died, or it gave no bestmove.
    Crash,
}

/// How a game was adjudicated rather than played out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Adjudication {
    Resign,
    Draw,
    MaxPlies,
}

/// One finished game.
struct Played {
    index: usize,
    white_is_engine1: bool,
    white: String,
    black: String,
    start: Position,
    moves: Vec<Move>,
    result: GameResult,
    reason: String,
    /// The side at fault, and what it did.
    fault: Option<(Color, Fault)>,
    adjudication: Option<Adjudication>,
}

/// A small xorshift generator for openings.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// The opening positions: from the file, or random plies from the start.
fn openings(args: &MatchArgs) -> Result<Vec<Position>> {
    let pairs = args.opening_count();
    if let Some(path) = &args.openings {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read openings {}", path.display()))?;
        let mut list = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let pos = Position::from_fen(args.variant, line)
                .with_context(|| format!("{}:{}: bad position '{line}'", path.display(), n + 1))?;
            if pos.outcome().is_some() {
                bail!("{}:{}: the game is already over", path.display(), n + 1);
            }
            list.push(pos);
        }
        if list.is_empty() {
            bail!("no positions in {}", path.display());
        }
        return Ok((0..pairs).map(|i| list[i % list.len()].clone()).collect());
    }
    let mut rng = Rng(args.seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let mut list = Vec::new();
    while list.len() < pairs {
        let mut pos = Position::startpos(args.variant);
        for _ in 0..args.random_plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play(moves[(rng.next() % moves.len() as u64) as usize]);
        }
        if pos.outcome().is_none() && !wins_at_once(&pos) {
            list.push(pos);
        }
    }
    Ok(list)
}

/// Whether the side to move has a move that wins on the spot (mate, or a
/// weak square entered, J3). Random plies often leave such a position in
/// the trampoline games, whose kings are open from the first move; a game
/// from it says nothing of the engines, so random openings skip it.
fn wins_at_once(pos: &Position) -> bool {
    pos.legal_moves().into_iter().any(|m| {
        let mut after = pos.clone();
        after.play(m);
        matches!(after.outcome(), Some(Outcome::Win { .. }))
    })
}

/// Score adjudication state.
#[derive(Default)]
struct Adjudicator {
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

fn outcome_result(outcome: Outcome) -> (GameResult, String) {
    let result = match outcome {
        Outcome::Win { winner, .. } => GameResult::win_for(winner),
        Outcome::Draw(_) => GameResult::Draw,
    };
    (result, outcome.reason_str().to_string())
}

/// Plays one game; engines are started for it and quit after it.
fn play_game(args: &MatchArgs, index: usize, start: Position) -> Result<Played> {
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
        let go = args.go_command(clocks);
        let budget = if args.fixed_search() {
            Duration::from_secs(args.move_timeout)
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
                break (
                    GameResult::win_for(!mover),
                    format!("{} loses on time (no answer)", names[mover.index()]),
                );
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
            break (
                GameResult::win_for(!mover),
                format!(
                    "{} loses on time (had {had} ms, used {} ms)",
                    names[mover.index()],
                    answer.elapsed.as_millis()
                ),
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

/// Today's date as `YYYY.MM.DD` (UTC).
fn pgn_date() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let days = (secs / 86_400) as i64;
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

fn pgn(args: &MatchArgs, g: &Played) -> String {
    let mut s = String::new();
    let tag = |s: &mut String, k: &str, v: &str| {
        s.push_str(&format!(
            "[{k} \"{}\"]\n",
            v.replace('\\', "\\\\").replace('"', "\\\"")
        ));
    };
    tag(&mut s, "Event", "springboard match");
    tag(&mut s, "Site", "?");
    tag(&mut s, "Date", &pgn_date());
    tag(&mut s, "Round", &(g.index + 1).to_string());
    tag(&mut s, "White", &g.white);
    tag(&mut s, "Black", &g.black);
    tag(&mut s, "Result", g.result.pgn());
    if args.variant != Variant::Chess {
        tag(&mut s, "Variant", args.variant.name());
    }
    if g.start.to_fen() != Position::startpos(args.variant).to_fen() {
        tag(&mut s, "SetUp", "1");
        tag(&mut s, "FEN", &g.start.to_fen());
    }
    let tc = if args.fixed_search() {
        "-".to_string()
    } else {
        format!(
            "{}+{}",
            args.tc.base_ms as f64 / 1000.0,
            args.tc.inc_ms as f64 / 1000.0
        )
    };
    tag(&mut s, "TimeControl", &tc);
    tag(&mut s, "Termination", &g.reason);
    s.push('\n');
    let mut pos = g.start.clone();
    let mut line = String::new();
    for (i, &m) in g.moves.iter().enumerate() {
        let mut token = String::new();
        if pos.turn() == Color::White {
            token.push_str(&format!("{}. ", pos.fullmove_number()));
        } else if i == 0 {
            token.push_str(&format!("{}... ", pos.fullmove_number()));
        }
        token.push_str(&to_san(&pos, m));
        pos.play(m);
        if line.len() + token.len() + 1 > 80 {
            s.push_str(line.trim_end());
            s.push('\n');
            line.clear();
        }
        line.push_str(&token);
        line.push(' ');
    }
    line.push_str(&format!("{{{}}} {}", g.reason, g.result.pgn()));
    s.push_str(&line);
    s.push_str("\n\n");
    s
}

fn summary(wdl: Wdl, sprt: Option<Sprt>) -> String {
    let mut s = format!(
        "Score of engine1 vs engine2: {} - {} - {}  [{:.3}] {}",
        wdl.wins,
        wdl.losses,
        wdl.draws,
        wdl.score(),
        wdl.games()
    );
    match wdl.elo() {
        Some((elo, lo, hi)) => s.push_str(&format!(
            "\nElo difference: {elo:.1} (95% interval {lo:.1} to {hi:.1})"
        )),
        None => s.push_str("\nElo difference: no finite estimate yet (score 0% or 100%)"),
    }
    if let Some(sprt) = sprt {
        let (lower, upper) = sprt.bounds();
        s.push_str(&format!(
            "\nSPRT ({}, {}, alpha {}, beta {}): LLR {:.2} (bounds {lower:.2}, {upper:.2})",
            sprt.elo0,
            sprt.elo1,
            sprt.alpha,
            sprt.beta,
            sprt.llr(wdl)
        ));
        match sprt.state(wdl) {
            SprtState::H1 => s.push_str(" H1 accepted"),
            SprtState::H0 => s.push_str(" H0 accepted"),
            SprtState::Continue => {}
        }
    }
    s
}

/// Everything the final report counts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Tally {
    /// The first engine's results.
    engine1: Wdl,
    /// White's results (White moves first in every game of the five).
    white: Wdl,
    /// Faults by engine (0: engine1, 1: engine2): illegal, time, crash.
    faults: [[u32; 3]; 2],
    /// Adjudications: resign, draw, max plies.
    adjudications: [u32; 3],
    /// Games that could not be started (an engine failed to start).
    not_played: u32,
}

impl Tally {
    fn add(&mut self, g: &Played) {
        let engine1_color = if g.white_is_engine1 {
            Color::White
        } else {
            Color::Black
        };
        let (wdl1, white) = (&mut self.engine1, &mut self.white);
        match g.result {
            GameResult::Draw => {
                wdl1.draws += 1;
                white.draws += 1;
            }
            r => {
                if r == GameResult::win_for(engine1_color) {
                    wdl1.wins += 1;
                } else {
                    wdl1.losses += 1;
                }
                if r == GameResult::WhiteWins {
                    white.wins += 1;
                } else {
                    white.losses += 1;
                }
            }
        }
        if let Some((color, fault)) = g.fault {
            let who = usize::from(color != engine1_color);
            self.faults[who][fault as usize] += 1;
        }
        if let Some(a) = g.adjudication {
            self.adjudications[a as usize] += 1;
        }
    }

    /// The final report: the counts a reader of a match needs.
    fn report(&self, names: [&str; 2]) -> String {
        let games = self.engine1.games();
        let pct = |n: u32| {
            if games == 0 {
                0.0
            } else {
                100.0 * f64::from(n) / f64::from(games)
            }
        };
        let wdl = |w: &Wdl| {
            format!(
                "{} wins, {} draws, {} losses, score {:.1}%",
                w.wins,
                w.draws,
                w.losses,
                100.0 * w.score()
            )
        };
        let fault = |i: usize, what: &str| {
            let [a, b] = [self.faults[0][i], self.faults[1][i]];
            format!("{what}: {} (engine1 {a}, engine2 {b})", a + b)
        };
        let [resign, draw, plies] = self.adjudications;
        let mut s = format!("Games: {games}\n");
        s.push_str(&format!(
            "engine1 ({}) vs engine2 ({}): {}\n",
            names[0],
            names[1],
            wdl(&self.engine1)
        ));
        s.push_str(&format!("White (moves first): {}\n", wdl(&self.white)));
        s.push_str(&format!("Draw rate: {:.1}%\n", pct(self.engine1.draws)));
        s.push_str(&fault(Fault::Illegal as usize, "Illegal moves"));
        s.push('\n');
        s.push_str(&fault(Fault::Crash as usize, "Crashes"));
        s.push('\n');
        s.push_str(&fault(Fault::Time as usize, "Time losses"));
        s.push('\n');
        s.push_str(&format!(
            "Adjudications: {} (resign {resign}, draw {draw}, max plies {plies})",
            resign + draw + plies
        ));
        if self.not_played > 0 {
            s.push_str(&format!("\nGames not played: {}", self.not_played));
        }
        s
    }
}

pub fn run(args: &MatchArgs) -> Result<()> {
    if args.games == 0 || args.concurrency == 0 {
        bail!("--games and --concurrency must be at least 1");
    }
    // Check both engines start before playing.
    let mut names = Vec::new();
    for cmd in [&args.engine1, &args.engine2] {
        let e = UciEngine::start(cmd, &[])?;
        names.push(e.name.clone());
        e.quit();
    }
    let openings = Arc::new(openings(args)?);
    let next = Arc::new(AtomicUsize::new(0));
    let halt = Arc::new(AtomicBool::new(false));
    let started = std::time::Instant::now();
    let (tx, rx) = channel();
    let mut workers = Vec::new();
    for _ in 0..args.concurrency.min(args.games) {
        let (args, openings, next, halt, tx) = (
            args.clone(),
            openings.clone(),
            next.clone(),
            halt.clone(),
            tx.clone(),
        );
        workers.push(std::thread::spawn(move || loop {
            let out_of_time = args
                .max_seconds
                .is_some_and(|s| started.elapsed() >= Duration::from_secs(s));
            if out_of_time || halt.load(Ordering::SeqCst) {
                break;
            }
            let index = next.fetch_add(1, Ordering::SeqCst);
            if index >= args.games {
                break;
            }
            let played = play_game(&args, index, openings[args.opening_of(index)].clone());
            if tx.send((index, played)).is_err() {
                break;
            }
        }));
    }
    drop(tx);
    let mut pgn_file = match &args.pgn {
        Some(p) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .with_context(|| format!("cannot open {}", p.display()))?,
        ),
        None => None,
    };
    let mut tally = Tally::default();
    for (index, played) in rx {
        let g = match played {
            Ok(g) => g,
            Err(e) => {
                tally.not_played += 1;
                println!("Game {} not played: {e:#}", index + 1);
                continue;
            }
        };
        tally.add(&g);
        let wdl = tally.engine1;
        println!(
            "Game {} ({} vs {}): {} {{{}}}",
            g.index + 1,
            g.white,
            g.black,
            g.result.pgn(),
            g.reason
        );
        if let Some(f) = pgn_file.as_mut() {
            f.write_all(pgn(args, &g).as_bytes())?;
        }
        println!("{}", summary(wdl, args.sprt));
        if let Some(sprt) = args.sprt {
            if sprt.state(wdl) != SprtState::Continue {
                halt.store(true, Ordering::SeqCst);
            }
        }
    }
    for w in workers {
        // A worker that panicked lost only its own games, reported above.
        let _ = w.join();
    }
    let finished = (tally.engine1.games() + tally.not_played) as usize;
    if finished < args.games {
        println!(
            "Stopped early (--max-seconds or SPRT): {finished} of {} games",
            args.games
        );
    }
    println!("{}", tally.report([&names[0], &names[1]]));
    if tally.not_played > 0 {
        bail!("{} games could not be played", tally.not_played);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls() {
        assert_eq!(
            parse_tc("10+0.1"),
            Ok(TimeControl {
                base_ms: 10_000,
                inc_ms: 100
            })
        );
        assert_eq!(
            parse_tc("1+0.01"),
            Ok(TimeControl {
                base_ms: 1_000,
                inc_ms: 10
            })
        );
        assert_eq!(
            parse_tc("60"),
            Ok(TimeControl {
                base_ms: 60_000,
                inc_ms: 0
            })
        );
        assert_eq!(parse_tc("10+0.1").unwrap().to_string(), "10+0.1");
        for bad in ["", "x+1", "0+1", "-5+0", "10+y"] {
            assert!(parse_tc(bad).is_err(), "{bad}");
        }
        assert_eq!(
            parse_option("UCI_Elo=1800"),
            Ok(("UCI_Elo".into(), "1800".into()))
        );
        assert!(parse_option("=3").is_err());
        assert!(parse_option("Hash").is_err());
    }

    #[test]
    fn pgn_of_a_short_game() {
        let args = MatchArgs {
            engine1: "a".into(),
            engine2: "b".into(),
            options1: vec![],
            options2: vec![],
            variant: Variant::Chess,
            tc: TimeControl {
                base_ms: 10_000,
                inc_ms: 100,
            },
            nodes: None,
            depth: None,
            move_timeout: 60,
            games: 2,
            no_swap: false,
            concurrency: 1,
            openings: None,
            random_plies: 0,
            seed: 1,
            pgn: None,
            resign_score: 1000,
            resign_moves: 4,
            draw_score: 10,
            draw_moves: 8,
            draw_movenumber: 40,
            max_plies: 600,
            time_margin: 0,
            max_seconds: None,
            sprt: None,
        };
        let start = Position::startpos(Variant::Chess);
        let mut game = Game::new(start.clone());
        for t in ["f2f3", "e7e5", "g2g4", "d8h4"] {
            let m = parse_uci(game.position(), t).unwrap();
            game.play(m).unwrap();
        }
        let (result, reason) = outcome_result(game.outcome().unwrap());
        let g = Played {
            index: 0,
            white_is_engine1: true,
            white: "One".into(),
            black: "Two".into(),
            start,
            moves: game.moves().to_vec(),
            result,
            reason,
            fault: None,
            adjudication: None,
        };
        let text = pgn(&args, &g);
        assert!(text.contains("[Result \"0-1\"]\n"), "{text}");
        assert!(!text.contains("[FEN"));
        assert!(
            text.ends_with("\n1. f3 e5 2. g4 Qh4# {checkmate} 0-1\n\n"),
            "{text}"
        );
        assert_eq!(openings(&args).unwrap().len(), 1);
    }

    #[derive(clap::Parser)]
    struct Cli {
        #[command(flatten)]
        m: MatchArgs,
    }

    fn parse_args(extra: &[&str]) -> MatchArgs {
        use clap::Parser;
        let mut words = vec!["x", "--engine1", "a", "--engine2", "b"];
        words.extend_from_slice(extra);
        Cli::parse_from(words).m
    }

    #[test]
    fn go_commands() {
        let clocks = [900, -5];
        assert_eq!(
            parse_args(&["--tc", "1+0.01"]).go_command(clocks),
            "go wtime 900 btime 1 winc 10 binc 10"
        );
        let nodes = parse_args(&["--nodes", "2000"]);
        assert!(nodes.fixed_search());
        assert_eq!(nodes.go_command(clocks), "go nodes 2000");
        assert_eq!(
            parse_args(&["--depth", "3"]).go_command(clocks),
            "go depth 3"
        );
        assert_eq!(
            parse_args(&["--nodes", "50", "--depth", "4"]).go_command(clocks),
            "go depth 4 nodes 50"
        );
        assert!(!parse_args(&[]).fixed_search());
    }

    /// A finished game for the tally, engine1 White in even games.
    fn played(
        index: usize,
        result: GameResult,
        fault: Option<(Color, Fault)>,
        adjudication: Option<Adjudication>,
    ) -> Played {
        Played {
            index,
            white_is_engine1: index.is_multiple_of(2),
            white: "w".into(),
            black: "b".into(),
            start: Position::startpos(Variant::Chess),
            moves: vec![],
            result,
            reason: String::new(),
            fault,
            adjudication,
        }
    }

    #[test]
    fn tally_counts_what_a_reader_needs() {
        let mut t = Tally::default();
        // engine1 White wins; engine1 Black loses to White; a draw; engine1
        // Black wins when White (engine2) crashes; engine1 White loses on
        // time; engine1 Black plays an illegal move; two adjudications.
        t.add(&played(0, GameResult::WhiteWins, None, None));
        t.add(&played(
            1,
            GameResult::WhiteWins,
            None,
            Some(Adjudication::Resign),
        ));
        t.add(&played(
            2,
            GameResult::Draw,
            None,
            Some(Adjudication::MaxPlies),
        ));
        t.add(&played(
            3,
            GameResult::BlackWins,
            Some((Color::White, Fault::Crash)),
            None,
        ));
        t.add(&played(
            4,
            GameResult::BlackWins,
            Some((Color::White, Fault::Time)),
            None,
        ));
        t.add(&played(
            5,
            GameResult::WhiteWins,
            Some((Color::Black, Fault::Illegal)),
            None,
        ));
        assert_eq!(
            t.engine1,
            Wdl {
                wins: 2,
                draws: 1,
                losses: 3
            }
        );
        assert_eq!(
            t.white,
            Wdl {
                wins: 3,
                draws: 1,
                losses: 2
            }
        );
        assert_eq!(
            t.report(["One", "Two"]),
            "Games: 6\n\
             engine1 (One) vs engine2 (Two): 2 wins, 1 draws, 3 losses, score 41.7%\n\
             White (moves first): 3 wins, 1 draws, 2 losses, score 58.3%\n\
             Draw rate: 16.7%\n\
             Illegal moves: 1 (engine1 1, engine2 0)\n\
             Crashes: 1 (engine1 0, engine2 1)\n\
             Time losses: 1 (engine1 1, engine2 0)\n\
             Adjudications: 2 (resign 1, draw 0, max plies 1)"
        );
        t.not_played = 2;
        assert!(t.report(["One", "Two"]).ends_with("\nGames not played: 2"));
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

    #[test]
    fn random_openings_skip_positions_won_at_once() {
        let start = Position::startpos(Variant::HopChess);
        assert!(!wins_at_once(&start));
        // 1.Na3 b6 with Black's trampoline on e5: 2.Nc4 and White's
        // trampoline to d6 mates (the knight checks via d6).
        let mut quick = start.clone();
        for m in ["b1a3", "b7b6@e5"] {
            quick.play(parse_uci(&quick, m).unwrap());
        }
        assert!(wins_at_once(&quick));
        use clap::Parser;
        let args = Cli::parse_from([
            "x",
            "--engine1",
            "a",
            "--engine2",
            "b",
            "--variant",
            "hopchess",
            "--games",
            "40",
            "--random-plies",
            "8",
        ])
        .m;
        let list = openings(&args).unwrap();
        assert_eq!(list.len(), 20);
        assert!(list.iter().all(|p| !wins_at_once(p)));
    }

    #[test]
    fn random_openings_are_reproducible() {
        let mut args_text = vec![
            "x",
            "--engine1",
            "a",
            "--engine2",
            "b",
            "--games",
            "6",
            "--random-plies",
            "6",
        ];
        use clap::Parser;
        let a = Cli::parse_from(&args_text).m;
        let first = openings(&a).unwrap();
        assert_eq!(first.len(), 3);
        assert!(first.iter().all(|p| p.fullmove_number() == 4));
        let again = openings(&a).unwrap();
        assert_eq!(first, again);
        args_text.extend(["--seed", "2"]);
        let b = Cli::parse_from(&args_text).m;
        assert_ne!(openings(&b).unwrap(), first);
        // Without colour swaps every game has its own opening.
        args_text.push("--no-swap");
        let c = Cli::parse_from(&args_text).m;
        let own = openings(&c).unwrap();
        assert_eq!(own.len(), 6);
        assert_eq!((c.opening_of(4), b.opening_of(4)), (4, 2));
        let distinct: std::collections::HashSet<String> = own.iter().map(|p| p.to_fen()).collect();
        assert_eq!(distinct.len(), 6);
    }
}
