//! DWC, Dynamic Window Coupling (Hassayoun, Iyengar, Ros, "Dynamic window coupling for
//! multipath congestion control", ICNP 2011), in the increase Zhao, Liu, Wang derive from its
//! ψ (IEEE 2017, §IV): w_r += rtt_r/(n·min_k rtt_k·W) per ACK, Reno's halving on loss.
//!
//! DWC's detection of shared bottlenecks (grouping the subflows that lose together and coupling
//! only within a group) is not modelled: all subflows form one group.

use serde::{Deserialize, Serialize};

use super::super::{half_flight, Ack, Congestion, CongestionControl, Subflows, Window};
use super::coupled_growth;
use crate::time::Time;

/// DWC's increase has no constants of its own.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct DwcParams {}

impl DwcParams {
    pub fn validate(&self) -> Result<(), String> {
        Ok(())
    }
}

#[derive(Clone, Debug)]
pub struct Dwc;

impl Dwc {
    pub fn new(_params: DwcParams) -> Dwc {
        Dwc
    }
}

impl CongestionControl for Dwc {
    fn grow(&mut self, g: Subflows, w: &mut Window, ack: &Ack) {
        coupled_growth(g, w, ack, false, |c, _| c.rtt / (c.n as f64 * c.min_rtt * c.total_window));
    }

    fn ssthresh(&mut self, _g: Subflows, _w: &Window, flight: f64, _why: Congestion, _now: Time) -> f64 {
        half_flight(flight)
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{close, one_ack, views};
    use super::*;

    #[test]
    fn the_increase_scales_with_the_rtt_over_the_fastest_one() {
        // w = (10, 30), RTTs (50 ms, 100 ms): subflow 1 gains 0.1/(2·0.05·40) = 1/40, subflow 0 1/80.
        let all = views(&[10.0, 30.0], &[0.05, 0.1]);
        let mut dwc = Dwc::new(DwcParams::default());
        assert!(close(one_ack(&mut dwc, &all, 1), 1.0 / 40.0, 1e-12));
        assert!(close(one_ack(&mut dwc, &all, 0), 1.0 / 80.0, 1e-12));
    }
}
