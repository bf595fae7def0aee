//! The sending side of the data level: which subflow sends which of the connection's bytes.
//!
//! The connection's bytes are cut into segments of one MSS at fixed data sequence numbers
//! (segment k covers [k·MSS, (k+1)·MSS)), so a segment resent on another subflow, or sent on
//! every subflow by the redundant scheduler, is always the same bytes. A subflow asks for a
//! segment when its window has room ([`DataSender::take`]); the scheduler answers whether this
//! subflow is the one to send next, and with what. The connection offers data to the subflows
//! that are ready in the scheduler's order after each event ([`DataSender::next_ready`]), as
//! Linux's `mptcp_write_xmit` pushes the meta socket's queue.

use std::collections::VecDeque;

use super::{MptcpConfig, Scheduler, MAX_SUBFLOWS};
use crate::tcp::cc::{CongState, SubflowView};
use crate::time::Time;

#[derive(Debug)]
pub struct DataSender {
    mss: u64,
    config: MptcpConfig,
    /// The DATA_ACK: every byte below has reached the receiving connection (RFC 8684 §3.3.2).
    data_una: u64,
    /// DATA_ACK + receive window, the highest advertised (RFC 8684 §3.3.5): no byte at or
    /// beyond it may be sent.
    right_edge: u64,
    /// Segment number of `carried[0]`, the first segment not yet data-acknowledged.
    first: u64,
    /// Per segment handed out and not yet data-acknowledged: the subflows that carried it
    /// (bit i: subflow i), as Linux's `path_mask`.
    carried: VecDeque<u64>,
    /// Segments (by data sequence number) of subflows whose retransmission timer fired, to be
    /// sent again on another (Linux `mptcp_reinject_data`, RFC 8684 §3.3.6).
    reinject: VecDeque<u64>,
    /// Subflows ready to take a segment (bit i), as of their last event.
    ready: u64,
    /// Round robin: the subflows served in the current round.
    served: u64,
    /// Redundant: each subflow's next data sequence number.
    cursors: Vec<u64>,
    /// Per subflow, when it last penalised another (Linux `last_rbuf_opti`).
    last_penalty: Vec<Time>,
    /// Subflows to penalise, left for the connection to apply.
    penalised: u64,
    /// Bytes sent again on another subflow: opportunistic retransmissions and reinjections
    /// after a subflow's timeout.
    pub reinjected_bytes: u64,
}

impl DataSender {
    /// The data level of a connection of `subflows` subflows opened at `now`.
    pub fn new(config: &MptcpConfig, mss: u32, subflows: usize, now: Time) -> DataSender {
        assert!((1..=MAX_SUBFLOWS).contains(&subflows), "the scenario check bounds the subflows");
        DataSender {
            mss: mss as u64,
            config: config.clone(),
            data_una: 0,
            // The receiver advertises its whole buffer in the handshake.
            right_edge: config.receive_buffer,
            first: 0,
            carried: VecDeque::new(),
            reinject: VecDeque::new(),
            ready: 0,
            served: 0,
            cursors: vec![0; subflows],
            // Linux `defsched_init`: no penalisation in the first RTT.
            last_penalty: vec![now; subflows],
            penalised: 0,
            reinjected_bytes: 0,
        }
    }

    pub fn data_una(&self) -> u64 {
        self.data_una
    }

    pub fn right_edge(&self) -> u64 {
        self.right_edge
    }

    /// RFC 8684 §3.3.2 and §3.3.5: a DATA_ACK with the receive window advertised beside it.
    pub fn on_data_ack(&mut self, data_ack: u64, window: u64) {
        if data_ack > self.data_una {
            self.data_una = data_ack;
            // Segment k is acknowledged once its end, min((k+1)·MSS, total), is; a DATA_ACK is
            // a segment boundary or the total, so the first unacknowledged is ⌈data_ack/MSS⌉.
            let first = data_ack.div_ceil(self.mss);
            let gone = (first - self.first).min(self.carried.len() as u64);
            self.carried.drain(..gone as usize);
            self.first = first;
        }
        // RFC 8684 §3.3.5: the window is updated only when its right edge moves forward.
        self.right_edge = self.right_edge.max(data_ack.saturating_add(window));
    }

    /// Subflow `index`'s retransmission timer fired: what it carried and the receiver has
    /// not data-acknowledged is queued for the other subflows.
    pub fn on_timeout(&mut self, index: usize) {
        if self.config.scheduler == Scheduler::Redundant {
            return;
        }
        for (k, &mask) in self.carried.iter().enumerate() {
            let dsn = (self.first + k as u64) * self.mss;
            if mask & (1 << index) != 0 && !self.reinject.contains(&dsn) {
                self.reinject.push_back(dsn);
            }
        }
    }

    /// The first segment queued for reinjection that subflow bit `bit` has not carried;
    /// segments data-acknowledged meanwhile leave the queue.
    fn reinjection_for(&mut self, bit: u64) -> Option<u64> {
        while self.reinject.front().is_some_and(|&dsn| dsn < self.data_una) {
            self.reinject.pop_front();
        }
        let &dsn = self.reinject.front()?;
        let carried = self.carried[((dsn / self.mss) - self.first) as usize];
        (carried & bit == 0).then_some(dsn)
    }

    /// Records whether subflow `index` can take a segment now (its window has room).
    pub fn set_ready(&mut self, index: usize, ready: bool) {
        let bit = 1u64 << index;
        self.ready = if ready { self.ready | bit } else { self.ready & !bit };
    }

    /// The subflows to penalise that the last grants found (bit i: subflow i); clears them.
    pub fn take_penalised(&mut self) -> u64 {
        std::mem::take(&mut self.penalised)
    }

    /// The length of the segment at `dsn`, or `None` past the end of the data.
    fn segment_len(&self, dsn: u64, total: Option<u64>) -> Option<u64> {
        match total {
            Some(t) if dsn >= t => None,
            Some(t) => Some((t - dsn).min(self.mss)),
            None => Some(self.mss),
        }
    }

    /// Marks the segment at `dsn` as carried by subflow bit `bit`.
    fn mark(&mut self, dsn: u64, bit: u64) {
        let k = (dsn / self.mss - self.first) as usize;
        if k == self.carried.len() {
            self.carried.push_back(0);
        }
        self.carried[k] |= bit;
    }

    /// The subflow the scheduler would give data to next among the ready ones, if there is
    /// data it could send (`handed_out` bytes of `total` handed out so far).
    pub fn next_ready(&self, views: &[SubflowView], handed_out: u64, total: Option<u64>) -> Option<usize> {
        let ready = (0..views.len()).filter(|&j| self.ready & (1 << j) != 0);
        match self.config.scheduler {
            Scheduler::Redundant => ready.into_iter().find(|&j| {
                let dsn = self.cursors[j].max(self.data_una);
                self.segment_len(dsn, total).is_some_and(|len| dsn + len <= self.right_edge)
            }),
            _ if self.segment_len(handed_out, total).is_none() && self.reinject.is_empty() => None,
            Scheduler::MinRtt => ready.min_by_key(|&j| (srtt(views, j), j)),
            Scheduler::RoundRobin => {
                let mut ready = ready.peekable();
                let first = ready.peek().copied();
                ready.find(|&j| self.served & (1 << j) == 0).or(first)
            }
        }
    }

    /// Whether the scheduler gives the next new segment to subflow `index`, asking now.
    fn chosen(&mut self, index: usize, views: &[SubflowView]) -> bool {
        let others = self.ready & !(1u64 << index);
        match self.config.scheduler {
            // Linux `get_subflow_from_selectors`: the lowest SRTT among the available subflows.
            Scheduler::MinRtt => {
                let mine = (srtt(views, index), index);
                (0..views.len()).all(|j| others & (1 << j) == 0 || (srtt(views, j), j) > mine)
            }
            // Linux `mptcp_rr_next_segment`: one segment each; a new round once every ready
            // subflow has had its segment.
            Scheduler::RoundRobin => {
                if self.served & (1 << index) == 0 {
                    return true;
                }
                if others & !self.served == 0 {
                    self.served = 0;
                    return true;
                }
                false
            }
            Scheduler::Redundant => true,
        }
    }

    /// What subflow `index` (in state `cong`, with `room` bytes of window free) sends now: a
    /// data sequence number and a length, or nothing. `handed_out` and `total` are the
    /// stream's position and size.
    #[allow(clippy::too_many_arguments)]
    pub fn take(
        &mut self,
        index: usize,
        cong: CongState,
        views: &[SubflowView],
        room: u64,
        handed_out: &mut u64,
        total: Option<u64>,
        now: Time,
    ) -> Option<(u64, u64)> {
        let bit = 1u64 << index;
        // Linux `mptcp_is_temp_unavailable`: no data for a subflow in loss state after a timeout.
        if cong == CongState::Loss {
            return None;
        }
        if self.config.scheduler == Scheduler::Redundant {
            let dsn = self.cursors[index].max(self.data_una);
            let len = self.segment_len(dsn, total)?;
            if len > room || dsn + len > self.right_edge {
                return None;
            }
            self.cursors[index] = dsn + len;
            self.mark(dsn, bit);
            *handed_out = (*handed_out).max(dsn + len);
            return Some((dsn, len));
        }
        if !self.chosen(index, views) {
            return None;
        }
        if let Some(dsn) = self.reinjection_for(bit) {
            let len = self.segment_len(dsn, total)?;
            if len > room {
                return None;
            }
            self.reinject.pop_front();
            self.mark(dsn, bit);
            self.reinjected_bytes += len;
            return Some((dsn, len));
        }
        let dsn = *handed_out;
        let len = self.segment_len(dsn, total)?;
        if len > room {
            return None;
        }
        if dsn + len > self.right_edge {
            // RFC 8684 §3.3.4: the connection's receive window is full.
            return match self.config.scheduler {
                Scheduler::MinRtt => self.relieve_window(index, views, room, total, now),
                _ => None,
            };
        }
        self.mark(dsn, bit);
        *handed_out += len;
        if self.config.scheduler == Scheduler::RoundRobin {
            self.served |= bit;
        }
        Some((dsn, len))
    }

    /// The scheduler chose subflow `index`, which has room, but the receive window is full:
    /// Raiciu et al. (NSDI 2012) §4.2 as Linux's `mptcp_rcv_buf_optimization` does it. The
    /// segment at the window's left edge holds it up; the first other subflow that carried it
    /// is penalised if it is slower and not recovering (at most once per RTT of `index`), and
    /// `index` resends that segment itself if that subflow is much slower (SRTT above 4× its
    /// own) or has a small window (≤ 4 segments).
    fn relieve_window(
        &mut self,
        index: usize,
        views: &[SubflowView],
        room: u64,
        total: Option<u64>,
        now: Time,
    ) -> Option<(u64, u64)> {
        let head = *self.carried.front()?;
        let bit = 1u64 << index;
        let carriers = (0..views.len()).filter(|&k| k != index && head & (1 << k) != 0);
        let mine = srtt(views, index);
        if self.config.penalisation && now.saturating_sub(self.last_penalty[index]) >= mine {
            if let Some(k) = carriers.clone().next() {
                if mine < srtt(views, k) && views[k].state == CongState::Open {
                    self.penalised |= 1 << k;
                    self.last_penalty[index] = now;
                }
            }
        }
        if !self.config.opportunistic_retransmission || head & bit != 0 {
            return None;
        }
        let mut resend = false;
        for k in carriers {
            if views[k].cwnd <= 4.0 {
                resend = true;
                break;
            }
            resend = mine.saturating_mul(4) < srtt(views, k);
            if !resend {
                break;
            }
        }
        let len = self.segment_len(self.data_una, total)?;
        if !resend || len > room {
            return None;
        }
        self.carried[0] |= bit;
        self.reinjected_bytes += len;
        Some((self.data_una, len))
    }
}

/// A subflow's SRTT for the scheduler; one without a sample yet comes last.
fn srtt(views: &[SubflowView], j: usize) -> Time {
    views[j].srtt.unwrap_or(Time::MAX)
}
