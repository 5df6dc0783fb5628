//! What the lobby asks of the domains below it ([`crate::lobby::Desk`]),
//! answered from their contexts: who a request is (the games' seat
//! holders), an account's name (the accounts), a rating (the ratings), and
//! a new game from an accepted challenge (a friend game created with the
//! author's seat and joined by the acceptor, as the games domain creates
//! and joins one).

use crate::accounts::AccountsCtx;
use crate::error::ApiError;
use crate::games::engine::after_change;
use crate::games::{Action, GamesCtx, Mode, Status};
use crate::lobby::{Desk, NewGame};
use crate::outage::api_error;
use crate::ratings::RatingsCtx;
use crate::seat::{self, Holder};
use crate::store::GameRecord;
use async_trait::async_trait;
use axum::http::HeaderMap;
use springboard_rules::{Color, Position, Variant};

pub(crate) struct AppDesk {
    pub(crate) games: GamesCtx,
    pub(crate) accounts: AccountsCtx,
    pub(crate) ratings: RatingsCtx,
}

#[async_trait]
impl Desk for AppDesk {
    async fn holder(&self, headers: &HeaderMap, take: bool) -> Result<Holder, ApiError> {
        crate::games::http::holder(&self.games, headers, take).await
    }

    async fn account_name(&self, id: &str) -> Result<Option<String>, ApiError> {
        let Some(accounts) = &self.accounts.accounts else {
            return Ok(None);
        };
        let user = accounts.store.user(id).await.map_err(api_error)?;
        Ok(user.map(|u| u.name))
    }

    fn rates(&self) -> bool {
        self.games.rated.is_some() && self.accounts.accounts.is_some()
    }

    async fn rating(&self, user: &str, variant: &str) -> Result<(i64, bool), ApiError> {
        let rating = match &self.ratings.ratings {
            Some(store) => store
                .perfs(user)
                .await
                .map_err(api_error)?
                .into_iter()
                .find(|p| p.variant == variant)
                .map(|p| p.rating)
                .unwrap_or_default(),
            None => Default::default(),
        };
        Ok((rating.rounded(), rating.provisional()))
    }

    async fn start(&self, g: NewGame) -> Result<String, ApiError> {
        let app = &self.games;
        let variant: Variant = crate::games::http::playable_variant(&g.variant)?;
        let now = app.games.now();
        let invite = seat::new_invite();
        let (white_seat, black_seat) = match g.author_color {
            Color::White => (Some(g.author_seat), None),
            Color::Black => (None, Some(g.author_seat)),
        };
        let rec = GameRecord {
            white_seat,
            black_seat,
            clock_initial_ms: g.clock.map(|c| c.0),
            clock_increment_ms: g.clock.map(|c| c.1),
            white_ms: g.clock.map(|c| c.0),
            black_ms: g.clock.map(|c| c.0),
            turn_started_at: g.clock.map(|_| now),
            correspondence: g.correspondence,
            status: Status::Waiting,
            invite: Some(invite.clone()),
            rated: g.rated,
            ..GameRecord::new(
                seat::new_game_id(),
                variant.name(),
                g.start_fen
                    .clone()
                    .unwrap_or_else(|| Position::startpos(variant).to_fen()),
                Mode::Friend,
                now,
            )
        };
        let live = app.games.insert(rec).await?;
        let done = app
            .games
            .change(
                &live.rec.id,
                Some(&g.acceptor),
                Action::Join {
                    invite: Some(invite),
                },
            )
            .await?;
        after_change(app, &done);
        Ok(done.live.rec.id.clone())
    }

    fn now(&self) -> i64 {
        self.games.games.now()
    }
}
