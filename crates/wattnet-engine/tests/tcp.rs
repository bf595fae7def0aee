//! TCP end to end: handshake timing, filling a link, loss recovery, serial transfers.

mod common;
use common::*;
use serde_json::{json, Value};

/// Two hosts and one link; `tcp` is the flow's TCP table.
fn pair(rate: f64, delay: f64, buffer: u32, traffic: Value, tcp: Value, duration: f64) -> Value {
    json!({
        "seed": 1, "duration_s": duration,
        "nodes": [{"name": "s"}, {"name": "r"}],
        "links": [{"a": "s", "b": "r", "rate_bps": rate, "delay_s": delay,
                   "queue": {"type": "droptail", "limit_packets": buffer}}],
        "flows": [{"name": "f", "src": "s", "dst": "r", "traffic": traffic, "tcp": tcp}]
    })
}

fn conn_f64(r: &wattnet_engine::Results, col: &str) -> Vec<f64> {
    r.table("connections").f64s(col).to_vec()
}

fn conn_u64(r: &wattnet_engine::Results, col: &str) -> Vec<u64> {
    r.table("connections").u64s(col).to_vec()
}

#[test]
fn a_one_segment_download_takes_the_handshake_plus_one_data_packet() {
    // 10 Mb/s, 10 ms: a 40 B control packet takes 32 µs, a 1040 B data packet 832 µs.
    // Receiver opens: SYN arrives 10.032 ms, SYN-ACK back 20.064 ms, ACK at the sender
    // 30.096 ms, data at the receiver 30.096 + 0.832 + 10 = 40.928 ms.
    let tcp = json!({"mss_bytes": 1000, "opener": "receiver"});
    let r = run(pair(10e6, 0.010, 100, json!({"type": "transfer", "bytes": 1000}), tcp, 1.0));
    assert!((conn_f64(&r, "transfer_time_s")[0] - 0.040928).abs() < 1e-12);
    // Sender opens: SYN-ACK back at 20.064 ms, then the ACK (32 µs) and the data (832 µs)
    // leave back to back: 20.064 + 0.032 + 0.832 + 10 = 30.928 ms.
    let tcp = json!({"mss_bytes": 1000});
    let r = run(pair(10e6, 0.010, 100, json!({"type": "transfer", "bytes": 1000}), tcp, 1.0));
    assert!((conn_f64(&r, "transfer_time_s")[0] - 0.030928).abs() < 1e-12);
    assert_eq!(r.table("connections").column("state"), Some(&wattnet_engine::Column::Str(vec!["closed".into()])));
}

#[test]
fn slow_start_doubles_the_window_every_round_trip() {
    // ns-2's sink (no delayed ACKs), IW 2, serialization negligible against the 100 ms RTT. The handshake
    // takes 0.1 s; data rounds leave at 0.1, 0.2, 0.3, 0.4 s carrying 2, 4, 8 and the last
    // 16 of 30 segments, which arrive 0.05 s later: 0.45 s.
    let tcp = json!({"profile": "ns2", "mss_bytes": 1000, "initial_window_segments": 2.0});
    let r = run(pair(10e9, 0.050, 1000, json!({"type": "transfer", "bytes": 30_000}), tcp, 5.0));
    let t = conn_f64(&r, "transfer_time_s")[0];
    assert!((t - 0.45).abs() < 0.001, "{t}");
}

#[test]
fn serial_downloads_open_each_transfer_when_the_previous_completes() {
    let tcp = json!({"opener": "receiver", "delayed_ack_s": 0.2});
    let r = run(pair(1.5e6, 0.005, 64, json!({"type": "serial", "files": 11, "bytes": 102_400}), tcp, 60.0));
    let opened = conn_f64(&r, "opened_s");
    let completed = conn_f64(&r, "completed_s");
    assert_eq!(opened.len(), 11);
    for i in 1..11 {
        assert_eq!(opened[i], completed[i - 1]);
    }
    assert!(conn_u64(&r, "delivered_bytes").iter().all(|&b| b == 102_400));
    // 102 400 B at MSS 1460 is 71 segments (70 full + 200 B).
    assert!(conn_u64(&r, "data_packets_received").iter().all(|&n| n >= 71));
}

#[test]
fn a_bulk_flow_fills_its_link_despite_tail_drops() {
    // 10 Mb/s, RTT 20 ms (BDP 25 packets of 1000 B), buffer 30 packets: losses come and go,
    // recovery keeps the link busy.
    let tcp = json!({"mss_bytes": 960});
    let r = run(pair(10e6, 0.010, 30, json!({"type": "bulk"}), tcp, 30.0));
    let goodput = conn_f64(&r, "goodput_bps")[0];
    // Payload share of the link: 960 / 1000.
    assert!(goodput > 0.95 * 10e6 * 0.96, "goodput {goodput}");
    assert!(conn_u64(&r, "fast_retransmits")[0] > 0);
}

#[test]
fn web_requests_arrive_as_poisson_with_pareto_sizes_from_random_senders() {
    // λ = 5 requests/s for 200 s: 1000 expected, σ = √1000 ≈ 32.
    // Sizes: Pareto(α = 1.35, mean 200) segments, x_m = 200·0.35/1.35 = 51.85,
    // median x_m·2^(1/α) = 86.6 segments (docs/models/traffic-models.md); ⌈·⌉ adds up to one.
    let r = run(json!({
        "seed": 4, "duration_s": 200.0,
        "nodes": [{"name": "h1"}, {"name": "h2"}, {"name": "h3"}, {"name": "g"}, {"name": "d"}],
        "links": [{"a": "h1", "b": "g", "rate_bps": 1e9, "delay_s": 0.001},
                  {"a": "h2", "b": "g", "rate_bps": 1e9, "delay_s": 0.001},
                  {"a": "h3", "b": "g", "rate_bps": 1e9, "delay_s": 0.001},
                  {"a": "g", "b": "d", "rate_bps": 1e9, "delay_s": 0.005}],
        "flows": [{"name": "web", "src": "h1", "dst": "d", "tcp": {"mss_bytes": 960},
                   "traffic": {"type": "web", "requests_per_s": 5.0, "mean_segments": 200.0, "shape": 1.35,
                               "senders": ["h1", "h2", "h3"]}}]
    }));
    let sizes: Vec<u64> = conn_u64(&r, "transfer_bytes").iter().map(|b| b / 960).collect();
    let n = sizes.len() as f64;
    assert!((n - 1000.0).abs() < 3.0 * 31.6, "{n} requests");
    let mut sorted = sizes.clone();
    sorted.sort_unstable();
    let median = sorted[sorted.len() / 2] as f64;
    assert!((median - 87.0).abs() < 0.1 * 87.0, "median {median}");
    assert!(sizes.iter().all(|&s| s >= 52), "no transfer is below ⌈x_m⌉ = 52 segments");
    // Each of the three senders gets about a third (binomial σ ≈ 15 of 333).
    if let Some(wattnet_engine::Column::Str(senders)) = r.table("connections").column("sender") {
        for h in ["h1", "h2", "h3"] {
            let k = senders.iter().filter(|s| *s == h).count() as f64;
            assert!((k - n / 3.0).abs() < 4.0 * 15.0, "{h}: {k}");
        }
    }
}
