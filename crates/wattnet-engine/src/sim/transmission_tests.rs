//! A transmission's end is an event (`TxDone`) only when something needs it: hand-worked
//! traces of the events a port costs, the order of a transmission's end among events at the
//! same instant, and the ports settled without the event.

use std::sync::{Arc, Mutex};

use serde_json::{json, Value};

use super::Simulation;
use crate::control::{Command, PortController, PortView};
use crate::event::EventKind;
use crate::port::PortId;
use crate::results::Results;
use crate::time::Time;

const MS: Time = 1_000_000_000;

/// Events processed, by kind.
#[derive(Debug, Default, PartialEq, Eq)]
struct Counts {
    source_emit: u64,
    tx_done: u64,
    pipe_arrival: u64,
    other: u64,
}

/// Runs `sim` to its end as `run` does, counting the events by kind.
fn run_counting(sim: &mut Simulation) -> Counts {
    let mut n = Counts::default();
    while let Some(ev) = sim.events.pop_until(sim.end) {
        match ev.kind {
            EventKind::SourceEmit { .. } => n.source_emit += 1,
            EventKind::TxDone { .. } => n.tx_done += 1,
            EventKind::PipeArrival { .. } => n.pipe_arrival += 1,
            _ => n.other += 1,
        }
        sim.dispatch(ev);
    }
    sim.run();
    n
}

/// a → b over one 1 Mb/s link with 1 ms of delay: a 1000 B packet is 8 ms on the wire.
/// `flows` send 1000 B packets from a to b.
fn line(flows: Value, extra: &[(&str, Value)]) -> Simulation {
    let mut s = json!({"seed": 1, "duration_s": 0.05,
        "nodes": [{"name": "a"}, {"name": "b"}],
        "links": [{"a": "a", "b": "b", "rate_bps": 1e6, "delay_s": 0.001}],
        "flows": flows});
    for (k, v) in extra {
        s[*k] = v.clone();
    }
    Simulation::from_json(&s.to_string()).unwrap()
}

/// A CBR flow a → b of 1000 B packets every `every_ms`, from `start_ms` for `count` packets.
fn cbr(name: &str, start_ms: f64, every_ms: f64, count: u32) -> Value {
    json!({"name": name, "src": "a", "dst": "b", "traffic": {"type": "cbr", "rate_bps": 8e6 / every_ms},
           "packet_size": {"type": "fixed", "bytes": 1000},
           "start_s": start_ms / 1e3, "stop_s": (start_ms + every_ms * (count as f64 - 0.5)) / 1e3})
}

fn port_u64(r: &Results, sim: &Simulation, port: &str, column: &str) -> u64 {
    r.table("ports").u64s(column)[port_id(sim, port) as usize]
}

fn port_f64(r: &Results, sim: &Simulation, port: &str, column: &str) -> f64 {
    r.table("ports").f64s(column)[port_id(sim, port) as usize]
}

fn port_id(sim: &Simulation, port: &str) -> PortId {
    sim.net.ports.iter().position(|p| p.name == port).expect("a port") as PortId
}

#[test]
fn one_packet_costs_its_arrival_and_no_transmission_end() {
    let mut sim = line(json!([cbr("f", 0.0, 10.0, 1)]), &[]);
    let n = run_counting(&mut sim);
    assert_eq!(n, Counts { source_emit: 1, tx_done: 0, pipe_arrival: 1, other: 0 });
    let r = sim.results().unwrap();
    assert_eq!(port_u64(&r, &sim, "a->b", "transmitted_packets"), 1);
    assert_eq!(r.scalar("packets_received"), 1.0);
    assert_eq!(r.scalar("events"), 2.0);
}

#[test]
fn spaced_packets_cost_no_transmission_end() {
    // 1000 B every 10 ms, 8 ms each: the transmitter is idle when the next one comes.
    let mut sim = line(json!([cbr("f", 0.0, 10.0, 4)]), &[]);
    assert_eq!(run_counting(&mut sim), Counts { source_emit: 4, tx_done: 0, pipe_arrival: 4, other: 0 });
    let r = sim.results().unwrap();
    assert_eq!(port_u64(&r, &sim, "a->b", "transmitted_packets"), 4);
    assert_eq!(port_f64(&r, &sim, "a->b", "busy_time_s"), 0.032);
}

#[test]
fn back_to_back_packets_cost_the_ends_with_a_packet_behind_them() {
    // Two packets, at 0 and 4 ms: the second arrives while the first is on the wire, so the
    // first's end (8 ms) becomes an event and starts it; nothing waits behind the second.
    let mut sim = line(json!([cbr("f", 0.0, 4.0, 2)]), &[]);
    assert_eq!(run_counting(&mut sim), Counts { source_emit: 2, tx_done: 1, pipe_arrival: 2, other: 0 });
    // Three, at 0, 2 and 4 ms: the first's end is scheduled when the second arrives; when it
    // starts the second (8 ms) the third waits, so the second's end is scheduled at once; the
    // third ends alone. Ends 2, arrivals 3 (each head of the pipe schedules the next).
    let mut sim = line(json!([cbr("f", 0.0, 2.0, 3)]), &[]);
    assert_eq!(run_counting(&mut sim), Counts { source_emit: 3, tx_done: 2, pipe_arrival: 3, other: 0 });
    let r = sim.results().unwrap();
    assert_eq!(port_u64(&r, &sim, "a->b", "transmitted_packets"), 3);
    // The second waited 8 − 2 = 6 ms, the third 16 − 4 = 12 ms: 18 ms·packet over 50 ms.
    assert!((port_f64(&r, &sim, "a->b", "mean_queue_packets") - 18.0 / 50.0).abs() < 1e-12);
    // Received at 9, 17 and 25 ms (8 ms apart, 1 ms of delay).
    let delay_sum = r.table("flows").f64s("mean_delay_s")[0] * 3.0;
    assert!((delay_sum - (0.009 + 0.015 + 0.021)).abs() < 1e-12, "{delay_sum}");
}

/// s → b over 10 Mb/s (0.8 ms per 1000 B) with 5 ms of delay, x → b over 10 Mb/s with 10 ms,
/// and b → c at 1 Mb/s (8 ms per packet) whose buffer holds one packet, the one in service
/// included. One packet s → c at 0: on b → c from 5.8 to 13.8 ms. `second` is one more packet,
/// which reaches b at exactly 13.8 ms.
fn tie(second: Value) -> Simulation {
    let fast = |a: &str, delay: f64| json!({"a": a, "b": "b", "rate_bps": 1e7, "delay_s": delay});
    let flow = |name: &str, src: &str, at_ms: f64| {
        json!({"name": name, "src": src, "dst": "c", "traffic": {"type": "cbr", "rate_bps": 8e5},
               "packet_size": {"type": "fixed", "bytes": 1000}, "start_s": at_ms / 1e3, "stop_s": at_ms / 1e3 + 1e-3})
    };
    let s = json!({"seed": 1, "duration_s": 0.05,
        "nodes": [{"name": "s"}, {"name": "x"}, {"name": "b"}, {"name": "c"}],
        "links": [fast("s", 0.005), fast("x", 0.01),
                  {"a": "b", "b": "c", "rate_bps": 1e6, "delay_s": 0.0,
                   "queue": {"type": "droptail", "limit_packets": 1, "count_in_service": true}}],
        "flows": [flow("first", "s", 0.0), flow(second["name"].as_str().unwrap(), second["src"].as_str().unwrap(),
                                                 second["at_ms"].as_f64().unwrap())]});
    Simulation::from_json(&s.to_string()).unwrap()
}

#[test]
fn at_its_end_instant_a_transmission_has_ended_only_for_events_scheduled_after_it_started() {
    // The second packet leaves x at 3 ms: its arrival at b (13.8 ms) was scheduled at 3 ms,
    // before the first started on b → c (5.8 ms), and so runs before that transmission's end
    // as it always did: the port is still busy, its one-packet buffer full, the packet dropped.
    // The second packet leaves s at 8 ms: its arrival at b (13.8 ms) was scheduled at 8 ms,
    // after the first started on b → c, so runs after that transmission's end: the port is
    // idle, settled at the visit, and sends it at once.
    for (second, dropped, transmitted) in [
        (json!({"name": "early", "src": "x", "at_ms": 3.0}), 1, 1),
        (json!({"name": "late", "src": "s", "at_ms": 8.0}), 0, 2),
    ] {
        let mut sim = tie(second);
        let n = run_counting(&mut sim);
        let r = sim.results().unwrap();
        assert_eq!(port_u64(&r, &sim, "b->c", "dropped_packets"), dropped);
        assert_eq!(port_u64(&r, &sim, "b->c", "transmitted_packets"), transmitted);
        // Neither the drop nor anything else needed an end event (no packet waited).
        assert_eq!(n.tx_done, 0);
        assert_eq!(r.scalar("packets_received"), transmitted as f64);
    }
}

#[test]
fn an_end_scheduled_late_runs_at_its_reserved_place() {
    // Port b → c (a buffer of two, the one in service included) is busy with the first packet
    // from 5.8 to 13.8 ms. A packet from x (sent at 0) reaches b at 10.8 ms and waits: the
    // first's end is scheduled then, with the number reserved at 5.8 ms. A third packet,
    // sent from s at 8 ms, reaches b at 13.8 ms, its arrival scheduled at 8 ms: after the
    // start, before the end was scheduled. With the reserved number the end runs first, as
    // it did when every end was scheduled at the start, and the third finds one packet in
    // service and none waiting (admitted); numbered when scheduled, the end would run after
    // the arrival, which would find the buffer full.
    let flow = |name: &str, src: &str, at_ms: f64| {
        json!({"name": name, "src": src, "dst": "c", "traffic": {"type": "cbr", "rate_bps": 8e5},
               "packet_size": {"type": "fixed", "bytes": 1000}, "start_s": at_ms / 1e3, "stop_s": at_ms / 1e3 + 1e-3})
    };
    let fast = |a: &str, delay: f64| json!({"a": a, "b": "b", "rate_bps": 1e7, "delay_s": delay});
    let s = json!({"seed": 1, "duration_s": 0.05,
        "nodes": [{"name": "s"}, {"name": "x"}, {"name": "b"}, {"name": "c"}],
        "links": [fast("s", 0.005), fast("x", 0.01),
                  {"a": "b", "b": "c", "rate_bps": 1e6, "delay_s": 0.0,
                   "queue": {"type": "droptail", "limit_packets": 2, "count_in_service": true}}],
        "flows": [flow("first", "s", 0.0), flow("behind", "x", 0.0), flow("third", "s", 8.0)]});
    let mut sim = Simulation::from_json(&s.to_string()).unwrap();
    let n = run_counting(&mut sim);
    let r = sim.results().unwrap();
    // At 13.8 ms the first's end (reserved at 5.8 ms) runs first and starts the second; the
    // third (scheduled at 8 ms) finds one in service and none waiting: admitted under 2.
    assert_eq!(port_u64(&r, &sim, "b->c", "dropped_packets"), 0);
    assert_eq!(port_u64(&r, &sim, "b->c", "transmitted_packets"), 3);
    // Ends as events on b → c: the first's (a packet waited) and the second's (the third
    // waited behind it when it started).
    assert_eq!(n.tx_done, 2);
    // The second waited 13.8 − 10.8 = 3 ms, the third 21.8 − 13.8 = 8 ms.
    let area = port_f64(&r, &sim, "b->c", "mean_queue_packets") * 50.0;
    assert!((area - 11.0).abs() < 1e-9, "{area}");
}

#[test]
fn a_link_going_down_loses_the_packet_being_serialized_and_its_unfinished_time() {
    // One packet at 0 (8 ms on the wire), the link down at 3 ms.
    let down = json!([{"action": "link_down", "at_s": 0.003, "a": "a", "b": "b"}]);
    let mut sim = line(json!([cbr("f", 0.0, 10.0, 1)]), &[("events", down.clone())]);
    let n = run_counting(&mut sim);
    let r = sim.results().unwrap();
    assert_eq!(port_u64(&r, &sim, "a->b", "link_down_drops"), 1);
    assert_eq!(port_u64(&r, &sim, "a->b", "transmitted_packets"), 0);
    assert_eq!(port_f64(&r, &sim, "a->b", "busy_time_s"), 0.003);
    assert_eq!((r.scalar("packets_dropped"), r.scalar("packets_in_network")), (1.0, 0.0));
    // Its arrival, scheduled when it started, finds the pipe empty and does nothing.
    assert_eq!(n, Counts { source_emit: 1, tx_done: 0, pipe_arrival: 1, other: 1 });
    // With a second packet waiting, the end scheduled for the first goes stale too.
    let mut sim = line(json!([cbr("f", 0.0, 2.0, 2)]), &[("events", down)]);
    let n = run_counting(&mut sim);
    let r = sim.results().unwrap();
    assert_eq!(port_u64(&r, &sim, "a->b", "link_down_drops"), 2);
    assert_eq!(port_u64(&r, &sim, "a->b", "transmitted_packets"), 0);
    assert_eq!(port_f64(&r, &sim, "a->b", "busy_time_s"), 0.003);
    assert_eq!(n, Counts { source_emit: 2, tx_done: 1, pipe_arrival: 1, other: 1 });
}

#[test]
fn an_arrival_left_by_a_lost_packet_leaves_the_next_packet_on_the_wire_alone() {
    // The first packet (0–8 ms on the wire, due at b at 9 ms) is lost when the link goes down
    // at 3 ms; the link is back at 4 ms and a second packet is sent at 5 ms (on the wire 5–13
    // ms, due at 14 ms). The lost packet's arrival at 9 ms finds the second in the pipe: not
    // its packet, so it does nothing, and the second arrives at 14 ms, 9 ms after it left.
    let events = json!([{"action": "link_down", "at_s": 0.003, "a": "a", "b": "b"},
                        {"action": "link_up", "at_s": 0.004, "a": "a", "b": "b"}]);
    let mut sim = line(json!([cbr("first", 0.0, 10.0, 1), cbr("second", 5.0, 10.0, 1)]), &[("events", events)]);
    let n = run_counting(&mut sim);
    let r = sim.results().unwrap();
    assert_eq!(n, Counts { source_emit: 2, tx_done: 0, pipe_arrival: 2, other: 2 });
    assert_eq!(port_u64(&r, &sim, "a->b", "link_down_drops"), 1);
    assert_eq!(r.table("flows").u64s("received_packets"), &[0, 1]);
    assert_eq!(r.table("flows").f64s("mean_delay_s")[1], 0.009);
}

#[test]
fn a_link_going_down_after_the_end_counts_the_packet_transmitted() {
    // The end at 8 ms has no event; the link goes down at 8.5 ms with the packet on the wire.
    let down = json!([{"action": "link_down", "at_s": 0.0085, "a": "a", "b": "b"}]);
    let mut sim = line(json!([cbr("f", 0.0, 10.0, 1)]), &[("events", down)]);
    sim.run();
    let r = sim.results().unwrap();
    assert_eq!(port_u64(&r, &sim, "a->b", "transmitted_packets"), 1);
    assert_eq!(port_u64(&r, &sim, "a->b", "link_down_drops"), 1);
    assert_eq!(port_f64(&r, &sim, "a->b", "busy_time_s"), 0.008);
}

#[test]
fn counters_are_settled_whenever_they_are_read() {
    let mut sim = line(json!([cbr("f", 0.0, 10.0, 1)]), &[]);
    // Mid-serialization: nothing transmitted yet, the packet in the network, busy so far.
    sim.run_until(5 * MS);
    let r = sim.results().unwrap();
    assert_eq!(port_u64(&r, &sim, "a->b", "transmitted_packets"), 0);
    assert_eq!(port_f64(&r, &sim, "a->b", "busy_time_s"), 0.005);
    assert_eq!(r.scalar("packets_in_network"), 1.0);
    // Stopped exactly at its end: every event due by then has run, the end included.
    sim.run_until(8 * MS);
    let r = sim.results().unwrap();
    assert_eq!(port_u64(&r, &sim, "a->b", "transmitted_packets"), 1);
    assert_eq!(port_u64(&r, &sim, "a->b", "transmitted_bytes"), 1000);
    assert_eq!(sim.net.ports[port_id(&sim, "a->b") as usize].last_tx_end, 8 * MS);
    assert_eq!(r.scalar("packets_in_network"), 1.0, "on the wire until 9 ms");
}

#[test]
fn recorder_samples_see_the_transmissions_ended_by_then() {
    // Two packets 10 ms apart; samples every 4 ms. The sample at 8 ms was scheduled at 4 ms,
    // after the first transmission started (0 ms), and so runs after its end, as the end's
    // event did: 8000 bits in that interval. The second ends at 18 ms: counted at 20 ms.
    let recorder = json!({"interval_s": 0.004, "ports": ["a->b"], "quantities": ["departure_rate_bps"]});
    let mut sim = line(json!([cbr("f", 0.0, 10.0, 2)]), &[("recorder", recorder)]);
    let n = run_counting(&mut sim);
    assert_eq!(n.tx_done, 0);
    let r = sim.results().unwrap();
    let values = r.table("timeseries").f64s("value");
    assert_eq!(&values[..6], &[0.0, 2e6, 0.0, 0.0, 2e6, 0.0]);
}

/// Records what a policy sees at each departure; never acts.
#[derive(Debug)]
struct Watcher(Arc<Mutex<Vec<(Time, u64, bool)>>>);

impl PortController for Watcher {
    fn on_departure(&mut self, view: &PortView) -> Option<Command> {
        self.0.lock().unwrap().push((view.now, view.departed_bytes, view.transmitting));
        None
    }
}

#[test]
fn a_port_with_a_policy_gets_every_transmission_end() {
    let mut sim = line(json!([cbr("f", 0.0, 10.0, 3)]), &[]);
    let seen = Arc::new(Mutex::new(vec![]));
    let id = port_id(&sim, "a->b");
    sim.net.ports[id as usize].controller = Some(Box::new(Watcher(seen.clone())));
    let n = run_counting(&mut sim);
    assert_eq!(n, Counts { source_emit: 3, tx_done: 3, pipe_arrival: 3, other: 0 });
    assert_eq!(*seen.lock().unwrap(), [(8 * MS, 1000, false), (18 * MS, 2000, false), (28 * MS, 3000, false)]);
}

#[test]
fn a_port_that_sleeps_gets_every_transmission_end_from_the_one_under_way_on() {
    // The port is told to sleep when idle at 3 ms, while the first packet is on the wire:
    // that transmission's end becomes an event, and the port goes to sleep then (8 ms, 1 ms
    // to fall asleep); the second packet (10 ms) wakes it (1 ms), and it sleeps again after.
    let sleep = json!([{"action": "sleep", "at_s": 0.003, "port": "a->b"}]);
    let mut sim = line(json!([cbr("f", 0.0, 10.0, 2)]), &[("events", sleep)]);
    let id = port_id(&sim, "a->b") as usize;
    sim.net.ports[id].transition = MS;
    let n = run_counting(&mut sim);
    assert_eq!((n.tx_done, n.pipe_arrival), (2, 2));
    let r = sim.results().unwrap();
    assert_eq!(port_u64(&r, &sim, "a->b", "sleeps"), 2);
    // Woken at 10 ms, the second starts at 11 ms and ends at 19 ms.
    assert_eq!(sim.net.ports[port_id(&sim, "a->b") as usize].last_tx_end, 19 * MS);
}

#[test]
fn a_capture_records_a_transmission_at_its_start_stamped_with_its_end() {
    let dir = std::env::temp_dir().join(format!("wattnet-lazy-pcap-{}", std::process::id()));
    let mut sim = line(json!([cbr("f", 0.0, 10.0, 2)]), &[("pcap", json!([{"port": "a->b"}]))]);
    sim.run_until(3 * MS);
    let files = sim.capture_to(&dir).unwrap();
    let n = run_counting(&mut sim);
    sim.flush_captures().unwrap();
    let bytes = std::fs::read(&files[0]).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    // Opened at 3 ms, the capture misses the transmission then under way (0–8 ms) and records
    // the one starting at 10 ms, stamped with its end at 18 ms; no end is an event for it.
    assert_eq!(n.tx_done, 0);
    assert_eq!((bytes.len() - 24) / (16 + 28), 1);
    assert_eq!(u32::from_le_bytes(bytes[24..28].try_into().unwrap()), 0);
    assert_eq!(u32::from_le_bytes(bytes[28..32].try_into().unwrap()), 18_000_000);
}
