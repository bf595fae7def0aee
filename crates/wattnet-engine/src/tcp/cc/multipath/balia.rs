//! Balia, the Balanced Linked Adaptation algorithm (Peng, Walid, Hwang, Low, "Multipath TCP:
//! analysis, design, and implementation", IEEE/ACM ToN 2016, §VI), as Linux's
//! `mptcp_balia.c`: with x_r = w_r/rtt_r and α_r = max_k x_k / x_r,
//! per ACK w_r += (x_r/rtt_r)/X² · (1+α_r)(4+α_r)/10, per loss w_r −= (w_r/2)·min(α_r, 1.5).

use serde::{Deserialize, Serialize};

use super::super::{half_flight, Ack, Congestion, CongestionControl, Subflows, Window};
use super::{coupled_growth, Coupling};
use crate::time::Time;

#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct BaliaParams {
    /// The cap on α_r in the decrease, (w_r/2)·min(α_r, cap) (Peng et al. 2016 §VI: 1.5;
    /// Linux `mptcp_balia.c`: 3/2). Default 1.5.
    pub md_cap: f64,
}

impl Default for BaliaParams {
    fn default() -> Self {
        BaliaParams { md_cap: 1.5 }
    }
}

impl BaliaParams {
    pub fn validate(&self) -> Result<(), String> {
        if !(self.md_cap.is_finite() && self.md_cap >= 1.0 && self.md_cap <= 2.0) {
            return Err(format!("md_cap must be in [1, 2] (a cut of w/2 to w), got {}", self.md_cap));
        }
        Ok(())
    }
}

#[derive(Clone, Debug)]
pub struct Balia {
    params: BaliaParams,
}

impl Balia {
    pub fn new(params: BaliaParams) -> Balia {
        Balia { params }
    }
}

/// α_r = x_max / x_r ≥ 1.
fn alpha(c: &Coupling) -> f64 {
    c.max_rate / c.rate()
}

/// Peng et al. 2016 §VI: the per-segment increase (x_r/rtt_r)/X² · (1+α)(4+α)/10.
pub fn balia_increment(c: &Coupling) -> f64 {
    let a = alpha(c);
    c.rate() / c.rtt / (c.total_rate * c.total_rate) * (1.0 + a) * (4.0 + a) / 10.0
}

impl CongestionControl for Balia {
    fn grow(&mut self, g: Subflows, w: &mut Window, ack: &Ack) {
        coupled_growth(g, w, ack, false, |c, _| balia_increment(c));
    }

    /// Peng et al. 2016 §VI: ssthresh = w_r − (w_r/2)·min(α_r, 1.5), at least 1 (Linux
    /// `mptcp_balia_ssthresh`, from cwnd); with fewer than two subflows Linux falls back to Reno.
    fn ssthresh(&mut self, g: Subflows, w: &Window, flight: f64, _why: Congestion, _now: Time) -> f64 {
        match Coupling::of(g, w, false) {
            Some(c) if c.n >= 2 => (w.cwnd - w.cwnd / 2.0 * alpha(&c).min(self.params.md_cap)).max(1.0),
            _ => half_flight(flight),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{close, loss, one_ack, views};
    use super::*;

    #[test]
    fn equal_windows_of_ten_grow_as_lia_and_halve() {
        // α = 1, (2·5)/10 = 1: 10/20² = 0.025 per ACK; the decrease is w/2.
        let all = views(&[10.0, 10.0], &[0.1, 0.1]);
        let mut balia = Balia::new(BaliaParams::default());
        assert!(close(one_ack(&mut balia, &all, 0), 0.025, 1e-12));
        assert_eq!(loss(&mut balia, &all, 0), 5.0);
    }

    #[test]
    fn windows_ten_and_thirty_give_the_slow_subflow_a_larger_factor_and_a_capped_cut() {
        // Equal RTTs, w = (10, 30): on subflow 0 α = 3, (1+3)(4+3)/10 = 2.8,
        // increment 2.8·10/40² = 0.0175; a loss cuts (10/2)·min(3, 1.5) = 7.5, leaving 2.5.
        let all = views(&[10.0, 30.0], &[0.1, 0.1]);
        let mut balia = Balia::new(BaliaParams::default());
        assert!(close(one_ack(&mut balia, &all, 0), 0.0175, 1e-12));
        assert!(close(loss(&mut balia, &all, 0), 2.5, 1e-12));
        // Subflow 1 has α = 1: (2·5)/10 = 1, 30/1600 = 0.01875, and halving.
        assert!(close(one_ack(&mut balia, &all, 1), 30.0 / 1600.0, 1e-12));
        assert!(close(loss(&mut balia, &all, 1), 15.0, 1e-12));
    }
}
