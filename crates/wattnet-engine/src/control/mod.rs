//! Power-management policies attached to a port.
//!
//! A policy sees only what the port shows ([`PortView`]) and acts only through the port's
//! public operations ([`Command`]). Adding a policy means one type implementing
//! [`PortController`] and one name in [`ControllerSpec`].

mod alr;
mod external;
mod grouter;
mod practra;
mod sleep;

pub use alr::{AdaptiveLinkRate, AdaptiveLinkRateSpec};
pub use external::{External, ExternalPolicy, ExternalSpec, NoExternalPolicies, PolicyPort, PolicySource, Trigger};
pub use grouter::{GRouter, GRouterSpec, RateControl};
pub use practra::{PracticalRateAdaptation, PracticalRateAdaptationSpec};
pub use sleep::{OpportunisticSleep, OpportunisticSleepSpec};

use serde::{Deserialize, Serialize};

use crate::error::ScenarioError;
use crate::time::Time;

/// What a controller may observe of its port.
#[derive(Clone, Copy, Debug, Default)]
pub struct PortView {
    pub now: Time,
    /// Bits waiting, not counting the packet in service.
    pub queue_bits: u64,
    pub queue_packets: u32,
    /// The configured service rate.
    pub rate_bps: u64,
    /// Bytes offered to the port since the start, admitted or not.
    pub arrived_bytes: u64,
    /// Bytes transmitted since the start.
    pub departed_bytes: u64,
    /// The port sends nothing before this time (a rate transition under way).
    pub frozen_until: Time,
    /// A packet is being serialized.
    pub transmitting: bool,
}

/// What a controller asks its port to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    /// A hardware rate change: the port freezes for its transition time; counted and logged.
    SetRate(u64),
    /// A continuous adjustment (C-EARTH): immediate, no freeze, counted but not logged.
    Tune(u64),
    /// Go to sleep (Nedevschi et al., NSDI 2008, opportunistic sleeping): obeyed by an awake port with nothing queued or in service;
    /// it spends δ going to sleep and δ waking when the next packet arrives (the port wakes by
    /// itself). Needs [`PortController::sleep_transition`].
    Sleep,
}

pub trait PortController: std::fmt::Debug + Send + Sync {
    /// A packet was offered to the port (admitted or dropped).
    fn on_arrival(&mut self, _view: &PortView) -> Option<Command> {
        None
    }

    /// A packet left the port.
    fn on_departure(&mut self, _view: &PortView) -> Option<Command> {
        None
    }

    /// The controller's periodic tick, if it has one ([`PortController::tick_interval`]).
    fn on_tick(&mut self, _view: &PortView) -> Option<Command> {
        None
    }

    fn tick_interval(&self) -> Option<Time> {
        None
    }

    /// δ, if the policy puts its port to sleep: the port then gets sleep and wake operations.
    fn sleep_transition(&self) -> Option<Time> {
        None
    }

    /// Whether the policy rewrites the advertised window of ACKs (AWM).
    fn manages_windows(&self) -> bool {
        false
    }

    /// The advertised window of a TCP ACK coming back over the port's reverse direction.
    fn rewrite_window(&self, window: u64) -> u64 {
        window
    }
}

/// A port's power-management policy, as written in a scenario.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ControllerSpec {
    /// practRA (Nedevschi et al., "Reducing network energy consumption via sleeping and
    /// rate-adaptation", NSDI 2008) as Panarello et al. ("Network interface power management and
    /// TCP congestion control: a troubled marriage", AJEEE 2016) use it.
    #[serde(rename = "practra")]
    PracticalRateAdaptation(PracticalRateAdaptationSpec),
    /// AWM with C-EARTH or EARTH: the G-router (Lombardo, Panarello, Schembra, "Measuring minimum
    /// transmission resources in the Internet access router").
    GRouter(GRouterSpec),
    /// Adaptive Link Rate: two rates, dual queue thresholds (Gunaratne et al., IEEE Trans. Computers 2008).
    AdaptiveLinkRate(AdaptiveLinkRateSpec),
    /// Opportunistic sleeping: sleep when idle and the predicted idle time exceeds 2δ (Nedevschi et al., NSDI 2008).
    OpportunisticSleep(OpportunisticSleepSpec),
    /// A policy supplied by the program running the engine (a Python class through the binding).
    External(ExternalSpec),
}

impl ControllerSpec {
    /// A controller for port `port` whose rate transitions take `transition`; `policies`
    /// supplies the external ones.
    pub fn build(
        &self,
        port: &str,
        transition: Time,
        initial_rate_bps: u64,
        field: &str,
        policies: &mut dyn PolicySource,
    ) -> Result<Box<dyn PortController>, ScenarioError> {
        Ok(match self {
            ControllerSpec::PracticalRateAdaptation(spec) => {
                Box::new(PracticalRateAdaptation::new(spec, transition, initial_rate_bps, field)?)
            }
            ControllerSpec::GRouter(spec) => Box::new(GRouter::new(spec, initial_rate_bps, field)?),
            ControllerSpec::AdaptiveLinkRate(spec) => Box::new(AdaptiveLinkRate::new(spec, initial_rate_bps, field)?),
            ControllerSpec::OpportunisticSleep(spec) => Box::new(OpportunisticSleep::new(spec, field)?),
            ControllerSpec::External(spec) => {
                Box::new(External::new(spec, port, transition, initial_rate_bps, field, policies)?)
            }
        })
    }
}
