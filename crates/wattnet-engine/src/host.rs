//! Energy of end hosts, attached to nodes (docs/models/energy.md §6). The engine counts what each
//! node sends and receives as the run goes; the energy follows at results time.

use serde::{Deserialize, Serialize};

use crate::error::ScenarioError;
use crate::time::{checked_secs, to_secs, Time};

/// How a host draws power; `nodes[i].power`.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum HostPowerSpec {
    /// A battery-powered client (Tsaoussidis et al., ISCC 2000; docs/models/energy.md §6):
    /// E = N_tx·e_tx + N_rx·e_rx + T_idle·P_idle, each packet costing e = P·(size·8/rate) + e_overhead.
    Battery {
        /// e_overhead of each packet sent (J); with `tx_w` = 0, the whole cost of a packet.
        tx_j_per_packet: f64,
        /// e_overhead of each packet received (J), corrupted ones included.
        rx_j_per_packet: f64,
        /// P_idle: drawn over the node's active span while neither sending nor receiving.
        idle_w: f64,
        /// P_tx, drawn for a packet's transmission time at its port's rate (default 0).
        #[serde(default)]
        tx_w: f64,
        /// P_rx, drawn for a packet's transmission time on the port it arrived over (default 0).
        #[serde(default)]
        rx_w: f64,
        /// TCP packets without payload (ACKs, SYN, FIN) cost as much as a full data segment of
        /// their connection (MSS + headers): MAC overhead can make an ACK that expensive.
        #[serde(default)]
        ack_cost_equals_data: bool,
    },
    /// A host's power while sending, per connection (Zhao, Liu, Wang, "On energy-efficient congestion control for multipath TCP", IEEE 2017, eq. 2; docs/models/energy.md §6):
    /// P_r = P_base/n + a·(τ_r/τ_ref)^γ + b·RTT_r/RTT_ref, from a preset (`ethernet`: concave,
    /// γ = ½; `wifi`: linear) or explicit values (explicit values override the preset's).
    MptcpHost {
        #[serde(default)]
        preset: Option<HostPreset>,
        /// P_base (W).
        #[serde(default)]
        base_w: Option<f64>,
        /// a (W); a preset's scales with an explicit `base_w`.
        #[serde(default)]
        rate_w: Option<f64>,
        /// τ_ref (bit/s).
        #[serde(default)]
        ref_rate_bps: Option<f64>,
        /// γ.
        #[serde(default)]
        gamma: Option<f64>,
        /// b (W); the presets' is 0.05·P_base.
        #[serde(default)]
        rtt_w: Option<f64>,
        /// RTT_ref (s); the presets' is 100 ms.
        #[serde(default)]
        ref_rtt_s: Option<f64>,
        /// Length of the intervals over which τ_r is measured and P_r integrated (s); default 0.1.
        #[serde(default)]
        sample_interval_s: Option<f64>,
    },
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum HostPreset {
    Ethernet,
    Wifi,
}

/// The presets' RTT weight b as a share of P_base, per RTT_ref = 100 ms: a path with twice the
/// round-trip time costs 5 % of P_base more (docs/models/energy.md §6, an interpretation of
/// "higher-RTT paths draw more", Zhao, Liu, Wang, IEEE 2017, §III-B, Fig. 4).
pub const PRESET_RTT_SHARE: f64 = 0.05;

impl HostPreset {
    /// The preset's constants, each calibrated so that one path's power rises by the paper's
    /// percentage between its two rates (Zhao, Liu, Wang, IEEE 2017, §III-B, Fig. 3; at RTT 0):
    /// Ethernet +15 % from 200 to 1000 Mb/s, rising steeply at low rates and flattening (γ = ½);
    /// WiFi +90 % from 10 to 50 Mb/s, linearly (γ = 1). docs/models/energy.md §6.
    pub fn power(self) -> MptcpPower {
        match self {
            HostPreset::Ethernet => MptcpPower::calibrated(20.0, 200e6, 1000e6, 0.15, 0.5),
            HostPreset::Wifi => MptcpPower::calibrated(1.0, 10e6, 50e6, 0.90, 1.0),
        }
    }
}

/// A battery-powered host's constants (docs/models/energy.md §6).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Battery {
    pub tx_j: f64,
    pub rx_j: f64,
    pub idle_w: f64,
    pub tx_w: f64,
    pub rx_w: f64,
    pub ack_as_data: bool,
}

/// The parametric (docs/models/energy.md §6) per-connection power.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MptcpPower {
    pub base_w: f64,
    pub rate_w: f64,
    pub ref_rate_bps: f64,
    pub gamma: f64,
    pub rtt_w: f64,
    pub ref_rtt_s: f64,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum HostModel {
    Battery(Battery),
    /// The power model and the interval over which it is integrated.
    Mptcp(MptcpPower, Time),
}

/// The default interval of the host energy integral: 100 ms, many round trips on the wired
/// networks where the concave Ethernet model makes the interval matter (with a linear model the
/// rate term does not depend on it), and about the averaging of a RAPL power reading.
pub const DEFAULT_SAMPLE_INTERVAL_S: f64 = 0.1;

fn non_negative(v: f64, field: String) -> Result<f64, ScenarioError> {
    if v.is_finite() && v >= 0.0 {
        Ok(v)
    } else {
        Err(ScenarioError::new(field, format!("must be a non-negative number, got {v}")))
    }
}

impl HostModel {
    pub fn from_spec(spec: &HostPowerSpec, field: &str) -> Result<HostModel, ScenarioError> {
        let f = |name: &str| format!("{field}.{name}");
        Ok(match spec {
            HostPowerSpec::Battery { tx_j_per_packet, rx_j_per_packet, idle_w, tx_w, rx_w, ack_cost_equals_data } => {
                HostModel::Battery(Battery {
                    tx_j: non_negative(*tx_j_per_packet, f("tx_j_per_packet"))?,
                    rx_j: non_negative(*rx_j_per_packet, f("rx_j_per_packet"))?,
                    idle_w: non_negative(*idle_w, f("idle_w"))?,
                    tx_w: non_negative(*tx_w, f("tx_w"))?,
                    rx_w: non_negative(*rx_w, f("rx_w"))?,
                    ack_as_data: *ack_cost_equals_data,
                })
            }
            HostPowerSpec::MptcpHost {
                preset,
                base_w,
                rate_w,
                ref_rate_bps,
                gamma,
                rtt_w,
                ref_rtt_s,
                sample_interval_s,
            } => {
                let p = preset.map(HostPreset::power);
                let need = |v: Option<f64>, name: &str| -> Result<f64, ScenarioError> {
                    let v = v.ok_or_else(|| ScenarioError::new(f(name), "required unless `preset` names one"))?;
                    non_negative(v, f(name))
                };
                let base = need(base_w.or(p.map(|p| p.base_w)), "base_w")?;
                // A preset's a and b are shares of its P_base: an explicit base_w scales them along, so
                // the preset's percentages hold at any P_base.
                let scale = p.map(|p| base / p.base_w);
                let preset_rate_w = p.zip(scale).map(|(p, scale)| scale * p.rate_w);
                let preset_rtt_w = p.zip(scale).map(|(p, scale)| scale * p.rtt_w);
                let model = MptcpPower {
                    base_w: base,
                    rate_w: need(rate_w.or(preset_rate_w), "rate_w")?,
                    ref_rate_bps: need(ref_rate_bps.or(p.map(|p| p.ref_rate_bps)), "ref_rate_bps")?,
                    gamma: need(gamma.or(p.map(|p| p.gamma)), "gamma")?,
                    rtt_w: need(rtt_w.or(preset_rtt_w), "rtt_w")?,
                    ref_rtt_s: need(ref_rtt_s.or(p.map(|p| p.ref_rtt_s)), "ref_rtt_s")?,
                };
                for (v, name) in [(model.ref_rate_bps, "ref_rate_bps"), (model.ref_rtt_s, "ref_rtt_s")] {
                    if v == 0.0 {
                        return Err(ScenarioError::new(f(name), "must be positive"));
                    }
                }
                let interval_s = sample_interval_s.unwrap_or(DEFAULT_SAMPLE_INTERVAL_S);
                let interval = checked_secs(interval_s, &f("sample_interval_s"), true)?;
                HostModel::Mptcp(model, interval)
            }
        })
    }
}

impl MptcpPower {
    /// The model with P_base = `base_w`, τ_ref = `low_bps`, exponent `gamma`, and a chosen so
    /// that P(`high_bps`) = (1 + `rise`)·P(`low_bps`) at RTT 0: (P_base + a·k^γ)/(P_base + a)
    /// = 1 + rise with k = high/low gives a = P_base·rise/(k^γ − 1 − rise). RTT weight b =
    /// `PRESET_RTT_SHARE`·P_base per 100 ms.
    pub fn calibrated(base_w: f64, low_bps: f64, high_bps: f64, rise: f64, gamma: f64) -> MptcpPower {
        let k = (high_bps / low_bps).powf(gamma);
        MptcpPower {
            base_w,
            rate_w: base_w * rise / (k - 1.0 - rise),
            ref_rate_bps: low_bps,
            gamma,
            rtt_w: PRESET_RTT_SHARE * base_w,
            ref_rtt_s: 0.1,
        }
    }

    /// P_r for one of `subflows` paths carrying `rate_bps` with round-trip time `rtt_s`.
    pub fn power_w(&self, subflows: u32, rate_bps: f64, rtt_s: f64) -> f64 {
        self.base_w / subflows as f64
            + self.rate_w * (rate_bps / self.ref_rate_bps).powf(self.gamma)
            + self.rtt_w * rtt_s / self.ref_rtt_s
    }
}

/// What one subflow of a connection has done so far, as the energy meter reads it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SubflowReading {
    /// Bytes the subflow delivered in order to its receiver.
    pub delivered_bytes: u64,
    /// Its smoothed RTT (s); 0 before the first sample.
    pub srtt_s: f64,
}

/// One connection's host energy, integrated interval by interval (Zhao, Liu, Wang, "On
/// Energy-Efficient Congestion Control for Multipath TCP", IEEE 2017, eq. 2; docs/models/energy.md §6):
/// E = Σ_k Δt_k·Σ_r P_r(n_k, τ_r,k, RTT_r,k), with n_k the connection's subflows at the end of
/// interval k, τ_r,k the bits subflow r delivered in it over Δt_k, and RTT_r,k its SRTT then.
/// An interval closes at the first reading at least `interval` after it opened, and at completion.
#[derive(Clone, Debug)]
pub struct HostEnergyMeter {
    interval: Time,
    /// Start of the open interval.
    since: Time,
    /// Bytes each subflow had delivered at `since`.
    delivered: Vec<u64>,
    /// Energy of each subflow over the closed intervals (J).
    joules: Vec<f64>,
}

impl HostEnergyMeter {
    pub fn new(opened: Time, interval: Time) -> HostEnergyMeter {
        HostEnergyMeter { interval, since: opened, delivered: Vec::new(), joules: Vec::new() }
    }

    /// Whether the open interval has lasted its length at `now`.
    pub fn due(&self, now: Time) -> bool {
        now >= self.since.saturating_add(self.interval)
    }

    /// Each subflow's energy over the open interval, from its start to `now`.
    fn open_joules<'a>(
        &'a self,
        model: &'a MptcpPower,
        now: Time,
        subflows: &'a [SubflowReading],
    ) -> impl Iterator<Item = f64> + 'a {
        let seconds = to_secs(now - self.since);
        subflows.iter().enumerate().map(move |(r, s)| {
            if seconds == 0.0 {
                return 0.0;
            }
            let before = self.delivered.get(r).copied().unwrap_or(0);
            let rate_bps = (s.delivered_bytes - before) as f64 * 8.0 / seconds;
            seconds * model.power_w(subflows.len() as u32, rate_bps, s.srtt_s)
        })
    }

    /// Closes the open interval at `now` and opens the next.
    pub fn close(&mut self, model: &MptcpPower, now: Time, subflows: &[SubflowReading]) {
        let added: Vec<f64> = self.open_joules(model, now, subflows).collect();
        self.joules.resize(subflows.len().max(self.joules.len()), 0.0);
        for (total, e) in self.joules.iter_mut().zip(added) {
            *total += e;
        }
        self.delivered.clear();
        self.delivered.extend(subflows.iter().map(|s| s.delivered_bytes));
        self.since = now;
    }

    /// Subflow `r`'s energy up to `now` (the closed intervals and the open one).
    pub fn subflow_joules(&self, model: &MptcpPower, now: Time, subflows: &[SubflowReading], r: usize) -> f64 {
        self.joules.get(r).copied().unwrap_or(0.0) + self.open_joules(model, now, subflows).nth(r).unwrap_or(0.0)
    }

    /// The connection's energy up to `now`: Σ over its subflows.
    pub fn joules(&self, model: &MptcpPower, now: Time, subflows: &[SubflowReading]) -> f64 {
        self.joules.iter().sum::<f64>() + self.open_joules(model, now, subflows).sum::<f64>()
    }
}

/// What a battery host sent and received, as the run goes.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HostActivity {
    pub tx_packets: u64,
    /// Delivered to the node or corrupted on a link into it.
    pub rx_packets: u64,
    /// Σ transmission time of what it sent (at the rate of the port each left on) and of what
    /// it received (at the rate of the port each arrived over); payload-less TCP packets as
    /// full segments with `ack_cost_equals_data`.
    pub tx_time: Time,
    pub rx_time: Time,
    /// The first and last instants it sent or received a packet.
    pub first: Option<Time>,
    pub last: Time,
}

impl HostActivity {
    pub fn sent(&mut self, now: Time, airtime: Time) {
        self.tx_packets += 1;
        self.tx_time += airtime;
        self.seen(now);
    }

    pub fn received(&mut self, now: Time, airtime: Time) {
        self.rx_packets += 1;
        self.rx_time += airtime;
        self.seen(now);
    }

    fn seen(&mut self, now: Time) {
        self.first.get_or_insert(now);
        self.last = now;
    }

    /// T_idle: the node's active span, from the first packet it sent or received to the last,
    /// less its sending and receiving times (counted apart even where they overlap), at least 0.
    pub fn idle_time(&self) -> Time {
        let span = self.first.map_or(0, |first| self.last - first);
        span.saturating_sub(self.tx_time + self.rx_time)
    }
}

impl Battery {
    /// docs/models/energy.md §6: E = N_tx·e_tx + N_rx·e_rx + T_idle·P_idle, e = P·airtime + e_overhead.
    pub fn energy_j(&self, a: &HostActivity) -> f64 {
        a.tx_packets as f64 * self.tx_j
            + self.tx_w * to_secs(a.tx_time)
            + a.rx_packets as f64 * self.rx_j
            + self.rx_w * to_secs(a.rx_time)
            + self.idle_w * to_secs(a.idle_time())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::from_secs;

    fn preset(preset: HostPreset, base_w: Option<f64>, gamma: Option<f64>) -> MptcpPower {
        let spec = HostPowerSpec::MptcpHost {
            preset: Some(preset),
            base_w,
            rate_w: None,
            ref_rate_bps: None,
            gamma,
            rtt_w: None,
            ref_rtt_s: None,
            sample_interval_s: None,
        };
        let HostModel::Mptcp(m, interval) = HostModel::from_spec(&spec, "nodes[0].power").unwrap() else { panic!() };
        assert_eq!(interval, from_secs(DEFAULT_SAMPLE_INTERVAL_S));
        m
    }

    fn rise_pct(m: &MptcpPower, low_bps: f64, high_bps: f64, rtt_s: f64) -> f64 {
        100.0 * (m.power_w(1, high_bps, rtt_s) / m.power_w(1, low_bps, rtt_s) - 1.0)
    }

    #[test]
    fn ethernet_power_rises_15_percent_from_200_to_1000_mbps_and_flattens() {
        let eth = preset(HostPreset::Ethernet, None, None);
        // a = 20 W·0.15/(√5 − 1.15) = 3/1.086 067 977 = 2.762 258 W; P(200 Mb/s) = 22.762 258 W,
        // P(1 Gb/s) = 20 + 2.762 258·√5 = 26.176 597 W = 1.15·P(200 Mb/s).
        assert!((eth.rate_w - 2.762_258_0).abs() < 1e-6, "{}", eth.rate_w);
        assert!((eth.power_w(1, 1e9, 0.0) - 26.176_597).abs() < 1e-5);
        assert!((rise_pct(&eth, 200e6, 1000e6, 0.0) - 15.0).abs() < 1e-9);
        // On a LAN (RTT 1 ms: + 0.01 W at both rates) it is still ≈ 15 %: 26.186 597/22.772 258.
        assert!((rise_pct(&eth, 200e6, 1000e6, 0.001) - 14.9934).abs() < 1e-4);
        // Steep at low rates, flat at high: the first 200 Mb/s cost 2.76 W, the next 800 Mb/s 3.41 W.
        let first = eth.power_w(1, 200e6, 0.0) - eth.power_w(1, 0.0, 0.0);
        let next = eth.power_w(1, 1e9, 0.0) - eth.power_w(1, 200e6, 0.0);
        assert!(first / 200.0 > 3.0 * next / 800.0, "{first} {next}");
        // Concave: one 400 Mb/s path costs less than two of 200 Mb/s, each with half of P_base.
        assert!(eth.power_w(1, 400e6, 0.0) < 2.0 * eth.power_w(2, 200e6, 0.0));
    }

    #[test]
    fn wifi_power_rises_90_percent_from_10_to_50_mbps_linearly() {
        let wifi = preset(HostPreset::Wifi, None, None);
        // a = 1 W·0.9/(5 − 1.9) = 0.290 323 W per 10 Mb/s: P(10) = 1.290 323 W, P(50) = 2.451 613 W.
        assert!((wifi.power_w(1, 50e6, 0.0) - 2.451_612_9).abs() < 1e-6);
        assert!((rise_pct(&wifi, 10e6, 50e6, 0.0) - 90.0).abs() < 1e-9);
        // Linear: equal steps of rate cost equal watts.
        let step = |from: f64| wifi.power_w(1, from + 10e6, 0.0) - wifi.power_w(1, from, 0.0);
        assert!((step(10e6) - step(40e6)).abs() < 1e-12);
        // At a 50 ms RTT (+ 0.025 W at both rates): 2.476 613/1.315 323 = + 88.29 %.
        assert!((rise_pct(&wifi, 10e6, 50e6, 0.05) - 88.2894).abs() < 1e-4);
    }

    #[test]
    fn a_higher_rtt_draws_more_and_explicit_values_override_the_preset() {
        let eth = preset(HostPreset::Ethernet, None, None);
        // b = 0.05·20 W per 100 ms: 200 ms instead of 20 ms costs 1.8 W more at any rate.
        assert!((eth.power_w(1, 500e6, 0.2) - eth.power_w(1, 500e6, 0.02) - 1.8).abs() < 1e-12);
        // An explicit P_base scales the preset's a and b: the percentages hold.
        let big = preset(HostPreset::Ethernet, Some(40.0), None);
        assert!((big.rate_w - 2.0 * eth.rate_w).abs() < 1e-12 && big.rtt_w == 2.0);
        assert!((rise_pct(&big, 200e6, 1000e6, 0.0) - 15.0).abs() < 1e-9);
        // An explicit γ replaces the preset's: 20 W + a·(0.5 Gb/s/200 Mb/s)² + 1 W; with 2 subflows
        // P_base is shared.
        let squared = preset(HostPreset::Ethernet, None, Some(2.0));
        assert!((squared.power_w(1, 0.5e9, 0.1) - (21.0 + eth.rate_w * 6.25)).abs() < 1e-12);
        assert!((squared.power_w(2, 0.5e9, 0.1) - (11.0 + eth.rate_w * 6.25)).abs() < 1e-12);
        let spec = HostPowerSpec::MptcpHost {
            preset: None,
            base_w: Some(1.0),
            rate_w: Some(1.0),
            ref_rate_bps: Some(1e6),
            gamma: Some(1.0),
            rtt_w: None,
            ref_rtt_s: Some(0.1),
            sample_interval_s: None,
        };
        assert_eq!(HostModel::from_spec(&spec, "nodes[3].power").unwrap_err().field, "nodes[3].power.rtt_w");
    }

    #[test]
    fn the_meter_integrates_each_subflow_interval_by_interval() {
        // P_r = 10 W/n + 2 W·τ_r/(10 Mb/s) + 1 W·RTT_r/(100 ms), 100 ms intervals.
        let m = MptcpPower { base_w: 10.0, rate_w: 2.0, ref_rate_bps: 10e6, gamma: 1.0, rtt_w: 1.0, ref_rtt_s: 0.1 };
        let ms = |v: f64| from_secs(v * 1e-3);
        let reading = |delivered_bytes, srtt_s| SubflowReading { delivered_bytes, srtt_s };
        let mut meter = HostEnergyMeter::new(ms(0.0), ms(100.0));
        assert!(!meter.due(ms(99.0)) && meter.due(ms(100.0)));
        // 0–100 ms, one subflow: 125 000 B = 10 Mb/s, SRTT 20 ms: 0.1 s·(10 + 2 + 0.2) W = 1.22 J.
        let one = [reading(125_000, 0.02)];
        assert!((meter.joules(&m, ms(100.0), &one) - 1.22).abs() < 1e-12);
        meter.close(&m, ms(100.0), &one);
        // 100–150 ms, a second subflow joins (n = 2): the first delivers 62 500 B more (10 Mb/s)
        // at SRTT 40 ms, the second 31 250 B (5 Mb/s) at SRTT 100 ms.
        // First: 0.05·(5 + 2 + 0.4) = 0.37 J; second: 0.05·(5 + 1 + 1) = 0.35 J.
        let two = [reading(187_500, 0.04), reading(31_250, 0.1)];
        assert!((meter.subflow_joules(&m, ms(150.0), &two, 0) - (1.22 + 0.37)).abs() < 1e-12);
        assert!((meter.subflow_joules(&m, ms(150.0), &two, 1) - 0.35).abs() < 1e-12);
        meter.close(&m, ms(150.0), &two);
        assert!((meter.joules(&m, ms(150.0), &two) - 1.94).abs() < 1e-12);
        // Nothing more happens: an empty interval up to the same instant adds nothing.
        assert!((meter.joules(&m, ms(150.0), &two) - 1.94).abs() < 1e-12);
    }

    #[test]
    fn battery_energy_counts_packets_airtime_and_idle_span() {
        // 3 packets sent (1 ms each on air), 5 received (2 ms each), between 0 and 100 ms:
        // T_idle = 100 − 3 − 10 = 87 ms. E = 3·0.01 + 1.5 W·3 ms + 5·0.02 + 1 W·10 ms + 0.5 W·87 ms.
        let b = Battery { tx_j: 0.01, rx_j: 0.02, idle_w: 0.5, tx_w: 1.5, rx_w: 1.0, ack_as_data: false };
        let mut a = HostActivity::default();
        let ms = |v: f64| from_secs(v * 1e-3);
        for t in [0.0, 40.0, 60.0] {
            a.sent(ms(t), ms(1.0));
        }
        for t in [10.0, 20.0, 30.0, 50.0, 100.0] {
            a.received(ms(t), ms(2.0));
        }
        assert_eq!(a.idle_time(), ms(87.0));
        let expected = 0.03 + 0.0045 + 0.1 + 0.01 + 0.0435;
        assert!((b.energy_j(&a) - expected).abs() < 1e-15, "{}", b.energy_j(&a));
    }
}
