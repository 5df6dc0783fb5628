//! The game domain's failures ([`GameError`]): what the functions of
//! `games/` refuse or fail at. The HTTP API answers them with a status and
//! `{"error": ...}` (`impl From<GameError> for ApiError`); the socket
//! answers them with an error message of its own (`live/ws.rs`), the same
//! text.

use crate::error::ApiError;
use crate::store::StoreError;

/// Why a game refused a request, or could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum GameError {
    /// No game has this id.
    #[error("no game with id '{0}'")]
    NotFound(String),
    /// The browser holds no seat of the game.
    #[error("not your seat")]
    NotYourSeat,
    /// A waiting friend game joined without its invitation's token.
    #[error("this game is private: only its invitation link lets you join")]
    NotInvited,
    /// Joining needs the player cookie.
    #[error("no player cookie")]
    NoCookie,
    /// A move text that is no move at all.
    #[error("{0}")]
    MalformedMove(String),
    /// A move the rules do not allow here (what the text lacks, or why).
    #[error("{0}")]
    IllegalMove(String),
    /// A move for a position the game has left; `version` is the game's, so
    /// the client can catch up.
    #[error("{reason}")]
    Stale { reason: String, version: i64 },
    #[error("not your turn")]
    NotYourTurn,
    #[error("waiting for an opponent to join")]
    Waiting,
    #[error("the game has no free seat")]
    NoFreeSeat,
    #[error("a game can be aborted only before both sides have moved")]
    NotAbortable,
    /// The game has ended: its result and reason.
    #[error("the game is over ({result}, {reason})")]
    Over { result: String, reason: String },
    #[error("the game is not over")]
    NotOver,
    #[error("the rematch has started")]
    RematchStarted,
    #[error("no draw offers in a local game")]
    LocalDraw,
    #[error("the engine declines the draw")]
    EngineDeclinesDraw,
    #[error("a local game takes back with undo")]
    LocalTakeback,
    #[error("no rematch in a local game")]
    LocalRematch,
    #[error("undo is for local games; ask for a takeback")]
    UndoNotLocal,
    /// The game has no move to take back (or not that many).
    #[error("there is no move to take back")]
    NothingToTakeBack,
    /// The asker has made no move to take back.
    #[error("you have no move to take back")]
    NoMoveOfYours,
    /// An answer (accept, decline) with no offer of the other side.
    #[error("there is no {0} to answer")]
    NoOffer(OfferKind),
    /// The game changed while the engine was thinking about it.
    #[error("the game changed while the engine was thinking")]
    EngineOutdated,
    /// Another writer changed the game first (a lost compare-and-set).
    #[error("the game changed meanwhile; reload it")]
    Raced,
    /// A position after `ply` moves asked of a game with fewer.
    #[error("ply {ply} is beyond the game's {plies} moves")]
    PlyBeyond { ply: usize, plies: usize },
    #[error("a side line has at most {0} moves")]
    LineTooLong(usize),
    /// A move of a side line refused: its place, its text and why.
    #[error("move {n} of the side line ('{text}'): {reason}")]
    LineMove {
        n: usize,
        text: String,
        reason: String,
    },
    /// The engine's line does not start with a legal move.
    #[error("the engine's line starts with an illegal move '{0}'")]
    EngineIllegalLine(String),
    #[error("the engine gave no line")]
    EngineNoLine,
    /// Conditional moves asked of a game that is not played by
    /// correspondence.
    #[error("conditional moves are for correspondence games")]
    NotCorrespondence,
    /// Conditional moves entered by the side to move.
    #[error("it is your move: conditional moves are entered while your opponent is to move")]
    ConditionalOnYourMove,
    /// A conditional line refused: which one and why.
    #[error("{0}")]
    BadConditional(String),
    /// A stored game the rules core cannot rebuild.
    #[error("game {id}: {what}")]
    Corrupt { id: String, what: String },
    /// The moves of a game in memory do not replay.
    #[error("the game does not replay: {0}")]
    Replay(String),
    /// The database is out of reach for now (`outage.rs`).
    #[error("{}", crate::outage::REASON)]
    Unavailable,
    /// The database failed otherwise.
    #[error("{0}")]
    Store(StoreError),
}

/// Which offer an answer is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OfferKind {
    Draw,
    Takeback,
    Rematch,
}

impl std::fmt::Display for OfferKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            OfferKind::Draw => "draw offer",
            OfferKind::Takeback => "takeback",
            OfferKind::Rematch => "rematch offer",
        })
    }
}

impl From<StoreError> for GameError {
    /// [`GameError::Unavailable`] when the database is out of reach (and
    /// a warning logged), else [`GameError::Store`].
    fn from(e: StoreError) -> GameError {
        if crate::outage::is_outage(&e) {
            tracing::warn!(error = %e, "the database is out of reach");
            GameError::Unavailable
        } else {
            GameError::Store(e)
        }
    }
}

/// What kind of failure a [`GameError`] is, whatever answers it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    /// No such game.
    Missing,
    /// Not the asker's game to play.
    NotYours,
    /// A request that names something invalid.
    Bad,
    /// A move for a position the game has left.
    Stale,
    /// Well formed and asked by a seat, but the game does not allow it now.
    Refused,
    /// A stored game or the database failed.
    Broken,
    /// The database is out of reach for now.
    Unavailable,
}

impl GameError {
    fn class(&self) -> Class {
        match self {
            GameError::NotFound(_) => Class::Missing,
            GameError::NotYourSeat | GameError::NotInvited => Class::NotYours,
            GameError::NoCookie
            | GameError::MalformedMove(_)
            | GameError::PlyBeyond { .. }
            | GameError::LineTooLong(_)
            | GameError::LineMove { .. }
            | GameError::BadConditional(_) => Class::Bad,
            GameError::Stale { .. } => Class::Stale,
            GameError::IllegalMove(_)
            | GameError::NotYourTurn
            | GameError::Waiting
            | GameError::NoFreeSeat
            | GameError::NotAbortable
            | GameError::Over { .. }
            | GameError::NotOver
            | GameError::RematchStarted
            | GameError::LocalDraw
            | GameError::EngineDeclinesDraw
            | GameError::LocalTakeback
            | GameError::LocalRematch
            | GameError::UndoNotLocal
            | GameError::NothingToTakeBack
            | GameError::NoMoveOfYours
            | GameError::NoOffer(_)
            | GameError::EngineOutdated
            | GameError::Raced
            | GameError::EngineIllegalLine(_)
            | GameError::EngineNoLine
            | GameError::NotCorrespondence
            | GameError::ConditionalOnYourMove => Class::Refused,
            GameError::Corrupt { .. } | GameError::Replay(_) | GameError::Store(_) => Class::Broken,
            GameError::Unavailable => Class::Unavailable,
        }
    }

    /// Whether the game's state refuses the request (the HTTP conflict):
    /// the request was well formed and asked by a seat, but not now.
    pub fn is_refusal(&self) -> bool {
        self.class() == Class::Refused
    }
}

impl From<GameError> for ApiError {
    fn from(e: GameError) -> ApiError {
        let reason = e.to_string();
        match (e.class(), e) {
            (_, GameError::Stale { reason, version }) => ApiError::Stale { reason, version },
            (Class::Missing, _) => ApiError::NotFound(reason),
            (Class::NotYours, _) => ApiError::Forbidden(reason),
            (Class::Bad, _) => ApiError::BadRequest(reason),
            (Class::Stale | Class::Refused, _) => ApiError::Conflict(reason),
            (Class::Broken, _) => ApiError::Internal(reason),
            (Class::Unavailable, _) => ApiError::Unavailable(reason),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::StatusCode;

    fn answer(e: GameError) -> (StatusCode, serde_json::Value) {
        let a = ApiError::from(e);
        (a.status(), a.body())
    }

    /// Each failure keeps the status and text the API answered before it
    /// had a type of its own.
    #[test]
    fn game_errors_answer_with_their_status_and_text() {
        use serde_json::json;
        assert_eq!(
            answer(GameError::NotFound("abc".into())),
            (
                StatusCode::NOT_FOUND,
                json!({"error": "no game with id 'abc'"})
            )
        );
        assert_eq!(
            answer(GameError::NotYourSeat),
            (StatusCode::FORBIDDEN, json!({"error": "not your seat"}))
        );
        assert_eq!(
            answer(GameError::MalformedMove("bad".into())).0,
            StatusCode::BAD_REQUEST
        );
        assert_eq!(
            answer(GameError::Stale {
                reason: "move 0 was already played; the game is at move 2".into(),
                version: 3
            }),
            (
                StatusCode::CONFLICT,
                json!({"error": "move 0 was already played; the game is at move 2", "version": 3})
            )
        );
        assert_eq!(
            answer(GameError::Over {
                result: "1-0".into(),
                reason: "resignation".into()
            }),
            (
                StatusCode::CONFLICT,
                json!({"error": "the game is over (1-0, resignation)"})
            )
        );
        for (kind, text) in [
            (OfferKind::Draw, "there is no draw offer to answer"),
            (OfferKind::Takeback, "there is no takeback to answer"),
            (OfferKind::Rematch, "there is no rematch offer to answer"),
        ] {
            assert_eq!(
                answer(GameError::NoOffer(kind)),
                (StatusCode::CONFLICT, json!({ "error": text }))
            );
        }
        assert_eq!(
            answer(GameError::LineMove {
                n: 2,
                text: "e9".into(),
                reason: "the game is over there (checkmate)".into()
            }),
            (
                StatusCode::BAD_REQUEST,
                json!({"error": "move 2 of the side line ('e9'): the game is over there (checkmate)"})
            )
        );
        assert_eq!(
            answer(GameError::from(StoreError::Db(sqlx::Error::PoolTimedOut))),
            (
                StatusCode::SERVICE_UNAVAILABLE,
                json!({ "error": crate::outage::REASON })
            )
        );
        assert_eq!(
            answer(GameError::from(StoreError::Corrupt("x".into()))),
            (
                StatusCode::INTERNAL_SERVER_ERROR,
                json!({"error": "a stored game is damaged: x"})
            )
        );
        assert!(GameError::Raced.is_refusal());
        assert!(!GameError::NotYourSeat.is_refusal());
    }
}
