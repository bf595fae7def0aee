//! The G-router of Lombardo, Panarello, Schembra, "Measuring Minimum Transmission Resources in
//! the Internet Access Router: A Sustainable Performance/Energy Trade-Off Approach" (§2): AWM holds the queue near a
//! target by rewriting the advertised window of ACKs, and the service rate follows either
//! C-EARTH (continuous, from the queue's variation over the estimated round-trip time) or
//! its stepwise precursor EARTH (hardware rate steps), or stays fixed (AWM alone).
//!
//! Cadence: AWM's window moves at every arrival and departure (eq. 1–2). C-EARTH (eq. 3–4)
//! and the flow estimate (eq. 5) move once per estimated round-trip time, from the queue,
//! window and capacity at the start and end of that RTT (the once-per-RTT_k
//! alternative). Applied at every packet instead, C-EARTH's gain grows with the packet
//! rate (in the access-router case study, slow-start bursts took C from 20 Mb/s to below
//! 1 Mb/s within 9 s of a 10 Mb/s load), and eq. 5 with eq. 2 takes (MTU/(N·swnd))²·swnd
//! off the window at every one-packet rise and fall of the queue, faster than β restores it
//! (over the 600 s case study, C averaged 3.3 Mb/s for a load averaging 20 Mb/s).
//!
//! The once-per-RTT reading is the paper's own (§2.2): the queue variation "should be averaged along
//! a time interval of duration equal to the round-trip time", and Δq/RTT_k (eq. 3) is then the
//! mismatch between arrival and service rate over that interval.
//!
//! Eq. 5 and eq. 7 together keep N·swnd/C (the RTT estimate) as it starts unless N is
//! clamped, so N₀ must be set with swnd₀ and C₀ for the estimate to be a round-trip time:
//! N₀ = C₀·RTT/swnd₀. `round_trip_propagation_s` does that from eq. 6 with the round trip known
//! at configuration plus the target's queueing delay, RTT₀ = RTT + T/C₀: no per-flow state and
//! no constant to tune.
//!
//! What the equations cannot do: C moves by |Δq|/RTT·g and by nothing else, so a queue that
//! stays put leaves C where it is. An over-provisioned start whose queue stays empty keeps C at
//! C_init, although the paper's §2 says an empty queue reveals the waste (no equation turns AWM's
//! growing swnd into a lower C). In the access-router case study (tests/grouter.rs) that costs
//! the first phase: utilisation 91.6–93.5 % over the run, 97.6–99 % after it. Likewise, when a
//! node downstream becomes the bottleneck the G-router's queue drains and stays near empty,
//! and C drifts down to the bottleneck's rate only over ≈ 150 s (`wattnet reproduce g-router`).
//! Counting the capacity left unused while the queue is empty as part of Δq (so that an
//! empty queue lowers C to the arrival rate) was tried and collapses: during slow start the
//! arrival rate is far below the demand, C falls to C_min within the first RTTs, and eq. 4
//! raises it again only by the queue's small changes around T (throughput 0.9 % of the
//! over-provisioned run). Capping swnd at 64 KB (so that an unbinding window cannot wind up
//! and shrink the flow estimate) left the queue's oscillation in that case study as it was
//! (σ ≈ 30 packets), and so did DSL up-link buffers of 10 or 30 packets instead of 100.
//!
//! The oscillation comes from AWM's window not binding. Under eq. 5, N·swnd/C stays at the RTT
//! estimate, so AWM's target term (DT) grows or shrinks each window by the factor
//! e^(β·t·(T−q)/(T·C·RTT_k)): a time constant of C₀·RTT_k/β whatever C does, since β scales
//! with C. With RTT_k = 0.25 s that is 500 s, longer than the case study's phases; swnd stays
//! at 55–75 KB, above what a 1 Mb/s source needs, and the queue swings with the sources' own
//! loss cycles. With N₀ = 1 (RTT_k = 26 ms, 52 s) the window binds and AWM holds
//! the queue at T (σ ≈ 5 KB, next to no loss), but then C settles far below the demand: with q at T,
//! g = |q − T|/T ≈ 0 and Δq ≈ 0, so eq. 4 has nothing to raise C with (5 Mb/s for 25 offered,
//! a third of the over-provisioned throughput; tests/grouter.rs). Values between can match the
//! paper's case study 1 (N₀ = 4, RTT_k = 105 ms: 97.4–98.0 % utilisation, 98.5–101.9 %
//! throughput, the queue at T ± 6 packets over `wattnet reproduce g-router`'s five runs) but not
//! robustly: in tests/grouter.rs's variant at full length the same N₀ fell below the load in the
//! 25-source phase (55–87 % throughput), as nothing pulls C up again. Starting C at the first
//! phase's 10 Mb/s instead of 20 fails the same way from the other side: C-EARTH raises C only
//! by the queue's changes, a queue that fills and stays full stops it, and the throughput is
//! 70–72 % of over-provisioned (utilisation 98–99 %).

use serde::{Deserialize, Serialize};

use super::{Command, PortController, PortView};
use crate::error::{positive, ScenarioError};
use crate::time::{from_secs, to_secs, Time};

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct GRouterSpec {
    /// T, the queue target (the paper: half the 100-packet buffer, 50 000 B).
    pub target_bytes: f64,
    /// γ: C-EARTH aims at T_CE = γ·T (the paper: 0.95).
    #[serde(default = "default_gamma")]
    pub gamma: f64,
    /// β, AWM's gain in bit/s (the paper: 10 kb/s), rescaled with the capacity.
    #[serde(default = "default_beta")]
    pub beta_bps: f64,
    /// The smallest suggested window (silly-window avoidance): one MTU.
    pub mtu_bytes: f64,
    /// swnd₀; not in the paper, default 64 KB.
    #[serde(default = "default_swnd")]
    pub initial_window_bytes: f64,
    /// N₀, the initial flow estimate, given directly (for sensitivity studies); default 1.
    /// N₀·swnd₀/C₀ is the RTT estimate for the whole run (see the module note).
    #[serde(default)]
    pub initial_flows: Option<f64>,
    /// The round-trip propagation delay known at configuration; when given, N₀ follows from
    /// eq. 6 with RTT₀ = this + T/C₀: N₀ = RTT₀·C₀/swnd₀ (at least 1). Excludes initial_flows.
    #[serde(default)]
    pub round_trip_propagation_s: Option<f64>,
    /// C_min and C_max of C-EARTH; defaults 100 kb/s and the port's initial rate.
    #[serde(default)]
    pub min_rate_bps: Option<f64>,
    #[serde(default)]
    pub max_rate_bps: Option<f64>,
    #[serde(default)]
    pub rate_control: RateControl,
}

/// How the G-router sets its service rate.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum RateControl {
    /// C-EARTH (the paper's eqs. 3–4): continuous, between min_rate_bps and max_rate_bps.
    #[default]
    CEarth,
    /// EARTH (the paper's stepwise precursor, default triggers): one step down after the queue has been empty
    /// for an estimated RTT, one step up after it has stayed above the target for one; at
    /// most one change per estimated RTT.
    Earth { rates_bps: Vec<f64> },
    /// AWM alone at the port's rate.
    Fixed,
}

fn default_gamma() -> f64 {
    0.95
}
fn default_beta() -> f64 {
    10e3
}
fn default_swnd() -> f64 {
    65536.0
}

#[derive(Clone, Debug)]
pub struct GRouter {
    target: f64,
    target_c_earth: f64,
    mtu: f64,
    min_rate: f64,
    max_rate: f64,
    mode: Mode,
    /// AWM state: suggested window (B), flow estimate, gain (B/s), previous queue and time.
    swnd: f64,
    flows: f64,
    beta: f64,
    q_prev: f64,
    t_prev: Time,
    /// C-EARTH's capacity in B/s.
    capacity: f64,
    /// The state at the start of the current estimated RTT.
    epoch: Epoch,
}

/// What C-EARTH and the flow estimate compare one RTT later.
#[derive(Clone, Copy, Debug)]
struct Epoch {
    start: Time,
    queue: f64,
    swnd: f64,
    capacity: f64,
}

#[derive(Clone, Debug)]
enum Mode {
    CEarth,
    Earth(Steps),
    Fixed,
}

/// EARTH's state: the rate steps (B/s), the current one, and when the queue last became
/// empty or rose above the target.
#[derive(Clone, Debug)]
struct Steps {
    rates: Vec<f64>,
    index: usize,
    empty_since: Option<Time>,
    above_since: Option<Time>,
    last_change: Option<Time>,
}

impl GRouter {
    pub fn new(spec: &GRouterSpec, initial_rate_bps: u64, field: &str) -> Result<GRouter, ScenarioError> {
        let f = |name: &str| format!("{field}.{name}");
        let max_rate = positive(spec.max_rate_bps.unwrap_or(initial_rate_bps as f64), f("max_rate_bps"))? / 8.0;
        let min_rate = positive(spec.min_rate_bps.unwrap_or(100e3), f("min_rate_bps"))? / 8.0;
        if min_rate > max_rate {
            return Err(ScenarioError::new(f("min_rate_bps"), "must not exceed max_rate_bps"));
        }
        if !(spec.gamma > 0.0 && spec.gamma <= 1.0) {
            return Err(ScenarioError::new(f("gamma"), format!("must be in (0, 1], got {}", spec.gamma)));
        }
        let target = positive(spec.target_bytes, f("target_bytes"))?;
        let mode = match &spec.rate_control {
            RateControl::CEarth => Mode::CEarth,
            RateControl::Fixed => Mode::Fixed,
            RateControl::Earth { rates_bps } => {
                let mut rates = Vec::with_capacity(rates_bps.len());
                for (i, &r) in rates_bps.iter().enumerate() {
                    rates.push(positive(r, f(&format!("rate_control.rates_bps[{i}]")))?.round() / 8.0);
                }
                rates.sort_by(f64::total_cmp);
                let index = rates.iter().position(|&r| r * 8.0 == initial_rate_bps as f64).ok_or_else(|| {
                    ScenarioError::new(
                        f("rate_control.rates_bps"),
                        format!("must include the port's initial rate, {initial_rate_bps} bit/s"),
                    )
                })?;
                Mode::Earth(Steps { rates, index, empty_since: None, above_since: None, last_change: None })
            }
        };
        let swnd = positive(spec.initial_window_bytes, f("initial_window_bytes"))?;
        let capacity = (initial_rate_bps as f64 / 8.0).clamp(min_rate, max_rate);
        let flows = match (spec.initial_flows, spec.round_trip_propagation_s) {
            (Some(_), Some(_)) => {
                return Err(ScenarioError::new(
                    f("initial_flows"),
                    "give initial_flows or round_trip_propagation_s, not both",
                ))
            }
            (Some(flows), None) => {
                let flows = positive(flows, f("initial_flows"))?;
                if flows < 1.0 {
                    return Err(ScenarioError::new(f("initial_flows"), format!("must be at least 1, got {flows}")));
                }
                flows
            }
            // Lombardo, Panarello, Schembra, "Measuring Minimum Transmission Resources in the
            // Internet Access Router", eq. 6 (RTT = N·swnd/C) at configuration time, with the
            // target queue's delay T/C₀ added to the propagation delay.
            (None, Some(rtt)) => {
                let rtt = positive(rtt, f("round_trip_propagation_s"))?;
                ((rtt + target / capacity) * capacity / swnd).max(1.0)
            }
            (None, None) => 1.0,
        };
        Ok(GRouter {
            target,
            target_c_earth: spec.gamma * target,
            mtu: positive(spec.mtu_bytes, f("mtu_bytes"))?,
            min_rate,
            max_rate,
            mode,
            swnd,
            flows,
            beta: positive(spec.beta_bps, f("beta_bps"))? / 8.0,
            q_prev: 0.0,
            t_prev: 0,
            capacity,
            epoch: Epoch { start: 0, queue: 0.0, swnd, capacity },
        })
    }

    /// The window AWM suggests, in bytes.
    pub fn suggested_window(&self) -> f64 {
        self.swnd
    }

    pub fn flow_estimate(&self) -> f64 {
        self.flows
    }

    /// The RTT estimate, eq. 7 from the state at the start of the current RTT:
    /// RTT_k = N·swnd/C.
    pub fn rtt_estimate(&self) -> f64 {
        self.flows * self.epoch.swnd / self.epoch.capacity
    }

    /// One update at an arrival or departure (the paper's §2, in this order: RTT from
    /// the previous state, C-EARTH's capacity once an RTT has passed, β rescaled, AWM's
    /// window, and once an RTT has passed the flow estimate).
    fn update(&mut self, now: Time, q: f64) -> Option<Command> {
        let rtt = self.rtt_estimate();
        let c_prev = self.capacity;
        let rtt_passed = now - self.epoch.start >= from_secs(rtt);
        let command = match &mut self.mode {
            Mode::Fixed => None,
            // Eq. 3–4 once per RTT_k: Δq = q(start of the RTT) − q_k, Δr = Δq/RTT_k,
            // g = |q_k − T|/T, ΔC = |Δr|·sgn(q_k − T_CE)·g.
            Mode::CEarth if rtt_passed => {
                let dr = (self.epoch.queue - q) / rtt;
                let g = (q - self.target).abs() / self.target;
                let sign = (q - self.target_c_earth).signum();
                self.capacity = (self.capacity + dr.abs() * sign * g).clamp(self.min_rate, self.max_rate);
                Some(Command::Tune((self.capacity * 8.0).round() as u64))
            }
            Mode::CEarth => None,
            Mode::Earth(steps) => {
                let rtt_t = from_secs(rtt);
                steps.empty_since = if q == 0.0 { Some(steps.empty_since.unwrap_or(now)) } else { None };
                steps.above_since = if q > self.target { Some(steps.above_since.unwrap_or(now)) } else { None };
                let settled = steps.last_change.is_none_or(|t| now - t >= rtt_t);
                let held = |since: Option<Time>| since.is_some_and(|t| now - t >= rtt_t);
                let next = if settled && held(steps.empty_since) && steps.index > 0 {
                    Some(steps.index - 1)
                } else if settled && held(steps.above_since) && steps.index + 1 < steps.rates.len() {
                    Some(steps.index + 1)
                } else {
                    None
                };
                next.map(|i| {
                    steps.index = i;
                    steps.last_change = Some(now);
                    steps.empty_since = None;
                    steps.above_since = None;
                    self.capacity = steps.rates[i];
                    Command::SetRate((self.capacity * 8.0).round() as u64)
                })
            }
        };
        // β_k = β_{k−1}·C_k/C_{k−1}.
        self.beta *= self.capacity / c_prev;
        // Eq. 1–2: DQ = (q_{k−1} − q_k)/N, DT = β·(t_k − t_{k−1})·(T − q_k)/(N·T).
        let dq = (self.q_prev - q) / self.flows;
        let dt = self.beta * to_secs(now - self.t_prev) * (self.target - q) / (self.flows * self.target);
        self.swnd = (self.swnd + dq + dt).max(self.mtu);
        if rtt_passed {
            // Eq. 5 between the start and the end of the RTT, at least 1:
            // N_k = N_{k−1}·(swnd_{k−1}·C_k)/(swnd_k·C_{k−1}).
            let e = self.epoch;
            self.flows = (self.flows * (e.swnd * self.capacity) / (self.swnd * e.capacity)).max(1.0);
            self.epoch = Epoch { start: now, queue: q, swnd: self.swnd, capacity: self.capacity };
        }
        self.q_prev = q;
        self.t_prev = now;
        command
    }
}

impl PortController for GRouter {
    fn on_arrival(&mut self, view: &PortView) -> Option<Command> {
        self.update(view.now, view.queue_bits as f64 / 8.0)
    }

    fn on_departure(&mut self, view: &PortView) -> Option<Command> {
        self.update(view.now, view.queue_bits as f64 / 8.0)
    }

    fn manages_windows(&self) -> bool {
        true
    }

    /// AWM: an ACK's advertised window is lowered to swnd, never raised (the paper's eqs. 1–2).
    fn rewrite_window(&self, window: u64) -> u64 {
        window.min(self.swnd as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec() -> GRouterSpec {
        GRouterSpec {
            target_bytes: 50_000.0,
            gamma: 0.95,
            beta_bps: 10e3,
            mtu_bytes: 1000.0,
            initial_window_bytes: 65536.0,
            initial_flows: None,
            round_trip_propagation_s: None,
            min_rate_bps: None,
            max_rate_bps: Some(100e6),
            rate_control: RateControl::CEarth,
        }
    }

    #[test]
    fn c_earth_sanity_check() {
        // The paper's numbers: T = 50 000 B, T_CE = 47 500 B, RTT_k = 0.2 s; q from 52 000 to 55 000 B:
        // Δq = −3000 B, Δr = −15 000 B/s, g = 0.1, ΔC = +1500 B/s (+12 kb/s).
        // RTT_k = N₀·swnd₀/C₀ = 10 · 50 000 B / 2.5 MB/s = 0.2 s.
        let spec = GRouterSpec { initial_window_bytes: 50_000.0, initial_flows: Some(10.0), ..spec() };
        let mut g = GRouter::new(&spec, 20_000_000, "c").unwrap();
        assert!((g.rtt_estimate() - 0.2).abs() < 1e-12);
        g.epoch.queue = 52_000.0;
        g.q_prev = 55_000.0; // no AWM change from the queue term
        let before = g.capacity;
        assert_eq!(g.update(from_secs(0.2), 55_000.0), Some(Command::Tune(20_012_000)));
        assert!((g.capacity - before - 1500.0).abs() < 1e-6, "{}", g.capacity - before);
    }

    #[test]
    fn c_earth_moves_once_per_rtt_by_the_queue_change_over_it() {
        // N₀ = 1, swnd₀ = 500 000 B, C₀ = 2.5 MB/s: RTT_k = 0.2 s. The queue climbs from 0 to
        // 10 000 B in ten packets during the first 10 ms (a slow-start burst): C holds until
        // the RTT has passed, then moves once, by Δq = 0 − 10 000 B over 0.2 s, weighted by
        // g = 40 000/50 000 and signed by q < T_CE: ΔC = −50 000·0.8 = −40 000 B/s,
        // 2.5 MB/s → 2.46 MB/s = 19.68 Mb/s. (At every packet instead, the ten updates took
        // C from 20 to 18.5 Mb/s within the burst.)
        let mut g = GRouter::new(&GRouterSpec { initial_window_bytes: 500_000.0, ..spec() }, 20_000_000, "c").unwrap();
        for i in 1..=10 {
            assert_eq!(g.update(from_secs(0.001 * i as f64), 1000.0 * i as f64), None);
        }
        assert_eq!(g.update(from_secs(0.199), 10_000.0), None);
        assert_eq!(g.update(from_secs(0.2), 10_000.0), Some(Command::Tune(19_680_000)));
        assert_eq!(g.update(from_secs(0.25), 10_000.0), None, "the next change waits for the next RTT");
    }

    #[test]
    fn the_rtt_estimate_is_what_n0_swnd0_and_c0_make_it() {
        // Eq. 5 keeps N·swnd/C across each RTT while N ≥ 1, so eq. 7's RTT stays at
        // N₀·swnd₀/C₀ = 20 · 25 000 B / 2.5 MB/s = 0.2 s as the queue, the window and C move.
        let spec = GRouterSpec { initial_window_bytes: 25_000.0, initial_flows: Some(20.0), ..spec() };
        let mut g = GRouter::new(&spec, 20_000_000, "c").unwrap();
        let mut t = 0.0;
        for q in [0.0, 20_000.0, 60_000.0, 45_000.0, 80_000.0, 10_000.0, 50_000.0] {
            t += 0.21;
            g.update(from_secs(t), q);
            assert!((g.rtt_estimate() - 0.2).abs() < 1e-9, "{}", g.rtt_estimate());
        }
        assert!(g.flow_estimate() > 1.0 && g.capacity != 2_500_000.0);
    }

    #[test]
    fn n0_follows_from_eq_6_with_the_configured_round_trip_and_the_target_queue() {
        // RTT₀ = 0.2 s + T/C₀ = 0.2 + 50 000 B / 2.5 MB/s = 0.22 s; N₀ = 0.22 · 2.5e6 / 65 536
        // = 8.392… and the RTT estimate N₀·swnd₀/C₀ is RTT₀ again.
        let configured = GRouterSpec { round_trip_propagation_s: Some(0.2), ..spec() };
        let g = GRouter::new(&configured, 20_000_000, "c").unwrap();
        assert!((g.flow_estimate() - 0.22 * 2.5e6 / 65536.0).abs() < 1e-12);
        assert!((g.rtt_estimate() - 0.22).abs() < 1e-12);
        // A short path gives less than one flow's window: N₀ is held at 1.
        let short = GRouter::new(&GRouterSpec { round_trip_propagation_s: Some(0.001), ..spec() }, 20_000_000, "c");
        assert_eq!(short.unwrap().flow_estimate(), 1.0);
        let both = GRouterSpec { initial_flows: Some(2.0), round_trip_propagation_s: Some(0.2), ..spec() };
        let error = GRouter::new(&both, 20_000_000, "c").unwrap_err().to_string();
        assert!(error.contains("c.initial_flows") && error.contains("not both"), "{error}");
    }

    #[test]
    fn a_packet_level_queue_oscillation_leaves_the_window_where_it_was() {
        // AWM alone, N = 1. A hundred one-packet rises and falls of the queue within one RTT
        // (at one instant, so DT = 0): DQ = ∓1000/N each time, back to swnd₀ exactly. With
        // eq. 5 applied at every packet, each rise and fall took (1000/(N·swnd))²·swnd ≈ 15 B
        // off the window: 1.5 KB after a hundred.
        let mut g = GRouter::new(&GRouterSpec { rate_control: RateControl::Fixed, ..spec() }, 20_000_000, "c").unwrap();
        for _ in 0..100 {
            g.update(0, 1000.0);
            g.update(0, 0.0);
        }
        assert_eq!(g.suggested_window(), 65536.0);
        assert_eq!(g.flow_estimate(), 1.0);
    }

    #[test]
    fn awm_grows_below_the_target_and_shrinks_when_the_queue_rises() {
        // Fixed rate (AWM alone), N = 1, β = 1250 B/s. Queue empty for 1 s:
        // DT = 1250 · 1 · (T − 0)/T = +1250 B. Then the queue jumps to 10 000 B at once:
        // DQ = (0 − 10 000)/1 = −10 000 B, DT = 0.
        let mut g = GRouter::new(&GRouterSpec { rate_control: RateControl::Fixed, ..spec() }, 20_000_000, "c").unwrap();
        assert_eq!(g.update(from_secs(1.0), 0.0), None);
        assert!((g.suggested_window() - (65536.0 + 1250.0)).abs() < 1e-9);
        g.update(from_secs(1.0), 10_000.0);
        assert!((g.suggested_window() - (66786.0 - 10_000.0)).abs() < 1e-9);
        // The flow estimate moves once the RTT that began at 1 s has passed (RTT_k =
        // 66 786 B / 2.5 MB/s = 26.7 ms): eq. 5 with C constant, N = swnd(1 s)/swnd now, where
        // the window has meanwhile grown by DT = 1250·0.03·(40 000/50 000) = 30 B.
        g.update(from_secs(1.03), 10_000.0);
        assert!((g.suggested_window() - (56786.0 + 30.0)).abs() < 1e-6);
        assert!((g.flow_estimate() - 66786.0 / 56816.0).abs() < 1e-9);
        // Windows are only ever lowered.
        assert_eq!(g.rewrite_window(1 << 20), 56816);
        assert_eq!(g.rewrite_window(1000), 1000);
    }

    #[test]
    fn earth_steps_down_after_an_empty_rtt_and_up_after_a_full_one() {
        // Steps 10/15/20 Mb/s, starting at 20. RTT_k = N·swnd/C = 65 536 B / 2.5 MB/s = 26.2 ms.
        let spec = GRouterSpec { rate_control: RateControl::Earth { rates_bps: vec![10e6, 15e6, 20e6] }, ..spec() };
        let mut g = GRouter::new(&spec, 20_000_000, "c").unwrap();
        // Empty at 0 and 10 ms: not yet an RTT. (AWM grows swnd meanwhile, RTT_k with it.)
        assert_eq!(g.update(0, 0.0), None);
        assert_eq!(g.update(from_secs(0.010), 0.0), None);
        // Empty since 0 and 30 ms > RTT_k ≈ 26.3 ms later: one step down.
        assert_eq!(g.update(from_secs(0.030), 0.0), Some(Command::SetRate(15_000_000)));
        // Still empty, but a change needs an RTT since the last one (and a fresh empty RTT).
        assert_eq!(g.update(from_secs(0.040), 0.0), None);
        // Above the target from 0.1 s for more than an RTT: one step up.
        assert_eq!(g.update(from_secs(0.100), 60_000.0), None);
        assert_eq!(g.update(from_secs(0.200), 60_000.0), Some(Command::SetRate(20_000_000)));
    }

    #[test]
    fn the_window_never_falls_below_one_mtu() {
        let mut g = GRouter::new(&GRouterSpec { rate_control: RateControl::Fixed, ..spec() }, 20_000_000, "c").unwrap();
        g.update(0, 1e9);
        assert_eq!(g.suggested_window(), 1000.0);
    }
}
