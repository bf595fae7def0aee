//! Simulated time: integer picoseconds, never floats on the clock.
//!
//! A u64 of picoseconds ends at 18 446 744.07 s. Every instant and duration a scenario gives is
//! checked against [`MAX_TIME_S`] (whole seconds, 213.5 days) when it is read, and every sum on
//! the clock saturates ([`after`]): a deadline past the clock's end becomes `Time::MAX`, which
//! no run reaches, so nothing can wrap round to an early instant. See docs/time-and-limits.md.

use crate::error::ScenarioError;

/// Simulated time in picoseconds since the start of the run.
pub type Time = u64;

pub const PS_PER_S: u64 = 1_000_000_000_000;

/// The last whole second the clock can hold: 18 446 744 s (213.5 days).
pub const MAX_TIME_S: u64 = u64::MAX / PS_PER_S;

/// [`MAX_TIME_S`] in picoseconds: no run ends later, so `Time::MAX` is never reached.
pub const MAX_TIME: Time = MAX_TIME_S * PS_PER_S;

/// Seconds to picoseconds, rounded to the nearest picosecond; values beyond the clock saturate
/// at `Time::MAX` (user input goes through [`checked_secs`] instead).
pub fn from_secs(s: f64) -> Time {
    (s * PS_PER_S as f64).round() as Time
}

pub fn to_secs(t: Time) -> f64 {
    t as f64 / PS_PER_S as f64
}

/// `now + delay` on the clock, saturating: an instant past the clock's end is `Time::MAX`,
/// later than the end of every run, so a timer or event there never fires.
#[inline]
pub fn after(now: Time, delay: Time) -> Time {
    now.saturating_add(delay)
}

/// A scenario's instant or duration in seconds, checked: finite, not negative (above zero when
/// `strictly_positive`), at most [`MAX_TIME_S`], and, if not zero, at least the clock's
/// resolution of 1 ps (it would otherwise round to 0). The error names `field`.
pub fn checked_secs(value: f64, field: &str, strictly_positive: bool) -> Result<Time, ScenarioError> {
    if !value.is_finite() || value < 0.0 || (strictly_positive && value == 0.0) {
        let need = if strictly_positive { "a positive" } else { "a non-negative" };
        return Err(ScenarioError::new(field, format!("must be {need} finite number of seconds, got {value}")));
    }
    if value > MAX_TIME_S as f64 {
        return Err(ScenarioError::new(field, clock_limit_message(value)));
    }
    let t = from_secs(value);
    if t == 0 && value > 0.0 {
        return Err(ScenarioError::new(
            field,
            format!("{value} s is below the clock's resolution of 1 ps (it would round to 0)"),
        ));
    }
    Ok(t)
}

/// The error for an instant or duration past the clock's end.
pub fn clock_limit_message(value: f64) -> String {
    format!(
        "must be at most {MAX_TIME_S} s ({:.1} days), the end of the simulated clock (picoseconds in 64 bits); got {value}",
        MAX_TIME_S as f64 / 86_400.0
    )
}

/// Time to serialize `bytes` at `rate_bps`, rounded up so a link never exceeds its rate;
/// `Time::MAX` when that is past the clock's end (4 GB at 1 bit/s).
#[inline]
pub fn serialization(bytes: u32, rate_bps: u64) -> Time {
    // bits·10¹² fits in 64 bits below 2.3 MB, which avoids a slow 128-bit division.
    match (bytes as u64 * 8).checked_mul(PS_PER_S) {
        Some(num) => num.div_ceil(rate_bps),
        None => (bytes as u128 * 8 * PS_PER_S as u128).div_ceil(rate_bps as u128).min(Time::MAX as u128) as Time,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serialization_is_exact_for_round_numbers() {
        // 1500 B at 10 Mb/s = 12000 bits / 1e7 = 1.2 ms
        assert_eq!(serialization(1500, 10_000_000), 1_200_000_000);
        // 1 B at 3 b/s = 8/3 s, rounded up to the next picosecond
        assert_eq!(serialization(1, 3), 2_666_666_666_667);
        // 4 MB needs the 128-bit path: 32 Mbit at 1 Gb/s = 32 ms.
        assert_eq!(serialization(4_000_000, 1_000_000_000), 32_000_000_000);
        // u32::MAX bytes at 1 bit/s = 3.4e10 s, past the clock: saturates rather than truncating.
        assert_eq!(serialization(u32::MAX, 1), Time::MAX);
    }

    #[test]
    fn seconds_round_trip() {
        assert_eq!(from_secs(0.0015), 1_500_000_000);
        assert_eq!(to_secs(2 * PS_PER_S), 2.0);
    }

    #[test]
    fn the_clock_ends_at_213_days_and_sums_saturate() {
        // u64::MAX = 18 446 744 073 709 551 615 ps.
        assert_eq!(MAX_TIME_S, 18_446_744);
        assert_eq!(MAX_TIME, 18_446_744_000_000_000_000);
        assert_eq!(after(MAX_TIME, MAX_TIME), Time::MAX);
        assert_eq!(after(5, 7), 12);
    }

    #[test]
    fn checked_secs_names_the_field_and_the_limit() {
        assert_eq!(checked_secs(18_446_744.0, "duration_s", true), Ok(MAX_TIME));
        let e = checked_secs(300.0 * 86_400.0, "events[0].at_s", false).unwrap_err();
        assert_eq!(e.field, "events[0].at_s");
        assert!(e.message.contains("18446744 s (213.5 days)"), "{}", e.message);
        let e = checked_secs(4e-13, "duration_s", true).unwrap_err();
        assert!(e.message.contains("resolution of 1 ps"), "{}", e.message);
        // 6e-13 s rounds to 1 ps: representable.
        assert_eq!(checked_secs(6e-13, "x", true), Ok(1));
        assert_eq!(checked_secs(0.0, "x", false), Ok(0));
        assert!(checked_secs(0.0, "x", true).is_err());
        assert!(checked_secs(f64::NAN, "x", false).is_err());
    }
}
