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
    pub ttl: u8,
    pub ecn: Ecn,
}

/// A free-list arena of packets; ids stay valid until the packet is released.
#[derive(Default)]
pub struct PacketPool {
    slots: Vec<Packet>,
    free: Vec<PacketId>,
}

impl PacketPool {
    pub fn alloc(&mut self, packet: Packet) -> PacketId {
        match self.free.pop() {
            Some(id) => {
                self.slots[id as usize] = packet;
                id
            }
            None => {
                self.slots.push(packet);
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
