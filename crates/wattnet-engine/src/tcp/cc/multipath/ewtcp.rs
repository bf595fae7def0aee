//! EWTCP, equally-weighted TCP (Honda, Nishida, Eggert, Sarolahti, Tokuda, "Multipath
//! congestion control for shared bottleneck", PFLDNeT 2009; the baseline of Wischik, Raiciu,
//! Greenhalgh, Handley, NSDI 2011 §2): Reno on each subflow with the increase weighted by a,
//! w_r += a/w_r per ACK, and halving on loss.

use serde::{Deserialize, Serialize};

use super::super::{half_flight, Ack, Congestion, CongestionControl, Subflows, Window};
use super::coupled_growth;
use crate::time::Time;

#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct EwtcpParams {
    /// The weight a of the increase. Absent (the default): a = 1/√n for n subflows, the form
    /// Zhao, Liu, Wang (IEEE 2017, §IV) give; a = 1/n² gives one TCP's total rate on a
    /// shared bottleneck (Wischik et al. 2011 §2).
    pub a: Option<f64>,
}

impl EwtcpParams {
    pub fn validate(&self) -> Result<(), String> {
        match self.a {
            Some(a) if !(a.is_finite() && a > 0.0 && a <= 1.0) => Err(format!("a must be in (0, 1], got {a}")),
            _ => Ok(()),
        }
    }
}

#[derive(Clone, Debug)]
pub struct Ewtcp {
    params: EwtcpParams,
}

impl Ewtcp {
    pub fn new(params: EwtcpParams) -> Ewtcp {
        Ewtcp { params }
    }
}

impl CongestionControl for Ewtcp {
    fn grow(&mut self, g: Subflows, w: &mut Window, ack: &Ack) {
        coupled_growth(g, w, ack, false, |c, _| self.params.a.unwrap_or(1.0 / (c.n as f64).sqrt()) / c.w);
    }

    fn ssthresh(&mut self, _g: Subflows, _w: &Window, flight: f64, _why: Congestion, _now: Time) -> f64 {
        half_flight(flight)
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{close, loss, one_ack, views};
    use super::*;

    #[test]
    fn the_increase_is_one_over_root_n_times_w() {
        // n = 4, w = 8 on subflow 2: 1/(√4·8) = 1/16, whatever the siblings' windows and RTTs.
        let all = views(&[3.0, 50.0, 8.0, 20.0], &[0.01, 0.3, 0.1, 0.05]);
        let mut ewtcp = Ewtcp::new(EwtcpParams::default());
        assert!(close(one_ack(&mut ewtcp, &all, 2), 1.0 / 16.0, 1e-12));
        assert_eq!(loss(&mut ewtcp, &all, 2), 4.0);
        let mut fixed = Ewtcp::new(EwtcpParams { a: Some(1.0 / 16.0) });
        assert!(close(one_ack(&mut fixed, &all, 2), 1.0 / 128.0, 1e-12));
    }
}
