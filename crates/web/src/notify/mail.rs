//! Email through SMTP (`serve --smtp smtp://host:port`, the `lettre`
//! crate): a queue served by one task off the request path, each message
//! tried [`ATTEMPTS`] times; the notification emails (to a confirmed
//! address, of the kinds the account chose, each with a one-click
//! unsubscribe link) and the confirmation of a new address. The links'
//! tokens are random, single-use and expiring; only their SHA-256 is
//! stored (`notify_tokens`).

use super::store::{NotificationRecord, TokenRecord};
use super::view::view;
use super::{Kind, Notify};
use lettre::message::Mailbox;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use std::time::Duration;
use tokio::sync::mpsc;

/// Tries per message before it is dropped (logged).
pub const ATTEMPTS: u32 = 3;
/// The wait after the first failure; doubled after each.
pub const RETRY_AFTER: Duration = Duration::from_millis(500);
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

struct Outgoing {
    /// The account (for the log; never the address or a link).
    user: String,
    message: Message,
}

/// The email sender: a queue and its task.
pub struct Mailer {
    queue: mpsc::UnboundedSender<Outgoing>,
    from: Mailbox,
    public_url: String,
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
    /// Checks `config` and starts the sending task.
    pub fn new(config: MailConfig) -> Result<Mailer, MailError> {
        let (host, port) = host_port(&config.smtp)?;
        let from: Mailbox = config
            .from
            .parse()
            .map_err(|e: lettre::address::AddressError| {
                MailError::From(config.from.clone(), e.to_string())
            })?;
        let public_url = config.public_url.trim_end_matches('/').to_string();
        if !(public_url.starts_with("http://") || public_url.starts_with("https://")) {
            return Err(MailError::PublicUrl(config.public_url));
        }
        let transport = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(host)
            .port(port)
            .timeout(Some(Duration::from_secs(20)))
            .build();
        let (queue, rx) = mpsc::unbounded_channel();
        tokio::spawn(send_all(transport, rx));
        Ok(Mailer {
            queue,
            from,
            public_url,
        })
    }

    fn queue(&self, user: &str, to: &str, subject: String, body: String) {
        let to: Mailbox = match to.parse() {
            Ok(m) => m,
            Err(e) => {
                tracing::warn!(user, error = %e, "a stored email address does not parse");
                return;
            }
        };
        let message = Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject(subject)
            .header(lettre::message::header::ContentType::TEXT_PLAIN)
            .body(body);
        match message {
            Ok(message) => {
                let _ = self.queue.send(Outgoing {
                    user: user.to_string(),
                    message,
                });
            }
            Err(e) => tracing::warn!(user, error = %e, "cannot build an email"),
        }
    }
}

/// The sending task: each message in turn, retried.
async fn send_all(
    transport: AsyncSmtpTransport<Tokio1Executor>,
    mut rx: mpsc::UnboundedReceiver<Outgoing>,
) {
    while let Some(out) = rx.recv().await {
        let mut wait = RETRY_AFTER;
        for attempt in 1..=ATTEMPTS {
            match transport.send(out.message.clone()).await {
                Ok(_) => {
                    tracing::info!(user = %out.user, "email sent");
                    break;
                }
                Err(e) if attempt < ATTEMPTS => {
                    tracing::warn!(user = %out.user, attempt, error = %e, "sending an email failed; retrying");
                    tokio::time::sleep(wait).await;
                    wait = wait.saturating_mul(2);
                }
                Err(e) => {
                    tracing::error!(user = %out.user, attempts = ATTEMPTS, error = %e, "sending an email failed; dropped");
                }
            }
        }
    }
}

/// A new link token for `user`: the token (for the link) and its record
/// (stored by its hash).
async fn new_token(
    notify: &Notify,
    user: &str,
    purpose: &str,
    address: &str,
    kind: Option<Kind>,
    valid_ms: i64,
) -> Option<String> {
    let token = crate::seat::random_base62(TOKEN_LEN);
    let rec = TokenRecord {
        hash: crate::seat::hash_token(&token),
        user_id: user.to_string(),
        purpose: purpose.to_string(),
        address: address.to_string(),
        kind: kind.map(|k| k.as_str().to_string()),
        expires_at: notify.now().saturating_add(valid_ms),
    };
    match notify.store.insert_token(&rec).await {
        Ok(()) => Some(token),
        Err(e) => {
            tracing::warn!(user, error = %e, "cannot store an email link's token");
            None
        }
    }
}

/// Whether `token` has the shape of a link's token.
pub(crate) fn is_token(token: &str) -> bool {
    token.len() == TOKEN_LEN && token.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// Sends `user` the confirmation link of `address`.
pub(crate) async fn confirmation(notify: &Notify, mailer: &Mailer, user: &str, address: &str) {
    let Some(token) = new_token(notify, user, "confirm", address, None, CONFIRM_MS).await else {
        return;
    };
    let link = format!("{}/api/notify/email/confirm/{token}", mailer.public_url);
    let body = format!(
        "Someone (you, we hope) asked Springboard to send notifications of the account \
         {user} to this address.\n\nTo confirm it, open this link (it works once, for 24 hours):\n\n\
         {link}\n\nIf it was not you, ignore this message: nothing is sent until the address is confirmed.\n"
    );
    mailer.queue(user, address, "Confirm your email address".into(), body);
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

/// Emails notification `rec` if its account has a confirmed address that
/// gets its kind.
pub(crate) async fn notification(notify: &Notify, mailer: &Mailer, rec: &NotificationRecord) {
    let email = match notify.store.email(&rec.user_id).await {
        Ok(Some(e)) if e.confirmed && e.kinds.contains(&rec.kind) => e,
        Ok(_) => return,
        Err(e) => {
            tracing::warn!(error = %e, "cannot read an account's email settings");
            return;
        }
    };
    let kind = Kind::parse(&rec.kind);
    let Some(token) = new_token(
        notify,
        &rec.user_id,
        "unsubscribe",
        &email.address,
        kind,
        UNSUBSCRIBE_MS,
    )
    .await
    else {
        return;
    };
    let (subject, what) = sentence(rec);
    let url = view(rec)["url"].as_str().unwrap_or("/").to_string();
    let words = kind.map_or("these", Kind::words);
    let body = format!(
        "{what}\n\nOpen it: {}{url}\n\n--\nYou get this because you asked for emails of {words}. \
         To stop them, open this link (no sign-in needed):\n{}/api/notify/email/unsubscribe/{token}\n",
        mailer.public_url, mailer.public_url
    );
    mailer.queue(&rec.user_id, &email.address, subject, body);
}
