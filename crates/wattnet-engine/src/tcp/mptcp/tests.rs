//! The data level by hand (grants, DATA_ACKs, each scheduler's choice, the receive-buffer
//! remedies), then whole connections over a hand-built two-path network whose timings are
//! worked out in the comments.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::{DataReceiver, DataSender, MptcpConfig, Scheduler};
use crate::event::{EventKind, EventQueue};
use crate::packet::Ecn;
use crate::scenario::{TcpProfile, TcpSpec};
use crate::tcp::cc::{CongState, SubflowView};
use crate::tcp::ends::{ReceiveEnd, SendEnd};
use crate::tcp::group::Group;
use crate::tcp::{Ctx, Outgoing, TcpConfig, TcpTimer};
use crate::time::{from_secs, Time};

const MSS: u64 = 1000;

fn ms(v: f64) -> Time {
    from_secs(v / 1000.0)
}

fn config(scheduler: Scheduler, buffer: u64) -> MptcpConfig {
    MptcpConfig { scheduler, opportunistic_retransmission: true, penalisation: true, receive_buffer: buffer }
}

fn view(srtt_ms: f64, cwnd: f64) -> SubflowView {
    SubflowView { srtt: Some(ms(srtt_ms)), cwnd, ..SubflowView::IDLE }
}

/// A data sender of `views.len()` subflows, all ready, and the stream's position.
struct Level {
    data: DataSender,
    views: Vec<SubflowView>,
    handed_out: u64,
    total: Option<u64>,
}

impl Level {
    fn new(cfg: MptcpConfig, views: Vec<SubflowView>, total: Option<u64>) -> Level {
        let mut data = DataSender::new(&cfg, MSS as u32, views.len(), 0);
        for i in 0..views.len() {
            data.set_ready(i, true);
        }
        Level { data, views, handed_out: 0, total }
    }

    /// Subflow `i` asks with a full window's room at time `now`.
    fn take(&mut self, i: usize, now: Time) -> Option<(u64, u64)> {
        self.data.take(i, CongState::Open, &self.views, 10 * MSS, &mut self.handed_out, self.total, now)
    }

    fn next(&self) -> Option<usize> {
        self.data.next_ready(&self.views, self.handed_out, self.total)
    }
}

#[test]
fn min_rtt_gives_data_to_the_ready_subflow_with_the_lowest_srtt() {
    let mut l = Level::new(
        config(Scheduler::MinRtt, 1 << 20),
        vec![view(30.0, 10.0), view(10.0, 10.0), view(20.0, 10.0)],
        None,
    );
    assert_eq!(l.next(), Some(1));
    // Subflows 0 and 2 ask first: 1 is faster and ready, so they get nothing.
    assert_eq!(l.take(0, 0), None);
    assert_eq!(l.take(2, 0), None);
    assert_eq!(l.take(1, 0), Some((0, 1000)));
    assert_eq!(l.take(1, 0), Some((1000, 1000)));
    // Subflow 1's window is full: 2 (20 ms) is next, then 0 (30 ms).
    l.data.set_ready(1, false);
    assert_eq!(l.next(), Some(2));
    assert_eq!(l.take(0, 0), None);
    assert_eq!(l.take(2, 0), Some((2000, 1000)));
    l.data.set_ready(2, false);
    assert_eq!(l.take(0, 0), Some((3000, 1000)));
    // Equal SRTTs: the lower index.
    let mut tie = Level::new(config(Scheduler::MinRtt, 1 << 20), vec![view(10.0, 10.0), view(10.0, 10.0)], None);
    assert_eq!(tie.next(), Some(0));
    assert_eq!(tie.take(1, 0), None);
    // A subflow in loss state after a timeout gets nothing, whatever its RTT.
    let mut l = Level::new(config(Scheduler::MinRtt, 1 << 20), vec![view(10.0, 10.0)], None);
    assert_eq!(l.data.take(0, CongState::Loss, &l.views, 10 * MSS, &mut l.handed_out, None, 0), None);
}

#[test]
fn round_robin_gives_one_segment_to_each_ready_subflow_in_turn() {
    let mut l = Level::new(
        config(Scheduler::RoundRobin, 1 << 20),
        vec![view(30.0, 10.0), view(10.0, 10.0), view(20.0, 10.0)],
        None,
    );
    let mut order = vec![];
    for _ in 0..7 {
        let i = l.next().unwrap();
        let (dsn, len) = l.take(i, 0).unwrap();
        order.push((i, dsn, len));
        if order.len() % 3 != 0 {
            // Having had its segment, a subflow waits for the others' turns in this round.
            assert_eq!(l.take(i, 0), None, "segment {dsn}");
        }
    }
    let dsns = |i: usize| order.iter().filter(|o| o.0 == i).map(|o| o.1).collect::<Vec<_>>();
    assert_eq!(order.iter().map(|o| o.0).collect::<Vec<_>>(), [0, 1, 2, 0, 1, 2, 0]);
    assert_eq!(dsns(1), [1000, 4000]);
    // A subflow whose window is full is skipped: 1 and 2 alternate.
    l.data.set_ready(0, false);
    let next: Vec<usize> = (0..4)
        .map(|_| {
            let i = l.next().unwrap();
            l.take(i, 0).unwrap();
            i
        })
        .collect();
    assert_eq!(next, [1, 2, 1, 2]);
}

#[test]
fn redundant_sends_every_segment_on_every_subflow_from_the_data_ack_on() {
    let mut l = Level::new(config(Scheduler::Redundant, 1 << 20), vec![view(30.0, 10.0), view(10.0, 10.0)], Some(3500));
    assert_eq!(l.take(0, 0), Some((0, 1000)));
    assert_eq!(l.take(0, 0), Some((1000, 1000)));
    assert_eq!(l.take(1, 0), Some((0, 1000)));
    // The DATA_ACK passes what subflow 1 has not sent yet: it goes on from there.
    l.data.on_data_ack(2000, 1 << 20);
    assert_eq!(l.take(1, 0), Some((2000, 1000)));
    assert_eq!(l.take(1, 0), Some((3000, 500)));
    assert_eq!(l.take(1, 0), None);
    assert_eq!(l.take(0, 0), Some((2000, 1000)));
    assert_eq!(l.handed_out, 3500);
}

#[test]
fn the_receive_window_is_relative_to_the_data_ack_and_only_moves_forward() {
    // Buffer of 3 segments: DSNs 0..3000 may be sent, not 3000.
    let mut l = Level::new(config(Scheduler::MinRtt, 3000), vec![view(10.0, 10.0)], Some(10_000));
    for k in 0..3 {
        assert_eq!(l.take(0, 0), Some((k * 1000, 1000)));
    }
    assert_eq!(l.take(0, 0), None);
    assert_eq!(l.data.right_edge(), 3000);
    // DATA_ACK 1000 with the buffer's 3000: the edge is 4000, one more segment.
    l.data.on_data_ack(1000, 3000);
    assert_eq!(l.take(0, 0), Some((3000, 1000)));
    assert_eq!(l.take(0, 0), None);
    // An older DATA_ACK arriving late (over a slower subflow) does not pull the edge back.
    l.data.on_data_ack(0, 3000);
    assert_eq!((l.data.data_una(), l.data.right_edge()), (1000, 4000));
    // Everything acknowledged, the last segment short: 10 000 B are 10 segments.
    l.data.on_data_ack(4000, 20_000);
    for k in 4..10 {
        assert_eq!(l.take(0, 0), Some((k * 1000, 1000)));
    }
    assert_eq!(l.take(0, 0), None, "all handed out");
    l.data.on_data_ack(10_000, 3000);
    assert_eq!(l.data.data_una(), 10_000);
}

#[test]
fn a_blocked_window_resends_the_head_on_the_fast_subflow_and_penalises_the_slow_one() {
    // Subflow 0: SRTT 10 ms, cwnd 20; subflow 1: SRTT 100 ms, cwnd 20. Buffer 4 segments.
    let mut l = Level::new(config(Scheduler::MinRtt, 4000), vec![view(10.0, 20.0), view(100.0, 20.0)], None);
    // Subflow 0 is full, so segment 0 goes to subflow 1; subflow 0 takes 1..3 once ready.
    l.data.set_ready(0, false);
    assert_eq!(l.take(1, 0), Some((0, 1000)));
    l.data.set_ready(1, false);
    l.data.set_ready(0, true);
    for k in 1..4 {
        assert_eq!(l.take(0, 0), Some((k * 1000, 1000)));
    }
    // The window (0..4000) is full and segment 0 holds its left edge. At 5 ms subflow 0 has
    // not had an RTT since the connection opened (at 0): it resends, but does not penalise.
    // 4 × 10 ms < 100 ms, so the resend is worth it.
    assert_eq!(l.take(0, ms(5.0)), Some((0, 1000)));
    assert_eq!(l.data.take_penalised(), 0);
    assert_eq!(l.data.reinjected_bytes, 1000);
    // Already resent on subflow 0: not again.
    assert_eq!(l.take(0, ms(6.0)), None);
    // 10 ms after the last penalisation check: subflow 1 (slower, open) is penalised, once.
    assert_eq!(l.take(0, ms(10.0)), None);
    assert_eq!(l.data.take_penalised(), 0b10);
    assert_eq!(l.take(0, ms(15.0)), None);
    assert_eq!(l.data.take_penalised(), 0, "once per RTT of the subflow that found the block");
    assert_eq!(l.take(0, ms(20.0)), None);
    assert_eq!(l.data.take_penalised(), 0b10);
}

#[test]
fn the_head_is_resent_only_if_its_subflow_is_much_slower_or_has_a_small_window() {
    let blocked = |slow: SubflowView| {
        let mut l = Level::new(config(Scheduler::MinRtt, 1000), vec![view(10.0, 20.0), slow], None);
        l.data.set_ready(0, false);
        l.take(1, 0).unwrap();
        l.data.set_ready(0, true);
        l.take(0, 0)
    };
    // SRTT 40 ms = 4 × 10 ms: not slower than four times, window 20: no resend.
    assert_eq!(blocked(view(40.0, 20.0)), None);
    assert_eq!(blocked(view(41.0, 20.0)), Some((0, 1000)));
    // A window of at most 4 segments recovers slowly: resend whatever the RTT.
    assert_eq!(blocked(view(12.0, 4.0)), Some((0, 1000)));
    assert_eq!(blocked(view(12.0, 4.5)), None);
    // Switched off: neither remedy.
    let mut cfg = config(Scheduler::MinRtt, 1000);
    cfg.opportunistic_retransmission = false;
    cfg.penalisation = false;
    let mut l = Level::new(cfg, vec![view(10.0, 20.0), view(100.0, 20.0)], None);
    l.data.set_ready(0, false);
    l.take(1, 0).unwrap();
    l.data.set_ready(0, true);
    assert_eq!(l.take(0, ms(50.0)), None);
    assert_eq!(l.data.take_penalised(), 0);
}

#[test]
fn a_subflow_timeout_sends_its_segments_again_on_the_others() {
    let mut l = Level::new(config(Scheduler::MinRtt, 1 << 20), vec![view(10.0, 20.0), view(100.0, 20.0)], None);
    l.data.set_ready(0, false);
    assert_eq!(l.take(1, 0), Some((0, 1000)));
    assert_eq!(l.take(1, 0), Some((1000, 1000)));
    l.data.set_ready(1, false);
    l.data.set_ready(0, true);
    assert_eq!(l.take(0, 0), Some((2000, 1000)));
    // Subflow 1 times out with segments 0 and 1: subflow 0 sends them before new data,
    // except what the DATA_ACK has covered meanwhile.
    l.data.on_timeout(1);
    l.data.on_data_ack(1000, 1 << 20);
    assert_eq!(l.take(0, 0), Some((1000, 1000)));
    assert_eq!(l.take(0, 0), Some((3000, 1000)));
    assert_eq!(l.data.reinjected_bytes, 1000);
}

#[test]
fn the_connection_buffer_reassembles_by_data_sequence_number() {
    let mut r = DataReceiver::new(8000);
    r.on_segment(2000, 1000);
    r.on_segment(4000, 1000);
    assert_eq!((r.data_ack(), r.held()), (0, 2000));
    r.on_segment(0, 1000);
    assert_eq!(r.data_ack(), 1000);
    // The hole filled: 1000..3000 in order, 4000..5000 still held.
    r.on_segment(1000, 1000);
    assert_eq!((r.data_ack(), r.held()), (3000, 1000));
    // A copy (opportunistic retransmission, redundant scheduler) changes nothing.
    r.on_segment(1000, 1000);
    r.on_segment(4000, 1000);
    assert_eq!((r.data_ack(), r.held(), r.peak_held), (3000, 1000, 2000));
    assert_eq!(r.window(), 8000);
}

// ---- whole connections over two hand-built paths ----

/// A packet on the wire: arrival time, send order, subflow, towards the receiver, the packet.
type InFlight = Reverse<(Time, u64, usize, bool, Wire)>;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Wire(u64);

/// One path per subflow: one-way delays without queueing; the forward delay becomes
/// `forward_later` for packets sent from `later_from` on (a path that stalls).
#[derive(Clone, Copy)]
struct Path {
    forward: Time,
    back: Time,
    later_from: Time,
    forward_later: Time,
}

struct TwoPath {
    send: SendEnd,
    recv: ReceiveEnd,
    events: EventQueue,
    out: Vec<Outgoing>,
    wire: BinaryHeap<InFlight>,
    packets: Vec<Outgoing>,
    paths: Vec<Path>,
    now: Time,
    sent: u64,
    total: u64,
    completed_at: Option<Time>,
}

fn tcp_config(iw: f64) -> TcpConfig {
    let spec = TcpSpec {
        profile: TcpProfile::Rfc,
        mss_bytes: Some(MSS as u32),
        initial_window_segments: Some(iw),
        delayed_ack_s: Some(0.0),
        ..Default::default()
    };
    TcpConfig::from_spec(&spec, "tcp").unwrap()
}

impl TwoPath {
    fn new(cfg: MptcpConfig, paths: Vec<Path>, iw: f64, total: u64) -> TwoPath {
        let tcp = tcp_config(iw);
        let group = Group::multipath(&tcp, &cfg, paths.len(), Some(total), 0);
        let mut net = TwoPath {
            send: SendEnd::new(&tcp, group),
            recv: ReceiveEnd::new(&tcp, paths.len(), Some(cfg.receive_buffer)),
            events: EventQueue::default(),
            out: vec![],
            wire: BinaryHeap::new(),
            packets: vec![],
            paths,
            now: 0,
            sent: 0,
            total,
            completed_at: None,
        };
        let mut ctx = Ctx { now: 0, conn: 0, subflow: 0, events: &mut net.events, out: &mut net.out };
        net.send.connect(&mut ctx);
        net.flush(true);
        net
    }

    /// Puts what the endpoint at the sender (`from_sender`) or the receiver wrote on the wire.
    fn flush(&mut self, from_sender: bool) {
        for o in std::mem::take(&mut self.out) {
            let subflow = o.subflow as usize;
            let p = self.paths[subflow];
            let delay = match from_sender {
                true if self.now >= p.later_from => p.forward_later,
                true => p.forward,
                false => p.back,
            };
            self.packets.push(o);
            let id = Wire(self.packets.len() as u64 - 1);
            self.wire.push(Reverse((self.now + delay, self.sent, subflow, from_sender, id)));
            self.sent += 1;
        }
    }

    /// Runs until `end`: timers first at equal times, then packets in the order sent.
    fn run(&mut self, end: Time) {
        loop {
            let next_wire = self.wire.peek().map(|Reverse(w)| w.0);
            if let Some(ev) = self.events.pop_until(next_wire.unwrap_or(end).min(end)) {
                self.now = ev.time;
                let EventKind::Tcp { subflow, timer, .. } = ev.kind else { unreachable!("only TCP timers") };
                let mut ctx = Ctx { now: self.now, conn: 0, subflow, events: &mut self.events, out: &mut self.out };
                let from_sender = timer == TcpTimer::Retransmit;
                if from_sender {
                    self.send.on_timer(subflow as usize, &mut ctx);
                } else {
                    self.recv.on_timer(subflow as usize, timer, &mut ctx);
                }
                self.flush(from_sender);
                continue;
            }
            match self.wire.peek() {
                Some(Reverse(w)) if w.0 <= end => {}
                _ => break,
            }
            let Reverse((at, _, subflow, to_receiver, Wire(id))) = self.wire.pop().unwrap();
            self.now = at;
            let o = self.packets[id as usize];
            let mut ctx =
                Ctx { now: at, conn: 0, subflow: subflow as u16, events: &mut self.events, out: &mut self.out };
            if to_receiver {
                self.recv.on_packet(subflow, &o.tcp, Ecn::NotEct, &mut ctx);
                if self.completed_at.is_none() && self.recv.bytes_delivered() >= self.total {
                    self.completed_at = Some(at);
                }
            } else {
                self.send.on_packet(subflow, &o.tcp, &mut ctx);
            }
            self.flush(!to_receiver);
        }
        self.now = end;
    }

    fn reinjected(&self) -> u64 {
        self.send.group.stream.level().unwrap().reinjected_bytes
    }
}

/// Two subflows whose handshakes both take 10 ms (5 ms each way), so both start at 10 ms with
/// an SRTT of 10 ms; from 10 ms on, subflow 1's forward path takes 100 ms (a path that
/// stalls). Initial window 4, MSS 1000 B, a connection buffer of 8 segments, 16 segments to
/// send, no delayed ACKs, RTO 1 s (no timeout in the run).
fn stalled_pair(opportunistic: bool, penalisation: bool) -> TwoPath {
    let fast = Path { forward: ms(5.0), back: ms(5.0), later_from: Time::MAX, forward_later: 0 };
    let stalling = Path { forward_later: ms(100.0), later_from: ms(10.0), ..fast };
    let cfg = MptcpConfig {
        scheduler: Scheduler::MinRtt,
        opportunistic_retransmission: opportunistic,
        penalisation,
        receive_buffer: 8000,
    };
    let mut net = TwoPath::new(cfg, vec![fast, stalling], 4.0, 16_000);
    net.run(ms(500.0));
    net
}

/// Head-of-line blocking. At 10 ms subflow 0 sends segments 0–3 (its window of 4); subflow 1,
/// established at the same instant with 0's window full, sends 4–7, which fills the buffer
/// (DATA_ACK 0 + 8000). At 20 ms subflow 0's four ACKs each advance the DATA_ACK by one
/// segment and it sends 8–11 (window 8, edge 12 000). They arrive at 25 ms but 4–7 are on the
/// stalled path: the DATA_ACK stays at 4000 and the edge at 12 000, so subflow 0, with room in
/// its window, waits. Segments 4–7 arrive at 110 ms, the DATA_ACK jumps to 12 000; subflow 1's
/// ACKs reach the sender at 115 ms and open the window; subflow 0 (SRTT 10 ms, below subflow
/// 1's) sends 12–15, which arrive at 120 ms: the transfer completes at 120 ms.
#[test]
fn a_stalled_subflow_blocks_the_connection_window() {
    let net = stalled_pair(false, false);
    assert_eq!(net.completed_at, Some(ms(120.0)));
    assert_eq!(net.reinjected(), 0);
    // The buffer held at most what it can: segments 8–11 above the DATA_ACK of 4000.
    assert_eq!(net.recv.data.as_ref().unwrap().peak_held, 4000);
    assert!(net.send.finished(), "every subflow closed");
}

/// Opportunistic retransmission relieves it. At 20 ms, after sending 8–11, subflow 0 finds the
/// window full with segment 4 at its left edge, carried by subflow 1, whose window is 4
/// segments: it resends 4. Each resent segment arrives 5 ms later and moves the DATA_ACK one
/// segment; the ACK 5 ms after that opens one segment of window, in which subflow 0 sends the
/// next new segment and, the window full again, resends the next of 4–7: 12 and 5 at 30 ms, 13
/// and 6 at 40 ms, 14 and 7 at 50 ms. Segment 7 arrives at 55 ms and, with 8–14 held, the
/// DATA_ACK reaches 15 000; at 60 ms subflow 0 sends 15, which arrives at 65 ms. Both
/// subflows have an SRTT of 10 ms (subflow 1 has had no ACK), so penalisation, which needs
/// the blocking subflow to be slower, changes nothing.
#[test]
fn opportunistic_retransmission_relieves_head_of_line_blocking() {
    for penalisation in [false, true] {
        let net = stalled_pair(true, penalisation);
        assert_eq!(net.completed_at, Some(ms(65.0)), "penalisation {penalisation}");
        assert_eq!(net.reinjected(), 4000);
        assert!(net.send.finished());
    }
}

/// Every scheduler completes a transfer over two unequal paths (10 ms and 40 ms RTT), and every
/// subflow closes.
#[test]
fn each_scheduler_completes_a_transfer_over_two_paths() {
    let path = |one_way: f64| Path { forward: ms(one_way), back: ms(one_way), later_from: Time::MAX, forward_later: 0 };
    for scheduler in [Scheduler::MinRtt, Scheduler::RoundRobin, Scheduler::Redundant] {
        let mut net = TwoPath::new(config(scheduler, 64_000), vec![path(5.0), path(20.0)], 4.0, 200_000);
        net.run(from_secs(5.0));
        assert!(net.completed_at.is_some(), "{scheduler:?}");
        assert!(net.send.finished(), "{scheduler:?}");
        let sent: Vec<u64> = net.send.subflows.iter().map(|s| s.bytes_acked()).collect();
        match scheduler {
            // The redundant scheduler sends all of it on the fast subflow at least.
            Scheduler::Redundant => assert_eq!(sent[0], 200_000, "{sent:?}"),
            // Each byte goes once, plus the opportunistic retransmissions, and both subflows carry data.
            _ => {
                assert!(sent[0] > 0 && sent[1] > 0, "{scheduler:?}: {sent:?}");
                assert_eq!(sent[0] + sent[1], 200_000 + net.reinjected(), "{scheduler:?}");
            }
        }
    }
}
