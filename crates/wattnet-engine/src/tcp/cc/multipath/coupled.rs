//! Coupled (fully coupled) control (Kelly & Voice, "Stability of end-to-end algorithms for
//! joint routing and rate control", CCR 2005; Han, Shakkottai, Hollot, Srikant, Towsley,
//! IEEE/ACM ToN 2006). Increase per ACK: w_r/W² in the ψ form of Zhao, Liu, Wang (IEEE 2017,
//! §IV; the default) or 1/W as Wischik, Raiciu, Greenhalgh, Handley (NSDI 2011, §2, "COUPLED")
//! state it. Decrease per loss: w_r = max(w_r − W/2, 1) (Wischik et al. 2011 §2).

use serde::{Deserialize, Serialize};

use super::super::{half_flight, Ack, Congestion, CongestionControl, Subflows, Window};
use super::{coupled_growth, Coupling};
use crate::time::Time;

/// Which increase rule.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CoupledIncrease {
    /// w_r/W² (ψ_r = rtt_r²·X²/W² in Zhao, Liu, Wang's fluid model).
    #[default]
    Psi,
    /// 1/W (Wischik et al. 2011 §2).
    Wischik,
}

#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct CoupledParams {
    /// The increase rule; default `psi`.
    pub increase: CoupledIncrease,
}

impl CoupledParams {
    pub fn validate(&self) -> Result<(), String> {
        Ok(())
    }
}

#[derive(Clone, Debug)]
pub struct Coupled {
    params: CoupledParams,
}

impl Coupled {
    pub fn new(params: CoupledParams) -> Coupled {
        Coupled { params }
    }
}

impl CongestionControl for Coupled {
    fn grow(&mut self, g: Subflows, w: &mut Window, ack: &Ack) {
        coupled_growth(g, w, ack, false, |c, _| match self.params.increase {
            CoupledIncrease::Psi => c.w / (c.total_window * c.total_window),
            CoupledIncrease::Wischik => 1.0 / c.total_window,
        });
    }

    /// Wischik et al. 2011 §2: the window loses half the total, at least one segment left;
    /// alone this is Reno's halving (RFC 5681 eq. 4).
    fn ssthresh(&mut self, g: Subflows, w: &Window, flight: f64, _why: Congestion, _now: Time) -> f64 {
        match Coupling::of(g, w, false) {
            Some(c) if c.n >= 2 => (w.cwnd - c.total_window / 2.0).max(1.0),
            _ => half_flight(flight),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{close, loss, one_ack, views};
    use super::*;

    #[test]
    fn the_increase_is_w_over_w_total_squared_and_a_loss_takes_half_the_total() {
        // w = (10, 30): subflow 0 gains 10/40² = 1/160 (Wischik's form: 1/40) and a loss
        // leaves max(10 − 20, 1) = 1; subflow 1 gains 30/1600 and keeps 30 − 20 = 10.
        let all = views(&[10.0, 30.0], &[0.1, 0.2]);
        let mut coupled = Coupled::new(CoupledParams::default());
        assert!(close(one_ack(&mut coupled, &all, 0), 1.0 / 160.0, 1e-12));
        assert!(close(one_ack(&mut coupled, &all, 1), 30.0 / 1600.0, 1e-12));
        assert_eq!(loss(&mut coupled, &all, 0), 1.0);
        assert_eq!(loss(&mut coupled, &all, 1), 10.0);
        let mut wischik = Coupled::new(CoupledParams { increase: CoupledIncrease::Wischik });
        assert!(close(one_ack(&mut wischik, &all, 0), 1.0 / 40.0, 1e-12));
    }
}
