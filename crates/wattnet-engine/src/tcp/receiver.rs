//! The data receiver: reassembly, cumulative ACKs with SACK blocks, delayed ACKs, the
//! advertised window and ECN echo (RFC 3168, or DCTCP's per-change echo).

use super::ranges::RangeSet;
use super::rto::RtoEstimator;
use super::{Ctx, EcnMode, TcpConfig, TcpTimer};
use crate::packet::{flags, Ecn, PathFeedback, TcpHeader};
use crate::time::{after, Time};
use crate::timer::Timer;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReceiverState {
    /// Waiting for the sender's SYN.
    Listen,
    SynSent,
    Established,
    /// The FIN arrived in order and was answered.
    Closed,
    /// The handshake gave up after its retries.
    Failed,
}

#[derive(Clone, Debug, Default)]
pub struct ReceiverStats {
    /// Data segments that arrived, duplicates included.
    pub data_packets: u64,
    pub duplicate_packets: u64,
    /// Pure ACKs sent, the handshake's third segment included, FIN exchange excluded.
    pub acks_sent: u64,
    /// Of `acks_sent`, those answering a SYN-ACK: the handshake's third segment and its repeats.
    pub handshake_acks: u64,
    pub ce_marked_packets: u64,
}

pub struct Receiver {
    header_bytes: u32,
    delayed_ack: Option<Time>,
    ecn_mode: EcnMode,
    sack: bool,
    timestamps: bool,
    /// RFC 7323 §4.3 TS.Recent and Last.ACK.sent.
    ts_recent: u32,
    last_ack_sent: u64,
    buffer: u64,
    syn_retries: u32,
    pub state: ReceiverState,
    rcv_nxt: u64,
    /// Out-of-order data above rcv_nxt: sorted, disjoint [start, end) ranges.
    out_of_order: RangeSet,
    /// The block holding the most recently arrived segment (RFC 2018 §4: reported first).
    latest_block: Option<(u64, u64)>,
    fin_seq: Option<u64>,
    /// Full segments received since the last ACK.
    unacked: u32,
    delack_timer: Timer,
    syn_timer: Timer,
    syn_rto: RtoEstimator,
    syn_tries: u32,
    ecn: bool,
    /// RFC 3168 §6.1.3: ECE on every ACK from a CE mark until a CWR arrives.
    ece_latched: bool,
    /// The path feedback of the latest data segment, echoed on every ACK.
    path_echo: PathFeedback,
    /// RFC 8257 §3.2: the CE bit of the last data packet.
    ce_state: bool,
    pub stats: ReceiverStats,
}

impl Receiver {
    pub fn new(cfg: &TcpConfig) -> Receiver {
        Receiver {
            header_bytes: cfg.header_bytes,
            delayed_ack: cfg.delayed_ack,
            ecn_mode: cfg.ecn,
            sack: cfg.recovery == super::Recovery::Sack,
            timestamps: cfg.timestamps,
            ts_recent: 0,
            last_ack_sent: 0,
            buffer: cfg.receive_window,
            syn_retries: cfg.syn_retries,
            state: ReceiverState::Listen,
            rcv_nxt: 0,
            out_of_order: RangeSet::new(),
            latest_block: None,
            fin_seq: None,
            unacked: 0,
            delack_timer: Timer::default(),
            syn_timer: Timer::default(),
            syn_rto: RtoEstimator::new(cfg.rto),
            syn_tries: 0,
            ecn: false,
            ece_latched: false,
            path_echo: PathFeedback::default(),
            ce_state: false,
            stats: ReceiverStats::default(),
        }
    }

    /// SYNs sent again after a timeout (when this end opened the connection).
    pub fn syn_retransmissions(&self) -> u32 {
        self.syn_tries
    }

    /// Data bytes delivered in order to the application.
    pub fn bytes_delivered(&self) -> u64 {
        let fin_in = self.fin_seq.is_some_and(|f| self.rcv_nxt > f) as u64;
        self.rcv_nxt.saturating_sub(1 + fin_in)
    }

    /// The receiver opens the connection (a client downloading from a server).
    pub fn connect(&mut self, ctx: &mut Ctx) {
        self.state = ReceiverState::SynSent;
        self.send_syn(ctx);
    }

    fn send_syn(&mut self, ctx: &mut Ctx) {
        // RFC 3168 §6.1.1: an ECN-setup SYN carries ECE and CWR.
        let ecn_request = if self.ecn_mode == EcnMode::Off { 0 } else { flags::ECE | flags::CWR };
        self.emit(ctx, flags::SYN | ecn_request, 0);
        let deadline = after(ctx.now, self.syn_rto.rto());
        ctx.arm(&mut self.syn_timer, deadline, TcpTimer::Handshake);
    }

    fn send_syn_ack(&mut self, ctx: &mut Ctx) {
        // RFC 3168 §6.1.1: the SYN-ACK of an ECN-setup carries ECE alone.
        let ece = if self.ecn { flags::ECE } else { 0 };
        self.emit(ctx, flags::SYN | flags::ACK | ece, self.rcv_nxt);
    }

    pub fn on_packet(&mut self, h: &TcpHeader, ecn: Ecn, ctx: &mut Ctx) {
        match self.state {
            ReceiverState::Listen if h.has(flags::SYN) && !h.has(flags::ACK) => {
                // Passive open; RFC 3168 §6.1.1: ECN only if the SYN asked with ECE and CWR.
                self.ecn = self.ecn_mode != EcnMode::Off && h.has(flags::ECE) && h.has(flags::CWR);
                self.rcv_nxt = h.seq + 1;
                self.ts_recent = h.ts_val;
                self.state = ReceiverState::Established;
                self.send_syn_ack(ctx);
            }
            // The sender repeats its SYN: our SYN-ACK was lost.
            ReceiverState::Established if h.has(flags::SYN) && !h.has(flags::ACK) => self.send_syn_ack(ctx),
            ReceiverState::SynSent if h.has(flags::SYN) && h.has(flags::ACK) => {
                self.ecn = self.ecn_mode != EcnMode::Off && h.has(flags::ECE) && !h.has(flags::CWR);
                self.rcv_nxt = h.seq + 1;
                self.syn_timer.cancel();
                self.state = ReceiverState::Established;
                self.send_handshake_ack(ctx);
            }
            // The SYN-ACK again: our third handshake segment was lost.
            ReceiverState::Established if h.has(flags::SYN) && h.has(flags::ACK) => self.send_handshake_ack(ctx),
            ReceiverState::Established => self.on_data(h, ecn, ctx),
            // The sender repeats its FIN: our FIN-ACK was lost.
            ReceiverState::Closed if h.has(flags::FIN) => self.send_fin_ack(ctx),
            _ => {}
        }
    }

    fn on_data(&mut self, h: &TcpHeader, ecn: Ecn, ctx: &mut Ctx) {
        let fin = h.has(flags::FIN);
        if h.len == 0 && !fin {
            return;
        }
        if h.len > 0 {
            self.stats.data_packets += 1;
            self.path_echo = h.path;
        }
        if self.timestamps {
            // RFC 7323 §5.3 R1 (PAWS): a segment older than TS.Recent is a stale duplicate:
            // acknowledged and dropped.
            if (h.ts_val.wrapping_sub(self.ts_recent) as i32) < 0 {
                self.stats.duplicate_packets += (h.len > 0) as u64;
                return self.send_ack(ctx);
            }
            // §4.3 (R3): TS.Recent follows the segment at the left edge of the window, so the
            // echo of a delayed or duplicate ACK times the oldest data it acknowledges.
            if h.seq <= self.last_ack_sent {
                self.ts_recent = h.ts_val;
            }
        }
        let ce = ecn == Ecn::Ce;
        self.stats.ce_marked_packets += ce as u64;
        if self.ecn {
            match self.ecn_mode {
                EcnMode::Classic => {
                    // RFC 3168 §6.1.3: CWR ends the echo; a CE on the same packet restarts it.
                    if h.has(flags::CWR) {
                        self.ece_latched = false;
                    }
                    self.ece_latched |= ce;
                }
                EcnMode::Dctcp => {
                    // RFC 8257 §3.2: on a CE change, first ACK what came before with the old state.
                    if ce != self.ce_state {
                        if self.unacked > 0 {
                            self.send_ack(ctx);
                        }
                        self.ce_state = ce;
                    }
                }
                EcnMode::Off => {}
            }
        }
        let start = h.seq;
        let end = h.seq + h.len as u64 + fin as u64;
        if fin {
            self.fin_seq = Some(h.seq + h.len as u64);
        }
        if end <= self.rcv_nxt {
            // RFC 5681 §4.2: a duplicate is acknowledged at once.
            self.stats.duplicate_packets += (h.len > 0) as u64;
            return self.send_ack(ctx);
        }
        if start > self.rcv_nxt {
            // RFC 5681 §4.2: out-of-order data produces an immediate (duplicate) ACK.
            self.latest_block = Some(self.out_of_order.insert(start, end));
            return self.send_ack(ctx);
        }
        let filled_hole = !self.out_of_order.is_empty();
        self.rcv_nxt = self.out_of_order.advance(end);
        if self.out_of_order.is_empty() {
            self.latest_block = None;
        }
        if self.fin_seq.is_some_and(|f| self.rcv_nxt > f) {
            // RFC 9293 §3.6: the FIN is in order; close our side at once (FIN + ACK).
            self.state = ReceiverState::Closed;
            self.delack_timer.cancel();
            return self.send_fin_ack(ctx);
        }
        self.unacked += 1;
        match self.delayed_ack {
            // RFC 5681 §4.2: an ACK for at least every second full segment, at once when a
            // segment fills a hole, otherwise within the delayed-ACK timeout.
            Some(delay) if !filled_hole && self.unacked < 2 => {
                if self.delack_timer.deadline().is_none() {
                    ctx.arm(&mut self.delack_timer, after(ctx.now, delay), TcpTimer::DelayedAck);
                }
            }
            _ => self.send_ack(ctx),
        }
    }

    pub fn on_timer(&mut self, which: TcpTimer, ctx: &mut Ctx) {
        match which {
            TcpTimer::DelayedAck => {
                if ctx.expired(&mut self.delack_timer, which) && self.unacked > 0 {
                    self.send_ack(ctx);
                }
            }
            TcpTimer::Handshake => {
                if ctx.expired(&mut self.syn_timer, which) && self.state == ReceiverState::SynSent {
                    if self.syn_tries >= self.syn_retries {
                        self.state = ReceiverState::Failed;
                        return;
                    }
                    self.syn_tries += 1;
                    self.syn_rto.back_off();
                    self.send_syn(ctx);
                }
            }
            TcpTimer::Retransmit => {}
        }
    }

    fn send_ack(&mut self, ctx: &mut Ctx) {
        self.stats.acks_sent += 1;
        let ece = match self.ecn_mode {
            _ if !self.ecn => false,
            EcnMode::Classic => self.ece_latched,
            EcnMode::Dctcp => self.ce_state,
            EcnMode::Off => false,
        };
        self.emit(ctx, flags::ACK | if ece { flags::ECE } else { 0 }, self.rcv_nxt);
    }

    fn send_handshake_ack(&mut self, ctx: &mut Ctx) {
        self.stats.handshake_acks += 1;
        self.send_ack(ctx);
    }

    fn send_fin_ack(&mut self, ctx: &mut Ctx) {
        self.emit(ctx, flags::FIN | flags::ACK, self.rcv_nxt);
    }

    /// The path feedback the next ACK will echo.
    #[cfg(test)]
    pub(crate) fn path_echo(&self) -> PathFeedback {
        self.path_echo
    }

    /// Sends a segment without data: its own SYN takes sequence number 0, all else uses 1.
    fn emit(&mut self, ctx: &mut Ctx, f: u8, ack: u64) {
        self.unacked = 0;
        self.delack_timer.cancel();
        let seq = if f & flags::SYN != 0 { 0 } else { 1 };
        self.last_ack_sent = ack;
        let mut tcp = TcpHeader {
            seq,
            ack,
            window: self.buffer.saturating_sub(self.out_of_order.bytes()),
            flags: f,
            ts_val: crate::packet::ts_clock(ctx.now),
            ts_ecr: self.ts_recent,
            path: self.path_echo,
            ..Default::default()
        };
        if self.sack && f & flags::SYN == 0 {
            // RFC 2018 §4: the block with the latest segment first, then the others, highest first.
            let latest = self.latest_block.filter(|&b| self.out_of_order.contains(b));
            let mut blocks = latest
                .into_iter()
                .chain(self.out_of_order.as_slice().iter().rev().copied().filter(|b| Some(*b) != latest));
            for slot in tcp.sack.iter_mut() {
                match blocks.next() {
                    Some(b) => {
                        *slot = b;
                        tcp.sack_blocks += 1;
                    }
                    None => break,
                }
            }
        }
        // RFC 2018 §3: the option takes 2 bytes plus 8 per block, padded with two NOPs.
        let sack_option = if tcp.sack_blocks > 0 { 4 + 8 * tcp.sack_blocks as u32 } else { 0 };
        // RFC 7323 §3: the timestamps option, 10 bytes padded to 12.
        let options = sack_option + if self.timestamps { 12 } else { 0 };
        ctx.send(tcp, Ecn::NotEct, self.header_bytes + options);
    }
}
