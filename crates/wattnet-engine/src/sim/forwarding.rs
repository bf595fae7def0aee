//! Which port next: the one answer for every packet at every node.
//!
//! Each direction of traffic (a UDP flow; each direction of a TCP connection) has a path: a
//! list of (node, port) hops. Pinned paths come from the scenario (`flows[i].path`); the
//! others are computed once from the forwarding tables, with the flow hash computed once, and
//! so ECMP's choice made once per path and routing epoch. A packet carries its path's slot,
//! the generation of the path it was given and its hop index, so a hop is an index increment
//! (htsim's packets carry their route the same way).
//!
//! Routers' tables still decide: when a router installs a table, every cached path through it
//! whose next port there changes is marked stale (the next packet recomputes it), and packets
//! already on the way, whose generation is now old, look up each remaining hop in the tables
//! as real routers would, so transient loops, TTL expiry and no-route drops happen exactly as
//! without the cache. A path the tables do not complete (no route, or a loop) is not cached:
//! its packets look up every hop.

use super::{Routing, Simulation};
use crate::packet::{Hot, Packet, NO_CONNECTION};
use crate::port::{Port, PortId};
use crate::routing::{flow_hash, ForwardingTable, NO_ROUTE};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PathState {
    /// A connection's slot before its first packet.
    Unmade,
    /// Not computed for the current tables: the next packet sent computes it.
    Stale,
    /// A loop-free path to the destination, as the tables gave it.
    Cached,
    /// The tables lead to no route or into a loop: packets look up every hop.
    LookedUp,
    /// Given by the scenario: the tables are never consulted.
    Pinned,
}

struct Path {
    src: u32,
    dst: u32,
    /// The ECMP hash of the flow, computed once (0 without ECMP).
    hash: u64,
    /// (node, output port) from the source on; for `LookedUp`, the hops up to the missing
    /// route (its port `NO_ROUTE`) or around the loop, so that a table change there is seen.
    hops: Vec<(u32, PortId)>,
    state: PathState,
    /// Bumped whenever the path changes; packets of an older generation look hops up.
    generation: u32,
}

/// How many of a path's first ports its `Ports` keep: a FatTree path has six hops.
const FIRST_PORTS: usize = 6;

/// What a hop reads of its packet's path, in one aligned half cache line: whether the path
/// stands (cached or pinned) and for which generation, and its first ports. A copy of the
/// path's own state, published by `Paths::publish` whenever the path changes, so that a hop
/// touches this and not the path with its separately allocated hops.
#[derive(Clone, Copy, Default)]
#[repr(C, align(32))]
struct Ports {
    stands: bool,
    generation: u32,
    first: [PortId; FIRST_PORTS],
}

/// Every traffic direction's path.
pub struct Paths {
    slots: Vec<Path>,
    /// Per slot, what its packets' hops read (`Ports`).
    ports: Vec<Ports>,
    /// Flow f's UDP packets use slot f; subflow s of a connection whose subflows start at
    /// `base` sends its data over slot `flows + 2(base + s)`, its ACKs over the next.
    flows: u32,
    /// The scenario's pinned paths, per flow (as ports from its source to its destination).
    pinned: Vec<Option<Vec<PortId>>>,
    /// False in tests only: every packet looks up every hop, the reference the cache must match.
    #[cfg(test)]
    pub cache: bool,
}

impl Paths {
    /// Slots for `flows` flows, `pinned[f]` the ports flow f is pinned to, if any.
    pub fn new(flows: &[(u32, u32)], pinned: Vec<Option<Vec<PortId>>>, ports: &[Port], ecmp: bool) -> Paths {
        let mut paths = Paths {
            slots: Vec::with_capacity(flows.len()),
            ports: Vec::with_capacity(flows.len()),
            flows: flows.len() as u32,
            pinned,
            #[cfg(test)]
            cache: true,
        };
        for (f, &(src, dst)) in flows.iter().enumerate() {
            let hash = if ecmp { flow_hash(src, dst, f as u32, NO_CONNECTION) } else { 0 };
            let pinned = paths.pinned[f].as_deref();
            paths.slots.push(Path::new(src, dst, hash, pinned, ports));
            paths.ports.push(Ports::default());
            paths.publish(f);
        }
        paths
    }

    /// Copies slot `slot`'s state into what its hops read.
    fn publish(&mut self, slot: usize) {
        let path = &self.slots[slot];
        let mut first = [NO_ROUTE; FIRST_PORTS];
        for (port, &(_, hop)) in first.iter_mut().zip(&path.hops) {
            *port = hop;
        }
        let stands = matches!(path.state, PathState::Cached | PathState::Pinned);
        self.ports[slot] = Ports { stands, generation: path.generation, first };
    }

    /// The slot of packets of direction `d`. A connection's slots are made by its first
    /// packets; `subflow_path` gives a subflow pinned to ports (a Multipath TCP path) its ports,
    /// and is asked only then, so that a packet of a made slot reads nothing more.
    fn slot<'a>(
        &mut self,
        d: &Direction,
        subflow_path: impl FnOnce() -> Option<&'a [PortId]>,
        ports: &[Port],
        ecmp: bool,
    ) -> u32 {
        let Direction { flow, conn, subflow, base, src, dst, sender } = *d;
        if conn == NO_CONNECTION {
            return flow;
        }
        let slot = self.flows + 2 * (base + subflow as u32) + (!sender) as u32;
        // A made path's state is published in `ports`, which its hops read anyway.
        if self.ports.get(slot as usize).is_some_and(|p| p.stands) {
            return slot;
        }
        if self.slots.len() <= slot as usize {
            self.slots.resize_with(slot as usize + 1, Path::unmade);
            self.ports.resize(slot as usize + 1, Ports::default());
        }
        if self.slots[slot as usize].state == PathState::Unmade {
            let hash = if ecmp { subflow_hash(flow_hash(src, dst, flow, conn), subflow) } else { 0 };
            let pinned = subflow_path().or(self.pinned[flow as usize].as_deref());
            // ACKs go back over the pinned path's links: a link's two ports are 2i and 2i + 1.
            let reverse: Option<Vec<PortId>> = pinned.map(|p| p.iter().rev().map(|&port| port ^ 1).collect());
            let pinned = if sender { pinned } else { reverse.as_deref() };
            self.slots[slot as usize] = Path::new(src, dst, hash, pinned, ports);
            self.publish(slot as usize);
        }
        slot
    }

    /// Marks stale every cached path whose port at `node` (at every node: `None`) is no
    /// longer the tables' answer.
    pub fn invalidate(&mut self, node: Option<u32>, routes: &ForwardingTable) {
        for slot in 0..self.slots.len() {
            let path = &mut self.slots[slot];
            if !matches!(path.state, PathState::Cached | PathState::LookedUp) {
                continue;
            }
            let moved = path
                .hops
                .iter()
                .any(|&(n, port)| node.is_none_or(|x| x == n) && routes.lookup(n, path.dst, path.hash) != port);
            if moved {
                path.state = PathState::Stale;
                path.generation = path.generation.wrapping_add(1);
                self.publish(slot);
            }
        }
    }
}

/// One direction of a connection's subflow (or a UDP flow): what its path depends on.
struct Direction {
    flow: u32,
    conn: u32,
    subflow: u16,
    /// The connection's first path slot.
    base: u32,
    src: u32,
    dst: u32,
    sender: bool,
}

/// Subflow `subflow`'s ECMP hash from its connection's: each subflow of a Multipath TCP
/// connection spreads over the equal-cost paths on its own (as Linux's ndiffports gives each
/// a source port); subflow 0 keeps the connection's hash.
pub(super) fn subflow_hash(conn_hash: u64, subflow: u16) -> u64 {
    conn_hash ^ (subflow as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

impl Path {
    fn unmade() -> Path {
        Path { src: 0, dst: 0, hash: 0, hops: vec![], state: PathState::Unmade, generation: 0 }
    }

    fn new(src: u32, dst: u32, hash: u64, pinned: Option<&[PortId]>, ports: &[Port]) -> Path {
        match pinned {
            Some(p) => Path {
                src,
                dst,
                hash,
                hops: p.iter().map(|&port| (ports[port as usize].from, port)).collect(),
                state: PathState::Pinned,
                generation: 0,
            },
            None => Path { src, dst, hash, hops: vec![], state: PathState::Stale, generation: 0 },
        }
    }

    /// Follows the tables from the source: a complete loop-free path is cached.
    fn compute(&mut self, routes: &ForwardingTable, ports: &[Port], nodes: usize) {
        self.hops.clear();
        let mut node = self.src;
        self.state = loop {
            let port = routes.lookup(node, self.dst, self.hash);
            self.hops.push((node, port));
            if port == NO_ROUTE {
                break PathState::LookedUp;
            }
            node = ports[port as usize].to;
            if node == self.dst {
                break PathState::Cached;
            }
            // A loop-free path visits each node once.
            if self.hops.len() >= nodes {
                break PathState::LookedUp;
            }
        };
    }
}

impl Simulation {
    /// The path slot and generation of a packet leaving its source (computing the path if
    /// stale), read from the packet before it is stored: reading a record just written would
    /// wait for its line.
    pub(super) fn path_of(&mut self, node: u32, p: &Packet) -> (u32, u32) {
        let mut d =
            Direction { flow: p.flow, conn: p.conn, subflow: p.subflow, base: 0, src: node, dst: p.dst, sender: true };
        if p.conn != NO_CONNECTION {
            let c = &self.transport.connections[p.conn as usize];
            d.sender = c.sender_node == node;
            d.base = c.path_slot;
        }
        let (flows, ports, ecmp) = (&self.transport.flows, &self.net.ports, self.routing.ecmp);
        let subflow_path = || {
            let tcp = flows[d.flow as usize].tcp.as_ref().expect("TCP flow");
            tcp.mptcp.as_ref().and_then(|m| m.paths[d.subflow as usize].as_deref())
        };
        let paths = &mut self.routing.paths;
        let slot = paths.slot(&d, subflow_path, ports, ecmp);
        if !paths.ports[slot as usize].stands {
            let path = &mut paths.slots[slot as usize];
            if path.state == PathState::Stale {
                path.compute(&self.routing.routes, ports, self.net.node_names.len());
                #[cfg(test)]
                if !paths.cache && path.state == PathState::Cached {
                    path.state = PathState::LookedUp;
                }
                paths.publish(slot as usize);
            }
        }
        (slot, paths.ports[slot as usize].generation)
    }

    /// The ports subflow `s` of connection `id` takes from its sender: its pinned path, or the
    /// tables' path for its hash now (empty if they do not lead to the receiver).
    pub(super) fn subflow_ports(&self, id: u32, c: &super::Connection, s: usize) -> Vec<PortId> {
        let tcp = self.transport.flows[c.flow as usize].tcp.as_ref().expect("TCP flow");
        if let Some(p) = tcp.mptcp.as_ref().and_then(|m| m.paths[s].as_ref()) {
            return p.clone();
        }
        let conn_hash = flow_hash(c.sender_node, c.receiver_node, c.flow, id);
        let hash = if self.routing.ecmp { subflow_hash(conn_hash, s as u16) } else { 0 };
        let mut path = Path::new(c.sender_node, c.receiver_node, hash, None, &self.net.ports);
        path.compute(&self.routing.routes, &self.net.ports, self.net.node_names.len());
        match path.state {
            PathState::Cached => path.hops.iter().map(|&(_, p)| p).collect(),
            _ => vec![],
        }
    }

    /// The hop count of flow `flow`'s path under the current tables (a TCP flow's data follows
    /// its first connection), or `None` if the tables do not lead to the destination.
    pub(super) fn flow_path_hops(&self, flow: usize) -> Option<u32> {
        if let Some(p) = &self.routing.paths.pinned[flow] {
            return Some(p.len() as u32);
        }
        let f = &self.transport.flows[flow];
        if let Some(p) = f.tcp.as_ref().and_then(|t| t.mptcp.as_ref()).and_then(|m| m.paths[0].as_ref()) {
            return Some(p.len() as u32);
        }
        let conn = f.tcp.as_ref().and_then(|t| t.connections.first().copied()).unwrap_or(NO_CONNECTION);
        let hash = if self.routing.ecmp { flow_hash(f.src, f.dst, flow as u32, conn) } else { 0 };
        let mut path = Path::new(f.src, f.dst, hash, None, &self.net.ports);
        path.compute(&self.routing.routes, &self.net.ports, self.net.node_names.len());
        (path.state == PathState::Cached).then_some(path.hops.len() as u32)
    }
}

impl Routing {
    /// The port a packet with path tag `tag` at `node` leaves by (`NO_ROUTE`: none): the next
    /// hop of its path while that path stands, else the table's answer for the path's hash.
    #[inline]
    pub(super) fn next_port(&self, node: u32, tag: &Hot) -> PortId {
        let (slot, hop) = (tag.slot as usize, tag.hop as usize);
        let ports = &self.paths.ports[slot];
        if ports.stands && ports.generation == tag.generation {
            return match ports.first.get(hop) {
                Some(&port) => port,
                None => self.paths.slots[slot].hops[hop].1,
            };
        }
        let path = &self.paths.slots[slot];
        self.routes.lookup(node, path.dst, path.hash)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    /// FatTree(4) at 10 Mb/s with ECMP: 16 hosts, each sending TCP to the host 5 further on
    /// and a CBR flow to the one 11 further on; an aggregation–core link fails at 0.3 s and
    /// comes back at 0.6 s, and an edge–aggregation link fails at 0.45 s, under link-state
    /// flooding slow enough (20 ms per hop) for transient loops, with TTL 6.
    fn fattree4() -> Value {
        let link = |a: String, b: String| {
            json!({"a": a, "b": b, "rate_bps": 1e7, "delay_s": 1e-4,
                                                  "queue": {"type": "droptail", "limit_packets": 20}})
        };
        let mut nodes = vec![];
        let mut links = vec![];
        for pod in 0..4 {
            for i in 0..2 {
                nodes.push(json!({"name": format!("edge{pod}_{i}")}));
                nodes.push(json!({"name": format!("agg{pod}_{i}")}));
                for h in 0..2 {
                    let host = format!("h{}", (pod * 2 + i) * 2 + h);
                    nodes.push(json!({ "name": host }));
                    links.push(link(host, format!("edge{pod}_{i}")));
                }
                for a in 0..2 {
                    links.push(link(format!("edge{pod}_{i}"), format!("agg{pod}_{a}")));
                    links.push(link(format!("agg{pod}_{i}"), format!("core{i}_{a}")));
                }
            }
        }
        for i in 0..2 {
            for j in 0..2 {
                nodes.push(json!({"name": format!("core{i}_{j}")}));
            }
        }
        let mut flows = vec![];
        for h in 0..16 {
            flows.push(json!({"name": format!("t{h}"), "src": format!("h{h}"), "dst": format!("h{}", (h + 5) % 16),
                              "traffic": {"type": "bulk"}, "tcp": {"profile": "linux"}}));
            flows.push(json!({"name": format!("u{h}"), "src": format!("h{h}"), "dst": format!("h{}", (h + 11) % 16),
                              "traffic": {"type": "cbr", "rate_bps": 1e6}}));
        }
        json!({"seed": 3, "duration_s": 1.0, "nodes": nodes, "links": links, "flows": flows,
               "routing": {"ecmp": true, "ttl": 6,
                           "reconvergence": {"model": "link_state", "hop_processing_s": 0.02}},
               "events": [{"action": "link_down", "at_s": 0.3, "a": "agg0_0", "b": "core0_0"},
                          {"action": "link_down", "at_s": 0.45, "a": "edge1_0", "b": "agg1_1"},
                          {"action": "link_up", "at_s": 0.6, "a": "agg0_0", "b": "core0_0"}]})
    }

    #[test]
    fn cached_paths_forward_exactly_as_hop_by_hop_lookups_do() {
        let scenario = fattree4().to_string();
        let mut cached = Simulation::from_json(&scenario).unwrap();
        cached.run();
        let mut looked_up = Simulation::from_json(&scenario).unwrap();
        looked_up.routing.paths.cache = false;
        looked_up.run();
        let (a, b) = (cached.results().unwrap(), looked_up.results().unwrap());
        // The failures did happen: transient loops killed packets, and routes changed.
        assert!(a.scalar("dropped_ttl") > 0.0, "no TTL drops");
        assert!(a.scalar("route_installs") > 0.0);
        assert_eq!(a, b);
    }

    fn with_path(flow: Value, path: &[&str]) -> String {
        let link = |a: &str, b: &str| json!({"a": a, "b": b, "rate_bps": 1e6, "delay_s": 0.001});
        let mut flow = flow;
        flow["path"] = json!(path);
        json!({"seed": 1, "duration_s": 1.0,
               "nodes": [{"name": "a"}, {"name": "b"}, {"name": "c"}, {"name": "d"}],
               "links": [link("a", "b"), link("b", "c"), link("c", "d"), link("d", "a")],
               "flows": [flow]})
        .to_string()
    }

    #[test]
    fn a_pinned_flow_takes_its_ports_and_its_acks_come_back_over_the_same_links() {
        // a→c by hops ties between b and d; the tables take b (the lower id). Pinned via d,
        // data crosses a->d and d->c only, and ACKs c->d and d->a only.
        let tcp = json!({"name": "f", "src": "a", "dst": "c", "traffic": {"type": "transfer", "bytes": 100000}});
        let mut sim = Simulation::from_json(&with_path(tcp, &["a->d", "d->c"])).unwrap();
        sim.run();
        let r = sim.results().unwrap();
        let sent = |port: &str| {
            r.table("ports").u64s("transmitted_packets")[sim.net.ports.iter().position(|p| p.name == port).unwrap()]
        };
        assert!(sent("a->d") >= 69, "100 kB is 69 segments of 1460 B");
        assert_eq!(sent("c->d"), sent("d->a"));
        assert_eq!(sent("a->d"), sent("d->c"));
        assert!(sent("c->d") > 0);
        for unused in ["a->b", "b->c", "c->b", "b->a"] {
            assert_eq!(sent(unused), 0, "{unused}");
        }
        assert_eq!(r.table("flows").f64s("path_hops_start")[0], 2.0);
    }

    #[test]
    fn a_pinned_path_must_be_connected_ports_from_src_to_dst() {
        let udp = json!({"name": "f", "src": "a", "dst": "c", "traffic": {"type": "cbr", "rate_bps": 1e5}});
        for (path, field, words) in [
            (vec![], "flows[0].path", "at least one port"),
            (vec!["a->x"], "flows[0].path[0]", "unknown port 'a->x'"),
            (vec!["b->c"], "flows[0].path[0]", "does not start at the flow's src, 'a'"),
            (vec!["a->b", "c->d"], "flows[0].path[1]", "does not start at the previous port's end, 'b'"),
            (vec!["a->b", "b->a"], "flows[0].path[1]", "returns to node 'a'"),
            (vec!["a->b"], "flows[0].path", "ends at 'b', not at the flow's dst 'c'"),
        ] {
            let e = Simulation::from_json(&with_path(udp.clone(), &path)).err().expect("rejected");
            assert_eq!(e.field, field, "{path:?}");
            assert!(e.message.contains(words), "{path:?}: {}", e.message);
        }
    }
}
