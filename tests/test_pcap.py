"""pcap captures, read back by tshark: files Wireshark parses cleanly, and what they show agrees
with the engine's own counters (packets, retransmissions, ECN marks, lengths, times).

tshark comes from Debian's packages (`make tshark`, run by `make test`); without it the tests
that read captures skip and say why.
"""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import wattnet
from wattnet import _engine

WATTNET = Path(sys.executable).with_name("wattnet")
# tshark says this on stderr whenever it runs as root, as it does in CI; it is not about the file.
ROOT_NOTICE = 'Running as user "root" and group "root". This could be dangerous.'


@pytest.fixture(scope="module")
def tshark():
    path = shutil.which("tshark")
    if path is None:
        pytest.skip(
            "tshark is not installed: `make tshark` installs it from Debian's packages (needs root and apt-get)"
        )
    done = subprocess.run([path, "--version"], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        pytest.skip(f"tshark does not run here: {done.stderr.strip()}")
    return path


def read(tshark, path, *args):
    """tshark's output lines for `path`; fails if tshark exits non-zero or says anything on stderr."""
    done = subprocess.run([tshark, "-r", str(path), *args], capture_output=True, text=True, check=False, timeout=120)
    complaints = [line for line in done.stderr.splitlines() if line.strip() and line.strip() != ROOT_NOTICE]
    assert done.returncode == 0 and not complaints, f"tshark on {path}: exit {done.returncode}: {done.stderr}"
    return done.stdout.splitlines()


def count(tshark, path, display_filter, *args):
    return len(read(tshark, path, "-Y", display_filter, *args))


def fields(tshark, path, display_filter, *names):
    """One tuple of strings per packet matching `display_filter`."""
    args = ["-T", "fields", "-E", "separator=/t"] + [a for name in names for a in ("-e", name)]
    if display_filter:
        args += ["-Y", display_filter]
    return [tuple(line.split("\t")) for line in read(tshark, path, *args)]


def port_row(results, port):
    return results.ports.set_index("port").loc[port]


def line_network(bottleneck_queue, tcp, transfer_bytes, pcap, bottleneck_bps=2e6):
    """s - r1 - r2 - d: 100 Mb/s access links of 1 ms and a slow bottleneck r1 -> r2 of 10 ms."""
    return {
        "name": "pcap",
        "seed": 1,
        "duration_s": 30.0,
        "nodes": [{"name": n} for n in ("s", "r1", "r2", "d")],
        "links": [
            {"a": "s", "b": "r1", "rate_bps": 100e6, "delay_s": 1e-3},
            {"a": "r1", "b": "r2", "rate_bps": bottleneck_bps, "delay_s": 10e-3, "queue": bottleneck_queue},
            {"a": "r2", "b": "d", "rate_bps": 100e6, "delay_s": 1e-3},
        ],
        "flows": [
            {"name": "t", "src": "s", "dst": "d", "traffic": {"type": "transfer", "bytes": transfer_bytes}, "tcp": tcp}
        ],
        "pcap": pcap,
    }


@pytest.fixture(scope="module")
def lossy(tmp_path_factory):
    """A NewReno transfer (ns-2 agents) through an 8-packet DropTail bottleneck: drops, fast
    retransmits, a timeout."""
    out = tmp_path_factory.mktemp("lossy")
    scenario = line_network(
        {"type": "droptail", "limit_packets": 8},
        {"profile": "ns2", "congestion_control": {"type": "newreno"}},
        2_000_000,
        # The sender's port keeps whole packets (zero payload), so tshark can verify the checksums.
        [{"port": "s->r1", "snap_bytes": 65535}, {"port": "r1->s"}, {"port": "r1->r2"}],
    )
    results = wattnet.run(scenario, pcap_dir=out)
    conn = results.connections.iloc[0]
    # What the test relies on: the run lost packets and recovered both ways, and finished.
    assert conn.state == "closed" and conn.delivered_bytes == 2_000_000
    assert conn.fast_retransmits >= 1 and conn.timeouts >= 1, conn
    assert port_row(results, "r1->r2").dropped_packets > 0
    return out, results


def test_the_files_and_the_hosts_file_are_where_the_run_was_told(lossy):
    out, _ = lossy
    assert sorted(p.name for p in out.iterdir()) == ["hosts", "r1-r2.pcap", "r1-s.pcap", "s-r1.pcap"]
    hosts = [line.split() for line in (out / "hosts").read_text().splitlines() if not line.startswith("#")]
    assert hosts == [["10.0.0.1", "s"], ["10.0.0.2", "r1"], ["10.0.0.3", "r2"], ["10.0.0.4", "d"]]
    header = (out / "r1-r2.pcap").read_bytes()[:24]
    # Classic pcap, nanosecond magic, version 2.4, snap length 80 (headers only), LINKTYPE_IPV4.
    assert header.hex() == "4d3cb2a1" + "02000400" + "00" * 8 + "50000000" + "e4000000"


@pytest.mark.parametrize("port", ["s->r1", "r1->s", "r1->r2"])
def test_tshark_reads_every_packet_cleanly(tshark, lossy, port):
    out, results = lossy
    path = out / f"{port.replace('->', '-')}.pcap"
    assert len(read(tshark, path)) == port_row(results, port).transmitted_packets
    assert count(tshark, path, "_ws.malformed") == 0
    assert count(tshark, path, "_ws.expert.severity >= error") == 0
    assert count(tshark, path, "tcp") == port_row(results, port).transmitted_packets


def test_checksums_are_valid_over_the_whole_packet(tshark, lossy):
    out, results = lossy
    path = out / "s-r1.pcap"
    checks = ("-o", "ip.check_checksum:TRUE", "-o", "tcp.check_checksum:TRUE")
    good = count(tshark, path, "ip.checksum.status == 1 && tcp.checksum.status == 1", *checks)
    assert good == port_row(results, "s->r1").transmitted_packets
    # The bottleneck's records keep the headers only: the IPv4 checksum is still checkable.
    assert (
        count(tshark, out / "r1-r2.pcap", "ip.checksum.status == 1", *checks)
        == port_row(results, "r1->r2").transmitted_packets
    )


def test_retransmissions_seen_by_tshark_before_the_bottleneck_are_the_senders(tshark, lossy):
    out, results = lossy
    path = out / "s-r1.pcap"
    retransmissions = results.connections.iloc[0].retransmissions
    data = "tcp.len > 0 && "
    flagged = count(tshark, path, data + "(tcp.analysis.retransmission || tcp.analysis.fast_retransmission)")
    # Nothing reorders before the bottleneck, so any segment that does not advance the sequence is
    # a retransmission; tshark calls one sent within an initial RTT of the highest segment
    # "out-of-order" (its heuristic, which cannot see the ACKs on this one-way port).
    out_of_order = count(tshark, path, data + "tcp.analysis.out_of_order")
    assert count(tshark, path, "tcp.analysis.spurious_retransmission") == 0
    assert flagged >= results.connections.iloc[0].timeouts
    assert flagged + out_of_order == retransmissions
    # The same from the raw sequence numbers: a data segment below the highest sent is resent.
    highest, resent = 0, 0
    for seq, length in fields(tshark, path, "tcp.len > 0", "tcp.seq_raw", "tcp.len"):
        seq, length = int(seq), int(length)
        resent += seq < highest
        highest = max(highest, seq + length)
    assert resent == retransmissions


def test_syn_options_announce_mss_and_window_scale(tshark, lossy):
    out, _ = lossy
    syn = fields(
        tshark,
        out / "s-r1.pcap",
        "tcp.flags.syn == 1",
        "tcp.options.mss_val",
        "tcp.options.wscale.shift",
        "tcp.window_size_value",
        "ip.len",
    )
    # The default 1 GiB receive window needs the largest shift, 14; a SYN's own window is unscaled.
    # ns-2.35's packetSize_ 1000 is the ns2 profile's MSS; no SACK and no timestamps: MSS, NOP and
    # window scale make 8 bytes of options.
    assert syn == [("1000", "14", "65535", "48")]
    assert count(tshark, out / "s-r1.pcap", "tcp.options.sack_perm") == 0
    synack = fields(
        tshark,
        out / "r1-s.pcap",
        "tcp.flags.syn == 1 && tcp.flags.ack == 1",
        "tcp.options.wscale.shift",
        "tcp.srcport",
        "tcp.dstport",
    )
    assert synack == [("14", "9", "61000")]


def test_the_bottleneck_shows_the_drops_as_gaps(tshark, lossy):
    out, results = lossy
    path = out / "r1-r2.pcap"
    sent = port_row(results, "s->r1").transmitted_packets
    assert port_row(results, "r1->r2").transmitted_packets == sent - port_row(results, "r1->r2").dropped_packets
    assert count(tshark, path, "tcp.analysis.lost_segment") >= 1


def test_the_first_packet_is_stamped_when_its_transmission_ends(tshark, lossy):
    out, _ = lossy
    # The SYN leaves s at t = 0: 40 simulated bytes at 100 Mb/s take 3.2 µs.
    times = fields(tshark, out / "s-r1.pcap", "frame.number <= 2", "frame.time_epoch", "tcp.flags.syn")
    assert times[0] == ("0.000003200", "1")


@pytest.fixture(scope="module")
def ecn(tmp_path_factory):
    """An ECN transfer through a marking RED bottleneck."""
    out = tmp_path_factory.mktemp("ecn")
    red = {"type": "red", "min_th": 2, "max_th": 6, "max_p": 0.2, "w_q": 0.2, "ecn": True, "limit_packets": 40}
    pcap = [{"port": p} for p in ("s->r1", "r1->r2", "r2->d", "d->r2")]
    results = wattnet.run(line_network(red, {"ecn": True}, 1_000_000, pcap), pcap_dir=out)
    conn = results.connections.iloc[0]
    assert conn.state == "closed" and conn.ecn_reductions >= 1 and conn.ce_marked_packets >= 1, conn
    return out, results


def test_ecn_negotiation_and_codepoints(tshark, ecn):
    out, results = ecn
    conn = results.connections.iloc[0]
    for port, path in [(p, out / f"{p.replace('->', '-')}.pcap") for p in ("s->r1", "r1->r2", "r2->d", "d->r2")]:
        assert len(read(tshark, path)) == port_row(results, port).transmitted_packets
        assert count(tshark, path, "_ws.malformed || _ws.expert.severity >= error") == 0
    sender = out / "s-r1.pcap"
    # RFC 3168 §6.1.1: an ECN-setup SYN has ECE and CWR; the SYN-ACK ECE alone.
    assert fields(tshark, sender, "tcp.flags.syn == 1", "tcp.flags", "ip.dsfield.ecn") == [("0x00c2", "0")]
    assert fields(tshark, out / "d-r2.pcap", "tcp.flags.syn == 1", "tcp.flags") == [("0x0052",)]
    # New data is ECT(0) (10); retransmissions and control segments are Not-ECT.
    new_data = conn.data_packets_sent - conn.retransmissions
    assert count(tshark, sender, "tcp.len > 0 && ip.dsfield.ecn == 2") == new_data
    assert count(tshark, sender, "ip.dsfield.ecn == 2") == new_data
    assert count(tshark, sender, "ip.dsfield.ecn == 1 || ip.dsfield.ecn == 3") == 0
    # The RED queue sets CE (11) on the packets it marks; they cross the next link as they are.
    marked = port_row(results, "r1->r2").marked_packets
    assert marked >= 1
    assert count(tshark, out / "r1-r2.pcap", "ip.dsfield.ecn == 3") == marked
    assert count(tshark, out / "r2-d.pcap", "ip.dsfield.ecn == 3") == conn.ce_marked_packets == marked
    # The receiver echoes each mark with ECE until the sender's CWR; the sender sets CWR on the
    # first new data segment after each reduction, but a reduction after its last one sets none.
    assert count(tshark, out / "d-r2.pcap", "tcp.flags.ece == 1 && tcp.flags.syn == 0") >= marked
    cwr = count(tshark, sender, "tcp.flags.cwr == 1 && tcp.flags.syn == 0")
    assert conn.ecn_reductions - 1 <= cwr <= conn.ecn_reductions


def test_sack_permitted_and_sack_blocks(tshark, tmp_path):
    scenario = line_network(
        {"type": "droptail", "limit_packets": 8},
        {"profile": "linux", "initial_window_segments": 20},
        1_000_000,
        [{"port": "s->r1"}, {"port": "d->r2"}],
    )
    results = wattnet.run(scenario, pcap_dir=tmp_path)
    assert results.connections.iloc[0].retransmissions >= 1
    sender, receiver = tmp_path / "s-r1.pcap", tmp_path / "d-r2.pcap"
    for port, path in (("s->r1", sender), ("d->r2", receiver)):
        assert len(read(tshark, path)) == port_row(results, port).transmitted_packets
        assert count(tshark, path, "_ws.malformed || _ws.expert.severity >= error") == 0
    # MSS, NOP NOP SACK-permitted, NOP window scale and NOP NOP timestamps (the linux profile
    # uses RFC 7323): 24 bytes of options in each SYN.
    assert fields(tshark, sender, "tcp.flags.syn == 1", "ip.len") == [("64",)]
    assert fields(tshark, receiver, "tcp.flags.syn == 1", "ip.len") == [("64",)]
    # Every segment carries the timestamp option.
    for path in (sender, receiver):
        assert count(tshark, path, "tcp.options.timestamp.tsval") == len(read(tshark, path))
    assert count(tshark, sender, "tcp.options.sack_perm") == 1
    assert count(tshark, receiver, "tcp.options.sack_perm") == 1
    acks = fields(tshark, receiver, "tcp.options.sack", "tcp.options.sack.count", "ip.len", "tcp.hdr_len")
    assert acks, "the receiver reported out-of-order data with SACK blocks"
    for blocks, ip_len, header in acks:
        # The engine counts the options in an ACK's size: 40 + 12 of timestamps + 2 NOPs + 2 + 8 per block.
        assert int(ip_len) == 40 + 12 + 4 + 8 * int(blocks) == 20 + int(header)


def test_udp_packets_lengths_ports_ids_and_times(tshark, tmp_path):
    scenario = {
        "seed": 1,
        "duration_s": 1.0,
        "nodes": [{"name": "a"}, {"name": "b c"}],
        "links": [{"a": "a", "b": "b c", "rate_bps": 1e6, "delay_s": 5e-3}],
        "flows": [
            {"name": "first", "src": "b c", "dst": "a", "traffic": {"type": "cbr", "rate_bps": 1e4}},
            {"name": "cbr", "src": "a", "dst": "b c", "traffic": {"type": "cbr", "rate_bps": 4e5}, "start_s": 0.5,
             "packet_size": {"type": "fixed", "bytes": 1000}},
        ],
        "pcap": [{"port": "a->b c", "snap_bytes": 100}],
    }  # fmt: skip
    results = wattnet.run(scenario, pcap_dir=tmp_path)
    path = tmp_path / "a-b_c.pcap"
    rows = fields(
        tshark,
        path,
        "",
        "frame.time_epoch",
        "ip.len",
        "frame.cap_len",
        "udp.length",
        "udp.srcport",
        "udp.dstport",
        "ip.id",
        "ip.ttl",
        "ip.src",
        "ip.dst",
    )
    # 25 packets between 0.5 s and the end at 1 s.
    assert len(rows) == port_row(results, "a->b c").transmitted_packets == 25
    assert count(tshark, path, "_ws.malformed || _ws.expert.severity >= error") == 0
    assert count(tshark, path, "udp && !tcp") == 25
    # CBR at 400 kb/s of 1000-byte packets from 0.5 s: one every 20 ms, each 8 ms on a 1 Mb/s wire.
    assert [row[0] for row in rows[:3]] == ["0.508000000", "0.528000000", "0.548000000"]
    for i, row in enumerate(rows):
        # Flow index 1 sends from port 61001 to the discard port; ids count the port's packets.
        assert row[1:] == ("1000", "100", "980", "61001", "9", f"0x{i:04x}", "64", "10.0.0.1", "10.0.0.2"), row
    assert read(
        tshark, path, "-N", "n", "-H", str(tmp_path / "hosts"), "-T", "fields", "-e", "ip.dst_host", "-c", "1"
    ) == ["b_c"]


def test_captures_are_deterministic_and_cost_no_result(tmp_path):
    scenario = line_network(
        {"type": "droptail", "limit_packets": 8}, None, 300_000, [{"port": "r1->r2"}, {"port": "d->r2"}]
    )
    first = wattnet.run(scenario, pcap_dir=tmp_path / "first")
    second = wattnet.run(scenario, pcap_dir=tmp_path / "second")
    plain = wattnet.run(scenario)
    for name in ("r1-r2.pcap", "d-r2.pcap", "hosts"):
        assert (tmp_path / "first" / name).read_bytes() == (tmp_path / "second" / name).read_bytes()
    assert (tmp_path / "first" / "r1-r2.pcap").stat().st_size > 24
    for table in ("ports", "flows", "connections"):
        assert getattr(first, table).equals(getattr(plain, table))
        assert getattr(second, table).equals(getattr(plain, table))


def test_unknown_or_repeated_ports_name_the_field(scenario_dict):
    scenario_dict["pcap"] = [{"port": "a->b"}, {"port": "a->c"}, {"port": "a->b"}]
    with pytest.raises(wattnet.ScenarioError) as info:
        wattnet.Scenario.from_dict(scenario_dict)
    fields_at_fault = [field for field, _ in info.value.errors]
    assert fields_at_fault == ["pcap[1].port", "pcap[2].port"]
    assert "unknown port 'a->c'" in str(info.value)
    scenario_dict["pcap"] = [{"port": "a->b", "snap_bytes": 0}]
    with pytest.raises(wattnet.ScenarioError, match=r"pcap\[0\]\.snap_bytes"):
        wattnet.Scenario.from_dict(scenario_dict)


def test_the_engine_checks_the_captures_itself(scenario_dict):
    scenario = wattnet.Scenario.from_dict(scenario_dict)
    engine = json.loads(scenario.to_engine_json())
    for captures, message in [
        ([{"port": "a->c", "snap_bytes": None}], "pcap[0].port: unknown port 'a->c'"),
        ([{"port": "b->c", "snap_bytes": None}, {"port": "b->c", "snap_bytes": 64}], "pcap[1].port: port 'b->c' is already captured by pcap[0]"),
        ([{"port": "b->c", "snap_bytes": 0}], "pcap[0].snap_bytes: must be between 1 and 65535 bytes, got 0"),
        ([{"port": "b->c", "bytes": 0}], "pcap[0].bytes: unknown field `bytes`"),
    ]:  # fmt: skip
        with pytest.raises(_engine.ScenarioError) as info:
            _engine.Simulation(json.dumps({**engine, "pcap": captures}))
        assert str(info.value).startswith(message), str(info.value)


def test_a_directory_that_cannot_be_written_raises_oserror_naming_it(scenario_dict, tmp_path):
    scenario_dict["pcap"] = [{"port": "b->c"}]
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("")
    with pytest.raises(OSError) as info:
        wattnet.run(scenario_dict, pcap_dir=blocker)
    assert str(blocker) in str(info.value)
    # A file in the way of the capture itself.
    (tmp_path / "pcap" / "b-c.pcap").mkdir(parents=True)
    with pytest.raises(IsADirectoryError) as info:
        wattnet.run(scenario_dict, pcap_dir=tmp_path / "pcap")
    assert info.value.filename == str(tmp_path / "pcap" / "b-c.pcap")


def test_without_a_directory_nothing_is_captured(scenario_dict, tmp_path, monkeypatch):
    scenario_dict["pcap"] = [{"port": "b->c"}]
    monkeypatch.chdir(tmp_path)
    results = wattnet.run(scenario_dict)
    assert results.summary["packets_sent"] > 0
    assert list(tmp_path.iterdir()) == []


def test_cli_writes_the_captures_under_out_pcap(tshark, tmp_path):
    scenario = tmp_path / "udp.toml"
    scenario.write_text(
        """
seed = 1
duration_s = 0.5
nodes = [{ name = "a" }, { name = "b" }]
links = [{ a = "a", b = "b", rate_bps = 1e6, delay_s = 1e-3 }]
flows = [{ name = "f", src = "a", dst = "b", traffic = { type = "cbr", rate_bps = 1e5 } }]
pcap = [{ port = "a->b" }]
"""
    )
    out = tmp_path / "out"
    done = subprocess.run(
        [str(WATTNET), "run", str(scenario), "--out", str(out)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert f"wrote {out / 'pcap'}" in done.stdout
    assert sorted(p.name for p in (out / "pcap").iterdir()) == ["a-b.pcap", "hosts"]
    assert len(read(tshark, out / "pcap" / "a-b.pcap")) == 7  # 1000-byte packets every 80 ms from t = 0


def test_cli_reports_an_unknown_port_by_its_field(tmp_path):
    scenario = tmp_path / "bad.toml"
    scenario.write_text(
        """
seed = 1
duration_s = 1.0
nodes = [{ name = "a" }, { name = "b" }]
links = [{ a = "a", b = "b", rate_bps = 1e6, delay_s = 1e-3 }]
pcap = [{ port = "b->a" }, { port = "a->c" }]
"""
    )
    done = subprocess.run(
        [str(WATTNET), "run", str(scenario), "--out", str(tmp_path / "out")],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 2
    assert done.stderr.startswith("error: pcap[1].port: unknown port 'a->c'")
    assert not (tmp_path / "out").exists()
