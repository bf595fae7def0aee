//! The path manager of Multipath TCP flows: how many subflows a connection opens and which
//! way each goes, decided when the scenario is built.
//!
//! - Explicit `paths`: each checked port by port like `flows[].path`, `subflows_per_path`
//!   subflows pinned to each.
//! - Otherwise the full mesh (Linux `mptcp_fullmesh.c`): a host's interfaces are its ports.
//!   Between two single-homed hosts (a data centre) there are `subflows_per_path` subflows, not
//!   pinned, each following the forwarding tables with its own ECMP hash (Linux's ndiffports
//!   gives each its own source port). With a multihomed end, one path per (local port, remote
//!   port) pair — out of `src` by the local port, the tables' shortest path, into `dst` by the
//!   remote port — and `subflows_per_path` subflows pinned to each. A pair whose tables' path
//!   would pass through either host again opens no subflow.

use super::build::{pinned_path, PortIds};
use crate::error::ScenarioError;
use crate::port::{Port, PortId};
use crate::routing::{ForwardingTable, NO_ROUTE};
use crate::scenario::{MptcpSpec, NodeSpec};
use crate::tcp::mptcp::MAX_SUBFLOWS;

/// Each subflow's path (`None`: the tables, with the subflow's own hash) of a flow from
/// `ends.0` to `ends.1` with the `mptcp` table `spec` (the field `field`).
pub(super) fn subflow_paths(
    spec: &MptcpSpec,
    ends: (u32, u32),
    ports: &[Port],
    port_ids: &PortIds,
    nodes: &[NodeSpec],
    routes: &ForwardingTable,
    field: &str,
) -> Result<Vec<Option<Vec<PortId>>>, ScenarioError> {
    let (src, dst) = ends;
    let per_path = spec.subflows_per_path as usize;
    if per_path == 0 {
        return Err(ScenarioError::new(format!("{field}.subflows_per_path"), "must be at least 1"));
    }
    let paths: Vec<Option<Vec<PortId>>> = match &spec.paths {
        Some(list) if list.is_empty() => {
            return Err(ScenarioError::new(format!("{field}.paths"), "must list at least one path"));
        }
        Some(list) => list
            .iter()
            .enumerate()
            .map(|(j, p)| pinned_path(p, src, dst, ports, port_ids, nodes, &format!("{field}.paths[{j}]")).map(Some))
            .collect::<Result<_, _>>()?,
        None => full_mesh(src, dst, ports, routes),
    };
    if paths.is_empty() {
        let (s, d) = (&nodes[src as usize].name, &nodes[dst as usize].name);
        let message = format!("no pair of '{s}''s and '{d}''s ports has a path between them that avoids both hosts");
        return Err(ScenarioError::new(field, message));
    }
    let count = paths.len() * per_path;
    if count > MAX_SUBFLOWS {
        return Err(ScenarioError::new(
            format!("{field}.subflows_per_path"),
            format!(
                "gives {count} subflows ({} paths × {per_path}); a connection has at most {MAX_SUBFLOWS}",
                paths.len()
            ),
        ));
    }
    Ok(paths.into_iter().flat_map(|p| std::iter::repeat_n(p, per_path)).collect())
}

/// The full mesh's paths: one unpinned path between single-homed hosts, else one per
/// (local port, remote port) pair that has a path avoiding both hosts in between.
fn full_mesh(src: u32, dst: u32, ports: &[Port], routes: &ForwardingTable) -> Vec<Option<Vec<PortId>>> {
    let local: Vec<PortId> = (0..ports.len() as PortId).filter(|&p| ports[p as usize].from == src).collect();
    let remote: Vec<PortId> = (0..ports.len() as PortId).filter(|&p| ports[p as usize].to == dst).collect();
    if local.len() <= 1 && remote.len() <= 1 {
        return vec![None];
    }
    let mut paths = vec![];
    for &l in &local {
        for &r in &remote {
            if let Some(p) = through(l, r, src, dst, ports, routes) {
                paths.push(Some(p));
            }
        }
    }
    paths
}

/// Out by port `l`, the tables' shortest path, in by port `r`; `None` if there is none or it
/// passes through `src` or `dst` between them (a direct link pairs with itself only).
fn through(l: PortId, r: PortId, src: u32, dst: u32, ports: &[Port], routes: &ForwardingTable) -> Option<Vec<PortId>> {
    let (first, last) = (&ports[l as usize], &ports[r as usize]);
    if first.to == dst || last.from == src {
        return (l == r).then(|| vec![l]);
    }
    let mut path = vec![l];
    let mut at = first.to;
    while at != last.from {
        let port = routes.port(at, last.from);
        if port == NO_ROUTE || path.len() > ports.len() {
            return None;
        }
        at = ports[port as usize].to;
        if at == src || at == dst {
            return None;
        }
        path.push(port);
    }
    path.push(r);
    Some(path)
}
