//! Sorted, disjoint byte ranges with their total kept as they change: out-of-order data held
//! by a receiver (RFC 9293 §3.10.7.4), its copy in a SACK sender's scoreboard (RFC 6675 §3).
//!
//! The total is what the advertised window is computed from on every ACK, so it is kept
//! rather than summed: the cost per ACK does not grow with the number of holes.

/// [start, end) ranges, sorted and disjoint (touching ranges are merged).
#[derive(Clone, Debug, Default)]
pub struct RangeSet {
    ranges: Vec<(u64, u64)>,
    /// The bytes the ranges cover.
    bytes: u64,
}

impl RangeSet {
    pub fn new() -> RangeSet {
        RangeSet::default()
    }

    /// Adds [start, end), merging it with the ranges it overlaps or touches; returns the
    /// merged range that now contains it.
    pub fn insert(&mut self, start: u64, end: u64) -> (u64, u64) {
        let i = self.ranges.partition_point(|&(_, e)| e < start);
        let mut merged = (start, end);
        let mut j = i;
        while j < self.ranges.len() && self.ranges[j].0 <= merged.1 {
            let (s, e) = self.ranges[j];
            self.bytes -= e - s;
            merged = (merged.0.min(s), merged.1.max(e));
            j += 1;
        }
        self.bytes += merged.1 - merged.0;
        self.ranges.splice(i..j, [merged]);
        merged
    }

    /// The next expected byte once every byte below `next` is in order: the ranges it reaches
    /// join it and leave the set.
    pub fn advance(&mut self, mut next: u64) -> u64 {
        let mut k = 0;
        while let Some(&(s, e)) = self.ranges.get(k) {
            if s > next {
                break;
            }
            next = next.max(e);
            self.bytes -= e - s;
            k += 1;
        }
        self.ranges.drain(..k);
        next
    }

    /// Forgets the ranges that end at or below `ack` (acknowledged cumulatively).
    pub fn remove_below(&mut self, ack: u64) {
        let keep = self.ranges.partition_point(|&(_, e)| e <= ack);
        self.bytes -= self.ranges[..keep].iter().map(|(s, e)| e - s).sum::<u64>();
        self.ranges.drain(..keep);
    }

    pub fn clear(&mut self) {
        self.ranges.clear();
        self.bytes = 0;
    }

    /// The bytes covered.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// Whether `range` is one of the ranges (a binary search).
    pub fn contains(&self, range: (u64, u64)) -> bool {
        self.ranges.binary_search_by_key(&range.0, |&(s, _)| s).is_ok_and(|i| self.ranges[i] == range)
    }

    /// The ranges, in order.
    pub fn as_slice(&self) -> &[(u64, u64)] {
        &self.ranges
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The total against a sum over the ranges, and the ranges sorted and disjoint.
    fn check(set: &RangeSet) {
        let r = set.as_slice();
        assert_eq!(set.bytes(), r.iter().map(|(s, e)| e - s).sum::<u64>());
        assert!(r.iter().all(|&(s, e)| s < e));
        assert!(r.windows(2).all(|w| w[0].1 < w[1].0), "{r:?}");
    }

    #[test]
    fn inserting_merges_overlapping_and_touching_ranges() {
        let mut set = RangeSet::new();
        assert_eq!(set.insert(10, 20), (10, 20));
        assert_eq!(set.insert(30, 40), (30, 40));
        assert_eq!(set.insert(50, 60), (50, 60));
        assert_eq!(set.bytes(), 30);
        // Touches (10, 20) and overlaps (30, 40): one range of 20 + 10 + 0 new bytes.
        assert_eq!(set.insert(20, 35), (10, 40));
        assert_eq!(set.as_slice(), &[(10, 40), (50, 60)]);
        assert_eq!(set.bytes(), 40);
        // Inside a range: nothing changes.
        assert_eq!(set.insert(12, 18), (10, 40));
        assert_eq!(set.bytes(), 40);
        // Spans everything.
        assert_eq!(set.insert(0, 100), (0, 100));
        assert_eq!(set.as_slice(), &[(0, 100)]);
        assert_eq!(set.bytes(), 100);
        check(&set);
    }

    #[test]
    fn advancing_absorbs_the_ranges_the_next_byte_reaches() {
        let mut set = RangeSet::new();
        for (s, e) in [(20, 30), (30, 35), (40, 50), (70, 80)] {
            set.insert(s, e);
        }
        // Data up to 20 arrives: [20, 35) joins; 40 is still missing.
        assert_eq!(set.advance(20), 35);
        assert_eq!(set.as_slice(), &[(40, 50), (70, 80)]);
        assert_eq!(set.bytes(), 20);
        // A segment [35, 45) overlapping the next range.
        assert_eq!(set.advance(45), 50);
        assert_eq!(set.advance(60), 60);
        assert_eq!(set.bytes(), 10);
        set.remove_below(80);
        assert!(set.is_empty());
        assert_eq!(set.bytes(), 0);
    }

    #[test]
    fn removing_below_an_ack_keeps_a_range_it_cuts() {
        let mut set = RangeSet::new();
        for (s, e) in [(10, 20), (30, 40), (50, 60)] {
            set.insert(s, e);
        }
        set.remove_below(35);
        assert_eq!(set.as_slice(), &[(30, 40), (50, 60)]);
        assert_eq!(set.bytes(), 20);
        assert!(set.contains((50, 60)) && !set.contains((50, 55)) && !set.contains((10, 20)));
        set.clear();
        assert_eq!((set.bytes(), set.is_empty()), (0, true));
    }

    #[test]
    fn the_total_matches_a_sum_over_random_inserts_and_advances() {
        use rand::Rng as _;
        let mut rng = crate::rng::stream(7, 0, 0);
        let mut set = RangeSet::new();
        let mut next = 0;
        for _ in 0..5000 {
            let start = next + rng.gen_range(0..400);
            let end = start + rng.gen_range(1..60);
            if rng.gen_bool(0.1) {
                next = set.advance(end.min(next + 50));
            } else {
                set.insert(start, end);
            }
            check(&set);
        }
    }
}
