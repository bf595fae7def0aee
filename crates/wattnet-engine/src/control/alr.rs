//! Adaptive Link Rate (Gunaratne et al., IEEE Trans. Computers 2008; docs/models/rate-policies.md §2): two rates
//! switched by dual queue thresholds, optionally gated by the recent utilisation.

use serde::{Deserialize, Serialize};

use super::{Command, PortController, PortView};
use crate::error::ScenarioError;
use crate::time::{from_secs, Time};

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct AdaptiveLinkRateSpec {
    pub low_rate_bps: f64,
    /// The high rate; default the port's initial rate.
    #[serde(default)]
    pub high_rate_bps: Option<f64>,
    /// q_low: at the high rate, switch down when the queue falls below it (default 0, empty).
    #[serde(default)]
    pub low_threshold_bytes: u64,
    /// q_high: at the low rate, switch up when the queue exceeds it (default 32 KB).
    #[serde(default = "default_high")]
    pub high_threshold_bytes: u64,
    /// The utilisation-monitoring variant: switch down only if the bytes sent over the last
    /// `utilization_window_s` are below `utilization_threshold`·window·low rate.
    #[serde(default)]
    pub utilization_window_s: Option<f64>,
    #[serde(default = "default_u")]
    pub utilization_threshold: f64,
}

fn default_high() -> u64 {
    32 * 1024
}
fn default_u() -> f64 {
    0.05
}

#[derive(Clone, Debug)]
pub struct AdaptiveLinkRate {
    low: u64,
    high: u64,
    q_low: u64,
    q_high: u64,
    window: Option<Time>,
    threshold: f64,
    /// Bytes sent at the start of the current utilisation window, and that start.
    window_start: (Time, u64),
    sent_last_window: Option<u64>,
}

impl AdaptiveLinkRate {
    pub fn new(spec: &AdaptiveLinkRateSpec, initial_rate_bps: u64, field: &str) -> Result<Self, ScenarioError> {
        let f = |name: &str| format!("{field}.{name}");
        let high = spec.high_rate_bps.unwrap_or(initial_rate_bps as f64);
        if !(spec.low_rate_bps.is_finite() && spec.low_rate_bps >= 1.0 && spec.low_rate_bps < high) {
            return Err(ScenarioError::new(
                f("low_rate_bps"),
                format!("must be at least 1 bit/s and below the high rate ({high})"),
            ));
        }
        if spec.low_threshold_bytes >= spec.high_threshold_bytes {
            return Err(ScenarioError::new(f("high_threshold_bytes"), "must exceed low_threshold_bytes"));
        }
        let window = match spec.utilization_window_s {
            Some(w) if w.is_finite() && w > 0.0 => Some(from_secs(w)),
            Some(w) => return Err(ScenarioError::new(f("utilization_window_s"), format!("must be positive, got {w}"))),
            None => None,
        };
        Ok(AdaptiveLinkRate {
            low: spec.low_rate_bps.round() as u64,
            high: high.round() as u64,
            q_low: spec.low_threshold_bytes,
            q_high: spec.high_threshold_bytes,
            window,
            threshold: spec.utilization_threshold,
            window_start: (0, 0),
            sent_last_window: None,
        })
    }

    fn decide(&mut self, view: &PortView) -> Option<Command> {
        let q = view.queue_bits / 8;
        if view.rate_bps == self.low && q > self.q_high {
            return Some(Command::SetRate(self.high));
        }
        // q_low = 0 means "empty"; otherwise strictly below it.
        let below_low = if self.q_low == 0 { q == 0 } else { q < self.q_low };
        if view.rate_bps == self.high && below_low && self.lightly_used() {
            return Some(Command::SetRate(self.low));
        }
        None
    }

    /// Without monitoring always true; with it, the last full window sent little enough.
    fn lightly_used(&self) -> bool {
        match (self.window, self.sent_last_window) {
            (None, _) => true,
            (Some(w), Some(sent)) => (sent as f64) < self.threshold * crate::time::to_secs(w) * self.low as f64 / 8.0,
            (Some(_), None) => false,
        }
    }
}

impl PortController for AdaptiveLinkRate {
    fn on_arrival(&mut self, view: &PortView) -> Option<Command> {
        self.decide(view)
    }

    fn on_departure(&mut self, view: &PortView) -> Option<Command> {
        self.decide(view)
    }

    fn on_tick(&mut self, view: &PortView) -> Option<Command> {
        self.sent_last_window = Some(view.departed_bytes - self.window_start.1);
        self.window_start = (view.now, view.departed_bytes);
        self.decide(view)
    }

    fn tick_interval(&self) -> Option<Time> {
        self.window
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(rate: u64, queue_bytes: u64) -> PortView {
        PortView { rate_bps: rate, queue_bits: queue_bytes * 8, ..Default::default() }
    }

    #[test]
    fn dual_thresholds() {
        // 100 Mb/s ↔ 1 Gb/s, q_low = 0 (empty), q_high = 32 KB.
        let spec = AdaptiveLinkRateSpec {
            low_rate_bps: 1e8,
            high_rate_bps: Some(1e9),
            low_threshold_bytes: 0,
            high_threshold_bytes: 32 * 1024,
            utilization_window_s: None,
            utilization_threshold: 0.05,
        };
        let mut alr = AdaptiveLinkRate::new(&spec, 1_000_000_000, "c").unwrap();
        assert_eq!(alr.decide(&view(1_000_000_000, 1)), None);
        assert_eq!(alr.decide(&view(1_000_000_000, 0)), Some(Command::SetRate(100_000_000)));
        assert_eq!(alr.decide(&view(100_000_000, 32 * 1024)), None);
        assert_eq!(alr.decide(&view(100_000_000, 32 * 1024 + 1)), Some(Command::SetRate(1_000_000_000)));
    }

    #[test]
    fn utilization_monitoring_blocks_a_switch_down_under_load() {
        // Window 10 ms, threshold 5 % of 100 Mb/s: at most 6250 B sent in the last window.
        let spec = AdaptiveLinkRateSpec {
            low_rate_bps: 1e8,
            high_rate_bps: Some(1e9),
            low_threshold_bytes: 0,
            high_threshold_bytes: 32 * 1024,
            utilization_window_s: Some(0.010),
            utilization_threshold: 0.05,
        };
        let mut alr = AdaptiveLinkRate::new(&spec, 1_000_000_000, "c").unwrap();
        // No full window yet: stay high.
        assert_eq!(alr.decide(&view(1_000_000_000, 0)), None);
        let mut v = view(1_000_000_000, 0);
        v.departed_bytes = 6250;
        assert_eq!(alr.on_tick(&v), None, "6250 B is not below 6250 B");
        v.departed_bytes = 6250 + 6249;
        assert_eq!(alr.on_tick(&v), Some(Command::SetRate(100_000_000)));
    }
}
