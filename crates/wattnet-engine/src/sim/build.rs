//! Turning a scenario into a ready-to-run simulation, validating every field on the way.

use std::collections::{HashMap, HashSet};

use crate::available_bandwidth::AvailableBandwidth;
use crate::control::{NoExternalPolicies, PolicySource};
use crate::energy::{EnergyMeter, Lpi, PowerMode, PowerModel};
use crate::error::{rate_bps, ScenarioError, MAX_BYTES};
use crate::event::EventQueue;
use crate::host::{HostActivity, HostModel};
use crate::packet::PacketPool;
use crate::port::{PacketErrorModel, Port, PortId, Sleep, SleepState};
use crate::queue::QueueDiscipline;
use crate::rng::{domain, stream};
use crate::routing::{ForwardingTable, NO_ROUTE};
use crate::scenario::{EventSpec, LinkSpec, NodeSpec, PortOverride, RecorderSpec, Scenario, TrafficSpec};
use crate::sim::recorder::Recorder;
use rand_distr::Exp;

use crate::sim::forwarding::Paths;
use crate::sim::path_feedback::PathFeedbackRule;
use crate::sim::path_manager;
use crate::sim::{
    Action, Application, Flow, FlowStats, Host, Logs, MultipathFlow, Network, Reconvergence, Routing, Simulation,
    TcpFlow, Transport, WebRequests,
};
use crate::tcp::mptcp::MptcpConfig;
use crate::tcp::TcpConfig;
use crate::time::{checked_secs, Time};
use crate::traffic::{PacketSize, UdpSource};

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
            events: EventQueue::default(),
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

/// The nodes (as hosts) and the links' ports, two per link (a link's ports are 2i and 2i + 1).
fn network(s: &Scenario, names: &Names, policies: &mut dyn PolicySource) -> Result<(Network, PortIds), ScenarioError> {
    let mut hosts = Vec::with_capacity(s.nodes.len());
    for (i, n) in s.nodes.iter().enumerate() {
        let model = n.power.as_ref().map(|p| HostModel::from_spec(p, &format!("nodes[{i}].power"))).transpose()?;
        let activity = matches!(model, Some(HostModel::Battery(_))).then(Box::<HostActivity>::default);
        hosts.push(Host { model, activity, ..Default::default() });
    }

    let mut ports = Vec::with_capacity(2 * s.links.len());
    let mut port_ids: HashMap<String, PortId> = HashMap::new();
    for (i, link) in s.links.iter().enumerate() {
        let f = format!("links[{i}]");
        let a = names.node(&link.a, &format!("{f}.a"))?;
        let b = names.node(&link.b, &format!("{f}.b"))?;
        if a == b {
            return Err(err(format!("{f}.b"), format!("a link cannot connect node '{}' to itself", link.a)));
        }
        let delay = seconds(link.delay_s, &format!("{f}.delay_s"), false)?;
        for (from, to, over, dir) in [(a, b, &link.a_to_b, "a_to_b"), (b, a, &link.b_to_a, "b_to_a")] {
            let port = make_port(link, over.as_ref(), &f, dir, from, to, delay, ports.len() as PortId, s, policies)?;
            if port_ids.insert(port.name.clone(), ports.len() as PortId).is_some() {
                return Err(err(f, format!("a second link between '{}' and '{}'", link.a, link.b)));
            }
            ports.push(port);
        }
    }
    // AWM rewrites the windows of ACKs that come back over the managed port's reverse
    // direction; a link's two ports are numbered 2i and 2i + 1.
    for id in 0..ports.len() {
        if ports[id].controller.as_ref().is_some_and(|c| c.manages_windows()) {
            ports[id ^ 1].window_rewriter = Some(id as PortId);
        }
    }
    let node_names = s.nodes.iter().map(|n| n.name.clone()).collect();
    Ok((Network { node_names, hosts, ports, path_feedback: None }, PortIds(port_ids)))
}

/// Per flow, the ports it is pinned to, if it is.
type PinnedPaths = Vec<Option<Vec<PortId>>>;

/// The flows, with their UDP sources, and each flow's pinned path if it has one.
fn transport(
    s: &Scenario,
    names: &Names,
    net: &Network,
    port_ids: &PortIds,
    routes: &ForwardingTable,
    end: Time,
) -> Result<(Transport, PinnedPaths), ScenarioError> {
    let mut flows = Vec::with_capacity(s.flows.len());
    let mut sources = Vec::with_capacity(s.flows.len());
    let mut flow_names = HashSet::new();
    let mut pinned = Vec::with_capacity(s.flows.len());
    for (i, fs) in s.flows.iter().enumerate() {
        let f = format!("flows[{i}]");
        if !flow_names.insert(fs.name.as_str()) {
            return Err(err(format!("{f}.name"), format!("duplicate flow name '{}'", fs.name)));
        }
        let src = names.node(&fs.src, &format!("{f}.src"))?;
        let dst = names.node(&fs.dst, &format!("{f}.dst"))?;
        if src == dst {
            return Err(err(format!("{f}.dst"), "src and dst must differ"));
        }
        let path = fs
            .path
            .as_ref()
            .map(|p| pinned_path(p, src, dst, &net.ports, port_ids, &s.nodes, &format!("{f}.path")))
            .transpose()?;
        if path.is_none() && routes.port(src, dst) == NO_ROUTE {
            return Err(err(f, format!("no path from '{}' to '{}'", fs.src, fs.dst)));
        }
        if path.is_some() {
            if let TrafficSpec::Web { senders, .. } = &fs.traffic {
                if senders.iter().any(|s| s != &fs.src) {
                    return Err(err(
                        format!("{f}.path"),
                        "cannot pin a web flow whose requests come from other senders",
                    ));
                }
            }
        }
        pinned.push(path);
        let start = seconds(fs.start_s, &format!("{f}.start_s"), false)?;
        let stop = match fs.stop_s {
            Some(v) => seconds(v, &format!("{f}.stop_s"), false)?,
            None => end,
        };
        // Name the field the input sets: stop_s if given, else start_s against the run's end.
        if stop <= start && fs.stop_s.is_some() {
            return Err(err(format!("{f}.stop_s"), "must be later than start_s"));
        }
        if stop <= start {
            return Err(err(format!("{f}.start_s"), "is at or after the end of the run (duration_s)"));
        }
        let tcp = if fs.traffic.is_tcp() {
            Some(tcp_flow(s, names, (net, port_ids), routes, i, (src, dst), stop)?)
        } else {
            if fs.tcp.is_some() {
                return Err(err(format!("{f}.tcp"), "applies to TCP traffic (bulk, transfer, serial, web) only"));
            }
            if fs.mptcp.is_some() {
                return Err(err(format!("{f}.mptcp"), "applies to TCP traffic (bulk, transfer, serial) only"));
            }
            let size = PacketSize::from_spec(&fs.packet_size, &format!("{f}.packet_size"))?;
            let rng = stream(s.seed, domain::SOURCE, i as u64);
            sources.push(UdpSource::new(i as u32, &fs.traffic, size, start, stop, rng, &format!("{f}.traffic"))?);
            None
        };
        flows.push(Flow { name: fs.name.clone(), src, dst, start, stats: FlowStats::default(), tcp });
    }
    Ok((Transport { flows, sources, connections: vec![], subflow_slots: 0, outbox: vec![] }, pinned))
}

/// Flow `i`'s TCP configuration and application, validated.
fn tcp_flow(
    s: &Scenario,
    names: &Names,
    (net, port_ids): (&Network, &PortIds),
    routes: &ForwardingTable,
    i: usize,
    (src, dst): (u32, u32),
    stop: Time,
) -> Result<TcpFlow, ScenarioError> {
    let (fs, f) = (&s.flows[i], format!("flows[{i}]"));
    let app = match &fs.traffic {
        TrafficSpec::Transfer { bytes: 0 } | TrafficSpec::Serial { bytes: 0, .. } => {
            return Err(err(format!("{f}.traffic.bytes"), "must be at least 1"));
        }
        TrafficSpec::Serial { files: 0, .. } => return Err(err(format!("{f}.traffic.files"), "must be at least 1")),
        TrafficSpec::Transfer { bytes } | TrafficSpec::Serial { bytes, .. } if *bytes > MAX_BYTES => {
            let message = format!("must be at most {MAX_BYTES} (2^63 - 1, the int64 columns of the results)");
            return Err(err(format!("{f}.traffic.bytes"), message));
        }
        TrafficSpec::Transfer { bytes } => Application::Transfer { bytes: *bytes },
        TrafficSpec::Serial { files, bytes } => Application::Serial { files: *files, bytes: *bytes },
        TrafficSpec::Web { requests_per_s, mean_segments, shape, max_segments, senders } => web_requests(
            s,
            names,
            routes,
            i,
            src,
            dst,
            stop,
            (*requests_per_s, *mean_segments, *shape),
            *max_segments,
            senders,
        )?,
        _ => Application::Bulk,
    };
    if fs.stop_s.is_some() && !matches!(app, Application::Web(_)) {
        return Err(err(
            format!("{f}.stop_s"),
            "applies to UDP and web traffic only; a TCP transfer ends with its data",
        ));
    }
    let config = TcpConfig::from_spec(&fs.tcp.clone().unwrap_or_default(), &format!("{f}.tcp"))?;
    let mptcp = match &fs.mptcp {
        None => None,
        Some(_) if matches!(app, Application::Web(_)) => {
            return Err(err(format!("{f}.mptcp"), "applies to bulk, transfer and serial traffic, not web"));
        }
        Some(_) if fs.path.is_some() => {
            return Err(err(format!("{f}.path"), "cannot pin a Multipath TCP flow: give mptcp.paths"));
        }
        Some(m) => {
            let field = format!("{f}.mptcp");
            let paths = path_manager::subflow_paths(m, (src, dst), &net.ports, port_ids, &s.nodes, routes, &field)?;
            Some(MultipathFlow { config: MptcpConfig::from_spec(m, &config, &field)?, paths })
        }
    };
    Ok(TcpFlow { config, app, connections: vec![], traced: false, mptcp })
}

/// The scenario's scheduled events as actions on ports and links.
fn actions(
    s: &Scenario,
    names: &Names,
    net: &Network,
    port_ids: &PortIds,
    end: Time,
) -> Result<Vec<(Time, Action)>, ScenarioError> {
    let mut actions = Vec::with_capacity(s.events.len());
    for (i, ev) in s.events.iter().enumerate() {
        let f = format!("events[{i}]");
        let at_s = match ev {
            EventSpec::SetRate { at_s, .. }
            | EventSpec::LinkDown { at_s, .. }
            | EventSpec::LinkUp { at_s, .. }
            | EventSpec::Sleep { at_s, .. }
            | EventSpec::Wake { at_s, .. } => *at_s,
        };
        let at = seconds(at_s, &format!("{f}.at_s"), false)?;
        if at > end {
            return Err(err(format!("{f}.at_s"), "is after the end of the run (duration_s)"));
        }
        let action = match ev {
            EventSpec::SetRate { port, rate_bps: r, .. } => {
                let port = port_ids.named(port, &format!("{f}.port"))?;
                Action::SetRate { port, rate_bps: rate_bps(*r, format!("{f}.rate_bps"))? }
            }
            EventSpec::LinkDown { a, b, .. } | EventSpec::LinkUp { a, b, .. } => {
                names.node(a, &format!("{f}.a"))?;
                names.node(b, &format!("{f}.b"))?;
                let no_link = || err(format!("{f}.b"), format!("no link between '{a}' and '{b}'"));
                let forward = port_ids.0.get(&format!("{a}->{b}")).copied().ok_or_else(no_link)?;
                let back = port_ids.0.get(&format!("{b}->{a}")).copied().ok_or_else(no_link)?;
                Action::SetLink { ports: [forward, back], up: matches!(ev, EventSpec::LinkUp { .. }) }
            }
            EventSpec::Sleep { port, .. } | EventSpec::Wake { port, .. } => {
                let port = port_ids.named(port, &format!("{f}.port"))?;
                if net.ports[port as usize].controller.is_some() {
                    return Err(err(format!("{f}.port"), "is managed by a controller, which decides when it sleeps"));
                }
                Action::SleepMode { port, on: matches!(ev, EventSpec::Sleep { .. }) }
            }
        };
        actions.push((at, action));
    }
    Ok(actions)
}

/// The recorder (marking the flows whose cwnd it traces) and the pcap captures asked for.
fn logs(s: &Scenario, net: &Network, port_ids: &PortIds, flows: &mut [Flow]) -> Result<Logs, ScenarioError> {
    let recorder = s.recorder.as_ref().map(|r| recorder(r, net, port_ids, flows)).transpose()?;
    let port_named = |name: &str, field: &str| port_ids.named(name, field);
    let pcap = crate::pcap::requests(&s.pcap, port_named, &net.ports, &net.node_names)?;
    Ok(Logs { recorder, rate_log: vec![], cwnd_trace: vec![], pcap: crate::pcap::Captures::new(pcap) })
}

fn recorder(
    r: &RecorderSpec,
    net: &Network,
    port_ids: &PortIds,
    flows: &mut [Flow],
) -> Result<Recorder, ScenarioError> {
    let interval = seconds(r.interval_s, "recorder.interval_s", true)?;
    let sampled = if r.ports.is_empty() {
        (0..net.ports.len() as PortId).collect()
    } else {
        r.ports
            .iter()
            .enumerate()
            .map(|(i, name)| port_ids.named(name, &format!("recorder.ports[{i}]")))
            .collect::<Result<Vec<_>, _>>()?
    };
    let by_name: HashMap<&str, usize> = flows.iter().enumerate().map(|(i, f)| (f.name.as_str(), i)).collect();
    let tcp_flow = |name: &String, field: String| -> Result<u32, ScenarioError> {
        match by_name.get(name.as_str()) {
            Some(&i) if flows[i].tcp.is_some() => Ok(i as u32),
            Some(_) => Err(err(field, format!("flow '{name}' is not a TCP flow"))),
            None => Err(err(field, format!("unknown flow '{name}'"))),
        }
    };
    let sampled_flows = r
        .flows
        .iter()
        .enumerate()
        .map(|(i, name)| tcp_flow(name, format!("recorder.flows[{i}]")))
        .collect::<Result<Vec<_>, _>>()?;
    let traced = r
        .trace_flows
        .iter()
        .enumerate()
        .map(|(i, name)| tcp_flow(name, format!("recorder.trace_flows[{i}]")))
        .collect::<Result<Vec<_>, _>>()?;
    for id in traced {
        flows[id as usize].tcp.as_mut().expect("checked").traced = true;
    }
    Ok(Recorder::new(interval, sampled, r.quantities.clone(), sampled_flows, r.flow_quantities.clone()))
}

/// A pinned path (the field `field`, a list of port names) as port ids: known ports, each
/// starting where the previous one ends, from `src` to `dst`, never visiting a node twice.
pub(super) fn pinned_path(
    names: &[String],
    src: u32,
    dst: u32,
    ports: &[Port],
    port_ids: &PortIds,
    nodes: &[NodeSpec],
    field: &str,
) -> Result<Vec<PortId>, ScenarioError> {
    if names.is_empty() {
        return Err(err(field, "must name at least one port (\"from->to\")"));
    }
    let mut path = Vec::with_capacity(names.len());
    let mut visited = vec![src];
    let mut at = src;
    for (k, name) in names.iter().enumerate() {
        let f = format!("{field}[{k}]");
        let id = port_ids.named(name, &f)?;
        let port = &ports[id as usize];
        if port.from != at {
            let node = &nodes[at as usize].name;
            let whence = if k == 0 { "the flow's src" } else { "the previous port's end" };
            return Err(err(f, format!("port '{name}' does not start at {whence}, '{node}'")));
        }
        if visited.contains(&port.to) {
            return Err(err(
                f,
                format!(
                    "port '{name}' returns to node '{}': a path visits each node once",
                    nodes[port.to as usize].name
                ),
            ));
        }
        visited.push(port.to);
        path.push(id);
        at = port.to;
    }
    if at != dst {
        let (end, dst) = (&nodes[at as usize].name, &nodes[dst as usize].name);
        return Err(err(field, format!("ends at '{end}', not at the flow's dst '{dst}'")));
    }
    Ok(path)
}

/// The web-like application of flow `i` (Poisson requests, Pareto sizes), validated.
#[allow(clippy::too_many_arguments)]
fn web_requests(
    s: &Scenario,
    names: &Names,
    routes: &ForwardingTable,
    i: usize,
    src: u32,
    dst: u32,
    stop: Time,
    (rate, mean, shape): (f64, f64, f64),
    max_segments: Option<u64>,
    senders: &[String],
) -> Result<Application, ScenarioError> {
    let f = format!("flows[{i}].traffic");
    // Above one request per picosecond on average, the gaps round to 0 and time stands still.
    if !(rate.is_finite() && rate > 0.0 && rate <= 1e12) {
        let message = format!("must be a positive rate of at most 1e12 per second, got {rate}");
        return Err(err(format!("{f}.requests_per_s"), message));
    }
    // A Pareto law has a finite mean only for α > 1.
    if !(shape.is_finite() && shape > 1.0) {
        return Err(err(format!("{f}.shape"), format!("must be greater than 1 for a finite mean, got {shape}")));
    }
    if !(mean.is_finite() && mean >= 1.0) {
        return Err(err(format!("{f}.mean_segments"), format!("must be at least 1, got {mean}")));
    }
    if max_segments == Some(0) {
        return Err(err(format!("{f}.max_segments"), "must be at least 1"));
    }
    let senders = if senders.is_empty() {
        vec![src]
    } else {
        let mut ids = Vec::with_capacity(senders.len());
        for (k, name) in senders.iter().enumerate() {
            let field = format!("{f}.senders[{k}]");
            let id = names.node(name, &field)?;
            if id == dst || routes.port(id, dst) == NO_ROUTE {
                return Err(err(field, format!("no path from '{name}' to the flow's dst")));
            }
            ids.push(id);
        }
        ids
    };
    Ok(Application::Web(WebRequests {
        gap_s: Exp::new(rate).expect("positive rate"),
        // A Pareto law of shape α and scale x_m has mean x_m·α/(α − 1): x_m = mean·(α − 1)/α.
        scale: mean * (shape - 1.0) / shape,
        shape,
        max_segments,
        senders,
        stop,
        rng: stream(s.seed, domain::APPLICATION, i as u64),
    }))
}

#[allow(clippy::too_many_arguments)]
fn make_port(
    link: &LinkSpec,
    over: Option<&PortOverride>,
    field: &str,
    dir: &str,
    from: u32,
    to: u32,
    delay: Time,
    id: PortId,
    s: &Scenario,
    policies: &mut dyn PolicySource,
) -> Result<Port, ScenarioError> {
    // A direction's own setting if it has one, else the link's, with the path that names it.
    let pick = |own: Option<_>, link_value, name: &str| match own {
        Some(v) => (v, format!("{field}.{dir}.{name}")),
        None => (link_value, format!("{field}.{name}")),
    };
    let (rate, rate_field) = pick(over.and_then(|o| o.rate_bps), link.rate_bps, "rate_bps");
    let (queue, queue_field) = match over.and_then(|o| o.queue.as_ref()) {
        Some(q) => (q, format!("{field}.{dir}.queue")),
        None => (&link.queue, format!("{field}.queue")),
    };
    let (transition, transition_field) = pick(over.and_then(|o| o.transition_s), link.transition_s, "transition_s");
    let (error_rate, error_field) = pick(over.and_then(|o| o.error_rate), link.error_rate, "error_rate");
    let (power, power_field) = match over.and_then(|o| o.power.as_ref()) {
        Some(p) => (Some(p), format!("{field}.{dir}.power")),
        None => (link.power.as_ref(), format!("{field}.power")),
    };
    let (lpi, lpi_field) = match over.and_then(|o| o.lpi.as_ref()) {
        Some(l) => (Some(l), format!("{field}.{dir}.lpi")),
        None => (link.lpi.as_ref(), format!("{field}.lpi")),
    };
    let lpi = lpi.map(|l| Lpi::from_spec(l, &lpi_field)).transpose()?;
    if !(0.0..1.0).contains(&error_rate) {
        return Err(err(error_field, format!("must be a probability in [0, 1), got {error_rate}")));
    }
    let name = format!("{}->{}", s.nodes[from as usize].name, s.nodes[to as usize].name);
    let discipline = QueueDiscipline::from_spec(queue, &queue_field, stream(s.seed, domain::QUEUE, id as u64))?;
    let mut port = Port::new(
        name,
        from,
        to,
        rate_bps(rate, &rate_field)?,
        delay,
        seconds(transition, &transition_field, false)?,
        discipline,
    );
    if error_rate > 0.0 {
        port.error_model =
            Some(Box::new(PacketErrorModel::new(error_rate, stream(s.seed, domain::LINK_ERROR, id as u64))));
    }
    if let Some(spec) = power {
        let model = PowerModel::from_spec(spec, port.rate_bps, &power_field)?;
        if model.max_rate().is_some_and(|max| port.rate_bps > max) {
            return Err(err(power_field, format!("no level carries the port's rate of {} bit/s", port.rate_bps)));
        }
        port.energy = Some(EnergyMeter::new(model, lpi, port.rate_bps));
    }
    if let Some(lpi) = lpi {
        // IEEE 802.3az-2010: an idle port is in low-power idle, from the start of the run.
        port.sleep = Some(Sleep { to_sleep: lpi.sleep, to_wake: lpi.wake, when_idle: true, lpi: true });
        port.sleep_state = SleepState::LowPower;
        port.stats.sleeps = 1;
        if let Some(meter) = &mut port.energy {
            meter.set_mode(0, PowerMode::LowPowerIdle { since: 0 });
        }
    }
    if let Some(spec) = over.and_then(|o| o.available_bandwidth.as_ref()) {
        if over.is_some_and(|o| o.controller.is_some()) {
            return Err(err(
                format!("{field}.{dir}.available_bandwidth"),
                "cannot be combined with a controller: both set the port's rate",
            ));
        }
        let rng = stream(s.seed, domain::AVAILABLE_BANDWIDTH, id as u64);
        port.available_bandwidth =
            Some(Box::new(AvailableBandwidth::new(spec, rng, &format!("{field}.{dir}.available_bandwidth"))?));
    }
    if let Some(spec) = over.and_then(|o| o.controller.as_ref()) {
        let controller_field = format!("{field}.{dir}.controller");
        let controller = spec.build(&port.name, port.transition, port.rate_bps, &controller_field, policies)?;
        if let Some(delta) = controller.sleep_transition() {
            // Sleeping (Nedevschi et al., NSDI 2008): the policy sleeps the port; δ to go to sleep and δ to wake.
            if port.sleep.is_some() {
                return Err(err(
                    controller_field,
                    "cannot put a port to sleep that already uses 802.3az low-power idle (lpi)",
                ));
            }
            port.sleep = Some(Sleep { to_sleep: delta, to_wake: delta, when_idle: false, lpi: false });
        }
        port.controller = Some(controller);
    }
    Ok(port)
}
