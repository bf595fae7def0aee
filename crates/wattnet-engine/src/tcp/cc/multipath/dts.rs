//! DTS, Delay-based Traffic Shifting (Zhao, Liu, Wang, "On energy-efficient congestion control
//! for multipath TCP", IEEE 2017, §V and Algorithm 1): OLIA's first term scaled by a sigmoid of
//! baseRTT_r/RTT_r, w_r += c·ε_r·(w_r/rtt_r²)/(Σ_k w_k/rtt_k)² per ACK, Reno's halving on loss;
//! optionally less the energy price φ_r of the congested switch-to-switch hops (§V-C).

use serde::{Deserialize, Serialize};

use super::super::{half_flight, Ack, Congestion, CongestionControl, Subflows, Window};
use super::{coupled_growth, secs};
use crate::time::Time;

#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct DtsParams {
    /// ψ_r = c·ε_r (§V-B; the paper takes c = 1). Default 1.
    pub c: f64,
    /// The sigmoid's steepness k in ε_r = 2/(1 + e^{−k(baseRTT_r/RTT_r − ½)}) (eq. 5: 10). Default 10.
    pub steepness: f64,
    /// Compute ε_r from Algorithm 1's integer cubic in place of e^x (corrected; see the docs).
    /// Default false: exact, with `exp()`.
    pub taylor: bool,
    /// Cap the increase at Reno's 1/w_r (RFC 6356 §3); the paper has no cap. Default false.
    pub cap_1_over_w: bool,
    /// Subtract the energy price φ_r (eq. 9): needs the network's congested-hop feedback. Default false.
    pub phi: bool,
    /// κ_s, the weight of the price (eq. 7): the per-ACK decrement is κ_s·w_r·∂U_ep/∂x_r. Default 1e-4.
    pub kappa: f64,
    /// ρ, the energy cost per unit of traffic on each switch-to-switch hop (eq. 6). Default 1.
    pub rho: f64,
    /// Q, the expected queue, as a fraction of each port's buffer: a hop whose queue exceeds
    /// it counts as congested (eq. 6). Default 0.2.
    pub expected_queue: f64,
}

impl Default for DtsParams {
    fn default() -> Self {
        DtsParams {
            c: 1.0,
            steepness: 10.0,
            taylor: false,
            cap_1_over_w: false,
            phi: false,
            kappa: 1e-4,
            rho: 1.0,
            expected_queue: 0.2,
        }
    }
}

impl DtsParams {
    pub fn validate(&self) -> Result<(), String> {
        let positive = |name: &str, v: f64| {
            if v.is_finite() && v > 0.0 {
                Ok(())
            } else {
                Err(format!("{name} must be a positive number, got {v}"))
            }
        };
        let non_negative = |name: &str, v: f64| {
            if v.is_finite() && v >= 0.0 {
                Ok(())
            } else {
                Err(format!("{name} must be a non-negative number, got {v}"))
            }
        };
        positive("c", self.c)?;
        positive("steepness", self.steepness)?;
        non_negative("kappa", self.kappa)?;
        non_negative("rho", self.rho)?;
        if !(0.0..=1.0).contains(&self.expected_queue) {
            return Err(format!(
                "expected_queue must be in [0, 1] (a fraction of the buffer), got {}",
                self.expected_queue
            ));
        }
        Ok(())
    }
}

/// Eq. 5: ε = 2/(1 + e^{−k(ratio − ½)}), ratio = baseRTT/RTT. With `taylor`, Algorithm 1's
/// cubic num = 100 + 100x + 50x² + 17x³ ≈ 100·eˣ (x = k·ratio − k/2) and ε = 2·num/(100 + num),
/// falling back to the exact value where num ≤ 0 (ratio ≲ 0.34 at k = 10), where the cubic
/// turns negative and ε would leave (0, 2).
pub fn dts_epsilon(ratio: f64, steepness: f64, taylor: bool) -> f64 {
    let x = steepness * (ratio - 0.5);
    let exact = || 2.0 / (1.0 + (-x).exp());
    if !taylor {
        return exact();
    }
    let num = 100.0 + 100.0 * x + 50.0 * x * x + 17.0 * x * x * x;
    if num <= 0.0 {
        exact()
    } else {
        2.0 * num / (100.0 + num)
    }
}

/// The latest path feedback of one subflow, echoed by its ACKs.
#[derive(Clone, Copy, Debug, Default)]
struct PathPrice {
    hops: u8,
    congested: u8,
}

#[derive(Clone, Debug)]
pub struct Dts {
    params: DtsParams,
    price: Vec<PathPrice>,
}

impl Dts {
    pub fn new(params: DtsParams, subflows: usize) -> Dts {
        Dts { params, price: vec![PathPrice::default(); subflows.max(1)] }
    }

    /// ε_r from the subflow's minimum RTT sample (baseRTT, initialised to the first sample;
    /// Algorithm 1's initial 0 would never move) and its SRTT (the current RTT); 1 before both
    /// exist, as Algorithm 1 initialises it.
    fn epsilon(&self, g: Subflows) -> f64 {
        let v = &g.all[g.index];
        match (secs(v.min_rtt), secs(v.srtt)) {
            (Some(base), Some(rtt)) => dts_epsilon(base / rtt, self.params.steepness, self.params.taylor),
            _ => 1.0,
        }
    }

    /// §V-C: φ_r's per-ACK window decrement rtt_r·φ_r/x_r = κ_s·w_r·∂U_ep/∂x_r, with
    /// ∂U_ep/∂x_r = Σ over the path's switch-to-switch hops of (ρ + 1[queue > Q]).
    fn price_decrement(&self, g: Subflows, w: &Window) -> f64 {
        if !self.params.phi {
            return 0.0;
        }
        let p = self.price[g.index];
        self.params.kappa * w.cwnd * (self.params.rho * p.hops as f64 + p.congested as f64)
    }
}

impl CongestionControl for Dts {
    fn on_ack(&mut self, g: Subflows, _w: &Window, ack: &Ack) {
        if self.params.phi {
            self.price[g.index] = PathPrice { hops: ack.path.hops, congested: ack.path.congested };
        }
    }

    fn grow(&mut self, g: Subflows, w: &mut Window, ack: &Ack) {
        coupled_growth(g, w, ack, false, |c, w| {
            let inc = self.params.c * self.epsilon(g) * c.kelly_voice_term();
            let inc = if self.params.cap_1_over_w { inc.min(1.0 / c.w) } else { inc };
            inc - self.price_decrement(g, w)
        });
    }

    /// Algorithm 1: w_r ← w_r/2 on each loss (RFC 5681 eq. 4).
    fn ssthresh(&mut self, _g: Subflows, _w: &Window, flight: f64, _why: Congestion, _now: Time) -> f64 {
        half_flight(flight)
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::{PathFeedback, SubflowView};
    use super::super::testing::{close, one_ack, views};
    use super::*;
    use crate::time::from_secs;

    #[test]
    fn epsilon_exact_and_by_the_corrected_cubic() {
        // Exact: 2/(1 + e^{−10(r − ½)}); cubic: 2·num/(100 + num), num = 100 + 100x + 50x² + 17x³.
        // At r = 0.2 (x = −3, num = −209) and 0.3 (x = −2, num = −36) the cubic is negative:
        // the exact value stands in.
        let table = [
            (0.2, 2.0 / (1.0 + 3f64.exp()), 2.0 / (1.0 + 3f64.exp())),
            (0.3, 2.0 / (1.0 + 2f64.exp()), 2.0 / (1.0 + 2f64.exp())),
            (0.4, 2.0 / (1.0 + 1f64.exp()), 66.0 / 133.0),
            (0.5, 1.0, 1.0),
            (0.6, 2.0 / (1.0 + (-1f64).exp()), 534.0 / 367.0),
            (0.8, 2.0 / (1.0 + (-3f64).exp()), 2618.0 / 1409.0),
            (1.0, 2.0 / (1.0 + (-5f64).exp()), 7950.0 / 4075.0),
        ];
        let rounded = [
            (0.095, 0.095),
            (0.238, 0.238),
            (0.538, 0.496),
            (1.0, 1.0),
            (1.462, 1.455),
            (1.905, 1.858),
            (1.987, 1.951),
        ];
        for ((ratio, exact, cubic), (exact3, cubic3)) in table.into_iter().zip(rounded) {
            assert!(close(dts_epsilon(ratio, 10.0, false), exact, 1e-12), "exact at {ratio}");
            assert!(close(dts_epsilon(ratio, 10.0, true), cubic, 1e-12), "cubic at {ratio}");
            assert!(close(exact, exact3, 5e-4) && close(cubic, cubic3, 5e-4), "{ratio}");
        }
    }

    #[test]
    fn one_subflow_at_its_base_rtt_grows_twice_as_fast_as_reno() {
        // baseRTT/RTT = 1: ε = 1.987 and the increase is ε/w.
        let alone = views(&[10.0], &[0.1]);
        let mut dts = Dts::new(DtsParams::default(), 1);
        let eps = 2.0 / (1.0 + (-5f64).exp());
        assert!(close(one_ack(&mut dts, &alone, 0), eps / 10.0, 1e-12));
        let mut capped = Dts::new(DtsParams { cap_1_over_w: true, ..Default::default() }, 1);
        assert!(close(one_ack(&mut capped, &alone, 0), 0.1, 1e-12));
    }

    #[test]
    fn two_equal_subflows_at_twice_their_base_rtt_grow_as_lia() {
        // baseRTT/RTT = ½ on both: ε = 1, and 10/20² = 0.025 per ACK.
        let mut all = views(&[10.0, 10.0], &[0.2, 0.2]);
        for v in &mut all {
            v.min_rtt = Some(from_secs(0.1));
        }
        let mut dts = Dts::new(DtsParams::default(), 2);
        assert!(close(one_ack(&mut dts, &all, 0), 0.025, 1e-12));
        let idle = [SubflowView { cwnd: 10.0, ..SubflowView::IDLE }];
        assert!(close(one_ack(&mut dts, &idle, 0), 0.1, 1e-12), "no RTT yet: Reno");
    }

    #[test]
    fn the_energy_price_takes_kappa_w_per_priced_hop_per_ack() {
        // 4 switch-to-switch hops, 1 congested, ρ = 1, κ = 1e-3, w = 10: 1e-3·10·(4 + 1) = 0.05.
        let mut all = views(&[10.0, 10.0], &[0.2, 0.2]);
        for v in &mut all {
            v.min_rtt = Some(from_secs(0.1));
        }
        let mut dts = Dts::new(DtsParams { phi: true, kappa: 1e-3, ..Default::default() }, 2);
        let mut w = Window { cwnd: 10.0, ssthresh: 1.0 };
        let ack = Ack { acked: 1.0, path: PathFeedback { hops: 4, congested: 1 }, ..Default::default() };
        let g = Subflows { index: 0, all: &all };
        dts.on_ack(g, &w, &ack);
        dts.grow(g, &mut w, &ack);
        assert!(close(w.cwnd - 10.0, 0.025 - 0.05, 1e-12));
        // Without φ the feedback is ignored.
        let mut plain = Dts::new(DtsParams::default(), 2);
        let mut w = Window { cwnd: 10.0, ssthresh: 1.0 };
        plain.on_ack(g, &w, &ack);
        plain.grow(g, &mut w, &ack);
        assert!(close(w.cwnd - 10.0, 0.025, 1e-12));
    }
}
