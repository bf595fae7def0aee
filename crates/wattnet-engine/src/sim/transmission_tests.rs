//! A transmission's end: an event only when a packet waits behind it or the port observes
//! it; otherwise settled when the port is next visited, at its place in the order of events.

use super::*;

/// Nodes a, b, c; links a–b and b–c at 1 Mb/s with 1 ms delay; `queue` on every link.
fn chain(flows: &str, queue: &str, duration_s: f64) -> Simulation {
    let json = format!(
        r#"{{"seed": 1, "duration_s": {duration_s},
            "nodes": [{{"name": "a"}}, {{"name": "b"}}, {{"name": "c"}}],
            "links": [{{"a": "a", "b": "b", "rate_bps": 1e6, "delay_s": 0.001, "queue": {queue}}},
                      {{"a": "b", "b": "c", "rate_bps": 1e6, "delay_s": 0.001, "queue": {queue}}}],
            "flows": [{flows}]}}"#
    );
    Simulation::from_json(&json).unwrap()
}

/// A CBR flow of `bytes`-byte packets, one every 0.1 s from t = 0.
fn flow(name: &str, src: &str, bytes: u32) -> String {
    let rate = bytes as f64 * 8.0 / 0.1;
    format!(
        r#"{{"name": "{name}", "src": "{src}", "dst": "c", "traffic": {{"type": "cbr", "rate_bps": {rate}}},
            "packet_size": {{"type": "fixed", "bytes": {bytes}}}}}"#
    )
}

const DROPTAIL_100: &str = r#"{"type": "droptail", "limit_packets": 100}"#;

#[test]
fn a_transmission_with_nothing_behind_it_ends_without_an_event() {
    // 10 packets a→c, 0.1 s apart, 8 ms on each link: never two at a port. Each costs its
    // emission and two arrivals (at b, at c): 30 events, no transmission's end among them.
    let mut sim = chain(&flow("f", "a", 1000), DROPTAIL_100, 1.0);
    sim.run();
    assert_eq!(sim.events_processed(), 30);
    let r = sim.results().unwrap();
    // Yet every transmission is counted, each link busy 10 × 8 ms.
    assert_eq!(r.scalar("packets"), 20.0);
    assert_eq!(r.table("ports").u64s("transmitted_packets")[..], [10, 0, 10, 0]);
    assert_eq!(r.table("ports").f64s("busy_time_s")[0], 0.08);
    // Settled at the report: the last transmission on b→c ended at 0.9 + 0.009 + 0.008 s.
    assert_eq!(sim.net.ports[2].last_tx_end, 917_000_000_000);
}

#[test]
fn a_packet_waiting_behind_a_transmission_makes_its_end_an_event() {
    // Two packets leave a at t = 0 (two flows), one run of 0.05 s: the second waits 8 ms behind
    // the first, whose end starts it, and then waits at b the same way. Events: 2 emissions,
    // the first packet's end on a→b and on b→c, 4 arrivals = 8 (10 with every end an event).
    let flows = format!("{}, {}", flow("f", "a", 1000), flow("g", "a", 1000));
    let mut sim = chain(&flows, DROPTAIL_100, 0.05);
    sim.run();
    assert_eq!(sim.events_processed(), 8);
    let r = sim.results().unwrap();
    assert_eq!(r.table("ports").u64s("transmitted_packets")[..], [2, 0, 2, 0]);
    // The first reaches c at 8 + 1 + 8 + 1 = 18 ms, the second 8 ms later at each link: 26 ms.
    assert_eq!(r.table("flows").f64s("mean_delay_s")[..], [0.018, 0.026]);
}

#[test]
fn an_end_at_the_instant_of_an_arrival_keeps_its_place_in_the_order() {
    // b sends 1125 B to c at t = 0 (9 ms on b→c); a's 1000 B packet reaches b at 8 + 1 = 9 ms,
    // the instant b→c's transmission ends. With a one-packet buffer that counts the packet in
    // service, a's packet is admitted only if the end comes first. The end has the place its
    // event would have had: taken when b's transmission started. a's arrival at b was
    // scheduled when a's transmission started. So the flow emitted first at t = 0 decides.
    let one = r#"{"type": "droptail", "limit_packets": 1, "count_in_service": true}"#;
    // b first: b's end (place 3) precedes a's arrival (place 7): admitted, delivered.
    let flows = format!("{}, {}", flow("from_b", "b", 1125), flow("from_a", "a", 1000));
    let mut sim = chain(&flows, one, 0.05);
    sim.run();
    let r = sim.results().unwrap();
    assert_eq!(r.table("flows").u64s("received_packets")[..], [1, 1]);
    // a first: a's arrival (place 4) precedes b's end (place 6): the buffer is full, dropped.
    let flows = format!("{}, {}", flow("from_a", "a", 1000), flow("from_b", "b", 1125));
    let mut sim = chain(&flows, one, 0.05);
    sim.run();
    let r = sim.results().unwrap();
    assert_eq!(r.table("flows").u64s("received_packets")[..], [0, 1]);
    assert_eq!(r.table("ports").u64s("dropped_packets")[..], [0, 0, 1, 0]);
}
