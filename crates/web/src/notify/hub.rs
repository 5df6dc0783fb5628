//! This process's notification sockets, per account, and the delivery of
//! a new notification: to the account's sockets in every process (on
//! PostgreSQL through the NOTIFY channel, this process's too; on SQLite
//! directly), and the wake-up of the email sender for its email (written
//! with the notification when the account asked for it).
//!
//! The socket's messages: `{"t":"unread","unread":N}` (at connect, and
//! when the count changes otherwise) and
//! `{"t":"notification","unread":N,"notification":{...}}` (a new one).

use super::store::NotificationRecord;
use super::view::view;
use super::Notify;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::broadcast;

/// Messages a slow socket may fall behind by before it misses some.
const CAPACITY: usize = 64;

/// The sockets of each account connected here.
#[derive(Default)]
pub struct Hub {
    users: Mutex<HashMap<String, broadcast::Sender<Arc<str>>>>,
    /// Whether the store tells every process (PostgreSQL): then the
    /// sockets hear of a notification through the notice, never directly.
    shared: AtomicBool,
}

impl Hub {
    fn users(&self) -> std::sync::MutexGuard<'_, HashMap<String, broadcast::Sender<Arc<str>>>> {
        self.users.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Subscribes a socket of account `user`.
    pub fn join(&self, user: &str) -> broadcast::Receiver<Arc<str>> {
        self.users()
            .entry(user.to_string())
            .or_insert_with(|| broadcast::channel(CAPACITY).0)
            .subscribe()
    }

    /// Forgets the accounts with no socket left.
    pub fn leave(&self) {
        self.users().retain(|_, tx| tx.receiver_count() > 0);
    }

    fn send(&self, user: &str, msg: Value) {
        if let Some(tx) = self.users().get(user) {
            let _ = tx.send(msg.to_string().into());
        }
    }

    fn has(&self, user: &str) -> bool {
        self.users().contains_key(user)
    }
}

/// The message of account `user`'s unread count.
async fn unread_message(notify: &Notify, user: &str) -> Option<(i64, Value)> {
    match notify.store.unread(user).await {
        Ok(n) => Some((n, json!({"t": "unread", "unread": n}))),
        Err(e) => {
            tracing::warn!(error = %e, "cannot count the unread notifications");
            None
        }
    }
}

/// Pushes notification `id` (None: only the unread count) to the sockets
/// of `user` here.
async fn push_here(notify: &Notify, user: &str, id: Option<&str>) {
    if !notify.hub.has(user) {
        return;
    }
    let Some((unread, count)) = unread_message(notify, user).await else {
        return;
    };
    let rec = match id {
        Some(id) => notify.store.notification(id).await.ok().flatten(),
        None => None,
    };
    match rec {
        Some(rec) if rec.user_id == user => notify.hub.send(
            user,
            json!({"t": "notification", "unread": unread, "notification": view(&rec)}),
        ),
        _ => notify.hub.send(user, count),
    }
}

/// Tells every process's sockets of `user` (notification `id`, or a new
/// unread count).
pub(crate) async fn tell(notify: &Notify, user: &str, id: Option<&str>) {
    if notify.hub.shared.load(Ordering::Relaxed) {
        let payload = json!({"user": user, "id": id}).to_string();
        if let Err(e) = notify.store.notify(&payload).await {
            tracing::warn!(error = %e, "cannot tell the other processes of a notification");
            push_here(notify, user, id).await;
        }
    } else {
        push_here(notify, user, id).await;
    }
}

/// Delivers a new notification, once it is committed: the sockets, and
/// a wake-up of the sender for its email (written with it, in the
/// outbox under the notification's id, when its account wants one).
pub(crate) async fn deliver(notify: &Notify, rec: &NotificationRecord) {
    tell(notify, &rec.user_id, Some(&rec.id)).await;
    if let Some(mailer) = &notify.mail {
        mailer.wake(&rec.id);
    }
}

/// Listens to the other processes' notices (PostgreSQL).
pub(crate) async fn listen(notify: &Arc<Notify>) -> Result<(), crate::store::StoreError> {
    let Some(mut rx) = notify.store.listen().await? else {
        return Ok(());
    };
    notify.hub.shared.store(true, Ordering::Relaxed);
    let weak = Arc::downgrade(notify);
    tokio::spawn(async move {
        while let Some(payload) = rx.recv().await {
            let Some(n) = weak.upgrade() else { break };
            let Ok(v) = serde_json::from_str::<Value>(&payload) else {
                continue;
            };
            let Some(user) = v["user"].as_str() else {
                continue;
            };
            push_here(&n, user, v["id"].as_str()).await;
        }
    });
    Ok(())
}
