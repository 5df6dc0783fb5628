//! The players domain's queries ([`PlayerStore`], read by
//! `crate::players`) over the games, the accounts' `users` and
//! `player_users` and the ratings' `ratings` and `rating_history` tables:
//! a player's rating history, the leaderboard of a game, the player's
//! results per game and the player's games. One text of each statement
//! for SQLite and PostgreSQL; no table of its own. It lives with the
//! store (as `live.rs`) so that `Options` names it without importing the
//! players domain.
//!
//! A game is an account's when a seat's cookie hash is one of the
//! account's browsers (`player_users`). Only played games count (against
//! the engine or a friend: `origin = 'played'`), not analysis boards.

use super::{PgStore, SqliteStore, StoreError};
use async_trait::async_trait;
use sqlx::Row;

/// One point of a player's rating history: the rating after a rated game.
#[derive(Clone, Debug, PartialEq)]
pub struct PointRecord {
    pub variant: String,
    pub game_id: String,
    /// When the game ended (ms since the Unix epoch).
    pub at: i64,
    /// The rating after the game.
    pub after: StoredRating,
}

/// A Glicko-2 rating as stored (`crate::ratings::Rating`'s fields).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StoredRating {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

/// A player on a game's leaderboard.
#[derive(Clone, Debug, PartialEq)]
pub struct LeaderRecord {
    /// The name lower-cased.
    pub user_id: String,
    /// The name as typed at sign-up.
    pub name: String,
    pub rating: StoredRating,
    /// Rated games played in this game.
    pub games: i64,
}

/// How many of a player's ended games in one game ended with `result`
/// with the player on `side`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResultCount {
    pub variant: String,
    /// `white`, `black`, or `whiteblack` (both seats the player's).
    pub side: String,
    /// `1-0`, `0-1`, `1/2-1/2`, or None (ended without a result: aborted).
    pub result: Option<String>,
    pub count: i64,
}

/// A seat of a player's game.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct SeatRecord {
    /// Whether a browser holds it.
    pub seated: bool,
    /// The account whose browser holds it: (id, name).
    pub account: Option<(String, String)>,
}

/// One of a player's games, as the player page lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerGameRecord {
    pub id: String,
    pub variant: String,
    /// `engine` or `friend`.
    pub mode: String,
    /// `waiting`, `playing` or `ended`.
    pub status: String,
    pub result: Option<String>,
    pub reason: Option<String>,
    pub rated: bool,
    pub white: SeatRecord,
    pub black: SeatRecord,
    /// `white` or `black`: the engine's seat.
    pub engine_color: Option<String>,
    pub engine_level: Option<i64>,
    pub clock_initial_ms: Option<i64>,
    pub clock_increment_ms: Option<i64>,
    /// Single moves played.
    pub plies: usize,
    pub created_at: i64,
    pub updated_at: i64,
}

/// Which of a player's games to list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameStatus {
    All,
    /// Waiting for the second player or being played.
    Ongoing,
    /// Ended.
    Finished,
}

impl GameStatus {
    pub const ALL: [GameStatus; 3] = [GameStatus::All, GameStatus::Ongoing, GameStatus::Finished];

    pub fn as_str(self) -> &'static str {
        match self {
            GameStatus::All => "all",
            GameStatus::Ongoing => "ongoing",
            GameStatus::Finished => "finished",
        }
    }
}

/// The players' queries.
#[async_trait]
pub trait PlayerStore: Send + Sync + 'static {
    /// Every rating change of user `user`, oldest first.
    async fn history(&self, user: &str) -> Result<Vec<PointRecord>, StoreError>;

    /// The `limit` best ratings in game `variant` whose deviation is at
    /// most `max_deviation` (not provisional), best first (ties by name).
    async fn top(
        &self,
        variant: &str,
        max_deviation: f64,
        limit: i64,
    ) -> Result<Vec<LeaderRecord>, StoreError>;

    /// User `user`'s ended played games counted by game, side and result.
    async fn results(&self, user: &str) -> Result<Vec<ResultCount>, StoreError>;

    /// User `user`'s played games, the last changed first: in game
    /// `variant` only when given, of `status`, `limit` of them after the
    /// first `offset`.
    async fn games(
        &self,
        user: &str,
        variant: Option<&str>,
        status: GameStatus,
        limit: i64,
        offset: i64,
    ) -> Result<Vec<PlayerGameRecord>, StoreError>;
}

const HISTORY: &str = "SELECT variant, game_id, at, rating_after, deviation_after, \
    volatility_after FROM rating_history WHERE user_id = $1 ORDER BY at, game_id";
const TOP: &str = "SELECT r.user_id, u.name, r.rating, r.deviation, r.volatility, r.games \
    FROM ratings r JOIN users u ON u.id = r.user_id \
    WHERE r.variant = $1 AND r.deviation <= $2 \
    ORDER BY r.rating DESC, r.user_id LIMIT $3";
/// The games with each seat's account (none when the seat is no
/// account's browser).
const SEATED: &str = "FROM games g \
    LEFT JOIN player_users pw ON pw.player = g.white_seat \
    LEFT JOIN users uw ON uw.id = pw.user_id \
    LEFT JOIN player_users pb ON pb.player = g.black_seat \
    LEFT JOIN users ub ON ub.id = pb.user_id \
    WHERE g.origin = 'played' AND (pw.user_id = $1 OR pb.user_id = $1)";
const SIDE: &str = "(CASE WHEN pw.user_id = $1 THEN 'white' ELSE '' END) || \
    (CASE WHEN pb.user_id = $1 THEN 'black' ELSE '' END)";
const GAME_COLUMNS: &str = "g.id, g.variant, g.mode, g.status, g.result, g.reason, g.rated, \
    g.white_seat, g.black_seat, g.engine_color, g.engine_level, g.clock_initial_ms, \
    g.clock_increment_ms, g.moves, g.created_at, g.updated_at, \
    uw.id AS white_user, uw.name AS white_name, ub.id AS black_user, ub.name AS black_name";
const STATUS_FILTER: &str = "($3 = 'all' OR ($3 = 'ongoing' AND g.status <> 'ended') \
    OR ($3 = 'finished' AND g.status = 'ended'))";

/// The number of moves in a stored `moves` text (a JSON array).
fn plies(moves: &str) -> Result<usize, StoreError> {
    let list: Vec<serde::de::IgnoredAny> =
        serde_json::from_str(moves).map_err(|e| StoreError::Corrupt(e.to_string()))?;
    Ok(list.len())
}

/// The [`PlayerStore`] of a store type whose `pool()` is a sqlx pool.
macro_rules! player_queries {
    ($store:ty, $row:ty) => {
        #[async_trait]
        impl PlayerStore for $store {
            async fn history(&self, user: &str) -> Result<Vec<PointRecord>, StoreError> {
                let rows = sqlx::query(HISTORY)
                    .bind(user)
                    .fetch_all(self.pool())
                    .await?;
                rows.iter()
                    .map(|r: &$row| {
                        Ok(PointRecord {
                            variant: r.try_get("variant")?,
                            game_id: r.try_get("game_id")?,
                            at: r.try_get("at")?,
                            after: StoredRating {
                                rating: r.try_get("rating_after")?,
                                deviation: r.try_get("deviation_after")?,
                                volatility: r.try_get("volatility_after")?,
                            },
                        })
                    })
                    .collect()
            }

            async fn top(
                &self,
                variant: &str,
                max_deviation: f64,
                limit: i64,
            ) -> Result<Vec<LeaderRecord>, StoreError> {
                let rows = sqlx::query(TOP)
                    .bind(variant)
                    .bind(max_deviation)
                    .bind(limit)
                    .fetch_all(self.pool())
                    .await?;
                rows.iter()
                    .map(|r: &$row| {
                        Ok(LeaderRecord {
                            user_id: r.try_get("user_id")?,
                            name: r.try_get("name")?,
                            rating: StoredRating {
                                rating: r.try_get("rating")?,
                                deviation: r.try_get("deviation")?,
                                volatility: r.try_get("volatility")?,
                            },
                            games: r.try_get("games")?,
                        })
                    })
                    .collect()
            }

            async fn results(&self, user: &str) -> Result<Vec<ResultCount>, StoreError> {
                let sql = format!(
                    "SELECT g.variant, g.result, {SIDE} AS side, COUNT(*) AS n {SEATED} \
                     AND g.status = 'ended' GROUP BY g.variant, g.result, side \
                     ORDER BY g.variant"
                );
                let rows = sqlx::query(&sql).bind(user).fetch_all(self.pool()).await?;
                rows.iter()
                    .map(|r: &$row| {
                        Ok(ResultCount {
                            variant: r.try_get("variant")?,
                            side: r.try_get("side")?,
                            result: r.try_get("result")?,
                            count: r.try_get("n")?,
                        })
                    })
                    .collect()
            }

            async fn games(
                &self,
                user: &str,
                variant: Option<&str>,
                status: GameStatus,
                limit: i64,
                offset: i64,
            ) -> Result<Vec<PlayerGameRecord>, StoreError> {
                let sql = format!(
                    "SELECT {GAME_COLUMNS} {SEATED} AND ($2 = '' OR g.variant = $2) \
                     AND {STATUS_FILTER} ORDER BY g.updated_at DESC, g.id LIMIT $4 OFFSET $5"
                );
                let rows = sqlx::query(&sql)
                    .bind(user)
                    .bind(variant.unwrap_or(""))
                    .bind(status.as_str())
                    .bind(limit)
                    .bind(offset)
                    .fetch_all(self.pool())
                    .await?;
                rows.iter()
                    .map(|r: &$row| {
                        let seat = |color: &str| -> Result<SeatRecord, StoreError> {
                            let seat: Option<String> =
                                r.try_get(format!("{color}_seat").as_str())?;
                            let user: Option<String> =
                                r.try_get(format!("{color}_user").as_str())?;
                            let name: Option<String> =
                                r.try_get(format!("{color}_name").as_str())?;
                            Ok(SeatRecord {
                                seated: seat.is_some(),
                                account: user.zip(name),
                            })
                        };
                        let moves: String = r.try_get("moves")?;
                        Ok(PlayerGameRecord {
                            id: r.try_get("id")?,
                            variant: r.try_get("variant")?,
                            mode: r.try_get("mode")?,
                            status: r.try_get("status")?,
                            result: r.try_get("result")?,
                            reason: r.try_get("reason")?,
                            rated: r.try_get("rated")?,
                            white: seat("white")?,
                            black: seat("black")?,
                            engine_color: r.try_get("engine_color")?,
                            engine_level: r.try_get("engine_level")?,
                            clock_initial_ms: r.try_get("clock_initial_ms")?,
                            clock_increment_ms: r.try_get("clock_increment_ms")?,
                            plies: plies(&moves)?,
                            created_at: r.try_get("created_at")?,
                            updated_at: r.try_get("updated_at")?,
                        })
                    })
                    .collect()
            }
        }
    };
}

player_queries!(SqliteStore, sqlx::sqlite::SqliteRow);
player_queries!(PgStore, sqlx::postgres::PgRow);
