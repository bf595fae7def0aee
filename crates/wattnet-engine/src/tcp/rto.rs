//! The retransmission timeout estimator of RFC 6298.

use crate::time::{from_secs, Time};

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RtoParams {
    pub initial: Time,
    pub min: Time,
    pub max: Time,
    /// Clock granularity G.
    pub granularity: Time,
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
}

impl RtoEstimator {
    pub fn new(params: RtoParams) -> Self {
        // RFC 6298 §2.1: before any sample, RTO = the initial value.
        RtoEstimator { params, srtt: None, rttvar: 0, base: params.initial, backoffs: 0, srtt_sum: 0, samples: 0 }
    }

    pub fn sample(&mut self, r: Time) {
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
        self.srtt_sum += srtt as u128;
        self.samples += 1;
        // §2.2–2.3: RTO = SRTT + max(G, K·RTTVAR), K = 4; §2.4–2.5: clamp.
        self.base = (srtt + self.params.granularity.max(4 * self.rttvar)).clamp(self.params.min, self.params.max);
        // §5.7 (Karn): a valid sample ends the back-off.
        self.backoffs = 0;
    }

    /// §5.5: double the RTO on each expiry, up to the maximum.
    pub fn back_off(&mut self) {
        self.backoffs += 1;
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
        RtoParams { initial: ms(1000.0), min: ms(min_ms), max: ms(60_000.0), granularity: ms(10.0) }
    }

    #[test]
    fn tcp_md_check_3_two_samples() {
        // Samples 100 ms then 120 ms, G = 10 ms: RTO 300 ms, then RTTVAR 42.5, SRTT 102.5, RTO 272.5 ms.
        let mut e = RtoEstimator::new(params(0.0));
        assert_eq!(e.rto(), ms(1000.0));
        e.sample(ms(100.0));
        assert_eq!((e.srtt(), e.rttvar(), e.rto()), (Some(ms(100.0)), ms(50.0), ms(300.0)));
        e.sample(ms(120.0));
        assert_eq!((e.srtt(), e.rttvar(), e.rto()), (Some(ms(102.5)), ms(42.5), ms(272.5)));
        // The mean SRTT (for host energy): (100 + 102.5)/2 ms.
        assert_eq!(e.mean_srtt(), Some(ms(101.25) as f64));
    }

    #[test]
    fn min_rto_backoff_and_karn() {
        let mut e = RtoEstimator::new(params(200.0));
        e.sample(ms(10.0)); // 10 + max(10, 20) = 30 ms → clamped to 200 ms
        assert_eq!(e.rto(), ms(200.0));
        e.back_off();
        e.back_off();
        assert_eq!(e.rto(), ms(800.0));
        for _ in 0..20 {
            e.back_off();
        }
        assert_eq!(e.rto(), ms(60_000.0));
        e.sample(ms(10.0));
        assert_eq!(e.rto(), ms(200.0));
    }

    #[test]
    fn retransmitted_syn_gives_three_seconds() {
        let mut e = RtoEstimator::new(params(200.0));
        e.after_retransmitted_syn();
        assert_eq!(e.rto(), ms(3000.0));
    }
}
