//! A correspondence time control as requests name it
//! ([`CorrespondenceRequest`], for friend games and the lobby's
//! challenges) and as views show it ([`CorrView`]).

use crate::error::ApiError;
use crate::store::corr::Correspondence;
use serde::{Deserialize, Serialize};

/// `{"days_per_move": 3}` (one of 1, 2, 3, 5, 7, 14), or a bank:
/// `{"bank_days": 10, "days_per_move": 2}` ("10 days + 2 days per move";
/// a bank adds 0 to 14 days per move).
#[derive(Deserialize, Clone, Copy, Debug)]
#[serde(deny_unknown_fields)]
pub struct CorrespondenceRequest {
    days_per_move: u32,
    bank_days: Option<u32>,
}

impl CorrespondenceRequest {
    /// `days` days per move (lichess's `days`), checked when read.
    pub fn days(days: u32) -> CorrespondenceRequest {
        CorrespondenceRequest {
            days_per_move: days,
            bank_days: None,
        }
    }
}

/// The time control a request asks for, checked; `clock` is the live
/// clock the same request asks for (a game has one or the other).
pub fn read(
    req: Option<CorrespondenceRequest>,
    has_clock: bool,
) -> Result<Option<Correspondence>, ApiError> {
    let Some(r) = req else { return Ok(None) };
    if has_clock {
        return Err(ApiError::BadRequest(
            "a game has a clock or a correspondence time control, not both".into(),
        ));
    }
    let c = match r.bank_days {
        None => Correspondence::days_per_move(r.days_per_move),
        Some(bank) => Correspondence::bank(bank, r.days_per_move),
    }
    .map_err(|e| ApiError::BadRequest(e.to_string()))?;
    Ok(Some(c))
}

/// The clock's (initial, per move) milliseconds of a correspondence game.
pub fn clock_of(c: Correspondence) -> Result<(i64, i64), ApiError> {
    let bad = |e: crate::store::corr::CorrespondenceError| ApiError::BadRequest(e.to_string());
    Ok((c.initial_ms().map_err(bad)?, c.per_move_ms().map_err(bad)?))
}

/// A correspondence time control as the page reads it.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct CorrView {
    /// `days` (days per move) or `bank`.
    pub kind: &'static str,
    /// Days per move, or the days a bank's move adds.
    pub days_per_move: u32,
    /// A bank's starting days (null for days per move).
    pub bank_days: Option<u32>,
    /// `3 days per move`, `10 days + 2 per move`.
    pub label: String,
}

impl CorrView {
    pub fn of(c: Correspondence) -> CorrView {
        let (kind, days_per_move, bank_days) = match c {
            Correspondence::DaysPerMove(d) => ("days", d, None),
            Correspondence::Bank { initial, per_move } => ("bank", per_move, Some(initial)),
        };
        CorrView {
            kind,
            days_per_move,
            bank_days,
            label: c.label(),
        }
    }
}
