//! The edges of the input: the clock's range, rates and byte counts the results can carry,
//! finite energy, and running in slices. Each case is a reproducer of a silent failure.

mod common;
use common::*;
use serde_json::{json, Value};
use wattnet_engine::time::{MAX_TIME, MAX_TIME_S, PS_PER_S};
use wattnet_engine::Simulation;

const DAY_S: f64 = 86_400.0;

fn pair(link: Value, flows: Value, duration_s: f64) -> Value {
    json!({"seed": 1, "duration_s": duration_s, "nodes": [{"name": "a"}, {"name": "b"}],
           "links": [link], "flows": flows})
}

fn link(delay_s: f64) -> Value {
    json!({"a": "a", "b": "b", "rate_bps": 1e6, "delay_s": delay_s})
}

fn cbr(rate_bps: f64) -> Value {
    json!([{"name": "f", "src": "a", "dst": "b", "traffic": {"type": "cbr", "rate_bps": rate_bps},
            "packet_size": {"type": "fixed", "bytes": 1000}}])
}

/// The (field, message) of the error building `scenario` gives.
fn error(scenario: Value) -> (String, String) {
    match Simulation::from_json(&scenario.to_string()) {
        Ok(_) => panic!("accepted: {scenario}"),
        Err(e) => (e.field, e.message),
    }
}

#[test]
fn times_past_the_clock_are_errors_naming_the_field_and_the_limit() {
    // 300 days used to run and report 213.5 days.
    let (field, message) = error(pair(link(0.0), json!([]), 300.0 * DAY_S));
    assert_eq!(field, "duration_s");
    assert!(message.contains("18446744 s (213.5 days)"), "{message}");
    // An action at 250 days used to happen at 213.5 days.
    let mut s = pair(link(0.0), json!([]), 10.0);
    s["events"] = json!([{"action": "link_down", "at_s": 250.0 * DAY_S, "a": "a", "b": "b"}]);
    assert_eq!(error(s).0, "events[0].at_s");
    // A delay of 2e7 s used to wrap to a tiny delay: every packet arrived at once.
    let (field, message) = error(pair(link(2e7), cbr(8e3), 1.0));
    assert_eq!(field, "links[0].delay_s");
    assert!(message.contains("213.5 days"), "{message}");
    // The last second the clock holds is a valid duration.
    assert_eq!(
        Simulation::from_json(&pair(link(0.0), json!([]), MAX_TIME_S as f64).to_string()).unwrap().end(),
        MAX_TIME
    );
}

#[test]
fn a_duration_below_a_picosecond_is_reported_on_duration_s() {
    // 4e-13 s rounds to 0 ps; it used to be reported on flows[0].stop_s, which the input lacks.
    let (field, message) = error(pair(link(0.0), cbr(8e3), 4e-13));
    assert_eq!(field, "duration_s");
    assert!(message.contains("resolution of 1 ps"), "{message}");
    let (field, _) = error(pair(link(4e-13), cbr(8e3), 1.0));
    assert_eq!(field, "links[0].delay_s");
}

#[test]
fn a_source_near_the_clock_end_stops_instead_of_wrapping() {
    // 1000 B at 8 bit/s: one packet every 1000 s, emitted at 0, 1000, …, 18 446 000 s: 18 447
    // packets. The next would be at 18 447 000 s, past the clock: it saturates and never comes
    // (it used to wrap to an early instant and loop for ever).
    let mut sim = Simulation::from_json(&pair(link(0.0), cbr(8.0), MAX_TIME_S as f64).to_string()).unwrap();
    sim.run();
    assert!(sim.finished());
    let r = sim.results().expect("packets are conserved");
    assert_eq!(flow_u64(&r, "f", "sent_packets"), 18_447);
    assert_eq!(r.scalar("duration_s"), MAX_TIME_S as f64);
}

#[test]
fn a_tcp_timer_past_the_clock_end_never_fires() {
    // A connection opened 2 s before the end over a 10 s link gets no SYN-ACK: its SYN at
    // E − 2 s times out after 1 s (RFC 6298 §2.1 initial RTO) and is sent again at E − 1 s;
    // the next timeout (2 s, §5.5 back-off) falls past the end of the clock. Two SYNs (it used
    // to send seven at once when the timer wrapped round).
    let flows = json!([{"name": "t", "src": "a", "dst": "b", "traffic": {"type": "bulk"},
                        "start_s": MAX_TIME_S as f64 - 2.0}]);
    let r = run(pair(link(10.0), flows, MAX_TIME_S as f64));
    assert_eq!(port_u64(&r, "a->b", "transmitted_packets"), 2);
}

#[test]
fn rates_the_engine_cannot_represent_are_errors() {
    // 0.008 bit/s used to run at 1 bit/s; 1e308 bit/s at one packet per picosecond.
    for rate in [0.008, 1.5, 1e308] {
        let (field, message) = error(pair(link(0.0), cbr(rate), 1.0));
        assert_eq!(field, "flows[0].traffic.rate_bps", "{rate}");
        assert!(message.contains("bit/s"), "{message}");
    }
    // A whole rate (and one within 0.1 % of whole) is kept.
    assert!(Simulation::from_json(&pair(link(0.0), cbr(2000.4), 1.0).to_string()).is_ok());
    let mut l = link(0.0);
    l["rate_bps"] = json!(2.5);
    assert_eq!(error(pair(l, json!([]), 1.0)).0, "links[0].rate_bps");
}

#[test]
fn byte_counts_beyond_the_int64_columns_are_errors() {
    // 2^64 − 1 bytes used to run and then fail to fit the connections table.
    let flows = json!([{"name": "t", "src": "a", "dst": "b", "traffic": {"type": "transfer", "bytes": u64::MAX}}]);
    let (field, message) = error(pair(link(0.0), flows, 1.0));
    assert_eq!(field, "flows[0].traffic.bytes");
    assert!(message.contains("2^63 - 1"), "{message}");
}

#[test]
fn a_power_model_that_makes_energy_infinite_is_an_error() {
    // 1e6 bit/s of 1e-308 bit/s line cards is 1e314 cards: infinite watts.
    let mut l = link(0.0);
    l["power"] = json!({"type": "line_card", "card_capacity_bps": 1e-308, "card_w": 1.0});
    let (field, message) = error(pair(l, json!([]), 1.0));
    assert_eq!(field, "links[0].power");
    assert!(message.contains("finite"), "{message}");
    // A rate the port may switch to later counts too: 1e308 W for 1.8e7 s is not finite.
    let mut l = link(0.0);
    l["power"] =
        json!({"type": "rate_table", "levels": [{"rate_bps": 1e6, "watts": 1.0}, {"rate_bps": 1e9, "watts": 1e308}]});
    assert_eq!(error(pair(l, json!([]), 1.0)).0, "links[0].power");
}

#[test]
fn running_in_slices_gives_the_same_run() {
    let scenario = pair(link(0.001), cbr(8e5), 1.0).to_string();
    let mut whole = Simulation::from_json(&scenario).unwrap();
    whole.run();
    let mut sliced = Simulation::from_json(&scenario).unwrap();
    let mut slices = 0;
    while !sliced.run_slice(PS_PER_S, 7) {
        slices += 1;
    }
    // 100 packets, each emitted and delivered (a transmission's end with nothing waiting
    // behind it is no event): 200 events in slices of 7.
    assert_eq!(whole.events_processed(), 200);
    assert_eq!(slices, 200 / 7);
    assert!(sliced.finished());
    assert_eq!(sliced.results().unwrap().summary, whole.results().unwrap().summary);
}
