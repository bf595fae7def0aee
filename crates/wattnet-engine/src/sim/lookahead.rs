//! Looking ahead in the event queue: while one event runs, what the next three will touch is
//! fetched into the cache.
//!
//! Forwarding at data-centre scale is bound by memory, not instructions: a hop reads its
//! port's first lines, its packet and its path, and with thousands of ports and flows these
//! are rarely in cache. The events about to run are known (the wheel's current bucket is
//! sorted), so their data can be asked for early, a stage per event of distance, each
//! stage's address computed from what the stage before fetched:
//! - three events ahead, an arrival or a transmission's end: its port's first lines;
//! - two ahead, an arrival: the packet arriving (the event names it) and the pipe's line it
//!   leaves from;
//! - the next, an arrival: the port that packet is queued at next (its path's next hop), or,
//!   at its destination, its whole record, its host, flow counters, connection and the state
//!   of the endpoint it reaches, and the port back over the link it came by.
//!
//! Only hints: nothing the simulation computes depends on them (docs/forwarding.md, *Looking
//! ahead*).

use super::Simulation;
use crate::event::EventKind;
use crate::port::HOP_LINES_FETCHED;
use crate::prefetch::prefetch_lines;

impl Simulation {
    #[inline(always)]
    pub(super) fn fetch_ahead(&self) {
        let ports = &self.net.ports;
        if let Some(EventKind::PipeArrival { port, .. } | EventKind::TxDone { port }) = self.events.peek(2) {
            prefetch_lines(&ports[port as usize], HOP_LINES_FETCHED);
        }
        if let Some(EventKind::PipeArrival { port, packet }) = self.events.peek(1) {
            self.pool.prefetch_hot(packet);
            // The pipe's line its head is popped from (its address read from the port's lines).
            if let Some(head) = ports[port as usize].pipe.front() {
                prefetch_lines(head, 1);
            }
        }
        let Some(EventKind::PipeArrival { port: id, packet: pkt }) = self.events.peek(0) else { return };
        let port = &ports[id as usize];
        // A stale event (its packet lost with the link) names a packet no longer on its way.
        if port.pipe.front().is_none_or(|&(_, head)| head != pkt) {
            return;
        }
        // Asked for by the stages before (unless an event has come in between since).
        let h = self.pool.hot(pkt);
        if h.dst != port.to {
            if let Some(next) = ports.get(self.routing.next_port(port.to, h) as usize) {
                prefetch_lines(next, HOP_LINES_FETCHED);
            }
            return;
        }
        self.pool.prefetch(pkt);
        if let Some(host) = self.net.hosts.get(port.to as usize) {
            prefetch_lines(host, 1);
        }
        if let Some(stats) = self.transport.flow_stats.get(h.flow as usize) {
            prefetch_lines(stats, 1);
        }
        if let Some(conn) = self.transport.connections.get(h.conn as usize) {
            prefetch_lines(conn, 4);
            conn.prefetch_end(port.to);
        }
        // A host's answer (an ACK, the next segments) leaves by the link the packet came
        // over when the host has one link: a link's two ports are 2i and 2i + 1.
        if let Some(back) = ports.get((id ^ 1) as usize) {
            prefetch_lines(back, HOP_LINES_FETCHED);
        }
    }
}
