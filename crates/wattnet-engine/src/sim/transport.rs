//! TCP connections inside the simulation, and the applications that open them.

use rand::Rng as _;
use rand_distr::{Distribution, Exp};

use super::Simulation;
use crate::event::EventKind;
use crate::packet::{Packet, PacketId};
use crate::rng::Rng;
use crate::tcp::group::Group;
use crate::tcp::receiver::Receiver;
use crate::tcp::sender::Sender;
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
    /// The congestion controller and the data stream the connection's one subflow shares.
    pub group: Group,
    pub sender: Sender,
    pub receiver: Receiver,
    pub opened_at: Time,
    /// (cwnd, ssthresh) as last written to the cwnd trace.
    last_traced: (f64, f64),
}

/// One row of the every-change cwnd trace.
pub struct CwndChange {
    pub time: Time,
    pub conn: u32,
    pub cwnd: f64,
    pub ssthresh: f64,
}

/// A TCP flow's configuration and its connections so far.
pub struct TcpFlow {
    pub config: TcpConfig,
    pub app: Application,
    pub connections: Vec<u32>,
    pub traced: bool,
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
        let opener = tcp.config.opener;
        let window = (tcp.config.initial_window, tcp.config.initial_ssthresh);
        let group = Group::single(&tcp.config, bytes);
        self.transport.connections.push(Connection {
            flow: flow_id,
            sender_node,
            receiver_node: flow.dst,
            sender: Sender::new(&tcp.config, &group, 0),
            receiver: Receiver::new(&tcp.config),
            group,
            opened_at: self.now,
            last_traced: window,
        });
        if id as usize == self.transport.connections.len() - 1
            && self.transport.flows[flow_id as usize].tcp.as_ref().is_some_and(|t| t.connections.len() == 1)
        {
            // The flow's path as its first connection starts (its hash needs the connection).
            self.routing.initial_path_hops[flow_id as usize] = self.flow_path_hops(flow_id as usize);
        }
        let conn = &mut self.transport.connections[id as usize];
        let mut ctx = Ctx { now: self.now, conn: id, events: &mut self.events, out: &mut self.transport.outbox };
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
        let p = self.pool.get(pkt);
        let (id, tcp, ecn, at) = (p.conn, p.tcp, p.ecn, p.dst);
        self.pool.release(pkt);
        let conn = &mut self.transport.connections[id as usize];
        let mut ctx = Ctx { now: self.now, conn: id, events: &mut self.events, out: &mut self.transport.outbox };
        if at == conn.sender_node {
            conn.sender.on_packet(&tcp, &mut ctx, &mut conn.group);
        } else {
            conn.receiver.on_packet(&tcp, ecn, &mut ctx);
        }
        self.after_endpoint(id, at);
    }

    pub(super) fn tcp_timer(&mut self, id: u32, which: TcpTimer) {
        let conn = &mut self.transport.connections[id as usize];
        let mut ctx = Ctx { now: self.now, conn: id, events: &mut self.events, out: &mut self.transport.outbox };
        let node = match which {
            TcpTimer::Retransmit => {
                conn.sender.on_timer(&mut ctx, &mut conn.group);
                conn.sender_node
            }
            TcpTimer::DelayedAck | TcpTimer::Handshake => {
                conn.receiver.on_timer(which, &mut ctx);
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
        let w = conn.sender.window;
        if self.transport.flows[flow_id as usize].tcp.as_ref().is_some_and(|t| t.traced)
            && (w.cwnd, w.ssthresh) != conn.last_traced
        {
            conn.last_traced = (w.cwnd, w.ssthresh);
            self.logs.cwnd_trace.push(CwndChange { time: self.now, conn: id, cwnd: w.cwnd, ssthresh: w.ssthresh });
        }
        // The connection, not the receiver, knows how much the application sends.
        let completed = conn.group.stream.on_delivered(conn.receiver.bytes_delivered(), self.now);

        let mut out = std::mem::take(&mut self.transport.outbox);
        for o in out.drain(..) {
            let flow = &mut self.transport.flows[flow_id as usize];
            flow.stats.sent_packets += 1;
            flow.stats.sent_bytes += o.size_bytes as u64;
            let pkt = self.pool.alloc(Packet {
                flow: flow_id,
                src: node,
                dst: peer,
                size_bytes: o.size_bytes,
                sent_at: self.now,
                ttl: self.routing.ttl,
                ecn: o.ecn,
                conn: id,
                tcp: o.tcp,
            });
            self.send_from(node, pkt);
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
