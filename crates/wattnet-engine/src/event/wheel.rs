//! Event keys in order: a timing wheel for the near future, a heap beyond it, and a shape
//! that follows the run's own event rate.
//!
//! Keys wait in a timing wheel (Varghese and Lauck, "Hashed and hierarchical timing wheels",
//! SOSP 1987): a ring of buckets, each an unsorted list of the keys whose time falls in its
//! span, linked through the event slab (a bucket's own buffer would be out of cache by the
//! time the ring comes back to it; the slab's slots are reused last-freed first). The bucket
//! being consumed is sorted once when the clock reaches it and popped from its end; a key
//! scheduled into it is inserted in order. Keys beyond the ring's span wait in
//! a 4-ary heap and join the bucket being consumed when the clock reaches their span. Keys
//! are unique and totally ordered, so the order popped is exact whatever the shape.
//!
//! Like a calendar queue (Brown, "Calendar queues", CACM 1988) the wheel re-shapes itself
//! from what it sees: every 2^16 events, buckets are narrowed or widened to hold about 8
//! events each, and added while many keys fall beyond the ring.

use super::heap::QuaternaryHeap;
use super::EventKind;
use crate::time::Time;

/// The width and number of the wheel's buckets: a performance setting only.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WheelShape {
    /// Each bucket spans 2^`width_log2` ps.
    pub width_log2: u32,
    /// 2^`buckets_log2` buckets: keys further ahead than they span wait in the heap.
    pub buckets_log2: u32,
}

impl Default for WheelShape {
    /// About 1 µs buckets over about 1 ms.
    fn default() -> Self {
        WheelShape { width_log2: 20, buckets_log2: 10 }
    }
}

impl WheelShape {
    const MIN_BUCKETS_LOG2: u32 = 6;
    /// Most buckets: their list heads take 64 kB, their bitmap 2 kB.
    const MAX_BUCKETS_LOG2: u32 = 14;
    const MAX_WIDTH_LOG2: u32 = 50;
    /// Keys per bucket aimed at (4 to 32 cost about the same; beyond, sorting shows).
    const TARGET: u64 = 8;

    /// A shape for about `events_per_s` events per simulated second, each at most `horizon`
    /// ps ahead.
    pub fn for_rate(events_per_s: f64, horizon: Time) -> WheelShape {
        let width = (Self::TARGET as f64 * 1e12 / events_per_s.max(1.0)).clamp(1.0, 2f64.powi(50)) as u64;
        let width_log2 = width.ilog2();
        let buckets = (horizon >> width_log2) + 2;
        let buckets_log2 = buckets.next_power_of_two().ilog2().clamp(Self::MIN_BUCKETS_LOG2, Self::MAX_BUCKETS_LOG2);
        WheelShape { width_log2, buckets_log2 }
    }
}

/// What the wheel saw since it last looked at its shape.
#[derive(Clone, Copy, Default)]
struct Window {
    /// Keys popped before, the time of the last of them, and the keys then pending.
    popped_before: u64,
    start: Time,
    pending_before: usize,
    /// Keys pushed beyond the ring since.
    pushed_far: u64,
}

/// A pending event: its key, what it does, and the next event of its bucket.
#[derive(Clone, Copy)]
struct Node {
    key: u128,
    kind: EventKind,
    next: u32,
}

const SLOT_BITS: u32 = 24;
const SLOT_MASK: u128 = (1 << SLOT_BITS) - 1;
/// Sequence numbers have 64 − 24 = 40 bits: 10¹² events per run.
pub(super) const MAX_SEQ: u64 = 1 << (64 - SLOT_BITS);
const NONE: u32 = u32::MAX;

pub(super) struct Wheel {
    shape: WheelShape,
    /// The absolute number (time >> width_log2) of the bucket being consumed.
    cursor: u64,
    /// Its keys, in decreasing order.
    current: Vec<u128>,
    /// The first event of each other bucket (by absolute number modulo their count), or NONE.
    heads: Vec<u32>,
    /// One bit per bucket: not empty.
    occupied: Vec<u64>,
    /// Every pending event, by slot; the free slots, last freed on top.
    nodes: Vec<Node>,
    free: Vec<u32>,
    /// Keys at or beyond `cursor + buckets` when scheduled.
    far: QuaternaryHeap,
    len: usize,
    popped: u64,
    /// The time of the last key popped: no key pending or to come is earlier.
    last_time: Time,
    window: Window,
    adapt_every: u64,
}

fn time_of(key: u128) -> Time {
    (key >> 64) as Time
}

impl Wheel {
    pub(super) fn new(shape: WheelShape) -> Wheel {
        assert!(
            (WheelShape::MIN_BUCKETS_LOG2..=WheelShape::MAX_BUCKETS_LOG2).contains(&shape.buckets_log2),
            "2^6 to 2^14 buckets"
        );
        assert!(shape.width_log2 <= WheelShape::MAX_WIDTH_LOG2, "buckets of at most 2^50 ps");
        let n = 1usize << shape.buckets_log2;
        Wheel {
            shape,
            cursor: 0,
            current: vec![],
            heads: vec![NONE; n],
            occupied: vec![0; n / 64],
            nodes: vec![],
            free: vec![],
            far: QuaternaryHeap::default(),
            len: 0,
            popped: 0,
            last_time: 0,
            window: Window::default(),
            adapt_every: 1 << 16,
        }
    }

    #[cfg(test)]
    fn shape(&self) -> WheelShape {
        self.shape
    }

    pub(super) fn len(&self) -> usize {
        self.len
    }

    pub(super) fn popped(&self) -> u64 {
        self.popped
    }

    #[cfg(test)]
    pub(super) fn adapt_every(&mut self, events: u64) {
        self.adapt_every = events;
    }

    fn mask(&self) -> u64 {
        (1 << self.shape.buckets_log2) - 1
    }

    /// Adds the event `kind` at (`time`, `seq`); `seq` must be new.
    #[inline]
    pub(super) fn push(&mut self, time: Time, seq: u64, kind: EventKind) {
        let slot = match self.free.pop() {
            Some(s) => s,
            None => self.new_slot(),
        };
        let key = (time as u128) << 64 | (seq as u128) << SLOT_BITS | slot as u128;
        self.len += 1;
        // The packet path's case, kept short: into a bucket of the ring.
        let bucket = time >> self.shape.width_log2;
        let ahead = bucket.wrapping_sub(self.cursor);
        let mask = self.mask();
        self.nodes[slot as usize] = Node { key, kind, next: NONE };
        if ahead.wrapping_sub(1) < mask {
            self.link((bucket & mask) as usize, slot);
        } else {
            self.place(key, true);
        }
    }

    /// Puts the event in `slot` at the head of bucket `i`'s list.
    #[inline(always)]
    fn link(&mut self, i: usize, slot: u32) {
        self.nodes[slot as usize].next = self.heads[i];
        self.heads[i] = slot;
        self.occupied[i / 64] |= 1 << (i % 64);
    }

    #[cold]
    fn new_slot(&mut self) -> u32 {
        assert!(self.nodes.len() < 1 << SLOT_BITS, "more than 2^24 pending events");
        self.nodes.push(Node { key: 0, kind: EventKind::Sample, next: NONE });
        (self.nodes.len() - 1) as u32
    }

    /// Puts `key` where it waits: in order into the bucket being consumed if `in_order`
    /// (else at its end), or into its bucket, or into the heap.
    #[inline(never)]
    fn place(&mut self, key: u128, in_order: bool) {
        // A key in the past of the bucket being consumed (a test's doing) joins it: it is
        // still the earliest there, and every later bucket is later still.
        let bucket = time_of(key) >> self.shape.width_log2;
        let ahead = bucket.saturating_sub(self.cursor);
        if ahead == 0 {
            let at = if in_order { self.current.partition_point(|&k| k > key) } else { self.current.len() };
            self.current.insert(at, key);
        } else if ahead <= self.mask() {
            self.link((bucket & self.mask()) as usize, (key & SLOT_MASK) as u32);
        } else {
            self.window.pushed_far += 1;
            self.far.push(key);
        }
    }

    /// The `i`-th next event of the bucket being consumed, if it holds that many: what
    /// `pop_until` returns unless an earlier event is pushed first.
    #[inline]
    pub(super) fn peek(&self, i: usize) -> Option<EventKind> {
        let n = self.current.len();
        (i < n).then(|| self.nodes[(self.current[n - 1 - i] & SLOT_MASK) as usize].kind)
    }

    /// Pops the earliest event if its time is at or before `limit`.
    #[inline]
    pub(super) fn pop_until(&mut self, limit: Time) -> Option<(Time, u64, EventKind)> {
        if self.popped >= self.window.popped_before + self.adapt_every {
            self.adapt();
        }
        if self.current.is_empty() && !self.advance(limit) {
            return None;
        }
        let &key = self.current.last().expect("advanced to a bucket with keys");
        if time_of(key) > limit {
            return None;
        }
        self.current.pop();
        self.len -= 1;
        self.popped += 1;
        self.last_time = time_of(key);
        let slot = (key & SLOT_MASK) as u32;
        self.free.push(slot);
        let seq = (key >> SLOT_BITS) as u64 & (MAX_SEQ - 1);
        Some((self.last_time, seq, self.nodes[slot as usize].kind))
    }

    /// Moves the cursor to the next bucket holding keys, unless that bucket starts after
    /// `limit` (the clock may stop before it, and keys are then scheduled from there).
    /// False when there is none to move to.
    #[inline(never)]
    fn advance(&mut self, limit: Time) -> bool {
        let shift = self.shape.width_log2;
        let next = match (self.next_occupied(), self.far.peek().map(|k| time_of(k) >> shift)) {
            (Some(w), Some(f)) => w.min(f),
            (Some(w), None) => w,
            (None, Some(f)) => f,
            (None, None) => return false,
        };
        if next << shift > limit {
            return false;
        }
        self.cursor = next;
        let i = (next & self.mask()) as usize;
        if self.occupied[i / 64] & (1 << (i % 64)) != 0 {
            self.occupied[i / 64] &= !(1 << (i % 64));
            self.take_bucket(i);
        }
        while self.far.peek().is_some_and(|k| time_of(k) >> shift == next) {
            self.current.push(self.far.pop().expect("peeked"));
        }
        self.current.sort_unstable_by(|a, b| b.cmp(a));
        true
    }

    /// Re-shapes the wheel from the last window: buckets as wide as the time in which about
    /// 8 keys were popped, unless they already hold between 4 and 16; twice as many
    /// buckets (or, at most buckets, twice as wide) while more than 1 key in 8 went beyond
    /// the ring.
    #[cold]
    fn adapt(&mut self) {
        let popped = (self.popped - self.window.popped_before) as u128;
        let span = self.last_time.saturating_sub(self.window.start).max(1) as u128;
        let per_bucket = popped * (1u128 << self.shape.width_log2) / span;
        let mut shape = self.shape;
        if !(WheelShape::TARGET / 2..=WheelShape::TARGET * 2).contains(&(per_bucket.min(u64::MAX as u128) as u64)) {
            let width = (WheelShape::TARGET as u128 * span / popped).max(1);
            shape.width_log2 = width.ilog2().min(WheelShape::MAX_WIDTH_LOG2);
        }
        let pushed = popped + self.len as u128 - self.window.pending_before as u128;
        if self.window.pushed_far as u128 * 8 > pushed {
            if shape.buckets_log2 < WheelShape::MAX_BUCKETS_LOG2 {
                shape.buckets_log2 += 1;
            } else if per_bucket < 2 * WheelShape::TARGET as u128 && shape.width_log2 < WheelShape::MAX_WIDTH_LOG2 {
                shape.width_log2 += 1;
            }
        }
        if shape != self.shape {
            self.reshape(shape);
        }
        self.window =
            Window { popped_before: self.popped, start: self.last_time, pending_before: self.len, pushed_far: 0 };
    }

    /// Appends the keys of bucket `i` to `current`, emptying it.
    fn take_bucket(&mut self, i: usize) {
        let mut slot = std::mem::replace(&mut self.heads[i], NONE);
        while slot != NONE {
            let node = &self.nodes[slot as usize];
            self.current.push(node.key);
            slot = node.next;
        }
    }

    /// Moves every key into a wheel of another shape, its cursor at the last key popped.
    fn reshape(&mut self, shape: WheelShape) {
        (0..self.heads.len()).for_each(|i| self.take_bucket(i));
        let mut keys = std::mem::take(&mut self.current);
        keys.extend(std::iter::from_fn(|| self.far.pop()));
        *self = Wheel {
            cursor: self.last_time >> shape.width_log2,
            nodes: std::mem::take(&mut self.nodes),
            free: std::mem::take(&mut self.free),
            len: self.len,
            popped: self.popped,
            last_time: self.last_time,
            window: self.window,
            adapt_every: self.adapt_every,
            ..Wheel::new(shape)
        };
        for key in keys {
            self.place(key, false);
        }
        self.current.sort_unstable_by(|a, b| b.cmp(a));
    }

    /// The absolute number of the first non-empty bucket after the cursor.
    fn next_occupied(&self) -> Option<u64> {
        let mask = self.mask();
        let words = self.occupied.len();
        let start = (self.cursor.wrapping_add(1) & mask) as usize;
        // Visit the words from the one holding `start`, around the ring and back to it (their
        // count is a power of two).
        for step in 0..=words {
            let w = (start / 64 + step) & (words - 1);
            let mut bits = self.occupied[w];
            if step == 0 {
                bits &= !0u64 << (start % 64);
            }
            if bits != 0 {
                let slot = (w * 64 + bits.trailing_zeros() as usize) as u64;
                return Some(self.cursor + 1 + (slot.wrapping_sub(start as u64) & mask));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng as _;

    fn bench((time, seq): (Time, u64)) -> (Time, u64, EventKind) {
        (time, seq, EventKind::Bench { id: seq as u32 })
    }

    /// Random pushes and pops against a sorted reference, for wheels from far too fine to far
    /// too coarse for the times used, re-shaping every few hundred keys, and with a clock
    /// that stops at random limits (the simulation then schedules from the limit on).
    #[test]
    fn matches_a_sorted_reference_under_random_operations() {
        let shapes = [(0, 6), (4, 6), (8, 7), (12, 10), (20, 14), (40, 6)];
        for (i, (width_log2, buckets_log2)) in shapes.into_iter().enumerate() {
            let mut rng = crate::rng::stream(9, 0, i as u64);
            let mut wheel = Wheel::new(WheelShape { width_log2, buckets_log2 });
            wheel.adapt_every(300);
            let mut reference = std::collections::BTreeSet::new();
            let (mut seq, mut now) = (0u64, 0u64);
            let mut shapes_seen = std::collections::HashSet::new();
            for step in 0..40_000 {
                // Phases of near-future keys only, and of far ones too, so that the shape moves.
                let far = (step / 5_000) % 2 == 1;
                let r = rng.gen_range(0..100);
                if r < 55 {
                    let ahead = match r % 4 {
                        0 => 0,
                        1 => rng.gen_range(0..50),
                        2 => rng.gen_range(0..5_000),
                        _ if far => rng.gen_range(0..1 << 30),
                        _ => rng.gen_range(0..500),
                    };
                    wheel.push(now + ahead, seq, EventKind::Bench { id: seq as u32 });
                    reference.insert((now + ahead, seq));
                    seq += 1;
                } else if r < 95 {
                    if let Some(event) = wheel.pop_until(u64::MAX) {
                        assert_eq!(Some(event), reference.pop_first().map(bench));
                        now = event.0;
                    }
                } else {
                    let limit = now + rng.gen_range(0..10_000);
                    let due = reference.first().filter(|&&(t, _)| t <= limit).copied();
                    let got = wheel.pop_until(limit);
                    assert_eq!(got, due.map(bench));
                    match got {
                        Some((t, _, _)) => {
                            reference.pop_first();
                            now = t;
                        }
                        None => now = limit,
                    }
                }
                assert_eq!(wheel.len(), reference.len());
                shapes_seen.insert(wheel.shape());
            }
            assert!(shapes_seen.len() > 2, "the wheel re-shaped itself: {shapes_seen:?}");
        }
    }

    #[test]
    fn keeps_order_to_the_end_of_the_clock() {
        for width_log2 in [0, 20, 50] {
            let mut wheel = Wheel::new(WheelShape { width_log2, buckets_log2: 6 });
            let times = [u64::MAX, 0, u64::MAX - 1, 1 << 63, 5, u64::MAX];
            for (seq, &t) in times.iter().enumerate() {
                wheel.push(t, seq as u64, EventKind::Bench { id: seq as u32 });
            }
            let popped: Vec<_> = std::iter::from_fn(|| wheel.pop_until(u64::MAX)).map(|(t, _, _)| t).collect();
            assert_eq!(popped, vec![0, 5, 1 << 63, u64::MAX - 1, u64::MAX, u64::MAX]);
            assert_eq!(wheel.len(), 0);
        }
    }

    #[test]
    fn takes_the_shape_of_the_event_rate() {
        // A key every 100 ps, each scheduled 10 µs ahead (the hold model): 8 per bucket wants
        // 800 ps → 2^9, and 10 µs ahead over 512 ps buckets 2^15 buckets, more than the 2^14
        // allowed: so buckets twice as wide, 2^10 ps (10 keys each, within 4 to 16).
        let mut wheel = Wheel::new(WheelShape::default());
        wheel.adapt_every(1000);
        let hold = 10_000_000u64;
        for seq in 0..hold / 100 {
            wheel.push(seq * 100, seq, EventKind::Sample);
        }
        for seq in hold / 100..4 * hold / 100 {
            let (time, _, _) = wheel.pop_until(u64::MAX).expect("an event");
            wheel.push(time + hold, seq, EventKind::Sample);
        }
        assert_eq!(wheel.shape(), WheelShape { width_log2: 10, buckets_log2: 14 });
    }

    #[test]
    fn shapes_follow_the_event_rate_and_horizon() {
        // 10⁹ events/s: 8 per bucket is 8 ns → 2^12 ps; a 1 ms horizon wants 2^18 buckets: capped.
        assert_eq!(WheelShape::for_rate(1e9, 1_000_000_000), WheelShape { width_log2: 12, buckets_log2: 14 });
        // 10⁶ events/s over 10 µs: 8 µs buckets (2^22 ps), at least 64 of them.
        assert_eq!(WheelShape::for_rate(1e6, 10_000_000), WheelShape { width_log2: 22, buckets_log2: 6 });
    }
}
