//! Queueing theory against the engine: M/M/1/K and M/D/1, analytic values computed here.

mod common;
use common::*;
use serde_json::json;

/// One port fed directly by a Poisson source: arrivals at the port are exactly Poisson.
fn single_queue(
    rate_bps: f64,
    load_bps: f64,
    size: serde_json::Value,
    limit: u32,
    duration_s: f64,
    seed: u64,
) -> serde_json::Value {
    json!({
        "seed": seed, "duration_s": duration_s,
        "nodes": [{"name": "src"}, {"name": "dst"}],
        "links": [{"a": "src", "b": "dst", "rate_bps": rate_bps, "delay_s": 0.0,
                   "queue": {"type": "droptail", "limit_packets": limit, "count_in_service": true}}],
        "flows": [{"name": "f", "src": "src", "dst": "dst",
                   "traffic": {"type": "poisson", "rate_bps": load_bps}, "packet_size": size}]
    })
}

/// M/M/1/K with K places in the system: P_n = (1−ρ)ρⁿ/(1−ρ^(K+1)).
fn mm1k(rho: f64, k: u32) -> (f64, f64) {
    let norm: f64 = (0..=k).map(|n| rho.powi(n as i32)).sum();
    let p = |n: u32| rho.powi(n as i32) / norm;
    let loss = p(k);
    let mean_in_system = (0..=k).map(|n| n as f64 * p(n)).sum();
    (loss, mean_in_system)
}

#[test]
fn mm1k_loss_and_occupancy_match_the_analytic_values() {
    // Exponential sizes, mean 1000 B, at 8 Mb/s: mean service 1 ms (μ = 1000/s).
    // ⌈Exp⌉ bytes adds ≈ 0.5 B (0.05 % of ρ), far inside the 2 % tolerance.
    let k = 5;
    for (rho, seconds) in [(0.5, 4000.0), (0.9, 3000.0), (1.2, 3000.0)] {
        let r = run(single_queue(8e6, rho * 8e6, json!({"type": "exponential", "mean_bytes": 1000.0}), k, seconds, 11));
        let arrived = port_u64(&r, "src->dst", "enqueued_packets") + port_u64(&r, "src->dst", "dropped_packets");
        let loss = port_u64(&r, "src->dst", "dropped_packets") as f64 / arrived as f64;
        // Number in system = waiting + the one in service (busy fraction).
        let in_system = port_f64(&r, "src->dst", "mean_queue_packets") + port_f64(&r, "src->dst", "utilization");
        let (loss_exact, in_system_exact) = mm1k(rho, k);
        let loss_err = (loss - loss_exact).abs() / loss_exact;
        let occ_err = (in_system - in_system_exact).abs() / in_system_exact;
        assert!(loss_err < 0.02, "rho {rho}: loss {loss:.5} vs {loss_exact:.5} ({:.2} %)", 100.0 * loss_err);
        assert!(occ_err < 0.02, "rho {rho}: L {in_system:.4} vs {in_system_exact:.4} ({:.2} %)", 100.0 * occ_err);
    }
}

#[test]
fn md1_waiting_time_matches_pollaczek_khinchine() {
    // Fixed 1000 B at 8 Mb/s: deterministic 1 ms service. Wq = ρ/(2μ(1−ρ)).
    let (mu, rho) = (1000.0, 0.8);
    let wq_exact = rho / (2.0 * mu * (1.0 - rho)); // 2 ms
    let r = run(single_queue(8e6, rho * 8e6, json!({"type": "fixed", "bytes": 1000}), 1_000_000, 4000.0, 5));
    assert_eq!(port_u64(&r, "src->dst", "dropped_packets"), 0);
    // With zero propagation the one-way delay is waiting + service.
    let wq = flow_f64(&r, "f", "mean_delay_s") - 1.0 / mu;
    assert!((wq - wq_exact).abs() / wq_exact < 0.02, "Wq {wq} vs {wq_exact}");
    // Little's law on the waiting room: Lq = λ·Wq.
    let lq = port_f64(&r, "src->dst", "mean_queue_packets");
    assert!((lq - rho * mu * wq_exact).abs() / (rho * mu * wq_exact) < 0.02, "Lq {lq}");
}
