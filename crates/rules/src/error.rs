//! Errors of the rules core. Each says what is wrong, with the bad text.

use thiserror::Error;

/// An unknown variant name.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown variant '{0}' (known: chess, hopchess, trampoline, jumpingking, hoplit)")]
pub struct VariantError(pub String);

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
    #[error("{0}")]
    Invalid(String),
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
}
