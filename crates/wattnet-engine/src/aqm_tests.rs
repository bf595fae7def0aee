//! RED and threshold marking against hand-worked numbers.

use super::*;
use crate::rng::{domain, stream};
use crate::time::PS_PER_S;

const MS: Time = PS_PER_S / 1000;

/// The sanity-check RED of docs/models/queue-management.md §2: min_th 5, max_th 15, max_p 0.1,
/// w_q 0.002, packet mode, a buffer large enough never to overflow.
fn red_json(extra: &str) -> Red {
    let text = format!(
        r#"{{"type": "red", "min_th": 5, "max_th": 15, "limit_packets": 1000{}{extra}}}"#,
        if extra.is_empty() { "" } else { ", " }
    );
    let spec: QueueSpec = serde_json::from_str(&text).expect("valid spec");
    Red::from_spec(&spec, "q", stream(1, domain::QUEUE, 0)).expect("valid RED")
}

fn busy(waiting_packets: u32) -> QueueState {
    QueueState {
        waiting_packets,
        waiting_bytes: waiting_packets as u64 * 1000,
        in_service_bytes: Some(1000),
        last_tx_end: 0,
        rate_bps: 8_000_000,
    }
}

fn arrival(ecn: Ecn) -> Arrival {
    Arrival { now: 0, size_bytes: 1000, ecn }
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

#[test]
fn defaults_are_ns2s() {
    let red = red_json("");
    assert_eq!((red.max_p, red.w_q, red.gentle, red.wait, red.ecn), (0.1, 0.002, true, true, false));
    assert_eq!((red.mode, red.mean_packet_bytes, red.idle_decay), (RedMode::Packets, 500, RedIdleDecay::Ns2));
    assert_eq!((red.avg, red.count), (0.0, -1));
    assert!(red.buffer.count_in_service);
}

#[test]
fn sanity_check_1_linear_region_and_count_spreading() {
    let mut red = red_json("");
    red.avg = 10.0;
    // p_b = 0.1·(10 − 5)/(15 − 5) = 0.05
    assert_eq!(red.region(), Region::Probabilistic(0.05));
    // count 10: p_a = 0.05/(1 − 10·0.05) = 0.10
    assert!(close(spread_probability(0.05, 10, false), 0.10, 1e-12));
    // count·p_b ≥ 1: certain drop.
    assert_eq!(spread_probability(0.05, 20, false), 1.0);
    assert!(close(spread_probability(0.05, 0, false), 0.05, 1e-15));
}

#[test]
fn sanity_check_2_gentle_region() {
    let mut red = red_json("");
    red.avg = 22.5;
    // p_b = 0.1 + 0.9·(22.5 − 15)/15 = 0.55
    match red.region() {
        Region::Probabilistic(p) => assert!(close(p, 0.55, 1e-12), "{p}"),
        r => panic!("{r:?}"),
    }
    red.avg = 15.0; // the gentle line starts at max_p
    assert_eq!(red.region(), Region::Probabilistic(0.1));
}

#[test]
fn wait_variant_holds_off_until_count_times_p_b_reaches_one() {
    // p_b = 0.05: no drop up to count 19 (0.95), p_b/(2 − 1) = 0.05 at count 20,
    // 0.05/(2 − 1.5) = 0.10 at count 30, certain from count 40 (2.0).
    assert_eq!(spread_probability(0.05, 19, true), 0.0);
    assert!(close(spread_probability(0.05, 20, true), 0.05, 1e-12));
    assert!(close(spread_probability(0.05, 30, true), 0.10, 1e-12));
    assert_eq!(spread_probability(0.05, 40, true), 1.0);
    assert_eq!(spread_probability(0.55, 0, true), 0.0);
}

#[test]
fn sanity_check_3_idle_decay_both_exponents() {
    // s = 1 ms: 125 B at 1 Mb/s. Idle 100 ms → m = 100.
    let idle = QueueState { last_tx_end: 50 * MS, rate_bps: 1_000_000, ..QueueState::default() };
    let at = Arrival { now: 150 * MS, size_bytes: 125, ecn: Ecn::NotEct };
    // Floyd: 10·0.998^100 = 8.1857 (8.19 in docs/models/queue-management.md §2).
    let mut red = red_json(r#""mean_packet_bytes": 125, "idle_decay": "floyd""#);
    red.avg = 10.0;
    red.admit(&idle, at);
    assert!(close(red.avg, 8.185_668_047, 1e-6), "{}", red.avg);
    // ns-2: 10·0.998^101 = 8.1693.
    let mut red = red_json(r#""mean_packet_bytes": 125"#);
    red.avg = 10.0;
    red.admit(&idle, at);
    assert!(close(red.avg, 8.169_296_711, 1e-6), "{}", red.avg);
    // m is truncated: 100.9 ms is still m = 100.
    let mut red = red_json(r#""mean_packet_bytes": 125"#);
    red.avg = 10.0;
    red.admit(&idle, Arrival { now: 150 * MS + 900 * MS / 1000, ..at });
    assert!(close(red.avg, 8.169_296_711, 1e-6), "{}", red.avg);
}

#[test]
fn idle_packet_time_follows_the_current_rate() {
    // The same 100 ms idle at 2 Mb/s is m = 200: 10·0.998^201 = 6.6871.
    let idle = QueueState { last_tx_end: 0, rate_bps: 2_000_000, ..QueueState::default() };
    let mut red = red_json(r#""mean_packet_bytes": 125"#);
    red.avg = 10.0;
    red.admit(&idle, Arrival { now: 100 * MS, size_bytes: 125, ecn: Ecn::NotEct });
    assert!(close(red.avg, 10.0 * 0.998f64.powi(201), 1e-9), "{}", red.avg);
    assert!(close(red.avg, 6.687_115_105, 1e-6), "{}", red.avg);
}

#[test]
fn sanity_check_4_step_to_twenty_reaches_min_th_after_144_arrivals() {
    // avg_n = 20·(1 − 0.998ⁿ) ≥ 5 ⟺ n ≥ ln(0.75)/ln(0.998) = 143.7, so arrival 144.
    let mut red = red_json("");
    let mut arrivals = 0;
    while red.avg < 5.0 {
        assert_eq!(red.admit(&busy(20), arrival(Ecn::NotEct)), Admission::Enqueue);
        arrivals += 1;
    }
    assert_eq!(arrivals, 144);
    assert!(close(red.avg, 20.0 * (1.0 - 0.998f64.powi(144)), 1e-9));
}

#[test]
fn forced_drop_at_twice_max_th_when_gentle_and_at_max_th_otherwise() {
    let mut gentle = red_json("");
    gentle.avg = 29.99;
    assert!(matches!(gentle.region(), Region::Probabilistic(_)));
    gentle.avg = 30.0;
    assert_eq!(gentle.region(), Region::Forced);
    let mut plain = red_json(r#""gentle": false"#);
    plain.avg = 14.99;
    assert!(matches!(plain.region(), Region::Probabilistic(_)));
    plain.avg = 15.0;
    assert_eq!(plain.region(), Region::Forced);
    // A forced region arrival is dropped and restarts count.
    plain.avg = 40.0;
    plain.count = 7;
    assert_eq!(plain.admit(&busy(40), arrival(Ecn::NotEct)), Admission::DropEarly);
    assert_eq!(plain.count, 0);
}

#[test]
fn ecn_marks_in_the_probabilistic_region_and_drops_in_the_forced_region() {
    // avg held at 29 (gentle, p_b = 0.1 + 0.9·14/15 = 0.94) by w_q = 1 and q = 29: with the
    // wait rule the second arrival after a signal has count·p_b = 1.88 ≥ 1 and is hit with
    // p_a = 0.94/(2 − 1.88) > 1, so the decisions cycle: nothing, signal, nothing, signal…
    let mut red = red_json(r#""w_q": 1.0, "ecn": true"#);
    assert_eq!(red.admit(&busy(29), arrival(Ecn::Ect0)), Admission::Enqueue); // count −1 → 0
    let expect = [Admission::Enqueue, Admission::EnqueueMarked];
    for i in 0..6 {
        assert_eq!(red.admit(&busy(29), arrival(Ecn::Ect0)), expect[i % 2], "arrival {i}");
    }
    // Not-ECT packets are dropped where ECT ones are marked; CE ones count as marked.
    assert_eq!(red.admit(&busy(29), arrival(Ecn::NotEct)), Admission::Enqueue);
    assert_eq!(red.admit(&busy(29), arrival(Ecn::NotEct)), Admission::DropEarly);
    assert_eq!(red.admit(&busy(29), arrival(Ecn::Ect1)), Admission::Enqueue);
    assert_eq!(red.admit(&busy(29), arrival(Ecn::Ce)), Admission::EnqueueMarked);
    // avg 30 = 2·max_th: forced, so even ECT packets are dropped.
    for _ in 0..3 {
        assert_eq!(red.admit(&busy(30), arrival(Ecn::Ect0)), Admission::DropEarly);
    }
}

#[test]
fn without_ecn_the_same_decisions_drop() {
    let mut red = red_json(r#""w_q": 1.0"#);
    assert_eq!(red.admit(&busy(29), arrival(Ecn::Ect0)), Admission::Enqueue);
    assert_eq!(red.admit(&busy(29), arrival(Ecn::Ect0)), Admission::Enqueue);
    assert_eq!(red.admit(&busy(29), arrival(Ecn::Ect0)), Admission::DropEarly);
}

#[test]
fn overflow_drops_even_below_min_th_and_the_average_still_moves() {
    let spec: QueueSpec =
        serde_json::from_str(r#"{"type": "red", "min_th": 2, "max_th": 6, "limit_packets": 4}"#).unwrap();
    let mut red = Red::from_spec(&spec, "q", stream(1, domain::QUEUE, 0)).unwrap();
    // 3 waiting + 1 in service = 4 = the limit (in-service counted, as ns-2's DropTail).
    assert_eq!(red.admit(&busy(3), arrival(Ecn::Ect0)), Admission::DropOverflow);
    assert!(close(red.avg, 0.002 * 3.0, 1e-15));
    assert_eq!(red.count, -1);
    assert_eq!(red.admit(&busy(2), arrival(Ecn::Ect0)), Admission::Enqueue);
}

#[test]
fn probabilistic_drop_rate_matches_the_wait_rule() {
    // p_b = 0.05 held (w_q = 1, q = 10). With wait_, the k-th arrival after a drop has
    // p_a = 0 for k < 20 and 0.05/(2 − 0.05k) = 1/(40 − k) for 20 ≤ k ≤ 39, so the gap
    // is uniform on 20..39 (each 1/20): mean 29.5 arrivals per drop.
    let mut red = red_json(r#""w_q": 1.0"#);
    let n = 400_000;
    let drops = (0..n).filter(|_| red.admit(&busy(10), arrival(Ecn::NotEct)) == Admission::DropEarly).count();
    let rate = drops as f64 / n as f64;
    // σ of the rate ≈ √(n·33.25/29.5³)/n = 5.7e-5 (renewal count, var of the gap 33.25).
    assert!(close(rate, 1.0 / 29.5, 3e-4), "drop rate {rate} vs {}", 1.0 / 29.5);
}

#[test]
fn byte_mode_averages_bytes_and_scales_p_b_by_size() {
    let spec: QueueSpec = serde_json::from_str(
        r#"{"type": "red", "mode": "bytes", "min_th": 5000, "max_th": 15000, "w_q": 1.0, "wait": false,
            "mean_packet_bytes": 1000, "limit_bytes": 1000000}"#,
    )
    .unwrap();
    let mut red = Red::from_spec(&spec, "q", stream(1, domain::QUEUE, 0)).unwrap();
    // 10 packets of 1000 B waiting: avg = 10000 B, p_b = 0.1·5000/10000 = 0.05, scaled by
    // 40/1000 to 0.002. Without wait_, P(gap > k) = (1 − (k+1)·p_b)/(1 − p_b): uniform on
    // 1..499, mean 250 arrivals per drop.
    let n = 400_000;
    let small = Arrival { now: 0, size_bytes: 40, ecn: Ecn::NotEct };
    let drops = (0..n).filter(|_| red.admit(&busy(10), small) == Admission::DropEarly).count();
    assert_eq!(red.avg, 10_000.0);
    // σ ≈ √(n·20750/250³)/n = 5.8e-5.
    let rate = drops as f64 / n as f64;
    assert!(close(rate, 1.0 / 250.0, 3e-4), "rate {rate}");
}

#[test]
fn validation_names_the_field() {
    let check = |json: &str, field: &str, words: &str| {
        let spec: QueueSpec = serde_json::from_str(json).unwrap();
        let e = Red::from_spec(&spec, "links[2].queue", stream(1, domain::QUEUE, 0)).unwrap_err();
        assert_eq!(e.field, field, "{e}");
        assert!(e.message.contains(words), "{e}");
    };
    check(
        r#"{"type": "red", "min_th": 5, "max_th": 5, "limit_packets": 50}"#,
        "links[2].queue.max_th",
        "greater than min_th",
    );
    check(r#"{"type": "red", "min_th": -1, "max_th": 5, "limit_packets": 50}"#, "links[2].queue.min_th", "at least 0");
    check(
        r#"{"type": "red", "min_th": 5, "max_th": 15, "max_p": 0, "limit_packets": 50}"#,
        "links[2].queue.max_p",
        "(0, 1]",
    );
    check(
        r#"{"type": "red", "min_th": 5, "max_th": 15, "w_q": 1.5, "limit_packets": 50}"#,
        "links[2].queue.w_q",
        "(0, 1]",
    );
    check(
        r#"{"type": "red", "min_th": 5, "max_th": 15, "mean_packet_bytes": 0, "limit_packets": 50}"#,
        "links[2].queue.mean_packet_bytes",
        "at least 1",
    );
    check(r#"{"type": "red", "min_th": 5, "max_th": 15}"#, "links[2].queue", "exactly one of limit_packets");
    check(
        r#"{"type": "red", "min_th": 8, "max_th": 24, "limit_packets": 8}"#,
        "links[2].queue.min_th",
        "below limit_packets",
    );
}

fn threshold(json: &str) -> Result<ThresholdMarking, ScenarioError> {
    ThresholdMarking::from_spec(&serde_json::from_str(json).unwrap(), "links[0].queue")
}

#[test]
fn threshold_marks_ect_exactly_above_k_and_drops_only_on_overflow() {
    let mut q = threshold(r#"{"type": "threshold", "k_packets": 20, "limit_packets": 100}"#).unwrap();
    assert_eq!(q.admit(&busy(20), arrival(Ecn::Ect0)), Admission::Enqueue);
    assert_eq!(q.admit(&busy(21), arrival(Ecn::Ect0)), Admission::EnqueueMarked);
    assert_eq!(q.admit(&busy(21), arrival(Ecn::Ect1)), Admission::EnqueueMarked);
    assert_eq!(q.admit(&busy(21), arrival(Ecn::Ce)), Admission::EnqueueMarked);
    assert_eq!(q.admit(&busy(98), arrival(Ecn::NotEct)), Admission::Enqueue);
    // 99 waiting + 1 in service = the limit.
    assert_eq!(q.admit(&busy(99), arrival(Ecn::Ect0)), Admission::DropOverflow);
    let mut q = threshold(r#"{"type": "threshold", "k_bytes": 3000, "limit_bytes": 100000}"#).unwrap();
    assert_eq!(q.admit(&busy(3), arrival(Ecn::Ect0)), Admission::Enqueue); // 3000 B is not above K
    let more = QueueState { waiting_bytes: 3001, ..busy(3) };
    assert_eq!(q.admit(&more, arrival(Ecn::Ect0)), Admission::EnqueueMarked);
}

#[test]
fn threshold_validation_names_the_field() {
    let e = threshold(r#"{"type": "threshold", "limit_packets": 100}"#).unwrap_err();
    assert_eq!(
        (e.field.as_str(), e.message.contains("exactly one of k_packets and k_bytes")),
        ("links[0].queue", true)
    );
    let e = threshold(r#"{"type": "threshold", "k_packets": 100, "limit_packets": 100}"#).unwrap_err();
    assert_eq!(e.field, "links[0].queue.k_packets");
    let e = threshold(r#"{"type": "threshold", "k_bytes": 10, "k_packets": 1, "limit_packets": 100}"#).unwrap_err();
    assert_eq!(e.field, "links[0].queue");
    let e = threshold(r#"{"type": "threshold", "k_packets": 10}"#).unwrap_err();
    assert!(e.message.contains("threshold needs exactly one of limit_packets"), "{e}");
}
