//! Seats that follow the account: the [`Holders`] of a server with
//! accounts. A seat is stored as the hash of the `sb_player` token of the
//! browser that took it; `player_users` says which browsers belong to which
//! account (a browser is linked at sign-up and sign-in).
//!
//! - Signed in (a live `sb_session`): the request holds the seats of every
//!   browser of the account, so the player plays on from any browser signed
//!   in to it. A seat it takes is its browser's, linked to the account
//!   first (a browser of another account, or none, gets a new token).
//! - Signed out: the request holds its browser's seat only while that
//!   browser belongs to no account. A browser that was signed out (its
//!   session ended here or elsewhere), or a stolen `sb_player` token of a
//!   signed-in browser, holds nothing of the account's.
//! - A forged or revoked `sb_session` is no session: the request is
//!   signed out.

use super::session;
use super::store::AccountStore;
use crate::clock::Clock;
use crate::seat::{self, Holder, Holders};
use crate::store::StoreError;
use async_trait::async_trait;
use axum::http::HeaderMap;
use std::sync::Arc;

pub(crate) struct AccountSeats {
    store: Arc<dyn AccountStore>,
    clock: Arc<dyn Clock>,
}

impl AccountSeats {
    pub(crate) fn new(store: Arc<dyn AccountStore>, clock: Arc<dyn Clock>) -> AccountSeats {
        AccountSeats { store, clock }
    }

    /// A new `sb_player` token linked to user `user`: its holder part.
    async fn new_linked(&self, user: &str, now: i64) -> Result<(String, String), StoreError> {
        let h = Holder::new_browser();
        let hash = h.seat.unwrap_or_default();
        self.store.link_player(&hash, user, now).await?;
        Ok((hash, h.cookie.unwrap_or_default()))
    }
}

#[async_trait]
impl Holders for AccountSeats {
    async fn holder(&self, headers: &HeaderMap, take: bool) -> Result<Holder, StoreError> {
        let now = self.clock.now_ms();
        let own = seat::token_from(headers).map(|t| seat::hash_token(&t));
        let user = session::signed_in(&*self.store, headers, now)
            .await?
            .map(|(_, u)| u.id);
        let Some(user) = user else {
            // Signed out: the browser's own seat, unless an account has it.
            let own = match own {
                Some(h) if self.store.player_owner(&h).await?.is_none() => Some(h),
                _ => None,
            };
            return Ok(match own {
                Some(h) => Holder::browser(h),
                None if take => Holder::new_browser(),
                None => Holder::nobody(),
            });
        };
        let mut held = self.store.players_of(&user).await?;
        let mut mine = own
            .clone()
            .filter(|h| held.iter().any(|p| seat::holds(Some(p), Some(h))));
        let mut cookie = None;
        if mine.is_none() && take {
            // As at sign-in: a browser of no account becomes this one's; a
            // browser of another account (or none) gets a new token.
            let linked = match own {
                Some(h) if self.store.link_player(&h, &user, now).await? == user => Some(h),
                _ => None,
            };
            let hash = match linked {
                Some(h) => h,
                None => {
                    let (h, c) = self.new_linked(&user, now).await?;
                    cookie = Some(c);
                    h
                }
            };
            held.push(hash.clone());
            mine = Some(hash);
        }
        Ok(Holder {
            seat: mine,
            held,
            user: Some(user),
            cookie,
        })
    }
}
