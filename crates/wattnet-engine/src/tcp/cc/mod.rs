//! Congestion control: one interface, one small type per algorithm.
//!
//! The hooks follow Linux's `tcp_congestion_ops` (ssthresh, cong_avoid, pkts_acked,
//! set_state) so that each algorithm reads like its kernel module and its paper. Windows
//! are in segments (RFC 5681). Loss *recovery* (Tahoe, Reno, NewReno, SACK) is the
//! sender's business, not the algorithm's; see `sender.rs`.

mod bic;
mod cubic;
mod dctcp;
mod external;
pub mod multipath;
mod reno;
mod vegas;
mod vegas_ns2;

pub use bic::{Bic, BicParams};
pub use cubic::{Cubic, CubicParams, HyStartParams};
pub use dctcp::{Dctcp, DctcpParams};
pub use external::{supply, CcFactory, CcFlow, ExternalCcSpec};
pub use multipath::{
    BaliaParams, CoupledIncrease, CoupledParams, DtsParams, DwcParams, EcMtcpParams, EwtcpParams, LiaParams, LossRatio,
    OliaParams, WVegasParams,
};
pub use reno::Reno;
pub use vegas::{Vegas, VegasParams, VegasVariant};
pub use vegas_ns2::Ns2Vegas;

use serde::{Deserialize, Serialize};

use super::Recovery;
pub use crate::packet::PathFeedback;
use crate::time::Time;

/// The window the algorithm controls, in segments (may be fractional).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Window {
    pub cwnd: f64,
    pub ssthresh: f64,
}

impl Window {
    pub fn in_slow_start(&self) -> bool {
        self.cwnd < self.ssthresh
    }
}

/// What an ACK that advanced snd_una tells the algorithm.
#[derive(Clone, Copy, Debug, Default)]
pub struct Ack {
    pub now: Time,
    /// Segments newly acknowledged (bytes acked / MSS; may be fractional).
    pub acked: f64,
    /// A Karn-safe RTT sample taken from this ACK, if any.
    pub rtt: Option<Time>,
    /// The ACK carried ECN-Echo.
    pub ece: bool,
    /// Sequence numbers in segments: snd_una after this ACK, and snd_nxt when it arrived.
    /// Algorithms that act once per RTT compare them (Vegas, DCTCP).
    pub snd_una: f64,
    pub snd_nxt: f64,
    /// The path feedback the ACK echoes (zero unless some flow asked the network for it).
    pub path: PathFeedback,
}

/// Why the window must shrink.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Congestion {
    /// Loss detected by duplicate ACKs or SACK (fast retransmit).
    Loss,
    /// The retransmission timer expired.
    Timeout,
    /// An ACK carried ECN-Echo (RFC 3168 §6.1.2).
    Ecn,
}

/// Loss-recovery state of one subflow, as ns-3's `TcpCongState_t` and Linux's `tcp_ca_state`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CongState {
    /// Nothing outstanding is suspected lost.
    #[default]
    Open,
    /// Duplicate ACKs or SACKs have arrived, fewer than the fast-retransmit threshold.
    Disorder,
    /// The window was reduced for an ECN-Echo (RFC 3168 §6.1.2) and that window is not yet acknowledged.
    Cwr,
    /// Fast recovery after a fast retransmit (RFC 5681 §3.2, RFC 6582, RFC 6675).
    Recovery,
    /// After a retransmission timeout, until everything sent before it is acknowledged.
    Loss,
}

/// What a congestion controller may read of one subflow (a single-path connection is a
/// group of one). Coupled multipath algorithms read their siblings' views on every ACK.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SubflowView {
    pub cwnd: f64,
    pub ssthresh: f64,
    pub srtt: Option<Time>,
    pub min_rtt: Option<Time>,
    pub state: CongState,
    /// Bytes sent and not yet acknowledged.
    pub in_flight: u64,
    /// Congestion signals so far (fast retransmits, timeouts, ECN reductions) and the last one's time.
    pub losses: u64,
    pub last_loss: Option<Time>,
    /// Data segments sent, retransmissions included (ecMTCP's loss rate per packet).
    pub packets_sent: u64,
}

impl SubflowView {
    /// A subflow that has sent nothing yet.
    pub const IDLE: SubflowView = SubflowView {
        cwnd: 1.0,
        ssthresh: f64::INFINITY,
        srtt: None,
        min_rtt: None,
        state: CongState::Open,
        in_flight: 0,
        losses: 0,
        last_loss: None,
        packets_sent: 0,
    };
}

/// The subflows of one connection as a hook sees them: the acting subflow's index and a
/// read-only view of every subflow, the acting one as of the start of the event (its live
/// window is the hook's `w`).
#[derive(Clone, Copy, Debug)]
pub struct Subflows<'a> {
    pub index: usize,
    pub all: &'a [SubflowView],
}

impl Subflows<'static> {
    /// A group of one idle subflow, for driving an algorithm by hand.
    pub const ALONE: Subflows<'static> = Subflows { index: 0, all: &[SubflowView::IDLE] };
}

/// One congestion controller per connection, shared by its subflows: each hook names the
/// acting subflow, so a coupled algorithm (LIA, OLIA, Balia) keeps its per-subflow state by
/// index and reads the others through the views. The single-path algorithms use one subflow.
pub trait CongestionControl: std::fmt::Debug + Send + Sync {
    /// Every ACK that advances snd_una, in or out of recovery: bookkeeping (RTT, marks).
    fn on_ack(&mut self, _g: Subflows, _w: &Window, _ack: &Ack) {}

    /// Window growth on an ACK of new data, outside loss recovery (slow start included).
    /// Here `ack.acked` is the growth credit: the segments acknowledged, at most the RFC 3465
    /// limit L per ACK (L = 1 is RFC 5681's one segment per ACK).
    fn grow(&mut self, g: Subflows, w: &mut Window, ack: &Ack);

    /// The new ssthresh when congestion is signalled, with FlightSize in segments.
    /// The sender then sets cwnd (ssthresh + 3 for fast recovery, 1 after a timeout, ...).
    fn ssthresh(&mut self, g: Subflows, w: &Window, flight: f64, why: Congestion, now: Time) -> f64;

    /// The subflow left loss recovery or restarted after a timeout.
    fn on_recovery_end(&mut self, _g: Subflows, _w: &Window, _now: Time) {}

    /// cwnd after a retransmission timeout: RFC 5681 §3.1's loss window of one segment.
    fn loss_window(&self) -> f64 {
        1.0
    }

    /// An initial ssthresh set by the algorithm's own parameters (Linux BIC and CUBIC
    /// `initial_ssthresh`), replacing the sender's; applied once, at connection start.
    fn initial_ssthresh(&self) -> Option<f64> {
        None
    }
}

/// RFC 5681 §3.1 slow start without ABC: +1 segment per segment acked, up to ssthresh.
/// Returns the segments of the ACK left over for congestion avoidance.
pub fn slow_start(w: &mut Window, acked: f64) -> f64 {
    let room = (w.ssthresh - w.cwnd).max(0.0);
    let used = acked.min(room);
    w.cwnd += used;
    acked - used
}

/// RFC 5681 §3.1 congestion avoidance: +1/cwnd per segment acked (≈ +1 per RTT).
pub fn reno_avoidance(w: &mut Window, acked: f64) {
    w.cwnd += acked / w.cwnd;
}

/// RFC 5681 eq. (4): ssthresh = max(FlightSize / 2, 2 segments).
pub fn half_flight(flight: f64) -> f64 {
    (flight / 2.0).max(2.0)
}

/// Algorithm names accepted in scenarios, for errors and the schema.
pub const NAMES: &[&str] = &[
    "tahoe", "reno", "newreno", "bic", "cubic", "vegas", "dctcp", "lia", "olia", "balia", "ewtcp", "coupled", "ecmtcp",
    "dwc", "wvegas", "dts", "external",
];

/// A scenario's `congestion_control`: the algorithm and its constants, written
/// `{ type = "cubic", beta = 0.8 }`; constants left out take the defaults of each algorithm's parameters.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(try_from = "CcSpecWire", into = "CcSpecWire")]
pub enum CcSpec {
    Tahoe,
    Reno,
    Newreno,
    Bic(BicParams),
    Cubic(CubicParams),
    Vegas(VegasParams),
    Dctcp(DctcpParams),
    Lia(LiaParams),
    Olia(OliaParams),
    Balia(BaliaParams),
    Ewtcp(EwtcpParams),
    Coupled(CoupledParams),
    Ecmtcp(EcMtcpParams),
    Dwc(DwcParams),
    Wvegas(WVegasParams),
    Dts(DtsParams),
    /// An algorithm supplied by the program running the engine (a Python class through the binding).
    External(ExternalCcSpec),
}

/// [`CcSpec`] as scenarios spell it. The parameter-less algorithms are empty struct
/// variants because serde lets an internally tagged *unit* variant ignore unknown fields.
#[derive(Deserialize, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
enum CcSpecWire {
    Tahoe {},
    Reno {},
    Newreno {},
    Bic(BicParams),
    Cubic(CubicParams),
    Vegas(VegasParams),
    Dctcp(DctcpParams),
    Lia(LiaParams),
    Olia(OliaParams),
    Balia(BaliaParams),
    Ewtcp(EwtcpParams),
    Coupled(CoupledParams),
    Ecmtcp(EcMtcpParams),
    Dwc(DwcParams),
    Wvegas(WVegasParams),
    Dts(DtsParams),
    External(ExternalCcSpec),
}

impl TryFrom<CcSpecWire> for CcSpec {
    type Error = String;

    fn try_from(wire: CcSpecWire) -> Result<CcSpec, String> {
        let spec = match wire {
            CcSpecWire::Tahoe {} => CcSpec::Tahoe,
            CcSpecWire::Reno {} => CcSpec::Reno,
            CcSpecWire::Newreno {} => CcSpec::Newreno,
            CcSpecWire::Bic(p) => CcSpec::Bic(p),
            CcSpecWire::Cubic(p) => CcSpec::Cubic(p),
            CcSpecWire::Vegas(p) => CcSpec::Vegas(p),
            CcSpecWire::Dctcp(p) => CcSpec::Dctcp(p),
            CcSpecWire::Lia(p) => CcSpec::Lia(p),
            CcSpecWire::Olia(p) => CcSpec::Olia(p),
            CcSpecWire::Balia(p) => CcSpec::Balia(p),
            CcSpecWire::Ewtcp(p) => CcSpec::Ewtcp(p),
            CcSpecWire::Coupled(p) => CcSpec::Coupled(p),
            CcSpecWire::Ecmtcp(p) => CcSpec::Ecmtcp(p),
            CcSpecWire::Dwc(p) => CcSpec::Dwc(p),
            CcSpecWire::Wvegas(p) => CcSpec::Wvegas(p),
            CcSpecWire::Dts(p) => CcSpec::Dts(p),
            CcSpecWire::External(e) => CcSpec::External(e),
        };
        spec.validate()?;
        Ok(spec)
    }
}

impl From<CcSpec> for CcSpecWire {
    fn from(spec: CcSpec) -> CcSpecWire {
        match spec {
            CcSpec::Tahoe => CcSpecWire::Tahoe {},
            CcSpec::Reno => CcSpecWire::Reno {},
            CcSpec::Newreno => CcSpecWire::Newreno {},
            CcSpec::Bic(p) => CcSpecWire::Bic(p),
            CcSpec::Cubic(p) => CcSpecWire::Cubic(p),
            CcSpec::Vegas(p) => CcSpecWire::Vegas(p),
            CcSpec::Dctcp(p) => CcSpecWire::Dctcp(p),
            CcSpec::Lia(p) => CcSpecWire::Lia(p),
            CcSpec::Olia(p) => CcSpecWire::Olia(p),
            CcSpec::Balia(p) => CcSpecWire::Balia(p),
            CcSpec::Ewtcp(p) => CcSpecWire::Ewtcp(p),
            CcSpec::Coupled(p) => CcSpecWire::Coupled(p),
            CcSpec::Ecmtcp(p) => CcSpecWire::Ecmtcp(p),
            CcSpec::Dwc(p) => CcSpecWire::Dwc(p),
            CcSpec::Wvegas(p) => CcSpecWire::Wvegas(p),
            CcSpec::Dts(p) => CcSpecWire::Dts(p),
            CcSpec::External(e) => CcSpecWire::External(e),
        }
    }
}

impl CcSpec {
    /// The loss recovery the algorithm implies without SACK: Tahoe and Reno name their
    /// own; every other algorithm recovers as NewReno.
    pub fn recovery(&self) -> Recovery {
        match self {
            CcSpec::Tahoe => Recovery::Tahoe,
            CcSpec::Reno => Recovery::Reno,
            // ns-2's Vegas deflates and leaves recovery on the first new ACK (`tcp-vegas.cc` `recv()`).
            CcSpec::Vegas(p) if p.variant == Some(VegasVariant::Ns2) => Recovery::Reno,
            _ => Recovery::NewReno,
        }
    }

    /// Checks the constants (also done when a spec is parsed).
    pub fn validate(&self) -> Result<(), String> {
        match self {
            CcSpec::Tahoe | CcSpec::Reno | CcSpec::Newreno => Ok(()),
            CcSpec::Bic(p) => p.validate(),
            CcSpec::Cubic(p) => p.validate(),
            CcSpec::Vegas(p) => p.validate(),
            CcSpec::Dctcp(p) => p.validate(),
            CcSpec::Lia(p) => p.validate(),
            CcSpec::Olia(p) => p.validate(),
            CcSpec::Balia(p) => p.validate(),
            CcSpec::Ewtcp(p) => p.validate(),
            CcSpec::Coupled(p) => p.validate(),
            CcSpec::Ecmtcp(p) => p.validate(),
            CcSpec::Dwc(p) => p.validate(),
            CcSpec::Wvegas(p) => p.validate(),
            CcSpec::Dts(p) => p.validate(),
            CcSpec::External(e) => e.validate(),
        }
    }

    /// The network must count congested switch-to-switch hops for this algorithm (DTS with φ);
    /// the expected queue Q as a fraction of a port's buffer.
    pub fn path_feedback_threshold(&self) -> Option<f64> {
        match self {
            CcSpec::Dts(p) if p.phi => Some(p.expected_queue),
            _ => None,
        }
    }
}

/// The algorithm of a scenario's `congestion_control`, ready for one connection of `subflows`
/// subflows (1 for single-path TCP). `hystart` turns on CUBIC's HyStart with Linux's thresholds
/// (other algorithms have none); [`from_spec_with`] takes the thresholds.
pub fn from_spec(spec: &CcSpec, hystart: bool, subflows: usize) -> Box<dyn CongestionControl> {
    from_spec_with(spec, hystart.then_some(HyStartParams::LINUX), subflows)
}

/// As [`from_spec`], with HyStart's thresholds when it is on. A single-path algorithm on several
/// subflows runs uncoupled, one instance each; an external one is one controller per connection
/// seeing every subflow, as a coupled one is.
pub fn from_spec_with(spec: &CcSpec, hystart: Option<HyStartParams>, subflows: usize) -> Box<dyn CongestionControl> {
    use multipath::*;
    let n = subflows.max(1);
    match spec {
        CcSpec::Lia(p) => Box::new(Lia::new(p.clone())),
        CcSpec::Olia(p) => Box::new(Olia::new(p.clone(), n)),
        CcSpec::Balia(p) => Box::new(Balia::new(p.clone())),
        CcSpec::Ewtcp(p) => Box::new(Ewtcp::new(p.clone())),
        CcSpec::Coupled(p) => Box::new(Coupled::new(p.clone())),
        CcSpec::Ecmtcp(p) => Box::new(EcMtcp::new(p.clone(), n)),
        CcSpec::Dwc(p) => Box::new(Dwc::new(p.clone(), n)),
        CcSpec::Wvegas(p) => Box::new(WVegas::new(p.clone(), n)),
        CcSpec::Dts(p) => Box::new(Dts::new(p.clone(), n)),
        CcSpec::External(e) => e.make(n),
        single if n > 1 => Box::new(Uncoupled::new(n, || single_path(single, hystart))),
        single => single_path(single, hystart),
    }
}

/// One instance of a single-path algorithm.
fn single_path(spec: &CcSpec, hystart: Option<HyStartParams>) -> Box<dyn CongestionControl> {
    match spec {
        // Tahoe, Reno and NewReno share Reno's window; the sender does their recovery.
        CcSpec::Tahoe | CcSpec::Reno | CcSpec::Newreno => Box::new(Reno),
        CcSpec::Bic(p) => Box::new(Bic::new(p.clone())),
        CcSpec::Cubic(p) => match hystart {
            Some(h) => Box::new(Cubic::with_hystart(p.clone(), h)),
            None => Box::new(Cubic::new(p.clone())),
        },
        CcSpec::Vegas(p) if p.variant == Some(VegasVariant::Ns2) => Box::new(Ns2Vegas::new(p.clone())),
        CcSpec::Vegas(p) => Box::new(Vegas::new(p.clone())),
        CcSpec::Dctcp(p) => Box::new(Dctcp::new(p.clone())),
        coupled => unreachable!("{coupled:?} is built by from_spec"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(json: &str) -> Result<CcSpec, String> {
        serde_json::from_str(json).map_err(|e| e.to_string())
    }

    #[test]
    fn every_name_parses_with_defaults() {
        // An external algorithm has no default: it needs its class (external.rs tests it).
        for name in NAMES.iter().filter(|&&name| name != "external") {
            let spec = parse(&format!(r#"{{"type": "{name}"}}"#)).unwrap();
            assert_eq!(serde_json::to_value(&spec).unwrap()["type"], *name);
        }
        assert_eq!(parse(r#"{"type": "newreno"}"#).unwrap(), CcSpec::Newreno);
        assert_eq!(parse(r#"{"type": "bic"}"#).unwrap(), CcSpec::Bic(BicParams::default()));
    }

    #[test]
    fn given_constants_override_and_the_rest_default() {
        let spec = parse(r#"{"type": "cubic", "beta": 0.8}"#).unwrap();
        let expected =
            CubicParams { beta: 0.8, c: 0.4, fast_convergence: true, tcp_friendliness: true, initial_ssthresh: 0 };
        assert_eq!(spec, CcSpec::Cubic(expected));
        let spec = parse(r#"{"type": "vegas", "alpha": 2, "beta": 4, "classic_diff": true}"#).unwrap();
        assert_eq!(
            spec,
            CcSpec::Vegas(VegasParams { alpha: 2.0, beta: 4.0, gamma: 1.0, classic_diff: true, variant: None })
        );
        let spec = parse(r#"{"type": "dctcp", "g": 0.125}"#).unwrap();
        assert_eq!(spec, CcSpec::Dctcp(DctcpParams { g: 0.125, alpha_init: 1.0 }));
    }

    #[test]
    fn unknown_fields_and_types_are_rejected() {
        let err = parse(r#"{"type": "cubic", "gamma": 1}"#).unwrap_err();
        assert!(err.contains("unknown field `gamma`"), "{err}");
        let err = parse(r#"{"type": "reno", "beta": 0.8}"#).unwrap_err();
        assert!(err.contains("unknown field `beta`"), "{err}");
        let err = parse(r#"{"type": "westwood"}"#).unwrap_err();
        assert!(err.contains("unknown variant `westwood`"), "{err}");
        assert!(parse(r#"{"beta": 0.8}"#).is_err());
    }

    #[test]
    fn out_of_range_constants_are_rejected_when_parsed() {
        let err = parse(r#"{"type": "cubic", "beta": 1.5}"#).unwrap_err();
        assert!(err.contains("beta must be in (0, 1)"), "{err}");
        assert!(parse(r#"{"type": "vegas", "alpha": 5}"#).unwrap_err().contains("must not exceed beta"));
        assert!(parse(r#"{"type": "bic", "b": 1}"#).is_err());
        assert!(parse(r#"{"type": "dctcp", "g": 0}"#).is_err());
    }

    #[test]
    fn serialization_round_trips() {
        for spec in [CcSpec::Reno, CcSpec::Cubic(CubicParams { beta: 0.8, ..Default::default() })] {
            let text = serde_json::to_string(&spec).unwrap();
            assert_eq!(parse(&text).unwrap(), spec);
        }
        assert_eq!(serde_json::to_string(&CcSpec::Tahoe).unwrap(), r#"{"type":"tahoe"}"#);
    }

    #[test]
    fn multipath_algorithms_take_their_constants_and_name_bad_ones() {
        let spec = parse(r#"{"type": "dts", "phi": true, "kappa": 0.001, "taylor": true}"#).unwrap();
        let expected = DtsParams { phi: true, kappa: 0.001, taylor: true, ..Default::default() };
        assert_eq!(spec, CcSpec::Dts(expected));
        assert_eq!(spec.path_feedback_threshold(), Some(0.2));
        assert_eq!(parse(r#"{"type": "dts"}"#).unwrap().path_feedback_threshold(), None);
        let spec = parse(r#"{"type": "ecmtcp", "ratio": "best_over_route"}"#).unwrap();
        assert_eq!(spec, CcSpec::Ecmtcp(EcMtcpParams { ratio: LossRatio::BestOverRoute, ..Default::default() }));
        let spec = parse(r#"{"type": "coupled", "increase": "wischik"}"#).unwrap();
        assert_eq!(spec, CcSpec::Coupled(CoupledParams { increase: CoupledIncrease::Wischik }));
        assert_eq!(parse(r#"{"type": "ewtcp", "a": 0.25}"#).unwrap(), CcSpec::Ewtcp(EwtcpParams { a: Some(0.25) }));
        for (json, words) in [
            (r#"{"type": "dts", "expected_queue": 1.5}"#, "expected_queue must be in [0, 1]"),
            (r#"{"type": "dts", "kappa": -1}"#, "kappa must be a non-negative number"),
            (r#"{"type": "balia", "md_cap": 3}"#, "md_cap must be in [1, 2]"),
            (r#"{"type": "ewtcp", "a": 0}"#, "a must be in (0, 1]"),
            (r#"{"type": "ecmtcp", "loss_weight": 0}"#, "loss_weight must be in (0, 1]"),
            (r#"{"type": "wvegas", "gamma": -1}"#, "gamma must be a non-negative number"),
            (r#"{"type": "lia", "beta": 0.5}"#, "unknown field `beta`"),
            (r#"{"type": "dwc", "groups": 2}"#, "unknown field `groups`"),
        ] {
            let err = parse(json).unwrap_err();
            assert!(err.contains(words), "{json}: {err}");
        }
    }

    #[test]
    fn recovery_follows_the_name() {
        assert_eq!(CcSpec::Tahoe.recovery(), Recovery::Tahoe);
        assert_eq!(CcSpec::Reno.recovery(), Recovery::Reno);
        assert_eq!(CcSpec::Newreno.recovery(), Recovery::NewReno);
        assert_eq!(CcSpec::Cubic(CubicParams::default()).recovery(), Recovery::NewReno);
        assert_eq!(CcSpec::Dctcp(DctcpParams::default()).recovery(), Recovery::NewReno);
    }

    #[test]
    fn the_factory_builds_the_named_algorithm() {
        let cases = [
            (CcSpec::Tahoe, "Reno"),
            (CcSpec::Newreno, "Reno"),
            (CcSpec::Bic(BicParams::default()), "Bic"),
            (CcSpec::Cubic(CubicParams::default()), "Cubic"),
            (CcSpec::Vegas(VegasParams::default()), "Vegas"),
            (CcSpec::Dctcp(DctcpParams::default()), "Dctcp"),
        ];
        for (spec, name) in cases {
            let debug = format!("{:?}", from_spec(&spec, false, 1));
            assert!(debug.starts_with(name), "{spec:?} built {debug}");
        }
        // Parameters reach the algorithm: BIC's old-kernel initial ssthresh.
        let old_bic = CcSpec::Bic(BicParams { initial_ssthresh: 100, ..Default::default() });
        assert_eq!(from_spec(&old_bic, false, 1).initial_ssthresh(), Some(100.0));
        // DCTCP with α = 0.5 from the spec cuts cwnd 100 to 75 on ECE.
        let mut dctcp = from_spec(&CcSpec::Dctcp(DctcpParams { alpha_init: 0.5, ..Default::default() }), false, 1);
        let w = Window { cwnd: 100.0, ssthresh: 1e9 };
        assert_eq!(dctcp.ssthresh(Subflows::ALONE, &w, 100.0, Congestion::Ecn, 0), 75.0);
    }
}
