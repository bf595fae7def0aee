//! Multipath congestion control: the coupled algorithms of Multipath TCP and the adapter that
//! runs a single-path algorithm once per subflow.
//!
//! Slow start, fast retransmit, fast recovery and the RTO stay per subflow and unchanged
//! (RFC 6356 §3); only the congestion-avoidance increase (and for Balia and Coupled the
//! decrease) is coupled. One controller serves a whole connection: each hook names the acting
//! subflow, whose live window is the hook's `w`; the siblings are read through their views.
//! Windows are in segments, rates in segments per second. What each algorithm does, its
//! constants and the readings chosen where sources disagree: `docs/models/mptcp-congestion-control.md`.

mod balia;
mod coupled;
mod dts;
mod dwc;
mod ecmtcp;
mod ewtcp;
mod lia;
mod olia;
mod uncoupled;
mod wvegas;

pub use balia::{Balia, BaliaParams};
pub use coupled::{Coupled, CoupledIncrease, CoupledParams};
pub use dts::{dts_epsilon, Dts, DtsParams};
pub use dwc::{Dwc, DwcParams};
pub use ecmtcp::{EcMtcp, EcMtcpParams, LossRatio};
pub use ewtcp::{Ewtcp, EwtcpParams};
pub use lia::{Lia, LiaParams};
pub use olia::{Olia, OliaParams};
pub use uncoupled::Uncoupled;
pub use wvegas::{WVegas, WVegasParams};

use super::{reno_avoidance, slow_start, Ack, CongState, SubflowView, Subflows, Window};
use crate::time::{to_secs, Time};

/// The sums a coupled increase reads, over the subflows that count: established with an RTT
/// estimate (Linux `mptcp_sk_can_send(sk) && srtt_us`). The acting subflow always counts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Coupling {
    /// n, the number of subflows counted.
    pub n: usize,
    /// The acting subflow's window and smoothed RTT (s).
    pub w: f64,
    pub rtt: f64,
    /// W = Σ w_k.
    pub total_window: f64,
    /// X = Σ w_k/rtt_k.
    pub total_rate: f64,
    /// max_k w_k/rtt_k², LIA's numerator.
    pub max_w_over_rtt2: f64,
    /// max_k w_k/rtt_k, Balia's x_max.
    pub max_rate: f64,
    /// min_k rtt_k, DWC's.
    pub min_rtt: f64,
    /// The subflow with the largest rate (the best path h of Zhao, Liu, Wang, IEEE 2017).
    pub best: usize,
}

/// Seconds of an RTT that may be read as a divisor.
fn secs(t: Option<Time>) -> Option<f64> {
    t.map(to_secs).filter(|s| *s > 0.0)
}

/// The window a sibling is counted with: during fast recovery its cwnd carries the RFC 5681
/// §3.2 inflation, which Linux's OLIA replaces by ssthresh (`mptcp_get_crt_cwnd`).
fn counted_window(v: &SubflowView, ssthresh_in_recovery: bool) -> f64 {
    if ssthresh_in_recovery && v.state == CongState::Recovery {
        v.ssthresh
    } else {
        v.cwnd
    }
}

impl Coupling {
    /// The sums for the acting subflow of `g` with live window `w`; `None` until that
    /// subflow has an RTT estimate (then its growth is Reno's).
    pub fn of(g: Subflows, w: &Window, ssthresh_in_recovery: bool) -> Option<Coupling> {
        let rtt = secs(g.all[g.index].srtt)?;
        let mut c = Coupling {
            n: 0,
            w: w.cwnd,
            rtt,
            total_window: 0.0,
            total_rate: 0.0,
            max_w_over_rtt2: 0.0,
            max_rate: 0.0,
            min_rtt: f64::INFINITY,
            best: g.index,
        };
        for (k, v) in g.all.iter().enumerate() {
            let (wk, rk) = if k == g.index {
                (w.cwnd, rtt)
            } else {
                match secs(v.srtt) {
                    Some(r) => (counted_window(v, ssthresh_in_recovery), r),
                    None => continue,
                }
            };
            c.n += 1;
            c.total_window += wk;
            c.total_rate += wk / rk;
            c.max_w_over_rtt2 = c.max_w_over_rtt2.max(wk / (rk * rk));
            if wk / rk > c.max_rate {
                c.max_rate = wk / rk;
                c.best = k;
            }
            c.min_rtt = c.min_rtt.min(rk);
        }
        Some(c)
    }

    /// The acting subflow's rate x_r = w_r/rtt_r.
    pub fn rate(&self) -> f64 {
        self.w / self.rtt
    }

    /// OLIA's and DTS's first term, ψ = 1 in the Zhao–Liu–Wang fluid model (IEEE 2017, eq. 3):
    /// (w_r/rtt_r²)/(Σ_k w_k/rtt_k)² per segment acknowledged.
    pub fn kelly_voice_term(&self) -> f64 {
        (self.w / (self.rtt * self.rtt)) / (self.total_rate * self.total_rate)
    }
}

/// Congestion avoidance with a per-segment increment `per_segment` (may be negative) for the
/// `acked` segments left after slow start; the window never drops below one segment.
fn avoid(w: &mut Window, acked: f64, per_segment: f64) {
    w.cwnd = (w.cwnd + per_segment * acked).max(1.0);
}

/// One coupled ACK: Reno's slow start, then congestion avoidance by the algorithm's per-segment
/// `increment` of the coupling — or Reno's 1/w while the subflow has no RTT estimate (RFC 6356 §3:
/// only the congestion-avoidance increase is coupled).
fn coupled_growth(
    g: Subflows,
    w: &mut Window,
    ack: &Ack,
    ssthresh_in_recovery: bool,
    increment: impl FnOnce(&Coupling, &Window) -> f64,
) {
    let left = slow_start(w, ack.acked);
    if left > 0.0 {
        match Coupling::of(g, w, ssthresh_in_recovery) {
            Some(c) => {
                let per_segment = increment(&c, w);
                avoid(w, left, per_segment);
            }
            None => reno_avoidance(w, left),
        }
    }
}

#[cfg(test)]
pub(crate) mod testing {
    //! Hand-built groups of subflows for the algorithms' worked examples.

    use super::super::{Ack, CongestionControl, SubflowView, Subflows, Window};
    use crate::time::{from_secs, Time};

    /// An established subflow in congestion avoidance with window `cwnd` and SRTT = min RTT = `rtt_s`.
    pub fn view(cwnd: f64, rtt_s: f64) -> SubflowView {
        let rtt: Time = from_secs(rtt_s);
        SubflowView { cwnd, ssthresh: 1.0, srtt: Some(rtt), min_rtt: Some(rtt), ..SubflowView::IDLE }
    }

    /// Views of subflows with these windows and RTTs (s).
    pub fn views(windows: &[f64], rtts: &[f64]) -> Vec<SubflowView> {
        windows.iter().zip(rtts).map(|(w, r)| view(*w, *r)).collect()
    }

    /// One ACK of one segment in congestion avoidance on subflow `index`; returns the change of its window.
    pub fn one_ack(cc: &mut dyn CongestionControl, all: &[SubflowView], index: usize) -> f64 {
        let mut w = Window { cwnd: all[index].cwnd, ssthresh: 1.0 };
        let ack = Ack { acked: 1.0, ..Default::default() };
        let g = Subflows { index, all };
        cc.on_ack(g, &w, &ack);
        cc.grow(g, &mut w, &ack);
        w.cwnd - all[index].cwnd
    }

    /// The new ssthresh after a loss on subflow `index` with FlightSize = its cwnd.
    pub fn loss(cc: &mut dyn CongestionControl, all: &[SubflowView], index: usize) -> f64 {
        let w = Window { cwnd: all[index].cwnd, ssthresh: 1.0 };
        let g = Subflows { index, all };
        cc.ssthresh(g, &w, all[index].cwnd, super::super::Congestion::Loss, 0)
    }

    pub fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }
}

#[cfg(test)]
mod tests {
    use super::super::{from_spec, CcSpec, CongestionControl, Reno};
    use super::testing::{close, loss, one_ack, view};
    use super::*;

    /// With one subflow every loss-based coupled algorithm whose ψ is 1 on its best path
    /// (LIA, OLIA, Balia, EWTCP, Coupled, ecMTCP, DWC) is Reno: +1/w per ACK, halving on loss.
    #[test]
    fn each_loss_based_algorithm_alone_is_reno() {
        let specs = [
            CcSpec::Lia(LiaParams::default()),
            CcSpec::Olia(OliaParams::default()),
            CcSpec::Balia(BaliaParams::default()),
            CcSpec::Ewtcp(EwtcpParams::default()),
            CcSpec::Coupled(CoupledParams::default()),
            CcSpec::Coupled(CoupledParams { increase: CoupledIncrease::Wischik }),
            CcSpec::Ecmtcp(EcMtcpParams::default()),
            CcSpec::Dwc(DwcParams::default()),
        ];
        for spec in specs {
            for cwnd in [4.0, 10.0, 37.5] {
                let alone = [view(cwnd, 0.05)];
                let mut cc = from_spec(&spec, false, 1);
                let inc = one_ack(cc.as_mut(), &alone, 0);
                let reno = one_ack(&mut Reno, &alone, 0);
                assert!(close(reno, 1.0 / cwnd, 1e-12));
                assert!(close(inc, reno, 1e-12), "{spec:?} at cwnd {cwnd}: {inc} vs Reno's {reno}");
                let halved = loss(cc.as_mut(), &alone, 0);
                assert_eq!(halved, loss(&mut Reno, &alone, 0), "{spec:?}");
                assert_eq!(halved, (cwnd / 2.0).max(2.0));
            }
        }
    }

    #[test]
    fn coupling_sums_count_established_subflows_and_use_the_live_window() {
        let mut all = vec![view(10.0, 0.1), view(20.0, 0.2), SubflowView::IDLE];
        all[1].state = CongState::Recovery;
        all[1].ssthresh = 8.0;
        let w = Window { cwnd: 12.0, ssthresh: 1.0 };
        let g = Subflows { index: 0, all: &all };
        let c = Coupling::of(g, &w, false).unwrap();
        assert_eq!(c.n, 2);
        assert!(close(c.total_window, 32.0, 1e-12));
        assert!(close(c.total_rate, 12.0 / 0.1 + 20.0 / 0.2, 1e-9));
        assert!(close(c.max_w_over_rtt2, 12.0 / 0.01, 1e-9));
        assert!(close(c.min_rtt, 0.1, 1e-12));
        let c = Coupling::of(g, &w, true).unwrap();
        assert!(close(c.total_window, 20.0, 1e-12), "ssthresh stands in for the inflated cwnd");
        assert_eq!(Coupling::of(Subflows { index: 2, all: &all }, &w, false), None);
    }

    /// A coupled algorithm on a plain TCP flow is a group of one subflow: through the whole
    /// engine, LIA, OLIA, Balia, EWTCP, Coupled, ecMTCP and DWC deliver what NewReno delivers
    /// (their increase is 1/w up to rounding, so the runs may part by a few segments).
    #[test]
    fn on_a_single_path_flow_the_loss_based_couplings_deliver_as_newreno() {
        let run = |cc: &str| {
            let json = format!(
                r#"{{"seed": 1, "duration_s": 20.0, "nodes": [{{"name": "a"}}, {{"name": "b"}}],
                "links": [{{"a": "a", "b": "b", "rate_bps": 2e6, "delay_s": 0.02,
                            "queue": {{"type": "droptail", "limit_packets": 20}}}}],
                "flows": [{{"name": "f", "src": "a", "dst": "b", "traffic": {{"type": "bulk"}},
                            "tcp": {{"congestion_control": {{"type": "{cc}"}}}}}}]}}"#
            );
            let mut sim = crate::sim::Simulation::from_json(&json).unwrap();
            sim.run();
            sim.results().unwrap().table("flows").u64s("delivered_bytes")[0] as f64
        };
        let newreno = run("newreno");
        assert!(newreno > 4e6, "the flow fills most of the 5 MB the link carries: {newreno}");
        for cc in ["lia", "olia", "balia", "ewtcp", "coupled", "ecmtcp", "dwc"] {
            let delivered = run(cc);
            assert!((delivered / newreno - 1.0).abs() < 0.01, "{cc}: {delivered} vs NewReno's {newreno}");
        }
    }

    #[test]
    fn a_coupled_algorithm_before_its_first_rtt_sample_grows_as_reno() {
        let mut lia: Box<dyn CongestionControl> = Box::new(Lia::new(LiaParams::default()));
        let idle = [SubflowView { cwnd: 10.0, ..SubflowView::IDLE }];
        assert!(close(one_ack(lia.as_mut(), &idle, 0), 0.1, 1e-12));
    }
}

#[cfg(test)]
mod shifting_tests;
