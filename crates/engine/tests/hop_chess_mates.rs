//! Hop Chess mates in two turns whose first turn is quiet (no capture):
//! each position of `data/hop_chess_mates_in_two.txt` is checked by a
//! plain minimax over the rules core's legal turns (no mate in one; the
//! listed turn mates in two against every reply), then the engine must
//! find a mate in two turns at depth 2 (one turn past the horizon), at
//! depth 3 and within 100000 nodes, and the turn it answers must pass the
//! same exhaustive check (issue 13, item 5). Before late-move pruning
//! spared the steps that may check, 2 of the 12 failed at depth 2 and one
//! at depth 3 (engine of c12a3b9).
//!
//! The suite is made by the ignored test `generate_mates_in_two`
//! (`cargo test --release -p springboard-engine --test hop_chess_mates --
//! --ignored --nocapture`): random games (captures preferred half of the
//! time), every turn start looked at, a position kept when it has no mate
//! in one and a quiet turn after which the other side has at most 40
//! replies, each answered by a mate in one.

use springboard_engine::{Engine, Limits, Score, Signals};
use springboard_rules::notation::uci::{parse_uci, to_uci};
use springboard_rules::{Move, MoveKind, Position, Variant};

/// Whether the side to move is mated.
fn mated(pos: &Position) -> bool {
    pos.is_check() && pos.legal_moves().is_empty()
}

/// A mating turn of the side to move, trying every legal turn.
fn mate_in_one(pos: &Position) -> Option<Move> {
    pos.legal_moves().into_iter().find(|&m| {
        let mut child = pos.clone();
        child.play(m);
        mated(&child)
    })
}

/// Whether the turn `m` mates in two: the other side is mated at once, or
/// has a legal reply and every reply allows a mate in one.
fn mates_in_two(pos: &Position, m: Move) -> bool {
    let mut child = pos.clone();
    child.play(m);
    let replies = child.legal_moves();
    if replies.is_empty() {
        return child.is_check();
    }
    replies.into_iter().all(|r| {
        let mut after = child.clone();
        after.play(r);
        mate_in_one(&after).is_some()
    })
}

fn is_capture(pos: &Position, m: Move) -> bool {
    m.kind() == MoveKind::EnPassant
        || m.to()
            .and_then(|t| pos.board().piece_at(t))
            .is_some_and(|p| p.color != pos.turn())
}

fn search(pos: &Position, limits: Limits) -> (Option<Move>, Score) {
    let mut engine = Engine::new(16);
    let r = engine.search(pos, &[], &limits, &Signals::new(), &mut |_| {});
    (r.best, r.score)
}

#[test]
fn quiet_mates_in_two_are_found() {
    let text = include_str!("data/hop_chess_mates_in_two.txt");
    let mut count = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let (fen, turn) = line.split_once('\t').expect("position, tab, turn");
        let pos = Position::from_fen(Variant::HopChess, fen).unwrap();
        let m = parse_uci(&pos, turn).unwrap();
        // The rules core's word, every turn tried: no mate in one, and
        // the quiet turn given mates in two.
        assert!(!is_capture(&pos, m), "{fen}: {turn} captures");
        assert_eq!(mate_in_one(&pos), None, "{fen}: a mate in one");
        assert!(mates_in_two(&pos, m), "{fen}: {turn} does not mate in two");
        // The engine finds a mate in two at depth 2 (the mating turn is one
        // turn past the horizon: checks are extended, and late-move
        // pruning spares the steps that may check), at depth 3 and within
        // 100000 nodes.
        let limits = [
            Limits {
                depth: Some(2),
                ..Limits::default()
            },
            Limits {
                depth: Some(3),
                ..Limits::default()
            },
            Limits {
                nodes: Some(100_000),
                ..Limits::default()
            },
        ];
        for limits in limits {
            let (best, score) = search(&pos, limits.clone());
            let best = best.expect("a move");
            assert_eq!(score, Score::Mate(2), "{fen} {limits:?}");
            assert!(
                mates_in_two(&pos, best),
                "{fen} {limits:?}: {} does not mate in two",
                to_uci(&pos, best)
            );
        }
        count += 1;
    }
    assert_eq!(count, 12);
}

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
    }
}

#[test]
#[ignore = "makes the suite: prints its lines"]
fn generate_mates_in_two() {
    let mut rng = Rng(0x5eed_1313);
    let mut found = 0;
    'games: for _ in 0..400 {
        let mut pos = Position::startpos(Variant::HopChess);
        for _ in 0..200 {
            let turns = pos.legal_moves();
            if turns.is_empty() {
                continue 'games;
            }
            if pos.fullmove_number() >= 6 && mate_in_one(&pos).is_none() {
                let quiet_forcing = turns.iter().copied().find(|&m| {
                    if is_capture(&pos, m) {
                        return false;
                    }
                    let mut child = pos.clone();
                    child.play(m);
                    let n = child.legal_moves().len();
                    n > 0 && n <= 40 && mates_in_two(&pos, m)
                });
                if let Some(m) = quiet_forcing {
                    println!("{}\t{}", pos.to_fen(), to_uci(&pos, m));
                    found += 1;
                    if found == 12 {
                        return;
                    }
                    continue 'games;
                }
            }
            let captures: Vec<Move> = turns
                .iter()
                .copied()
                .filter(|&m| is_capture(&pos, m))
                .collect();
            let pool = if !captures.is_empty() && rng.below(2) == 0 {
                &captures
            } else {
                &turns
            };
            pos.play(pool[rng.below(pool.len())]);
        }
    }
}

/// The engine's losses to the 1-ply material player at 5000 nodes (main
/// of 3e38df9, 200 games of the Hop Chess suite: 181-19): each ends in a
/// mate in one the engine's last turn allowed, a quiet step and a
/// checking placement, which a search that ends depth 1 did not see (its
/// horizon's quiescence tried captures only). Each position before that
/// turn, checked by the rules core (the turn played allows a mate in one;
/// another turn allows none): at depth 1 the engine must answer a turn
/// after which no reply mates (issue 13: 99% against the material
/// player at 5000 nodes). Without the probe of quiescence's first turn
/// (`profile::mate_probe_at_horizon` off) depth 1 answers a turn allowing
/// a mate in one in all 19.
#[test]
fn depth_one_sees_a_quiet_mate_in_one_reply() {
    use springboard_rules::notation::pgn::{read_all, VariantHint};
    let text = include_str!("data/hop_chess_mate_threats.pgn");
    let mut count = 0;
    for read in read_all(text, VariantHint::Game(Variant::HopChess)) {
        let (game, _) = read.expect("a game");
        let n = game.moves().len();
        let pos = &game.positions()[n - 2];
        let fen = pos.to_fen();
        let allows_mate = |m: Move| {
            let mut child = pos.clone();
            child.play(m);
            mate_in_one(&child).is_some()
        };
        assert!(allows_mate(game.moves()[n - 2]), "{fen}: the data");
        assert!(
            pos.legal_moves().into_iter().any(|m| !allows_mate(m)),
            "{fen}: every turn allows a mate"
        );
        let (best, _) = search(
            pos,
            Limits {
                depth: Some(1),
                ..Limits::default()
            },
        );
        let best = best.expect("a move");
        assert!(
            !allows_mate(best),
            "{fen}: depth 1 answers {}, which allows a mate in one",
            to_uci(pos, best)
        );
        count += 1;
    }
    assert_eq!(count, 19);
}
