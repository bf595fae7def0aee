//! Nodes as hosts: packets each node sends and receives, and host energy (see `HostModel`).

use super::{Connection, Simulation};
use crate::host::{HostActivity, HostModel, SubflowReading};
use crate::packet::{Packet, PacketId, NO_CONNECTION};
use crate::port::PortId;
use crate::results::{Column, Table};
use crate::routing::NO_ROUTE;
use crate::time::{to_secs, Time};

/// A node's own traffic: what its applications and TCP endpoints sent and what reached it.
/// `repr(C)`, aligned, with the model boxed: what every packet a node sends or receives
/// touches (the counters, the test for a battery) is one half cache line.
#[derive(Debug, Default)]
#[repr(C, align(32))]
pub struct Host {
    /// Packets the node's applications and TCP endpoints handed to the network.
    pub packets_sent: u64,
    /// Packets delivered to the node (corrupted ones never are).
    pub packets_received: u64,
    /// Kept for battery models only.
    pub activity: Option<Box<HostActivity>>,
    pub model: Option<Box<HostModel>>,
}

impl Simulation {
    /// A node's own packet enters the network: given its path, counted, then forwarded.
    #[inline]
    pub(super) fn send_from(&mut self, node: u32, packet: Packet) {
        let (slot, generation) = self.path_of(node, &packet);
        let pkt = self.pool.alloc(packet);
        let hot = self.pool.hot_mut(pkt);
        (hot.slot, hot.generation) = (slot, generation);
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
        let dst = self.pool.hot(pkt).dst;
        let host = &mut self.net.hosts[dst as usize];
        host.packets_received += 1;
        if host.activity.is_some() {
            self.battery_received(dst, pkt, via);
        }
    }

    /// A packet corrupted on port `via`: its destination spent energy receiving it (Tsaoussidis, Badr, Ge, Pentikousis, ISCC 2000).
    pub(super) fn count_corrupted(&mut self, pkt: PacketId, via: PortId) {
        let dst = self.pool.hot(pkt).dst;
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
        if let Some(HostModel::Battery(b)) = self.net.hosts[node as usize].model.as_deref() {
            if b.ack_as_data && p.conn != NO_CONNECTION && p.tcp.len == 0 {
                let config = &self.transport.flows[p.flow as usize].tcp.as_ref().expect("a TCP packet's flow").config;
                bytes = config.mss + config.header_bytes;
            }
        }
        self.net.ports[port as usize].serialization(bytes)
    }

    /// When a connection's transfer ended (its receiver completed), or now.
    pub(super) fn connection_end(&self, c: &Connection) -> Time {
        c.sender.group.stream.completed_at.unwrap_or(self.now)
    }

    /// Zhao, Liu, Wang ("On Energy-Efficient Congestion Control for Multipath TCP", IEEE 2017, eq. 2) for one
    /// connection whose sender has an `mptcp_host` model, else NaN: Σ over its intervals (`HostEnergyMeter`) from
    /// opening to completion (or now) of Σ_r P_r(τ_r, SRTT_r) over its n subflows.
    pub(super) fn connection_host_energy(&self, c: &Connection) -> f64 {
        let (Some(HostModel::Mptcp(m, _)), Some(meter)) =
            (self.net.hosts[c.sender_node as usize].model.as_deref(), &c.energy)
        else {
            return f64::NAN;
        };
        meter.joules(m, self.connection_end(c), &Simulation::subflow_readings(c))
    }

    /// What the energy meter reads of each subflow: the data it delivered (on a single path the
    /// receiver's in-order bytes; of several subflows each one's bytes acknowledged) and its SRTT.
    /// Read once per metering interval, not per packet.
    pub(super) fn subflow_readings(c: &Connection) -> Vec<SubflowReading> {
        let srtt = |s: &crate::tcp::sender::Sender| s.srtt().map_or(0.0, to_secs);
        if c.sender.subflows.len() == 1 {
            return vec![SubflowReading { delivered_bytes: c.receiver.bytes_delivered(), srtt_s: srtt(c.first()) }];
        }
        c.sender.subflows.iter().map(|s| SubflowReading { delivered_bytes: s.bytes_acked(), srtt_s: srtt(s) }).collect()
    }

    /// Subflow `s`'s part of its connection's host energy (NaN without an `mptcp_host` model).
    pub(super) fn subflow_host_energy(&self, c: &Connection, s: usize) -> f64 {
        let (Some(HostModel::Mptcp(m, _)), Some(meter)) =
            (self.net.hosts[c.sender_node as usize].model.as_deref(), &c.energy)
        else {
            return f64::NAN;
        };
        meter.subflow_joules(m, self.connection_end(c), &Simulation::subflow_readings(c), s)
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
            .map(|h| match (h.model.as_deref(), &h.activity) {
                (Some(HostModel::Battery(b)), Some(a)) => b.energy_j(a),
                (Some(HostModel::Mptcp(..)), _) => 0.0,
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
