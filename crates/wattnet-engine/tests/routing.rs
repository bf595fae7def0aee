//! Links that fail and routers that converge: hand-computed timings and TCP across a failure.

mod common;
use common::*;
use serde_json::{json, Value};
use wattnet_engine::Column;

fn strs(r: &wattnet_engine::Results, table: &str, col: &str) -> Vec<String> {
    match r.table(table).column(col) {
        Some(Column::Str(v)) => v.clone(),
        _ => panic!("no column {col}"),
    }
}

/// A(0)–B(1) 1 ms, B–C(2) 2 ms, C–D(3) 3 ms, A–D 10 ms; all 1 Mb/s.
fn square(reconvergence: Value, events: Value, flows: Value, duration: f64) -> Value {
    let link = |a: &str, b: &str, d: f64| json!({"a": a, "b": b, "rate_bps": 1e6, "delay_s": d});
    json!({
        "seed": 1, "duration_s": duration,
        "routing": {"reconvergence": reconvergence},
        "nodes": [{"name": "A"}, {"name": "B"}, {"name": "C"}, {"name": "D"}],
        "links": [link("A", "B", 0.001), link("B", "C", 0.002), link("C", "D", 0.003), link("A", "D", 0.010)],
        "flows": flows, "events": events
    })
}

#[test]
fn each_router_installs_its_table_when_the_flood_reaches_it() {
    // B–C fails at 1 s. B and C notice at once; a 100 B LSA takes 0.8 ms to send at 1 Mb/s,
    // plus propagation and 1 ms of processing per hop: A learns from B at 1 + 0.8 + 1 + 1 ms
    // = 1.0028 s, D from C at 1 + 0.8 + 3 + 1 ms = 1.0048 s (both sooner than the other way).
    // Hop-count ties go to the lowest next-hop id, so the destinations that change are:
    // B: C (now via A); C: B and A (now via D); A: C (now via D); D: none.
    let r = run(square(
        json!({"model": "link_state", "detection_s": 0.0, "hop_processing_s": 0.001, "spf_delay_s": 0.0, "lsa_bytes": 100}),
        json!([{"action": "link_down", "at_s": 1.0, "a": "B", "b": "C"}]),
        json!([]),
        2.0,
    ));
    let times = r.table("routing_events").f64s("time_s");
    let nodes = strs(&r, "routing_events", "node");
    let changed = r.table("routing_events").u64s("changed_destinations");
    let rows: Vec<(String, f64, u64)> = (0..times.len()).map(|i| (nodes[i].clone(), times[i], changed[i])).collect();
    let expected = [("B", 1.0, 1), ("C", 1.0, 2), ("A", 1.0028, 1), ("D", 1.0048, 0)];
    assert_eq!(rows.len(), expected.len(), "{rows:?}");
    for ((node, t, c), (en, et, ec)) in rows.iter().zip(expected) {
        assert_eq!((node.as_str(), *c), (en, ec));
        assert!((t - et).abs() < 1e-12, "{node} at {t}");
    }
}

#[test]
fn stale_tables_loop_packets_until_the_flood_arrives() {
    // With 50 ms of LSA processing per hop, A learns at 1 + 0.8 ms + 1 ms + 50 ms. Until then
    // B sends traffic for C back to A, which still sends it to B: an A→B→A round trip takes
    // 2 × (0.8 + 1) = 3.6 ms, so packets bounce several times; with TTL 4 they die there.
    let mut s = square(
        json!({"model": "link_state", "hop_processing_s": 0.05}),
        json!([{"action": "link_down", "at_s": 1.0, "a": "B", "b": "C"}]),
        json!([{"name": "f", "src": "A", "dst": "C", "traffic": {"type": "cbr", "rate_bps": 400e3},
                "packet_size": {"type": "fixed", "bytes": 100}}]),
        2.0,
    );
    s["routing"]["ttl"] = json!(4);
    let r = run(s);
    assert!(r.scalar("dropped_ttl") > 0.0, "a transient loop must drop packets by TTL");
    // Every packet is accounted for: sent = received + dropped (TTL, link down) + in flight.
    assert_eq!(
        r.scalar("packets_sent"),
        r.scalar("packets_received") + r.scalar("packets_dropped") + r.scalar("packets_in_network")
    );
}

/// s – r1 – r2 – d with a backup r1 – r3 – r2; TCP from s to d; r1–r2 fails at 5 s.
fn failover(reconvergence: Value) -> wattnet_engine::Results {
    let link = |a: &str, b: &str, d: f64| {
        json!({"a": a, "b": b, "rate_bps": 10e6, "delay_s": d,
                                                  "queue": {"type": "droptail", "limit_packets": 100}})
    };
    run(json!({
        "seed": 1, "duration_s": 15.0,
        "routing": {"reconvergence": reconvergence},
        "nodes": [{"name": "s"}, {"name": "r1"}, {"name": "r2"}, {"name": "r3"}, {"name": "d"}],
        "links": [link("s", "r1", 0.001), link("r1", "r2", 0.005), link("r2", "d", 0.001),
                  link("r1", "r3", 0.010), link("r3", "r2", 0.010)],
        "flows": [{"name": "tcp", "src": "s", "dst": "d", "traffic": {"type": "bulk"}, "tcp": {"mss_bytes": 960}}],
        "events": [{"action": "link_down", "at_s": 5.0, "a": "r1", "b": "r2"}],
        "recorder": {"interval_s": 1.0, "ports": ["s->r1"], "quantities": ["queue_packets"], "flows": ["tcp"],
                     "flow_quantities": ["delivered_bytes"]}
    }))
}

fn delivered_at(r: &wattnet_engine::Results) -> Vec<f64> {
    let ts = r.table("timeseries");
    let q = strs(r, "timeseries", "quantity");
    (0..q.len()).filter(|&i| q[i] == "delivered_bytes").map(|i| ts.f64s("value")[i]).collect()
}

#[test]
fn tcp_recovers_across_a_failure_once_routes_converge() {
    let r = failover(json!({"model": "global", "delay_s": 0.03}));
    let d = delivered_at(&r);
    // Samples at 1, 2, …, 15 s. From 8 s on (re-routing + RTO + slow start done) the flow
    // runs again near the 10 Mb/s link rate: at least 5 Mb/s of payload per second.
    for i in 8..14 {
        assert!(d[i + 1] - d[i] > 5e6 / 8.0, "second {}: {} B", i + 1, d[i + 1] - d[i]);
    }
    // The path grew from 3 hops (s–r1–r2–d) to 4 (s–r1–r3–r2–d).
    assert_eq!(r.table("flows").f64s("path_hops_start"), &[3.0]);
    assert_eq!(r.table("flows").f64s("path_hops_end"), &[4.0]);
    assert!(r.table("ports").u64s("link_down_drops").iter().sum::<u64>() > 0);
    assert!(r.table("connections").u64s("timeouts")[0] >= 1);
}

#[test]
fn without_reconvergence_the_failed_link_black_holes_the_flow() {
    let d = delivered_at(&failover(Value::Null));
    // Nothing more arrives after the failure settles.
    assert_eq!(d[14], d[5]);
}

#[test]
fn links_switched_off_together_make_each_router_install_once() {
    // B–C and A–D go down together at 1 s (as ESTOP switches its links off at once); with
    // global reconvergence every router installs one table at 1.03 s. What remains, A–B and
    // C–D, splits the square in two: each router loses its routes to the two far nodes.
    let r = run(square(
        json!({"model": "global", "delay_s": 0.03}),
        json!([{"action": "link_down", "at_s": 1.0, "a": "B", "b": "C"},
               {"action": "link_down", "at_s": 1.0, "a": "A", "b": "D"}]),
        json!([]),
        2.0,
    ));
    assert_eq!(strs(&r, "routing_events", "node"), ["A", "B", "C", "D"]);
    assert!(r.table("routing_events").f64s("time_s").iter().all(|&t| (t - 1.03).abs() < 1e-12));
    assert_eq!(r.table("routing_events").u64s("changed_destinations"), &[2, 2, 2, 2]);
}
