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
    let power = json!({"type": "rate_scaling", "static_w": 1.0, "dynamic_w": 1.0, "scaling": "frequency", "sleep_w": 0.2});
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
