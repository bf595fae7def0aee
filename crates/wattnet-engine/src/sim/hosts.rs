//! Nodes as hosts: packets each node sends and receives, and host energy (see `HostModel`).

use super::{Connection, Simulation};
use crate::host::{HostActivity, HostModel};
use crate::packet::{PacketId, NO_CONNECTION};
use crate::port::PortId;
use crate::results::{Column, Table};
use crate::routing::NO_ROUTE;
use crate::time::{to_secs, Time};

/// A node's own traffic: what its applications and TCP endpoints sent and what reached it.
#[derive(Debug, Default)]
pub struct Host {
    /// Packets the node's applications and TCP endpoints handed to the network.
    pub packets_sent: u64,
    /// Packets delivered to the node (corrupted ones never are).
    pub packets_received: u64,
    pub model: Option<HostModel>,
    /// Kept for battery models only.
    pub activity: Option<Box<HostActivity>>,
}

impl Simulation {
    /// A node's own packet enters the network: given its path, counted, then forwarded.
    #[inline]
    pub(super) fn send_from(&mut self, node: u32, pkt: PacketId) {
        self.assign_path(node, pkt);
        let host = &mut self.net.hosts[node as usize];
        host.packets_sent += 1;
        if host.activity.is_some() {
            self.battery_sent(node, pkt);
        }
        self.forward(node, pkt, NO_ROUTE);
    }

    /// A packet was delivered to its destination over port `via`.
    #[inline]
    pub(super) fn count_received(&mut self, pkt: PacketId, via: PortId) {
        let dst = self.pool.get(pkt).dst;
        let host = &mut self.net.hosts[dst as usize];
        host.packets_received += 1;
        if host.activity.is_some() {
            self.battery_received(dst, pkt, via);
        }
    }

    /// A packet corrupted on port `via`: its destination spent energy receiving it (Tsaoussidis, Badr, Ge, Pentikousis, ISCC 2000).
    pub(super) fn count_corrupted(&mut self, pkt: PacketId, via: PortId) {
        let dst = self.pool.get(pkt).dst;
        if self.net.ports[via as usize].to == dst && self.net.hosts[dst as usize].activity.is_some() {
            self.battery_received(dst, pkt, via);
        }
    }

    fn battery_sent(&mut self, node: u32, pkt: PacketId) {
        // The port forward() will pick; without a route nothing is sent.
        let port = self.routing.next_port(node, self.pool.hot(pkt));
        if port == NO_ROUTE {
            return;
        }
        let airtime = self.airtime(node, pkt, port);
        let now = self.now;
        self.net.hosts[node as usize].activity.as_mut().expect("battery host").sent(now, airtime);
    }

    fn battery_received(&mut self, node: u32, pkt: PacketId, via: PortId) {
        let airtime = if via == NO_ROUTE { 0 } else { self.airtime(node, pkt, via) };
        let now = self.now;
        self.net.hosts[node as usize].activity.as_mut().expect("battery host").received(now, airtime);
    }

    /// A packet's transmission time on `port`; with `ack_cost_equals_data`, a TCP packet without
    /// payload (ACK, SYN, FIN) takes as long as a full data segment of its connection.
    fn airtime(&self, node: u32, pkt: PacketId, port: PortId) -> Time {
        let p = self.pool.get(pkt);
        let mut bytes = p.size_bytes;
        if let Some(HostModel::Battery(b)) = &self.net.hosts[node as usize].model {
            if b.ack_as_data && p.conn != NO_CONNECTION && p.tcp.len == 0 {
                let config = &self.transport.flows[p.flow as usize].tcp.as_ref().expect("a TCP packet's flow").config;
                bytes = config.mss + config.header_bytes;
            }
        }
        self.net.ports[port as usize].serialization(bytes)
    }

    /// When a connection's transfer ended (its receiver completed), or now.
    pub(super) fn connection_end(&self, c: &Connection) -> Time {
        c.group.stream.completed_at.unwrap_or(self.now)
    }

    /// Zhao, Liu, Wang ("On Energy-Efficient Congestion Control for Multipath TCP", IEEE 2017, eq. 2) for one connection whose sender has an `mptcp_host` model, else NaN:
    /// E = duration·P_r(τ_r, RTT_r), one subflow (n = 1), duration from opening to completion
    /// (or now), τ_r its goodput over that time, RTT_r its mean SRTT (0 before any sample).
    pub(super) fn connection_host_energy(&self, c: &Connection) -> f64 {
        let Some(HostModel::Mptcp(m)) = &self.net.hosts[c.sender_node as usize].model else { return f64::NAN };
        let duration = to_secs(self.connection_end(c) - c.opened_at);
        if duration == 0.0 {
            return 0.0;
        }
        let goodput = c.receiver.bytes_delivered() as f64 * 8.0 / duration;
        let rtt = c.sender.mean_srtt().map_or(0.0, |ps| ps / crate::time::PS_PER_S as f64);
        duration * m.power_w(1, goodput, rtt)
    }

    /// One row per node: its own packets, its output ports' energy (NaN if none is metered)
    /// and its host energy (NaN without a model).
    pub(super) fn node_table(&self) -> Table {
        let n = self.net.node_names.len();
        let mut ports_j = vec![f64::NAN; n];
        for p in &self.net.ports {
            if let Some(m) = &p.energy {
                let e = &mut ports_j[p.from as usize];
                *e = if e.is_nan() { m.joules } else { *e + m.joules };
            }
        }
        let mut host_j: Vec<f64> = self
            .net
            .hosts
            .iter()
            .map(|h| match (&h.model, &h.activity) {
                (Some(HostModel::Battery(b)), Some(a)) => b.energy_j(a),
                (Some(HostModel::Mptcp(_)), _) => 0.0,
                _ => f64::NAN,
            })
            .collect();
        for c in &self.transport.connections {
            let e = self.connection_host_energy(c);
            if !e.is_nan() {
                host_j[c.sender_node as usize] += e;
            }
        }
        let mut t = Table::default();
        t.add("node", Column::Str(self.net.node_names.clone()))
            .add("packets_sent", Column::U64(self.net.hosts.iter().map(|h| h.packets_sent).collect()))
            .add("packets_received", Column::U64(self.net.hosts.iter().map(|h| h.packets_received).collect()))
            .add("ports_energy_j", Column::F64(ports_j))
            .add("host_energy_j", Column::F64(host_j));
        t
    }
}
