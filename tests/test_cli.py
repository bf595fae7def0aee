"""The `wattnet` command, run as a user runs it: the installed console script in a subprocess."""

import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
from conftest import ROOT

WATTNET = Path(sys.executable).with_name("wattnet")

# The columns the engine documents for each table.
COLUMNS = {
    "ports": [
        "port", "from", "to", "enqueued_packets", "enqueued_bytes", "dropped_packets", "dropped_bytes",
        "early_dropped_packets", "marked_packets", "transmitted_packets", "transmitted_bytes",
        "link_down_drops", "corrupted_packets", "corrupted_bytes", "busy_time_s", "utilization", "mean_queue_packets",
        "mean_queue_bytes", "mean_rate_bps", "final_rate_bps", "rate_changes", "frozen_time_s", "rate_tunes",
        "energy_j", "mean_power_w", "full_rate_energy_j", "asleep_time_s", "low_power_idle_time_s", "sleeps",
    ],
    "flows": [
        "flow", "src", "dst", "sent_packets", "sent_bytes", "received_packets", "received_bytes",
        "dropped_packets", "in_network_packets", "mean_delay_s", "delivered_bytes", "path_hops_start",
        "path_hops_end", "goodput_bps",
    ],
    "timeseries": ["time_s", "entity", "quantity", "value"],
    "rate_changes": ["time_s", "port", "old_rate_bps", "new_rate_bps"],
    "connections": [
        "flow", "connection", "sender", "receiver", "transfer_bytes", "opened_s", "completed_s", "transfer_time_s",
        "delivered_bytes", "goodput_bps", "data_packets_sent", "retransmissions", "timeouts", "fast_retransmits",
        "ecn_reductions", "syn_retries", "data_packets_received", "duplicate_packets", "ce_marked_packets", "acks_sent",
        "handshake_acks",
        "final_cwnd_segments", "srtt_s", "host_energy_j", "subflows", "reinjected_bytes", "state",
    ],
    "subflows": [
        "flow", "connection", "subflow", "path", "bytes_sent", "bytes_acked", "retransmissions", "fast_retransmits",
        "timeouts", "srtt_s", "mean_srtt_s", "min_rtt_s", "final_cwnd_segments", "goodput_bps", "host_energy_j",
    ],
    "cwnd_trace": ["time_s", "flow", "connection", "subflow", "cwnd_segments", "ssthresh_segments"],
    "routing_events": ["time_s", "node", "changed_destinations"],
    "rate_time": ["port", "rate_bps", "time_s"],
    "nodes": ["node", "packets_sent", "packets_received", "ports_energy_j", "host_energy_j"],
}  # fmt: skip
# The chain example has no TCP flow, no link change and no power model: these tables have
# columns and no rows.
EMPTY_TABLES = ("connections", "subflows", "cwnd_trace", "routing_events", "rate_time")


def wattnet(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(WATTNET), *args], check=False, capture_output=True, text=True, cwd=ROOT, timeout=300)


def test_run_writes_summary_and_tables(tmp_path):
    out = tmp_path / "chain"
    done = wattnet("run", "examples/chain.toml", "--out", str(out), "--quiet")
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""
    for table, columns in COLUMNS.items():
        frame = pd.read_parquet(out / f"{table}.parquet")
        assert list(frame.columns) == columns, table
        assert (len(frame) == 0) if table in EMPTY_TABLES else (len(frame) > 0), table
    summary = json.loads((out / "summary.json").read_text())
    for key in ["scenario_hash", "seed", "engine_version", "wall_time_s", "events", "packets", "packets_sent",
                "packets_received", "packets_dropped", "packets_in_network"]:  # fmt: skip
        assert key in summary, key
    assert summary["seed"] == 1
    assert json.loads((out / "scenario.json").read_text())["name"] == "chain"


def test_run_reports_where_it_wrote(tmp_path):
    done = wattnet("run", "examples/onoff.toml", "--out", str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert f"wrote {tmp_path}" in done.stdout


def test_seed_option_replaces_the_scenario_seed(tmp_path):
    done = wattnet("run", "examples/chain.toml", "--out", str(tmp_path), "--seed", "42", "--quiet")
    assert done.returncode == 0, done.stderr
    assert json.loads((tmp_path / "summary.json").read_text())["seed"] == 42


def test_bad_scenario_exits_2_naming_the_field(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text((ROOT / "examples" / "chain.toml").read_text().replace("rate_bps = 10e6", "rate_bps = -10e6"))
    done = wattnet("run", str(bad), "--out", str(tmp_path / "out"))
    assert done.returncode == 2
    assert done.stderr.startswith("error: links[1].rate_bps: input should be greater than or equal to 1")
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "out").exists()


def test_several_faults_print_one_line_each(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('seed = 1\nduration_s = -1\nnodes = [{ name = "a" }]\ncolour = "red"\n')
    done = wattnet("run", str(bad), "--out", str(tmp_path / "out"))
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "error: duration_s: input should be greater than 0 (got -1)",
        "error: colour: unknown field",
    ]


def test_missing_file_is_a_clear_error(tmp_path):
    done = wattnet("run", str(tmp_path / "nowhere.toml"), "--out", str(tmp_path / "out"))
    assert done.returncode == 2
    assert done.stderr == f"error: {tmp_path / 'nowhere.toml'}: no such file\n"


def test_invalid_toml_is_a_clear_error(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("seed = = 1\n")
    done = wattnet("run", str(bad), "--out", str(tmp_path / "out"))
    assert done.returncode == 2
    assert done.stderr.startswith(f"error: {bad}: invalid TOML")


def test_schema_is_json_schema_of_a_scenario():
    done = wattnet("schema")
    assert done.returncode == 0, done.stderr
    schema = json.loads(done.stdout)
    assert schema["type"] == "object"
    assert schema["additionalProperties"] is False
    assert {"seed", "duration_s", "nodes", "links", "flows", "events", "recorder"} <= set(schema["properties"])
    assert set(schema["required"]) == {"seed", "duration_s", "nodes"}


def test_unknown_benchmark_exits_2():
    done = wattnet("bench", "--only", "warp_drive")
    assert done.returncode == 2
    assert "unknown benchmark 'warp_drive'" in done.stderr
