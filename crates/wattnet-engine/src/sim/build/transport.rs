//! The traffic's builder: flows, their UDP sources and TCP settings, and pinned paths.

use std::collections::HashSet;

use crate::error::{ScenarioError, MAX_BYTES};
use crate::port::{Port, PortId};
use crate::rng::{domain, stream};
use crate::routing::{ForwardingTable, NO_ROUTE};
use crate::scenario::{NodeSpec, Scenario, TrafficSpec};
use rand_distr::Exp;

use super::{err, seconds, Names, PortIds};
use crate::sim::path_manager;
use crate::sim::{Application, Flow, FlowStats, MultipathFlow, Network, TcpFlow, Transport, WebRequests};
use crate::tcp::mptcp::MptcpConfig;
use crate::tcp::TcpConfig;
use crate::time::Time;
use crate::traffic::{PacketSize, UdpSource};

/// Per flow, the ports it is pinned to, if it is.
type PinnedPaths = Vec<Option<Vec<PortId>>>;

/// The flows, with their UDP sources, and each flow's pinned path if it has one.
pub(super) fn transport(
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
        flows.push(Flow { name: fs.name.clone(), src, dst, start, tcp });
    }
    let flow_stats = vec![FlowStats::default(); flows.len()];
    Ok((Transport { flows, flow_stats, sources, connections: vec![], subflow_slots: 0, outbox: vec![] }, pinned))
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

/// A pinned path (the field `field`, a list of port names) as port ids: known ports, each
/// starting where the previous one ends, from `src` to `dst`, never visiting a node twice.
pub(in crate::sim) fn pinned_path(
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
