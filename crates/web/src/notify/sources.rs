//! Where the notifications come from:
//!
//! - "your turn": the games' changes ([`MoveSink`], a `games::ChangeSink`
//!   beside the live hub): after a move in a correspondence game between
//!   two seats, the player to move is told (one unread per game: a newer
//!   one replaces it);
//! - "game ended": [`NotifyHook`], a `store::GameEndHook` run in the
//!   transaction that ends the game, writes one per player's account
//!   (not the one who ended it by resigning or by the last move), and
//!   its email; after the commit [`deliver_ends`] pushes them;
//! - "challenge": [`NotifyHook`] again, the lobby's `lobby::ChallengeHook`
//!   run in the transaction that stores a personal challenge, writes the
//!   named account's, and its email; after the commit [`Challenges`], the
//!   lobby's `lobby::ChallengeSink`, pushes it.
//!
//! Every notification's email is written in the transaction of the
//! notification (for a confirmed address that gets its kind): the
//! delivery after the commit only pushes the notification to the sockets
//! and wakes the sender, so a process stopped in between (even by
//! `kill -9`) loses nothing: the outbox's sweep sends the email.

use super::store::{email_in, game_in, insert_in, outbox_in, user_of_seat_in, NotificationRecord};
use super::{hub, is_correspondence, Kind, MailConfig, Notify};
use crate::games::{Live, Mode, Status};
use crate::lobby::{ChallengeHook, ChallengeRecord};
use crate::store::{GameEndHook, GameEnded, GameRecord, GameStore, StoreError, StoreTx};
use async_trait::async_trait;
use serde_json::json;
use springboard_rules::{Color, Game, Position};
use std::sync::{Arc, Weak};
use tokio::sync::mpsc;

fn new_id() -> String {
    crate::seat::random_base62(16)
}

/// The games' changes, for "your turn": a `games::ChangeSink` that hands
/// the changed game's id to [`watch_moves`]'s task.
#[derive(Clone)]
pub struct MoveSink(mpsc::UnboundedSender<String>);

impl crate::games::ChangeSink for MoveSink {
    fn publish(&self, id: &str, _version: i64) {
        let _ = self.0.send(id.to_string());
    }

    fn has(&self, _id: &str) -> bool {
        false
    }
}

impl MoveSink {
    /// Has [`watch_moves`] look at game `id` again: at start-up, each
    /// unfinished game, so that a "your turn" a stopped process did not
    /// write yet is written now (written once: a game's "your turn" at a
    /// ply is never written twice).
    pub fn recheck(&self, id: &str) {
        let _ = self.0.send(id.to_string());
    }
}

/// A sink and the receiver [`watch_moves`] reads.
pub fn move_sink() -> (MoveSink, mpsc::UnboundedReceiver<String>) {
    let (tx, rx) = mpsc::unbounded_channel();
    (MoveSink(tx), rx)
}

/// The side that played the last of `rec`'s moves, and the side to move
/// now (None: the record does not replay).
fn sides(rec: &GameRecord) -> Option<(Color, Color)> {
    let now = Live::from_record(rec.clone()).ok()?.game.position().turn();
    let mut before = rec.clone();
    before.moves.pop();
    let mover = Live::from_record(before).ok()?.game.position().turn();
    Some((mover, now))
}

fn seat_of(rec: &GameRecord, c: Color) -> Option<&String> {
    match c {
        Color::White => rec.white_seat.as_ref(),
        Color::Black => rec.black_seat.as_ref(),
    }
}

/// The "your turn" of game `id`'s last move, if it calls for one.
async fn your_turn(notify: &Notify, games: &dyn GameStore, id: &str) -> Result<(), StoreError> {
    let Some(rec) = games.load(id).await? else {
        return Ok(());
    };
    if rec.status != Status::Playing
        || rec.mode != Mode::Friend
        || !is_correspondence(&rec)
        || rec.moves.is_empty()
    {
        return Ok(());
    }
    let Some((mover, to_move)) = sides(&rec) else {
        return Ok(());
    };
    let (Some(mover_seat), Some(seat)) = (seat_of(&rec, mover), seat_of(&rec, to_move)) else {
        return Ok(());
    };
    let Some(user) = notify.store.user_of_seat(seat).await? else {
        return Ok(());
    };
    let actor = notify.store.user_of_seat(mover_seat).await?;
    // Never to the player who moved (a half-step, or one account at both seats).
    if mover == to_move || actor.as_deref() == Some(user.as_str()) {
        return Ok(());
    }
    let opponent = match &actor {
        Some(a) => notify.store.user_name(a).await?,
        None => None,
    };
    let last = rec.moves.last().map(|m| m.san.clone());
    let n = NotificationRecord {
        id: new_id(),
        user_id: user,
        kind: Kind::YourTurn.as_str().into(),
        subject: rec.id.clone(),
        ply: Some(i64::try_from(rec.moves.len()).unwrap_or(i64::MAX)),
        body: json!({
            "opponent": opponent.unwrap_or_else(|| "Anonymous".into()),
            "variant": rec.variant,
            "move": last,
        })
        .to_string(),
        read: false,
        created_at: notify.now(),
    };
    // The email is written with the notification: a move acknowledged is
    // a "your turn" that reaches its player, whatever stops the process.
    let mail = match &notify.mail {
        Some(mailer) => match notify.store.email(&n.user_id).await {
            Ok(Some(e)) => super::mail::compose(&mailer.public_url, &n, &e),
            Ok(None) => None,
            Err(e) => {
                tracing::warn!(error = %e, "cannot read an account's email settings");
                None
            }
        },
        None => None,
    };
    let written = notify
        .store
        .replace_your_turn(&n, mail.as_ref().map(|(m, t)| (m, t)))
        .await?;
    if written {
        hub::deliver(notify, &n).await;
    }
    Ok(())
}

/// Reads the games' changes and writes their "your turn"s, in order.
pub(crate) fn watch_moves(
    notify: &Arc<Notify>,
    games: Arc<dyn GameStore>,
    mut rx: mpsc::UnboundedReceiver<String>,
) {
    let weak: Weak<Notify> = Arc::downgrade(notify);
    tokio::spawn(async move {
        while let Some(id) = rx.recv().await {
            let Some(n) = weak.upgrade() else { break };
            if let Err(e) = your_turn(&n, &*games, &id).await {
                tracing::warn!(game = %id, error = %e, "cannot write a your-turn notification");
            }
        }
    });
}

/// Who ended the game, when a player did: the loser of a resignation,
/// the last mover of an end on the board. None for an end the server
/// made (time, abort) or a draw by agreement (the hook does not know
/// which side accepted, so both are told).
fn actor(ended: &GameEnded, start_fen: &str, moves: &str) -> Option<Color> {
    match ended.reason.as_str() {
        "resignation" => match ended.result.as_str() {
            "1-0" => Some(Color::Black),
            "0-1" => Some(Color::White),
            _ => None,
        },
        "time" | "time vs insufficient material" | "aborted" | "draw agreed" => None,
        _ => {
            let variant = ended.variant.parse().ok()?;
            let ucis: Vec<serde_json::Value> = serde_json::from_str(moves).ok()?;
            let mut game = Game::new(Position::from_fen(variant, start_fen).ok()?);
            let (last, before) = ucis.split_last()?;
            for m in before {
                let mv = springboard_rules::notation::uci::parse_uci(
                    game.position(),
                    m["uci"].as_str()?,
                )
                .ok()?;
                game.play(mv).ok()?;
            }
            let _ = last;
            Some(game.position().turn())
        }
    }
}

/// The name (as typed) of account `user`, asked in `tx`.
async fn name_in(tx: &mut StoreTx<'_>, user: &str) -> Result<Option<String>, StoreError> {
    let q = "SELECT name FROM users WHERE id = $1";
    Ok(match tx {
        StoreTx::Sqlite(c) => {
            sqlx::query_scalar(q)
                .bind(user)
                .fetch_optional(&mut **c)
                .await?
        }
        StoreTx::Postgres(c) => {
            sqlx::query_scalar(q)
                .bind(user)
                .fetch_optional(&mut **c)
                .await?
        }
    })
}

/// The notifications written in another domain's transaction, each with
/// its email: "game ended" for the players' accounts, in the transaction
/// that ends the game (a `store::GameEndHook`, added to the game's end
/// hooks when the server has notifications), and "challenge" for the
/// account a personal challenge names, in the transaction that stores it
/// (the lobby's `lobby::ChallengeHook`).
#[derive(Clone, Debug, Default)]
pub struct NotifyHook {
    /// The site's URL for the emails' links; None: no email.
    public_url: Option<String>,
}

impl NotifyHook {
    /// The hook of a server that sends email as `mail` says (None: none).
    pub fn new(mail: Option<&MailConfig>) -> NotifyHook {
        NotifyHook {
            public_url: mail.map(super::mail::public_url),
        }
    }

    /// Writes `n` in `tx`, with its email if its account has a confirmed
    /// address that gets its kind.
    async fn write(&self, tx: &mut StoreTx<'_>, n: &NotificationRecord) -> Result<(), StoreError> {
        insert_in(tx, n).await?;
        let Some(url) = &self.public_url else {
            return Ok(());
        };
        if let Some(email) = email_in(tx, &n.user_id).await? {
            if let Some((m, t)) = super::mail::compose(url, n, &email) {
                outbox_in(tx, &m, Some(&t)).await?;
            }
        }
        Ok(())
    }
}

#[async_trait]
impl GameEndHook for NotifyHook {
    async fn on_end(&self, tx: &mut StoreTx<'_>, ended: &GameEnded) -> Result<(), StoreError> {
        if ended.mode != Mode::Friend {
            return Ok(());
        }
        let mut users = [None, None];
        for (i, seat) in [&ended.white_seat, &ended.black_seat].iter().enumerate() {
            if let Some(seat) = seat {
                users[i] = user_of_seat_in(tx, seat).await?;
            }
        }
        let actor = match game_in(tx, &ended.id).await? {
            Some((fen, moves)) => actor(ended, &fen, &moves),
            None => None,
        };
        for (i, color) in [Color::White, Color::Black].into_iter().enumerate() {
            let Some(user) = users[i].clone() else {
                continue;
            };
            let other = users[1 - i].clone();
            if actor == Some(color) || other.as_deref() == Some(user.as_str()) {
                continue;
            }
            let opponent = match &other {
                Some(o) => name_in(tx, o).await?,
                None => None,
            };
            let outcome = match (ended.result.as_str(), color) {
                ("1-0", Color::White) | ("0-1", Color::Black) => "won",
                ("1-0", _) | ("0-1", _) => "lost",
                ("1/2-1/2", _) => "draw",
                _ => "aborted",
            };
            let n = NotificationRecord {
                id: new_id(),
                user_id: user,
                kind: Kind::GameEnded.as_str().into(),
                subject: ended.id.clone(),
                ply: None,
                body: json!({
                    "opponent": opponent.unwrap_or_else(|| "Anonymous".into()),
                    "variant": ended.variant,
                    "result": ended.result,
                    "reason": ended.reason,
                    "outcome": outcome,
                })
                .to_string(),
                read: false,
                created_at: ended.at,
            };
            self.write(tx, &n).await?;
        }
        Ok(())
    }
}

/// After each game's end commits, pushes the "game ended" notifications
/// its hook wrote (and wakes the sender for their emails, written with
/// them).
pub(crate) fn deliver_ends(
    notify: &Arc<Notify>,
    mut ended: tokio::sync::broadcast::Receiver<GameEnded>,
) {
    let weak = Arc::downgrade(notify);
    tokio::spawn(async move {
        loop {
            let ev = match ended.recv().await {
                Ok(ev) => ev,
                Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => continue,
                Err(tokio::sync::broadcast::error::RecvError::Closed) => break,
            };
            let Some(n) = weak.upgrade() else { break };
            match n
                .store
                .notifications_of(Kind::GameEnded.as_str(), &ev.id)
                .await
            {
                Ok(list) => {
                    for rec in list {
                        hub::deliver(&n, &rec).await;
                    }
                }
                Err(e) => {
                    tracing::warn!(game = %ev.id, error = %e, "cannot read a game's end notifications")
                }
            }
        }
    });
}

#[async_trait]
impl ChallengeHook for NotifyHook {
    async fn on_personal(
        &self,
        tx: &mut StoreTx<'_>,
        c: &ChallengeRecord,
    ) -> Result<(), StoreError> {
        let Some(user) = c.target_user.clone() else {
            return Ok(());
        };
        if c.author_user.as_deref() == Some(user.as_str()) {
            return Ok(());
        }
        let n = NotificationRecord {
            id: new_id(),
            user_id: user,
            kind: Kind::Challenge.as_str().into(),
            subject: c.id.clone(),
            ply: None,
            body: json!({
                "from": c.author_name.clone().unwrap_or_else(|| "Anonymous".into()),
                "variant": c.variant,
                "rated": c.rated,
                "clock": c.clock_initial_ms.map(|i| [i, c.clock_increment_ms.unwrap_or(0)]),
            })
            .to_string(),
            read: false,
            created_at: c.created_at,
        };
        self.write(tx, &n).await
    }
}

/// Personal challenges, for the challenged account: the lobby's
/// `ChallengeSink`, which pushes the notification [`NotifyHook`] wrote
/// with the challenge (and wakes the sender for its email).
pub struct Challenges(pub(crate) Weak<Notify>);

impl crate::lobby::ChallengeSink for Challenges {
    fn personal(&self, c: &ChallengeRecord) {
        let Some(notify) = self.0.upgrade() else {
            return;
        };
        let id = c.id.clone();
        tokio::spawn(async move {
            match notify
                .store
                .notifications_of(Kind::Challenge.as_str(), &id)
                .await
            {
                Ok(list) => {
                    for rec in list {
                        hub::deliver(&notify, &rec).await;
                    }
                }
                Err(e) => {
                    tracing::warn!(challenge = %id, error = %e, "cannot read a challenge's notification")
                }
            }
        });
    }
}
