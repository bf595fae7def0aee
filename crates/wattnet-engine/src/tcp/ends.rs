//! A connection's two ends, each a set of subflow endpoints: one on a single path, several on
//! a Multipath TCP connection. They route each packet and timer to its subflow and, on a
//! multipath connection, run the data level around it: the scheduler's offers of data after
//! every event at the sending end, the connection-level buffer and its DATA_ACK at the
//! receiving end.

use super::group::Group;
use super::mptcp::DataReceiver;
use super::receiver::Receiver;
use super::sender::{Sender, SenderState};
use super::{Ctx, TcpConfig, TcpTimer};
use crate::packet::{Ecn, TcpHeader};

/// The data sender's end: its subflows and what they share.
pub struct SendEnd {
    pub subflows: Vec<Sender>,
    pub group: Group,
    /// Every subflow has been offered its FIN (the data is all data-acknowledged).
    closing: bool,
}

impl SendEnd {
    pub fn new(cfg: &TcpConfig, group: Group) -> SendEnd {
        let subflows = (0..group.subflows()).map(|i| Sender::new(cfg, &group, i)).collect();
        SendEnd { subflows, group, closing: false }
    }

    /// Opens every subflow (RFC 8684 §3.1–3.2: the first subflow and the joins are opened at
    /// once here; the handshake's keys and tokens are not modelled).
    pub fn connect(&mut self, ctx: &mut Ctx) {
        for (i, s) in self.subflows.iter_mut().enumerate() {
            ctx.subflow = i as u16;
            s.connect(ctx);
        }
    }

    pub fn on_packet(&mut self, subflow: usize, h: &TcpHeader, ctx: &mut Ctx) {
        ctx.subflow = subflow as u16;
        self.subflows[subflow].on_packet(h, ctx, &mut self.group);
        self.after(subflow, ctx);
    }

    pub fn on_timer(&mut self, subflow: usize, ctx: &mut Ctx) {
        ctx.subflow = subflow as u16;
        let timeouts = self.subflows[subflow].stats.timeouts;
        self.subflows[subflow].on_timer(ctx, &mut self.group);
        if self.subflows[subflow].stats.timeouts > timeouts {
            if let Some(level) = self.group.level_mut() {
                level.on_timeout(subflow);
            }
        }
        self.after(subflow, ctx);
    }

    /// After subflow `acted` handled an event: on a multipath connection, apply penalties,
    /// let every subflow close once the data is all acknowledged, and offer data to the ready
    /// subflows in the scheduler's order until none takes any.
    fn after(&mut self, acted: usize, ctx: &mut Ctx) {
        if !self.group.stream.is_multipath() {
            return;
        }
        self.refresh(acted);
        self.penalise();
        if !self.closing && self.group.stream.exhausted() {
            self.closing = true;
            for i in 0..self.subflows.len() {
                ctx.subflow = i as u16;
                self.subflows[i].send_data(ctx, &mut self.group);
                self.refresh(i);
            }
        }
        while let Some(j) = self.group.next_ready() {
            let before = ctx.out.len();
            ctx.subflow = j as u16;
            self.subflows[j].send_data(ctx, &mut self.group);
            self.refresh(j);
            self.penalise();
            if ctx.out.len() == before {
                break;
            }
        }
    }

    /// Publishes subflow `i`'s view and readiness to the data level.
    fn refresh(&mut self, i: usize) {
        self.group.views[i] = self.subflows[i].view();
        let ready = self.subflows[i].ready_for_data();
        if let Some(level) = self.group.level_mut() {
            level.set_ready(i, ready);
        }
    }

    fn penalise(&mut self) {
        let Some(level) = self.group.level_mut() else { return };
        let mut bits = level.take_penalised();
        while bits != 0 {
            let k = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            self.subflows[k].penalise();
            self.refresh(k);
        }
    }

    /// Every subflow is closed (or failed): nothing more will be sent.
    pub fn finished(&self) -> bool {
        self.subflows.iter().all(|s| matches!(s.state, SenderState::Closed | SenderState::Failed))
    }
}

/// The data receiver's end: its subflows and, on a multipath connection, the
/// connection-level receive buffer.
pub struct ReceiveEnd {
    pub subflows: Vec<Receiver>,
    pub data: Option<DataReceiver>,
}

impl ReceiveEnd {
    /// `subflows` receivers; with `buffer`, a multipath connection's shared buffer of that size.
    pub fn new(cfg: &TcpConfig, subflows: usize, buffer: Option<u64>) -> ReceiveEnd {
        ReceiveEnd {
            subflows: (0..subflows).map(|_| Receiver::new(cfg)).collect(),
            data: buffer.map(DataReceiver::new),
        }
    }

    /// The receiver opens every subflow (a client downloading from a server).
    pub fn connect(&mut self, ctx: &mut Ctx) {
        for (i, r) in self.subflows.iter_mut().enumerate() {
            ctx.subflow = i as u16;
            r.connect(ctx);
        }
        self.stamp(0, ctx);
    }

    pub fn on_packet(&mut self, subflow: usize, h: &TcpHeader, ecn: Ecn, ctx: &mut Ctx) {
        let start = ctx.out.len();
        if let Some(data) = &mut self.data {
            if h.len > 0 {
                // RFC 8684 §3.3.1: the segment's mapping places it in the connection's bytes.
                data.on_segment(h.dsn, h.len);
            }
        }
        ctx.subflow = subflow as u16;
        self.subflows[subflow].on_packet(h, ecn, ctx);
        self.stamp(start, ctx);
    }

    pub fn on_timer(&mut self, subflow: usize, which: TcpTimer, ctx: &mut Ctx) {
        let start = ctx.out.len();
        ctx.subflow = subflow as u16;
        self.subflows[subflow].on_timer(which, ctx);
        self.stamp(start, ctx);
    }

    /// RFC 8684 §3.3.2, §3.3.4: every segment the subflows send from `start` on carries the
    /// DATA_ACK and the connection's window in place of the subflow's.
    fn stamp(&self, start: usize, ctx: &mut Ctx) {
        if let Some(data) = &self.data {
            for o in &mut ctx.out[start..] {
                o.tcp.data_ack = data.data_ack();
                o.tcp.window = data.window();
            }
        }
    }

    /// Data bytes delivered in order to the application.
    pub fn bytes_delivered(&self) -> u64 {
        match &self.data {
            Some(data) => data.data_ack(),
            None => self.subflows[0].bytes_delivered(),
        }
    }
}
