//! Vegas (Brakmo & Peterson, IEEE JSAC 1995) in the structure of Linux
//! `net/ipv4/tcp_vegas.c`: RTT samples on every ACK, one cwnd decision per RTT
//! from the minimum RTT of that round, Reno's loss response.
//!
//! The arithmetic is in floating point; Linux truncates `diff` and the target window to integers
//! (so, e.g., a diff of 4.9 holds at β = 4 in Linux but is > 4 here). ns-2's own agent
//! (`tcp-vegas.cc`) differs in more than the constants: it is the `ns2` variant, [`super::Ns2Vegas`].

use serde::{Deserialize, Serialize};

use super::{half_flight, slow_start, Ack, Congestion, CongestionControl, Reno, Subflows, Window};
use crate::time::Time;

/// Vegas' thresholds, in segments queued in the network. The defaults are ns-2's
/// (`v_alpha_` 1, `v_beta_` 3, `v_gamma_` 1), since the seeds ran ns-2; Linux's module
/// parameters are alpha 2, beta 4, gamma 1.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct VegasParams {
    /// Below this many queued segments, cwnd grows by one per RTT (ns-2 `v_alpha_`; Linux `alpha` = 2).
    pub alpha: f64,
    /// Above this many, cwnd shrinks by one per RTT (ns-2 `v_beta_`; Linux `beta` = 4).
    pub beta: f64,
    /// Above this many in slow start, leave slow start (ns-2 `v_gamma_`; Linux `gamma` = 1).
    pub gamma: f64,
    /// Classic Vegas diff = cwnd·(rtt − baseRTT)/rtt (Brakmo & Peterson: (Expected −
    /// Actual)·baseRTT) instead of Linux's cwnd·(rtt − baseRTT)/baseRTT.
    pub classic_diff: bool,
    /// Whose Vegas: Linux's `tcp_vegas.c` or ns-2.35's agent; absent, the profile's (`ns2`: ns-2's).
    pub variant: Option<VegasVariant>,
}

/// The two Vegas implementations wattnet has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum VegasVariant {
    /// Linux `net/ipv4/tcp_vegas.c` ([`Vegas`]).
    Linux,
    /// ns-2.35 `tcp/tcp-vegas.cc` ([`super::Ns2Vegas`]).
    Ns2,
}

impl Default for VegasParams {
    fn default() -> Self {
        VegasParams { alpha: 1.0, beta: 3.0, gamma: 1.0, classic_diff: false, variant: None }
    }
}

impl VegasParams {
    pub fn validate(&self) -> Result<(), String> {
        let ok = |v: f64| v.is_finite() && v >= 0.0;
        if !(ok(self.alpha) && ok(self.beta) && ok(self.gamma)) {
            return Err("alpha, beta and gamma must be non-negative numbers".into());
        }
        if self.alpha > self.beta {
            return Err(format!("alpha ({}) must not exceed beta ({})", self.alpha, self.beta));
        }
        if self.classic_diff && self.variant == Some(VegasVariant::Ns2) {
            return Err(
                "classic_diff applies to the linux variant only; ns-2's Vegas has its own queue estimate".into()
            );
        }
        Ok(())
    }
}

#[derive(Clone, Debug)]
pub struct Vegas {
    params: VegasParams,
    /// Linux `doing_vegas_now`: off from a loss until recovery ends, when growth is Reno's.
    enabled: bool,
    /// The smallest RTT ever seen (the propagation delay estimate); never raised (Linux `tcp_vegas.c`).
    base_rtt: Option<Time>,
    /// The smallest RTT in the current round.
    min_rtt: Option<Time>,
    /// RTT samples in the current round.
    cnt_rtt: u32,
    /// The round ends when snd_una passes this (snd_nxt when the round began).
    beg_snd_nxt: f64,
    /// snd_nxt as of the latest ACK, to start a round when recovery ends.
    last_snd_nxt: f64,
}

impl Vegas {
    /// `tcp_vegas_init`: baseRTT unknown, first round ends with the first ACK of data.
    pub fn new(params: VegasParams) -> Vegas {
        Vegas { params, enabled: true, base_rtt: None, min_rtt: None, cnt_rtt: 0, beg_snd_nxt: 0.0, last_snd_nxt: 0.0 }
    }

    /// `vegas_enable`: a fresh round from the current snd_nxt, baseRTT kept.
    fn restart_round(&mut self) {
        self.enabled = true;
        self.beg_snd_nxt = self.last_snd_nxt;
        self.cnt_rtt = 0;
        self.min_rtt = None;
    }

    /// Segments Vegas believes queued: Linux `diff`, or the classic form.
    fn diff(&self, cwnd: f64, rtt: Time, base_rtt: Time) -> f64 {
        let queueing = (rtt - base_rtt) as f64;
        if self.params.classic_diff {
            cwnd * queueing / rtt as f64
        } else {
            cwnd * queueing / base_rtt as f64
        }
    }

    /// The once-per-RTT decision of `tcp_vegas_cong_avoid`.
    fn end_of_round(&mut self, g: Subflows, w: &mut Window, ack: &Ack) {
        let p = &self.params;
        match (self.base_rtt, self.min_rtt) {
            // Two samples or fewer are likely all delayed ACKs: Reno for this ACK.
            (Some(base_rtt), Some(rtt)) if self.cnt_rtt > 2 => {
                let diff = self.diff(w.cwnd, rtt, base_rtt);
                if w.in_slow_start() {
                    if diff > p.gamma {
                        // Going too fast: match the actual rate, leave slow start.
                        let target = w.cwnd * base_rtt as f64 / rtt as f64;
                        w.cwnd = w.cwnd.min(target + 1.0);
                        w.ssthresh = w.ssthresh.min(w.cwnd - 1.0);
                    } else {
                        slow_start(w, ack.acked);
                    }
                } else if diff > p.beta {
                    w.cwnd -= 1.0;
                    w.ssthresh = w.ssthresh.min(w.cwnd - 1.0);
                } else if diff < p.alpha {
                    w.cwnd += 1.0;
                }
                w.cwnd = w.cwnd.max(2.0);
            }
            _ => Reno.grow(g, w, ack),
        }
        self.cnt_rtt = 0;
        self.min_rtt = None;
    }
}

impl CongestionControl for Vegas {
    /// `tcp_vegas_pkts_acked`: min-filter every RTT sample.
    fn on_ack(&mut self, _g: Subflows, _w: &Window, ack: &Ack) {
        self.last_snd_nxt = ack.snd_nxt;
        if let Some(rtt) = ack.rtt {
            let rtt = rtt.max(1); // Linux: "never allow zero rtt or baseRTT"
            self.base_rtt = Some(self.base_rtt.map_or(rtt, |b| b.min(rtt)));
            self.min_rtt = Some(self.min_rtt.map_or(rtt, |m| m.min(rtt)));
            self.cnt_rtt += 1;
        }
    }

    fn grow(&mut self, g: Subflows, w: &mut Window, ack: &Ack) {
        if !self.enabled {
            Reno.grow(g, w, ack);
            return;
        }
        // Linux `after(ack, beg_snd_nxt)` (ns-2: ackno ≥ v_begseq_, the same point): the
        // round ends once an ACK covers more than what was sent when it began.
        if ack.snd_una > self.beg_snd_nxt {
            self.beg_snd_nxt = ack.snd_nxt;
            self.end_of_round(g, w, ack);
        } else if w.in_slow_start() {
            slow_start(w, ack.acked); // Linux grows every RTT in slow start, unlike classic Vegas
        }
    }

    /// Reno's halving (`tcp_reno_ssthresh`; RFC 5681 FlightSize form as in `Reno`).
    fn ssthresh(&mut self, _g: Subflows, _w: &Window, flight: f64, why: Congestion, _now: Time) -> f64 {
        match why {
            // `tcp_vegas_state`: leaving TCP_CA_Open disables Vegas until recovery ends.
            Congestion::Loss | Congestion::Timeout => self.enabled = false,
            // The sender ends no recovery after an ECE reduction: restart the round at once.
            Congestion::Ecn => self.restart_round(),
        }
        half_flight(flight)
    }

    /// `tcp_vegas_state(TCP_CA_Open)` → `vegas_enable`.
    fn on_recovery_end(&mut self, _g: Subflows, _w: &Window, _now: Time) {
        self.restart_round();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::from_secs;

    fn linux() -> VegasParams {
        VegasParams { alpha: 2.0, beta: 4.0, gamma: 1.0, classic_diff: false, variant: Some(VegasVariant::Linux) }
    }

    fn ms(v: f64) -> Time {
        from_secs(v / 1000.0)
    }

    fn ack(snd_una: f64, snd_nxt: f64, rtt: Option<Time>) -> Ack {
        Ack { acked: 1.0, rtt, snd_una, snd_nxt, ..Default::default() }
    }

    fn feed(v: &mut Vegas, w: &mut Window, a: Ack) {
        v.on_ack(Subflows::ALONE, w, &a);
        v.grow(Subflows::ALONE, w, &a);
    }

    /// A Vegas that has learned baseRTT = 20 ms and starts a round ending at snd_nxt = 21
    /// (a sample taken during recovery, then recovery ends).
    fn primed(params: VegasParams, w: &Window) -> Vegas {
        let mut v = Vegas::new(params);
        v.on_ack(Subflows::ALONE, w, &ack(1.0, 21.0, Some(ms(20.0))));
        v.on_recovery_end(Subflows::ALONE, w, 0);
        v
    }

    /// One round: ACKs for snd_una 2..=21 (no decision yet), then 22 (ends the round).
    /// Returns cwnd after each ACK.
    fn round(v: &mut Vegas, w: &mut Window, rtt_ms: f64) -> Vec<f64> {
        (2..=22)
            .map(|una| {
                feed(v, w, ack(una as f64, una as f64 + 20.0, Some(ms(rtt_ms))));
                w.cwnd
            })
            .collect()
    }

    #[test]
    fn diff_of_four_holds_with_linux_thresholds() {
        // By hand: base 20 ms, rtt 24 ms, cwnd 20: diff = 20·4/20 = 4 → α 2 ≤ 4 ≤ β 4.
        let mut w = Window { cwnd: 20.0, ssthresh: 20.0 };
        let mut v = primed(linux(), &w);
        let trace = round(&mut v, &mut w, 24.0);
        assert!(trace.iter().all(|&c| c == 20.0), "{trace:?}");
        assert_eq!(v.diff(20.0, ms(24.0), ms(20.0)), 4.0);
    }

    #[test]
    fn diff_of_five_shrinks_once_per_rtt() {
        // rtt 25 ms: diff = 20·5/20 = 5 > 4 → cwnd 19, ssthresh min(20, 19 − 1) = 18, but
        // only when snd_una passes beg_snd_nxt = 21, i.e. at the 21st ACK of the round.
        let mut w = Window { cwnd: 20.0, ssthresh: 20.0 };
        let mut v = primed(linux(), &w);
        let trace = round(&mut v, &mut w, 25.0);
        assert!(trace[..20].iter().all(|&c| c == 20.0), "changed before the round ended: {trace:?}");
        assert_eq!(trace[20], 19.0);
        assert_eq!(w.ssthresh, 18.0);
        assert_eq!(v.beg_snd_nxt, 42.0);
        // The next round (snd_una up to 42) again holds its decision to its end.
        for una in 23..=42 {
            feed(&mut v, &mut w, ack(una as f64, una as f64 + 19.0, Some(ms(25.0))));
            assert_eq!(w.cwnd, 19.0);
        }
        // 19·5/20 = 4.75 > 4 → 18.
        feed(&mut v, &mut w, ack(43.0, 62.0, Some(ms(25.0))));
        assert_eq!(w.cwnd, 18.0);
    }

    #[test]
    fn classic_diff_divides_by_the_current_rtt() {
        // By hand: classic diff at rtt 24 ms = 20·4/24 = 3.33.
        let classic = Vegas::new(VegasParams { classic_diff: true, ..linux() });
        assert!((classic.diff(20.0, ms(24.0), ms(20.0)) - 10.0 / 3.0).abs() < 1e-12);
        // At rtt 25 ms: classic 20·5/25 = 4 ≤ β → hold, where Linux's 5 shrinks (test above).
        let mut w = Window { cwnd: 20.0, ssthresh: 20.0 };
        let mut v = primed(VegasParams { classic_diff: true, ..linux() }, &w);
        let trace = round(&mut v, &mut w, 25.0);
        assert_eq!(*trace.last().unwrap(), 20.0);
    }

    #[test]
    fn ns2_defaults_grow_below_alpha() {
        // ns-2 α 1, β 3: rtt 20.5 ms → diff = 20·0.5/20 = 0.5 < 1 → +1 at the round's end.
        let mut w = Window { cwnd: 20.0, ssthresh: 20.0 };
        let mut v = primed(VegasParams::default(), &w);
        let trace = round(&mut v, &mut w, 20.5);
        assert_eq!(trace[19], 20.0);
        assert_eq!(trace[20], 21.0);
    }

    #[test]
    fn two_samples_or_fewer_fall_back_to_reno() {
        // rtt 40 ms would give diff = 20 ≫ β. With only 2 samples in the round the decision
        // is Reno's for that ACK: +1/20. With 3 samples Vegas shrinks to 19.
        for (samples, expected) in [(2, 20.0 + 1.0 / 20.0), (3, 19.0)] {
            let mut w = Window { cwnd: 20.0, ssthresh: 20.0 };
            let mut v = primed(linux(), &w);
            for una in 2..=22 {
                let rtt = (una > 22 - samples).then_some(ms(40.0));
                feed(&mut v, &mut w, ack(una as f64, una as f64 + 20.0, rtt));
            }
            assert!((w.cwnd - expected).abs() < 1e-12, "{samples} samples: cwnd {}", w.cwnd);
        }
    }

    #[test]
    fn slow_start_ends_when_diff_exceeds_gamma() {
        // cwnd 8 in slow start, base 20 ms. Each ACK of the round adds one segment: the 8 ACKs
        // for snd_una 2..=9 take cwnd to 16, the round ends at snd_una 10 with cwnd 16.
        // rtt 24 ms: diff = 16·4/20 = 3.2 > γ 1 → target = 16·20/24 = 13.33,
        // cwnd = min(16, 14.33) = 14.33, ssthresh = 13.33.
        // rtt 21 ms: diff = 16·1/20 = 0.8 ≤ 1 → slow start goes on: 17.
        for (rtt, cwnd, ssthresh) in [(24.0, 16.0 * 20.0 / 24.0 + 1.0, 16.0 * 20.0 / 24.0), (21.0, 17.0, 100.0)] {
            let mut w = Window { cwnd: 8.0, ssthresh: 100.0 };
            let mut v = Vegas::new(linux());
            v.on_ack(Subflows::ALONE, &w, &ack(1.0, 9.0, Some(ms(20.0))));
            v.on_recovery_end(Subflows::ALONE, &w, 0);
            for una in 2..=9 {
                feed(&mut v, &mut w, ack(una as f64, una as f64 + 8.0, Some(ms(rtt))));
            }
            assert_eq!(w.cwnd, 16.0);
            feed(&mut v, &mut w, ack(10.0, 26.0, Some(ms(rtt))));
            assert!((w.cwnd - cwnd).abs() < 1e-12 && (w.ssthresh - ssthresh).abs() < 1e-12, "rtt {rtt}: {w:?}");
        }
    }

    /// Runs ACK-clocked rounds at a fixed RTT from cwnd 20 (CA) with baseRTT 20 ms; each
    /// ACK covers one segment and the window is kept full.
    fn run_after_path_change(params: VegasParams, rtt_ms: f64, acks: usize) -> (Vegas, Window, f64) {
        let mut w = Window { cwnd: 20.0, ssthresh: 20.0 };
        let mut v = primed(params, &w);
        let mut lowest = w.cwnd;
        for i in 0..acks {
            let una = 2.0 + i as f64;
            let a = ack(una, una + w.cwnd.floor(), Some(ms(rtt_ms)));
            feed(&mut v, &mut w, a);
            lowest = lowest.min(w.cwnd);
        }
        (v, w, lowest)
    }

    #[test]
    fn base_rtt_never_rises_after_a_path_change() {
        // By hand: the path's RTT becomes 40 ms with no queue, baseRTT stays 20 ms,
        // so diff = cwnd·(40 − 20)/20 = cwnd. Linux β 4: one segment less per round while
        // cwnd > 4, then hold at 4 (diff 4 is neither > β nor < α 2): 16 rounds of ≤ 20 ACKs.
        let (v, w, lowest) = run_after_path_change(linux(), 40.0, 400);
        assert_eq!(v.base_rtt, Some(ms(20.0)));
        assert_eq!((w.cwnd, lowest), (4.0, 4.0));
        // ns-2 α 1, β 3: equilibrium 3.
        let (_, w, _) = run_after_path_change(VegasParams::default(), 40.0, 400);
        assert_eq!(w.cwnd, 3.0);
    }

    #[test]
    fn loss_halves_and_disables_vegas_until_recovery_ends() {
        let w = Window { cwnd: 20.0, ssthresh: 20.0 };
        let mut v = primed(linux(), &w);
        assert_eq!(v.ssthresh(Subflows::ALONE, &w, 20.0, Congestion::Loss, 0), 10.0);
        // While disabled (e.g. ACKs after an RTO before recovery ends) growth is Reno's even
        // where Vegas would hold: cwnd 10 in CA → +1/10 per ACK.
        let mut w = Window { cwnd: 10.0, ssthresh: 10.0 };
        feed(&mut v, &mut w, ack(30.0, 40.0, Some(ms(40.0))));
        assert!((w.cwnd - 10.1).abs() < 1e-12);
        // Recovery ends: a new round from snd_nxt 40; no change before snd_una passes it.
        v.on_recovery_end(Subflows::ALONE, &w, 0);
        assert_eq!((v.enabled, v.beg_snd_nxt, v.cnt_rtt), (true, 40.0, 0));
        feed(&mut v, &mut w, ack(31.0, 41.0, Some(ms(40.0))));
        assert!((w.cwnd - 10.1).abs() < 1e-12);
    }
}
