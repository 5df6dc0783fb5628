//! The rating update as an end-of-game hook: it runs in the transaction
//! that ends a game, so a rated game's end and its rating change commit
//! together or not at all.

use super::store::rate_in;
use crate::store::{GameEndHook, GameEnded, StoreError, StoreTx};
use async_trait::async_trait;

/// Moves both players' ratings when a rated game between two accounts
/// ends with a result (registered by default in [`crate::Options`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct RatingUpdate;

#[async_trait]
impl GameEndHook for RatingUpdate {
    async fn on_end(&self, tx: &mut StoreTx<'_>, ended: &GameEnded) -> Result<(), StoreError> {
        rate_in(tx, ended).await
    }
}
