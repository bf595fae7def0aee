//! Packets and the pool they are recycled through, so the hot path allocates nothing.

use crate::prefetch::prefetch_lines;
use crate::time::Time;

pub type PacketId = u32;

/// IP ECN codepoints (RFC 3168 §5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Ecn {
    #[default]
    NotEct,
    Ect0,
    Ect1,
    Ce,
}

/// A packet as its source made it. `repr(C)`, in the order delivery reads it: its send time
/// and subflow, then the TCP header's per-segment fields, so that an endpoint reads the first
/// 56 bytes (one cache line or two) rather than fields spread over all 136.
#[derive(Clone, Debug, Default)]
#[repr(C)]
pub struct Packet {
    /// When the source handed the packet to the network.
    pub sent_at: Time,
    /// The connection's subflow (0 for UDP and single-path TCP).
    pub subflow: u16,
    /// As the source sent them; in the network and at delivery, the live values are the
    /// pool's `Hot` ones.
    pub ttl: u8,
    pub ecn: Ecn,
    /// Index of the flow this packet belongs to (its statistics and its receiving endpoint).
    pub flow: u32,
    pub tcp: TcpHeader,
    /// The TCP connection this packet belongs to (`NO_CONNECTION` for UDP).
    pub conn: u32,
    /// Source and destination node ids.
    pub src: u32,
    pub dst: u32,
    pub size_bytes: u32,
}

pub const NO_CONNECTION: u32 = u32::MAX;

/// What forwarding reads and writes at every hop and what delivery needs to find the packet's
/// flow and connection, kept densely beside the packets (32 bytes, aligned so that one is one
/// cache line's half, against a packet's 136), so that a hop touches this and the ports but
/// not the packet, and delivery reads the packet only for its send time and TCP header.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(32))]
pub struct Hot {
    pub dst: u32,
    pub src: u32,
    pub size_bytes: u32,
    pub flow: u32,
    pub conn: u32,
    /// The packet's path (`sim/forwarding.rs`): its slot, the path's generation when the
    /// packet was given it, and the hops taken since.
    pub slot: u32,
    pub generation: u32,
    pub hop: u16,
    /// The live TTL and ECN codepoint; the packet's own fields keep what its source sent
    /// until `PacketPool::sync` writes these back.
    pub ttl: u8,
    pub ecn: Ecn,
}

/// The TCP header fields the simulation uses. Sequence numbers are 64-bit byte offsets
/// from an initial sequence number of 0 (pcap output writes them modulo 2³²).
///
/// `repr(C)`: the fields every segment's endpoint reads first, the options most connections
/// leave empty (DSS, SACK blocks) after them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C)]
pub struct TcpHeader {
    pub seq: u64,
    pub ack: u64,
    /// Advertised receive window in bytes; routers may rewrite it (AWM).
    pub window: u64,
    /// Payload bytes.
    pub len: u32,
    /// RFC 7323 timestamps, when the connection uses them: the sender's 32-bit clock (in
    /// microseconds, see [`ts_clock`]) and the echo.
    pub ts_val: u32,
    pub ts_ecr: u32,
    pub flags: u8,
    pub sack_blocks: u8,
    /// On data: what the network wrote on the way; on ACKs: the receiver's echo of the latest.
    pub path: PathFeedback,
    /// Multipath TCP's DSS option (RFC 8684 §3.3): on a data segment, the data sequence number
    /// of its first byte (the mapping of its subflow bytes onto the connection's bytes); on an
    /// ACK, the DATA_ACK (the connection's cumulative acknowledgement). Both 0 on single-path
    /// connections.
    pub dsn: u64,
    pub data_ack: u64,
    /// SACK blocks [start, end), the first `sack_blocks` of them valid (RFC 2018).
    pub sack: [(u64, u64); 3],
}

/// What a data packet collects on its way and its ACK echoes back: the switch-to-switch hops
/// it crossed and how many of them had a queue above the expected one (the energy price of
/// Zhao, Liu, Wang, "On energy-efficient congestion control for multipath TCP", IEEE 2017,
/// §V-C). Written only when some flow asks for it; saturates at 255.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PathFeedback {
    pub hops: u8,
    pub congested: u8,
}

/// RFC 7323 §5.4: a 32-bit timestamp clock, here ticking every microsecond (as Linux's
/// `tcp_clock_us`); it wraps, and every comparison is modulo 2³².
pub fn ts_clock(now: Time) -> u32 {
    (now / TS_TICK) as u32
}

/// One tick of the timestamp clock, in picoseconds.
pub const TS_TICK: Time = 1_000_000;

/// TCP header flag bits (RFC 9293 §3.1, RFC 3168 §6.1).
pub mod flags {
    pub const FIN: u8 = 0x01;
    pub const SYN: u8 = 0x02;
    pub const ACK: u8 = 0x10;
    pub const ECE: u8 = 0x40;
    pub const CWR: u8 = 0x80;
}

impl TcpHeader {
    /// Sequence space the segment occupies: SYN and FIN count one each.
    pub fn seq_len(&self) -> u64 {
        self.len as u64 + (self.flags & flags::SYN != 0) as u64 + (self.flags & flags::FIN != 0) as u64
    }

    pub fn has(&self, flag: u8) -> bool {
        self.flags & flag != 0
    }
}

/// A free-list arena of packets; ids stay valid until the packet is released. Each packet's
/// `Hot` fields are kept beside it. The free list is a stack: the slot released last, still
/// in cache, is the next one given out (an endpoint's answer takes the slot of the packet it
/// answers).
#[derive(Default)]
pub struct PacketPool {
    slots: Vec<Packet>,
    hot: Vec<Hot>,
    free: Vec<PacketId>,
}

impl PacketPool {
    #[inline(always)]
    pub fn alloc(&mut self, packet: Packet) -> PacketId {
        let hot = Hot {
            dst: packet.dst,
            src: packet.src,
            size_bytes: packet.size_bytes,
            flow: packet.flow,
            conn: packet.conn,
            ttl: packet.ttl,
            ecn: packet.ecn,
            ..Hot::default()
        };
        match self.free.pop() {
            Some(id) => {
                self.slots[id as usize] = packet;
                self.hot[id as usize] = hot;
                id
            }
            None => {
                self.slots.push(packet);
                self.hot.push(hot);
                (self.slots.len() - 1) as PacketId
            }
        }
    }

    pub fn release(&mut self, id: PacketId) {
        self.free.push(id);
    }

    #[inline]
    pub fn get(&self, id: PacketId) -> &Packet {
        &self.slots[id as usize]
    }

    #[inline]
    pub fn get_mut(&mut self, id: PacketId) -> &mut Packet {
        &mut self.slots[id as usize]
    }

    #[inline]
    pub fn hot(&self, id: PacketId) -> &Hot {
        &self.hot[id as usize]
    }

    #[inline]
    pub fn hot_mut(&mut self, id: PacketId) -> &mut Hot {
        &mut self.hot[id as usize]
    }

    /// Asks the processor to bring packet `id`'s `Hot` record into cache ahead of its use: a
    /// hint, which changes nothing the simulation computes.
    #[inline(always)]
    pub fn prefetch_hot(&self, id: PacketId) {
        if let Some(h) = self.hot.get(id as usize) {
            prefetch_lines(h, 1);
        }
    }

    /// As `prefetch_hot`, for the whole packet (its TCP header, its sending time).
    #[inline(always)]
    pub fn prefetch(&self, id: PacketId) {
        if let Some(p) = self.slots.get(id as usize) {
            prefetch_lines(p, 2);
        }
    }

    /// Writes the live TTL and ECN codepoint into the packet, for a capture that encodes the
    /// whole packet (delivery reads them from `Hot`).
    pub fn sync(&mut self, id: PacketId) {
        let hot = self.hot[id as usize];
        let p = &mut self.slots[id as usize];
        (p.ttl, p.ecn) = (hot.ttl, hot.ecn);
    }

    /// Packets currently allocated (in a queue, a transmitter or a pipe).
    pub fn live(&self) -> usize {
        self.slots.len() - self.free.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn released_slots_are_reused() {
        let mut pool = PacketPool::default();
        let a = pool.alloc(Packet { size_bytes: 1, ..Default::default() });
        let b = pool.alloc(Packet { size_bytes: 2, ..Default::default() });
        pool.release(a);
        let c = pool.alloc(Packet { size_bytes: 3, ..Default::default() });
        assert_eq!(c, a);
        assert_eq!(pool.get(c).size_bytes, 3);
        assert_eq!(pool.get(b).size_bytes, 2);
        assert_eq!(pool.live(), 2);
    }

    #[test]
    fn the_slot_released_last_is_given_out_first() {
        let mut pool = PacketPool::default();
        let ids: Vec<PacketId> = (0..4).map(|_| pool.alloc(Packet::default())).collect();
        // Released 1, 3, 0: handed out again as 0, 3, 1, then a new slot 4.
        for id in [1, 3, 0] {
            pool.release(ids[id]);
        }
        let again: Vec<PacketId> = (0..4).map(|_| pool.alloc(Packet::default())).collect();
        assert_eq!(again, vec![0, 3, 1, 4]);
    }

    #[test]
    fn a_packets_hot_record_holds_its_flow_and_connection_in_half_a_cache_line() {
        let mut pool = PacketPool::default();
        let p = Packet { flow: 7, conn: 9, dst: 3, src: 2, size_bytes: 1500, ttl: 64, ..Default::default() };
        let id = pool.alloc(p);
        let h = pool.hot(id);
        assert_eq!((h.flow, h.conn, h.dst, h.src, h.size_bytes, h.ttl), (7, 9, 3, 2, 1500, 64));
        // Two records per 64-byte line, none straddling two lines.
        assert_eq!((std::mem::size_of::<Hot>(), std::mem::align_of::<Hot>()), (32, 32));
    }

    #[test]
    fn what_an_endpoint_reads_of_a_packet_lies_in_its_first_56_bytes() {
        use std::mem::offset_of;
        let header = offset_of!(Packet, tcp);
        let read = [
            offset_of!(Packet, sent_at) + 8,
            offset_of!(Packet, subflow) + 2,
            header + offset_of!(TcpHeader, seq) + 8,
            header + offset_of!(TcpHeader, ack) + 8,
            header + offset_of!(TcpHeader, window) + 8,
            header + offset_of!(TcpHeader, len) + 4,
            header + offset_of!(TcpHeader, ts_ecr) + 4,
            header + offset_of!(TcpHeader, flags) + 1,
            header + offset_of!(TcpHeader, sack_blocks) + 1,
            header + offset_of!(TcpHeader, path) + 2,
        ];
        // 8 (sent_at) + 2 + 1 + 1 + 4 (flow), then the header's 3 × 8 + 3 × 4 + 1 + 1 + 2.
        assert_eq!(read.into_iter().max(), Some(56));
        assert_eq!(std::mem::size_of::<Packet>(), 136);
    }
}
