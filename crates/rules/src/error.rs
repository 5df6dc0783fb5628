//! Errors of the rules core. Each says what is wrong, with the bad text.

use thiserror::Error;

// An unknown variant name: defined beside `Variant`, whose names it lists.
pub use crate::variant::VariantError;

/// A position text (FEN) that cannot be read, or describes no legal position.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FenError {
    #[error("empty position text")]
    Empty,
    #[error("the variant '{0}' is not implemented yet")]
    NotImplemented(&'static str),
    #[error("expected {expected} fields separated by spaces, found {found}")]
    FieldCount {
        expected: &'static str,
        found: usize,
    },
    #[error("the board field needs 8 ranks separated by '/', found {0}")]
    RankCount(usize),
    #[error("rank {rank} describes {squares} squares instead of 8")]
    RankLength { rank: u8, squares: u32 },
    #[error("unexpected character '{ch}' in the board field")]
    BadPieceChar { ch: char },
    #[error("a piece stands on {0}, which is not a square of this board")]
    MissingSquare(String),
    #[error("bad reserve '{0}': expected letters in brackets, like [Hh]")]
    BadReserve(String),
    /// Reserve brackets on the board field of a game without a reserve.
    #[error("the board field '{0}' has brackets, but this game has no men in reserve")]
    UnexpectedReserve(String),
    #[error(
        "the position text needs the reserve in brackets right after the board, like RNBQKBNR[Hh] (or [] for an empty reserve)"
    )]
    MissingReserve,
    #[error("bad reserve '{text}': {reason}")]
    ReserveContent { text: String, reason: &'static str },
    #[error("bad side to move '{0}': expected 'w' or 'b'")]
    BadTurn(String),
    #[error("bad castling field '{0}': expected '-' or letters from KQkq")]
    BadCastling(String),
    #[error("castling right '{right}' needs the {color} king on {king} and a rook on {rook}")]
    CastlingWithoutPieces {
        right: char,
        color: &'static str,
        king: &'static str,
        rook: &'static str,
    },
    #[error("bad en-passant square '{0}'")]
    BadEnPassant(String),
    #[error("en-passant square {0} does not follow a double step of a pawn")]
    ImpossibleEnPassant(String),
    #[error("bad halfmove clock '{0}': expected a number")]
    BadHalfmove(String),
    #[error("bad fullmove number '{0}': expected a number from 1")]
    BadFullmove(String),
    #[error("{0} has {1} kings; a side needs exactly one")]
    KingCount(&'static str, u32),
    #[error("{0} has too many pieces ({1})")]
    TooManyPieces(&'static str, u32),
    #[error("a pawn stands on {0}, on its first or last rank")]
    PawnOnBackRank(String),
    #[error("the side not to move ({0}) is in check")]
    OppositeCheck(&'static str),
    #[error("bad trampoline field '{0}': expected WHITE,BLACK with a square or '-' each, like e1,b4 or -,-")]
    BadTrampolines(String),
    #[error("the {owner} trampoline stands on {square}, which holds a piece ('{piece}')")]
    TrampolineOnPiece {
        owner: &'static str,
        square: String,
        piece: char,
    },
    #[error("both trampolines stand on {0}")]
    TrampolinesOnOneSquare(String),
    #[error("bad Hop Chess state '{0}': expected '-', 'first' or 'place'")]
    BadState(String),
    #[error(
        "the side to move is in check from {0} pieces: no move gives more than a double check"
    )]
    TooManyCheckers(u32),
    #[error("{0} has no trampolines")]
    NoTrampolines(&'static str),
    #[error("{color} holds {kind} in reserve, but {variant} has no {kind} in reserve")]
    ReserveNotInGame {
        color: &'static str,
        kind: &'static str,
        variant: &'static str,
    },
    #[error("{color} holds {count} {kind} in reserve; a side has at most {max}")]
    ReserveTooLarge {
        color: &'static str,
        kind: &'static str,
        count: u32,
        max: u32,
    },
    #[error("{variant} has no turn state {bits:#04b}")]
    PhaseNotInGame { bits: u8, variant: &'static str },
    /// The state `first` (White's first turn, H3) elsewhere.
    #[error(
        "state 'first' (White's first turn) needs White to move and both \
         trampolines off the board"
    )]
    FirstTurnMisplaced,
    #[error("state 'place': no placement leaves the {0} king safe")]
    NoSafePlacement(&'static str),
    /// The state `first` (H3) on another board than the start.
    #[error(
        "state 'first' is White's first turn, which only the start position has; \
         this board is not the start position"
    )]
    FirstTurnNotAtStart,
    /// The start position without the state `first` (H3).
    #[error(
        "the start position with both trampolines off the board is White's first turn: \
         its state is 'first', not '{0}'"
    )]
    StartWithoutFirst(&'static str),
    #[error("{0}")]
    Invalid(String),
    #[error(transparent)]
    Material(#[from] MaterialError),
    #[error(transparent)]
    JumpingKing(#[from] JumpingKingError),
}

/// Men that no game from the start position reaches: more pawns than a
/// side starts with, or more men of a kind than the side's missing pawns
/// could have made by promotion (each game's "Positions Springboard
/// refuses" in docs/rules/).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MaterialError {
    #[error("{color} has {pawns} pawns; a side has {max} at most")]
    TooManyPawns {
        color: &'static str,
        pawns: u32,
        max: u32,
    },
    #[error(
        "{color} has {men}: that is {promoted} promoted {}, but only {pawns_gone} of its pawns {} gone",
        if *promoted == 1 { "pawn" } else { "pawns" },
        if *pawns_gone == 1 { "is" } else { "are" }
    )]
    TooManyPromoted {
        color: &'static str,
        men: String,
        promoted: u32,
        pawns_gone: u32,
    },
}

/// A move text that cannot be read, or names no legal move.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MoveError {
    #[error("malformed move '{0}'")]
    Malformed(String),
    #[error("illegal move '{0}' in this position")]
    Illegal(String),
    #[error("ambiguous move '{text}': it could be {candidates}")]
    Ambiguous { text: String, candidates: String },
    /// A Hop Chess turn given without its trampoline square.
    #[error(
        "'{text}' is only half a Hop Chess turn: after the piece move, say where your \
         trampoline stands (it may stay where it is), like '{example}'"
    )]
    NeedsPlacement { text: String, example: String },
}

/// A Jumping King position text that describes no position of the game
/// (rulings J1-J9; the text is documented in docs/rules/jumpingking.md).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum JumpingKingError {
    #[error(
        "the board field '{0}' needs the men still to place in brackets after it, \
         like K7[RRBBNNPPPrrbbnnppp], or [] when none are left"
    )]
    MissingReserve(String),
    #[error("'{ch}' cannot be among the men to place: only R, B, N, P (r, b, n, p for Black)")]
    BadReserveLetter { ch: char },
    #[error("{color} has {count} {kind} to place; a side starts with {max}")]
    ReserveTooLarge {
        color: &'static str,
        kind: &'static str,
        count: u32,
        max: u32,
    },
    /// No queens (J2).
    #[error("a queen stands on {0}: this game has no queens")]
    Queen(String),
    /// Nine men a side (J2).
    #[error("{color} has {men} men besides the king on the board and to place; a side owns 9")]
    TooManyMen { color: &'static str, men: u32 },
    /// Three pawns a side (J2).
    #[error("{color} has {pawns} pawns on the board and to place; a side owns 3")]
    TooManyPawns { color: &'static str, pawns: u32 },
    /// Promotions (J9) beyond the missing pawns; bishops as J5 has them.
    #[error(
        "{color} has {promoted} rooks, bishops and knights beyond its two of each \
         (a second bishop on squares of one colour counts), \
         but only {pawns_gone} of its pawns are gone to promote"
    )]
    TooManyPromoted {
        color: &'static str,
        promoted: u32,
        pawns_gone: u32,
    },
    /// A man on its own weak square (J3).
    #[error(
        "a {color} man stands on {square}, {color}'s own weak square, which it may never enter"
    )]
    OwnWeakSquare { color: &'static str, square: String },
    /// A won game (J3) with the winner to move.
    #[error(
        "a {winner} man stands on {square}, {loser}'s weak square: {winner} has won, \
         so {loser} must be the side to move"
    )]
    WonWrongTurn {
        winner: &'static str,
        loser: &'static str,
        square: String,
    },
    #[error(
        "bad phase field '{0}': expected '-' (no king jumps), or J (White's king jumps) \
         and/or j (Black's king jumps), in the order Jj"
    )]
    BadPhase(String),
    /// A jumping king outside its area (J4).
    #[error(
        "{color}'s king jumps but stands on {square}, neither in its area (ranks {area}) \
         nor on its weak square"
    )]
    JumpingOutsideArea {
        color: &'static str,
        square: String,
        area: &'static str,
    },
    /// A jumping king with nothing to place (J6).
    #[error(
        "{0}'s king jumps but has no men left to place: a king that has placed all nine \
         ends its jumping phase"
    )]
    JumpingWithoutMen(&'static str),
}
