//! Notifications (issue 42, item 6): per account, stored read or unread,
//! of three kinds ([`Kind`]): "your turn" (the opponent moved in a
//! correspondence game, [`is_correspondence`]), "challenge" (a personal
//! challenge from the lobby) and "game ended" (a game of the account's
//! ended, with its result). Never one to the player who acted.
//!
//! - `store.rs`: the tables (`migrations/*/0008_notify.sql`), for SQLite
//!   and PostgreSQL, and the notices between processes (NOTIFY channel
//!   `springboard_notify`);
//! - `sources.rs`: where they come from: the games' changes (a
//!   `games::ChangeSink`), a game's end (a `store::GameEndHook`, in the
//!   ending transaction) and the lobby's personal challenges (the lobby's
//!   `lobby::ChallengeHook`, in the transaction that stores the
//!   challenge, and its `lobby::ChallengeSink`); each notification's
//!   email is written in the notification's transaction;
//! - `hub.rs`: this process's sockets per account and the delivery of a
//!   new notification once committed (the socket, the other processes,
//!   the wake-up of the email sender);
//! - `mail.rs`: email through SMTP (`lettre`): the queue, retries, the
//!   messages, the confirm and unsubscribe tokens;
//! - `view.rs`: a notification as the page and the emails show it;
//! - `http.rs`: the routes under `/api/notify` and the socket.

pub(crate) mod http;
pub(crate) mod hub;
pub mod mail;
pub(crate) mod sources;
pub mod store;
pub mod view;

pub use mail::MailConfig;
pub use sources::NotifyHook;
pub use store::{EmailRecord, NotificationRecord, NotifyStore, TokenRecord};

use crate::accounts::AccountsCtx;
use crate::store::GameRecord;
use std::sync::Arc;

/// The most notifications the list shows.
pub const LIST_LIMIT: i64 = 50;
/// How long a notification is kept (30 days).
pub const KEEP_MS: i64 = 30 * 24 * 3600 * 1000;
/// How often old notifications are pruned.
pub const PRUNE_EVERY: std::time::Duration = std::time::Duration::from_secs(3600);

/// A notification's kind, stored and shown as its text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    YourTurn,
    Challenge,
    GameEnded,
}

impl Kind {
    pub const ALL: [Kind; 3] = [Kind::YourTurn, Kind::Challenge, Kind::GameEnded];

    pub fn as_str(self) -> &'static str {
        match self {
            Kind::YourTurn => "your_turn",
            Kind::Challenge => "challenge",
            Kind::GameEnded => "game_ended",
        }
    }

    pub fn parse(text: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.as_str() == text)
    }

    /// How an email names it.
    pub fn words(self) -> &'static str {
        match self {
            Kind::YourTurn => "your turn in a correspondence game",
            Kind::Challenge => "a personal challenge",
            Kind::GameEnded => "a game of yours ended",
        }
    }
}

/// Whether game `rec` is played by correspondence: its players come and
/// go, so the opponent's move is worth a "your turn": a game with a
/// correspondence time control (days per move or a bank of days), or one
/// with no clock at all.
pub fn is_correspondence(rec: &GameRecord) -> bool {
    rec.is_correspondence() || rec.clock_initial_ms.is_none()
}

/// The notifications' part of the server.
pub struct Notify {
    pub(crate) store: Arc<dyn NotifyStore>,
    /// Who a request is (the signed-in account).
    pub(crate) accounts: AccountsCtx,
    pub(crate) hub: hub::Hub,
    /// Email, when the server has `--smtp`.
    pub(crate) mail: Option<mail::Mailer>,
    /// Told of the notifications sockets (who is online).
    pub(crate) online: Arc<dyn crate::live::Online>,
}

/// The notifications' handlers' state (None: the server has no accounts,
/// and the routes answer 404).
#[derive(Clone)]
pub struct NotifyCtx(pub(crate) Option<Arc<Notify>>);

impl NotifyCtx {
    pub(crate) fn get(&self) -> Result<&Arc<Notify>, crate::error::ApiError> {
        self.0.as_ref().ok_or_else(|| {
            crate::error::ApiError::NotFound("this server has no notifications".into())
        })
    }
}

impl Notify {
    pub(crate) fn new(
        store: Arc<dyn NotifyStore>,
        accounts: AccountsCtx,
        mail: Option<MailConfig>,
        online: Arc<dyn crate::live::Online>,
    ) -> Result<Notify, mail::MailError> {
        let mail = mail.map(mail::Mailer::new).transpose()?;
        Ok(Notify {
            store,
            accounts,
            hub: hub::Hub::default(),
            mail,
            online,
        })
    }

    pub(crate) fn now(&self) -> i64 {
        self.accounts.now()
    }
}

/// Starts the notifications' loops: the other processes' notices, and
/// the pruning of old notifications.
pub(crate) async fn start(notify: &Arc<Notify>) -> Result<(), crate::store::StoreError> {
    hub::listen(notify).await?;
    let weak = Arc::downgrade(notify);
    tokio::spawn(async move {
        loop {
            {
                let Some(n) = weak.upgrade() else { break };
                let before = n.now().saturating_sub(KEEP_MS);
                match n.store.prune(before).await {
                    Ok(k) if k > 0 => tracing::info!(pruned = k, "old notifications pruned"),
                    Ok(_) => {}
                    Err(e) => tracing::warn!(error = %e, "cannot prune the notifications"),
                }
            }
            tokio::time::sleep(PRUNE_EVERY).await;
        }
    });
    Ok(())
}
