//! FIDE chess: position text, hashing and an independent check of the move
//! generator.

use proptest::prelude::*;
use springboard_rules::attacks;
use springboard_rules::notation::san::{parse_san, to_san};
use springboard_rules::notation::uci::{parse_uci, to_uci};
use springboard_rules::{
    Bitboard, Color, FenError, Move, MoveKind, Piece, Position, Role, Square, Variant,
};

const SUITE: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
];

fn chess(fen: &str) -> Position {
    Position::from_fen(Variant::Chess, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

#[test]
fn fen_round_trip() {
    for fen in SUITE.iter().copied().chain([
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "8/8/8/8/k2Ppr2/8/8/7K b - d3 0 1",
        "4k3/8/8/8/8/8/8/4K2R w K - 99 120",
    ]) {
        assert_eq!(chess(fen).to_fen(), fen);
    }
    // Four fields: clocks default to 0 1.
    assert_eq!(
        chess("4k3/8/8/8/8/8/8/4K3 b - -").to_fen(),
        "4k3/8/8/8/8/8/8/4K3 b - - 0 1"
    );
}

#[test]
fn fen_en_passant_kept_only_when_legal() {
    // After 1.e4 no black pawn can take: the square is dropped (ruling C2).
    let p = chess("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    assert_eq!(p.ep_square(), None);
    assert_eq!(
        p.to_fen(),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
    // A capture that would expose the king along the rank is not legal:
    // both pawns leave the fourth rank and the queen sees the king.
    for fen in [
        "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1",
        "8/8/8/8/k3pP1Q/8/8/3K4 b - f3 0 1",
        "8/8/8/8/1k1pP2Q/8/8/7K b - e3 0 1",
    ] {
        let p = chess(fen);
        assert_eq!(p.ep_square(), None, "{fen}");
        assert!(!p
            .legal_moves()
            .iter()
            .any(|m| m.kind() == MoveKind::EnPassant));
    }
    // With a black rook in between, the capture is legal and the square kept.
    let p = chess("8/8/8/8/k2Ppr2/8/8/7K b - d3 0 1");
    assert_eq!(p.ep_square(), Some(Square::D3));
    assert!(p
        .legal_moves()
        .contains(&Move::en_passant(Square::E4, Square::D3)));
}

#[test]
fn fen_errors_say_what_is_wrong() {
    let cases: &[(&str, FenError)] = &[
        ("", FenError::Empty),
        (
            "8/8/8/8/8/8/8/8 w",
            FenError::FieldCount {
                expected: "6 (or 4)",
                found: 2,
            },
        ),
        ("8/8/8 w - - 0 1", FenError::RankCount(3)),
        (
            "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            FenError::BadPieceChar { ch: '9' },
        ),
        (
            "rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            FenError::BadPieceChar { ch: '4' },
        ),
        (
            "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            FenError::RankLength {
                rank: 7,
                squares: 7,
            },
        ),
        (
            "rnbqkbnr/pppppppxp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            FenError::BadPieceChar { ch: 'x' },
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNH w KQkq - 0 1",
            FenError::BadPieceChar { ch: 'H' },
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
            FenError::BadTurn("x".into()),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1",
            FenError::BadCastling("KQkx".into()),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w QK - 0 1",
            FenError::BadCastling("QK".into()),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1",
            FenError::CastlingWithoutPieces {
                right: 'K',
                color: "White",
                king: "e1",
                rook: "h1",
            },
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1",
            FenError::BadEnPassant("e9".into()),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1",
            FenError::ImpossibleEnPassant("e3".into()),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
            FenError::BadHalfmove("x".into()),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0",
            FenError::BadFullmove("0".into()),
        ),
        ("8/8/8/8/8/8/8/8 w - - 0 1", FenError::KingCount("White", 0)),
        (
            "4k3/8/8/8/8/8/8/3KK3 w - - 0 1",
            FenError::KingCount("White", 2),
        ),
        (
            "4k3/8/8/8/8/8/8/3K3P w - - 0 1",
            FenError::PawnOnBackRank("h1".into()),
        ),
        (
            "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1",
            FenError::OppositeCheck("Black"),
        ),
        (
            "QQQQkQQQ/QQQQQQQQ/QQ6/8/8/8/8/4K3 b - - 0 1",
            FenError::TooManyPieces("White", 18),
        ),
    ];
    for (fen, err) in cases {
        assert_eq!(
            Position::from_fen(Variant::Chess, fen).unwrap_err(),
            *err,
            "{fen}"
        );
        // The message names the problem.
        assert!(!err.to_string().is_empty());
    }
    assert_eq!(
        FenError::CastlingWithoutPieces {
            right: 'K',
            color: "White",
            king: "e1",
            rook: "h1"
        }
        .to_string(),
        "castling right 'K' needs the White king on e1 and a rook on h1"
    );
}

/// Walks the move tree and checks, at every node, that the incremental key
/// equals a recomputation, and that long notation and SAN round-trip.
fn walk(pos: &Position, depth: u32, nodes: &mut u64) {
    assert_eq!(pos.hash(), pos.compute_hash(), "{}", pos.to_fen());
    *nodes += 1;
    if depth == 0 {
        return;
    }
    let moves = pos.legal_moves();
    for &m in &moves {
        let long = to_uci(pos, m);
        assert_eq!(
            parse_uci(pos, &long).unwrap(),
            m,
            "{long} in {}",
            pos.to_fen()
        );
        let san = to_san(pos, m);
        assert_eq!(
            parse_san(pos, &san).unwrap(),
            m,
            "{san} in {}",
            pos.to_fen()
        );
        let mut next = pos.clone();
        next.play(m);
        walk(&next, depth - 1, nodes);
    }
}

#[test]
fn incremental_hash_and_notation_at_every_node() {
    let mut nodes = 0;
    for fen in SUITE {
        walk(&chess(fen), 3, &mut nodes);
    }
    assert!(nodes > 100_000, "{nodes}");
}

#[test]
fn hash_distinguishes_what_repetition_distinguishes() {
    let a = chess("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let b = chess("r3k2r/8/8/8/8/8/8/R3K2R w Kkq - 0 1");
    let c = chess("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
    assert_ne!(a.hash(), b.hash());
    assert_ne!(a.hash(), c.hash());
    let d = chess("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 17 40");
    assert_eq!(a.hash(), d.hash(), "clocks do not count");
}

// ---- An independent, slow move generator: pseudo-legal moves from first
// principles (no attack tables beyond rays walked square by square), kept
// when the mover's king is not attacked afterwards. ----

fn ray_attacks(pos: &Position, from: Square, dirs: &[(i8, i8)], slide: bool) -> Vec<Square> {
    let mut out = Vec::new();
    for &(df, dr) in dirs {
        let mut sq = from;
        while let Some(next) = sq.offset(df, dr) {
            out.push(next);
            if !slide || pos.board().piece_at(next).is_some() {
                break;
            }
            sq = next;
        }
    }
    out
}

const ROOK: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const KNIGHT: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

fn targets(pos: &Position, from: Square, piece: Piece) -> Vec<Square> {
    let all: Vec<(i8, i8)> = ROOK.iter().chain(&BISHOP).copied().collect();
    match piece.role {
        Role::Knight => ray_attacks(pos, from, &KNIGHT, false),
        Role::Bishop => ray_attacks(pos, from, &BISHOP, true),
        Role::Rook => ray_attacks(pos, from, &ROOK, true),
        Role::Queen => ray_attacks(pos, from, &all, true),
        Role::King => ray_attacks(pos, from, &all, false),
        Role::Pawn => {
            let dr = if piece.color == Color::White { 1 } else { -1 };
            [-1, 1]
                .iter()
                .filter_map(|&df| from.offset(df, dr))
                .collect()
        }
        Role::Hoplit => Vec::new(),
    }
}

fn attacked_slow(pos: &Position, sq: Square, by: Color) -> bool {
    pos.board()
        .iter()
        .filter(|(_, p)| p.color == by)
        .any(|(from, p)| targets(pos, from, p).contains(&sq))
}

fn brute_force_moves(pos: &Position) -> Vec<Move> {
    let us = pos.turn();
    let b = pos.board();
    let mut pseudo = Vec::new();
    for (from, piece) in b.iter().filter(|(_, p)| p.color == us) {
        let last = if us == Color::White { 7 } else { 0 };
        let push = |list: &mut Vec<Move>, to: Square| {
            if piece.role == Role::Pawn && to.rank().index() == last {
                for r in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                    list.push(Move::promotion(from, to, r));
                }
            } else {
                list.push(Move::normal(from, to));
            }
        };
        if piece.role == Role::Pawn {
            let dr = if us == Color::White { 1 } else { -1 };
            for to in targets(pos, from, piece) {
                if b.piece_at(to).is_some_and(|p| p.color != us) {
                    push(&mut pseudo, to);
                } else if Some(to) == pos.ep_square() {
                    pseudo.push(Move::en_passant(from, to));
                }
            }
            if let Some(one) = from.offset(0, dr).filter(|s| b.piece_at(*s).is_none()) {
                push(&mut pseudo, one);
                let start = if us == Color::White { 1 } else { 6 };
                if from.rank().index() == start {
                    if let Some(two) = one.offset(0, dr).filter(|s| b.piece_at(*s).is_none()) {
                        pseudo.push(Move::double_step(from, two));
                    }
                }
            }
        } else {
            for to in targets(pos, from, piece) {
                if b.piece_at(to).is_none_or(|p| p.color != us) {
                    push(&mut pseudo, to);
                }
            }
        }
    }
    // Castling, from first principles.
    let home = if us == Color::White { 0 } else { 7 };
    for (king_side, rook_file, path, king_path) in [
        (true, 7u8, &[5u8, 6][..], &[4u8, 5, 6][..]),
        (false, 0u8, &[1u8, 2, 3][..], &[4u8, 3, 2][..]),
    ] {
        let sq = |f: u8| Square::from_index(u32::from(home * 8 + f));
        if pos.castling().has(us, king_side)
            && b.piece_at(sq(4)) == Some(Piece::new(us, Role::King))
            && b.piece_at(sq(rook_file)) == Some(Piece::new(us, Role::Rook))
            && path.iter().all(|&f| b.piece_at(sq(f)).is_none())
            && king_path.iter().all(|&f| !attacked_slow(pos, sq(f), !us))
        {
            pseudo.push(Move::castle(sq(4), sq(if king_side { 6 } else { 2 })));
        }
    }
    pseudo
        .into_iter()
        .filter(|&m| {
            let mut next = pos.clone();
            next.play(m);
            let k = next.board().king_of(us).expect("king");
            !attacked_slow(&next, k, !us)
        })
        .collect()
}

fn same_moves(pos: &Position) {
    let mut fast: Vec<String> = pos.legal_moves().iter().map(|&m| to_uci(pos, m)).collect();
    let mut slow: Vec<String> = brute_force_moves(pos)
        .iter()
        .map(|&m| to_uci(pos, m))
        .collect();
    fast.sort();
    slow.sort();
    assert_eq!(fast, slow, "{}", pos.to_fen());
}

#[test]
fn brute_force_agrees_on_the_suite() {
    for fen in SUITE {
        let pos = chess(fen);
        same_moves(&pos);
        for m in pos.legal_moves() {
            let mut next = pos.clone();
            next.play(m);
            same_moves(&next);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Random playouts from the suite: the fast generator agrees with the
    /// brute-force one at every position, and keys stay exact.
    #[test]
    fn random_playouts_agree(start in 0..SUITE.len(), choices in prop::collection::vec(any::<u16>(), 1..120)) {
        let mut pos = chess(SUITE[start]);
        for c in choices {
            same_moves(&pos);
            prop_assert_eq!(pos.hash(), pos.compute_hash());
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play(moves[c as usize % moves.len()]);
        }
    }
}

#[test]
fn attack_tables_agree_with_rays() {
    let pos = chess(SUITE[1]);
    let occ = pos.board().occupied();
    for sq in Square::ALL {
        let mut slow = Bitboard::EMPTY;
        for t in ray_attacks(&pos, sq, &ROOK, true) {
            slow |= t;
        }
        assert_eq!(attacks::rook_attacks(sq, occ), slow, "{sq}");
        let mut slow = Bitboard::EMPTY;
        for t in ray_attacks(&pos, sq, &BISHOP, true) {
            slow |= t;
        }
        assert_eq!(attacks::bishop_attacks(sq, occ), slow, "{sq}");
    }
}
