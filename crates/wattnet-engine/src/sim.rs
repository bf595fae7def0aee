//! The simulation: arenas of nodes, ports, flows and sources driven by one event queue.

use crate::error::RunError;
use crate::event::{EventKind, EventQueue};
use crate::packet::{Ecn, Packet, PacketId, PacketPool};
use crate::port::{Port, PortId};
use crate::queue::Admission;
use crate::recorder::Recorder;
use crate::results::{Column, Results, Scalar, Table};
use crate::routing::{ForwardingTable, NO_ROUTE};
use crate::time::{serialization, to_secs, Time};
use crate::traffic::UdpSource;

#[derive(Clone, Debug, Default)]
pub struct FlowStats {
    pub sent_packets: u64,
    pub sent_bytes: u64,
    pub received_packets: u64,
    pub received_bytes: u64,
    pub dropped_packets: u64,
    /// Σ one-way delay of received packets, in ps.
    pub delay_sum: u128,
}

pub struct Flow {
    pub name: String,
    pub src: u32,
    pub dst: u32,
    pub stats: FlowStats,
}

/// A scenario action resolved to arena ids.
pub enum Action {
    SetRate { port: PortId, rate_bps: u64 },
}

pub struct RateChange {
    pub time: Time,
    pub port: PortId,
    pub old_bps: u64,
    pub new_bps: u64,
}

pub struct Simulation {
    pub(crate) now: Time,
    pub(crate) end: Time,
    pub(crate) seed: u64,
    pub(crate) ttl: u8,
    pub(crate) events: EventQueue,
    pub(crate) pool: PacketPool,
    pub(crate) node_names: Vec<String>,
    pub(crate) routes: ForwardingTable,
    pub(crate) ports: Vec<Port>,
    pub(crate) flows: Vec<Flow>,
    pub(crate) sources: Vec<UdpSource>,
    pub(crate) actions: Vec<(Time, Action)>,
    pub(crate) recorder: Option<Recorder>,
    pub(crate) rate_log: Vec<RateChange>,
    pub(crate) dropped_no_route: u64,
    pub(crate) dropped_ttl: u64,
}

impl Simulation {
    pub fn now(&self) -> Time {
        self.now
    }

    pub fn end(&self) -> Time {
        self.end
    }

    pub fn finished(&self) -> bool {
        self.now >= self.end
    }

    pub fn events_processed(&self) -> u64 {
        self.events.processed()
    }

    /// Schedules everything known at time zero; called once by `build`.
    pub(crate) fn start(&mut self) {
        for i in 0..self.sources.len() {
            if let Some(t) = self.sources[i].first_emission() {
                self.events.schedule(t, EventKind::SourceEmit { source: i as u32 });
            }
        }
        for (i, (t, _)) in self.actions.iter().enumerate() {
            self.events.schedule(*t, EventKind::Action { index: i as u32 });
        }
        if let Some(r) = &self.recorder {
            self.events.schedule(r.interval, EventKind::Sample);
        }
    }

    /// Processes every event due at or before `t` (capped at the end of the run) and
    /// advances the clock to it.
    pub fn run_until(&mut self, t: Time) {
        let limit = t.min(self.end);
        while let Some(ev) = self.events.pop_until(limit) {
            self.now = ev.time;
            match ev.kind {
                EventKind::TxDone { port } => self.tx_done(port),
                EventKind::PipeArrival { port } => self.pipe_arrival(port),
                EventKind::TransitionEnd { port } => self.try_start(port),
                EventKind::SourceEmit { source } => self.source_emit(source),
                EventKind::Action { index } => self.apply_action(index),
                EventKind::Sample => self.sample(),
                EventKind::Bench { .. } => {}
            }
        }
        self.now = self.now.max(limit);
    }

    pub fn run(&mut self) {
        self.run_until(self.end);
    }

    // ---- packets through the network ----

    fn source_emit(&mut self, source: u32) {
        let src = &mut self.sources[source as usize];
        let (size, next) = src.emit(self.now);
        let flow_id = src.flow;
        if let Some(t) = next {
            self.events.schedule(t, EventKind::SourceEmit { source });
        }
        let flow = &mut self.flows[flow_id as usize];
        flow.stats.sent_packets += 1;
        flow.stats.sent_bytes += size as u64;
        let (src_node, dst) = (flow.src, flow.dst);
        let pkt = self.pool.alloc(Packet {
            flow: flow_id,
            src: src_node,
            dst,
            size_bytes: size,
            sent_at: self.now,
            ttl: self.ttl,
            ecn: Ecn::NotEct,
        });
        self.forward(src_node, pkt);
    }

    /// A packet is at `node`: deliver it, or pass it to the output port towards its destination.
    fn forward(&mut self, node: u32, pkt: PacketId) {
        let p = self.pool.get_mut(pkt);
        if p.dst == node {
            return self.deliver(pkt);
        }
        // RFC 1812 §5.3.1: a router decrements the TTL and discards the packet at zero.
        if node != p.src {
            if p.ttl <= 1 {
                self.dropped_ttl += 1;
                return self.discard(pkt);
            }
            p.ttl -= 1;
        }
        let port = self.routes.port(node, p.dst);
        if port == NO_ROUTE {
            self.dropped_no_route += 1;
            return self.discard(pkt);
        }
        self.enqueue(port, pkt);
    }

    fn enqueue(&mut self, port_id: PortId, pkt: PacketId) {
        let size = self.pool.get(pkt).size_bytes;
        let pool = &self.pool;
        let port = &mut self.ports[port_id as usize];
        port.stats.arrived_bytes += size as u64;
        let occupancy = port.occupancy(|id| pool.get(id).size_bytes);
        match port.discipline.admit(occupancy, size) {
            Admission::Drop => {
                port.stats.dropped_packets += 1;
                port.stats.dropped_bytes += size as u64;
                self.discard(pkt);
            }
            Admission::Enqueue => {
                port.integrate(self.now);
                port.queue.push_back(pkt);
                port.queue_bytes += size as u64;
                port.stats.enqueued_packets += 1;
                port.stats.enqueued_bytes += size as u64;
                if port.can_start(self.now) {
                    self.start_transmission(port_id);
                }
            }
        }
    }

    fn try_start(&mut self, port_id: PortId) {
        if self.ports[port_id as usize].can_start(self.now) {
            self.start_transmission(port_id);
        }
    }

    fn start_transmission(&mut self, port_id: PortId) {
        let port = &mut self.ports[port_id as usize];
        port.integrate(self.now);
        let pkt = port.queue.pop_front().expect("start_transmission needs a waiting packet");
        let size = self.pool.get(pkt).size_bytes;
        port.queue_bytes -= size as u64;
        let done = self.now + serialization(size, port.rate_bps);
        port.in_service = Some((pkt, done));
        port.stats.busy_time += done - self.now;
        self.events.schedule(done, EventKind::TxDone { port: port_id });
    }

    fn tx_done(&mut self, port_id: PortId) {
        let port = &mut self.ports[port_id as usize];
        let (pkt, _) = port.in_service.take().expect("TxDone without a packet in service");
        port.stats.transmitted_packets += 1;
        port.stats.transmitted_bytes += self.pool.get(pkt).size_bytes as u64;
        let arrival = self.now + port.delay;
        port.pipe.push_back((arrival, pkt));
        if port.pipe.len() == 1 {
            self.events.schedule(arrival, EventKind::PipeArrival { port: port_id });
        }
        if port.can_start(self.now) {
            self.start_transmission(port_id);
        }
    }

    fn pipe_arrival(&mut self, port_id: PortId) {
        let port = &mut self.ports[port_id as usize];
        let (_, pkt) = port.pipe.pop_front().expect("PipeArrival on an empty pipe");
        if let Some(&(next, _)) = port.pipe.front() {
            self.events.schedule(next, EventKind::PipeArrival { port: port_id });
        }
        let to = port.to;
        self.forward(to, pkt);
    }

    fn deliver(&mut self, pkt: PacketId) {
        let p = self.pool.get(pkt);
        let stats = &mut self.flows[p.flow as usize].stats;
        stats.received_packets += 1;
        stats.received_bytes += p.size_bytes as u64;
        stats.delay_sum += (self.now - p.sent_at) as u128;
        self.pool.release(pkt);
    }

    /// Drops a packet that no port counted (no route, TTL): charge it to its flow.
    fn discard(&mut self, pkt: PacketId) {
        self.flows[self.pool.get(pkt).flow as usize].stats.dropped_packets += 1;
        self.pool.release(pkt);
    }

    // ---- port control, for scheduled actions and (later) controllers ----

    /// Changes a port's service rate. The packet in service finishes at the old rate; the
    /// port starts nothing new for its transition time. Every change is counted and logged.
    pub fn set_port_rate(&mut self, port_id: PortId, rate_bps: u64) {
        let now = self.now;
        let port = &mut self.ports[port_id as usize];
        if rate_bps == port.rate_bps {
            return;
        }
        port.integrate(now);
        self.rate_log.push(RateChange { time: now, port: port_id, old_bps: port.rate_bps, new_bps: rate_bps });
        port.rate_bps = rate_bps;
        port.stats.rate_changes += 1;
        if port.transition > 0 {
            let until = now + port.transition;
            port.stats.frozen_time += until - port.frozen_until.max(now);
            port.frozen_until = until;
            self.events.schedule(until, EventKind::TransitionEnd { port: port_id });
        }
    }

    fn apply_action(&mut self, index: u32) {
        match self.actions[index as usize].1 {
            Action::SetRate { port, rate_bps } => self.set_port_rate(port, rate_bps),
        }
    }

    fn sample(&mut self) {
        let Some(rec) = self.recorder.as_mut() else { return };
        rec.sample(self.now, &self.ports);
        let next = self.now + rec.interval;
        if next <= self.end {
            self.events.schedule(next, EventKind::Sample);
        }
    }

    // ---- results ----

    /// Statistics at the current time, after checking that every packet is accounted for:
    /// sent = received + dropped + held by ports.
    pub fn results(&mut self) -> Result<Results, RunError> {
        let now = self.now;
        for p in &mut self.ports {
            p.integrate(now);
        }
        let sent: u64 = self.flows.iter().map(|f| f.stats.sent_packets).sum();
        let received: u64 = self.flows.iter().map(|f| f.stats.received_packets).sum();
        let dropped: u64 = self.flows.iter().map(|f| f.stats.dropped_packets).sum();
        let held: u64 = self.ports.iter().map(|p| p.held_packets() as u64).sum();
        if sent != received + dropped + held || held != self.pool.live() as u64 {
            return Err(RunError(format!(
                "packet conservation violated at t = {} s: sent {sent} != received {received} + dropped {dropped} + in network {held} (pool holds {})",
                to_secs(now),
                self.pool.live()
            )));
        }
        let mut in_network = vec![0u64; self.flows.len()];
        for p in &self.ports {
            let ids = p.queue.iter().chain(p.in_service.iter().map(|(id, _)| id)).chain(p.pipe.iter().map(|(_, id)| id));
            for &id in ids {
                in_network[self.pool.get(id).flow as usize] += 1;
            }
        }
        let summary = vec![
            ("duration_s".to_string(), Scalar::Float(to_secs(now))),
            ("seed".to_string(), Scalar::Int(self.seed)),
            ("events".to_string(), Scalar::Int(self.events.processed())),
            ("packets".to_string(), Scalar::Int(self.ports.iter().map(|p| p.stats.transmitted_packets).sum())),
            ("packets_sent".to_string(), Scalar::Int(sent)),
            ("packets_received".to_string(), Scalar::Int(received)),
            ("packets_dropped".to_string(), Scalar::Int(dropped)),
            ("dropped_no_route".to_string(), Scalar::Int(self.dropped_no_route)),
            ("dropped_ttl".to_string(), Scalar::Int(self.dropped_ttl)),
            ("packets_in_network".to_string(), Scalar::Int(held)),
            ("rate_changes".to_string(), Scalar::Int(self.rate_log.len() as u64)),
        ];
        Ok(Results {
            summary,
            tables: vec![
                ("ports".to_string(), self.port_table()),
                ("flows".to_string(), self.flow_table(&in_network)),
                (
                    "timeseries".to_string(),
                    self.recorder.as_ref().map_or_else(Recorder::empty_table, |r| r.table(&self.ports)),
                ),
                ("rate_changes".to_string(), self.rate_change_table()),
            ],
        })
    }

    fn port_table(&self) -> Table {
        let now = self.now;
        let span = now.max(1) as f64;
        let ports = &self.ports;
        let col_u = |f: &dyn Fn(&Port) -> u64| Column::U64(ports.iter().map(f).collect());
        let col_f = |f: &dyn Fn(&Port) -> f64| Column::F64(ports.iter().map(f).collect());
        // A transmission still under way at the end has only partly happened.
        let busy = |p: &Port| p.stats.busy_time - p.in_service.map_or(0, |(_, done)| done.saturating_sub(now));
        let mut t = Table::default();
        t.add("port", Column::Str(ports.iter().map(|p| p.name.clone()).collect()))
            .add("from", Column::Str(ports.iter().map(|p| self.node_names[p.from as usize].clone()).collect()))
            .add("to", Column::Str(ports.iter().map(|p| self.node_names[p.to as usize].clone()).collect()))
            .add("enqueued_packets", col_u(&|p| p.stats.enqueued_packets))
            .add("enqueued_bytes", col_u(&|p| p.stats.enqueued_bytes))
            .add("dropped_packets", col_u(&|p| p.stats.dropped_packets))
            .add("dropped_bytes", col_u(&|p| p.stats.dropped_bytes))
            .add("transmitted_packets", col_u(&|p| p.stats.transmitted_packets))
            .add("transmitted_bytes", col_u(&|p| p.stats.transmitted_bytes))
            .add("busy_time_s", col_f(&|p| to_secs(busy(p))))
            .add("utilization", col_f(&|p| busy(p) as f64 / span))
            .add("mean_queue_packets", col_f(&|p| p.stats.queue_packets_area as f64 / span))
            .add("mean_queue_bytes", col_f(&|p| p.stats.queue_bytes_area as f64 / span))
            .add("mean_rate_bps", col_f(&|p| p.stats.rate_area as f64 / span))
            .add("final_rate_bps", col_f(&|p| p.rate_bps as f64))
            .add("rate_changes", col_u(&|p| p.stats.rate_changes))
            .add("frozen_time_s", col_f(&|p| to_secs(p.stats.frozen_time - p.frozen_until.saturating_sub(now))));
        t
    }

    fn flow_table(&self, in_network: &[u64]) -> Table {
        let flows = &self.flows;
        let col_u = |f: &dyn Fn(&Flow) -> u64| Column::U64(flows.iter().map(f).collect());
        let mut t = Table::default();
        t.add("flow", Column::Str(flows.iter().map(|f| f.name.clone()).collect()))
            .add("src", Column::Str(flows.iter().map(|f| self.node_names[f.src as usize].clone()).collect()))
            .add("dst", Column::Str(flows.iter().map(|f| self.node_names[f.dst as usize].clone()).collect()))
            .add("sent_packets", col_u(&|f| f.stats.sent_packets))
            .add("sent_bytes", col_u(&|f| f.stats.sent_bytes))
            .add("received_packets", col_u(&|f| f.stats.received_packets))
            .add("received_bytes", col_u(&|f| f.stats.received_bytes))
            .add("dropped_packets", col_u(&|f| f.stats.dropped_packets))
            .add("in_network_packets", Column::U64(in_network.to_vec()))
            .add(
                "mean_delay_s",
                Column::F64(
                    flows
                        .iter()
                        .map(|f| match f.stats.received_packets {
                            0 => f64::NAN,
                            n => f.stats.delay_sum as f64 / n as f64 / crate::time::PS_PER_S as f64,
                        })
                        .collect(),
                ),
            );
        t
    }

    fn rate_change_table(&self) -> Table {
        let log = &self.rate_log;
        let mut t = Table::default();
        t.add("time_s", Column::F64(log.iter().map(|c| to_secs(c.time)).collect()))
            .add("port", Column::Str(log.iter().map(|c| self.ports[c.port as usize].name.clone()).collect()))
            .add("old_rate_bps", Column::F64(log.iter().map(|c| c.old_bps as f64).collect()))
            .add("new_rate_bps", Column::F64(log.iter().map(|c| c.new_bps as f64).collect()));
        t
    }
}
