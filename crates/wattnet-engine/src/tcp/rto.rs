//! The retransmission timeout estimator of RFC 6298, or ns-2.35's tick-counted form of it.

use crate::time::{from_secs, Time};

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RtoParams {
    pub initial: Time,
    pub min: Time,
    pub max: Time,
    /// Clock granularity G.
    pub granularity: Time,
    /// ns-2.35's estimator (`tcp.cc` `rtt_update()`, `rtt_backoff()`): samples counted in whole
    /// ticks of G, SRTT and RTTVAR kept in integer eighths and quarters of a tick.
    pub tick_counted: bool,
}

#[derive(Clone, Debug)]
pub struct RtoEstimator {
    params: RtoParams,
    srtt: Option<Time>,
    rttvar: Time,
    /// The RTO before back-off.
    base: Time,
    backoffs: u32,
    /// Σ SRTT after each sample, and the number of samples (for the mean SRTT).
    srtt_sum: u128,
    samples: u64,
    /// With `tick_counted`: 8·SRTT and 4·RTTVAR in ticks (ns-2's `t_srtt_`, `t_rttvar_`); SRTT 0
    /// means none yet.
    srtt8: i64,
    rttvar4: i64,
}

impl RtoEstimator {
    pub fn new(params: RtoParams) -> Self {
        // RFC 6298 §2.1: before any sample, RTO = the initial value.
        RtoEstimator {
            params,
            srtt: None,
            rttvar: 0,
            base: params.initial,
            backoffs: 0,
            srtt_sum: 0,
            samples: 0,
            srtt8: 0,
            rttvar4: 0,
        }
    }

    /// An RTT sample `r` taken at `now`.
    pub fn sample(&mut self, r: Time, now: Time) {
        if self.params.tick_counted {
            self.sample_ticks(r, now);
        } else {
            self.sample_rfc(r);
        }
        let srtt = self.srtt.expect("just set");
        self.srtt_sum += srtt as u128;
        self.samples += 1;
        // §5.7 (Karn): a valid sample ends the back-off.
        self.backoffs = 0;
    }

    fn sample_rfc(&mut self, r: Time) {
        match self.srtt {
            // §2.2: SRTT = R, RTTVAR = R/2.
            None => {
                self.srtt = Some(r);
                self.rttvar = r / 2;
            }
            // §2.3: RTTVAR = 3/4·RTTVAR + 1/4·|SRTT − R'| first, then SRTT = 7/8·SRTT + 1/8·R'.
            Some(srtt) => {
                self.rttvar = (3 * self.rttvar + srtt.abs_diff(r)) / 4;
                self.srtt = Some((7 * srtt + r) / 8);
            }
        }
        let srtt = self.srtt.expect("just set");
        // §2.2–2.3: RTO = SRTT + max(G, K·RTTVAR), K = 4; §2.4–2.5: clamp.
        self.base = (srtt + self.params.granularity.max(4 * self.rttvar)).clamp(self.params.min, self.params.max);
    }

    /// ns-2.35 `rtt_update()` without timestamps: the sample is the number of tick boundaries
    /// between the send and `now` (at least 1), on a clock whose ticks fall at multiples of G
    /// (ns-2 shifts each agent's clock by a random `boot_time_`; here every clock has phase 0).
    fn sample_ticks(&mut self, r: Time, now: Time) {
        let g = self.params.granularity.max(1);
        let sent = now - r;
        let ticks = ((r + sent % g) / g).max(1) as i64;
        if self.srtt8 != 0 {
            // srtt ← 7/8 srtt + 1/8 m; rttvar ← 3/4 rttvar + 1/4 |m − srtt|, in integer fractions.
            let delta = ticks - (self.srtt8 >> 3);
            self.srtt8 = (self.srtt8 + delta).max(1);
            self.rttvar4 = (self.rttvar4 + delta.abs() - (self.rttvar4 >> 2)).max(1);
        } else {
            self.srtt8 = ticks << 3;
            self.rttvar4 = ticks << 1;
        }
        self.srtt = Some(self.srtt8 as Time * g / 8);
        self.rttvar = self.rttvar4 as Time * g / 4;
        // t_rtxcur_ = ⌊srtt + 4·rttvar⌋ ticks (rttvar_exp_ 2); rtt_timeout() clamps it to minrto_
        // before the back-off and to two ticks.
        let rtxcur = ((self.srtt8 >> 3) + self.rttvar4) as Time * g;
        self.base = rtxcur.max(self.params.min).max(2 * g).min(self.params.max);
    }

    /// §5.5: double the RTO on each expiry, up to the maximum.
    pub fn back_off(&mut self) {
        self.backoffs += 1;
        // ns-2.35 `rtt_backoff()`: once the back-off exceeds 8, SRTT is moved into RTTVAR, so
        // the next sample starts the estimate again.
        if self.params.tick_counted && self.backoffs > 3 {
            self.rttvar4 += self.srtt8 >> 3;
            self.srtt8 = 0;
        }
    }

    pub fn rto(&self) -> Time {
        let factor = 1u64.checked_shl(self.backoffs.min(63)).unwrap_or(u64::MAX);
        self.base.saturating_mul(factor).min(self.params.max)
    }

    /// §5.7: after a retransmitted SYN, an initial RTO of 1 s becomes 3 s once established.
    pub fn after_retransmitted_syn(&mut self) {
        if self.srtt.is_none() && self.params.initial == from_secs(1.0) {
            self.base = from_secs(3.0);
        }
    }

    pub fn srtt(&self) -> Option<Time> {
        self.srtt
    }

    /// The mean of SRTT over the samples so far (its value after each), in picoseconds.
    pub fn mean_srtt(&self) -> Option<f64> {
        (self.samples > 0).then(|| self.srtt_sum as f64 / self.samples as f64)
    }

    pub fn rttvar(&self) -> Time {
        self.rttvar
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(v: f64) -> Time {
        from_secs(v / 1000.0)
    }

    fn params(min_ms: f64) -> RtoParams {
        RtoParams {
            initial: ms(1000.0),
            min: ms(min_ms),
            max: ms(60_000.0),
            granularity: ms(10.0),
            tick_counted: false,
        }
    }

    #[test]
    fn tcp_md_check_3_two_samples() {
        // Samples 100 ms then 120 ms, G = 10 ms: RTO 300 ms, then RTTVAR 42.5, SRTT 102.5, RTO 272.5 ms.
        let mut e = RtoEstimator::new(params(0.0));
        assert_eq!(e.rto(), ms(1000.0));
        e.sample(ms(100.0), ms(1000.0));
        assert_eq!((e.srtt(), e.rttvar(), e.rto()), (Some(ms(100.0)), ms(50.0), ms(300.0)));
        e.sample(ms(120.0), ms(1200.0));
        assert_eq!((e.srtt(), e.rttvar(), e.rto()), (Some(ms(102.5)), ms(42.5), ms(272.5)));
        // The mean SRTT (for host energy): (100 + 102.5)/2 ms.
        assert_eq!(e.mean_srtt(), Some(ms(101.25) as f64));
    }

    #[test]
    fn min_rto_backoff_and_karn() {
        let mut e = RtoEstimator::new(params(200.0));
        e.sample(ms(10.0), ms(1000.0)); // 10 + max(10, 20) = 30 ms → clamped to 200 ms
        assert_eq!(e.rto(), ms(200.0));
        e.back_off();
        e.back_off();
        assert_eq!(e.rto(), ms(800.0));
        for _ in 0..20 {
            e.back_off();
        }
        assert_eq!(e.rto(), ms(60_000.0));
        e.sample(ms(10.0), ms(1000.0));
        assert_eq!(e.rto(), ms(200.0));
    }

    #[test]
    fn ns2_tick_counted_estimator() {
        // ns-2.35 rtt_update() with tcpTick_ 10 ms, minrto_ 0.2 s, worked by hand in ticks.
        let mut e = RtoEstimator::new(RtoParams { tick_counted: true, ..params(200.0) });
        // Sent at 1003 ms, 95 ms: ⌊(95 + 3)/10⌋ = 9 ticks; 8·srtt 72, 4·rttvar 18; RTO 9 + 18 = 27 ticks
        // (RFC 6298 on the exact sample: 95 + 4·47.5 = 285 ms).
        e.sample(ms(95.0), ms(1098.0));
        assert_eq!((e.srtt(), e.rttvar(), e.rto()), (Some(ms(90.0)), ms(45.0), ms(270.0)));
        // Sent at 1200 ms, 9 ms: no tick boundary, counted as 1; delta −8: 8·srtt 64, 4·rttvar 18 + 8 − 4 = 22;
        // RTO 8 + 22 = 30 ticks.
        e.sample(ms(9.0), ms(1209.0));
        assert_eq!((e.srtt(), e.rttvar(), e.rto()), (Some(ms(80.0)), ms(55.0), ms(300.0)));
        // Sent at 1305 ms, 16 ms: ⌊21/10⌋ = 2 ticks; delta −6: 8·srtt 58, 4·rttvar 22 + 6 − 5 = 23; RTO
        // ⌊58/8⌋ + 23 = 30 ticks.
        e.sample(ms(16.0), ms(1321.0));
        assert_eq!((e.srtt(), e.rto()), (Some(ms(72.5)), ms(300.0)));
        // rtt_backoff(): the fourth back-off (t_backoff_ 16 > 8) moves srtt into rttvar (4·rttvar 23 + 7 = 30,
        // srtt 0), so the next sample, 5 ticks, starts afresh: 8·srtt 40, 4·rttvar 10, 15 ticks, clamped to
        // minrto_ (carried on, it would give ⌊56/8⌋ + 20 = 27 ticks).
        for _ in 0..4 {
            e.back_off();
        }
        assert_eq!(e.rto(), ms(4800.0));
        e.sample(ms(50.0), ms(2050.0));
        assert_eq!((e.srtt(), e.rttvar(), e.rto()), (Some(ms(50.0)), ms(25.0), ms(200.0)));
    }

    #[test]
    fn retransmitted_syn_gives_three_seconds() {
        let mut e = RtoEstimator::new(params(200.0));
        e.after_retransmitted_syn();
        assert_eq!(e.rto(), ms(3000.0));
    }
}
