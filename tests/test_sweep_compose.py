"""Sweeps that build and measure: a builder function of the grid's parameters, linked (zip) axes,
a metrics hook stored with each run, the built-in metrics, and resuming after a kill."""

import contextlib
import json
import os
import signal
import subprocess
import sys
import textwrap

import pytest
import wattnet
from test_sweep_failures import finished, group_alive, run_dirs, wait_for_runs, wait_group_gone
from typer.testing import CliRunner
from wattnet import SweepError
from wattnet.cli import app
from wattnet.metrics import builtin_metrics, measure
from wattnet.sweep import expand_grid, plan_sweep, run_sweep
from wattnet.topology import chain

# A run of about a tenth of a second (Poisson at up to 90 % of a 50 Mb/s bottleneck for 60
# simulated seconds), built from its parameters.
STUDY_PARTS = """
import wattnet


def build(limit, rate_bps, load):
    return {
        "seed": 1,
        "duration_s": 60.0,
        "nodes": [{"name": "a"}, {"name": "b"}, {"name": "c"}],
        "links": [
            {"a": "a", "b": "b", "rate_bps": 100e6, "delay_s": 1e-3},
            {"a": "b", "b": "c", "rate_bps": rate_bps, "delay_s": 1e-3,
             "queue": {"type": "droptail", "limit_packets": limit}},
        ],
        "flows": [{"name": "p", "src": "a", "dst": "c", "traffic": {"type": "poisson", "rate_bps": load * rate_bps}}],
    }


def delay_ms(results):
    return {"delay_ms": float(results.flows["mean_delay_s"].iloc[0]) * 1000, "drops_per_s": results.summary[
        "packets_dropped"] / results.summary["duration_s"]}


GRID = {"limit": [20, 50, 100], "zip": {"rate_bps": [30e6, 50e6], "load": [0.6, 0.9]}}


if __name__ == "__main__":
    import sys

    from study_parts import build, delay_ms  # importable by the workers, unlike __main__'s

    wattnet.sweep(build=build, grid=GRID, replications=3, out=sys.argv[1], workers=2, metrics=delay_ms, progress=False)
"""
RUNS = 18


def test_zip_links_axes_and_the_product_combines_them():
    points = expand_grid({"q": [1, 2], "zip": {"a": [10, 20, 30], "b": ["x", "y", "z"]}})
    assert points == [{"q": q, "a": a, "b": b} for q in (1, 2) for a, b in ((10, "x"), (20, "y"), (30, "z"))]
    assert len(expand_grid({"zip": [{"a": [1, 2], "b": [3, 4]}, {"c": [5, 6]}]})) == 4
    with pytest.raises(SweepError, match="one length"):
        expand_grid({"zip": {"a": [1, 2], "b": [3]}})
    # A zipped column may repeat a value; a row may not.
    assert len(expand_grid({"zip": {"a": [1, 1], "b": [3, 4]}})) == 2
    with pytest.raises(SweepError, match="listed twice"):
        expand_grid({"zip": {"a": [1, 1], "b": [3, 3]}})


def test_a_builder_function_makes_each_points_scenario():
    def build(rtt_s):
        return chain(rtt_s).scenario(seed=5, duration_s=1.0)

    runs = plan_sweep(None, {"rtt_s": [0.05, 0.1]}, 2, build=build)
    assert [(r.point, r.replication) for r in runs] == [({"rtt_s": t}, r) for t in (0.05, 0.1) for r in (0, 1)]
    expected = chain(0.1).scenario(seed=runs[3].seed, duration_s=1.0).to_engine_json()
    assert runs[3].scenario_json == expected
    with pytest.raises(SweepError, match="cannot take it"):
        plan_sweep(None, {"delay": [1]}, 1, build=build)
    with pytest.raises(SweepError, match="exactly one of base"):
        run_sweep(None, {}, out="unused", progress=False)
    # A builder that ignores a parameter makes one scenario twice: one run, refused before any runs.
    with pytest.raises(SweepError, match=r"grid points \{'rtt_s': 0.05, 'x': 1\} and .* make the same scenario"):
        plan_sweep(None, {"rtt_s": [0.05], "x": [1, 2]}, 1, build=lambda rtt_s, x: build(rtt_s))


def test_the_builtin_metrics_by_hand():
    # One transfer over the chain; the N1->N2 port asleep from 0.5 s of a 1 s run, idle after
    # the transfer ends. Every other port draws its constant 2 W for the whole second; the
    # sleeper draws 2 W until 0.5 s and nothing after, so the saving is 1 W·0.5 s of all.
    t = chain(0.02)
    flows = [{"name": "f", "src": "S", "dst": "D", "traffic": {"type": "transfer", "bytes": 20_000}}]
    scenario = (
        t.scenario(seed=1, duration_s=1.0, flows=flows)
        .with_power({"type": "constant", "active_w": 2.0, "sleep_w": 0.0}, ports="all")
        .with_sleep(0.5, ports="links:N1->N2")
    )
    results = wattnet.run(scenario)
    metrics = builtin_metrics(results)
    fct = results.connections["transfer_time_s"].iloc[0]
    assert metrics["fct_count"] == 1 and metrics["fct_mean_s"] == metrics["fct_median_s"] == metrics["fct_p99_s"] == fct
    assert metrics["goodput_bps"] == 20_000 * 8 / 1.0
    ports = 2 * len(t.links)
    assert results.summary["full_rate_energy_j"] == pytest.approx(2.0 * ports)
    assert metrics["energy_saving"] == pytest.approx(1.0 / (2.0 * ports))
    assert metrics["timeouts"] == 0
    with pytest.raises(ValueError, match="already a column"):
        measure(results, lambda r: {"energy_j": 1.0})
    with pytest.raises(TypeError, match="a metric is a number"):
        measure(results, lambda r: {"x": "high"})


def test_a_built_and_measured_sweep_resumes_after_a_kill(tmp_path, monkeypatch):
    (tmp_path / "study_parts.py").write_text(textwrap.dedent(STUDY_PARTS))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")]))
    monkeypatch.syspath_prepend(str(tmp_path))
    import study_parts

    out = tmp_path / "out"
    process = subprocess.Popen(
        [sys.executable, str(tmp_path / "study_parts.py"), str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
    )  # fmt: skip
    try:
        wait_for_runs(out, 3, process)
        process.kill()
        process.wait(timeout=30)
        assert wait_group_gone(process.pid), "workers outlived their killed sweep"
    finally:
        if group_alive(process.pid):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
    before = finished(out)
    assert 3 <= len(before) < RUNS, "the sweep finished before it could be killed"
    for key, path in run_dirs(out).items():
        assert (path / "summary.json").exists(), f"run {key} is incomplete"

    outcome = run_sweep(
        None, study_parts.GRID, 3, out=out, workers=2, progress=False,
        build=study_parts.build, metrics=study_parts.delay_ms,
    )  # fmt: skip
    assert (outcome.skipped, outcome.ran, outcome.failed) == (len(before), RUNS - len(before), 0)
    after = finished(out)
    assert {key: after[key] for key in before} == before and len(after) == RUNS
    table = outcome.table
    assert table.attrs["parameters"] == ["limit", "rate_bps", "load"]
    assert sorted(set(zip(table["rate_bps"], table["load"]))) == [(30e6, 0.6), (50e6, 0.9)]
    # The hook's numbers and the built-in ones are stored with every run, the killed sweep's included.
    for key in table["key"]:
        summary = json.loads((out / "runs" / key / "summary.json").read_text())
        assert {"delay_ms", "drops_per_s", "goodput_bps", "fct_p99_s", "energy_saving"} <= set(summary)
    row = table.iloc[-1]
    alone = wattnet.run(
        wattnet.Scenario.from_dict(study_parts.build(int(row["limit"]), row["rate_bps"], row["load"])).with_seed(
            int(row["seed"])
        )
    )
    assert row["delay_ms"] == float(alone.flows["mean_delay_s"].iloc[0]) * 1000
    assert row["goodput_bps"] == builtin_metrics(alone)["goodput_bps"]

    for metric in ("delay_ms", "goodput_bps", "packets_dropped"):
        shown = CliRunner().invoke(app, ["results", str(out), "--ci", metric])
        assert shown.exit_code == 0, shown.output
        assert metric in shown.stdout and "half_width" in shown.stdout


def test_a_sweep_file_takes_linked_axes(tmp_path):
    from conftest import VALID_SCENARIO
    from wattnet.sweep import load_sweep
    from wattnet.toml_writer import to_toml

    (tmp_path / "base.toml").write_text(to_toml(VALID_SCENARIO))
    (tmp_path / "sweep.toml").write_text(
        'base = "base.toml"\n[grid]\n"links[0].rate_bps" = [1e6, 2e6]\n'
        '[grid.zip]\n"flows[0].traffic.rate_bps" = [1e5, 2e5, 4e5]\n"flows[0].start_s" = [0.0, 0.1, 0.2]\n'
    )
    definition = load_sweep(tmp_path / "sweep.toml")
    runs = plan_sweep(definition["base"], definition["grid"], 1)
    assert [tuple(r.point.values()) for r in runs] == [
        (rate, load, start) for rate in (1e6, 2e6) for load, start in ((1e5, 0.0), (2e5, 0.1), (4e5, 0.2))
    ]
