//! Packet capture inside the simulation: opening the files and recording each transmission of
//! a captured port (the file format is `crate::pcap`'s).

use std::path::{Path, PathBuf};

use super::Simulation;
use crate::packet::{PacketId, NO_CONNECTION};
use crate::pcap::{source_port, PcapError, TcpEnds, Transport, SINK_PORT};
use crate::port::PortId;

impl Simulation {
    /// Opens the capture files the scenario asks for in `dir` (created if need be), with a
    /// `hosts` file naming the nodes, and returns their paths; nothing when the scenario
    /// captures nothing. Packets whose transmission ends from now on are recorded; the files
    /// are buffered: [`Simulation::flush_captures`] writes them out and reports any error
    /// (dropping the simulation flushes them too, but cannot report).
    pub fn capture_to(&mut self, dir: &Path) -> Result<Vec<PathBuf>, PcapError> {
        self.logs.pcap.open(dir, &self.net.node_names, self.net.ports.len())
    }

    /// Writes out what the capture files buffer; reports the first error any of them met.
    pub fn flush_captures(&mut self) -> Result<(), PcapError> {
        self.logs.pcap.flush()
    }

    /// Records packet `pkt`, whose transmission on `port` starts now and ends at `end`, if that
    /// port is captured. A record is stamped with the transmission's end; nothing changes a
    /// packet while it is serialized, so recording it at the start writes the same bytes
    /// (and a packet whose link goes down mid-transmission is recorded, as a sender's capture
    /// would have it).
    #[cold]
    pub(super) fn capture_tx(&mut self, port: PortId, pkt: PacketId, end: crate::time::Time) {
        if !self.logs.pcap.captures(port) {
            return;
        }
        let p = self.pool.get(pkt);
        let udp = Transport::Udp { src_port: source_port(p.flow), dst_port: SINK_PORT };
        let transport = if p.conn == NO_CONNECTION {
            udp
        } else {
            let conn = &self.transport.connections[p.conn as usize];
            match self.transport.flows[conn.flow as usize].tcp.as_ref() {
                Some(tcp) => Transport::Tcp(TcpEnds::of(p.conn, p.src == conn.sender_node, &tcp.config)),
                None => udp,
            }
        };
        self.logs.pcap.record(port, end, p, &transport);
    }
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::*;
    use crate::pcap::{file_header, record_header, HEADERS_SNAPLEN};

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
}
