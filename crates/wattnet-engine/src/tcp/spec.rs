//! A TCP flow's settings as a scenario spells them (`flows[i].tcp`); `TcpConfig::from_spec`
//! resolves them against their profile.

use serde::{Deserialize, Serialize};

use super::CcSpec;

/// TCP settings. Every field left out takes the value of `profile`: `rfc` (the default, the
/// plain RFCs), `ns2` (ns-2.35's one-way agents), `ns3` (ns-3.44's defaults) or `linux` (a
/// current kernel); `docs/tcp-profiles.md` lists every field per profile with its source.
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct TcpSpec {
    #[serde(default)]
    pub profile: TcpProfile,
    /// Default NewReno.
    pub congestion_control: Option<CcSpec>,
    /// Payload bytes per full segment; default 1460 (`ns2` 1000, `ns3` 536, `linux` 1448).
    pub mss_bytes: Option<u32>,
    /// IP + TCP header bytes per packet; default 40.
    pub header_bytes: Option<u32>,
    pub initial_window_segments: Option<f64>,
    /// Default 2³¹ segments ("arbitrarily high", RFC 5681 §3.1).
    pub initial_ssthresh_segments: Option<f64>,
    /// RFC 3465 L: at most this many segments of window growth per ACK. Default 1 for `rfc`
    /// and `ns2` (RFC 5681 without byte counting: +1 per ACK in slow start, +1/cwnd in
    /// avoidance), 2 for `linux`.
    pub abc_limit_segments: Option<f64>,
    pub initial_rto_s: Option<f64>,
    pub min_rto_s: Option<f64>,
    pub max_rto_s: Option<f64>,
    pub clock_granularity_s: Option<f64>,
    /// Delayed-ACK timeout; 0 acknowledges every segment at once.
    pub delayed_ack_s: Option<f64>,
    pub sack: Option<bool>,
    /// RFC 3168 ECN; DCTCP always negotiates ECN.
    pub ecn: Option<bool>,
    /// Receive buffer advertised as the window; default 1 GiB, never the limit (`ns3` 131072).
    pub receive_window_bytes: Option<u64>,
    /// Default 6 (Linux tcp_syn_retries).
    pub syn_retries: Option<u32>,
    /// Duplicate ACKs that trigger fast retransmit; default 3.
    pub dupthresh: Option<u32>,
    pub rtt_sampling: Option<RttSamplingSpec>,
    /// Which end sends the SYN; default the data sender.
    pub opener: Option<OpenerSpec>,
    /// RFC 7323 timestamps (RTT from every ACK's echo, PAWS); 12 bytes on every segment.
    pub timestamps: Option<bool>,
    /// RFC 3042 limited transmit.
    pub limited_transmit: Option<bool>,
    /// With `limited_transmit`, its segments also while resending after a timeout, which then
    /// are the next segments of the go-back-N resend (ns-2.35 `tcp.cc` `send_one()` sends the
    /// segment at `t_seqno_` in any state); RFC 3042 sends only new data. Default false (`ns2` true).
    pub limited_transmit_after_timeout: Option<bool>,
    /// RFC 6675 §5 step (3): with SACK, new data on the first duplicate ACKs as the pipe allows.
    pub sack_limited_transmit: Option<bool>,
    /// RFC 6675 §5.1: keep SACK information across a retransmission timeout.
    pub sack_across_rto: Option<bool>,
    /// RFC 6937 proportional rate reduction in SACK recovery: `off`, `ssrb` or `crb`.
    pub prr: Option<PrrSpec>,
    /// CUBIC's HyStart (delay increase) exit from slow start.
    pub hystart: Option<bool>,
    /// HyStart leaves slow start when a round's minimum RTT exceeds the connection's minimum by
    /// this fraction of it, clamped to [`hystart_delay_min_s`, `hystart_delay_max_s`]: 1/8
    /// (Linux, ns2, rfc) or 1 (ns3).
    pub hystart_delay_fraction: Option<f64>,
    /// The threshold's floor: 0.004 s in every profile.
    pub hystart_delay_min_s: Option<f64>,
    /// The threshold's cap: 0.016 s (Linux, ns2, rfc) or 1 s (ns3).
    pub hystart_delay_max_s: Option<f64>,
    /// HyStart compares smoothed RTTs (ns3, as ns-3.44's `TcpCubic` is given them) instead of
    /// the RTT samples (Linux, ns2, rfc).
    pub hystart_smoothed_rtt: Option<bool>,
    /// What a loss or ECN reduction halves: `flight_size` (RFC 5681 §3.1 eq. 4) or `cwnd`
    /// (ns-2.35 `tcp.cc` `slowdown()`); default `flight_size` in every profile.
    pub ssthresh_rule: Option<SsthreshRuleSpec>,
    /// Whether a timeout inside a window already reduced (fast recovery, ECN, an earlier
    /// timeout) reduces ssthresh again, as ns-2.35's `slowdown()` does; default false.
    pub ssthresh_on_every_timeout: Option<bool>,
    /// Reno: no new fast retransmit until the data outstanding at the last one is acknowledged
    /// (ns-2.35 `bugFix_`, RFC 6582 §3.2 step 2's test); default false.
    pub reno_bug_fix: Option<bool>,
    /// After an ECN-Echo, cwnd = half of min(cwnd, receive window), fraction kept, at least one
    /// segment (ns-2.35 `tcp.cc` `ecn()`: `slowdown(CLOSE_CWND_HALF)` with `precisionReduce_`
    /// true) instead of cwnd = the new ssthresh (RFC 3168 §6.1.2, at least two segments);
    /// default false (`ns2` true).
    pub ecn_halve_cwnd: Option<bool>,
    /// With `ecn_halve_cwnd`, no floor of one segment: an ECN-Echo below two segments leaves cwnd
    /// under one, and the sender sends nothing until its retransmission timer expires, then
    /// resumes with cwnd 1 (ns-2.35 `tcp.cc` `ecn()`, `newtimer()`, `timeout()`; RFC 3168
    /// §6.1.2's wait at one segment). Default false.
    pub ecn_cwnd_below_one: Option<bool>,
    /// A reduction halves cwnd keeping its fraction and truncates only ssthresh (ns-2.35 `tcp.cc`
    /// `slowdown()` with `precisionReduce_` true): ssthresh = ⌊half⌋, fast recovery inflates half
    /// and ends with cwnd = half; with `ssthresh_rule = "cwnd"` the half is taken of the unrounded
    /// cwnd. Default false (RFC 5681 §3.2: cwnd = ssthresh).
    pub precision_reduce: Option<bool>,
    /// The ACK that ends fast recovery also grows the window, as every new ACK outside recovery
    /// does (ns-2.35 `tcp.cc` `recv_newack_helper()` → `opencwnd()`, reached from `tcp-reno.cc`
    /// and `tcp-newreno.cc` `recv()`). Default false (RFC 5681 §3.2 step 6, RFC 6582 §3.2 step 3).
    pub grow_on_recovery_exit: Option<bool>,
    /// RTT samples counted in whole ticks of `clock_granularity_s` and smoothed in integer
    /// eighths and quarters of a tick, RTO = ⌊SRTT + 4·RTTVAR⌋ ticks (ns-2.35 `tcp.cc`
    /// `rtt_update()`), instead of RFC 6298 §2 on the exact samples. Default false.
    pub rtt_in_ticks: Option<bool>,
    /// With SACK, find a lost retransmission without waiting for the timer: it is lost once
    /// data first sent after it is SACKed, or a retransmission sent more than `dupthresh` + 1
    /// after it is acknowledged (ns-2.35's TCP-Linux agent, `scoreboard1.cc`; Linux 2.6's
    /// `tcp_mark_lost_retrans`); it is then resent. Default false (`ns2`: true for BIC and
    /// CUBIC, which ns-2 runs in that agent).
    pub mark_lost_retransmissions: Option<bool>,
    /// Restart the retransmission timer on every ACK while data is outstanding, duplicate ACKs
    /// included (ns-2.35's TCP-Linux agent, `tcp-linux.cc` `time_processing()`), instead of only
    /// when new data is acknowledged (RFC 6298 §5.3). Default false (`ns2`: true for BIC and CUBIC).
    pub rto_restart_on_every_ack: Option<bool>,
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum SsthreshRuleSpec {
    FlightSize,
    Cwnd,
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum PrrSpec {
    Off,
    Ssrb,
    Crb,
}

#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum TcpProfile {
    #[default]
    Rfc,
    Ns2,
    Ns3,
    Linux,
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum RttSamplingSpec {
    EveryAck,
    OncePerRtt,
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum OpenerSpec {
    Sender,
    Receiver,
}
