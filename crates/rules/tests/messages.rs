//! The readers' messages for texts a person pastes (issue 45, item 6):
//! each says what is wrong in plain words, and names a game only when the
//! text really is that game's (its shape, its Variant tag).

use springboard_rules::notation::pgn::{self, VariantHint};
use springboard_rules::Variant::{self, Chess, HopChess, Hoplit, JumpingKing, Trampoline};

fn fen_error(text: &str, asked: Variant) -> String {
    pgn::read_fen(text, VariantHint::Game(asked))
        .expect_err(text)
        .to_string()
}

fn pgn_error(text: &str, asked: Variant) -> String {
    pgn::read(text, VariantHint::Game(asked))
        .expect_err(text)
        .to_string()
}

/// What the readers say of an empty text and of prose, whichever game is
/// asked for and whichever Load button is used: neither a FEN nor a PGN,
/// with the asked game's position text as the example, and no other game.
#[test]
fn prose_and_empty_texts() {
    for asked in Variant::implemented() {
        for text in ["", "  \n "] {
            assert_eq!(
                fen_error(text, asked),
                "the text is empty: paste a position (FEN) or a game (PGN)"
            );
            assert_eq!(
                pgn_error(text, asked),
                "the text holds no game: no tags and no moves"
            );
        }
        let fields = asked.start_fen().split_whitespace().count();
        let neither = format!(
            "this is not a FEN or a PGN: a FEN (a position of {}) has {fields} fields separated \
             by spaces, starting with the ranks of the board from the 8th, like {}; a PGN (a \
             game) has tag lines like [White \"Anna\"] and numbered moves like 1. e4 e5",
            asked.title(),
            asked.start_fen()
        );
        for text in [
            "this is not a fen",
            "hello",
            "Play me a game of chess, please!",
        ] {
            assert_eq!(fen_error(text, asked), neither, "{text}");
            assert_eq!(pgn_error(text, asked), neither, "{text}");
            // ("Chess" is in "Hop Chess": only the titles not in the asked one.)
            for other in Variant::implemented().filter(|v| !asked.title().contains(v.title())) {
                assert!(
                    !fen_error(text, asked).contains(other.title()),
                    "{text}: {other}"
                );
            }
        }
    }
    assert_eq!(
        fen_error("this is not a fen", Chess),
        "this is not a FEN or a PGN: a FEN (a position of Chess) has 6 fields separated by \
         spaces, starting with the ranks of the board from the 8th, like \
         rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1; a PGN (a game) has tag lines \
         like [White \"Anna\"] and numbered moves like 1. e4 e5"
    );
    assert_eq!(pgn::detect("this is not a fen").1, vec![]);
}

/// A position text of each game with one bad field: read as its own game,
/// the message names the field and why; read as another game, it names the
/// game whose text it is.
#[test]
fn a_bad_field_of_each_game() {
    for (game, text, reason) in [
        (
            Chess,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
            "bad side to move 'x': expected 'w' or 'b'",
        ),
        (
            Chess,
            "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "the board field needs 8 ranks separated by '/', found 7",
        ),
        (
            HopChess,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 -,- later",
            "bad Hop Chess state 'later': expected '-', 'first' or 'place'",
        ),
        (
            Trampoline,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 e9,-",
            "bad trampoline field 'e9,-': expected WHITE,BLACK with a square or '-' each, \
             like e1,b4 or -,-",
        ),
        (
            JumpingKing,
            "5k2/8/8/8/8/8/8/K7[RRBBNNPPPrrbbnnppp] w X 0 1",
            "bad phase field 'X': expected '-' (no king jumps), or J (White's king jumps) \
             and/or j (Black's king jumps), in the order Jj",
        ),
        (
            Hoplit,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Hh] w KQkq - 0 x",
            "bad fullmove number 'x': expected a number from 1",
        ),
    ] {
        let title = game.title();
        assert_eq!(
            fen_error(text, game),
            format!("{title} cannot load this position: {reason}"),
            "{text}"
        );
        for asked in Variant::implemented().filter(|&v| v != game) {
            assert_eq!(
                fen_error(text, asked),
                format!(
                    "this position is from {title}, not {}, and {title} refuses it: {reason}",
                    asked.title()
                ),
                "{text} as {asked}"
            );
        }
        // The Load PGN button: the same reason.
        assert_eq!(
            pgn_error(text, game),
            format!("{title} cannot load this position: {reason}")
        );
    }
}

/// The Jumping King's board without its brackets of men to place is the
/// Jumping King's (its board stays on the 38 squares); a chess board with
/// five fields is no game's: the game asked for says how many fields it
/// wants, naming no other game.
#[test]
fn shapes_name_the_right_game() {
    assert_eq!(
        fen_error("5k2/8/8/8/8/8/8/K7 w Jj 0 1", Chess),
        "this position is from The Weak Square of the Jumping King, not Chess, and The Weak \
         Square of the Jumping King refuses it: the board field '5k2/8/8/8/8/8/8/K7' needs the \
         men still to place in brackets after it, like K7[RRBBNNPPPrrbbnnppp], or [] when none \
         are left"
    );
    let five = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0";
    assert_eq!(
        fen_error(five, Chess),
        "Chess cannot load this position: expected 6 (or 4) fields separated by spaces, found 5"
    );
    assert!(!fen_error(five, Chess).contains("Jumping King"));
    // A Hoplit board under chess: the brackets say whose it is.
    assert_eq!(
        fen_error(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Hh] w KQkq - 0 1",
            Chess
        ),
        "this position is from Hoplit Chess, not Chess: load it as Hoplit Chess"
    );
    // Brackets on a game without a reserve, with no game of that shape.
    assert_eq!(
        fen_error(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Hh] w KQkq - 0 1 -,-",
            Trampoline
        ),
        "Trampoline Chess cannot load this position: the board field \
         'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Hh]' has brackets, but this game has no \
         men in reserve"
    );
}

/// Game texts: a bad move is named with its number; an unknown variant
/// lists the games (from the rules core's names); another game's text says
/// whose it is, in a sentence that reads well for every game's name.
#[test]
fn game_texts() {
    assert_eq!(
        pgn_error("1. e4 e5 2. Ke3 *", Chess),
        "move 2. 'Ke3': illegal move 'Ke3' in this position"
    );
    // The Load FEN button on a game text: the game reader's reason.
    assert_eq!(
        fen_error("1. e4 e5 2. Ke3 *", Chess),
        "move 2. 'Ke3': illegal move 'Ke3' in this position"
    );
    assert_eq!(
        fen_error("1. e4 e5 *", Chess),
        "this is a game text (PGN), not a position (FEN): load it as a game"
    );
    let names: Vec<&str> = Variant::implemented().map(Variant::name).collect();
    assert_eq!(
        pgn_error("[Variant \"atomic\"]\n\n1. e4 *", Chess),
        format!(
            "unknown game 'atomic' in the Variant tag (Springboard plays {})",
            names.join(", ")
        )
    );
    for game in Variant::implemented().filter(|&v| v != Chess) {
        let text = format!("[Variant \"{}\"]\n\n*", game.name());
        let title = game.title();
        assert_eq!(
            pgn_error(&text, Chess),
            format!(
                "this is a game of {title} (its Variant tag says so), not of Chess: load it as \
                 {title}"
            )
        );
    }
    // No message puts an article before a game's title ("a The Weak ...").
    for text in [
        "[Variant \"jumpingking\"]\n\n*",
        "5k2/8/8/8/8/8/8/K7 w Jj 0 1",
        "5k2/8/8/8/8/8/8/K7[RRBBNNPPPrrbbnnppp] w Jj 0 1",
    ] {
        for asked in Variant::implemented() {
            for message in [
                pgn::read(text, VariantHint::Game(asked))
                    .err()
                    .map(|e| e.to_string()),
                pgn::read_fen(text, VariantHint::Game(asked))
                    .err()
                    .map(|e| e.to_string()),
            ]
            .into_iter()
            .flatten()
            {
                assert!(!message.contains("a The "), "{message}");
            }
        }
    }
}
