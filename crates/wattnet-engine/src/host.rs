//! Energy of end hosts, attached to nodes (docs/models/energy.md §6). The engine counts what each
//! node sends and receives as the run goes; the energy follows at results time.

use serde::{Deserialize, Serialize};

use crate::error::ScenarioError;
use crate::time::{to_secs, Time};

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
    /// P_r = P_base/n + a·(τ_r/τ_ref)^γ + b·RTT_r/RTT_ref, from a preset or explicit values
    /// (explicit values override the preset's).
    MptcpHost {
        #[serde(default)]
        preset: Option<HostPreset>,
        /// P_base (W).
        #[serde(default)]
        base_w: Option<f64>,
        /// a (W).
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
    },
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum HostPreset {
    Ethernet,
    Wifi,
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
    Mptcp(MptcpPower),
}

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
            HostPowerSpec::MptcpHost { preset, base_w, rate_w, ref_rate_bps, gamma, rtt_w, ref_rtt_s } => {
                // defaults fitted to the statements of Zhao, Liu, Wang (2017): Ethernet 20 W + 3 W at
                // 1 Gb/s (+15 % over 200→1000 Mb/s); WiFi 1 W + 0.9 W per 40 Mb/s (+90 % over
                // 10→50 Mb/s); both linear, b = 0.05·P_base per RTT_ref = 100 ms.
                let (p_base, p_a, p_ref) = match preset {
                    Some(HostPreset::Ethernet) => (Some(20.0), Some(3.0), Some(1e9)),
                    Some(HostPreset::Wifi) => (Some(1.0), Some(0.9), Some(40e6)),
                    None => (None, None, None),
                };
                let need = |v: Option<f64>, name: &str| -> Result<f64, ScenarioError> {
                    let v = v.ok_or_else(|| ScenarioError::new(f(name), "required unless `preset` names one"))?;
                    non_negative(v, f(name))
                };
                let base = need(base_w.or(p_base), "base_w")?;
                let preset_gamma = preset.map(|_| 1.0);
                let preset_rtt_w = preset.map(|_| 0.05 * base);
                let model = MptcpPower {
                    base_w: base,
                    rate_w: need(rate_w.or(p_a), "rate_w")?,
                    ref_rate_bps: need(ref_rate_bps.or(p_ref), "ref_rate_bps")?,
                    gamma: need(gamma.or(preset_gamma), "gamma")?,
                    rtt_w: need(rtt_w.or(preset_rtt_w), "rtt_w")?,
                    ref_rtt_s: need(ref_rtt_s.or(preset.map(|_| 0.1)), "ref_rtt_s")?,
                };
                for (v, name) in [(model.ref_rate_bps, "ref_rate_bps"), (model.ref_rtt_s, "ref_rtt_s")] {
                    if v == 0.0 {
                        return Err(ScenarioError::new(f(name), "must be positive"));
                    }
                }
                HostModel::Mptcp(model)
            }
        })
    }
}

impl MptcpPower {
    /// P_r for one of `subflows` paths carrying `rate_bps` with round-trip time `rtt_s`.
    pub fn power_w(&self, subflows: u32, rate_bps: f64, rtt_s: f64) -> f64 {
        self.base_w / subflows as f64
            + self.rate_w * (rate_bps / self.ref_rate_bps).powf(self.gamma)
            + self.rtt_w * rtt_s / self.ref_rtt_s
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

    #[test]
    fn presets_and_explicit_values() {
        let spec = HostPowerSpec::MptcpHost {
            preset: Some(HostPreset::Wifi),
            base_w: None,
            rate_w: None,
            ref_rate_bps: None,
            gamma: None,
            rtt_w: None,
            ref_rtt_s: None,
        };
        let HostModel::Mptcp(wifi) = HostModel::from_spec(&spec, "nodes[0].power").unwrap() else { panic!() };
        // 1 W + 0.9 W·(20/40) + 0.05 W·(50 ms/100 ms) = 1.475 W.
        assert!((wifi.power_w(1, 20e6, 0.05) - 1.475).abs() < 1e-12);
        // docs/models/energy.md §6: +90 % of P_base from 10 to 50 Mb/s.
        assert!((wifi.power_w(1, 50e6, 0.0) - wifi.power_w(1, 10e6, 0.0) - 0.9).abs() < 1e-12);
        let spec = HostPowerSpec::MptcpHost {
            preset: Some(HostPreset::Ethernet),
            base_w: None,
            rate_w: None,
            ref_rate_bps: None,
            gamma: Some(2.0),
            rtt_w: None,
            ref_rtt_s: None,
        };
        let HostModel::Mptcp(eth) = HostModel::from_spec(&spec, "p").unwrap() else { panic!() };
        // 20 W + 3 W·0.5² + 1 W·(100 ms/100 ms) = 21.75 W; with 2 subflows P_base is shared.
        assert_eq!(eth.power_w(1, 0.5e9, 0.1), 21.75);
        assert_eq!(eth.power_w(2, 0.5e9, 0.1), 11.75);
        let spec = HostPowerSpec::MptcpHost {
            preset: None,
            base_w: Some(1.0),
            rate_w: Some(1.0),
            ref_rate_bps: Some(1e6),
            gamma: Some(1.0),
            rtt_w: None,
            ref_rtt_s: Some(0.1),
        };
        assert_eq!(HostModel::from_spec(&spec, "nodes[3].power").unwrap_err().field, "nodes[3].power.rtt_w");
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
