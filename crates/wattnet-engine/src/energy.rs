//! Power models and exact energy accounting (docs/models/energy.md).
//!
//! A port's power depends on its configured rate and its mode (active, asleep, in 802.3az
//! low-power idle). The meter integrates it exactly: power is constant between changes of
//! rate or mode, and the refresh cycles of low-power idle are summed in closed form.

use serde::{Deserialize, Serialize};

use crate::error::{positive, ScenarioError, MAX_RATE_BPS};
use crate::time::{checked_secs, to_secs, Time, MAX_TIME_S};

/// How a port draws power; attached to a link (both directions) or to one direction.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum PowerModelSpec {
    /// The same power at every rate.
    Constant {
        active_w: f64,
        #[serde(default)]
        sleep_w: f64,
    },
    /// Panarello et al. 2016 §3 (after Nedevschi et al. 2008): P(r) = P_s + f(r), with frequency
    /// scaling (f linear in r) or dynamic voltage scaling (f cubic in r down to r_MAX/φ, linear
    /// below, continuous at the knee).
    RateScaling {
        static_w: f64,
        dynamic_w: f64,
        scaling: Scaling,
        /// φ, the maximum voltage scaling factor (DVS only).
        #[serde(default = "default_phi")]
        max_scaling_factor: f64,
        /// r_MAX; default the port's initial rate.
        #[serde(default)]
        max_rate_bps: Option<f64>,
        #[serde(default)]
        sleep_w: f64,
    },
    /// Discrete hardware rates and their power (Ethernet-like): a rate draws the power of
    /// the slowest level that carries it.
    RateTable {
        levels: Vec<PowerLevel>,
        #[serde(default)]
        sleep_w: f64,
    },
    /// Sassu et al. 2012's line cards: ⌈capacity / card capacity⌉ line cards of `card_w` each, whatever the load.
    LineCard {
        card_capacity_bps: f64,
        card_w: f64,
        /// Default the port's initial rate.
        #[serde(default)]
        capacity_bps: Option<f64>,
        #[serde(default)]
        sleep_w: f64,
    },
}

fn default_phi() -> f64 {
    4.0
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Scaling {
    Frequency,
    Voltage,
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct PowerLevel {
    pub rate_bps: f64,
    pub watts: f64,
}

/// IEEE 802.3az low-power idle: a preset PHY or explicit timings (docs/models/energy.md §4).
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct LpiSpec {
    /// "100base_tx", "1000base_t" or "10gbase_t" (Reviriego et al. 2009, from 802.3az Table 78-4).
    #[serde(default)]
    pub phy: Option<Phy>,
    pub wake_s: Option<f64>,
    pub sleep_s: Option<f64>,
    pub quiet_s: Option<f64>,
    pub refresh_s: Option<f64>,
    /// Power in the quiet part of low-power idle, as a fraction of active power; default 0.1.
    pub power_fraction: Option<f64>,
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Phy {
    #[serde(rename = "100base_tx")]
    Base100Tx,
    #[serde(rename = "1000base_t")]
    Base1000T,
    #[serde(rename = "10gbase_t")]
    Base10GT,
}

/// Low-power idle timings, resolved.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Lpi {
    pub wake: Time,
    pub sleep: Time,
    pub quiet: Time,
    pub refresh: Time,
    pub power_fraction: f64,
}

impl Lpi {
    pub fn from_spec(spec: &LpiSpec, field: &str) -> Result<Lpi, ScenarioError> {
        // Reviriego et al. 2009's table of IEEE 802.3az-2010 Table 78-4: (T_w, T_s, T_q, T_r) in µs,
        // minimum T_q and T_r.
        let preset = spec.phy.map(|p| match p {
            Phy::Base100Tx => (30.5, 200.0, 20_000.0, 200.0),
            Phy::Base1000T => (16.5, 182.0, 20_000.0, 198.0),
            Phy::Base10GT => (4.48, 2.88, 39.68, 1.28),
        });
        let pick = |v: Option<f64>, preset_us: Option<f64>, name: &str| -> Result<Time, ScenarioError> {
            let s = v
                .or(preset_us.map(|us| us * 1e-6))
                .ok_or_else(|| ScenarioError::new(format!("{field}.{name}"), "required unless `phy` names a preset"))?;
            checked_secs(s, &format!("{field}.{name}"), false)
        };
        let fraction = spec.power_fraction.unwrap_or(0.1);
        if !(0.0..=1.0).contains(&fraction) {
            return Err(ScenarioError::new(
                format!("{field}.power_fraction"),
                format!("must be in [0, 1], got {fraction}"),
            ));
        }
        let lpi = Lpi {
            wake: pick(spec.wake_s, preset.map(|p| p.0), "wake_s")?,
            sleep: pick(spec.sleep_s, preset.map(|p| p.1), "sleep_s")?,
            quiet: pick(spec.quiet_s, preset.map(|p| p.2), "quiet_s")?,
            refresh: pick(spec.refresh_s, preset.map(|p| p.3), "refresh_s")?,
            power_fraction: fraction,
        };
        if lpi.quiet == 0 {
            return Err(ScenarioError::new(format!("{field}.quiet_s"), "must be positive"));
        }
        Ok(lpi)
    }

    /// Time spent refreshing (at full power) in [a, b) of a low-power idle period that
    /// entered its first quiet phase at `start`: quiet T_q, refresh T_r, repeating.
    fn refresh_time(&self, start: Time, a: Time, b: Time) -> Time {
        let cycle = self.quiet.saturating_add(self.refresh);
        // Refresh time in [start, start + x).
        let upto = |x: Time| (x / cycle) * self.refresh + (x % cycle).saturating_sub(self.quiet);
        upto(b - start) - upto(a - start)
    }
}

/// What a port is doing, for its power draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PowerMode {
    /// Awake: sending, idle, changing rate, waking or going to sleep.
    Active,
    /// Sleeping or switched off (pruned).
    Asleep,
    /// In the quiet/refresh part of 802.3az low-power idle, since the given time.
    LowPowerIdle { since: Time },
}

#[derive(Clone, Debug)]
enum Model {
    Constant { active_w: f64 },
    RateScaling { static_w: f64, dynamic_w: f64, voltage: bool, phi: f64, max_rate: f64 },
    RateTable { levels: Vec<(u64, f64)> },
    LineCard { watts: f64 },
}

/// A power model resolved against its port.
#[derive(Clone, Debug)]
pub struct PowerModel {
    model: Model,
    sleep_w: f64,
}

fn watts(v: f64, field: String) -> Result<f64, ScenarioError> {
    if v.is_finite() && v >= 0.0 {
        Ok(v)
    } else {
        Err(ScenarioError::new(field, format!("must be a non-negative number of watts, got {v}")))
    }
}

impl PowerModel {
    /// `port_rate_bps` is the port's initial rate, the default r_MAX and capacity.
    pub fn from_spec(spec: &PowerModelSpec, port_rate_bps: u64, field: &str) -> Result<PowerModel, ScenarioError> {
        let f = |name: &str| format!("{field}.{name}");
        let model = match spec {
            PowerModelSpec::Constant { active_w, sleep_w } => PowerModel {
                model: Model::Constant { active_w: watts(*active_w, f("active_w"))? },
                sleep_w: watts(*sleep_w, f("sleep_w"))?,
            },
            PowerModelSpec::RateScaling { static_w, dynamic_w, scaling, max_scaling_factor, max_rate_bps, sleep_w } => {
                let phi = *max_scaling_factor;
                if !(phi.is_finite() && phi >= 1.0) {
                    return Err(ScenarioError::new(f("max_scaling_factor"), format!("must be at least 1, got {phi}")));
                }
                PowerModel {
                    model: Model::RateScaling {
                        static_w: watts(*static_w, f("static_w"))?,
                        dynamic_w: watts(*dynamic_w, f("dynamic_w"))?,
                        voltage: *scaling == Scaling::Voltage,
                        phi,
                        max_rate: positive(max_rate_bps.unwrap_or(port_rate_bps as f64), f("max_rate_bps"))?,
                    },
                    sleep_w: watts(*sleep_w, f("sleep_w"))?,
                }
            }
            PowerModelSpec::RateTable { levels, sleep_w } => {
                if levels.is_empty() {
                    return Err(ScenarioError::new(f("levels"), "needs at least one level"));
                }
                let mut resolved = Vec::with_capacity(levels.len());
                for (i, l) in levels.iter().enumerate() {
                    let rate = positive(l.rate_bps, f(&format!("levels[{i}].rate_bps")))?;
                    resolved.push((rate.round() as u64, watts(l.watts, f(&format!("levels[{i}].watts")))?));
                }
                resolved.sort_by_key(|&(r, _)| r);
                PowerModel { model: Model::RateTable { levels: resolved }, sleep_w: watts(*sleep_w, f("sleep_w"))? }
            }
            PowerModelSpec::LineCard { card_capacity_bps, card_w, capacity_bps, sleep_w } => {
                let card = positive(*card_capacity_bps, f("card_capacity_bps"))?;
                let capacity = positive(capacity_bps.unwrap_or(port_rate_bps as f64), f("capacity_bps"))?;
                PowerModel {
                    model: Model::LineCard { watts: (capacity / card).ceil() * watts(*card_w, f("card_w"))? },
                    sleep_w: watts(*sleep_w, f("sleep_w"))?,
                }
            }
        };
        // Energy is power × time: a power whose product with the clock's longest run is not a
        // finite number would make energy_j infinite.
        let table_peak = match &model.model {
            Model::RateTable { levels } => levels.iter().map(|&(_, w)| w).fold(0.0, f64::max),
            _ => 0.0,
        };
        // The port may later run at any rate up to the highest a port can have.
        let fastest = model.active_w(MAX_RATE_BPS as u64);
        let watts = model.active_w(port_rate_bps).max(fastest).max(model.sleep_w).max(table_peak);
        if !(watts * MAX_TIME_S as f64).is_finite() {
            let message = format!(
                "gives {watts} W at a rate the port may take (up to {MAX_RATE_BPS:e} bit/s), so the energy would not be \
                 a finite number"
            );
            return Err(ScenarioError::new(field, message));
        }
        Ok(model)
    }

    /// Rates this model cannot carry (above its highest level) are an error for the caller.
    pub fn max_rate(&self) -> Option<u64> {
        match &self.model {
            Model::RateTable { levels } => levels.last().map(|&(r, _)| r),
            _ => None,
        }
    }

    /// Power when awake at `rate_bps`.
    pub fn active_w(&self, rate_bps: u64) -> f64 {
        match &self.model {
            Model::Constant { active_w } => *active_w,
            Model::RateScaling { static_w, dynamic_w, voltage, phi, max_rate } => {
                let x = rate_bps as f64 / max_rate;
                let knee = 1.0 / phi;
                let f = match voltage {
                    false => x,
                    // Cubic from the knee up; below it only frequency scales: φ⁻³·(xφ).
                    true if x >= knee => x.powi(3),
                    true => phi.powi(-3) * x * phi,
                };
                static_w + dynamic_w * f
            }
            Model::RateTable { levels } => {
                levels.iter().find(|&&(r, _)| r >= rate_bps).or(levels.last()).map_or(0.0, |&(_, w)| w)
            }
            Model::LineCard { watts } => *watts,
        }
    }

    pub fn sleep_w(&self) -> f64 {
        self.sleep_w
    }
}

/// Integrates one port's power over time, with the time spent in each mode and at each rate.
#[derive(Clone, Debug)]
pub struct EnergyMeter {
    model: PowerModel,
    lpi: Option<Lpi>,
    /// Power at the initial rate, awake: the baseline of "full rate, always on".
    pub full_power_w: f64,
    mode: PowerMode,
    rate_bps: u64,
    since: Time,
    pub joules: f64,
    pub active_time: Time,
    pub asleep_time: Time,
    pub low_power_idle_time: Time,
    /// Time spent at each configured rate, awake or not: (rate, time), in order of first use.
    pub rate_time: Vec<(u64, Time)>,
}

impl EnergyMeter {
    pub fn new(model: PowerModel, lpi: Option<Lpi>, rate_bps: u64) -> EnergyMeter {
        EnergyMeter {
            full_power_w: model.active_w(rate_bps),
            model,
            lpi,
            mode: PowerMode::Active,
            rate_bps,
            since: 0,
            joules: 0.0,
            active_time: 0,
            asleep_time: 0,
            low_power_idle_time: 0,
            rate_time: vec![],
        }
    }

    pub fn model(&self) -> &PowerModel {
        &self.model
    }

    /// Power drawn now (quiet low-power idle counted without its refresh bursts).
    pub fn power_w(&self) -> f64 {
        match self.mode {
            PowerMode::Active => self.model.active_w(self.rate_bps),
            PowerMode::Asleep => self.model.sleep_w(),
            PowerMode::LowPowerIdle { .. } => {
                self.model.active_w(self.rate_bps) * self.lpi.map_or(1.0, |l| l.power_fraction)
            }
        }
    }

    /// Accounts the energy up to `now` under the current mode and rate.
    pub fn advance(&mut self, now: Time) {
        let dt = now - self.since;
        if dt == 0 {
            return;
        }
        let active = self.model.active_w(self.rate_bps);
        self.joules += match self.mode {
            PowerMode::Active => {
                self.active_time += dt;
                active * to_secs(dt)
            }
            PowerMode::Asleep => {
                self.asleep_time += dt;
                self.model.sleep_w() * to_secs(dt)
            }
            PowerMode::LowPowerIdle { since } => {
                self.low_power_idle_time += dt;
                let lpi = self.lpi.expect("low-power idle needs its timings");
                let refresh = lpi.refresh_time(since, self.since, now);
                active * (to_secs(refresh) + lpi.power_fraction * to_secs(dt - refresh))
            }
        };
        match self.rate_time.iter_mut().find(|(r, _)| *r == self.rate_bps) {
            Some((_, t)) => *t += dt,
            None => self.rate_time.push((self.rate_bps, dt)),
        }
        self.since = now;
    }

    pub fn set_mode(&mut self, now: Time, mode: PowerMode) {
        self.advance(now);
        self.mode = mode;
    }

    pub fn set_rate(&mut self, now: Time, rate_bps: u64) {
        self.advance(now);
        self.rate_bps = rate_bps;
    }

    pub fn mode(&self) -> PowerMode {
        self.mode
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::from_secs;

    fn model(spec: PowerModelSpec, rate: u64) -> PowerModel {
        PowerModel::from_spec(&spec, rate, "power").unwrap()
    }

    #[test]
    fn rate_scaling_follows_the_two_laws() {
        // P_s = P_d = 1 W, r_MAX = 10 Mb/s, φ = 4 (knee at 2.5 Mb/s).
        let fs = model(
            PowerModelSpec::RateScaling {
                static_w: 1.0,
                dynamic_w: 1.0,
                scaling: Scaling::Frequency,
                max_scaling_factor: 4.0,
                max_rate_bps: None,
                sleep_w: 0.0,
            },
            10_000_000,
        );
        assert_eq!(fs.active_w(5_000_000), 1.5);
        let dvs = model(
            PowerModelSpec::RateScaling {
                static_w: 1.0,
                dynamic_w: 1.0,
                scaling: Scaling::Voltage,
                max_scaling_factor: 4.0,
                max_rate_bps: None,
                sleep_w: 0.0,
            },
            10_000_000,
        );
        // (5/10)³ = 0.125; at the knee (2.5/10)³ = 1/64; below it linear: 2/10 · 4 / 64 = 0.0125.
        assert_eq!(dvs.active_w(5_000_000), 1.125);
        assert!((dvs.active_w(2_500_000) - (1.0 + 1.0 / 64.0)).abs() < 1e-15);
        assert!((dvs.active_w(2_000_000) - 1.0125).abs() < 1e-15);
        assert_eq!(dvs.active_w(10_000_000), 2.0);
    }

    #[test]
    fn rate_table_and_line_cards() {
        let table = model(
            PowerModelSpec::RateTable {
                levels: vec![
                    PowerLevel { rate_bps: 1e9, watts: 2.0 },
                    PowerLevel { rate_bps: 1e8, watts: 0.5 },
                    PowerLevel { rate_bps: 1e10, watts: 20.0 },
                ],
                sleep_w: 0.1,
            },
            1_000_000_000,
        );
        assert_eq!(table.active_w(100_000_000), 0.5);
        assert_eq!(table.active_w(400_000_000), 2.0);
        assert_eq!(table.active_w(10_000_000_000), 20.0);
        // docs/models/energy.md §3: a 40 Gb/s link of 2.5 Gb/s cards at 140 W: 16 cards, 2240 W.
        let cards = model(
            PowerModelSpec::LineCard {
                card_capacity_bps: 2.5e9,
                card_w: 140.0,
                capacity_bps: Some(40e9),
                sleep_w: 0.0,
            },
            40_000_000,
        );
        assert_eq!(cards.active_w(40_000_000), 2240.0);
    }

    #[test]
    fn the_meter_integrates_a_scripted_schedule_exactly() {
        // FS model, 1 W + 1 W·r/10 Mb/s, sleep 0.2 W:
        // 0–2 s at 10 Mb/s (2 W) = 4 J; 2–5 s at 5 Mb/s (1.5 W) = 4.5 J; 5–6 s asleep = 0.2 J;
        // 6–10 s awake at 5 Mb/s = 6 J. Total 14.7 J.
        let m = model(
            PowerModelSpec::RateScaling {
                static_w: 1.0,
                dynamic_w: 1.0,
                scaling: Scaling::Frequency,
                max_scaling_factor: 4.0,
                max_rate_bps: None,
                sleep_w: 0.2,
            },
            10_000_000,
        );
        let mut meter = EnergyMeter::new(m, None, 10_000_000);
        meter.set_rate(from_secs(2.0), 5_000_000);
        meter.set_mode(from_secs(5.0), PowerMode::Asleep);
        meter.set_mode(from_secs(6.0), PowerMode::Active);
        meter.advance(from_secs(10.0));
        assert!((meter.joules - 14.7).abs() < 1e-12, "{}", meter.joules);
        assert_eq!(meter.asleep_time, from_secs(1.0));
        assert_eq!(meter.rate_time, vec![(10_000_000, from_secs(2.0)), (5_000_000, from_secs(8.0))]);
    }

    #[test]
    fn low_power_idle_counts_refresh_bursts_at_full_power() {
        // T_q = 20 ms quiet at 10 %, T_r = 0.2 ms at full power (1 W): over 50.4 ms of idle
        // from its start: cycles [0, 20.2) and [20.2, 40.4) give 0.4 ms of refresh, and
        // [40.4, 50.4) is quiet. Energy = 0.4 ms · 1 W + 50.0 ms · 0.1 W = 0.0054 J.
        let lpi = Lpi { wake: 0, sleep: 0, quiet: from_secs(0.020), refresh: from_secs(0.0002), power_fraction: 0.1 };
        let mut meter =
            EnergyMeter::new(model(PowerModelSpec::Constant { active_w: 1.0, sleep_w: 0.0 }, 1), Some(lpi), 1);
        meter.set_mode(0, PowerMode::LowPowerIdle { since: 0 });
        // Accounting in two pieces must give the same as in one.
        meter.advance(from_secs(0.030));
        meter.advance(from_secs(0.0504));
        assert!((meter.joules - 0.0054).abs() < 1e-12, "{}", meter.joules);
    }

    #[test]
    fn phy_presets_and_explicit_timings() {
        let lpi = Lpi::from_spec(&LpiSpec { phy: Some(Phy::Base1000T), ..Default::default() }, "lpi").unwrap();
        assert_eq!((lpi.wake, lpi.sleep), (from_secs(16.5e-6), from_secs(182e-6)));
        let err = Lpi::from_spec(&LpiSpec { wake_s: Some(1e-6), ..Default::default() }, "links[0].lpi").unwrap_err();
        assert_eq!(err.field, "links[0].lpi.sleep_s");
    }
}
