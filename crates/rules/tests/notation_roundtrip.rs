//! Every game round-trips through its notations.
//!
//! For each of the five games, random legal games (a seeded generator,
//! biased towards the rare move shapes: bounces and double bounces, Hop
//! Chess placements and kept trampolines, Trampoline Chess trampoline
//! moves, Hoplit drops, every promotion, Jumping King jumps with a
//! placement, passes, castling, en passant) are
//!
//! - written as PGN and read back, as the game asked for and as "any game",
//!   to the same moves and positions (also from a later start, through the
//!   `FEN` tag);
//! - written as FEN at every position and read back to the same position;
//! - and at every visited position, the SAN and long notation of the legal
//!   moves (N1-N6) are read back to the same move, through the SAN reader,
//!   the long-notation reader and the PGN word reader. Hop Chess has up to
//!   a few thousand turns a position (every piece move times every
//!   placement): there, every piece move is checked with a random placement
//!   and with its kept trampoline, and every placement of one piece move;
//!   Hop Chess half-made turns (the `place` state) are checked too.
//!
//! The shapes met are counted, and the test asserts that each occurred.
//! `SPRINGBOARD_ROUNDTRIP_GAMES=N` plays N games a game instead of the
//! default (a larger run by hand).

use springboard_rules::notation::pgn::{self, Player, Tags, VariantHint};
use springboard_rules::notation::san::{parse_san, to_san};
use springboard_rules::notation::seed::read_move;
use springboard_rules::notation::uci::{parse_uci, to_uci};
use springboard_rules::{Color, Game, Move, MoveKind, Position, Role, Variant};
use std::collections::BTreeMap;

/// SplitMix64: a small seeded generator, so every run plays the same games.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

/// The shapes of a move worth counting (and favouring).
fn shapes(pos: &Position, m: Move) -> Vec<String> {
    let mut out = Vec::new();
    let via = m.via().count();
    if via == 1 {
        out.push("bounce".to_string());
    }
    if via == 2 {
        out.push("double bounce".to_string());
    }
    match m.kind() {
        MoveKind::Castle => out.push("castling".into()),
        MoveKind::EnPassant => out.push("en passant".into()),
        MoveKind::Drop => out.push("drop".into()),
        MoveKind::Trampoline => out.push("trampoline move".into()),
        MoveKind::Pass => out.push("pass".into()),
        MoveKind::Jump => out.push(match m.role() {
            Some(r) => format!("jump placing {}", r.char()),
            None => "jump".into(),
        }),
        _ => {}
    }
    if let Some(r) = m.promotion_role() {
        out.push(format!("promotion to {}", r.char()));
    }
    if let Some(place) = m.place() {
        if pos.trampoline(pos.turn()) == Some(place) {
            out.push("trampoline kept".into());
        } else {
            out.push("trampoline placed".into());
        }
    }
    if pos.variant() == Variant::Hoplit
        && m.from()
            .and_then(|f| pos.board().role_at(f))
            .is_some_and(|r| r == Role::Hoplit)
    {
        out.push("hoplit move".into());
    }
    out
}

/// A random legal move: one time in two, a move of a rare shape (the
/// shape drawn first, so that always-present shapes do not crowd out the
/// others), else often a pawn move (promotions come), else any move.
fn pick(rng: &mut Rng, pos: &Position, legal: &[Move]) -> Move {
    let mut rare: BTreeMap<String, Vec<Move>> = BTreeMap::new();
    for &m in legal {
        for s in shapes(pos, m) {
            if s != "trampoline placed" && s != "hoplit move" {
                rare.entry(s).or_default().push(m);
            }
        }
    }
    let pawns: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|m| {
            m.from()
                .and_then(|f| pos.board().role_at(f))
                .is_some_and(|r| r == Role::Pawn)
        })
        .collect();
    if !rare.is_empty() && rng.chance(50) {
        let group = rare.values().nth(rng.below(rare.len())).expect("a shape");
        group[rng.below(group.len())]
    } else if !pawns.is_empty() && rng.chance(30) {
        pawns[rng.below(pawns.len())]
    } else {
        legal[rng.below(legal.len())]
    }
}

/// The moves whose notations are checked at `pos` (see the file's doc).
fn moves_to_check(rng: &mut Rng, pos: &Position, legal: &[Move]) -> Vec<Move> {
    if !pos.splits_turn() {
        return legal.to_vec();
    }
    let mut steps = Vec::new();
    pos.legal_steps_into(&mut steps);
    let mut out = Vec::new();
    for step in steps {
        let turns: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| m.piece_part() == step)
            .collect();
        assert!(!turns.is_empty(), "a legal step has a legal turn");
        out.push(turns[rng.below(turns.len())]);
        let kept = pos.trampoline(pos.turn());
        if let Some(&k) = turns.iter().find(|m| m.place() == kept && kept.is_some()) {
            out.push(k);
        }
    }
    let one = legal[rng.below(legal.len())].piece_part();
    out.extend(legal.iter().copied().filter(|m| m.piece_part() == one));
    out
}

/// Checks that the notations of `m` at `pos` read back to `m`.
fn check_move(pos: &Position, m: Move, fen: &str) {
    let san = to_san(pos, m);
    assert_eq!(parse_san(pos, &san), Ok(m), "SAN '{san}' at {fen}");
    let long = to_uci(pos, m);
    assert_eq!(parse_uci(pos, &long), Ok(m), "long '{long}' at {fen}");
    // The PGN reader's words: SAN split at spaces, then long notation.
    for text in [san.as_str(), long.as_str()] {
        let words: Vec<String> = text.split_whitespace().map(str::to_string).collect();
        let mut iter = words.iter().peekable();
        assert_eq!(
            read_move(pos, &mut iter),
            Ok(m),
            "word(s) '{text}' at {fen}"
        );
        assert!(iter.next().is_none(), "'{text}' read whole at {fen}");
    }
}

fn check_fen(pos: &Position) {
    let fen = pos.to_fen();
    let back = Position::from_fen(pos.variant(), &fen).expect("own FEN reads");
    assert_eq!(&back, pos, "{fen}");
    assert_eq!(back.to_fen(), fen);
    let any = pgn::read_fen(&fen, VariantHint::Any).expect("FEN of any game");
    assert_eq!(any.variant(), pos.variant(), "{fen}");
}

fn check_pgn(game: &Game, tags: &Tags) {
    let variant = game.start().variant();
    let text = pgn::write(game, tags);
    for hint in [VariantHint::Game(variant), VariantHint::Any] {
        let (back, read_tags) = pgn::read(&text, hint).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(back.moves(), game.moves(), "{text}");
        assert_eq!(back.positions(), game.positions(), "{text}");
        assert_eq!(read_tags.get("Event"), tags.get("Event"));
        assert_eq!(pgn::write(&back, &read_tags), text, "written again");
    }
}

fn games_per_variant(default: usize) -> usize {
    std::env::var("SPRINGBOARD_ROUNDTRIP_GAMES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(default)
}

/// Plays `games` random games of `variant` and checks every notation.
/// `check_percent`: how often a position's move notations are all checked
/// (always in every tenth game).
fn round_trip(
    variant: Variant,
    games: usize,
    check_percent: u64,
    seed: u64,
) -> BTreeMap<String, u32> {
    let mut rng = Rng(seed);
    let mut tally: BTreeMap<String, u32> = BTreeMap::new();
    for g in 0..games {
        let mut game = Game::new(Position::startpos(variant));
        let max_plies = 40 + rng.below(120);
        while game.outcome().is_none() && game.moves().len() < max_plies {
            let pos = game.position().clone();
            let legal = pos.legal_moves();
            let fen = pos.to_fen();
            check_fen(&pos);
            // Check the notations at some positions (all of them in every
            // tenth game), to keep the run short.
            if g % 10 == 0 || rng.chance(check_percent) {
                for m in moves_to_check(&mut rng, &pos, &legal) {
                    check_move(&pos, m, &fen);
                }
            }
            // A Hop Chess turn half made: the placements.
            if pos.splits_turn() && rng.chance(10) {
                let mut steps = Vec::new();
                pos.legal_steps_into(&mut steps);
                let mut half = pos.clone();
                half.play_step(steps[rng.below(steps.len())]);
                assert!(half.placement_pending());
                check_fen(&half);
                let half_fen = half.to_fen();
                for m in half.legal_moves() {
                    check_move(&half, m, &half_fen);
                }
                *tally.entry("half-made turn".into()).or_default() += 1;
            }
            let m = pick(&mut rng, &pos, &legal);
            for s in shapes(&pos, m) {
                *tally.entry(s).or_default() += 1;
            }
            if pos.is_check() {
                *tally.entry("move out of check".into()).or_default() += 1;
            }
            game.play(m).expect("a legal move");
        }
        check_fen(game.position());
        if let Some(o) = game.outcome() {
            *tally.entry(format!("end: {}", o.reason_str())).or_default() += 1;
        }
        let mut tags = Tags::new();
        tags.set("Event", format!("round trip {g}"))
            .set("Site", "tests")
            .set("Date", "2026.11.24")
            .set("Round", (g + 1).to_string());
        tags.set_player(Color::White, Player::Human("Ann \"the\" Player"));
        tags.set_player(
            Color::Black,
            Player::Engine {
                name: "Springboard",
                level: Some(7),
            },
        );
        check_pgn(&game, &tags);
        // The same game from a later start: SetUp and FEN tags.
        let from = rng.below(game.moves().len().max(1));
        let mut later = Game::new(game.positions()[from].clone());
        for &m in &game.moves()[from..] {
            later.play(m).expect("legal");
        }
        if game.outcome().is_none() && rng.chance(30) {
            tags.set("Result", "1/2-1/2")
                .set("Termination", "adjudication");
        }
        check_pgn(&later, &tags);
    }
    tally
}

// Games per game and how often positions are checked in full, so that
// each test runs in a few seconds (Hop Chess has thousands of turns a
// position, so fewer games).
const GAMES_CHESS: usize = 300;
const CHECK_CHESS: u64 = 5;
const GAMES_HOPCHESS: usize = 20;
const CHECK_HOPCHESS: u64 = 3;
const GAMES_TRAMPOLINE: usize = 150;
const CHECK_TRAMPOLINE: u64 = 3;
const GAMES_JUMPINGKING: usize = 1000;
const CHECK_JUMPINGKING: u64 = 10;
const GAMES_HOPLIT: usize = 300;
const CHECK_HOPLIT: u64 = 5;

fn assert_met(tally: &BTreeMap<String, u32>, shapes: &[&str]) {
    for s in shapes {
        assert!(
            tally.get(*s).copied().unwrap_or(0) > 0,
            "the random games never met '{s}': {tally:?}"
        );
    }
    eprintln!("{tally:?}");
}

#[test]
fn chess_round_trips() {
    let t = round_trip(
        Variant::Chess,
        games_per_variant(GAMES_CHESS),
        CHECK_CHESS,
        1,
    );
    assert_met(
        &t,
        &[
            "castling",
            "en passant",
            "promotion to q",
            "promotion to r",
            "promotion to b",
            "promotion to n",
            "end: checkmate",
            "move out of check",
        ],
    );
}

#[test]
fn hopchess_round_trips() {
    let t = round_trip(
        Variant::HopChess,
        games_per_variant(GAMES_HOPCHESS),
        CHECK_HOPCHESS,
        2,
    );
    assert_met(
        &t,
        &[
            "bounce",
            "double bounce",
            "trampoline placed",
            "trampoline kept",
            "half-made turn",
            "castling",
            "promotion to q",
            "promotion to n",
            "move out of check",
        ],
    );
}

#[test]
fn trampoline_round_trips() {
    let t = round_trip(
        Variant::Trampoline,
        games_per_variant(GAMES_TRAMPOLINE),
        CHECK_TRAMPOLINE,
        3,
    );
    assert_met(
        &t,
        &[
            "bounce",
            "trampoline move",
            "castling",
            "promotion to q",
            "promotion to r",
            "promotion to b",
            "promotion to n",
            "move out of check",
        ],
    );
}

#[test]
fn jumpingking_round_trips() {
    let t = round_trip(
        Variant::JumpingKing,
        games_per_variant(GAMES_JUMPINGKING),
        CHECK_JUMPINGKING,
        4,
    );
    assert_met(
        &t,
        &[
            "jump",
            "jump placing r",
            "jump placing b",
            "jump placing n",
            "jump placing p",
            "pass",
            "promotion to r",
            "promotion to n",
            "end: weak square entered",
        ],
    );
}

#[test]
fn hoplit_round_trips() {
    let t = round_trip(
        Variant::Hoplit,
        games_per_variant(GAMES_HOPLIT),
        CHECK_HOPLIT,
        5,
    );
    assert_met(
        &t,
        &[
            "drop",
            "hoplit move",
            "castling",
            "promotion to q",
            "promotion to h",
            "promotion to n",
            "move out of check",
        ],
    );
}
