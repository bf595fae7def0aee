//! Hand-worked traces of NewReno, Reno and Tahoe and of ns-2.35's loss responses (the `ns2`
//! profile): ssthresh from cwnd, a reduction on every timeout, Reno's one fast retransmit per window.

use super::*;

/// RFC 6582 §3.2 by hand: cwnd 20, 20 segments out, segments 1 and 5 lost. Segments 2–4 and
/// 6–20 arrive, producing 18 duplicate ACKs for segment 1.
#[test]
fn newreno_partial_ack_trace() {
    let mut h = Harness::new(ns2("newreno"), 20.0);
    assert_eq!(h.ack(1, &[], false), Vec::<u64>::new()); // dupack 1
    h.ack(1, &[], false); // dupack 2
                          // 3rd dupack: ssthresh = FlightSize/2 = 10, cwnd = 10 + 3 = 13, retransmit segment 1.
    assert_eq!(h.ack(1, &[], false), vec![1]);
    assert_eq!((h.ssthresh(), h.cwnd()), (10.0, 13.0));
    // Dupacks 4..18 inflate cwnd to 28; once cwnd exceeds the 20 segments outstanding,
    // each dupack releases one new segment: 21..28.
    let mut new = vec![];
    for _ in 4..=18 {
        new.extend(h.ack(1, &[], false));
    }
    assert_eq!(h.cwnd(), 28.0);
    assert_eq!(new, (21..=28).collect::<Vec<_>>());
    // Partial ACK for 1–4: retransmit 5; cwnd = 28 − 4 + 1 = 25; 24 outstanding, so one
    // new segment (29) fits.
    assert_eq!(h.ack(5, &[], false), vec![5, 29]);
    assert_eq!(h.cwnd(), 25.0);
    assert_eq!(h.sender.stats.fast_retransmits, 1);
    // The full ACK (everything through 28, beyond recover = end of 20): cwnd = ssthresh.
    h.ack(29, &[], false);
    assert_eq!(h.cwnd(), 10.0);
    assert_eq!(h.sender.stats.retransmissions, 2);
}

/// The same losses under Reno: the partial ACK ends recovery (cwnd = ssthresh = 10), and
/// segment 5 needs three more duplicate ACKs and a second halving (RFC 5681 Reno, without
/// ns-2's `bugFix_`); returns (ssthresh, cwnd) after that second fast retransmit.
fn reno_second_fast_retransmit(rule: SsthreshRuleSpec) -> (f64, f64) {
    let spec = TcpSpec { ssthresh_rule: Some(rule), reno_bug_fix: Some(false), ..ns2("reno") };
    let mut h = Harness::new(spec, 20.0);
    for _ in 1..=18 {
        h.ack(1, &[], false);
    }
    assert_eq!(h.cwnd(), 28.0);
    // The partial ACK deflates to ssthresh; 24 segments (5..28) are outstanding > 10: nothing sent.
    assert_eq!(h.ack(5, &[], false), Vec::<u64>::new());
    assert_eq!(h.cwnd(), 10.0);
    // Segments 21..28 arrive after the hole at 5: duplicate ACKs for 5; the third resends 5.
    h.ack(5, &[], false);
    h.ack(5, &[], false);
    assert_eq!(h.ack(5, &[], false), vec![5]);
    assert_eq!(h.sender.stats.fast_retransmits, 2);
    (h.ssthresh(), h.cwnd())
}

#[test]
fn reno_exits_at_the_partial_ack_and_halves_again() {
    // RFC 5681 eq. 4 halves the FlightSize, 24 segments: ssthresh 12, cwnd 12 + 3 = 15.
    assert_eq!(reno_second_fast_retransmit(SsthreshRuleSpec::FlightSize), (12.0, 15.0));
    // ns-2's slowdown() halves cwnd, 10 segments: ssthresh 5, cwnd 5 + 3 = 8.
    assert_eq!(reno_second_fast_retransmit(SsthreshRuleSpec::Cwnd), (5.0, 8.0));
}

/// ns-2's Reno with `bugFix_` (`reno_bug_fix`): the duplicate ACKs for 5 do not start a second
/// fast retransmit, since the ACK (5) has not passed the data outstanding at the first (through 20);
/// segment 5 waits for the timer.
#[test]
fn ns2_reno_bug_fix_allows_one_fast_retransmit_per_window() {
    let mut h = Harness::new(TcpSpec { reno_bug_fix: Some(true), ..ns2("reno") }, 20.0);
    for _ in 1..=18 {
        h.ack(1, &[], false);
    }
    assert_eq!(h.ack(5, &[], false), Vec::<u64>::new());
    for _ in 0..3 {
        assert_eq!(h.ack(5, &[], false), Vec::<u64>::new());
    }
    assert_eq!((h.sender.stats.fast_retransmits, h.ssthresh(), h.cwnd()), (1, 10.0, 10.0));
}

/// A 14-segment transfer with an initial window of 20: cwnd 20, 14 segments and the FIN (one
/// sequence number) in flight. Segment 1 is lost and 2–4 arrive: the third duplicate ACK takes
/// ssthresh from 20 / 2 = 10 under ns-2's rule (`tcp.cc` `slowdown()`) and from the FlightSize,
/// 14.001 / 2 = 7.0005, under RFC 5681 §3.1 eq. 4; cwnd = ssthresh + 3.
#[test]
fn ssthresh_halves_cwnd_under_ns2_and_the_flight_size_under_rfc_5681() {
    for (rule, expected) in [(SsthreshRuleSpec::Cwnd, 10.0), (SsthreshRuleSpec::FlightSize, 7.0005)] {
        let spec = TcpSpec { ssthresh_rule: Some(rule), ..ns2("newreno") };
        let mut h = Harness::transfer(spec, 20.0, Some(14 * MSS));
        assert_eq!((h.cwnd(), h.sender.in_flight()), (20.0, 14 * MSS + 1));
        h.ack(1, &[], false);
        h.ack(1, &[], false);
        assert_eq!(h.ack(1, &[], false), vec![1]);
        assert!((h.ssthresh() - expected).abs() < 1e-9, "{rule:?}: {}", h.ssthresh());
        assert!((h.cwnd() - (expected + 3.0)).abs() < 1e-9, "{rule:?}: {}", h.cwnd());
    }
}

/// A timeout during the fast recovery of the trace above (cwnd 20, 14 out, ssthresh 10, cwnd
/// inflated to 13 + 2 = 15 by two more duplicate ACKs). ns-2 (`timeout()` → `slowdown()` on
/// every timeout) halves its un-inflated cwnd_ = min(ssthresh, cwnd) = 10 again: ssthresh 5.
/// With the once-per-window guard (Linux `tcp_enter_loss`) ssthresh stays 10. cwnd is 1 in both.
#[test]
fn a_timeout_in_fast_recovery_halves_again_only_without_the_once_per_window_guard() {
    for (every_timeout, expected) in [(true, 5.0), (false, 10.0)] {
        let spec = TcpSpec {
            ssthresh_rule: Some(SsthreshRuleSpec::Cwnd),
            ssthresh_on_every_timeout: Some(every_timeout),
            ..ns2("newreno")
        };
        let mut h = Harness::transfer(spec, 20.0, Some(14 * MSS));
        for _ in 1..=5 {
            h.ack(1, &[], false);
        }
        assert_eq!((h.ssthresh(), h.cwnd()), (10.0, 15.0));
        assert_eq!(h.time_out(), vec![1]);
        assert_eq!((h.ssthresh(), h.cwnd()), (expected, 1.0), "every timeout: {every_timeout}");
    }
}

/// The `ns2` profile takes ns-2.35's loss response without being told: in the fast recovery of the
/// trace above (cwnd 20, 14 out) the third duplicate ACK halves cwnd (ssthresh 10, not the flight's
/// 7.0005) and the timeout halves again (5); Reno allows one fast retransmit per window (the
/// duplicate ACKs for 5 after the partial ACK start none).
#[test]
fn the_ns2_profile_responds_to_loss_as_ns2_does() {
    let mut h = Harness::transfer(ns2("newreno"), 20.0, Some(14 * MSS));
    for _ in 1..=5 {
        h.ack(1, &[], false);
    }
    assert_eq!((h.ssthresh(), h.cwnd()), (10.0, 15.0));
    assert_eq!(h.time_out(), vec![1]);
    assert_eq!((h.ssthresh(), h.cwnd()), (5.0, 1.0));
    let mut h = Harness::new(ns2("reno"), 20.0);
    for _ in 1..=18 {
        h.ack(1, &[], false);
    }
    for _ in 0..4 {
        assert_eq!(h.ack(5, &[], false), Vec::<u64>::new());
    }
    assert_eq!(h.sender.stats.fast_retransmits, 1);
}

/// The `ns2` profile runs ns-2's Vegas agent (`tcp-vegas.cc`): the third duplicate ACK cuts the window
/// of 20 by a quarter, to 15 (cwnd 15 + 3), recovery is Reno's, and a timeout restarts from 2 segments
/// with ssthresh half the window. Other profiles run Linux's structure; `classic_diff` is Linux's only.
#[test]
fn the_ns2_profile_runs_ns2s_vegas() {
    let cfg = TcpConfig::from_spec(&ns2("vegas"), "tcp").unwrap();
    assert_eq!(cfg.recovery, crate::tcp::Recovery::Reno);
    let mut h = Harness::transfer(ns2("vegas"), 20.0, Some(60 * MSS));
    for _ in 1..=3 {
        h.ack(1, &[], false);
    }
    assert_eq!((h.ssthresh(), h.cwnd()), (15.0, 18.0));
    assert_eq!(h.time_out(), vec![1, 2]);
    assert_eq!((h.ssthresh(), h.cwnd()), (7.5, 2.0));
    let linux = TcpSpec { profile: TcpProfile::Rfc, ..ns2("vegas") };
    assert_eq!(TcpConfig::from_spec(&linux, "tcp").unwrap().recovery, crate::tcp::Recovery::NewReno);
    let classic = serde_json::from_str(r#"{"type": "vegas", "classic_diff": true}"#).unwrap();
    let err = TcpConfig::from_spec(&TcpSpec { congestion_control: Some(classic), ..ns2("vegas") }, "tcp").unwrap_err();
    assert!(err.to_string().contains("tcp.congestion_control"), "{err}");
}

/// Tahoe: the third duplicate ACK sets ssthresh 10 and cwnd 1 and goes back to snd_una.
#[test]
fn tahoe_slow_starts_from_one_segment_and_goes_back_n() {
    let mut h = Harness::new(ns2("tahoe"), 20.0);
    h.ack(1, &[], false);
    h.ack(1, &[], false);
    assert_eq!(h.ack(1, &[], false), vec![1]);
    assert_eq!((h.ssthresh(), h.cwnd()), (10.0, 1.0));
    // Later duplicate ACKs change nothing (no fast recovery).
    for _ in 4..=18 {
        assert_eq!(h.ack(1, &[], false), Vec::<u64>::new());
    }
    // The retransmitted 1 fills the first hole: ACK for 1–4; slow start, cwnd 2, and
    // go-back-N resends from snd_una: 5 and 6 (6 was not lost but Tahoe does not know).
    assert_eq!(h.ack(5, &[], false), vec![5, 6]);
    assert_eq!(h.cwnd(), 2.0);
}

/// ns-2.35 `tcp.cc` `ecn()` → `slowdown(CLOSE_CWND_HALF | CLOSE_SSTHRESH_HALF)` with
/// `precisionReduce_` true: cwnd 3 becomes 1.5 (ssthresh int(1.5) = 1, raised to 2), so with
/// segment 3 still out nothing is sent; RFC 3168 §6.1.2 sets cwnd to the new ssthresh, 2, which
/// sends segment 4.
#[test]
fn an_ecn_echo_halves_cwnd_below_two_segments_only_with_ecn_halve_cwnd() {
    for (halve, cwnd, sent) in [(true, 1.5, vec![]), (false, 2.0, vec![4])] {
        let spec = TcpSpec { ecn: Some(true), ecn_halve_cwnd: Some(halve), ..ns2("reno") };
        let spec = TcpSpec { mss_bytes: Some(MSS as u32), initial_window_segments: Some(3.0), ..spec };
        // Segments 1–3 go out.
        let mut h = after_ecn_setup(&spec);
        // The ACK of segments 1 and 2 carries ECN-Echo.
        assert_eq!(h.ack(3, &[], true), sent, "ecn_halve_cwnd {halve}");
        assert_eq!((h.ssthresh(), h.cwnd()), (2.0, cwnd), "ecn_halve_cwnd {halve}");
        assert_eq!(h.sender.stats.ecn_reductions, 1);
    }
}

/// A sender opened with an ECN-setup SYN-ACK (RFC 3168 §6.1.1) at 0.1 s, its initial window sent.
fn after_ecn_setup(spec: &TcpSpec) -> Harness {
    let cfg = TcpConfig::from_spec(spec, "tcp").unwrap();
    let group = Group::single(&cfg, None);
    let mut h =
        Harness { sender: Sender::new(&cfg, &group, 0), group, events: EventQueue::default(), out: vec![], now: 0 };
    h.with_ctx(|s, ctx, _| s.connect(ctx));
    let syn_ack =
        TcpHeader { ack: 1, flags: flags::SYN | flags::ACK | flags::ECE, window: 1 << 30, ..Default::default() };
    h.now = from_secs(0.1);
    h.with_ctx(|s, ctx, g| s.on_packet(&syn_ack, ctx, g));
    h
}

/// ns-2.35 `ecn()` at one segment: initial window 1, the ACK of segment 1 carries ECN-Echo, so cwnd
/// 1 becomes 0.5 (`slowdown()` has no floor), `window()` = int(0.5) = 0 and nothing is sent;
/// `newtimer()` arms the timer (segment 1's 100 ms sample after the SYN-ACK's: SRTT 100 ms, RTTVAR
/// 3/4·50 = 37.5 ms, RTO 100 + 150 = 250 ms), and
/// `timeout()` with nothing outstanding sets cwnd 1, keeps ssthresh 2 and sends segment 2 without
/// counting a timeout or backing off. With the one-segment floor segment 2 goes at once.
#[test]
fn an_ecn_echo_at_one_segment_waits_for_the_timer_with_ecn_cwnd_below_one() {
    for below_one in [true, false] {
        let spec = TcpSpec { ecn: Some(true), ecn_cwnd_below_one: Some(below_one), ..ns2("reno") };
        let spec = TcpSpec { mss_bytes: Some(MSS as u32), initial_window_segments: Some(1.0), ..spec };
        let mut h = after_ecn_setup(&spec);
        h.now = from_secs(0.2);
        if below_one {
            assert_eq!(h.ack(2, &[], true), Vec::<u64>::new());
            assert_eq!((h.ssthresh(), h.cwnd()), (2.0, 0.5));
            // The timer of segment 1, re-armed by the ACK, leaves a stale event at 0.4 s.
            assert_eq!((h.fire_timer(), h.now), (vec![], from_secs(0.4)));
            assert_eq!(h.fire_timer(), vec![2]);
            assert_eq!(h.now, from_secs(0.45));
            assert_eq!((h.ssthresh(), h.cwnd(), h.sender.stats.timeouts), (2.0, 1.0, 0));
            // Not backed off: segment 2's own timer runs 250 ms, to 0.7 s.
            assert_eq!(h.fire_timer(), vec![2]);
            assert_eq!(h.now, from_secs(0.7));
        } else {
            assert_eq!(h.ack(2, &[], true), vec![2]);
            assert_eq!((h.ssthresh(), h.cwnd()), (2.0, 1.0));
        }
    }
}

/// The `ns2` profile halves cwnd after an ECN-Echo as ns-2.35 does; DCTCP keeps its own reduction.
#[test]
fn the_ns2_profile_halves_cwnd_on_ecn_echo() {
    let cfg = TcpConfig::from_spec(&TcpSpec { ecn: Some(true), ..ns2("reno") }, "tcp").unwrap();
    assert!(cfg.ecn_halve_cwnd);
    let rfc = TcpSpec { ecn: Some(true), ..Default::default() };
    assert!(!TcpConfig::from_spec(&rfc, "tcp").unwrap().ecn_halve_cwnd);
    assert!(!TcpConfig::from_spec(&ns2("dctcp"), "tcp").unwrap().ecn_halve_cwnd);
}

/// ns-2.35's `send_one()` after a timeout: segments 1–4 out, the timer fires (cwnd 1, segment 1
/// resent); the first and second duplicate ACK each let one more segment out, 2 then 3, the
/// next of the go-back-N resend, as `t_seqno_` points there. RFC 3042 sends only new data, so
/// without `limited_transmit_after_timeout` they send nothing.
#[test]
fn limited_transmit_after_a_timeout_continues_the_go_back_n_resend_only_as_ns2_does() {
    for (after, first, second) in [(true, vec![2], vec![3]), (false, vec![], vec![])] {
        let spec = TcpSpec { limited_transmit: Some(true), limited_transmit_after_timeout: Some(after), ..ns2("reno") };
        let mut h = Harness::new(spec, 4.0);
        assert_eq!(h.fire_timer(), vec![1]);
        assert_eq!(h.cwnd(), 1.0);
        assert_eq!(h.ack(1, &[], false), first, "after {after}");
        assert_eq!(h.ack(1, &[], false), second, "after {after}");
        assert_eq!(h.sender.stats.fast_retransmits, 0);
    }
}

/// ns-2.35's window after fast recovery by hand (NewReno, cwnd 7.5, segments 1–7 out, segment 1
/// lost, 2–7 arrive: six duplicate ACKs, then the retransmission's full ACK).
/// `precision_reduce` (`slowdown()` with `precisionReduce_`) halves 7.5 with its fraction: 3.75,
/// ssthresh ⌊3.75⌋ = 3, cwnd 3.75 + 3 = 6.75; without it half of ⌊7.5⌋ = 3.5 is both, cwnd 6.5.
/// Duplicate ACKs 5 and 6 (cwnd 8.x, 9.x) release segments 8 and 9. The full ACK leaves cwnd at the
/// half (3.75 or 3.5); `grow_on_recovery_exit` (`recv_newack_helper()` → `opencwnd()`) adds one
/// congestion-avoidance step, 1/cwnd: 3.75 + 1/3.75 = 4.0167 (two segments fit beside 8 and 9)
/// or 3.5 + 1/3.5 = 3.7857 (one).
#[test]
fn precision_reduce_keeps_the_fraction_and_the_exit_ack_grows_the_window() {
    let cases = [
        (false, false, (3.5, 6.5), 3.5, vec![10]),
        (true, false, (3.0, 6.75), 3.75, vec![10]),
        (false, true, (3.5, 6.5), 3.5 + 1.0 / 3.5, vec![10]),
        (true, true, (3.0, 6.75), 3.75 + 1.0 / 3.75, vec![10, 11]),
    ];
    for (precise, grow, at_retransmit, after, sent) in cases {
        let spec = TcpSpec { precision_reduce: Some(precise), grow_on_recovery_exit: Some(grow), ..ns2("newreno") };
        let mut h = Harness::new(spec, 7.5);
        h.ack(1, &[], false);
        h.ack(1, &[], false);
        assert_eq!(h.ack(1, &[], false), vec![1], "{precise} {grow}");
        assert_eq!((h.ssthresh(), h.cwnd()), at_retransmit, "{precise} {grow}");
        let released: Vec<u64> = (4..=6).flat_map(|_| h.ack(1, &[], false)).collect();
        assert_eq!(released, vec![8, 9], "{precise} {grow}");
        assert_eq!(h.ack(8, &[], false), sent, "{precise} {grow}");
        assert!((h.cwnd() - after).abs() < 1e-12, "{precise} {grow}: cwnd {}", h.cwnd());
        assert_eq!(h.ssthresh(), at_retransmit.0, "{precise} {grow}");
    }
}

/// ns-2.35's TCP-Linux agent finds a lost retransmission by the data sent after it
/// (`scoreboard1.cc`; `validation/ns2/lost_retransmission.tcl` shows it in ns-2.35: packet 1 resent
/// at 24.998 ms with packets up to 24 sent, dropped again, resent a third time at 47.533 ms, when
/// the SACK of packet 25, the first sent after the retransmission, arrives: its send time
/// 26.662 ms + 0.832 ms on the 10 Mb/s link + 10 ms + 0.038 ms for the 48-byte ACK + 10 ms;
/// ssthresh_ stays 10, no timeout).
///
/// Here: SACK recovery, cwnd 20, segments 1–20 out, segment 1 lost. The third duplicate ACK
/// (2–4 SACKed) retransmits 1 with snd.max at the end of 20: ssthresh = cwnd = 10, pipe 17.
/// SACKs of 5..=20 lower the pipe by one each; from k = 12 (pipe 9) each sends one new
/// segment, 21..=29. The retransmission of 1 is lost too. The ACK that SACKs 21, the first
/// segment sent after it, shows that: 1 leaves the pipe (29 out − 20 SACKed − 1 lost + 0
/// retransmissions in flight = 8), so two segments go, 1 (NextSeg rule 1) and new 30; the
/// window is unchanged (cwnd = ssthresh = 10, no second reduction in the same recovery). Without
/// the rule the pipe is 9: only 30 goes, and 1 waits for the retransmission timer.
#[test]
fn a_lost_retransmission_is_resent_once_data_sent_after_it_is_sacked() {
    for (rule, sent) in [(true, vec![1, 30]), (false, vec![30])] {
        let spec = TcpSpec { sack: Some(true), mark_lost_retransmissions: Some(rule), ..ns2("newreno") };
        let mut h = Harness::new(spec, 20.0);
        h.ack(1, &[(2, 2)], false);
        h.ack(1, &[(2, 3)], false);
        assert_eq!(h.ack(1, &[(2, 4)], false), vec![1]);
        assert_eq!((h.ssthresh(), h.cwnd()), (10.0, 10.0));
        let new: Vec<u64> = (5..=20).flat_map(|k| h.ack(1, &[(2, k)], false)).collect();
        assert_eq!(new, (21..=29).collect::<Vec<_>>(), "rule {rule}");
        assert_eq!(h.ack(1, &[(2, 21)], false), sent, "rule {rule}");
        assert_eq!((h.ssthresh(), h.cwnd()), (10.0, 10.0), "rule {rule}");
        if rule {
            // The third copy of 1 arrives: everything through 29 is acknowledged, beyond the
            // recovery point (20), so recovery ends with cwnd = ssthresh, without a timeout.
            h.ack(30, &[], false);
            assert_eq!((h.ssthresh(), h.cwnd()), (10.0, 10.0));
            assert_eq!((h.sender.stats.retransmissions, h.sender.stats.timeouts), (2, 0));
        } else {
            assert_eq!(h.time_out(), vec![1]);
        }
    }
}

/// ns-2.35's second test (`rtx_id` + dupthresh + 1 < `acked_rtx_id_`): a retransmission is lost
/// once one sent more than dupthresh + 1 = 4 retransmissions after it is acknowledged, even when
/// no new data was sent after it. cwnd 20, segments 1–20 out, 1–6 lost, 7–20 arrive (14
/// SACKs). The third (7–9 SACKed) enters recovery, ssthresh = cwnd = 10, and retransmits 1
/// (serial 1); 1–6 are lost (each has three SACKed segments above it), so the pipe is
/// 20 − 3 SACKed − 6 lost + 1 = 12. Each further SACK (of k = 10..=20) lowers it by one; from
/// k = 12 (pipe 9) each sends one segment: 2, 3, 4, 5, 6 (serials 2–6) at k = 12..=16, then new
/// 21..=24 at k = 17..=20. The retransmissions of 2–6 arrive and the first of them to be SACKed with a
/// serial above 1 + 4 = 5, that of 6, marks 1's as lost: it is resent at once (pipe falls from
/// 10 to 8 when 6 is SACKed and 1 leaves it; two go, 1 and new 25), with no data sent after it
/// SACKed yet. The SACKs of 2–5 (serials 2–5) are not enough.
#[test]
fn a_lost_retransmission_is_resent_once_a_retransmission_four_later_is_acknowledged() {
    let spec = TcpSpec { sack: Some(true), mark_lost_retransmissions: Some(true), ..ns2("newreno") };
    let mut h = Harness::new(spec, 20.0);
    h.ack(1, &[(7, 7)], false);
    h.ack(1, &[(7, 8)], false);
    assert_eq!(h.ack(1, &[(7, 9)], false), vec![1]);
    assert_eq!((h.ssthresh(), h.cwnd()), (10.0, 10.0));
    let sent: Vec<u64> = (10..=20).flat_map(|k| h.ack(1, &[(7, k)], false)).collect();
    assert_eq!(sent, vec![2, 3, 4, 5, 6, 21, 22, 23, 24]);
    // The resent 2–5 arrive (1's retransmission was dropped): the pipe falls by one each and
    // one new segment goes each time.
    for k in 2..=5 {
        assert_eq!(h.ack(1, &[(2, k), (7, 20)], false), vec![23 + k]);
    }
    // 6's retransmission (serial 6 > 1 + 4) is SACKed: 1's is lost.
    assert_eq!(h.ack(1, &[(2, 20)], false), vec![1, 29]);
    assert_eq!(h.cwnd(), 10.0);
    assert_eq!(h.sender.stats.timeouts, 0);
}

/// The `ns2` profile follows ns-2's TCP-Linux agent for BIC and CUBIC only: lost retransmissions
/// found by SACK and the timer restarted on every ACK.
#[test]
fn the_ns2_profile_applies_the_linux_agents_rules_to_bic_and_cubic() {
    let resolved = |spec: TcpSpec| {
        let cfg = TcpConfig::from_spec(&spec, "tcp").unwrap();
        assert_eq!(cfg.mark_lost_retransmissions, cfg.rto_restart_on_every_ack);
        cfg.mark_lost_retransmissions
    };
    assert!(resolved(ns2("bic")));
    assert!(resolved(ns2("cubic")));
    assert!(!resolved(ns2("newreno")));
    assert!(!resolved(TcpSpec { profile: TcpProfile::Linux, ..ns2("cubic") }));
}

/// ns-2.35's TCP-Linux agent restarts the retransmission timer on every ACK, duplicates included
/// (`tcp-linux.cc` `time_processing()`); RFC 6298 §5.3 restarts it only when new data is
/// acknowledged. In ns-2.35 (`validation/ns2/lost_retransmission.tcl bic "1 20" 1Mb 20`: 20
/// packets on a 1 Mb/s link, packet 1 and its retransmission lost, no data after it) the last
/// duplicate ACK arrives at 0.186464 s and the timer fires at 0.386464 s, minrto_ 0.2 s later;
/// the Sack1 agent's fires 0.2 s after its retransmission (0.061664 → 0.261664 s).
///
/// Here: the SYN's RTT of 0.1 s gives RTO = 0.1 + 4 · 0.05 = 0.3 s; segments 1–4 go at 0.1 s and
/// arm the timer for 0.4 s. Duplicate ACKs (2, then 2–3 SACKed: below DupThresh) at 0.2 and
/// 0.3 s move it to 0.6 s with the rule; without it, it fires at 0.4 s.
#[test]
fn every_ack_restarts_the_timer_only_with_rto_restart_on_every_ack() {
    for (rule, fires_at) in [(true, 0.6), (false, 0.4)] {
        let spec = TcpSpec { sack: Some(true), rto_restart_on_every_ack: Some(rule), ..ns2("newreno") };
        let mut h = Harness::new(spec, 4.0);
        h.now = from_secs(0.2);
        h.ack(1, &[(2, 2)], false);
        h.now = from_secs(0.3);
        h.ack(1, &[(2, 3)], false);
        assert_eq!(h.time_out(), vec![1], "rule {rule}");
        assert_eq!(h.now, from_secs(fires_at), "rule {rule}");
        assert_eq!(h.sender.stats.timeouts, 1);
    }
}
