//! A 4-ary min-heap of 128-bit event keys: the event queue's store for events beyond its
//! calendar's horizon (timers, mostly).
//!
//! Keys are unique, so the order is total; sifting moves and compares plain integers and
//! picks the smallest of four children without a branch. (std's BinaryHeap spent two thirds
//! of the bare event benchmark in mispredicted sift-down branches.)

#[derive(Default)]
pub(super) struct QuaternaryHeap {
    keys: Vec<u128>,
}

impl QuaternaryHeap {
    pub(super) fn peek(&self) -> Option<u128> {
        self.keys.first().copied()
    }

    pub(super) fn push(&mut self, key: u128) {
        self.keys.push(key);
        let hole = self.sift_up(self.keys.len() - 1, key);
        self.keys[hole] = key;
    }

    pub(super) fn pop(&mut self) -> Option<u128> {
        let top = self.peek()?;
        let last = self.keys.pop().expect("non-empty");
        let n = self.keys.len();
        if n == 0 {
            return Some(top);
        }
        // Floyd's variant: move the hole at the root down to a leaf along the smallest
        // children, then sift the former last key up from there.
        let heap = &mut self.keys[..];
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
        self.keys[hole] = last;
        Some(top)
    }

    /// Moves parents greater than `key` down from `hole` upwards; returns where `key` goes.
    #[inline]
    fn sift_up(&mut self, mut hole: usize, key: u128) -> usize {
        while hole > 0 {
            let parent = (hole - 1) / 4;
            if self.keys[parent] <= key {
                break;
            }
            self.keys[hole] = self.keys[parent];
            hole = parent;
        }
        hole
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pops_in_key_order() {
        use rand::Rng as _;
        let mut rng = crate::rng::stream(3, 0, 0);
        let mut heap = QuaternaryHeap::default();
        let mut keys: Vec<u128> = (0..1000).map(|i| (rng.gen_range(0..100u128) << 64) | i).collect();
        keys.iter().for_each(|&k| heap.push(k));
        keys.sort_unstable();
        let popped: Vec<u128> = std::iter::from_fn(|| heap.pop()).collect();
        assert_eq!(popped, keys);
    }
}
