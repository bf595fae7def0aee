//! Active queue management (docs/models/queue-management.md §2–4): RED with Floyd's gentle variant and ECN marking,
//! and DCTCP-style threshold marking. Both tail-drop at the same physical buffer as DropTail.

use rand::Rng as _;

use crate::admission::{Admission, Arrival, BufferLimit, Limit, QueueState};
use crate::error::ScenarioError;
use crate::packet::Ecn;
use crate::rng::Rng;
use crate::scenario::{QueueSpec, RedCountRule, RedIdleDecay, RedMode, RedPreset};
use crate::time::{serialization, Time};

/// ECN-capable: ECT(0), ECT(1), or already CE (RFC 3168 §5).
#[inline]
fn ecn_capable(ecn: Ecn) -> bool {
    !matches!(ecn, Ecn::NotEct)
}

/// RED's parameters and state (Floyd & Jacobson 1993; docs/models/queue-management.md §2).
#[derive(Clone, Debug)]
pub struct Red {
    min_th: f64,
    max_th: f64,
    max_p: f64,
    w_q: f64,
    gentle: bool,
    wait: bool,
    ecn: bool,
    mode: RedMode,
    mean_packet_bytes: u32,
    idle_decay: RedIdleDecay,
    pub(crate) buffer: BufferLimit,
    early_needs_backlog: bool,
    count_rule: RedCountRule,
    count_bytes: bool,
    /// `Some(mark_p)`: ns-2's `use_mark_p_` with its `mark_p_`.
    mark_p: Option<f64>,
    /// Moving average of the queue, in packets or bytes (`mode`).
    avg: f64,
    /// Arrivals since the last drop or mark; −1 while the average is below min_th (Floyd's rule).
    count: i64,
    /// Bytes arrived since the last drop or mark (ns-2's `count_bytes`).
    bytes_since: u64,
    /// ns-2's `old`: the previous arrival was in the early region with a backlog.
    in_region: bool,
    rng: Rng,
}

/// Where the average lies, and so what RED may do to the arriving packet.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Region {
    Below,
    /// Drop or mark with probability p_b before spreading by count.
    Probabilistic(f64),
    Forced,
}

/// RED's congestion signal for one arrival, before the physical limit is applied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Signal {
    None,
    /// A random early decision: ECN may mark instead of dropping.
    Early,
    /// A random early decision that drops even ECN-capable packets (p_b above `mark_p`).
    EarlyDrop,
    /// The forced region: always a drop.
    Forced,
}

/// RED's drop (or mark) probability p_a for this arrival, from p_b and `count`, the arrivals
/// since the last drop including this one (docs/models/queue-management.md §2 step 4).
pub fn spread_probability(p_b: f64, count: i64, wait: bool) -> f64 {
    let cp = count as f64 * p_b;
    let p_a = if wait {
        // ns-2 red.cc modify_p() with wait_: no drop before count·p_b reaches 1.
        if cp < 1.0 {
            0.0
        } else if cp < 2.0 {
            p_b / (2.0 - cp)
        } else {
            1.0
        }
    } else if cp < 1.0 {
        // F&J 1993 Fig. 2: p_a = p_b/(1 − count·p_b) spaces drops uniformly.
        p_b / (1.0 - cp)
    } else {
        1.0
    };
    p_a.min(1.0)
}

/// The rules a `QueueSpec::Red` leaves null, as its preset states them.
struct Rules {
    count_in_service: bool,
    admit_below_limit: bool,
    early_needs_backlog: bool,
    count_rule: RedCountRule,
    count_bytes: bool,
    use_mark_p: bool,
}

impl Rules {
    fn of(preset: RedPreset) -> Rules {
        match preset {
            RedPreset::Wattnet => Rules {
                count_in_service: true,
                admit_below_limit: false,
                early_needs_backlog: false,
                count_rule: RedCountRule::Floyd,
                count_bytes: false,
                use_mark_p: false,
            },
            // ns-2.35 red.cc and ns-default.tcl (bytes_ true, use_mark_p_ true); Queue limit_
            // counts only waiting packets in REDQueue::enque.
            RedPreset::Ns2 => Rules {
                count_in_service: false,
                admit_below_limit: true,
                early_needs_backlog: true,
                count_rule: RedCountRule::Ns2,
                count_bytes: true,
                use_mark_p: true,
            },
        }
    }
}

impl Red {
    /// Validates a `QueueSpec::Red`; errors name the field under `field`.
    pub fn from_spec(spec: &QueueSpec, field: &str, rng: Rng) -> Result<Red, ScenarioError> {
        let QueueSpec::Red {
            min_th,
            max_th,
            max_p,
            w_q,
            gentle,
            wait,
            ecn,
            mode,
            mean_packet_bytes,
            idle_decay,
            limit_packets,
            limit_bytes,
            count_in_service,
            preset,
            admit_below_limit,
            early_needs_backlog,
            count_rule,
            count_bytes,
            use_mark_p,
            mark_p,
        } = *spec
        else {
            panic!("Red::from_spec called with a {spec:?} queue");
        };
        let err = |name: &str, message: String| ScenarioError::new(format!("{field}.{name}"), message);
        if !(min_th.is_finite() && min_th >= 0.0) {
            return Err(err("min_th", format!("must be a finite number of at least 0, got {min_th}")));
        }
        if !(max_th.is_finite() && max_th > min_th) {
            return Err(err("max_th", format!("must be greater than min_th ({min_th}), got {max_th}")));
        }
        if !(max_p > 0.0 && max_p <= 1.0) {
            return Err(err("max_p", format!("must be in (0, 1], got {max_p}")));
        }
        if !(w_q > 0.0 && w_q <= 1.0) {
            return Err(err("w_q", format!("must be in (0, 1], got {w_q}")));
        }
        if mean_packet_bytes == 0 {
            return Err(err("mean_packet_bytes", "must be at least 1".into()));
        }
        if !(0.0..=1.0).contains(&mark_p) {
            return Err(err("mark_p", format!("must be in [0, 1], got {mark_p}")));
        }
        let rules = Rules::of(preset);
        let mut buffer = BufferLimit::from_spec(
            limit_packets,
            limit_bytes,
            count_in_service.unwrap_or(rules.count_in_service),
            field,
            "red",
        )?;
        buffer.admit_below = admit_below_limit.unwrap_or(rules.admit_below_limit);
        // The average never reaches the buffer size: a min_th at or above it disables RED.
        match (mode, buffer.limit) {
            (RedMode::Packets, Limit::Packets(l)) if min_th >= l as f64 => {
                return Err(err("min_th", format!("must be below limit_packets ({l}), or RED never acts")));
            }
            (RedMode::Bytes, Limit::Bytes(l)) if min_th >= l as f64 => {
                return Err(err("min_th", format!("must be below limit_bytes ({l}), or RED never acts")));
            }
            _ => {}
        }
        Ok(Red {
            min_th,
            max_th,
            max_p,
            w_q,
            gentle,
            wait,
            ecn,
            mode,
            mean_packet_bytes,
            idle_decay,
            buffer,
            early_needs_backlog: early_needs_backlog.unwrap_or(rules.early_needs_backlog),
            count_rule: count_rule.unwrap_or(rules.count_rule),
            count_bytes: count_bytes.unwrap_or(rules.count_bytes),
            mark_p: use_mark_p.unwrap_or(rules.use_mark_p).then_some(mark_p),
            avg: 0.0,
            count: -1,
            bytes_since: 0,
            in_region: false,
            rng,
        })
    }

    /// The current moving average of the queue (packets or bytes).
    pub fn average(&self) -> f64 {
        self.avg
    }

    /// Floyd & Jacobson 1993 with ns-2's defaults: update the average, decide by region, spread the
    /// drops, then tail-drop at the physical limit independently of RED.
    pub fn admit(&mut self, q: &QueueState, arrival: Arrival) -> Admission {
        self.update_average(q, arrival.now);
        // ns-2.35 red.cc enque(): early decisions only while qlen > 1 (packets or bytes waiting).
        let backlog = !self.early_needs_backlog
            || match self.mode {
                RedMode::Packets => q.waiting_packets > 1,
                RedMode::Bytes => q.waiting_bytes > 1,
            };
        let region = if backlog { self.region() } else { Region::Below };
        let signal = match region {
            Region::Below => {
                self.count = -1; // F&J 1993 Fig. 2: count ← −1 below min_th.
                self.bytes_since = 0;
                self.in_region = false; // ns-2 red.cc: old ← 0.
                Signal::None
            }
            Region::Forced => {
                self.count = 0; // F&J 1993 Fig. 2: every arrival in the forced region, count ← 0.
                self.bytes_since = 0;
                Signal::Forced
            }
            Region::Probabilistic(p_b) => self.early(p_b, arrival.size_bytes),
        };
        if !self.buffer.admits(q, arrival.size_bytes) {
            // ns-2 red.cc enque(): an overflow is a forced drop and restarts count.
            self.count = self.count.min(0);
            self.bytes_since = 0;
            return Admission::DropOverflow;
        }
        match signal {
            Signal::None => Admission::Enqueue,
            // RFC 3168 §7 and ns-2 setbit_: mark only on early (probabilistic) decisions.
            Signal::Early if self.ecn && ecn_capable(arrival.ecn) => Admission::EnqueueMarked,
            Signal::Early | Signal::EarlyDrop | Signal::Forced => Admission::DropEarly,
        }
    }

    /// An arrival in the early region with drop probability p_b (before spreading).
    fn early(&mut self, p_b: f64, size_bytes: u32) -> Signal {
        self.count = self.count.max(-1) + 1;
        self.bytes_since += size_bytes as u64;
        if self.count_rule == RedCountRule::Ns2 && !self.in_region {
            // ns-2.35 red.cc enque(): the first arrival of a stretch sets count 1 and passes.
            self.in_region = true;
            self.count = 1;
            self.bytes_since = size_bytes as u64;
            return Signal::None;
        }
        self.in_region = true;
        let size_ratio = size_bytes as f64 / self.mean_packet_bytes as f64;
        let p_a = if self.count_bytes {
            // ns-2.35 red.cc modify_p() with bytes_: count = count_bytes/mean_pktsize (integer
            // division), and the spread p scaled by size/mean_pktsize when below 1.
            let count = (self.bytes_since / self.mean_packet_bytes as u64) as i64;
            let p = spread_probability(p_b, count, self.wait);
            if p < 1.0 {
                (p * size_ratio).min(1.0)
            } else {
                p
            }
        } else {
            let p_b = match self.mode {
                // F&J 1993 byte mode: p_b ← p_b·size/M, so large packets are hit more.
                RedMode::Bytes => (p_b * size_ratio).min(1.0),
                RedMode::Packets => p_b,
            };
            spread_probability(p_b, self.count, self.wait)
        };
        if !(p_a >= 1.0 || (p_a > 0.0 && self.rng.gen::<f64>() < p_a)) {
            return Signal::None;
        }
        self.count = 0;
        self.bytes_since = 0;
        match self.mark_p {
            // ns-2.35 red.cc drop_early(): with use_mark_p_, mark only while p_b ≤ mark_p_.
            Some(mark_p) if p_b > mark_p => Signal::EarlyDrop,
            _ => Signal::Early,
        }
    }

    fn update_average(&mut self, q: &QueueState, now: Time) {
        if q.idle() {
            // F&J 1993 Fig. 2: m ← f(time − q_time), the packets of mean size the link could
            // have sent while idle; ns-2 red.cc truncates m to an integer.
            let s = serialization(self.mean_packet_bytes, q.rate_bps);
            let m = now.saturating_sub(q.last_tx_end) / s;
            let exponent = match self.idle_decay {
                RedIdleDecay::Ns2 => m + 1, // ns-2 red.cc estimator(q, m + 1, ...) with q = 0
                RedIdleDecay::Floyd => m,   // F&J 1993 Fig. 2: avg ← (1 − w_q)^m·avg
            };
            self.avg *= (1.0 - self.w_q).powf(exponent as f64);
        } else {
            let q_now = match self.mode {
                RedMode::Packets => q.waiting_packets as f64,
                RedMode::Bytes => q.waiting_bytes as f64,
            };
            // F&J 1993 Fig. 2: avg ← (1 − w_q)·avg + w_q·q (ns-2 red.cc evaluation order).
            self.avg = self.avg * (1.0 - self.w_q) + self.w_q * q_now;
        }
    }

    fn region(&self) -> Region {
        let avg = self.avg;
        if avg < self.min_th {
            Region::Below
        } else if avg < self.max_th {
            // F&J 1993 Fig. 2: p_b = max_p·(avg − min_th)/(max_th − min_th).
            Region::Probabilistic(self.max_p * (avg - self.min_th) / (self.max_th - self.min_th))
        } else if self.gentle && avg < 2.0 * self.max_th {
            // Floyd's gentle_ note: p_b rises linearly from max_p to 1 up to 2·max_th.
            Region::Probabilistic(self.max_p + (1.0 - self.max_p) * (avg - self.max_th) / self.max_th)
        } else if self.mark_p.is_some() {
            // ns-2.35 red.cc enque(): use_mark_p_ skips the forced branch; calculate_p_new()
            // caps the gentle line (or gives 1 without gentle) at 1.
            Region::Probabilistic(1.0)
        } else {
            Region::Forced
        }
    }
}

/// The queue length above which threshold marking sets CE.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum MarkThreshold {
    Packets(u32),
    Bytes(u64),
}

/// DCTCP-style marking (RFC 8257 §3.1; docs/models/queue-management.md §4): no averaging, no randomness.
#[derive(Clone, Copy, Debug)]
pub struct ThresholdMarking {
    k: MarkThreshold,
    pub(crate) buffer: BufferLimit,
}

impl ThresholdMarking {
    /// Validates a `QueueSpec::Threshold`; errors name the field under `field`.
    pub fn from_spec(spec: &QueueSpec, field: &str) -> Result<ThresholdMarking, ScenarioError> {
        let QueueSpec::Threshold { k_packets, k_bytes, limit_packets, limit_bytes, count_in_service } = *spec else {
            panic!("ThresholdMarking::from_spec called with a {spec:?} queue");
        };
        let k = match (k_packets, k_bytes) {
            (Some(k), None) => MarkThreshold::Packets(k),
            (None, Some(k)) => MarkThreshold::Bytes(k),
            _ => return Err(ScenarioError::new(field, "threshold needs exactly one of k_packets and k_bytes")),
        };
        let buffer = BufferLimit::from_spec(limit_packets, limit_bytes, count_in_service, field, "threshold")?;
        match (k, buffer.limit) {
            (MarkThreshold::Packets(k), Limit::Packets(l)) if k >= l => {
                return Err(ScenarioError::new(
                    format!("{field}.k_packets"),
                    format!("must be below limit_packets ({l}), or no packet is ever marked"),
                ));
            }
            (MarkThreshold::Bytes(k), Limit::Bytes(l)) if k >= l => {
                return Err(ScenarioError::new(
                    format!("{field}.k_bytes"),
                    format!("must be below limit_bytes ({l}), or no packet is ever marked"),
                ));
            }
            _ => {}
        }
        Ok(ThresholdMarking { k, buffer })
    }

    /// RFC 8257 §3.1, Alizadeh et al. 2010 ("simple marking at the switch"): mark on arrival
    /// when the instantaneous queue (packets or bytes waiting) exceeds K. Only ECN-capable
    /// packets are marked; the others are enqueued as they are, and only a full buffer drops
    /// (docs/models/queue-management.md §4).
    #[inline]
    pub fn admit(&mut self, q: &QueueState, arrival: Arrival) -> Admission {
        if !self.buffer.admits(q, arrival.size_bytes) {
            return Admission::DropOverflow;
        }
        let above_k = match self.k {
            MarkThreshold::Packets(k) => q.waiting_packets > k,
            MarkThreshold::Bytes(k) => q.waiting_bytes > k,
        };
        if above_k && ecn_capable(arrival.ecn) {
            Admission::EnqueueMarked
        } else {
            Admission::Enqueue
        }
    }
}

#[cfg(test)]
#[path = "aqm_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "red_ns2_tests.rs"]
mod red_ns2_tests;
