//! The scenario: the one contract between the Python front end and the engine.
//!
//! Field names carry their units (`rate_bps`, `delay_s`). The Python side validates first
//! (pydantic); the engine validates again in `Simulation::build`, so a scenario written by
//! hand or by another tool gets the same clear errors.

use serde::{Deserialize, Serialize};

use crate::available_bandwidth::AvailableBandwidthSpec;
use crate::control::ControllerSpec;
use crate::energy::{LpiSpec, PowerModelSpec};
use crate::error::ScenarioError;
use crate::host::HostPowerSpec;
pub use crate::tcp::spec::{OpenerSpec, PrrSpec, RttSamplingSpec, SsthreshRuleSpec, TcpProfile, TcpSpec};
use crate::tcp::TcpConfig;

mod queues;
pub use queues::{QueueSpec, RedCountRule, RedIdleDecay, RedMode, RedPreset};

fn yes() -> bool {
    true
}

/// The scenario format as JSON Schema (draft 2020-12), derived from the serde types above and
/// the specs they hold: what the engine accepts, field by field, for comparing with the Python models.
#[cfg(feature = "schema")]
pub fn json_schema() -> String {
    schemars::schema_for!(Scenario).as_value().to_string()
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
    /// Ports to capture into pcap files (see [`crate::pcap`]); written only when the run is
    /// given a directory (`wattnet run --out DIR` writes `DIR/pcap/<from>-<to>.pcap`).
    #[serde(default)]
    pub pcap: Vec<PcapSpec>,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct RoutingSpec {
    /// What a shortest path minimises.
    #[serde(default)]
    pub metric: RoutingMetric,
    /// Initial IP time-to-live; a packet is dropped when it reaches zero.
    #[serde(default = "default_ttl")]
    pub ttl: u8,
    /// Spread flows over equal-cost next hops by hashing (RFC 2992; docs/forwarding.md); otherwise the
    /// lowest next-hop node id wins.
    #[serde(default)]
    pub ecmp: bool,
    /// How routers learn of link changes; absent: tables never change (a down link
    /// black-holes its traffic).
    #[serde(default)]
    pub reconvergence: Option<ReconvergenceSpec>,
}

impl Default for RoutingSpec {
    fn default() -> Self {
        RoutingSpec { metric: RoutingMetric::default(), ttl: default_ttl(), ecmp: false, reconvergence: None }
    }
}

/// How tables change after a link goes down or up.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "model", rename_all = "snake_case", deny_unknown_fields)]
pub enum ReconvergenceSpec {
    /// OSPF-like: the routers at the link's ends notice after `detection_s` and flood an
    /// LSA hop by hop (propagation + `hop_processing_s` + the LSA's transmission time);
    /// each router runs SPF `spf_delay_s` after it learns, on what it knows then.
    LinkState {
        #[serde(default)]
        detection_s: f64,
        #[serde(default = "default_hop_processing")]
        hop_processing_s: f64,
        #[serde(default)]
        spf_delay_s: f64,
        #[serde(default = "default_lsa_bytes")]
        lsa_bytes: u32,
    },
    /// Every router installs the new shortest paths `delay_s` after the change (Sassu,
    /// Scarso, Cuomo, "TCP behavior over a greened network", SustainIT 2012: 0.03 s).
    Global {
        #[serde(default = "default_global_delay")]
        delay_s: f64,
    },
}

fn default_hop_processing() -> f64 {
    0.001
}
fn default_lsa_bytes() -> u32 {
    100
}
fn default_global_delay() -> f64 {
    0.03
}

fn default_ttl() -> u8 {
    64
}

#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum RoutingMetric {
    #[default]
    Hops,
    Delay,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct NodeSpec {
    pub name: String,
    /// The node's own energy as a host (MPTCP host power: Zhao, Liu, Wang, "On Energy-Efficient Congestion Control for Multipath TCP", IEEE 2017; battery client: Tsaoussidis, Badr, Ge, Pentikousis, ISCC 2000); none: not accounted.
    #[serde(default)]
    pub power: Option<HostPowerSpec>,
}

/// A bidirectional link: two ports, one per direction, with the same propagation delay.
/// `rate_bps`, `queue`, `transition_s` and `error_rate` apply to both directions unless a
/// direction overrides them in `a_to_b` / `b_to_a`.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
    /// Probability that a packet is corrupted on the wire and discarded at the far end
    /// (Bernoulli, independent per packet). In [0, 1).
    #[serde(default)]
    pub error_rate: f64,
    /// How each direction draws power (after Nedevschi et al., NSDI 2008); none: energy is not accounted.
    #[serde(default)]
    pub power: Option<PowerModelSpec>,
    /// IEEE 802.3az low-power idle on both directions (IEEE 802.3az-2010); none: ports stay awake.
    #[serde(default)]
    pub lpi: Option<LpiSpec>,
    #[serde(default)]
    pub a_to_b: Option<PortOverride>,
    #[serde(default)]
    pub b_to_a: Option<PortOverride>,
}

#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct PortOverride {
    pub rate_bps: Option<f64>,
    pub queue: Option<QueueSpec>,
    pub transition_s: Option<f64>,
    pub error_rate: Option<f64>,
    pub power: Option<PowerModelSpec>,
    pub lpi: Option<LpiSpec>,
    /// A power-management policy for this direction's output port.
    pub controller: Option<ControllerSpec>,
    /// A bottleneck elsewhere: the rate redraws itself over time (as in Panarello et al., "Network interface power management and TCP congestion control: a troubled marriage", AJEEE 2016).
    pub available_bandwidth: Option<AvailableBandwidthSpec>,
}

/// Traffic from `src` to `dst`: UDP (cbr, poisson, on_off) or TCP (bulk, transfer, serial, web),
/// in which case `src` is the data sender and `tcp` configures the connections.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct FlowSpec {
    pub name: String,
    pub src: String,
    pub dst: String,
    pub traffic: TrafficSpec,
    /// UDP only.
    #[serde(default)]
    pub packet_size: PacketSizeSpec,
    /// TCP only; absent means the `rfc` profile with NewReno.
    #[serde(default)]
    pub tcp: Option<TcpSpec>,
    #[serde(default)]
    pub start_s: f64,
    /// No packet is emitted at or after this time; absent means the end of the run.
    #[serde(default)]
    pub stop_s: Option<f64>,
    /// The ports ("from->to") the flow's packets take from `src` to `dst`, whatever the
    /// forwarding tables say; TCP's ACKs take the same links back. Absent: the tables decide.
    #[serde(default)]
    pub path: Option<Vec<String>>,
    /// Makes a TCP flow a Multipath TCP flow (RFC 8684): its connections run several subflows.
    #[serde(default)]
    pub mptcp: Option<MptcpSpec>,
}

/// A Multipath TCP flow's settings (`flows[].mptcp`); every field may be left out.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct MptcpSpec {
    /// Subflows per (local port, remote port) pair, or per explicit path (Linux fullmesh
    /// `num_subflows`).
    #[serde(default = "one")]
    pub subflows_per_path: u32,
    /// Explicit paths, each a list of ports ("from->to") from src to dst; absent: the full
    /// mesh of the two hosts' ports.
    #[serde(default)]
    pub paths: Option<Vec<Vec<String>>>,
    #[serde(default)]
    pub scheduler: SchedulerSpec,
    /// Raiciu et al. (NSDI 2012): resend the segment blocking the receive window.
    #[serde(default = "yes")]
    pub opportunistic_retransmission: bool,
    /// Raiciu et al. (NSDI 2012): halve the window of the subflow blocking it.
    #[serde(default = "yes")]
    pub penalisation: bool,
    /// The connection-level receive buffer; default the TCP `receive_window_bytes`.
    #[serde(default)]
    pub receive_buffer_bytes: Option<u64>,
}

impl Default for MptcpSpec {
    fn default() -> MptcpSpec {
        MptcpSpec {
            subflows_per_path: 1,
            paths: None,
            scheduler: SchedulerSpec::default(),
            opportunistic_retransmission: true,
            penalisation: true,
            receive_buffer_bytes: None,
        }
    }
}

fn one() -> u32 {
    1
}

#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum SchedulerSpec {
    #[default]
    MinRtt,
    RoundRobin,
    Redundant,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
    /// TCP: an endless transfer (FTP, iperf).
    Bulk,
    /// TCP: one transfer of `bytes`.
    Transfer { bytes: u64 },
    /// TCP: `files` transfers of `bytes` each, one after the other, each a new connection
    /// opened as soon as the previous transfer completes (as Pentikousis and Badr's clients, Networking 2004).
    Serial { files: u32, bytes: u64 },
    /// TCP, web-like (as in Lombardo, Panarello, Schembra's G-router study): requests arrive as a Poisson process; each opens a new
    /// connection to `dst` from a sender drawn uniformly from `senders` (default: `src`
    /// alone) and carries ⌈Pareto⌉ full segments with the given mean and shape, capped at
    /// `max_segments` if set. Requests stop at `stop_s`.
    Web {
        requests_per_s: f64,
        mean_segments: f64,
        shape: f64,
        #[serde(default)]
        max_segments: Option<u64>,
        #[serde(default)]
        senders: Vec<String>,
    },
}

impl TrafficSpec {
    pub fn is_tcp(&self) -> bool {
        matches!(
            self,
            TrafficSpec::Bulk | TrafficSpec::Transfer { .. } | TrafficSpec::Serial { .. } | TrafficSpec::Web { .. }
        )
    }
}

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum PacketSizeSpec {
    Fixed {
        bytes: u32,
    },
    /// ⌈Exp(mean)⌉ bytes, at least 1.
    Exponential {
        mean_bytes: f64,
    },
    /// Uniform integer in [min_bytes, max_bytes].
    Uniform {
        min_bytes: u32,
        max_bytes: u32,
    },
}

impl Default for PacketSizeSpec {
    fn default() -> Self {
        PacketSizeSpec::Fixed { bytes: 1000 }
    }
}

/// An action at a given simulated time.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
pub enum EventSpec {
    /// Change a port's service rate (`port` is "from->to").
    SetRate { at_s: f64, port: String, rate_bps: f64 },
    /// The link between nodes `a` and `b` fails or is switched off: both directions stop,
    /// and what they queue or carry is lost.
    LinkDown { at_s: f64, a: String, b: String },
    /// The link between `a` and `b` comes back.
    LinkUp { at_s: f64, a: String, b: String },
    /// From now on the port ("from->to") sleeps whenever it is idle and wakes on an arrival,
    /// each transition taking its `transition_s` at full power (802.3az ports keep their
    /// timings); asleep it draws its power model's `sleep_w`.
    Sleep { at_s: f64, port: String },
    /// The port wakes if asleep and stays awake.
    Wake { at_s: f64, port: String },
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct RecorderSpec {
    pub interval_s: f64,
    /// Ports to sample ("from->to"); empty means every port.
    #[serde(default)]
    pub ports: Vec<String>,
    #[serde(default = "default_quantities")]
    pub quantities: Vec<PortQuantity>,
    /// TCP flows whose connections are sampled every interval.
    #[serde(default)]
    pub flows: Vec<String>,
    #[serde(default = "default_flow_quantities")]
    pub flow_quantities: Vec<FlowQuantity>,
    /// TCP flows whose cwnd and ssthresh are logged at every change (table `cwnd_trace`).
    #[serde(default)]
    pub trace_flows: Vec<String>,
}

/// A capture of one port: every packet it finishes transmitting, stamped with that instant.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct PcapSpec {
    /// The port ("from->to").
    pub port: String,
    /// Bytes kept of each packet, 1 to 65535 (payload bytes are zeros); absent keeps the
    /// IPv4 and TCP/UDP headers only.
    #[serde(default)]
    pub snap_bytes: Option<u32>,
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum FlowQuantity {
    CwndSegments,
    SsthreshSegments,
    SrttS,
    InFlightBytes,
    /// Data bytes delivered in order to the receiving application so far.
    DeliveredBytes,
}

impl FlowQuantity {
    pub fn name(self) -> &'static str {
        match self {
            FlowQuantity::CwndSegments => "cwnd_segments",
            FlowQuantity::SsthreshSegments => "ssthresh_segments",
            FlowQuantity::SrttS => "srtt_s",
            FlowQuantity::InFlightBytes => "in_flight_bytes",
            FlowQuantity::DeliveredBytes => "delivered_bytes",
        }
    }
}

fn default_flow_quantities() -> Vec<FlowQuantity> {
    vec![FlowQuantity::CwndSegments, FlowQuantity::SsthreshSegments]
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
    /// The power drawn at the sampling instant (NaN without a power model).
    PowerW,
    /// RED's moving average of the queue as of its last update (an arrival), in RED's own unit:
    /// packets, or bytes in byte mode (Floyd and Jacobson, IEEE/ACM ToN 1993). NaN for other disciplines.
    RedAverage,
}

impl PortQuantity {
    pub fn name(self) -> &'static str {
        match self {
            PortQuantity::QueuePackets => "queue_packets",
            PortQuantity::QueueBytes => "queue_bytes",
            PortQuantity::RateBps => "rate_bps",
            PortQuantity::ArrivalRateBps => "arrival_rate_bps",
            PortQuantity::DepartureRateBps => "departure_rate_bps",
            PortQuantity::PowerW => "power_w",
            PortQuantity::RedAverage => "red_average",
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
            // serde_json appends " at line L column C", which means nothing to a TOML author.
            let message = e.inner().to_string();
            let message = message.split(" at line ").next().unwrap_or(&message).to_string();
            ScenarioError::new(if path == "." { String::new() } else { path }, message)
        })
    }
}

/// A scenario's JSON with every TCP flow's `tcp` replaced by its resolved settings (each field
/// the profile left out filled in), so a run's record says what the connections did.
pub fn resolve_scenario_json(text: &str) -> Result<String, ScenarioError> {
    let scenario = Scenario::from_json(text)?;
    let mut value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| ScenarioError::new(String::new(), e.to_string()))?;
    for (i, flow) in scenario.flows.iter().enumerate() {
        if !flow.traffic.is_tcp() {
            continue;
        }
        let spec = flow.tcp.clone().unwrap_or_default();
        let resolved = TcpConfig::from_spec(&spec, &format!("flows[{i}].tcp"))?.to_spec(spec.profile);
        value["flows"][i]["tcp"] = serde_json::to_value(resolved).expect("TCP settings serialize");
    }
    Ok(value.to_string())
}
