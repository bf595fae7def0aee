//! Energy accounting and power-management policies inside whole runs, hand-computed.

mod common;
use common::*;
use serde_json::json;

#[test]
fn a_metered_link_integrates_rate_changes_and_switch_off_exactly() {
    // Frequency scaling, 1 W static + 1 W·r/10 Mb/s, 0.2 W asleep, both directions metered.
    // a->b: 10 Mb/s for 2 s (2 W: 4 J), 5 Mb/s for 3 s (1.5 W: 4.5 J), off for 5 s (0.2 W: 1 J)
    // = 9.5 J. b->a: 10 Mb/s for 5 s (10 J), off for 5 s (1 J) = 11 J.
    // Full rate, always on: 2 W × 10 s per direction = 40 J.
    let power =
        json!({"type": "rate_scaling", "static_w": 1.0, "dynamic_w": 1.0, "scaling": "frequency", "sleep_w": 0.2});
    let r = run(json!({
        "seed": 1, "duration_s": 10.0,
        "nodes": [{"name": "a"}, {"name": "b"}],
        "links": [{"a": "a", "b": "b", "rate_bps": 10e6, "delay_s": 0.001, "power": power}],
        "events": [{"action": "set_rate", "at_s": 2.0, "port": "a->b", "rate_bps": 5e6},
                   {"action": "link_down", "at_s": 5.0, "a": "a", "b": "b"}]
    }));
    assert!((port_f64(&r, "a->b", "energy_j") - 9.5).abs() < 1e-9);
    assert!((port_f64(&r, "b->a", "energy_j") - 11.0).abs() < 1e-9);
    assert!((port_f64(&r, "a->b", "asleep_time_s") - 5.0).abs() < 1e-12);
    assert!((r.scalar("energy_j") - 20.5).abs() < 1e-9);
    assert!((r.scalar("full_rate_energy_j") - 40.0).abs() < 1e-9);
    // The rate-time histogram of a->b: 2 s at 10 Mb/s, 8 s at 5 Mb/s (asleep counts at its rate).
    let rt = r.table("rate_time");
    assert_eq!(rt.f64s("rate_bps")[..2], [10e6, 5e6]);
    assert!((rt.f64s("time_s")[0] - 2.0).abs() < 1e-12 && (rt.f64s("time_s")[1] - 8.0).abs() < 1e-12);
}

#[test]
fn practra_steps_down_to_the_slowest_rate_that_carries_a_steady_load() {
    // 4.5 Mb/s of 1000 B CBR into N1 (rates 1…10 Mb/s, d 10 ms, δ 1 ms, mRCI 100 ms, T_s 10 ms).
    // Each 10 ms sample holds 5 or 6 packets (4.0 or 4.8 Mb/s), so r̂_f stays within
    // [4.0, 4.8] Mb/s once settled: below 5 but never below 4. practRA steps down one rate
    // per mRCI while the queue is empty and r̂_f < r_{i−1}: 10 → 9 → 8 → 7 → 6 → 5, and there
    // it stays: q/r_i ≤ one packet / 5 Mb/s = 1.6 ms < d, and (δ·r̂_f + q)/6 Mb/s < 2.2 ms < d − δ.
    let controller = json!({"type": "practra", "rates_bps": [1e6, 2e6, 3e6, 4e6, 5e6, 6e6, 7e6, 8e6, 9e6, 10e6],
                            "delay_bound_s": 0.010, "min_rate_change_interval_s": 0.1, "sample_interval_s": 0.01});
    let r = run(json!({
        "seed": 1, "duration_s": 5.0,
        "nodes": [{"name": "s"}, {"name": "n1"}, {"name": "d"}],
        "links": [{"a": "s", "b": "n1", "rate_bps": 100e6, "delay_s": 0.0},
                  {"a": "n1", "b": "d", "rate_bps": 10e6, "delay_s": 0.005, "transition_s": 0.001,
                   "a_to_b": {"controller": controller}}],
        "flows": [{"name": "cbr", "src": "s", "dst": "d", "traffic": {"type": "cbr", "rate_bps": 4.5e6}}]
    }));
    assert_eq!(port_f64(&r, "n1->d", "final_rate_bps"), 5e6);
    assert_eq!(port_u64(&r, "n1->d", "rate_changes"), 5);
    assert_eq!(port_u64(&r, "n1->d", "dropped_packets"), 0);
    let times = r.table("rate_changes").f64s("time_s").to_vec();
    assert!(times.windows(2).all(|w| w[1] - w[0] >= 0.1 - 1e-12), "mRCI respected: {times:?}");
    assert_eq!(r.table("rate_changes").f64s("new_rate_bps"), &[9e6, 8e6, 7e6, 6e6, 5e6]);
}

/// Two nodes joined by a 1 Gb/s link with no propagation delay, optionally with 802.3az LPI
/// (1000BASE-T) and a constant 1 W power model; UDP flows of 1500 B frames.
fn gigabit_link(lpi: bool, duration_s: f64, flows: serde_json::Value) -> wattnet_engine::Results {
    let mut link =
        json!({"a": "s", "b": "d", "rate_bps": 1e9, "delay_s": 0.0, "power": {"type": "constant", "active_w": 1.0}});
    if lpi {
        link["lpi"] = json!({"phy": "1000base_t"});
    }
    run(
        json!({"seed": 1, "duration_s": duration_s, "nodes": [{"name": "s"}, {"name": "d"}], "links": [link], "flows": flows}),
    )
}

/// A flow of exactly one 1500 B frame at `at_s`.
fn one_frame(name: &str, at_s: f64) -> serde_json::Value {
    json!({"name": name, "src": "s", "dst": "d", "traffic": {"type": "cbr", "rate_bps": 1e6},
           "packet_size": {"type": "fixed", "bytes": 1500}, "start_s": at_s, "stop_s": at_s + 1e-3})
}

#[test]
fn low_power_idle_delays_a_frame_by_the_wake_time_and_one_arriving_while_it_goes_to_sleep_longer() {
    // 1000BASE-T: T_w = 16.5 µs, T_s = 182 µs, a 1500 B frame takes 12 µs.
    // Frame a at 10 ms finds the port in low-power idle: it waits T_w, +16.5 µs. Sent from
    // 10.0165 to 10.0285 ms; the port then goes to sleep until 10.2105 ms. Frame b arrives at
    // 10.1285 ms, during T_s: it waits 82 µs for the end of T_s and 16.5 µs to wake, +98.5 µs.
    // Without LPI both are sent on arrival (12 µs each, no delay on the wire).
    let flows = json!([one_frame("a", 0.010), one_frame("b", 0.0101285)]);
    let (with, without) = (gigabit_link(true, 0.02, flows.clone()), gigabit_link(false, 0.02, flows));
    let added_ps = |flow: &str| {
        ((flow_f64(&with, flow, "mean_delay_s") - flow_f64(&without, flow, "mean_delay_s")) * 1e12).round()
    };
    assert_eq!(flow_f64(&without, "a", "mean_delay_s"), 12e-6);
    assert_eq!(added_ps("a"), 16_500_000.0);
    assert_eq!(added_ps("b"), 98_500_000.0);
    // s->d was in low-power idle at the start and after b; after a, its T_s ran into b's wake-up.
    assert_eq!(port_u64(&with, "s->d", "sleeps"), 2);
    assert_eq!(port_u64(&with, "d->s", "sleeps"), 1);
}

#[test]
fn low_power_idle_energy_of_one_frame_per_millisecond_matches_the_hand_computation() {
    // docs/models/energy.md §4's check at 1000BASE-T, P_active = 1 W, LPI at 10 % (0.1 W), quiet
    // T_q = 20 ms and refresh T_r = 198 µs at full power. One 1500 B frame per ms from 50 ms to
    // 59 ms (10 frames); the run ends at 59.5 ms.
    // s->d: in LPI from 0 to 50 ms: cycles [0, 20.198) and [20.198, 40.396) ms refresh for
    //   2 × 0.198 ms; 0.396 ms at 1 W + 49.604 ms at 0.1 W = 5.3564 mJ.
    //   Each frame: T_w + frame + T_s = 16.5 + 12 + 182 = 210.5 µs at 1 W (21 % of each ms),
    //   ×10 = 2.105 mJ; then LPI, 789.5 µs per ms (no refresh: T_q is 20 ms), 9 × 789.5 µs +
    //   the last 289.5 µs = 7.395 ms at 0.1 W = 0.7395 mJ. Total 8.2009 mJ. In the steady state
    //   that is 0.2105 + 0.7895 × 0.1 = 0.28945 W per ms, the "≈ 29 % of full" of docs/models/energy.md §4.
    // d->s: idle throughout: 59.5 ms of LPI whose refresh bursts are the same 0.396 ms:
    //   0.396 ms at 1 W + 59.104 ms at 0.1 W = 6.3064 mJ.
    let flow = json!({"name": "f", "src": "s", "dst": "d", "traffic": {"type": "cbr", "rate_bps": 12e6},
                      "packet_size": {"type": "fixed", "bytes": 1500}, "start_s": 0.05});
    let r = gigabit_link(true, 0.0595, json!([flow]));
    assert_eq!(flow_u64(&r, "f", "received_packets"), 10);
    assert!((port_f64(&r, "s->d", "energy_j") - 8.2009e-3).abs() < 1e-15, "{}", port_f64(&r, "s->d", "energy_j"));
    assert!((port_f64(&r, "d->s", "energy_j") - 6.3064e-3).abs() < 1e-15, "{}", port_f64(&r, "d->s", "energy_j"));
    assert!((port_f64(&r, "s->d", "low_power_idle_time_s") - 57.395e-3).abs() < 1e-15);
    assert_eq!(port_u64(&r, "s->d", "sleeps"), 11);
    // Every frame waits T_w: 16.5 + 12 µs from emission to delivery.
    assert!((flow_f64(&r, "f", "mean_delay_s") - 28.5e-6).abs() < 1e-18);
}

#[test]
fn low_power_idle_follows_the_link_going_down_and_up() {
    // 1000BASE-T LPI, 1 W active, 0 W off. A frame at 4.9 ms: s->d wakes (16.5 µs), sends
    // (12 µs) and is going to sleep (T_s, until 5.1105 ms) when the link goes down at 5 ms; that
    // transition's end finds the port off and is ignored. Up at 10 ms, each port goes to sleep
    // (T_s = 182 µs at 1 W) and stays in LPI (0.1 W) to 30 ms: 19.818 ms, below T_q, no refresh.
    // s->d: 4.9 ms LPI (0.49 mJ) + 0.1 ms awake (0.1 mJ) + off + 0.182 mJ + 1.9818 mJ = 2.7538 mJ.
    // d->s: 5 ms LPI (0.5 mJ) + off + 0.182 mJ + 1.9818 mJ = 2.6638 mJ.
    let r = run(json!({"seed": 1, "duration_s": 0.03, "nodes": [{"name": "s"}, {"name": "d"}],
        "links": [{"a": "s", "b": "d", "rate_bps": 1e9, "delay_s": 0.0, "lpi": {"phy": "1000base_t"},
                   "power": {"type": "constant", "active_w": 1.0}}],
        "flows": [one_frame("f", 0.0049)],
        "events": [{"action": "link_down", "at_s": 0.005, "a": "s", "b": "d"},
                   {"action": "link_up", "at_s": 0.01, "a": "s", "b": "d"}]}));
    assert_eq!(flow_u64(&r, "f", "received_packets"), 1);
    assert!((port_f64(&r, "s->d", "energy_j") - 2.7538e-3).abs() < 1e-15, "{}", port_f64(&r, "s->d", "energy_j"));
    assert!((port_f64(&r, "d->s", "energy_j") - 2.6638e-3).abs() < 1e-15, "{}", port_f64(&r, "d->s", "energy_j"));
    assert_eq!((port_u64(&r, "s->d", "sleeps"), port_u64(&r, "d->s", "sleeps")), (2, 2));
}

#[test]
fn lpi_can_be_set_per_direction_and_names_its_field_when_wrong() {
    // Only a->b has LPI: a lone frame back from d is not delayed.
    let flows = json!([{"name": "back", "src": "d", "dst": "s", "traffic": {"type": "cbr", "rate_bps": 1e6},
                        "packet_size": {"type": "fixed", "bytes": 1500}, "start_s": 0.01, "stop_s": 0.011}]);
    let r = run(json!({"seed": 1, "duration_s": 0.02, "nodes": [{"name": "s"}, {"name": "d"}],
        "links": [{"a": "s", "b": "d", "rate_bps": 1e9, "delay_s": 0.0, "a_to_b": {"lpi": {"phy": "1000base_t"}}}], "flows": flows}));
    assert_eq!(flow_f64(&r, "back", "mean_delay_s"), 12e-6);
    assert_eq!(port_u64(&r, "s->d", "sleeps"), 1);
    assert_eq!(port_u64(&r, "d->s", "sleeps"), 0);
    let bad = json!({"seed": 1, "duration_s": 1.0, "nodes": [{"name": "s"}, {"name": "d"}],
        "links": [{"a": "s", "b": "d", "rate_bps": 1e9, "delay_s": 0.0, "b_to_a": {"lpi": {"wake_s": 1e-6}}}]});
    let err = wattnet_engine::Simulation::from_json(&bad.to_string()).err().expect("an error");
    assert_eq!(err.field, "links[0].b_to_a.lpi.sleep_s");
    // A port sleeps by 802.3az or by a policy, not both.
    let both = json!({"seed": 1, "duration_s": 1.0, "nodes": [{"name": "s"}, {"name": "d"}],
        "links": [{"a": "s", "b": "d", "rate_bps": 1e9, "delay_s": 0.0, "lpi": {"phy": "1000base_t"},
                   "a_to_b": {"controller": {"type": "opportunistic_sleep"}}}]});
    let err = wattnet_engine::Simulation::from_json(&both.to_string()).err().expect("an error");
    assert_eq!(err.field, "links[0].a_to_b.controller");
    let bad_host = json!({"seed": 1, "duration_s": 1.0,
        "nodes": [{"name": "s", "power": {"type": "battery", "tx_j_per_packet": 0.001, "rx_j_per_packet": 0.001, "idle_w": -1.0}}]});
    let err = wattnet_engine::Simulation::from_json(&bad_host.to_string()).err().expect("an error");
    assert_eq!(err.field, "nodes[0].power.idle_w");
}

#[test]
fn opportunistic_sleeping_on_a_periodic_arrival_pattern() {
    // 1000 B every 10 ms (800 kb/s CBR from 0) into an 8 Mb/s port: 1 ms on the wire, 9 ms idle.
    // δ = 1 ms, 1 W active, 0.1 W asleep, 100 ms. The first idle period (1 → 10 ms) seeds the
    // prediction Î = 9 ms > 2δ, so from the second frame on the port sleeps after each one:
    //   [0, 11) awake (frames 0 and 1 sent at once); [11, 12) going to sleep; [12, 20) asleep;
    //   then for each of the frames at 20, 30, …, 90 ms: waking δ, sending 1 ms, going to sleep δ
    //   (3 ms at 1 W), asleep 7 ms.
    // The port goes to sleep 9 times (after frames 1–9).
    // Awake 11 + 1 + 8 × 3 = 36 ms (36 mJ), asleep 8 + 8 × 7 = 64 ms (6.4 mJ): 42.4 mJ.
    // Delay: frames 0 and 1 take 1 ms, the 8 others 1 ms + δ: mean (2 + 16)/10 = 1.8 ms.
    let scenario = |transition_s: f64| {
        json!({"seed": 1, "duration_s": 0.1, "nodes": [{"name": "s"}, {"name": "d"}],
            "links": [{"a": "s", "b": "d", "rate_bps": 8e6, "delay_s": 0.0,
                       "a_to_b": {"power": {"type": "constant", "active_w": 1.0, "sleep_w": 0.1},
                                  "controller": {"type": "opportunistic_sleep", "transition_s": transition_s}}}],
            "flows": [{"name": "f", "src": "s", "dst": "d", "traffic": {"type": "cbr", "rate_bps": 8e5}}]})
    };
    let r = run(scenario(0.001));
    assert_eq!(flow_u64(&r, "f", "received_packets"), 10);
    assert!((port_f64(&r, "s->d", "energy_j") - 0.0424).abs() < 1e-15, "{}", port_f64(&r, "s->d", "energy_j"));
    assert!((port_f64(&r, "s->d", "asleep_time_s") - 0.064).abs() < 1e-15);
    assert_eq!(port_u64(&r, "s->d", "sleeps"), 9);
    assert!((flow_f64(&r, "f", "mean_delay_s") - 0.0018).abs() < 1e-18);
    // δ = 4.5 ms: Î = 9 ms is not above 2δ, so the port never sleeps: 1 W × 100 ms, 1 ms delay.
    let r = run(scenario(0.0045));
    assert_eq!(port_u64(&r, "s->d", "sleeps"), 0);
    assert!((port_f64(&r, "s->d", "energy_j") - 0.1).abs() < 1e-15);
    assert_eq!(flow_f64(&r, "f", "mean_delay_s"), 0.001);
}

/// A client c downloading 10 segments of 1460 B from server s over one 8 Mb/s link with 10 ms
/// of delay each way (ns2 profile: initial window 2, an ACK per segment), metered at 1 W per
/// direction, the nodes' host models given.
fn ten_segment_download(client: serde_json::Value, server: serde_json::Value) -> wattnet_engine::Results {
    run(json!({"seed": 1, "duration_s": 0.2,
        "nodes": [{"name": "c", "power": client}, {"name": "s", "power": server}],
        "links": [{"a": "c", "b": "s", "rate_bps": 8e6, "delay_s": 0.01, "power": {"type": "constant", "active_w": 1.0}}],
        "flows": [{"name": "t", "src": "s", "dst": "c", "traffic": {"type": "transfer", "bytes": 14600},
                   "tcp": {"profile": "ns2", "mss_bytes": 1460}}]}))
}

fn node_f64(r: &wattnet_engine::Results, node: &str, col: &str) -> f64 {
    r.table("nodes").f64s(col)[row(r, "nodes", "node", node)]
}

fn node_u64(r: &wattnet_engine::Results, node: &str, col: &str) -> u64 {
    r.table("nodes").u64s(col)[row(r, "nodes", "node", node)]
}

// The download, by hand (ms; a 40 B control packet takes 0.04 ms on the wire, a 1500 B
// segment 1.5 ms). s sends its SYN at 0; c gets it at 10.04 and answers SYN-ACK; s gets that at
// 20.08 and sends the handshake's ACK and segments 1–2 (cwnd 2), which reach c at 30.12, 31.62
// and 33.12. c ACKs each segment at once; ACK1 (41.66 at s) lets out segments 3–4, ACK2
// (43.16) 5–6, ACK3 (63.20) 7–8, ACK4 (64.70) 9–10 and the FIN, which leave s back to back
// until 69.24 and reach c at 74.70, 76.20, 77.70, 79.20 (the last segment: transfer complete)
// and 79.24 (FIN). c answers the FIN with FIN+ACK at 79.24 (at s 89.28); s's last ACK reaches c
// at 99.32.
// So c sends 12 packets (SYN-ACK, 10 ACKs, FIN+ACK) and receives 14 (SYN, the handshake's ACK,
// 10 segments, FIN, the last ACK); s sends those 14 and receives the 12.

#[test]
fn a_battery_client_pays_per_packet_and_idles_between() {
    // c: e_tx = 1 mJ, e_rx = 2 mJ, P_idle = 1 W. Its active span runs from the SYN (10.04) to the
    // last ACK (99.32): 89.28 ms, less sending 12 × 0.04 = 0.48 ms and receiving 10 × 1.5 +
    // 4 × 0.04 = 15.16 ms: T_idle = 73.64 ms. E = 12 × 1 + 14 × 2 + 73.64 mJ = 113.64 mJ.
    let battery = json!({"type": "battery", "tx_j_per_packet": 0.001, "rx_j_per_packet": 0.002, "idle_w": 1.0});
    let r = ten_segment_download(battery, serde_json::Value::Null);
    assert_eq!((node_u64(&r, "c", "packets_sent"), node_u64(&r, "c", "packets_received")), (12, 14));
    assert_eq!((node_u64(&r, "s", "packets_sent"), node_u64(&r, "s", "packets_received")), (14, 12));
    assert!((node_f64(&r, "c", "host_energy_j") - 0.11364).abs() < 1e-15, "{}", node_f64(&r, "c", "host_energy_j"));
    assert!(node_f64(&r, "s", "host_energy_j").is_nan());
    // Each node's one output port at 1 W for 0.2 s.
    assert!((node_f64(&r, "c", "ports_energy_j") - 0.2).abs() < 1e-15);

    // With P_tx = 2 W, P_rx = 1 W and ACKs costing as much as data: each of c's 12 control
    // packets sent and 4 received takes a full segment's 1.5 ms. T_tx = 18 ms, T_rx = 15 + 6 =
    // 21 ms, T_idle = 89.28 − 39 = 50.28 ms. E = 12 + 2 × 18 + 28 + 1 × 21 + 50.28 = 147.28 mJ.
    let battery = json!({"type": "battery", "tx_j_per_packet": 0.001, "rx_j_per_packet": 0.002, "idle_w": 1.0,
                         "tx_w": 2.0, "rx_w": 1.0, "ack_cost_equals_data": true});
    let r = ten_segment_download(battery, serde_json::Value::Null);
    assert!((node_f64(&r, "c", "host_energy_j") - 0.14728).abs() < 1e-15, "{}", node_f64(&r, "c", "host_energy_j"));
}

#[test]
fn an_mptcp_host_pays_for_its_connection_by_rate_and_rtt() {
    // s: P = 10 W + 2 W·τ/(1 Mb/s) + 1 W·RTT/(100 ms), integrated over 100 ms intervals. Its
    // connection runs from 0 to completion at 79.2 ms (one interval, closed at completion) and
    // delivers 116 800 bits: τ·duration = 116 800 bits. RTT samples (one timed segment per RTT,
    // ns2): the SYN 20.08 ms, segment 1 (sent 20.08, ACKed 41.66) 21.58 ms, segment 3 (41.66 →
    // 63.20) 21.54 ms; segment 7's (→ 84.74) comes after completion. SRTT after each, in ps
    // (RFC 6298, integer): 20 080 000 000, 20 267 500 000, 20 426 562 500: at completion 20.426 562 5 ms.
    // E = 0.0792 × 10 + 2 × 0.1168 + 0.0792 × 0.204 265 625 = 1.041 777 837 5 J.
    let host = json!({"type": "mptcp_host", "base_w": 10.0, "rate_w": 2.0, "ref_rate_bps": 1e6, "gamma": 1.0,
                      "rtt_w": 1.0, "ref_rtt_s": 0.1});
    let r = ten_segment_download(serde_json::Value::Null, host);
    let expected = 0.0792 * 10.0 + 0.2336 + 0.0792 * 0.204265625;
    assert!((node_f64(&r, "s", "host_energy_j") - expected).abs() < 1e-12, "{}", node_f64(&r, "s", "host_energy_j"));
    let conns = r.table("connections");
    assert!((conns.f64s("host_energy_j")[0] - expected).abs() < 1e-12);
    assert!(node_f64(&r, "c", "host_energy_j").is_nan());
}

#[test]
fn a_scheduled_sleep_mode_sleeps_when_idle_and_wakes_for_traffic() {
    // 1 W awake, 0.1 W asleep, transitions δ = 1 ms at full power. a->b enters sleep mode at
    // 1 s and leaves it at 3 s; one 1000 B packet (0.8 ms at 10 Mb/s) arrives at 2 s.
    //   0–1 s awake: 1 J; 1.000–1.001 going to sleep: 0.001 J; 1.001–2.000 asleep: 0.0999 J;
    //   2.000–2.001 waking, 2.001–2.0018 sending, 2.0018–2.0028 going to sleep: 0.0028 J;
    //   2.0028–3.000 asleep: 0.09972 J; 3.000–3.001 waking: 0.001 J; 3.001–5 awake: 1.999 J.
    // Total 3.20342 J. The packet waits 1 ms to wake, then 0.8 ms + 1 ms propagation: 2.8 ms.
    let r = run(json!({
        "seed": 1, "duration_s": 5.0,
        "nodes": [{"name": "a"}, {"name": "b"}],
        "links": [{"a": "a", "b": "b", "rate_bps": 10e6, "delay_s": 0.001, "transition_s": 0.001,
                   "power": {"type": "constant", "active_w": 1.0, "sleep_w": 0.1}}],
        "flows": [{"name": "one", "src": "a", "dst": "b", "traffic": {"type": "cbr", "rate_bps": 8e3},
                   "packet_size": {"type": "fixed", "bytes": 1000}, "start_s": 2.0, "stop_s": 2.0005}],
        "events": [{"action": "sleep", "at_s": 1.0, "port": "a->b"}, {"action": "wake", "at_s": 3.0, "port": "a->b"}]
    }));
    assert!((port_f64(&r, "a->b", "energy_j") - 3.20342).abs() < 1e-9, "{}", port_f64(&r, "a->b", "energy_j"));
    assert!((port_f64(&r, "a->b", "asleep_time_s") - (0.999 + 0.9972)).abs() < 1e-12);
    assert!((port_f64(&r, "b->a", "energy_j") - 5.0).abs() < 1e-12);
    assert!((flow_f64(&r, "one", "mean_delay_s") - 0.0028).abs() < 1e-12);
}
