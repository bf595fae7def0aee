//! The data sender: handshake, sending within min(cwnd, rwnd), the retransmission timer,
//! loss recovery (Tahoe, Reno, NewReno, SACK) and ECN reactions.

use super::cc::{Ack, CongState, Congestion, SubflowView, Subflows, Window};
use super::group::Group;
use super::rto::RtoEstimator;
use super::scoreboard::Scoreboard;
use super::{Ctx, EcnMode, Prr, Recovery, RttSampling, SsthreshRule, TcpConfig, TcpTimer};
use crate::packet::{flags, Ecn, TcpHeader};
use crate::time::{after, Time};
use crate::timer::Timer;

mod transmit;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SenderState {
    /// Waiting for the receiver's SYN.
    Listen,
    SynSent,
    SynReceived,
    Established,
    /// Everything, FIN included, is acknowledged.
    Closed,
    /// The handshake gave up after its retries.
    Failed,
}

#[derive(Clone, Debug, Default)]
pub struct SenderStats {
    /// Data segments sent, first transmissions and retransmissions together.
    pub data_packets: u64,
    pub retransmissions: u64,
    pub timeouts: u64,
    pub fast_retransmits: u64,
    pub ecn_reductions: u64,
    pub acks_received: u64,
}

pub struct Sender {
    mss: u32,
    header_bytes: u32,
    dupthresh: u32,
    recovery: Recovery,
    sampling: RttSampling,
    abc_limit: f64,
    ecn_mode: EcnMode,
    syn_retries: u32,
    advertised_window: u64,
    timestamps: bool,
    limited_transmit: bool,
    limited_transmit_after_timeout: bool,
    sack_limited_transmit: bool,
    sack_across_rto: bool,
    prr: Prr,
    ssthresh_rule: SsthreshRule,
    ssthresh_on_every_timeout: bool,
    reno_bug_fix: bool,
    ecn_halve_cwnd: bool,
    /// The least cwnd an ECN-Echo leaves and the sender sends with: 1 segment, or 0 with
    /// `ecn_cwnd_below_one` (ns-2.35's `window()` = int(`cwnd_`)).
    min_cwnd: f64,
    precision_reduce: bool,
    grow_on_recovery_exit: bool,
    /// With `precision_reduce`, the last reduction's halved window, fraction kept (ns-2 `cwnd_`).
    halved_cwnd: f64,
    mark_lost_retransmissions: bool,
    rto_restart_on_every_ack: bool,
    pub state: SenderState,
    /// This subflow's index in its connection's group.
    index: usize,
    /// A subflow of a multipath connection: the connection grants data and checks the receive
    /// window (RFC 8684 §3.3.4), and segments carry their data sequence numbers.
    multipath: bool,
    pub window: Window,
    pub cong: CongState,
    snd_una: u64,
    snd_nxt: u64,
    snd_max: u64,
    /// First sequence number after the data; the FIN takes this number. `u64::MAX` until the
    /// connection's stream has handed out its last byte.
    data_end: u64,
    rwnd: u64,
    /// What the sender acknowledges of the receiver's sequence space (its SYN and FIN).
    rcv_ack: u64,
    dupacks: u32,
    /// RFC 6582 `recover`, RFC 6675 RecoveryPoint.
    recover: u64,
    /// RFC 6675 RescueRxt: the RecoveryPoint of the recovery whose rescue retransmission was sent.
    rescue_rxt: Option<u64>,
    partial_acks: u32,
    /// RFC 6937 state, in segments: RecoverFS, prr_delivered, prr_out, and the data the
    /// current ACK delivered (cumulatively or by SACK).
    recover_fs: f64,
    prr_delivered: f64,
    prr_out: f64,
    delivered: f64,
    rto: RtoEstimator,
    timer: Timer,
    sent: Scoreboard,
    /// ns-2 style timing of one segment per RTT: (sequence that ends it, send time).
    timed: Option<(u64, Time)>,
    ecn: bool,
    cwr_pending: bool,
    /// No further ECN or loss reduction until snd_una reaches this (once per window).
    reduced_until: u64,
    syn_sent_at: Time,
    syn_tries: u32,
    min_rtt: Option<Time>,
    last_loss: Option<Time>,
    pub stats: SenderStats,
}

impl Sender {
    /// Asks for the sender's state and its oldest segment's record (a lookahead hint).
    #[inline(always)]
    pub(crate) fn prefetch(&self) {
        crate::prefetch::prefetch_whole(self);
        if let Some(front) = self.sent.front() {
            crate::prefetch::prefetch_lines(front, 1);
        }
    }

    /// Subflow `index` of `group`, sending the data the group grants it.
    pub fn new(cfg: &TcpConfig, group: &Group, index: usize) -> Sender {
        // An algorithm's own initial ssthresh (a Linux module parameter) replaces the default.
        let ssthresh = group.cc.initial_ssthresh().unwrap_or(cfg.initial_ssthresh);
        Sender {
            mss: cfg.mss,
            header_bytes: cfg.header_bytes,
            dupthresh: cfg.dupthresh,
            recovery: cfg.recovery,
            sampling: cfg.rtt_sampling,
            abc_limit: cfg.abc_limit,
            ecn_mode: cfg.ecn,
            syn_retries: cfg.syn_retries,
            advertised_window: cfg.receive_window,
            timestamps: cfg.timestamps,
            limited_transmit: cfg.limited_transmit,
            limited_transmit_after_timeout: cfg.limited_transmit_after_timeout,
            sack_limited_transmit: cfg.sack_limited_transmit,
            sack_across_rto: cfg.sack_across_rto,
            prr: cfg.prr,
            ssthresh_rule: cfg.ssthresh_rule,
            ssthresh_on_every_timeout: cfg.ssthresh_on_every_timeout,
            reno_bug_fix: cfg.reno_bug_fix,
            ecn_halve_cwnd: cfg.ecn_halve_cwnd,
            min_cwnd: if cfg.ecn_cwnd_below_one { 0.0 } else { 1.0 },
            precision_reduce: cfg.precision_reduce,
            grow_on_recovery_exit: cfg.grow_on_recovery_exit,
            halved_cwnd: ssthresh,
            mark_lost_retransmissions: cfg.mark_lost_retransmissions,
            rto_restart_on_every_ack: cfg.rto_restart_on_every_ack,
            state: SenderState::Listen,
            index,
            multipath: group.stream.is_multipath(),
            window: Window { cwnd: cfg.initial_window, ssthresh },
            cong: CongState::Open,
            snd_una: 0,
            snd_nxt: 0,
            snd_max: 0,
            data_end: u64::MAX,
            rwnd: if group.stream.is_multipath() { u64::MAX / 4 } else { cfg.receive_window },
            rcv_ack: 0,
            dupacks: 0,
            recover: 0,
            rescue_rxt: None,
            partial_acks: 0,
            recover_fs: 0.0,
            prr_delivered: 0.0,
            prr_out: 0.0,
            delivered: 0.0,
            rto: RtoEstimator::new(cfg.rto),
            timer: Timer::default(),
            sent: Scoreboard::default(),
            timed: None,
            ecn: false,
            cwr_pending: false,
            reduced_until: 0,
            syn_sent_at: 0,
            syn_tries: 0,
            min_rtt: None,
            last_loss: None,
            stats: SenderStats::default(),
        }
    }

    pub fn srtt(&self) -> Option<Time> {
        self.rto.srtt()
    }

    /// The mean SRTT over the connection's RTT samples, in picoseconds.
    pub fn mean_srtt(&self) -> Option<f64> {
        self.rto.mean_srtt()
    }

    /// Bytes sent and not yet acknowledged.
    pub fn in_flight(&self) -> u64 {
        self.snd_max.saturating_sub(self.snd_una)
    }

    /// Handshake segments (SYN or SYN-ACK) sent again after a timeout.
    pub fn syn_retransmissions(&self) -> u32 {
        self.syn_tries
    }

    /// What the congestion controller may read of this subflow.
    pub fn view(&self) -> SubflowView {
        SubflowView {
            cwnd: self.window.cwnd,
            ssthresh: self.window.ssthresh,
            srtt: self.rto.srtt(),
            min_rtt: self.min_rtt,
            state: self.cong,
            in_flight: self.in_flight(),
            losses: self.stats.fast_retransmits + self.stats.timeouts + self.stats.ecn_reductions,
            last_loss: self.last_loss,
            packets_sent: self.stats.data_packets,
        }
    }

    /// Publishes this subflow's view to the group and returns the group as a hook sees it.
    fn publish<'a>(&self, views: &'a mut [SubflowView]) -> Subflows<'a> {
        views[self.index] = self.view();
        Subflows { index: self.index, all: views }
    }

    /// Data bytes sent (first transmissions).
    pub fn bytes_sent(&self) -> u64 {
        self.snd_max.saturating_sub(1).min(self.data_end - 1)
    }

    /// Data bytes acknowledged by the receiver.
    pub fn bytes_acked(&self) -> u64 {
        self.snd_una.saturating_sub(1).min(self.data_end - 1)
    }

    /// RFC 9293 §3.5: the active open sends a SYN; RFC 3168 §6.1.1: with ECE and CWR set.
    pub fn connect(&mut self, ctx: &mut Ctx) {
        self.state = SenderState::SynSent;
        self.send_syn(ctx);
    }

    fn send_syn(&mut self, ctx: &mut Ctx) {
        let ecn_request = if self.ecn_mode == EcnMode::Off { 0 } else { flags::ECE | flags::CWR };
        let mut f = flags::SYN | ecn_request;
        if self.state == SenderState::SynReceived {
            // RFC 3168 §6.1.1: the SYN-ACK echoes ECE alone when both ends agree.
            f = flags::SYN | flags::ACK | if self.ecn { flags::ECE } else { 0 };
        }
        self.syn_sent_at = ctx.now;
        self.emit(ctx, 0, 0, 0, f, Ecn::NotEct);
        let deadline = after(ctx.now, self.rto.rto());
        ctx.arm(&mut self.timer, deadline, TcpTimer::Retransmit);
    }

    pub fn on_packet(&mut self, h: &TcpHeader, ctx: &mut Ctx, g: &mut Group) {
        match self.state {
            SenderState::Listen if h.has(flags::SYN) => {
                self.ecn = self.ecn_mode != EcnMode::Off && h.has(flags::ECE) && h.has(flags::CWR);
                self.rcv_ack = h.seq + 1;
                self.state = SenderState::SynReceived;
                self.send_syn(ctx);
            }
            // A repeated SYN: our SYN-ACK was lost.
            SenderState::SynReceived if h.has(flags::SYN) => self.send_syn(ctx),
            SenderState::SynReceived if h.has(flags::ACK) && h.ack == 1 => {
                self.establish(ctx);
                self.send_data(ctx, g);
            }
            SenderState::SynSent if h.has(flags::SYN) && h.has(flags::ACK) && h.ack == 1 => {
                self.ecn = self.ecn_mode != EcnMode::Off && h.has(flags::ECE) && !h.has(flags::CWR);
                self.rcv_ack = h.seq + 1;
                self.establish(ctx);
                // RFC 9293 §3.5: the third segment of the handshake.
                self.emit(ctx, self.snd_nxt, 0, 0, flags::ACK, Ecn::NotEct);
                self.send_data(ctx, g);
            }
            SenderState::Established => self.on_ack(h, ctx, g),
            SenderState::Closed if h.has(flags::FIN) => self.emit(ctx, self.snd_max, 0, 0, flags::ACK, Ecn::NotEct),
            _ => {}
        }
    }

    fn establish(&mut self, ctx: &mut Ctx) {
        // RFC 6298 §5.7 / Karn: the SYN's RTT counts only if it was sent once.
        if self.syn_tries == 0 {
            self.rto.sample(ctx.now - self.syn_sent_at, ctx.now);
        } else {
            self.rto.after_retransmitted_syn();
        }
        self.timer.cancel();
        self.snd_una = 1;
        self.snd_nxt = 1;
        self.snd_max = 1;
        self.recover = 0;
        self.reduced_until = 1;
        self.state = SenderState::Established;
    }

    fn on_ack(&mut self, h: &TcpHeader, ctx: &mut Ctx, g: &mut Group) {
        if h.has(flags::SYN) {
            // The SYN-ACK again: our handshake ACK was lost.
            return self.emit(ctx, self.snd_nxt, 0, 0, flags::ACK, Ecn::NotEct);
        }
        self.stats.acks_received += 1;
        if self.multipath {
            // RFC 8684 §3.3.4: the window is the connection's, relative to the DATA_ACK; the
            // connection checks it, so the subflow's own test always passes.
            g.stream.on_data_ack(h.data_ack, h.window);
            self.rwnd = u64::MAX / 4;
        } else {
            self.rwnd = h.window;
        }
        self.delivered = 0.0;
        if self.recovery == Recovery::Sack {
            // RFC 6675 §5 Update() and IsLost, incrementally.
            let newly = self.sent.sack(&h.sack[..h.sack_blocks as usize], self.snd_una);
            self.sent.mark_lost(self.dupthresh);
            self.delivered = newly as f64 / self.mss as f64;
        }
        if h.ack > self.snd_una && h.ack <= self.snd_max {
            self.new_ack(h, ctx, g);
        } else if h.ack == self.snd_una && self.snd_max > self.snd_una && h.len == 0 && !h.has(flags::FIN) {
            // RFC 5681 §2 duplicate ACK (ns-2 does not require an unchanged window, and AWM
            // rewrites it, so neither do we).
            self.duplicate_ack(ctx, g);
            if self.rto_restart_on_every_ack {
                // ns-2.35 TCP-Linux `time_processing()` (`renew_timer`): every ACK restarts the
                // timer while data is outstanding; RFC 6298 §5.3 restarts it on new data only.
                let deadline = after(ctx.now, self.rto.rto());
                ctx.arm(&mut self.timer, deadline, TcpTimer::Retransmit);
            }
        }
        if self.mark_lost_retransmissions && self.recovery == Recovery::Sack {
            // ns-2.35 TCP-Linux `scoreboard1.cc` `UpdateScoreBoard()`, Linux 2.6
            // `tcp_mark_lost_retrans`: a retransmission is lost once data sent after it is SACKed
            // (the ordering RACK, RFC 8985, reads from send times); it is resent below.
            self.sent.mark_lost_retransmissions(self.dupthresh);
        }
        if h.has(flags::FIN) && self.data_end != u64::MAX && self.snd_una == self.data_end + 1 {
            // RFC 9293 §3.6: acknowledge the receiver's FIN; both directions are closed.
            self.rcv_ack = h.seq + 1;
            self.emit(ctx, self.snd_una, 0, 0, flags::ACK, Ecn::NotEct);
            self.timer.cancel();
            self.state = SenderState::Closed;
            return;
        }
        self.send_data(ctx, g);
    }

    fn new_ack(&mut self, h: &TcpHeader, ctx: &mut Ctx, g: &mut Group) {
        let ack = h.ack;
        let acked_bytes = ack - self.snd_una;
        // FlightSize when the signal arrived, for an ECN reaction on this ACK.
        let flight_before = self.in_flight() as f64 / self.mss as f64;
        let rtt = if self.timestamps {
            // RFC 7323 §4.1 (RTTM): every ACK of new data gives a sample from its echoed
            // timestamp, retransmissions included (§4.2), so a timeout's back-off ends as soon
            // as the path delivers again.
            Some(crate::packet::ts_clock(ctx.now).wrapping_sub(h.ts_ecr) as Time * crate::packet::TS_TICK)
        } else {
            self.take_rtt_sample(ack, ctx.now)
        };
        if let Some(r) = rtt {
            self.rto.sample(r, ctx.now);
            self.min_rtt = Some(self.min_rtt.map_or(r, |m| m.min(r)));
        }
        // The algorithm sees a Karn-safe sample on every ACK, however the RTO estimator times
        // segments (RFC 6298 §3): Linux passes one to `pkts_acked` per ACK, and ns-2's Vegas
        // agent times every segment (`v_sendtime_`) although its RTO times one per RTT.
        // Vegas needs more than two samples per round (Linux `tcp_vegas.c`) or it only ever runs Reno.
        let cc_rtt = match self.sampling {
            _ if self.timestamps => rtt,
            RttSampling::EveryAck => rtt,
            RttSampling::OncePerRtt => self.karn_sample(ack, ctx.now),
        };
        // RFC 6937 DeliveredData: the change in snd.una plus the change in SACKed bytes.
        let sacked_before = self.sent.cumulative_ack(ack);
        self.delivered += (acked_bytes - sacked_before) as f64 / self.mss as f64;
        self.snd_una = ack;
        self.snd_nxt = self.snd_nxt.max(ack);
        self.dupacks = 0;
        self.cong = match self.cong {
            CongState::Disorder => CongState::Open,
            // The window reduced by the mark or the timeout is acknowledged.
            CongState::Cwr | CongState::Loss if ack >= self.reduced_until => CongState::Open,
            c => c,
        };
        let mss = self.mss as f64;
        let info = Ack {
            now: ctx.now,
            acked: acked_bytes as f64 / mss,
            rtt: cc_rtt,
            ece: h.has(flags::ECE),
            snd_una: ack as f64 / mss,
            snd_nxt: self.snd_max as f64 / mss,
            path: h.path,
        };
        g.cc.on_ack(self.publish(&mut g.views), &self.window, &info);
        let mut restart_timer = true;
        // Whether this ACK grows the window: outside recovery, unless it carries an ECN-Echo.
        let grows = if self.cong == CongState::Recovery {
            let mut exited_recovery = false;
            match self.recovery {
                // RFC 5681 §3.2 step 6: the first new ACK deflates cwnd and ends recovery.
                Recovery::Reno => {
                    self.end_recovery(ctx.now, g);
                    exited_recovery = true;
                }
                // RFC 6582 §3.2 step 3: a full ACK ends recovery with cwnd = ssthresh.
                Recovery::NewReno | Recovery::Sack if ack > self.recover => {
                    self.end_recovery(ctx.now, g);
                    exited_recovery = true;
                }
                Recovery::NewReno => {
                    // RFC 6582 §3.2 step 3: partial ACK: retransmit the next hole, deflate by
                    // the amount acked, add back one SMSS if at least one was acked.
                    self.partial_acks += 1;
                    self.retransmit(self.snd_una, ctx);
                    let add_back = if acked_bytes >= self.mss as u64 { 1.0 } else { 0.0 };
                    self.window.cwnd = (self.window.cwnd - info.acked + add_back).max(1.0);
                    // "Impatient" variant: only the first partial ACK resets the timer.
                    restart_timer = self.partial_acks == 1;
                }
                Recovery::Sack | Recovery::Tahoe => {}
            }
            // ns-2.35 `tcp.cc` `recv_newack_helper()` → `opencwnd()` on the ACK ending recovery too.
            exited_recovery && self.grow_on_recovery_exit
        } else if self.ecn && info.ece {
            // RFC 3168 §6.1.2: react to ECE like a loss, at most once per window, without
            // retransmitting; then send CWR. No ECN-Echo ACK ever grows cwnd.
            if ack > self.reduced_until {
                // ns-2.35 `tcp.cc` `ecn()` → `slowdown(CLOSE_CWND_HALF)`: half of `windowd()` =
                // min(cwnd_, window_), fraction kept (`precisionReduce_`), at least `min_cwnd`.
                let halved = (self.window.cwnd.min(self.rwnd as f64 / self.mss as f64) / 2.0).max(self.min_cwnd);
                self.reduce(Congestion::Ecn, flight_before, ctx.now, g);
                self.window.cwnd = if self.ecn_halve_cwnd { halved } else { self.window.ssthresh.max(1.0) };
                self.cong = CongState::Cwr;
                self.cwr_pending = true;
                self.stats.ecn_reductions += 1;
            }
            false
        } else {
            true
        };
        if grows {
            // RFC 3465 §2.2: growth is credited for at most L segments per ACK.
            let credit = Ack { acked: info.acked.min(self.abc_limit), ..info };
            g.cc.grow(self.publish(&mut g.views), &mut self.window, &credit);
        }
        if self.window.cwnd < 1.0 && self.snd_una >= self.snd_max {
            // ns-2.35 `newtimer()`: with cwnd below one nothing can be sent, so the timer is set
            // to end the wait.
            let deadline = after(ctx.now, self.rto.rto());
            ctx.arm(&mut self.timer, deadline, TcpTimer::Retransmit);
        } else if self.snd_una >= self.snd_max {
            self.timer.cancel();
        } else if restart_timer {
            // RFC 6298 §5.3: restart the timer when new data is acknowledged.
            let deadline = after(ctx.now, self.rto.rto());
            ctx.arm(&mut self.timer, deadline, TcpTimer::Retransmit);
        }
    }

    fn take_rtt_sample(&mut self, ack: u64, now: Time) -> Option<Time> {
        match self.sampling {
            RttSampling::EveryAck => self.karn_sample(ack, now),
            RttSampling::OncePerRtt => match self.timed {
                Some((end, at)) if ack >= end => {
                    self.timed = None;
                    Some(now - at)
                }
                _ => None,
            },
        }
    }

    /// Karn: the RTT of the oldest segment `ack` newly acknowledges, if it was sent only once.
    fn karn_sample(&self, ack: u64, now: Time) -> Option<Time> {
        let first = self.sent.front().filter(|s| s.end <= ack)?;
        (!first.retransmitted).then(|| now - first.sent_at)
    }

    fn duplicate_ack(&mut self, ctx: &mut Ctx, g: &mut Group) {
        self.dupacks += 1;
        if self.cong == CongState::Recovery {
            // RFC 5681 §3.2 step 4: each further duplicate ACK inflates cwnd by one segment
            // (SACK recovery counts the pipe instead).
            if self.recovery != Recovery::Sack {
                self.window.cwnd += 1.0;
            }
            return;
        }
        // RFC 6675 §5: recovery also starts when IsLost(HighACK + 1), i.e. DupThresh segments
        // are SACKed above snd_una, before DupThresh duplicate ACKs have arrived.
        let lost_by_sack = self.recovery == Recovery::Sack && self.sent.sacked_count() >= self.dupthresh;
        if self.dupacks != self.dupthresh && !lost_by_sack {
            if self.cong == CongState::Open {
                self.cong = CongState::Disorder;
            }
            return;
        }
        // No new fast retransmit inside the window of the last recovery or timeout.
        // RFC 6582 §3.2 step 2 (NewReno; also ns-2's Tahoe `bug_fix_`): only if the ACK
        // "covers more than recover", i.e. ack − 1 > recover (ns-2
        // `highest_ack_ > recover_`): duplicate ACKs for exactly recover + 1 come from
        // go-back-N resends of data the receiver already held. recover = 0 (the ISN): no
        // recovery yet (ns-2 `bugfix_ss_`). RFC 6675 §5.1 (SACK): HighACK ≥ RecoveryPoint.
        let may_recover = match self.recovery {
            // RFC 5681 Reno may re-enter at once; ns-2's Reno with `bug_fix_` tests as NewReno does.
            Recovery::Reno if !self.reno_bug_fix => true,
            Recovery::Reno | Recovery::NewReno | Recovery::Tahoe => {
                self.recover == 0 || self.snd_una > self.recover + 1
            }
            Recovery::Sack => self.snd_una > self.recover,
        };
        if !may_recover {
            return;
        }
        self.stats.fast_retransmits += 1;
        self.recover = self.snd_max - 1;
        self.reduce(Congestion::Loss, self.in_flight() as f64 / self.mss as f64, ctx.now, g);
        match self.recovery {
            Recovery::Tahoe => {
                // Tahoe (ns-2 `tcp.cc`): slow start from one segment, resending from snd_una.
                self.window.cwnd = 1.0;
                self.snd_nxt = self.snd_una;
                self.timed = None;
                self.cong = CongState::Loss;
                g.cc.on_recovery_end(self.publish(&mut g.views), &self.window, ctx.now);
            }
            Recovery::Reno | Recovery::NewReno => {
                // RFC 5681 §3.2 steps 2–3: retransmit, cwnd = ssthresh + 3.
                self.cong = CongState::Recovery;
                self.partial_acks = 0;
                self.window.cwnd = self.reduced_cwnd() + self.dupthresh as f64;
                self.retransmit(self.snd_una, ctx);
            }
            Recovery::Sack => {
                // RFC 6675 §5 steps 4.1–4.3: RecoveryPoint = HighData, cwnd = ssthresh,
                // retransmit the first unacknowledged segment; NextSeg starts over.
                self.cong = CongState::Recovery;
                self.window.cwnd = self.reduced_cwnd();
                self.sent.restart_cursor();
                // RFC 6937 §3: RecoverFS = snd.nxt − snd.una; prr_delivered = prr_out = 0.
                self.recover_fs = self.in_flight() as f64 / self.mss as f64;
                self.prr_delivered = 0.0;
                self.prr_out = 0.0;
                self.retransmit(self.snd_una, ctx);
            }
        }
        let deadline = after(ctx.now, self.rto.rto());
        ctx.arm(&mut self.timer, deadline, TcpTimer::Retransmit);
    }

    /// A congestion signal with FlightSize `flight` (segments): new ssthresh from the
    /// algorithm, and no second reduction for losses or marks in the same window (RFC 3168 §6.1.2).
    fn reduce(&mut self, why: Congestion, flight: f64, now: Time, g: &mut Group) {
        let base = match self.ssthresh_rule {
            // RFC 5681 §3.1 eq. 4: half the FlightSize.
            SsthreshRule::FlightSize => flight,
            // ns-2.35 `tcp.cc` `slowdown()`: half of `window()`, an int, taken from `cwnd_`,
            // which during fast recovery is the reduced window without the duplicate-ACK
            // inflation; with `precisionReduce_` half of `windowd()`, the same unrounded.
            SsthreshRule::Cwnd => {
                let cwnd = if self.cong == CongState::Recovery {
                    self.window.cwnd.min(self.reduced_cwnd())
                } else {
                    self.window.cwnd
                };
                if self.precision_reduce {
                    cwnd
                } else {
                    cwnd.floor()
                }
            }
        };
        let target = g.cc.ssthresh(self.publish(&mut g.views), &self.window, base, why, now);
        // ns-2.35 `slowdown()` with `precisionReduce_`: cwnd_ = halfwin, ssthresh_ = (int) halfwin.
        self.window.ssthresh = if self.precision_reduce { target.floor() } else { target };
        self.halved_cwnd = target;
        self.reduced_until = self.snd_max;
        self.last_loss = Some(now);
    }

    /// The window a reduction brings cwnd to: ssthresh (RFC 5681 §3.2), or with `precision_reduce`
    /// the halved window with its fraction (ns-2.35 `slowdown()`: `cwnd_ = halfwin`).
    fn reduced_cwnd(&self) -> f64 {
        if self.precision_reduce {
            self.halved_cwnd
        } else {
            self.window.ssthresh
        }
    }

    fn end_recovery(&mut self, now: Time, g: &mut Group) {
        self.cong = CongState::Open;
        self.window.cwnd = self.reduced_cwnd();
        g.cc.on_recovery_end(self.publish(&mut g.views), &self.window, now);
    }

    /// Multipath TCP penalisation (Raiciu et al., "How Hard Can It Be? Designing and
    /// Implementing a Deployable Multipath TCP", NSDI 2012, §4.2; Linux `mptcp_sched.c`
    /// `mptcp_rcv_buf_optimization`): this subflow holds up the connection's receive window, so
    /// its window is halved, and ssthresh too unless it is in slow start.
    pub fn penalise(&mut self) {
        let prior = self.window.cwnd;
        self.window.cwnd = (prior / 2.0).max(1.0);
        if prior >= self.window.ssthresh {
            self.window.ssthresh = (self.window.ssthresh / 2.0).max(2.0);
        }
    }

    /// The retransmission timer fired.
    pub fn on_timer(&mut self, ctx: &mut Ctx, g: &mut Group) {
        if !ctx.expired(&mut self.timer, TcpTimer::Retransmit) {
            return;
        }
        match self.state {
            SenderState::SynSent | SenderState::SynReceived => {
                // RFC 6298 §5.5 applies to SYNs too; give up after the configured retries.
                if self.syn_tries >= self.syn_retries {
                    self.state = SenderState::Failed;
                    return;
                }
                self.syn_tries += 1;
                self.rto.back_off();
                self.send_syn(ctx);
            }
            SenderState::Established if self.snd_una < self.snd_max => {
                // RFC 5681 §3.1 eq. 4 and RFC 6298 §5.5–5.6: ssthresh from the flight,
                // cwnd = 1 (loss window), back off, go back to snd_una.
                self.stats.timeouts += 1;
                // RFC 5681 §3.1: eq. 4 applies to a segment "not yet resent by way of the
                // retransmission timer", and as in Linux tcp_enter_loss ("reduce ssthresh if
                // it has not yet been made inside this window") a timeout inside a window
                // already reduced (fast recovery, ECN, an earlier timeout) keeps ssthresh.
                // There FlightSize and cwnd still carry the duplicate-ACK inflation of RFC
                // 5681 §3.2 step 4 (segments that have left the network), so recomputing
                // would raise ssthresh above what the path held.
                // ns-2.35 `tcp.cc` `timeout()` calls `slowdown()` on every timeout instead.
                if self.ssthresh_on_every_timeout || self.snd_una >= self.reduced_until {
                    self.reduce(Congestion::Timeout, self.in_flight() as f64 / self.mss as f64, ctx.now, g);
                }
                // The window of this timeout runs to the highest sequence sent (Linux high_seq).
                self.reduced_until = self.snd_max;
                self.window.cwnd = g.cc.loss_window();
                self.rto.back_off();
                // RFC 6582 §3.2 step 4: after a timeout, recover = highest sequence sent.
                self.recover = self.snd_max - 1;
                self.cong = CongState::Loss;
                self.dupacks = 0;
                self.snd_nxt = self.snd_una;
                self.timed = None;
                // RFC 6675 §5.1: SACK information may be kept across a timeout when reneging
                // is detected; a cumulative ACK that stops at SACKed data shows the receiver
                // discarded it (RFC 2018 §8), and then the scoreboard is cleared.
                if !self.sack_across_rto || self.sent.head_is_sacked() {
                    self.sent.forget_sacks();
                }
                // Every segment not SACKed is presumed lost and is resent in order (Linux
                // `tcp_timeout_mark_lost`); with the scoreboard kept, SACKed data is not resent.
                self.sent.timeout();
                g.cc.on_recovery_end(self.publish(&mut g.views), &self.window, ctx.now);
                self.send_data(ctx, g);
            }
            SenderState::Established if self.window.cwnd < 1.0 => {
                // ns-2.35 `timeout()` with nothing outstanding: cwnd 1, ssthresh kept, no back-off.
                self.window.cwnd = 1.0;
                self.send_data(ctx, g);
            }
            _ => {}
        }
    }
}
