//! Queue disciplines: the admission decision a port makes for each arriving packet.
//! DropTail lives here (its buffer limit, which every discipline shares, in `admission`); RED
//! and threshold marking in `aqm`.

use crate::admission::{Admission, Arrival, BufferLimit, Limit, QueueState};
use crate::aqm::{Red, ThresholdMarking};
use crate::error::ScenarioError;
use crate::rng::Rng;
use crate::scenario::QueueSpec;

/// `repr(u8)`: a plain tag byte makes the per-packet dispatch one compare (a niche-encoded
/// tag cost DropTail several instructions per packet).
#[derive(Clone, Debug)]
#[repr(u8)]
pub enum QueueDiscipline {
    /// Tail drop at a limit in packets or bytes (docs/models/queue-management.md §1).
    DropTail(BufferLimit),
    /// Boxed, as the threshold marking, so that a port's discipline is the drop-tail's size.
    Red(Box<Red>),
    Threshold(Box<ThresholdMarking>),
}

impl QueueDiscipline {
    pub fn drop_tail(limit: Limit, count_in_service: bool) -> QueueDiscipline {
        QueueDiscipline::DropTail(BufferLimit { limit, count_in_service, admit_below: false })
    }

    /// `rng` is the port's own stream (domain QUEUE); only RED draws from it.
    pub fn from_spec(spec: &QueueSpec, field: &str, rng: Rng) -> Result<Self, ScenarioError> {
        match spec {
            QueueSpec::Droptail { limit_packets, limit_bytes, count_in_service } => Ok(QueueDiscipline::DropTail(
                BufferLimit::from_spec(*limit_packets, *limit_bytes, *count_in_service, field, "droptail")?,
            )),
            QueueSpec::Red { .. } => Ok(QueueDiscipline::Red(Box::new(Red::from_spec(spec, field, rng)?))),
            QueueSpec::Threshold { .. } => {
                Ok(QueueDiscipline::Threshold(Box::new(ThresholdMarking::from_spec(spec, field)?)))
            }
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
    use crate::packet::Ecn;

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
