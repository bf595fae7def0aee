//! LIA, the Linked Increases Algorithm (RFC 6356; Wischik, Raiciu, Greenhalgh, Handley,
//! NSDI 2011), in segments: per ACK on subflow i, w_i += min(α/W, 1/w_i).
//!
//! α is recomputed on every ACK from the current windows and SRTTs (RFC 6356 §3 allows once
//! per drop or per RTT; Linux `mptcp_coupled.c` recomputes it whenever a window changes,
//! which in segments of floating point is every ACK).

use serde::{Deserialize, Serialize};

use super::super::{half_flight, Ack, Congestion, CongestionControl, Subflows, Window};
use super::{coupled_growth, Coupling};
use crate::time::Time;

#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct LiaParams {
    /// RFC 6356 §3: the increase is capped at Reno's 1/w_i, so that no subflow is more
    /// aggressive than a TCP on its path. Default true.
    pub cap_1_over_w: bool,
    /// Count a sibling in fast recovery by its ssthresh instead of its inflated cwnd
    /// (Linux's OLIA does; Linux's LIA does not). Default false.
    pub ssthresh_in_recovery: bool,
}

impl Default for LiaParams {
    fn default() -> Self {
        LiaParams { cap_1_over_w: true, ssthresh_in_recovery: false }
    }
}

impl LiaParams {
    pub fn validate(&self) -> Result<(), String> {
        Ok(())
    }
}

/// RFC 6356 §3: α = W·max_i(w_i/rtt_i²)/(Σ_i w_i/rtt_i)².
pub fn lia_alpha(c: &Coupling) -> f64 {
    c.total_window * c.max_w_over_rtt2 / (c.total_rate * c.total_rate)
}

/// RFC 6356 §3: the per-segment increase α/W, capped at 1/w_i when `cap`.
pub fn lia_increment(c: &Coupling, cap: bool) -> f64 {
    let linked = lia_alpha(c) / c.total_window;
    if cap {
        linked.min(1.0 / c.w)
    } else {
        linked
    }
}

#[derive(Clone, Debug)]
pub struct Lia {
    params: LiaParams,
}

impl Lia {
    pub fn new(params: LiaParams) -> Lia {
        Lia { params }
    }
}

impl CongestionControl for Lia {
    fn grow(&mut self, g: Subflows, w: &mut Window, ack: &Ack) {
        coupled_growth(g, w, ack, self.params.ssthresh_in_recovery, |c, _| lia_increment(c, self.params.cap_1_over_w));
    }

    /// RFC 6356 §3: a loss halves the subflow's window as in Reno (RFC 5681 eq. 4).
    fn ssthresh(&mut self, _g: Subflows, _w: &Window, flight: f64, _why: Congestion, _now: Time) -> f64 {
        half_flight(flight)
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{close, one_ack, views};
    use super::*;

    #[test]
    fn two_equal_subflows_of_ten_give_alpha_one_half_and_a_fortieth_per_ack() {
        // RFC 6356 §3 by hand: α = 20·(10/r²)/(20/r)² = 0.5; α/W = 0.5/20 = 0.025 (Reno: 0.1).
        let all = views(&[10.0, 10.0], &[0.1, 0.1]);
        let w = Window { cwnd: 10.0, ssthresh: 1.0 };
        let c = Coupling::of(Subflows { index: 0, all: &all }, &w, false).unwrap();
        assert!(close(lia_alpha(&c), 0.5, 1e-12));
        let mut lia = Lia::new(LiaParams::default());
        assert!(close(one_ack(&mut lia, &all, 0), 0.025, 1e-12));
        assert!(close(one_ack(&mut lia, &all, 1), 0.025, 1e-12));
    }

    #[test]
    fn the_increase_is_capped_at_reno_on_the_better_path() {
        // Windows (2, 40) with RTTs (10 ms, 400 ms): α = 42·(2/1e-4)/(200 + 100)² = 9.333 and
        // α/W = 0.2222, below 1/w₀ = 0.5 on subflow 0 but above 1/w₁ = 0.025 on subflow 1.
        let all = views(&[2.0, 40.0], &[0.01, 0.4]);
        let mut lia = Lia::new(LiaParams::default());
        let alpha = 42.0 * (2.0 / 1e-4) / (300.0f64 * 300.0);
        assert!(close(one_ack(&mut lia, &all, 0), alpha / 42.0, 1e-12));
        assert!(close(one_ack(&mut lia, &all, 1), 1.0 / 40.0, 1e-12));
        let mut uncapped = Lia::new(LiaParams { cap_1_over_w: false, ..Default::default() });
        assert!(close(one_ack(&mut uncapped, &all, 1), alpha / 42.0, 1e-12));
    }
}
