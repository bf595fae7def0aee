mod common;
use common::*;
use serde_json::{json, Value};
use wattnet_engine::Results;

fn pair(rate: f64, delay: f64, queue: Value, tcp: Value, duration: f64, extra_link: Value) -> Value {
    let mut link = json!({"a": "s", "b": "r", "rate_bps": rate, "delay_s": delay, "queue": queue});
    link.as_object_mut().unwrap().extend(extra_link.as_object().unwrap().clone());
    json!({
        "seed": 1, "duration_s": duration,
        "nodes": [{"name": "s"}, {"name": "r"}],
        "links": [link],
        "flows": [{"name": "f", "src": "s", "dst": "r", "traffic": {"type": "bulk"}, "tcp": tcp}]
    })
}

fn conn_f64(r: &Results, col: &str) -> Vec<f64> { r.table("connections").f64s(col).to_vec() }
fn conn_u64(r: &Results, col: &str) -> Vec<u64> { r.table("connections").u64s(col).to_vec() }

#[test]
fn explore_fill() {
    for cc in ["tahoe", "reno", "newreno", "bic", "cubic", "vegas", "dctcp"] {
        for (delay, buf) in [(0.010, 17u32), (0.010, 25), (0.025, 42), (0.025, 63)] {
            let q = if cc == "dctcp" { json!({"type": "threshold", "k_packets": 10, "limit_packets": buf.max(40)}) } else { json!({"type": "droptail", "limit_packets": buf}) };
            let t = std::time::Instant::now();
            let r = run(pair(10e6, delay, q, json!({"congestion_control": {"type": cc}}), 40.0, json!({})));
            let g = conn_f64(&r, "goodput_bps")[0];
            println!("{cc:8} delay {delay} buf {buf}: goodput {:.4} of cap, rtx {} to {} fr {} ecn {} wall {:?}", g / (10e6 * 1460.0 / 1500.0), conn_u64(&r, "retransmissions")[0], conn_u64(&r, "timeouts")[0], conn_u64(&r, "fast_retransmits")[0], conn_u64(&r, "ecn_reductions")[0], t.elapsed());
        }
    }
}

fn trace(cc: &str, delay: f64, buf: u32, dur: f64, t0: f64, t1: f64) {
    let mut s = pair(10e6, delay, json!({"type": "droptail", "limit_packets": buf}), json!({"congestion_control": {"type": cc}}), dur, json!({}));
    s["recorder"] = json!({"interval_s": 1.0, "trace_flows": ["f"]});
    let r = run(s);
    let t = r.table("cwnd_trace");
    let (ts, cw, ss) = (t.f64s("time_s"), t.f64s("cwnd_segments"), t.f64s("ssthresh_segments"));
    let mut last = 0.0;
    for i in 0..ts.len() {
        if ts[i] >= t0 && ts[i] <= t1 && (cw[i] < last - 1.5 || (cw[i] - last).abs() >= 20.0) {
            println!("{:.4} cwnd {:.2} ssthresh {:.2}", ts[i], cw[i], ss[i]);
            last = cw[i];
        }
    }
    println!("rtx {:?} to {:?} fr {:?} goodput {:?}", conn_u64(&r, "retransmissions"), conn_u64(&r, "timeouts"), conn_u64(&r, "fast_retransmits"), conn_f64(&r, "goodput_bps"));
}

#[test]
fn explore_bic() { trace("bic", 0.01, 25, 10.0, 0.0, 10.0); }
#[test]
fn explore_newreno() { trace("newreno", 0.025, 42, 40.0, 0.0, 40.0); }
#[test]
fn explore_vegas() { trace("vegas", 0.025, 42, 40.0, 0.0, 40.0); }
