//! The event queue: events in (time, insertion sequence) order, so that events at the same
//! instant run in the order they were scheduled, on every machine.

mod heap;
mod wheel;

use crate::time::Time;
pub use wheel::WheelShape;
use wheel::{Wheel, MAX_SEQ};

/// What an event does; the target is an index into one of the simulation's arenas.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventKind {
    /// A port's transmitter has finished serializing its packet.
    TxDone { port: u32 },
    /// The first packet in a port's propagation pipe, `packet`, reaches the next node (the
    /// event names it so that the lookahead finds its record without reading the pipe).
    PipeArrival { port: u32, packet: u32 },
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
    /// Its place among the events at the same instant: lower runs first.
    pub seq: u64,
    pub kind: EventKind,
}

/// Events in (time, insertion sequence) order, so that events at the same instant run in
/// the order they were scheduled, on every machine.
///
/// An event is a 128-bit key `time << 64 | seq << 24 | slot`, where the slot indexes its kind
/// in a side slab; sequence numbers are unique, so comparing keys is comparing (time, seq).
/// The keys wait in a self-shaping timing wheel (`wheel.rs`): the packet path's events, a
/// serialization or a propagation delay ahead, cost a push and a share of one small sort.
pub struct EventQueue {
    events: Wheel,
    next_seq: u64,
    /// (time, seq) of the event being processed, or (t, MAX) once every event due by t has run.
    position: (Time, u64),
}

impl Default for EventQueue {
    fn default() -> Self {
        EventQueue::new(WheelShape::default())
    }
}

impl EventQueue {
    /// A queue whose wheel starts with `shape` (it re-shapes itself as events come).
    pub fn new(shape: WheelShape) -> EventQueue {
        EventQueue { events: Wheel::new(shape), next_seq: 0, position: (0, 0) }
    }

    pub fn schedule(&mut self, time: Time, kind: EventKind) {
        let seq = self.reserve();
        self.events.push(time, seq, kind);
    }

    /// A place in the order of events, taken now for an event that may be scheduled later
    /// (`schedule_reserved`) or never: an event scheduled later at that place runs exactly
    /// where it would have run had it been scheduled now.
    pub fn reserve(&mut self) -> u64 {
        assert!(self.next_seq < MAX_SEQ, "more than 2^40 events in one run");
        self.next_seq += 1;
        self.next_seq - 1
    }

    /// Schedules `kind` at `time` in the place `seq` taken by `reserve` (once).
    pub fn schedule_reserved(&mut self, time: Time, seq: u64, kind: EventKind) {
        debug_assert!(seq < self.next_seq, "a place not reserved");
        self.events.push(time, seq, kind);
    }

    /// Pops the earliest event if it is due at or before `limit`.
    #[inline]
    pub fn pop_until(&mut self, limit: Time) -> Option<Event> {
        let (time, seq, kind) = self.events.pop_until(limit)?;
        self.position = (time, seq);
        Some(Event { time, seq, kind })
    }

    /// The event `i` places ahead (0: the next) among those due in the wheel's bucket being
    /// consumed, or None beyond them: a hint for fetching what it will touch, since an event
    /// scheduled meanwhile may come first.
    #[inline]
    pub fn peek(&self, i: usize) -> Option<EventKind> {
        self.events.peek(i)
    }

    /// Every event due by `t` has run (the clock stops at `t`).
    pub fn ran_until(&mut self, t: Time) {
        self.position = (t, u64::MAX);
    }

    /// Whether an event at (`time`, `seq`) would have run by now: it comes before the event
    /// being processed, or is due by the time the clock stopped at.
    pub fn has_run(&self, time: Time, seq: u64) -> bool {
        (time, seq) < self.position
    }

    pub fn len(&self) -> usize {
        self.events.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Events processed so far.
    pub fn processed(&self) -> u64 {
        self.events.popped()
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
    fn a_reserved_place_keeps_its_order_and_tells_what_has_run() {
        let mut q = EventQueue::default();
        q.schedule(10, EventKind::Bench { id: 0 });
        let place = q.reserve();
        q.schedule(10, EventKind::Bench { id: 2 });
        // Scheduled last, at the place taken between the two: it runs between them.
        q.schedule_reserved(10, place, EventKind::Bench { id: 1 });
        let first = q.pop_until(u64::MAX).unwrap();
        assert_eq!(first.kind, EventKind::Bench { id: 0 });
        assert!(!q.has_run(10, place), "after the event being processed");
        assert!(q.has_run(9, u64::MAX) && !q.has_run(10, first.seq));
        assert_eq!(q.pop_until(u64::MAX).unwrap().kind, EventKind::Bench { id: 1 });
        assert!(q.has_run(10, first.seq) && !q.has_run(10, place + 1));
        assert_eq!(q.pop_until(u64::MAX).unwrap().kind, EventKind::Bench { id: 2 });
        // The clock stopped at 10: whatever was due by then has run, at 11 nothing.
        q.ran_until(10);
        assert!(q.has_run(10, u64::MAX - 1) && !q.has_run(11, 0));
    }

    #[test]
    fn peek_tells_the_next_events_of_the_bucket_being_consumed() {
        let mut q = EventQueue::default();
        for (t, id) in [(30, 0), (10, 1), (20, 2), (10, 3)] {
            q.schedule(t, EventKind::Bench { id });
        }
        // The default wheel's buckets span more than 30 ps: all four wait in the first, the
        // one being consumed from the start.
        assert_eq!(q.peek(0), Some(EventKind::Bench { id: 1 }));
        assert_eq!(q.pop_until(u64::MAX).unwrap().kind, EventKind::Bench { id: 1 });
        let peeked: Vec<_> = (0..4).map(|i| q.peek(i)).collect();
        let bench = |id| Some(EventKind::Bench { id });
        assert_eq!(peeked, vec![bench(3), bench(2), bench(0), None]);
        // A hint only: an event scheduled now before them comes first.
        q.schedule(15, EventKind::Bench { id: 4 });
        assert_eq!(q.pop_until(u64::MAX).unwrap().kind, EventKind::Bench { id: 3 });
        assert_eq!(q.pop_until(u64::MAX).unwrap().kind, EventKind::Bench { id: 4 });
    }

    #[test]
    fn respects_the_limit() {
        let mut q = EventQueue::default();
        q.schedule(5, EventKind::Sample);
        assert!(q.pop_until(4).is_none());
        assert!(q.pop_until(5).is_some());
    }
}
