//! RFC 6356 §2 goal 3 ("balance congestion": move traffic away from the more congested path)
//! at the level of the window rules alone: two subflows of equal RTT, each losing one packet
//! in every 1/p_r it sends, driven ACK by ACK with no network. For Reno-like increase a and
//! halving, a subflow's mean window follows 1/p_r when the increase is the same on both
//! subflows (LIA: a = w_max/W²) and 1/√p_r for independent Reno, so a loss-rate ratio of 4
//! gives window ratios near 4 and 2.

use super::super::{from_spec, Ack, CcSpec, Congestion, Subflows, Window};
use super::testing::view;
use super::*;

/// Mean windows of two subflows with loss intervals (in packets) `every`, over the second half
/// of `rounds` rounds of one RTT, each subflow acknowledging its window's worth per round.
fn mean_windows(spec: &CcSpec, every: [u64; 2], rounds: usize) -> [f64; 2] {
    let mut cc = from_spec(spec, false, 2);
    let mut views = [view(10.0, 0.1), view(10.0, 0.1)];
    let mut windows = [Window { cwnd: 10.0, ssthresh: 10.0 }; 2];
    let mut sent = [0u64; 2];
    let mut una = [0.0f64; 2];
    let mut sum = [0.0f64; 2];
    for round in 0..rounds {
        for r in 0..2 {
            let segments = windows[r].cwnd.floor().max(1.0) as usize;
            for _ in 0..segments {
                sent[r] += 1;
                views[r].packets_sent = sent[r];
                views[r].cwnd = windows[r].cwnd;
                let g = Subflows { index: r, all: &views };
                if sent[r] % every[r] == 0 {
                    let w = windows[r];
                    let ssthresh = cc.ssthresh(g, &w, w.cwnd, Congestion::Loss, 0);
                    windows[r] = Window { cwnd: ssthresh, ssthresh };
                    cc.on_recovery_end(g, &windows[r], 0);
                } else {
                    una[r] += 1.0;
                    let ack =
                        Ack { acked: 1.0, snd_una: una[r], snd_nxt: una[r] + windows[r].cwnd, ..Default::default() };
                    cc.on_ack(g, &windows[r], &ack);
                    cc.grow(g, &mut windows[r], &ack);
                }
            }
            if round >= rounds / 2 {
                sum[r] += windows[r].cwnd;
            }
        }
    }
    let n = (rounds - rounds / 2) as f64;
    [sum[0] / n, sum[1] / n]
}

#[test]
fn coupled_increases_move_traffic_to_the_less_congested_path() {
    // Path 0 loses 1 in 100 packets, path 1 1 in 400.
    let ratio = |spec: CcSpec| {
        let [w0, w1] = mean_windows(&spec, [100, 400], 4000);
        w1 / w0
    };
    let reno = ratio(CcSpec::Reno);
    assert!((1.7..2.3).contains(&reno), "uncoupled Reno: √4 = 2, got {reno}");
    let lia = ratio(CcSpec::Lia(LiaParams::default()));
    assert!((3.2..4.8).contains(&lia), "LIA: 4, got {lia}");
    for (name, spec) in [
        ("Balia", CcSpec::Balia(BaliaParams::default())),
        ("OLIA", CcSpec::Olia(OliaParams::default())),
        ("Coupled", CcSpec::Coupled(CoupledParams::default())),
        ("DWC", CcSpec::Dwc(DwcParams::default())),
    ] {
        let r = ratio(spec);
        assert!(r > reno, "{name} shifts more than uncoupled Reno: {r} vs {reno}");
    }
    // ecMTCP as printed (p_r/p_h) speeds up the lossier path and cancels LIA's shift; the
    // other direction shifts beyond LIA.
    let printed = ratio(CcSpec::Ecmtcp(EcMtcpParams::default()));
    assert!(printed < reno, "ecMTCP p_r/p_h: {printed}");
    let inverse = ratio(CcSpec::Ecmtcp(EcMtcpParams { ratio: LossRatio::BestOverRoute, ..Default::default() }));
    assert!(inverse > lia, "ecMTCP p_h/p_r: {inverse}");
}

#[test]
fn equal_paths_get_equal_windows() {
    for spec in [CcSpec::Lia(LiaParams::default()), CcSpec::Balia(BaliaParams::default()), CcSpec::Reno] {
        let [w0, w1] = mean_windows(&spec, [200, 200], 2000);
        assert!((w1 / w0 - 1.0).abs() < 0.05, "{spec:?}: {w0} vs {w1}");
    }
}
