//! What every queue discipline shares: the arriving packet, the port's queue as the
//! discipline sees it, the physical buffer limit, and the decision.

use crate::error::ScenarioError;
use crate::packet::Ecn;
use crate::time::Time;

/// What the discipline decides for an arriving packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Admission {
    Enqueue,
    /// Enqueue with CE set: an ECN congestion signal instead of a drop. A packet that
    /// arrived with CE already set is left as it is and also counts as marked.
    EnqueueMarked,
    /// The physical buffer is full: tail drop.
    DropOverflow,
    /// The AQM chose to drop: RED's probabilistic or forced drop.
    DropEarly,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    Packets(u32),
    Bytes(u64),
}

/// The physical buffer every discipline tail-drops at (docs/models/queue-management.md §1, and §2 step 6 for RED).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BufferLimit {
    pub limit: Limit,
    /// ns-2 counts the packet being transmitted towards the limit.
    pub count_in_service: bool,
    /// A byte limit admits while the bytes already held are below it, whatever the arriving
    /// packet's size (ns-2.35 `red.cc`: drop when qlen ≥ qlim); false: the packet must fit whole.
    pub admit_below: bool,
}

/// What a discipline sees of its port when a packet arrives.
#[derive(Clone, Copy, Debug, Default)]
pub struct QueueState {
    pub waiting_packets: u32,
    pub waiting_bytes: u64,
    /// Size of the packet being serialized, if any.
    pub in_service_bytes: Option<u32>,
    /// When the transmitter last finished a packet: with nothing waiting or in service, the
    /// port has been idle since then (RED's q_time).
    pub last_tx_end: Time,
    /// The port's current service rate.
    pub rate_bps: u64,
}

impl QueueState {
    /// Nothing waiting and nothing being sent.
    #[inline]
    pub fn idle(&self) -> bool {
        self.waiting_packets == 0 && self.in_service_bytes.is_none()
    }
}

/// The arriving packet, as far as a discipline cares.
#[derive(Clone, Copy, Debug)]
pub struct Arrival {
    pub now: Time,
    pub size_bytes: u32,
    pub ecn: Ecn,
}

impl BufferLimit {
    /// Reads `limit_packets` / `limit_bytes` of a queue spec: exactly one must be set.
    pub fn from_spec(
        limit_packets: Option<u32>,
        limit_bytes: Option<u64>,
        count_in_service: bool,
        field: &str,
        kind: &str,
    ) -> Result<Self, ScenarioError> {
        let limit = match (limit_packets, limit_bytes) {
            (Some(0), None) => return Err(ScenarioError::new(format!("{field}.limit_packets"), "must be at least 1")),
            (None, Some(0)) => return Err(ScenarioError::new(format!("{field}.limit_bytes"), "must be at least 1")),
            (Some(p), None) => Limit::Packets(p),
            (None, Some(b)) => Limit::Bytes(b),
            _ => {
                return Err(ScenarioError::new(
                    field,
                    format!("{kind} needs exactly one of limit_packets and limit_bytes"),
                ))
            }
        };
        Ok(BufferLimit { limit, count_in_service, admit_below: false })
    }

    /// Packet mode accepts while qlen < L, byte mode while qlen_bytes + size ≤ L (with
    /// `admit_below`: while qlen_bytes < L).
    #[inline]
    pub fn admits(&self, q: &QueueState, size_bytes: u32) -> bool {
        let (serving_pkts, serving_bytes) = match (self.count_in_service, q.in_service_bytes) {
            (true, Some(b)) => (1, b as u64),
            _ => (0, 0),
        };
        match self.limit {
            Limit::Packets(l) => q.waiting_packets + serving_pkts < l,
            Limit::Bytes(l) if self.admit_below => q.waiting_bytes + serving_bytes < l,
            Limit::Bytes(l) => q.waiting_bytes + serving_bytes + size_bytes as u64 <= l,
        }
    }
}
