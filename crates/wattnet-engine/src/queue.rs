//! Queue disciplines: the admission decision a port makes for each arriving packet.

use crate::error::ScenarioError;
use crate::scenario::QueueSpec;

/// What the discipline decides for an arriving packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Admission {
    Enqueue,
    Drop,
}

#[derive(Clone, Debug)]
pub enum QueueDiscipline {
    /// Tail drop at a limit in packets or bytes (aqm.md §1).
    DropTail { limit: Limit, count_in_service: bool },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    Packets(u32),
    Bytes(u64),
}

/// The occupancy a discipline decides on.
#[derive(Clone, Copy, Debug, Default)]
pub struct Occupancy {
    pub waiting_packets: u32,
    pub waiting_bytes: u64,
    /// Size of the packet being serialized, if any.
    pub in_service_bytes: Option<u32>,
}

impl QueueDiscipline {
    pub fn from_spec(spec: &QueueSpec, field: &str) -> Result<Self, ScenarioError> {
        match spec {
            QueueSpec::Droptail { limit_packets, limit_bytes, count_in_service } => {
                let limit = match (limit_packets, limit_bytes) {
                    (Some(0), None) => return Err(ScenarioError::new(format!("{field}.limit_packets"), "must be at least 1")),
                    (None, Some(0)) => return Err(ScenarioError::new(format!("{field}.limit_bytes"), "must be at least 1")),
                    (Some(p), None) => Limit::Packets(*p),
                    (None, Some(b)) => Limit::Bytes(*b),
                    _ => {
                        return Err(ScenarioError::new(
                            field,
                            "droptail needs exactly one of limit_packets and limit_bytes",
                        ))
                    }
                };
                Ok(QueueDiscipline::DropTail { limit, count_in_service: *count_in_service })
            }
        }
    }

    /// aqm.md §1: accept while the occupancy stays within the limit, else drop on arrival.
    #[inline]
    pub fn admit(&mut self, occ: Occupancy, size_bytes: u32) -> Admission {
        match *self {
            QueueDiscipline::DropTail { limit, count_in_service } => {
                let (serving_pkts, serving_bytes) = match (count_in_service, occ.in_service_bytes) {
                    (true, Some(b)) => (1, b as u64),
                    _ => (0, 0),
                };
                let fits = match limit {
                    Limit::Packets(l) => occ.waiting_packets + serving_pkts < l,
                    Limit::Bytes(l) => occ.waiting_bytes + serving_bytes + size_bytes as u64 <= l,
                };
                if fits {
                    Admission::Enqueue
                } else {
                    Admission::Drop
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn occ(p: u32, b: u64, serving: Option<u32>) -> Occupancy {
        Occupancy { waiting_packets: p, waiting_bytes: b, in_service_bytes: serving }
    }

    #[test]
    fn packet_limit_counts_the_packet_in_service_like_ns2() {
        let mut q = QueueDiscipline::DropTail { limit: Limit::Packets(3), count_in_service: true };
        assert_eq!(q.admit(occ(1, 0, Some(100)), 100), Admission::Enqueue);
        assert_eq!(q.admit(occ(2, 0, Some(100)), 100), Admission::Drop);
        assert_eq!(q.admit(occ(2, 0, None), 100), Admission::Enqueue);
        let mut q = QueueDiscipline::DropTail { limit: Limit::Packets(3), count_in_service: false };
        assert_eq!(q.admit(occ(2, 0, Some(100)), 100), Admission::Enqueue);
        assert_eq!(q.admit(occ(3, 0, Some(100)), 100), Admission::Drop);
    }

    #[test]
    fn byte_limit_admits_exactly_up_to_the_limit() {
        let mut q = QueueDiscipline::DropTail { limit: Limit::Bytes(3000), count_in_service: false };
        assert_eq!(q.admit(occ(2, 2000, Some(1500)), 1000), Admission::Enqueue);
        assert_eq!(q.admit(occ(2, 2001, None), 1000), Admission::Drop);
    }
}
