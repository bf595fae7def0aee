//! The G-router of the access-router seed (power.md §6–8, targets.md C): AWM + C-EARTH on
//! the access network of topologies.md §3 with the stepped FTP load of traffic.md §5.

mod common;
use common::*;
use serde_json::{json, Value};
use wattnet_engine::{Column, Results};

const PORT: &str = "grouter->internet";
/// AWM's queue target: half the 100-packet buffer of 1000 B packets (seed).
const TARGET: f64 = 50_000.0;

/// topologies.md §3 with `sources` DSL hosts: 1 Mb/s up, 20 Mb/s down, 5 ms; the G-router's
/// output at `rate_bps` (C_init) with 100 packets and `controller`, 45 ms to the Internet node,
/// which reaches the destination over 1 Gb/s and 50 ms (unlimited, case study 1): 200 ms RTT.
fn access_network(sources: usize, rate_bps: f64, controller: Option<Value>) -> Vec<Value> {
    let droptail = |n: u32| json!({"type": "droptail", "limit_packets": n});
    let mut links: Vec<Value> = (0..sources)
        .map(|i| {
            json!({"a": format!("src{i}"), "b": "grouter", "rate_bps": 1e6, "delay_s": 0.005, "queue": droptail(100),
                   "b_to_a": {"rate_bps": 20e6, "queue": droptail(1000)}})
        })
        .collect();
    let mut g_out = json!({"rate_bps": rate_bps, "queue": droptail(100)});
    if let Some(c) = controller {
        g_out["controller"] = c;
    }
    links.push(json!({"a": "grouter", "b": "internet", "rate_bps": 100e6, "delay_s": 0.045, "queue": droptail(1000), "a_to_b": g_out}));
    links.push(json!({"a": "internet", "b": "dst0", "rate_bps": 1e9, "delay_s": 0.05, "queue": droptail(1000),
                      "a_to_b": {"queue": droptail(100)}}));
    links
}

/// The seed's G-router: T = 50 000 B, γ = 0.95, β = 10 kb/s, MTU 1000 B, C up to 100 Mb/s.
/// N₀ makes the RTT estimate N₀·swnd₀/C₀ (which eqs. 5 and 7 then keep) 0.25 s: 200 ms of
/// propagation, T/C₀ = 20 ms of queueing at 20 Mb/s, and the 8 ms a 1000 B packet takes on
/// the DSL up-link, rounded up: N₀ = 2.5 MB/s · 0.25 s / 65 536 B.
fn g_router(rate_control: Value) -> Value {
    json!({"type": "g_router", "target_bytes": TARGET, "gamma": 0.95, "beta_bps": 10e3, "mtu_bytes": 1000.0,
           "initial_window_bytes": 65536.0, "initial_flows": 2.5e6 * 0.25 / 65536.0, "max_rate_bps": 100e6,
           "rate_control": rate_control})
}

/// One series of the recorder's table.
fn series(r: &Results, entity: &str, quantity: &str) -> Vec<(f64, f64)> {
    let t = r.table("timeseries");
    let (Some(Column::Str(e)), Some(Column::Str(q))) = (t.column("entity"), t.column("quantity")) else { panic!("no timeseries") };
    let (time, value) = (t.f64s("time_s"), t.f64s("value"));
    (0..time.len()).filter(|&i| e[i] == entity && q[i] == quantity).map(|i| (time[i], value[i])).collect()
}

fn mean_over(s: &[(f64, f64)], from: f64, to: f64) -> f64 {
    let v: Vec<f64> = s.iter().filter(|(t, _)| *t > from && *t <= to).map(|(_, v)| *v).collect();
    v.iter().sum::<f64>() / v.len() as f64
}

fn delivered_bytes(r: &Results) -> f64 {
    r.table("flows").u64s("delivered_bytes").iter().sum::<u64>() as f64
}

/// Case study 1 at half the seed's length (traffic.md §5 scaled 600 → 300 s): 10 FTP sources
/// from 0 s, 15 from 60 s, 25 from 120 s, then one leaves every 12 s from 252 s (25 → 20 over
/// [240, 300) s). Each DSL source offers 1 Mb/s; TCP flows cannot be stopped, so the five
/// that leave are transfers sized to end then: ≈ 120 kB/s of payload (1 Mb/s × 960/1000),
/// less ≈ 3 s of start-up (slow start overflows the 100-packet DSL buffer and recovers).
/// Starts are staggered by `stagger` s. NewReno (ns-2 profile), 1000 B packets.
fn case_study_1(stagger: f64, rate_bps: f64, controller: Option<Value>) -> Value {
    let sources = 25;
    let flows: Vec<Value> = (0..sources)
        .map(|i| {
            let start = match i {
                0..=9 => stagger * i as f64,
                10..=14 => 60.0 + stagger * (i - 10) as f64,
                _ => 120.0 + stagger * (i - 15) as f64,
            };
            let traffic = if i >= 20 {
                let end = 240.0 + 12.0 * (i - 19) as f64;
                json!({"type": "transfer", "bytes": (120_000.0 * (end - start - 3.0)) as u64})
            } else {
                json!({"type": "bulk"})
            };
            json!({"name": format!("ftp{i}"), "src": format!("src{i}"), "dst": "dst0", "traffic": traffic, "start_s": start,
                   "tcp": {"profile": "ns2", "mss_bytes": 960}})
        })
        .collect();
    let mut nodes: Vec<Value> = (0..sources).map(|i| json!({"name": format!("src{i}")})).collect();
    nodes.extend(["grouter", "internet", "dst0"].map(|n| json!({"name": n})));
    json!({"seed": 1, "duration_s": 300.0, "nodes": nodes, "links": access_network(sources, rate_bps, controller), "flows": flows,
           "recorder": {"interval_s": 0.5, "ports": [PORT], "quantities": ["queue_bytes", "rate_bps", "departure_rate_bps"]}})
}

fn utilisation(r: &Results, duration_s: f64) -> f64 {
    // metrics.md §C: bits sent on the G-router's output / ∫C(t) dt.
    port_u64(r, PORT, "transmitted_bytes") as f64 * 8.0 / (port_f64(r, PORT, "mean_rate_bps") * duration_s)
}

/// targets.md C1–C3 with AWM + C-EARTH, against the over-provisioned run (no controller,
/// 100 Mb/s) whose per-phase throughput is the offered load: 10, 15, 25, then 23.2 and
/// 21.8 Mb/s on average over the last two 30 s.
///
/// What holds, for starts staggered by 0.5, 1 and 2 s:
/// - C2: the time-average queue within ±20 % of T (44–49 kB measured);
/// - C1: C within 5 % of the offered load over the second half of the 15-source phase,
///   within 10 % over the last 30 s (the sources leaving one by one), and at least 75 % of it
///   in the 25-source phase (19.6–24.9 Mb/s for 25).
///
/// What does not: C-EARTH moves C by the queue's change over an RTT (eq. 3–4), so from an
/// over-provisioned start whose queue does not vary (ten 1 Mb/s sources into 20 Mb/s, a
/// periodic arrival pattern) C stays at C_init: with starts 0.5 s apart it is still 20 Mb/s
/// for the 10 Mb/s of the first phase. And when AWM holds the queue steady away from T_CE,
/// C stops short of the load (the 25-source phase). For staggers of 0.5 to 3 s, utilisation
/// measured 86–95 % and throughput 81–97 % of the over-provisioned run, where the seed reports
/// 98.97 % and 99.17 % (C3); 217–724 packets dropped at the G-router, where the seed has none
/// (C2).
/// The bounds below (85 %, 80 %) guard against the collapse of C the per-packet C-EARTH and
/// flow estimate produced (C = 2.7 Mb/s over [90, 120) s for 15 Mb/s), not the seed's figures.
#[test]
fn c_earth_follows_the_load_with_the_queue_near_its_target() {
    for stagger in [0.5, 1.0, 2.0] {
        let over = run(case_study_1(stagger, 100e6, None));
        let r = run(case_study_1(stagger, 20e6, Some(g_router(json!({"type": "c_earth"})))));
        let queue = port_f64(&r, PORT, "mean_queue_bytes");
        assert!((0.8 * TARGET..1.2 * TARGET).contains(&queue), "stagger {stagger}: mean queue {queue}");
        let (c, offered) = (series(&r, PORT, "rate_bps"), series(&over, PORT, "departure_rate_bps"));
        for (from, to, tolerance) in [(90.0, 120.0, 0.05), (270.0, 300.0, 0.10)] {
            let (c, o) = (mean_over(&c, from, to), mean_over(&offered, from, to));
            assert!((c - o).abs() <= tolerance * o, "stagger {stagger}, [{from}, {to}): C {c} for {o}");
        }
        let (c3, o3) = (mean_over(&c, 180.0, 240.0), mean_over(&offered, 180.0, 240.0));
        assert!((24.9e6..25.1e6).contains(&o3) && c3 >= 0.75 * o3, "stagger {stagger}: C {c3} for {o3}");
        let (util, ratio) = (utilisation(&r, 300.0), delivered_bytes(&r) / delivered_bytes(&over));
        assert!(util >= 0.85 && ratio >= 0.80, "stagger {stagger}: utilisation {util}, throughput ratio {ratio}");
    }
}

/// EARTH (power.md §8) with hardware rates 5, 10, …, 50 Mb/s from 20 Mb/s on the same load:
/// one step at a time, at most one per RTT_k (N₀·swnd₀/C₀ = 0.25 s, which the clamp of N
/// can only raise), down after the queue has been empty for an RTT and up after it has
/// stayed above T for one. It settles on the smallest rate that carries each phase: 10, 15,
/// 25, and 25 Mb/s for the last 30 s (21.8 Mb/s offered). With C never below the load, nothing
/// is lost and the throughput is the over-provisioned one; the utilisation is the offered
/// load over ∫C: ≈ (10·60 + 15·60 + 25·120 + 23.2·30 + 21.8·30)/(10·60 + 15·60 + 25·180)
/// ≈ 0.98 (0.97 measured, with the start-up).
#[test]
fn earth_steps_to_the_smallest_rate_that_carries_the_load() {
    let rates: Vec<f64> = (1..=10).map(|i| 5e6 * i as f64).collect();
    let over = run(case_study_1(1.0, 100e6, None));
    let r = run(case_study_1(1.0, 20e6, Some(g_router(json!({"type": "earth", "rates_bps": rates})))));
    let changes = r.table("rate_changes");
    let (t, old, new) = (changes.f64s("time_s"), changes.f64s("old_rate_bps"), changes.f64s("new_rate_bps"));
    assert!(!t.is_empty());
    for i in 0..t.len() {
        assert_eq!((new[i] - old[i]).abs(), 5e6, "one step at a time");
        assert!(i == 0 || t[i] - t[i - 1] >= 0.25, "at most one change per RTT_k: {:?}", &t[..=i]);
    }
    let c = series(&r, PORT, "rate_bps");
    for (from, to, rate) in [(30.0, 60.0, 10e6), (90.0, 120.0, 15e6), (180.0, 240.0, 25e6), (270.0, 300.0, 25e6)] {
        assert!(c.iter().filter(|(t, _)| *t > from && *t <= to).all(|&(_, v)| v == rate), "[{from}, {to}) at {rate}");
    }
    assert_eq!(port_u64(&r, PORT, "dropped_packets"), 0);
    assert!(delivered_bytes(&r) >= 0.99 * delivered_bytes(&over));
    assert!(utilisation(&r, 300.0) >= 0.95);
}
