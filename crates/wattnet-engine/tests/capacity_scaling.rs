//! practRA against one NewReno flow on the chain of Panarello et al. 2016 (their §6.1; the
//! capacity-scaling study's checks A; docs/models/topology.md, docs/models/rate-policies.md §1).

mod common;
use common::*;
use serde_json::{json, Value};

const PORT: &str = "N1->N2";

/// S — N1 — N2 — N3 — D: N1–N2 and N2–N3 at 10 Mb/s with RTT/4 one way each, the access
/// links 100 Mb/s with no delay; N1, N2 and N3 buffer one BDP, ⌈10 Mb/s·RTT/1500 B⌉ packets
/// (at least 2), the hosts 1000 packets. practRA (if given) runs N1->N2 with δ = 1 ms; one
/// NewReno bulk flow S → D (ns-2 profile, MSS 1460 B: 1500 B packets), `buffer` overriding
/// the BDP rule when given.
fn chain(rtt_s: f64, duration_s: f64, controller: Option<Value>, buffer: Option<u32>) -> Value {
    let bdp = buffer.unwrap_or(((10e6 * rtt_s / 8.0 / 1500.0 - 1e-9).ceil() as u32).max(2));
    let queue = |n: u32| json!({"type": "droptail", "limit_packets": n});
    let mut n1_n2 = json!({"a": "N1", "b": "N2", "rate_bps": 10e6, "delay_s": rtt_s / 4.0, "queue": queue(bdp), "transition_s": 0.001});
    if let Some(c) = controller {
        n1_n2["a_to_b"] = json!({"controller": c});
    }
    let nodes = ["S", "N1", "N2", "N3", "D"].map(|n| json!({"name": n}));
    json!({
        "seed": 1, "duration_s": duration_s,
        "nodes": nodes,
        "links": [
            {"a": "S", "b": "N1", "rate_bps": 100e6, "delay_s": 0.0, "queue": queue(bdp), "a_to_b": {"queue": queue(1000)}},
            n1_n2,
            {"a": "N2", "b": "N3", "rate_bps": 10e6, "delay_s": rtt_s / 4.0, "queue": queue(bdp)},
            {"a": "N3", "b": "D", "rate_bps": 100e6, "delay_s": 0.0, "queue": queue(bdp), "b_to_a": {"queue": queue(1000)}}
        ],
        "flows": [{"name": "tcp", "src": "S", "dst": "D", "traffic": {"type": "bulk"}, "tcp": {"profile": "ns2", "mss_bytes": 1460}}]
    })
}

/// practRA with the paper's rates {1, …, 10} Mb/s, wattnet's default d = 10 ms and w = 0.25, and
/// wattnet's default T_s = mRCI.
fn practra(mrci_s: f64) -> Value {
    let rates: Vec<f64> = (1..=10).map(|m| m as f64 * 1e6).collect();
    json!({"type": "practra", "rates_bps": rates, "delay_bound_s": 0.010, "min_rate_change_interval_s": mrci_s,
           "ewma_weight": 0.25})
}

fn goodput_bps(r: &wattnet_engine::Results, duration_s: f64) -> f64 {
    flow_u64(r, "tcp", "delivered_bytes") as f64 * 8.0 / duration_s
}

/// Check A1: small RTT (10 ms), large mRCI (1 s), 60 s (the paper runs 300 s; 60 s holds
/// some 400 loss cycles of a 10 ms-RTT NewReno flow and 60 chances for practRA to act).
/// The paper: r̄ ≈ 10 Mb/s, throughput reduction ≈ 0, loss ≈ TCPonly's.
///
/// What practRA sees here: the link is saturated (TCPonly uses it fully), so each 1 s sample
/// of the arrival rate is ≈ 9.5 Mb/s, above r_{i−1} = 9 Mb/s, and the step-down rule never
/// fires; the queue stays under the step-up thresholds' reach only because the rate is
/// already r_MAX. So r̄ = 10 Mb/s and the run is TCPonly's. Measured: r̄ = 10.00 Mb/s (0
/// changes), goodput 9.50 Mb/s in both. (With T_s = 1 ms, shorter than one
/// packet time, samples alternate 0 / 12 Mb/s and the rate walks down: 9.53 Mb/s, −4.3 %.)
#[test]
fn small_rtt_and_large_mrci_cost_the_flow_almost_nothing() {
    let base = run(chain(0.01, 60.0, None, None));
    let pc = run(chain(0.01, 60.0, Some(practra(1.0)), None));
    assert_eq!(port_f64(&base, PORT, "mean_rate_bps"), 10e6);
    let r_bar = port_f64(&pc, PORT, "mean_rate_bps");
    assert!(r_bar >= 9.9e6, "r̄ = {r_bar}");
    // At most one change per mRCI.
    assert!(port_u64(&pc, PORT, "rate_changes") <= 60);
    let (g_pc, g_base) = (goodput_bps(&pc, 60.0), goodput_bps(&base, 60.0));
    assert!(g_pc >= 0.95 * g_base, "goodput {g_pc} vs TCPonly {g_base}");
    let (d_pc, d_base) =
        (port_u64(&pc, PORT, "dropped_packets") as f64, port_u64(&base, PORT, "dropped_packets") as f64);
    assert!((d_pc - d_base).abs() <= 0.1 * d_base, "drops {d_pc} vs TCPonly {d_base}");
}

/// Check A3 (the paper's Fig. 3a) says r̄ falls 20–40 % below 10 Mb/s at RTT = 100 ms. Not with a BDP buffer
/// (84 packets) here, whatever mRCI: NewReno halves its window from BDP + buffer = 2·BDP to
/// exactly one BDP, so after each loss the ACK clock goes on feeding N1 at 10 Mb/s and the
/// queue is empty only for an instant at the end of fast recovery (once per ≈ 13 s sawtooth).
/// practRA steps down then (q = 0, r̂ ≈ 0 after the pause) and back up within about an RTT:
/// at 9 Mb/s a one-BDP window queues (10 − 9) Mb/s · 100 ms ≈ 8 packets, above the step-up
/// threshold (≈ 7 packets). Apart from the first seconds (slow start from 1 Mb/s, the rate
/// practRA reached during the handshake), the rate is 10 Mb/s: r̄ ≥ 9.5 Mb/s over 60 s.
/// Measured r̄: 9.74 (mRCI 10 ms, 160 changes), 9.72 (100 ms, 56), 9.98 Mb/s (1 s, 2).
/// The paper's saving needs a TCP that leaves the link under-used, as in the next test.
#[test]
fn at_rtt_100ms_a_bdp_buffer_keeps_the_link_saturated_and_the_rate_near_its_maximum() {
    for mrci in [0.01, 0.1, 1.0] {
        let pc = run(chain(0.1, 60.0, Some(practra(mrci)), None));
        let r_bar = port_f64(&pc, PORT, "mean_rate_bps");
        assert!((9.5e6..=10e6).contains(&r_bar), "mRCI {mrci}: r̄ = {r_bar}");
        // The changes come in bursts around the few losses, not spread over the run.
        let times = pc.table("rate_changes").f64s("time_s").to_vec();
        let late: Vec<f64> = times.iter().copied().filter(|&t| t > 5.0).collect();
        assert!(late.windows(2).filter(|w| w[1] - w[0] > 2.0).count() <= 5, "mRCI {mrci}: {late:?}");
    }
}

/// The same RTT with a 10-packet buffer (BDP/8): TCPonly's sawtooth now falls well below the
/// link rate after each loss (goodput 7.3 Mb/s of 9.7 possible), and practRA follows it down:
/// r̄ 20–40 % below 10 Mb/s, the paper's A3 range, at the paper's cost (A4: the goodput falls
/// further). Measured at mRCI 100 ms: r̄ = 7.82 Mb/s, goodput 7.12 Mb/s. (At mRCI 1 s the
/// one-second samples average the sawtooth and r̄ is 8.69 Mb/s; at 10 ms, 5.39 Mb/s.)
#[test]
fn practra_follows_a_tcp_that_leaves_the_link_under_used() {
    let base = run(chain(0.1, 60.0, None, Some(10)));
    let pc = run(chain(0.1, 60.0, Some(practra(0.1)), Some(10)));
    assert!(goodput_bps(&base, 60.0) < 0.8 * 9.73e6, "TCPonly under-uses the link: {}", goodput_bps(&base, 60.0));
    let r_bar = port_f64(&pc, PORT, "mean_rate_bps");
    assert!((6e6..8e6).contains(&r_bar), "r̄ = {r_bar}");
    assert!(goodput_bps(&pc, 60.0) < goodput_bps(&base, 60.0));
}
