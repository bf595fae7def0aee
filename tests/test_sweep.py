"""Sweeps: grid expansion, seeds, the Dask executor, the store shared by sweeps and the confidence
intervals over replications (runs that fail and resumes: test_sweep_failures.py)."""

import copy
import json
import math
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import wattnet
from conftest import EXAMPLES, ROOT, VALID_SCENARIO
from wattnet import SweepError
from wattnet.results import TABLES
from wattnet.scenario import Scenario
from wattnet.store import Store, StoreBusyError, load_results, run_key
from wattnet.sweep import (
    derive_seed,
    expand_grid,
    load_sweep,
    mean_ci,
    plan_sweep,
    replication_means,
    run_sweep,
    sparse_dump,
)

WATTNET = Path(sys.executable).with_name("wattnet")


def tcp_scenario(**tcp):
    """One bulk TCP flow over two links for half a simulated second."""
    flow = {"name": "bulk", "src": "a", "dst": "c", "traffic": {"type": "bulk"}}
    if tcp:
        flow["tcp"] = tcp
    return {**copy.deepcopy(VALID_SCENARIO), "duration_s": 0.5, "flows": [flow], "events": []}


# --- grid and seeds ----------------------------------------------------------------------------


def test_grid_is_the_product_of_its_values_in_order():
    grid = {"links[1].rate_bps": [5e6, 10e6], "flows[0].traffic.rate_bps": [1e6, 2e6, 3e6]}
    points = expand_grid(grid)
    assert len(points) == 6
    assert points[0] == {"links[1].rate_bps": 5e6, "flows[0].traffic.rate_bps": 1e6}
    assert points[1] == {"links[1].rate_bps": 5e6, "flows[0].traffic.rate_bps": 2e6}
    assert points[5] == {"links[1].rate_bps": 10e6, "flows[0].traffic.rate_bps": 3e6}
    assert expand_grid({}) == [{}]
    # TOML's dotted keys arrive as nested tables; NumPy values become plain Python values.
    nested = expand_grid({"routing": {"ttl": np.array([32, 64])}, "links[0]": {"delay_s": [1e-3]}})
    assert nested == [{"routing.ttl": 32, "links[0].delay_s": 1e-3}, {"routing.ttl": 64, "links[0].delay_s": 1e-3}]
    assert type(nested[0]["routing.ttl"]) is int


def test_planned_runs_carry_the_grid_values_and_seeds():
    runs = plan_sweep(VALID_SCENARIO, {"links[1].rate_bps": [5e6, 10e6], "recorder.interval_s": [0.1, 0.2]}, 3, seed=5)
    assert len(runs) == 12
    assert [(r.point_index, r.replication) for r in runs[:4]] == [(0, 0), (0, 1), (0, 2), (1, 0)]
    for run in runs:
        data = json.loads(run.scenario_json)
        assert data["links"][1]["rate_bps"] == run.point["links[1].rate_bps"]
        assert data["recorder"]["interval_s"] == run.point["recorder.interval_s"]
        assert data["seed"] == run.seed == derive_seed(5, run.replication)
        assert run.key == run_key(run.scenario_json, wattnet._engine.version())
    assert len({r.key for r in runs}) == 12
    # The base's seed is the default base seed.
    assert plan_sweep(VALID_SCENARIO, {}, 2)[1].seed == derive_seed(VALID_SCENARIO["seed"], 1)


def test_seeds_are_deterministic_distinct_and_not_consecutive():
    assert derive_seed(1, 0) == derive_seed(1, 0)
    # Pinned: a sweep's seeds must not change between wattnet (or NumPy) versions.
    assert [derive_seed(0, r) for r in range(3)] == [
        int(np.random.SeedSequence(0, spawn_key=(r,)).generate_state(1, dtype=np.uint64)[0]) for r in range(3)
    ]
    assert derive_seed(11, 0) == 16347841621347268350
    seeds = {(b, r): derive_seed(b, r) for b in range(20) for r in range(200)}
    assert len(set(seeds.values())) == len(seeds)
    # Not base + r: neighbouring base seeds share no seed.
    assert derive_seed(1, 1) != derive_seed(2, 0)
    assert all(0 <= s < 2**64 for s in seeds.values())
    with pytest.raises(SweepError, match="seed"):
        derive_seed(-1, 0)


@pytest.mark.parametrize(
    ("grid", "message"),
    [
        ({"links[x].rate_bps": [1e6]}, "grid 'links[x].rate_bps': not a field path"),
        ({"links[1].rate": [1e6]}, "grid 'links[1].rate': links[1] has no field 'rate'"),
        ({"links[7].rate_bps": [1e6]}, "grid 'links[7].rate_bps': links has 2 entries in the base scenario, so no [7]"),
        ({"duration_s[0]": [1.0]}, "grid 'duration_s[0]': duration_s is not a list"),
        ({"duration_s.x": [1.0]}, "grid 'duration_s.x': duration_s is a value, not a table"),
        ({"links.rate_bps": [1e6]}, "grid 'links.rate_bps': links is a list, not a table"),
        ({"nodes[0].nme": ["x"]}, "grid 'nodes[0].nme': nodes[0] has no field 'nme'"),
        ({"seed": [1, 2]}, 'grid "seed": the seed is set by the replications'),
        ({"duration_s": []}, "grid 'duration_s': needs at least one value"),
        ({"duration_s": 2.0}, "grid 'duration_s': a list of values"),
        ({"duration_s": [1.0, 1.0]}, "grid 'duration_s': the value 1.0 is listed twice"),
        # A path through a table the base leaves out is created, and validation names the field.
        ({"flows[0].tcp.mss": [1000]}, "grid 'flows[0].tcp.mss' = 1000: flows[0].tcp.mss: unknown field"),
    ],
)
def test_bad_grid_paths_are_named_before_anything_runs(tmp_path, grid, message):
    out = tmp_path / "out"
    with pytest.raises(SweepError) as caught:
        wattnet.sweep(VALID_SCENARIO, grid, out=out, progress=False)
    assert message in str(caught.value)
    assert not out.exists()


def test_a_grid_value_the_scenario_rejects_is_named_before_anything_runs(tmp_path):
    out = tmp_path / "out"
    with pytest.raises(SweepError) as caught:
        wattnet.sweep(VALID_SCENARIO, {"links[1].rate_bps": [5e6, -1.0]}, replications=2, out=out, progress=False)
    assert str(caught.value) == (
        "grid 'links[1].rate_bps' = -1.0: links[1].rate_bps: input should be greater than or equal to 1 (got -1.0)"
    )
    assert not out.exists()
    # A problem between fields names the grid point.
    with pytest.raises(SweepError, match=r"grid point \{'duration_s': 0.8\}: events\[0\].at_s: outside the run"):
        wattnet.sweep(VALID_SCENARIO, {"duration_s": [2.0, 0.8]}, out=out, progress=False)
    # Two points that make the same scenario would be one run.
    with pytest.raises(SweepError, match="make the same scenario"):
        plan_sweep(VALID_SCENARIO, {"links[1].rate_bps": [5e6, 5000000]})
    assert not out.exists()


def test_switching_a_tagged_table_keeps_the_other_defaults():
    # The base flow has no tcp table: the path creates it, and NewReno becomes CUBIC.
    runs = plan_sweep(tcp_scenario(), {"flows[0].tcp.congestion_control.type": ["newreno", "cubic"]})
    ccs = [json.loads(r.scenario_json)["flows"][0]["tcp"]["congestion_control"] for r in runs]
    assert [cc["type"] for cc in ccs] == ["newreno", "cubic"]
    assert ccs[1]["c"] == 0.4  # CUBIC's defaults filled in
    # A field the base set explicitly stays, so a variant that lacks it is an error naming the path.
    vegas = tcp_scenario(congestion_control={"type": "vegas", "alpha": 2.0, "beta": 4.0})
    with pytest.raises(
        SweepError, match="grid 'flows\\[0\\].tcp.congestion_control.type' = 'cubic': .*alpha: unknown field"
    ):
        plan_sweep(vegas, {"flows[0].tcp.congestion_control.type": ["vegas", "cubic"]})
    # A default table (the link's DropTail queue) keeps its tag and limit when one field changes.
    base = copy.deepcopy(VALID_SCENARIO)
    runs = plan_sweep(base, {"links[0].queue.count_in_service": [False]})
    queue = json.loads(runs[0].scenario_json)["links"][0]["queue"]
    assert queue == {**Scenario.from_dict(base).links[0].queue.model_dump(), "count_in_service": False}


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_the_sparse_form_of_a_scenario_validates_to_the_same_scenario(path):
    scenario = wattnet.load_scenario(path)
    assert Scenario.from_dict(sparse_dump(scenario)).to_engine_json() == scenario.to_engine_json()


def test_the_example_sweep_file_is_valid():
    definition = load_sweep(ROOT / "examples" / "sweeps" / "chain.toml")
    assert definition["base"].name == "chain"
    runs = plan_sweep(definition["base"], definition["grid"], definition["replications"], definition["seed"])
    assert len(runs) == 20
    assert {r.seed for r in runs} == {derive_seed(1, r) for r in range(5)}


def test_bad_sweep_files_are_named(tmp_path):
    sweep_file = tmp_path / "sweep.toml"
    for text, message in [
        ('base = "nothere.toml"', "base: " + str(tmp_path / "nothere.toml") + ": no such scenario file"),
        ("replications = 2", "base is missing"),
        ('base = "x.toml"\ngird = {}', "unknown key 'gird'"),
        (
            "[base]\nseed = 1\nduration_s = -1.0\nnodes = [{ name = 'a' }]",
            "base.duration_s: input should be greater than 0",
        ),
        ("base = [", "invalid TOML"),
    ]:
        sweep_file.write_text(text)
        with pytest.raises(SweepError, match=re.escape(message)):
            load_sweep(sweep_file)
    done = subprocess.run(
        [str(WATTNET), "sweep", str(sweep_file), "--out", str(tmp_path / "out")],
        check=False, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.startswith("error: ") and "invalid TOML" in done.stderr
    assert not (tmp_path / "out").exists()


# --- confidence intervals ----------------------------------------------------------------------


def test_mean_ci_is_the_student_t_interval():
    mean, half = mean_ci([1, 2, 3, 4, 5])
    # s = sqrt(2.5) = 1.5811, t(0.975, 4) = 2.776 -> 2.776 * 1.5811 / sqrt(5) = 1.963
    assert mean == 3.0
    assert half == pytest.approx(2.776445 * math.sqrt(2.5) / math.sqrt(5), rel=1e-6)
    assert round(half, 3) == 1.963
    # R = 10: t(0.975, 9) = 2.262 (docs/models/metric-definitions.md); 98 % with R = 12: t = 2.718.
    values = np.arange(10.0)
    assert mean_ci(values)[1] == pytest.approx(2.262157 * values.std(ddof=1) / math.sqrt(10), rel=1e-6)
    assert mean_ci(np.arange(12.0), 0.98)[1] == pytest.approx(
        2.718079 * np.arange(12.0).std(ddof=1) / math.sqrt(12), rel=1e-6
    )
    assert mean_ci([4.0])[0] == 4.0 and math.isnan(mean_ci([4.0])[1])
    assert all(math.isnan(x) for x in mean_ci([]))


def test_replication_means_group_by_grid_point_and_leave_out_failed_runs():
    table = pd.DataFrame(
        {
            "rate": [1.0] * 5 + [2.0] * 3,
            "status": ["done"] * 5 + ["done", "done", "failed"],
            "drops": [1, 2, 3, 4, 5, 10, 14, None],
        }
    )
    table.attrs["parameters"] = ["rate"]
    stats = replication_means(table, "drops")
    assert list(stats["rate"]) == [1.0, 2.0]
    assert list(stats["n"]) == [5, 2]
    first, second = stats.iloc[0], stats.iloc[1]
    assert first["mean"] == 3.0 and round(first["half_width"], 3) == 1.963
    assert first["ci_low"] == pytest.approx(3 - 1.96324, abs=1e-5)
    assert first["rel_half_width"] == pytest.approx(first["half_width"] / 3)
    # Two values 10 and 14: s = 2.828, t(0.975, 1) = 12.706 -> 25.41.
    assert second["mean"] == 12.0 and second["half_width"] == pytest.approx(
        12.7062 * math.sqrt(8) / math.sqrt(2), rel=1e-4
    )
    with pytest.raises(KeyError, match="no column 'nope'"):
        replication_means(table, "nope")


# --- Dask --------------------------------------------------------------------------------------


def test_the_dask_executor_gives_the_same_table_as_local_processes(tmp_path):
    distributed = pytest.importorskip("distributed", reason="the Dask executor needs wattnet[dask]")
    base = tcp_scenario()
    grid = {"links[1].rate_bps": [2e6, 5e6], "flows[0].tcp.congestion_control.type": ["newreno", "cubic"]}
    local = wattnet.sweep(base, grid, replications=2, seed=3, out=tmp_path / "local", workers=2, progress=False)
    with (
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster,
        distributed.Client(cluster) as client,
    ):
        on_dask = wattnet.sweep(base, grid, replications=2, seed=3, out=tmp_path / "dask", executor=client, batch=3, progress=False)  # fmt: skip
        # A scheduler's address works too, as `wattnet sweep --scheduler ADDRESS` uses it.
        by_address = wattnet.sweep(base, grid, replications=2, seed=3, out=tmp_path / "address", executor=cluster.scheduler_address, progress=False)  # fmt: skip
        assert client.status == "running"
    assert len(local) == 8 and (local["status"] == "done").all()
    assert local["packets_received"].nunique() > 1
    for other in (on_dask, by_address):
        pd.testing.assert_frame_equal(local.drop(columns="wall_time_s"), other.drop(columns="wall_time_s"))
        assert other.attrs["parameters"] == list(grid)
    # The stores hold the same bytes, but for the wall time in each summary.
    for key in local["key"]:
        for name in [f"{t}.parquet" for t in TABLES] + ["scenario.json", "params.json"]:
            assert (tmp_path / "dask" / "runs" / key / name).read_bytes() == (tmp_path / "local" / "runs" / key / name).read_bytes(), name  # fmt: skip
        summaries = [json.loads((tmp_path / d / "runs" / key / "summary.json").read_text()) for d in ("local", "dask")]
        for summary in summaries:
            summary.pop("wall_time_s")
        assert summaries[0] == summaries[1]


# --- the store ---------------------------------------------------------------------------------


def test_two_sweeps_never_write_one_store_at_once(tmp_path):
    store = Store(tmp_path / "out")
    with store.lock(), pytest.raises(StoreBusyError, match="another sweep is writing to this directory"):
        wattnet.sweep(VALID_SCENARIO, out=tmp_path / "out", progress=False)


def test_a_later_sweep_reuses_the_runs_it_shares(tmp_path):
    out = tmp_path / "out"
    first = run_sweep(VALID_SCENARIO, {"links[1].rate_bps": [5e6, 6e6]}, 2, out=out, executor="serial", progress=False)
    assert (first.ran, first.skipped) == (4, 0)
    second = run_sweep(VALID_SCENARIO, {"links[1].rate_bps": [6e6, 7e6]}, 2, out=out, executor="serial", progress=False)
    assert (second.ran, second.skipped) == (2, 2)
    assert list(second.table["links[1].rate_bps"]) == [6e6, 6e6, 7e6, 7e6]
    # The store's table has every run, this sweep's first.
    table = load_results(out)
    assert list(table["links[1].rate_bps"]) == [6e6, 6e6, 7e6, 7e6, 5e6, 5e6]
    assert pd.read_parquet(out / "results.parquet")["key"].tolist() == table["key"].tolist()
