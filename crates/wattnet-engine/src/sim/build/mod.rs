//! Turning a scenario into a ready-to-run simulation, validating every field on the way: one
//! builder per subsystem (`network`: nodes and ports; `transport`: flows, sources, TCP and
//! pinned paths; `schedule`: the scenario's actions; `logs`: recorder and captures), put
//! together here with the routing tables.

mod logs;
mod network;
mod schedule;
mod transport;

use std::collections::HashMap;

use crate::control::{NoExternalPolicies, PolicySource};
use crate::error::ScenarioError;
use crate::event::{EventQueue, WheelShape};
use crate::packet::PacketPool;
use crate::port::PortId;
use crate::routing::ForwardingTable;
use crate::scenario::Scenario;
use crate::sim::forwarding::Paths;
use crate::sim::path_feedback::PathFeedbackRule;
use crate::sim::{Reconvergence, Routing, Simulation};
use crate::time::{checked_secs, Time};
use logs::logs;
use network::network;
use schedule::actions;
pub(super) use transport::pinned_path;
use transport::transport;

fn err(field: impl Into<String>, message: impl Into<String>) -> ScenarioError {
    ScenarioError::new(field, message)
}

/// A duration or instant in seconds, within the clock's range (see `checked_secs`).
fn seconds(value: f64, field: &str, strictly_positive: bool) -> Result<Time, ScenarioError> {
    checked_secs(value, field, strictly_positive)
}

struct Names<'a> {
    ids: HashMap<&'a str, u32>,
}

impl Names<'_> {
    fn node(&self, name: &str, field: &str) -> Result<u32, ScenarioError> {
        self.ids.get(name).copied().ok_or_else(|| err(field, format!("unknown node '{name}'")))
    }
}

/// Ports by name ("from->to").
pub(super) struct PortIds(HashMap<String, PortId>);

impl PortIds {
    pub(super) fn named(&self, name: &str, field: &str) -> Result<PortId, ScenarioError> {
        self.0
            .get(name)
            .copied()
            .ok_or_else(|| err(field, format!("unknown port '{name}' (ports are named \"from->to\")")))
    }
}

/// The event wheel's first shape, for a network at full load: at most two events per
/// 1500-byte packet on every port, each at most a serialization and a propagation delay ahead
/// (the wheel re-shapes itself to the run's own rate).
fn wheel_shape(ports: &[crate::port::Port]) -> WheelShape {
    let events_per_s: f64 = ports.iter().map(|p| 2.0 * p.rate_bps as f64 / 12_000.0).sum();
    let horizon = ports.iter().map(|p| p.delay.saturating_add(p.serialization(1500))).max().unwrap_or(0);
    WheelShape::for_rate(events_per_s, horizon)
}

impl Simulation {
    pub fn build(s: &Scenario) -> Result<Simulation, ScenarioError> {
        Simulation::build_with_policies(s, &mut NoExternalPolicies)
    }

    /// `build`, with `policies` supplying the scenario's external controllers.
    pub fn build_with_policies(s: &Scenario, policies: &mut dyn PolicySource) -> Result<Simulation, ScenarioError> {
        let end = seconds(s.duration_s, "duration_s", true)?;
        if s.routing.ttl == 0 {
            return Err(err("routing.ttl", "must be at least 1"));
        }
        let names = node_names(s)?;
        let (mut net, port_ids) = network(s, &names, policies)?;
        let routes = ForwardingTable::shortest_paths(s.nodes.len(), &net.ports, s.routing.metric, s.routing.ecmp);
        let reconvergence = Reconvergence::from_spec(s.routing.reconvergence.as_ref())?;
        let (mut transport, pinned) = transport(s, &names, &net, &port_ids, &routes, end)?;
        // External (Python) congestion controls get their factories once every flow is valid.
        for (i, flow) in transport.flows.iter_mut().enumerate() {
            if let Some(tcp) = &mut flow.tcp {
                let field = format!("flows[{i}].tcp.congestion_control");
                crate::tcp::cc::supply(&mut tcp.config.cc, &flow.name, &field, policies)?;
            }
        }
        net.path_feedback = PathFeedbackRule::build(s.nodes.len(), &net.ports, &transport.flows);
        let actions = actions(s, &names, &net, &port_ids, end)?;
        let logs = logs(s, &net, &port_ids, &mut transport.flows)?;
        let endpoints: Vec<(u32, u32)> = transport.flows.iter().map(|f| (f.src, f.dst)).collect();
        let routing = Routing {
            ttl: s.routing.ttl,
            paths: Paths::new(&endpoints, pinned, &net.ports, s.routing.ecmp),
            routes,
            metric: s.routing.metric,
            ecmp: s.routing.ecmp,
            reconvergence,
            link_changes: vec![],
            route_log: vec![],
            pending_installs: Default::default(),
            initial_path_hops: vec![],
            dropped_no_route: 0,
            dropped_ttl: 0,
        };
        let mut sim = Simulation {
            now: 0,
            end,
            seed: s.seed,
            events: EventQueue::new(wheel_shape(&net.ports)),
            pool: PacketPool::default(),
            actions,
            net,
            routing,
            transport,
            logs,
        };
        sim.routing.initial_path_hops = (0..sim.transport.flows.len()).map(|f| sim.flow_path_hops(f)).collect();
        sim.start();
        Ok(sim)
    }

    pub fn from_json(text: &str) -> Result<Simulation, ScenarioError> {
        Simulation::build(&Scenario::from_json(text)?)
    }

    /// `from_json`, with `policies` supplying the scenario's external controllers.
    pub fn from_json_with_policies(text: &str, policies: &mut dyn PolicySource) -> Result<Simulation, ScenarioError> {
        Simulation::build_with_policies(&Scenario::from_json(text)?, policies)
    }
}

/// The nodes' ids by name, each name checked.
fn node_names(s: &Scenario) -> Result<Names<'_>, ScenarioError> {
    let mut names = Names { ids: HashMap::new() };
    for (i, n) in s.nodes.iter().enumerate() {
        if n.name.is_empty() {
            return Err(err(format!("nodes[{i}].name"), "must not be empty"));
        }
        if n.name.contains("->") {
            return Err(err(format!("nodes[{i}].name"), "must not contain '->' (it names ports)"));
        }
        if names.ids.insert(&n.name, i as u32).is_some() {
            return Err(err(format!("nodes[{i}].name"), format!("duplicate node name '{}'", n.name)));
        }
    }
    if s.nodes.is_empty() {
        return Err(err("nodes", "a scenario needs at least one node"));
    }
    Ok(names)
}
