//! Opportunistic sleeping (Nedevschi et al., NSDI 2008; docs/models/rate-policies.md §4): the port sleeps whenever
//! its queue is empty and the idle time ahead is predicted to exceed 2δ, and wakes on the next
//! arrival, whose delay grows by δ.
//!
//! The idle time ahead is predicted by an EWMA of past idle periods. An idle period runs from
//! a departure that leaves the port empty (nothing queued, nothing in service) to the next
//! arrival: the offered traffic's gaps, whether the port slept through them or not. The time
//! before the first arrival is not one (the port has not been used yet).

use serde::{Deserialize, Serialize};

use super::{Command, PortController, PortView};
use crate::error::ScenarioError;
use crate::time::{from_secs, Time};

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct OpportunisticSleepSpec {
    /// δ: going to sleep and waking each take this long, at active power, sending nothing.
    /// Default 1 ms (assumption, as practRA's δ; Nedevschi gives no value).
    #[serde(default = "default_transition")]
    pub transition_s: f64,
    /// w: the weight of the newest idle period, Î ← (1 − w)·Î + w·I. Default 0.25 (assumption,
    /// as practRA's predictor).
    #[serde(default = "default_weight")]
    pub ewma_weight: f64,
    /// Î before any idle period ended; absent: the first idle period sets Î (and until then
    /// the port does not sleep).
    #[serde(default)]
    pub initial_idle_s: Option<f64>,
}

fn default_transition() -> f64 {
    0.001
}
fn default_weight() -> f64 {
    0.25
}

#[derive(Clone, Debug)]
pub struct OpportunisticSleep {
    transition: Time,
    weight: f64,
    /// Î, in picoseconds.
    predicted: Option<f64>,
    /// When the port last fell idle, until the next arrival.
    idle_since: Option<Time>,
}

impl OpportunisticSleep {
    pub fn new(spec: &OpportunisticSleepSpec, field: &str) -> Result<Self, ScenarioError> {
        let f = |name: &str| format!("{field}.{name}");
        let d = spec.transition_s;
        if !(d.is_finite() && d >= 0.0) {
            return Err(ScenarioError::new(
                f("transition_s"),
                format!("must be a non-negative number of seconds, got {d}"),
            ));
        }
        let w = spec.ewma_weight;
        if !(w > 0.0 && w <= 1.0) {
            return Err(ScenarioError::new(f("ewma_weight"), format!("must be in (0, 1], got {w}")));
        }
        let predicted = match spec.initial_idle_s {
            Some(s) if s.is_finite() && s >= 0.0 => Some(from_secs(s) as f64),
            Some(s) => {
                return Err(ScenarioError::new(
                    f("initial_idle_s"),
                    format!("must be a non-negative number of seconds, got {s}"),
                ))
            }
            None => None,
        };
        Ok(OpportunisticSleep { transition: from_secs(d), weight: w, predicted, idle_since: None })
    }

    /// The predicted idle time, in seconds, if there is one yet.
    pub fn predicted_idle_s(&self) -> Option<f64> {
        self.predicted.map(|p| p / crate::time::PS_PER_S as f64)
    }
}

impl PortController for OpportunisticSleep {
    fn on_arrival(&mut self, view: &PortView) -> Option<Command> {
        if let Some(since) = self.idle_since.take() {
            let idle = (view.now - since) as f64;
            // EWMA of past idle periods; the first one seeds it when no initial value is given.
            self.predicted = Some(match self.predicted {
                Some(p) => (1.0 - self.weight) * p + self.weight * idle,
                None => idle,
            });
        }
        None
    }

    fn on_departure(&mut self, view: &PortView) -> Option<Command> {
        if view.queue_packets > 0 || view.transmitting {
            return None;
        }
        self.idle_since = Some(view.now);
        // Nedevschi et al. 2008: sleep when the queue is empty and the predicted idle time exceeds 2δ.
        self.predicted.filter(|&p| p > 2.0 * self.transition as f64).map(|_| Command::Sleep)
    }

    fn sleep_transition(&self) -> Option<Time> {
        Some(self.transition)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(v: f64) -> Time {
        from_secs(v * 1e-3)
    }

    fn idle_at(now: Time) -> PortView {
        PortView { now, ..Default::default() }
    }

    #[test]
    fn sleeps_only_when_the_predicted_idle_time_exceeds_two_transitions() {
        // δ = 1 ms, w = 0.5, no initial prediction.
        let spec = OpportunisticSleepSpec { transition_s: 0.001, ewma_weight: 0.5, initial_idle_s: None };
        let mut c = OpportunisticSleep::new(&spec, "c").unwrap();
        // No prediction yet: stay awake. Idle from 1 ms to the arrival at 4 ms: Î = 3 ms.
        assert_eq!(c.on_departure(&idle_at(ms(1.0))), None);
        c.on_arrival(&PortView { now: ms(4.0), transmitting: true, ..Default::default() });
        assert_eq!(c.predicted_idle_s(), Some(0.003));
        // A departure that leaves a packet in service is not the start of an idle period.
        assert_eq!(c.on_departure(&PortView { now: ms(5.0), transmitting: true, ..Default::default() }), None);
        // Empty at 6 ms with Î = 3 ms > 2 ms: sleep.
        assert_eq!(c.on_departure(&idle_at(ms(6.0))), Some(Command::Sleep));
        // Next arrival at 7 ms: Î = 0.5·3 + 0.5·1 = 2 ms, not above 2δ: stay awake.
        c.on_arrival(&idle_at(ms(7.0)));
        assert_eq!(c.predicted_idle_s(), Some(0.002));
        assert_eq!(c.on_departure(&idle_at(ms(8.0))), None);
    }

    #[test]
    fn rejects_bad_parameters() {
        let spec = OpportunisticSleepSpec { transition_s: -1.0, ewma_weight: 0.25, initial_idle_s: None };
        assert_eq!(OpportunisticSleep::new(&spec, "c").unwrap_err().field, "c.transition_s");
        let spec = OpportunisticSleepSpec { transition_s: 0.001, ewma_weight: 0.0, initial_idle_s: None };
        assert_eq!(OpportunisticSleep::new(&spec, "c").unwrap_err().field, "c.ewma_weight");
    }
}
