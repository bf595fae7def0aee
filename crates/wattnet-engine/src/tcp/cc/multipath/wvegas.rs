//! wVegas, weighted Vegas (Cao, Xu, Fu, "Delay-based congestion control for multipath TCP",
//! ICNP 2012), in the structure of Linux's `mptcp_wvegas.c`: Vegas once per RTT on each
//! subflow, with the subflow's α_r = max(2, total_alpha·x_r/Σ_k x_k) so that the connection as
//! a whole keeps about total_alpha packets queued, and a back-off that drains the queue when
//! the queueing delay doubles. Reno's halving on loss.
//!
//! In floating point (Linux truncates diff and the target window to integers).

use serde::{Deserialize, Serialize};

use super::super::{half_flight, slow_start, Ack, Congestion, CongestionControl, Reno, Subflows, Window};
use crate::time::Time;

/// Linux `mptcp_wvegas.c`'s module parameters, in packets.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct WVegasParams {
    /// α_r when a subflow starts or leaves recovery (`initial_alpha`). Default 2.
    pub initial_alpha: f64,
    /// The packets the connection aims to keep queued, shared by rate (`total_alpha`). Default 10.
    pub total_alpha: f64,
    /// Above this many queued packets in slow start, leave slow start (`gamma`). Default 1.
    pub gamma: f64,
}

impl Default for WVegasParams {
    fn default() -> Self {
        WVegasParams { initial_alpha: 2.0, total_alpha: 10.0, gamma: 1.0 }
    }
}

impl WVegasParams {
    pub fn validate(&self) -> Result<(), String> {
        for (name, v) in
            [("initial_alpha", self.initial_alpha), ("total_alpha", self.total_alpha), ("gamma", self.gamma)]
        {
            if !(v.is_finite() && v >= 0.0) {
                return Err(format!("{name} must be a non-negative number, got {v}"));
            }
        }
        Ok(())
    }
}

/// Linux `struct wvegas`, one per subflow.
#[derive(Clone, Debug)]
struct Subflow {
    /// `doing_wvegas_now`: off from a loss until the subflow is back in the open state.
    enabled: bool,
    /// The round ends when snd_una passes this (snd_nxt when it began).
    beg_snd_nxt: f64,
    /// RTT samples of this round: their count and sum. Times here are picoseconds as f64,
    /// exact integers, so that equal delays compare equal.
    cnt_rtt: u32,
    sampled_rtt: f64,
    /// The smallest RTT sample ever.
    base_rtt: f64,
    /// x_r = w_r/rtt_r as of the last round that re-weighted α (0: none since a reset).
    instant_rate: f64,
    /// α_r and the rate share it came from.
    alpha: f64,
    weight: f64,
    /// The smallest queueing delay since the last drain (0: none yet).
    queue_delay: f64,
    /// snd_nxt as of the latest ACK, to start a round when the subflow is re-enabled.
    last_snd_nxt: f64,
}

impl Subflow {
    fn new(p: &WVegasParams) -> Subflow {
        Subflow {
            enabled: true,
            beg_snd_nxt: 0.0,
            cnt_rtt: 0,
            sampled_rtt: 0.0,
            base_rtt: f64::INFINITY,
            instant_rate: 0.0,
            alpha: p.initial_alpha,
            weight: 1.0,
            queue_delay: 0.0,
            last_snd_nxt: 0.0,
        }
    }

    /// `wvegas_enable`: a fresh round, α and weight back to their initial values; baseRTT kept.
    fn enable(&mut self, p: &WVegasParams) {
        *self = Subflow { base_rtt: self.base_rtt, last_snd_nxt: self.last_snd_nxt, ..Subflow::new(p) };
        self.beg_snd_nxt = self.last_snd_nxt;
    }
}

#[derive(Clone, Debug)]
pub struct WVegas {
    params: WVegasParams,
    subflows: Vec<Subflow>,
}

impl WVegas {
    pub fn new(params: WVegasParams, subflows: usize) -> WVegas {
        let subflows = vec![Subflow::new(&params); subflows.max(1)];
        WVegas { params, subflows }
    }

    /// `mptcp_wvegas_weight`: this subflow's share of the rates of the subflows that have
    /// samples in their current round; the old weight when there is nothing to divide.
    fn weight(&self, g: Subflows) -> f64 {
        let me = &self.subflows[g.index];
        let total: f64 = self
            .subflows
            .iter()
            .zip(g.all)
            .filter(|(s, v)| v.srtt.is_some() && s.cnt_rtt > 0)
            .map(|(s, _)| s.instant_rate)
            .sum();
        if total > 0.0 && me.instant_rate > 0.0 {
            me.instant_rate / total
        } else {
            me.weight
        }
    }

    /// The once-per-RTT decision of `mptcp_wvegas_cong_avoid`, with `rtt` the round's mean RTT.
    fn end_of_round(&mut self, g: Subflows, w: &mut Window, ack: &Ack, rtt: f64) {
        let p = self.params.clone();
        let base = self.subflows[g.index].base_rtt;
        let target = w.cwnd * base / rtt;
        let diff = w.cwnd * (rtt - base) / rtt;
        if diff > p.gamma && w.in_slow_start() {
            // Cao et al. §IV-B (Vegas): going too fast in slow start; match the actual rate.
            w.cwnd = w.cwnd.min(target + 1.0);
            w.ssthresh = w.ssthresh.min(w.cwnd - 1.0);
        } else if w.in_slow_start() {
            slow_start(w, ack.acked);
        } else {
            if diff >= self.subflows[g.index].alpha {
                // Cao et al. §IV-A: α_r follows the subflow's share of the connection's rate.
                self.subflows[g.index].instant_rate = w.cwnd / rtt;
                let weight = self.weight(g);
                let s = &mut self.subflows[g.index];
                s.weight = weight;
                s.alpha = (weight * p.total_alpha).max(2.0);
            }
            let s = &mut self.subflows[g.index];
            if diff > s.alpha {
                w.cwnd -= 1.0;
                w.ssthresh = w.ssthresh.min(w.cwnd - 1.0);
            } else if diff < s.alpha {
                w.cwnd += 1.0;
            }
            // Cao et al. §IV-C: drain the link queue when the queueing delay has doubled
            // since its smallest value. Linux also drains at zero queueing delay (0 ≥ 2·0),
            // which would halve the window on every round of an empty path: not here.
            let q = rtt - base;
            if s.queue_delay == 0.0 || s.queue_delay > q {
                s.queue_delay = q;
            }
            if q > 0.0 && q >= 2.0 * s.queue_delay {
                w.cwnd *= base / (2.0 * rtt);
                s.queue_delay = 0.0;
            }
        }
        w.cwnd = w.cwnd.max(2.0);
        // Linux `tcp_current_ssthresh` outside a reduction: at least ¾ of the window.
        w.ssthresh = w.ssthresh.max(0.75 * w.cwnd);
    }
}

impl CongestionControl for WVegas {
    /// `mptcp_wvegas_pkts_acked`: every sample counts in the round's sum and in baseRTT.
    fn on_ack(&mut self, g: Subflows, _w: &Window, ack: &Ack) {
        let s = &mut self.subflows[g.index];
        s.last_snd_nxt = ack.snd_nxt;
        if let Some(rtt) = ack.rtt {
            let rtt = rtt.max(1) as f64; // Linux: "never allow zero rtt or baseRTT"
            s.base_rtt = s.base_rtt.min(rtt);
            s.sampled_rtt += rtt;
            s.cnt_rtt += 1;
        }
    }

    fn grow(&mut self, g: Subflows, w: &mut Window, ack: &Ack) {
        let s = &mut self.subflows[g.index];
        if !s.enabled {
            return Reno.grow(g, w, ack);
        }
        if ack.snd_una > s.beg_snd_nxt {
            s.beg_snd_nxt = ack.snd_nxt;
            let (cnt, sum) = (s.cnt_rtt, s.sampled_rtt);
            if cnt <= 2 {
                // Too few samples (likely all delayed ACKs): Reno for this ACK.
                Reno.grow(g, w, ack);
            } else {
                self.end_of_round(g, w, ack, sum / cnt as f64);
            }
            // Reset after the decision: the weight counts this subflow as one with samples.
            let s = &mut self.subflows[g.index];
            s.cnt_rtt = 0;
            s.sampled_rtt = 0.0;
        } else if w.in_slow_start() {
            slow_start(w, ack.acked);
        }
    }

    /// Reno's halving; leaving the open state disables wVegas until recovery ends
    /// (`mptcp_wvegas_state`), and a timeout forgets the rate (`CA_EVENT_LOSS`).
    fn ssthresh(&mut self, g: Subflows, _w: &Window, flight: f64, why: Congestion, _now: Time) -> f64 {
        let s = &mut self.subflows[g.index];
        s.enabled = false;
        if why == Congestion::Timeout {
            s.instant_rate = 0.0;
        }
        half_flight(flight)
    }

    /// `mptcp_wvegas_state(TCP_CA_Open)` → `wvegas_enable`.
    fn on_recovery_end(&mut self, g: Subflows, _w: &Window, _now: Time) {
        let p = self.params.clone();
        self.subflows[g.index].enable(&p);
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{close, views};
    use super::*;
    use crate::time::from_secs;

    /// One round: `rtts_ms` as the round's samples, then the ACK that ends it.
    fn round(wv: &mut WVegas, g: Subflows, w: &mut Window, round: f64, rtts_ms: &[f64]) {
        for r in rtts_ms {
            let a = Ack {
                acked: 1.0,
                rtt: Some(from_secs(r / 1000.0)),
                snd_una: round,
                snd_nxt: round,
                ..Default::default()
            };
            wv.on_ack(g, w, &a);
        }
        let end = Ack { acked: 1.0, snd_una: round + 0.5, snd_nxt: round + 1.0, ..Default::default() };
        wv.on_ack(g, w, &end);
        wv.grow(g, w, &end);
    }

    #[test]
    fn the_per_rtt_rule_on_a_hand_fed_rtt_sequence() {
        let all = views(&[20.0], &[0.1]);
        let g = Subflows { index: 0, all: &all };
        let mut wv = WVegas::new(WVegasParams::default(), 1);
        let mut w = Window { cwnd: 20.0, ssthresh: 10.0 };
        // Round 1 at the base RTT (100 ms): diff = 0 < α = 2 → +1; no queue, nothing to drain;
        // ssthresh = max(10, ¾·21).
        round(&mut wv, g, &mut w, 1.0, &[100.0, 100.0, 100.0]);
        assert_eq!(w, Window { cwnd: 21.0, ssthresh: 15.75 });
        // Round 2 at 110 ms: diff = 21·10/110 = 1.909 < 2 → 22; the smallest queueing delay is 10 ms.
        round(&mut wv, g, &mut w, 2.0, &[110.0, 110.0, 110.0]);
        assert!(close(w.cwnd, 22.0, 1e-12) && close(w.ssthresh, 16.5, 1e-12), "{w:?}");
        assert_eq!(wv.subflows[0].queue_delay, 1e10, "10 ms in picoseconds");
        // Round 3 at 120 ms: diff = 22·20/120 = 3.667 ≥ α, so α = max(2, 10·1) = 10 (alone:
        // weight 1); diff < 10 → 23; the queueing delay 20 ms doubled the smallest (10 ms):
        // drain to 23·100/(2·120) = 9.583; ssthresh stays 16.5.
        round(&mut wv, g, &mut w, 3.0, &[120.0, 120.0, 120.0]);
        assert!(close(wv.subflows[0].alpha, 10.0, 1e-12));
        assert!(close(w.cwnd, 23.0 * 100.0 / 240.0, 1e-9) && close(w.ssthresh, 16.5, 1e-12), "{w:?}");
        assert_eq!(wv.subflows[0].queue_delay, 0.0);
        // Round 4 with two samples only: Reno (slow start, below ssthresh): +1.
        let before = w.cwnd;
        round(&mut wv, g, &mut w, 4.0, &[120.0, 120.0]);
        assert!(close(w.cwnd, before + 1.0, 1e-12));
    }

    #[test]
    fn alpha_follows_the_rate_share_and_a_loss_hands_over_to_reno_until_recovery_ends() {
        let all = views(&[30.0, 10.0], &[0.1, 0.1]);
        let mut wv = WVegas::new(WVegasParams::default(), 2);
        // Subflow 1 has a rate of 10 segments per 150 ms in its current round; subflow 0 reaches 30.
        wv.subflows[1].instant_rate = 10.0 / 1.5e11; // per picosecond, as the rates are kept
        wv.subflows[1].cnt_rtt = 1;
        let g0 = Subflows { index: 0, all: &all };
        let mut w = Window { cwnd: 30.0, ssthresh: 10.0 };
        // Base 100 ms, round mean 150 ms: diff = 30·50/150 = 10 ≥ 2; weight = 3/4 → α = 7.5;
        // diff > α → 29.
        round(&mut wv, g0, &mut w, 1.0, &[100.0, 175.0, 175.0]);
        assert!(close(wv.subflows[0].weight, 0.75, 1e-12));
        assert!(close(wv.subflows[0].alpha, 7.5, 1e-12));
        assert!(close(w.cwnd, 29.0, 1e-12));
        assert_eq!(wv.ssthresh(g0, &w, 29.0, Congestion::Loss, 0), 14.5);
        let mut w = Window { cwnd: 20.0, ssthresh: 10.0 };
        round(&mut wv, g0, &mut w, 2.0, &[300.0, 300.0, 300.0]);
        assert!(close(w.cwnd, 20.05, 1e-12), "Reno while disabled");
        wv.on_recovery_end(g0, &w, 0);
        assert_eq!((wv.subflows[0].alpha, wv.subflows[0].weight), (2.0, 1.0));
        assert_eq!(wv.subflows[0].base_rtt, 1e11, "baseRTT survives");
    }
}
