//! TCP behaviour checked against numbers worked out independently of the code: link
//! utilisation, the Mathis et al. response function, fairness, CUBIC against Reno (RFC 9438
//! §5), Vegas' queue target, ECN reactions, determinism and packet conservation. Each
//! expected value is derived in the comment above its assertion.
//!
//! Units: MSS 1460 B unless said, so a full packet is 1500 B; "payload capacity" of a link
//! of rate R is R·1460/1500, the most goodput it can carry.
//!
//! The flows run ns-2's agents (the `ns2` profile) unless a test says otherwise: an ACK for
//! every segment, as the seeds ran them and as the Mathis formula with C = √(3/2) assumes.

mod common;
use common::*;
use serde_json::{json, Value};
use wattnet_engine::event::EventQueue;
use wattnet_engine::packet::{flags, TcpHeader};
use wattnet_engine::scenario::TcpSpec;
use wattnet_engine::tcp::group::Group;
use wattnet_engine::tcp::sender::Sender;
use wattnet_engine::tcp::{Ctx, Outgoing, TcpConfig};
use wattnet_engine::time::{from_secs, Time};
use wattnet_engine::{Results, Simulation};

const PAYLOAD_SHARE: f64 = 1460.0 / 1500.0;

/// Sender `s` and receiver `r` on one link; the sender's port `s->r` is the bottleneck.
/// `link` adds fields to the link (e.g. a per-direction `error_rate`).
fn pair(rate: f64, delay: f64, queue: Value, mut tcp: Value, duration: f64, link: Value) -> Value {
    tcp.as_object_mut().unwrap().entry("profile").or_insert(json!("ns2"));
    tcp.as_object_mut().unwrap().entry("mss_bytes").or_insert(json!(1460));
    let mut l = json!({"a": "s", "b": "r", "rate_bps": rate, "delay_s": delay, "queue": queue});
    l.as_object_mut().unwrap().extend(link.as_object().unwrap().clone());
    json!({
        "seed": 1, "duration_s": duration,
        "nodes": [{"name": "s"}, {"name": "r"}],
        "links": [l],
        "flows": [{"name": "f", "src": "s", "dst": "r", "traffic": {"type": "bulk"}, "tcp": tcp}]
    })
}

/// A flow's TCP table on the ns2 profile. ns-2.35 runs BIC and CUBIC in its TCP-Linux agent, which
/// finds losses only through its SACK scoreboard: without SACK it resends only on timeouts, and its
/// every-timeout reduction (tcp-linux.cc `enter_loss()`) makes a lone BIC flow time out tens of times
/// (validation/ns2/linux_timeouts.tcl), so they run with SACK as ns-2 runs them.
fn tcp_table(cc: &str) -> Value {
    json!({"profile": "ns2", "mss_bytes": 1460, "congestion_control": {"type": cc}, "sack": matches!(cc, "bic" | "cubic")})
}

/// A dumbbell: sender s_i → A → B → receiver d_i for each entry of `ccs`. The bottleneck
/// A→B runs at `rate` with a DropTail buffer of `buffer` packets; access links run at 10·rate
/// with 1 ms each, so every flow's one-way propagation delay is `one_way` and its two-way
/// propagation RTT 2·one_way. Flow i starts at i·`stagger` seconds.
fn dumbbell(ccs: &[&str], rate: f64, one_way: f64, buffer: u32, duration: f64, stagger: f64) -> Value {
    let mut nodes = vec![json!({"name": "A"}), json!({"name": "B"})];
    let mut links = vec![json!({"a": "A", "b": "B", "rate_bps": rate, "delay_s": one_way - 0.002,
                                "queue": {"type": "droptail", "limit_packets": buffer}})];
    let mut flows = vec![];
    for (i, cc) in ccs.iter().enumerate() {
        nodes.push(json!({"name": format!("s{i}")}));
        nodes.push(json!({"name": format!("d{i}")}));
        links.push(json!({"a": format!("s{i}"), "b": "A", "rate_bps": 10.0 * rate, "delay_s": 0.001}));
        links.push(json!({"a": "B", "b": format!("d{i}"), "rate_bps": 10.0 * rate, "delay_s": 0.001}));
        flows.push(json!({"name": format!("f{i}"), "src": format!("s{i}"), "dst": format!("d{i}"),
                          "traffic": {"type": "bulk"}, "start_s": stagger * i as f64,
                          "tcp": tcp_table(cc)}));
    }
    json!({"seed": 1, "duration_s": duration, "nodes": nodes, "links": links, "flows": flows})
}

fn conn_f64(r: &Results, col: &str) -> Vec<f64> {
    r.table("connections").f64s(col).to_vec()
}

fn conn_u64(r: &Results, col: &str) -> Vec<u64> {
    r.table("connections").u64s(col).to_vec()
}

/// Runs to `t0`, takes the results there (the engine checks conservation), then to the end.
fn run_in_two_phases(scenario: &Value, t0: f64) -> (Results, Results) {
    let mut sim = Simulation::from_json(&scenario.to_string()).expect("valid scenario");
    sim.run_until(from_secs(t0));
    let early = sim.results().expect("packets are conserved at t0");
    sim.run();
    (early, sim.results().expect("packets are conserved at the end"))
}

/// The time average of a port's waiting queue over [t0, end), from the averages over [0, t0)
/// and [0, end) that the ports table gives.
fn mean_queue_after(early: &Results, end: &Results, port: &str) -> f64 {
    let (t0, t1) = (early.scalar("duration_s"), end.scalar("duration_s"));
    let (m0, m1) = (port_f64(early, port, "mean_queue_packets"), port_f64(end, port, "mean_queue_packets"));
    (m1 * t1 - m0 * t0) / (t1 - t0)
}

/// Jain's fairness index (Jain, Chiu and Hawe, "A quantitative measure of fairness and discrimination for resource allocation in shared computer systems", DEC TR-301, 1984): (Σx)²/(n·Σx²).
fn jain(x: &[f64]) -> f64 {
    let sum: f64 = x.iter().sum();
    let squares: f64 = x.iter().map(|v| v * v).sum();
    sum * sum / (x.len() as f64 * squares)
}

// ---------------------------------------------------------------------------------------
// 1. One flow fills its link.

/// 10 Mb/s, one-way delay d: a 1500 B packet takes 1.2 ms, an ACK 32 µs, so the base RTT is
/// 2d + 1.232 ms and the BDP 10⁷·RTT/12 000 packets: 17.7 at d = 10 ms, 42.7 at d = 25 ms.
fn bdp_packets(delay: f64) -> f64 {
    10e6 * (2.0 * delay + 0.001232) / 8.0 / 1500.0
}

fn fill(cc: &str, delay: f64, buffer: u32) -> (f64, Results) {
    // DCTCP needs a marking queue: K = 10 packets exceeds the BDP/7 (2.5 and 6.1 packets
    // here) that Alizadeh et al. (2010) give for full utilisation.
    let queue = match cc {
        "dctcp" => json!({"type": "threshold", "k_packets": 10, "limit_packets": buffer}),
        _ => json!({"type": "droptail", "limit_packets": buffer}),
    };
    let r = run(pair(10e6, delay, queue, tcp_table(cc), 40.0, json!({})));
    (conn_f64(&r, "goodput_bps")[0] / (10e6 * PAYLOAD_SHARE), r)
}

#[test]
fn every_algorithm_fills_its_link_with_a_buffer_of_one_bdp() {
    // Goodput over the whole 40 s (handshake and first slow start included) must reach 95 %
    // of the payload capacity 9.733 Mb/s. With a buffer of one BDP, Reno's halving from
    // BDP + buffer = 2·BDP leaves cwnd = BDP, so the link never idles; CUBIC (0.7), BIC (0.8)
    // and DCTCP (1 − α/2 ≥ 0.5) cut less; Vegas keeps 1–3 packets queued and loses nothing
    // in steady state. Tahoe is the exception, see the next test.
    for cc in ["reno", "newreno", "bic", "cubic", "vegas", "dctcp"] {
        for delay in [0.010, 0.025] {
            let buffer = bdp_packets(delay).ceil() as u32;
            let (share, r) = fill(cc, delay, buffer);
            eprintln!(
                "{cc} delay {delay} buffer {buffer}: goodput {share:.4} of capacity, timeouts {:?}",
                conn_u64(&r, "timeouts")
            );
            assert!(share >= 0.95, "{cc}, delay {delay}: goodput {share:.4} of capacity");
        }
    }
}

/// Tahoe's utilisation from its sawtooth, per cycle: slow start from 1 to ssthresh = W/2 with
/// W = BDP + buffer, then congestion avoidance back to W. The link idles only while cwnd <
/// BDP, i.e. in the slow-start rounds 1, 2, 4, … below the BDP, each short by BDP − cwnd
/// packets; a round at or above the BDP (and every avoidance round) keeps it busy.
fn tahoe_model_utilisation(bdp: f64, buffer: f64) -> f64 {
    let w = bdp + buffer;
    let (mut idle, mut sent, mut cwnd) = (0.0, 0.0, 1.0);
    while cwnd < w / 2.0 {
        idle += (bdp - cwnd).max(0.0);
        sent += cwnd;
        cwnd *= 2.0;
    }
    // Avoidance: one more packet per round from W/2 to W.
    let mut c = w / 2.0;
    while c < w {
        sent += c;
        c += 1.0;
    }
    sent / (sent + idle)
}

#[test]
fn tahoe_utilisation_follows_its_slow_start_sawtooth() {
    // At one BDP (17.7 packets, buffer 18) the model gives: idle 16.7 + 15.7 + 13.7 + 9.7 +
    // 1.7 = 57.5 packet times per cycle of about 570 → 0.90. With three BDPs (buffer 54,
    // ssthresh 35.9) the avoidance phase is four times longer: 0.97, so ≥ 95 % holds there.
    let bdp = bdp_packets(0.010);
    for (buffer, tolerance) in [(18u32, 0.03), (54, 0.02)] {
        let model = tahoe_model_utilisation(bdp, buffer as f64);
        let (share, r) = fill("tahoe", 0.010, buffer);
        eprintln!("tahoe buffer {buffer}: goodput {share:.4} of capacity, model {model:.4}");
        assert!((share - model).abs() < tolerance, "buffer {buffer}: {share:.4} vs model {model:.4}");
        assert_eq!(conn_u64(&r, "timeouts")[0], 0, "Tahoe recovers by slow start, never by timeout here");
    }
    assert!(fill("tahoe", 0.010, 54).0 >= 0.95);
}

// ---------------------------------------------------------------------------------------
// 2. The Mathis et al. (1997) response function.

#[test]
fn newreno_and_reno_follow_the_mathis_formula_under_bernoulli_loss() {
    // 100 Mb/s, one-way 50 ms, loss p on the data direction only. Mathis: BW =
    // (MSS/RTT)·C/√p with C = √(3/2) (an ACK per segment: the ns2 profile has no delayed
    // ACKs). With MSS 1460 B and RTT ≈ 0.1 s (Mathis et al., "The macroscopic behavior of the TCP congestion avoidance algorithm", CCR 1997): 4.52 Mb/s at p = 0.001,
    // 2.02 at 0.005, 1.43 at 0.01, at most 5 % of the link, so loss, not capacity, limits.
    // The run lengths give about 450–700 loss events each (≈ 390, 170 and 120 packets/s).
    // Measured ratios run from ≈ 1.05 at p = 0.001 (Bernoulli losses are spaced unevenly,
    // which the periodic model does not capture) down to ≈ 0.92 at p = 0.01 (a few timeouts
    // with RTO_min = 0.2 s = 2 RTTs, outside the model).
    for cc in ["newreno", "reno"] {
        for (p, duration) in [(0.001f64, 1200.0), (0.005, 600.0), (0.01, 600.0)] {
            let link = json!({"a_to_b": {"error_rate": p}});
            let r = run(pair(
                100e6,
                0.05,
                json!({"type": "droptail", "limit_packets": 1000}),
                // RFC 5681's Reno: ns-2's bugFix_ (the ns2 profile's default) leaves a second loss
                // in a window to the timer, 46 timeouts for 436 fast retransmits at p = 0.005,
                // outside the model.
                json!({"congestion_control": {"type": cc}, "reno_bug_fix": false}),
                duration,
                link,
            ));
            // The measured mean RTT: every data packet that arrives triggers exactly one ACK
            // (no delayed ACKs, none lost), so the flow's packets are half data and half ACKs
            // and twice their mean one-way delay is the mean RTT, queueing included.
            let rtt = 2.0 * flow_f64(&r, "f", "mean_delay_s");
            assert!((0.1..0.101).contains(&rtt), "{rtt}: the path is not the bottleneck");
            let mathis = 1460.0 * 8.0 / rtt * 1.5f64.sqrt() / p.sqrt();
            let goodput = conn_f64(&r, "goodput_bps")[0];
            let (timeouts, fast) = (conn_u64(&r, "timeouts")[0], conn_u64(&r, "fast_retransmits")[0]);
            eprintln!("{cc} p {p}: goodput {:.3} Mb/s, Mathis {:.3} Mb/s, ratio {:.3}; RTT {rtt:.5} s; {fast} fast retransmits, {timeouts} timeouts",
                goodput / 1e6, mathis / 1e6, goodput / mathis);
            assert!((goodput / mathis - 1.0).abs() <= 0.2, "{cc} p {p}: {goodput} vs {mathis}");
            // The formula holds only while losses are repaired without timeouts (Mathis et al. 1997).
            assert!(
                (timeouts as f64) < 0.05 * fast as f64,
                "{cc} p {p}: {timeouts} timeouts for {fast} fast retransmits"
            );
        }
    }
}

// ---------------------------------------------------------------------------------------
// 3. Sharing a bottleneck.

#[test]
fn ten_newreno_flows_share_a_dumbbell_fairly() {
    // 20 Mb/s, RTT 40 ms (BDP 67 packets), buffer 67, flows starting 0.1 s apart, 200 s.
    // Equal RTTs and equal AIMD give equal shares; Jain's index ≥ 0.95 allows, e.g., one
    // flow at 1.6× the others (J = (9 + 1.6)²/(10·(9 + 2.56)) = 0.97).
    let r = run(dumbbell(&["newreno"; 10], 20e6, 0.02, 67, 200.0, 0.1));
    let goodput = conn_f64(&r, "goodput_bps");
    let j = jain(&goodput);
    let total: f64 = goodput.iter().sum();
    eprintln!("Jain {j:.4}, total {:.3} of payload capacity, goodputs {goodput:?}", total / (20e6 * PAYLOAD_SHARE));
    assert!(j >= 0.95, "Jain's index {j}");
    assert!(total >= 0.95 * 20e6 * PAYLOAD_SHARE, "the ten flows together fill the link: {total}");
}

/// RFC 9438 §5.1 average windows under a per-packet loss rate p, in segments, RTT in s:
/// Reno √(3/2)/√p; CUBIC's cubic region (C(3 + β)/(4(1 − β)))^¼·RTT^¾/p^¾, which with
/// C = 0.4, β = 0.7 is 1.0538·RTT^¾/p^¾.
fn reno_window(p: f64) -> f64 {
    1.5f64.sqrt() / p.sqrt()
}

fn cubic_window(p: f64, rtt: f64) -> f64 {
    (0.4 * 3.7 / (4.0 * 0.3f64)).powf(0.25) * rtt.powf(0.75) / p.powf(0.75)
}

#[test]
fn cubic_takes_more_than_newreno_on_a_large_bdp_path() {
    // 100 Mb/s, RTT 100 ms, buffer one BDP (833 packets), 300 s. At a common loss rate p,
    // RFC 9438 §5.1 gives W_cubic/W_reno = 1.0538·0.1^¾/(1.2247·p^¼) = 0.153·p^(−¼). The two
    // windows sum to between one and two BDPs, about 1250 on average: solving
    // 1.2247x² + 0.1874x³ = 1250 for x = p^(−¼) gives x ≈ 16.9, a ratio of 2.6. DropTail
    // favours CUBIC further (it backs off by 0.3 where Reno gives up 0.5); asserting > 2
    // leaves room for the model's idealisation while excluding an even share.
    let r = run(dumbbell(&["cubic", "newreno"], 100e6, 0.05, 833, 300.0, 0.0));
    let g = conn_f64(&r, "goodput_bps");
    eprintln!("large BDP: CUBIC {:.2} Mb/s, NewReno {:.2} Mb/s, ratio {:.2}", g[0] / 1e6, g[1] / 1e6, g[0] / g[1]);
    assert!(g[0] > 2.0 * g[1], "CUBIC {} vs NewReno {}", g[0], g[1]);
    assert!(g[0] + g[1] >= 0.9 * 100e6 * PAYLOAD_SHARE, "together they fill the link: {}", g[0] + g[1]);
    // On a small-BDP DropTail dumbbell (10 Mb/s, RTT 10 ms, buffer 8) CUBIC's edge is much
    // smaller, as the RFC intends: there its Reno-friendly window governs. (It is not even,
    // because under DropTail the flow whose increase overflows the queue takes the drop, so
    // loss events are not shared per packet; the next test holds the loss rate equal.)
    let small = run(dumbbell(&["cubic", "newreno"], 10e6, 0.005, 8, 120.0, 0.0));
    let s = conn_f64(&small, "goodput_bps");
    eprintln!(
        "small BDP DropTail: CUBIC {:.2} Mb/s, NewReno {:.2} Mb/s, ratio {:.2}",
        s[0] / 1e6,
        s[1] / 1e6,
        s[0] / s[1]
    );
    assert!(s[0] / s[1] < 0.5 * g[0] / g[1], "the advantage must shrink with the BDP");
}

#[test]
fn cubic_matches_reno_in_its_friendly_region_and_rfc9438_in_its_cubic_region() {
    // Both flows cross a 1 Gb/s link that drops each data packet with probability p, so they
    // see the same per-packet loss rate: RFC 9438 §5.1's setting. Windows (segments) →
    // Mb/s: W·1460·8/RTT.
    let run_pair = |one_way: f64, p: f64, duration: f64| {
        let mut s = dumbbell(&["cubic", "newreno"], 1e9, one_way, 5000, duration, 0.0);
        s["links"][0]["a_to_b"] = json!({"error_rate": p});
        let g = conn_f64(&run(s), "goodput_bps");
        (g[0], g[1])
    };
    let mbps = |w: f64, rtt: f64| w * 1460.0 * 8.0 / rtt;

    // RTT 10 ms, p = 0.001: Reno 38.7 segments = 45.2 Mb/s; the cubic-region formula gives
    // only 5.9 segments, so CUBIC runs in its Reno-friendly region, where AIMD(α = 3(1 −
    // β)/(1 + β), β) has Reno's average window by construction (RFC 9438 §4.3). RFC 9438
    // raises α to 1 once W_est passes cwnd_prior: at α = 1 throughout, AIMD(1, 0.7) would
    // give √(1.7/0.6)/√1.5 = 1.37× Reno. So the ratio lies in [1, 1.37]; we allow 0.9–1.4.
    let (cubic, reno) = run_pair(0.005, 0.001, 300.0);
    eprintln!(
        "RTT 10 ms, p 0.001: CUBIC {:.2}, NewReno {:.2} Mb/s (Reno formula {:.2}), ratio {:.3}",
        cubic / 1e6,
        reno / 1e6,
        mbps(reno_window(0.001), 0.01) / 1e6,
        cubic / reno
    );
    assert!(cubic_window(0.001, 0.01) < 0.2 * reno_window(0.001));
    assert!((0.9..=1.4).contains(&(cubic / reno)), "friendly region: ratio {}", cubic / reno);
    assert!((reno / mbps(reno_window(0.001), 0.01) - 1.0).abs() <= 0.2, "NewReno {reno}");

    // RTT 100 ms, p = 3·10⁻⁵: Reno 223.6 segments = 26.1 Mb/s; cubic region 462 segments =
    // 54.0 Mb/s, twice Reno, so CUBIC follows W_cubic. Both within 20 % of their formulas.
    let (cubic, reno) = run_pair(0.05, 3e-5, 600.0);
    let (cubic_expected, reno_expected) = (mbps(cubic_window(3e-5, 0.1), 0.1), mbps(reno_window(3e-5), 0.1));
    eprintln!(
        "RTT 100 ms, p 3e-5: CUBIC {:.2} (formula {:.2}), NewReno {:.2} (formula {:.2}) Mb/s",
        cubic / 1e6,
        cubic_expected / 1e6,
        reno / 1e6,
        reno_expected / 1e6
    );
    assert!((cubic / cubic_expected - 1.0).abs() <= 0.2, "CUBIC {cubic} vs {cubic_expected}");
    // NewReno sees about 40 loss events in 600 s, and the two flows draw their losses from the
    // link's one error stream, so a change in CUBIC's packets redraws NewReno's losses: measured
    // 28.98 and 31.62 Mb/s for two such draws (+11 % and +21 %); random losses also raise Mathis'
    // constant above the periodic √(3/2).
    assert!((reno / reno_expected - 1.0).abs() <= 0.25, "NewReno {reno} vs {reno_expected}");
    assert!(cubic > 1.5 * reno);
}

// ---------------------------------------------------------------------------------------
// 4. Vegas holds alpha to beta packets in the queue.

#[test]
fn vegas_keeps_between_alpha_and_beta_packets_queued() {
    // One Vegas flow, 10 Mb/s, buffer 200 ≫ β. With the link busy, cwnd = (base + q·T)/T
    // for a waiting queue q and packet time T = 1.2 ms (the packet in service is part of the
    // base RTT), so classic Vegas' diff = cwnd·(rtt − base)/rtt = q, and Linux's diff =
    // cwnd·(rtt − base)/base = q·rtt/base. Vegas holds cwnd while α ≤ diff ≤ β: q ∈ [α, β]
    // (classic) or [α·base/rtt, β·base/rtt] (Linux), up to one packet of quantisation (cwnd
    // moves by whole segments once per RTT). Measured over [10 s, 40 s), after slow start.
    // ns-2's Vegas (the ns2 profile's variant) estimates the queue as classic Vegas does, rounded:
    // outstanding − sent·base/rtt = cwnd·(rtt − base)/rtt.
    let cases = [
        (0.010, json!({"type": "vegas"}), 1.0, 3.0, true), // ns-2's agent and defaults
        (0.010, json!({"type": "vegas", "alpha": 4, "beta": 6, "variant": "linux"}), 4.0, 6.0, false),
        (
            0.025,
            json!({"type": "vegas", "alpha": 8, "beta": 10, "classic_diff": true, "variant": "linux"}),
            8.0,
            10.0,
            true,
        ),
    ];
    for (delay, cc, alpha, beta, classic) in cases {
        let s = pair(
            10e6,
            delay,
            json!({"type": "droptail", "limit_packets": 200}),
            json!({"congestion_control": cc}),
            40.0,
            json!({}),
        );
        let (early, end) = run_in_two_phases(&s, 10.0);
        let q = mean_queue_after(&early, &end, "s->r");
        let base = 2.0 * delay + 0.001232;
        let scale = if classic { 1.0 } else { base / (base + q * 0.0012) };
        let (lo, hi) = (alpha * scale, beta * scale);
        eprintln!("Vegas {cc}: mean queue {q:.3}, target [{lo:.2}, {hi:.2}]");
        assert!(q >= lo - 1.0 && q <= hi + 1.0, "{cc}: queue {q} outside [{lo}, {hi}] ± 1");
        // Nothing is lost once the queue has settled, and the link stays busy.
        assert_eq!(conn_u64(&end, "retransmissions")[0], conn_u64(&early, "retransmissions")[0]);
        let delivered = conn_u64(&end, "delivered_bytes")[0] - conn_u64(&early, "delivered_bytes")[0];
        assert!(delivered as f64 * 8.0 / 30.0 >= 0.99 * 10e6 * PAYLOAD_SHARE, "{cc}: {delivered} B");
    }
}

// ---------------------------------------------------------------------------------------
// 5. ECN.

#[test]
fn ecn_flows_through_red_are_marked_instead_of_dropped_and_react_once_per_rtt() {
    // Five ECN-capable NewReno flows, 10 Mb/s dumbbell, RTT 40 ms, RED (min_th 5, max_th 15,
    // gentle, ecn) with a 100-packet buffer. Steady state over [10 s, 60 s).
    let n = 5;
    let mut s = dumbbell(&["newreno"; 5], 10e6, 0.02, 100, 60.0, 0.1);
    s["links"][0]["queue"] = json!({"type": "red", "min_th": 5, "max_th": 15, "ecn": true, "limit_packets": 100});
    for f in s["flows"].as_array_mut().unwrap() {
        f["tcp"]["ecn"] = json!(true);
    }
    s["recorder"] = json!({"interval_s": 1.0, "trace_flows": (0..n).map(|i| format!("f{i}")).collect::<Vec<_>>()});
    let t0 = 10.0;
    let (early, end) = run_in_two_phases(&s, t0);
    let diff = |table_col: &dyn Fn(&Results) -> u64| table_col(&end) - table_col(&early);
    let marked = diff(&|r| port_u64(r, "A->B", "marked_packets"));
    let dropped = diff(&|r| port_u64(r, "A->B", "dropped_packets"));
    let reductions: Vec<u64> =
        (0..n).map(|i| conn_u64(&end, "ecn_reductions")[i] - conn_u64(&early, "ecn_reductions")[i]).collect();
    let losses: u64 =
        (0..n).map(|i| conn_u64(&end, "retransmissions")[i] - conn_u64(&early, "retransmissions")[i]).sum();
    eprintln!("after {t0} s: {marked} marked, {dropped} dropped, reductions {reductions:?}, retransmissions {losses}");
    assert!(marked > 100, "RED marks instead of dropping: {marked}");
    assert_eq!(dropped, 0, "ECN-capable traffic in steady state is marked, not dropped");
    assert_eq!(losses, 0);
    // RTT_min = 40 ms + 1.2 ms at the bottleneck + 2·0.12 ms on the access links (+ ACKs).
    let rtt_min = 0.0414;
    for (i, &k) in reductions.iter().enumerate() {
        assert!(k > 0, "flow {i} never reacted");
        // At most one reaction per RTT: 50 s / 41.4 ms = 1208 at most.
        assert!((k as f64) <= (60.0 - t0) / rtt_min, "flow {i}: {k} reductions");
    }
    // RFC 3168 §6.1.2: after a reaction the sender ignores ECE until everything outstanding
    // then is acknowledged. The last segment sent before the reaction left on the previous
    // ACK, and its ACK needs at least RTT_min: consecutive reductions (the only cwnd
    // decreases here: no losses after t0) are at least RTT_min minus one ACK spacing apart.
    // An ACK spacing is at least one packet time (1.2 ms) and, with five flows interleaved,
    // about five; allow 10 % of RTT_min (4.1 ms). A reaction to every ECE ACK would give
    // gaps of one ACK spacing.
    let t = end.table("cwnd_trace");
    let (time, conn, cwnd) = (t.f64s("time_s"), t.u64s("connection"), t.f64s("cwnd_segments"));
    let mut last: Vec<(f64, Option<f64>)> = vec![(0.0, None); n];
    let (mut decreases, mut min_gap) = (vec![0u64; n], f64::MAX);
    for i in 0..time.len() {
        let c = conn[i] as usize;
        if cwnd[i] < last[c].0 && time[i] >= t0 {
            decreases[c] += 1;
            if let Some(prev) = last[c].1 {
                min_gap = min_gap.min(time[i] - prev);
            }
            last[c].1 = Some(time[i]);
        }
        last[c].0 = cwnd[i];
    }
    eprintln!("cwnd decreases after t0 {decreases:?}, closest two {min_gap:.4} s");
    // A reaction at cwnd ≤ 2 leaves cwnd unchanged (the floor of 2 segments), so a few
    // reactions may show no decrease; no decrease may come without a reaction.
    for i in 0..n {
        assert!(
            decreases[i] <= reductions[i] && decreases[i] + 3 >= reductions[i],
            "flow {i}: {decreases:?} vs {reductions:?}"
        );
    }
    assert!(min_gap >= 0.9 * rtt_min, "two reductions {min_gap} s apart");
}

// ---------------------------------------------------------------------------------------
// 6. Determinism and conservation.

/// Three NewReno flows over a RED bottleneck that also corrupts 1 % of packets: both random
/// streams (RED's and the link's) shape the run.
fn lossy_tcp(seed: u64) -> Value {
    let mut s = dumbbell(&["newreno"; 3], 10e6, 0.01, 50, 20.0, 0.05);
    s["seed"] = json!(seed);
    s["links"][0]["queue"] = json!({"type": "red", "min_th": 5, "max_th": 15, "limit_packets": 50});
    s["links"][0]["error_rate"] = json!(0.01);
    s["recorder"] = json!({"interval_s": 0.1, "flows": ["f0", "f1", "f2"], "trace_flows": ["f0"]});
    s
}

/// Bit-for-bit equality of two results. `Results == Results` is false for any run with a
/// bulk flow, whose `completed_s` is NaN; Debug prints NaN as NaN and every other f64 in
/// its shortest round-trip form, so equal strings mean identical bits.
fn identical(a: &Results, b: &Results) -> bool {
    format!("{a:?}") == format!("{b:?}")
}

#[test]
fn tcp_runs_with_random_loss_are_deterministic_and_conserve_packets() {
    let a = run(lossy_tcp(7));
    assert!(identical(&a, &run(lossy_tcp(7))), "the same seed gives the same results");
    assert!(port_u64(&a, "A->B", "corrupted_packets") > 100 && conn_u64(&a, "retransmissions").iter().all(|&n| n > 10));
    let b = run(lossy_tcp(8));
    assert_ne!(conn_u64(&a, "delivered_bytes"), conn_u64(&b, "delivered_bytes"), "another seed, another run");
    assert_ne!(a.table("cwnd_trace"), b.table("cwnd_trace"));
    // Conservation is checked by every results() call (sent = received + dropped + held,
    // and the packet pool agrees): check it every 0.25 s, and that looking does not change
    // the run.
    let mut sim = Simulation::from_json(&lossy_tcp(7).to_string()).unwrap();
    let mut t = 0.0;
    while !sim.finished() {
        t += 0.25;
        sim.run_until(from_secs(t));
        let r = sim.results().unwrap_or_else(|e| panic!("at {t} s: {e}"));
        assert_eq!(
            r.scalar("packets_sent"),
            r.scalar("packets_received") + r.scalar("packets_dropped") + r.scalar("packets_in_network")
        );
    }
    assert!(identical(&sim.results().unwrap(), &a), "a run observed in steps ends as one run straight through");
}

// ---------------------------------------------------------------------------------------
// Sender traces fed by hand: regressions for the loss-recovery fixes. Segments are 1000 B;
// segment k covers [1 + 1000(k − 1), 1 + 1000k).

struct Endpoint {
    sender: Sender,
    group: Group,
    events: EventQueue,
    out: Vec<Outgoing>,
    now: Time,
}

fn seg_start(k: u64) -> u64 {
    1 + 1000 * (k - 1)
}

impl Endpoint {
    /// An established ns2-profile sender with segments 1..=iw sent at 0.1 s; the SYN's RTT
    /// of 0.1 s gives RTO = 0.1 + 4·0.05 = 0.3 s.
    fn new(cc: &str, iw: f64) -> Endpoint {
        let spec = TcpSpec {
            congestion_control: Some(serde_json::from_value(json!({"type": cc})).unwrap()),
            mss_bytes: Some(1000),
            initial_window_segments: Some(iw),
            ..Default::default()
        };
        let cfg = TcpConfig::from_spec(&spec, "tcp").unwrap();
        let group = Group::single(&cfg, None);
        let mut e = Endpoint {
            sender: Sender::new(&cfg, &group, 0),
            group,
            events: EventQueue::default(),
            out: vec![],
            now: 0,
        };
        e.with_ctx(|s, ctx, _| s.connect(ctx));
        e.now = from_secs(0.1);
        let syn_ack = TcpHeader { ack: 1, flags: flags::SYN | flags::ACK, window: 1 << 30, ..Default::default() };
        e.with_ctx(|s, ctx, g| s.on_packet(&syn_ack, ctx, g));
        e
    }

    /// Data segments sent while `f` runs, by segment number.
    fn with_ctx(&mut self, f: impl FnOnce(&mut Sender, &mut Ctx, &mut Group)) -> Vec<u64> {
        let start = self.out.len();
        let mut ctx = Ctx { now: self.now, conn: 0, subflow: 0, events: &mut self.events, out: &mut self.out };
        f(&mut self.sender, &mut ctx, &mut self.group);
        self.out[start..].iter().filter(|o| o.tcp.len > 0).map(|o| (o.tcp.seq - 1) / 1000 + 1).collect()
    }

    /// A cumulative ACK up to (not including) segment `next`.
    fn ack(&mut self, next: u64) -> Vec<u64> {
        let h = TcpHeader { seq: 1, ack: seg_start(next), window: 1 << 30, flags: flags::ACK, ..Default::default() };
        self.with_ctx(|s, ctx, g| s.on_packet(&h, ctx, g))
    }

    /// Runs timer events until the retransmission timer expires once more.
    fn time_out(&mut self) -> Vec<u64> {
        let before = self.sender.stats.timeouts;
        let mut sent = vec![];
        while self.sender.stats.timeouts == before {
            let ev = self.events.pop_until(Time::MAX).expect("the retransmission timer is armed");
            self.now = ev.time;
            sent = self.with_ctx(|s, ctx, g| s.on_timer(ctx, g));
        }
        sent
    }

    fn window(&self) -> (f64, f64) {
        (self.sender.window.ssthresh, self.sender.window.cwnd)
    }
}

#[test]
fn a_timeout_during_fast_recovery_keeps_the_ssthresh_of_that_recovery() {
    // NewReno, 20 segments out, segment 1 lost: the third duplicate ACK sets ssthresh =
    // FlightSize/2 = 10, cwnd 13; 15 more inflate cwnd to 28 and release segments 21..28.
    // If the retransmitted segment 1 is lost too, the timer expires with 28 segments
    // outstanding. RFC 5681 eq. 4 applies to a segment not yet resent by the timer, and this
    // window was already halved: ssthresh stays 10 (Linux tcp_enter_loss). Recomputing it
    // from the inflated FlightSize would raise it to 14, above what the path held. A
    // second expiry (segment 1 lost again) leaves it at 10 as well.
    let mut e = Endpoint::new("newreno", 20.0);
    for _ in 1..=18 {
        e.ack(1);
    }
    assert_eq!(e.window(), (10.0, 28.0));
    assert_eq!(e.time_out(), vec![1]);
    assert_eq!(e.window(), (10.0, 1.0));
    assert_eq!(e.time_out(), vec![1]);
    assert_eq!(e.window(), (10.0, 1.0));

    // BIC reads cwnd, not FlightSize (Linux bictcp_recalc_ssthresh): the fast retransmit at
    // cwnd 20 gives ssthresh ⌊20·819/1024⌋ = 15, cwnd 18, and the 15 further duplicates
    // inflate cwnd to 33. Recomputing at the timeout would give ⌊33·819/1024⌋ = 26, and at
    // the second expiry (cwnd 1) max(1 >> 1, 2) = 2; both keep 15.
    let mut e = Endpoint::new("bic", 20.0);
    for _ in 1..=18 {
        e.ack(1);
    }
    assert_eq!(e.window(), (15.0, 33.0));
    e.time_out();
    assert_eq!(e.window(), (15.0, 1.0));
    e.time_out();
    assert_eq!(e.window(), (15.0, 1.0));
}

#[test]
fn duplicate_acks_for_exactly_recover_plus_one_do_not_start_a_fast_retransmit() {
    // NewReno, segments 1–3 out; 1 is lost, 2 and 3 arrive (two duplicate ACKs, no fast
    // retransmit). The timer expires at 0.4 s: ssthresh = max(3/2, 2) = 2, cwnd 1, resend 1,
    // recover = the last byte of segment 3 (RFC 6582 §3.2 step 4).
    let mut e = Endpoint::new("newreno", 3.0);
    e.ack(1);
    e.ack(1);
    assert_eq!(e.time_out(), vec![1]);
    // The ACK for 1–3 reaches recover + 1 exactly; slow start: cwnd 2, segments 4 and 5.
    assert_eq!(e.ack(4), vec![4, 5]);
    assert_eq!(e.window(), (2.0, 2.0));
    // Three duplicate ACKs for 4 (e.g. go-back-N copies of data the receiver held): the ACK
    // does not "cover more than recover" (RFC 6582 §3.2 step 2: ack − 1 > recover),
    // so no fast retransmit and no second reduction.
    for _ in 0..3 {
        assert_eq!(e.ack(4), Vec::<u64>::new());
    }
    assert_eq!(e.sender.stats.fast_retransmits, 0);
    assert_eq!(e.window(), (2.0, 2.0));
    // Once an ACK covers more than recover, three duplicates do start one. The ACK for 4
    // (cwnd 2 → 2.5 in avoidance) released segment 6; FlightSize 2 (5 and 6) → ssthresh 2,
    // cwnd 2 + 3 = 5, resend 5 (and the inflated window admits 7, 8 and 9).
    e.ack(5);
    for _ in 0..2 {
        e.ack(5);
    }
    assert_eq!(e.ack(5)[0], 5);
    assert_eq!(e.sender.stats.fast_retransmits, 1);
    assert_eq!(e.window(), (2.0, 5.0));
}
