//! Correspondence play's part of a game record: its time control
//! ([`Correspondence`], days per move or a bank of days) and the players'
//! conditional moves ([`Conditionals`]), with the texts they are stored as
//! (migration `0007_correspondence.sql`).
//!
//! A correspondence game keeps its time in the live clock's columns
//! (`clock_initial_ms`, `clock_increment_ms`, `white_ms`, `black_ms`,
//! `turn_started_at`): what differs is what a move gives the mover
//! ([`Correspondence::after_move`]), that the clock runs from the game's
//! start, and that a restart of the server does not forgive the time it
//! was down.

use serde::{Deserialize, Serialize};
use springboard_rules::Color;

/// A day, in milliseconds.
pub const DAY_MS: i64 = 86_400_000;

/// The days per move a correspondence game may have (as lichess offers).
pub const DAYS_PER_MOVE: [u32; 6] = [1, 2, 3, 5, 7, 14];

/// The largest starting bank, in days.
pub const MAX_BANK_DAYS: u32 = 60;

/// The most days a bank's move adds.
pub const MAX_BANK_ADD_DAYS: u32 = 14;

/// A correspondence time control.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Correspondence {
    /// Each move resets the mover's time to this many days (one of
    /// [`DAYS_PER_MOVE`]).
    DaysPerMove(u32),
    /// "X days + Y days per move": each side starts with a bank of
    /// `initial` days; each move adds `per_move` days to the mover's
    /// bank, which never holds more than `initial + per_move` days after
    /// a move (a fresh bank and one move's days).
    Bank { initial: u32, per_move: u32 },
}

/// Why a correspondence time control is refused.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum CorrespondenceError {
    #[error("{0} days per move is not offered: expected 1, 2, 3, 5, 7 or 14")]
    Days(u32),
    #[error("a bank has 1 to {MAX_BANK_DAYS} days, not {0}")]
    BankDays(u32),
    #[error("a bank adds 0 to {MAX_BANK_ADD_DAYS} days per move, not {0}")]
    BankAdd(u32),
    #[error("the time control is too long")]
    Overflow,
    #[error("unknown correspondence time control '{0}'")]
    Text(String),
}

fn days_ms(days: u32) -> Result<i64, CorrespondenceError> {
    i64::from(days)
        .checked_mul(DAY_MS)
        .ok_or(CorrespondenceError::Overflow)
}

impl Correspondence {
    /// Days per move, refused unless offered.
    pub fn days_per_move(days: u32) -> Result<Correspondence, CorrespondenceError> {
        if !DAYS_PER_MOVE.contains(&days) {
            return Err(CorrespondenceError::Days(days));
        }
        Ok(Correspondence::DaysPerMove(days))
    }

    /// A bank of `initial` days and `per_move` days per move, refused out
    /// of range (and its milliseconds checked).
    pub fn bank(initial: u32, per_move: u32) -> Result<Correspondence, CorrespondenceError> {
        if !(1..=MAX_BANK_DAYS).contains(&initial) {
            return Err(CorrespondenceError::BankDays(initial));
        }
        if per_move > MAX_BANK_ADD_DAYS {
            return Err(CorrespondenceError::BankAdd(per_move));
        }
        let c = Correspondence::Bank { initial, per_move };
        c.cap_ms()?;
        Ok(c)
    }

    /// Each side's time at the start, in ms.
    pub fn initial_ms(self) -> Result<i64, CorrespondenceError> {
        match self {
            Correspondence::DaysPerMove(d) => days_ms(d),
            Correspondence::Bank { initial, .. } => days_ms(initial),
        }
    }

    /// What a move gives the mover, in ms (the clock's "increment").
    pub fn per_move_ms(self) -> Result<i64, CorrespondenceError> {
        match self {
            Correspondence::DaysPerMove(d) => days_ms(d),
            Correspondence::Bank { per_move, .. } => days_ms(per_move),
        }
    }

    /// The most a side's time holds after a move, in ms.
    pub fn cap_ms(self) -> Result<i64, CorrespondenceError> {
        self.initial_ms()?
            .checked_add(self.per_move_ms()?)
            .ok_or(CorrespondenceError::Overflow)
    }

    /// The mover's time after a move that left it `left` ms.
    pub fn after_move(self, left: i64) -> i64 {
        match self {
            Correspondence::DaysPerMove(_) => self.initial_ms().unwrap_or(DAY_MS),
            Correspondence::Bank { .. } => {
                let cap = self.cap_ms().unwrap_or(i64::MAX);
                left.max(0)
                    .saturating_add(self.per_move_ms().unwrap_or(0))
                    .min(cap)
            }
        }
    }

    /// The stored text: `days:3`, `bank:10+2`.
    pub fn text(self) -> String {
        match self {
            Correspondence::DaysPerMove(d) => format!("days:{d}"),
            Correspondence::Bank { initial, per_move } => format!("bank:{initial}+{per_move}"),
        }
    }

    /// The stored text read back (and checked as a request is).
    pub fn from_text(text: &str) -> Result<Correspondence, CorrespondenceError> {
        let bad = || CorrespondenceError::Text(text.to_string());
        if let Some(d) = text.strip_prefix("days:") {
            return Correspondence::days_per_move(d.parse().map_err(|_| bad())?);
        }
        if let Some(rest) = text.strip_prefix("bank:") {
            let (i, p) = rest.split_once('+').ok_or_else(bad)?;
            return Correspondence::bank(
                i.parse().map_err(|_| bad())?,
                p.parse().map_err(|_| bad())?,
            );
        }
        Err(bad())
    }

    /// The label players read: `3 days per move`, `10 days + 2 per move`.
    pub fn label(self) -> String {
        match self {
            Correspondence::DaysPerMove(1) => "1 day per move".into(),
            Correspondence::DaysPerMove(d) => format!("{d} days per move"),
            Correspondence::Bank { initial, per_move } => {
                format!("{initial} days + {per_move} per move")
            }
        }
    }
}

/// The longest conditional line, in moves (replies and answers).
pub const MAX_LINE_PLIES: usize = 40;
/// The most conditional lines a player keeps in one game.
pub const MAX_LINES: usize = 20;

/// The conditional moves of a game's players: per seat, lines of
/// `[expected reply, answer, expected reply, answer, ...]` in long
/// notation, each move checked by the rules core when entered.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Conditionals {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub white: Vec<Vec<String>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub black: Vec<Vec<String>>,
}

impl Conditionals {
    pub fn is_empty(&self) -> bool {
        self.white.is_empty() && self.black.is_empty()
    }

    pub fn of(&self, c: Color) -> &Vec<Vec<String>> {
        match c {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }

    pub fn of_mut(&mut self, c: Color) -> &mut Vec<Vec<String>> {
        match c {
            Color::White => &mut self.white,
            Color::Black => &mut self.black,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_are_checked_and_read_back() {
        for d in DAYS_PER_MOVE {
            let c = Correspondence::days_per_move(d).unwrap();
            assert_eq!(Correspondence::from_text(&c.text()), Ok(c));
        }
        assert_eq!(
            Correspondence::days_per_move(4),
            Err(CorrespondenceError::Days(4))
        );
        assert_eq!(
            Correspondence::days_per_move(0),
            Err(CorrespondenceError::Days(0))
        );
        let bank = Correspondence::bank(10, 2).unwrap();
        assert_eq!(bank.text(), "bank:10+2");
        assert_eq!(Correspondence::from_text("bank:10+2"), Ok(bank));
        assert_eq!(
            Correspondence::bank(u32::MAX, 1),
            Err(CorrespondenceError::BankDays(u32::MAX))
        );
        assert_eq!(
            Correspondence::bank(0, 1),
            Err(CorrespondenceError::BankDays(0))
        );
        assert_eq!(
            Correspondence::bank(3, 15),
            Err(CorrespondenceError::BankAdd(15))
        );
        assert!(Correspondence::from_text("bank:99999999999+1").is_err());
        assert!(Correspondence::from_text("weeks:2").is_err());
    }

    #[test]
    fn a_move_resets_days_per_move_and_fills_a_bank_up_to_its_cap() {
        let three = Correspondence::DaysPerMove(3);
        assert_eq!(three.after_move(5), 3 * DAY_MS);
        let bank = Correspondence::bank(10, 2).unwrap();
        assert_eq!(bank.after_move(4 * DAY_MS), 6 * DAY_MS);
        assert_eq!(bank.after_move(11 * DAY_MS), 12 * DAY_MS);
        assert_eq!(bank.after_move(-5), 2 * DAY_MS);
    }
}
