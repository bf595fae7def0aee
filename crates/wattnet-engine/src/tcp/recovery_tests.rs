//! Hand-worked traces of the sender: ACKs, duplicate ACKs and timeouts fed by hand, with the
//! expected windows and retransmissions worked out in the comments.

use super::group::Group;
use super::sender::{Sender, SenderState};
use super::{Ctx, Outgoing, TcpConfig, TcpSpec};
use crate::event::{EventKind, EventQueue};
use crate::packet::{flags, Ecn, TcpHeader};
use crate::tcp::spec::{SsthreshRuleSpec, TcpProfile};
use crate::time::{from_secs, Time};

/// Segments are 1000 B; segment k (1-based) covers [1 + 1000(k−1), 1 + 1000k).
const MSS: u64 = 1000;

fn seg_start(k: u64) -> u64 {
    1 + MSS * (k - 1)
}

fn seg_of(seq: u64) -> u64 {
    (seq - 1) / MSS + 1
}

struct Harness {
    sender: Sender,
    group: Group,
    events: EventQueue,
    out: Vec<Outgoing>,
    now: Time,
}

impl Harness {
    /// An established sender with `iw` segments sent (segments 1..=iw).
    fn new(spec: TcpSpec, iw: f64) -> Harness {
        Harness::transfer(spec, iw, None)
    }

    /// As [`Harness::new`] with a transfer of `bytes` (`None`: endless), so the flight can be
    /// smaller than cwnd.
    fn transfer(spec: TcpSpec, iw: f64, bytes: Option<u64>) -> Harness {
        let spec = TcpSpec { mss_bytes: Some(MSS as u32), initial_window_segments: Some(iw), ..spec };
        let cfg = TcpConfig::from_spec(&spec, "tcp").unwrap();
        let group = Group::single(&cfg, bytes);
        let mut h =
            Harness { sender: Sender::new(&cfg, &group, 0), group, events: EventQueue::default(), out: vec![], now: 0 };
        h.with_ctx(|s, ctx, _| s.connect(ctx));
        let syn_ack =
            TcpHeader { seq: 0, ack: 1, flags: flags::SYN | flags::ACK, window: 1 << 30, ..Default::default() };
        h.now = from_secs(0.1);
        h.with_ctx(|s, ctx, g| s.on_packet(&syn_ack, ctx, g));
        h.out.clear();
        h
    }

    fn with_ctx(&mut self, f: impl FnOnce(&mut Sender, &mut Ctx, &mut Group)) -> Vec<Outgoing> {
        let start = self.out.len();
        let mut ctx = Ctx { now: self.now, conn: 0, subflow: 0, events: &mut self.events, out: &mut self.out };
        f(&mut self.sender, &mut ctx, &mut self.group);
        self.out[start..].to_vec()
    }

    /// Feeds an ACK (with optional SACK blocks given in segment numbers, inclusive) and
    /// returns the segments sent in response, as (segment number, retransmission?) pairs.
    fn ack(&mut self, ack_seg: u64, sacked: &[(u64, u64)], ece: bool) -> Vec<u64> {
        let mut h =
            TcpHeader { seq: 1, ack: seg_start(ack_seg), window: 1 << 30, flags: flags::ACK, ..Default::default() };
        if ece {
            h.flags |= flags::ECE;
        }
        for (i, &(a, b)) in sacked.iter().take(3).enumerate() {
            h.sack[i] = (seg_start(a), seg_start(b + 1));
            h.sack_blocks += 1;
        }
        self.with_ctx(|s, ctx, g| s.on_packet(&h, ctx, g))
            .iter()
            .filter(|o| o.tcp.len > 0)
            .map(|o| seg_of(o.tcp.seq))
            .collect()
    }

    /// Runs the next timer event; returns the segments sent.
    fn fire_timer(&mut self) -> Vec<u64> {
        let ev = self.events.pop_until(Time::MAX).expect("a timer is armed");
        self.now = ev.time;
        assert!(matches!(ev.kind, EventKind::Tcp { .. }));
        self.with_ctx(|s, ctx, g| s.on_timer(ctx, g))
            .iter()
            .filter(|o| o.tcp.len > 0)
            .map(|o| seg_of(o.tcp.seq))
            .collect()
    }

    fn cwnd(&self) -> f64 {
        self.sender.window.cwnd
    }

    fn ssthresh(&self) -> f64 {
        self.sender.window.ssthresh
    }
}

fn ns2(cc: &str) -> TcpSpec {
    let cc = serde_json::from_str(&format!(r#"{{"type": "{cc}"}}"#)).unwrap();
    // The traces were worked out without RFC 3042 limited transmit (ns-2's `singledup_` 0).
    TcpSpec {
        profile: TcpProfile::Ns2,
        congestion_control: Some(cc),
        limited_transmit: Some(false),
        ..Default::default()
    }
}

/// RFC 6675 with the same losses: cwnd = ssthresh = 10 at entry, and sending is governed by
/// the pipe. Segment 5 counts as lost once three segments above it are SACKed.
#[test]
fn sack_recovery_follows_the_pipe() {
    let spec = TcpSpec { sack: Some(true), ..ns2("newreno") };
    let mut h = Harness::new(spec, 20.0);
    h.ack(1, &[(2, 2)], false);
    h.ack(1, &[(2, 3)], false);
    // Dupack 3: enter recovery, retransmit 1. Pipe: 1 (retransmitted) + 16 (5..20 not lost) = 17.
    assert_eq!(h.ack(1, &[(2, 4)], false), vec![1]);
    assert_eq!((h.ssthresh(), h.cwnd()), (10.0, 10.0));
    // Segments 6..k arrive: with 6, 7, 8 SACKed, 5 becomes lost (pipe 1 + 0 + 12 = 13).
    // Each further SACK lowers the pipe by one: at k = 12 the pipe is 1 + 0 + 8 = 9 < 10,
    // so segment 5 is retransmitted (rule 1); after that only new data goes (rule 2).
    let mut sent = vec![];
    for k in 6..=20 {
        let out = h.ack(1, &[(6, k), (2, 4)], false);
        if k < 12 {
            assert!(out.is_empty(), "nothing may be sent at k = {k}: {out:?}");
        }
        sent.extend(out);
    }
    // k = 12: 5; k = 13..20: one new segment each (21..28).
    assert_eq!(sent, [5].into_iter().chain(21..=28).collect::<Vec<_>>());
    // The cumulative ACK for everything through 28 passes the recovery point (20).
    h.ack(29, &[], false);
    assert_eq!(h.cwnd(), 10.0);
    assert_eq!(h.sender.stats.retransmissions, 2);
}

/// RFC 6298 §5.5–5.7 and RFC 5681 eq. 4: a timeout halves the flight into ssthresh, sets
/// cwnd 1, resends snd_una and doubles the RTO until a sample of a fresh segment arrives.
#[test]
fn timeout_backs_off_and_karn_ignores_retransmitted_samples() {
    let mut h = Harness::new(ns2("newreno"), 4.0);
    // The SYN's RTT (0.1 s) was sampled: RTO = 0.1 + max(0.01, 4 · 0.05) = 0.3 s, sent at 0.1 s.
    assert_eq!(h.fire_timer(), vec![1]);
    assert!((crate::time::to_secs(h.now) - 0.4).abs() < 1e-12);
    assert_eq!((h.ssthresh(), h.cwnd()), (2.0, 1.0));
    assert_eq!(h.sender.stats.timeouts, 1);
    // Backed off to 0.6 s: the next expiry is at 1.0 s.
    assert_eq!(h.fire_timer(), vec![1]);
    assert!((crate::time::to_secs(h.now) - 1.0).abs() < 1e-12);
    // The ACK for the retransmitted segment 1 gives no sample (Karn), so the RTO stays
    // backed off at 4 × 0.3 = 1.2 s: restarted at 1.05 s, the timer expires at 2.25 s
    // (an earlier, stale timer event may fire first and re-arm itself).
    h.now += from_secs(0.05);
    h.ack(2, &[], false);
    while h.sender.stats.timeouts == 2 {
        h.fire_timer();
    }
    assert!((crate::time::to_secs(h.now) - 2.25).abs() < 1e-9, "{}", crate::time::to_secs(h.now));
}

/// RFC 3168 §6.1.2: an ECE halves the flight into ssthresh and cwnd once per window, without
/// retransmitting; the next new segment carries CWR.
#[test]
fn ecn_echo_reduces_once_per_window_and_sends_cwr() {
    let spec = TcpSpec { ecn: Some(true), ..ns2("newreno") };
    let spec = TcpSpec { mss_bytes: Some(MSS as u32), initial_window_segments: Some(10.0), ..spec };
    let cfg = TcpConfig::from_spec(&spec, "tcp").unwrap();
    let group = Group::single(&cfg, None);
    let mut h =
        Harness { sender: Sender::new(&cfg, &group, 0), group, events: EventQueue::default(), out: vec![], now: 0 };
    let syn = h.with_ctx(|s, ctx, _| s.connect(ctx));
    // RFC 3168 §6.1.1: an ECN-setup SYN carries ECE and CWR.
    assert!(syn[0].tcp.has(flags::ECE) && syn[0].tcp.has(flags::CWR));
    let syn_ack =
        TcpHeader { ack: 1, flags: flags::SYN | flags::ACK | flags::ECE, window: 1 << 30, ..Default::default() };
    h.now = from_secs(0.1);
    let first = h.with_ctx(|s, ctx, g| s.on_packet(&syn_ack, ctx, g));
    assert!(first.iter().filter(|o| o.tcp.len > 0).all(|o| o.ecn == Ecn::Ect0));
    // ACK of segment 1 with ECE: FlightSize was 10 → ssthresh 5, cwnd 5, no retransmission.
    let out = h.ack(2, &[], true);
    assert_eq!((h.ssthresh(), h.cwnd()), (5.0, 5.0));
    assert!(out.is_empty(), "9 outstanding > cwnd 5: {out:?}");
    // More ECEs from the same window (segments up to 10) do not reduce again.
    for k in 3..=11 {
        h.ack(k, &[], true);
    }
    assert_eq!(h.sender.stats.ecn_reductions, 1);
    assert_eq!(h.ssthresh(), 5.0);
    // The first new segment after the reduction carried CWR.
    let cwr: Vec<_> = h.out.iter().filter(|o| o.tcp.has(flags::CWR) && o.tcp.len > 0).collect();
    assert_eq!(cwr.len(), 1);
}

/// RFC 6298 §5.5 and Linux `tcp_syn_retries` 6: an unanswered SYN is retransmitted at 1, 3, 7, 15, 31 and 63 s (initial RTO
/// 1 s, doubled each time); after six retries the connection fails at 127 s.
#[test]
fn syn_retries_back_off_and_give_up() {
    let spec = TcpSpec { profile: TcpProfile::Linux, ..Default::default() };
    let cfg = TcpConfig::from_spec(&spec, "tcp").unwrap();
    let group = Group::single(&cfg, None);
    let mut h =
        Harness { sender: Sender::new(&cfg, &group, 0), group, events: EventQueue::default(), out: vec![], now: 0 };
    h.with_ctx(|s, ctx, _| s.connect(ctx));
    let mut times = vec![];
    while let Some(ev) = h.events.pop_until(Time::MAX) {
        h.now = ev.time;
        let out = h.with_ctx(|s, ctx, g| s.on_timer(ctx, g));
        if !out.is_empty() {
            assert!(out[0].tcp.has(flags::SYN));
            times.push(crate::time::to_secs(ev.time));
        }
    }
    assert_eq!(times, vec![1.0, 3.0, 7.0, 15.0, 31.0, 63.0]);
    assert_eq!(h.sender.state, SenderState::Failed);
    assert_eq!(crate::time::to_secs(h.now), 127.0);
}

impl Harness {
    /// A cumulative ACK for segments below `ack_seg` echoing the timestamp `ts_ecr` (RFC 7323).
    fn ack_echo(&mut self, ack_seg: u64, ts_ecr: u32) -> Vec<u64> {
        let h = TcpHeader {
            seq: 1,
            ack: seg_start(ack_seg),
            window: 1 << 30,
            flags: flags::ACK,
            ts_ecr,
            ..Default::default()
        };
        self.with_ctx(|s, ctx, g| s.on_packet(&h, ctx, g))
            .iter()
            .filter(|o| o.tcp.len > 0)
            .map(|o| seg_of(o.tcp.seq))
            .collect()
    }

    /// Runs timer events until the retransmission timer expires once more; returns what it sent.
    fn time_out(&mut self) -> Vec<u64> {
        let before = self.sender.stats.timeouts;
        let mut sent = vec![];
        while self.sender.stats.timeouts == before {
            sent = self.fire_timer();
        }
        sent
    }
}

/// Segments 1..8 are sent; 1 and 3 are lost, 2 and 4–6 arrive (7 and 8 are lost too). The
/// third duplicate ACK (2, 4, 5 SACKed: segment 1 has three SACKed segments above it, RFC 6675
/// IsLost) retransmits 1; the fourth makes 3 lost and the pipe (8 − 4 SACKed − 2 lost + 1
/// retransmitted = 3) lets it go. Both retransmissions are lost and the timer expires.
fn two_holes_then_timeout(sack_across_rto: bool) -> Harness {
    // The trace keeps ssthresh across the timeout (the once-per-window guard, Linux's).
    let spec = TcpSpec {
        sack: Some(true),
        sack_across_rto: Some(sack_across_rto),
        ssthresh_on_every_timeout: Some(false),
        ..ns2("newreno")
    };
    let mut h = Harness::new(spec, 8.0);
    assert_eq!(h.ack(1, &[(2, 2)], false), Vec::<u64>::new());
    assert_eq!(h.ack(1, &[(4, 4), (2, 2)], false), Vec::<u64>::new());
    assert_eq!(h.ack(1, &[(4, 5), (2, 2)], false), vec![1]);
    assert_eq!((h.ssthresh(), h.cwnd()), (4.0, 4.0));
    assert_eq!(h.ack(1, &[(4, 6), (2, 2)], false), vec![3]);
    // The timeout: cwnd 1, ssthresh kept (this window was already reduced), resend 1 alone.
    assert_eq!(h.time_out(), vec![1]);
    assert_eq!((h.ssthresh(), h.cwnd()), (4.0, 1.0));
    h
}

/// RFC 6675 §5.1 with the scoreboard kept: after the timeout only the holes are resent. The
/// ACK of 1 (2 was held) grows cwnd to 2 and resends the holes 3 and 7, never the SACKed 4–6;
/// the ACK through 6 then gives cwnd 3 with 7 in flight: the hole 8 and one new segment.
#[test]
fn a_timeout_keeps_the_scoreboard_and_resends_only_the_holes() {
    let mut h = two_holes_then_timeout(true);
    assert_eq!(h.ack(3, &[(4, 6)], false), vec![3, 7]);
    assert_eq!(h.ack(7, &[], false), vec![8, 9]);
    assert_eq!(h.cwnd(), 3.0);
    // Retransmissions: 1, 3 (recovery), 1 (timeout), 3, 7, 8.
    assert_eq!(h.sender.stats.retransmissions, 6);
}

/// The same losses with the scoreboard discarded (RFC 2018's conservative reading): go-back-N
/// from the cumulative ACK resends 4, which the receiver already holds.
#[test]
fn without_the_scoreboard_a_timeout_resends_sacked_data() {
    let mut h = two_holes_then_timeout(false);
    assert_eq!(h.ack(3, &[(4, 6)], false), vec![3, 4]);
}

/// RFC 7323 §4.1–4.2: with timestamps the ACK of a retransmission gives an RTT sample, so the
/// back-off ends at once. The SYN's 0.1 s gives RTO 0.3 s; expiries at 0.4 s and 1.0 s back
/// it off to 1.2 s. The ACK at 1.05 s echoes the retransmission's TSval (1.0 s): R = 50 ms,
/// RTTVAR = ¾·50 + ¼·|100 − 50| = 50 ms, SRTT = ⅞·100 + ⅛·50 = 93.75 ms, RTO = 93.75 + 4·50
/// = 293.75 ms, so the restarted timer expires at 1.34375 s (Karn's rule alone: 2.25 s,
/// `timeout_backs_off_and_karn_ignores_retransmitted_samples`).
#[test]
fn a_timestamp_echo_ends_the_back_off_after_a_timeout() {
    let spec = TcpSpec { timestamps: Some(true), ..ns2("newreno") };
    let mut h = Harness::new(spec, 4.0);
    assert_eq!(h.time_out(), vec![1]);
    assert_eq!(h.time_out(), vec![1]);
    assert!((crate::time::to_secs(h.now) - 1.0).abs() < 1e-12);
    let resent_at = h.now;
    // Every data segment carries its send time as TSval (1 s = 10⁶ µs ticks) and 12 option bytes.
    let last = h.out.last().unwrap();
    let tsval = crate::packet::ts_clock(resent_at);
    assert_eq!((tsval, last.tcp.ts_val, last.size_bytes), (1_000_000, tsval, 1000 + 40 + 12));
    h.now += from_secs(0.05);
    h.ack_echo(2, tsval);
    h.time_out();
    assert!((crate::time::to_secs(h.now) - 1.34375).abs() < 1e-9, "{}", crate::time::to_secs(h.now));
}

/// RFC 3042 §2: each of the first two duplicate ACKs sends one new segment (cwnd unchanged);
/// the third retransmits.
#[test]
fn limited_transmit_sends_one_new_segment_on_each_of_the_first_two_duplicate_acks() {
    let spec =
        TcpSpec { limited_transmit: Some(true), ssthresh_rule: Some(SsthreshRuleSpec::FlightSize), ..ns2("newreno") };
    let mut h = Harness::new(spec, 4.0);
    assert_eq!(h.ack(1, &[], false), vec![5]);
    assert_eq!(h.cwnd(), 4.0);
    assert_eq!(h.ack(1, &[], false), vec![6]);
    // FlightSize is 6 at the third: ssthresh 3, cwnd 3 + 3 = 6, nothing beyond the 6 out.
    assert_eq!(h.ack(1, &[], false), vec![1]);
    assert_eq!((h.ssthresh(), h.cwnd()), (3.0, 6.0));
}

/// RFC 6675 §5 step (3): with SACK, before DupThresh, new data as the pipe allows: each
/// duplicate ACK SACKs one more segment, so the pipe (4 out, less the SACKed) leaves room
/// for one new segment each time.
#[test]
fn sack_duplicate_acks_send_new_data_as_the_pipe_allows() {
    let spec = TcpSpec { sack: Some(true), sack_limited_transmit: Some(true), ..ns2("newreno") };
    let mut h = Harness::new(spec, 4.0);
    assert_eq!(h.ack(1, &[(2, 2)], false), vec![5]);
    assert_eq!(h.ack(1, &[(2, 3)], false), vec![6]);
    assert_eq!(h.cwnd(), 4.0);
}

/// RFC 6937 §3.1's worked example, "PRR" chart: cwnd = FlightSize = pipe = 20, the first segment
/// lost, limited transmit (one new segment on each of the first two duplicate ACKs), ssthresh 10.
/// The RFC's chart sends N at ACKs 1 and 2, R at 3, N at 5, 7, 9, 11, 13 and 15 (the proportional
/// part: ⌈prr_delivered·10/20⌉ − prr_out), nothing at 16 and 17, and N at 18 and 19
/// (the reduction bound, "s"), with pipe 19 19 18 18 18 17 17 … 12 12 11 10 after each ACK.
#[test]
fn prr_follows_the_worked_example_of_rfc_6937() {
    // The RFC's example takes ssthresh from the FlightSize (RFC 5681 §3.1 eq. 4), not ns-2's cwnd.
    let spec = TcpSpec {
        sack: Some(true),
        sack_limited_transmit: Some(true),
        prr: Some(crate::tcp::spec::PrrSpec::Ssrb),
        ssthresh_rule: Some(SsthreshRuleSpec::FlightSize),
        ..ns2("newreno")
    };
    let mut h = Harness::new(spec, 20.0);
    let mut sent_at = vec![];
    for k in 1..=19 {
        for seg in h.ack(1, &[(2, k + 1)], false) {
            sent_at.push((k, seg));
        }
    }
    let expected =
        [(1, 21), (2, 22), (3, 1), (5, 23), (7, 24), (9, 25), (11, 26), (13, 27), (15, 28), (18, 29), (19, 30)];
    assert_eq!(sent_at, expected);
}

/// RFC 6937 §3 with PRR-SSRB: 20 segments out (RecoverFS 20), segment 1 lost, ssthresh 10;
/// duplicate ACK k SACKs segments 2..k+1. From the third (recovery, retransmit 1, prr_out 1)
/// prr_delivered = k − 2 and pipe = 20 + new − k. While pipe > ssthresh PRR allows
/// ⌈(k − 2)·10/20⌉ − prr_out: one new segment every second ACK (k = 5, 7, 9, 11, 13). At
/// k = 15 the pipe is 10 = ssthresh: min(ssthresh − pipe, ...) = 0; from k = 16 the pipe is
/// 9 and each ACK sends one (the reduction bound max(prr_delivered − prr_out, 1) + 1 ≥ 1).
#[test]
fn prr_spreads_the_reduction_over_the_recovery() {
    let spec = TcpSpec { sack: Some(true), prr: Some(crate::tcp::spec::PrrSpec::Ssrb), ..ns2("newreno") };
    let mut h = Harness::new(spec, 20.0);
    let mut sent_at = vec![];
    for k in 1..=19 {
        for seg in h.ack(1, &[(2, k + 1)], false) {
            sent_at.push((k, seg));
        }
    }
    let expected = [(3, 1), (5, 21), (7, 22), (9, 23), (11, 24), (13, 25), (16, 26), (17, 27), (18, 28), (19, 29)];
    assert_eq!(sent_at, expected);
    assert_eq!(h.ssthresh(), 10.0);
    // The full ACK ends recovery with cwnd = ssthresh.
    h.ack(30, &[], false);
    assert_eq!(h.cwnd(), 10.0);
}

impl Harness {
    /// Feeds a raw ACK (SACK blocks in bytes) and returns everything sent in response.
    fn ack_raw(&mut self, ack: u64, blocks: &[(u64, u64)]) -> Vec<Outgoing> {
        let mut h = TcpHeader { seq: 1, ack, window: 1 << 30, flags: flags::ACK, ..Default::default() };
        for (i, &b) in blocks.iter().enumerate() {
            h.sack[i] = b;
            h.sack_blocks += 1;
        }
        self.with_ctx(|s, ctx, g| s.on_packet(&h, ctx, g))
    }
}

/// A 3000-byte transfer (segments 1–3 and the FIN at 3001, all in the initial window of 4):
/// the data is acknowledged, the FIN is lost, and the timer expires. The scoreboard kept across
/// the timeout marks the FIN lost and resends it, as a FIN of one sequence number without data
/// (sent with a byte of data the receiver would acknowledge 3003, beyond anything sent, and the
/// sender, ignoring that ACK, would time out again and again).
#[test]
fn a_fin_resent_from_the_scoreboard_carries_no_data() {
    let spec = TcpSpec { sack: Some(true), sack_across_rto: Some(true), ..ns2("newreno") };
    let mut h = Harness::transfer(spec, 4.0, Some(3000));
    h.ack(4, &[], false);
    let mut out = vec![];
    while h.sender.stats.timeouts == 0 {
        let ev = h.events.pop_until(Time::MAX).expect("the timer runs for the FIN");
        h.now = ev.time;
        out = h.with_ctx(|s, ctx, g| s.on_timer(ctx, g));
    }
    let sent: Vec<_> = out.iter().map(|o| (o.tcp.seq, o.tcp.len, o.tcp.has(flags::FIN))).collect();
    assert_eq!(sent, vec![(3001, 0, true)]);
    // The receiver's ACK of the FIN (3002) stops the timer: no further timeout.
    h.ack_raw(3002, &[]);
    while let Some(ev) = h.events.pop_until(Time::MAX) {
        h.now = ev.time;
        h.with_ctx(|s, ctx, g| s.on_timer(ctx, g));
    }
    assert_eq!(h.sender.stats.timeouts, 1);
    assert_eq!(h.sender.stats.retransmissions, 0);
}

/// RFC 6675 §4 NextSeg rules 3 and 4 at the tail of a transfer: segments 1–10 (10 000 bytes)
/// and the FIN (10 001) are out; 1, 7, 10 and the FIN are lost. The third duplicate ACK
/// (2–4 SACKed) starts recovery: ssthresh = cwnd = FlightSize/2 = 10 001/2 000 = 5.0005,
/// retransmit 1; pipe = 11 − 3 SACKed − 1 lost + 1 retransmitted = 8. Each further SACK lowers
/// the pipe by one; at 8–9 SACKed it is 4, leaving room for one segment. Segment 7 has only two
/// SACKed segments above it, so it is not lost (rule 1), and there is no new data (rule 2):
/// rule 3 resends it, being below the highest SACKed octet. The partial ACK of 1–6 leaves the
/// pipe at 4 (7 counted twice, 10, the FIN): rule 3 finds nothing below the highest SACK, so
/// rule 4's rescue resends the highest unSACKed segment, the FIN. Its SACK then puts 10 below
/// the highest SACKed octet, and rule 3 resends 10. Without rules 3 and 4 nothing is sent
/// after the retransmission of 1 and the transfer ends by a timeout.
#[test]
fn tail_losses_are_repaired_by_nextseg_rules_3_and_4() {
    let spec = TcpSpec { sack: Some(true), ssthresh_rule: Some(SsthreshRuleSpec::FlightSize), ..ns2("newreno") };
    let mut h = Harness::transfer(spec, 11.0, Some(10_000));
    h.ack(1, &[(2, 2)], false);
    h.ack(1, &[(2, 3)], false);
    assert_eq!(h.ack(1, &[(2, 4)], false), vec![1]);
    assert_eq!((h.ssthresh(), h.cwnd()), (5.0005, 5.0005));
    assert_eq!(h.ack(1, &[(2, 5)], false), Vec::<u64>::new());
    assert_eq!(h.ack(1, &[(2, 6)], false), Vec::<u64>::new());
    assert_eq!(h.ack(1, &[(8, 8), (2, 6)], false), Vec::<u64>::new());
    assert_eq!(h.ack(1, &[(8, 9), (2, 6)], false), vec![7]);
    let rescue: Vec<_> = h
        .ack_raw(seg_start(7), &[(7001, 9001)])
        .iter()
        .map(|o| (o.tcp.seq, o.tcp.len, o.tcp.has(flags::FIN)))
        .collect();
    assert_eq!(rescue, vec![(10_001, 0, true)]);
    let repaired: Vec<_> =
        h.ack_raw(seg_start(7), &[(10_001, 10_002), (7001, 9001)]).iter().map(|o| o.tcp.seq).collect();
    assert_eq!(repaired, vec![seg_start(10)]);
    // The rescue is sent once per recovery: a further duplicate ACK sends nothing more.
    assert!(h.ack_raw(seg_start(7), &[(10_001, 10_002), (7001, 9001)]).is_empty());
    // The ACK of everything, the FIN included, ends recovery with no timeout.
    h.ack_raw(10_002, &[]);
    assert_eq!(h.sender.stats.timeouts, 0);
    assert_eq!(h.sender.stats.retransmissions, 3);
}

#[path = "recovery_ns2_tests.rs"]
mod reno_and_ns2;
