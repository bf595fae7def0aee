"""The edges of the input, each a reproducer of a silent or noisy failure found by fuzzing the
scenario boundary: the clock's range, numbers the results must carry, runaway runs, files the
command line cannot read, names that reach the terminal, and a store damaged on disk."""

import json
import pickle
import signal
import subprocess
import sys
import time
import warnings
from pathlib import Path

import pandas as pd
import pytest
import wattnet
from conftest import ROOT
from wattnet import _engine
from wattnet.cost import check_cost, estimate_cost
from wattnet.errors import CostWarning, RunTooLargeError, ScenarioError, SimulationError, WattnetError
from wattnet.scenario import MAX_TIME_S, Scenario
from wattnet.store import DAMAGED, DONE, Store, load_results
from wattnet.terminal import printable

WATTNET = Path(sys.executable).with_name("wattnet")
DAY_S = 86_400.0


def pair(duration_s=1.0, delay_s=0.001, flows=(), **extra):
    return {
        "seed": 1,
        "duration_s": duration_s,
        "nodes": [{"name": "a"}, {"name": "b"}],
        "links": [{"a": "a", "b": "b", "rate_bps": 1e6, "delay_s": delay_s}],
        "flows": list(flows),
        **extra,
    }


def cbr(rate_bps, **extra):
    traffic = {"type": "cbr", "rate_bps": rate_bps}
    return {
        "name": "f",
        "src": "a",
        "dst": "b",
        "traffic": traffic,
        "packet_size": {"type": "fixed", "bytes": 1000},
        **extra,
    }


def error_of(data) -> tuple[str, str]:
    with pytest.raises(ScenarioError) as raised:
        Scenario.from_dict(data)
    return raised.value.path, raised.value.message


def wattnet_cli(*args, **kwargs):
    return subprocess.run([str(WATTNET), *args], check=False, capture_output=True, text=True, cwd=ROOT, **kwargs)


# ---- time that cannot lie ----


@pytest.mark.parametrize(
    "data, field",
    [
        (pair(duration_s=300 * DAY_S), "duration_s"),
        (pair(delay_s=2e7), "links[0].delay_s"),
        (pair(events=[{"action": "link_down", "at_s": 250 * DAY_S, "a": "a", "b": "b"}]), "events[0].at_s"),
        (pair(flows=[cbr(8e3, stop_s=300 * DAY_S)]), "flows[0].stop_s"),
    ],
    ids=["300-day run", "2e7 s delay", "action at 250 days", "stop at 300 days"],
)
def test_times_past_the_clock_name_the_field_and_the_limit(data, field):
    path, message = error_of(data)
    assert path == field
    assert f"{MAX_TIME_S} s (213.5 days)" in message


def test_the_engine_checks_the_clock_too_and_its_error_is_structured():
    # Hand-written JSON skips pydantic: the engine's own error crosses as wattnet's ScenarioError.
    with pytest.raises(ScenarioError) as raised:
        _engine.Simulation(json.dumps(pair(duration_s=300 * DAY_S)))
    error = raised.value
    assert isinstance(error, WattnetError) and _engine.ScenarioError is ScenarioError
    assert error.path == "duration_s"
    assert "213.5 days" in error.message
    assert str(error) == f"duration_s: {error.message}"


def test_a_duration_below_a_picosecond_is_reported_where_it_was_set():
    # It used to be reported on flows[0].stop_s, a field the input does not set.
    path, message = error_of(pair(duration_s=4e-13, flows=[cbr(8e3)]))
    assert path == "duration_s"
    assert "resolution of 1 ps" in message
    assert Scenario.from_dict(pair(duration_s=6e-13)).duration_s == 6e-13  # rounds to 1 ps


# ---- every accepted number survives to the results ----


def test_a_transfer_beyond_int64_is_refused_and_the_largest_runs():
    # 2^64 - 1 bytes used to run and then fail building the connections table (OverflowError).
    flow = {"name": "t", "src": "a", "dst": "b", "traffic": {"type": "transfer", "bytes": 2**64 - 1}}
    path, message = error_of(pair(flows=[flow]))
    assert path == "flows[0].traffic.bytes"
    assert "less than or equal to 9223372036854775807" in message
    flow["traffic"]["bytes"] = 2**63 - 1
    results = wattnet.run(pair(flows=[flow]))
    assert results.connections["transfer_bytes"].tolist() == [2**63 - 1]


def test_a_power_that_makes_energy_infinite_is_refused():
    # card_capacity_bps = 1e-308 used to give energy_j = Infinity.
    data = pair()
    data["links"][0]["power"] = {"type": "line_card", "card_capacity_bps": 1e-308, "card_w": 1.0}
    with pytest.raises(ScenarioError) as raised:
        wattnet.run(data)
    assert raised.value.path == "links[0].power"


def test_summary_json_holds_no_infinity_or_nan(tmp_path):
    results = wattnet.run(pair(flows=[cbr(8e3)]))
    results.summary = {**results.summary, "energy_j": float("inf"), "other": float("nan")}
    odd = results
    text = (odd.write(tmp_path) / "summary.json").read_text()

    def refuse(token):
        raise AssertionError(f"non-JSON token {token}")

    summary = json.loads(text, parse_constant=refuse)
    assert summary["energy_j"] is None and summary["other"] is None
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


@pytest.mark.parametrize("rate", [0.008, 1.5, 1e308])
def test_cbr_rates_the_engine_cannot_keep_are_errors(rate):
    # 0.008 bit/s used to run at 1 bit/s.
    path, message = error_of(pair(flows=[cbr(rate)]))
    assert path == "flows[0].traffic.rate_bps"
    assert "bit/s" in message or "less than or equal to" in message or "greater than or equal to" in message
    with pytest.raises(ScenarioError) as raised:
        _engine.Simulation(json.dumps(pair(flows=[cbr(rate)])))
    assert raised.value.path == "flows[0].traffic.rate_bps"


# ---- cost estimates and Ctrl-C ----


def test_the_event_estimate_matches_a_run():
    # 8e5 bit/s of 1000 B packets for 1 s over one link: 100 packets, each emitted and
    # delivered (none waits behind another, so no transmission's end is an event): 200 events
    # (the engine's count too).
    data = pair(delay_s=0.001, flows=[cbr(8e5)])
    cost = estimate_cost(Scenario.from_dict(data))
    assert cost.events == 200
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert wattnet.run(data).summary["events"] == 200


def test_a_recorder_that_cannot_fit_in_memory_is_refused_unless_forced():
    # 1 ns over 3 s: 3e9 intervals × 2 ports × 3 quantities = 1.8e10 samples, at least 576 GB.
    scenario = Scenario.from_dict(pair(duration_s=3.0, recorder={"interval_s": 1e-9}))
    with pytest.raises(RunTooLargeError) as raised:
        wattnet.run(scenario)
    assert raised.value.path == "recorder.interval_s"
    assert "force" in raised.value.message
    with pytest.warns(CostWarning, match="1.8e\\+10 recorded samples"):
        assert check_cost(scenario, force=True).samples == 1.8e10


def test_a_huge_event_count_warns():
    # 1e13 bit/s of 1000 B packets for 3 s: 3.75e9 packets, 2 events each (a CBR source at 1e308
    # bit/s used to start 3e12 events without a word).
    fast = [{"a": "a", "b": "b", "rate_bps": 1e13, "delay_s": 0.001}]
    scenario = Scenario.from_dict(pair(duration_s=3.0, flows=[cbr(1e13)], links=fast))
    with pytest.warns(CostWarning, match="7.5e\\+09 events .most from flows.0.."):
        check_cost(scenario)


def test_ctrl_c_stops_a_long_run_within_a_second_and_writes_nothing(tmp_path):
    scenario = tmp_path / "long.toml"
    scenario.write_text(
        'seed = 1\nduration_s = 100000.0\nnodes = [{name = "a"}, {name = "b"}]\n'
        'links = [{a = "a", b = "b", rate_bps = 1e9, delay_s = 0.001}]\n'
        '[[flows]]\nname = "f"\nsrc = "a"\ndst = "b"\ntraffic = {type = "cbr", rate_bps = 1e9}\n'
    )
    out = tmp_path / "out"
    process = subprocess.Popen(
        [str(WATTNET), "run", str(scenario), "--out", str(out)], stderr=subprocess.PIPE, text=True, cwd=ROOT
    )
    # The warning about its size comes just before the run starts.
    assert process.stderr.readline().startswith("warning: a large run")
    time.sleep(1.0)
    assert process.poll() is None, "the run ended by itself"
    process.send_signal(signal.SIGINT)
    started = time.monotonic()
    process.wait(timeout=10)
    assert time.monotonic() - started < 1.0
    assert process.returncode == 130
    assert "interrupted; no results written" in process.stderr.read()
    assert not out.exists()


# ---- files the command line cannot read ----


def test_unreadable_scenario_files_exit_2_with_one_line(tmp_path):
    not_utf8 = tmp_path / "latin1.toml"
    not_utf8.write_bytes('name = "caf\xe9"\n'.encode("latin-1"))
    deep = tmp_path / "deep.toml"
    deep.write_text("x = " + "[" * 100_000 + "]" * 100_000 + "\n")
    for path, words in [(not_utf8, "not UTF-8 text (byte 11 is 0xe9)"), (deep, "nested too deeply")]:
        done = wattnet_cli("run", str(path), "--out", str(tmp_path / "out"), timeout=60)
        assert done.returncode == 2, done.stderr
        assert done.stderr.count("\n") == 1 and words in done.stderr, done.stderr
        assert "Traceback" not in done.stderr


def test_an_unusable_out_is_refused_before_the_run(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    for out, words in [(blocker, "exists and is not a directory"), (blocker / "sub", "cannot write there")]:
        done = wattnet_cli("run", "examples/chain.toml", "--out", str(out), timeout=60)
        assert done.returncode == 2, done.stderr
        assert done.stderr.startswith(f"error: --out {out}: {words}"), done.stderr
        assert done.stderr.count("\n") == 1, done.stderr


def test_a_sweep_into_an_unusable_out_names_out(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    sweep = tmp_path / "sweep.toml"
    sweep.write_text(f'base = "{ROOT / "examples" / "chain.toml"}"\n')
    done = wattnet_cli("sweep", str(sweep), "--out", str(blocker / "store"), timeout=60)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith(f"error: --out {blocker / 'store'}: cannot write there"), done.stderr
    missing = wattnet_cli("sweep", str(tmp_path / "none.toml"), "--out", str(tmp_path / "s"), timeout=60)
    assert (missing.returncode, missing.stderr) == (2, f"error: {tmp_path / 'none.toml'}: no such file\n")


# ---- names reach the terminal as text ----


def test_printable_escapes_control_characters():
    assert printable("plain [/bold] name") == "plain [/bold] name"
    assert printable("\x1b]0;TITLE\x07 x\ty\u202e") == "\\x1b]0;TITLE\\x07 x\\x09y\\u202e"


def test_markup_and_escapes_in_names_are_shown_as_text(monkeypatch, capfd):
    # A name such as "[/bold] run" used to raise rich.errors.MarkupError in the progress display.
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.setenv("TERM", "xterm")
    data = pair(flows=[cbr(8e3)], name="[/bold] run \x1b]0;TITLE\x07")
    wattnet.run(data, progress=True)
    assert "\x1b]0;TITLE" not in capfd.readouterr().err


def test_error_messages_escape_names(tmp_path):
    scenario = tmp_path / "s.toml"
    scenario.write_text(
        'seed = 1\nduration_s = 1.0\nnodes = [{name = "a"}]\n'
        '[[flows]]\nname = "f"\nsrc = "a"\ndst = "\\u001b]0;TITLE\\u0007"\ntraffic = {type = "cbr", rate_bps = 1000}\n'
    )
    done = wattnet_cli("run", str(scenario), "--out", str(tmp_path / "out"), timeout=60)
    assert done.returncode == 2
    assert "\x1b" not in done.stderr and "\\x1b]0;TITLE\\x07" in done.stderr


# ---- a store that verifies itself ----


@pytest.fixture()
def store(tmp_path):
    out = tmp_path / "store"
    wattnet.sweep(pair(flows=[cbr(8e3)]), {"flows[0].traffic.rate_bps": [8e3, 16e3, 24e3]}, out=out, executor="serial", progress=False)  # fmt: skip
    return out


def test_damaged_runs_are_reported_by_name_and_redone(store):
    keys = sorted(p.name for p in (store / "runs").iterdir())
    truncated, emptied, intact = keys
    flows = store / "runs" / truncated / "flows.parquet"
    flows.write_bytes(flows.read_bytes()[:100])
    (store / "runs" / emptied / "summary.json").write_bytes(b"")

    table = load_results(store)
    assert dict(zip(table["key"], table["status"])) == {truncated: DAMAGED, emptied: DAMAGED, intact: DONE}
    done = wattnet_cli("results", str(store), timeout=60)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "3 runs (1 done, 0 failed, 2 damaged)" in done.stdout
    assert f"run {truncated}: damaged: flows.parquet does not match its checksum" in done.stderr
    assert f"run {emptied}: damaged: summary.json does not match its checksum" in done.stderr

    # Running the sweep again recomputes exactly the damaged runs, which then read back whole.
    before = (store / "runs" / intact / "summary.json").stat().st_ino
    table = wattnet.sweep(pair(flows=[cbr(8e3)]), {"flows[0].traffic.rate_bps": [8e3, 16e3, 24e3]}, out=store, executor="serial", progress=False)  # fmt: skip
    assert (table["status"] == DONE).all()
    assert (store / "runs" / intact / "summary.json").stat().st_ino == before
    assert all(Store(store).damage(key) is None for key in keys)
    assert len(pd.read_parquet(store / "runs" / truncated / "flows.parquet")) == 1


def test_a_run_without_a_manifest_or_with_unreadable_params_is_damaged_not_a_crash(store):
    keys = sorted(p.name for p in (store / "runs").iterdir())
    (store / "runs" / keys[0] / "manifest.json").unlink()
    (store / "runs" / keys[1] / "params.json").write_text("{not json")
    (store / "sweep.json").write_text("")
    table = load_results(store)
    assert table.set_index("key").loc[keys[0], "error"] == "damaged: manifest.json is missing"
    assert table.set_index("key").loc[keys[1], "error"] == "damaged: params.json does not match its checksum"


def test_error_classes_form_one_hierarchy():
    assert issubclass(SimulationError, WattnetError) and issubclass(SimulationError, RuntimeError)
    assert issubclass(RunTooLargeError, ScenarioError)
    assert _engine.SimulationError is SimulationError
    error = RunTooLargeError([("recorder.interval_s", "too many")])
    assert type(pickle.loads(pickle.dumps(error))) is RunTooLargeError
