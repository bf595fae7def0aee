//! CUBIC (RFC 9438; Linux `net/ipv4/tcp_cubic.c`).
//!
//! HyStart (the delay-increase detection) is a switch (the `hystart` TCP field) with its
//! threshold's parameters (Linux's or ns-3's); HyStart++ (RFC 9406) and HyStart's ACK-train
//! detection are not modelled. Not modelled either: removing
//! application-limited periods from
//! `t` (RFC 9438 §5.8), because the sender does not report idle periods; and the undo of
//! spurious congestion events (§4.9, MAY).
//!
//! The concave/convex increase is applied per segment acknowledged, as Linux
//! (`tcp_cong_avoid_ai(tp, cnt, acked)`) and ns-3 do; RFC 9438 §4.4 words it per ACK,
//! which is the same without delayed ACKs.

use serde::{Deserialize, Serialize};

use super::{slow_start, Ack, Congestion, CongestionControl, Subflows, Window};
use crate::time::{to_secs, Time};

/// CUBIC's constants; the defaults are RFC 9438's.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(default, deny_unknown_fields)]
pub struct CubicParams {
    /// C in segments/s³ (RFC 9438 §5.1: 0.4; Linux `bic_scale` = 41 gives 41·10/1024 = 0.400).
    pub c: f64,
    /// β_cubic (RFC 9438 §4.6: 0.7; Linux `beta` = 717/1024; 819/1024 ≈ 0.8 in kernels
    /// 2.6.19 to about 2.6.25 and in the ns-2 TCP-Linux copy).
    pub beta: f64,
    /// Lower W_max when a congestion event comes below it (RFC 9438 §4.7; Linux `fast_convergence`).
    pub fast_convergence: bool,
    /// The Reno-friendly region (RFC 9438 §4.3; Linux `tcp_friendliness`).
    pub tcp_friendliness: bool,
    /// Initial ssthresh in segments; 0 keeps the sender's (Linux `initial_ssthresh`; the
    /// sender applies it, see [`CongestionControl::initial_ssthresh`]).
    pub initial_ssthresh: u32,
}

impl Default for CubicParams {
    fn default() -> Self {
        CubicParams { c: 0.4, beta: 0.7, fast_convergence: true, tcp_friendliness: true, initial_ssthresh: 0 }
    }
}

impl CubicParams {
    pub fn validate(&self) -> Result<(), String> {
        if !(self.c.is_finite() && self.c > 0.0) {
            return Err(format!("c must be a positive number, got {}", self.c));
        }
        if !(self.beta > 0.0 && self.beta < 1.0) {
            return Err(format!("beta must be in (0, 1), got {}", self.beta));
        }
        Ok(())
    }
}

/// RFC 9438 eq. 1: W_cubic(t) = C·(t − K)³ + W_max, with t and K in seconds.
fn w_cubic(c: f64, k: f64, w_max: f64, t: f64) -> f64 {
    c * (t - k).powi(3) + w_max
}

/// One congestion-avoidance stage (RFC 9438 "epoch"): fixed from its first ACK to the next
/// congestion event or recovery end.
#[derive(Clone, Copy, Debug)]
struct Epoch {
    /// t_epoch.
    start: Time,
    /// K in seconds.
    k: f64,
    w_max: f64,
    /// W_est, the Reno-friendly estimate.
    w_est: f64,
    cwnd_prior: f64,
}

#[derive(Clone, Debug)]
pub struct Cubic {
    params: CubicParams,
    /// W_max; `None` before the first congestion event and after a timeout.
    w_max: Option<f64>,
    /// cwnd_prior: cwnd when ssthresh was last set (RFC 9438 §4.1.2).
    cwnd_prior: Option<f64>,
    epoch: Option<Epoch>,
    /// RFC 6298 SRTT in seconds: RFC 9438 §4.1.2 takes RTT as the smoothed RTT.
    srtt: Option<f64>,
    /// HyStart's delay detector, when enabled.
    hystart: Option<HyStart>,
}

/// HyStart's delay-increase threshold: slow start ends when a round's minimum RTT exceeds the
/// connection's minimum by clamp(`delay_fraction`·minimum, `delay_min`, `delay_max`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HyStartParams {
    pub delay_fraction: f64,
    pub delay_min: Time,
    pub delay_max: Time,
    /// The RTTs compared are the smoothed RTT after each sample (ns-3.44 passes
    /// `m_tcb->m_lastRtt`, set to `m_rtt->GetEstimate()`, to `PktsAcked`), not the samples (Linux).
    pub smoothed_rtt: bool,
}

impl HyStartParams {
    /// Linux `tcp_cubic.c`: `HYSTART_DELAY_THRESH(delay_min >> 3)`, clamped to 4 and 16 ms.
    pub const LINUX: HyStartParams = HyStartParams {
        delay_fraction: 0.125,
        delay_min: 4_000_000_000,
        delay_max: 16_000_000_000,
        smoothed_rtt: false,
    };

    fn threshold(&self, delay_min: Time) -> Time {
        ((delay_min as f64 * self.delay_fraction).round() as Time).clamp(self.delay_min, self.delay_max)
    }
}

/// Linux `tcp_cubic.c` HyStart, delay-increase detection (Ha and Rhee, "Taming the elephants:
/// New TCP slow start", Computer Networks, 2011): leave slow start when the minimum RTT of a
/// round's first samples exceeds the connection's minimum by the threshold of [`HyStartParams`].
#[derive(Clone, Debug)]
struct HyStart {
    params: HyStartParams,
    found: bool,
    /// The round ends when snd_una passes this (segments; Linux `end_seq`).
    round_end: f64,
    /// The smallest RTT of this round's samples, and how many were taken.
    curr_rtt: Option<Time>,
    samples: u32,
    /// The smallest RTT seen (Linux `delay_min`).
    delay_min: Option<Time>,
}

/// Linux `hystart_low_window`: HyStart acts from a window of 16 segments.
const HYSTART_LOW_WINDOW: f64 = 16.0;
/// Linux `HYSTART_MIN_SAMPLES`.
const HYSTART_MIN_SAMPLES: u32 = 8;

impl HyStart {
    fn new(params: HyStartParams, delay_min: Option<Time>) -> HyStart {
        HyStart { params, found: false, round_end: 0.0, curr_rtt: None, samples: 0, delay_min }
    }

    /// `hystart_update` for one ACK in slow start with its RTT `rtt`; true when slow start should end.
    fn update(&mut self, ack: &Ack, rtt: Option<Time>) -> bool {
        if ack.snd_una > self.round_end {
            // `bictcp_hystart_reset`: a new round.
            self.round_end = ack.snd_nxt;
            self.curr_rtt = None;
            self.samples = 0;
        }
        let (Some(rtt), Some(delay_min)) = (rtt, self.delay_min) else { return false };
        self.curr_rtt = Some(self.curr_rtt.map_or(rtt, |c| c.min(rtt)));
        if self.samples < HYSTART_MIN_SAMPLES {
            self.samples += 1;
            return false;
        }
        self.found = self.curr_rtt.is_some_and(|c| c > delay_min + self.params.threshold(delay_min));
        self.found
    }
}

impl Cubic {
    pub fn new(params: CubicParams) -> Cubic {
        Cubic { params, w_max: None, cwnd_prior: None, epoch: None, srtt: None, hystart: None }
    }

    /// CUBIC with HyStart's delay-based slow-start exit.
    pub fn with_hystart(params: CubicParams, hystart: HyStartParams) -> Cubic {
        Cubic { hystart: Some(HyStart::new(hystart, None)), ..Cubic::new(params) }
    }

    /// The RTT HyStart compares on this ACK: its sample, or the smoothed RTT after it.
    fn hystart_rtt(&self, ack: &Ack) -> Option<Time> {
        match &self.hystart {
            Some(h) if h.params.smoothed_rtt => ack.rtt.and(self.srtt.map(crate::time::from_secs)),
            _ => ack.rtt,
        }
    }

    fn start_epoch(&mut self, now: Time, cwnd: f64) -> Epoch {
        let (k, w_max) = match self.w_max {
            // RFC 9438 §4.2 eq. 2, K from cwnd_epoch (Linux: bic_K from last_max_cwnd − cwnd).
            Some(w_max) if w_max > cwnd => (((w_max - cwnd) / self.params.c).cbrt(), w_max),
            // §4.8 after a timeout, §4.10 after a slow start without loss: K = 0 and
            // W_max = cwnd_epoch (Linux: origin point = cwnd).
            _ => (0.0, cwnd),
        };
        self.w_max = Some(w_max);
        // §4.1.2: cwnd_prior is set on exiting the first slow start if no loss set it.
        let cwnd_prior = *self.cwnd_prior.get_or_insert(cwnd);
        // §4.3: W_est starts at cwnd_epoch.
        Epoch { start: now, k, w_max, w_est: cwnd, cwnd_prior }
    }
}

impl CongestionControl for Cubic {
    fn on_ack(&mut self, _g: Subflows, _w: &Window, ack: &Ack) {
        if let Some(sample) = ack.rtt {
            let r = to_secs(sample);
            // RFC 6298 §2.2–2.3 with α = 1/8.
            self.srtt = Some(match self.srtt {
                None => r,
                Some(srtt) => 0.875 * srtt + 0.125 * r,
            });
        }
        let rtt = self.hystart_rtt(ack);
        if let (Some(h), Some(r)) = (&mut self.hystart, rtt) {
            h.delay_min = Some(h.delay_min.map_or(r, |m| m.min(r)));
        }
    }

    fn grow(&mut self, _g: Subflows, w: &mut Window, ack: &Ack) {
        let rtt = self.hystart_rtt(ack);
        if let Some(h) = &mut self.hystart {
            if !h.found && w.in_slow_start() && w.cwnd >= HYSTART_LOW_WINDOW && h.update(ack, rtt) {
                w.ssthresh = w.cwnd; // Linux: snd_ssthresh = cwnd, congestion avoidance from here
            }
        }
        let acked = slow_start(w, ack.acked);
        if acked <= 0.0 {
            return;
        }
        let mut e = match self.epoch {
            Some(e) => e,
            None => self.start_epoch(ack.now, w.cwnd),
        };
        let p = &self.params;
        let t = to_secs(ack.now.saturating_sub(e.start));
        if p.tcp_friendliness {
            // RFC 9438 §4.3 eq. 4; α_cubic = 3(1 − β)/(1 + β) until W_est reaches cwnd_prior, then 1.
            let alpha = if e.w_est >= e.cwnd_prior { 1.0 } else { 3.0 * (1.0 - p.beta) / (1.0 + p.beta) };
            e.w_est += alpha * acked / w.cwnd;
        }
        if p.tcp_friendliness && w_cubic(p.c, e.k, e.w_max, t) < e.w_est {
            w.cwnd = e.w_est; // §4.3: Reno-friendly region
        } else {
            // §4.2: target = W_cubic(t + RTT) clamped to [cwnd, 1.5·cwnd].
            let rtt = self.srtt.unwrap_or(0.0);
            let target = w_cubic(p.c, e.k, e.w_max, t + rtt).clamp(w.cwnd, 1.5 * w.cwnd);
            w.cwnd += acked * (target - w.cwnd) / w.cwnd; // §4.4 concave, §4.5 convex
        }
        self.epoch = Some(e);
    }

    /// RFC 9438 §4.6–4.8 on cwnd (as Linux does; the RFC allows cwnd for flight_size).
    fn ssthresh(&mut self, _g: Subflows, w: &Window, _flight: f64, why: Congestion, _now: Time) -> f64 {
        let p = &self.params;
        let cwnd = w.cwnd;
        self.cwnd_prior = Some(cwnd); // §4.6
        self.w_max = match self.w_max {
            // §4.8: the stage after a timeout uses K = 0 (Linux resets on TCP_CA_Loss).
            _ if why == Congestion::Timeout => None,
            // §4.7 fast convergence.
            Some(w_max) if p.fast_convergence && cwnd < w_max => Some(cwnd * (1.0 + p.beta) / 2.0),
            _ => Some(cwnd),
        };
        self.epoch = None;
        if let (Some(h), Congestion::Timeout) = (&mut self.hystart, why) {
            // Linux `bictcp_state(TCP_CA_Loss)`: HyStart may act again in the next slow start.
            *h = HyStart::new(h.params, h.delay_min);
        }
        (cwnd * p.beta).max(2.0) // §4.6: ssthresh ≥ 2 segments
    }

    /// A new congestion-avoidance stage starts at the next ACK (Linux: epoch_start = 0).
    fn on_recovery_end(&mut self, _g: Subflows, _w: &Window, _now: Time) {
        self.epoch = None;
    }

    fn initial_ssthresh(&self) -> Option<f64> {
        (self.params.initial_ssthresh > 0).then_some(self.params.initial_ssthresh as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::from_secs;

    /// RFC 9438 eq. 1 written out again: C = 0.4, W_max = 100,
    /// K = ∛(100·0.3/0.4) = ∛75.
    fn w_spec(t: f64) -> f64 {
        0.4 * (t - 75f64.cbrt()).powi(3) + 100.0
    }

    fn no_friendliness() -> CubicParams {
        CubicParams { tcp_friendliness: false, ..Default::default() }
    }

    /// A CUBIC that lost at cwnd 100 and has just left recovery: cwnd = ssthresh = 70.
    fn after_loss_at_100(params: CubicParams) -> (Cubic, Window) {
        let mut cubic = Cubic::new(params);
        let mut w = Window { cwnd: 100.0, ssthresh: 1e9 };
        w.ssthresh = cubic.ssthresh(Subflows::ALONE, &w, 100.0, Congestion::Loss, 0);
        w.cwnd = w.ssthresh;
        cubic.on_recovery_end(Subflows::ALONE, &w, 0);
        (cubic, w)
    }

    fn ack_at(now: Time, rtt: Option<Time>) -> Ack {
        Ack { now, acked: 1.0, rtt, ..Default::default() }
    }

    #[test]
    fn window_function_matches_the_spec_table() {
        // By hand: K = ∛75 = 4.2172;
        // W(1) = 100 − 0.4·3.2172³ = 100 − 0.4·33.30 = 86.68; W(2) = 100 − 0.4·2.2172³ = 95.64;
        // W(K + 1) = 100.4; W(K + 2) = 100 + 0.4·8 = 103.2; W(8) = 100 + 0.4·3.7828³ = 121.65.
        let k = ((100.0 - 70.0) / 0.4f64).cbrt();
        assert!((k - 4.217).abs() < 0.001);
        let table =
            [(0.0, 70.0), (1.0, 86.68), (2.0, 95.64), (k, 100.0), (k + 1.0, 100.40), (k + 2.0, 103.20), (8.0, 121.65)];
        for (t, want) in table {
            let got = w_cubic(0.4, k, 100.0, t);
            assert!((got - want).abs() < 0.005, "W({t}) = {got}, expected {want}");
        }
        // The same K from the loss path: W_max = 100, cwnd_epoch = ssthresh = 0.7·100 = 70.
        let (mut cubic, mut w) = after_loss_at_100(CubicParams::default());
        assert_eq!(w.cwnd, 70.0);
        cubic.grow(Subflows::ALONE, &mut w, &ack_at(from_secs(1.0), None));
        let e = cubic.epoch.unwrap();
        assert!((e.k - 4.2172).abs() < 1e-4 && e.w_max == 100.0, "{e:?}");
    }

    #[test]
    fn cwnd_tracks_the_cubic_curve_over_simulated_time() {
        // ACK-clocked: cwnd ACKs per RTT of 200 ms, so dt = RTT/cwnd between ACKs. Each ACK
        // moves cwnd by (W(t + RTT) − cwnd)/cwnd, i.e. dcwnd/dt = (W(t + RTT) − cwnd)/RTT:
        // a first-order lag of one RTT on W(t + RTT), whose output is
        // W(t) + RTT²·W''(t)/2 + … with W'' = 6·0.4·(t − K): −0.15 at t = 1 s, +0.10 at
        // K + 2, +0.18 at 8 s. The Reno estimate stays below: 70 + 0.53/RTT·8 s = 91 < W(8).
        let rtt = from_secs(0.2);
        let (mut cubic, mut w) = after_loss_at_100(CubicParams::default());
        let start = from_secs(10.0);
        let k = 75f64.cbrt();
        let mut checkpoints = vec![1.0, 2.0, k, k + 1.0, k + 2.0, 8.0];
        checkpoints.reverse();
        let mut now = start;
        let mut prev = w.cwnd;
        while let Some(&next) = checkpoints.last() {
            let a = ack_at(now, Some(rtt));
            cubic.on_ack(Subflows::ALONE, &w, &a);
            cubic.grow(Subflows::ALONE, &mut w, &a);
            let t = to_secs(now - start);
            // Never beyond the target one RTT ahead, never shrinking.
            assert!(w.cwnd <= w_spec(t + 0.2) + 1e-9, "t {t}: cwnd {} above W(t+RTT)", w.cwnd);
            assert!(w.cwnd >= prev);
            prev = w.cwnd;
            if t >= next {
                // The ACK lands < 3 ms after the checkpoint: W moves < 0.07 in that time.
                assert!((w.cwnd - w_spec(next)).abs() < 0.3, "t {next}: cwnd {} vs W {}", w.cwnd, w_spec(next));
                checkpoints.pop();
            }
            now += (rtt as f64 / w.cwnd) as Time;
        }
        assert!(cubic.epoch.unwrap().w_est < 92.0);
    }

    #[test]
    fn target_is_clamped_between_cwnd_and_one_and_a_half_cwnd() {
        let rtt = from_secs(0.1);
        let (mut cubic, mut w) = after_loss_at_100(no_friendliness());
        let t0 = from_secs(5.0);
        let first = ack_at(t0, Some(rtt));
        cubic.on_ack(Subflows::ALONE, &w, &first);
        // The epoch starts at t0 with K = 4.217.
        cubic.grow(Subflows::ALONE, &mut w, &first);
        // 12 s later W(12.1) = 100 + 0.4·7.88³ ≈ 296 > 1.5·cwnd → target = 1.5·cwnd,
        // so this ACK adds exactly (1.5c − c)/c = 0.5 (unclamped it would add ≈ 3.2).
        let before = w.cwnd;
        cubic.grow(Subflows::ALONE, &mut w, &ack_at(t0 + from_secs(12.0), None));
        assert!((w.cwnd - before - 0.5).abs() < 1e-12, "added {}", w.cwnd - before);

        // Lower bound: with cwnd 95 at t = 0.5 s, W(0.6) = 100 − 0.4·3.617³ = 81.1 < 95, so
        // target = cwnd and cwnd does not move (it is never pulled down towards W).
        let (mut cubic, mut w) = after_loss_at_100(no_friendliness());
        cubic.on_ack(Subflows::ALONE, &w, &first);
        cubic.grow(Subflows::ALONE, &mut w, &first);
        w.cwnd = 95.0;
        cubic.grow(Subflows::ALONE, &mut w, &ack_at(t0 + from_secs(0.5), None));
        assert_eq!(w.cwnd, 95.0);
    }

    #[test]
    fn fast_convergence_lowers_w_max() {
        // By hand: loss at 90 with W_max 100 → W_max = 90·1.7/2 = 76.5, ssthresh 63.
        let (mut cubic, _) = after_loss_at_100(CubicParams::default());
        let w = Window { cwnd: 90.0, ssthresh: 70.0 };
        assert!((cubic.ssthresh(Subflows::ALONE, &w, 90.0, Congestion::Loss, 0) - 63.0).abs() < 1e-12);
        assert!((cubic.w_max.unwrap() - 76.5).abs() < 1e-12);
        assert_eq!(cubic.cwnd_prior, Some(90.0));
        // The next stage starts at cwnd_epoch 63: K = ∛((76.5 − 63)/0.4) = ∛33.75 = 3.2317.
        let mut w = Window { cwnd: 63.0, ssthresh: 63.0 };
        cubic.on_recovery_end(Subflows::ALONE, &w, 0);
        cubic.grow(Subflows::ALONE, &mut w, &ack_at(from_secs(1.0), None));
        assert!((cubic.epoch.unwrap().k - 3.2317).abs() < 1e-4);

        // Without fast convergence W_max is cwnd at the loss; ssthresh is the same.
        let (mut plain, _) = after_loss_at_100(CubicParams { fast_convergence: false, ..Default::default() });
        let w = Window { cwnd: 90.0, ssthresh: 70.0 };
        assert!((plain.ssthresh(Subflows::ALONE, &w, 90.0, Congestion::Ecn, 0) - 63.0).abs() < 1e-12);
        assert_eq!(plain.w_max, Some(90.0));
    }

    #[test]
    fn short_rtt_follows_the_reno_estimate() {
        // RTT 1 ms, loss at cwnd 10 → W_max 10, cwnd_prior 10, cwnd_epoch 7, K = ∛7.5 = 1.957 s.
        // Over 20 ms W_cubic barely moves: W(0.02) = 10 − 0.4·1.937³ = 7.09. W_est grows by
        // α_cubic = 3·0.3/1.7 = 0.5294 per RTT (cwnd ACKs of α/cwnd each) until it reaches
        // cwnd_prior: (10 − 7)/0.5294 = 5.67 RTTs; then by 1 per RTT for the remaining
        // 14.33 RTTs → 24.33 at 20 ms. The ACK grid adds a little to that continuous figure:
        // the ACK at t = 0 already adds α/7 = 0.08, and each ACK adds 1/cwnd_before while the
        // next comes RTT/cwnd_after later, which sums to α·(1/7 − 1/10) + (1/10 − 1/24.3) =
        // 0.08 more: 24.33..24.49.
        let rtt = from_secs(0.001);
        let run = |params: CubicParams| {
            let mut cubic = Cubic::new(params);
            let mut w = Window { cwnd: 10.0, ssthresh: 1e9 };
            w.ssthresh = cubic.ssthresh(Subflows::ALONE, &w, 10.0, Congestion::Loss, 0);
            w.cwnd = w.ssthresh;
            cubic.on_recovery_end(Subflows::ALONE, &w, 0);
            let start = from_secs(1.0);
            let mut now = start;
            while now <= start + from_secs(0.020) {
                let a = ack_at(now, Some(rtt));
                cubic.on_ack(Subflows::ALONE, &w, &a);
                cubic.grow(Subflows::ALONE, &mut w, &a);
                now += (rtt as f64 / w.cwnd) as Time;
            }
            (cubic, w)
        };
        let (cubic, w) = run(CubicParams::default());
        assert!((24.33..24.5).contains(&w.cwnd), "cwnd {}", w.cwnd);
        assert_eq!(w.cwnd, cubic.epoch.unwrap().w_est);
        // Without the Reno-friendly region cwnd stays on the cubic curve, ≈ 7.09.
        let (_, w) = run(no_friendliness());
        assert!((7.0..7.2).contains(&w.cwnd), "cwnd {}", w.cwnd);
    }

    #[test]
    fn after_a_timeout_the_curve_restarts_flat_at_cwnd_epoch() {
        // Loss at 100, then an RTO at cwnd 80: ssthresh 0.7·80 = 56, cwnd 1, slow start to 56;
        // the first stage after it has K = 0 and W_max = cwnd_epoch = 56 (RFC 9438 §4.8).
        let (mut cubic, _) = after_loss_at_100(CubicParams::default());
        let w = Window { cwnd: 80.0, ssthresh: 70.0 };
        assert!((cubic.ssthresh(Subflows::ALONE, &w, 80.0, Congestion::Timeout, 0) - 56.0).abs() < 1e-12);
        let mut w = Window { cwnd: 1.0, ssthresh: 56.0 };
        cubic.on_recovery_end(Subflows::ALONE, &w, 0);
        for i in 0..55 {
            cubic.grow(Subflows::ALONE, &mut w, &ack_at(from_secs(1.0) + i, None));
        }
        assert_eq!(w.cwnd, 56.0);
        assert!(cubic.epoch.is_none(), "no congestion avoidance yet");
        cubic.grow(Subflows::ALONE, &mut w, &ack_at(from_secs(1.1), None));
        let e = cubic.epoch.unwrap();
        assert_eq!((e.k, e.w_max, e.cwnd_prior), (0.0, 56.0, 80.0));
    }

    #[test]
    fn leaving_the_first_slow_start_without_loss_sets_k_zero() {
        // RFC 9438 §4.10: W_max undefined → K = 0, W_max = cwnd_prior = cwnd at that point.
        let mut cubic = Cubic::new(CubicParams::default());
        let mut w = Window { cwnd: 9.0, ssthresh: 10.0 };
        cubic.grow(Subflows::ALONE, &mut w, &ack_at(0, None)); // slow start 9 → 10
        assert!(cubic.epoch.is_none());
        cubic.grow(Subflows::ALONE, &mut w, &ack_at(1, None));
        let e = cubic.epoch.unwrap();
        assert_eq!((e.k, e.w_max, e.cwnd_prior, e.w_est), (0.0, 10.0, 10.0, 10.0 + 1.0 / 10.0));
    }

    #[test]
    fn srtt_is_smoothed_as_rfc_6298() {
        // Samples 100 ms then 200 ms: SRTT = 0.875·0.1 + 0.125·0.2 = 0.1125 s.
        let mut cubic = Cubic::new(CubicParams::default());
        let w = Window { cwnd: 10.0, ssthresh: 5.0 };
        cubic.on_ack(Subflows::ALONE, &w, &ack_at(0, Some(from_secs(0.1))));
        cubic.on_ack(Subflows::ALONE, &w, &ack_at(0, Some(from_secs(0.2))));
        assert!((cubic.srtt.unwrap() - 0.1125).abs() < 1e-12);
    }

    /// HyStart with a 100 ms minimum RTT: threshold clamp(12.5 ms, 4, 16) = 12.5 ms. A round
    /// whose samples are all 112 ms stays in slow start; one whose nine samples are 113 ms
    /// ends it on the ninth (eight samples first, Linux HYSTART_MIN_SAMPLES), ssthresh = cwnd.
    #[test]
    fn hystart_exits_slow_start_when_the_round_minimum_rises_past_the_threshold() {
        let ms = |v: f64| from_secs(v / 1000.0);
        let mut cubic = Cubic::with_hystart(CubicParams::default(), HyStartParams::LINUX);
        let mut w = Window { cwnd: 16.0, ssthresh: 1e9 };
        let mut una = 0.0;
        let mut round = |cubic: &mut Cubic, w: &mut Window, rtt: f64, n: usize| {
            for i in 0..n {
                // Each round starts with an ACK past the previous round's end.
                una += if i == 0 { 1000.0 } else { 0.001 };
                let a = Ack {
                    now: 0,
                    acked: 0.0,
                    rtt: Some(ms(rtt)),
                    ece: false,
                    snd_una: una,
                    snd_nxt: una + 100.0,
                    ..Default::default()
                };
                cubic.on_ack(Subflows::ALONE, w, &a);
                cubic.grow(Subflows::ALONE, w, &a);
            }
        };
        round(&mut cubic, &mut w, 100.0, 9);
        round(&mut cubic, &mut w, 112.0, 20);
        assert_eq!(w.ssthresh, 1e9, "112 ms is within 100 + 12.5 ms");
        round(&mut cubic, &mut w, 113.0, 8);
        assert_eq!(w.ssthresh, 1e9, "eight samples are only gathered");
        round(&mut cubic, &mut w, 113.0, 1);
        assert_eq!(w.ssthresh, 1e9, "a new round starts its count again");
        let mut again = Cubic::with_hystart(CubicParams::default(), HyStartParams::LINUX);
        let mut w = Window { cwnd: 16.0, ssthresh: 1e9 };
        round(&mut again, &mut w, 100.0, 9);
        round(&mut again, &mut w, 113.0, 9);
        assert_eq!(w.ssthresh, 16.0, "the ninth 113 ms sample ends slow start at cwnd 16");
        // ns-3.44's threshold, clamp(100 ms, 4 ms, 1 s) = 100 ms: 113 ms and 200 ms stay within
        // it; 201 ms ends slow start.
        let ns3 = HyStartParams { delay_fraction: 1.0, delay_min: ms(4.0), delay_max: ms(1000.0), smoothed_rtt: false };
        let mut ns3_cubic = Cubic::with_hystart(CubicParams::default(), ns3);
        let mut w = Window { cwnd: 16.0, ssthresh: 1e9 };
        round(&mut ns3_cubic, &mut w, 100.0, 9);
        round(&mut ns3_cubic, &mut w, 113.0, 9);
        round(&mut ns3_cubic, &mut w, 200.0, 9);
        assert_eq!(w.ssthresh, 1e9, "200 ms is within 100 + 100 ms");
        round(&mut ns3_cubic, &mut w, 201.0, 9);
        assert_eq!(w.ssthresh, 16.0);
        // Given smoothed RTTs (ns-3.44 hands TcpCubic the SRTT), a round of 250 ms samples after
        // 100 ms ones starts at SRTT ⅞·100 + ⅛·250 = 118.75 ms, the round's minimum: within
        // 100 + 100 ms, so slow start goes on, where the samples themselves (250 > 200) end it.
        let smoothed = HyStartParams { smoothed_rtt: true, ..ns3 };
        for (params, ends) in [(smoothed, false), (ns3, true)] {
            let mut cubic = Cubic::with_hystart(CubicParams::default(), params);
            let mut w = Window { cwnd: 16.0, ssthresh: 1e9 };
            round(&mut cubic, &mut w, 100.0, 9);
            round(&mut cubic, &mut w, 250.0, 9);
            assert_eq!(w.ssthresh == 16.0, ends, "smoothed: {}", params.smoothed_rtt);
        }
        // Without HyStart the same samples keep slow start going.
        let mut plain = Cubic::new(CubicParams::default());
        let mut w = Window { cwnd: 16.0, ssthresh: 1e9 };
        round(&mut plain, &mut w, 100.0, 9);
        round(&mut plain, &mut w, 113.0, 9);
        assert_eq!(w.ssthresh, 1e9);
    }
}
