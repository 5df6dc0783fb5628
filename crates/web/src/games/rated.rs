//! What the games domain asks of the domain that rates games
//! (`crate::ratings`, which sits above it): whether a request may create
//! or join a rated game, and each seat's account and rating for the game's
//! view. The games domain owns this trait; the ratings domain implements
//! it and the app puts it in the games' state ([`super::GamesState`]),
//! so that the games never import the ratings.

use crate::error::ApiError;
use crate::store::GameRecord;
use async_trait::async_trait;
use axum::http::HeaderMap;
use serde::Serialize;

/// A seat of a rated game as the view shows it: the account and its
/// rating in this game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RatedSeat {
    /// The account's name.
    pub name: String,
    /// The rating (rounded): the current one while the game is played, the
    /// one before the game once it has ended.
    pub rating: i64,
    /// Whether the rating is provisional (shown with a `?`).
    pub provisional: bool,
    /// The rating's change by this game, once it has ended rated (`+12`,
    /// `-12`).
    pub diff: Option<i64>,
}

/// Both seats of a rated game (None: the seat is not an account's).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RatedSeats {
    pub white: Option<RatedSeat>,
    pub black: Option<RatedSeat>,
}

/// The rules of rated games (implemented by `crate::ratings`).
#[async_trait]
pub trait RatedGames: Send + Sync + 'static {
    /// Whether the request (its headers, its browser's cookie hash
    /// `player`) may create a rated game: an error says why not.
    async fn may_create(&self, headers: &HeaderMap, player: Option<&str>) -> Result<(), ApiError>;

    /// Whether the request may take the free seat of the rated game
    /// `game` (a casual game: always).
    async fn may_join(
        &self,
        headers: &HeaderMap,
        player: Option<&str>,
        game: &GameRecord,
    ) -> Result<(), ApiError>;

    /// Each seat's account and rating in the rated game `game` (a casual
    /// game: None).
    async fn seats(&self, game: &GameRecord) -> Result<Option<RatedSeats>, ApiError>;

    /// The account whose browser holds a seat (`seat`: its cookie hash),
    /// for the names of the games lists; None: no account's.
    async fn account_of_seat(&self, seat: &str) -> Result<Option<SeatAccount>, ApiError>;
}

/// An account as the games lists name a seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatAccount {
    /// The name lower-cased (its player page's).
    pub id: String,
    /// The name as typed at sign-up.
    pub name: String,
}
