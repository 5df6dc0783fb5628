//! Email through SMTP (`serve --smtp smtp://host:port`, the `lettre`
//! crate): every message is first written to the outbox
//! (`notify_outbox`), then sent by one task off the request path and
//! deleted once the SMTP server took it. A round tries a message
//! [`ATTEMPTS`] times; a message whose round failed waits for the next
//! sweep (every [`SWEEP_EVERY`], and at start-up), up to [`GIVE_UP`]
//! rounds. So an email queued when the process stopped (even by
//! `kill -9`) or while the SMTP server was out of reach is sent later,
//! by this process when it starts again or by another on the same
//! database. The messages: the notification emails (to a confirmed
//! address, of the kinds the account chose, each with a one-click
//! unsubscribe link) and the confirmation of a new address. The links
//! open pages of the site (`/g/{id}`, `/email/confirm/{token}`,
//! `/email/unsubscribe/{token}`); their tokens are random, single-use and
//! expiring; only their SHA-256 is stored (`notify_tokens`).

use super::store::{EmailRecord, NotificationRecord, OutboxRecord, TokenRecord};
use super::view::view;
use super::{Kind, Notify};
use crate::store::StoreError;
use lettre::message::Mailbox;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::mpsc;

/// Tries per message in a round.
pub const ATTEMPTS: u32 = 3;
/// The wait after the first failure of a round; doubled after each.
pub const RETRY_AFTER: Duration = Duration::from_millis(500);
/// How often the outbox is swept for the messages left waiting.
pub const SWEEP_EVERY: Duration = Duration::from_secs(60);
/// The rounds after which a message is given up (logged): a day of sweeps.
pub const GIVE_UP: i64 = 1440;
/// How long a message taken by a process stays its own: after that,
/// another process may send it (the first one died while sending).
pub const CLAIM_MS: i64 = 10 * 60 * 1000;
/// How long a confirmation link works (24 hours).
pub const CONFIRM_MS: i64 = 24 * 3600 * 1000;
/// How long an unsubscribe link works (30 days).
pub const UNSUBSCRIBE_MS: i64 = 30 * 24 * 3600 * 1000;
/// A link's token: 32 base62 characters, about 190 bits.
pub const TOKEN_LEN: usize = 32;

/// How the server sends email.
#[derive(Clone, Debug)]
pub struct MailConfig {
    /// `smtp://host:port` (plain SMTP; this build has no TLS).
    pub smtp: String,
    /// The From address (`Springboard <noreply@example.org>`).
    pub from: String,
    /// The site's public URL, for the links (`https://play.example.org`).
    pub public_url: String,
}

/// A bad email setting.
#[derive(Debug, thiserror::Error)]
pub enum MailError {
    #[error("bad --smtp URL '{0}': expected smtp://host:port (this build sends without TLS)")]
    Url(String),
    #[error("bad From address '{0}': {1}")]
    From(String, String),
    #[error("bad public URL '{0}': expected http://... or https://...")]
    PublicUrl(String),
}

/// The email sender: the transport, and the wake-up of its task (the
/// ids of the messages just written to the outbox).
pub struct Mailer {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    wake: mpsc::UnboundedSender<String>,
    /// The receiving end, until `mail::start` takes it.
    woken: Mutex<Option<mpsc::UnboundedReceiver<String>>>,
    from: Mailbox,
    pub(crate) public_url: String,
}

/// Reads `smtp://host:port` (port 25 by default).
fn host_port(url: &str) -> Result<(String, u16), MailError> {
    let bad = || MailError::Url(url.to_string());
    let rest = url.strip_prefix("smtp://").ok_or_else(bad)?;
    let rest = rest.trim_end_matches('/');
    let (host, port) = match rest.rsplit_once(':') {
        Some((h, p)) => (h, p.parse::<u16>().map_err(|_| bad())?),
        None => (rest, 25),
    };
    if host.is_empty() || host.contains(['/', '@', '?']) {
        return Err(bad());
    }
    Ok((host.trim_matches(['[', ']']).to_string(), port))
}

impl Mailer {
    /// Checks `config`; the sending task starts with `mail::start`.
    pub fn new(config: MailConfig) -> Result<Mailer, MailError> {
        let (host, port) = host_port(&config.smtp)?;
        let from: Mailbox = config
            .from
            .parse()
            .map_err(|e: lettre::address::AddressError| {
                MailError::From(config.from.clone(), e.to_string())
            })?;
        let public_url = public_url(&config);
        if !(public_url.starts_with("http://") || public_url.starts_with("https://")) {
            return Err(MailError::PublicUrl(config.public_url));
        }
        let transport = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(host)
            .port(port)
            .timeout(Some(Duration::from_secs(20)))
            .build();
        let (wake, woken) = mpsc::unbounded_channel();
        Ok(Mailer {
            transport,
            wake,
            woken: Mutex::new(Some(woken)),
            from,
            public_url,
        })
    }

    /// The message of outbox record `m`.
    fn message(&self, m: &OutboxRecord) -> Result<Message, String> {
        let to: Mailbox = m.address.parse().map_err(|e| format!("{e}"))?;
        Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject(m.subject.clone())
            .header(lettre::message::header::ContentType::TEXT_PLAIN)
            .body(m.body.clone())
            .map_err(|e| e.to_string())
    }

    /// Tells the sending task of message `id`, just written to the outbox.
    pub(crate) fn wake(&self, id: &str) {
        let _ = self.wake.send(id.to_string());
    }
}

/// An outbox record of `body` to `address` for account `user`, written
/// at `now`.
fn outgoing(now: i64, user: &str, address: &str, subject: String, body: String) -> OutboxRecord {
    OutboxRecord {
        id: crate::seat::random_base62(16),
        user_id: user.to_string(),
        address: address.to_string(),
        subject,
        body,
        created_at: now,
        attempts: 0,
    }
}

/// Writes `m` (with `token`) to the outbox and wakes the sending task; the
/// store's error when it could not be written (nothing is sent then).
async fn queue(
    notify: &Notify,
    mailer: &Mailer,
    m: &OutboxRecord,
    token: Option<&TokenRecord>,
) -> Result<(), StoreError> {
    notify.store.outbox_add(m, token).await?;
    mailer.wake(&m.id);
    Ok(())
}

/// Starts the sending task: what the outbox holds at once (a previous
/// process's queue), each new message as it is written, and a sweep every
/// [`SWEEP_EVERY`]. A process alone on its database first puts back the
/// messages a dead one had taken.
pub(crate) async fn start(notify: &Arc<Notify>, alone: bool) {
    let Some(mailer) = &notify.mail else { return };
    let Some(mut woken) = mailer
        .woken
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .take()
    else {
        return;
    };
    if alone {
        if let Err(e) = notify.store.outbox_release_all().await {
            tracing::warn!(error = %e, "cannot put back the emails a previous process took");
        }
    }
    let weak = Arc::downgrade(notify);
    tokio::spawn(async move {
        let mut sweep = tokio::time::interval(SWEEP_EVERY);
        sweep.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            let ids = tokio::select! {
                id = woken.recv() => match id {
                    Some(id) => vec![id],
                    None => break,
                },
                _ = sweep.tick() => {
                    let Some(n) = weak.upgrade() else { break };
                    match n.store.outbox_waiting(n.now().saturating_sub(CLAIM_MS), 100).await {
                        Ok(ids) => ids,
                        Err(e) => {
                            tracing::warn!(error = %e, "cannot read the outbox");
                            Vec::new()
                        }
                    }
                }
            };
            for id in ids {
                let Some(n) = weak.upgrade() else { return };
                send_one(&n, &id).await;
            }
        }
    });
}

/// Sends outbox message `id` if no other process took it: a round of
/// [`ATTEMPTS`] tries, then deleted (sent, or given up) or put back.
async fn send_one(notify: &Notify, id: &str) {
    let Some(mailer) = &notify.mail else { return };
    let now = notify.now();
    let m = match notify
        .store
        .outbox_claim(id, now, now.saturating_sub(CLAIM_MS))
        .await
    {
        Ok(Some(m)) => m,
        Ok(None) => return,
        Err(e) => {
            tracing::warn!(error = %e, "cannot take an email from the outbox");
            return;
        }
    };
    let user = m.user_id.as_str();
    let message = match mailer.message(&m) {
        Ok(message) => message,
        Err(e) => {
            tracing::warn!(user, error = %e, "cannot build an email; dropped");
            let _ = notify.store.outbox_done(id).await;
            return;
        }
    };
    let mut wait = RETRY_AFTER;
    for attempt in 1..=ATTEMPTS {
        match mailer.transport.send(message.clone()).await {
            Ok(_) => {
                tracing::info!(user, "email sent");
                if let Err(e) = notify.store.outbox_done(id).await {
                    tracing::warn!(user, error = %e, "an email was sent but stays in the outbox");
                }
                return;
            }
            Err(e) if attempt < ATTEMPTS => {
                tracing::warn!(user, attempt, error = %e, "sending an email failed; retrying");
                tokio::time::sleep(wait).await;
                wait = wait.saturating_mul(2);
            }
            Err(e) => {
                let rounds = m.attempts.saturating_add(1);
                if rounds >= GIVE_UP {
                    tracing::error!(user, rounds, error = %e, "sending an email failed; given up");
                    let _ = notify.store.outbox_done(id).await;
                } else {
                    tracing::warn!(user, rounds, error = %e, "sending an email failed; it waits for the next sweep");
                    let _ = notify.store.outbox_release(id).await;
                }
            }
        }
    }
}

/// A new link token for `user`: the token (for the link) and its record
/// (stored by its hash).
fn new_token(
    now: i64,
    user: &str,
    purpose: &str,
    address: &str,
    kind: Option<Kind>,
    valid_ms: i64,
) -> (String, TokenRecord) {
    let token = crate::seat::random_base62(TOKEN_LEN);
    let rec = TokenRecord {
        hash: crate::seat::hash_token(&token),
        user_id: user.to_string(),
        purpose: purpose.to_string(),
        address: address.to_string(),
        kind: kind.map(|k| k.as_str().to_string()),
        expires_at: now.saturating_add(valid_ms),
    };
    (token, rec)
}

/// Whether `token` has the shape of a link's token.
pub(crate) fn is_token(token: &str) -> bool {
    token.len() == TOKEN_LEN && token.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// Sends `user` the confirmation link of `address`: the confirmation email of `address`, with its link's token, in the
/// outbox; the store's error when it could not be written, so that the
/// request that asked for it fails instead of answering that an email is
/// on its way.
pub(crate) async fn confirmation(
    notify: &Notify,
    mailer: &Mailer,
    user: &str,
    address: &str,
) -> Result<(), StoreError> {
    let now = notify.now();
    let (token, rec) = new_token(now, user, "confirm", address, None, CONFIRM_MS);
    let link = format!("{}/email/confirm/{token}", mailer.public_url);
    let body = format!(
        "Someone (you, we hope) asked Springboard to send notifications of the account \
         {user} to this address.\n\nTo confirm it, open this link (it works once, for 24 hours):\n\n\
         {link}\n\nIf it was not you, ignore this message: nothing is sent until the address is confirmed.\n"
    );
    let m = outgoing(
        now,
        user,
        address,
        "Confirm your email address".into(),
        body,
    );
    queue(notify, mailer, &m, Some(&rec)).await
}

/// What a notification says, in a sentence.
fn sentence(rec: &NotificationRecord) -> (String, String) {
    let v = view(rec);
    let s = |k: &str| v[k].as_str().unwrap_or("").to_string();
    match Kind::parse(&rec.kind) {
        Some(Kind::YourTurn) => (
            format!("Your turn against {}", s("opponent")),
            format!(
                "{} moved in your game of {}: it is your turn.",
                s("opponent"),
                s("variant")
            ),
        ),
        Some(Kind::Challenge) => (
            format!("{} challenges you", s("from")),
            format!(
                "{} challenges you to a game of {}. Accept or decline it in the lobby.",
                s("from"),
                s("variant")
            ),
        ),
        _ => (
            format!("Your game against {} ended", s("opponent")),
            format!(
                "Your game of {} against {} ended: {} ({}).",
                s("variant"),
                s("opponent"),
                s("result"),
                s("reason")
            ),
        ),
    }
}

/// The email of notification `rec` to `email` (the account's address),
/// if the address is confirmed and gets `rec`'s kind: the message (with
/// the notification's id: its wake-up after the commit names it) and its
/// unsubscribe token, both written at `rec.created_at`. `public_url`:
/// the site, for the links.
pub(crate) fn compose(
    public_url: &str,
    rec: &NotificationRecord,
    email: &EmailRecord,
) -> Option<(OutboxRecord, TokenRecord)> {
    if !email.confirmed || !email.kinds.contains(&rec.kind) {
        return None;
    }
    let kind = Kind::parse(&rec.kind);
    let (token, t) = new_token(
        rec.created_at,
        &rec.user_id,
        "unsubscribe",
        &email.address,
        kind,
        UNSUBSCRIBE_MS,
    );
    let (subject, what) = sentence(rec);
    let url = view(rec)["url"].as_str().unwrap_or("/").to_string();
    let words = kind.map_or("these", Kind::words);
    let body = format!(
        "{what}\n\nOpen it: {public_url}{url}\n\n--\nYou get this because you asked for emails of {words}. \
         To stop them, open this link (no sign-in needed):\n{public_url}/email/unsubscribe/{token}\n"
    );
    let mut m = outgoing(rec.created_at, &rec.user_id, &email.address, subject, body);
    m.id = rec.id.clone();
    Some((m, t))
}

/// The site's URL for the links of `config`'s emails (no trailing `/`).
pub(crate) fn public_url(config: &MailConfig) -> String {
    config.public_url.trim_end_matches('/').to_string()
}
