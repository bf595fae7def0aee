//! A policy that lives outside the engine: the program that builds the simulation supplies it
//! (the Python binding wraps a Python object with `observe(view) -> command`). The engine knows
//! only this seam: it calls [`ExternalPolicy::observe`] with the same [`PortView`] the built-in
//! policies see, every control interval and, if asked, at every packet arrival and departure,
//! and obeys the [`Command`] it returns.

use serde::{Deserialize, Serialize};

use std::sync::Arc;

use super::{Command, PortController, PortView};
use crate::error::{positive, ScenarioError};
use crate::tcp::cc::{CcFactory, CcFlow};
use crate::time::{from_secs, Time};

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ExternalSpec {
    /// The name the supplier knows the policy by (the Python binding: "module:Class").
    pub policy: String,
    /// The control interval: the policy observes its port every `interval_s`.
    #[serde(default)]
    pub interval_s: Option<f64>,
    /// Also observe the port at every packet arrival and departure.
    #[serde(default)]
    pub per_packet: bool,
    /// δ, if the policy may put its port to sleep ([`Command::Sleep`]).
    #[serde(default)]
    pub sleep_transition_s: Option<f64>,
    /// Handed to the policy as written (its keyword arguments); the engine does not read it.
    #[serde(default)]
    pub params: serde_json::Map<String, serde_json::Value>,
}

/// Why the policy is called.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trigger {
    Arrival,
    Departure,
    Tick,
}

impl Trigger {
    pub fn name(self) -> &'static str {
        match self {
            Trigger::Arrival => "arrival",
            Trigger::Departure => "departure",
            Trigger::Tick => "tick",
        }
    }
}

pub trait ExternalPolicy: std::fmt::Debug + Send + Sync {
    fn observe(&mut self, view: &PortView, trigger: Trigger) -> Option<Command>;
}

/// What a supplier learns about the port it makes a policy for.
pub struct PolicyPort<'a> {
    /// The port's name, "from->to".
    pub port: &'a str,
    pub spec: &'a ExternalSpec,
    /// The path of the controller in the scenario, for error messages.
    pub field: &'a str,
    pub initial_rate_bps: u64,
    pub transition: Time,
    /// The control interval as the engine keeps it (picoseconds), if any.
    pub interval: Option<Time>,
}

/// Makes what a scenario leaves to the program that runs it: the external policies, one per
/// port that names one, and the external congestion controls, one factory per flow that names one.
pub trait PolicySource {
    fn policy(&mut self, port: &PolicyPort<'_>) -> Result<Box<dyn ExternalPolicy>, ScenarioError>;

    /// The factory of the controllers of a flow's connections.
    fn congestion_control(&mut self, flow: &CcFlow<'_>) -> Result<Arc<dyn CcFactory>, ScenarioError> {
        Err(ScenarioError::new(
            flow.field,
            "an external congestion control needs a program that supplies it (wattnet.run through the Python binding)",
        ))
    }
}

/// The source of a simulation built from a scenario alone: it has no external policies.
pub struct NoExternalPolicies;

impl PolicySource for NoExternalPolicies {
    fn policy(&mut self, port: &PolicyPort<'_>) -> Result<Box<dyn ExternalPolicy>, ScenarioError> {
        Err(ScenarioError::new(
            port.field,
            "an external policy needs a program that supplies it (wattnet.run through the Python binding)",
        ))
    }
}

#[derive(Debug)]
pub struct External {
    interval: Option<Time>,
    per_packet: bool,
    sleep: Option<Time>,
    policy: Box<dyn ExternalPolicy>,
}

impl External {
    pub fn new(
        spec: &ExternalSpec,
        port: &str,
        transition: Time,
        initial_rate_bps: u64,
        field: &str,
        source: &mut dyn PolicySource,
    ) -> Result<Self, ScenarioError> {
        let f = |name: &str| format!("{field}.{name}");
        let interval = spec.interval_s.map(|t| positive(t, f("interval_s")).map(from_secs)).transpose()?;
        if interval == Some(0) {
            return Err(ScenarioError::new(f("interval_s"), "must be at least one picosecond"));
        }
        if interval.is_none() && !spec.per_packet {
            return Err(ScenarioError::new(field, "set interval_s or per_packet, or the policy is never called"));
        }
        let sleep = spec.sleep_transition_s.map(|t| positive(t, f("sleep_transition_s")).map(from_secs)).transpose()?;
        let info = PolicyPort { port, spec, field, initial_rate_bps, transition, interval };
        let policy = source.policy(&info)?;
        Ok(External { interval, per_packet: spec.per_packet, sleep, policy })
    }
}

impl PortController for External {
    fn on_arrival(&mut self, view: &PortView) -> Option<Command> {
        self.per_packet.then(|| self.policy.observe(view, Trigger::Arrival)).flatten()
    }

    fn on_departure(&mut self, view: &PortView) -> Option<Command> {
        self.per_packet.then(|| self.policy.observe(view, Trigger::Departure)).flatten()
    }

    fn on_tick(&mut self, view: &PortView) -> Option<Command> {
        self.policy.observe(view, Trigger::Tick)
    }

    fn tick_interval(&self) -> Option<Time> {
        self.interval
    }

    fn sleep_transition(&self) -> Option<Time> {
        self.sleep
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    /// Steps the rate down by 1 bit/s at each call and records the triggers it saw.
    #[derive(Debug, Default)]
    struct Recording(Arc<Mutex<Vec<Trigger>>>);

    impl ExternalPolicy for Recording {
        fn observe(&mut self, view: &PortView, trigger: Trigger) -> Option<Command> {
            self.0.lock().unwrap().push(trigger);
            Some(Command::SetRate(view.rate_bps - 1))
        }
    }

    struct Source(Arc<Mutex<Vec<Trigger>>>);

    impl PolicySource for Source {
        fn policy(&mut self, port: &PolicyPort<'_>) -> Result<Box<dyn ExternalPolicy>, ScenarioError> {
            assert_eq!((port.port, port.initial_rate_bps, port.interval), ("a->b", 1000, Some(from_secs(0.5))));
            Ok(Box::new(Recording(self.0.clone())))
        }
    }

    fn spec(interval_s: Option<f64>, per_packet: bool) -> ExternalSpec {
        ExternalSpec {
            policy: "p".into(),
            interval_s,
            per_packet,
            sleep_transition_s: None,
            params: serde_json::Map::new(),
        }
    }

    #[test]
    fn packet_hooks_reach_the_policy_only_when_asked_for() {
        let seen = Arc::default();
        let view = PortView { rate_bps: 1000, ..Default::default() };
        let mut ticks = External::new(&spec(Some(0.5), false), "a->b", 0, 1000, "c", &mut Source(Arc::clone(&seen)))
            .expect("valid");
        assert_eq!(ticks.on_arrival(&view), None);
        assert_eq!(ticks.on_departure(&view), None);
        assert_eq!(ticks.on_tick(&view), Some(Command::SetRate(999)));
        assert_eq!(ticks.tick_interval(), Some(from_secs(0.5)));
        let mut every =
            External::new(&spec(Some(0.5), true), "a->b", 0, 1000, "c", &mut Source(Arc::clone(&seen))).expect("valid");
        every.on_arrival(&view);
        every.on_departure(&view);
        assert_eq!(*seen.lock().unwrap(), [Trigger::Tick, Trigger::Arrival, Trigger::Departure]);
    }

    #[test]
    fn a_policy_never_called_or_never_supplied_is_an_error() {
        let e = External::new(&spec(None, false), "a->b", 0, 1000, "c", &mut NoExternalPolicies).unwrap_err();
        assert_eq!(e.field, "c");
        let e = External::new(&spec(Some(0.5), false), "a->b", 0, 1000, "c", &mut NoExternalPolicies).unwrap_err();
        assert!(e.to_string().contains("needs a program that supplies it"), "{e}");
        let e = External::new(&spec(Some(-1.0), false), "a->b", 0, 1000, "c", &mut NoExternalPolicies).unwrap_err();
        assert_eq!(e.field, "c.interval_s");
    }
}
