//! RFC 6356 §2's three goals for coupled multipath congestion control, as small simulations:
//! (1) improve throughput: at least what one TCP gets on the best path; (2) do no harm: on a
//! shared bottleneck take no more than one TCP would; (3) balance congestion: move traffic away
//! from the more congested path. Measured numbers: docs/models/mptcp-congestion-control.md.

mod common;
use common::*;
use serde_json::{json, Value};

fn link(a: &str, b: &str, rate: f64, delay: f64) -> Value {
    json!({"a": a, "b": b, "rate_bps": rate, "delay_s": delay, "queue": {"type": "droptail", "limit_packets": 30}})
}

fn tcp(cc: &str) -> Value {
    json!({"profile": "linux", "congestion_control": {"type": cc}})
}

fn bulk(name: &str, src: &str, dst: &str, cc: &str, mptcp: Option<Value>) -> Value {
    let mut f = json!({"name": name, "src": src, "dst": dst, "traffic": {"type": "bulk"}, "tcp": tcp(cc)});
    if let Some(m) = mptcp {
        f["mptcp"] = m;
    }
    f
}

/// Bytes delivered by each flow, in the order of the scenario's flows.
fn delivered(scenario: Value) -> Vec<u64> {
    run(scenario).table("connections").u64s("delivered_bytes").to_vec()
}

fn nodes(names: &[&str]) -> Vec<Value> {
    names.iter().map(|n| json!({ "name": n })).collect()
}

const SEEDS: [u64; 4] = [1, 2, 3, 4];
const DURATION_S: f64 = 30.0;

/// Goal 1. s reaches r over a (4 Mb/s, 5 ms links) and b (2 Mb/s, 10 ms links); each path also
/// carries one single-path TCP of its own. MPTCP must get at least what a TCP in its place
/// gets over the better path a (RFC 6356 §2, goal 1).
#[test]
fn goal_1_mptcp_gets_at_least_one_tcp_on_the_best_path() {
    let scenario = |seed: u64, cc: &str, mptcp: Option<Value>| {
        json!({
            "seed": seed, "duration_s": DURATION_S,
            "nodes": nodes(&["s", "a", "b", "r", "x", "y"]),
            "links": [link("s", "a", 4e6, 0.005), link("a", "r", 4e6, 0.005),
                      link("s", "b", 2e6, 0.010), link("b", "r", 2e6, 0.010),
                      link("x", "a", 100e6, 0.001), link("y", "b", 100e6, 0.001)],
            "flows": [bulk("m", "s", "r", cc, mptcp),
                      bulk("ta", "x", "r", "newreno", None), bulk("tb", "y", "r", "newreno", None)]
        })
    };
    for cc in ["lia", "olia", "balia"] {
        let (mut multi, mut single) = (0, 0);
        for seed in SEEDS {
            multi += delivered(scenario(seed, cc, Some(json!({}))))[0];
            // The same flow as single-path TCP, pinned to the better path a.
            single += delivered(scenario(seed, "newreno", Some(json!({"paths": [["s->a", "a->r"]], "subflows_per_path": 1}))))[0];
        }
        let ratio = multi as f64 / single as f64;
        println!("goal 1 {cc}: MPTCP {multi} B, TCP on the best path {single} B, ratio {ratio:.3}");
        assert!(ratio >= 1.0, "{cc}: ratio {ratio}");
    }
}
