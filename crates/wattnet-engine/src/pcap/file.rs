//! The pcap file format: the file header, one record header per packet, and the open files
//! of a run that captures (with a `hosts` file naming the nodes).

use std::fmt;
use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use super::{encode, node_address, sanitize, PcapRequest, Transport, HEADERS_SNAPLEN};
use crate::packet::Packet;
use crate::port::PortId;
use crate::time::Time;

/// Classic pcap with nanosecond timestamps.
pub const MAGIC_NANOSECONDS: u32 = 0xa1b2_3c4d;
/// LINKTYPE_IPV4: every record is an IPv4 packet.
pub const LINKTYPE_IPV4: u32 = 228;

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

pub(crate) fn file_header(snaplen: u32) -> [u8; 24] {
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
pub(crate) fn record_header(now: Time, incl_len: u32, orig_len: u32) -> [u8; 16] {
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

impl Captures {
    /// Opens the capture files in `dir` (created if need be), with a `hosts` file naming the
    /// nodes, and returns their paths; nothing when no port is to be captured.
    pub fn open(&mut self, dir: &Path, node_names: &[String], ports: usize) -> Result<Vec<PathBuf>, PcapError> {
        if self.requests.is_empty() {
            return Ok(vec![]);
        }
        fs::create_dir_all(dir).map_err(fail(dir))?;
        let hosts = dir.join("hosts");
        fs::write(&hosts, hosts_file(node_names)).map_err(fail(&hosts))?;
        let mut slot = vec![NOT_CAPTURED; ports];
        let mut files = Vec::with_capacity(self.requests.len());
        for r in &self.requests {
            let path = dir.join(&r.file_name);
            let mut out = BufWriter::with_capacity(1 << 16, File::create(&path).map_err(fail(&path))?);
            out.write_all(&file_header(r.snap_bytes.unwrap_or(HEADERS_SNAPLEN))).map_err(fail(&path))?;
            slot[r.port as usize] = files.len() as u32;
            files.push(PcapFile { path, out, snap: r.snap_bytes, next_ip_id: 0, error: None });
        }
        let paths = files.iter().map(|f| f.path.clone()).collect();
        self.active = Some(Box::new(ActiveCaptures { slot, files, scratch: Vec::with_capacity(256) }));
        Ok(paths)
    }

    /// Writes out what the capture files buffer; reports the first error any of them met.
    pub fn flush(&mut self) -> Result<(), PcapError> {
        let Some(active) = self.active.as_deref_mut() else { return Ok(()) };
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

    /// True if `port`'s transmissions are being recorded.
    pub fn captures(&self, port: PortId) -> bool {
        self.active.as_deref().is_some_and(|a| a.slot[port as usize] != NOT_CAPTURED)
    }

    /// Records packet `p`, whose transmission on captured port `port` ended at `now`, carried
    /// by `transport`.
    pub fn record(&mut self, port: PortId, now: Time, p: &Packet, transport: &Transport) {
        let active = self.active.as_deref_mut().expect("recording needs open captures");
        let file = &mut active.files[active.slot[port as usize] as usize];
        if file.error.is_some() {
            return;
        }
        let orig_len = encode(p, transport, file.next_ip_id, file.snap, &mut active.scratch);
        file.next_ip_id = file.next_ip_id.wrapping_add(1);
        let header = record_header(now, active.scratch.len() as u32, orig_len);
        if let Err(e) = file.out.write_all(&header).and_then(|_| file.out.write_all(&active.scratch)) {
            file.error = Some(e);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_file_and_headers() {
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
