//! The passkeys' tables (`migrations/*/0011_passkeys.sql`): a
//! [`PasskeyStore`] trait and its implementation for both stores, the same
//! portable statements (`$1` placeholders) over each one's pool.

use crate::store::PgStore;
use crate::store::{is_unique_violation, SqliteStore, StoreError};
use async_trait::async_trait;
use sqlx::Row;

/// A passkey as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PasskeyRecord {
    /// The credential id, base64url without padding.
    pub id: String,
    pub user_id: String,
    /// The WebAuthn user handle (a UUID's text), one per account.
    pub user_handle: String,
    /// The webauthn-rs `Passkey` as JSON.
    pub passkey: String,
    pub name: String,
    pub created_at: i64,
    pub last_used: Option<i64>,
}

/// A ceremony's kind: which state it keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CeremonyKind {
    /// A passkey being added to a signed-in account.
    Register,
    /// A sign-in with a passkey alone.
    SignIn,
}

impl CeremonyKind {
    fn as_str(self) -> &'static str {
        match self {
            CeremonyKind::Register => "register",
            CeremonyKind::SignIn => "signin",
        }
    }
}

/// A ceremony's server-side state, between its start and its finish.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CeremonyRecord {
    pub id: String,
    pub kind: CeremonyKind,
    /// A registration's account.
    pub user_id: Option<String>,
    /// A registration's passkey name.
    pub name: Option<String>,
    /// A registration's user handle.
    pub user_handle: Option<String>,
    /// The webauthn-rs state as JSON.
    pub state: String,
    pub expires_at: i64,
}

/// Where passkeys and the ceremonies under way are kept.
#[async_trait]
pub trait PasskeyStore: Send + Sync + 'static {
    /// Stores a new passkey; `Ok(false)` (nothing stored) when its
    /// credential id is registered already.
    async fn create_passkey(&self, passkey: &PasskeyRecord) -> Result<bool, StoreError>;

    /// The passkey whose credential id is `id`, if any.
    async fn passkey(&self, id: &str) -> Result<Option<PasskeyRecord>, StoreError>;

    /// The passkeys of user `user`, the oldest first.
    async fn passkeys_of(&self, user: &str) -> Result<Vec<PasskeyRecord>, StoreError>;

    /// Records a sign-in with passkey `id` at `now`, with its `Passkey`
    /// (its counter) as it is after it.
    async fn use_passkey(&self, id: &str, passkey: &str, now: i64) -> Result<(), StoreError>;

    /// Deletes passkey `id` if it is user `user`'s; whether it was.
    async fn delete_passkey(&self, user: &str, id: &str) -> Result<bool, StoreError>;

    /// Stores a ceremony that has started, and deletes those over at
    /// `now`.
    async fn create_ceremony(&self, ceremony: &CeremonyRecord, now: i64) -> Result<(), StoreError>;

    /// Takes (reads and deletes, at once) ceremony `id` of kind `kind`;
    /// None when there is no such ceremony, it was taken already, or it
    /// is over at `now`.
    async fn take_ceremony(
        &self,
        id: &str,
        kind: CeremonyKind,
        now: i64,
    ) -> Result<Option<CeremonyRecord>, StoreError>;
}

const PASSKEY_COLUMNS: &str = "id, user_id, user_handle, passkey, name, created_at, last_used";

/// A row of `passkeys` as a [`PasskeyRecord`] (either backend's row).
macro_rules! passkey_of {
    ($r:expr) => {
        PasskeyRecord {
            id: $r.try_get("id")?,
            user_id: $r.try_get("user_id")?,
            user_handle: $r.try_get("user_handle")?,
            passkey: $r.try_get("passkey")?,
            name: $r.try_get("name")?,
            created_at: $r.try_get("created_at")?,
            last_used: $r.try_get("last_used")?,
        }
    };
}

/// The [`PasskeyStore`] implementation of a store type whose `pool()` is
/// a sqlx pool; one text for SQLite and PostgreSQL.
macro_rules! passkey_store {
    ($store:ty) => {
        #[async_trait]
        impl PasskeyStore for $store {
            async fn create_passkey(&self, p: &PasskeyRecord) -> Result<bool, StoreError> {
                let done = sqlx::query(
                    "INSERT INTO passkeys \
                     (id, user_id, user_handle, passkey, name, created_at, last_used) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7)",
                )
                .bind(&p.id)
                .bind(&p.user_id)
                .bind(&p.user_handle)
                .bind(&p.passkey)
                .bind(&p.name)
                .bind(p.created_at)
                .bind(p.last_used)
                .execute(self.pool())
                .await;
                match done {
                    Ok(_) => Ok(true),
                    Err(e) if is_unique_violation(&e) => Ok(false),
                    Err(e) => Err(e.into()),
                }
            }

            async fn passkey(&self, id: &str) -> Result<Option<PasskeyRecord>, StoreError> {
                let row = sqlx::query(&format!(
                    "SELECT {PASSKEY_COLUMNS} FROM passkeys WHERE id = $1"
                ))
                .bind(id)
                .fetch_optional(self.pool())
                .await?;
                match row {
                    Some(r) => Ok(Some(passkey_of!(r))),
                    None => Ok(None),
                }
            }

            async fn passkeys_of(&self, user: &str) -> Result<Vec<PasskeyRecord>, StoreError> {
                let rows = sqlx::query(&format!(
                    "SELECT {PASSKEY_COLUMNS} FROM passkeys WHERE user_id = $1 \
                     ORDER BY created_at, id"
                ))
                .bind(user)
                .fetch_all(self.pool())
                .await?;
                let mut out = Vec::with_capacity(rows.len());
                for r in rows {
                    out.push(passkey_of!(r));
                }
                Ok(out)
            }

            async fn use_passkey(
                &self,
                id: &str,
                passkey: &str,
                now: i64,
            ) -> Result<(), StoreError> {
                sqlx::query("UPDATE passkeys SET passkey = $2, last_used = $3 WHERE id = $1")
                    .bind(id)
                    .bind(passkey)
                    .bind(now)
                    .execute(self.pool())
                    .await?;
                Ok(())
            }

            async fn delete_passkey(&self, user: &str, id: &str) -> Result<bool, StoreError> {
                let done = sqlx::query("DELETE FROM passkeys WHERE id = $1 AND user_id = $2")
                    .bind(id)
                    .bind(user)
                    .execute(self.pool())
                    .await?;
                Ok(done.rows_affected() > 0)
            }

            async fn create_ceremony(
                &self,
                c: &CeremonyRecord,
                now: i64,
            ) -> Result<(), StoreError> {
                sqlx::query("DELETE FROM passkey_ceremonies WHERE expires_at <= $1")
                    .bind(now)
                    .execute(self.pool())
                    .await?;
                sqlx::query(
                    "INSERT INTO passkey_ceremonies \
                     (id, kind, user_id, name, user_handle, state, expires_at) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7)",
                )
                .bind(&c.id)
                .bind(c.kind.as_str())
                .bind(&c.user_id)
                .bind(&c.name)
                .bind(&c.user_handle)
                .bind(&c.state)
                .bind(c.expires_at)
                .execute(self.pool())
                .await?;
                Ok(())
            }

            async fn take_ceremony(
                &self,
                id: &str,
                kind: CeremonyKind,
                now: i64,
            ) -> Result<Option<CeremonyRecord>, StoreError> {
                // One statement: of two finishes of the same ceremony,
                // one takes it and the other finds nothing.
                let row = sqlx::query(
                    "DELETE FROM passkey_ceremonies WHERE id = $1 AND kind = $2 \
                     RETURNING id, user_id, name, user_handle, state, expires_at",
                )
                .bind(id)
                .bind(kind.as_str())
                .fetch_optional(self.pool())
                .await?;
                let Some(r) = row else {
                    return Ok(None);
                };
                let c = CeremonyRecord {
                    id: r.try_get("id")?,
                    kind,
                    user_id: r.try_get("user_id")?,
                    name: r.try_get("name")?,
                    user_handle: r.try_get("user_handle")?,
                    state: r.try_get("state")?,
                    expires_at: r.try_get("expires_at")?,
                };
                Ok((c.expires_at > now).then_some(c))
            }
        }
    };
}

passkey_store!(SqliteStore);
passkey_store!(PgStore);
