//! practRA, practical rate adaptation (Nedevschi et al., NSDI 2008), as Panarello et al. 2016
//! use it (docs/models/rate-policies.md §1): one rate step at a time, chosen from an EWMA prediction of
//! the arrival rate, the queue and a delay bound, at most once per minimum rate-change interval.

use serde::{Deserialize, Serialize};

use super::{Command, PortController, PortView};
use crate::error::{positive, ScenarioError};
use crate::time::{from_secs, to_secs, Time};

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct PracticalRateAdaptationSpec {
    /// The available service rates (e.g. 1, 2, …, 10 Mb/s).
    pub rates_bps: Vec<f64>,
    /// d, the queueing-delay bound; not given by Panarello et al., default 10 ms.
    #[serde(default = "default_delay_bound")]
    pub delay_bound_s: f64,
    /// mRCI, the minimum interval between two rate changes.
    pub min_rate_change_interval_s: f64,
    /// w, the EWMA weight of each arrival-rate sample; not given by Panarello et al., default 0.25.
    #[serde(default = "default_weight")]
    pub ewma_weight: f64,
    /// T_s, the arrival-rate sampling interval; not given by Panarello et al. Default: mRCI, since
    /// their §6.1 says a large mRCI "works on an average of the arrival rate calculated on
    /// longer time intervals"; a T_s below one packet time makes every sample 0 or a burst.
    #[serde(default)]
    pub sample_interval_s: Option<f64>,
}

fn default_delay_bound() -> f64 {
    0.010
}
fn default_weight() -> f64 {
    0.25
}

#[derive(Clone, Debug)]
pub struct PracticalRateAdaptation {
    rates: Vec<u64>,
    index: usize,
    delay_bound: f64,
    transition: f64,
    min_interval: Time,
    weight: f64,
    sample_interval: Time,
    /// r̂_f, the predicted arrival rate in bit/s.
    predicted_bps: f64,
    last_change: Option<Time>,
    arrived_at_last_sample: u64,
}

impl PracticalRateAdaptation {
    pub fn new(
        spec: &PracticalRateAdaptationSpec,
        transition: Time,
        initial_rate_bps: u64,
        field: &str,
    ) -> Result<Self, ScenarioError> {
        let f = |name: &str| format!("{field}.{name}");
        let mut rates = Vec::with_capacity(spec.rates_bps.len());
        for (i, &r) in spec.rates_bps.iter().enumerate() {
            if !(r.is_finite() && r >= 1.0) {
                return Err(ScenarioError::new(
                    f(&format!("rates_bps[{i}]")),
                    format!("must be a rate of at least 1 bit/s, got {r}"),
                ));
            }
            rates.push(r.round() as u64);
        }
        rates.sort_unstable();
        rates.dedup();
        if rates.is_empty() {
            return Err(ScenarioError::new(f("rates_bps"), "needs at least one rate"));
        }
        // The initial rate is r_MAX (docs/models/rate-policies.md §1); it must be one of the rates.
        let index = rates.iter().position(|&r| r == initial_rate_bps).ok_or_else(|| {
            ScenarioError::new(
                f("rates_bps"),
                format!("must include the port's initial rate, {initial_rate_bps} bit/s"),
            )
        })?;
        let min_interval = positive(spec.min_rate_change_interval_s, f("min_rate_change_interval_s"))?;
        // Panarello et al. require δ < mRCI: a change must be able to complete before the next.
        if from_secs(min_interval) <= transition {
            return Err(ScenarioError::new(f("min_rate_change_interval_s"), "must exceed the port's transition_s (δ)"));
        }
        if !(spec.ewma_weight > 0.0 && spec.ewma_weight <= 1.0) {
            return Err(ScenarioError::new(f("ewma_weight"), format!("must be in (0, 1], got {}", spec.ewma_weight)));
        }
        Ok(PracticalRateAdaptation {
            index,
            delay_bound: positive(spec.delay_bound_s, f("delay_bound_s"))?,
            transition: to_secs(transition),
            min_interval: from_secs(min_interval),
            weight: spec.ewma_weight,
            sample_interval: match spec.sample_interval_s {
                Some(t) => from_secs(positive(t, f("sample_interval_s"))?),
                None => from_secs(min_interval),
            },
            predicted_bps: rates[index] as f64,
            last_change: None,
            arrived_at_last_sample: 0,
            rates,
        })
    }

    /// The decision rule (docs/models/rate-policies.md §1) for queue `q` bits at the current rate, given r̂_f.
    fn decide(&mut self, now: Time, q_bits: u64) -> Option<Command> {
        // Decisions only once mRCI has passed since the last change.
        if self.last_change.is_some_and(|t| now - t < self.min_interval) {
            return None;
        }
        let q = q_bits as f64;
        let (d, delta, r_hat) = (self.delay_bound, self.transition, self.predicted_bps);
        let r_i = self.rates[self.index] as f64;
        let next = match self.rates.get(self.index + 1) {
            // Step up iff q/r_i > d or (δ·r̂_f + q)/r_{i+1} > d − δ.
            Some(&up) if q / r_i > d || (delta * r_hat + q) / up as f64 > d - delta => self.index + 1,
            // Step down iff q = 0 and r̂_f < r_{i−1}.
            _ if self.index > 0 && q_bits == 0 && r_hat < self.rates[self.index - 1] as f64 => self.index - 1,
            _ => return None,
        };
        self.index = next;
        self.last_change = Some(now);
        Some(Command::SetRate(self.rates[next]))
    }
}

impl PortController for PracticalRateAdaptation {
    fn on_arrival(&mut self, view: &PortView) -> Option<Command> {
        self.decide(view.now, view.queue_bits)
    }

    fn on_departure(&mut self, view: &PortView) -> Option<Command> {
        self.decide(view.now, view.queue_bits)
    }

    /// Every T_s: a_k = bits arrived / T_s; r̂_f ← (1 − w)·r̂_f + w·a_k; then decide.
    fn on_tick(&mut self, view: &PortView) -> Option<Command> {
        let bits = (view.arrived_bytes - self.arrived_at_last_sample) as f64 * 8.0;
        self.arrived_at_last_sample = view.arrived_bytes;
        let sample = bits / to_secs(self.sample_interval);
        self.predicted_bps = (1.0 - self.weight) * self.predicted_bps + self.weight * sample;
        self.decide(view.now, view.queue_bits)
    }

    fn tick_interval(&self) -> Option<Time> {
        Some(self.sample_interval)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Panarello et al.'s rates {1, …, 10} Mb/s, d = 10 ms, w = 0.25.
    fn spec(mrci_s: f64, sample_interval_s: Option<f64>) -> PracticalRateAdaptationSpec {
        PracticalRateAdaptationSpec {
            rates_bps: (1..=10).map(|m| m as f64 * 1e6).collect(),
            delay_bound_s: 0.010,
            min_rate_change_interval_s: mrci_s,
            ewma_weight: 0.25,
            sample_interval_s,
        }
    }

    fn controller(mrci_s: f64) -> PracticalRateAdaptation {
        PracticalRateAdaptation::new(&spec(mrci_s, Some(0.001)), from_secs(0.001), 10_000_000, "links[0].controller")
            .unwrap()
    }

    fn at(c: &mut PracticalRateAdaptation, mbps: u64, r_hat: f64) {
        c.index = (mbps - 1) as usize;
        c.predicted_bps = r_hat;
        c.last_change = None;
    }

    #[test]
    fn the_spec_sanity_check() {
        // docs/models/rate-policies.md §1's check: r_i = 5 Mb/s, q = 30 kbit, d = 10 ms, δ = 1 ms, r̂_f = 6 Mb/s:
        // q/r_i = 6 ms ≤ d and (6 kbit + 30 kbit)/6 Mb/s = 6 ms ≤ 9 ms: no step up.
        let mut c = controller(0.1);
        at(&mut c, 5, 6e6);
        assert_eq!(c.decide(0, 30_000), None);
        // q = 0 and r̂_f = 3.5 Mb/s < 4 Mb/s: step down to 4 Mb/s.
        at(&mut c, 5, 3.5e6);
        assert_eq!(c.decide(0, 0), Some(Command::SetRate(4_000_000)));
    }

    #[test]
    fn steps_up_on_either_inequality() {
        let mut c = controller(0.1);
        // q/r_i: 60 kbit at 5 Mb/s = 12 ms > 10 ms.
        at(&mut c, 5, 0.0);
        assert_eq!(c.decide(0, 60_000), Some(Command::SetRate(6_000_000)));
        // Second rule: q = 40 kbit (8 ms ≤ d at 5 Mb/s); r̂_f = 20 Mb/s: (20 + 40) kbit / 6 Mb/s = 10 ms > 9 ms.
        at(&mut c, 5, 20e6);
        assert_eq!(c.decide(0, 40_000), Some(Command::SetRate(6_000_000)));
        // At the top rate there is nowhere to go.
        at(&mut c, 10, 50e6);
        assert_eq!(c.decide(0, 1_000_000), None);
    }

    #[test]
    fn min_rate_change_interval_is_respected() {
        let mut c = controller(0.5);
        at(&mut c, 5, 0.0);
        assert_eq!(c.decide(from_secs(1.0), 0), Some(Command::SetRate(4_000_000)));
        // 0.4 s later: too early; 0.5 s later: allowed.
        assert_eq!(c.decide(from_secs(1.4), 0), None);
        assert_eq!(c.decide(from_secs(1.5), 0), Some(Command::SetRate(3_000_000)));
    }

    #[test]
    fn the_predictor_is_an_ewma_of_per_interval_arrivals() {
        let mut c = controller(1000.0);
        c.last_change = Some(0);
        // Start at r_MAX = 10 Mb/s; 1 ms intervals carrying 625 B = 5 Mb/s each:
        // r̂ = 5 + 5·0.75ⁿ Mb/s: after 1 → 8.75, after 2 → 7.8125.
        let mut view = PortView::default();
        for (n, expected) in [(1, 8.75e6), (2, 7.8125e6)] {
            view.arrived_bytes = 625 * n;
            c.on_tick(&view);
            assert!((c.predicted_bps - expected).abs() < 1e-6, "{}", c.predicted_bps);
        }
    }

    #[test]
    fn the_sampling_interval_defaults_to_the_minimum_rate_change_interval() {
        let c = PracticalRateAdaptation::new(&spec(0.5, None), from_secs(0.001), 2_000_000, "x").unwrap();
        assert_eq!(c.tick_interval(), Some(from_secs(0.5)));
        let e = PracticalRateAdaptation::new(&spec(0.5, Some(-1.0)), from_secs(0.001), 2_000_000, "x").unwrap_err();
        assert_eq!(e.field, "x.sample_interval_s");
    }

    #[test]
    fn bad_parameters_name_their_field() {
        let e = PracticalRateAdaptation::new(&spec(0.001, None), from_secs(0.001), 2_000_000, "x").unwrap_err();
        assert_eq!(e.field, "x.min_rate_change_interval_s");
        let e = PracticalRateAdaptation::new(&spec(0.001, None), 0, 5_500_000, "x").unwrap_err();
        assert_eq!(e.field, "x.rates_bps");
    }
}
