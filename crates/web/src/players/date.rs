//! A time (ms since the Unix epoch, UTC) as the date lichess's rating
//! history gives each point: `[year, month, day]` with the month counted
//! from 0, as JavaScript's `Date` does.

/// Milliseconds in a day.
const DAY_MS: i64 = 86_400_000;

/// `[year, month0, day]` of the UTC day of `ms` (proleptic Gregorian; the
/// days-to-civil conversion of Howard Hinnant's date algorithms).
pub(crate) fn ymd0(ms: i64) -> [i64; 3] {
    let z = ms.div_euclid(DAY_MS) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    [year, month - 1, day]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_are_the_utc_calendar_days_with_months_from_zero() {
        assert_eq!(ymd0(0), [1970, 0, 1]);
        assert_eq!(ymd0(DAY_MS - 1), [1970, 0, 1]);
        assert_eq!(ymd0(-1), [1969, 11, 31]);
        // 2027-01-15T10:40:00Z, 2000-02-29 (a leap day), 2026-12-31.
        assert_eq!(ymd0(1_800_009_600_000), [2027, 0, 15]);
        assert_eq!(ymd0(951_782_400_000), [2000, 1, 29]);
        assert_eq!(ymd0(1_798_675_200_000), [2026, 11, 31]);
    }
}
