//! A port whose available bandwidth changes by itself: a bottleneck elsewhere in the network
//! (Panarello et al. 2016 §6.3; docs/models/traffic-models.md). At epochs Exp(mean) apart the port's
//! rate is redrawn uniformly; the packet in service finishes at the old rate.

use rand::Rng as _;
use rand_distr::{Distribution, Exp};
use serde::{Deserialize, Serialize};

use crate::error::{positive, ScenarioError};
use crate::rng::Rng;
use crate::time::{from_secs, Time};

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum AvailableBandwidthSpec {
    /// Redrawn at Exp(`mean_interval_s`) epochs from U[`min_rate_bps`, `max_rate_bps`]: the
    /// continuous interval, or with `step_bps` the rates min, min + step, …, max equally likely.
    Uniform {
        mean_interval_s: f64,
        min_rate_bps: f64,
        max_rate_bps: f64,
        #[serde(default)]
        step_bps: Option<f64>,
    },
}

#[derive(Clone, Debug)]
pub struct AvailableBandwidth {
    gap: Exp<f64>,
    min_bps: f64,
    max_bps: f64,
    step_bps: Option<f64>,
    rng: Rng,
}

impl AvailableBandwidth {
    pub fn new(spec: &AvailableBandwidthSpec, rng: Rng, field: &str) -> Result<Self, ScenarioError> {
        let AvailableBandwidthSpec::Uniform { mean_interval_s, min_rate_bps, max_rate_bps, step_bps } = *spec;
        let f = |name: &str| format!("{field}.{name}");
        let mean = positive(mean_interval_s, f("mean_interval_s"))?;
        let min_bps = positive(min_rate_bps, f("min_rate_bps"))?;
        if min_bps < 1.0 {
            return Err(ScenarioError::new(f("min_rate_bps"), format!("must be at least 1 bit/s, got {min_bps}")));
        }
        let max_bps = positive(max_rate_bps, f("max_rate_bps"))?;
        if max_bps < min_bps {
            return Err(ScenarioError::new(
                f("max_rate_bps"),
                format!("must be at least min_rate_bps ({min_bps}), got {max_bps}"),
            ));
        }
        let step_bps = step_bps.map(|s| positive(s, f("step_bps"))).transpose()?;
        Ok(AvailableBandwidth { gap: Exp::new(1.0 / mean).expect("positive rate"), min_bps, max_bps, step_bps, rng })
    }

    /// The time until the next redraw.
    pub fn next_gap(&mut self) -> Time {
        from_secs(self.gap.sample(&mut self.rng)).max(1)
    }

    /// The new rate in bit/s.
    pub fn draw_rate_bps(&mut self) -> u64 {
        let rate = match self.step_bps {
            Some(step) => {
                let levels = ((self.max_bps - self.min_bps) / step + 1e-9).floor() as u64 + 1;
                self.min_bps + step * self.rng.gen_range(0..levels) as f64
            }
            None => self.rng.gen_range(self.min_bps..=self.max_bps),
        };
        rate.round() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{domain, stream};

    fn uniform(step_bps: Option<f64>) -> AvailableBandwidth {
        let spec =
            AvailableBandwidthSpec::Uniform { mean_interval_s: 0.05, min_rate_bps: 1e6, max_rate_bps: 10e6, step_bps };
        AvailableBandwidth::new(&spec, stream(1, domain::AVAILABLE_BANDWIDTH, 0), "p").unwrap()
    }

    #[test]
    fn gaps_and_rates_have_the_spec_means() {
        // Panarello et al. 2016 §6.3: Exp(50 ms) gaps; U[1, 10] Mb/s has mean 5.5 Mb/s and sd 9/√12 Mb/s.
        let (mut b, n) = (uniform(None), 100_000);
        let mean_gap = (0..n).map(|_| b.next_gap() as f64).sum::<f64>() / n as f64 / from_secs(1.0) as f64;
        assert!((mean_gap - 0.05).abs() < 0.05 * 4.0 / (n as f64).sqrt(), "{mean_gap}");
        let rates: Vec<u64> = (0..n).map(|_| b.draw_rate_bps()).collect();
        let mean = rates.iter().sum::<u64>() as f64 / n as f64;
        assert!((mean - 5.5e6).abs() < 4.0 * 9e6 / 12f64.sqrt() / (n as f64).sqrt(), "{mean}");
        assert!(rates.iter().all(|&r| (1_000_000..=10_000_000).contains(&r)));
    }

    #[test]
    fn a_step_gives_equally_likely_levels() {
        let mut b = uniform(Some(1e6));
        let mut counts = [0u32; 10];
        for _ in 0..50_000 {
            let r = b.draw_rate_bps();
            assert_eq!(r % 1_000_000, 0);
            counts[(r / 1_000_000 - 1) as usize] += 1;
        }
        // 5000 expected per level; binomial sd ≈ 67.
        assert!(counts.iter().all(|&c| (4700..5300).contains(&c)), "{counts:?}");
    }

    #[test]
    fn bad_parameters_name_their_field() {
        let spec = AvailableBandwidthSpec::Uniform {
            mean_interval_s: 0.05,
            min_rate_bps: 5e6,
            max_rate_bps: 1e6,
            step_bps: None,
        };
        let e = AvailableBandwidth::new(&spec, stream(1, domain::AVAILABLE_BANDWIDTH, 0), "p").unwrap_err();
        assert_eq!(e.field, "p.max_rate_bps");
        let spec = AvailableBandwidthSpec::Uniform {
            mean_interval_s: 0.0,
            min_rate_bps: 1e6,
            max_rate_bps: 2e6,
            step_bps: None,
        };
        let e = AvailableBandwidth::new(&spec, stream(1, domain::AVAILABLE_BANDWIDTH, 0), "p").unwrap_err();
        assert_eq!(e.field, "p.mean_interval_s");
    }
}
