//! Queue disciplines: the admission decision a port makes for each arriving packet.
//! DropTail lives here; RED and threshold marking in `aqm`.

use crate::aqm::{Red, ThresholdMarking};
use crate::error::ScenarioError;
use crate::packet::Ecn;
use crate::rng::Rng;
use crate::scenario::QueueSpec;
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

/// `repr(u8)`: a plain tag byte makes the per-packet dispatch one compare (a niche-encoded
/// tag cost DropTail several instructions per packet).
#[derive(Clone, Debug)]
#[repr(u8)]
pub enum QueueDiscipline {
    /// Tail drop at a limit in packets or bytes (docs/models/queue-management.md §1).
    DropTail(BufferLimit),
    /// Boxed so RED's state does not grow every port.
    Red(Box<Red>),
    Threshold(ThresholdMarking),
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
        Ok(BufferLimit { limit, count_in_service })
    }

    /// Packet mode accepts while qlen < L, byte mode while qlen_bytes + size ≤ L.
    #[inline]
    pub fn admits(&self, q: &QueueState, size_bytes: u32) -> bool {
        let (serving_pkts, serving_bytes) = match (self.count_in_service, q.in_service_bytes) {
            (true, Some(b)) => (1, b as u64),
            _ => (0, 0),
        };
        match self.limit {
            Limit::Packets(l) => q.waiting_packets + serving_pkts < l,
            Limit::Bytes(l) => q.waiting_bytes + serving_bytes + size_bytes as u64 <= l,
        }
    }
}

impl QueueDiscipline {
    pub fn drop_tail(limit: Limit, count_in_service: bool) -> QueueDiscipline {
        QueueDiscipline::DropTail(BufferLimit { limit, count_in_service })
    }

    /// `rng` is the port's own stream (domain QUEUE); only RED draws from it.
    pub fn from_spec(spec: &QueueSpec, field: &str, rng: Rng) -> Result<Self, ScenarioError> {
        match spec {
            QueueSpec::Droptail { limit_packets, limit_bytes, count_in_service } => Ok(QueueDiscipline::DropTail(
                BufferLimit::from_spec(*limit_packets, *limit_bytes, *count_in_service, field, "droptail")?,
            )),
            QueueSpec::Red { .. } => Ok(QueueDiscipline::Red(Box::new(Red::from_spec(spec, field, rng)?))),
            QueueSpec::Threshold { .. } => Ok(QueueDiscipline::Threshold(ThresholdMarking::from_spec(spec, field)?)),
        }
    }

    #[inline]
    pub fn admit(&mut self, q: QueueState, arrival: Arrival) -> Admission {
        match self {
            QueueDiscipline::DropTail(buffer) => {
                if buffer.admits(&q, arrival.size_bytes) {
                    Admission::Enqueue
                } else {
                    Admission::DropOverflow
                }
            }
            QueueDiscipline::Red(red) => red.admit(&q, arrival),
            QueueDiscipline::Threshold(marking) => marking.admit(&q, arrival),
        }
    }

    /// The physical buffer the discipline tail-drops at.
    pub fn buffer(&self) -> BufferLimit {
        match self {
            QueueDiscipline::DropTail(buffer) => *buffer,
            QueueDiscipline::Red(red) => red.buffer,
            QueueDiscipline::Threshold(marking) => marking.buffer,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(p: u32, b: u64, serving: Option<u32>) -> QueueState {
        QueueState {
            waiting_packets: p,
            waiting_bytes: b,
            in_service_bytes: serving,
            last_tx_end: 0,
            rate_bps: 1_000_000,
        }
    }

    fn admit(q: &mut QueueDiscipline, s: QueueState, size_bytes: u32) -> Admission {
        q.admit(s, Arrival { now: 0, size_bytes, ecn: Ecn::NotEct })
    }

    #[test]
    fn packet_limit_counts_the_packet_in_service_like_ns2() {
        let mut q = QueueDiscipline::drop_tail(Limit::Packets(3), true);
        assert_eq!(admit(&mut q, state(1, 0, Some(100)), 100), Admission::Enqueue);
        assert_eq!(admit(&mut q, state(2, 0, Some(100)), 100), Admission::DropOverflow);
        assert_eq!(admit(&mut q, state(2, 0, None), 100), Admission::Enqueue);
        let mut q = QueueDiscipline::drop_tail(Limit::Packets(3), false);
        assert_eq!(admit(&mut q, state(2, 0, Some(100)), 100), Admission::Enqueue);
        assert_eq!(admit(&mut q, state(3, 0, Some(100)), 100), Admission::DropOverflow);
    }

    #[test]
    fn byte_limit_admits_exactly_up_to_the_limit() {
        let mut q = QueueDiscipline::drop_tail(Limit::Bytes(3000), false);
        assert_eq!(admit(&mut q, state(2, 2000, Some(1500)), 1000), Admission::Enqueue);
        assert_eq!(admit(&mut q, state(2, 2001, None), 1000), Admission::DropOverflow);
    }
}
