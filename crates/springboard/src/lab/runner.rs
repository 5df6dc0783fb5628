//! The lab's self-play runner: a set of games of one game at one strength
//! from fixed start positions, played on every core and kept in a file
//! (one line per complete game), so that a stopped run goes on where it
//! stopped and several questions read the same games.
//!
//! Game N of a set depends only on the set (its game, start positions,
//! strength, nodes, seed) and N: its randomness is the limited levels'
//! choice among near-best moves (`springboard_engine::Strength::pick`),
//! drawn from a generator seeded by the seed and N, not the clock. The
//! engine searches `Strength::CANDIDATES` lines at full strength within
//! the set's node budget, and the lab picks among them as a limited level
//! would.

use crate::suites::Rng;
use anyhow::{bail, Context, Result};
use springboard_engine::{Engine, Info, Limits, Score, Signals, Strength};
use springboard_rules::notation::uci::{parse_uci, to_uci};
use springboard_rules::{Color, DrawReason, Game, Move, Outcome, Position, Variant, WinReason};
use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// A set of games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetSpec {
    /// Its file name (without directory), unique to the set's settings.
    pub key: String,
    pub variant: Variant,
    /// Start positions: game N starts from `starts[(N - 1) % len]`.
    pub starts: Vec<String>,
    /// The level's skill (0..=20; 20 plays the best line).
    pub skill: u8,
    pub nodes: u64,
    pub seed: u64,
    /// A game still running after this many plies is a draw.
    pub max_plies: usize,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Ending {
    Checkmate,
    WeakSquare,
    Stalemate,
    Repetition,
    FiftyMoves,
    Material,
    /// A side scored winning by the search for several plies in a row
    /// after the first 40 plies (a mate the engine sees but still has to play).
    Adjudicated,
    /// The ply limit.
    Length,
}

impl Ending {
    pub const ALL: [Ending; 8] = [
        Ending::Checkmate,
        Ending::WeakSquare,
        Ending::Stalemate,
        Ending::Repetition,
        Ending::FiftyMoves,
        Ending::Material,
        Ending::Adjudicated,
        Ending::Length,
    ];

    pub fn token(self) -> &'static str {
        match self {
            Ending::Checkmate => "checkmate",
            Ending::WeakSquare => "weak-square",
            Ending::Stalemate => "stalemate",
            Ending::Repetition => "repetition",
            Ending::FiftyMoves => "fifty-moves",
            Ending::Material => "material",
            Ending::Adjudicated => "adjudicated",
            Ending::Length => "length",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Ending::Checkmate => "mate",
            Ending::WeakSquare => "weak square",
            Ending::Stalemate => "stalemate",
            Ending::Repetition => "repetition",
            Ending::FiftyMoves => "50 moves",
            Ending::Material => "material",
            Ending::Adjudicated => "adjudicated win",
            Ending::Length => "ply limit",
        }
    }

    fn parse(token: &str) -> Option<Ending> {
        Ending::ALL.into_iter().find(|e| e.token() == token)
    }
}

/// One game of a set as its file keeps it.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    pub number: usize,
    /// White's score: 1, 1/2 or 0.
    pub white: f64,
    pub ending: Ending,
    pub moves: Vec<String>,
}

impl GameRecord {
    pub fn plies(&self) -> usize {
        self.moves.len()
    }

    fn line(&self) -> String {
        let result = if self.white == 1.0 {
            "1-0"
        } else if self.white == 0.0 {
            "0-1"
        } else {
            "1/2"
        };
        let mut line = format!("{} {result} {}", self.number, self.ending.token());
        for m in &self.moves {
            line.push(' ');
            line.push_str(m);
        }
        line
    }

    fn parse(line: &str) -> Result<GameRecord> {
        let mut words = line.split_whitespace();
        let number = words
            .next()
            .and_then(|w| w.parse().ok())
            .context("a game line starts with its number")?;
        let white = match words.next() {
            Some("1-0") => 1.0,
            Some("0-1") => 0.0,
            Some("1/2") => 0.5,
            _ => bail!("game {number}: the result must be 1-0, 0-1 or 1/2"),
        };
        let ending = words
            .next()
            .and_then(Ending::parse)
            .with_context(|| format!("game {number}: unknown ending"))?;
        Ok(GameRecord {
            number,
            white,
            ending,
            moves: words.map(str::to_string).collect(),
        })
    }

    /// The score of `color`.
    pub fn score_of(&self, color: Color) -> f64 {
        match color {
            Color::White => self.white,
            Color::Black => 1.0 - self.white,
        }
    }
}

impl SetSpec {
    fn header(&self) -> String {
        format!(
            "# springboard lab set {}: {} skill {} nodes {} seed {} max-plies {} starts {}",
            self.key,
            self.variant,
            self.skill,
            self.nodes,
            self.seed,
            self.max_plies,
            self.starts.join(" ; ")
        )
    }

    /// The start position of game `number` (from 1).
    pub fn start(&self, number: usize) -> Result<Position> {
        let fen = &self.starts[(number - 1) % self.starts.len()];
        Position::from_fen(self.variant, fen).with_context(|| format!("bad start '{fen}'"))
    }

    /// The positions of a game, from its start to its end.
    pub fn replay(&self, game: &GameRecord) -> Result<Vec<(Position, Option<Move>)>> {
        let mut pos = self.start(game.number)?;
        let mut out = Vec::with_capacity(game.moves.len() + 1);
        for text in &game.moves {
            let m = parse_uci(&pos, text)
                .with_context(|| format!("game {}: bad move '{text}'", game.number))?;
            out.push((pos.clone(), Some(m)));
            pos.play(m);
        }
        out.push((pos, None));
        Ok(out)
    }
}

/// Plies after which a search's winning score may end a game.
const ADJUDICATE_AFTER: usize = 40;
/// Scores from here on count as won for adjudication.
const WIN_CP: i32 = 1500;
/// Plies in a row a side must be scored winning.
const WIN_PLIES: u32 = 8;

/// The lines of the last finished iteration, best first, as the engine
/// keeps them (a stopped iteration's better first line in front).
fn collect_lines(lines: &mut Vec<(Move, i32)>, info: &Info) {
    let Some(&first) = info.pv.first() else {
        return;
    };
    let cp = match info.score {
        Score::Cp(cp) => cp,
        Score::Mate(n) if n > 0 => 30_000 - n,
        Score::Mate(n) => -30_000 - n,
    };
    if info.bound.is_some() {
        lines.retain(|l| l.0 != first);
        lines.insert(0, (first, cp));
        return;
    }
    if info.multipv == 1 {
        lines.clear();
    }
    lines.push((first, cp));
}

/// Plays game `number` of `spec`.
pub fn play_game(spec: &SetSpec, number: usize, engine: &mut Engine) -> Result<GameRecord> {
    let mut rng = Rng::new(
        spec.seed
            .wrapping_mul(0x0001_0000_0001)
            .wrapping_add(number as u64),
    );
    let strength = Strength::from_skill(i64::from(spec.skill));
    engine.new_game();
    engine.multipv = if strength.is_limited() {
        Strength::CANDIDATES
    } else {
        1
    };
    let limits = Limits {
        nodes: Some(spec.nodes),
        ..Limits::default()
    };
    let mut game = Game::new(spec.start(number)?);
    let mut winning: (i32, u32) = (0, 0);
    let (white, ending) = loop {
        if let Some(outcome) = game.outcome() {
            break match outcome {
                Outcome::Win { winner, reason } => (
                    if winner == Color::White { 1.0 } else { 0.0 },
                    match reason {
                        WinReason::Checkmate => Ending::Checkmate,
                        WinReason::WeakSquare => Ending::WeakSquare,
                    },
                ),
                Outcome::Draw(reason) => (
                    0.5,
                    match reason {
                        DrawReason::Stalemate => Ending::Stalemate,
                        DrawReason::Repetition => Ending::Repetition,
                        DrawReason::FiftyMoves => Ending::FiftyMoves,
                        DrawReason::InsufficientMaterial => Ending::Material,
                    },
                ),
            };
        }
        if game.moves().len() >= spec.max_plies {
            break (0.5, Ending::Length);
        }
        let pos = game.position().clone();
        let history: Vec<u64> = game.positions()[..game.positions().len() - 1]
            .iter()
            .map(Position::hash)
            .collect();
        let mut lines: Vec<(Move, i32)> = Vec::new();
        let r = engine.search(&pos, &history, &limits, &Signals::new(), &mut |info| {
            collect_lines(&mut lines, info)
        });
        let chosen = if strength.is_limited() && !lines.is_empty() {
            strength.pick(&lines, || rng.next())
        } else {
            r.best
        };
        let Some(best) = chosen else {
            bail!("game {number}: the search found no move in a game not over");
        };
        let white_cp = {
            let sign = if pos.turn() == Color::White { 1 } else { -1 };
            match r.score {
                Score::Cp(cp) => sign * cp,
                Score::Mate(n) if n > 0 => sign * 30_000,
                Score::Mate(_) => -sign * 30_000,
            }
        };
        let side = white_cp.signum();
        if white_cp.abs() >= WIN_CP && side == winning.0 {
            winning.1 += 1;
        } else if white_cp.abs() >= WIN_CP {
            winning = (side, 1);
        } else {
            winning = (0, 0);
        }
        if winning.1 >= WIN_PLIES && game.moves().len() >= ADJUDICATE_AFTER {
            break (if winning.0 > 0 { 1.0 } else { 0.0 }, Ending::Adjudicated);
        }
        game.play(best)
            .map_err(|e| anyhow::anyhow!("game {number}: the search gave an illegal move: {e}"))?;
    };
    let mut pos = game.start().clone();
    let mut moves = Vec::with_capacity(game.moves().len());
    for &m in game.moves() {
        moves.push(to_uci(&pos, m));
        pos.play(m);
    }
    Ok(GameRecord {
        number,
        white,
        ending,
        moves,
    })
}

/// The complete games of a set's file and the length of its text up to
/// the last complete line.
fn read_set(spec: &SetSpec, text: &str) -> Result<(Vec<GameRecord>, usize)> {
    let mut games = Vec::new();
    let mut end = 0;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        offset += line.len();
        if !line.ends_with('\n') {
            break; // cut off by a stop: dropped
        }
        let body = line.trim_end();
        if offset == line.len() {
            if body != spec.header() {
                bail!("it holds another set ('{body}'): remove it or choose another --work");
            }
        } else if !body.is_empty() {
            games.push(GameRecord::parse(body)?);
        }
        end = offset;
    }
    Ok((games, end))
}

/// How a run is carried out.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Where the sets' files are kept.
    pub work: PathBuf,
    pub concurrency: usize,
}

/// Plays what is missing of games 1..=`games` of `spec` and gives them all
/// (by number).
pub fn run_set(spec: &SetSpec, games: usize, opts: &RunOptions) -> Result<Vec<GameRecord>> {
    std::fs::create_dir_all(&opts.work)
        .with_context(|| format!("cannot make {}", opts.work.display()))?;
    let path = opts.work.join(format!("{}.games", spec.key));
    let existing = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    let (mut done, end) = read_set(spec, &existing).with_context(|| path.display().to_string())?;
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .with_context(|| format!("cannot open {}", path.display()))?;
    if end < existing.len() {
        file.set_len(end as u64)?;
    }
    if existing.is_empty() || end == 0 {
        file.set_len(0)?;
        writeln!(file, "{}", spec.header())?;
    }
    let have: BTreeSet<usize> = done.iter().map(|g| g.number).collect();
    let todo: Vec<usize> = (1..=games).filter(|n| !have.contains(n)).collect();
    if !todo.is_empty() {
        play_missing(spec, &todo, opts, &path, Mutex::new(file), &mut done)?;
    }
    done.retain(|g| g.number <= games);
    done.sort_by_key(|g| g.number);
    done.dedup_by_key(|g| g.number);
    Ok(done)
}

fn play_missing(
    spec: &SetSpec,
    todo: &[usize],
    opts: &RunOptions,
    path: &Path,
    file: Mutex<std::fs::File>,
    done: &mut Vec<GameRecord>,
) -> Result<()> {
    let next = AtomicUsize::new(0);
    let finished = AtomicUsize::new(0);
    let results: Mutex<Vec<GameRecord>> = Mutex::new(Vec::new());
    let errors: Mutex<Vec<anyhow::Error>> = Mutex::new(Vec::new());
    let started = Instant::now();
    let workers = opts.concurrency.clamp(1, todo.len());
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                let mut engine = Engine::new(16);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&number) = todo.get(i) else { break };
                    if !errors.lock().map(|e| e.is_empty()).unwrap_or(false) {
                        break;
                    }
                    let outcome = play_game(spec, number, &mut engine).and_then(|g| {
                        let mut f = file
                            .lock()
                            .map_err(|_| anyhow::anyhow!("a writer failed"))?;
                        writeln!(f, "{}", g.line())?;
                        f.flush()?;
                        Ok(g)
                    });
                    match outcome {
                        Ok(g) => {
                            if let Ok(mut r) = results.lock() {
                                r.push(g);
                            }
                            let n = finished.fetch_add(1, Ordering::Relaxed) + 1;
                            let secs = started.elapsed().as_secs_f64().max(1e-3);
                            let rate = n as f64 / secs;
                            let left = (todo.len() - n) as f64 / rate;
                            eprint!(
                                "\r{}: {n}/{} games, {rate:.2} games/s, about {left:.0} s left   ",
                                spec.key,
                                todo.len()
                            );
                        }
                        Err(e) => {
                            if let Ok(mut errs) = errors.lock() {
                                errs.push(e);
                            }
                        }
                    }
                }
            });
        }
    });
    eprintln!();
    if let Some(e) = errors.into_inner().ok().and_then(|mut e| e.pop()) {
        return Err(e).with_context(|| path.display().to_string());
    }
    done.extend(results.into_inner().unwrap_or_default());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec() -> SetSpec {
        SetSpec {
            key: "test-jumpingking".to_string(),
            variant: Variant::JumpingKing,
            starts: vec![Variant::JumpingKing.start_fen().to_string()],
            skill: 10,
            nodes: 200,
            seed: 5,
            max_plies: 60,
        }
    }

    #[test]
    fn a_set_is_the_same_when_stopped_and_resumed() {
        let dir = tempfile::tempdir().unwrap();
        let whole = RunOptions {
            work: dir.path().join("whole"),
            concurrency: 2,
        };
        let all = run_set(&spec(), 3, &whole).unwrap();
        assert_eq!(
            all.iter().map(|g| g.number).collect::<Vec<_>>(),
            vec![1, 2, 3]
        );
        for g in &all {
            let positions = spec().replay(g).unwrap();
            assert_eq!(positions.len(), g.plies() + 1);
            assert!(g.plies() <= 60);
        }
        // Two games, a cut-off line, then three games: the same games.
        let part = RunOptions {
            work: dir.path().join("part"),
            concurrency: 1,
        };
        run_set(&spec(), 2, &part).unwrap();
        let path = part.work.join("test-jumpingking.games");
        let mut text = std::fs::read_to_string(&path).unwrap();
        text.push_str("3 1-0 checkm");
        std::fs::write(&path, text).unwrap();
        let resumed = run_set(&spec(), 3, &part).unwrap();
        assert_eq!(resumed, all);
        // Another set's file is refused.
        let mut other = spec();
        other.seed = 6;
        assert!(run_set(&other, 1, &part).is_err());
    }

    #[test]
    fn game_lines_round_trip() {
        let g = GameRecord {
            number: 12,
            white: 0.5,
            ending: Ending::Repetition,
            moves: vec!["e2e4".into(), "e7e5".into()],
        };
        assert_eq!(GameRecord::parse(&g.line()).unwrap(), g);
        assert!(GameRecord::parse("1 2-0 checkmate").is_err());
        assert!(GameRecord::parse("1 1-0 resigned").is_err());
    }
}
