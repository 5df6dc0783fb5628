//! The PGN reader and writer (`notation::pgn`): the forms of issue 11, the
//! tags, the seed games, and every refusal with its message.

use springboard_rules::notation::pgn::{self, PgnError, Player, Tags, VariantHint};
use springboard_rules::notation::san::parse_san;
use springboard_rules::notation::uci::{parse_uci, to_uci};
use springboard_rules::{Color, Game, MoveError, Position, Variant};

fn game(variant: Variant, fen: Option<&str>, moves: &str) -> Game {
    let start = match fen {
        Some(f) => Position::from_fen(variant, f).unwrap(),
        None => Position::startpos(variant),
    };
    let mut g = Game::new(start);
    for t in moves.split_whitespace() {
        let m = parse_uci(g.position(), t).unwrap();
        g.play(m).unwrap();
    }
    g
}

fn long(g: &Game) -> String {
    pgn::long_moves(g).join(" ")
}

fn hop(text: &str) -> Result<Game, PgnError> {
    pgn::read(text, VariantHint::Game(Variant::HopChess)).map(|(g, _)| g)
}

#[test]
fn hop_chess_bounces_load_in_every_written_form() {
    // Issue 11, item 1: White's bishop bounces off its own trampoline on
    // c4 (H4) and takes f7 with check, keeping the trampoline on c4 (N4).
    let head = "[Variant \"hopchess\"]\n\n1. e4 Nf6 d5 2. Nc3 c4 e5 d5 3. ";
    for turn in [
        "Bf1-c4:f7 c4+",
        "Bf1-c4:f7 c4",
        "Bf1-c4xf7 c4",
        "Bf1-c4:f7@c4",
        "f1c4f7@c4",
    ] {
        let g = hop(&format!("{head}{turn} *")).unwrap_or_else(|e| panic!("{turn}: {e}"));
        assert_eq!(long(&g), "e2e4 g8f6@d5 b1c3@c4 e7e5@d5 f1c4f7@c4", "{turn}");
    }
    let g = hop(&format!("{head}Bf1-c4-e6 c4 *")).unwrap();
    assert_eq!(long(&g).rsplit(' ').next(), Some("f1c4e6@c4"));
    // The writer writes the form the reader read.
    let g = hop(&format!("{head}Bf1-c4:f7 c4+ *")).unwrap();
    let text = pgn::write(&g, &Tags::new());
    assert!(
        text.contains("\n1. e4 Nf6 d5 2. Nc3 c4 e5 d5 3. Bf1-c4:f7 c4+ *\n"),
        "{text}"
    );
    assert_eq!(hop(&text).unwrap().moves(), g.moves());
}

#[test]
fn hop_chess_turn_without_placement_says_what_it_needs() {
    // Issue 11, item 14: SAN, the PGN reader and long notation.
    let g = hop("[Variant \"hopchess\"]\n1. e4 Nf6 d5 2. Nc3 c4 e5 d5 *").unwrap();
    let pos = g.position();
    let err = parse_san(pos, "Bf1-c4:f7").unwrap_err();
    assert_eq!(
        err,
        MoveError::NeedsPlacement {
            text: "Bf1-c4:f7".into(),
            example: "Bf1-c4:f7 c4".into()
        }
    );
    assert_eq!(
        err.to_string(),
        "'Bf1-c4:f7' is only half a Hop Chess turn: after the piece move, say where your \
         trampoline stands (it may stay where it is), like 'Bf1-c4:f7 c4'"
    );
    assert!(matches!(
        parse_san(pos, "Nf3"),
        Err(MoveError::NeedsPlacement { example, .. }) if example == "Nf3 c4"
    ));
    assert_eq!(
        parse_uci(pos, "f1c4f7"),
        Err(MoveError::NeedsPlacement {
            text: "f1c4f7".into(),
            example: "f1c4f7@c4".into()
        })
    );
    assert_eq!(
        parse_uci(pos, "g1f3"),
        Err(MoveError::NeedsPlacement {
            text: "g1f3".into(),
            example: "g1f3@c4".into()
        })
    );
    // Still illegal when the piece move itself is.
    assert_eq!(
        parse_uci(pos, "g1g3"),
        Err(MoveError::Illegal("g1g3".into()))
    );
    let err =
        hop("[Variant \"hopchess\"]\n1. e4 Nf6 d5 2. Nc3 c4 e5 d5 3. Bf1-c4:f7 Nc6 *").unwrap_err();
    assert_eq!(
        err.to_string(),
        "move 3. 'Bf1-c4:f7': 'Bf1-c4:f7' is only half a Hop Chess turn: after the piece \
         move, say where your trampoline stands (it may stay where it is), like 'Bf1-c4:f7 c4'"
    );
}

#[test]
fn hoplit_moves_load() {
    // Issue 11, item 2: the drop (L4, N6) and Hoplit moves (L2).
    let (g, _) = pgn::read(
        "[Variant \"hoplit\"]\n\n1. Nf3 Nf6 2. H@g1 *",
        VariantHint::Any,
    )
    .unwrap();
    assert_eq!(long(&g), "g1f3 g8f6 H@g1");
    assert!(pgn::write(&g, &Tags::new()).contains("\n1. Nf3 Nf6 2. H@g1 *\n"));
    // The Hoplit d1 slides to h5, turns north, jumps the pawn h6 and takes
    // h7; from a2 it turns on d5 east, jumps e5 and stops on h5.
    let fen = "6k1/7p/7P/4P3/8/8/8/3HK3[] w - - 0 1";
    let text = format!("[Variant \"Hoplit Chess\"]\n[FEN \"{fen}\"]\n\n1. Hxh7+ *");
    let (g, _) = pgn::read(&text, VariantHint::Game(Variant::Hoplit)).unwrap();
    assert_eq!(long(&g), "d1h7");
    let fen = "6k1/8/8/4P3/8/8/H7/4K3[] w - - 0 1";
    let text = format!("[Variant \"hoplit\"]\n[SetUp \"1\"]\n[FEN \"{fen}\"]\n\n1. Hh5 *");
    let (g, _) = pgn::read(&text, VariantHint::Any).unwrap();
    assert_eq!(long(&g), "a2h5");
}

#[test]
fn writes_the_tags_a_player_expects() {
    let g = game(Variant::Chess, None, "f2f3 e7e5 g2g4 d8h4");
    let mut tags = Tags::new();
    tags.set("Event", "Casual game")
        .set("Site", "Springboard")
        .set("Date", "2026.11.24")
        .set("TimeControl", pgn::time_control(300_000, 2_000));
    tags.set_player(Color::White, Player::Human("Ann"));
    tags.set_player(
        Color::Black,
        Player::Engine {
            name: "Springboard 0.1.0",
            level: Some(12),
        },
    );
    assert_eq!(
        pgn::write(&g, &tags),
        "[Event \"Casual game\"]\n[Site \"Springboard\"]\n[Date \"2026.11.24\"]\n\
         [Round \"?\"]\n[White \"Ann\"]\n[Black \"Springboard 0.1.0 (level 12)\"]\n\
         [Result \"0-1\"]\n[TimeControl \"300+2\"]\n[Termination \"normal\"]\n\
         [WhiteType \"human\"]\n[BlackType \"program\"]\n\n\
         1. f3 e5 2. g4 Qh4# {checkmate} 0-1\n"
    );
    assert_eq!(pgn::time_control(10_000, 100), "10+0.1");
    assert_eq!(pgn::date_from_days(0), "1970.01.01");
    assert_eq!(pgn::date_from_days(20_416), "2025.11.24");
    // A later start: SetUp and FEN, Black first; a caller's result for a
    // game the rules have not ended (a resignation).
    let fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 7";
    let g = game(Variant::Chess, Some(fen), "e8d7 e2e4");
    let mut tags = Tags::new();
    tags.set("Result", "1-0")
        .set("Termination", "Black resigns");
    let text = pgn::write(&g, &tags);
    assert!(
        text.contains(&format!("[SetUp \"1\"]\n[FEN \"{fen}\"]\n")),
        "{text}"
    );
    assert!(
        text.ends_with("\n\n7... Kd7 8. e4 {Black resigns} 1-0\n"),
        "{text}"
    );
    let (back, read_tags) = pgn::read(&text, VariantHint::Any).unwrap();
    assert_eq!(back.moves(), g.moves());
    assert_eq!(read_tags.get("Result"), Some("1-0"));
    assert_eq!(
        pgn::stated_end(&back, &read_tags),
        Some(("1-0".to_string(), "Black resigns".to_string()))
    );
    // Each game names its game in the Variant tag (chess by its absence).
    for v in Variant::ALL {
        let text = pgn::write(&Game::new(Position::startpos(v)), &Tags::new());
        assert_eq!(
            text.contains(&format!("[Variant \"{}\"]", v.name())),
            v != Variant::Chess
        );
        let (back, _) = pgn::read(&text, VariantHint::Any).unwrap();
        assert_eq!(back.start().variant(), v);
    }
}

#[test]
fn reads_what_players_type() {
    let text = "[Event \"x \\\"quoted\\\"\"]\n[Variant \"Standard\"]\n\n\
                1. e4 {best by test} e5 (1... c5 2. Nf3 (2. c3)) 2. Nf3! $1 Nc6 ; rest\n\
                % escape\n3.Bb5 a6?! 4. Ba4 Nf6 5. O-O 5... Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O *";
    let (g, tags) = pgn::read(text, VariantHint::Game(Variant::Chess)).unwrap();
    assert_eq!(g.moves().len(), 16);
    assert_eq!(tags.get("Event"), Some("x \"quoted\""));
    assert_eq!(tags.get("Result"), Some("*"));
    // Long notation and no move numbers.
    let (g, _) = pgn::read("e2e4 e7e5 g1f3", VariantHint::Any).unwrap();
    assert_eq!(long(&g), "e2e4 e7e5 g1f3");
    // Jumping King in the seed's notation and in long notation.
    let (g, _) = pgn::read(
        "[Variant \"Jumping King\"]\n1. Kc2 Kd7 2. c2e3b Kf6<B *",
        VariantHint::Any,
    )
    .unwrap();
    assert_eq!(long(&g), "a1c2 f8d7 c2e3b d7f6b");
}

#[test]
fn the_seed_games_read_to_their_end() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/games/");
    for (file, variant, result, ply) in [
        ("hop-chess.txt", Variant::HopChess, "1-0", 33),
        ("jumping-king.txt", Variant::JumpingKing, "0-1", 32),
        ("trampoline-chess.txt", Variant::Trampoline, "1-0", 49),
    ] {
        let text = std::fs::read_to_string(format!("{dir}{file}")).unwrap();
        let (g, tags) = pgn::read(&text, VariantHint::Game(variant)).unwrap();
        assert_eq!(g.moves().len(), ply, "{file}");
        assert_eq!(tags.get("Result"), Some(result), "{file}");
        // And back through the writer.
        let written = pgn::write(&g, &tags);
        let (back, _) = pgn::read(&written, VariantHint::Any).unwrap();
        assert_eq!(back.positions(), g.positions(), "{file}");
    }
}

#[test]
fn refuses_with_clear_errors() {
    let any = VariantHint::Any;
    let chess = VariantHint::Game(Variant::Chess);
    let cases: [(&str, VariantHint, &str); 14] = [
        (
            "1. e4 e5 2. Ke3",
            chess,
            "move 2. 'Ke3': illegal move 'Ke3' in this position",
        ),
        (
            "[FEN \"7k/8/8/8/8/8/8/KN3N2 w - - 0 40\"]\n40. Nd2",
            chess,
            "move 40. 'Nd2': ambiguous move 'Nd2': it could be Nbd2 (b1d2), Nfd2 (f1d2)",
        ),
        (
            "1. e4 e5 1-0 2. Nf3",
            chess,
            "'Nf3' comes after the result '1-0': the result ends the moves",
        ),
        (
            "[Variant \"hopchess\"]\n1. e4",
            chess,
            "this is a game of Hop Chess (its Variant tag says so), not of Chess: load it as Hop Chess",
        ),
        (
            "[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 -,-\"]\n*",
            chess,
            "this is a game of Trampoline Chess (its FEN tag says so), not of Chess: load it as Trampoline Chess",
        ),
        (
            "[Variant \"atomic\"]\n1. e4",
            any,
            "unknown game 'atomic' in the Variant tag (Springboard plays chess, hopchess, \
             trampoline, jumpingking, hoplit)",
        ),
        (
            "[FEN \"8/8/8 w - - 0 1\"]\n",
            any,
            "bad FEN tag: the board field needs 8 ranks separated by '/', found 3",
        ),
        ("1. e4 {open", any, "a comment '{' is not closed"),
        ("1. e4 (1. d4", any, "a variation '(' is not closed"),
        ("1. e4 )", any, "a ')' closes no variation"),
        (
            "[Event open\n1. e4",
            any,
            "line 1: bad tag '[Event open': expected [Name \"value\"]",
        ),
        (
            "1. f3 e5 2. g4 Qh4# 3. a3",
            any,
            "move 3. 'a3': the game ended after ply 4 (0-1, checkmate), but the text goes on",
        ),
        (
            "1. f3 e5 2. g4 Qh4# 1-0",
            any,
            "the moves end in checkmate (0-1), but the result says 1-0",
        ),
        (
            "[Result \"0-1\"]\n1. e4 1-0",
            any,
            "the result '1-0' after the moves contradicts the Result tag '0-1'",
        ),
    ];
    for (text, hint, message) in cases {
        match pgn::read(text, hint) {
            Ok((g, _)) => panic!("{text}: read {}", long(&g)),
            Err(e) => assert_eq!(e.to_string(), message, "{text}"),
        }
    }
    assert_eq!(pgn::read("  \n", any).unwrap_err(), PgnError::Empty);
    assert_eq!(
        pgn::read(Variant::Hoplit.start_fen(), chess)
            .unwrap_err()
            .to_string(),
        "this is a position text (FEN) of Hoplit Chess, not a game: load it as a position"
    );
    // Tag names are written as PGN allows them.
    let mut tags = Tags::new();
    tags.set("My Tag", "v").set("", "w");
    let text = pgn::write(&Game::new(Position::startpos(Variant::Chess)), &tags);
    assert!(text.contains("[MyTag \"v\"]\n"), "{text}");
    assert!(pgn::read(&text, any).is_ok());
    assert_eq!(
        pgn::read("[Event \"a\"]\n1. e4 *\n\n[Event \"b\"]\n1. d4 *\n", any).unwrap_err(),
        PgnError::SeveralGames(2)
    );
    let all = pgn::read_all("[Event \"a\"]\n1. e4 *\n\n[Event \"b\"]\n1. d4 d5 *\n", any);
    assert_eq!(all.len(), 2);
    assert_eq!(all[1].as_ref().unwrap().0.moves().len(), 2);
    // A FEN text names its game.
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 -,- first";
    assert_eq!(
        pgn::read_fen(fen, any).unwrap().variant(),
        Variant::HopChess
    );
    assert_eq!(
        pgn::read_fen(fen, chess).unwrap_err().to_string(),
        "this position is from Hop Chess, not Chess: load it as Hop Chess"
    );
    // A move that the rules refuse, in long notation, names the move.
    let g = game(Variant::Chess, None, "e2e4");
    assert_eq!(to_uci(g.position(), g.moves()[0]), "e2e4");
}

proptest::proptest! {
    /// Any text gets a game or an error, never a panic: words made of the
    /// characters PGN and the notations use.
    #[test]
    fn any_text_is_read_or_refused(text in "[\\[\\]{}();%$!?@:+#=<> \n\"\\\\a-hKQRBNHPTx0-9.\\-/*]{0,80}") {
        for hint in [VariantHint::Any, VariantHint::Game(Variant::HopChess), VariantHint::Game(Variant::JumpingKing)] {
            let _ = pgn::read(&text, hint);
        }
        let _ = pgn::read_fen(&text, VariantHint::Any);
    }

    /// Move words after a real game's start: read or refused, never a panic.
    #[test]
    fn any_moves_are_read_or_refused(words in proptest::collection::vec("[a-hKQRBNHT]{0,2}[1-8x:@\\-]{0,2}[a-h]?[1-8]?[+#=QH<]?", 0..12)) {
        let moves = words.join(" ");
        for v in Variant::ALL {
            let _ = pgn::read(&format!("[Variant \"{}\"]\n{moves}", v.name()), VariantHint::Any);
        }
    }
}

#[test]
fn detect_says_which_games_read_a_text() {
    use pgn::TextKind::{Game as G, Position as P};
    use Variant::*;
    // Position texts, by their shape.
    let hop_start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 -,- first";
    assert_eq!(pgn::detect(hop_start), (P, vec![HopChess]));
    assert_eq!(pgn::detect(Trampoline.start_fen()), (P, vec![Trampoline]));
    assert_eq!(pgn::detect(JumpingKing.start_fen()), (P, vec![JumpingKing]));
    assert_eq!(pgn::detect(Hoplit.start_fen()), (P, vec![Hoplit]));
    assert_eq!(pgn::detect(Chess.start_fen()), (P, vec![Chess]));
    // Game texts: the Variant tag, else every game whose rules read it.
    let tramp = "[Variant \"trampoline\"]\n\n1. e4 e5 *\n";
    assert_eq!(pgn::detect(tramp), (G, vec![Trampoline]));
    assert_eq!(
        pgn::detect("1. e4 e5 2. Nf3 *"),
        (G, vec![Chess, Trampoline, Hoplit])
    );
    assert_eq!(pgn::detect("1. e4 Nf6 d5 *"), (G, vec![HopChess]));
    assert_eq!(pgn::detect("1. e4 e5 2. Ke3 *"), (G, vec![]));
    assert_eq!(pgn::detect(""), (G, vec![]));
    // What the readers say of a text of another game.
    assert_eq!(
        pgn::read_fen(hop_start, VariantHint::Game(Chess))
            .unwrap_err()
            .to_string(),
        "this position is from Hop Chess, not Chess: load it as Hop Chess"
    );
    // A position text shaped as another game's, which that game refuses:
    // both said (a Hop Chess trampoline on a piece, a Jumping King side
    // with four pawns, a Hoplit Chess side with two Hoplits).
    for (text, found, reason) in [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 e1,- place",
            "Hop Chess",
            "the White trampoline stands on e1, which holds a piece ('K')",
        ),
        (
            "5k2/8/8/8/8/PPPP4/8/K7[] w - 0 1",
            "The Weak Square of the Jumping King",
            "White has 4 pawns on the board and to place; a side owns 3",
        ),
    ] {
        assert_eq!(pgn::detect(text), (G, vec![]));
        assert_eq!(
            pgn::read_fen(text, VariantHint::Game(Chess))
                .unwrap_err()
                .to_string(),
            format!("this position is from {found}, not Chess, and {found} refuses it: {reason}")
        );
    }
    assert_eq!(
        pgn::read(tramp, VariantHint::Game(Chess))
            .unwrap_err()
            .to_string(),
        "this is a game of Trampoline Chess (its Variant tag says so), not of Chess: load it as Trampoline Chess"
    );
}
