//! DWC, Dynamic Window Coupling (Hassayoun, Iyengar, Ros, "Dynamic window coupling for
//! multipath congestion control", ICNP 2011), in the increase Zhao, Liu, Wang derive from its
//! ψ (IEEE 2017, §IV): w_r += rtt_r/(n·min_k rtt_k·W) per ACK, Reno's halving on loss.
//!
//! With `grouping` the sums run over the subflow's group only, DWC's detection of shared
//! bottlenecks: subflows start uncoupled, each a group of its own (the increase is then Reno's
//! 1/w_r); when subflow r signals congestion, the siblings that signalled congestion within one
//! of r's RTTs (or, with `rtt_rise`, whose SRTT has risen that far above their minimum) form r's
//! new group, and the others leave it. Without it (the default, the form Zhao, Liu, Wang
//! analyse) all subflows form one group.

use serde::{Deserialize, Serialize};

use super::super::{half_flight, Ack, Congestion, CongestionControl, Subflows, Window};
use super::{coupled_growth, secs};
use crate::time::Time;

#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct DwcParams {
    /// Couple only the subflows found to share a bottleneck (Hassayoun et al. 2011). Default false.
    pub grouping: bool,
    /// With `grouping`: a sibling whose SRTT exceeds (1 + rtt_rise) × its minimum RTT also counts
    /// as congested when another subflow loses. Absent (the default): only losses group.
    pub rtt_rise: Option<f64>,
}

impl DwcParams {
    pub fn validate(&self) -> Result<(), String> {
        match self.rtt_rise {
            Some(r) if !(r.is_finite() && r > 0.0) => Err(format!("rtt_rise must be a positive number, got {r}")),
            _ => Ok(()),
        }
    }
}

#[derive(Clone, Debug)]
pub struct Dwc {
    params: DwcParams,
    /// Each subflow's group label; subflows with equal labels are coupled.
    group: Vec<usize>,
    /// The next unused label.
    next_label: usize,
}

impl Dwc {
    pub fn new(params: DwcParams, subflows: usize) -> Dwc {
        let n = subflows.max(1);
        Dwc { params, group: (0..n).collect(), next_label: n }
    }

    /// Whether sibling `k` showed congestion at `now`, judged on the acting subflow's RTT `rtt`.
    fn congested(&self, g: Subflows, k: usize, now: Time, rtt: Time) -> bool {
        let v = &g.all[k];
        let lost_lately = v.last_loss.is_some_and(|t| now.saturating_sub(t) <= rtt);
        let delayed = match (self.params.rtt_rise, v.srtt, v.min_rtt) {
            (Some(rise), Some(srtt), Some(min)) => srtt as f64 >= (1.0 + rise) * min as f64,
            _ => false,
        };
        lost_lately || delayed
    }

    /// The per-segment increase over the acting subflow's group: rtt_r/(n·min rtt·W) with n, W
    /// and the minimum RTT of the group's subflows that have an RTT estimate.
    fn group_increment(&self, g: Subflows, w: &Window, rtt: f64) -> f64 {
        let label = self.group[g.index];
        let (mut n, mut total, mut min_rtt) = (0usize, 0.0, f64::INFINITY);
        for (k, v) in g.all.iter().enumerate().filter(|(k, _)| self.group[*k] == label) {
            let (wk, rk) = if k == g.index {
                (w.cwnd, rtt)
            } else {
                match secs(v.srtt) {
                    Some(r) => (v.cwnd, r),
                    None => continue,
                }
            };
            n += 1;
            total += wk;
            min_rtt = min_rtt.min(rk);
        }
        rtt / (n as f64 * min_rtt * total)
    }
}

impl CongestionControl for Dwc {
    fn grow(&mut self, g: Subflows, w: &mut Window, ack: &Ack) {
        let grouping = self.params.grouping;
        let this = &*self;
        coupled_growth(g, w, ack, false, |c, w| {
            if grouping {
                this.group_increment(g, w, c.rtt)
            } else {
                c.rtt / (c.n as f64 * c.min_rtt * c.total_window)
            }
        });
    }

    /// Reno's halving; with `grouping`, the congestion signal regroups the acting subflow.
    fn ssthresh(&mut self, g: Subflows, _w: &Window, flight: f64, _why: Congestion, now: Time) -> f64 {
        if self.params.grouping {
            if let Some(rtt) = g.all[g.index].srtt {
                let label = self.next_label;
                self.next_label += 1;
                self.group[g.index] = label;
                for k in (0..g.all.len()).filter(|&k| k != g.index) {
                    if self.congested(g, k, now, rtt) {
                        self.group[k] = label;
                    }
                }
            }
        }
        half_flight(flight)
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::SubflowView;
    use super::super::testing::{close, one_ack, views};
    use super::*;
    use crate::time::from_secs;

    #[test]
    fn the_increase_scales_with_the_rtt_over_the_fastest_one() {
        // w = (10, 30), RTTs (50 ms, 100 ms): subflow 1 gains 0.1/(2·0.05·40) = 1/40, subflow 0 1/80.
        let all = views(&[10.0, 30.0], &[0.05, 0.1]);
        let mut dwc = Dwc::new(DwcParams::default(), 2);
        assert!(close(one_ack(&mut dwc, &all, 1), 1.0 / 40.0, 1e-12));
        assert!(close(one_ack(&mut dwc, &all, 0), 1.0 / 80.0, 1e-12));
    }

    /// A loss on subflow `index` at `now_s` (FlightSize = its cwnd).
    fn lose(dwc: &mut Dwc, all: &[SubflowView], index: usize, now_s: f64) {
        let w = Window { cwnd: all[index].cwnd, ssthresh: 1.0 };
        dwc.ssthresh(Subflows { index, all }, &w, all[index].cwnd, Congestion::Loss, from_secs(now_s));
    }

    #[test]
    fn grouped_subflows_start_apart_and_couple_when_they_lose_within_an_rtt() {
        let grouping = DwcParams { grouping: true, rtt_rise: None };
        let mut all = views(&[10.0, 30.0], &[0.05, 0.1]);
        let mut dwc = Dwc::new(grouping, 2);
        // Alone in its group each subflow grows as Reno: 1/10 and 1/30.
        assert!(close(one_ack(&mut dwc, &all, 0), 1.0 / 10.0, 1e-12));
        assert!(close(one_ack(&mut dwc, &all, 1), 1.0 / 30.0, 1e-12));
        // Subflow 1 lost at 9.97 s; subflow 0 loses at 10 s, 30 ms later, within its 50 ms RTT:
        // one group, and the increases of the ungrouped form (1/80 and 1/40).
        all[1].last_loss = Some(from_secs(9.97));
        lose(&mut dwc, &all, 0, 10.0);
        assert!(close(one_ack(&mut dwc, &all, 0), 1.0 / 80.0, 1e-12));
        assert!(close(one_ack(&mut dwc, &all, 1), 1.0 / 40.0, 1e-12));
        // Subflow 0 loses again at 12 s, subflow 1's last loss 2 s old: apart again.
        lose(&mut dwc, &all, 0, 12.0);
        assert!(close(one_ack(&mut dwc, &all, 0), 1.0 / 10.0, 1e-12));
        assert!(close(one_ack(&mut dwc, &all, 1), 1.0 / 30.0, 1e-12));
    }

    #[test]
    fn a_loss_more_than_an_rtt_apart_does_not_group_unless_the_sibling_is_delayed() {
        let mut all = views(&[10.0, 30.0], &[0.05, 0.1]);
        all[1].last_loss = Some(from_secs(9.9));
        // 100 ms before subflow 0's loss, beyond its 50 ms RTT: no group.
        let mut dwc = Dwc::new(DwcParams { grouping: true, rtt_rise: None }, 2);
        lose(&mut dwc, &all, 0, 10.0);
        assert!(close(one_ack(&mut dwc, &all, 0), 1.0 / 10.0, 1e-12));
        // Subflow 1's SRTT (100 ms) is twice its minimum (50 ms): a rise of 100 % ≥ 50 % groups it.
        all[1].min_rtt = Some(from_secs(0.05));
        let mut dwc = Dwc::new(DwcParams { grouping: true, rtt_rise: Some(0.5) }, 2);
        lose(&mut dwc, &all, 0, 10.0);
        assert!(close(one_ack(&mut dwc, &all, 0), 1.0 / 80.0, 1e-12));
        assert!(DwcParams { grouping: true, rtt_rise: Some(0.0) }.validate().unwrap_err().contains("rtt_rise"));
    }
}
