//! The properties the fuzz targets check, shared by every target (see
//! docs/fuzzing.md).
//!
//! Every target feeds text to a reader of the rules core and checks, beyond
//! "no panic":
//! - an accepted position text round-trips: parse, write, parse gives the
//!   same position and the same text, and the incremental hash equals the
//!   recomputed one;
//! - an accepted position's legal moves agree with perft 1, are listed once
//!   each (ruling P9), and a position without legal moves has an outcome;
//! - each legal move's long notation and SAN read back to that same move
//!   (and the long notation to the same text), and playing it gives a
//!   position whose text round-trips.
//!
//! Positions with very many legal moves (Hop Chess turns run into the
//! thousands) check a spread sample of their moves, [`sample`], so that one
//! input stays in the milliseconds; the `game` target lets the fuzzer pick
//! any move.

pub mod protocol;
pub mod web;

use springboard_rules::notation::pgn::{self, Tags, VariantHint};
use springboard_rules::notation::uci::{self, UciMove};
use springboard_rules::notation::{san, seed};
use springboard_rules::perft::perft;
use springboard_rules::{Game, Move, Position, Variant};
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

/// The most moves checked in full in one position (the sample of a larger
/// list has about `WORK / len` moves, at least [`MIN_SAMPLE`]).
const WORK: usize = 2048;
const MIN_SAMPLE: usize = 4;
/// The most moves one input plays, to keep an input fast.
pub const MAX_PLIES: usize = 48;

/// The moves of `moves` a check looks at: all of them when the list is
/// short, else an evenly spread sample.
pub fn sample(moves: &[Move]) -> Vec<Move> {
    let len = moves.len();
    if len == 0 {
        return Vec::new();
    }
    let count = (WORK / len).max(MIN_SAMPLE).min(len);
    (0..count).map(|i| moves[i * len / count]).collect()
}

/// Parse, write, parse: the same position and the same text.
pub fn round_trip(pos: &Position) {
    let variant = pos.variant();
    let text = pos.to_fen();
    let again = Position::from_fen(variant, &text)
        .unwrap_or_else(|e| panic!("{variant}: the written text {text:?} is refused: {e}"));
    assert_eq!(
        again.to_fen(),
        text,
        "{variant}: writing the position read from {text:?} gives another text"
    );
    assert!(
        again == *pos,
        "{variant}: {text:?} reads as another position:\n{again:?}\nwas\n{pos:?}"
    );
    assert_eq!(
        pos.hash(),
        pos.compute_hash(),
        "{variant}: {text:?}: the incremental hash is not the computed one"
    );
}

/// A cheap hasher for the sets of moves (std's SipHash was a twentieth of
/// `game`'s time): Fx-style multiply-rotate, good enough for a set the
/// fuzzer cannot flood (the moves are the rules core's).
#[derive(Default)]
struct MoveHasher(u64);

impl Hasher for MoveHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u8(&mut self, b: u8) {
        self.write_u64(u64::from(b));
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
}

/// Each legal move of `pos` is listed once (P9).
pub fn listed_once(pos: &Position, moves: &[Move]) {
    let mut seen: HashSet<Move, BuildHasherDefault<MoveHasher>> =
        HashSet::with_capacity_and_hasher(moves.len(), Default::default());
    for &m in moves {
        assert!(
            seen.insert(m),
            "{}: {:?}: {} is listed twice",
            pos.variant(),
            pos.to_fen(),
            uci::to_uci(pos, m)
        );
    }
}

/// Every property of an accepted position (module documentation).
pub fn check_position(pos: &Position) {
    round_trip(pos);
    let fen = pos.to_fen();
    let moves = pos.legal_moves();
    assert_eq!(
        perft(pos, 1),
        moves.len() as u64,
        "{}: {fen:?}: perft 1 is not the number of legal moves",
        pos.variant()
    );
    listed_once(pos, &moves);
    if moves.is_empty() {
        assert!(
            pos.outcome().is_some(),
            "{}: {fen:?}: no legal move but the game is not over",
            pos.variant()
        );
    }
    for m in sample(&moves) {
        check_move(pos, m);
    }
}

/// A legal move `m` of `pos`: its long notation and SAN read back to it,
/// and the position after it round-trips.
pub fn check_move(pos: &Position, m: Move) {
    let variant = pos.variant();
    let fen = pos.to_fen();
    assert!(pos.is_legal(m), "{variant}: {fen:?}: {m:?} is not legal");
    let long = uci::to_uci(pos, m);
    match uci::parse_uci(pos, &long) {
        Ok(back) => {
            assert_eq!(back, m, "{variant}: {fen:?}: {long} reads as another move");
            assert_eq!(
                uci::to_uci(pos, back),
                long,
                "{variant}: {fen:?}: {long} is written back differently"
            );
        }
        Err(e) => panic!("{variant}: {fen:?}: the long notation {long} is refused: {e}"),
    }
    let short = san::to_san(pos, m);
    match san::parse_san(pos, &short) {
        Ok(back) => assert_eq!(
            back,
            m,
            "{variant}: {fen:?}: the SAN {short:?} reads as {}, not {long}",
            uci::to_uci(pos, back)
        ),
        Err(e) => panic!("{variant}: {fen:?}: the SAN {short:?} of {long} is refused: {e}"),
    }
    let mut next = pos.clone();
    next.play(m);
    round_trip(&next);
}

/// The positions the move targets start from: each game's start, the
/// positions of the perft suites (crates/rules/tests/perft) and those of
/// the rule examples (docs/rules). An input's first byte picks one.
pub fn pool() -> &'static [Position] {
    static POOL: OnceLock<Vec<Position>> = OnceLock::new();
    POOL.get_or_init(|| {
        let mut fens: Vec<(Variant, String)> = Variant::ALL
            .iter()
            .map(|&v| (v, v.start_fen().to_string()))
            .collect();
        for (variant, text) in PERFT {
            for line in text.lines() {
                if let Some(fen) = line.trim().strip_prefix("epd ") {
                    fens.push((variant, fen.to_string()));
                }
            }
        }
        for text in DOCS {
            let mut variant = Variant::Chess;
            for line in text.lines() {
                if let Some(name) = line.strip_prefix("variant ") {
                    variant = Variant::from_name(name.trim()).unwrap_or(variant);
                } else if let Some(fen) = line.strip_prefix("position ") {
                    if fen.trim() != "start" {
                        fens.push((variant, fen.trim().to_string()));
                    }
                }
            }
        }
        let mut seen = HashSet::new();
        fens.into_iter()
            .filter_map(|(v, fen)| Position::from_fen(v, &fen).ok())
            .filter(|p| seen.insert((p.variant(), p.to_fen())))
            .take(256)
            .collect()
    })
}

/// The perft suites, by game.
pub const PERFT: [(Variant, &str); 5] = [
    (
        Variant::Chess,
        include_str!("../../crates/rules/tests/perft/chess.perft"),
    ),
    (
        Variant::HopChess,
        include_str!("../../crates/rules/tests/perft/hopchess.perft"),
    ),
    (
        Variant::Trampoline,
        include_str!("../../crates/rules/tests/perft/trampoline.perft"),
    ),
    (
        Variant::JumpingKing,
        include_str!("../../crates/rules/tests/perft/jumpingking.perft"),
    ),
    (
        Variant::Hoplit,
        include_str!("../../crates/rules/tests/perft/hoplit.perft"),
    ),
];

/// The rule documents with their `example` blocks.
pub const DOCS: [&str; 7] = [
    include_str!("../../docs/rules/chess.md"),
    include_str!("../../docs/rules/hopchess.md"),
    include_str!("../../docs/rules/trampoline.md"),
    include_str!("../../docs/rules/trampolines.md"),
    include_str!("../../docs/rules/jumpingking.md"),
    include_str!("../../docs/rules/hoplit.md"),
    include_str!("../../docs/rules/notation.md"),
];

/// The published games (crates/rules/tests/games), with their game.
pub const GAMES: [(Variant, &str); 3] = [
    (
        Variant::HopChess,
        include_str!("../../crates/rules/tests/games/hop-chess.txt"),
    ),
    (
        Variant::Trampoline,
        include_str!("../../crates/rules/tests/games/trampoline-chess.txt"),
    ),
    (
        Variant::JumpingKing,
        include_str!("../../crates/rules/tests/games/jumping-king.txt"),
    ),
];

/// The index in [`pool`] of a game's start position.
pub fn start_index(variant: Variant) -> u8 {
    Variant::ALL
        .iter()
        .position(|&v| v == variant)
        .expect("a game") as u8
}

/// An input of a move target: the first byte picks the start position, the
/// rest is text.
fn split(data: &[u8]) -> Option<(&'static Position, &str)> {
    let (&first, rest) = data.split_first()?;
    let pool = pool();
    let pos = &pool[first as usize % pool.len()];
    Some((pos, std::str::from_utf8(rest).ok()?))
}

/// `fen_*`: a position text of `variant`.
pub fn fen_target(variant: Variant, data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(pos) = Position::from_fen(variant, text) {
        check_position(&pos);
    }
}

/// Plays a move read from `text` on `game`, checking it first.
fn play_read(game: &mut Game, m: Move) {
    let pos = game.position().clone();
    check_move(&pos, m);
    game.play(m)
        .unwrap_or_else(|e| panic!("{}: a move read as legal is refused: {e}", pos.to_fen()));
    let mut after = pos.clone();
    after.play(m);
    assert!(
        *game.position() == after,
        "Game::play and Position::play differ"
    );
}

/// `uci`: whitespace-separated long notation moves, read and played one
/// after the other from the picked position (unreadable ones are skipped).
pub fn uci_target(data: &[u8]) {
    let Some((start, text)) = split(data) else {
        return;
    };
    let mut game = Game::new(start.clone());
    for token in text.split_whitespace().take(MAX_PLIES) {
        if let Ok(syntax) = token.parse::<UciMove>() {
            let written = syntax.to_string();
            let again: UciMove = written
                .parse()
                .unwrap_or_else(|e| panic!("{token}: written as {written}, which is refused: {e}"));
            assert_eq!(
                again, syntax,
                "{token}: written as {written}, read otherwise"
            );
        }
        if game.outcome().is_some() {
            break;
        }
        if let Ok(m) = uci::parse_uci(game.position(), token) {
            play_read(&mut game, m);
        }
    }
}

/// `san`: SAN moves, one per line (a Hop Chess turn is `Nf6 d5`), read and
/// played one after the other from the picked position.
pub fn san_target(data: &[u8]) {
    let Some((start, text)) = split(data) else {
        return;
    };
    let mut game = Game::new(start.clone());
    for line in text.lines().take(MAX_PLIES) {
        if game.outcome().is_some() {
            break;
        }
        if let Ok(m) = san::parse_san(game.position(), line) {
            play_read(&mut game, m);
        }
    }
}

/// `seed`: a game text in the seeds' notation (move numbers, comments, old
/// notation), replayed from the picked position; every replayed move is
/// legal, its position round-trips, and a single token read with the old
/// notation is a legal step.
pub fn seed_target(data: &[u8]) {
    let Some((start, text)) = split(data) else {
        return;
    };
    let tokens = seed::tokens(text);
    let _ = seed::ends_in_resignation(text);
    if let Some(first) = tokens.first() {
        if let Ok(m) = seed::read_piece_move(start, first) {
            let mut steps = Vec::new();
            start.legal_steps_into(&mut steps);
            assert!(steps.contains(&m), "{first}: not a legal step");
        }
    }
    if tokens.len() > MAX_PLIES * 2 {
        return;
    }
    if let Ok(replay) = seed::replay(start, text) {
        assert_eq!(replay.positions.len(), replay.moves.len() + 1);
        assert!(replay.positions[0] == *start);
        for (i, &m) in replay.moves.iter().enumerate() {
            let pos = &replay.positions[i];
            check_move(pos, m);
            let mut next = pos.clone();
            next.play(m);
            assert!(next == replay.positions[i + 1], "replay positions differ");
        }
    }
}

/// `game`: move choices played on a [`Game`]: each two bytes pick a legal
/// move by index (0xffff takes the last move back).
///
/// Every ply: the game is not over when a move is chosen, a position
/// without legal moves has an outcome, `Game::play` agrees with
/// `Position::play`, the incremental hash is the computed one, `undo`
/// restores. Once per input, on the last move of the game as it stands
/// (the fuzzer reaches any move of any line by ending an input there):
/// the legal moves of its position agree with perft 1 and are listed
/// once (P9), and the move passes [`check_move`] (long notation and SAN
/// read back, the position after it round-trips); and the game's SAN,
/// as a game text, replays with the seeds' reader to the same moves.
/// Each ply thus generates the legal moves of its position about four
/// times (`Game::outcome`, the choice, the SAN, `Game::play`) plus the
/// replay, where checking every ply in full cost about ten.
pub fn game_target(data: &[u8]) {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let pool = pool();
    let start = &pool[first as usize % pool.len()];
    let mut game = Game::new(start.clone());
    // The SAN of each move of the game, for the game text.
    let mut sans: Vec<String> = Vec::new();
    for pair in rest.chunks_exact(2).take(MAX_PLIES) {
        let choice = u16::from_le_bytes([pair[0], pair[1]]);
        if choice == u16::MAX {
            let plies = game.moves().len();
            let previous = plies.checked_sub(1).map(|i| game.positions()[i].clone());
            if game.undo().is_some() {
                sans.pop();
                assert_eq!(game.moves().len(), plies - 1, "undo takes back one move");
                assert!(
                    Some(game.position()) == previous.as_ref(),
                    "undo does not restore"
                );
            }
            continue;
        }
        if game.outcome().is_some() {
            break;
        }
        let pos = game.position();
        let moves = pos.legal_moves();
        if moves.is_empty() {
            panic!("{}: no legal move but the game is not over", pos.to_fen());
        }
        let m = moves[choice as usize % moves.len()];
        sans.push(san::to_san(pos, m));
        let mut after = pos.clone();
        after.play(m);
        assert_eq!(
            after.hash(),
            after.compute_hash(),
            "{}: the incremental hash after {} is not the computed one",
            pos.to_fen(),
            uci::to_uci(pos, m)
        );
        if let Err(e) = game.play(m) {
            panic!("{}: a legal move is refused: {e}", game.position().to_fen());
        }
        assert!(
            *game.position() == after,
            "Game::play and Position::play differ"
        );
    }
    // The last move in full.
    if let (Some(&m), [.., pos, _]) = (game.moves().last(), game.positions()) {
        let moves = pos.legal_moves();
        assert_eq!(perft(pos, 1), moves.len() as u64, "{}", pos.to_fen());
        listed_once(pos, &moves);
        check_move(pos, m);
    }
    // The game's SAN, as a game text, replays to the same moves.
    let text = sans.join(" ");
    match seed::replay(start, &text) {
        Ok(replay) => assert!(
            replay.moves == game.moves(),
            "{}: the SAN text {text:?} replays to other moves",
            start.to_fen()
        ),
        Err(e) => panic!(
            "{}: the SAN text {text:?} does not replay: {e}",
            start.to_fen()
        ),
    }
}

/// The game a `pgn` input asks for: its first byte, `Any` or one of the
/// five games.
pub fn pgn_hint(first: u8) -> VariantHint {
    match first as usize % (Variant::ALL.len() + 1) {
        0 => VariantHint::Any,
        i => VariantHint::Game(Variant::ALL[i - 1]),
    }
}

/// A game read from a PGN text: its moves are legal and its positions are
/// those they reach; written back and read again (as the game it is), it
/// gives the same start, moves, positions, outcome and result, and writing
/// that gives the same text.
pub fn check_pgn_game(game: &Game, tags: &Tags) {
    let positions = game.positions();
    assert_eq!(positions.len(), game.moves().len() + 1);
    assert!(positions[0] == *game.start());
    for (i, &m) in game.moves().iter().enumerate() {
        let pos = &positions[i];
        assert!(
            pos.is_legal(m),
            "{}: a read move is not legal",
            pos.to_fen()
        );
        let mut next = pos.clone();
        next.play(m);
        assert!(next == positions[i + 1], "the read positions differ");
    }
    round_trip(game.position());
    let variant = game.start().variant();
    let text = pgn::write(game, tags);
    let (again, again_tags) = pgn::read(&text, VariantHint::Game(variant))
        .unwrap_or_else(|e| panic!("the written PGN does not read back: {e}\n{text}"));
    assert!(
        again.start() == game.start(),
        "another start position read back:\n{text}"
    );
    assert!(
        again.moves() == game.moves(),
        "other moves read back:\n{text}"
    );
    assert!(
        again.positions() == game.positions(),
        "other positions read back:\n{text}"
    );
    assert_eq!(again.outcome(), game.outcome(), "{text}");
    let result = match (game.outcome(), tags.get("Result")) {
        (Some(o), _) => o.result_str(),
        (None, Some(r @ ("1-0" | "0-1" | "1/2-1/2" | "*"))) => r,
        (None, _) => "*",
    };
    assert_eq!(
        again_tags.get("Result"),
        Some(result),
        "another result read back:\n{text}"
    );
    let twice = pgn::write(&again, &again_tags);
    assert_eq!(twice, text, "writing the PGN read back gives another text");
}

/// `pgn`: a PGN text (one game, a file of games, or a position text), read
/// as the game the first byte asks for; every game and position read
/// round-trips (see [`check_pgn_game`]).
pub fn pgn_target(data: &[u8]) {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let hint = pgn_hint(first);
    if let Ok(pos) = pgn::read_fen(text, hint) {
        if let VariantHint::Game(v) = hint {
            assert_eq!(pos.variant(), v, "{text:?} read as another game");
        }
        round_trip(&pos);
        let again = pgn::read_fen(&pos.to_fen(), VariantHint::Game(pos.variant()))
            .unwrap_or_else(|e| panic!("{}: the written position is refused: {e}", pos.to_fen()));
        assert!(again == pos, "{}: reads as another position", pos.to_fen());
    }
    if let Ok((game, tags)) = pgn::read(text, hint) {
        if let VariantHint::Game(v) = hint {
            assert_eq!(game.start().variant(), v, "read as another game");
        }
        check_pgn_game(&game, &tags);
    }
    for (game, tags) in pgn::read_all(text, hint).iter().flatten() {
        check_pgn_game(game, tags);
    }
}
