"""The command line's conventions: -h on every command, --version, -v/-q, default output
directories, and runs of the scenario.json a run wrote (TOML and JSON alike)."""

import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
import wattnet
from conftest import ROOT, VALID_SCENARIO
from wattnet.scenario import Scenario, load_scenario, scenario_from_toml

WATTNET = Path(sys.executable).with_name("wattnet")
COMMANDS = ["run", "sweep", "results", "reproduce", "schema", "bench"]


def wattnet_cli(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([str(WATTNET), *args], check=False, capture_output=True, text=True, cwd=cwd, timeout=300)


@pytest.mark.parametrize("command", [[], *[[c] for c in COMMANDS]])
def test_short_and_long_help_on_every_command(command):
    for flag in ("-h", "--help"):
        done = wattnet_cli(*command, flag)
        assert done.returncode == 0, done.stderr
        assert "Usage:" in done.stdout


def test_version_names_the_package_the_engine_and_their_source_hashes():
    done = wattnet_cli("--version")
    assert done.returncode == 0, done.stderr
    engine = wattnet._engine.version()
    assert re.fullmatch(r"wattnet \S+ \(engine \S+\+[0-9a-f]{16}, Python sources [0-9a-f]{12}\)\n", done.stdout)
    assert f"engine {engine}," in done.stdout
    assert done.stdout.startswith(f"wattnet {wattnet.__version__} ")


def test_run_without_out_writes_under_runs_named_by_scenario_and_hash(tmp_path):
    scenario = tmp_path / "chain.toml"
    scenario.write_text((ROOT / "examples" / "chain.toml").read_text())
    done = wattnet_cli("run", str(scenario), "-q", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    digest = hashlib.sha256(load_scenario(scenario).to_engine_json().encode()).hexdigest()
    out = tmp_path / "runs" / f"chain-{digest[:12]}"
    summary = json.loads((out / "summary.json").read_text())
    assert summary["scenario_hash"].startswith(digest[:12])


def test_run_accepts_the_scenario_json_it_wrote(tmp_path):
    first, second = tmp_path / "first", tmp_path / "second"
    assert wattnet_cli("run", "examples/chain.toml", "--out", str(first), "-q").returncode == 0
    done = wattnet_cli("run", str(first / "scenario.json"), "--out", str(second), "-q")
    assert done.returncode == 0, done.stderr
    for name in ("ports", "flows", "timeseries"):
        assert (first / f"{name}.parquet").read_bytes() == (second / f"{name}.parquet").read_bytes(), name
    summaries = [json.loads((d / "summary.json").read_text()) for d in (first, second)]
    assert summaries[0]["scenario_hash"] == summaries[1]["scenario_hash"]


def test_quiet_prints_nothing_and_verbose_prints_debug_detail(tmp_path):
    quiet = wattnet_cli("run", "examples/chain.toml", "--out", str(tmp_path / "q"), "-q")
    assert (quiet.returncode, quiet.stdout, quiet.stderr) == (0, "", "")
    loud = wattnet_cli("run", "examples/chain.toml", "--out", str(tmp_path / "v"), "-v")
    assert loud.returncode == 0, loud.stderr
    assert "debug: examples/chain.toml: 4 nodes, 3 links, 2 flows, seed 1, 10 s" in loud.stderr
    # Without a power model, the run says it accounted no energy.
    assert "note: no port has a power model" in loud.stderr


def test_reproduce_list_needs_no_out():
    done = wattnet_cli("reproduce", "--list")
    assert done.returncode == 0, done.stderr
    assert "capacity-scaling" in done.stdout


def test_to_toml_round_trips_every_example_and_the_full_schema():
    for path in sorted((ROOT / "examples").glob("*.toml")):
        scenario = load_scenario(path)
        assert scenario_from_toml(scenario.to_toml()) == scenario, path.name
    scenario = Scenario.from_dict(
        {
            **VALID_SCENARIO,
            "name": 'quotes " and \\ and ünïcode',
            "links": [
                {
                    "a": "a", "b": "b", "rate_bps": 10e6, "delay_s": 1e-3,
                    "power": {"type": "rate_scaling", "static_w": 1.0, "dynamic_w": 2.5, "scaling": "voltage"},
                    "a_to_b": {"controller": {"type": "practra", "rates_bps": [5e6, 10e6],
                                              "min_rate_change_interval_s": 0.1}},
                },
                VALID_SCENARIO["links"][1],
            ],
        }
    )  # fmt: skip
    text = scenario.to_toml()
    assert "[[links]]" in text and "[routing]" in text
    assert scenario_from_toml(text) == scenario
    assert scenario_from_toml(text).to_engine_json() == scenario.to_engine_json()


def test_load_scenario_reads_json_by_its_suffix(tmp_path):
    scenario = load_scenario(ROOT / "examples" / "onoff.toml")
    path = tmp_path / "s.json"
    path.write_text(scenario.to_engine_json())
    assert load_scenario(path) == scenario
    path.write_text("{not json")
    with pytest.raises(wattnet.ScenarioError, match="invalid JSON"):
        load_scenario(path)


def test_sweep_without_out_writes_under_runs_named_by_the_sweep_file(tmp_path):
    sweep = tmp_path / "tiny.toml"
    sweep.write_text(
        f'base = {json.dumps(str(ROOT / "examples" / "chain.toml"))}\nreplications = 1\n\n[grid]\n"links[1].rate_bps" = [8e6]\n'
    )
    done = wattnet_cli("sweep", str(sweep), "--workers", "1", "-q", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    [store] = (tmp_path / "runs").iterdir()
    assert re.fullmatch(r"tiny-[0-9a-f]{12}", store.name)
    assert (store / "results.parquet").is_file()
    # The same sweep goes to the same store (and runs nothing again).
    again = wattnet_cli("sweep", str(sweep), "--workers", "1", cwd=tmp_path)
    assert f"1 already in the store; table in runs/{store.name}/results.parquet" in again.stdout
