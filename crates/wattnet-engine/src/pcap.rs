//! Packet capture: classic libpcap files of chosen ports, readable by Wireshark and tshark.
//!
//! The scenario says *what* to capture (`pcap = [{ port = "r1->r2" }]`); the caller says
//! *where*, with [`Simulation::capture_to`]. Each packet of a captured port is recorded when
//! its transmission ends, stamped with that instant. Without a directory nothing is opened
//! and the hot loop pays one branch on an `Option` per transmission.
//!
//! # The files
//! Classic pcap, little-endian, nanosecond timestamps (magic `0xa1b23c4d`; picoseconds are
//! truncated), link type 228 (LINKTYPE_IPV4): each record is an IPv4 packet. Its original
//! length is the packet's length on the wire; the record keeps the headers only (IPv4 and
//! TCP with its options, or IPv4 and UDP), or `snap_bytes` bytes when the scenario sets it.
//! The engine simulates no payload: captured payload bytes are zeros.
//!
//! * **Addresses**: node *i* (its index in `nodes`) is `10.0.0.0 + i + 1`, so node 0 is
//!   10.0.0.1 and node 255 is 10.0.1.0. The directory gets a `hosts` file (/etc/hosts format)
//!   naming every node: Wireshark shows the names with it (`tshark -N n -H DIR/hosts`).
//! * **IPv4 header**: 20 bytes, DSCP 0, the ECN field from the packet (Not-ECT 00, ECT(1) 01,
//!   ECT(0) 10, CE 11), an identification counting the file's packets (per port, from 0,
//!   wrapping), no flags, the packet's TTL at that hop, protocol 6 or 17, a valid checksum.
//! * **Total length** = the simulated size (`size_bytes`) whenever that size leaves room for
//!   the headers written. UDP: at least 28 bytes (smaller packets are written as 28). TCP:
//!   the header room `size − 20 − payload` must be a multiple of 4 from 20 + options to 60
//!   bytes. With the default `header_bytes` of 40 that holds for every data segment and every
//!   ACK (the engine counts SACK blocks and timestamps in a segment's size), not for SYNs and
//!   SYN-ACKs, whose 8 to 24 bytes of options the engine does not count: their records are that much longer
//!   than simulated. Room beyond the options is filled with NOPs, so Wireshark's payload
//!   length is always the segment's data length. Packets over 65535 bytes (possible only
//!   with huge `mss_bytes` or UDP sizes) get total length 0, Wireshark's TSO convention (and
//!   UDP length 65535, no UDP checksum).
//! * **TCP ports**: the data sender's port is `61000 + (connection id mod 4000)` (connection
//!   ids count every connection of the run in opening order), the data receiver's is 9
//!   (discard, RFC 863). Wireshark (4.0) has no dissector on either, so payload shows as data.
//! * **TCP header**: sequence and acknowledgment numbers modulo 2³² (the engine's initial
//!   sequence numbers are 0), data offset including options, the segment's flags (FIN, SYN,
//!   ACK, ECE, CWR). The engine's windows are in bytes; SYNs and SYN-ACKs announce a window
//!   scale (RFC 7323) with the smallest shift (at most 14) that fits the connection's
//!   receive window in 16 bits, their own window field unscaled and capped at 65535; every
//!   other segment carries `window >> shift`, capped at 65535. SYNs also carry an MSS option
//!   (`mss_bytes`) and, when the connection uses SACK, SACK-permitted; ACKs carry their
//!   SACK blocks (modulo 2³²) after two NOPs. With RFC 7323 timestamps every segment carries
//!   the timestamp option (TSval, TSecr) after two NOPs; the engine counts its 12 bytes in
//!   every size but a SYN's. The checksum is valid for the whole segment
//!   with its zero payload (zeros add nothing to the sum), whatever the snap length.
//! * **UDP**: source port `61000 + (flow index mod 4000)`, destination port 9, length =
//!   total length − 20, a valid checksum.
//! * **Files** are named `<from>-<to>.pcap` after the port, every character other than
//!   ASCII letters, digits, `.`, `_` and `-` replaced by `_`; a name that two ports would
//!   share gets `_2`, `_3`, … in the order of the scenario's `pcap` list.

use std::collections::HashSet;
use std::fmt;
use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::error::ScenarioError;
use crate::packet::{flags, Ecn, Packet, NO_CONNECTION};
use crate::port::{Port, PortId};
use crate::scenario::PcapSpec;
use crate::sim::Simulation;
use crate::tcp::{Recovery, TcpConfig};
use crate::time::Time;

/// Classic pcap with nanosecond timestamps.
pub const MAGIC_NANOSECONDS: u32 = 0xa1b2_3c4d;
/// LINKTYPE_IPV4: every record is an IPv4 packet.
pub const LINKTYPE_IPV4: u32 = 228;
/// The data receiver's TCP port and every UDP flow's destination port (discard, RFC 863).
pub const SINK_PORT: u16 = 9;
/// Source ports are FIRST_SOURCE_PORT + (id mod SOURCE_PORTS).
pub const FIRST_SOURCE_PORT: u16 = 61000;
pub const SOURCE_PORTS: u32 = 4000;
/// Nodes that have an address in 10.0.0.0/8 (10.0.0.1 to 10.255.255.254).
pub const MAX_NODES: usize = (1 << 24) - 2;
/// The largest `snap_bytes`: an IPv4 packet is at most this long.
pub const MAX_SNAP_BYTES: u32 = 65535;
/// The file header's snap length when records keep the headers only: IPv4 20 + TCP 60.
const HEADERS_SNAPLEN: u32 = 80;
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

/// The IPv4 address of node `node`: 10.0.0.0 + node + 1.
pub fn node_address(node: u32) -> [u8; 4] {
    let n = node.wrapping_add(1);
    [10, (n >> 16) as u8, (n >> 8) as u8, n as u8]
}

/// The source port of connection or UDP flow `id`.
pub fn source_port(id: u32) -> u16 {
    FIRST_SOURCE_PORT + (id % SOURCE_PORTS) as u16
}

/// The smallest window scale shift (RFC 7323) that fits `max_window` bytes in 16 bits, at most 14.
pub fn window_shift(max_window: u64) -> u8 {
    (0..MAX_WINDOW_SHIFT).find(|&s| max_window >> s <= u16::MAX as u64).unwrap_or(MAX_WINDOW_SHIFT)
}

/// `name` with every character outside `[A-Za-z0-9._-]` replaced by `_`.
fn sanitize(name: &str) -> String {
    name.chars().map(|c| if c.is_ascii_alphanumeric() || "._-".contains(c) { c } else { '_' }).collect()
}

/// `<from>-<to>`, each name sanitized.
pub fn file_stem(from: &str, to: &str) -> String {
    format!("{}-{}", sanitize(from), sanitize(to))
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

/// A capture the scenario asked for, resolved to its port and file name.
#[derive(Clone, Debug)]
pub struct PcapRequest {
    pub port: PortId,
    pub snap_bytes: Option<u32>,
    pub file_name: String,
}

/// Checks the scenario's `pcap` list and names the files.
pub fn requests(
    specs: &[PcapSpec],
    port_named: impl Fn(&str, &str) -> Result<PortId, ScenarioError>,
    ports: &[Port],
    node_names: &[String],
) -> Result<Vec<PcapRequest>, ScenarioError> {
    if !specs.is_empty() && node_names.len() > MAX_NODES {
        return Err(ScenarioError::new("pcap", format!("captures address at most {MAX_NODES} nodes (10.0.0.0/8)")));
    }
    let mut names = HashSet::new();
    let mut out: Vec<PcapRequest> = Vec::with_capacity(specs.len());
    for (i, spec) in specs.iter().enumerate() {
        let port = port_named(&spec.port, &format!("pcap[{i}].port"))?;
        if let Some(j) = out.iter().position(|r| r.port == port) {
            return Err(ScenarioError::new(
                format!("pcap[{i}].port"),
                format!("port '{}' is already captured by pcap[{j}]", spec.port),
            ));
        }
        if let Some(n) = spec.snap_bytes {
            if n == 0 || n > MAX_SNAP_BYTES {
                return Err(ScenarioError::new(
                    format!("pcap[{i}].snap_bytes"),
                    format!("must be between 1 and {MAX_SNAP_BYTES} bytes, got {n}"),
                ));
            }
        }
        let p = &ports[port as usize];
        let stem = file_stem(&node_names[p.from as usize], &node_names[p.to as usize]);
        let mut file_name = format!("{stem}.pcap");
        let mut k = 2;
        while !names.insert(file_name.clone()) {
            file_name = format!("{stem}_{k}.pcap");
            k += 1;
        }
        out.push(PcapRequest { port, snap_bytes: spec.snap_bytes, file_name });
    }
    Ok(out)
}

/// A file that could not be created or written.
#[derive(Debug)]
pub struct PcapError {
    pub path: PathBuf,
    pub error: io::Error,
}

impl fmt::Display for PcapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "pcap output {}: {}", self.path.display(), self.error)
    }
}

impl std::error::Error for PcapError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

struct PcapFile {
    path: PathBuf,
    out: BufWriter<File>,
    snap: Option<u32>,
    next_ip_id: u16,
    /// The first write error; the file is written no further.
    error: Option<io::Error>,
}

/// The open files of a run that captures.
pub struct ActiveCaptures {
    /// Per port, its index in `files`, or NOT_CAPTURED.
    slot: Vec<u32>,
    files: Vec<PcapFile>,
    scratch: Vec<u8>,
}

const NOT_CAPTURED: u32 = u32::MAX;

/// The captures of a simulation: what the scenario asked for, and the files once open.
#[derive(Default)]
pub struct Captures {
    pub requests: Vec<PcapRequest>,
    pub active: Option<Box<ActiveCaptures>>,
}

impl Captures {
    pub fn new(requests: Vec<PcapRequest>) -> Captures {
        Captures { requests, active: None }
    }
}

/// Turns an I/O error on `path` into a PcapError naming it.
fn fail(path: &Path) -> impl FnOnce(io::Error) -> PcapError {
    let path = path.to_path_buf();
    move |error| PcapError { path, error }
}

fn file_header(snaplen: u32) -> [u8; 24] {
    let mut h = [0u8; 24];
    h[0..4].copy_from_slice(&MAGIC_NANOSECONDS.to_le_bytes());
    h[4..6].copy_from_slice(&2u16.to_le_bytes());
    h[6..8].copy_from_slice(&4u16.to_le_bytes());
    // thiszone 0, sigfigs 0
    h[16..20].copy_from_slice(&snaplen.to_le_bytes());
    h[20..24].copy_from_slice(&LINKTYPE_IPV4.to_le_bytes());
    h
}

/// The 16-byte record header: the time in s and ns (picoseconds truncated), then lengths.
fn record_header(now: Time, incl_len: u32, orig_len: u32) -> [u8; 16] {
    let mut h = [0u8; 16];
    let secs = (now / 1_000_000_000_000).min(u32::MAX as u64) as u32;
    let nanos = ((now % 1_000_000_000_000) / 1000) as u32;
    h[0..4].copy_from_slice(&secs.to_le_bytes());
    h[4..8].copy_from_slice(&nanos.to_le_bytes());
    h[8..12].copy_from_slice(&incl_len.to_le_bytes());
    h[12..16].copy_from_slice(&orig_len.to_le_bytes());
    h
}

/// The /etc/hosts lines naming every node by its address.
fn hosts_file(node_names: &[String]) -> String {
    let mut s =
        String::from("# wattnet node addresses: node i (its index in the scenario's nodes) is 10.0.0.0 + i + 1.\n");
    for (i, name) in node_names.iter().enumerate() {
        let [a, b, c, d] = node_address(i as u32);
        s.push_str(&format!("{a}.{b}.{c}.{d}\t{}\n", sanitize(name)));
    }
    s
}

impl Simulation {
    /// Opens the capture files the scenario asks for in `dir` (created if need be), with a
    /// `hosts` file naming the nodes, and returns their paths; nothing when the scenario
    /// captures nothing. Packets whose transmission ends from now on are recorded; the files
    /// are buffered: [`Simulation::flush_captures`] writes them out and reports any error
    /// (dropping the simulation flushes them too, but cannot report).
    pub fn capture_to(&mut self, dir: &Path) -> Result<Vec<PathBuf>, PcapError> {
        if self.logs.pcap.requests.is_empty() {
            return Ok(vec![]);
        }
        fs::create_dir_all(dir).map_err(fail(dir))?;
        let hosts = dir.join("hosts");
        fs::write(&hosts, hosts_file(&self.net.node_names)).map_err(fail(&hosts))?;
        let mut slot = vec![NOT_CAPTURED; self.net.ports.len()];
        let mut files = Vec::with_capacity(self.logs.pcap.requests.len());
        for r in &self.logs.pcap.requests {
            let path = dir.join(&r.file_name);
            let mut out = BufWriter::with_capacity(1 << 16, File::create(&path).map_err(fail(&path))?);
            out.write_all(&file_header(r.snap_bytes.unwrap_or(HEADERS_SNAPLEN))).map_err(fail(&path))?;
            slot[r.port as usize] = files.len() as u32;
            files.push(PcapFile { path, out, snap: r.snap_bytes, next_ip_id: 0, error: None });
        }
        let paths = files.iter().map(|f| f.path.clone()).collect();
        self.logs.pcap.active = Some(Box::new(ActiveCaptures { slot, files, scratch: Vec::with_capacity(256) }));
        Ok(paths)
    }

    /// Writes out what the capture files buffer; reports the first error any of them met.
    pub fn flush_captures(&mut self) -> Result<(), PcapError> {
        let Some(active) = self.logs.pcap.active.as_deref_mut() else { return Ok(()) };
        for f in &mut active.files {
            if let Some(e) = f.error.take() {
                // Reported once; the file stays closed to further writes.
                f.error = Some(io::Error::new(e.kind(), e.to_string()));
                return Err(PcapError { path: f.path.clone(), error: e });
            }
            if let Err(error) = f.out.flush() {
                f.error = Some(io::Error::new(error.kind(), error.to_string()));
                return Err(PcapError { path: f.path.clone(), error });
            }
        }
        Ok(())
    }

    /// Records packet `pkt`, whose transmission on `port` ended now, if that port is captured.
    #[cold]
    pub(crate) fn capture_tx(&mut self, port: PortId, pkt: crate::packet::PacketId) {
        let Some(active) = self.logs.pcap.active.as_deref_mut() else { return };
        let index = active.slot[port as usize];
        if index == NOT_CAPTURED {
            return;
        }
        let p = self.pool.get(pkt);
        let transport = if p.conn == NO_CONNECTION {
            Transport::Udp { src_port: source_port(p.flow), dst_port: SINK_PORT }
        } else {
            let conn = &self.transport.connections[p.conn as usize];
            match self.transport.flows[conn.flow as usize].tcp.as_ref() {
                Some(tcp) => Transport::Tcp(TcpEnds::of(p.conn, p.src == conn.sender_node, &tcp.config)),
                None => Transport::Udp { src_port: source_port(p.flow), dst_port: SINK_PORT },
            }
        };
        let file = &mut active.files[index as usize];
        if file.error.is_some() {
            return;
        }
        let orig_len = encode(p, &transport, file.next_ip_id, file.snap, &mut active.scratch);
        file.next_ip_id = file.next_ip_id.wrapping_add(1);
        let header = record_header(self.now, active.scratch.len() as u32, orig_len);
        if let Err(e) = file.out.write_all(&header).and_then(|_| file.out.write_all(&active.scratch)) {
            file.error = Some(e);
        }
    }
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

    /// A fresh directory for one test, removed when dropped.
    struct TempDir(PathBuf);

    impl TempDir {
        fn new(name: &str) -> TempDir {
            let dir = std::env::temp_dir().join(format!("wattnet-pcap-{name}-{}", std::process::id()));
            let _ = fs::remove_dir_all(&dir);
            TempDir(dir)
        }
    }

    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = fs::remove_dir_all(&self.0);
        }
    }

    const UDP_LINE: &str = r#"{"seed": 1, "duration_s": 0.05,
        "nodes": [{"name": "a"}, {"name": "b"}],
        "links": [{"a": "a", "b": "b", "rate_bps": 1e6, "delay_s": 0.001}],
        "flows": [{"name": "f", "src": "a", "dst": "b", "traffic": {"type": "cbr", "rate_bps": 8e5},
                   "packet_size": {"type": "fixed", "bytes": 500}}],
        "pcap": [{"port": "a->b"}, {"port": "b->a"}]}"#;

    #[test]
    fn a_run_writes_one_record_per_transmission_stamped_at_its_end() {
        let tmp = TempDir::new("run");
        let mut sim = Simulation::from_json(UDP_LINE).unwrap();
        let files = sim.capture_to(&tmp.0).unwrap();
        assert_eq!(files, [tmp.0.join("a-b.pcap"), tmp.0.join("b-a.pcap")]);
        sim.run();
        sim.flush_captures().unwrap();
        let bytes = fs::read(&files[0]).unwrap();
        assert_eq!(bytes[..24], file_header(HEADERS_SNAPLEN));
        // 500 B every 5 ms from t = 0, each 4 ms on the wire: 10 packets in 50 ms.
        let records: Vec<&[u8]> = bytes[24..].chunks(16 + 28).collect();
        assert_eq!(records.len(), 10);
        for (i, r) in records.iter().enumerate() {
            let ns = (i as u64 * 5 + 4) * 1_000_000;
            assert_eq!(r[..16], record_header(ns * 1000, 28, 500), "record {i}");
            assert_eq!(&r[20..22], &(i as u16).to_be_bytes(), "ip id");
        }
        assert_eq!(fs::read(&files[1]).unwrap().len(), 24, "nothing crossed b->a");
        assert_eq!(
            fs::read_to_string(tmp.0.join("hosts")).unwrap().lines().skip(1).collect::<Vec<_>>(),
            ["10.0.0.1\ta", "10.0.0.2\tb"]
        );
        // Capturing changes nothing in the run.
        let mut plain = Simulation::from_json(UDP_LINE).unwrap();
        plain.run();
        assert_eq!(format!("{:?}", plain.results().unwrap()), format!("{:?}", sim.results().unwrap()));
    }

    #[test]
    fn io_errors_name_the_path_and_nothing_panics() {
        let tmp = TempDir::new("errors");
        fs::create_dir_all(&tmp.0).unwrap();
        let blocker = tmp.0.join("file");
        fs::write(&blocker, "").unwrap();
        let mut sim = Simulation::from_json(UDP_LINE).unwrap();
        let e = sim.capture_to(&blocker).unwrap_err();
        assert_eq!(e.path, blocker);
        assert!(e.to_string().starts_with(&format!("pcap output {}: ", blocker.display())), "{e}");
        fs::create_dir_all(tmp.0.join("out").join("b-a.pcap")).unwrap();
        let e = sim.capture_to(&tmp.0.join("out")).unwrap_err();
        assert_eq!(e.path, tmp.0.join("out").join("b-a.pcap"));
        // Nothing is captured after a failed start, and the run goes on.
        sim.run();
        sim.flush_captures().unwrap();
    }

    #[test]
    fn without_requests_nothing_is_opened() {
        let tmp = TempDir::new("none");
        let mut sim = Simulation::from_json(
            &UDP_LINE.replace(r#""pcap": [{"port": "a->b"}, {"port": "b->a"}]"#, r#""pcap": []"#),
        )
        .unwrap();
        assert_eq!(sim.capture_to(&tmp.0).unwrap(), Vec::<PathBuf>::new());
        assert!(!tmp.0.exists());
        assert!(sim.logs.pcap.active.is_none());
    }

    #[test]
    fn requests_are_checked_and_colliding_file_names_told_apart() {
        let scenario = |pcap: &str| {
            format!(
                r#"{{"seed": 1, "duration_s": 1.0, "nodes": [{{"name": "a-b"}}, {{"name": "c"}}, {{"name": "a"}}, {{"name": "b-c"}}],
                "links": [{{"a": "a-b", "b": "c", "rate_bps": 1e6, "delay_s": 0.001}}, {{"a": "a", "b": "b-c", "rate_bps": 1e6, "delay_s": 0.001}}],
                "pcap": {pcap}}}"#
            )
        };
        let sim = Simulation::from_json(&scenario(r#"[{"port": "a-b->c"}, {"port": "a->b-c"}]"#)).unwrap();
        let names: Vec<_> = sim.logs.pcap.requests.iter().map(|r| r.file_name.as_str()).collect();
        assert_eq!(names, ["a-b-c.pcap", "a-b-c_2.pcap"]);
        let err = |pcap: &str| Simulation::from_json(&scenario(pcap)).err().unwrap().to_string();
        assert_eq!(err(r#"[{"port": "c->a"}]"#), "pcap[0].port: unknown port 'c->a' (ports are named \"from->to\")");
        assert_eq!(
            err(r#"[{"port": "c->a-b"}, {"port": "c->a-b"}]"#),
            "pcap[1].port: port 'c->a-b' is already captured by pcap[0]"
        );
        assert_eq!(
            err(r#"[{"port": "c->a-b", "snap_bytes": 65536}]"#),
            "pcap[0].snap_bytes: must be between 1 and 65535 bytes, got 65536"
        );
    }

    #[test]
    fn window_shift_is_the_smallest_that_fits_and_at_most_14() {
        assert_eq!(window_shift(65535), 0);
        assert_eq!(window_shift(65536), 1);
        assert_eq!(window_shift(1_000_000), 4);
        assert_eq!(window_shift((65535 << 14) + 1), 14);
        assert_eq!(window_shift(u64::MAX), 14);
    }

    #[test]
    fn addresses_ports_names_and_headers() {
        assert_eq!(node_address(0), [10, 0, 0, 1]);
        assert_eq!(node_address(255), [10, 0, 1, 0]);
        assert_eq!(node_address(MAX_NODES as u32 - 1), [10, 255, 255, 254]);
        assert_eq!((source_port(0), source_port(3999), source_port(4000)), (61000, 64999, 61000));
        assert_eq!(file_stem("r 1", "a/b->c"), "r_1-a_b-_c");
        assert_eq!(
            hosts_file(&["a b".into(), "c".into()]).lines().skip(1).collect::<Vec<_>>(),
            ["10.0.0.1\ta_b", "10.0.0.2\tc"]
        );
        assert_eq!(
            file_header(80),
            [0x4d, 0x3c, 0xb2, 0xa1, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 80, 0, 0, 0, 228, 0, 0, 0]
        );
        // 1.5 s + 1999 ps: 1 s and 500000001 ns (picoseconds truncated).
        let h = record_header(1_500_000_001_999, 40, 1040);
        assert_eq!(h, [1, 0, 0, 0, 0x01, 0x65, 0xcd, 0x1d, 40, 0, 0, 0, 0x10, 0x04, 0, 0]);
    }
}
