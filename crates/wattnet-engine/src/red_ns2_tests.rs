//! The rules of the `ns2` RED preset, each against hand-worked numbers and the ns-2.35 runs of
//! `validation/ns2/red_rules.tcl` (their output in `validation/ns2/red_rules.txt`).

use super::*;
use crate::rng::{domain, stream};

fn red(json: &str) -> Red {
    let spec: QueueSpec = serde_json::from_str(json).expect("valid spec");
    Red::from_spec(&spec, "q", stream(1, domain::QUEUE, 0)).expect("valid RED")
}

/// A burst of `n` packets of `size` bytes into an idle link, all arriving while the first is
/// still in service: how many the queue accepts.
fn burst(red: &mut Red, n: u32, size: u32) -> u32 {
    let mut state = QueueState { rate_bps: 1_000_000, ..QueueState::default() };
    let mut accepted = 0;
    for _ in 0..n {
        let admission = red.admit(&state, Arrival { now: 0, size_bytes: size, ecn: Ecn::NotEct });
        if admission == Admission::Enqueue {
            accepted += 1;
            if state.in_service_bytes.is_none() {
                state.in_service_bytes = Some(size);
            } else {
                state.waiting_packets += 1;
                state.waiting_bytes += size as u64;
            }
        }
    }
    accepted
}

fn held(waiting_packets: u32, size: u32) -> QueueState {
    QueueState {
        waiting_packets,
        waiting_bytes: waiting_packets as u64 * size as u64,
        in_service_bytes: Some(size),
        last_tx_end: 0,
        rate_bps: 1_000_000,
    }
}

#[test]
fn the_preset_resolves_each_rule_and_a_field_overrides_it() {
    let ns2 = red(r#"{"type": "red", "preset": "ns2", "min_th": 5, "max_th": 15, "limit_packets": 50}"#);
    assert!(!ns2.buffer.count_in_service && ns2.buffer.admit_below && ns2.early_needs_backlog);
    assert_eq!((ns2.count_rule, ns2.count_bytes, ns2.mark_p), (RedCountRule::Ns2, true, Some(0.1)));
    let plain = red(r#"{"type": "red", "min_th": 5, "max_th": 15, "limit_packets": 50}"#);
    assert!(plain.buffer.count_in_service && !plain.buffer.admit_below && !plain.early_needs_backlog);
    assert_eq!((plain.count_rule, plain.count_bytes, plain.mark_p), (RedCountRule::Floyd, false, None));
    let mixed = red(r#"{"type": "red", "preset": "ns2", "min_th": 5, "max_th": 15, "limit_packets": 50,
            "count_in_service": true, "count_bytes": false, "use_mark_p": false, "count_rule": "floyd"}"#);
    assert!(mixed.buffer.count_in_service && mixed.early_needs_backlog);
    assert_eq!((mixed.count_rule, mixed.count_bytes, mixed.mark_p), (RedCountRule::Floyd, false, None));
}

#[test]
fn byte_buffer_admits_while_the_bytes_waiting_are_below_the_limit() {
    // ns-2.35 (red_rules.txt, buffer-bytes): limit_ 50 × mean_pktsize_ 500 = 25 000 B, a burst of
    // 100 packets of 1040 B: 26 accepted. By hand: one in service, then 0, 1040, …, 24 960 B
    // waiting are below 25 000 (25 more), and 26 000 is not. (The average stays below
    // 0.002·100·26 000 = 5200 B, under min_th.)
    let json = |extra: &str| {
        format!(
            r#"{{"type": "red", "preset": "ns2", "mode": "bytes", "min_th": 20000, "max_th": 40000,
                "limit_bytes": 25000{extra}}}"#
        )
    };
    assert_eq!(burst(&mut red(&json("")), 100, 1040), 26);
    // A packet that must fit whole: 24 × 1040 = 24 960 B, and 24 960 + 1040 > 25 000: 25.
    assert_eq!(burst(&mut red(&json(r#", "admit_below_limit": false"#)), 100, 1040), 25);
    // buffer-packets: limit_ 50 packets wait besides the one in service, 51. (The average of
    // 100 arrivals stays below 0.002·100·50 = 10 packets, under min_th: only the buffer drops.)
    let packets = r#"{"type": "red", "preset": "ns2", "min_th": 45, "max_th": 49, "limit_packets": 50}"#;
    assert_eq!(burst(&mut red(packets), 100, 1040), 51);
    // buffer-droptail: ns-2's DropTail counts the packet in service, 50.
    let mut droptail = crate::queue::QueueDiscipline::drop_tail(Limit::Packets(50), true);
    let mut state = QueueState { rate_bps: 1_000_000, ..QueueState::default() };
    let mut accepted = 0;
    for _ in 0..100 {
        if droptail.admit(state, Arrival { now: 0, size_bytes: 1040, ecn: Ecn::NotEct }) == Admission::Enqueue {
            accepted += 1;
            match state.in_service_bytes {
                None => state.in_service_bytes = Some(1040),
                Some(_) => state.waiting_packets += 1,
            }
        }
    }
    assert_eq!(accepted, 50);
}

/// The backlog cases of red_rules.tcl: packets, w_q 1 (the average is the waiting queue before
/// the arrival), min_th 0.5, max_th 0.6, gentle and wait off, no byte counting.
fn backlog_case(extra: &str) -> u32 {
    let json = format!(
        r#"{{"type": "red", "preset": "ns2", "min_th": 0.5, "max_th": 0.6, "w_q": 1.0, "gentle": false,
            "wait": false, "count_bytes": false, "limit_packets": 50{extra}}}"#
    );
    burst(&mut red(&json), 10, 1040)
}

#[test]
fn no_early_signal_without_a_backlog_and_the_first_arrival_of_a_stretch_passes() {
    // ns-2.35 (backlog): 4 of 10 accepted. By hand: arrival 1 goes into service; 2 sees 0
    // waiting (avg 0, below); 3 sees 1 waiting (avg 1 ≥ min_th, but not more than one packet
    // waits); 4 sees 2 (the stretch starts: count 1, passes); 5 on: p_b = 1 (above max_th,
    // no forced branch with use_mark_p), count·p_b ≥ 1: dropped.
    assert_eq!(backlog_case(""), 4);
    // backlog-forced: without use_mark_p, arrival 4 is in the forced region: 3.
    assert_eq!(backlog_case(r#", "use_mark_p": false"#), 3);
    // Floyd's count with the backlog: arrival 4 decides with count 0, p_a = 1/(1 − 0) = 1: 3.
    assert_eq!(backlog_case(r#", "count_rule": "floyd""#), 3);
    // ns-2's count without the backlog: arrival 3 starts the stretch and passes, 4 drops: 3.
    assert_eq!(backlog_case(r#", "early_needs_backlog": false"#), 3);
    // Neither (Floyd & Jacobson): arrival 3 decides with count 0 and is dropped: 2.
    assert_eq!(backlog_case(r#", "early_needs_backlog": false, "count_rule": "floyd""#), 2);
}

/// Gaps (arrivals per early drop) with p_b = 0.05 held (w_q 1, 10 packets of `size` waiting,
/// min_th 5, max_th 15).
fn gaps(count_bytes: bool, size: u32, n: usize) -> Vec<usize> {
    let mut red = red(&format!(
        r#"{{"type": "red", "preset": "ns2", "min_th": 5, "max_th": 15, "w_q": 1.0, "count_bytes": {count_bytes},
            "limit_packets": 1000}}"#
    ));
    let mut out = Vec::new();
    let mut since = 0;
    for _ in 0..n {
        since += 1;
        if red.admit(&held(10, size), Arrival { now: 0, size_bytes: size, ecn: Ecn::NotEct }) == Admission::DropEarly {
            out.push(since);
            since = 0;
        }
    }
    out.remove(0); // the first gap starts at the stretch's first arrival
    out
}

#[test]
fn byte_count_spacing_follows_ns2s_modify_p() {
    // 1040 B packets, mean_pktsize 500: the k-th arrival after a drop has count ⌊2.08·k⌋ and
    // p = modify_p(0.05, count)·2.08. k ≤ 9: count ≤ 18, count·p_b < 1, never dropped;
    // k = 19: count 39, p = 0.05/(2 − 1.95)·2.08 > 1, always: every gap is 10 to 19 arrivals.
    let bytes = gaps(true, 1040, 400_000);
    assert_eq!((bytes.iter().min(), bytes.iter().max()), (Some(&10), Some(&19)));
    // The mean gap, summing P(gap ≥ k) over that law: 14.2352 arrivals; σ of the mean over
    // ~28 000 gaps (variance 7.33) is 0.016. ns-2.35 (spacing-bytes): 3366 drops of 48 077
    // arrivals, a gap of 14.28.
    let mean = bytes.iter().sum::<usize>() as f64 / bytes.len() as f64;
    assert!((mean - 14.2352).abs() < 0.07, "mean gap {mean}");
    // Counting packets (bytes_ false): uniform on 20..39, mean 29.5 (ns-2.35 spacing-packets:
    // 1618 of 48 077, 29.7).
    let packets = gaps(false, 1040, 400_000);
    assert_eq!((packets.iter().min(), packets.iter().max()), (Some(&20), Some(&39)));
    let mean = packets.iter().sum::<usize>() as f64 / packets.len() as f64;
    assert!((mean - 29.5).abs() < 0.15, "mean gap {mean}");
}

/// Decisions on ECN-capable arrivals with the average held at `waiting` packets.
fn ecn_decisions(waiting: u32, extra: &str) -> (usize, usize) {
    let mut red = red(&format!(
        r#"{{"type": "red", "preset": "ns2", "min_th": 5, "max_th": 15, "w_q": 1.0, "ecn": true,
            "count_bytes": false, "limit_packets": 1000{extra}}}"#
    ));
    let (mut marks, mut drops) = (0, 0);
    for _ in 0..20_000 {
        match red.admit(&held(waiting, 1040), Arrival { now: 0, size_bytes: 1040, ecn: Ecn::Ect0 }) {
            Admission::EnqueueMarked => marks += 1,
            Admission::DropEarly => drops += 1,
            _ => {}
        }
    }
    (marks, drops)
}

#[test]
fn ecn_marks_only_while_p_b_is_at_most_mark_p() {
    // avg 12: p_b = 0.1·7/10 = 0.07 ≤ mark_p 0.1: marks only (ns-2.35 mark-low: 288 marks, 0 drops).
    let (marks, drops) = ecn_decisions(12, "");
    assert!(marks > 0 && drops == 0, "{marks} marks, {drops} drops");
    // avg 20, gentle: p_b = 0.1 + 0.9·5/15 = 0.4 > 0.1: drops only (mark-high: 0 marks, 375 drops).
    let (marks, drops) = ecn_decisions(20, "");
    assert!(marks == 0 && drops > 0, "{marks} marks, {drops} drops");
    // The same with use_mark_p off marks (mark-high-nouse: 1000 marks, 0 drops).
    let (marks, drops) = ecn_decisions(20, r#", "use_mark_p": false"#);
    assert!(marks > 0 && drops == 0, "{marks} marks, {drops} drops");
    // With p_b = 0.4 held, wait: the gap after a signal is k with k·0.4 ≥ 1, so 3 (p = 0.4/(2 − 1.2)
    // = 0.5) or 4 (p = 0.4/(2 − 1.6) = 1): mean 3.5, 20 000/3.5 = 5714 signals (σ 11).
    let (_, drops) = ecn_decisions(20, "");
    assert!((5655..=5775).contains(&drops), "{drops}");
    // p_b at mark_p exactly still marks (ns-2.35: v_prob1 <= mark_p_): avg 15 is max_th, p_b 0.1.
    let (marks, drops) = ecn_decisions(15, "");
    assert!(marks > 0 && drops == 0, "{marks} marks, {drops} drops");
}

#[test]
fn without_the_forced_region_the_probability_reaches_one() {
    // avg 30 = 2·max_th: with use_mark_p p_b = 1 and every arrival after the stretch's first is
    // dropped (count 1: p = 1/(2 − 1) = 1), even ECN-capable ones.
    let mut red = red(r#"{"type": "red", "preset": "ns2", "min_th": 5, "max_th": 15, "w_q": 1.0, "ecn": true,
            "limit_packets": 1000}"#);
    let ect = Arrival { now: 0, size_bytes: 1040, ecn: Ecn::Ect0 };
    assert_eq!(red.admit(&held(30, 1040), ect), Admission::Enqueue);
    for _ in 0..5 {
        assert_eq!(red.admit(&held(30, 1040), ect), Admission::DropEarly);
    }
    // A 40-byte packet right after a drop: count_bytes/mean_pktsize = 40/500 = 0, so p = 0 (ns-2's
    // integer division): it passes even at p_b = 1.
    let small = Arrival { now: 0, size_bytes: 40, ecn: Ecn::Ect0 };
    assert_eq!(red.admit(&held(30, 1040), small), Admission::Enqueue);
}

#[test]
fn mark_p_is_checked() {
    let spec: QueueSpec =
        serde_json::from_str(r#"{"type": "red", "min_th": 5, "max_th": 15, "mark_p": 1.5, "limit_packets": 50}"#)
            .unwrap();
    let e = Red::from_spec(&spec, "links[0].queue", stream(1, domain::QUEUE, 0)).unwrap_err();
    assert_eq!(e.field, "links[0].queue.mark_p");
}
