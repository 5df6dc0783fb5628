//! This process's lobby: the list of challenges as last read from the
//! store (every change re-reads it and tells the sockets what was added
//! and removed), the fan-out of those changes and of the games started to
//! the lobby sockets, the authors' sockets here (a challenge is withdrawn
//! [`super::Lobby::grace`] after its author's last one is gone), who is
//! online, and, on a shared store, the other processes' changes
//! (PostgreSQL's NOTIFY on `store::CHANNEL`).

use super::view::{AuthorView, Listed, OnlineView, Viewer, MAX_ONLINE_NAMES};
use super::Lobby;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::broadcast;

/// Events a lobby socket may fall behind on before it is sent the whole
/// list again.
const CAPACITY: usize = 1024;

/// A change for the lobby sockets of this process.
#[derive(Clone, Debug)]
pub(crate) enum Event {
    Add(Arc<Listed>),
    Remove(String),
    /// Game `game` started from challenge `challenge`: for the sockets
    /// holding one of `seats` or signed in to one of `users`.
    Start(Started),
    /// Personal challenge `challenge` declined by `by`: for its author.
    Declined(Declined),
    Online(OnlineView),
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Started {
    pub(crate) challenge: String,
    pub(crate) game: String,
    pub(crate) seats: Vec<String>,
    pub(crate) users: Vec<String>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Declined {
    pub(crate) challenge: String,
    pub(crate) by: String,
    pub(crate) seat: String,
    pub(crate) user: Option<String>,
}

/// A notice between processes (the NOTIFY payload).
#[derive(Serialize, Deserialize)]
struct Notice {
    /// The process that sent it.
    p: String,
    #[serde(default)]
    start: Option<Started>,
    #[serde(default)]
    declined: Option<Declined>,
    /// Who is online through the sending process (account id, name): sent
    /// when it changes and every `SWEEP`.
    #[serde(default)]
    online: Option<Vec<(String, String)>>,
}

/// Accounts online through one process: (id, name).
type OnlineList = Vec<(String, String)>;

/// The other processes' online lists are forgotten after this long
/// without news (they send theirs every `SWEEP`).
const REMOTE_ONLINE_FOR: Duration = Duration::from_secs(30);

impl Started {
    pub(crate) fn concerns(&self, v: &Viewer) -> bool {
        self.seats.iter().any(|s| v.held.contains(s))
            || v.user.as_ref().is_some_and(|u| self.users.contains(u))
    }
}

impl Declined {
    pub(crate) fn concerns(&self, v: &Viewer) -> bool {
        v.held.contains(&self.seat) || (v.user.is_some() && v.user == self.user)
    }
}

pub(crate) struct Hub {
    list: Mutex<Vec<Arc<Listed>>>,
    events: broadcast::Sender<Event>,
    /// One re-read of the list at a time (they would race to tell the
    /// sockets).
    refreshing: tokio::sync::Mutex<()>,
    /// Lobby sockets here per seat they hold.
    authors: Mutex<HashMap<String, u32>>,
    /// Sockets here per signed-in account (the lobby's, a game's, the
    /// notifications'): its name (empty until known) and count.
    online: Mutex<HashMap<String, (String, u32)>>,
    /// The other processes' online accounts (id, name), and when heard.
    remote: Mutex<HashMap<String, (OnlineList, std::time::Instant)>>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Hub {
    pub(crate) fn new() -> Hub {
        Hub {
            list: Mutex::new(Vec::new()),
            events: broadcast::channel(CAPACITY).0,
            refreshing: tokio::sync::Mutex::new(()),
            authors: Mutex::new(HashMap::new()),
            online: Mutex::new(HashMap::new()),
            remote: Mutex::new(HashMap::new()),
        }
    }

    /// The list as last read.
    pub(crate) fn list(&self) -> Vec<Arc<Listed>> {
        lock(&self.list).clone()
    }

    /// The accounts online through this process: (id, name).
    fn local_online(&self) -> Vec<(String, String)> {
        lock(&self.online)
            .iter()
            .filter(|(_, (name, _))| !name.is_empty())
            .map(|(id, (name, _))| (id.clone(), name.clone()))
            .collect()
    }

    /// One more socket of account `user` here (named `name`, if known):
    /// whether who is online here changed (then the lobby sockets are
    /// told), and whether its name is still unknown.
    fn arrive(&self, user: &str, name: Option<&str>) -> (bool, bool) {
        let (changed, unknown) = {
            let mut online = lock(&self.online);
            let e = online.entry(user.to_string()).or_insert((String::new(), 0));
            let shown = !e.0.is_empty();
            if let (true, Some(name)) = (e.0.is_empty(), name) {
                e.0 = name.to_string();
            }
            e.1 = e.1.saturating_add(1);
            (!shown && !e.0.is_empty(), e.0.is_empty())
        };
        if changed {
            let _ = self.events.send(Event::Online(self.online()));
        }
        (changed, unknown)
    }

    /// Account `user`'s name, looked up after its socket opened: whether
    /// who is online here changed (it is still here, and shows now).
    fn named(&self, user: &str, name: &str) -> bool {
        let changed = match lock(&self.online).get_mut(user) {
            Some(e) if e.0.is_empty() && !name.is_empty() => {
                e.0 = name.to_string();
                true
            }
            _ => false,
        };
        if changed {
            let _ = self.events.send(Event::Online(self.online()));
        }
        changed
    }

    /// One socket fewer of account `user` here: whether who is online here
    /// changed (then the lobby sockets are told).
    fn depart(&self, user: &str) -> bool {
        let changed = {
            let mut online = lock(&self.online);
            match online.get_mut(user) {
                Some(e) => {
                    e.1 = e.1.saturating_sub(1);
                    let left = e.1 == 0;
                    let shown = !e.0.is_empty();
                    if left {
                        online.remove(user);
                    }
                    left && shown
                }
                None => false,
            }
        };
        if changed {
            let _ = self.events.send(Event::Online(self.online()));
        }
        changed
    }

    /// Who is online, through this process and the others.
    pub(crate) fn online(&self) -> OnlineView {
        let mut all: HashMap<String, String> = self.local_online().into_iter().collect();
        for (list, _) in lock(&self.remote).values() {
            for (id, name) in list {
                all.entry(id.clone()).or_insert_with(|| name.clone());
            }
        }
        let mut names: Vec<String> = all.into_values().collect();
        names.sort_by_key(|n| n.to_lowercase());
        let count = names.len();
        names.truncate(MAX_ONLINE_NAMES);
        OnlineView { count, names }
    }

    /// Whether a lobby socket here holds seat `seat`.
    pub(crate) fn has_author(&self, seat: &str) -> bool {
        lock(&self.authors).get(seat).is_some_and(|n| *n > 0)
    }

    /// A socket of `viewer` (signed in as `name`) opens: its events from
    /// now on, and whether who is online here changed.
    pub(crate) fn join(
        &self,
        viewer: &Viewer,
        name: Option<&str>,
    ) -> (broadcast::Receiver<Event>, bool) {
        let rx = self.events.subscribe();
        {
            let mut authors = lock(&self.authors);
            for s in &viewer.held {
                *authors.entry(s.clone()).or_insert(0) += 1;
            }
        }
        let mut new = false;
        if let (Some(user), Some(name)) = (&viewer.user, name) {
            new = self.arrive(user, Some(name)).0;
        }
        (rx, new)
    }

    /// A socket of `viewer` closed: the seats no socket here holds any
    /// more, and whether who is online here changed.
    fn leave(&self, viewer: &Viewer) -> (Vec<String>, bool) {
        let mut gone = Vec::new();
        {
            let mut authors = lock(&self.authors);
            for s in &viewer.held {
                if let Some(n) = authors.get_mut(s) {
                    *n = n.saturating_sub(1);
                    if *n == 0 {
                        authors.remove(s);
                        gone.push(s.clone());
                    }
                }
            }
        }
        let mut changed = false;
        if let Some(user) = &viewer.user {
            changed = self.depart(user);
        }
        (gone, changed)
    }

    /// Process `process`'s online list is `list` (None: forget it).
    fn set_remote(&self, process: &str, list: Option<Vec<(String, String)>>) {
        let before = self.online();
        {
            let mut remote = lock(&self.remote);
            match list {
                Some(l) => {
                    remote.insert(process.to_string(), (l, std::time::Instant::now()));
                }
                None => {
                    remote.remove(process);
                }
            }
            remote.retain(|_, (_, at)| at.elapsed() < REMOTE_ONLINE_FOR);
        }
        let after = self.online();
        if after != before {
            let _ = self.events.send(Event::Online(after));
        }
    }

    pub(crate) fn send(&self, e: Event) {
        let _ = self.events.send(e);
    }
}

/// A lobby socket of `viewer` closed: the challenges of the seats no
/// socket here holds any more are withdrawn after the grace time.
pub(crate) async fn leave(lobby: &Arc<Lobby>, viewer: &Viewer) {
    let (gone, online) = lobby.hub.leave(viewer);
    if !gone.is_empty() {
        withdraw_later(lobby, gone);
    }
    if online {
        online_changed(lobby).await;
    }
}

/// A socket of account `user` other than the lobby's opened here (a
/// game's, the notifications'): counted at once, so that its close,
/// counted at once too, always follows; its name is looked up, and who is
/// online told, off the caller's path.
pub(crate) fn arrived(lobby: &Arc<Lobby>, user: &str) {
    let (changed, unknown) = lobby.hub.arrive(user, None);
    if !changed && !unknown {
        return;
    }
    let lobby = lobby.clone();
    let user = user.to_string();
    tokio::spawn(async move {
        if unknown {
            match lobby.desk.account_name(&user).await {
                Ok(Some(name)) => {
                    if !lobby.hub.named(&user, &name) {
                        return;
                    }
                }
                Ok(None) => return,
                Err(e) => {
                    tracing::warn!(error = %e, "cannot read an online account's name");
                    return;
                }
            }
        }
        online_changed(&lobby).await;
    });
}

/// A socket of account `user` other than the lobby's closed here.
pub(crate) fn departed(lobby: &Arc<Lobby>, user: &str) {
    if lobby.hub.depart(user) {
        let lobby = lobby.clone();
        tokio::spawn(async move { online_changed(&lobby).await });
    }
}

/// Tells the other processes who is online through this one.
pub(crate) async fn online_changed(lobby: &Arc<Lobby>) {
    send_notice(
        lobby,
        Notice {
            p: lobby.process.clone(),
            start: None,
            declined: None,
            online: Some(lobby.hub.local_online()),
        },
    )
    .await;
}

/// Withdraws the challenges of `seats` that this process holds, after the
/// grace time, unless a lobby socket here holds the seat again by then.
pub(crate) fn withdraw_later(lobby: &Arc<Lobby>, seats: Vec<String>) {
    let weak = Arc::downgrade(lobby);
    let grace = lobby.grace;
    tokio::spawn(async move {
        tokio::time::sleep(grace).await;
        let Some(lobby) = weak.upgrade() else { return };
        let seats: Vec<String> = seats
            .into_iter()
            .filter(|s| !lobby.hub.has_author(s))
            .collect();
        if seats.is_empty() {
            return;
        }
        match lobby.store.withdraw(&seats, &lobby.process).await {
            Ok(0) => {}
            Ok(n) => {
                tracing::info!(challenges = n, "challenges withdrawn: their author left");
                changed(&lobby).await;
            }
            Err(e) => tracing::warn!(error = %e, "cannot withdraw the challenges"),
        }
    });
}

/// The lobby changed here: this process's sockets are told, and the
/// other processes.
pub(crate) async fn changed(lobby: &Arc<Lobby>) {
    refresh(lobby).await;
    notify(lobby, None, None).await;
}

/// Tells the sockets here of `start` (or `declined`) and the other
/// processes of it.
pub(crate) async fn announce(
    lobby: &Arc<Lobby>,
    start: Option<Started>,
    declined: Option<Declined>,
) {
    if let Some(s) = &start {
        lobby.hub.send(Event::Start(s.clone()));
    }
    if let Some(d) = &declined {
        lobby.hub.send(Event::Declined(d.clone()));
    }
    notify(lobby, start, declined).await;
}

async fn notify(lobby: &Arc<Lobby>, start: Option<Started>, declined: Option<Declined>) {
    let notice = Notice {
        p: lobby.process.clone(),
        start,
        declined,
        online: None,
    };
    send_notice(lobby, notice).await;
}

async fn send_notice(lobby: &Arc<Lobby>, notice: Notice) {
    let Ok(text) = serde_json::to_string(&notice) else {
        return;
    };
    if let Err(e) = lobby.store.notify(&text).await {
        tracing::warn!(error = %e, "cannot tell the other processes of a lobby change");
    }
}

/// Re-reads the list and tells the sockets what was added and removed.
pub(crate) async fn refresh(lobby: &Arc<Lobby>) {
    let _one = lobby.hub.refreshing.lock().await;
    let records = match lobby.store.challenges().await {
        Ok(r) => r,
        Err(e) => {
            tracing::warn!(error = %e, "cannot read the lobby");
            return;
        }
    };
    let old = lobby.hub.list();
    let mut next = Vec::with_capacity(records.len());
    let mut added = Vec::new();
    for rec in &records {
        if let Some(known) = old.iter().find(|c| c.view.id == rec.id) {
            next.push(known.clone());
            continue;
        }
        let author = match (&rec.author_user, &rec.author_name) {
            (Some(user), Some(name)) => {
                let (rating, provisional) = if lobby.desk.rates() {
                    lobby
                        .desk
                        .rating(user, &rec.variant)
                        .await
                        .unwrap_or((1500, true))
                } else {
                    (1500, true)
                };
                Some(AuthorView {
                    name: name.clone(),
                    rating,
                    provisional,
                })
            }
            _ => None,
        };
        let c = Arc::new(Listed::new(rec, author));
        added.push(c.clone());
        next.push(c);
    }
    let removed: Vec<String> = old
        .iter()
        .filter(|c| !records.iter().any(|r| r.id == c.view.id))
        .map(|c| c.view.id.clone())
        .collect();
    *lock(&lobby.hub.list) = next;
    for id in removed {
        lobby.hub.send(Event::Remove(id));
    }
    for c in added {
        lobby.hub.send(Event::Add(c));
    }
}

/// On a shared store: the other processes' changes, passed to this
/// process's sockets.
pub(crate) async fn listen(lobby: &Arc<Lobby>) -> Result<(), crate::store::StoreError> {
    let Some(mut rx) = lobby.store.listen().await? else {
        return Ok(());
    };
    let weak = Arc::downgrade(lobby);
    tokio::spawn(async move {
        while let Some(payload) = rx.recv().await {
            let Some(lobby) = weak.upgrade() else { break };
            let notice = payload.and_then(|p| serde_json::from_str::<Notice>(&p).ok());
            match notice {
                Some(n) if n.p == lobby.process => {}
                Some(n) => {
                    let news = n.start.is_some() || n.declined.is_some();
                    if let Some(s) = n.start {
                        lobby.hub.send(Event::Start(s));
                    }
                    if let Some(d) = n.declined {
                        lobby.hub.send(Event::Declined(d));
                    }
                    match n.online {
                        Some(list) if !news => lobby.hub.set_remote(&n.p, Some(list)),
                        _ => refresh(&lobby).await,
                    }
                }
                // A stranger on the channel, or notices lost: re-read.
                None => refresh(&lobby).await,
            }
        }
    });
    Ok(())
}

/// Every `SWEEP`, withdraws the challenges of processes that died (no
/// heartbeat for `fresh_ms`), tells the other processes who is online
/// here and forgets the online lists of those not heard from.
pub(crate) fn sweep(lobby: &Arc<Lobby>, fresh_ms: i64) {
    let weak = Arc::downgrade(lobby);
    tokio::spawn(async move {
        let every: Duration = super::SWEEP;
        let mut tick = tokio::time::interval_at(tokio::time::Instant::now() + every, every);
        loop {
            tick.tick().await;
            let Some(lobby) = weak.upgrade() else { break };
            let since = lobby.desk.now().saturating_sub(fresh_ms);
            online_changed(&lobby).await;
            lobby.hub.set_remote(&lobby.process, None);
            match lobby.store.withdraw_dead(&lobby.process, since).await {
                Ok(0) => {}
                Ok(_) => changed(&lobby).await,
                Err(e) => tracing::warn!(error = %e, "cannot withdraw a dead process's challenges"),
            }
        }
    });
}
