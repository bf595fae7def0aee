"""Runs through the engine: determinism, conservation of packets, and answers worked by hand."""

import json
import math
import subprocess
import sys

import pandas as pd
import pytest
import wattnet
from conftest import EXAMPLES, ROOT
from wattnet import _engine
from wattnet.bench import cbr_chain_scenario
from wattnet.results import TABLES

CHAIN = ROOT / "examples" / "chain.toml"


def parquet_bytes(directory):
    return {name: (directory / f"{name}.parquet").read_bytes() for name in TABLES}


def test_same_seed_writes_identical_files(tmp_path):
    first = wattnet.run(CHAIN).write(tmp_path / "first")
    second = wattnet.run(CHAIN).write(tmp_path / "second")
    assert parquet_bytes(first) == parquet_bytes(second)
    assert (first / "scenario.json").read_bytes() == (second / "scenario.json").read_bytes()


def test_another_seed_gives_other_poisson_traffic(tmp_path):
    scenario = wattnet.load_scenario(CHAIN)
    first = wattnet.run(scenario)
    other = wattnet.run(scenario.with_seed(scenario.seed + 1))
    assert first.summary["scenario_hash"] != other.summary["scenario_hash"]
    sent = lambda results: results.flows.set_index("flow")["sent_bytes"]
    assert sent(first)["poisson"] != sent(other)["poisson"]
    assert sent(first)["cbr"] == sent(other)["cbr"]  # CBR draws no random numbers
    assert parquet_bytes(first.write(tmp_path / "a"))["flows"] != parquet_bytes(other.write(tmp_path / "b"))["flows"]


def test_results_do_not_depend_on_how_the_run_is_chunked():
    engine_json = wattnet.load_scenario(CHAIN).to_engine_json()
    at_once = _engine.Simulation(engine_json)
    at_once.run_until(at_once.end_s)
    in_chunks = _engine.Simulation(engine_json)
    steps = 997  # chunk ends fall between events at all sorts of phases
    for i in range(1, steps + 1):
        in_chunks.run_until(in_chunks.end_s * i / steps)
    assert at_once.finished and in_chunks.finished
    # repr is exact for floats and equal for NaN (cells without a value), unlike ==.
    assert repr(at_once.results()) == repr(in_chunks.results())


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda path: path.name)
def test_packets_are_conserved(path):
    results = wattnet.run(path)
    s = results.summary
    assert s["packets_sent"] > 0
    assert s["packets_dropped"] > 0, "each example overloads a queue, so that drops are counted"
    assert s["packets_sent"] == s["packets_received"] + s["packets_dropped"] + s["packets_in_network"]
    flows = results.flows
    assert (flows.sent_packets == flows.received_packets + flows.dropped_packets + flows.in_network_packets).all()
    assert flows.sent_packets.sum() == s["packets_sent"]
    assert flows.received_packets.sum() == s["packets_received"]
    assert results.ports.transmitted_packets.sum() == s["packets"]


def test_one_packet_delay_is_serialization_plus_propagation():
    # 1000 B at 8 Mb/s takes 1 ms to serialize on each of 3 links; propagation 1 + 2 + 3 ms.
    scenario = {
        "seed": 1,
        "duration_s": 1.0,
        "nodes": [{"name": n} for n in ("h0", "r1", "r2", "h3")],
        "links": [
            {"a": "h0", "b": "r1", "rate_bps": 8e6, "delay_s": 1e-3},
            {"a": "r1", "b": "r2", "rate_bps": 8e6, "delay_s": 2e-3},
            {"a": "r2", "b": "h3", "rate_bps": 8e6, "delay_s": 3e-3},
        ],
        # One packet every second from t = 0, stopped before the second one.
        "flows": [
            {
                "name": "one",
                "src": "h0",
                "dst": "h3",
                "traffic": {"type": "cbr", "rate_bps": 8000.0},
                "packet_size": {"type": "fixed", "bytes": 1000},
                "stop_s": 0.5,
            }
        ],
    }
    flow = wattnet.run(scenario).flows.set_index("flow").loc["one"]
    assert flow.sent_packets == 1 and flow.received_packets == 1
    assert flow.mean_delay_s == pytest.approx(3 * 1e-3 + (1e-3 + 2e-3 + 3e-3), abs=1e-12)


def test_recorder_and_rate_change_follow_the_scheduled_event():
    results = wattnet.run(CHAIN)
    [change] = results.rate_changes.itertuples()
    assert (change.time_s, change.port, change.old_rate_bps, change.new_rate_bps) == (6.0, "r1->r2", 10e6, 5e6)
    series = results.timeseries
    assert set(series.entity) == {"r1->r2"}
    assert set(series.quantity) == {"queue_packets", "rate_bps", "arrival_rate_bps"}
    rate = series[series.quantity == "rate_bps"]
    assert (rate[rate.time_s < 5.95].value == 10e6).all() and (rate[rate.time_s > 6.05].value == 5e6).all()
    assert len(rate) >= 99  # a sample every 100 ms over 10 s
    port = results.ports.set_index("port").loc["r1->r2"]
    assert port.rate_changes == 1 and port.final_rate_bps == 5e6


def test_recorder_samples_reds_average_as_of_the_last_arrival():
    """1000 B packets every 5 ms (from 2.5 ms) into 1 Mb/s (8 ms each): arrival k finds
    k − ⌊5k/8⌋ − 1 packets waiting (k before it, ⌊5k/8⌋ sent, one in service; no ties at the
    arrivals that matter). With w_q = 1 RED's average is that count: at 1 s the last arrival
    is k = 199 (74 waiting), at 2 s k = 399 (149). The queue itself holds one more by then."""
    scenario = {
        "seed": 1,
        "duration_s": 2.0,
        "nodes": [{"name": "a"}, {"name": "b"}],
        "links": [{"a": "a", "b": "b", "rate_bps": 1e6, "delay_s": 0.001, "a_to_b": {
            "queue": {"type": "red", "min_th": 1000, "max_th": 2000, "w_q": 1.0, "max_p": 0.1, "limit_packets": 5000}}}],
        "flows": [{"name": "f", "src": "a", "dst": "b", "start_s": 0.0025, "traffic": {"type": "cbr", "rate_bps": 1.6e6}}],
        "recorder": {"interval_s": 1.0, "ports": ["a->b", "b->a"], "quantities": ["red_average", "queue_packets"]},
    }  # fmt: skip
    series = wattnet.run(scenario).timeseries.set_index(["entity", "quantity", "time_s"])["value"]
    assert [series["a->b", "red_average", t] for t in (1.0, 2.0)] == [74.0, 149.0]
    assert [series["a->b", "queue_packets", t] for t in (1.0, 2.0)] == [75.0, 150.0]
    # DropTail has no average.
    assert math.isnan(series["b->a", "red_average", 1.0])


def test_bench_chain_carries_its_load_without_loss():
    hops = 3
    results = wattnet.run(cbr_chain_scenario(hops=hops, flows=2))
    s = results.summary
    assert s["packets_dropped"] == 0  # 1.8 Gb/s on 10 Gb/s links
    assert hops * s["packets_received"] <= s["packets"] <= hops * s["packets_sent"]


def test_summary_json_names_the_run(tmp_path):
    results = wattnet.run(CHAIN, progress=True)
    written = json.loads((results.write(tmp_path) / "summary.json").read_text())
    assert written == results.summary
    # The package version and a hash of the engine's sources.
    assert written["engine_version"] == _engine.version()
    version, source_hash = _engine.version().split("+")
    assert version == wattnet.__version__ and len(source_hash) == 16
    assert len(written["scenario_hash"]) == 64


def test_engine_error_becomes_scenario_error_naming_the_field():
    scenario = wattnet.load_scenario(CHAIN)
    scenario.links[1].rate_bps = -1.0  # assignment is not validated: this reaches the engine's own check
    with pytest.raises(wattnet.ScenarioError) as raised:
        wattnet.run(scenario)
    assert raised.value.errors[0][0] == "links[1].rate_bps"


def test_tables_without_rows_keep_their_column_types(tmp_path):
    import pyarrow.parquet as pq

    with_rows = wattnet.run(CHAIN).write(tmp_path / "rows")
    quiet = wattnet.load_scenario(CHAIN).model_dump()
    quiet.update(flows=[], events=[], recorder=None)
    without_rows = wattnet.run(quiet).write(tmp_path / "empty")
    for name in TABLES:
        schema = pq.read_schema(with_rows / f"{name}.parquet")
        assert pq.read_schema(without_rows / f"{name}.parquet").types == schema.types, name
    assert pq.read_table(without_rows / "rate_changes.parquet").num_rows == 0


def test_a_run_writes_only_the_tables_asked_for_without_pandas(tmp_path):
    # pandas is imported only when a DataFrame is first read: writing goes through pyarrow.
    script = (
        "import sys, wattnet\n"
        f"wattnet.run({str(CHAIN)!r}).write({str(tmp_path)!r}, ['flows', 'nodes'])\n"
        "print('pandas.core' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False", done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "flows.parquet", "nodes.parquet", "scenario.json", "summary.json"
    ]  # fmt: skip
    assert len(pd.read_parquet(tmp_path / "flows.parquet")) == 2


def test_unknown_tables_are_refused_by_name(tmp_path):
    with pytest.raises(ValueError, match="unknown table 'flow'"):
        wattnet.run(CHAIN).write(tmp_path, ["flow"])
