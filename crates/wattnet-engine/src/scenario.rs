//! The scenario: the one contract between the Python front end and the engine.
//!
//! Field names carry their units (`rate_bps`, `delay_s`). The Python side validates first
//! (pydantic); the engine validates again in `Simulation::build`, so a scenario written by
//! hand or by another tool gets the same clear errors.

use serde::{Deserialize, Serialize};

use crate::error::ScenarioError;

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Free text naming the scenario; it does not affect the run.
    #[serde(default)]
    pub name: String,
    pub seed: u64,
    pub duration_s: f64,
    #[serde(default)]
    pub routing: RoutingSpec,
    pub nodes: Vec<NodeSpec>,
    #[serde(default)]
    pub links: Vec<LinkSpec>,
    #[serde(default)]
    pub flows: Vec<FlowSpec>,
    #[serde(default)]
    pub events: Vec<EventSpec>,
    #[serde(default)]
    pub recorder: Option<RecorderSpec>,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RoutingSpec {
    /// What a shortest path minimises.
    #[serde(default)]
    pub metric: RoutingMetric,
    /// Initial IP time-to-live; a packet is dropped when it reaches zero.
    #[serde(default = "default_ttl")]
    pub ttl: u8,
}

impl Default for RoutingSpec {
    fn default() -> Self {
        RoutingSpec { metric: RoutingMetric::default(), ttl: default_ttl() }
    }
}

fn default_ttl() -> u8 {
    64
}

#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum RoutingMetric {
    #[default]
    Hops,
    Delay,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct NodeSpec {
    pub name: String,
}

/// A bidirectional link: two ports, one per direction, with the same propagation delay.
/// `rate_bps`, `queue` and `transition_s` apply to both directions unless a direction
/// overrides them in `a_to_b` / `b_to_a`.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct LinkSpec {
    pub a: String,
    pub b: String,
    pub rate_bps: f64,
    pub delay_s: f64,
    #[serde(default)]
    pub queue: QueueSpec,
    /// How long a port sends nothing after a rate change.
    #[serde(default)]
    pub transition_s: f64,
    #[serde(default)]
    pub a_to_b: Option<PortOverride>,
    #[serde(default)]
    pub b_to_a: Option<PortOverride>,
}

#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct PortOverride {
    pub rate_bps: Option<f64>,
    pub queue: Option<QueueSpec>,
    pub transition_s: Option<f64>,
}

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum QueueSpec {
    /// FIFO with tail drop; exactly one of the two limits is set.
    Droptail {
        limit_packets: Option<u32>,
        limit_bytes: Option<u64>,
        /// ns-2 counts the packet being transmitted towards the limit (aqm.md §1).
        #[serde(default = "yes")]
        count_in_service: bool,
    },
}

fn yes() -> bool {
    true
}

impl Default for QueueSpec {
    fn default() -> Self {
        QueueSpec::Droptail { limit_packets: Some(1000), limit_bytes: None, count_in_service: true }
    }
}

/// A unidirectional stream of packets from `src` to `dst`.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct FlowSpec {
    pub name: String,
    pub src: String,
    pub dst: String,
    pub traffic: TrafficSpec,
    #[serde(default)]
    pub packet_size: PacketSizeSpec,
    #[serde(default)]
    pub start_s: f64,
    /// No packet is emitted at or after this time; absent means the end of the run.
    #[serde(default)]
    pub stop_s: Option<f64>,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum TrafficSpec {
    /// Constant bit rate over UDP: packets spaced by size·8/rate.
    Cbr { rate_bps: f64 },
    /// Poisson packet arrivals whose mean bit rate is `rate_bps`.
    Poisson { rate_bps: f64 },
    /// Exponential on and off periods; CBR at `peak_rate_bps` while on. With `cycle_s`,
    /// an on period starts every `cycle_s` and lasts min(Exp(on_mean_s), cycle_s)
    /// (the bursty background of the capacity-scaling study), and `off_mean_s` is unused.
    OnOff {
        peak_rate_bps: f64,
        on_mean_s: f64,
        #[serde(default)]
        off_mean_s: Option<f64>,
        #[serde(default)]
        cycle_s: Option<f64>,
    },
}

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum PacketSizeSpec {
    Fixed { bytes: u32 },
    /// ⌈Exp(mean)⌉ bytes, at least 1.
    Exponential { mean_bytes: f64 },
    /// Uniform integer in [min_bytes, max_bytes].
    Uniform { min_bytes: u32, max_bytes: u32 },
}

impl Default for PacketSizeSpec {
    fn default() -> Self {
        PacketSizeSpec::Fixed { bytes: 1000 }
    }
}

/// An action at a given simulated time.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
pub enum EventSpec {
    /// Change a port's service rate (`port` is "from->to").
    SetRate { at_s: f64, port: String, rate_bps: f64 },
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RecorderSpec {
    pub interval_s: f64,
    /// Ports to sample ("from->to"); empty means every port.
    #[serde(default)]
    pub ports: Vec<String>,
    #[serde(default = "default_quantities")]
    pub quantities: Vec<PortQuantity>,
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum PortQuantity {
    /// Packets waiting (not counting the one in service).
    QueuePackets,
    QueueBytes,
    /// The configured service rate.
    RateBps,
    /// Bits that arrived at the port over the last interval, divided by the interval.
    ArrivalRateBps,
    /// Bits transmitted over the last interval, divided by the interval.
    DepartureRateBps,
}

impl PortQuantity {
    pub fn name(self) -> &'static str {
        match self {
            PortQuantity::QueuePackets => "queue_packets",
            PortQuantity::QueueBytes => "queue_bytes",
            PortQuantity::RateBps => "rate_bps",
            PortQuantity::ArrivalRateBps => "arrival_rate_bps",
            PortQuantity::DepartureRateBps => "departure_rate_bps",
        }
    }
}

fn default_quantities() -> Vec<PortQuantity> {
    vec![PortQuantity::QueuePackets, PortQuantity::RateBps, PortQuantity::ArrivalRateBps]
}

impl Scenario {
    /// Parses JSON; an error names the path of the offending field.
    pub fn from_json(text: &str) -> Result<Scenario, ScenarioError> {
        let de = &mut serde_json::Deserializer::from_str(text);
        serde_path_to_error::deserialize(de).map_err(|e| {
            let path = e.path().to_string();
            ScenarioError::new(if path == "." { String::new() } else { path }, e.inner().to_string())
        })
    }
}
