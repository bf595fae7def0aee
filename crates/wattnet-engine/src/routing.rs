//! Forwarding tables: for every router and destination, the output ports on shortest paths;
//! for every host (a node with at most one port), which nodes it believes its port leads to.
//!
//! Each router computes its own row by a single-source Dijkstra over the links it believes
//! are up, carrying the set of first hops along equal-cost paths (for ECMP). Routers may
//! hold different beliefs while a link-state change floods (see `sim/links.rs`).

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use crate::port::{Port, PortId};
use crate::scenario::RoutingMetric;

pub const NO_ROUTE: PortId = PortId::MAX;

/// The directed links a router believes usable, with their routing costs.
pub struct Graph {
    /// The out-links of node x are `links[offsets[x]..offsets[x + 1]]`, as (port, next node,
    /// cost), in port order.
    offsets: Vec<u32>,
    links: Vec<(PortId, u32, u64)>,
    /// Every cost is 1 (the hop metric): shortest paths by breadth-first search.
    unit: bool,
}

impl Graph {
    /// `up[p]` says whether port p is usable. Costs are 1 per hop, or the propagation delay
    /// plus one picosecond (so zero-delay links keep costs positive and ties prefer fewer hops).
    pub fn new(nodes: usize, ports: &[Port], up: impl Fn(PortId) -> bool, metric: RoutingMetric) -> Graph {
        let usable: Vec<PortId> = (0..ports.len() as PortId).filter(|&p| up(p)).collect();
        let mut offsets = vec![0u32; nodes + 1];
        for &p in &usable {
            offsets[ports[p as usize].from as usize + 1] += 1;
        }
        for x in 0..nodes {
            offsets[x + 1] += offsets[x];
        }
        let mut next = offsets.clone();
        let mut links = vec![(0, 0, 0); usable.len()];
        for &p in &usable {
            let port = &ports[p as usize];
            let cost = match metric {
                RoutingMetric::Hops => 1,
                RoutingMetric::Delay => port.delay + 1,
            };
            let slot = &mut next[port.from as usize];
            links[*slot as usize] = (p, port.to, cost);
            *slot += 1;
        }
        Graph { offsets, links, unit: metric == RoutingMetric::Hops }
    }

    /// The usable links out of `node`: (port, next node, cost), in port order.
    #[inline]
    pub fn out(&self, node: u32) -> &[(PortId, u32, u64)] {
        &self.links[self.offsets[node as usize] as usize..self.offsets[node as usize + 1] as usize]
    }

    fn nodes(&self) -> usize {
        self.offsets.len() - 1
    }

    /// Shortest distances from `source` (breadth-first for unit costs, Dijkstra otherwise),
    /// with (for each node) the set of `source`'s adjacency indices that begin a shortest
    /// path to it, as bitset words.
    fn first_hops(&self, source: u32) -> (Vec<u64>, Vec<u64>, usize) {
        let n = self.nodes();
        let words = self.out(source).len().div_ceil(64).max(1);
        let mut dist = vec![u64::MAX; n];
        let mut hops = vec![0u64; n * words];
        dist[source as usize] = 0;
        // The source's own links: each first hop is its own bit.
        let mut first = Vec::with_capacity(self.out(source).len());
        for (i, &(_, to, cost)) in self.out(source).iter().enumerate() {
            let to = to as usize;
            if to == source as usize {
                continue;
            }
            if cost < dist[to] {
                dist[to] = cost;
                hops[to * words..(to + 1) * words].fill(0);
                first.push((cost, to as u32));
            }
            if cost == dist[to] {
                hops[to * words + i / 64] |= 1 << (i % 64);
            }
        }
        // Settles x: offers each neighbour y a path through x. Costs are positive and nodes
        // are settled in order of distance, so every predecessor of y on a shortest path is
        // settled (and its first hops final) before y is.
        let mut relax = |x: usize, d: u64, dist: &mut [u64], reached: &mut dyn FnMut(u64, u32)| {
            for &(_, y, cost) in self.out(x as u32) {
                let (y, nd) = (y as usize, d + cost);
                if y == source as usize {
                    continue;
                }
                if nd < dist[y] {
                    dist[y] = nd;
                    hops.copy_within(x * words..(x + 1) * words, y * words);
                    reached(nd, y as u32);
                } else if nd == dist[y] {
                    for w in 0..words {
                        hops[y * words + w] |= hops[x * words + w];
                    }
                }
            }
        };
        if self.unit {
            // Every cost is 1: a FIFO settles nodes in order of distance.
            let mut queue: VecDeque<u32> = first.iter().map(|&(_, to)| to).collect();
            while let Some(x) = queue.pop_front() {
                let d = dist[x as usize];
                relax(x as usize, d, &mut dist, &mut |_, y| queue.push_back(y));
            }
        } else {
            let mut heap: BinaryHeap<Reverse<(u64, u32)>> = first.into_iter().map(Reverse).collect();
            while let Some(Reverse((d, x))) = heap.pop() {
                if d > dist[x as usize] {
                    continue;
                }
                relax(x as usize, d, &mut dist, &mut |nd, y| heap.push(Reverse((nd, y))));
            }
        }
        (dist, hops, words)
    }
}

/// A router's table entry that names a group of equal-cost ports rather than one port.
const GROUP: u32 = 1 << 31;

/// `row_of`'s mark for a node with at most one port, which needs no table.
const HOST: u32 = u32::MAX;

/// One router's table: one entry per destination, the next-hop port itself when there is
/// one (or `NO_ROUTE`), else `GROUP | g` for the g-th group of equal-cost ports. A router
/// has few distinct groups (a FatTree edge switch: its uplinks), so each is stored once.
#[derive(Clone, Default, PartialEq)]
struct Row {
    next: Vec<u32>,
    /// Group g is `group_ports[group_starts[g]..group_starts[g + 1]]`.
    group_starts: Vec<u32>,
    group_ports: Vec<PortId>,
}

impl Row {
    #[inline]
    fn next_hops(&self, dst: usize) -> &[PortId] {
        let entry = &self.next[dst];
        match *entry {
            NO_ROUTE => &[],
            e if e & GROUP != 0 => {
                let g = (e & !GROUP) as usize;
                &self.group_ports[self.group_starts[g] as usize..self.group_starts[g + 1] as usize]
            }
            _ => std::slice::from_ref(entry),
        }
    }
}

/// Which nodes a host believes it reaches: the connected components of one graph (links go
/// down and up in both directions at once, so reachability is symmetric). Hosts that believe
/// the same links usable share one.
struct Components {
    /// The usable ports of the graph these are the components of, in `Graph` order.
    usable: Vec<PortId>,
    label: Vec<u32>,
    /// Hosts that use these components.
    users: u32,
}

impl Components {
    fn of(graph: &Graph) -> Components {
        let n = graph.nodes();
        let mut label = vec![u32::MAX; n];
        let mut stack = vec![];
        for root in 0..n as u32 {
            if label[root as usize] != u32::MAX {
                continue;
            }
            label[root as usize] = root;
            stack.push(root);
            while let Some(x) = stack.pop() {
                for &(_, y, _) in graph.out(x) {
                    if label[y as usize] == u32::MAX {
                        label[y as usize] = root;
                        stack.push(y);
                    }
                }
            }
        }
        Components { usable: graph.links.iter().map(|&(p, _, _)| p).collect(), label, users: 0 }
    }

    #[inline]
    fn joined(&self, a: u32, b: u32) -> bool {
        self.label[a as usize] == self.label[b as usize]
    }
}

/// Every node's forwarding state: a table per router, and for a host (a node with at most
/// one port, which can only send through it) its port and which nodes it believes reachable.
pub struct ForwardingTable {
    nodes: usize,
    ecmp: bool,
    /// Per node, its row in `rows`, or `HOST`.
    row_of: Vec<u32>,
    rows: Vec<Row>,
    /// Per node, a host's port (`NO_ROUTE` for a router or a node without ports).
    host_port: Vec<PortId>,
    /// Per node, the index in `components` of what a host believes.
    host_view: Vec<u32>,
    components: Vec<Components>,
}

impl ForwardingTable {
    /// Every node's table from the same graph.
    pub fn shortest_paths(nodes: usize, ports: &[Port], metric: RoutingMetric, ecmp: bool) -> ForwardingTable {
        let mut out_ports = vec![0u32; nodes];
        let mut host_port = vec![NO_ROUTE; nodes];
        for (id, p) in ports.iter().enumerate() {
            out_ports[p.from as usize] += 1;
            host_port[p.from as usize] = id as PortId;
        }
        let mut row_of = vec![HOST; nodes];
        let mut routers = 0;
        for node in 0..nodes {
            if out_ports[node] > 1 {
                row_of[node] = routers;
                host_port[node] = NO_ROUTE;
                routers += 1;
            }
        }
        let graph = Graph::new(nodes, ports, |_| true, metric);
        let mut everything = Components::of(&graph);
        everything.users = nodes as u32 - routers;
        let mut table = ForwardingTable {
            nodes,
            ecmp,
            row_of,
            rows: vec![Row::default(); routers as usize],
            host_port,
            host_view: vec![0; nodes],
            components: vec![everything],
        };
        for node in 0..nodes as u32 {
            if table.row_of[node as usize] != HOST {
                table.install(node, &graph, ports);
            }
        }
        table
    }

    /// Recomputes `node`'s table from `graph`; returns how many destinations changed next hops.
    /// Without ECMP the lowest next-hop node id wins among equal-cost hops (docs/forwarding.md),
    /// then the lowest port id.
    pub fn install(&mut self, node: u32, graph: &Graph, ports: &[Port]) -> usize {
        if self.row_of[node as usize] == HOST {
            return self.install_host(node, graph);
        }
        let (dist, hops, words) = graph.first_hops(node);
        let adj = graph.out(node);
        let mut row = Row { next: Vec::with_capacity(self.nodes), ..Row::default() };
        let mut groups: std::collections::HashMap<Vec<PortId>, u32> = Default::default();
        let mut hop_ports = vec![];
        for dst in 0..self.nodes {
            if dst == node as usize || dist[dst] == u64::MAX {
                row.next.push(NO_ROUTE);
                continue;
            }
            hop_ports.clear();
            for (w, &word) in hops[dst * words..(dst + 1) * words].iter().enumerate() {
                let mut bits = word;
                while bits != 0 {
                    hop_ports.push(adj[w * 64 + bits.trailing_zeros() as usize].0);
                    bits &= bits - 1;
                }
            }
            hop_ports.sort_unstable_by_key(|&p| (ports[p as usize].to, p));
            if hop_ports.len() == 1 || !self.ecmp {
                row.next.push(hop_ports[0]);
                continue;
            }
            let g = *groups.entry(hop_ports.clone()).or_insert_with(|| {
                row.group_starts.push(row.group_ports.len() as u32);
                row.group_ports.extend_from_slice(&hop_ports);
                row.group_starts.len() as u32 - 1
            });
            row.next.push(GROUP | g);
        }
        row.group_starts.push(row.group_ports.len() as u32);
        let slot = &mut self.rows[self.row_of[node as usize] as usize];
        let old = std::mem::replace(slot, row);
        if old.next.is_empty() {
            return (0..self.nodes).filter(|&d| !slot.next_hops(d).is_empty()).count();
        }
        (0..self.nodes).filter(|&d| old.next_hops(d) != slot.next_hops(d)).count()
    }

    /// A host believes what `graph` says about which nodes its port leads to.
    fn install_host(&mut self, node: u32, graph: &Graph) -> usize {
        let old = self.host_view[node as usize];
        let same = |c: &Components| {
            c.usable.len() == graph.links.len() && c.usable.iter().zip(&graph.links).all(|(a, b)| *a == b.0)
        };
        let new = match self.components.iter().position(|c| c.users > 0 && same(c)) {
            Some(i) => i,
            None => {
                let fresh = Components::of(graph);
                match self.components.iter().position(|c| c.users == 0) {
                    Some(i) => {
                        self.components[i] = fresh;
                        i
                    }
                    None => {
                        self.components.push(fresh);
                        self.components.len() - 1
                    }
                }
            }
        };
        self.components[old as usize].users -= 1;
        self.components[new].users += 1;
        self.host_view[node as usize] = new as u32;
        let (before, after) = (&self.components[old as usize], &self.components[new]);
        if old as usize == new {
            return 0;
        }
        let reaches = |c: &Components, d: usize| {
            d != node as usize && self.host_port[node as usize] != NO_ROUTE && c.joined(node, d as u32)
        };
        (0..self.nodes).filter(|&d| reaches(before, d) != reaches(after, d)).count()
    }

    /// The port towards `dst`; with several equal-cost ports, the one `flow_hash` picks
    /// (hash-modulo, RFC 2992 §2), mixed with the router's id first: the same hash modulo k
    /// at every router would correlate the choices along a path (in FatTree(4), the edge's
    /// choice of aggregation switch would fix the aggregation switch's choice of core, and
    /// two of the four cores would carry nothing).
    #[inline]
    pub fn lookup(&self, node: u32, dst: u32, flow_hash: u64) -> PortId {
        let r = self.row_of[node as usize];
        if r == HOST {
            let view = &self.components[self.host_view[node as usize] as usize];
            return if node != dst && view.joined(node, dst) { self.host_port[node as usize] } else { NO_ROUTE };
        }
        let row = &self.rows[r as usize];
        match row.next[dst as usize] {
            e if e & GROUP == 0 || e == NO_ROUTE => e,
            _ => {
                let hops = row.next_hops(dst as usize);
                hops[(router_hash(flow_hash, node) % hops.len() as u64) as usize]
            }
        }
    }

    /// The first of the ports towards `dst` (the only one without ECMP).
    pub fn port(&self, node: u32, dst: u32) -> PortId {
        self.lookup(node, dst, 0)
    }

    /// The number of equal-cost next hops from `node` towards `dst`.
    pub fn fan_out(&self, node: u32, dst: u32) -> usize {
        match self.row_of[node as usize] {
            HOST => (self.lookup(node, dst, 0) != NO_ROUTE) as usize,
            r => self.rows[r as usize].next_hops(dst as usize).len(),
        }
    }

    /// Forgets one route of a router, as a router with a stale table would (tests of the drop path).
    #[cfg(test)]
    pub fn remove(&mut self, node: u32, dst: u32) {
        let r = self.row_of[node as usize];
        self.rows[r as usize].next[dst as usize] = NO_ROUTE;
    }
}

/// FNV-1a over the fields that identify a flow, so a flow keeps one path (RFC 2992).
pub fn flow_hash(src: u32, dst: u32, flow: u32, conn: u32) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for v in [src, dst, flow, conn] {
        for b in v.to_le_bytes() {
            h ^= b as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// A flow's hash as one router sees it: salted with the router's id and finalised with
/// MurmurHash3's fmix64, so that every bit depends on every input bit (FNV-1a's lowest bit
/// is only the parity of its input bytes' lowest bits).
#[inline]
fn router_hash(flow_hash: u64, node: u32) -> u64 {
    let mut k = flow_hash ^ (node as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    k ^= k >> 33;
    k = k.wrapping_mul(0xff51_afd7_ed55_8ccd);
    k ^= k >> 33;
    k = k.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    k ^ (k >> 33)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::admission::Limit;
    use crate::queue::QueueDiscipline;

    fn port(from: u32, to: u32, delay: u64) -> Port {
        let q = QueueDiscipline::drop_tail(Limit::Packets(10), true);
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
        let hops = ForwardingTable::shortest_paths(4, &ports, RoutingMetric::Hops, false);
        assert_eq!(ports[hops.port(0, 2) as usize].to, 2);
        let delay = ForwardingTable::shortest_paths(4, &ports, RoutingMetric::Delay, false);
        // 0->1->2 (2) and 0->3->2 (2) tie; the lowest next hop, node 1, wins.
        assert_eq!(ports[delay.port(0, 2) as usize].to, 1);
        assert_eq!(ports[delay.port(3, 1) as usize].to, 0);
    }

    #[test]
    fn ecmp_keeps_every_equal_cost_next_hop() {
        let ports = square();
        let table = ForwardingTable::shortest_paths(4, &ports, RoutingMetric::Delay, true);
        assert_eq!(table.fan_out(0, 2), 2);
        let picks: std::collections::BTreeSet<u32> =
            (0..64).map(|f| ports[table.lookup(0, 2, flow_hash(0, 2, f, 0)) as usize].to).collect();
        assert_eq!(picks, [1, 3].into());
    }

    #[test]
    fn routers_in_series_choose_independently() {
        // 0 → {1, 2} → {3, 4} → 5: four equal paths. Hashing the same value modulo 2 at 0 and
        // again at 1 or 2 would use two of them; salted per router, 256 flows use all four
        // about equally.
        let mut ports = vec![];
        for (a, b) in [(0, 1), (0, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 5), (4, 5)] {
            ports.push(port(a, b, 1));
        }
        let table = ForwardingTable::shortest_paths(6, &ports, RoutingMetric::Hops, true);
        let mut paths = std::collections::BTreeMap::<(u32, u32), u32>::new();
        for f in 0..256 {
            let hash = flow_hash(0, 5, f, 0);
            let second = ports[table.lookup(0, 5, hash) as usize].to;
            let third = ports[table.lookup(second, 5, hash) as usize].to;
            *paths.entry((second, third)).or_default() += 1;
        }
        assert_eq!(paths.len(), 4, "{paths:?}");
        assert!(paths.values().all(|&n| n >= 40), "{paths:?}");
    }

    #[test]
    fn a_router_routes_around_a_link_it_knows_is_down() {
        let ports = square();
        let mut table = ForwardingTable::shortest_paths(4, &ports, RoutingMetric::Hops, false);
        // The diagonal (ports 8 and 9) goes down: 0 reaches 2 via 1 now; only 0 and 2 change.
        let graph = Graph::new(4, &ports, |p| p != 8 && p != 9, RoutingMetric::Hops);
        assert_eq!(table.install(0, &graph, &ports), 1);
        assert_eq!(ports[table.port(0, 2) as usize].to, 1);
        assert_eq!(table.install(1, &graph, &ports), 0);
    }

    /// Every next hop of every router, towards every destination.
    fn all_next_hops(table: &ForwardingTable, nodes: u32) -> Vec<Vec<PortId>> {
        let n = nodes;
        (0..n * n)
            .map(|i| match table.row_of[(i / n) as usize] {
                HOST => vec![table.port(i / n, i % n)].into_iter().filter(|&p| p != NO_ROUTE).collect(),
                r => table.rows[r as usize].next_hops((i % n) as usize).to_vec(),
            })
            .collect()
    }

    #[test]
    fn breadth_first_hop_counts_agree_with_dijkstra_on_equal_delays() {
        // A 6×6 torus (many equal-cost paths) and K(2, 70): nodes 36 and 37 joined through 70
        // middle nodes, so 70 equal next hops that span two bitset words.
        let mut ports = vec![];
        let mut link = |a: u32, b: u32| {
            ports.push(port(a, b, 7));
            ports.push(port(b, a, 7));
        };
        for r in 0..6 {
            for c in 0..6 {
                link(r * 6 + c, r * 6 + (c + 1) % 6);
                link(r * 6 + c, ((r + 1) % 6) * 6 + c);
            }
        }
        for m in 38..108 {
            link(36, m);
            link(m, 37);
        }
        link(0, 36);
        for ecmp in [false, true] {
            let bfs = ForwardingTable::shortest_paths(108, &ports, RoutingMetric::Hops, ecmp);
            let dijkstra = ForwardingTable::shortest_paths(108, &ports, RoutingMetric::Delay, ecmp);
            assert_eq!(all_next_hops(&bfs, 108), all_next_hops(&dijkstra, 108));
            assert_eq!(bfs.fan_out(36, 37), if ecmp { 70 } else { 1 });
            // Opposite corners of the torus: 2 ways in each of the two dimensions.
            assert_eq!(bfs.fan_out(0, 21), if ecmp { 4 } else { 1 });
        }
    }

    #[test]
    fn unreachable_destinations_have_no_route() {
        let ports = vec![port(0, 1, 1), port(1, 0, 1)];
        let table = ForwardingTable::shortest_paths(3, &ports, RoutingMetric::Hops, false);
        assert_eq!(table.port(0, 2), NO_ROUTE);
        assert_ne!(table.port(0, 1), NO_ROUTE);
    }

    #[test]
    fn hosts_need_no_table_and_learn_which_nodes_they_reach() {
        // Routers 0 and 1 joined; hosts 2 and 4 on router 0, host 3 on router 1.
        let mut ports = vec![];
        for (a, b) in [(0, 1), (2, 0), (3, 1), (4, 0)] {
            ports.push(port(a, b, 1));
            ports.push(port(b, a, 1));
        }
        let mut table = ForwardingTable::shortest_paths(5, &ports, RoutingMetric::Hops, true);
        assert_eq!(table.rows.len(), 2, "rows for the two routers only");
        for dst in [0, 1, 3, 4] {
            assert_eq!(table.port(2, dst), 2, "host 2 sends everything through its port 2->0");
        }
        assert_eq!(table.port(2, 2), NO_ROUTE);
        // The routers' link (ports 0 and 1) goes down: host 2 now reaches 0 and 4, no longer
        // 1 and 3; host 4 believes the same and shares what host 2 learned.
        let graph = Graph::new(5, &ports, |p| p > 1, RoutingMetric::Hops);
        assert_eq!(table.install(2, &graph, &ports), 2);
        assert_eq!((table.port(2, 1), table.port(2, 3), table.port(2, 4)), (NO_ROUTE, NO_ROUTE, 2));
        assert_eq!(table.install(4, &graph, &ports), 2);
        assert_eq!(table.components.iter().filter(|c| c.users > 0).count(), 2, "the initial view and the new one");
        assert_eq!(table.install(4, &graph, &ports), 0);
    }
}
