//! What a connection owns above its subflows: the congestion controller they share, a view
//! of each subflow for it to read, and the application's data stream, handed out in grants.
//!
//! A single-path connection is a group of one subflow. The shape follows htsim's
//! `MultipathTcpSrc`: a subflow decides *how much* it may send (its window), the group
//! decides *what* (the next bytes of the stream) and knows when the stream is complete.

use super::cc::{self, CongestionControl, SubflowView};
use super::TcpConfig;
use crate::time::Time;

/// The application's bytes, handed to subflows in order.
#[derive(Clone, Debug)]
pub struct DataStream {
    /// Total bytes; `None`: an endless transfer.
    total: Option<u64>,
    handed_out: u64,
    /// When the receiving application had every byte in order.
    pub completed_at: Option<Time>,
}

impl DataStream {
    pub fn new(total: Option<u64>) -> DataStream {
        DataStream { total, handed_out: 0, completed_at: None }
    }

    pub fn total(&self) -> Option<u64> {
        self.total
    }

    /// Bytes a grant of at most `max` would give now.
    pub fn available(&self, max: u64) -> u64 {
        self.total.map_or(max, |t| (t - self.handed_out).min(max))
    }

    /// Hands out the next `len` bytes (at most [`Self::available`]).
    pub fn grant(&mut self, len: u64) {
        debug_assert!(len <= self.available(len));
        self.handed_out += len;
    }

    /// Every byte has been handed out: the subflow that holds the last one sends the FIN.
    pub fn exhausted(&self) -> bool {
        self.total.is_some_and(|t| self.handed_out >= t)
    }

    /// Records completion once `delivered` bytes reached the receiving application.
    pub fn on_delivered(&mut self, delivered: u64, now: Time) -> bool {
        let done = self.completed_at.is_none() && self.total.is_some_and(|t| delivered >= t);
        if done {
            self.completed_at = Some(now);
        }
        done
    }
}

/// A connection's shared sending state; subflow `i`'s sender reads and writes `views[i]`.
#[derive(Debug)]
pub struct Group {
    pub cc: Box<dyn CongestionControl>,
    pub views: Vec<SubflowView>,
    pub stream: DataStream,
}

impl Group {
    /// A single-path connection carrying `bytes` (`None`: endless).
    pub fn single(cfg: &TcpConfig, bytes: Option<u64>) -> Group {
        Group {
            cc: cc::from_spec(&cfg.cc, cfg.hystart, 1),
            views: vec![SubflowView::IDLE],
            stream: DataStream::new(bytes),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bounded_stream_hands_out_its_bytes_once_and_completes_at_the_total() {
        let mut s = DataStream::new(Some(2500));
        assert_eq!(s.available(1000), 1000);
        s.grant(1000);
        s.grant(1000);
        assert_eq!(s.available(1000), 500);
        s.grant(500);
        assert!(s.exhausted());
        assert_eq!(s.available(1000), 0);
        assert!(!s.on_delivered(2499, 7));
        assert!(s.on_delivered(2500, 8));
        assert!(!s.on_delivered(2500, 9), "completion is reported once");
        assert_eq!(s.completed_at, Some(8));
        let endless = DataStream::new(None);
        assert_eq!((endless.available(1460), endless.exhausted()), (1460, false));
    }
}
