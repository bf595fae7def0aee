//! The connection-level receive buffer: one for all subflows (RFC 8684 §3.3.4).

use crate::tcp::ranges::RangeSet;

/// Reassembles the connection's bytes by data sequence number from whatever subflow brings
/// them. The receiving application reads in-order bytes at once, so the buffer holds only the
/// bytes above the DATA_ACK, and the window it advertises, relative to the DATA_ACK, is the
/// whole buffer: the sender may send no byte at or beyond DATA_ACK + buffer. A segment
/// delayed on a slow subflow therefore holds the window's left edge and stalls every subflow
/// once the others have filled the buffer (head-of-line blocking).
#[derive(Debug)]
pub struct DataReceiver {
    buffer: u64,
    /// Every byte below has arrived in order (and was read by the application).
    data_ack: u64,
    /// Bytes above the DATA_ACK: sorted, disjoint [start, end) ranges.
    out_of_order: RangeSet,
    /// The most bytes held above the DATA_ACK at once.
    pub peak_held: u64,
}

impl DataReceiver {
    pub fn new(buffer: u64) -> DataReceiver {
        DataReceiver { buffer, data_ack: 0, out_of_order: RangeSet::new(), peak_held: 0 }
    }

    /// Data bytes delivered in order to the application.
    pub fn data_ack(&self) -> u64 {
        self.data_ack
    }

    /// The window advertised with every DATA_ACK.
    pub fn window(&self) -> u64 {
        self.buffer
    }

    /// Bytes held above the DATA_ACK.
    pub fn held(&self) -> u64 {
        self.out_of_order.bytes()
    }

    /// A data segment [dsn, dsn + len) arrived on some subflow (a copy already held changes
    /// nothing).
    pub fn on_segment(&mut self, dsn: u64, len: u32) {
        let end = dsn + len as u64;
        if end <= self.data_ack {
            return;
        }
        if dsn > self.data_ack {
            self.out_of_order.insert(dsn, end);
            self.peak_held = self.peak_held.max(self.held());
        } else {
            self.data_ack = self.out_of_order.advance(end);
        }
    }
}
