//! ecMTCP (Le, Hong, Razzaque, Lee, Jung, "ecMTCP: an energy-aware congestion control
//! algorithm for multipath TCP", IEEE Communications Letters 16(2), 2012) in the form Zhao,
//! Liu, Wang give it (IEEE 2017, §IV): LIA's increase weighted by the ratio of loss rates,
//! w_r += max_k(w_k/rtt_k²)/X² · p_r/p_h per ACK, h the subflow with the largest rate;
//! Reno's halving on loss.
//!
//! That printed ratio p_r/p_h gives *more* increase to the lossier path, against the stated
//! intent of moving traffic away from congested paths; `ratio` chooses the direction.

use serde::{Deserialize, Serialize};

use super::super::{half_flight, Ack, Congestion, CongestionControl, Subflows, Window};
use super::coupled_growth;
use super::lia::lia_increment;
use crate::time::Time;

/// Which way the loss-rate ratio weights the increase of subflow r against the best path h.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LossRatio {
    /// p_r/p_h, as Zhao, Liu, Wang print it.
    #[default]
    RouteOverBest,
    /// p_h/p_r: the lossier path grows more slowly.
    BestOverRoute,
}

#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct EcMtcpParams {
    /// The direction of the loss-rate ratio; default `route_over_best`.
    pub ratio: LossRatio,
    /// Weight of the newest loss-event sample in the loss-rate EWMA. Default 1/8.
    pub loss_weight: f64,
    /// Cap the increase at Reno's 1/w_r as LIA does (RFC 6356 §3). Default true.
    pub cap_1_over_w: bool,
}

impl Default for EcMtcpParams {
    fn default() -> Self {
        EcMtcpParams { ratio: LossRatio::RouteOverBest, loss_weight: 0.125, cap_1_over_w: true }
    }
}

impl EcMtcpParams {
    pub fn validate(&self) -> Result<(), String> {
        if !(self.loss_weight > 0.0 && self.loss_weight <= 1.0) {
            return Err(format!("loss_weight must be in (0, 1], got {}", self.loss_weight));
        }
        Ok(())
    }
}

/// One subflow's loss-rate estimate.
#[derive(Clone, Copy, Debug, Default)]
struct LossRate {
    /// EWMA of 1/(packets sent per loss-event interval); `None` before the first loss.
    mean: Option<f64>,
    /// Packets the subflow had sent at its last loss event.
    sent_at_loss: u64,
}

impl LossRate {
    /// The estimate with the open interval counted once it is longer than the mean interval,
    /// as TFRC does (RFC 5348 §5.4), so that a path that stopped losing is seen to recover.
    fn now(&self, sent: u64) -> Option<f64> {
        let open = 1.0 / (sent.saturating_sub(self.sent_at_loss)).max(1) as f64;
        self.mean.map(|p| p.min(open)).filter(|p| *p > 0.0)
    }
}

#[derive(Clone, Debug)]
pub struct EcMtcp {
    params: EcMtcpParams,
    loss: Vec<LossRate>,
}

impl EcMtcp {
    pub fn new(params: EcMtcpParams, subflows: usize) -> EcMtcp {
        EcMtcp { params, loss: vec![LossRate::default(); subflows.max(1)] }
    }

    /// p_r/p_h (or its inverse); 1 while either path has no loss estimate yet.
    fn ratio(&self, g: Subflows, best: usize) -> f64 {
        let p = |k: usize| self.loss[k].now(g.all[k].packets_sent);
        match (p(g.index), p(best)) {
            (Some(r), Some(h)) => match self.params.ratio {
                LossRatio::RouteOverBest => r / h,
                LossRatio::BestOverRoute => h / r,
            },
            _ => 1.0,
        }
    }
}

impl CongestionControl for EcMtcp {
    fn grow(&mut self, g: Subflows, w: &mut Window, ack: &Ack) {
        coupled_growth(g, w, ack, false, |c, _| {
            let weighted = lia_increment(c, false) * self.ratio(g, c.best);
            if self.params.cap_1_over_w {
                weighted.min(1.0 / c.w)
            } else {
                weighted
            }
        });
    }

    /// A loss event closes an interval: its sample 1/(packets sent in it) enters the EWMA.
    fn ssthresh(&mut self, g: Subflows, _w: &Window, flight: f64, _why: Congestion, _now: Time) -> f64 {
        let sent = g.all[g.index].packets_sent;
        let est = &mut self.loss[g.index];
        let sample = 1.0 / (sent.saturating_sub(est.sent_at_loss)).max(1) as f64;
        let gw = self.params.loss_weight;
        est.mean = Some(est.mean.map_or(sample, |p| (1.0 - gw) * p + gw * sample));
        est.sent_at_loss = sent;
        half_flight(flight)
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::SubflowView;
    use super::super::testing::{close, one_ack, views};
    use super::*;

    /// Losses on both subflows: subflow 0 (the faster, h) one per 1000 packets, subflow 1 one per 100.
    fn lossy(params: EcMtcpParams) -> (EcMtcp, Vec<SubflowView>) {
        let mut all = views(&[20.0, 10.0], &[0.1, 0.1]);
        let mut cc = EcMtcp::new(params, 2);
        all[0].packets_sent = 1000;
        all[1].packets_sent = 100;
        for k in 0..2 {
            let w = Window { cwnd: all[k].cwnd, ssthresh: 1.0 };
            cc.ssthresh(Subflows { index: k, all: &all }, &w, all[k].cwnd, Congestion::Loss, 0);
        }
        (cc, all)
    }

    #[test]
    fn the_increase_is_lia_times_the_loss_ratio_in_the_chosen_direction() {
        // LIA at w = (20, 10), equal RTTs: α/W = (20/r²)/(30/r)² = 20/900; p₁/p₀ = 0.01/0.001 = 10.
        let lia = 20.0 / 900.0;
        let (mut cc, all) = lossy(EcMtcpParams { cap_1_over_w: false, ..Default::default() });
        assert!(close(one_ack(&mut cc, &all, 1), lia * 10.0, 1e-12));
        assert!(close(one_ack(&mut cc, &all, 0), lia, 1e-12), "h's own ratio is 1");
        let (mut capped, all) = lossy(EcMtcpParams::default());
        assert!(close(one_ack(&mut capped, &all, 1), 0.1, 1e-12), "capped at 1/w₁");
        let (mut inverse, all) = lossy(EcMtcpParams { ratio: LossRatio::BestOverRoute, ..Default::default() });
        assert!(close(one_ack(&mut inverse, &all, 1), lia / 10.0, 1e-12));
    }

    #[test]
    fn the_loss_rate_is_an_ewma_of_loss_event_samples_that_decays_while_no_loss_comes() {
        let (mut cc, mut all) = lossy(EcMtcpParams::default());
        // Subflow 1's next loss after 50 more packets: (7/8)·0.01 + (1/8)·0.02 = 0.01125.
        all[1].packets_sent = 150;
        let w = Window { cwnd: 10.0, ssthresh: 1.0 };
        cc.ssthresh(Subflows { index: 1, all: &all }, &w, 10.0, Congestion::Loss, 0);
        assert!(close(cc.loss[1].now(150).unwrap(), 0.01125, 1e-15));
        // 400 packets later with no loss the open interval (1/400) is the lower estimate.
        assert!(close(cc.loss[1].now(550).unwrap(), 1.0 / 400.0, 1e-15));
        assert_eq!(LossRate::default().now(10), None);
    }
}
