//! The notifications' tables (`migrations/*/0008_notify.sql`, the
//! outbox of `0012_outbox_start_fen.sql`): the
//! [`NotifyStore`] queries over each backend's pool (the same portable
//! statements for SQLite and PostgreSQL), the end-of-game writes in the
//! ending transaction and the one storing a personal challenge
//! (`insert_in`, `user_of_seat_in`, `game_in`, `email_in`, `outbox_in`), and the
//! notices between server processes (PostgreSQL's NOTIFY on [`CHANNEL`]).

use crate::store::{PgStore, SqliteStore, StoreError, StoreTx};
use async_trait::async_trait;
use sqlx::postgres::PgListener;
use sqlx::Row;
use std::time::Duration;
use tokio::sync::mpsc;

/// The NOTIFY channel of new notifications (payload: the account's id,
/// a space, the notification's id).
pub const CHANNEL: &str = "springboard_notify";

/// A notification as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotificationRecord {
    pub id: String,
    pub user_id: String,
    /// `your_turn`, `challenge` or `game_ended`.
    pub kind: String,
    /// The game or challenge it is about.
    pub subject: String,
    /// A your_turn's moves played.
    pub ply: Option<i64>,
    /// A JSON object: what the page shows.
    pub body: String,
    pub read: bool,
    pub created_at: i64,
}

/// An account's email address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EmailRecord {
    pub user_id: String,
    pub address: String,
    pub confirmed: bool,
    /// The kinds sent by email.
    pub kinds: Vec<String>,
}

/// A link's token as stored (by its hash).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenRecord {
    pub hash: String,
    pub user_id: String,
    /// `confirm` or `unsubscribe`.
    pub purpose: String,
    pub address: String,
    pub kind: Option<String>,
    pub expires_at: i64,
}

/// An email waiting in the outbox (`0012_outbox_start_fen.sql`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutboxRecord {
    pub id: String,
    /// The account it is for.
    pub user_id: String,
    pub address: String,
    pub subject: String,
    pub body: String,
    pub created_at: i64,
    /// The rounds of tries that failed.
    pub attempts: i64,
}

/// Where the notifications are kept.
#[async_trait]
pub trait NotifyStore: Send + Sync + 'static {
    async fn insert_notification(&self, n: &NotificationRecord) -> Result<(), StoreError>;

    /// A "your turn" of game `n.subject` at `n.ply`: none if the account
    /// already has one of that game at that ply; otherwise the unread ones
    /// of the game are replaced by `n`. Whether `n` was written. `mail`
    /// (its email and the email's unsubscribe token) is written with it,
    /// in the same transaction.
    async fn replace_your_turn(
        &self,
        n: &NotificationRecord,
        mail: Option<(&OutboxRecord, &TokenRecord)>,
    ) -> Result<bool, StoreError>;

    async fn notification(&self, id: &str) -> Result<Option<NotificationRecord>, StoreError>;

    /// The notifications of game `game` of kind `kind`.
    async fn notifications_of(
        &self,
        kind: &str,
        subject: &str,
    ) -> Result<Vec<NotificationRecord>, StoreError>;

    /// An account's latest `limit` notifications, the newest first.
    async fn list(&self, user: &str, limit: i64) -> Result<Vec<NotificationRecord>, StoreError>;

    async fn unread(&self, user: &str) -> Result<i64, StoreError>;

    /// Marks notification `id` of account `user` read: whether it was
    /// that account's.
    async fn mark_read(&self, user: &str, id: &str) -> Result<bool, StoreError>;

    /// Marks every notification of `user` read; how many were unread.
    async fn mark_all_read(&self, user: &str) -> Result<u64, StoreError>;

    /// Deletes the notifications made before `before` and the tokens
    /// expired before it; how many notifications.
    async fn prune(&self, before: i64) -> Result<u64, StoreError>;

    /// The account a seat (a browser's cookie hash) belongs to.
    async fn user_of_seat(&self, seat: &str) -> Result<Option<String>, StoreError>;

    /// The name (as typed) of account `user`.
    async fn user_name(&self, user: &str) -> Result<Option<String>, StoreError>;

    async fn email(&self, user: &str) -> Result<Option<EmailRecord>, StoreError>;

    /// Sets (or replaces) an account's address, unconfirmed.
    async fn set_email(&self, e: &EmailRecord, now: i64) -> Result<(), StoreError>;

    /// Confirms `address` of `user` if it is still the account's: whether
    /// it was.
    async fn confirm_email(&self, user: &str, address: &str) -> Result<bool, StoreError>;

    async fn set_kinds(&self, user: &str, kinds: &[String], now: i64) -> Result<(), StoreError>;

    async fn remove_email(&self, user: &str) -> Result<(), StoreError>;

    async fn insert_token(&self, t: &TokenRecord) -> Result<(), StoreError>;

    /// Deletes the token with hash `hash` for `purpose` and answers it:
    /// a token is used once.
    async fn take_token(
        &self,
        hash: &str,
        purpose: &str,
    ) -> Result<Option<TokenRecord>, StoreError>;

    /// Puts `m` in the outbox, with the token of its link if it has one
    /// (one transaction).
    async fn outbox_add(
        &self,
        m: &OutboxRecord,
        token: Option<&TokenRecord>,
    ) -> Result<(), StoreError>;

    /// Takes email `id` to send it, at `now`: None if it is gone or
    /// another process took it after `stale` (ms).
    async fn outbox_claim(
        &self,
        id: &str,
        now: i64,
        stale: i64,
    ) -> Result<Option<OutboxRecord>, StoreError>;

    /// The emails waiting (not taken, or taken before `stale`), the
    /// oldest first, at most `limit`.
    async fn outbox_waiting(&self, stale: i64, limit: i64) -> Result<Vec<String>, StoreError>;

    /// Email `id` was sent (or given up): deleted.
    async fn outbox_done(&self, id: &str) -> Result<(), StoreError>;

    /// Email `id` was not sent this time: it waits again, one more failed
    /// round counted.
    async fn outbox_release(&self, id: &str) -> Result<(), StoreError>;

    /// Every taken email waits again (a process that is alone on its
    /// database starting: the one that took them is gone).
    async fn outbox_release_all(&self) -> Result<(), StoreError>;

    /// Tells every process of a new notification; a store with one
    /// process does nothing.
    async fn notify(&self, _payload: &str) -> Result<(), StoreError> {
        Ok(())
    }

    /// The notices of every process (this one's too); None for a store
    /// with one process.
    async fn listen(&self) -> Result<Option<mpsc::UnboundedReceiver<String>>, StoreError> {
        Ok(None)
    }
}

const COLUMNS: &str = "id, user_id, kind, subject, ply, body, is_read, created_at";

const INSERT_TOKEN: &str = "INSERT INTO notify_tokens \
     (hash, user_id, purpose, address, kind, expires_at) VALUES ($1, $2, $3, $4, $5, $6)";

const INSERT_OUTBOX: &str = "INSERT INTO notify_outbox \
     (id, user_id, address, subject, body, created_at, attempts, claimed_at) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, NULL)";

/// The [`NotifyStore`] of a store type whose `pool()` is a sqlx pool and
/// whose rows are `$row`; one text for both backends, and `$extra` (the
/// backend's own methods).
macro_rules! notify_store {
    ($store:ty, $row:ty, $variant:ident, { $($extra:tt)* }) => {
        fn record(row: &$row) -> Result<NotificationRecord, sqlx::Error> {
            Ok(NotificationRecord {
                id: row.try_get("id")?,
                user_id: row.try_get("user_id")?,
                kind: row.try_get("kind")?,
                subject: row.try_get("subject")?,
                ply: row.try_get("ply")?,
                body: row.try_get("body")?,
                read: row.try_get("is_read")?,
                created_at: row.try_get("created_at")?,
            })
        }

        fn token(row: &$row) -> Result<TokenRecord, sqlx::Error> {
            Ok(TokenRecord {
                hash: row.try_get("hash")?,
                user_id: row.try_get("user_id")?,
                purpose: row.try_get("purpose")?,
                address: row.try_get("address")?,
                kind: row.try_get("kind")?,
                expires_at: row.try_get("expires_at")?,
            })
        }

        #[async_trait]
        impl NotifyStore for $store {
            async fn insert_notification(&self, n: &NotificationRecord) -> Result<(), StoreError> {
                sqlx::query(&format!(
                    "INSERT INTO notifications ({COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
                ))
                .bind(&n.id)
                .bind(&n.user_id)
                .bind(&n.kind)
                .bind(&n.subject)
                .bind(n.ply)
                .bind(&n.body)
                .bind(n.read)
                .bind(n.created_at)
                .execute(self.pool())
                .await?;
                Ok(())
            }

            async fn replace_your_turn(
                &self,
                n: &NotificationRecord,
                mail: Option<(&OutboxRecord, &TokenRecord)>,
            ) -> Result<bool, StoreError> {
                let mut tx = self.pool().begin().await?;
                let seen: i64 = sqlx::query_scalar(
                    "SELECT COUNT(*) FROM notifications WHERE user_id = $1 AND kind = $2 \
                     AND subject = $3 AND ply = $4",
                )
                .bind(&n.user_id)
                .bind(&n.kind)
                .bind(&n.subject)
                .bind(n.ply)
                .fetch_one(&mut *tx)
                .await?;
                if seen > 0 {
                    return Ok(false);
                }
                sqlx::query(
                    "DELETE FROM notifications WHERE user_id = $1 AND kind = $2 \
                     AND subject = $3 AND NOT is_read",
                )
                .bind(&n.user_id)
                .bind(&n.kind)
                .bind(&n.subject)
                .execute(&mut *tx)
                .await?;
                sqlx::query(&format!(
                    "INSERT INTO notifications ({COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
                ))
                .bind(&n.id)
                .bind(&n.user_id)
                .bind(&n.kind)
                .bind(&n.subject)
                .bind(n.ply)
                .bind(&n.body)
                .bind(n.read)
                .bind(n.created_at)
                .execute(&mut *tx)
                .await?;
                if let Some((m, t)) = mail {
                    sqlx::query(INSERT_TOKEN)
                        .bind(&t.hash)
                        .bind(&t.user_id)
                        .bind(&t.purpose)
                        .bind(&t.address)
                        .bind(&t.kind)
                        .bind(t.expires_at)
                        .execute(&mut *tx)
                        .await?;
                    sqlx::query(INSERT_OUTBOX)
                        .bind(&m.id)
                        .bind(&m.user_id)
                        .bind(&m.address)
                        .bind(&m.subject)
                        .bind(&m.body)
                        .bind(m.created_at)
                        .bind(m.attempts)
                        .execute(&mut *tx)
                        .await?;
                }
                tx.commit().await?;
                Ok(true)
            }

            async fn outbox_add(
                &self,
                m: &OutboxRecord,
                token: Option<&TokenRecord>,
            ) -> Result<(), StoreError> {
                let mut tx = self.pool().begin().await?;
                outbox_in(&mut StoreTx::$variant(&mut *tx), m, token).await?;
                tx.commit().await?;
                Ok(())
            }

            async fn outbox_claim(
                &self,
                id: &str,
                now: i64,
                stale: i64,
            ) -> Result<Option<OutboxRecord>, StoreError> {
                let row = sqlx::query(
                    "UPDATE notify_outbox SET claimed_at = $2 WHERE id = $1 \
                     AND (claimed_at IS NULL OR claimed_at < $3) \
                     RETURNING id, user_id, address, subject, body, created_at, attempts",
                )
                .bind(id)
                .bind(now)
                .bind(stale)
                .fetch_optional(self.pool())
                .await?;
                let Some(row) = row else { return Ok(None) };
                Ok(Some(OutboxRecord {
                    id: row.try_get("id")?,
                    user_id: row.try_get("user_id")?,
                    address: row.try_get("address")?,
                    subject: row.try_get("subject")?,
                    body: row.try_get("body")?,
                    created_at: row.try_get("created_at")?,
                    attempts: row.try_get("attempts")?,
                }))
            }

            async fn outbox_waiting(&self, stale: i64, limit: i64) -> Result<Vec<String>, StoreError> {
                Ok(sqlx::query_scalar(
                    "SELECT id FROM notify_outbox WHERE claimed_at IS NULL OR claimed_at < $1 \
                     ORDER BY created_at, id LIMIT $2",
                )
                .bind(stale)
                .bind(limit)
                .fetch_all(self.pool())
                .await?)
            }

            async fn outbox_done(&self, id: &str) -> Result<(), StoreError> {
                sqlx::query("DELETE FROM notify_outbox WHERE id = $1")
                    .bind(id)
                    .execute(self.pool())
                    .await?;
                Ok(())
            }

            async fn outbox_release(&self, id: &str) -> Result<(), StoreError> {
                sqlx::query(
                    "UPDATE notify_outbox SET claimed_at = NULL, attempts = attempts + 1 WHERE id = $1",
                )
                .bind(id)
                .execute(self.pool())
                .await?;
                Ok(())
            }

            async fn outbox_release_all(&self) -> Result<(), StoreError> {
                sqlx::query("UPDATE notify_outbox SET claimed_at = NULL WHERE claimed_at IS NOT NULL")
                    .execute(self.pool())
                    .await?;
                Ok(())
            }

            async fn notification(&self, id: &str) -> Result<Option<NotificationRecord>, StoreError> {
                let row = sqlx::query(&format!("SELECT {COLUMNS} FROM notifications WHERE id = $1"))
                    .bind(id)
                    .fetch_optional(self.pool())
                    .await?;
                Ok(row.as_ref().map(record).transpose()?)
            }

            async fn notifications_of(
                &self,
                kind: &str,
                subject: &str,
            ) -> Result<Vec<NotificationRecord>, StoreError> {
                let rows = sqlx::query(&format!(
                    "SELECT {COLUMNS} FROM notifications WHERE kind = $1 AND subject = $2 \
                     ORDER BY created_at, id"
                ))
                .bind(kind)
                .bind(subject)
                .fetch_all(self.pool())
                .await?;
                Ok(rows.iter().map(record).collect::<Result<_, _>>()?)
            }

            async fn list(&self, user: &str, limit: i64) -> Result<Vec<NotificationRecord>, StoreError> {
                let rows = sqlx::query(&format!(
                    "SELECT {COLUMNS} FROM notifications WHERE user_id = $1 \
                     ORDER BY created_at DESC, id DESC LIMIT $2"
                ))
                .bind(user)
                .bind(limit)
                .fetch_all(self.pool())
                .await?;
                Ok(rows.iter().map(record).collect::<Result<_, _>>()?)
            }

            async fn unread(&self, user: &str) -> Result<i64, StoreError> {
                Ok(sqlx::query_scalar(
                    "SELECT COUNT(*) FROM notifications WHERE user_id = $1 AND NOT is_read",
                )
                .bind(user)
                .fetch_one(self.pool())
                .await?)
            }

            async fn mark_read(&self, user: &str, id: &str) -> Result<bool, StoreError> {
                Ok(sqlx::query(
                    "UPDATE notifications SET is_read = TRUE WHERE id = $1 AND user_id = $2",
                )
                .bind(id)
                .bind(user)
                .execute(self.pool())
                .await?
                .rows_affected()
                    > 0)
            }

            async fn mark_all_read(&self, user: &str) -> Result<u64, StoreError> {
                Ok(sqlx::query(
                    "UPDATE notifications SET is_read = TRUE WHERE user_id = $1 AND NOT is_read",
                )
                .bind(user)
                .execute(self.pool())
                .await?
                .rows_affected())
            }

            async fn prune(&self, before: i64) -> Result<u64, StoreError> {
                sqlx::query("DELETE FROM notify_tokens WHERE expires_at < $1")
                    .bind(before)
                    .execute(self.pool())
                    .await?;
                Ok(sqlx::query("DELETE FROM notifications WHERE created_at < $1")
                    .bind(before)
                    .execute(self.pool())
                    .await?
                    .rows_affected())
            }

            async fn user_of_seat(&self, seat: &str) -> Result<Option<String>, StoreError> {
                Ok(sqlx::query_scalar("SELECT user_id FROM player_users WHERE player = $1")
                    .bind(seat)
                    .fetch_optional(self.pool())
                    .await?)
            }

            async fn user_name(&self, user: &str) -> Result<Option<String>, StoreError> {
                Ok(sqlx::query_scalar("SELECT name FROM users WHERE id = $1")
                    .bind(user)
                    .fetch_optional(self.pool())
                    .await?)
            }

            async fn email(&self, user: &str) -> Result<Option<EmailRecord>, StoreError> {
                let row = sqlx::query(
                    "SELECT user_id, address, confirmed, kinds FROM notify_emails WHERE user_id = $1",
                )
                .bind(user)
                .fetch_optional(self.pool())
                .await?;
                let Some(row) = row else { return Ok(None) };
                let kinds: String = row.try_get("kinds")?;
                Ok(Some(EmailRecord {
                    user_id: row.try_get("user_id")?,
                    address: row.try_get("address")?,
                    confirmed: row.try_get("confirmed")?,
                    kinds: kinds
                        .split(',')
                        .filter(|k| !k.is_empty())
                        .map(str::to_string)
                        .collect(),
                }))
            }

            async fn set_email(&self, e: &EmailRecord, now: i64) -> Result<(), StoreError> {
                let mut tx = self.pool().begin().await?;
                sqlx::query("DELETE FROM notify_emails WHERE user_id = $1")
                    .bind(&e.user_id)
                    .execute(&mut *tx)
                    .await?;
                sqlx::query(
                    "INSERT INTO notify_emails (user_id, address, confirmed, kinds, updated_at) \
                     VALUES ($1, $2, $3, $4, $5)",
                )
                .bind(&e.user_id)
                .bind(&e.address)
                .bind(e.confirmed)
                .bind(e.kinds.join(","))
                .bind(now)
                .execute(&mut *tx)
                .await?;
                tx.commit().await?;
                Ok(())
            }

            async fn confirm_email(&self, user: &str, address: &str) -> Result<bool, StoreError> {
                Ok(sqlx::query(
                    "UPDATE notify_emails SET confirmed = TRUE WHERE user_id = $1 AND address = $2",
                )
                .bind(user)
                .bind(address)
                .execute(self.pool())
                .await?
                .rows_affected()
                    > 0)
            }

            async fn set_kinds(&self, user: &str, kinds: &[String], now: i64) -> Result<(), StoreError> {
                sqlx::query("UPDATE notify_emails SET kinds = $2, updated_at = $3 WHERE user_id = $1")
                    .bind(user)
                    .bind(kinds.join(","))
                    .bind(now)
                    .execute(self.pool())
                    .await?;
                Ok(())
            }

            async fn remove_email(&self, user: &str) -> Result<(), StoreError> {
                sqlx::query("DELETE FROM notify_emails WHERE user_id = $1")
                    .bind(user)
                    .execute(self.pool())
                    .await?;
                Ok(())
            }

            async fn insert_token(&self, t: &TokenRecord) -> Result<(), StoreError> {
                sqlx::query(INSERT_TOKEN)
                .bind(&t.hash)
                .bind(&t.user_id)
                .bind(&t.purpose)
                .bind(&t.address)
                .bind(&t.kind)
                .bind(t.expires_at)
                .execute(self.pool())
                .await?;
                Ok(())
            }

            async fn take_token(
                &self,
                hash: &str,
                purpose: &str,
            ) -> Result<Option<TokenRecord>, StoreError> {
                let row = sqlx::query(
                    "DELETE FROM notify_tokens WHERE hash = $1 AND purpose = $2 \
                     RETURNING hash, user_id, purpose, address, kind, expires_at",
                )
                .bind(hash)
                .bind(purpose)
                .fetch_optional(self.pool())
                .await?;
                Ok(row.as_ref().map(token).transpose()?)
            }

            $($extra)*
        }
    };
}

mod sqlite {
    use super::*;
    use sqlx::sqlite::SqliteRow;
    notify_store!(SqliteStore, SqliteRow, Sqlite, {});
}

mod pg {
    use super::*;
    use sqlx::postgres::PgRow;
    notify_store!(PgStore, PgRow, Postgres, {
        async fn notify(&self, payload: &str) -> Result<(), StoreError> {
            sqlx::query("SELECT pg_notify($1, $2)")
                .bind(CHANNEL)
                .bind(payload)
                .execute(self.pool())
                .await?;
            Ok(())
        }

        async fn listen(&self) -> Result<Option<mpsc::UnboundedReceiver<String>>, StoreError> {
            let mut listener = PgListener::connect_with(self.pool()).await?;
            listener.listen(CHANNEL).await?;
            let (tx, rx) = mpsc::unbounded_channel();
            tokio::spawn(async move {
                loop {
                    let notice = match listener.try_recv().await {
                        Ok(Some(n)) => n.payload().to_string(),
                        // A reconnection: notices may be lost; the page's
                        // count is fixed at its next one.
                        Ok(None) => continue,
                        Err(e) => {
                            tracing::warn!(error = %e, "listening for notifications failed; retrying");
                            tokio::time::sleep(Duration::from_secs(1)).await;
                            continue;
                        }
                    };
                    if tx.send(notice).is_err() {
                        break;
                    }
                }
            });
            Ok(Some(rx))
        }
    });
}

/// The account seat `seat` belongs to, asked in the open transaction `tx`.
pub(crate) async fn user_of_seat_in(
    tx: &mut StoreTx<'_>,
    seat: &str,
) -> Result<Option<String>, StoreError> {
    let q = "SELECT user_id FROM player_users WHERE player = $1";
    Ok(match tx {
        StoreTx::Sqlite(c) => {
            sqlx::query_scalar(q)
                .bind(seat)
                .fetch_optional(&mut **c)
                .await?
        }
        StoreTx::Postgres(c) => {
            sqlx::query_scalar(q)
                .bind(seat)
                .fetch_optional(&mut **c)
                .await?
        }
    })
}

/// The game `id`'s start position and moves (long notation) as written in
/// the open transaction `tx`.
pub(crate) async fn game_in(
    tx: &mut StoreTx<'_>,
    id: &str,
) -> Result<Option<(String, String)>, StoreError> {
    let q = "SELECT start_fen, moves FROM games WHERE id = $1";
    Ok(match tx {
        StoreTx::Sqlite(c) => sqlx::query_as(q).bind(id).fetch_optional(&mut **c).await?,
        StoreTx::Postgres(c) => sqlx::query_as(q).bind(id).fetch_optional(&mut **c).await?,
    })
}

/// Writes `n` in the open transaction `tx`.
pub(crate) async fn insert_in(
    tx: &mut StoreTx<'_>,
    n: &NotificationRecord,
) -> Result<(), StoreError> {
    let q =
        format!("INSERT INTO notifications ({COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)");
    match tx {
        StoreTx::Sqlite(c) => {
            sqlx::query(&q)
                .bind(&n.id)
                .bind(&n.user_id)
                .bind(&n.kind)
                .bind(&n.subject)
                .bind(n.ply)
                .bind(&n.body)
                .bind(n.read)
                .bind(n.created_at)
                .execute(&mut **c)
                .await?;
        }
        StoreTx::Postgres(c) => {
            sqlx::query(&q)
                .bind(&n.id)
                .bind(&n.user_id)
                .bind(&n.kind)
                .bind(&n.subject)
                .bind(n.ply)
                .bind(&n.body)
                .bind(n.read)
                .bind(n.created_at)
                .execute(&mut **c)
                .await?;
        }
    }
    Ok(())
}

/// The address of account `user`, asked in the open transaction `tx`.
pub(crate) async fn email_in(
    tx: &mut StoreTx<'_>,
    user: &str,
) -> Result<Option<EmailRecord>, StoreError> {
    let q = "SELECT address, confirmed, kinds FROM notify_emails WHERE user_id = $1";
    let row: Option<(String, bool, String)> = match tx {
        StoreTx::Sqlite(c) => {
            sqlx::query_as(q)
                .bind(user)
                .fetch_optional(&mut **c)
                .await?
        }
        StoreTx::Postgres(c) => {
            sqlx::query_as(q)
                .bind(user)
                .fetch_optional(&mut **c)
                .await?
        }
    };
    Ok(row.map(|(address, confirmed, kinds)| EmailRecord {
        user_id: user.to_string(),
        address,
        confirmed,
        kinds: kinds
            .split(',')
            .filter(|k| !k.is_empty())
            .map(str::to_string)
            .collect(),
    }))
}

/// Puts `m` and its link's token `t` (if any) in the outbox, in the open
/// transaction `tx`: sent once `tx` commits, never if it rolls back.
pub(crate) async fn outbox_in(
    tx: &mut StoreTx<'_>,
    m: &OutboxRecord,
    t: Option<&TokenRecord>,
) -> Result<(), StoreError> {
    macro_rules! write {
        ($c:expr) => {{
            if let Some(t) = t {
                sqlx::query(INSERT_TOKEN)
                    .bind(&t.hash)
                    .bind(&t.user_id)
                    .bind(&t.purpose)
                    .bind(&t.address)
                    .bind(&t.kind)
                    .bind(t.expires_at)
                    .execute(&mut **$c)
                    .await?;
            }
            sqlx::query(INSERT_OUTBOX)
                .bind(&m.id)
                .bind(&m.user_id)
                .bind(&m.address)
                .bind(&m.subject)
                .bind(&m.body)
                .bind(m.created_at)
                .bind(m.attempts)
                .execute(&mut **$c)
                .await?;
        }};
    }
    match tx {
        StoreTx::Sqlite(c) => write!(c),
        StoreTx::Postgres(c) => write!(c),
    }
    Ok(())
}
