//! TCP: a sender and a receiver per connection, with pluggable congestion control.
//!
//! The endpoints are pure state machines: they read packets and timer expiries and write
//! packets to an outbox and deadlines to timers through a [`Ctx`], so they can be driven
//! by the simulation or, in tests, by hand.

pub mod cc;
pub mod ends;
pub mod group;
pub mod mptcp;
pub mod ranges;
pub mod receiver;
#[cfg(test)]
mod receiver_tests;
#[cfg(test)]
mod recovery_tests;
pub mod rto;
pub mod scoreboard;
pub mod sender;
pub mod spec;

use crate::error::ScenarioError;
pub use crate::event::TcpTimer;
use crate::event::{EventKind, EventQueue};
use crate::packet::{Ecn, TcpHeader};
use crate::time::{checked_secs, from_secs, Time};
use crate::timer::Timer;

pub use cc::CcSpec;
use cc::HyStartParams;
use cc::{VegasParams, VegasVariant};
use spec::{OpenerSpec, PrrSpec, RttSamplingSpec, SsthreshRuleSpec, TcpProfile, TcpSpec};

/// How lost segments are recovered (RFC 5681 §3.2, RFC 6582; RFC 6675 with SACK).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Recovery {
    /// Slow start from one segment and go-back-N resend after three duplicate ACKs.
    Tahoe,
    /// RFC 5681 fast retransmit / fast recovery; the first new ACK ends recovery.
    Reno,
    /// RFC 6582: partial ACKs keep recovery going until `recover` is acknowledged.
    NewReno,
    /// RFC 6675 conservative SACK-based recovery.
    Sack,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EcnMode {
    Off,
    /// RFC 3168: ECE latched until CWR; react at most once per window.
    Classic,
    /// RFC 8257: the receiver echoes each CE state change at once; the sender scales by α.
    Dctcp,
}

/// How RTT samples are taken (RFC 6298 §3, RFC 7323 §4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RttSampling {
    /// From every ACK of never-retransmitted data (Linux with timestamps).
    EveryAck,
    /// One timed segment per RTT (ns-2, BSD).
    OncePerRtt,
}

/// How the window is brought down to ssthresh during SACK recovery.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prr {
    /// RFC 6675: cwnd = ssthresh at once, sending as the pipe allows.
    Off,
    /// RFC 6937 with the slow-start reduction bound.
    Ssrb,
    /// RFC 6937 with the conservative reduction bound.
    Crb,
}

/// What a congestion signal halves into the new ssthresh.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SsthreshRule {
    /// RFC 5681 §3.1 eq. 4: ssthresh = max(FlightSize / 2, 2·SMSS).
    FlightSize,
    /// ns-2.35 `tcp.cc` `slowdown()`: half of `window()` = min(cwnd_, window_) in whole
    /// segments, where ns-2's `cwnd_` never holds the duplicate-ACK inflation (it keeps that in
    /// `dupwnd_`), so during fast recovery the base is min(ssthresh, cwnd).
    Cwnd,
}

/// Which endpoint sends the SYN.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opener {
    Sender,
    /// The data receiver connects (a client downloading from a server).
    Receiver,
}

/// Everything a connection's endpoints need to know, resolved from the scenario.
#[derive(Clone, Debug)]
pub struct TcpConfig {
    /// Payload bytes per full segment.
    pub mss: u32,
    /// IP + TCP header bytes added to every packet.
    pub header_bytes: u32,
    pub initial_window: f64,
    pub initial_ssthresh: f64,
    /// RFC 3465 L: segments of window growth credited per ACK at most.
    pub abc_limit: f64,
    pub rto: rto::RtoParams,
    pub syn_retries: u32,
    pub receive_window: u64,
    /// Delayed-ACK timeout; `None` acknowledges every segment at once.
    pub delayed_ack: Option<Time>,
    pub dupthresh: u32,
    pub recovery: Recovery,
    pub ecn: EcnMode,
    pub rtt_sampling: RttSampling,
    pub opener: Opener,
    pub cc: CcSpec,
    /// RFC 7323 timestamps: RTT samples from every ACK (RTTM) and PAWS at the receiver.
    pub timestamps: bool,
    /// RFC 3042: one new segment on each of the first two duplicate ACKs.
    pub limited_transmit: bool,
    /// Limited transmit also while resending after a timeout (ns-2.35 `send_one()`).
    pub limited_transmit_after_timeout: bool,
    /// RFC 6675 §5 step (3): with SACK, new data on duplicate ACKs as the pipe allows.
    pub sack_limited_transmit: bool,
    /// RFC 6675 §5.1: keep the SACK scoreboard across a retransmission timeout.
    pub sack_across_rto: bool,
    /// RFC 6937 proportional rate reduction in SACK recovery.
    pub prr: Prr,
    /// CUBIC's HyStart delay-increase exit from slow start (Linux `tcp_cubic.c`).
    pub hystart: bool,
    /// HyStart's delay threshold.
    pub hystart_delay: HyStartParams,
    pub ssthresh_rule: SsthreshRule,
    /// Reduce ssthresh on every timeout, also inside a window already reduced (ns-2.35
    /// `slowdown()` on each `timeout()`), instead of once per window (Linux `tcp_enter_loss`).
    pub ssthresh_on_every_timeout: bool,
    /// Reno re-enters fast retransmit only once the data outstanding at the last one is
    /// acknowledged (ns-2.35 `tcp-reno.cc` `dupack_action()` with `bug_fix_`).
    pub reno_bug_fix: bool,
    /// After an ECN-Echo, cwnd = half of min(cwnd, receive window), at least one segment
    /// (ns-2.35 `tcp.cc` `ecn()`), instead of the new ssthresh.
    pub ecn_halve_cwnd: bool,
    /// With `ecn_halve_cwnd`, cwnd may fall below one segment; the sender then waits for its timer.
    pub ecn_cwnd_below_one: bool,
    /// A reduction keeps cwnd's fraction and truncates ssthresh (ns-2.35 `precisionReduce_`).
    pub precision_reduce: bool,
    /// The ACK that ends fast recovery grows the window (ns-2.35 `recv_newack_helper()`).
    pub grow_on_recovery_exit: bool,
    /// With SACK, a retransmission is lost once data sent after it is SACKed or a later
    /// retransmission is acknowledged (ns-2.35 TCP-Linux `scoreboard1.cc`).
    pub mark_lost_retransmissions: bool,
    /// Restart the retransmission timer on every ACK, duplicates included (ns-2.35 TCP-Linux
    /// `time_processing()`), not only on new data acknowledged (RFC 6298 §5.3).
    pub rto_restart_on_every_ack: bool,
}

/// A packet an endpoint wants sent.
#[derive(Clone, Copy, Debug)]
pub struct Outgoing {
    /// The subflow that sent it (0 on a single path).
    pub subflow: u16,
    pub tcp: TcpHeader,
    pub ecn: Ecn,
    pub size_bytes: u32,
}

/// What an endpoint sees of the world while it handles one packet or timer.
pub struct Ctx<'a> {
    pub now: Time,
    pub conn: u32,
    /// The subflow of the connection the endpoint belongs to (0 on a single path).
    pub subflow: u16,
    pub events: &'a mut EventQueue,
    pub out: &'a mut Vec<Outgoing>,
}

impl Ctx<'_> {
    pub fn send(&mut self, tcp: TcpHeader, ecn: Ecn, size_bytes: u32) {
        self.out.push(Outgoing { subflow: self.subflow, tcp, ecn, size_bytes });
    }

    pub fn arm(&mut self, timer: &mut Timer, deadline: Time, which: TcpTimer) {
        timer.set(deadline, self.events, EventKind::Tcp { conn: self.conn, subflow: self.subflow, timer: which });
    }

    /// True if this firing of `timer` is its expiry (see [`Timer::fire`]).
    pub fn expired(&mut self, timer: &mut Timer, which: TcpTimer) -> bool {
        timer.fire(self.now, self.events, EventKind::Tcp { conn: self.conn, subflow: self.subflow, timer: which })
    }
}

impl TcpConfig {
    /// HyStart's thresholds when it is on.
    pub fn hystart_params(&self) -> Option<HyStartParams> {
        self.hystart.then_some(self.hystart_delay)
    }

    /// Resolves a scenario's TCP settings against its profile, validating each field.
    pub fn from_spec(spec: &TcpSpec, field: &str) -> Result<TcpConfig, ScenarioError> {
        let d = Defaults::of(spec.profile, spec.mss_bytes);
        let mss = spec.mss_bytes.unwrap_or(d.mss);
        let secs = |v: Option<f64>, default: f64, name: &str| -> Result<Time, ScenarioError> {
            checked_secs(v.unwrap_or(default), &format!("{field}.{name}"), false)
        };
        let rto = rto::RtoParams {
            initial: secs(spec.initial_rto_s, d.initial_rto_s, "initial_rto_s")?,
            min: secs(spec.min_rto_s, d.min_rto_s, "min_rto_s")?,
            max: secs(spec.max_rto_s, d.max_rto_s, "max_rto_s")?,
            granularity: secs(spec.clock_granularity_s, d.granularity_s, "clock_granularity_s")?,
            tick_counted: spec.rtt_in_ticks.unwrap_or(d.rtt_in_ticks),
        };
        if rto.initial == 0 || rto.max < rto.min {
            return Err(ScenarioError::new(field.to_string(), "needs initial_rto_s > 0 and max_rto_s >= min_rto_s"));
        }
        let delayed_ack = match secs(spec.delayed_ack_s, d.delayed_ack_s, "delayed_ack_s")? {
            0 => None,
            // RFC 5681 §4.2: the delay must be less than 0.5 s.
            d if d >= from_secs(0.5) => {
                return Err(ScenarioError::new(format!("{field}.delayed_ack_s"), "must be below 0.5 s (RFC 5681 §4.2)"))
            }
            d => Some(d),
        };
        if mss == 0 {
            return Err(ScenarioError::new(format!("{field}.mss_bytes"), "must be at least 1"));
        }
        let positive = |v: f64, name: &str| -> Result<f64, ScenarioError> {
            if v.is_finite() && v >= 1.0 {
                Ok(v)
            } else {
                Err(ScenarioError::new(format!("{field}.{name}"), format!("must be at least 1 segment, got {v}")))
            }
        };
        let cc = match spec.congestion_control.clone().unwrap_or(CcSpec::Newreno) {
            // Vegas as the profile's simulator runs it, unless the scenario names one.
            CcSpec::Vegas(p) if p.variant.is_none() => {
                let variant = if spec.profile == TcpProfile::Ns2 { VegasVariant::Ns2 } else { VegasVariant::Linux };
                let p = VegasParams { variant: Some(variant), ..p };
                p.validate().map_err(|e| ScenarioError::new(format!("{field}.congestion_control"), e))?;
                CcSpec::Vegas(p)
            }
            cc => cc,
        };
        let linux_agent = d.linux_agent_rules && matches!(cc, CcSpec::Bic(_) | CcSpec::Cubic(_));
        let sack = spec.sack.unwrap_or(d.sack);
        let recovery = match (sack, cc.recovery()) {
            (true, _) => Recovery::Sack,
            (false, r) => r,
        };
        let ecn = match (&cc, spec.ecn) {
            (CcSpec::Dctcp(_), Some(false)) => {
                return Err(ScenarioError::new(format!("{field}.ecn"), "cannot be false with DCTCP, which needs ECN"));
            }
            (CcSpec::Dctcp(_), _) => EcnMode::Dctcp,
            (_, Some(true)) => EcnMode::Classic,
            _ => EcnMode::Off,
        };
        let receive_window = spec.receive_window_bytes.unwrap_or(d.receive_window);
        if receive_window < mss as u64 {
            return Err(ScenarioError::new(
                format!("{field}.receive_window_bytes"),
                format!("must hold at least one segment ({mss} bytes), got {receive_window}"),
            ));
        }
        let dupthresh = spec.dupthresh.unwrap_or(3);
        if dupthresh == 0 {
            return Err(ScenarioError::new(format!("{field}.dupthresh"), "must be at least 1"));
        }
        Ok(TcpConfig {
            mss,
            header_bytes: spec.header_bytes.unwrap_or(40),
            initial_window: positive(
                spec.initial_window_segments.unwrap_or(d.initial_window),
                "initial_window_segments",
            )?,
            initial_ssthresh: positive(
                spec.initial_ssthresh_segments.unwrap_or(2f64.powi(31)),
                "initial_ssthresh_segments",
            )?,
            abc_limit: positive(spec.abc_limit_segments.unwrap_or(d.abc_limit), "abc_limit_segments")?,
            rto,
            syn_retries: spec.syn_retries.unwrap_or(d.syn_retries),
            receive_window,
            delayed_ack,
            dupthresh,
            recovery,
            ecn,
            rtt_sampling: match spec.rtt_sampling {
                Some(RttSamplingSpec::EveryAck) => RttSampling::EveryAck,
                Some(RttSamplingSpec::OncePerRtt) => RttSampling::OncePerRtt,
                None => d.rtt_sampling,
            },
            opener: match spec.opener {
                Some(OpenerSpec::Receiver) => Opener::Receiver,
                _ => Opener::Sender,
            },
            timestamps: spec.timestamps.unwrap_or(d.timestamps),
            limited_transmit: spec.limited_transmit.unwrap_or(d.limited_transmit),
            limited_transmit_after_timeout: spec
                .limited_transmit_after_timeout
                .unwrap_or(d.limited_transmit_after_timeout),
            sack_limited_transmit: spec.sack_limited_transmit.unwrap_or(d.sack_limited_transmit),
            sack_across_rto: spec.sack_across_rto.unwrap_or(d.sack_across_rto),
            prr: match spec.prr.unwrap_or(d.prr) {
                PrrSpec::Off => Prr::Off,
                PrrSpec::Ssrb => Prr::Ssrb,
                PrrSpec::Crb => Prr::Crb,
            },
            hystart: spec.hystart.unwrap_or(d.hystart),
            hystart_delay: {
                let fraction = spec.hystart_delay_fraction.unwrap_or(d.hystart_delay_fraction);
                if !(fraction.is_finite() && fraction > 0.0) {
                    return Err(ScenarioError::new(
                        format!("{field}.hystart_delay_fraction"),
                        format!("must be a positive number, got {fraction}"),
                    ));
                }
                let min = secs(spec.hystart_delay_min_s, d.hystart_delay_min_s, "hystart_delay_min_s")?;
                let max = secs(spec.hystart_delay_max_s, d.hystart_delay_max_s, "hystart_delay_max_s")?;
                if max < min {
                    return Err(ScenarioError::new(
                        format!("{field}.hystart_delay_max_s"),
                        "must be at least hystart_delay_min_s",
                    ));
                }
                HyStartParams {
                    delay_fraction: fraction,
                    delay_min: min,
                    delay_max: max,
                    smoothed_rtt: spec.hystart_smoothed_rtt.unwrap_or(d.hystart_smoothed_rtt),
                }
            },
            ssthresh_rule: match spec.ssthresh_rule.unwrap_or(d.ssthresh_rule) {
                SsthreshRuleSpec::FlightSize => SsthreshRule::FlightSize,
                SsthreshRuleSpec::Cwnd => SsthreshRule::Cwnd,
            },
            ssthresh_on_every_timeout: spec.ssthresh_on_every_timeout.unwrap_or(d.ssthresh_on_every_timeout),
            reno_bug_fix: spec.reno_bug_fix.unwrap_or(d.reno_bug_fix),
            // DCTCP keeps its own reduction (RFC 8257 §3.4).
            ecn_halve_cwnd: ecn == EcnMode::Classic && spec.ecn_halve_cwnd.unwrap_or(d.ecn_halve_cwnd),
            ecn_cwnd_below_one: ecn == EcnMode::Classic
                && spec.ecn_halve_cwnd.unwrap_or(d.ecn_halve_cwnd)
                && spec.ecn_cwnd_below_one.unwrap_or(false),
            precision_reduce: spec.precision_reduce.unwrap_or(d.precision_reduce),
            grow_on_recovery_exit: spec.grow_on_recovery_exit.unwrap_or(d.grow_on_recovery_exit),
            // ns-2 runs BIC and CUBIC in its TCP-Linux agent, which has these two rules; its own
            // agents (Sack1 included) have not.
            mark_lost_retransmissions: spec.mark_lost_retransmissions.unwrap_or(linux_agent),
            rto_restart_on_every_ack: spec.rto_restart_on_every_ack.unwrap_or(linux_agent),
            cc,
        })
    }

    /// The resolved settings as scenario fields (what `scenario.json` records).
    pub fn to_spec(&self, profile: TcpProfile) -> TcpSpec {
        let secs = crate::time::to_secs;
        TcpSpec {
            profile,
            congestion_control: Some(self.cc.clone()),
            mss_bytes: Some(self.mss),
            header_bytes: Some(self.header_bytes),
            initial_window_segments: Some(self.initial_window),
            initial_ssthresh_segments: Some(self.initial_ssthresh),
            abc_limit_segments: Some(self.abc_limit),
            initial_rto_s: Some(secs(self.rto.initial)),
            min_rto_s: Some(secs(self.rto.min)),
            max_rto_s: Some(secs(self.rto.max)),
            clock_granularity_s: Some(secs(self.rto.granularity)),
            delayed_ack_s: Some(self.delayed_ack.map_or(0.0, secs)),
            sack: Some(self.recovery == Recovery::Sack),
            ecn: Some(self.ecn != EcnMode::Off),
            receive_window_bytes: Some(self.receive_window),
            syn_retries: Some(self.syn_retries),
            dupthresh: Some(self.dupthresh),
            rtt_sampling: Some(match self.rtt_sampling {
                RttSampling::EveryAck => RttSamplingSpec::EveryAck,
                RttSampling::OncePerRtt => RttSamplingSpec::OncePerRtt,
            }),
            opener: Some(match self.opener {
                Opener::Sender => OpenerSpec::Sender,
                Opener::Receiver => OpenerSpec::Receiver,
            }),
            timestamps: Some(self.timestamps),
            limited_transmit: Some(self.limited_transmit),
            limited_transmit_after_timeout: Some(self.limited_transmit_after_timeout),
            sack_limited_transmit: Some(self.sack_limited_transmit),
            sack_across_rto: Some(self.sack_across_rto),
            prr: Some(match self.prr {
                Prr::Off => PrrSpec::Off,
                Prr::Ssrb => PrrSpec::Ssrb,
                Prr::Crb => PrrSpec::Crb,
            }),
            hystart: Some(self.hystart),
            hystart_delay_fraction: Some(self.hystart_delay.delay_fraction),
            hystart_delay_min_s: Some(crate::time::to_secs(self.hystart_delay.delay_min)),
            hystart_delay_max_s: Some(crate::time::to_secs(self.hystart_delay.delay_max)),
            hystart_smoothed_rtt: Some(self.hystart_delay.smoothed_rtt),
            ssthresh_rule: Some(match self.ssthresh_rule {
                SsthreshRule::FlightSize => SsthreshRuleSpec::FlightSize,
                SsthreshRule::Cwnd => SsthreshRuleSpec::Cwnd,
            }),
            ssthresh_on_every_timeout: Some(self.ssthresh_on_every_timeout),
            reno_bug_fix: Some(self.reno_bug_fix),
            ecn_halve_cwnd: Some(self.ecn_halve_cwnd),
            ecn_cwnd_below_one: Some(self.ecn_cwnd_below_one),
            precision_reduce: Some(self.precision_reduce),
            grow_on_recovery_exit: Some(self.grow_on_recovery_exit),
            rtt_in_ticks: Some(self.rto.tick_counted),
            mark_lost_retransmissions: Some(self.mark_lost_retransmissions),
            rto_restart_on_every_ack: Some(self.rto_restart_on_every_ack),
        }
    }
}

/// What each profile sets when a field is left out; `docs/tcp-profiles.md` gives each
/// value's source.
struct Defaults {
    mss: u32,
    initial_rto_s: f64,
    min_rto_s: f64,
    max_rto_s: f64,
    granularity_s: f64,
    /// 0: no delayed ACKs.
    delayed_ack_s: f64,
    initial_window: f64,
    abc_limit: f64,
    sack: bool,
    rtt_sampling: RttSampling,
    receive_window: u64,
    syn_retries: u32,
    timestamps: bool,
    limited_transmit: bool,
    limited_transmit_after_timeout: bool,
    sack_limited_transmit: bool,
    sack_across_rto: bool,
    prr: PrrSpec,
    hystart: bool,
    hystart_delay_fraction: f64,
    hystart_delay_min_s: f64,
    hystart_delay_max_s: f64,
    hystart_smoothed_rtt: bool,
    ssthresh_rule: SsthreshRuleSpec,
    ssthresh_on_every_timeout: bool,
    reno_bug_fix: bool,
    ecn_halve_cwnd: bool,
    precision_reduce: bool,
    grow_on_recovery_exit: bool,
    rtt_in_ticks: bool,
    /// `mark_lost_retransmissions` and `rto_restart_on_every_ack` for BIC and CUBIC, the rules of
    /// ns-2.35's TCP-Linux agent.
    linux_agent_rules: bool,
}

impl Defaults {
    fn of(profile: TcpProfile, mss: Option<u32>) -> Defaults {
        // The plain RFCs: none of the later loss-recovery refinements.
        let plain = Defaults {
            mss: 1460,
            initial_rto_s: 1.0,
            min_rto_s: 1.0,
            max_rto_s: 60.0,
            granularity_s: 0.01,
            delayed_ack_s: 0.2,
            initial_window: 3.0,
            abc_limit: 1.0,
            sack: false,
            rtt_sampling: RttSampling::EveryAck,
            receive_window: 1 << 30,
            syn_retries: 6,
            timestamps: false,
            limited_transmit: false,
            limited_transmit_after_timeout: false,
            sack_limited_transmit: false,
            sack_across_rto: false,
            prr: PrrSpec::Off,
            hystart: false,
            // Linux `tcp_cubic.c`: HYSTART_DELAY_THRESH(delay_min >> 3), clamped to 4 and 16 ms.
            hystart_delay_fraction: 0.125,
            hystart_delay_min_s: 0.004,
            hystart_delay_max_s: 0.016,
            hystart_smoothed_rtt: false,
            ssthresh_rule: SsthreshRuleSpec::FlightSize,
            ssthresh_on_every_timeout: false,
            reno_bug_fix: false,
            ecn_halve_cwnd: false,
            precision_reduce: false,
            grow_on_recovery_exit: false,
            rtt_in_ticks: false,
            linux_agent_rules: false,
        };
        // What ns-3 and Linux share: IW 10 (RFC 6928), a 1 ms clock, SACK with the scoreboard
        // kept across timeouts, timestamps, limited transmit, PRR-SSRB and HyStart.
        let modern = Defaults {
            granularity_s: 0.001,
            initial_window: 10.0,
            sack: true,
            timestamps: true,
            limited_transmit: true,
            sack_limited_transmit: true,
            sack_across_rto: true,
            prr: PrrSpec::Ssrb,
            hystart: true,
            ..plain
        };
        match profile {
            // RFC 6298 (initial and minimum RTO 1 s, maximum 60 s), RFC 5681 (initial window
            // by SMSS, §3.1; delayed ACKs, §4.2; one segment of growth per ACK), no SACK.
            TcpProfile::Rfc => Defaults {
                initial_window: match mss.unwrap_or(1460) {
                    m if m > 2190 => 2.0,
                    m if m > 1095 => 3.0,
                    _ => 4.0,
                },
                ..plain
            },
            // ns-2.35's one-way agents (Agent/TCP defaults read from ns-2 itself): packetSize_
            // 1000, TCPSink without delayed ACKs, windowInit_ 2, rtxcur_init_ 3 s, minrto_ 0.2 s,
            // maxrto_ 60 s, tcpTick_ 10 ms, one timed segment per RTT; `slowdown()` (tcp.cc)
            // halves min(cwnd_, window_) on each loss and, from `timeout()`, on every timeout, as
            // the TCP-Linux agent that runs BIC and CUBIC does (tcp-linux.cc `enter_loss()` calls
            // the module's ssthresh on every timeout); Reno's bugFix_ (tcp-reno.cc
            // `dupack_action()`); after an ECN-Echo `ecn()` halves `cwnd_` itself, fraction kept
            // (`precisionReduce_` true); `send_one()` (`singledup_`) sends in any state; the
            // TCP-Linux agent's scoreboard finds lost retransmissions (scoreboard1.cc) and every ACK
            // restarts its timer (tcp-linux.cc `time_processing()`). Not defaults (see docs/tcp-profiles.md): singledup_ 1 (limited
            // transmit) and window_ 20 (with the ssthresh_ it sets).
            TcpProfile::Ns2 => Defaults {
                mss: 1000,
                initial_rto_s: 3.0,
                min_rto_s: 0.2,
                delayed_ack_s: 0.0,
                initial_window: 2.0,
                rtt_sampling: RttSampling::OncePerRtt,
                limited_transmit: false,
                ssthresh_rule: SsthreshRuleSpec::Cwnd,
                ssthresh_on_every_timeout: true,
                reno_bug_fix: true,
                ecn_halve_cwnd: true,
                limited_transmit_after_timeout: true,
                linux_agent_rules: true,
                ..plain
            },
            // ns-3.44 (TcpSocket, TcpSocketBase, TcpPrrRecovery, TcpCubic attributes):
            // SegmentSize 536, InitialCwnd 10, RcvBufSize 131072, ConnTimeout 3 s, ConnCount 6,
            // DelAckTimeout 0.2 s, MinRto 1 s, ClockGranularity 1 ms, Sack, Timestamp,
            // LimitedTransmit, PRR with SSRB, HyStart.
            // HyStart's threshold: `TcpCubic::HystartDelayThresh(m_delayMin)` clamps the minimum RTT
            // itself (not an eighth of it) to HyStartDelayMin 4 ms and HyStartDelayMax 1 s; its
            // RTTs are `TcpSocketBase::EstimateRtt`'s `m_lastRtt = m_rtt->GetEstimate()`, the SRTT.
            TcpProfile::Ns3 => Defaults {
                mss: 536,
                initial_rto_s: 3.0,
                receive_window: 131_072,
                hystart_delay_fraction: 1.0,
                hystart_delay_max_s: 1.0,
                hystart_smoothed_rtt: true,
                ..modern
            },
            // Linux: TCP_RTO_MIN 200 ms, TCP_RTO_MAX 120 s, IW10 (RFC 6928), SACK and
            // timestamps (so MSS 1448 on a 1500-byte MTU), 40 ms delayed ACKs (TCP_DELACK_MIN),
            // PRR-SSRB, limited transmit through the SACK pipe, the scoreboard kept across
            // timeouts, HyStart.
            TcpProfile::Linux => {
                Defaults { mss: 1448, min_rto_s: 0.2, max_rto_s: 120.0, delayed_ack_s: 0.04, abc_limit: 2.0, ..modern }
            }
        }
    }
}
