//! Simulated time: integer picoseconds, never floats on the clock.

/// Simulated time in picoseconds since the start of the run.
pub type Time = u64;

pub const PS_PER_S: u64 = 1_000_000_000_000;

/// Seconds (as written in scenarios) to picoseconds, rounded to the nearest picosecond.
pub fn from_secs(s: f64) -> Time {
    (s * PS_PER_S as f64).round() as Time
}

pub fn to_secs(t: Time) -> f64 {
    t as f64 / PS_PER_S as f64
}

/// Time to serialize `bytes` at `rate_bps`, rounded up so a link never exceeds its rate.
#[inline]
pub fn serialization(bytes: u32, rate_bps: u64) -> Time {
    // bits·10¹² fits in 64 bits below 2.3 MB, which avoids a slow 128-bit division.
    match (bytes as u64 * 8).checked_mul(PS_PER_S) {
        Some(num) => num.div_ceil(rate_bps),
        None => (bytes as u128 * 8 * PS_PER_S as u128).div_ceil(rate_bps as u128) as Time,
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
    }

    #[test]
    fn seconds_round_trip() {
        assert_eq!(from_secs(0.0015), 1_500_000_000);
        assert_eq!(to_secs(2 * PS_PER_S), 2.0);
    }
}
