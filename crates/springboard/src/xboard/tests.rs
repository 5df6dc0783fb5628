//! The XBoard session driven line by line.

use super::*;
use crate::searcher::out;
use crate::uci::tests::Buffer;
use springboard_rules::notation::uci::parse_uci;

struct Talk(Session, Buffer);

fn new_talk() -> Talk {
    let buffer = Buffer::default();
    Talk(Session::new(out(buffer.clone())), buffer)
}

fn talk(t: &mut Talk, line: &str) -> String {
    t.0.handle(line).unwrap();
    t.1.take()
}

fn talk_wait(t: &mut Talk, line: &str) -> String {
    t.0.handle(line).unwrap();
    t.0.wait();
    t.1.take()
}

#[test]
fn features_and_ping() {
    let mut t = new_talk();
    assert_eq!(talk(&mut t, "xboard"), "");
    let out = talk(&mut t, "protover 2");
    assert!(out.starts_with("feature "), "{out}");
    for f in [
        "ping=1",
        "setboard=1",
        "usermove=1",
        "variants=\"normal",
        "done=1",
    ] {
        assert!(out.contains(f), "{f}: {out}");
    }
    assert_eq!(talk(&mut t, "accepted ping"), "");
    assert_eq!(talk(&mut t, "ping 7"), "pong 7\n");
}

#[test]
fn engine_answers_as_black_after_new() {
    let mut t = new_talk();
    talk(&mut t, "new");
    talk(&mut t, "sd 3");
    let out = talk_wait(&mut t, "usermove e2e4");
    let mv = out
        .lines()
        .find_map(|l| l.strip_prefix("move "))
        .unwrap_or_else(|| panic!("no move: {out}"));
    let mut pos = Position::startpos(Variant::Chess);
    pos.play(parse_uci(&pos, "e2e4").unwrap());
    let reply = parse_uci(&pos, mv).unwrap();
    pos.play(reply);
    assert_eq!(t.0.position(), pos);
}

#[test]
fn force_setboard_go_and_mate() {
    let mut t = new_talk();
    talk(&mut t, "new");
    talk(&mut t, "force");
    talk(&mut t, "setboard 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
    talk(&mut t, "post");
    talk(&mut t, "st 1");
    let out = talk_wait(&mut t, "go");
    assert!(out.contains("move d1d8\n1-0 {White mates}\n"), "{out}");
    assert!(
        out.lines().next().unwrap().starts_with("1 100001 "),
        "{out}"
    );
}

#[test]
fn force_mode_takes_moves_and_undo() {
    let mut t = new_talk();
    talk(&mut t, "new");
    talk(&mut t, "force");
    assert_eq!(talk(&mut t, "usermove e2e4"), "");
    assert_eq!(talk(&mut t, "usermove e5"), "");
    assert_eq!(talk(&mut t, "usermove e1e3"), "Illegal move: e1e3\n");
    talk(&mut t, "remove");
    assert_eq!(t.0.position(), Position::startpos(Variant::Chess));
    assert_eq!(talk(&mut t, "undo"), "Error (no move to take back): undo\n");
    // Protocol 1 style bare moves.
    assert_eq!(talk(&mut t, "d2d4"), "");
    talk(&mut t, "undo");
    assert_eq!(t.0.position(), Position::startpos(Variant::Chess));
}

#[test]
fn clocks_and_garbage() {
    let mut t = new_talk();
    for ok in [
        "level 40 5 0",
        "level 0 2:30 1.5",
        "time 12000",
        "otim 11000",
        "sd 4",
        "st 2",
        "nopost",
    ] {
        assert_eq!(talk(&mut t, ok), "", "{ok}");
    }
    // `result`: a comment line with the final position (for tests).
    assert_eq!(
        talk(&mut t, "result 1-0 {x}"),
        "# final position rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n"
    );
    for bad in [
        "level 40",
        "level x 5 0",
        "time lots",
        "sd 0",
        "st -1",
        "foo",
        "variant crazyhouse",
        "setboard 8/8/8 w - - 0 1",
        "usermove",
        "e2e9",
    ] {
        let out = talk(&mut t, bad);
        assert!(
            out.starts_with("Error")
                || out.starts_with("Illegal move")
                || out.starts_with("tellusererror"),
            "{bad}: {out}"
        );
    }
    assert_eq!(t.0.handle("quit").unwrap(), Flow::Quit);
}

/// Sends each line and returns everything answered.
fn script(t: &mut Talk, lines: &[&str]) -> String {
    lines.iter().map(|l| talk(t, l)).collect()
}

fn fen(t: &Talk) -> String {
    t.0.position().to_fen()
}

#[test]
fn protover_announces_highlight_and_the_variants() {
    let mut t = new_talk();
    assert_eq!(
        talk(&mut t, "protover 2"),
        format!(
            "feature myname=\"Springboard {}\" ping=1 setboard=1 usermove=1 san=0 time=1 \
             draw=0 sigint=0 sigterm=0 reuse=1 analyze=0 colors=0 name=0 nps=0 \
             highlight=1 variants=\"normal,hopchess,trampoline,jumpingking,hoplit\" done=1\n",
            env!("CARGO_PKG_VERSION")
        )
    );
}

#[test]
fn variant_sends_setup_and_piece_lines() {
    let mut t = new_talk();
    assert_eq!(talk(&mut t, "variant normal"), "");
    assert_eq!(
        talk(&mut t, "variant hopchess"),
        "setup (PNBRQ................Kpnbrq................k) 8x8+0_fairy \
         rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n"
    );
    assert_eq!(t.0.position(), Position::startpos(Variant::HopChess));
    // The trampolines are XBoard's piece T (the Flag's slot), in hand.
    assert_eq!(
        talk(&mut t, "variant trampoline"),
        "setup (PNBRQ..................................TKpnbrq..................................tk) \
         8x8+6_bughouse rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Tt] w KQkq - 0 1\n"
    );
    assert_eq!(
        talk(&mut t, "variant jumpingking"),
        "setup (PNBR.................Kpnbr.................k) 6x8+4_seirawan \
         *****k/6/6/6/6/6/6/K*****[RRBBNNPPPrrbbnnppp] w - - 0 1\n\
         piece K& mNK\npiece P& fmWfcF\n"
    );
    // The Hoplit is the hoplite helmet (the Copper's slot).
    assert_eq!(
        talk(&mut t, "variant hoplit"),
        "setup (PNBRQ...............................HKpnbrq...............................hk) \
         8x8+6_bughouse rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Hh] w KQkq - 0 1\n\
         piece H& mBapR\n"
    );
    assert_eq!(
        talk(&mut t, "variant shogi"),
        "Error (unsupported variant): variant shogi\n"
    );
}

#[test]
fn trampoline_bishop_bounces_by_clicks_and_legs() {
    let mut t = new_talk();
    let out = script(
        &mut t,
        &[
            "variant trampoline",
            "force",
            "setboard 4k3/8/8/8/8/8/8/2B1K3 w - - 0 1 e3,-",
        ],
    );
    assert!(out.starts_with("setup "), "{out}");
    // Every final square, direct or by a bounce off the own
    // trampoline e3 (P2, T3, T4), is one click.
    assert_eq!(
        talk(&mut t, "lift c1"),
        "highlight 8/Y7/1Y5Y/2Y3Y1/3Y1Y2/Y7/1Y1Y1Y2/6Y1\n"
    );
    assert_eq!(talk(&mut t, "put g1"), "");
    // Nothing for an empty square, the enemy, or a finished lift.
    assert_eq!(talk(&mut t, "lift d4"), "highlight 8/8/8/8/8/8/8/8\n");
    assert_eq!(talk(&mut t, "lift e8"), "highlight 8/8/8/8/8/8/8/8\n");
    assert_eq!(talk(&mut t, "hover e4"), "");
    for bad in [
        "c1d2,d2e3",
        "c1e3,e3h3",
        "c1e3,e4g1",
        "c1e3q,e3g1",
        "c1e3,e3g1,g1h2",
        "T@e5",
    ] {
        assert_eq!(
            talk(&mut t, &format!("usermove {bad}")),
            format!("Illegal move: {bad}\n")
        );
    }
    assert_eq!(talk(&mut t, "usermove c1e3,e3g1"), "");
    assert_eq!(fen(&t), "4k3/8/8/8/8/8/8/4K1B1 b - - 1 1 e3,-");
    // Black's trampoline from XBoard's holdings (file `_`, rank 8
    // minus its number 5).
    // Every square without a piece or a trampoline (T2).
    assert_eq!(
        talk(&mut t, "lift _3"),
        "highlight YYYY1YYY/YYYYYYYY/YYYYYYYY/YYYYYYYY/YYYYYYYY/YYYY1YYY/YYYYYYYY/YYYY1Y1Y\n"
    );
    assert_eq!(talk(&mut t, "usermove T@e5"), "");
    assert_eq!(fen(&t), "4k3/8/8/8/8/8/8/4K1B1 w - - 2 2 e3,e5");
    // Our long notation is read too: the trampoline move N5.
    assert_eq!(talk(&mut t, "usermove @f5"), "");
    assert_eq!(fen(&t), "4k3/8/8/8/8/8/8/4K1B1 b - - 3 2 f5,e5");
}

#[test]
fn hop_chess_knight_places_then_moves() {
    let mut t = new_talk();
    script(&mut t, &["variant hopchess", "force", "usermove e2e4"]);
    // First the placement squares (H2): every empty square, cyan.
    assert_eq!(
        talk(&mut t, "lift g8"),
        "highlight 8/8/CCCCCCCC/CCCCCCCC/CCCC1CCC/CCCCCCCC/4C3/8\n"
    );
    // Then the knight's squares with the trampoline on d5.
    assert_eq!(talk(&mut t, "put d5"), "highlight 8/8/5Y1Y/8/8/8/8/8\n");
    // XBoard 4.9.1 then lifts the cyan square: the same squares again.
    assert_eq!(talk(&mut t, "lift d5"), "highlight 8/8/5Y1Y/8/8/8/8/8\n");
    assert_eq!(talk(&mut t, "put f6"), "");
    // After each move the trampolines as dots: Black's black (D).
    assert_eq!(
        talk(&mut t, "usermove g8d5,d5f6"),
        "highlight 8/8/8/3D4/8/8/8/8\n"
    );
    assert_eq!(
        fen(&t),
        "rnbqkb1r/pppppppp/5n2/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2 -,d5 -"
    );
    // A placement on a piece is refused; no placement leg means the
    // trampoline goes to the vacated square.
    assert_eq!(
        talk(&mut t, "usermove g1e4,e4f3"),
        "Illegal move: g1e4,e4f3\n"
    );
    assert_eq!(
        talk(&mut t, "usermove g1f3"),
        "highlight 8/8/8/3D4/8/8/8/6W1\n"
    );
    assert_eq!(
        fen(&t),
        "rnbqkb1r/pppppppp/5n2/8/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 2 2 g1,d5 -"
    );
    // Typed long notation (N4).
    assert_eq!(
        talk(&mut t, "usermove b8c6@a3"),
        "highlight 8/8/8/8/8/D7/8/6W1\n"
    );
    assert_eq!(
        fen(&t),
        "r1bqkb1r/pppppppp/2n2n2/8/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 3 3 g1,a3 -"
    );
}

#[test]
fn hop_chess_one_leg_move_by_clicking_twice() {
    let mut t = new_talk();
    script(
        &mut t,
        &["variant hopchess", "force", "usermove e2e4", "lift g8"],
    );
    // f6 is a placement square (cyan); put there, f6 is also the end
    // of Ng8-f6 with the trampoline left on g8, and h6 of Ng8-h6@f6.
    assert_eq!(talk(&mut t, "put f6"), "highlight 8/8/5Y1Y/8/8/8/8/8\n");
    assert_eq!(talk(&mut t, "put f6"), "");
    assert_eq!(
        talk(&mut t, "usermove g8f6"),
        "highlight 6D1/8/8/8/8/8/8/8\n"
    );
}

#[test]
fn hop_chess_two_bounces_as_legs() {
    let mut t = new_talk();
    script(
        &mut t,
        &[
            "variant hopchess",
            "force",
            "setboard r1bqkbnr/pppppppp/2n5/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 1 1 f5,d4 -",
            "lift c6",
        ],
    );
    // The trampoline stays on d4: one click there, then the final
    // squares, g3 by the double bounce c6-d4(T)-f5(T)-g3 (H4).
    let out = talk(&mut t, "put d4");
    assert!(out.starts_with("highlight ") && out.contains('Y'), "{out}");
    assert_eq!(out.split('/').nth(5), Some("1Y2YYY1"), "{out}");
    assert_eq!(talk(&mut t, "put g3"), "");
    assert_eq!(
        talk(&mut t, "usermove c6d4,d4g3"),
        "highlight 8/8/8/5W2/3D4/8/8/8\n"
    );
    assert_eq!(
        fen(&t),
        "r1bqkbnr/pppppppp/8/8/8/6n1/PPPPPPPP/RNBQKBNR w KQkq - 2 2 f5,d4 -"
    );
}

#[test]
fn jumping_king_jumps_and_places() {
    let mut t = new_talk();
    script(
        &mut t,
        &[
            "variant jumpingking",
            "force",
            // After 1.Kc2 Kd7, in XBoard's 6x8 FEN.
            "setboard *****1/3k2/6/6/6/6/2K3/1*****[RRBBNNPPPrrbbnnppp] w - - 2 2",
        ],
    );
    assert_eq!(fen(&t), "8/3k4/8/8/8/8/2K5/8[RRBBNNPPPrrbbnnppp] w Jj 2 2");
    // J4: knight jumps in White's area, each leaving a man (magenta).
    assert_eq!(
        talk(&mut t, "lift c2"),
        "highlight 6/6/6/6/1M1M2/M3M1/6/6\n"
    );
    assert_eq!(talk(&mut t, "put e3"), "choice RBNP\n");
    assert_eq!(talk(&mut t, "lift g1"), "Error (no such square): lift g1\n");
    assert_eq!(talk(&mut t, "usermove c2e3b"), "");
    assert_eq!(fen(&t), "8/3k4/8/8/8/4K3/2B5/8[RRBNNPPPrrbbnnppp] b Jj 3 2");
    // J9: optional promotion, offered with the pawn itself.
    script(
        &mut t,
        &["setboard 8/2k5/4P3/8/1K6/8/1n6/8[] w - 0 30", "lift e6"],
    );
    assert_eq!(talk(&mut t, "put e7"), "choice PRBN\n");
    assert_eq!(talk(&mut t, "usermove e6e7p"), "");
    assert_eq!(fen(&t), "8/2k1P3/8/8/1K6/8/1n6/8[] b - 0 30");
}

#[test]
fn jumping_king_pass_is_the_null_move() {
    let mut t = new_talk();
    // J6: White's king b3 is stuck while Black still jumps.
    script(
        &mut t,
        &[
            "variant jumpingking",
            "force",
            "setboard 8/4k3/8/8/3P4/1K6/3P4/8[Rr] w j 0 1",
        ],
    );
    assert_eq!(talk(&mut t, "lift b3"), "highlight 6/6/6/6/6/6/6/6\n");
    assert_eq!(talk(&mut t, "usermove @@@@"), "");
    assert_eq!(fen(&t), "8/4k3/8/8/3P4/1K6/3P4/8[Rr] b j 1 1");
    talk(&mut t, "undo");
    talk(&mut t, "sd 1");
    assert_eq!(talk_wait(&mut t, "go"), "move @@@@\n");
}

#[test]
fn hoplit_drop_and_promotion_by_clicks() {
    let mut t = new_talk();
    script(
        &mut t,
        &[
            "variant hoplit",
            "force",
            "setboard rnbqkb1r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKB1R[Hh] w KQkq - 2 2",
        ],
    );
    // L4: g1 is the only square with a pawn that can step.
    assert_eq!(talk(&mut t, "lift H@"), "highlight 8/8/8/8/8/8/8/6Y1\n");
    assert_eq!(talk(&mut t, "put g1"), "");
    assert_eq!(talk(&mut t, "lift Q@"), "highlight 8/8/8/8/8/8/8/8\n");
    assert_eq!(talk(&mut t, "usermove H@g1"), "");
    assert_eq!(
        fen(&t),
        "rnbqkb1r/pppppppp/5n2/8/8/5NP1/PPPPPP1P/RNBQKBHR[h] b KQkq - 0 2"
    );
    // L5: promotion to a Hoplit among the choices.
    script(
        &mut t,
        &["setboard 4k3/1P6/8/8/8/8/8/4K3[] w - - 0 1", "lift b7"],
    );
    assert_eq!(talk(&mut t, "put b8"), "choice QRBNH\n");
    assert_eq!(talk(&mut t, "usermove b7b8h"), "");
    assert_eq!(fen(&t), "1H2k3/8/8/8/8/8/8/4K3[] b - - 0 1");
}

#[test]
fn engine_replies_with_comma_legs() {
    let mut t = new_talk();
    // In check from a1 (T7: no trampoline move helps); the bishop
    // takes the rook only through its trampoline c3.
    script(
        &mut t,
        &[
            "variant trampoline",
            "setboard 4k3/8/8/B7/8/8/6PP/r6K w - - 0 1 c3,-",
            "sd 3",
        ],
    );
    assert_eq!(talk_wait(&mut t, "go"), "move a5a1\n");
    assert_eq!(fen(&t), "4k3/8/8/8/8/8/6PP/B6K b - - 0 1 c3,-");
}

#[test]
fn engine_replies_with_the_hop_chess_placement_leg() {
    let mut t = new_talk();
    // The only mate: Ra7 with the trampoline on a8, through which the
    // rook checks along the eighth rank (P8).
    script(
        &mut t,
        &[
            "variant hopchess",
            "setboard 4k3/8/8/8/8/8/8/R3K3 w - - 0 40 -,- -",
            "sd 2",
        ],
    );
    assert_eq!(
        talk_wait(&mut t, "go"),
        "move a1a8,a8a7\nhighlight W7/8/8/8/8/8/8/8\n1-0 {White mates}\n"
    );
    assert_eq!(fen(&t), "4k3/R7/8/8/8/8/8/4K3 b - - 1 40 a8,- -");
}

#[test]
fn a_pass_forwarded_as_setboard_is_played_and_answered() {
    let mut t = new_talk();
    // White is stuck (J6): its king on a2, its knights on b4 and c3.
    script(
        &mut t,
        &[
            "variant jumpingking",
            "force",
            "setboard *****k/6/6/6/1N4/2N3/K5/1*****[RRBBPPPrrbbnnppp] w - - 0 5",
            // Protocol 1: the engine plays Black.
            "white",
            "sd 1",
        ],
    );
    let before = t.0.position();
    // XBoard 4.9.1 sends the position after White's pass: the engine
    // plays the pass (the game keeps its history) and answers.
    let out = talk_wait(
        &mut t,
        "setboard *****k/6/6/6/1N4/2N3/K5/1*****[PPPBBRRpppnnbbrr] b - - 0 1",
    );
    assert!(out.starts_with("move f8"), "{out}");
    let mut passed = before.clone();
    passed.play(parse_uci(&before, "0000").unwrap());
    assert_eq!(lock(&t.0.shared).game.positions()[1], passed);
}

#[test]
fn lift_and_put_refuse_bad_input() {
    let mut t = new_talk();
    for (line, answer) in [
        ("put e4", "Error (nothing lifted): put e4\n"),
        ("lift", "Error (lift needs a square): lift\n"),
        ("lift z9", "Error (lift needs a square): lift z9\n"),
        ("lift HH@", "Error (lift needs a square): lift HH@\n"),
        ("lift e2", "highlight 8/8/8/8/4Y3/4Y3/8/8\n"),
        ("put", "Error (put needs a square): put\n"),
        ("put e9", "Error (put needs a square): put e9\n"),
        ("put e5", ""),
        ("ping 3", "pong 3\n"),
        // Anything else drops the lifted piece.
        ("put e4", "Error (nothing lifted): put e4\n"),
    ] {
        assert_eq!(talk(&mut t, line), answer, "{line}");
    }
}

#[test]
fn odd_moves_and_clicks_never_panic() {
    for v in ["normal", "hopchess", "trampoline", "jumpingking", "hoplit"] {
        let mut t = new_talk();
        script(&mut t, &["new", &format!("variant {v}"), "force"]);
        let start = fen(&t);
        for bad in [
            ",",
            ",,",
            "a1a1,a1a1",
            "e2e4,",
            "e2,e4",
            "é2e4",
            "H@",
            "@",
            "@@",
            "@@@",
            "Q@e4",
            "e2e4@",
            "e2e4@e2",
            "e2e4,e4e5,e5e6,e6e7",
            "e7e8k",
            "0000",
        ] {
            let line = format!("usermove {bad}");
            assert_eq!(
                talk(&mut t, &line),
                format!("Illegal move: {bad}\n"),
                "{v} {bad}"
            );
        }
        for click in [
            "lift @", "lift é", "put @", "put a", "lift b1", "put b1", "put h8",
        ] {
            let out = talk(&mut t, click);
            assert!(
                out.is_empty() || out.starts_with("highlight ") || out.starts_with("Error ("),
                "{v} {click}: {out}"
            );
        }
        assert_eq!(fen(&t), start, "{v}");
    }
}

#[test]
fn level_gives_the_search_a_clock() {
    let mut t = new_talk();
    talk(&mut t, "new");
    talk(&mut t, "level 0 0:01 0");
    talk(&mut t, "time 100");
    talk(&mut t, "otim 100");
    let out = talk_wait(&mut t, "usermove d2d4");
    assert!(out.starts_with("move "), "{out}");
}

#[test]
fn huge_clock_values_saturate() {
    // Issue 16, item 4: no overflow (a panic in debug builds, a wrapped
    // clock that moved at once in release builds).
    let mut t = new_talk();
    talk(&mut t, "time 9223372036854775807");
    talk(&mut t, "otim 9223372036854775807");
    assert_eq!(t.0.clock.own_ms, Some(u64::MAX));
    assert_eq!(t.0.clock.opp_ms, Some(u64::MAX));
    talk(&mut t, "level 0 0:18446744073709552 0");
    assert_eq!(t.0.clock.own_ms, Some(u64::MAX));
    talk(&mut t, "level 0 0:99999999999999999 0");
    assert_eq!(t.0.clock.own_ms, Some(u64::MAX));
    talk(
        &mut t,
        "level 40 99999999999999999999999 99999999999999999999",
    );
    assert_eq!(t.0.clock.own_ms, Some(u64::MAX));
    assert_eq!(t.0.clock.inc_ms, u64::MAX);
    talk(&mut t, "st 99999999999999999999999");
    assert_eq!(t.0.clock.st_ms, Some(u64::MAX));
    assert!(talk(&mut t, "sd 99999999999999999999").starts_with("Error"));
    talk(&mut t, "sd 4294967295");
    assert_eq!(t.0.clock.depth, Some(u32::MAX));
}
