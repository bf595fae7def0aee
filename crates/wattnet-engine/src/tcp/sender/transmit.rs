//! The sender's transmissions: what the window (or, in SACK recovery, the pipe and PRR) lets
//! out, retransmissions, and the segments themselves.

use super::{Sender, SenderState};
use crate::packet::{flags, Ecn, TcpHeader};
use crate::tcp::cc::CongState;
use crate::tcp::group::Group;
use crate::tcp::scoreboard::Sent;
use crate::tcp::{Ctx, Prr, Recovery, RttSampling, TcpTimer};
use crate::time::after;

impl Sender {
    /// Sends what the window allows: new data, retransmissions after a timeout (go-back-N),
    /// and the FIN once all data is sent.
    pub fn send_data(&mut self, ctx: &mut Ctx, g: &mut Group) {
        if self.state != SenderState::Established {
            return;
        }
        if self.recovery == Recovery::Sack {
            match self.cong {
                CongState::Recovery => return self.send_by_pipe(ctx, g, true),
                CongState::Loss if self.sack_across_rto => return self.send_by_pipe(ctx, g, true),
                // RFC 6675 §5 step (3): before DupThresh, new data as the pipe allows.
                CongState::Disorder if self.sack_limited_transmit => return self.send_by_pipe(ctx, g, false),
                _ => {}
            }
        }
        // RFC 3042 §2: on each of the first two duplicate ACKs one segment of new data
        // beyond cwnd, up to cwnd + 2 segments; ns-2.35's `send_one()` (`tcp.cc`) also after a
        // timeout, where the segment is the next of the go-back-N resend.
        let limited = match self.cong {
            CongState::Disorder => true,
            CongState::Loss => self.limited_transmit_after_timeout,
            _ => false,
        };
        let extra = if self.limited_transmit && limited { self.dupacks.min(2) } else { 0 };
        let window = ((self.window.cwnd + 1e-9).floor().max(self.min_cwnd) as u64 + extra as u64) * self.mss as u64;
        loop {
            if self.snd_nxt == self.snd_max && self.data_end == u64::MAX && g.stream.exhausted() {
                self.data_end = self.snd_max;
            }
            if self.snd_nxt >= self.data_end {
                if self.snd_nxt == self.data_end {
                    self.send_segment(self.data_end, 0, 0, ctx);
                    self.snd_nxt = self.data_end + 1;
                }
                break;
            }
            // RFC 5681 §2: FlightSize may not exceed min(cwnd, rwnd).
            let outstanding = self.snd_nxt - self.snd_una;
            let room = window
                .saturating_sub(outstanding)
                .min((self.snd_una + self.rwnd.max(self.mss as u64)).saturating_sub(self.snd_nxt));
            // Resent data keeps its segments; new data is what the group grants.
            let (dsn, len) = if self.snd_nxt < self.snd_max {
                match self.resent_segment(self.snd_nxt) {
                    (dsn, len) if len <= room => (dsn, len),
                    _ => break,
                }
            } else {
                match g.take(self.index, self.cong, self.mss, room, ctx.now) {
                    Some(grant) => grant,
                    None => break,
                }
            };
            self.send_segment(self.snd_nxt, len as u32, dsn, ctx);
            self.snd_nxt += len;
        }
    }

    /// RFC 6675 §5 step (C) and §6: send while cwnd − pipe ≥ 1 segment, choosing by NextSeg
    /// (lost segments first when `repair`, then new data, then in fast recovery rules 3 and 4).
    fn send_by_pipe(&mut self, ctx: &mut Ctx, g: &mut Group, repair: bool) {
        let mut pipe = self.sent.pipe() as f64;
        let recovering = repair && self.cong == CongState::Recovery;
        if recovering && self.prr != Prr::Off {
            self.window.cwnd = pipe + self.prr_sndcnt(pipe);
        }
        while self.window.cwnd - pipe >= 1.0 {
            let candidate = if repair { self.sent.next_unsacked() } else { None };
            // NextSeg rule 1: the lowest lost, unSACKed segment not yet retransmitted.
            if let Some(s) = candidate.filter(|s| s.lost) {
                self.resend(s, ctx);
                pipe += 1.0;
                continue;
            }
            // NextSeg rule 2: new data, if the receiver's window allows.
            let room = (self.snd_una + self.rwnd.max(self.mss as u64)).saturating_sub(self.snd_max);
            let grant =
                if self.data_end == u64::MAX { g.take(self.index, self.cong, self.mss, room, ctx.now) } else { None };
            if let Some((dsn, len)) = grant {
                self.send_segment(self.snd_max, len as u32, dsn, ctx);
                self.snd_nxt = self.snd_max;
                pipe += 1.0;
                continue;
            }
            if !recovering {
                break;
            }
            // NextSeg rule 3: with no new data to send, an unSACKed segment above HighRxt and
            // below the highest SACKed octet, lost or not (RFC 6675 §4 (3): criteria 1.a, 1.b).
            if let Some(s) = candidate.filter(|s| self.sent.highest_sacked().is_some_and(|h| s.end <= h)) {
                self.resend(s, ctx);
                pipe += 1.0;
                continue;
            }
            // NextSeg rule 4, the rescue retransmission: once per recovery (HighACK > RescueRxt),
            // the highest outstanding unSACKed segment, so a loss at the tail of the data keeps
            // the ACK clock going instead of waiting for the timer (RFC 6675 §4 (4)).
            if self.rescue_rxt.is_some_and(|r| self.snd_una <= r) {
                break;
            }
            let Some(s) = self.sent.highest_unsacked() else { break };
            self.rescue_rxt = Some(self.recover);
            self.resend(s, ctx);
            pipe += 1.0;
        }
    }

    /// Sends a segment of the scoreboard again; the FIN, which occupies one sequence number,
    /// again without data.
    fn resend(&mut self, s: Sent, ctx: &mut Ctx) {
        let len = if s.start == self.data_end { 0 } else { s.end - s.start };
        self.send_segment(s.start, len as u32, s.dsn, ctx);
    }

    /// RFC 6937 §3: the segments PRR lets this ACK send, with pipe and ssthresh in segments.
    fn prr_sndcnt(&mut self, pipe: f64) -> f64 {
        let delivered = std::mem::take(&mut self.delivered);
        self.prr_delivered += delivered;
        let ssthresh = self.window.ssthresh;
        let sndcnt = if pipe > ssthresh {
            // Proportional rate reduction.
            (self.prr_delivered * ssthresh / self.recover_fs.max(1.0)).ceil() - self.prr_out
        } else {
            let limit = match self.prr {
                // PRR-CRB: conservative, the ACK clock alone.
                Prr::Crb => self.prr_delivered - self.prr_out,
                // PRR-SSRB: slow start by one extra segment per ACK.
                _ => (self.prr_delivered - self.prr_out).max(delivered) + 1.0,
            };
            (ssthresh - pipe).min(limit)
        };
        sndcnt.max(0.0)
    }

    pub(super) fn retransmit(&mut self, seq: u64, ctx: &mut Ctx) {
        let (dsn, len) = match self.sent.front() {
            Some(s) if s.start == seq => (s.dsn, s.end - s.start),
            _ => self.resent_segment(seq),
        };
        // The FIN alone occupies one sequence number and carries no data.
        let len = if seq == self.data_end { 0 } else { len };
        self.send_segment(seq, len as u32, dsn, ctx);
    }

    /// The data sequence number and length of the data segment sent before at `seq`: a
    /// resend covers that segment (at most one MSS) and keeps its mapping (RFC 8684 §3.3.1).
    /// A single-path connection's segments need no mapping and follow one another unbroken.
    fn resent_segment(&self, seq: u64) -> (u64, u64) {
        let len = (self.snd_max - seq).min(self.mss as u64);
        if !self.multipath {
            return (0, len);
        }
        match self.sent.get(seq) {
            Some(s) => (s.dsn + (seq - s.start), len.min(s.end - seq)),
            None => (0, len),
        }
    }

    /// Whether this subflow could take a full segment of new data now: established, not
    /// closing, not resending after a timeout or repairing in fast recovery (where its own
    /// ACKs clock it), and with a segment of congestion window free. A multipath connection's
    /// scheduler offers data to the subflows that are ready.
    pub fn ready_for_data(&self) -> bool {
        if self.state != SenderState::Established || self.data_end != u64::MAX || self.snd_nxt != self.snd_max {
            return false;
        }
        match self.cong {
            CongState::Recovery | CongState::Loss => false,
            CongState::Disorder if self.recovery == Recovery::Sack && self.sack_limited_transmit => {
                self.window.cwnd - self.sent.pipe() as f64 >= 1.0
            }
            _ => {
                let extra =
                    if self.limited_transmit && self.cong == CongState::Disorder { self.dupacks.min(2) } else { 0 };
                let window =
                    ((self.window.cwnd + 1e-9).floor().max(self.min_cwnd) as u64 + extra as u64) * self.mss as u64;
                self.snd_max - self.snd_una + self.mss as u64 <= window
            }
        }
    }

    /// Puts one data segment (or the FIN, with `len` 0 at `data_end`) on the wire.
    pub(super) fn send_segment(&mut self, seq: u64, len: u32, dsn: u64, ctx: &mut Ctx) {
        let retransmission = seq < self.snd_max;
        let fin = seq == self.data_end;
        let mut f = flags::ACK | if fin { flags::FIN } else { 0 };
        // RFC 3168 §6.1.2: CWR on the next new data segment after a reduction.
        if self.cwr_pending && !retransmission && len > 0 {
            f |= flags::CWR;
            self.cwr_pending = false;
        }
        // RFC 3168 §6.1.5: retransmissions and the FIN are not ECN-capable.
        let ecn = if self.ecn && !retransmission && len > 0 { Ecn::Ect0 } else { Ecn::NotEct };
        self.emit(ctx, seq, len, dsn, f, ecn);
        if len > 0 {
            self.stats.data_packets += 1;
            if self.cong == CongState::Recovery {
                self.prr_out += 1.0; // RFC 6937 §3: prr_out counts every segment sent in recovery
            }
        }
        let end = seq + len as u64 + fin as u64;
        if retransmission {
            self.stats.retransmissions += (len > 0) as u64;
            // Karn: a retransmitted segment never gives an RTT sample.
            self.sent.retransmitted(seq, ctx.now, self.snd_max);
            if self.timed.is_some_and(|(e, _)| e > seq) {
                self.timed = None;
            }
        } else {
            self.sent.push(Sent {
                start: seq,
                end,
                dsn,
                sent_at: ctx.now,
                retransmitted: false,
                sacked: false,
                lost: false,
                retrans_out: false,
                rtx_snd_max: 0,
                rtx_serial: 0,
            });
            self.snd_max = end;
            if self.sampling == RttSampling::OncePerRtt && self.timed.is_none() {
                self.timed = Some((end, ctx.now));
            }
        }
        // RFC 6298 §5.1: start the timer if it is not running.
        if self.timer.deadline().is_none() {
            let deadline = after(ctx.now, self.rto.rto());
            ctx.arm(&mut self.timer, deadline, TcpTimer::Retransmit);
        }
    }

    pub(super) fn emit(&mut self, ctx: &mut Ctx, seq: u64, len: u32, dsn: u64, f: u8, ecn: Ecn) {
        // RFC 7323 §3: TSval is the sender's clock; the option takes 10 bytes, 12 padded.
        let (ts_val, options) = if self.timestamps { (crate::packet::ts_clock(ctx.now), 12) } else { (0, 0) };
        let tcp = TcpHeader {
            seq,
            ack: self.rcv_ack,
            len,
            window: self.advertised_window,
            flags: f,
            ts_val,
            dsn,
            ..Default::default()
        };
        ctx.send(tcp, ecn, len + self.header_bytes + options);
    }
}
