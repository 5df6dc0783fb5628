//! Tuned weight sets, one module per game, written by `springboard tune`
//! and adopted by [`super::for_variant`] after passing an SPRT
//! (docs/engine.md, "The tuner").

mod hoplit;
mod jumpingking;
mod trampoline;

pub use hoplit::HOPLIT;
pub use jumpingking::JUMPING_KING;
pub use trampoline::TRAMPOLINE;
