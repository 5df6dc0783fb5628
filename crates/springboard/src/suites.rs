//! Opening suites: balanced start positions of every game, one position
//! text (the rules core's FEN of that game) per line, made by
//! `springboard openings` and played by `springboard match` by default.
//!
//! A suite is made from random plies from the start position, each kept
//! when a fixed search (one thread, an empty table, a fixed node count)
//! scores it near equal for the side to move; see "Opening suites" in
//! docs/engine.md for the commands and figures.

use anyhow::{bail, Context, Result};
use clap::Args;
use springboard_engine::{Engine, Limits, Score, Signals};
use springboard_rules::{Outcome, Position, Variant};
use std::collections::HashSet;
use std::io::Write;
use std::path::PathBuf;
use thiserror::Error;

/// The fewest positions a suite of the repository holds.
pub const MIN_SUITE: usize = 500;

/// The suites of the repository (`openings/<variant>.txt`), built in.
pub fn builtin(variant: Variant) -> (&'static str, &'static str) {
    match variant {
        Variant::Chess => (
            "openings/chess.txt",
            include_str!("../../../openings/chess.txt"),
        ),
        Variant::HopChess => (
            "openings/hopchess.txt",
            include_str!("../../../openings/hopchess.txt"),
        ),
        Variant::Trampoline => (
            "openings/trampoline.txt",
            include_str!("../../../openings/trampoline.txt"),
        ),
        Variant::JumpingKing => (
            "openings/jumpingking.txt",
            include_str!("../../../openings/jumpingking.txt"),
        ),
        Variant::Hoplit => (
            "openings/hoplit.txt",
            include_str!("../../../openings/hoplit.txt"),
        ),
    }
}

/// What is wrong with a suite file.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum SuiteError {
    #[error("line {line}: not a {variant} position: {reason}")]
    BadPosition {
        line: usize,
        variant: Variant,
        reason: String,
    },
    #[error("line {line}: the game is already over")]
    Over { line: usize },
    #[error("line {line}: the same position as line {first}")]
    Duplicate { line: usize, first: usize },
    #[error("no positions")]
    Empty,
}

/// Reads a suite: every line that is not empty and does not start with `#`
/// is a position of `variant` whose game is not over; no two are the same
/// position (same Zobrist key: pieces, side to move, castling, en passant,
/// trampolines, reserves; the move counters do not count).
pub fn parse_suite(variant: Variant, text: &str) -> Result<Vec<Position>, SuiteError> {
    let mut list = Vec::new();
    let mut seen = std::collections::HashMap::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let pos = Position::from_fen(variant, line).map_err(|e| SuiteError::BadPosition {
            line: n + 1,
            variant,
            reason: e.to_string(),
        })?;
        if pos.outcome().is_some() {
            return Err(SuiteError::Over { line: n + 1 });
        }
        if let Some(&first) = seen.get(&pos.hash()) {
            return Err(SuiteError::Duplicate { line: n + 1, first });
        }
        seen.insert(pos.hash(), n + 1);
        list.push(pos);
    }
    if list.is_empty() {
        return Err(SuiteError::Empty);
    }
    Ok(list)
}

/// A small xorshift generator (reproducible for a seed).
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number below `n` (which must be at least 1).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Whether the side to move has a move that wins on the spot (mate, or a
/// weak square entered, J3).
pub fn wins_at_once(pos: &Position) -> bool {
    pos.legal_moves().into_iter().any(|m| {
        let mut after = pos.clone();
        after.play(m);
        matches!(after.outcome(), Some(Outcome::Win { .. }))
    })
}

/// `plies` random moves from `pos` (fewer if the game ends first).
pub fn random_plies(pos: &mut Position, plies: usize, rng: &mut Rng) {
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return;
        }
        pos.play(moves[rng.below(moves.len())]);
    }
}

/// Random plies of a game's suite: a Hop Chess turn is a piece move and a
/// placement, so fewer of them make an opening.
pub fn default_plies(variant: Variant) -> usize {
    match variant {
        Variant::HopChess => 6,
        _ => 8,
    }
}

/// Nodes of the search that judges a candidate (one thread, empty table):
/// chosen so that the five suites together cost under 30 CPU-minutes on
/// this project's machine (figures in docs/engine.md). Jumping King's
/// judge searches about as deep as its games at 10+0.1 do: at 150,000
/// nodes, 41% of the kept positions scored beyond 100 cp at 1,500,000.
pub fn default_nodes(variant: Variant) -> u64 {
    match variant {
        Variant::Chess => 600_000,
        Variant::HopChess => 60_000,
        Variant::Trampoline => 100_000,
        Variant::JumpingKing => 1_500_000,
        Variant::Hoplit => 150_000,
    }
}

#[derive(Args)]
pub struct OpeningsArgs {
    /// The game.
    #[arg(long, value_parser = crate::args::parse_variant)]
    variant: Variant,
    /// Positions to keep.
    #[arg(long, default_value_t = MIN_SUITE)]
    count: usize,
    /// The file to write (replaced; `-` for standard output).
    #[arg(long)]
    out: PathBuf,
    /// Seed of the random plies: the same seed and options make the same file.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Random plies from the start position (default: 8, Hop Chess 6 turns).
    #[arg(long)]
    plies: Option<usize>,
    /// Nodes of the judging search (default: per game, see docs/engine.md).
    #[arg(long)]
    nodes: Option<u64>,
    /// Keep a position when the search scores it within +-N centipawns.
    #[arg(long, default_value_t = 60)]
    max_cp: i32,
    /// Searches run at once (the file does not depend on it).
    #[arg(long, default_value_t = 1)]
    threads: usize,
}

/// What judging one candidate found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    /// Kept, with its score (cp, side to move).
    Kept(i32),
    /// Rejected by the quick search (a sixteenth of the nodes).
    QuickReject,
    /// Rejected by the full search.
    Reject,
}

/// Searches `pos` to `nodes` with an empty table and gives its score in
/// centipawns, or `None` for a mate score.
fn judge_score(engine: &mut Engine, pos: &Position, nodes: u64) -> Option<i32> {
    engine.new_game();
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    match engine
        .search(pos, &[], &limits, &Signals::new(), &mut |_| {})
        .score
    {
        Score::Cp(cp) => Some(cp),
        Score::Mate(_) => None,
    }
}

/// A quick search of a sixteenth of the nodes first throws out what is
/// clearly unbalanced (beyond three times the margin), then the full
/// search decides.
fn judge(engine: &mut Engine, pos: &Position, nodes: u64, max_cp: i32) -> Verdict {
    let quick = judge_score(engine, pos, (nodes / 16).max(1));
    if quick.is_none_or(|cp| cp.abs() > max_cp.saturating_mul(3)) {
        return Verdict::QuickReject;
    }
    match judge_score(engine, pos, nodes) {
        Some(cp) if cp.abs() <= max_cp => Verdict::Kept(cp),
        _ => Verdict::Reject,
    }
}

/// The candidates' figures, written into the file's header.
#[derive(Default)]
struct Figures {
    tried: usize,
    repeated: usize,
    won_at_once: usize,
    quick_rejected: usize,
    rejected: usize,
    /// Kept scores by |cp| in bands of 20: 0-19, 20-39, 40-59, 60+.
    bands: [usize; 4],
}

pub fn run_openings(args: &OpeningsArgs) -> Result<()> {
    if args.count == 0 || args.threads == 0 {
        bail!("--count and --threads must be at least 1");
    }
    if args.max_cp < 0 {
        bail!("--max-cp must be at least 0");
    }
    let variant = args.variant;
    let plies = args.plies.unwrap_or_else(|| default_plies(variant));
    let nodes = args.nodes.unwrap_or_else(|| default_nodes(variant));
    if nodes == 0 {
        bail!("--nodes must be at least 1");
    }
    let started = std::time::Instant::now();
    let mut rng = Rng::new(args.seed);
    let mut seen = HashSet::new();
    let mut kept: Vec<(Position, i32)> = Vec::new();
    let mut fig = Figures::default();
    let mut engines: Vec<Engine> = (0..args.threads).map(|_| Engine::new(8)).collect();
    let batch = 4 * args.threads;
    while kept.len() < args.count {
        // Draw a batch of fresh candidates (in order, from the seed alone).
        let mut candidates = Vec::with_capacity(batch);
        let mut draws = 0;
        while candidates.len() < batch {
            draws += 1;
            if draws > 1000 * batch {
                bail!(
                    "{variant}: only {} different positions after {plies} random plies; \
                     ask for fewer or more plies",
                    seen.len()
                );
            }
            let mut pos = Position::startpos(variant);
            random_plies(&mut pos, plies, &mut rng);
            fig.tried += 1;
            if !seen.insert(pos.hash()) {
                fig.repeated += 1;
                continue;
            }
            if pos.outcome().is_some() || wins_at_once(&pos) {
                fig.won_at_once += 1;
                continue;
            }
            candidates.push((pos, (fig.tried, fig.repeated, fig.won_at_once)));
        }
        // Judge them on `threads` threads; the verdicts come back in order.
        let per = candidates.len().div_ceil(args.threads);
        let verdicts: Vec<Verdict> = std::thread::scope(|s| {
            let handles: Vec<_> = candidates
                .chunks(per)
                .zip(engines.iter_mut())
                .map(|(chunk, engine)| {
                    s.spawn(move || {
                        chunk
                            .iter()
                            .map(|(p, _)| judge(engine, p, nodes, args.max_cp))
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            handles
                .into_iter()
                .flat_map(|h| h.join().expect("a judging thread panicked"))
                .collect()
        });
        for ((pos, drawn), verdict) in candidates.into_iter().zip(verdicts) {
            if kept.len() >= args.count {
                break;
            }
            // The draws up to this candidate (not those of the rest of the
            // batch): the figures do not depend on --threads.
            (fig.tried, fig.repeated, fig.won_at_once) = drawn;
            match verdict {
                Verdict::Kept(cp) => {
                    fig.bands[((cp.unsigned_abs() / 20) as usize).min(3)] += 1;
                    kept.push((pos, cp));
                }
                Verdict::QuickReject => fig.quick_rejected += 1,
                Verdict::Reject => fig.rejected += 1,
            }
        }
        eprint!(
            "\r{variant}: {} kept of {} judged, {:.0} s",
            kept.len(),
            kept.len() + fig.quick_rejected + fig.rejected,
            started.elapsed().as_secs_f64()
        );
    }
    eprintln!();
    let mut text = String::new();
    let judged = kept.len() + fig.quick_rejected + fig.rejected;
    text.push_str(&format!(
        "# Springboard opening suite: {variant}, {} positions (docs/engine.md, \"Opening suites\").\n\
         # Made by: springboard openings --variant {variant} --count {} --seed {} --plies {plies} --nodes {nodes} --max-cp {}\n\
         # Each line: {plies} random plies from the start, kept when a search of {nodes} nodes\n\
         # (one thread, empty table; a quick search of {} nodes first) scores it within +-{} cp.\n\
         # Candidates: {} drawn, {} repeated, {} over or won in one move, {judged} judged,\n\
         # {} rejected by the quick search, {} by the full search.\n\
         # Kept |score|: 0-19 cp {}, 20-39 cp {}, 40-59 cp {}, 60 cp {}.\n",
        kept.len(),
        args.count,
        args.seed,
        args.max_cp,
        (nodes / 16).max(1),
        args.max_cp,
        fig.tried,
        fig.repeated,
        fig.won_at_once,
        fig.quick_rejected,
        fig.rejected,
        fig.bands[0],
        fig.bands[1],
        fig.bands[2],
        fig.bands[3],
    ));
    for (pos, _) in &kept {
        text.push_str(&pos.to_fen());
        text.push('\n');
    }
    let mean_abs = kept.iter().map(|(_, cp)| cp.abs() as f64).sum::<f64>() / kept.len() as f64;
    let mean = kept.iter().map(|(_, cp)| *cp as f64).sum::<f64>() / kept.len() as f64;
    eprintln!(
        "{variant}: {} positions, mean score {mean:+.1} cp, mean |score| {mean_abs:.1} cp, {:.0} s wall",
        kept.len(),
        started.elapsed().as_secs_f64()
    );
    if args.out.as_os_str() == "-" {
        std::io::stdout().write_all(text.as_bytes())?;
        return Ok(());
    }
    let tmp = args.out.with_extension("tmp");
    std::fs::write(&tmp, &text).with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, &args.out)
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The suites of the repository: at least 500 positions each, every
    /// line a position of its game that is not over, none twice.
    #[test]
    fn the_repository_suites_are_valid() {
        for v in Variant::ALL {
            let (name, text) = builtin(v);
            let list = parse_suite(v, text).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(list.len() >= MIN_SUITE, "{name}: {} positions", list.len());
            assert!(list.iter().all(|p| p.variant() == v));
            // Each line is the position's own text (the file round-trips).
            let lines: Vec<&str> = text
                .lines()
                .filter(|l| !l.is_empty() && !l.starts_with('#'))
                .collect();
            assert_eq!(lines.len(), list.len());
            for (line, pos) in lines.iter().zip(&list) {
                assert_eq!(*line, pos.to_fen(), "{name}");
            }
        }
    }

    #[test]
    fn suite_files_are_checked() {
        let start = Position::startpos(Variant::Chess).to_fen();
        let e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
        // Comments and blank lines are skipped.
        let ok = format!("# a suite\n\n{start}\n{e4}\n");
        assert_eq!(parse_suite(Variant::Chess, &ok).unwrap().len(), 2);
        // The same position with other move counters is the same position.
        let again = format!("{e4}\n{start}\n{}\n", start.replace(" 0 1", " 4 9"));
        assert_eq!(
            parse_suite(Variant::Chess, &again),
            Err(SuiteError::Duplicate { line: 3, first: 2 })
        );
        // A position of another game.
        let hop = Position::startpos(Variant::HopChess).to_fen();
        assert!(matches!(
            parse_suite(Variant::Chess, &format!("{start}\n{hop}\n")),
            Err(SuiteError::BadPosition { line: 2, .. })
        ));
        // Fool's mate: over.
        let mated = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
        assert_eq!(
            parse_suite(Variant::Chess, mated),
            Err(SuiteError::Over { line: 1 })
        );
        assert_eq!(
            parse_suite(Variant::Chess, "# none\n"),
            Err(SuiteError::Empty)
        );
        assert!(parse_suite(Variant::Hoplit, "not a position").is_err());
    }

    #[test]
    fn generation_is_reproducible_for_a_seed() {
        let dir = tempfile::tempdir().unwrap();
        let make = |threads: usize, seed: u64, name: &str| {
            let out = dir.path().join(name);
            let args = OpeningsArgs {
                variant: Variant::JumpingKing,
                count: 6,
                out: out.clone(),
                seed,
                plies: None,
                nodes: Some(2000),
                max_cp: 60,
                threads,
            };
            run_openings(&args).unwrap();
            std::fs::read_to_string(out).unwrap()
        };
        let one = make(1, 7, "a.txt");
        assert_eq!(make(3, 7, "b.txt"), one);
        assert_ne!(make(1, 8, "c.txt"), one);
        let list = parse_suite(Variant::JumpingKing, &one).unwrap();
        assert_eq!(list.len(), 6);
        assert!(one.starts_with(
            "# Springboard opening suite: jumpingking, 6 positions (docs/engine.md, \"Opening suites\").\n\
             # Made by: springboard openings --variant jumpingking --count 6 --seed 7 --plies 8 --nodes 2000 --max-cp 60\n"
        ), "{one}");
        // Every kept position scores within the margin at those nodes.
        let mut engine = Engine::new(8);
        for p in &list {
            assert!(judge_score(&mut engine, p, 2000).is_some_and(|cp| cp.abs() <= 60));
        }
    }
}
