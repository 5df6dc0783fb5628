//! The ratings' tables (`migrations/*/0005_ratings.sql`): the
//! [`RatingStore`] queries over each backend's pool, and the rating
//! update that the end-of-game hook runs in the transaction ending a game
//! ([`rate_in`]). The same portable statements for SQLite and PostgreSQL.
//!
//! Who holds a seat: a seat is a browser's cookie hash; `player_users`
//! (the accounts domain's table) says which account a browser belongs to.

use super::glicko::{self, Rating, Score};
use crate::store::{GameEnded, PgStore, SqliteStore, StoreError, StoreTx};
use async_trait::async_trait;
use sqlx::Row;

/// A user's rating in one game as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct PerfRecord {
    pub variant: String,
    pub rating: Rating,
    /// Rated games played.
    pub games: i64,
    /// When the last one ended (ms since the Unix epoch).
    pub last_game_at: i64,
}

/// One player's rating change by one rated game.
#[derive(Clone, Debug, PartialEq)]
pub struct HistoryRecord {
    pub game_id: String,
    pub user_id: String,
    pub variant: String,
    /// `white` or `black`.
    pub color: String,
    pub before: Rating,
    pub after: Rating,
    pub at: i64,
}

/// An account as the ratings show it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccountName {
    /// The name lower-cased.
    pub id: String,
    /// The name as typed at sign-up.
    pub name: String,
    pub created_at: i64,
}

/// Where the ratings are kept.
#[async_trait]
pub trait RatingStore: Send + Sync + 'static {
    /// The account the browser whose cookie hashes to `player` belongs to.
    async fn account_of(&self, player: &str) -> Result<Option<AccountName>, StoreError>;

    /// The account with id `id` (a lower-cased name).
    async fn account(&self, id: &str) -> Result<Option<AccountName>, StoreError>;

    /// Every rating of user `user`, by game name.
    async fn perfs(&self, user: &str) -> Result<Vec<PerfRecord>, StoreError>;

    /// The rating changes game `game` made (none for a casual game).
    async fn game_history(&self, game: &str) -> Result<Vec<HistoryRecord>, StoreError>;

    /// The last `limit` rating changes of user `user` in game `variant`,
    /// the newest first.
    async fn recent(
        &self,
        user: &str,
        variant: &str,
        limit: i64,
    ) -> Result<Vec<HistoryRecord>, StoreError>;
}

const ACCOUNT_OF: &str = "SELECT u.id, u.name, u.created_at FROM player_users p \
    JOIN users u ON u.id = p.user_id WHERE p.player = $1";
const ACCOUNT: &str = "SELECT id, name, created_at FROM users WHERE id = $1";
const PERFS: &str = "SELECT variant, rating, deviation, volatility, games, last_game_at \
    FROM ratings WHERE user_id = $1 ORDER BY variant";
const PERF: &str = "SELECT variant, rating, deviation, volatility, games, last_game_at \
    FROM ratings WHERE user_id = $1 AND variant = $2";
const HISTORY_COLUMNS: &str = "game_id, user_id, variant, color, rating_before, \
    deviation_before, volatility_before, rating_after, deviation_after, volatility_after, at";
const WRITE_PERF: &str = "INSERT INTO ratings \
    (user_id, variant, rating, deviation, volatility, games, last_game_at) \
    VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (user_id, variant) DO UPDATE SET \
    rating = excluded.rating, deviation = excluded.deviation, \
    volatility = excluded.volatility, games = excluded.games, \
    last_game_at = excluded.last_game_at";

/// The [`RatingStore`] of a store type whose `pool()` is a sqlx pool, and
/// the hook's update over one backend's connection (`$conn`); `$lock` is
/// what a rating's read adds to lock its row until the commit (nothing on
/// SQLite, whose writers are one at a time).
macro_rules! rating_queries {
    ($store:ty, $module:ident, $conn:ty, $row:ty, $lock:literal) => {
        mod $module {
            use super::*;

            pub(super) fn account_row(r: &$row) -> Result<AccountName, StoreError> {
                Ok(AccountName {
                    id: r.try_get("id")?,
                    name: r.try_get("name")?,
                    created_at: r.try_get("created_at")?,
                })
            }

            pub(super) fn perf_row(r: &$row) -> Result<PerfRecord, StoreError> {
                Ok(PerfRecord {
                    variant: r.try_get("variant")?,
                    rating: Rating {
                        rating: r.try_get("rating")?,
                        deviation: r.try_get("deviation")?,
                        volatility: r.try_get("volatility")?,
                    },
                    games: r.try_get("games")?,
                    last_game_at: r.try_get("last_game_at")?,
                })
            }

            pub(super) fn history_row(r: &$row) -> Result<HistoryRecord, StoreError> {
                let rating = |side: &str| -> Result<Rating, StoreError> {
                    Ok(Rating {
                        rating: r.try_get(format!("rating_{side}").as_str())?,
                        deviation: r.try_get(format!("deviation_{side}").as_str())?,
                        volatility: r.try_get(format!("volatility_{side}").as_str())?,
                    })
                };
                Ok(HistoryRecord {
                    game_id: r.try_get("game_id")?,
                    user_id: r.try_get("user_id")?,
                    variant: r.try_get("variant")?,
                    color: r.try_get("color")?,
                    before: rating("before")?,
                    after: rating("after")?,
                    at: r.try_get("at")?,
                })
            }

            /// The user a browser belongs to, in `conn`.
            async fn user_in(conn: &mut $conn, player: &str) -> Result<Option<String>, StoreError> {
                let id: Option<String> =
                    sqlx::query_scalar("SELECT user_id FROM player_users WHERE player = $1")
                        .bind(player)
                        .fetch_optional(&mut *conn)
                        .await?;
                Ok(id)
            }

            /// The rating of `user` in `variant`, its row locked until the
            /// commit.
            async fn perf_in(
                conn: &mut $conn,
                user: &str,
                variant: &str,
            ) -> Result<Option<PerfRecord>, StoreError> {
                let sql = format!("{PERF}{}", $lock);
                let row = sqlx::query(&sql)
                    .bind(user)
                    .bind(variant)
                    .fetch_optional(&mut *conn)
                    .await?;
                row.as_ref().map(perf_row).transpose()
            }

            async fn write_in(
                conn: &mut $conn,
                h: &HistoryRecord,
                games: i64,
            ) -> Result<(), StoreError> {
                sqlx::query(WRITE_PERF)
                    .bind(&h.user_id)
                    .bind(&h.variant)
                    .bind(h.after.rating)
                    .bind(h.after.deviation)
                    .bind(h.after.volatility)
                    .bind(games)
                    .bind(h.at)
                    .execute(&mut *conn)
                    .await?;
                let sql = format!(
                    "INSERT INTO rating_history ({HISTORY_COLUMNS}) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)"
                );
                sqlx::query(&sql)
                    .bind(&h.game_id)
                    .bind(&h.user_id)
                    .bind(&h.variant)
                    .bind(&h.color)
                    .bind(h.before.rating)
                    .bind(h.before.deviation)
                    .bind(h.before.volatility)
                    .bind(h.after.rating)
                    .bind(h.after.deviation)
                    .bind(h.after.volatility)
                    .bind(h.at)
                    .execute(&mut *conn)
                    .await?;
                Ok(())
            }

            /// Rates the ended game `ended` (score `score`, seats
            /// `white`/`black`) in `conn`: nothing unless both seats are
            /// two different accounts.
            pub(super) async fn rate(
                conn: &mut $conn,
                ended: &GameEnded,
                score: Score,
                white: &str,
                black: &str,
            ) -> Result<(), StoreError> {
                let (Some(w), Some(b)) = (user_in(conn, white).await?, user_in(conn, black).await?)
                else {
                    return Ok(());
                };
                if w == b {
                    return Ok(());
                }
                // Rows are locked in one order (by user id): two games
                // ending at once never wait for each other in a circle.
                let (first, second) = if w < b { (&w, &b) } else { (&b, &w) };
                let p1 = perf_in(conn, first, &ended.variant).await?;
                let p2 = perf_in(conn, second, &ended.variant).await?;
                let (pw, pb) = if w < b { (p1, p2) } else { (p2, p1) };
                let before = |p: &Option<PerfRecord>| {
                    p.as_ref().map_or(Rating::START, |p| {
                        p.rating.after_idle(ended.at.saturating_sub(p.last_game_at))
                    })
                };
                let (bw, bb) = (before(&pw), before(&pb));
                let (aw, ab) = glicko::rate(bw, bb, score);
                for (user, color, before, after, perf) in
                    [(&w, "white", bw, aw, &pw), (&b, "black", bb, ab, &pb)]
                {
                    let games = perf.as_ref().map_or(0, |p| p.games).saturating_add(1);
                    let h = HistoryRecord {
                        game_id: ended.id.clone(),
                        user_id: user.clone(),
                        variant: ended.variant.clone(),
                        color: color.into(),
                        before,
                        after,
                        at: ended.at,
                    };
                    write_in(conn, &h, games).await?;
                }
                Ok(())
            }
        }

        #[async_trait]
        impl RatingStore for $store {
            async fn account_of(&self, player: &str) -> Result<Option<AccountName>, StoreError> {
                let row = sqlx::query(ACCOUNT_OF)
                    .bind(player)
                    .fetch_optional(self.pool())
                    .await?;
                row.as_ref().map($module::account_row).transpose()
            }

            async fn account(&self, id: &str) -> Result<Option<AccountName>, StoreError> {
                let row = sqlx::query(ACCOUNT)
                    .bind(id)
                    .fetch_optional(self.pool())
                    .await?;
                row.as_ref().map($module::account_row).transpose()
            }

            async fn perfs(&self, user: &str) -> Result<Vec<PerfRecord>, StoreError> {
                let rows = sqlx::query(PERFS).bind(user).fetch_all(self.pool()).await?;
                rows.iter().map($module::perf_row).collect()
            }

            async fn game_history(&self, game: &str) -> Result<Vec<HistoryRecord>, StoreError> {
                let sql = format!(
                    "SELECT {HISTORY_COLUMNS} FROM rating_history WHERE game_id = $1 \
                     ORDER BY color DESC"
                );
                let rows = sqlx::query(&sql).bind(game).fetch_all(self.pool()).await?;
                rows.iter().map($module::history_row).collect()
            }

            async fn recent(
                &self,
                user: &str,
                variant: &str,
                limit: i64,
            ) -> Result<Vec<HistoryRecord>, StoreError> {
                let sql = format!(
                    "SELECT {HISTORY_COLUMNS} FROM rating_history \
                     WHERE user_id = $1 AND variant = $2 ORDER BY at DESC, game_id LIMIT $3"
                );
                let rows = sqlx::query(&sql)
                    .bind(user)
                    .bind(variant)
                    .bind(limit)
                    .fetch_all(self.pool())
                    .await?;
                rows.iter().map($module::history_row).collect()
            }
        }
    };
}

rating_queries!(
    SqliteStore,
    sqlite,
    sqlx::SqliteConnection,
    sqlx::sqlite::SqliteRow,
    ""
);
rating_queries!(
    PgStore,
    pg,
    sqlx::PgConnection,
    sqlx::postgres::PgRow,
    " FOR UPDATE"
);

/// Rates the game `ended` in the open transaction `tx` (the hook's work):
/// a rated game with a result whose seats are two different accounts
/// moves both ratings and writes both history rows; any other changes
/// nothing.
pub async fn rate_in(tx: &mut StoreTx<'_>, ended: &GameEnded) -> Result<(), StoreError> {
    if !ended.rated {
        return Ok(());
    }
    let Some(score) = Score::of_result(&ended.result) else {
        return Ok(());
    };
    let (Some(white), Some(black)) = (&ended.white_seat, &ended.black_seat) else {
        return Ok(());
    };
    match tx {
        StoreTx::Sqlite(conn) => sqlite::rate(conn, ended, score, white, black).await,
        StoreTx::Postgres(conn) => pg::rate(conn, ended, score, white, black).await,
    }
}
