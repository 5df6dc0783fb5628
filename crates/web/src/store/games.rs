//! The games' records and queries: a [`GameStore`] trait, the statements
//! both backends run (`sqlite.rs` and `pg.rs` implement it with them).
//!
//! Every game is one row of the `games` table, written by compare-and-set
//! on its `version`: an update names the version it read and changes
//! nothing when the row has moved on (another process, or a request that
//! won a race). A store whose games other processes write too (PostgreSQL)
//! tells them of a change with the [`GameStore::changed`] hook and says it
//! is [`GameStore::shared`].

use super::corr::{Conditionals, Correspondence};
use super::kinds::{Kind, Mode, Origin, Status};
use super::{Ending, StoreError};
use async_trait::async_trait;
use serde::{Deserialize, Serialize};
use springboard_rules::Color;

/// One played move as stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveRecord {
    /// Long notation (RULINGS N1-N6).
    pub uci: String,
    pub san: String,
    /// The mover's clock after the move (increment added), in ms, when the
    /// game has a clock.
    pub ms: Option<i64>,
    /// The server's time of the move, in ms since the Unix epoch.
    pub at: i64,
}

/// One game as stored: everything needed to rebuild it after a restart.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    pub id: String,
    pub variant: String,
    pub start_fen: String,
    pub moves: Vec<MoveRecord>,
    pub mode: Mode,
    /// SHA-256 (hex) of the cookie holding each seat, if taken.
    pub white_seat: Option<String>,
    pub black_seat: Option<String>,
    /// The engine's side in an engine game.
    pub engine_color: Option<Color>,
    pub engine_level: Option<i64>,
    pub clock_initial_ms: Option<i64>,
    pub clock_increment_ms: Option<i64>,
    /// Remaining time of each side at the start of the running turn.
    pub white_ms: Option<i64>,
    pub black_ms: Option<i64>,
    /// When the running turn started (server clock, ms).
    pub turn_started_at: Option<i64>,
    pub status: Status,
    /// `1-0`, `0-1`, `1/2-1/2`, or the `Result` a game text stated.
    pub result: Option<String>,
    pub reason: Option<String>,
    /// The side that offers a draw, a takeback, a rematch.
    pub draw_offer: Option<Color>,
    pub takeback_offer: Option<Color>,
    pub rematch_offer: Option<Color>,
    pub rematch_id: Option<String>,
    /// A rated game: its end moves the players' ratings (`ratings/`).
    pub rated: bool,
    pub created_at: i64,
    pub updated_at: i64,
    /// +1 on every change.
    pub version: i64,
    /// Where the game comes from (a game played, a board, a loaded text).
    pub origin: Origin,
    /// A waiting friend game's invitation: the token its link carries,
    /// which joining needs. None once the seat is taken.
    pub invite: Option<String>,
    /// The tags of a loaded PGN the page shows and the export keeps
    /// (Event, Site, Date, Round, White, Black), in the text's order.
    pub tags: Vec<(String, String)>,
    /// A finished game loaded from a text: the SHA-256 (hex) of what was
    /// loaded, so that loading it again opens this game.
    pub import_key: Option<String>,
    /// A correspondence game's time control (its times are kept in the
    /// clock's fields, in ms); None for a live clock or none.
    pub correspondence: Option<Correspondence>,
    /// The players' conditional moves (correspondence games only).
    pub conditionals: Conditionals,
}

impl GameRecord {
    /// A game just made at `now`: no moves, no seat taken, no engine, no
    /// clock, no offer, `playing`, version 1, no invitation, no tags, of
    /// the origin its mode implies (`analysis` for a local game, else
    /// `played`). Callers set the rest with
    /// struct update syntax.
    pub fn new(id: String, variant: &str, start_fen: String, mode: Mode, now: i64) -> GameRecord {
        GameRecord {
            id,
            variant: variant.to_string(),
            start_fen,
            moves: Vec::new(),
            mode,
            white_seat: None,
            black_seat: None,
            engine_color: None,
            engine_level: None,
            clock_initial_ms: None,
            clock_increment_ms: None,
            white_ms: None,
            black_ms: None,
            turn_started_at: None,
            status: Status::Playing,
            result: None,
            reason: None,
            draw_offer: None,
            takeback_offer: None,
            rematch_offer: None,
            rematch_id: None,
            rated: false,
            created_at: now,
            updated_at: now,
            version: 1,
            origin: match mode {
                Mode::Local => Origin::Analysis,
                Mode::Engine | Mode::Friend => Origin::Played,
            },
            invite: None,
            tags: Vec::new(),
            import_key: None,
            correspondence: None,
            conditionals: Conditionals::default(),
        }
    }

    /// Whether the game is played by correspondence (days per move or a
    /// bank of days), whatever its state.
    pub fn is_correspondence(&self) -> bool {
        self.correspondence.is_some()
    }

    /// The name a loaded text gives the player of `c` (its `White` or
    /// `Black` tag).
    pub fn loaded_name(&self, c: Color) -> Option<&str> {
        self.tag(match c {
            Color::White => "White",
            Color::Black => "Black",
        })
    }

    /// The value of the loaded tag `name`, if the game has it.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Which games a list shows, newest change first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ListQuery {
    /// Played games being played or over (not a waiting invitation).
    Recent,
    /// Played games being played.
    Ongoing,
    /// The played games where the cookie with this hash holds a seat
    /// (its waiting invitations too).
    Mine(String),
    /// The boards and loaded texts where the cookie with this hash holds
    /// a seat.
    Analysis(String),
    /// The played games being played where the cookie with this hash
    /// holds a seat (the "your turn" list picks those it is to move in).
    Playing(String),
}

/// Where games are kept.
#[async_trait]
pub trait GameStore: Send + Sync + 'static {
    /// Stores a new game; [`StoreError::Duplicate`] if its id is taken.
    async fn insert(&self, game: &GameRecord) -> Result<(), StoreError>;

    /// The game `id`, if stored.
    async fn load(&self, id: &str) -> Result<Option<GameRecord>, StoreError>;

    /// Replaces the stored game by `game` if the stored version is still
    /// `expected` (compare-and-set); `Ok(false)` changes nothing. `game`
    /// carries the new version. `also`: games inserted in the same
    /// transaction (a rematch). `ending`: the change ends the game; its
    /// hooks run in the same transaction, before the commit, and an error
    /// of one rolls everything back.
    async fn update(
        &self,
        game: &GameRecord,
        expected: i64,
        also: &[GameRecord],
        ending: Option<Ending<'_>>,
    ) -> Result<bool, StoreError>;

    /// Up to `limit` games, the most recently changed first.
    async fn list(&self, query: &ListQuery, limit: i64) -> Result<Vec<GameRecord>, StoreError>;

    /// The ids of every game not ended (resumed at start-up).
    async fn unfinished(&self) -> Result<Vec<String>, StoreError>;

    /// The games loaded with this import key, the oldest first.
    async fn imported(&self, key: &str) -> Result<Vec<GameRecord>, StoreError>;

    /// Tells other server processes that game `id` is now at `version`
    /// (PostgreSQL: NOTIFY). A store with a single writer does nothing.
    async fn changed(&self, _id: &str, _version: i64) -> Result<(), StoreError> {
        Ok(())
    }

    /// Whether other server processes write the same games (PostgreSQL):
    /// a game in memory is then re-read when its stored version moved on.
    fn shared(&self) -> bool {
        false
    }

    /// Where the games are, for the start-up message.
    fn describe(&self) -> String;
}

pub(crate) const COLUMNS: &str = "id, variant, start_fen, moves, mode, white_seat, black_seat, \
    engine_color, engine_level, clock_initial_ms, clock_increment_ms, white_ms, black_ms, \
    turn_started_at, status, result, reason, draw_offer, takeback_offer, rematch_offer, \
    rematch_id, created_at, updated_at, version, origin, invite, tags, import_key, rated, \
    correspondence, conditionals";

pub(crate) const INSERT: &str =
    "INSERT INTO games (id, variant, start_fen, moves, mode, white_seat, \
    black_seat, engine_color, engine_level, clock_initial_ms, clock_increment_ms, white_ms, \
    black_ms, turn_started_at, status, result, reason, draw_offer, takeback_offer, \
    rematch_offer, rematch_id, created_at, updated_at, version, origin, invite, tags, \
    import_key, rated, correspondence, conditionals) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, \
    $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, \
    $27, $28, $29, $30, $31)";

pub(crate) const UPDATE: &str =
    "UPDATE games SET variant = $2, start_fen = $3, moves = $4, mode = $5, \
    white_seat = $6, black_seat = $7, engine_color = $8, engine_level = $9, \
    clock_initial_ms = $10, clock_increment_ms = $11, white_ms = $12, black_ms = $13, \
    turn_started_at = $14, status = $15, result = $16, reason = $17, draw_offer = $18, \
    takeback_offer = $19, rematch_offer = $20, rematch_id = $21, created_at = $22, \
    updated_at = $23, version = $24, origin = $25, invite = $26, tags = $27, \
    import_key = $28, rated = $29, correspondence = $30, conditionals = $31 \
    WHERE id = $1 AND version = $32";

/// Defines `bind_all` (every column of a game, in `COLUMNS` order, bound to
/// the `INSERT`/`UPDATE` text) and `from_row` (a stored row read back) for
/// one backend: the calling module's `Query<'q>` type and `$row`, its row
/// type. One definition serves SQLite (`sqlite.rs`) and PostgreSQL (`pg.rs`).
macro_rules! game_row_codec {
    ($row:ty) => {
        fn bind_all<'q>(
            q: Query<'q>,
            g: &'q GameRecord,
            moves: String,
            tags: Option<String>,
            conditionals: Option<String>,
        ) -> Query<'q> {
            q.bind(&g.id)
                .bind(&g.variant)
                .bind(&g.start_fen)
                .bind(moves)
                .bind(g.mode.as_str())
                .bind(&g.white_seat)
                .bind(&g.black_seat)
                .bind(g.engine_color.map($crate::store::kinds::Kind::text))
                .bind(g.engine_level)
                .bind(g.clock_initial_ms)
                .bind(g.clock_increment_ms)
                .bind(g.white_ms)
                .bind(g.black_ms)
                .bind(g.turn_started_at)
                .bind(g.status.as_str())
                .bind(&g.result)
                .bind(&g.reason)
                .bind(g.draw_offer.map($crate::store::kinds::Kind::text))
                .bind(g.takeback_offer.map($crate::store::kinds::Kind::text))
                .bind(g.rematch_offer.map($crate::store::kinds::Kind::text))
                .bind(&g.rematch_id)
                .bind(g.created_at)
                .bind(g.updated_at)
                .bind(g.version)
                .bind(g.origin.as_str())
                .bind(&g.invite)
                .bind(tags)
                .bind(&g.import_key)
                .bind(g.rated)
                .bind(g.correspondence.map(|c| c.text()))
                .bind(conditionals)
        }

        fn from_row(row: &$row) -> Result<GameRecord, StoreError> {
            let moves: String = row.try_get("moves")?;
            let id: String = row.try_get("id")?;
            use $crate::store::games::{read_kind, read_optional_kind};
            let moves = serde_json::from_str(&moves)
                .map_err(|e| StoreError::Corrupt(format!("the moves of game {id}: {e}")))?;
            let tags: Option<String> = row.try_get("tags")?;
            let tags = match tags {
                None => Vec::new(),
                Some(t) => serde_json::from_str(&t)
                    .map_err(|e| StoreError::Corrupt(format!("the tags of game {id}: {e}")))?,
            };
            let correspondence: Option<String> = row.try_get("correspondence")?;
            let correspondence = correspondence
                .map(|t| $crate::store::corr::Correspondence::from_text(&t))
                .transpose()
                .map_err(|e| StoreError::Corrupt(format!("game {id}, correspondence: {e}")))?;
            let conditionals: Option<String> = row.try_get("conditionals")?;
            let conditionals = match conditionals {
                None => $crate::store::corr::Conditionals::default(),
                Some(t) => serde_json::from_str(&t).map_err(|e| {
                    StoreError::Corrupt(format!("the conditional moves of game {id}: {e}"))
                })?,
            };
            Ok(GameRecord {
                variant: row.try_get("variant")?,
                start_fen: row.try_get("start_fen")?,
                moves,
                mode: read_kind(&id, "mode", &row.try_get::<String, _>("mode")?)?,
                white_seat: row.try_get("white_seat")?,
                black_seat: row.try_get("black_seat")?,
                engine_color: read_optional_kind(
                    &id,
                    "engine_color",
                    row.try_get("engine_color")?,
                )?,
                engine_level: row.try_get("engine_level")?,
                clock_initial_ms: row.try_get("clock_initial_ms")?,
                clock_increment_ms: row.try_get("clock_increment_ms")?,
                white_ms: row.try_get("white_ms")?,
                black_ms: row.try_get("black_ms")?,
                turn_started_at: row.try_get("turn_started_at")?,
                status: read_kind(&id, "status", &row.try_get::<String, _>("status")?)?,
                result: row.try_get("result")?,
                reason: row.try_get("reason")?,
                draw_offer: read_optional_kind(&id, "draw_offer", row.try_get("draw_offer")?)?,
                takeback_offer: read_optional_kind(
                    &id,
                    "takeback_offer",
                    row.try_get("takeback_offer")?,
                )?,
                rematch_offer: read_optional_kind(
                    &id,
                    "rematch_offer",
                    row.try_get("rematch_offer")?,
                )?,
                rematch_id: row.try_get("rematch_id")?,
                rated: row.try_get("rated")?,
                created_at: row.try_get("created_at")?,
                updated_at: row.try_get("updated_at")?,
                version: row.try_get("version")?,
                origin: read_kind(&id, "origin", &row.try_get::<String, _>("origin")?)?,
                invite: row.try_get("invite")?,
                tags,
                import_key: row.try_get("import_key")?,
                correspondence,
                conditionals,
                id,
            })
        }
    };
}
pub(crate) use game_row_codec;

/// The column `column` of game `id` read as one of its kinds (a mode, a
/// status, a colour): a text the server does not know is a damaged game,
/// not a default.
pub(crate) fn read_kind<T: Kind>(id: &str, column: &str, text: &str) -> Result<T, StoreError> {
    T::from_text(text).map_err(|e| StoreError::Corrupt(format!("game {id}, column {column}: {e}")))
}

/// [`read_kind`] of a column that may be null.
pub(crate) fn read_optional_kind<T: Kind>(
    id: &str,
    column: &str,
    text: Option<String>,
) -> Result<Option<T>, StoreError> {
    text.map(|t| read_kind(id, column, &t)).transpose()
}

/// Defines the statements both backends run alike, as free functions over
/// the calling module's pool type `$pool` and database `$db` (they need
/// `bind_all` and `from_row` from [`game_row_codec!`]): a game's insert,
/// load, compare-and-set update (inside the caller's transaction, which
/// commits it or, dropped, rolls it back) and the lists. Each store's [`GameStore`] methods call these and add only
/// what differs (PostgreSQL's notices).
macro_rules! game_queries {
    ($pool:ty, $db:ty) => {
        async fn insert_game(pool: &$pool, game: &GameRecord) -> Result<(), StoreError> {
            let moves = moves_json(game)?;
            match bind_all(sqlx::query(INSERT), game, moves, tags_json(game)?, conditionals_json(game)?)
                .execute(pool)
                .await
            {
                Ok(_) => Ok(()),
                Err(e) if is_unique_violation(&e) => Err(StoreError::Duplicate(game.id.clone())),
                Err(e) => Err(e.into()),
            }
        }

        async fn load_game(pool: &$pool, id: &str) -> Result<Option<GameRecord>, StoreError> {
            let sql = format!("SELECT {COLUMNS} FROM games WHERE id = $1");
            let row = sqlx::query(&sql).bind(id).fetch_optional(pool).await?;
            row.as_ref().map(from_row).transpose()
        }

        /// Writes `game` over the row at version `expected` and inserts
        /// `also`, in `tx`; false (and nothing written) when the row has
        /// moved on. The caller commits.
        async fn update_game(
            tx: &mut sqlx::Transaction<'_, $db>,
            game: &GameRecord,
            expected: i64,
            also: &[GameRecord],
        ) -> Result<bool, StoreError> {
            let moves = moves_json(game)?;
            // `WHERE version = expected`: under PostgreSQL's READ COMMITTED
            // a concurrent writer of the same row waits for ours, then
            // re-checks the condition on the new row and updates nothing.
            let done = bind_all(sqlx::query(UPDATE), game, moves, tags_json(game)?, conditionals_json(game)?)
                .bind(expected)
                .execute(&mut **tx)
                .await?;
            if done.rows_affected() != 1 {
                return Ok(false);
            }
            for other in also {
                let moves = moves_json(other)?;
                if let Err(e) = bind_all(sqlx::query(INSERT), other, moves, tags_json(other)?, conditionals_json(other)?)
                    .execute(&mut **tx)
                    .await
                {
                    return Err(if is_unique_violation(&e) {
                        StoreError::Duplicate(other.id.clone())
                    } else {
                        e.into()
                    });
                }
            }
            Ok(true)
        }

        async fn list_games(
            pool: &$pool,
            query: &ListQuery,
            limit: i64,
        ) -> Result<Vec<GameRecord>, StoreError> {
            let rows = match query {
                ListQuery::Recent => {
                    let sql = format!(
                        "SELECT {COLUMNS} FROM games WHERE origin = 'played' \
                         AND status <> 'waiting' ORDER BY updated_at DESC, id LIMIT $1"
                    );
                    sqlx::query(&sql).bind(limit).fetch_all(pool).await?
                }
                ListQuery::Ongoing => {
                    let sql = format!(
                        "SELECT {COLUMNS} FROM games WHERE origin = 'played' \
                         AND status = 'playing' ORDER BY updated_at DESC, id LIMIT $1"
                    );
                    sqlx::query(&sql).bind(limit).fetch_all(pool).await?
                }
                ListQuery::Mine(hash) | ListQuery::Analysis(hash) | ListQuery::Playing(hash) => {
                    let origin = match query {
                        ListQuery::Mine(_) => "origin = 'played'",
                        ListQuery::Playing(_) => "origin = 'played' AND status = 'playing'",
                        _ => "origin <> 'played'",
                    };
                    let sql = format!(
                        "SELECT {COLUMNS} FROM games WHERE (white_seat = $1 OR black_seat = $1) \
                         AND {origin} ORDER BY updated_at DESC, id LIMIT $2"
                    );
                    sqlx::query(&sql)
                        .bind(hash)
                        .bind(limit)
                        .fetch_all(pool)
                        .await?
                }
            };
            rows.iter().map(from_row).collect()
        }

        async fn imported_games(pool: &$pool, key: &str) -> Result<Vec<GameRecord>, StoreError> {
            let sql = format!(
                "SELECT {COLUMNS} FROM games WHERE import_key = $1 ORDER BY created_at, id LIMIT 20"
            );
            let rows = sqlx::query(&sql).bind(key).fetch_all(pool).await?;
            rows.iter().map(from_row).collect()
        }

        async fn unfinished_games(pool: &$pool) -> Result<Vec<String>, StoreError> {
            let rows = sqlx::query("SELECT id FROM games WHERE status <> 'ended' ORDER BY id")
                .fetch_all(pool)
                .await?;
            rows.iter()
                .map(|r| r.try_get::<String, _>("id").map_err(StoreError::from))
                .collect()
        }
    };
}
pub(crate) use game_queries;

pub(crate) fn moves_json(g: &GameRecord) -> Result<String, StoreError> {
    serde_json::to_string(&g.moves).map_err(|e| StoreError::Corrupt(e.to_string()))
}

/// The loaded tags as stored: a JSON array of `[name, value]` pairs, or
/// null when the game has none.
pub(crate) fn tags_json(g: &GameRecord) -> Result<Option<String>, StoreError> {
    if g.tags.is_empty() {
        return Ok(None);
    }
    serde_json::to_string(&g.tags)
        .map(Some)
        .map_err(|e| StoreError::Corrupt(e.to_string()))
}

/// The conditional moves as stored: JSON (`{"white": [[...]], "black":
/// [[...]]}`), or null when nobody has any.
pub(crate) fn conditionals_json(g: &GameRecord) -> Result<Option<String>, StoreError> {
    if g.conditionals.is_empty() {
        return Ok(None);
    }
    serde_json::to_string(&g.conditionals)
        .map(Some)
        .map_err(|e| StoreError::Corrupt(e.to_string()))
}
