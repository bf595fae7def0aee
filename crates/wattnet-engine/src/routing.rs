//! Forwarding tables: for every (node, destination) the output port on a shortest path.

use petgraph::algo::dijkstra;
use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::{EdgeRef, Reversed};

use crate::port::{Port, PortId};
use crate::scenario::RoutingMetric;

pub const NO_ROUTE: PortId = PortId::MAX;

/// A dense nodes × nodes table of output ports.
pub struct ForwardingTable {
    nodes: usize,
    next: Vec<PortId>,
}

impl ForwardingTable {
    /// Shortest paths by hop count or by propagation delay. Among equal-cost next hops the
    /// lowest next-hop node id wins (routing.md §3 default), then the lowest port id.
    pub fn shortest_paths(nodes: usize, ports: &[Port], metric: RoutingMetric) -> ForwardingTable {
        let mut graph = DiGraph::<(), u64>::with_capacity(nodes, ports.len());
        for _ in 0..nodes {
            graph.add_node(());
        }
        for p in ports {
            let cost = match metric {
                RoutingMetric::Hops => 1,
                RoutingMetric::Delay => p.delay,
            };
            graph.add_edge(NodeIndex::new(p.from as usize), NodeIndex::new(p.to as usize), cost);
        }
        let mut out_ports: Vec<Vec<PortId>> = vec![vec![]; nodes];
        for (id, p) in ports.iter().enumerate() {
            out_ports[p.from as usize].push(id as PortId);
        }
        let mut next = vec![NO_ROUTE; nodes * nodes];
        for dst in 0..nodes {
            // Distances *to* dst: Dijkstra from dst over the reversed graph.
            let dist = dijkstra(Reversed(&graph), NodeIndex::new(dst), None, |e| *e.weight());
            for node in 0..nodes {
                if node == dst {
                    continue;
                }
                let Some(&d_node) = dist.get(&NodeIndex::new(node)) else { continue };
                let best = out_ports[node]
                    .iter()
                    .copied()
                    .filter(|&pid| {
                        let p = &ports[pid as usize];
                        let cost = match metric {
                            RoutingMetric::Hops => 1,
                            RoutingMetric::Delay => p.delay,
                        };
                        dist.get(&NodeIndex::new(p.to as usize)).is_some_and(|&d| d + cost == d_node)
                    })
                    .min_by_key(|&pid| (ports[pid as usize].to, pid));
                if let Some(pid) = best {
                    next[node * nodes + dst] = pid;
                }
            }
        }
        ForwardingTable { nodes, next }
    }

    #[inline]
    pub fn port(&self, node: u32, dst: u32) -> PortId {
        self.next[node as usize * self.nodes + dst as usize]
    }

    /// Forgets one route, as a router with a stale table would (tests of the drop path).
    #[cfg(test)]
    pub fn remove(&mut self, node: u32, dst: u32) {
        self.next[node as usize * self.nodes + dst as usize] = NO_ROUTE;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::queue::{BufferLimit, Limit, QueueDiscipline};

    fn port(from: u32, to: u32, delay: u64) -> Port {
        let q = QueueDiscipline::DropTail(BufferLimit { limit: Limit::Packets(10), count_in_service: true });
        Port::new(format!("{from}->{to}"), from, to, 1_000_000, delay, 0, q)
    }

    /// A square 0-1-2-3-0 plus a slow diagonal 0-2.
    fn square() -> Vec<Port> {
        let mut ports = vec![];
        for (a, b, d) in [(0, 1, 1), (1, 2, 1), (2, 3, 1), (3, 0, 1), (0, 2, 10)] {
            ports.push(port(a, b, d));
            ports.push(port(b, a, d));
        }
        ports
    }

    #[test]
    fn hop_count_takes_the_diagonal_and_delay_avoids_it() {
        let ports = square();
        let hops = ForwardingTable::shortest_paths(4, &ports, RoutingMetric::Hops);
        assert_eq!(ports[hops.port(0, 2) as usize].to, 2);
        let delay = ForwardingTable::shortest_paths(4, &ports, RoutingMetric::Delay);
        // 0->1->2 (2) and 0->3->2 (2) tie; the lowest next hop, node 1, wins.
        assert_eq!(ports[delay.port(0, 2) as usize].to, 1);
        assert_eq!(ports[delay.port(3, 1) as usize].to, 0);
    }

    #[test]
    fn unreachable_destinations_have_no_route() {
        let ports = vec![port(0, 1, 1), port(1, 0, 1)];
        let table = ForwardingTable::shortest_paths(3, &ports, RoutingMetric::Hops);
        assert_eq!(table.port(0, 2), NO_ROUTE);
        assert_ne!(table.port(0, 1), NO_ROUTE);
    }
}
