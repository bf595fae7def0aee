//! What a connection owns above its subflows: the congestion controller they share, a view
//! of each subflow for it to read, and the application's data stream, handed out in grants.
//!
//! A single-path connection is a group of one subflow. The shape follows htsim's
//! `MultipathTcpSrc`: a subflow decides *how much* it may send (its window), the group
//! decides *what* (the next bytes of the stream) and knows when the stream is complete.

use super::cc::{self, CongState, CongestionControl, SubflowView};
use super::mptcp::{DataSender, MptcpConfig};
use super::TcpConfig;
use crate::time::Time;

/// The application's bytes, handed to subflows in order.
#[derive(Debug)]
pub struct DataStream {
    /// Total bytes; `None`: an endless transfer.
    total: Option<u64>,
    handed_out: u64,
    /// When the receiving application had every byte in order.
    pub completed_at: Option<Time>,
    /// A multipath connection's data level; `None` on a single path, whose one subflow's
    /// sequence numbers are the data's.
    level: Option<Box<DataSender>>,
}

impl DataStream {
    pub fn new(total: Option<u64>) -> DataStream {
        DataStream { total, handed_out: 0, completed_at: None, level: None }
    }

    pub fn is_multipath(&self) -> bool {
        self.level.is_some()
    }

    pub fn level(&self) -> Option<&DataSender> {
        self.level.as_deref()
    }

    /// RFC 8684 §3.3.2: a DATA_ACK and the window beside it reach the data level.
    pub fn on_data_ack(&mut self, data_ack: u64, window: u64) {
        if let Some(level) = &mut self.level {
            level.on_data_ack(data_ack, window);
        }
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

    /// Every byte has been handed out (multipath: data-acknowledged, as a subflow may yet have
    /// to resend another's): the subflows may send their FINs.
    pub fn exhausted(&self) -> bool {
        let done = match &self.level {
            None => self.handed_out,
            Some(level) => level.data_una(),
        };
        self.total.is_some_and(|t| done >= t)
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
            cc: cc::from_spec_with(&cfg.cc, cfg.hystart_params(), 1),
            views: vec![SubflowView::IDLE],
            stream: DataStream::new(bytes),
        }
    }

    /// A multipath connection of `subflows` subflows opened at `now`, carrying `bytes`.
    pub fn multipath(cfg: &TcpConfig, mptcp: &MptcpConfig, subflows: usize, bytes: Option<u64>, now: Time) -> Group {
        let mut stream = DataStream::new(bytes);
        stream.level = Some(Box::new(DataSender::new(mptcp, cfg.mss, subflows, now)));
        Group {
            cc: cc::from_spec_with(&cfg.cc, cfg.hystart_params(), subflows),
            views: vec![SubflowView::IDLE; subflows],
            stream,
        }
    }

    pub fn subflows(&self) -> usize {
        self.views.len()
    }

    /// The data subflow `index` (in state `cong`, with `room` bytes free in its window) sends
    /// next, as (data sequence number, length); segments are at most `mss` bytes. On a single
    /// path the next bytes of the stream, if they fit.
    pub fn take(&mut self, index: usize, cong: CongState, mss: u32, room: u64, now: Time) -> Option<(u64, u64)> {
        let s = &mut self.stream;
        match &mut s.level {
            None => {
                let len = s.available(mss as u64);
                (len > 0 && len <= room).then(|| {
                    s.grant(len);
                    (s.handed_out - len, len)
                })
            }
            Some(level) => level.take(index, cong, &self.views, room, &mut s.handed_out, s.total, now),
        }
    }

    /// The ready subflow a multipath connection offers data to next, if any.
    pub fn next_ready(&self) -> Option<usize> {
        let s = &self.stream;
        s.level.as_ref()?.next_ready(&self.views, s.handed_out, s.total)
    }

    /// The data level, on a multipath connection.
    pub fn level_mut(&mut self) -> Option<&mut DataSender> {
        self.stream.level.as_deref_mut()
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
