//! The rules of rated games that the games domain asks about
//! ([`RatedGames`]): only a signed-in account creates one (from a browser
//! of its own), only another signed-in account joins it, and each seat's
//! account and rating for the game's view.

use super::store::RatingStore;
use crate::accounts::http::signed_in;
use crate::accounts::AccountsCtx;
use crate::error::ApiError;
use crate::games::rated::{RatedGames, RatedSeat, RatedSeats, SeatAccount};
use crate::games::Status;
use crate::outage::api_error;
use crate::store::GameRecord;
use async_trait::async_trait;
use axum::http::HeaderMap;
use springboard_rules::Color;
use std::sync::Arc;

/// The ratings domain's answers to the games domain.
pub(crate) struct Seats {
    pub(crate) store: Arc<dyn RatingStore>,
    /// Who is signed in (the accounts domain's state).
    pub(crate) accounts: AccountsCtx,
}

impl Seats {
    /// The id of the signed-in user of the request, whose browser
    /// (`player`) must be one of the account's; `what` says what the
    /// request is for.
    async fn user(
        &self,
        headers: &HeaderMap,
        player: Option<&str>,
        what: &str,
    ) -> Result<String, ApiError> {
        let Some((_, user)) = signed_in(&self.accounts, headers).await? else {
            return Err(ApiError::Unauthorized(format!("sign in to {what}")));
        };
        let owner = match player {
            Some(p) => self.store.account_of(p).await.map_err(api_error)?,
            None => None,
        };
        if owner.is_none_or(|o| o.id != user.id) {
            return Err(ApiError::Forbidden(format!(
                "this browser's seats are not {}'s: sign in again to {what}",
                user.name
            )));
        }
        Ok(user.id)
    }
}

fn seat(game: &GameRecord, c: Color) -> Option<&str> {
    match c {
        Color::White => game.white_seat.as_deref(),
        Color::Black => game.black_seat.as_deref(),
    }
}

#[async_trait]
impl RatedGames for Seats {
    async fn may_create(&self, headers: &HeaderMap, player: Option<&str>) -> Result<(), ApiError> {
        self.user(headers, player, "create a rated game")
            .await
            .map(|_| ())
    }

    async fn may_join(
        &self,
        headers: &HeaderMap,
        player: Option<&str>,
        game: &GameRecord,
    ) -> Result<(), ApiError> {
        // A game no longer waiting, or a browser already seated: the
        // join's own answer.
        let seated = Color::ALL
            .into_iter()
            .any(|c| player.is_some() && seat(game, c) == player);
        if !game.rated || game.status != Status::Waiting || seated {
            return Ok(());
        }
        let user = self.user(headers, player, "join a rated game").await?;
        for c in Color::ALL {
            let Some(s) = seat(game, c) else { continue };
            let creator = self.store.account_of(s).await.map_err(api_error)?;
            if creator.is_some_and(|a| a.id == user) {
                return Err(ApiError::Forbidden(
                    "you created this rated game: another account must join it".into(),
                ));
            }
        }
        Ok(())
    }

    async fn account_of_seat(&self, seat: &str) -> Result<Option<SeatAccount>, ApiError> {
        let account = self.store.account_of(seat).await.map_err(api_error)?;
        Ok(account.map(|a| SeatAccount {
            id: a.id,
            name: a.name,
        }))
    }

    async fn seats(&self, game: &GameRecord) -> Result<Option<RatedSeats>, ApiError> {
        if !game.rated {
            return Ok(None);
        }
        let store = &self.store;
        let history = store.game_history(&game.id).await.map_err(api_error)?;
        let mut seats = RatedSeats::default();
        for c in Color::ALL {
            let Some(s) = seat(game, c) else { continue };
            let Some(account) = store.account_of(s).await.map_err(api_error)? else {
                continue;
            };
            let rated = match history.iter().find(|h| h.user_id == account.id) {
                Some(h) => RatedSeat {
                    name: account.name,
                    rating: h.before.rounded(),
                    provisional: h.before.provisional(),
                    diff: Some(h.after.rounded().saturating_sub(h.before.rounded())),
                },
                None => {
                    let perfs = store.perfs(&account.id).await.map_err(api_error)?;
                    let r = perfs
                        .into_iter()
                        .find(|p| p.variant == game.variant)
                        .map_or_else(Default::default, |p| p.rating);
                    RatedSeat {
                        name: account.name,
                        rating: r.rounded(),
                        provisional: r.provisional(),
                        diff: None,
                    }
                }
            };
            match c {
                Color::White => seats.white = Some(rated),
                Color::Black => seats.black = Some(rated),
            }
        }
        Ok(Some(seats))
    }
}
