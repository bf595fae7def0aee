//! Adaptive Link Rate (Gunaratne et al. 2008; docs/models/rate-policies.md §2) in whole runs:
//! down when idle, up when the queue passes q_high, and the oscillation its utilisation-monitoring
//! variant exists to prevent.

mod common;
use common::*;
use serde_json::{json, Value};

/// a → b at 100 Mb/s (1 ms, T_switch = 1 ms, 1000 packets) with ALR 10 ↔ 100 Mb/s,
/// q_high = 32 KB; a 100 ms burst of 50 Mb/s CBR (1000 B every 0.16 ms) from 0.5 s.
fn burst(alr: Value) -> wattnet_engine::Results {
    run(json!({
        "seed": 1, "duration_s": 1.0,
        "nodes": [{"name": "a"}, {"name": "b"}],
        "links": [{"a": "a", "b": "b", "rate_bps": 100e6, "delay_s": 0.001, "transition_s": 0.001,
                   "queue": {"type": "droptail", "limit_packets": 1000}, "a_to_b": {"controller": alr}}],
        "flows": [{"name": "cbr", "src": "a", "dst": "b", "traffic": {"type": "cbr", "rate_bps": 50e6},
                   "packet_size": {"type": "fixed", "bytes": 1000}, "start_s": 0.5, "stop_s": 0.6}]
    }))
}

fn changes(r: &wattnet_engine::Results) -> Vec<(f64, f64)> {
    let t = r.table("rate_changes");
    t.f64s("time_s").iter().copied().zip(t.f64s("new_rate_bps").iter().copied()).collect()
}

/// With utilisation monitoring (t_util = 10 ms, u_thresh = 5 %: at most 625 B sent in the
/// last window): the first window (nothing sent) takes the idle link down at 10 ms. In the
/// burst, at 10 Mb/s (0.8 ms a packet), arrival k = 0, 1, … at 0.16·k ms finds ⌊k/5⌋ packets
/// sent and one in service, so k − ⌊k/5⌋ wait: more than 32 KB (33 packets) first at k = 41,
/// 6.56 ms into the burst; up.
/// While the burst lasts every window sends far more than 625 B, so the link stays up; the
/// first window after it, [0.60, 0.61) s, sends nothing: down at 0.61 s. Three changes.
#[test]
fn alr_goes_down_when_idle_and_up_when_the_queue_passes_q_high() {
    let r = burst(json!({"type": "adaptive_link_rate", "low_rate_bps": 10e6, "high_threshold_bytes": 32768,
                         "utilization_window_s": 0.01, "utilization_threshold": 0.05}));
    let c = changes(&r);
    assert_eq!(c.len(), 3, "{c:?}");
    assert_eq!((c[0].0, c[0].1), (0.01, 10e6));
    assert_eq!(c[1].1, 100e6);
    assert!((c[1].0 - 0.50656).abs() < 1e-9, "up at {}", c[1].0);
    assert_eq!((c[2].0, c[2].1), (0.61, 10e6));
    assert_eq!(port_u64(&r, "a->b", "dropped_packets"), 0);
    // Mean rate: 10 Mb/s but for 0.50656 → 0.61 s at 100 Mb/s and the first 10 ms.
    let expected = 10e6 + 90e6 * (0.01 + 0.61 - 0.50656);
    assert!((port_f64(&r, "a->b", "mean_rate_bps") - expected).abs() < 1.0);
}

/// The dual thresholds alone, with the load between the two rates: down whenever the queue
/// empties (first at the burst's first packet), up whenever it passes 32 KB. Filling: 1 ms
/// frozen (6.25 packets in), then +5 packets/ms at 10 Mb/s to 33 packets, ≈ 6.35 ms.
/// Draining: 1 ms frozen (+6.25), then −6.25 packets/ms at 100 Mb/s, ≈ 7.3 ms. About 7.3
/// cycles of 13.6 ms in the 100 ms burst: 15–17 changes with the first and the last down
/// (Gunaratne et al.'s oscillation, which utilisation monitoring prevents; 17 measured).
#[test]
fn dual_thresholds_alone_oscillate_under_a_load_between_the_rates() {
    let r = burst(json!({"type": "adaptive_link_rate", "low_rate_bps": 10e6, "high_threshold_bytes": 32768}));
    let c = changes(&r);
    let in_burst = c.iter().filter(|(t, _)| (0.5..0.61).contains(t)).count();
    assert!((15..=18).contains(&in_burst), "{c:?}");
    assert!(c.windows(2).all(|w| w[0].1 != w[1].1), "alternating");
    assert_eq!(c.last().unwrap().1, 10e6, "down once the burst is over");
}
