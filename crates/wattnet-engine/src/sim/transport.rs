//! TCP connections inside the simulation, and the applications that open them.

use rand::Rng as _;
use rand_distr::{Distribution, Exp};

use super::Simulation;
use crate::event::EventKind;
use crate::host::{HostEnergyMeter, HostModel};
use crate::packet::{Hot, Packet, PacketId};
use crate::port::PortId;
use crate::rng::Rng;
use crate::tcp::ends::{ReceiveEnd, SendEnd};
use crate::tcp::group::Group;
use crate::tcp::mptcp::MptcpConfig;
use crate::tcp::sender::{Sender, SenderState};
use crate::tcp::{Ctx, Opener, TcpConfig, TcpTimer};
use crate::time::{after, from_secs, Time};

/// What a TCP flow does with its connections.
#[derive(Clone, Debug)]
pub enum Application {
    /// One endless transfer.
    Bulk,
    /// One transfer of `bytes`.
    Transfer { bytes: u64 },
    /// `files` transfers of `bytes`, each opened when the previous completes.
    Serial { files: u32, bytes: u64 },
    /// Web-like requests: Poisson arrivals, each a new connection from a
    /// sender drawn uniformly, carrying a Pareto number of full segments.
    Web(WebRequests),
}

#[derive(Clone, Debug)]
pub struct WebRequests {
    pub gap_s: Exp<f64>,
    /// Pareto scale x_m and shape α, in segments.
    pub scale: f64,
    pub shape: f64,
    pub max_segments: Option<u64>,
    pub senders: Vec<u32>,
    pub stop: Time,
    pub rng: Rng,
}

impl WebRequests {
    /// A Pareto size by inversion: S = ⌈x_m·U^(−1/α)⌉ with U ~ U(0, 1], capped if asked.
    fn draw_segments(&mut self) -> u64 {
        let u: f64 = 1.0 - self.rng.gen::<f64>();
        let s = (self.scale * u.powf(-1.0 / self.shape)).ceil().min(u64::MAX as f64) as u64;
        self.max_segments.map_or(s, |cap| s.min(cap)).max(1)
    }
}

pub struct Connection {
    pub flow: u32,
    pub sender_node: u32,
    pub receiver_node: u32,
    /// The subflows' senders and what they share (congestion controller, data stream).
    pub sender: SendEnd,
    pub receiver: ReceiveEnd,
    pub opened_at: Time,
    /// The connection's first path slot; subflow s uses slot `path_slot + s` (`forwarding.rs`).
    pub path_slot: u32,
    /// Whether its flow's cwnd changes are traced (the flow's setting, copied here so that an
    /// endpoint's packets do not read the flow), and per subflow, (cwnd, ssthresh) as last
    /// written to the trace.
    traced: bool,
    last_traced: Vec<(f64, f64)>,
    /// The sender's host energy, when its node has an `mptcp_host` model.
    pub energy: Option<Box<HostEnergyMeter>>,
}

/// One row of the every-change cwnd trace.
pub struct CwndChange {
    pub time: Time,
    pub conn: u32,
    pub subflow: u16,
    pub cwnd: f64,
    pub ssthresh: f64,
}

/// A TCP flow's configuration and its connections so far.
pub struct TcpFlow {
    pub config: TcpConfig,
    pub app: Application,
    pub connections: Vec<u32>,
    pub traced: bool,
    /// A Multipath TCP flow's settings and its connections' subflow paths.
    pub mptcp: Option<MultipathFlow>,
}

/// What every connection of a Multipath TCP flow runs: its settings and one path per subflow.
pub struct MultipathFlow {
    pub config: MptcpConfig,
    /// Per subflow: the ports it is pinned to, or `None`: the forwarding tables, with the
    /// subflow's own ECMP hash.
    pub paths: Vec<Option<Vec<PortId>>>,
}

impl Connection {
    /// Asks for the state of the end at node `at` (its first subflow's): a delivery's next reads.
    #[inline(always)]
    pub(super) fn prefetch_end(&self, at: u32) {
        if at == self.sender_node {
            if let Some(s) = self.sender.subflows.first() {
                s.prefetch();
            }
        } else if let Some(r) = self.receiver.subflows.first() {
            crate::prefetch::prefetch_whole(r);
        }
    }

    /// The first subflow's sender (the only one on a single path).
    pub fn first(&self) -> &Sender {
        &self.sender.subflows[0]
    }

    /// A sender quantity summed over the subflows.
    pub fn sum(&self, f: impl Fn(&Sender) -> u64) -> u64 {
        self.sender.subflows.iter().map(f).sum()
    }

    /// The connection's congestion window: the subflows' together, in segments.
    pub fn cwnd(&self) -> f64 {
        self.sender.subflows.iter().map(|s| s.window.cwnd).sum()
    }

    /// The sender's state: the first subflow's, or the first not closed of several.
    pub fn state(&self) -> SenderState {
        let subflows = &self.sender.subflows;
        subflows.iter().map(|s| s.state).find(|&s| s != SenderState::Closed).unwrap_or(SenderState::Closed)
    }
}

impl Simulation {
    /// A TCP flow's application starts: it opens its first connection, or waits for its
    /// first web request.
    pub(super) fn start_application(&mut self, flow_id: u32) {
        let flow = &mut self.transport.flows[flow_id as usize];
        let src = flow.src;
        match &mut flow.tcp.as_mut().expect("TCP flow").app {
            Application::Bulk => self.open_connection(flow_id, src, None),
            Application::Transfer { bytes } | Application::Serial { bytes, .. } => {
                let bytes = *bytes;
                self.open_connection(flow_id, src, Some(bytes))
            }
            Application::Web(web) => {
                let first = after(self.now, from_secs(web.gap_s.sample(&mut web.rng)));
                if first < web.stop {
                    self.events.schedule(first, EventKind::WebRequest { flow: flow_id });
                }
            }
        }
    }

    /// A web request arrives: a new connection from a random sender, and the next arrival.
    pub(super) fn web_request(&mut self, flow_id: u32) {
        let tcp = self.transport.flows[flow_id as usize].tcp.as_mut().expect("TCP flow");
        let mss = tcp.config.mss as u64;
        let Application::Web(web) = &mut tcp.app else { unreachable!("web requests belong to web flows") };
        let sender = web.senders[web.rng.gen_range(0..web.senders.len())];
        // Capped at the int64 range of the results' byte columns (a Pareto draw can exceed it).
        let bytes = web.draw_segments().saturating_mul(mss).min(crate::error::MAX_BYTES);
        let next = after(self.now, from_secs(web.gap_s.sample(&mut web.rng)));
        if next < web.stop {
            self.events.schedule(next, EventKind::WebRequest { flow: flow_id });
        }
        self.open_connection(flow_id, sender, Some(bytes));
    }

    fn open_connection(&mut self, flow_id: u32, sender_node: u32, bytes: Option<u64>) {
        let flow = &mut self.transport.flows[flow_id as usize];
        let tcp = flow.tcp.as_mut().expect("TCP flow");
        let id = self.transport.connections.len() as u32;
        tcp.connections.push(id);
        let (opener, traced) = (tcp.config.opener, tcp.traced);
        let window = (tcp.config.initial_window, tcp.config.initial_ssthresh);
        let (group, buffer) = match &tcp.mptcp {
            None => (Group::single(&tcp.config, bytes), None),
            Some(m) => (
                Group::multipath(&tcp.config, &m.config, m.paths.len(), bytes, self.now),
                Some(m.config.receive_buffer),
            ),
        };
        let subflows = group.subflows();
        let energy = match self.net.hosts[sender_node as usize].model.as_deref() {
            Some(&HostModel::Mptcp(_, interval)) => Some(Box::new(HostEnergyMeter::new(self.now, interval))),
            _ => None,
        };
        self.transport.connections.push(Connection {
            flow: flow_id,
            sender_node,
            receiver_node: flow.dst,
            sender: SendEnd::new(&tcp.config, group),
            receiver: ReceiveEnd::new(&tcp.config, subflows, buffer),
            opened_at: self.now,
            path_slot: self.transport.subflow_slots,
            traced,
            last_traced: vec![window; subflows],
            energy,
        });
        self.transport.subflow_slots += subflows as u32;
        if id as usize == self.transport.connections.len() - 1
            && self.transport.flows[flow_id as usize].tcp.as_ref().is_some_and(|t| t.connections.len() == 1)
        {
            // The flow's path as its first connection starts (its hash needs the connection).
            self.routing.initial_path_hops[flow_id as usize] = self.flow_path_hops(flow_id as usize);
        }
        let conn = &mut self.transport.connections[id as usize];
        let mut ctx =
            Ctx { now: self.now, conn: id, subflow: 0, events: &mut self.events, out: &mut self.transport.outbox };
        let node = match opener {
            Opener::Sender => {
                conn.sender.connect(&mut ctx);
                conn.sender_node
            }
            Opener::Receiver => {
                conn.receiver.connect(&mut ctx);
                conn.receiver_node
            }
        };
        self.after_endpoint(id, node);
    }

    /// A TCP packet reached its destination endpoint.
    pub(super) fn tcp_deliver(&mut self, pkt: PacketId) {
        // The endpoint reads the header where it lies (no copy), and the packet is released
        // before the endpoint's answers are allocated.
        let &Hot { conn: id, dst: at, ecn, .. } = self.pool.hot(pkt);
        let p = self.pool.get(pkt);
        let subflow = p.subflow;
        let conn = &mut self.transport.connections[id as usize];
        let mut ctx =
            Ctx { now: self.now, conn: id, subflow, events: &mut self.events, out: &mut self.transport.outbox };
        if at == conn.sender_node {
            conn.sender.on_packet(subflow as usize, &p.tcp, &mut ctx);
        } else {
            conn.receiver.on_packet(subflow as usize, &p.tcp, ecn, &mut ctx);
        }
        self.pool.release(pkt);
        self.after_endpoint(id, at);
    }

    pub(super) fn tcp_timer(&mut self, id: u32, subflow: u16, which: TcpTimer) {
        let conn = &mut self.transport.connections[id as usize];
        let mut ctx =
            Ctx { now: self.now, conn: id, subflow, events: &mut self.events, out: &mut self.transport.outbox };
        let node = match which {
            TcpTimer::Retransmit => {
                conn.sender.on_timer(subflow as usize, &mut ctx);
                conn.sender_node
            }
            TcpTimer::DelayedAck | TcpTimer::Handshake => {
                conn.receiver.on_timer(subflow as usize, which, &mut ctx);
                conn.receiver_node
            }
        };
        self.after_endpoint(id, node);
    }

    /// Sends what an endpoint at `node` put in the outbox, logs cwnd changes and runs the
    /// application's completion hook.
    fn after_endpoint(&mut self, id: u32, node: u32) {
        let conn = &mut self.transport.connections[id as usize];
        let (flow_id, peer) = (conn.flow, if node == conn.sender_node { conn.receiver_node } else { conn.sender_node });
        if conn.traced {
            for (s, (sender, last)) in conn.sender.subflows.iter().zip(conn.last_traced.iter_mut()).enumerate() {
                let w = sender.window;
                if (w.cwnd, w.ssthresh) != *last {
                    *last = (w.cwnd, w.ssthresh);
                    let change =
                        CwndChange { time: self.now, conn: id, subflow: s as u16, cwnd: w.cwnd, ssthresh: w.ssthresh };
                    self.logs.cwnd_trace.push(change);
                }
            }
        }
        // The connection, not the receiver, knows how much the application sends; what the
        // receiver delivered changes only when it acts.
        let running = conn.sender.group.stream.completed_at.is_none();
        let completed = node == conn.receiver_node
            && conn.sender.group.stream.on_delivered(conn.receiver.bytes_delivered(), self.now);
        // The host energy integral closes an interval once it is due, and at completion.
        if running && conn.energy.is_some() {
            if let (Some(meter), Some(HostModel::Mptcp(model, _))) =
                (conn.energy.as_deref(), self.net.hosts[conn.sender_node as usize].model.as_deref())
            {
                if completed || meter.due(self.now) {
                    let readings = Simulation::subflow_readings(conn);
                    conn.energy.as_deref_mut().expect("checked").close(model, self.now, &readings);
                }
            }
        }

        let mut out = std::mem::take(&mut self.transport.outbox);
        for o in out.drain(..) {
            let stats = &mut self.transport.flow_stats[flow_id as usize];
            stats.sent_packets += 1;
            stats.sent_bytes += o.size_bytes as u64;
            let packet = Packet {
                flow: flow_id,
                src: node,
                dst: peer,
                size_bytes: o.size_bytes,
                sent_at: self.now,
                ttl: self.routing.ttl,
                ecn: o.ecn,
                conn: id,
                subflow: o.subflow,
                tcp: o.tcp,
            };
            self.send_from(node, packet);
        }
        self.transport.outbox = out;

        if completed {
            let flow = &self.transport.flows[flow_id as usize];
            let tcp = flow.tcp.as_ref().expect("TCP flow");
            if let Application::Serial { files, bytes } = tcp.app {
                if (tcp.connections.len() as u32) < files {
                    self.open_connection(flow_id, flow.src, Some(bytes));
                }
            }
        }
    }
}
