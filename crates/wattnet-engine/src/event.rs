//! The event queue: one binary heap ordered by (time, insertion sequence), so that
//! events at the same instant run in the order they were scheduled, on every machine.

use crate::time::Time;

/// What an event does; the target is an index into one of the simulation's arenas.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventKind {
    /// A port's transmitter has finished serializing its packet.
    TxDone { port: u32 },
    /// The first packet in a port's propagation pipe reaches the next node.
    PipeArrival { port: u32 },
    /// A port's rate-transition (frozen) period ends.
    TransitionEnd { port: u32 },
    /// A port has finished going to sleep or waking up (802.3az T_s / T_w, or δ).
    SleepTransitionEnd { port: u32 },
    /// A traffic source emits its next packet.
    SourceEmit { source: u32 },
    /// A TCP flow's application starts.
    AppStart { flow: u32 },
    /// A web-like flow's next request arrives.
    WebRequest { flow: u32 },
    /// A router installs a table computed from what it knows now (link-state model).
    RouteInstall { node: u32 },
    /// Every router installs the true shortest paths (global reconvergence model).
    RouteInstallAll,
    /// A port's power-management policy takes its periodic look.
    ControllerTick { port: u32 },
    /// A port's available bandwidth is redrawn (docs/models/traffic-models.md).
    AvailableBandwidthChange { port: u32 },
    /// A scheduled scenario action (rate change, ...) is due.
    Action { index: u32 },
    /// The recorder takes a sample.
    Sample,
    /// A TCP connection's timer (of its subflow `subflow`; 0 on a single path).
    Tcp { conn: u32, subflow: u16, timer: TcpTimer },
    /// Used only by the bare event-queue benchmark.
    Bench { id: u32 },
}

/// Which of a TCP connection's timers an event serves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TcpTimer {
    /// The sender's retransmission timer (also SYN / SYN-ACK retries).
    Retransmit,
    /// The receiver's delayed-ACK timer.
    DelayedAck,
    /// The receiver's SYN retries when it opens the connection.
    Handshake,
}

#[derive(Clone, Copy, Debug)]
pub struct Event {
    pub time: Time,
    pub kind: EventKind,
}

/// A 4-ary min-heap of 128-bit keys `time << 64 | seq << 24 | slot`, where the slot indexes
/// the event's kind in a side slab. Sequence numbers are unique, so the order is exactly
/// (time, seq); sifting moves and compares plain integers and picks the smallest of four
/// children without a branch. (std's BinaryHeap spent two thirds of the bare benchmark in
/// mispredicted sift-down branches.)
#[derive(Default)]
pub struct EventQueue {
    heap: Vec<u128>,
    kinds: Vec<EventKind>,
    free_slots: Vec<u32>,
    next_seq: u64,
    popped: u64,
}

const SLOT_BITS: u32 = 24;
const SLOT_MASK: u128 = (1 << SLOT_BITS) - 1;
/// Sequence numbers have 64 − 24 = 40 bits: 10¹² events per run.
const MAX_SEQ: u64 = 1 << (64 - SLOT_BITS);

impl EventQueue {
    pub fn schedule(&mut self, time: Time, kind: EventKind) {
        let slot = match self.free_slots.pop() {
            Some(s) => {
                self.kinds[s as usize] = kind;
                s
            }
            None => {
                assert!(self.kinds.len() < 1 << SLOT_BITS, "more than 2^24 pending events");
                self.kinds.push(kind);
                (self.kinds.len() - 1) as u32
            }
        };
        assert!(self.next_seq < MAX_SEQ, "more than 2^40 events in one run");
        let key = (time as u128) << 64 | (self.next_seq as u128) << SLOT_BITS | slot as u128;
        self.next_seq += 1;
        self.heap.push(key);
        let hole = self.sift_up(self.heap.len() - 1, key);
        self.heap[hole] = key;
    }

    /// Pops the earliest event if it is due at or before `limit`.
    #[inline]
    pub fn pop_until(&mut self, limit: Time) -> Option<Event> {
        let &top = self.heap.first()?;
        let time = (top >> 64) as Time;
        if time > limit {
            return None;
        }
        self.popped += 1;
        let slot = (top & SLOT_MASK) as u32;
        self.free_slots.push(slot);
        let event = Event { time, kind: self.kinds[slot as usize] };
        let last = self.heap.pop().expect("non-empty");
        let n = self.heap.len();
        if n == 0 {
            return Some(event);
        }
        // Floyd's variant: move the hole at the root down to a leaf along the smallest
        // children, then sift the former last key up from there.
        let heap = &mut self.heap[..];
        let mut hole = 0;
        loop {
            let c = 4 * hole + 1;
            let smallest = if c + 3 < n {
                let a = c + (heap[c + 1] < heap[c]) as usize;
                let b = c + 2 + (heap[c + 3] < heap[c + 2]) as usize;
                a + (heap[b] < heap[a]) as usize * (b - a)
            } else if c < n {
                (c..n).min_by_key(|&i| heap[i]).expect("at least one child")
            } else {
                break;
            };
            heap[hole] = heap[smallest];
            hole = smallest;
        }
        let hole = self.sift_up(hole, last);
        self.heap[hole] = last;
        Some(event)
    }

    /// Moves parents greater than `key` down from `hole` upwards; returns where `key` goes.
    #[inline]
    fn sift_up(&mut self, mut hole: usize, key: u128) -> usize {
        while hole > 0 {
            let parent = (hole - 1) / 4;
            if self.heap[parent] <= key {
                break;
            }
            self.heap[hole] = self.heap[parent];
            hole = parent;
        }
        hole
    }

    pub fn len(&self) -> usize {
        self.heap.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Events processed so far.
    pub fn processed(&self) -> u64 {
        self.popped
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pops_by_time_then_insertion_order() {
        let mut q = EventQueue::default();
        q.schedule(20, EventKind::Bench { id: 0 });
        q.schedule(10, EventKind::Bench { id: 1 });
        q.schedule(20, EventKind::Bench { id: 2 });
        q.schedule(10, EventKind::Bench { id: 3 });
        let order: Vec<_> = std::iter::from_fn(|| q.pop_until(u64::MAX))
            .map(|e| match e.kind {
                EventKind::Bench { id } => id,
                _ => unreachable!(),
            })
            .collect();
        assert_eq!(order, vec![1, 3, 0, 2]);
        assert_eq!(q.processed(), 4);
    }

    #[test]
    fn matches_a_sorted_reference_under_random_operations() {
        use rand::Rng as _;
        let mut rng = crate::rng::stream(9, 0, 0);
        let mut q = EventQueue::default();
        let mut reference = std::collections::BTreeSet::new();
        let mut id = 0u32;
        for _ in 0..20_000 {
            if rng.gen_bool(0.55) {
                let t = rng.gen_range(0..50u64);
                q.schedule(t, EventKind::Bench { id });
                reference.insert((t, id));
                id += 1;
            } else if let Some(ev) = q.pop_until(u64::MAX) {
                let expected = reference.pop_first().unwrap();
                assert_eq!((ev.time, ev.kind), (expected.0, EventKind::Bench { id: expected.1 }));
            }
            assert_eq!(q.len(), reference.len());
        }
    }

    #[test]
    fn respects_the_limit() {
        let mut q = EventQueue::default();
        q.schedule(5, EventKind::Sample);
        assert!(q.pop_until(4).is_none());
        assert!(q.pop_until(5).is_some());
    }
}
