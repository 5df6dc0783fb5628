//! Position texts that describe no reachable position are refused, each
//! with its reason: the section "Positions Springboard refuses" of each
//! game's document in docs/rules/ (its ```` ```refused ```` blocks are run
//! here, text and message), and the exact errors.

use springboard_rules::{FenError, JumpingKingError, MaterialError, Position, Variant};

/// Each game's document.
const DOCS: [(Variant, &str); 5] = [
    (Variant::Chess, "chess.md"),
    (Variant::HopChess, "hopchess.md"),
    (Variant::Trampoline, "trampoline.md"),
    (Variant::JumpingKing, "jumpingking.md"),
    (Variant::Hoplit, "hoplit.md"),
];

fn err(variant: Variant, fen: &str) -> FenError {
    match Position::from_fen(variant, fen) {
        Ok(pos) => panic!("{variant:?}: {fen} accepted as {}", pos.to_fen()),
        Err(e) => e,
    }
}

fn ok(variant: Variant, fen: &str) {
    if let Err(e) = Position::from_fen(variant, fen) {
        panic!("{variant:?}: {fen} refused: {e}");
    }
}

/// The `(text, message)` pairs of the ```` ```refused ```` blocks in the
/// section "Positions Springboard refuses" of `doc`.
fn refused_examples(doc: &str) -> Vec<(String, String)> {
    let path = format!("{}/../../docs/rules/{doc}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let start = text
        .find("\n## Positions Springboard refuses\n")
        .unwrap_or_else(|| panic!("{doc} has no section 'Positions Springboard refuses'"));
    let section = &text[start + 1..];
    let section = match section[3..].find("\n## ") {
        Some(end) => &section[..end + 3],
        None => section,
    };
    let mut pairs = Vec::new();
    let mut inside = false;
    let mut fen: Option<String> = None;
    for line in section.lines() {
        match (inside, line.trim()) {
            (false, "```refused") => inside = true,
            (false, _) => {}
            (true, "```") => {
                assert!(fen.is_none(), "{doc}: {fen:?} has no message");
                inside = false;
            }
            (true, l) if l.starts_with("=> ") => {
                let f = fen
                    .take()
                    .unwrap_or_else(|| panic!("{doc}: {l} follows no text"));
                pairs.push((f, l[3..].to_string()));
            }
            (true, l) => {
                assert!(fen.is_none(), "{doc}: {fen:?} has no message");
                fen = Some(l.to_string());
            }
        }
    }
    assert!(!inside, "{doc}: unclosed block");
    pairs
}

#[test]
fn documented_refusals_hold() {
    for (variant, doc) in DOCS {
        let examples = refused_examples(doc);
        assert!(
            examples.len() >= 3,
            "{doc}: only {} examples",
            examples.len()
        );
        for (fen, message) in examples {
            assert_eq!(err(variant, &fen).to_string(), message, "{doc}: {fen}");
        }
    }
}

fn promoted(color: &'static str, men: &str, promoted: u32, pawns_gone: u32) -> FenError {
    FenError::Material(MaterialError::TooManyPromoted {
        color,
        men: men.to_string(),
        promoted,
        pawns_gone,
    })
}

#[test]
fn chess_refuses_impossible_material() {
    let chess = |fen| err(Variant::Chess, fen);
    // Nine pawns.
    assert_eq!(
        chess("4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1"),
        FenError::Material(MaterialError::TooManyPawns {
            color: "White",
            pawns: 9,
            max: 8
        })
    );
    assert_eq!(
        chess("4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1"),
        FenError::Material(MaterialError::TooManyPawns {
            color: "Black",
            pawns: 9,
            max: 8
        })
    );
    // Fifteen queens: 14 promotions, 8 pawns at most.
    assert_eq!(
        chess("QQQQQQQQ/QQQQQQQ1/8/8/8/8/8/k6K b - - 0 1"),
        promoted("White", "15 queens (a side starts with 1)", 14, 8)
    );
    // Nine queens and no pawn: 8 promotions, fine; with a pawn, one too many.
    ok(Variant::Chess, "QQQQQQQQ/8/8/8/8/8/8/k1K1Q3 b - - 0 1");
    ok(Variant::Chess, "k7/8/2K5/8/8/8/8/QQQQQQQQ b - - 0 1");
    assert_eq!(
        chess("k7/8/2K5/8/8/8/PP6/QQQQQQQQ b - - 0 1"),
        promoted("White", "8 queens (a side starts with 1)", 7, 6)
    );
    // Kinds add up: 2 queens, 3 rooks, 3 knights with 6 pawns is 3
    // promotions for 2 missing pawns.
    assert_eq!(
        chess("4k3/8/8/8/8/2NNN3/PPPPPP2/QQRRRK2 w - - 0 1"),
        promoted(
            "White",
            "3 knights (a side starts with 2), 3 rooks (a side starts with 2), \
             2 queens (a side starts with 1)",
            3,
            2
        )
    );
    ok(Variant::Chess, "4k3/8/8/8/8/2NNN3/PPPPP3/QQRRRK2 w - - 0 1");
    // Bishops count by kind (docs/rules/chess.md): three need a promotion,
    // two on squares of one colour are read (the bench has such a text).
    assert_eq!(
        chess("4k3/8/8/8/8/2BB4/PPPPPPPP/4KB2 w - - 0 1"),
        promoted("White", "3 bishops (a side starts with 2)", 1, 0)
    );
    ok(Variant::Chess, "4k3/8/8/8/8/3B4/PPPPPPPP/4KB2 w - - 0 1");
    ok(
        Variant::Chess,
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8",
    );
    // The issue's example: refused (Black, not to move, is in check).
    assert_eq!(
        chess("k7/8/8/8/8/8/8/QQQQQQQK w - - 0 1"),
        FenError::OppositeCheck("Black")
    );
    // Triple check.
    assert_eq!(
        chess("4k3/8/3N4/1B6/8/8/8/4RK2 b - - 0 1"),
        FenError::TooManyCheckers(3)
    );
    ok(Variant::Chess, "4k3/8/3N4/8/8/8/8/4RK2 b - - 0 1");
}

#[test]
fn trampoline_games_refuse_impossible_material() {
    for (variant, state) in [(Variant::Trampoline, ""), (Variant::HopChess, " -")] {
        let fen = |board: &str| format!("{board} w - - 0 1 -,c4{state}");
        assert_eq!(
            err(variant, &fen("4k3/8/8/8/8/P7/PPPPPPPP/4K3")),
            FenError::Material(MaterialError::TooManyPawns {
                color: "White",
                pawns: 9,
                max: 8
            })
        );
        assert_eq!(
            err(variant, &fen("4k3/ppppppp1/8/8/8/8/8/rrrrK3")),
            promoted("Black", "4 rooks (a side starts with 2)", 2, 1)
        );
        assert_eq!(
            err(variant, &fen("4k3/8/8/8/8/2BB4/PPPPPPPP/4KB2")),
            promoted("White", "3 bishops (a side starts with 2)", 1, 0)
        );
        ok(variant, &fen("4k3/ppppppp1/8/8/8/8/8/1rrrK3"));
        // Three checks are possible with trampolines: no limit.
        ok(
            variant,
            &format!("4k3/8/3N4/1B6/8/8/8/4RK2 b - - 0 1 -,a1{state}"),
        );
    }
}

#[test]
fn hoplit_chess_counts_hoplits_on_the_board_and_in_reserve() {
    let hoplit = |fen| err(Variant::Hoplit, fen);
    // L1: one Hoplit a side; L5: more are promoted pawns.
    assert_eq!(
        hoplit("4k3/8/8/8/8/8/PPPPPPPP/3HK3[H] w - - 0 1"),
        promoted(
            "White",
            "2 hoplits on the board and in reserve (a side starts with 1)",
            1,
            0
        )
    );
    ok(Variant::Hoplit, "4k3/8/8/8/8/8/PPPPPPP1/3HK3[H] w - - 0 1");
    assert_eq!(
        hoplit("4k3/pppppppp/8/8/8/8/8/hh2K3[] w - - 0 1"),
        promoted("Black", "2 hoplits (a side starts with 1)", 1, 0)
    );
    ok(Variant::Hoplit, "4k3/ppppppp1/8/8/8/8/8/hh2K3[] w - - 0 1");
    assert_eq!(
        hoplit("4k3/8/8/8/8/8/PPPPPPPP/Q2QK3[H] w - - 0 1"),
        promoted("White", "2 queens (a side starts with 1)", 1, 0)
    );
    assert_eq!(
        hoplit("4k3/8/8/8/8/P7/PPPPPPPP/4K3[H] w - - 0 1"),
        FenError::Material(MaterialError::TooManyPawns {
            color: "White",
            pawns: 9,
            max: 8
        })
    );
    // Two Hoplits of one side in reserve, a queen in reserve (the reader's
    // own checks, before the rules').
    assert!(matches!(
        hoplit("4k3/8/8/8/8/8/8/4K3[HH] w - - 0 1"),
        FenError::ReserveContent { .. }
    ));
}

#[test]
fn jumping_king_bishops_keep_their_colour() {
    // J5 places a side's bishops on both colours; a second one on one
    // colour is a promoted pawn (J9): refused with all three pawns at home.
    assert_eq!(
        err(Variant::JumpingKing, "8/4k3/8/8/1PPP4/2B5/3BK3/8[] w - 0 1"),
        FenError::JumpingKing(JumpingKingError::TooManyPromoted {
            color: "White",
            promoted: 1,
            pawns_gone: 0
        })
    );
    ok(
        Variant::JumpingKing,
        "8/4k3/8/8/1PPP4/2B5/2B1K3/8[] w - 0 1",
    );
    ok(Variant::JumpingKing, "8/4k3/8/8/1PP5/2B5/3BK3/8[] w - 0 1");
    // A bishop still to place may go on either colour.
    ok(Variant::JumpingKing, "8/4k3/8/8/1PPP4/2B5/4K3/8[B] w - 0 1");
    assert_eq!(
        err(
            Variant::JumpingKing,
            "8/4k3/8/8/1PPP4/2B5/3BK3/8[B] w - 0 1"
        ),
        FenError::JumpingKing(JumpingKingError::TooManyPromoted {
            color: "White",
            promoted: 1,
            pawns_gone: 0
        })
    );
}

#[test]
fn hop_chess_turn_states_match_the_board() {
    let hop = |fen| err(Variant::HopChess, fen);
    // `first` is White's first turn (H3): only the start position.
    assert_eq!(
        hop("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1 -,- first"),
        FenError::FirstTurnNotAtStart
    );
    assert_eq!(
        hop("4k3/8/8/8/8/8/8/4K3 w - - 0 1 -,- first"),
        FenError::FirstTurnNotAtStart
    );
    // The untouched start has no placement due: `place` and `-` are refused.
    assert_eq!(
        hop("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 -,- place"),
        FenError::StartWithoutFirst("place")
    );
    assert_eq!(
        hop("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 -,- -"),
        FenError::StartWithoutFirst("-")
    );
    assert_eq!(
        FenError::StartWithoutFirst("place").to_string(),
        "the start position with both trampolines off the board is White's first turn: \
         its state is 'first', not 'place'"
    );
    // `first` needs White to move and no trampoline (H1, H3); `place` a
    // placement that leaves the king safe (P8).
    assert_eq!(
        hop("4k3/8/8/8/8/8/8/4K3 w - - 0 1 c4,- first"),
        FenError::FirstTurnMisplaced
    );
    assert_eq!(
        hop("4k3/8/8/8/8/8/8/4RK2 b - - 0 1 -,- place"),
        FenError::NoSafePlacement("Black")
    );
    // Still read: the start, the start array later in a game (trampolines
    // placed), the placement state after a move.
    ok(Variant::HopChess, Variant::HopChess.start_fen());
    ok(
        Variant::HopChess,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 4 3 d5,e4 -",
    );
    ok(
        Variant::HopChess,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 4 3 d5,e4 place",
    );
    ok(
        Variant::HopChess,
        "rnbqkb1r/pppppppp/5n2/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 1 1 -,- place",
    );
}
