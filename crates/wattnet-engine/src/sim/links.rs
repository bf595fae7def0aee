//! Links that go down and up, and how routers learn of it (docs/forwarding.md).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::{Network, Routing, Simulation};
use crate::error::ScenarioError;
use crate::event::{EventKind, EventQueue};
use crate::port::PortId;
use crate::routing::Graph;
use crate::scenario::{ReconvergenceSpec, RoutingMetric};
use crate::time::{after, checked_secs, serialization, Time};

/// `pending_installs`' name for "every router" (global reconvergence).
const ALL_ROUTERS: u32 = u32::MAX;

/// How forwarding tables follow link changes, resolved from the scenario.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Reconvergence {
    /// Tables never change.
    Static,
    /// Every router installs the true shortest paths `delay` after a change.
    Global { delay: Time },
    /// OSPF-like flooding; each router recomputes on what it has learned.
    LinkState { detection: Time, hop_processing: Time, spf_delay: Time, lsa_bytes: u32 },
}

impl Reconvergence {
    /// The scenario's `routing.reconvergence`, validated.
    pub(super) fn from_spec(spec: Option<&ReconvergenceSpec>) -> Result<Reconvergence, ScenarioError> {
        let f = "routing.reconvergence";
        Ok(match spec {
            None => Reconvergence::Static,
            Some(&ReconvergenceSpec::Global { delay_s }) => {
                Reconvergence::Global { delay: checked_secs(delay_s, &format!("{f}.delay_s"), false)? }
            }
            Some(&ReconvergenceSpec::LinkState { detection_s, hop_processing_s, spf_delay_s, lsa_bytes }) => {
                if lsa_bytes == 0 {
                    return Err(ScenarioError::new(format!("{f}.lsa_bytes"), "must be at least 1"));
                }
                Reconvergence::LinkState {
                    detection: checked_secs(detection_s, &format!("{f}.detection_s"), false)?,
                    hop_processing: checked_secs(hop_processing_s, &format!("{f}.hop_processing_s"), false)?,
                    spf_delay: checked_secs(spf_delay_s, &format!("{f}.spf_delay_s"), false)?,
                    lsa_bytes,
                }
            }
        })
    }
}

/// A change of a link's state, and when each router learns of it (`Time::MAX`: never).
pub struct LinkChange {
    pub ports: [PortId; 2],
    pub up: bool,
    pub learned: Vec<Time>,
}

/// One row of the routing-events table: a router installed a new table.
pub struct RouteInstall {
    pub time: Time,
    pub node: u32,
    /// Destinations whose next hops changed.
    pub changed: usize,
}

impl Simulation {
    /// A scheduled link-down or link-up: both directions change at once.
    pub(super) fn set_link(&mut self, ports: [PortId; 2], up: bool) {
        for p in ports {
            if self.net.ports[p as usize].up != up {
                self.set_port_up(p, up);
                self.meter_power_mode(p);
            }
        }
        self.routing.link_changed(ports, up, self.now, &self.net, &mut self.events);
    }

    /// A port going down loses what it queues, sends and carries; one coming up starts empty.
    fn set_port_up(&mut self, id: PortId, up: bool) {
        self.settle(id);
        let port = &mut self.net.ports[id as usize];
        if port.up == up {
            return;
        }
        port.integrate(self.now);
        port.up = up;
        if up {
            return;
        }
        // The packet being serialized is in the pipe, lost with it; the transmitter was busy
        // up to now only.
        if let Some(s) = port.in_service.take() {
            port.stats.busy_time -= s.done - self.now;
        }
        let mut lost: Vec<_> = port.queue.drain(..).map(|(p, _)| p).collect();
        lost.extend(port.pipe.drain(..).map(|(_, p)| p));
        port.queue_bytes = 0;
        port.stats.link_down_drops += lost.len() as u64;
        for pkt in lost {
            self.discard(pkt);
        }
    }
}

impl Routing {
    /// The routers' reaction to a link change at `now`: per the reconvergence model, a table
    /// install scheduled for every router at once, or for each router as it learns of it.
    fn link_changed(&mut self, ports: [PortId; 2], up: bool, now: Time, net: &Network, events: &mut EventQueue) {
        match self.reconvergence {
            Reconvergence::Static => {}
            Reconvergence::Global { delay } => self.schedule_install(after(now, delay), ALL_ROUTERS, events),
            Reconvergence::LinkState { detection, hop_processing, spf_delay, lsa_bytes } => {
                let learned = net.flood_times(ports, after(now, detection), hop_processing, lsa_bytes);
                for (node, &t) in learned.iter().enumerate() {
                    if t != Time::MAX {
                        self.schedule_install(after(t, spf_delay), node as u32, events);
                    }
                }
                self.link_changes.push(LinkChange { ports, up, learned });
            }
        }
    }

    /// Schedules `node` (or every router) to install its table at `at`, unless it already will.
    fn schedule_install(&mut self, at: Time, node: u32, events: &mut EventQueue) {
        if self.pending_installs.insert((at, node)) {
            let kind = if node == ALL_ROUTERS { EventKind::RouteInstallAll } else { EventKind::RouteInstall { node } };
            events.schedule(at, kind);
        }
    }

    /// A router runs SPF on the links it believes up: everything up at the start, changed by
    /// the changes it has learned of by now, in the order they happened.
    pub(super) fn install_route(&mut self, node: u32, now: Time, net: &Network) {
        self.pending_installs.remove(&(now, node));
        let mut up = vec![true; net.ports.len()];
        for c in self.link_changes.iter().filter(|c| c.learned[node as usize] <= now) {
            for p in c.ports {
                up[p as usize] = c.up;
            }
        }
        let graph = Graph::new(net.node_names.len(), &net.ports, |p| up[p as usize], self.metric);
        let changed = self.routes.install(node, &graph, &net.ports);
        if changed > 0 {
            self.paths.invalidate(Some(node), &self.routes);
        }
        self.route_log.push(RouteInstall { time: now, node, changed });
    }

    /// Every router installs the true shortest paths.
    pub(super) fn install_all_routes(&mut self, now: Time, net: &Network) {
        self.pending_installs.remove(&(now, ALL_ROUTERS));
        let graph = Graph::new(net.node_names.len(), &net.ports, |p| net.ports[p as usize].up, self.metric);
        for node in 0..net.node_names.len() as u32 {
            let changed = self.routes.install(node, &graph, &net.ports);
            self.route_log.push(RouteInstall { time: now, node, changed });
        }
        self.paths.invalidate(None, &self.routes);
    }
}

impl Network {
    /// When each router learns of a change noticed at both ends of a link at `noticed`: the
    /// LSA floods over links that are up, each hop costing propagation, processing and the
    /// LSA's transmission time; a router learns from the first copy to arrive.
    fn flood_times(&self, ends: [PortId; 2], noticed: Time, hop_processing: Time, lsa_bytes: u32) -> Vec<Time> {
        let mut learned = vec![Time::MAX; self.node_names.len()];
        let up = Graph::new(self.node_names.len(), &self.ports, |p| self.ports[p as usize].up, RoutingMetric::Hops);
        let mut heap = BinaryHeap::new();
        for p in ends {
            let node = self.ports[p as usize].from;
            learned[node as usize] = noticed;
            heap.push(Reverse((noticed, node)));
        }
        while let Some(Reverse((t, node))) = heap.pop() {
            if t > learned[node as usize] {
                continue;
            }
            for port in up.out(node).iter().map(|&(p, _, _)| &self.ports[p as usize]) {
                let arrival =
                    after(after(after(t, serialization(lsa_bytes, port.rate_bps)), port.delay), hop_processing);
                if arrival < learned[port.to as usize] {
                    learned[port.to as usize] = arrival;
                    heap.push(Reverse((arrival, port.to)));
                }
            }
        }
        learned
    }
}
