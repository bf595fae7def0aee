//! Packet capture: classic libpcap files of chosen ports, readable by Wireshark and tshark.
//!
//! The scenario says *what* to capture (`pcap = [{ port = "r1->r2" }]`); the caller says
//! *where*, with `Simulation::capture_to`. Each packet of a captured port is recorded when
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
//!
//! The packet's bytes (IPv4 and TCP or UDP headers) are built in `frame`; the pcap file
//! format (file and record headers, the open files of a run) is `file`.

mod file;
mod frame;

#[cfg(test)]
pub(crate) use file::{file_header, record_header};
pub use file::{ActiveCaptures, Captures, PcapError, LINKTYPE_IPV4, MAGIC_NANOSECONDS};
pub use frame::{encode, window_shift, TcpEnds, Transport};

use std::collections::HashSet;

use crate::error::ScenarioError;
use crate::port::{Port, PortId};
use crate::scenario::PcapSpec;

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
pub(crate) const HEADERS_SNAPLEN: u32 = 80;

/// The IPv4 address of node `node`: 10.0.0.0 + node + 1.
pub fn node_address(node: u32) -> [u8; 4] {
    let n = node.wrapping_add(1);
    [10, (n >> 16) as u8, (n >> 8) as u8, n as u8]
}

/// The source port of connection or UDP flow `id`.
pub fn source_port(id: u32) -> u16 {
    FIRST_SOURCE_PORT + (id % SOURCE_PORTS) as u16
}

/// `name` with every character outside `[A-Za-z0-9._-]` replaced by `_`.
fn sanitize(name: &str) -> String {
    name.chars().map(|c| if c.is_ascii_alphanumeric() || "._-".contains(c) { c } else { '_' }).collect()
}

/// `<from>-<to>`, each name sanitized.
pub fn file_stem(from: &str, to: &str) -> String {
    format!("{}-{}", sanitize(from), sanitize(to))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_ports_and_names() {
        assert_eq!(node_address(0), [10, 0, 0, 1]);
        assert_eq!(node_address(255), [10, 0, 1, 0]);
        assert_eq!(node_address(MAX_NODES as u32 - 1), [10, 255, 255, 254]);
        assert_eq!((source_port(0), source_port(3999), source_port(4000)), (61000, 64999, 61000));
        assert_eq!(file_stem("r 1", "a/b->c"), "r_1-a_b-_c");
    }
}
