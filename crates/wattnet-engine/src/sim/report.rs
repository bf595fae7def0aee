//! Results: the conservation check and the tables a run produces.

use super::{FlowStats, Simulation, Transport};
use crate::error::RunError;
use crate::port::Port;
use crate::results::{Column, Results, Scalar, Table};
use crate::sim::recorder::Recorder;
use crate::tcp::sender::Sender;
use crate::time::{to_secs, PS_PER_S};

impl Simulation {
    /// Statistics at the current time, after checking that every packet is accounted for:
    /// sent = received + dropped + held by ports.
    pub fn results(&mut self) -> Result<Results, RunError> {
        let now = self.now;
        for p in &mut self.net.ports {
            p.settle(&self.events);
            p.integrate(now);
            if let Some(meter) = &mut p.energy {
                meter.advance(now);
            }
        }
        let sent: u64 = self.transport.flow_stats.iter().map(|f| f.sent_packets).sum();
        let received: u64 = self.transport.flow_stats.iter().map(|f| f.received_packets).sum();
        let dropped: u64 = self.transport.flow_stats.iter().map(|f| f.dropped_packets).sum();
        let held: u64 = self.net.ports.iter().map(|p| p.held_packets() as u64).sum();
        if sent != received + dropped + held || held != self.pool.live() as u64 {
            return Err(RunError(format!(
                "packet conservation violated at t = {} s: sent {sent} != received {received} + dropped {dropped} + in network {held} (pool holds {})",
                to_secs(now),
                self.pool.live()
            )));
        }
        let mut in_network = vec![0u64; self.transport.flows.len()];
        for p in &self.net.ports {
            let ids = p.queue.iter().map(|(id, _)| id).chain(p.pipe.iter().map(|(_, id)| id));
            for &id in ids {
                in_network[self.pool.get(id).flow as usize] += 1;
            }
        }
        let summary = vec![
            ("duration_s".to_string(), Scalar::Float(to_secs(now))),
            ("seed".to_string(), Scalar::Int(self.seed)),
            ("events".to_string(), Scalar::Int(self.events.processed())),
            ("packets".to_string(), Scalar::Int(self.net.ports.iter().map(|p| p.stats.transmitted_packets).sum())),
            ("packets_sent".to_string(), Scalar::Int(sent)),
            ("packets_received".to_string(), Scalar::Int(received)),
            ("packets_dropped".to_string(), Scalar::Int(dropped)),
            ("dropped_no_route".to_string(), Scalar::Int(self.routing.dropped_no_route)),
            ("dropped_ttl".to_string(), Scalar::Int(self.routing.dropped_ttl)),
            (
                "dropped_link_down".to_string(),
                Scalar::Int(self.net.ports.iter().map(|p| p.stats.link_down_drops).sum()),
            ),
            ("route_installs".to_string(), Scalar::Int(self.routing.route_log.len() as u64)),
            (
                "energy_j".to_string(),
                Scalar::Float(self.net.ports.iter().filter_map(|p| p.energy.as_ref()).map(|m| m.joules).sum()),
            ),
            (
                "full_rate_energy_j".to_string(),
                Scalar::Float(
                    self.net
                        .ports
                        .iter()
                        .filter_map(|p| p.energy.as_ref())
                        .map(|m| m.full_power_w * to_secs(now))
                        .sum(),
                ),
            ),
            ("packets_in_network".to_string(), Scalar::Int(held)),
            ("rate_changes".to_string(), Scalar::Int(self.logs.rate_log.len() as u64)),
        ];
        Ok(Results {
            summary,
            tables: vec![
                ("ports".to_string(), self.port_table()),
                ("flows".to_string(), self.flow_table(&in_network)),
                (
                    "timeseries".to_string(),
                    self.logs
                        .recorder
                        .as_ref()
                        .map_or_else(Recorder::empty_table, |r| r.table(&self.net.ports, &self.transport.flows)),
                ),
                ("rate_changes".to_string(), self.rate_change_table()),
                ("connections".to_string(), self.connection_table()),
                ("subflows".to_string(), self.subflow_table()),
                ("routing_events".to_string(), self.routing_event_table()),
                ("rate_time".to_string(), self.rate_time_table()),
                ("cwnd_trace".to_string(), self.cwnd_trace_table()),
                ("nodes".to_string(), self.node_table()),
            ],
        })
    }

    fn port_table(&self) -> Table {
        let now = self.now;
        let span = now.max(1) as f64;
        let ports = &self.net.ports;
        let col_u = |f: &dyn Fn(&Port) -> u64| Column::U64(ports.iter().map(f).collect());
        let col_f = |f: &dyn Fn(&Port) -> f64| Column::F64(ports.iter().map(f).collect());
        let mut t = Table::default();
        t.add("port", Column::Str(ports.iter().map(|p| p.name.clone()).collect()))
            .add("from", Column::Str(ports.iter().map(|p| self.net.node_names[p.from as usize].clone()).collect()))
            .add("to", Column::Str(ports.iter().map(|p| self.net.node_names[p.to as usize].clone()).collect()))
            .add("enqueued_packets", col_u(&|p| p.stats.enqueued_packets))
            .add("enqueued_bytes", col_u(&|p| p.stats.enqueued_bytes))
            .add("dropped_packets", col_u(&|p| p.stats.dropped_packets))
            .add("dropped_bytes", col_u(&|p| p.stats.dropped_bytes))
            .add("early_dropped_packets", col_u(&|p| p.stats.early_dropped_packets))
            .add("marked_packets", col_u(&|p| p.stats.marked_packets))
            .add("transmitted_packets", col_u(&|p| p.stats.transmitted_packets))
            .add("transmitted_bytes", col_u(&|p| p.stats.transmitted_bytes))
            .add("link_down_drops", col_u(&|p| p.stats.link_down_drops))
            .add("corrupted_packets", col_u(&|p| p.stats.corrupted_packets))
            .add("corrupted_bytes", col_u(&|p| p.stats.corrupted_bytes))
            .add("busy_time_s", col_f(&|p| to_secs(p.busy_time(now))))
            .add("utilization", col_f(&|p| p.busy_time(now) as f64 / span))
            .add("mean_queue_packets", col_f(&|p| p.stats.queue_packets_area as f64 / span))
            .add("mean_queue_bytes", col_f(&|p| p.stats.queue_bytes_area as f64 / span))
            .add("mean_rate_bps", col_f(&|p| p.stats.rate_area as f64 / span))
            .add("final_rate_bps", col_f(&|p| p.rate_bps as f64))
            .add("rate_changes", col_u(&|p| p.stats.rate_changes))
            .add("frozen_time_s", col_f(&|p| to_secs(p.stats.frozen_time - p.frozen_until.saturating_sub(now))))
            .add("rate_tunes", col_u(&|p| p.stats.rate_tunes))
            // Ports without a power model have no energy (NaN, not zero).
            .add("energy_j", col_f(&|p| p.energy.as_ref().map_or(f64::NAN, |m| m.joules)))
            .add("mean_power_w", col_f(&|p| p.energy.as_ref().map_or(f64::NAN, |m| m.joules / to_secs(now.max(1)))))
            .add(
                "full_rate_energy_j",
                col_f(&|p| p.energy.as_ref().map_or(f64::NAN, |m| m.full_power_w * to_secs(now))),
            )
            .add("asleep_time_s", col_f(&|p| p.energy.as_ref().map_or(f64::NAN, |m| to_secs(m.asleep_time))))
            .add(
                "low_power_idle_time_s",
                col_f(&|p| p.energy.as_ref().map_or(f64::NAN, |m| to_secs(m.low_power_idle_time))),
            )
            .add("sleeps", col_u(&|p| p.stats.sleeps));
        t
    }

    fn flow_table(&self, in_network: &[u64]) -> Table {
        let flows = &self.transport.flows;
        let stats = &self.transport.flow_stats;
        let col_u = |f: &dyn Fn(&FlowStats) -> u64| Column::U64(stats.iter().map(f).collect());
        let mut t = Table::default();
        t.add("flow", Column::Str(flows.iter().map(|f| f.name.clone()).collect()))
            .add("src", Column::Str(flows.iter().map(|f| self.net.node_names[f.src as usize].clone()).collect()))
            .add("dst", Column::Str(flows.iter().map(|f| self.net.node_names[f.dst as usize].clone()).collect()))
            .add("sent_packets", col_u(&|f| f.sent_packets))
            .add("sent_bytes", col_u(&|f| f.sent_bytes))
            .add("received_packets", col_u(&|f| f.received_packets))
            .add("received_bytes", col_u(&|f| f.received_bytes))
            .add("dropped_packets", col_u(&|f| f.dropped_packets))
            .add("in_network_packets", Column::U64(in_network.to_vec()))
            .add(
                "mean_delay_s",
                Column::F64(
                    stats
                        .iter()
                        .map(|f| match f.received_packets {
                            0 => f64::NAN,
                            n => f.delay_sum as f64 / n as f64 / PS_PER_S as f64,
                        })
                        .collect(),
                ),
            )
            .add("delivered_bytes", Column::U64((0..flows.len()).map(|f| self.transport.delivered_bytes(f)).collect()))
            .add(
                "path_hops_start",
                Column::F64(self.routing.initial_path_hops.iter().map(|h| h.map_or(f64::NAN, f64::from)).collect()),
            )
            .add(
                "path_hops_end",
                Column::F64((0..flows.len()).map(|f| self.flow_path_hops(f).map_or(f64::NAN, f64::from)).collect()),
            )
            .add(
                "goodput_bps",
                Column::F64(
                    flows
                        .iter()
                        .enumerate()
                        .map(|(i, f)| match self.now.saturating_sub(f.start) {
                            0 => 0.0,
                            span => self.transport.delivered_bytes(i) as f64 * 8.0 / to_secs(span),
                        })
                        .collect(),
                ),
            );
        t
    }

    fn rate_change_table(&self) -> Table {
        let log = &self.logs.rate_log;
        let mut t = Table::default();
        t.add("time_s", Column::F64(log.iter().map(|c| to_secs(c.time)).collect()))
            .add("port", Column::Str(log.iter().map(|c| self.net.ports[c.port as usize].name.clone()).collect()))
            .add("old_rate_bps", Column::F64(log.iter().map(|c| c.old_bps as f64).collect()))
            .add("new_rate_bps", Column::F64(log.iter().map(|c| c.new_bps as f64).collect()));
        t
    }

    /// A connection's index within its flow (0 for the first), the `connection` column of the
    /// connections and subflows tables.
    fn index_in_flow(&self, id: usize) -> u64 {
        let c = &self.transport.connections[id];
        let tcp = self.transport.flows[c.flow as usize].tcp.as_ref().expect("TCP flow");
        tcp.connections.iter().position(|&x| x as usize == id).expect("listed") as u64
    }

    fn connection_table(&self) -> Table {
        let now = self.now;
        let conns = &self.transport.connections;
        let col_u = |f: &dyn Fn(&super::Connection) -> u64| Column::U64(conns.iter().map(f).collect());
        let col_f = |f: &dyn Fn(&super::Connection) -> f64| Column::F64(conns.iter().map(f).collect());
        let end = |c: &super::Connection| c.sender.group.stream.completed_at.unwrap_or(now);
        let mut t = Table::default();
        t.add("flow", Column::Str(conns.iter().map(|c| self.transport.flows[c.flow as usize].name.clone()).collect()))
            .add("connection", Column::U64((0..conns.len()).map(|id| self.index_in_flow(id)).collect()))
            .add(
                "sender",
                Column::Str(conns.iter().map(|c| self.net.node_names[c.sender_node as usize].clone()).collect()),
            )
            .add(
                "receiver",
                Column::Str(conns.iter().map(|c| self.net.node_names[c.receiver_node as usize].clone()).collect()),
            )
            .add("transfer_bytes", col_u(&|c| c.sender.group.stream.total().unwrap_or(0)))
            .add("opened_s", col_f(&|c| to_secs(c.opened_at)))
            .add("completed_s", col_f(&|c| c.sender.group.stream.completed_at.map_or(f64::NAN, to_secs)))
            .add(
                "transfer_time_s",
                col_f(&|c| c.sender.group.stream.completed_at.map_or(f64::NAN, |t| to_secs(t - c.opened_at))),
            )
            .add("delivered_bytes", col_u(&|c| c.receiver.bytes_delivered()))
            .add(
                "goodput_bps",
                col_f(&|c| match end(c) - c.opened_at {
                    0 => 0.0,
                    span => c.receiver.bytes_delivered() as f64 * 8.0 / to_secs(span),
                }),
            )
            .add("data_packets_sent", col_u(&|c| c.sum(|s| s.stats.data_packets)))
            .add("retransmissions", col_u(&|c| c.sum(|s| s.stats.retransmissions)))
            .add("timeouts", col_u(&|c| c.sum(|s| s.stats.timeouts)))
            .add("fast_retransmits", col_u(&|c| c.sum(|s| s.stats.fast_retransmits)))
            .add("ecn_reductions", col_u(&|c| c.sum(|s| s.stats.ecn_reductions)))
            .add(
                "syn_retries",
                col_u(&|c| {
                    c.sum(|s| s.syn_retransmissions() as u64)
                        + c.receiver.subflows.iter().map(|r| r.syn_retransmissions() as u64).sum::<u64>()
                }),
            )
            .add("data_packets_received", col_u(&|c| c.receiver.subflows.iter().map(|r| r.stats.data_packets).sum()))
            .add("duplicate_packets", col_u(&|c| c.receiver.subflows.iter().map(|r| r.stats.duplicate_packets).sum()))
            .add("ce_marked_packets", col_u(&|c| c.receiver.subflows.iter().map(|r| r.stats.ce_marked_packets).sum()))
            .add("acks_sent", col_u(&|c| c.receiver.subflows.iter().map(|r| r.stats.acks_sent).sum()))
            .add("handshake_acks", col_u(&|c| c.receiver.subflows.iter().map(|r| r.stats.handshake_acks).sum()))
            .add("final_cwnd_segments", col_f(&|c| c.cwnd()))
            .add("srtt_s", col_f(&|c| c.first().srtt().map_or(f64::NAN, to_secs)))
            .add("host_energy_j", col_f(&|c| self.connection_host_energy(c)))
            .add("subflows", col_u(&|c| c.sender.subflows.len() as u64))
            .add("reinjected_bytes", col_u(&|c| c.sender.group.stream.level().map_or(0, |l| l.reinjected_bytes)))
            .add("state", Column::Str(conns.iter().map(|c| format!("{:?}", c.state()).to_lowercase()).collect()));
        t
    }

    /// How long each metered port spent at each rate (the rate-time histogram).
    fn rate_time_table(&self) -> Table {
        let rows: Vec<(&str, u64, u64)> = self
            .net
            .ports
            .iter()
            .filter_map(|p| p.energy.as_ref().map(|m| (p.name.as_str(), m)))
            .flat_map(|(name, m)| m.rate_time.iter().map(move |&(rate, t)| (name, rate, t)))
            .collect();
        let mut t = Table::default();
        t.add("port", Column::Str(rows.iter().map(|r| r.0.to_string()).collect()))
            .add("rate_bps", Column::F64(rows.iter().map(|r| r.1 as f64).collect()))
            .add("time_s", Column::F64(rows.iter().map(|r| to_secs(r.2)).collect()));
        t
    }

    fn routing_event_table(&self) -> Table {
        let log = &self.routing.route_log;
        let mut t = Table::default();
        t.add("time_s", Column::F64(log.iter().map(|r| to_secs(r.time)).collect()))
            .add("node", Column::Str(log.iter().map(|r| self.net.node_names[r.node as usize].clone()).collect()))
            .add("changed_destinations", Column::U64(log.iter().map(|r| r.changed as u64).collect()));
        t
    }

    /// One row per subflow of every Multipath TCP connection (none for single-path ones).
    fn subflow_table(&self) -> Table {
        type Row<'a> = (u32, &'a super::Connection, usize);
        let rows: Vec<Row> = (self.transport.connections.iter().enumerate())
            .filter(|(_, c)| c.sender.group.stream.is_multipath())
            .flat_map(|(id, c)| (0..c.sender.subflows.len()).map(move |s| (id as u32, c, s)))
            .collect();
        let col_u =
            |f: &dyn Fn(&Sender) -> u64| Column::U64(rows.iter().map(|r| f(&r.1.sender.subflows[r.2])).collect());
        let col_f =
            |f: &dyn Fn(&Sender) -> f64| Column::F64(rows.iter().map(|r| f(&r.1.sender.subflows[r.2])).collect());
        let path = |&(id, c, s): &Row| {
            let ports = self.subflow_ports(id, c, s);
            ports.iter().map(|&p| self.net.ports[p as usize].name.as_str()).collect::<Vec<_>>().join(" ")
        };
        let goodput = |&(_, c, s): &Row| match self.connection_end(c) - c.opened_at {
            0 => 0.0,
            span => c.sender.subflows[s].bytes_acked() as f64 * 8.0 / to_secs(span),
        };
        let mut t = Table::default();
        // (flow, connection) names the connection as the connections table does.
        t.add("flow", Column::Str(rows.iter().map(|r| self.transport.flows[r.1.flow as usize].name.clone()).collect()))
            .add("connection", Column::U64(rows.iter().map(|r| self.index_in_flow(r.0 as usize)).collect()))
            .add("subflow", Column::U64(rows.iter().map(|r| r.2 as u64).collect()))
            .add("path", Column::Str(rows.iter().map(path).collect()))
            .add("bytes_sent", col_u(&|s| s.bytes_sent()))
            .add("bytes_acked", col_u(&|s| s.bytes_acked()))
            .add("retransmissions", col_u(&|s| s.stats.retransmissions))
            .add("fast_retransmits", col_u(&|s| s.stats.fast_retransmits))
            .add("timeouts", col_u(&|s| s.stats.timeouts))
            .add("srtt_s", col_f(&|s| s.srtt().map_or(f64::NAN, to_secs)))
            .add("mean_srtt_s", col_f(&|s| s.mean_srtt().map_or(f64::NAN, |ps| ps / PS_PER_S as f64)))
            .add("min_rtt_s", col_f(&|s| s.view().min_rtt.map_or(f64::NAN, to_secs)))
            .add("final_cwnd_segments", col_f(&|s| s.window.cwnd))
            .add("goodput_bps", Column::F64(rows.iter().map(goodput).collect()))
            .add("host_energy_j", Column::F64(rows.iter().map(|r| self.subflow_host_energy(r.1, r.2)).collect()));
        t
    }

    fn cwnd_trace_table(&self) -> Table {
        let tr = &self.logs.cwnd_trace;
        let mut t = Table::default();
        t.add("time_s", Column::F64(tr.iter().map(|c| to_secs(c.time)).collect()))
            .add(
                "flow",
                Column::Str(
                    tr.iter()
                        .map(|c| {
                            self.transport.flows[self.transport.connections[c.conn as usize].flow as usize].name.clone()
                        })
                        .collect(),
                ),
            )
            .add("connection", Column::U64(tr.iter().map(|c| c.conn as u64).collect()))
            .add("subflow", Column::U64(tr.iter().map(|c| c.subflow as u64).collect()))
            .add("cwnd_segments", Column::F64(tr.iter().map(|c| c.cwnd).collect()))
            .add("ssthresh_segments", Column::F64(tr.iter().map(|c| c.ssthresh).collect()));
        t
    }
}

impl Transport {
    /// Application bytes delivered: UDP payloads received, or TCP data delivered in order.
    fn delivered_bytes(&self, flow: usize) -> u64 {
        match &self.flows[flow].tcp {
            None => self.flow_stats[flow].received_bytes,
            Some(tcp) => tcp.connections.iter().map(|&c| self.connections[c as usize].receiver.bytes_delivered()).sum(),
        }
    }
}
