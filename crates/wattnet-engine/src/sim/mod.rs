//! The simulation: arenas of nodes, ports, flows, sources and connections driven by one
//! event queue.

mod build;
mod capture;
pub(crate) mod forwarding;
mod hosts;
mod links;
mod lookahead;
mod path_feedback;
mod path_manager;
mod power;
mod recorder;
mod report;
#[cfg(test)]
mod transmission_tests;
mod transport;

use crate::admission::{Admission, Arrival};
use crate::event::{Event, EventKind, EventQueue};
use crate::packet::{Ecn, Packet, PacketId, PacketPool, TcpHeader, NO_CONNECTION};
use crate::port::{InService, Port, PortId, SleepState};
use crate::prefetch::prefetch_ring_ahead;
use crate::routing::{ForwardingTable, NO_ROUTE};
use crate::scenario::RoutingMetric;
use crate::tcp::Outgoing;
use crate::time::{after, Time};
use crate::traffic::UdpSource;
pub use hosts::Host;
pub use links::{LinkChange, Reconvergence, RouteInstall};
use power::Observation;
use recorder::Recorder;
pub use transport::{Application, Connection, CwndChange, MultipathFlow, TcpFlow, WebRequests};

/// A flow's packet counters, one aligned cache line per flow, apart from the flow's settings:
/// what a packet's delivery, loss or sending updates.
#[derive(Clone, Debug, Default)]
#[repr(C, align(64))]
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
    pub start: Time,
    /// Present for TCP flows; UDP flows have a source instead.
    pub tcp: Option<TcpFlow>,
}

/// A scenario action resolved to arena ids.
pub enum Action {
    SetRate {
        port: PortId,
        rate_bps: u64,
    },
    /// Both directions of a link go down (`up` false) or come up.
    SetLink {
        ports: [PortId; 2],
        up: bool,
    },
    /// A port enters (`true`) or leaves its sleep mode.
    SleepMode {
        port: PortId,
        on: bool,
    },
}

pub struct RateChange {
    pub time: Time,
    pub port: PortId,
    pub old_bps: u64,
    pub new_bps: u64,
}

/// The network itself: nodes (as hosts) and ports (each one direction of a link).
pub(crate) struct Network {
    pub(crate) node_names: Vec<String>,
    /// Per node: its own packets sent and received, and its host energy model.
    pub(crate) hosts: Vec<Host>,
    pub(crate) ports: Vec<Port>,
    /// DTS's congested-hop counting, when some flow asks for it.
    pub(crate) path_feedback: Option<path_feedback::PathFeedbackRule>,
}

/// How packets find their way: forwarding tables, the paths cached from them or pinned, and
/// how the tables follow link changes (docs/forwarding.md).
pub(crate) struct Routing {
    /// The initial TTL of every packet.
    pub(crate) ttl: u8,
    pub(crate) routes: ForwardingTable,
    /// Every traffic direction's path: pinned, or cached from `routes`.
    pub(crate) paths: forwarding::Paths,
    pub(crate) metric: RoutingMetric,
    pub(crate) ecmp: bool,
    pub(crate) reconvergence: Reconvergence,
    pub(crate) link_changes: Vec<LinkChange>,
    pub(crate) route_log: Vec<RouteInstall>,
    /// Table installs scheduled and not yet done, as (time, router or `ALL_ROUTERS`): changes
    /// that would install the same table at the same instant install it once.
    pub(crate) pending_installs: std::collections::BTreeSet<(Time, u32)>,
    /// Each flow's path length (hops) under the initial tables; `None`: no path.
    pub(crate) initial_path_hops: Vec<Option<u32>>,
    pub(crate) dropped_no_route: u64,
    pub(crate) dropped_ttl: u64,
}

/// The traffic: flows, their UDP sources and TCP connections.
pub(crate) struct Transport {
    pub(crate) flows: Vec<Flow>,
    /// Per flow, its counters.
    pub(crate) flow_stats: Vec<FlowStats>,
    pub(crate) sources: Vec<UdpSource>,
    pub(crate) connections: Vec<Connection>,
    /// Path slots given to connections' subflows so far (`forwarding.rs`).
    pub(crate) subflow_slots: u32,
    /// Packets an endpoint asked to send while handling one event (reused, never shrunk).
    pub(crate) outbox: Vec<Outgoing>,
}

/// What a run records beside its counters: samples, logs of changes, packet captures.
pub(crate) struct Logs {
    pub(crate) recorder: Option<Recorder>,
    pub(crate) rate_log: Vec<RateChange>,
    pub(crate) cwnd_trace: Vec<CwndChange>,
    /// Ports captured into pcap files (crate::pcap); inactive until `capture_to`.
    pub(crate) pcap: crate::pcap::Captures,
}

pub struct Simulation {
    pub(crate) now: Time,
    pub(crate) end: Time,
    pub(crate) seed: u64,
    pub(crate) events: EventQueue,
    pub(crate) pool: PacketPool,
    /// The scenario's scheduled actions, in its order.
    pub(crate) actions: Vec<(Time, Action)>,
    pub(crate) net: Network,
    pub(crate) routing: Routing,
    pub(crate) transport: Transport,
    pub(crate) logs: Logs,
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
        for i in 0..self.transport.sources.len() {
            if let Some(t) = self.transport.sources[i].first_emission() {
                self.events.schedule(t, EventKind::SourceEmit { source: i as u32 });
            }
        }
        for (i, flow) in self.transport.flows.iter().enumerate() {
            if flow.tcp.is_some() {
                self.events.schedule(flow.start, EventKind::AppStart { flow: i as u32 });
            }
        }
        for (i, (t, _)) in self.actions.iter().enumerate() {
            self.events.schedule(*t, EventKind::Action { index: i as u32 });
        }
        if let Some(r) = &self.logs.recorder {
            self.events.schedule(r.interval, EventKind::Sample);
        }
        for (id, port) in self.net.ports.iter().enumerate() {
            if let Some(interval) = port.controller.as_ref().and_then(|c| c.tick_interval()) {
                self.events.schedule(interval, EventKind::ControllerTick { port: id as PortId });
            }
        }
        for id in 0..self.net.ports.len() {
            if let Some(gap) = self.net.ports[id].available_bandwidth.as_mut().map(|b| b.next_gap()) {
                self.events.schedule(gap, EventKind::AvailableBandwidthChange { port: id as PortId });
            }
        }
    }

    /// Processes every event due at or before `t` (capped at the end of the run) and
    /// advances the clock to it.
    pub fn run_until(&mut self, t: Time) {
        self.run_slice(t, u64::MAX);
    }

    /// As `run_until`, but stops after `max_events` events, so a caller can look up between
    /// slices (the Python binding checks for Ctrl-C). True when the clock has reached `t`.
    pub fn run_slice(&mut self, t: Time, max_events: u64) -> bool {
        let limit = t.min(self.end);
        let mut left = max_events;
        while left > 0 {
            let Some(ev) = self.events.pop_until(limit) else { break };
            left -= 1;
            self.fetch_ahead();
            self.dispatch(ev);
        }
        if left == 0 {
            // Events may remain before `limit`: the next slice finds out.
            return false;
        }
        self.now = self.now.max(limit);
        self.events.ran_until(self.now);
        true
    }

    /// Processes one event.
    #[inline(always)]
    fn dispatch(&mut self, ev: Event) {
        self.now = ev.time;
        match ev.kind {
            EventKind::TxDone { port } => self.tx_done(port),
            EventKind::PipeArrival { port, packet } => self.pipe_arrival(port, packet),
            EventKind::TransitionEnd { port } => self.try_start(port),
            EventKind::SleepTransitionEnd { port } => self.sleep_transition_end(port),
            EventKind::SourceEmit { source } => self.source_emit(source),
            EventKind::AppStart { flow } => self.start_application(flow),
            EventKind::WebRequest { flow } => self.web_request(flow),
            EventKind::RouteInstall { node } => self.routing.install_route(node, self.now, &self.net),
            EventKind::RouteInstallAll => self.routing.install_all_routes(self.now, &self.net),
            EventKind::ControllerTick { port } => self.controller_tick(port),
            EventKind::AvailableBandwidthChange { port } => self.available_bandwidth_change(port),
            EventKind::Tcp { conn, subflow, timer } => self.tcp_timer(conn, subflow, timer),
            EventKind::Action { index } => self.apply_action(index),
            EventKind::Sample => self.sample(),
            EventKind::Bench { .. } => {}
        }
    }

    pub fn run(&mut self) {
        self.run_until(self.end);
    }

    // ---- packets through the network ----

    fn source_emit(&mut self, source: u32) {
        let src = &mut self.transport.sources[source as usize];
        let (size, next) = src.emit(self.now);
        let flow_id = src.flow;
        if let Some(t) = next {
            self.events.schedule(t, EventKind::SourceEmit { source });
        }
        let stats = &mut self.transport.flow_stats[flow_id as usize];
        stats.sent_packets += 1;
        stats.sent_bytes += size as u64;
        let flow = &self.transport.flows[flow_id as usize];
        let (src_node, dst) = (flow.src, flow.dst);
        let packet = Packet {
            flow: flow_id,
            src: src_node,
            dst,
            size_bytes: size,
            sent_at: self.now,
            ttl: self.routing.ttl,
            ecn: Ecn::NotEct,
            conn: NO_CONNECTION,
            subflow: 0,
            tcp: TcpHeader::default(),
        };
        self.send_from(src_node, packet);
    }

    /// A packet is at `node`, arrived over port `via` (`NO_ROUTE` at its source): deliver it,
    /// or pass it to the output port towards its destination.
    fn forward(&mut self, node: u32, pkt: PacketId, via: PortId) {
        let h = self.pool.hot_mut(pkt);
        if h.dst == node {
            return self.deliver(pkt, via);
        }
        // RFC 1812 §5.3.1: a router decrements the TTL and discards the packet at zero.
        if node != h.src {
            if h.ttl <= 1 {
                self.routing.dropped_ttl += 1;
                return self.discard(pkt);
            }
            h.ttl -= 1;
        }
        let port = self.routing.next_port(node, self.pool.hot(pkt));
        self.pool.hot_mut(pkt).hop += 1;
        if port == NO_ROUTE {
            self.routing.dropped_no_route += 1;
            return self.discard(pkt);
        }
        self.enqueue(port, pkt);
        self.observe(port, Observation::Arrival);
    }

    fn enqueue(&mut self, port_id: PortId, pkt: PacketId) {
        self.settle(port_id);
        let h = self.pool.hot(pkt);
        let arrival = Arrival { now: self.now, size_bytes: h.size_bytes, ecn: h.ecn };
        let size = h.size_bytes;
        let port = &mut self.net.ports[port_id as usize];
        port.stats.arrived_bytes += size as u64;
        if !port.up {
            port.stats.link_down_drops += 1;
            return self.discard(pkt);
        }
        let state = port.queue_state();
        match port.discipline.admit(state, arrival) {
            Admission::Enqueue => {}
            Admission::EnqueueMarked => {
                port.stats.marked_packets += 1;
                self.pool.hot_mut(pkt).ecn = Ecn::Ce;
            }
            drop @ (Admission::DropOverflow | Admission::DropEarly) => {
                port.stats.dropped_packets += 1;
                port.stats.dropped_bytes += size as u64;
                port.stats.early_dropped_packets += (drop == Admission::DropEarly) as u64;
                return self.discard(pkt);
            }
        }
        if let Some(rule) = &self.net.path_feedback {
            let p = self.pool.get_mut(pkt);
            rule.on_enqueue(port_id as usize, port, &state, p.flow, &mut p.tcp);
        }
        port.integrate_queue(self.now);
        port.stats.enqueued_packets += 1;
        port.stats.enqueued_bytes += size as u64;
        if port.queue.is_empty() && port.transmitter_free(self.now) {
            // Straight to the transmitter: the queue would hand it back at once.
            return self.transmit(port_id, pkt, size);
        }
        port.queue.push_back((pkt, size));
        port.queue_bytes += size as u64;
        if port.can_start(self.now) {
            self.start_transmission(port_id);
        } else if !matches!(port.sleep_state, SleepState::Active) {
            // Sleeping and IEEE 802.3az: an arrival wakes a sleeping port (after it has finished going to sleep).
            self.wake_port(port_id);
        } else {
            // The packet waits behind a transmission: its end starts the next one.
            self.schedule_end(port_id);
        }
    }

    /// Makes the end of port `id`'s transmission under way an event, at its reserved place.
    pub(crate) fn schedule_end(&mut self, id: PortId) {
        if let Some(s) = self.net.ports[id as usize].in_service.as_mut().filter(|s| !s.end_scheduled) {
            s.end_scheduled = true;
            self.events.schedule_reserved(s.done, s.end_seq, EventKind::TxDone { port: id });
        }
    }

    fn try_start(&mut self, port_id: PortId) {
        self.settle(port_id);
        if self.net.ports[port_id as usize].can_start(self.now) {
            self.start_transmission(port_id);
        }
    }

    /// Starts sending the first waiting packet: it enters the pipe now, its arrival known.
    /// Its end is an event only if a packet waits behind it or the port observes its ends
    /// (a policy, sleeping); otherwise the port is settled when next visited.
    fn start_transmission(&mut self, port_id: PortId) {
        let port = &mut self.net.ports[port_id as usize];
        port.integrate_queue(self.now);
        let (pkt, size) = port.queue.pop_front().expect("start_transmission needs a waiting packet");
        prefetch_ring_ahead(&port.queue);
        port.queue_bytes -= size as u64;
        self.transmit(port_id, pkt, size);
    }

    /// Puts packet `pkt` of `size` bytes on the wire of port `port_id`, whose transmitter is free.
    fn transmit(&mut self, port_id: PortId, pkt: PacketId, size: u32) {
        let observed = self.ends_observed(port_id);
        let port = &mut self.net.ports[port_id as usize];
        let done = after(self.now, port.serialization(size));
        port.stats.busy_time += done - self.now;
        // The end's place comes first, where its event used to be scheduled.
        let end_seq = self.events.reserve();
        let end_scheduled = observed || !port.queue.is_empty();
        port.in_service = Some(InService { size_bytes: size, done, end_seq, end_scheduled });
        if end_scheduled {
            self.events.schedule_reserved(done, end_seq, EventKind::TxDone { port: port_id });
        }
        let arrival = after(done, port.delay);
        port.pipe.push_back((arrival, pkt));
        if port.pipe.len() == 1 {
            self.events.schedule(arrival, EventKind::PipeArrival { port: port_id, packet: pkt });
        }
        if self.logs.pcap.active.is_some() {
            self.pool.sync(pkt);
            self.capture_tx(port_id, pkt, done);
        }
    }

    /// Whether anything watches port `id`'s transmissions end: its policy, or its sleeping
    /// (802.3az goes to low-power idle at the end).
    fn ends_observed(&self, id: PortId) -> bool {
        let port = &self.net.ports[id as usize];
        port.controller.is_some() || port.sleep.is_some()
    }

    /// Completes port `id`'s transmission if it has ended by now without an event (`Port::settle`).
    pub(crate) fn settle(&mut self, id: PortId) {
        self.net.ports[id as usize].settle(&self.events);
    }

    fn tx_done(&mut self, port_id: PortId) {
        let port = &mut self.net.ports[port_id as usize];
        // A transmission lost when its link went down leaves a stale event behind.
        let Some(s) = port.in_service.take_if(|s| s.done == self.now && s.end_scheduled) else { return };
        port.finish_transmission(s);
        if port.can_start(self.now) {
            self.start_transmission(port_id);
        } else if port.queue.is_empty() && port.sleep.as_deref().is_some_and(|s| s.when_idle) {
            // IEEE 802.3az-2010: a transmitter with nothing to send goes to low-power idle.
            self.begin_sleep(port_id);
        }
        self.observe(port_id, Observation::Departure);
    }

    fn pipe_arrival(&mut self, port_id: PortId, pkt: PacketId) {
        let port = &mut self.net.ports[port_id as usize];
        // Packets lost when the link went down leave stale events behind.
        if port.pipe.front() != Some(&(self.now, pkt)) {
            return;
        }
        port.pipe.pop_front();
        prefetch_ring_ahead(&port.pipe);
        if let Some(&(next, packet)) = port.pipe.front() {
            self.events.schedule(next, EventKind::PipeArrival { port: port_id, packet });
            // The packet behind this one on the link (on the wire or being serialized: the
            // pipe holds both) arrives a serialization time or more from now: its record, out
            // of cache since it was queued, is fetched meanwhile rather than on arrival.
            self.pool.prefetch_hot(packet);
        }
        // A corrupted packet reaches the far end and is discarded there.
        if port.error_model.as_mut().is_some_and(|e| e.corrupts()) {
            port.stats.corrupted_packets += 1;
            port.stats.corrupted_bytes += self.pool.hot(pkt).size_bytes as u64;
            // Tsaoussidis et al., ISCC 2000: a battery host spends receive energy on corrupted packets too.
            self.count_corrupted(pkt, port_id);
            return self.discard(pkt);
        }
        let to = port.to;
        self.rewrite_window(port_id, pkt);
        self.forward(to, pkt, port_id);
    }

    /// `pkt` reached its destination over port `via`.
    fn deliver(&mut self, pkt: PacketId, via: PortId) {
        self.count_received(pkt, via);
        let h = *self.pool.hot(pkt);
        let stats = &mut self.transport.flow_stats[h.flow as usize];
        stats.received_packets += 1;
        stats.received_bytes += h.size_bytes as u64;
        stats.delay_sum += (self.now - self.pool.get(pkt).sent_at) as u128;
        if h.conn == NO_CONNECTION {
            self.pool.release(pkt);
        } else {
            self.tcp_deliver(pkt);
        }
    }

    /// Drops a packet that no port counted (no route, TTL): charge it to its flow.
    fn discard(&mut self, pkt: PacketId) {
        self.transport.flow_stats[self.pool.hot(pkt).flow as usize].dropped_packets += 1;
        self.pool.release(pkt);
    }

    // ---- port control, for scheduled actions and (later) controllers ----

    /// Changes a port's service rate. The packet in service finishes at the old rate; the
    /// port starts nothing new for its transition time. Every change is counted and logged.
    pub fn set_port_rate(&mut self, port_id: PortId, rate_bps: u64) {
        let now = self.now;
        let port = &mut self.net.ports[port_id as usize];
        if rate_bps == port.rate_bps {
            return;
        }
        port.integrate(now);
        self.logs.rate_log.push(RateChange { time: now, port: port_id, old_bps: port.rate_bps, new_bps: rate_bps });
        port.set_rate(rate_bps);
        port.stats.rate_changes += 1;
        if let Some(meter) = &mut port.energy {
            meter.set_rate(now, rate_bps);
        }
        if port.transition > 0 {
            let until = after(now, port.transition);
            port.stats.frozen_time += until - port.frozen_until.max(now);
            port.frozen_until = until;
            self.events.schedule(until, EventKind::TransitionEnd { port: port_id });
        }
    }

    fn apply_action(&mut self, index: u32) {
        match self.actions[index as usize].1 {
            Action::SetRate { port, rate_bps } => self.set_port_rate(port, rate_bps),
            Action::SetLink { ports, up } => self.set_link(ports, up),
            Action::SleepMode { port, on: true } => self.enter_sleep_mode(port),
            Action::SleepMode { port, on: false } => self.leave_sleep_mode(port),
        }
    }

    fn sample(&mut self) {
        let Some(rec) = self.logs.recorder.as_mut() else { return };
        // Departure rates count the transmissions ended by now.
        for &id in &rec.ports {
            self.net.ports[id as usize].settle(&self.events);
        }
        rec.sample(self.now, &self.net.ports, &self.transport.flows, &self.transport.connections);
        let next = after(self.now, rec.interval);
        if next <= self.end {
            self.events.schedule(next, EventKind::Sample);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_packet_without_a_route_is_dropped_counted_and_conserved() {
        // a - b - c; b forgets its route to c: every packet of a→c dies at b.
        let json = r#"{"seed": 1, "duration_s": 1.0,
            "nodes": [{"name": "a"}, {"name": "b"}, {"name": "c"}],
            "links": [{"a": "a", "b": "b", "rate_bps": 1e6, "delay_s": 0.001},
                      {"a": "b", "b": "c", "rate_bps": 1e6, "delay_s": 0.001}],
            "flows": [{"name": "f", "src": "a", "dst": "c", "traffic": {"type": "cbr", "rate_bps": 8e4}}]}"#;
        let mut sim = Simulation::from_json(json).unwrap();
        sim.routing.routes.remove(1, 2);
        sim.run();
        let r = sim.results().expect("conservation holds");
        // 1000 B every 0.1 s from t = 0: 10 packets, none delivered, all dropped at b.
        assert_eq!(r.scalar("packets_sent"), 10.0);
        assert_eq!(r.scalar("dropped_no_route"), 10.0);
        assert_eq!(r.scalar("packets_dropped"), 10.0);
        assert_eq!(r.scalar("packets_received"), 0.0);
    }
}
