//! The queue at a port's output: DropTail, RED (with the ns-2.35 preset's rules) and DCTCP-style
//! threshold marking, with their defaults (docs/models/queue-management.md).

use serde::{Deserialize, Serialize};

use super::yes;

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum QueueSpec {
    /// FIFO with tail drop; exactly one of the two limits is set.
    Droptail {
        limit_packets: Option<u32>,
        limit_bytes: Option<u64>,
        /// ns-2 counts the packet being transmitted towards the limit.
        #[serde(default = "yes")]
        count_in_service: bool,
    },
    /// RED (Floyd & Jacobson 1993) with Floyd's gentle variant and optional ECN marking
    /// (Floyd and Jacobson, "Random Early Detection Gateways for Congestion Avoidance", IEEE/ACM ToN 1993; gentle RED as ns-2). Thresholds are in packets, or in bytes when `mode` is `bytes`; the
    /// physical buffer is exactly one of `limit_packets` and `limit_bytes`, as for droptail.
    Red {
        /// Average queue at which early drops (marks) start: packets, or bytes in byte mode.
        min_th: f64,
        /// Average queue at which the drop probability reaches `max_p`: packets, or bytes.
        max_th: f64,
        #[serde(default = "default_red_max_p")]
        max_p: f64,
        /// Weight of the newest queue sample in the moving average.
        #[serde(default = "default_red_w_q")]
        w_q: f64,
        /// Probability rises from `max_p` to 1 between `max_th` and 2·`max_th` instead of
        /// jumping to 1 at `max_th` (ns-2 `gentle_`).
        #[serde(default = "yes")]
        gentle: bool,
        /// ns-2 `wait_`: wait about 1/p_b packets between drops rather than 0 to 1/p_b.
        #[serde(default = "yes")]
        wait: bool,
        /// Mark ECN-capable packets with CE instead of dropping them, in the probabilistic
        /// region only (ns-2 `setbit_`).
        #[serde(default)]
        ecn: bool,
        #[serde(default)]
        mode: RedMode,
        /// Typical packet size: scales the drop probability in byte mode, and its
        /// transmission time at the port's rate is the packet time of the idle decay.
        #[serde(default = "default_red_mean_packet_bytes")]
        mean_packet_bytes: u32,
        #[serde(default)]
        idle_decay: RedIdleDecay,
        limit_packets: Option<u32>,
        limit_bytes: Option<u64>,
        /// Whether the packet being transmitted counts towards the limit; null: the preset's
        /// (`wattnet` true, `ns2` false: ns-2.35's RED lets `limit_` packets wait besides it).
        #[serde(default)]
        count_in_service: Option<bool>,
        /// Where the rules below take their values when left null: `wattnet` (Floyd &
        /// Jacobson's Figure 2) or `ns2` (ns-2.35's `red.cc` as shipped; docs/models/queue-management.md §2).
        #[serde(default)]
        preset: RedPreset,
        /// A byte limit admits an arrival while the bytes waiting are below it, even if the
        /// packet then passes it (ns-2.35 `red.cc`: drop when qlen ≥ qlim); false: only a
        /// packet that fits whole. Null: the preset's (`ns2` true).
        #[serde(default)]
        admit_below_limit: Option<bool>,
        /// No early drop or mark unless more than one packet (in byte mode, one byte) waits
        /// (ns-2.35 `red.cc`: `qlen > 1`). Null: the preset's (`ns2` true).
        #[serde(default)]
        early_needs_backlog: Option<bool>,
        /// How `count` starts when the average enters the early region. Null: the preset's.
        #[serde(default)]
        count_rule: Option<RedCountRule>,
        /// Space drops by the bytes since the last one ÷ `mean_packet_bytes` (integer) and scale
        /// the spread probability by size/`mean_packet_bytes` afterwards (ns-2.35 `bytes_`);
        /// in byte mode this replaces the scaling of p_b before spreading. Null: the preset's
        /// (`ns2` true, ns-2.35's default).
        #[serde(default)]
        count_bytes: Option<bool>,
        /// With `ecn`: mark only while p_b ≤ `mark_p` and drop above it, also ECN-capable
        /// packets; no forced region (the probability reaches 1 instead). ns-2.35
        /// `use_mark_p_`. Null: the preset's (`ns2` true).
        #[serde(default)]
        use_mark_p: Option<bool>,
        /// ns-2.35 `mark_p_`: the largest p_b at which `use_mark_p` marks.
        #[serde(default = "default_red_mark_p")]
        mark_p: f64,
    },
    /// DCTCP-style marking (Alizadeh et al., "Data Center TCP (DCTCP)", SIGCOMM 2010): set CE on ECN-capable packets that arrive when the
    /// instantaneous queue exceeds K (exactly one of `k_packets`, `k_bytes`); tail drop at
    /// the physical limit as droptail.
    Threshold {
        k_packets: Option<u32>,
        k_bytes: Option<u64>,
        limit_packets: Option<u32>,
        limit_bytes: Option<u64>,
        #[serde(default = "yes")]
        count_in_service: bool,
    },
}

/// What RED's average and thresholds count.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum RedMode {
    #[default]
    Packets,
    /// Queue and thresholds in bytes; the drop probability scales with size/mean_packet_bytes.
    Bytes,
}

/// How RED ages its average over an idle period of m packet times (Floyd and Jacobson, IEEE/ACM ToN 1993, §11).
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum RedIdleDecay {
    /// avg ← (1 − w_q)^(m+1)·avg, as ns-2 red.cc does.
    #[default]
    Ns2,
    /// avg ← (1 − w_q)^m·avg, as in Floyd & Jacobson's Figure 2.
    Floyd,
}

/// Where RED's rules take their values when a scenario leaves them out.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum RedPreset {
    /// Floyd & Jacobson's Figure 2 with ns-2's `wait_`, `gentle_` and idle decay; the buffer
    /// counts the packet in service.
    #[default]
    Wattnet,
    /// ns-2.35's `Queue/RED` as shipped (`red.cc`): the buffer without the packet in service, an
    /// arrival admitted while the bytes waiting are below a byte limit, no early signal without a
    /// backlog, ns-2's count, byte-count spacing, ECN marks only up to `mark_p`.
    Ns2,
}

/// How RED's `count` (arrivals since the last drop) starts in the early region.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum RedCountRule {
    /// Floyd & Jacobson Fig. 2: count = −1 below min_th, so the first arrival above it decides
    /// with count 0.
    Floyd,
    /// ns-2.35 `red.cc` (`old`): the first arrival of a stretch in the region sets count to 1 and
    /// is never dropped; a stretch ends when the average falls below min_th (or the backlog rule
    /// holds the queue).
    Ns2,
}

fn default_red_mark_p() -> f64 {
    0.1
}

fn default_red_max_p() -> f64 {
    0.1
}

fn default_red_w_q() -> f64 {
    0.002
}

fn default_red_mean_packet_bytes() -> u32 {
    500
}

impl Default for QueueSpec {
    fn default() -> Self {
        QueueSpec::Droptail { limit_packets: Some(1000), limit_bytes: None, count_in_service: true }
    }
}
