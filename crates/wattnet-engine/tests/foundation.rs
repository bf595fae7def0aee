//! Hand-computed traces: path delay, rate transitions, TTL, conservation, determinism, errors.

mod common;
use common::*;
use serde_json::json;
use wattnet_engine::time::from_secs;
use wattnet_engine::Simulation;

fn link(a: &str, b: &str, rate: f64, delay: f64) -> serde_json::Value {
    json!({"a": a, "b": b, "rate_bps": rate, "delay_s": delay})
}

#[test]
fn one_packet_across_three_hops_takes_serialization_plus_propagation() {
    // 1000 B at 8 Mb/s = 1 ms per hop; propagation 1 + 2 + 3 ms: 3 ms + 6 ms = 9 ms.
    let r = run(json!({
        "seed": 1, "duration_s": 1.0,
        "nodes": [{"name": "a"}, {"name": "b"}, {"name": "c"}, {"name": "d"}],
        "links": [link("a", "b", 8e6, 0.001), link("b", "c", 8e6, 0.002), link("c", "d", 8e6, 0.003)],
        "flows": [{"name": "one", "src": "a", "dst": "d", "traffic": {"type": "cbr", "rate_bps": 8e3},
                   "packet_size": {"type": "fixed", "bytes": 1000}, "stop_s": 0.5}]
    }));
    assert_eq!(flow_u64(&r, "one", "received_packets"), 1);
    assert_eq!(flow_f64(&r, "one", "mean_delay_s"), 0.009);
}

#[test]
fn a_rate_change_freezes_the_port_for_its_transition_time() {
    // 8 Mb/s, 1000 B packets (1 ms each), CBR at exactly 8 Mb/s keeps the port busy.
    // At 10.5 ms the rate drops to 4 Mb/s with a 3 ms transition: the packet in service
    // (10–11 ms) finishes at the old rate, nothing starts before 13.5 ms, then 2 ms per packet.
    let scenario = json!({
        "seed": 1, "duration_s": 0.020,
        "nodes": [{"name": "s"}, {"name": "d"}],
        "links": [{"a": "s", "b": "d", "rate_bps": 8e6, "delay_s": 0.0, "transition_s": 0.003}],
        "flows": [{"name": "f", "src": "s", "dst": "d", "traffic": {"type": "cbr", "rate_bps": 8e6},
                   "packet_size": {"type": "fixed", "bytes": 1000}}],
        "events": [{"action": "set_rate", "at_s": 0.0105, "port": "s->d", "rate_bps": 4e6}]
    });
    let mut sim = Simulation::from_json(&scenario.to_string()).unwrap();
    let sent_by = |sim: &mut Simulation, t: f64| {
        sim.run_until(from_secs(t));
        port_u64(&sim.results().unwrap(), "s->d", "transmitted_packets")
    };
    assert_eq!(sent_by(&mut sim, 0.0109), 10);
    assert_eq!(sent_by(&mut sim, 0.011), 11);
    assert_eq!(sent_by(&mut sim, 0.0154), 11, "nothing may leave during the transition");
    assert_eq!(sent_by(&mut sim, 0.0155), 12);
    assert_eq!(sent_by(&mut sim, 0.0195), 14);
    sim.run();
    let r = sim.results().unwrap();
    assert_eq!(port_u64(&r, "s->d", "rate_changes"), 1);
    assert!((port_f64(&r, "s->d", "frozen_time_s") - 0.003).abs() < 1e-12);
    // Time-average configured rate: (10.5 ms · 8 + 9.5 ms · 4) / 20 ms = 6.1 Mb/s.
    assert!((port_f64(&r, "s->d", "mean_rate_bps") - 6.1e6).abs() < 1.0);
    let log = r.table("rate_changes");
    assert_eq!(log.f64s("time_s"), &[0.0105]);
    assert_eq!(log.f64s("new_rate_bps"), &[4e6]);
}

#[test]
fn ttl_drops_packets_on_paths_longer_than_it_allows() {
    // a-b-c-d: each router decrements; TTL 2 dies at c, TTL 3 reaches d.
    let scenario = |ttl: u8| {
        json!({
            "seed": 1, "duration_s": 0.1, "routing": {"ttl": ttl},
            "nodes": [{"name": "a"}, {"name": "b"}, {"name": "c"}, {"name": "d"}],
            "links": [link("a", "b", 1e9, 0.0), link("b", "c", 1e9, 0.0), link("c", "d", 1e9, 0.0)],
            "flows": [{"name": "f", "src": "a", "dst": "d", "traffic": {"type": "cbr", "rate_bps": 1e6}}]
        })
    };
    let r = run(scenario(2));
    assert_eq!(flow_u64(&r, "f", "received_packets"), 0);
    assert_eq!(r.scalar("dropped_ttl"), r.scalar("packets_sent"));
    let r = run(scenario(3));
    assert_eq!(r.scalar("dropped_ttl"), 0.0);
    assert_eq!(r.scalar("packets_received"), r.scalar("packets_sent"));
}

/// A small network with overload, random traffic and packets still in flight at the end.
fn busy_network(seed: u64) -> serde_json::Value {
    json!({
        "seed": seed, "duration_s": 2.0,
        "nodes": [{"name": "h1"}, {"name": "h2"}, {"name": "r1"}, {"name": "r2"}, {"name": "h3"}],
        "links": [link("h1", "r1", 100e6, 0.001), link("h2", "r1", 100e6, 0.001),
                  {"a": "r1", "b": "r2", "rate_bps": 10e6, "delay_s": 0.01,
                   "queue": {"type": "droptail", "limit_bytes": 30000}},
                  link("r2", "h3", 100e6, 0.001)],
        "flows": [
            {"name": "p", "src": "h1", "dst": "h3", "traffic": {"type": "poisson", "rate_bps": 6e6},
             "packet_size": {"type": "exponential", "mean_bytes": 800.0}},
            {"name": "o", "src": "h2", "dst": "h3", "traffic": {"type": "on_off", "peak_rate_bps": 50e6,
             "on_mean_s": 0.05, "off_mean_s": 0.05}, "packet_size": {"type": "uniform", "min_bytes": 64, "max_bytes": 1500}},
            {"name": "back", "src": "h3", "dst": "h1", "traffic": {"type": "cbr", "rate_bps": 1e6}}
        ],
        "events": [{"action": "set_rate", "at_s": 1.0, "port": "r1->r2", "rate_bps": 5e6}],
        "recorder": {"interval_s": 0.1, "ports": ["r1->r2"]}
    })
}

#[test]
fn every_packet_is_accounted_for_mid_run_and_at_the_end() {
    let mut sim = Simulation::from_json(&busy_network(3).to_string()).unwrap();
    for step in 1..=20 {
        sim.run_until(from_secs(step as f64 * 0.1));
        let r = sim.results().expect("conservation holds");
        let (sent, rec, drop, held) = (
            r.scalar("packets_sent"),
            r.scalar("packets_received"),
            r.scalar("packets_dropped"),
            r.scalar("packets_in_network"),
        );
        assert_eq!(sent, rec + drop + held);
        let port_drops: u64 = r.table("ports").u64s("dropped_packets").iter().sum();
        assert_eq!(drop as u64, port_drops);
    }
    let r = sim.results().unwrap();
    assert!(r.scalar("packets_dropped") > 0.0 && r.scalar("packets_in_network") > 0.0);
    let per_flow: u64 = r.table("flows").u64s("in_network_packets").iter().sum();
    assert_eq!(per_flow as f64, r.scalar("packets_in_network"));
}

#[test]
fn same_seed_same_results_and_another_seed_differs() {
    assert_eq!(run(busy_network(7)), run(busy_network(7)));
    assert_ne!(run(busy_network(7)).table("flows"), run(busy_network(8)).table("flows"));
}

#[test]
fn recorder_samples_every_interval_and_measures_arrival_rate() {
    // 5 Mb/s CBR into the port: every 0.1 s sample reads 5 Mb/s of arrivals.
    let r = run(json!({
        "seed": 1, "duration_s": 1.0,
        "nodes": [{"name": "s"}, {"name": "d"}],
        "links": [link("s", "d", 10e6, 0.0)],
        "flows": [{"name": "f", "src": "s", "dst": "d", "traffic": {"type": "cbr", "rate_bps": 5e6},
                   "packet_size": {"type": "fixed", "bytes": 1250}}],
        "recorder": {"interval_s": 0.1, "ports": ["s->d"], "quantities": ["arrival_rate_bps", "rate_bps"]}
    }));
    let ts = r.table("timeseries");
    assert_eq!(ts.f64s("time_s").len(), 20);
    // 1250 B every 2 ms: each closed-open interval [t − 0.1, t) holds 50 packets = 5 Mb/s.
    let values = ts.f64s("value");
    assert_eq!(values[0], 50.0 * 1250.0 * 8.0 / 0.1);
    assert_eq!(values[2], 5e6);
    assert_eq!(values[3], 10e6);
}

#[test]
fn bad_scenarios_name_the_field() {
    let cases = [
        (json!({"seed": 1, "duration_s": -1.0, "nodes": [{"name": "a"}]}), "duration_s"),
        (json!({"seed": 1, "duration_s": 1.0, "nodes": [{"name": "a"}], "bogus": 1}), "bogus"),
        (
            json!({"seed": 1, "duration_s": 1.0, "nodes": [{"name": "a"}, {"name": "b"}],
                "links": [{"a": "a", "b": "zz", "rate_bps": 1e6, "delay_s": 0.0}]}),
            "links[0].b",
        ),
        (
            json!({"seed": 1, "duration_s": 1.0, "nodes": [{"name": "a"}, {"name": "b"}],
                "links": [{"a": "a", "b": "b", "rate_bps": -5.0, "delay_s": 0.0}]}),
            "links[0].rate_bps",
        ),
        (
            json!({"seed": 1, "duration_s": 1.0, "nodes": [{"name": "a"}, {"name": "b"}],
                "links": [{"a": "a", "b": "b", "rate_bps": 1e6, "delay_s": 0.0, "queue": {"type": "fifo9"}}]}),
            "links[0].queue",
        ),
        (
            json!({"seed": 1, "duration_s": 1.0, "nodes": [{"name": "a"}, {"name": "b"}, {"name": "c"}],
                "links": [{"a": "a", "b": "b", "rate_bps": 1e6, "delay_s": 0.0}],
                "flows": [{"name": "f", "src": "a", "dst": "c", "traffic": {"type": "cbr", "rate_bps": 1.0}}]}),
            "flows[0]",
        ),
        (
            json!({"seed": 1, "duration_s": 1.0, "nodes": [{"name": "a"}, {"name": "b"}],
                "links": [{"a": "a", "b": "b", "rate_bps": 1e6, "delay_s": 0.0}],
                "events": [{"action": "set_rate", "at_s": 0.5, "port": "b->c", "rate_bps": 1.0}]}),
            "events[0].port",
        ),
    ];
    for (scenario, field) in cases {
        let e = Simulation::from_json(&scenario.to_string()).err().expect("rejected");
        assert!(e.field.starts_with(field), "expected field {field}, got {e}");
    }
}
