//! The bytes of a captured packet: its IPv4 header and its TCP header with options (RFC 9293,
//! RFC 7323, RFC 2018) or UDP header (RFC 768), checksums valid, payload zeros.

use super::{node_address, source_port, SINK_PORT};
use crate::packet::{flags, Ecn, Packet};
use crate::tcp::{Recovery, TcpConfig};

/// RFC 7323 §2.3: a window scale shift above 14 is treated as 14.
const MAX_WINDOW_SHIFT: u8 = 14;

const IPV4_HEADER: usize = 20;
const TCP_HEADER: usize = 20;
const TCP_MAX_HEADER: usize = 60;
const UDP_HEADER: usize = 8;
const PROTO_TCP: u8 = 6;
const PROTO_UDP: u8 = 17;
const OPT_NOP: u8 = 1;
const OPT_MSS: u8 = 2;
const OPT_WINDOW_SCALE: u8 = 3;
const OPT_SACK_PERMITTED: u8 = 4;
const OPT_SACK: u8 = 5;
const OPT_TIMESTAMP: u8 = 8;

/// The smallest window scale shift (RFC 7323) that fits `max_window` bytes in 16 bits, at most 14.
pub fn window_shift(max_window: u64) -> u8 {
    (0..MAX_WINDOW_SHIFT).find(|&s| max_window >> s <= u16::MAX as u64).unwrap_or(MAX_WINDOW_SHIFT)
}

/// What a TCP segment's record needs to know of its connection, seen from the segment's sender.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TcpEnds {
    pub src_port: u16,
    pub dst_port: u16,
    /// Announced in the MSS option of SYNs.
    pub mss: u32,
    pub window_shift: u8,
    pub sack_permitted: bool,
    /// RFC 7323 timestamps: every segment carries TSval and TSecr.
    pub timestamps: bool,
}

impl TcpEnds {
    /// Connection `conn` with configuration `cfg`, for a segment sent by the data sender or not.
    pub fn of(conn: u32, from_data_sender: bool, cfg: &TcpConfig) -> TcpEnds {
        let (src_port, dst_port) =
            if from_data_sender { (source_port(conn), SINK_PORT) } else { (SINK_PORT, source_port(conn)) };
        TcpEnds {
            src_port,
            dst_port,
            mss: cfg.mss,
            // Both ends advertise at most the configured receive window.
            window_shift: window_shift(cfg.receive_window),
            sack_permitted: cfg.recovery == Recovery::Sack,
            timestamps: cfg.timestamps,
        }
    }
}

/// The transport header of a record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Transport {
    Tcp(TcpEnds),
    Udp { src_port: u16, dst_port: u16 },
}

fn ecn_bits(ecn: Ecn) -> u8 {
    match ecn {
        Ecn::NotEct => 0b00,
        Ecn::Ect1 => 0b01,
        Ecn::Ect0 => 0b10,
        Ecn::Ce => 0b11,
    }
}

/// One's-complement sum of big-endian 16-bit words (an odd last byte is padded with zero).
fn sum16(bytes: &[u8], mut sum: u32) -> u32 {
    let mut words = bytes.chunks_exact(2);
    for w in &mut words {
        sum += u16::from_be_bytes([w[0], w[1]]) as u32;
    }
    if let [last] = words.remainder() {
        sum += (*last as u32) << 8;
    }
    sum
}

fn fold(mut sum: u32) -> u16 {
    while sum > 0xffff {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    !(sum as u16)
}

/// TCP options of a segment (already aligned to 4 bytes) into `opts`.
fn tcp_options(p: &Packet, ends: &TcpEnds, opts: &mut [u8; 40]) -> usize {
    let h = &p.tcp;
    let mut n = 0;
    let mut put = |bytes: &[u8]| {
        opts[n..n + bytes.len()].copy_from_slice(bytes);
        n += bytes.len();
    };
    if h.has(flags::SYN) {
        let mss = ends.mss.min(u16::MAX as u32) as u16;
        put(&[OPT_MSS, 4]);
        put(&mss.to_be_bytes());
        if ends.sack_permitted {
            put(&[OPT_NOP, OPT_NOP, OPT_SACK_PERMITTED, 2]);
        }
        put(&[OPT_NOP, OPT_WINDOW_SCALE, 3, ends.window_shift]);
    }
    // RFC 7323 §3: kind 8, length 10, TSval, TSecr; two NOPs align it (RFC 7323 appendix A).
    if ends.timestamps {
        put(&[OPT_NOP, OPT_NOP, OPT_TIMESTAMP, 10]);
        put(&h.ts_val.to_be_bytes());
        put(&h.ts_ecr.to_be_bytes());
    }
    if !h.has(flags::SYN) && h.sack_blocks > 0 {
        let blocks = &h.sack[..(h.sack_blocks as usize).min(h.sack.len())];
        put(&[OPT_NOP, OPT_NOP, OPT_SACK, 2 + 8 * blocks.len() as u8]);
        for &(left, right) in blocks {
            put(&(left as u32).to_be_bytes());
            put(&(right as u32).to_be_bytes());
        }
    }
    n
}

/// Writes the captured bytes of packet `p` (headers, then zeros up to `snap` bytes) into
/// `out`, replacing its contents, and returns the packet's full length.
pub fn encode(p: &Packet, transport: &Transport, ip_id: u16, snap: Option<u32>, out: &mut Vec<u8>) -> u32 {
    out.clear();
    let size = p.size_bytes as u64;
    let protocol = match transport {
        Transport::Tcp(_) => PROTO_TCP,
        Transport::Udp { .. } => PROTO_UDP,
    };
    out.resize(IPV4_HEADER, 0);
    let total = match transport {
        Transport::Tcp(ends) => {
            let mut opts = [0u8; 40];
            let opts_len = tcp_options(p, ends, &mut opts);
            let len = p.tcp.len as u64;
            // The TCP header the simulated size leaves room for, in whole 32-bit words.
            let room = size.saturating_sub(IPV4_HEADER as u64 + len).div_ceil(4) * 4;
            let header = (TCP_HEADER + opts_len).max(room.min(TCP_MAX_HEADER as u64) as usize);
            let total = IPV4_HEADER as u64 + header as u64 + len;
            let h = &p.tcp;
            let window = if h.has(flags::SYN) { h.window } else { h.window >> ends.window_shift };
            out.extend_from_slice(&ends.src_port.to_be_bytes());
            out.extend_from_slice(&ends.dst_port.to_be_bytes());
            out.extend_from_slice(&(h.seq as u32).to_be_bytes());
            out.extend_from_slice(&(h.ack as u32).to_be_bytes());
            out.push(((header / 4) as u8) << 4);
            out.push(h.flags);
            out.extend_from_slice(&(window.min(u16::MAX as u64) as u16).to_be_bytes());
            out.extend_from_slice(&[0, 0, 0, 0]); // checksum, urgent pointer
            out.extend_from_slice(&opts[..opts_len]);
            out.resize(IPV4_HEADER + header, OPT_NOP);
            total
        }
        Transport::Udp { src_port, dst_port } => {
            let total = size.max((IPV4_HEADER + UDP_HEADER) as u64);
            out.extend_from_slice(&src_port.to_be_bytes());
            out.extend_from_slice(&dst_port.to_be_bytes());
            // Over 65535 bytes the field cannot hold the length: 65535, the most it can say
            // (Wireshark takes 0 for malformed, and reads the datagram as that long).
            let length = (total - IPV4_HEADER as u64).min(u16::MAX as u64) as u16;
            out.extend_from_slice(&length.to_be_bytes());
            out.extend_from_slice(&[0, 0]);
            total
        }
    };
    let fits = total <= u16::MAX as u64;
    let src = node_address(p.src);
    let dst = node_address(p.dst);
    // Transport checksum over the pseudo-header, the header and a zero payload.
    if fits {
        let mut pseudo = [0u8; 12];
        pseudo[0..4].copy_from_slice(&src);
        pseudo[4..8].copy_from_slice(&dst);
        pseudo[9] = protocol;
        pseudo[10..12].copy_from_slice(&((total - IPV4_HEADER as u64) as u16).to_be_bytes());
        let mut sum = fold(sum16(&out[IPV4_HEADER..], sum16(&pseudo, 0)));
        let at = match transport {
            Transport::Tcp(_) => IPV4_HEADER + 16,
            Transport::Udp { .. } => {
                // RFC 768: a computed 0 is sent as all ones (0 means "no checksum").
                if sum == 0 {
                    sum = 0xffff;
                }
                IPV4_HEADER + 6
            }
        };
        out[at..at + 2].copy_from_slice(&sum.to_be_bytes());
    }
    let ip = &mut out[..IPV4_HEADER];
    ip[0] = 0x45;
    ip[1] = ecn_bits(p.ecn);
    ip[2..4].copy_from_slice(&(if fits { total as u16 } else { 0 }).to_be_bytes());
    ip[4..6].copy_from_slice(&ip_id.to_be_bytes());
    ip[8] = p.ttl;
    ip[9] = protocol;
    ip[12..16].copy_from_slice(&src);
    ip[16..20].copy_from_slice(&dst);
    let checksum = fold(sum16(ip, 0));
    ip[10..12].copy_from_slice(&checksum.to_be_bytes());
    if let Some(snap) = snap {
        out.resize(total.min(snap as u64) as usize, 0);
    }
    total.min(u32::MAX as u64) as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packet::TcpHeader;
    use crate::scenario::TcpSpec;

    fn config(sack: bool, receive_window: u64) -> TcpConfig {
        let spec = TcpSpec { sack: Some(sack), receive_window_bytes: Some(receive_window), ..Default::default() };
        TcpConfig::from_spec(&spec, "tcp").unwrap()
    }

    #[test]
    fn syn_with_options_byte_by_byte() {
        // Connection 0 from node 0 (10.0.0.1) to node 2 (10.0.0.3), ECN setup, SACK, 1 GiB window.
        let cfg = config(true, 1 << 30);
        let ends = TcpEnds::of(0, true, &cfg);
        assert_eq!(
            ends,
            TcpEnds {
                src_port: 61000,
                dst_port: 9,
                mss: 1460,
                window_shift: 14,
                sack_permitted: true,
                timestamps: false
            }
        );
        let p = Packet {
            src: 0,
            dst: 2,
            size_bytes: 40,
            ttl: 64,
            tcp: TcpHeader { window: 1 << 30, flags: flags::SYN | flags::ECE | flags::CWR, ..Default::default() },
            ..Default::default()
        };
        let mut out = vec![];
        let orig = encode(&p, &Transport::Tcp(ends), 7, None, &mut out);
        #[rustfmt::skip]
        let expected: [u8; 52] = [
            // IPv4: version 4, IHL 5; DSCP 0, Not-ECT; total length 52 (40 simulated + 12 of options)
            0x45, 0x00, 0x00, 0x34,
            // identification 7; no flags, offset 0
            0x00, 0x07, 0x00, 0x00,
            // TTL 64, protocol 6 (TCP), header checksum
            0x40, 0x06, 0x66, 0xba,
            10, 0, 0, 1,
            10, 0, 0, 3,
            // TCP: ports 61000 -> 9
            0xee, 0x48, 0x00, 0x09,
            // seq 0, ack 0
            0, 0, 0, 0,
            0, 0, 0, 0,
            // data offset 8 words (32 bytes); flags CWR|ECE|SYN; window 65535 (unscaled in a SYN)
            0x80, 0xc2, 0xff, 0xff,
            // checksum, urgent pointer
            0x6b, 0xf5, 0x00, 0x00,
            // MSS 1460
            0x02, 0x04, 0x05, 0xb4,
            // NOP NOP SACK-permitted
            0x01, 0x01, 0x04, 0x02,
            // NOP, window scale 14
            0x01, 0x03, 0x03, 0x0e,
        ];
        assert_eq!(out, expected);
        assert_eq!(orig, 52);
    }

    #[test]
    fn data_segment_byte_by_byte() {
        // Sequence 2³² + 1001 is written as 1001; window 10⁶ bytes scales by 2⁴: 62500.
        let cfg = config(false, 1_000_000);
        let ends = TcpEnds::of(4001, true, &cfg);
        assert_eq!((ends.src_port, ends.window_shift, ends.sack_permitted), (61001, 4, false));
        let p = Packet {
            src: 1,
            dst: 256,
            size_bytes: 1040,
            ttl: 63,
            ecn: Ecn::Ect0,
            tcp: TcpHeader {
                seq: (1 << 32) + 1001,
                ack: 1,
                len: 1000,
                window: 1_000_000,
                flags: flags::ACK | flags::CWR,
                ..Default::default()
            },
            ..Default::default()
        };
        let mut out = vec![];
        let orig = encode(&p, &Transport::Tcp(ends), 0xabcd, None, &mut out);
        #[rustfmt::skip]
        let expected: [u8; 40] = [
            // ECT(0); total length 1040
            0x45, 0x02, 0x04, 0x10,
            0xab, 0xcd, 0x00, 0x00,
            0x3f, 0x06, 0xb7, 0x16,
            10, 0, 0, 2,
            10, 0, 1, 1,
            0xee, 0x49, 0x00, 0x09,
            0x00, 0x00, 0x03, 0xe9,
            0x00, 0x00, 0x00, 0x01,
            // 5 words, CWR|ACK, window 62500
            0x50, 0x90, 0xf4, 0x24,
            0xb0, 0x08, 0x00, 0x00,
        ];
        assert_eq!(out, expected);
        assert_eq!(orig, 1040);
        // With a snap length the payload follows as zeros, and the checksum does not change.
        let mut full = vec![];
        encode(&p, &Transport::Tcp(ends), 0xabcd, Some(100), &mut full);
        assert_eq!(full.len(), 100);
        assert_eq!(full[..40], expected);
        assert!(full[40..].iter().all(|&b| b == 0));
    }

    /// The Internet checksum of a whole header, its checksum field included, is 0.
    fn verifies(bytes: &[u8], sum: u32) -> bool {
        fold(sum16(bytes, sum)) == 0
    }

    fn pseudo_sum(out: &[u8], protocol: u8) -> u32 {
        let len = u16::from_be_bytes([out[2], out[3]]) - 20;
        sum16(&out[12..20], 0) + protocol as u32 + len as u32
    }

    #[test]
    fn sack_blocks_take_the_simulated_option_room_and_wrap() {
        let cfg = config(true, 1 << 20);
        let ends = TcpEnds::of(3, false, &cfg);
        let mut h = TcpHeader {
            seq: 1,
            ack: (1 << 32) + 5,
            window: 1 << 20,
            flags: flags::ACK,
            sack_blocks: 2,
            ..Default::default()
        };
        h.sack[0] = ((1 << 32) + 9000, (1 << 32) + 10000);
        h.sack[1] = (7000, 8000);
        // The receiver counts the option in the size: 40 + 4 + 8·2.
        let p = Packet { src: 5, dst: 4, size_bytes: 60, ttl: 64, tcp: h, ..Default::default() };
        let mut out = vec![];
        assert_eq!(encode(&p, &Transport::Tcp(ends), 0, None, &mut out), 60);
        assert_eq!(out.len(), 60);
        assert_eq!(out[32] >> 4, 10, "data offset: 20 + 20 bytes");
        assert_eq!(&out[20..24], &[0, 9, 0xee, 0x4b]);
        assert_eq!(&out[28..32], &5u32.to_be_bytes());
        // 2²⁰ >> 4 = 65536 does not fit: the shift is 5.
        assert_eq!(ends.window_shift, 5);
        assert_eq!(&out[34..36], &[0x80, 0x00], "2^20 >> 5");
        assert_eq!(&out[40..44], &[1, 1, 5, 18]);
        assert_eq!(&out[44..52], &[0, 0, 0x23, 0x28, 0, 0, 0x27, 0x10]);
        assert_eq!(&out[52..60], &[0, 0, 0x1b, 0x58, 0, 0, 0x1f, 0x40]);
        assert!(verifies(&out[..20], 0));
        assert!(verifies(&out[20..], pseudo_sum(&out, 6)));
    }

    #[test]
    fn extra_header_room_is_nop_padding_and_the_payload_length_is_kept() {
        // header_bytes 52 (Linux with timestamps): 12 bytes of room beyond the TCP header.
        let ends = TcpEnds::of(0, true, &config(false, 65535));
        assert_eq!(ends.window_shift, 0);
        let p = Packet {
            size_bytes: 52 + 100,
            tcp: TcpHeader { seq: 1, len: 100, flags: flags::ACK, ..Default::default() },
            ..Default::default()
        };
        let mut out = vec![];
        assert_eq!(encode(&p, &Transport::Tcp(ends), 0, None, &mut out), 152);
        assert_eq!(out.len(), 52);
        assert_eq!(out[32] >> 4, 8);
        assert!(out[40..52].iter().all(|&b| b == OPT_NOP));
        // A SYN needs more than 20 bytes of options room when the simulated header is 40.
        let syn =
            Packet { size_bytes: 40, tcp: TcpHeader { flags: flags::SYN, ..Default::default() }, ..Default::default() };
        assert_eq!(encode(&syn, &Transport::Tcp(ends), 0, None, &mut out), 48);
        assert_eq!(&out[40..48], &[2, 4, 0x05, 0xb4, 1, 3, 3, 0]);
    }

    #[test]
    fn udp_lengths_checksums_and_tiny_and_huge_packets() {
        let t = Transport::Udp { src_port: source_port(4003), dst_port: SINK_PORT };
        let p = Packet { src: 0, dst: 1, size_bytes: 1000, ttl: 62, ecn: Ecn::Ce, ..Default::default() };
        let mut out = vec![];
        assert_eq!(encode(&p, &t, 1, None, &mut out), 1000);
        assert_eq!(out.len(), 28);
        assert_eq!(out[1], 0b11, "CE");
        assert_eq!(&out[20..26], &[0xee, 0x4b, 0, 9, 0x03, 0xd4]);
        assert!(verifies(&out[..20], 0));
        assert!(verifies(&out[20..], pseudo_sum(&out, 17)));
        // Smaller than the headers: written as 28 bytes.
        let tiny = Packet { size_bytes: 1, ..p.clone() };
        assert_eq!(encode(&tiny, &t, 1, Some(65535), &mut out), 28);
        assert_eq!(out.len(), 28);
        // Over 65535 bytes: total length 0 (TSO convention); the snap length still applies.
        let huge = Packet { size_bytes: 100_000, ..p };
        assert_eq!(encode(&huge, &t, 1, Some(65535), &mut out), 100_000);
        assert_eq!((out.len(), &out[2..4]), (65535, &[0u8, 0][..]));
        assert_eq!(&out[24..28], &[0xff, 0xff, 0, 0], "UDP length: the most it can say; no checksum");
        assert!(verifies(&out[..20], 0));
    }

    #[test]
    fn ecn_codepoints_and_snap_shorter_than_the_headers() {
        let t = Transport::Udp { src_port: 1, dst_port: 2 };
        let mut out = vec![];
        for (ecn, bits) in [(Ecn::NotEct, 0), (Ecn::Ect1, 1), (Ecn::Ect0, 2), (Ecn::Ce, 3)] {
            encode(&Packet { size_bytes: 100, ecn, ..Default::default() }, &t, 0, Some(10), &mut out);
            assert_eq!((out.len(), out[1]), (10, bits));
        }
    }

    #[test]
    fn window_shift_is_the_smallest_that_fits_and_at_most_14() {
        assert_eq!(window_shift(65535), 0);
        assert_eq!(window_shift(65536), 1);
        assert_eq!(window_shift(1_000_000), 4);
        assert_eq!(window_shift((65535 << 14) + 1), 14);
        assert_eq!(window_shift(u64::MAX), 14);
    }
}
