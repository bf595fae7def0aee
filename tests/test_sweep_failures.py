"""Sweeps whose runs fail or whose workers die: failed runs recorded and retried, a sweep
interrupted or killed that resumes with every run once, workers killed or unable to run."""

import contextlib
import copy
import json
import multiprocessing
import os
import signal
import struct
import subprocess
import sys
import threading
import time
from concurrent.futures import Future
from pathlib import Path

import pandas as pd
import pytest
import wattnet
from conftest import ROOT, VALID_SCENARIO
from typer.testing import CliRunner
from wattnet.cli import app
from wattnet.results import TABLES
from wattnet.scenario import Scenario
from wattnet.store import load_results
from wattnet.sweep import (
    WorkerLost,
    WorkersDying,
    derive_seed,
    drive,
    load_sweep,
    plan_sweep,
    require_done,
    run_batch,
    run_sweep,
)
from wattnet.sweep.executors import LocalExecutor, _without_interruption

WATTNET = Path(sys.executable).with_name("wattnet")

# A run of about a tenth of a second: Poisson traffic at 90 % of a 50 Mb/s bottleneck for
# 60 simulated seconds (about 1.7 million events).
SLOW_SCENARIO = """
name = "slow"
seed = 1
duration_s = 60.0
nodes = [{ name = "a" }, { name = "b" }, { name = "c" }]

[[links]]
a = "a"
b = "b"
rate_bps = 100e6
delay_s = 1e-3

[[links]]
a = "b"
b = "c"
rate_bps = 50e6
delay_s = 1e-3
queue = { type = "droptail", limit_packets = 50 }

[[flows]]
name = "p"
src = "a"
dst = "c"
traffic = { type = "poisson", rate_bps = 45e6 }
"""

SLOW_SWEEP = """
base = "slow.toml"
replications = 6
seed = 11

[grid]
"links[1].queue.limit_packets" = [20, 50, 100]
"""
SLOW_RUNS = 18


def run_dirs(out: Path) -> dict[str, Path]:
    runs = out / "runs"
    return {p.name: p for p in runs.iterdir()} if runs.is_dir() else {}


def finished(out: Path) -> dict[str, int]:
    """Finished runs by key, with the inode of their summary (a run written again gets a new one)."""
    return {
        key: (p / "summary.json").stat().st_ino for key, p in run_dirs(out).items() if (p / "summary.json").exists()
    }


# --- runs that fail ----------------------------------------------------------------------------


def power_capped_scenario() -> dict:
    """A link whose power model's highest level carries 10 Mb/s: the schema accepts any link
    rate, and the engine refuses a rate above 10 Mb/s when it builds the run."""
    scenario = copy.deepcopy(VALID_SCENARIO)
    scenario["links"][0]["power"] = {"type": "rate_table", "levels": [{"rate_bps": 10e6, "watts": 2.0}]}
    scenario["events"] = []
    return scenario


def test_a_run_that_raises_is_recorded_as_failed_and_the_others_finish(tmp_path):
    base = power_capped_scenario()
    grid = {"links[0].rate_bps": [5e6, 20e6, 8e6]}
    # The failure must come from the run, not from validation: the schema accepts 20 Mb/s.
    Scenario.from_dict({**base, "links": [{**base["links"][0], "rate_bps": 20e6}, base["links"][1]]})
    (tmp_path / "sweep.toml").write_text(
        'replications = 2\n[grid]\n"links[0].rate_bps" = [5e6, 20e6, 8e6]\n[base]\n'
        + "\n".join(f"{k} = {json.dumps(v)}" for k, v in base.items() if not isinstance(v, (dict, list)))
        + "\n"
        + "\n".join(f"{k} = {toml_value(v)}" for k, v in base.items() if isinstance(v, (dict, list)))
        + "\n"
    )
    out = tmp_path / "out"
    done = subprocess.run(
        [str(WATTNET), "sweep", str(tmp_path / "sweep.toml"), "--out", str(out), "--workers", "2"],
        check=False, capture_output=True, text=True, timeout=120, cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 1, done.stderr
    assert "6 runs: 4 done now, 2 failed now, 0 already in the store" in done.stdout
    assert "error: 2 of 6 runs failed" in done.stderr
    assert "no level carries the port's rate of 20000000 bit/s" in done.stderr

    table = load_results(out)
    assert len(table) == 6
    assert list(table["links[0].rate_bps"]) == [5e6, 5e6, 20e6, 20e6, 8e6, 8e6]
    assert list(table["status"]) == ["done", "done", "failed", "failed", "done", "done"]
    failed = table[table["status"] == "failed"]
    assert all(failed["error"] == "ScenarioError: links[0].power: no level carries the port's rate of 20000000 bit/s")
    assert failed["packets_sent"].isna().all()
    assert (table.loc[table["status"] == "done", "packets_received"] > 0).all()
    # A reproduction needs every run: require_done names the count, the store and the first error.
    with pytest.raises(RuntimeError, match=r"^2 of 6 runs failed in .*out, e\.g\. ScenarioError: links\[0\]\.power"):
        require_done(table, out)
    done_runs = table[table["status"] == "done"]
    assert require_done(done_runs, out) is done_runs
    for key in failed["key"]:
        error = json.loads((out / "runs" / key / "error.json").read_text())
        assert error["type"] == "ScenarioError"
        assert "no level carries" in error["message"]
        assert "Traceback" in error["traceback"] and "run_task" in error["traceback"]
        assert not (out / "runs" / key / "summary.json").exists()
        params = json.loads((out / "runs" / key / "params.json").read_text())
        assert params["parameters"] == {"links[0].rate_bps": 20e6}

    # Again: everything is in the store, the failed runs stay failed and are not retried...
    before = {key: (out / "runs" / key / "error.json").stat().st_ino for key in failed["key"]}
    outcome = run_sweep(base, grid, 2, out=out, executor="serial", progress=False)
    assert (outcome.ran, outcome.skipped, outcome.failed) == (0, 6, 2)
    assert {key: (out / "runs" / key / "error.json").stat().st_ino for key in failed["key"]} == before
    # ...unless asked: then they run again (and fail again), and only they.
    finished_before = finished(out)
    outcome = run_sweep(base, grid, 2, out=out, executor="serial", retry_failed=True, progress=False)
    assert (outcome.ran, outcome.failed_now, outcome.skipped) == (2, 2, 4)
    assert {key: (out / "runs" / key / "error.json").stat().st_ino for key in failed["key"]} != before
    assert finished(out) == finished_before

    shown = CliRunner().invoke(app, ["results", str(out), "--ci", "packets_received"])
    assert shown.exit_code == 0, shown.output
    assert "6 runs (4 done, 2 failed)" in shown.stdout
    assert "packets_received" in shown.stdout and "half_width" in shown.stdout
    assert pd.read_csv(out / "results.csv")["status"].tolist() == list(table["status"])


def toml_value(value) -> str:
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {toml_value(v)}" for k, v in value.items()) + " }"
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    return json.dumps(value)


# --- resume ------------------------------------------------------------------------------------


def start_sweep(sweep_file: Path, out: Path) -> subprocess.Popen:
    # A session of its own, which the test signals as a terminal would its foreground group.
    # A test run in the background has SIGINT ignored, and a child inherits that; a handler
    # is not inherited (exec resets it to the default), so the child gets Ctrl-C as usual.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        return subprocess.Popen(
            [str(WATTNET), "sweep", str(sweep_file), "--out", str(out), "--workers", "2", "--quiet"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
        )  # fmt: skip
    finally:
        signal.signal(signal.SIGINT, previous)


def wait_for_runs(out: Path, count: int, process: subprocess.Popen, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while len(finished(out)) < count:
        assert process.poll() is None, f"the sweep ended early: {process.stderr.read()}"
        assert time.monotonic() < deadline, "the sweep made no progress"
        time.sleep(0.01)


def group_alive(pgid: int) -> bool:
    """Whether a process of the group still runs; zombies waiting for init to reap them do not count."""
    if not Path("/proc/self/stat").exists():
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return False
        return True
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid and fields[0] not in "ZX":
            return True
    return False


def wait_group_gone(pgid: int, timeout: float = 10) -> bool:
    deadline = time.monotonic() + timeout
    while group_alive(pgid) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not group_alive(pgid)


def test_a_sweep_interrupted_then_killed_resumes_with_every_run_once(tmp_path):
    (tmp_path / "slow.toml").write_text(SLOW_SCENARIO)
    (tmp_path / "sweep.toml").write_text(SLOW_SWEEP)
    out = tmp_path / "out"
    processes = []
    try:
        # Ctrl-C as a terminal sends it: to the whole process group, workers included.
        first = start_sweep(tmp_path / "sweep.toml", out)
        processes.append(first)
        wait_for_runs(out, 3, first)
        os.killpg(first.pid, signal.SIGINT)
        _, stderr = first.communicate(timeout=30)
        assert first.returncode == 130, stderr
        assert "interrupted; the runs that finished are in" in stderr
        assert wait_group_gone(first.pid), "workers outlived the interrupted sweep"
        after_first = finished(out)
        assert 3 <= len(after_first) < SLOW_RUNS

        # SIGKILL of the sweep's process: no chance to clean up; its workers notice and exit.
        second = start_sweep(tmp_path / "sweep.toml", out)
        processes.append(second)
        wait_for_runs(out, len(after_first) + 3, second)
        second.kill()
        second.wait(timeout=30)
        assert wait_group_gone(second.pid), "workers outlived their killed sweep"
        after_second = finished(out)
        assert len(after_second) < SLOW_RUNS, "the sweep finished before it could be killed"
        # Nothing that had finished was run again.
        assert {k: after_second[k] for k in after_first} == after_first
    finally:
        for process in processes:
            if group_alive(process.pid):
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)

    # Whatever the kill left half written is not in runs/: every run directory is whole.
    for key, path in run_dirs(out).items():
        assert (path / "summary.json").exists(), f"run {key} is incomplete"

    definition = load_sweep(tmp_path / "sweep.toml")
    outcome = run_sweep(
        definition["base"], definition["grid"], definition["replications"], out=out, seed=definition["seed"],
        workers=2, progress=False,
    )  # fmt: skip
    assert outcome.skipped == len(after_second)
    assert outcome.ran == SLOW_RUNS - len(after_second)
    final = finished(out)
    assert {k: final[k] for k in after_second} == after_second
    assert len(final) == len(run_dirs(out)) == SLOW_RUNS
    assert list((out / ".tmp").iterdir()) == []

    table = outcome.table
    assert len(table) == SLOW_RUNS
    assert (table["status"] == "done").all()
    pairs = list(zip(table["links[1].queue.limit_packets"], table["replication"]))
    assert sorted(pairs) == [(q, r) for q in (20, 50, 100) for r in range(6)]
    assert table["key"].is_unique
    assert sorted(table["seed"].unique().tolist()) == sorted(derive_seed(11, r) for r in range(6))
    for key in table["key"]:
        for name in TABLES:
            assert (out / "runs" / key / f"{name}.parquet").is_file()
    # Each run is the same as running its scenario alone.
    row = table.iloc[7]
    scenario = wattnet.load_scenario(tmp_path / "slow.toml").model_dump()
    scenario["links"][1]["queue"]["limit_packets"] = int(row["links[1].queue.limit_packets"])
    alone = wattnet.run(Scenario.from_dict(scenario).with_seed(int(row["seed"])))
    assert alone.summary["packets_dropped"] == row["packets_dropped"]
    assert alone.summary["events"] == row["events"]


def test_a_killed_worker_costs_nothing(tmp_path):
    base = wattnet.load_scenario(write(tmp_path / "slow.toml", SLOW_SCENARIO))
    out = tmp_path / "out"
    killed = []

    def kill_a_worker():
        deadline = time.monotonic() + 60
        while len(finished(out)) < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
        workers = [p for p in multiprocessing.active_children() if p.name.startswith("SpawnProcess")]
        if workers:
            killed.append(len(finished(out)))
            os.kill(workers[0].pid, signal.SIGKILL)

    killer = threading.Thread(target=kill_a_worker)
    killer.start()
    outcome = run_sweep(base, {"links[1].rate_bps": [40e6, 50e6]}, 4, out=out, workers=2, batch=1, progress=False)
    killer.join()
    assert killed and killed[0] < 8, "no worker was killed while the sweep ran"
    assert outcome.failed == 0
    assert len(outcome.table) == 8 and (outcome.table["status"] == "done").all()
    assert len(run_dirs(out)) == 8


def busy_pool(tmp_path: Path) -> tuple[LocalExecutor, set]:
    """A local pool of two workers, each running a task of several slow runs, with the start
    of a result that never comes written into the pipe the workers send results through:
    what a worker killed halfway through sending its result leaves there."""
    base = wattnet.load_scenario(write(tmp_path / "slow.toml", SLOW_SCENARIO))
    runs = plan_sweep(base, {"links[1].rate_bps": [40e6, 50e6]}, 4)
    executor = LocalExecutor(workers=2)
    version = wattnet._engine.version()
    futures = {executor.submit([(r.key, r.scenario_json, version) for r in runs[i::2]]) for i in range(2)}
    deadline = time.monotonic() + 60
    while len([p for p in executor._pool._processes.values() if p.is_alive()]) < 2:
        assert time.monotonic() < deadline, "the workers did not start"
        time.sleep(0.01)
    # A message's length (16 MiB, more than the tasks' results together), then one byte of it.
    os.write(executor._pool._result_queue._writer.fileno(), struct.pack("!i", 1 << 24) + b"\0")
    return executor, futures


def finishes_within(seconds: float, call) -> bool:
    thread = threading.Thread(target=call, daemon=True)
    thread.start()
    thread.join(seconds)
    return not thread.is_alive()


def test_an_interrupt_ends_a_pool_whose_worker_died_sending_a_result(tmp_path):
    executor, futures = busy_pool(tmp_path)
    # Without killing the workers and closing the pipe, the pool's shutdown waits for ever.
    assert finishes_within(30, lambda: executor.close(futures, abort=True)), "the aborted pool did not shut down"
    assert all(future.done() for future in futures)


def test_a_worker_death_the_pool_misses_is_a_lost_task(tmp_path, monkeypatch):
    monkeypatch.setattr(LocalExecutor, "death_notice_s", 0.5)
    executor, futures = busy_pool(tmp_path)
    worker = next(iter(executor._pool._processes.values()))
    os.kill(worker.pid, signal.SIGKILL)
    done: set = set()
    deadline = time.monotonic() + 30
    while not done:
        assert time.monotonic() < deadline, "the worker's death went unnoticed"
        done = executor.wait(futures, 0.25)
    assert done == futures  # one death of the local pool loses every task in flight
    for future in done:
        with pytest.raises(WorkerLost):
            executor.outcomes(future)
    executor.after_loss()


def test_ctrl_c_while_workers_start_waits_until_they_have_started():
    # Delivered in the middle of starting, the interrupt comes only once start has returned.
    steps = []

    def start():
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.05)  # time for the signal to be taken, by any thread
        steps.append("started")
        return "handle"

    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            _without_interruption(start)
        assert steps == ["started"]
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
        assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, set())
        # Without an interrupt, start's result comes back.
        assert _without_interruption(lambda: "handle") == "handle"
    finally:
        signal.signal(signal.SIGINT, previous)


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
def test_local_workers_start_with_ctrl_c_blocked(tmp_path):
    executor = LocalExecutor(workers=1)
    try:
        future = executor.submit([])
        assert future.result(timeout=60) == []
        (worker,) = executor._pool._processes.values()
        status = Path(f"/proc/{worker.pid}/status").read_text()
        blocked = int(next(line for line in status.splitlines() if line.startswith("SigBlk:")).split()[1], 16)
        assert blocked & (1 << (signal.SIGINT - 1)), "a worker that starts as Ctrl-C comes would die of it"
    finally:
        executor.close(set())


class BreakingPool:
    """A pool that runs its tasks in this process, except that a task holding ``killer``
    kills its worker. Like the local pool, a death loses every task in flight with it
    (``isolates_losses`` False); like Dask, only that task (True)."""

    def __init__(self, killer: str, isolates_losses: bool, death_limit: int):
        self.killer = killer
        self.isolates_losses = isolates_losses
        self.death_limit = death_limit
        self.pending: list = []
        self.tasks_in_flight_after_loss: list[int] = []
        self.losses = 0

    def slots(self) -> int:
        return 2

    def submit(self, tasks):
        if self.losses:
            self.tasks_in_flight_after_loss.append(len(self.pending) + 1)
        future = Future()
        self.pending.append((future, tasks))
        return future

    def wait(self, futures, timeout):
        ready, self.pending = self.pending, []
        killing = {f for f, tasks in ready if any(self.killer in (key, "every run") for key, _, _ in tasks)}
        for future, tasks in ready:
            if future in killing or (killing and not self.isolates_losses):
                future.set_exception(WorkerLost("the worker was killed"))
            else:
                future.set_result(run_batch(tasks))
        return {future for future, _ in ready}

    def outcomes(self, future):
        return future.result()

    def after_loss(self):
        self.losses += 1

    def close(self, futures, abort=False):
        self.aborted = abort


@pytest.mark.parametrize(("isolates_losses", "death_limit"), [(False, 2), (True, 1)], ids=["local", "dask"])
def test_a_run_that_kills_its_worker_is_found_and_recorded_as_failed(isolates_losses, death_limit):
    runs = plan_sweep(VALID_SCENARIO, {"links[1].rate_bps": [4e6, 5e6, 6e6, 7e6, 8e6]}, 2)
    killer = runs[4].key
    pool = BreakingPool(killer, isolates_losses, death_limit)
    recorded = {}

    def record(run, outcome):
        assert run.key not in recorded, "a run was recorded twice"
        recorded[run.key] = outcome

    drive(pool, runs, record, batch=3)
    assert not pool.aborted
    assert set(recorded) == {r.key for r in runs}
    assert all(recorded[r.key]["status"] == "done" for r in runs if r.key != killer)
    error = recorded[killer]["error"]
    assert recorded[killer]["status"] == "failed" and error["type"] == "WorkerDied"
    assert f"{death_limit} time(s)" in error["message"] and "the worker was killed" in error["message"]
    # Four tasks of three runs (slots 2 × 2 tasks each) cover the ten runs; the killer is in the second.
    if isolates_losses:
        # Dask: only the killer's task is lost; its three runs go again one per task, and the
        # killer's own task is lost for good.
        assert pool.losses == 2
    else:
        # The local pool: all ten runs in flight are lost; each runs alone, the killer twice.
        assert pool.losses == 3
        assert pool.tasks_in_flight_after_loss == [1] * 11


def test_workers_that_cannot_run_stop_the_sweep_without_blaming_runs():
    runs = plan_sweep(VALID_SCENARIO, {"links[1].rate_bps": [4e6, 5e6, 6e6]}, 2)
    recorded = {}
    pool = BreakingPool("every run", isolates_losses=False, death_limit=2)
    with pytest.raises(WorkersDying, match="the workers died 3 times and no run has finished"):
        drive(pool, runs, recorded.__setitem__, batch=None)
    assert recorded == {}
    assert pool.aborted


def write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path
