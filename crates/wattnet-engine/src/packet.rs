//! Packets and the pool they are recycled through, so the hot path allocates nothing.

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

#[derive(Clone, Debug, Default)]
pub struct Packet {
    /// Index of the flow this packet belongs to (its statistics and its receiving endpoint).
    pub flow: u32,
    /// Source and destination node ids.
    pub src: u32,
    pub dst: u32,
    pub size_bytes: u32,
    /// When the source handed the packet to the network.
    pub sent_at: Time,
    /// As the source sent them; in the network, the live values are the pool's `Hot` ones.
    pub ttl: u8,
    pub ecn: Ecn,
    /// The TCP connection this packet belongs to (`NO_CONNECTION` for UDP).
    pub conn: u32,
    /// The connection's subflow (0 for UDP and single-path TCP).
    pub subflow: u16,
    pub tcp: TcpHeader,
}

pub const NO_CONNECTION: u32 = u32::MAX;

/// What forwarding reads and writes at every hop, kept densely beside the packets (24 bytes
/// against a packet's 112), so that a hop touches this and the ports but not the packet.
#[derive(Clone, Copy, Debug, Default)]
pub struct Hot {
    pub dst: u32,
    pub src: u32,
    pub size_bytes: u32,
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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TcpHeader {
    pub seq: u64,
    pub ack: u64,
    /// Payload bytes.
    pub len: u32,
    /// Advertised receive window in bytes; routers may rewrite it (AWM).
    pub window: u64,
    pub flags: u8,
    /// SACK blocks [start, end), the first `sack_blocks` of them valid (RFC 2018).
    pub sack: [(u64, u64); 3],
    pub sack_blocks: u8,
    /// RFC 7323 timestamps, when the connection uses them: the sender's 32-bit clock (in
    /// microseconds, see [`ts_clock`]) and the echo.
    pub ts_val: u32,
    pub ts_ecr: u32,
    /// Multipath TCP's DSS option (RFC 8684 §3.3): on a data segment, the data sequence number
    /// of its first byte (the mapping of its subflow bytes onto the connection's bytes); on an
    /// ACK, the DATA_ACK (the connection's cumulative acknowledgement). Both 0 on single-path
    /// connections.
    pub dsn: u64,
    pub data_ack: u64,
    /// On data: what the network wrote on the way; on ACKs: the receiver's echo of the latest.
    pub path: PathFeedback,
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
/// `Hot` fields are kept beside it.
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

    /// Writes the live TTL and ECN codepoint into the packet, for whoever reads the whole
    /// packet next (its receiver, a capture).
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
}
