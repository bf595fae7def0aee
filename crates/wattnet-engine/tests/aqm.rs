//! Queue management and the link error model in whole runs: RED against DropTail under an
//! unresponsive overload, Bernoulli corruption counts, and RED's determinism.

mod common;
use common::*;
use serde_json::{json, Value};
use wattnet_engine::Simulation;

const PORT: &str = "src->dst";

/// One 10 Mb/s port fed directly by one source of 1000 B packets (service 0.8 ms).
fn single_queue(queue: Value, traffic: Value, duration_s: f64, seed: u64) -> Value {
    json!({
        "seed": seed, "duration_s": duration_s,
        "nodes": [{"name": "src"}, {"name": "dst"}],
        "links": [{"a": "src", "b": "dst", "rate_bps": 10e6, "delay_s": 0.001, "queue": queue}],
        "flows": [{"name": "f", "src": "src", "dst": "dst", "traffic": traffic,
                   "packet_size": {"type": "fixed", "bytes": 1000}}]
    })
}

/// Pentikousis & Badr's RED for QL = 16 scaled to a 100-packet buffer: min_th 5, max_th 15, gentle.
fn red() -> Value {
    json!({"type": "red", "min_th": 5, "max_th": 15, "limit_packets": 100})
}

#[test]
fn red_holds_an_unresponsive_overload_between_its_thresholds_where_droptail_fills_the_buffer() {
    // Poisson at ρ = 1.2: the port sheds 1 − 1/ρ = 1/6 of the arrivals whatever the discipline.
    let poisson = json!({"type": "poisson", "rate_bps": 12e6});
    let r = run(single_queue(red(), poisson.clone(), 200.0, 4));
    let (enq, dropped, early) = (
        port_u64(&r, PORT, "enqueued_packets"),
        port_u64(&r, PORT, "dropped_packets"),
        port_u64(&r, PORT, "early_dropped_packets"),
    );
    let loss = dropped as f64 / (enq + dropped) as f64;
    let utilization = port_f64(&r, PORT, "utilization");
    // What is not carried is dropped: loss = 1 − U/ρ (up to the sampling noise of the
    // offered load, σ ≈ 1/√300 000 = 0.2 %).
    assert!(utilization > 0.98, "utilization {utilization}");
    assert!((loss - (1.0 - utilization / 1.2)).abs() < 0.004, "loss {loss}, utilization {utilization}");
    // Every drop is RED's: the 100-packet buffer never fills.
    assert_eq!(early, dropped);
    assert_eq!(port_u64(&r, PORT, "marked_packets"), 0, "UDP packets are not ECN-capable");
    // With wait_, a constant p_b gives gaps uniform on [1/p_b, 2/p_b), mean ≈ 1.5/p_b − 0.5
    // arrivals per drop. The loss (≈ 0.17) then needs p_b ≈ 0.24, which the gentle line
    // 0.1 + 0.9·(avg − 15)/15 gives at avg ≈ 17.3; Poisson arrivals sample the time average
    // (PASTA), so the mean queue sits near there. Without wait_ (gap mean 1/(2p_b)) it would
    // be p_b ≈ 0.09 at avg ≈ 14.
    let p_b = 1.5 / (1.0 / loss + 0.5);
    let predicted_avg = 15.0 + 15.0 * (p_b - 0.1) / 0.9;
    let red_queue = port_f64(&r, PORT, "mean_queue_packets");
    assert!((5.0..30.0).contains(&red_queue), "RED mean queue {red_queue}");
    assert!((red_queue - predicted_avg).abs() < 1.5, "RED mean queue {red_queue}, predicted {predicted_avg:.2}");

    let dt = run(single_queue(json!({"type": "droptail", "limit_packets": 100}), poisson, 200.0, 4));
    let dt_queue = port_f64(&dt, PORT, "mean_queue_packets");
    assert_eq!(port_u64(&dt, PORT, "early_dropped_packets"), 0);
    // M/D/1/K at ρ = 1.2 lives near the full buffer: 99 waiting at most.
    assert!(dt_queue > 90.0 && dt_queue > 4.0 * red_queue, "DropTail {dt_queue} vs RED {red_queue}");
}

/// `a`→`b` over a 100 Mb/s link whose directions corrupt packets as `link_fields` says; a
/// 10 Mb/s CBR flow each way (1250 packets/s).
fn lossy_link(link_fields: Value, duration_s: f64, seed: u64) -> Value {
    let mut link = json!({"a": "a", "b": "b", "rate_bps": 100e6, "delay_s": 0.002});
    link.as_object_mut().unwrap().extend(link_fields.as_object().unwrap().clone());
    json!({
        "seed": seed, "duration_s": duration_s,
        "nodes": [{"name": "a"}, {"name": "b"}],
        "links": [link],
        "flows": [
            {"name": "ab", "src": "a", "dst": "b", "traffic": {"type": "cbr", "rate_bps": 10e6},
             "packet_size": {"type": "fixed", "bytes": 1000}},
            {"name": "ba", "src": "b", "dst": "a", "traffic": {"type": "cbr", "rate_bps": 10e6},
             "packet_size": {"type": "fixed", "bytes": 1000}}
        ]
    })
}

#[test]
fn bernoulli_errors_corrupt_n_p_packets_and_conservation_holds() {
    // The link's rate applies to a→b; b→a overrides it with 0.
    let r = run(lossy_link(json!({"error_rate": 0.01, "b_to_a": {"error_rate": 0.0}}), 80.0, 9));
    let corrupted = port_u64(&r, "a->b", "corrupted_packets");
    // Packets that reached b: delivered or corrupted on arrival (~100 000).
    let n = (flow_u64(&r, "ab", "received_packets") + corrupted) as f64;
    assert!(n > 99_000.0, "{n}");
    let (mean, sigma) = (n * 0.01, (n * 0.01 * 0.99).sqrt()); // ≈ 1000 ± 31.5
    assert!((corrupted as f64 - mean).abs() < 3.0 * sigma, "corrupted {corrupted}, expected {mean:.0} ± {sigma:.1}");
    assert_eq!(port_u64(&r, "a->b", "corrupted_bytes"), 1000 * corrupted);
    // Corruption is not a queue drop, but the flow lost those packets.
    assert_eq!(port_u64(&r, "a->b", "dropped_packets"), 0);
    assert_eq!(flow_u64(&r, "ab", "dropped_packets"), corrupted);
    assert_eq!(
        flow_u64(&r, "ab", "sent_packets"),
        flow_u64(&r, "ab", "received_packets") + corrupted + flow_u64(&r, "ab", "in_network_packets")
    );
    // The overridden direction loses nothing.
    assert_eq!(port_u64(&r, "b->a", "corrupted_packets"), 0);
    assert_eq!(flow_u64(&r, "ba", "dropped_packets"), 0);
}

#[test]
fn an_override_error_rate_applies_to_its_direction_only() {
    let r = run(lossy_link(json!({"a_to_b": {"error_rate": 0.05}}), 4.0, 2));
    let n = (flow_u64(&r, "ab", "received_packets") + port_u64(&r, "a->b", "corrupted_packets")) as f64;
    let corrupted = port_u64(&r, "a->b", "corrupted_packets") as f64;
    let sigma = (n * 0.05 * 0.95).sqrt(); // n ≈ 5000: 250 ± 15.4
    assert!((corrupted - 0.05 * n).abs() < 3.0 * sigma, "{corrupted} of {n}");
    assert_eq!(port_u64(&r, "b->a", "corrupted_packets"), 0);
}

#[test]
fn error_rates_and_red_parameters_are_validated_with_their_field() {
    let error = |scenario: Value| Simulation::from_json(&scenario.to_string()).err().expect("rejected").to_string();
    assert_eq!(
        error(lossy_link(json!({"a_to_b": {"error_rate": 1.0}}), 1.0, 1)),
        "links[0].a_to_b.error_rate: must be a probability in [0, 1), got 1"
    );
    assert!(error(lossy_link(json!({"error_rate": -0.1}), 1.0, 1)).starts_with("links[0].error_rate: "));
    let bad_red = json!({"type": "red", "min_th": 15, "max_th": 5, "limit_packets": 100});
    assert_eq!(
        error(single_queue(bad_red, json!({"type": "cbr", "rate_bps": 1e6}), 1.0, 1)),
        "links[0].queue.max_th: must be greater than min_th (15), got 5"
    );
    let unknown = json!({"type": "red", "min_th": 5, "max_th": 15, "limit_packets": 100, "max_prob": 0.2});
    assert!(error(single_queue(unknown, json!({"type": "cbr", "rate_bps": 1e6}), 1.0, 1)).contains("max_prob"));
}

/// CBR overload through RED: the arrivals are fixed, so RED's stream is the only randomness.
fn red_under_cbr(seed: u64) -> Value {
    let mut s = single_queue(red(), json!({"type": "cbr", "rate_bps": 12e6}), 20.0, seed);
    s["recorder"] = json!({"interval_s": 0.01, "ports": [PORT], "quantities": ["queue_packets"]});
    s
}

#[test]
fn red_runs_are_identical_for_a_seed_and_differ_between_seeds() {
    let a = run(red_under_cbr(5));
    assert_eq!(a, run(red_under_cbr(5)));
    assert!(port_u64(&a, PORT, "early_dropped_packets") > 1000);
    let b = run(red_under_cbr(6));
    let queue = |r: &wattnet_engine::Results| r.table("timeseries").f64s("value").to_vec();
    assert_eq!(queue(&a).len(), queue(&b).len());
    assert_ne!(queue(&a), queue(&b), "another seed gives another drop pattern");
}
