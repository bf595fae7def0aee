//! Hand-fed traces of the receiver: segments in and out of order, with the ACKs, SACK blocks
//! and advertised windows expected of RFC 5681 §4.2, RFC 2018 §4 and RFC 3168 worked out in
//! the comments.

use super::receiver::{Receiver, ReceiverState};
use super::{Ctx, Outgoing, TcpConfig, TcpSpec, TcpTimer};
use crate::event::{EventKind, EventQueue};
use crate::packet::{flags, Ecn, TcpHeader};
use crate::tcp::spec::TcpProfile;
use crate::time::{from_secs, Time};

/// Segments are 1000 B; segment k (1-based) covers [1 + 1000(k−1), 1 + 1000k).
const MSS: u64 = 1000;
const BUFFER: u64 = 10_000;

fn seg_start(k: u64) -> u64 {
    1 + MSS * (k - 1)
}

struct Harness {
    receiver: Receiver,
    events: EventQueue,
    out: Vec<Outgoing>,
    now: Time,
}

/// What one ACK said, with sequence numbers turned back into segment numbers.
#[derive(Debug, PartialEq)]
struct AckSeen {
    /// The next segment expected.
    next: u64,
    /// SACK blocks as inclusive segment ranges, in the order sent.
    sack: Vec<(u64, u64)>,
    window: u64,
    ece: bool,
}

impl Harness {
    /// A receiver that has answered the sender's SYN (passive open).
    fn new(spec: TcpSpec) -> Harness {
        let spec = TcpSpec { mss_bytes: Some(MSS as u32), receive_window_bytes: Some(BUFFER), ..spec };
        let cfg = TcpConfig::from_spec(&spec, "tcp").unwrap();
        let mut h = Harness { receiver: Receiver::new(&cfg), events: EventQueue::default(), out: vec![], now: 0 };
        let ecn = if spec.ecn == Some(true) { flags::ECE | flags::CWR } else { 0 };
        let syn = TcpHeader { flags: flags::SYN | ecn, ..Default::default() };
        let out = h.feed(&syn, Ecn::NotEct);
        assert!(out.len() == 1 && h.receiver.state == ReceiverState::Established);
        h
    }

    fn feed(&mut self, h: &TcpHeader, ecn: Ecn) -> Vec<Outgoing> {
        let start = self.out.len();
        let mut ctx = Ctx { now: self.now, conn: 0, subflow: 0, events: &mut self.events, out: &mut self.out };
        self.receiver.on_packet(h, ecn, &mut ctx);
        self.out[start..].to_vec()
    }

    /// Feeds data segment `k` (with CE if `ce`); returns the ACKs sent at once.
    fn segment(&mut self, k: u64, ce: bool, cwr: bool) -> Vec<AckSeen> {
        let f = flags::ACK | if cwr { flags::CWR } else { 0 };
        let h = TcpHeader { seq: seg_start(k), ack: 1, len: MSS as u32, flags: f, ..Default::default() };
        let out = self.feed(&h, if ce { Ecn::Ce } else { Ecn::Ect0 });
        out.iter().map(seen).collect()
    }

    /// Runs delayed-ACK timer events until one sends an ACK (a cancelled timer's stale event
    /// fires silently); returns its time and ACKs.
    fn fire_timer(&mut self) -> (Time, Vec<AckSeen>) {
        loop {
            let ev = self.events.pop_until(Time::MAX).expect("a timer is armed");
            self.now = ev.time;
            assert!(matches!(ev.kind, EventKind::Tcp { timer: TcpTimer::DelayedAck, .. }));
            let start = self.out.len();
            let mut ctx = Ctx { now: self.now, conn: 0, subflow: 0, events: &mut self.events, out: &mut self.out };
            self.receiver.on_timer(TcpTimer::DelayedAck, &mut ctx);
            if self.out.len() > start {
                return (ev.time, self.out[start..].iter().map(seen).collect());
            }
        }
    }
}

fn seen(o: &Outgoing) -> AckSeen {
    let to_seg = |seq: u64| (seq - 1) / MSS + 1;
    AckSeen {
        next: to_seg(o.tcp.ack),
        sack: o.tcp.sack[..o.tcp.sack_blocks as usize].iter().map(|&(l, r)| (to_seg(l), to_seg(r) - 1)).collect(),
        window: o.tcp.window,
        ece: o.tcp.has(flags::ECE),
    }
}

fn spec(profile: TcpProfile, sack: bool) -> TcpSpec {
    TcpSpec { profile, sack: Some(sack), ..Default::default() }
}

fn ack(next: u64, sack: &[(u64, u64)], window: u64) -> AckSeen {
    AckSeen { next, sack: sack.to_vec(), window, ece: false }
}

/// RFC 5681 §4.2: in-order data is acknowledged every second segment, or when the delayed-ACK
/// timer (200 ms in the `rfc` profile) expires for a lone segment.
#[test]
fn delayed_acks_every_second_segment_or_at_the_timeout() {
    let mut h = Harness::new(spec(TcpProfile::Rfc, false));
    assert_eq!(h.segment(1, false, false), vec![]);
    assert_eq!(h.segment(2, false, false), vec![ack(3, &[], BUFFER)]);
    h.now = from_secs(1.0);
    assert_eq!(h.segment(3, false, false), vec![]);
    let (at, acks) = h.fire_timer();
    assert_eq!((at, acks), (from_secs(1.2), vec![ack(4, &[], BUFFER)]));
    assert_eq!(h.receiver.bytes_delivered(), 3 * MSS);
}

/// RFC 5681 §4.2 and RFC 2018 §4: segments 1, 3, 4, 6 and 8 arrive. Each out-of-order
/// segment is acknowledged at once (a duplicate ACK for 2) with SACK blocks, the block of the
/// segment that triggered the ACK first and the others highest first; the window shrinks by the bytes held.
/// Segment 2 then fills the first hole: an immediate ACK for 5 with the two blocks left.
#[test]
fn out_of_order_segments_give_sack_blocks_latest_first_and_a_smaller_window() {
    let mut h = Harness::new(spec(TcpProfile::Ns2, true));
    assert_eq!(h.segment(1, false, false), vec![ack(2, &[], BUFFER)]); // ns2: no delayed ACKs
    assert_eq!(h.segment(3, false, false), vec![ack(2, &[(3, 3)], BUFFER - MSS)]);
    assert_eq!(h.segment(4, false, false), vec![ack(2, &[(3, 4)], BUFFER - 2 * MSS)]);
    assert_eq!(h.segment(6, false, false), vec![ack(2, &[(6, 6), (3, 4)], BUFFER - 3 * MSS)]);
    assert_eq!(h.segment(8, false, false), vec![ack(2, &[(8, 8), (6, 6), (3, 4)], BUFFER - 4 * MSS)]);
    // A second copy of 3 is acknowledged at once, and its block comes first: RFC 2018 §4, the
    // first block holds the segment that triggered the ACK.
    assert_eq!(h.segment(3, false, false), vec![ack(2, &[(3, 4), (8, 8), (6, 6)], BUFFER - 4 * MSS)]);
    // A second copy of 1 (below rcv_nxt) is a duplicate: the blocks keep their order.
    assert_eq!(h.segment(1, false, false), vec![ack(2, &[(3, 4), (8, 8), (6, 6)], BUFFER - 4 * MSS)]);
    assert_eq!(h.segment(2, false, false), vec![ack(5, &[(8, 8), (6, 6)], BUFFER - 2 * MSS)]);
    assert_eq!(h.segment(7, false, false), vec![ack(5, &[(6, 8)], BUFFER - 3 * MSS)]);
    assert_eq!(h.segment(5, false, false), vec![ack(9, &[], BUFFER)]);
    assert_eq!(h.receiver.stats.duplicate_packets, 1);
    assert_eq!(h.receiver.bytes_delivered(), 8 * MSS);
}

/// Without SACK the same arrivals give bare duplicate ACKs.
#[test]
fn without_sack_out_of_order_data_gives_bare_duplicate_acks() {
    let mut h = Harness::new(spec(TcpProfile::Ns2, false));
    h.segment(1, false, false);
    assert_eq!(h.segment(3, false, false), vec![ack(2, &[], BUFFER - MSS)]);
    assert_eq!(h.segment(2, false, false), vec![ack(4, &[], BUFFER)]);
}

/// RFC 3168 §6.1.3: after a CE mark every ACK carries ECE until a segment with CWR arrives.
#[test]
fn ece_is_latched_from_a_ce_mark_until_cwr() {
    let mut h = Harness::new(TcpSpec { ecn: Some(true), ..spec(TcpProfile::Ns2, false) });
    assert!(!h.segment(1, false, false)[0].ece);
    assert!(h.segment(2, true, false)[0].ece);
    assert!(h.segment(3, false, false)[0].ece);
    assert!(!h.segment(4, false, true)[0].ece);
    assert!(!h.segment(5, false, false)[0].ece);
}
