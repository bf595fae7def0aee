"""Running a sweep: the store's bookkeeping, keeping an executor busy, finding the runs that
kill their workers, and the progress bar."""

from __future__ import annotations

import json
import math
import sys
import traceback
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from wattnet import _engine
from wattnet._lazy import lazy_import
from wattnet.errors import SweepError, WorkersDying
from wattnet.metrics import MetricsHook
from wattnet.runner import as_scenario
from wattnet.scenario import Scenario
from wattnet.store import DAMAGED, DONE, FAILED, Store, load_results
from wattnet.sweep.executors import (
    LOSSES_BEFORE_ANY_SUCCESS,
    MAIN_GUARD_HELP,
    Executor,
    LocalExecutor,
    WorkerLost,
    _main_script_without_guard,
    make_executor,
)
from wattnet.sweep.grid import grid_axes
from wattnet.sweep.plan import PlannedRun, _name, plan_sweep

if TYPE_CHECKING:
    import pandas as pd
else:
    pd = lazy_import("pandas")


# Batching: a task (one call on a worker) runs several short runs, sized from the runs' mean
# wall time so that it takes about TARGET_TASK_S, with at most MAX_BATCH runs and never more
# than an even share of what is left. At most TASKS_PER_SLOT tasks per worker slot are
# submitted at once, so the scheduler holds a handful of tasks, never the whole sweep.
TARGET_TASK_S = 0.5
MAX_BATCH = 64
TASKS_PER_SLOT = 2
# How often the driver wakes to refresh the progress bar when nothing finishes.
POLL_S = 0.25


@dataclass
class SweepOutcome:
    table: pd.DataFrame
    """One row per run of this sweep (see ``load_results``)."""
    total: int
    """Runs in the sweep."""
    ran: int
    """Runs computed now (finished or failed)."""
    failed_now: int
    """Of those, the runs that failed."""
    skipped: int
    """Runs the store already had (finished, or failed when not retrying them)."""
    failed: int
    """Runs of the sweep that are recorded as failed, now or before."""


def require_done(table: pd.DataFrame, store: str | Path) -> pd.DataFrame:
    """``table`` (the sweep's into ``store``) when every run in it is done, for callers that need
    every run, such as the reproductions; otherwise RuntimeError with the number that failed and the
    first error (all of them stay in the store's results.csv, beside the runs that finished)."""
    failed = table[table["status"] != "done"]
    if len(failed):
        raise RuntimeError(f"{len(failed)} of {len(table)} runs failed in {store}, e.g. {failed['error'].iloc[0]}")
    return table


def sweep(
    base: Scenario | dict[str, Any] | str | Path | None = None,
    grid: dict[str, Any] | None = None,
    replications: int = 1,
    *,
    out: str | Path,
    seed: int | None = None,
    executor: Any = "local",
    workers: int | None = None,
    batch: int | None = None,
    retry_failed: bool = False,
    progress: bool | str = True,
    build: Callable[..., Any] | None = None,
    metrics: MetricsHook | None = None,
) -> pd.DataFrame:
    """Runs every grid point ``replications`` times into the store ``out`` and returns the table.

    ``base`` is a Scenario, a dict or a TOML path; ``grid`` maps field paths to lists of values;
    ``seed`` (default: the base scenario's) seeds the replications (``derive_seed``).
    ``executor`` is ``"local"`` (a pool of ``workers`` processes, default all cores), a
    ``dask.distributed.Client``, a Dask scheduler's address, or ``"serial"`` (one run after
    the other in this process: for debugging and tiny sweeps). ``batch`` fixes the number of
    runs per task (default: sized from the runs' wall time). Runs already in ``out`` are
    skipped; runs recorded as failed are run again only with ``retry_failed``. ``progress``
    shows a bar on stderr when it is a terminal, labelled with ``progress`` when that is a string.

    ``build`` (instead of ``base``, which is then None) makes each grid point's scenario:
    ``build(**point)``, the grid naming its parameters. ``metrics``, a function from a run's
    ``Results`` to a dict of numbers, runs on the worker after each run; its numbers and the
    built-in ones (``wattnet.metrics``) are stored in the run's summary. Both must be importable
    by the workers (module-level functions) to run on a process pool or a cluster.

    Returns one row per run of this sweep (``load_results``), and writes the table of every
    run in ``out`` to ``out/results.parquet`` and ``out/results.csv``. Raises SweepError or
    ScenarioError before running anything when the sweep is not valid; KeyboardInterrupt
    stops the workers and keeps every run already written.

    Warns (``IdenticalReplicationsWarning``) when ``replications`` > 1 but nothing in the swept
    scenarios is random. Run from a script, the call must sit under
    ``if __name__ == "__main__":`` (the local workers import the script); SweepError says so.

    Example:
        ```python
        if __name__ == "__main__":
            table = wattnet.sweep("examples/chain.toml", {"links[1].rate_bps": [8e6, 10e6]},
                                  replications=5, out="out/sweep")
            print(table[["links[1].rate_bps", "replication", "packets_dropped"]])
        ```
    """
    return run_sweep(
        base, grid, replications, out=out, seed=seed, executor=executor, workers=workers, batch=batch,
        retry_failed=retry_failed, progress=progress, build=build, metrics=metrics,
    ).table  # fmt: skip


def run_sweep(
    base: Scenario | dict[str, Any] | str | Path | None = None,
    grid: dict[str, Any] | None = None,
    replications: int = 1,
    *,
    out: str | Path,
    seed: int | None = None,
    executor: Any = "local",
    workers: int | None = None,
    batch: int | None = None,
    retry_failed: bool = False,
    progress: bool | str = True,
    build: Callable[..., Any] | None = None,
    metrics: MetricsHook | None = None,
) -> SweepOutcome:
    """``sweep`` that also says how many runs it ran, skipped and saw fail."""
    # A spawned worker imports multiprocessing before anything else: without it this is no worker.
    multiprocessing = sys.modules.get("multiprocessing")
    if multiprocessing is not None and getattr(multiprocessing.current_process(), "_inheriting", False):
        # A spawned worker importing a main script that calls the sweep at its top level.
        raise SweepError(f"wattnet.sweep was called while a worker process was starting: {MAIN_GUARD_HELP}")
    if isinstance(executor, str) and executor == "local":
        script = _main_script_without_guard()
        if script is not None:
            raise SweepError(f'{script} has no `if __name__ == "__main__":` guard: {MAIN_GUARD_HELP}')
    if batch is not None and (isinstance(batch, bool) or not isinstance(batch, int) or batch < 1):
        raise SweepError(f"batch: a positive number of runs per task, not {batch!r}")
    if isinstance(executor, str) and executor == "local" and workers is not None:
        LocalExecutor(workers)  # checks workers before anything else happens
    if (base is None) == (build is None):
        raise SweepError("give exactly one of base (a scenario) and build (a function of the grid's parameters)")
    base_scenario = None if base is None else as_scenario(base)
    base_seed = seed if base_scenario is None else base_scenario.seed if seed is None else seed
    runs = plan_sweep(base_scenario, grid, replications, base_seed, build=build)
    flat_grid = {path: values for paths, rows in grid_axes(grid or {}) for path, values in zip(paths, zip(*rows))}

    store = Store(out)
    with store.lock():
        store.clear_tmp()
        store.write_sweep(
            {
                **(
                    {"build": _name(build)}
                    if base_scenario is None
                    else {"base": json.loads(base_scenario.to_engine_json())}
                ),
                **({} if metrics is None else {"metrics": _name(metrics)}),
                "grid": flat_grid,
                "replications": replications,
                "seed": base_seed,
                "engine_version": _engine.version(),
                "runs": [run.key for run in runs],
            }
        )
        statuses = store.statuses()
        todo = []
        for planned in runs:
            status = statuses.get(planned.key)
            if status is None or status == DAMAGED or (status == FAILED and retry_failed):
                todo.append(planned)
            else:
                store.update_params(planned.key, planned.params(base_seed))
        skipped = len(runs) - len(todo)

        ran = failed_now = 0
        if todo:
            pool = make_executor(executor, workers)
            bar = _ProgressBar(progress, total=len(todo), skipped=skipped)

            def record(planned: PlannedRun, outcome: dict[str, Any]) -> None:
                nonlocal ran, failed_now
                params = planned.params(base_seed)
                if outcome["status"] == DONE:
                    store.write_done(planned.key, params, outcome["files"])
                else:
                    store.write_failed(planned.key, params, planned.scenario_json, outcome["error"])
                    failed_now += 1
                ran += 1
                bar.update(ran, failed_now)

            try:
                drive(pool, todo, record, batch, metrics)
            finally:
                bar.close()

        table = load_results(out)
    keys = [run.key for run in runs]
    mine = table[table["key"].isin(set(keys))]
    mine = mine.set_index("key").loc[keys].reset_index()
    parameters = list(flat_grid)
    columns = parameters + [c for c in table.columns if c not in table.attrs["parameters"] and c != "key"] + ["key"]
    mine = mine[columns]
    mine.attrs["parameters"] = parameters
    failed = int((mine["status"] == FAILED).sum())
    return SweepOutcome(mine, len(runs), ran, failed_now, skipped, failed)


def drive(
    executor: Executor,
    todo: list[PlannedRun],
    record: Callable[[PlannedRun, dict[str, Any]], None],
    batch: int | None,
    metrics: MetricsHook | None = None,
) -> None:
    """Keeps the executor busy until every run is recorded.

    A lost task (its worker died) puts its runs back as suspects, run one per task (and, for
    the local pool, alone, since a death there takes every task in flight with it); a run
    lost alone ``death_limit`` times is recorded as failed. Workers that die
    ``LOSSES_BEFORE_ANY_SUCCESS`` times before any run has finished raise WorkersDying.
    """
    queue = deque(todo)
    suspects: deque[PlannedRun] = deque()
    deaths: Counter[str] = Counter()
    inflight: dict[Any, list[PlannedRun]] = {}
    timed_s, timed_runs = 0.0, 0
    losses = 0
    engine_version = _engine.version()

    def submit(runs: list[PlannedRun]) -> None:
        hook = () if metrics is None else (metrics,)
        future = executor.submit([(run.key, run.scenario_json, engine_version, *hook) for run in runs])
        inflight[future] = runs

    def batch_size(slots: int) -> int:
        if batch is not None:
            return batch
        if timed_runs == 0:
            return 1
        by_time = int(TARGET_TASK_S / max(timed_s / timed_runs, 1e-6))
        return max(1, min(by_time, MAX_BATCH, math.ceil(len(queue) / slots)))

    try:
        while queue or suspects or inflight:
            slots = executor.slots()
            limit = TASKS_PER_SLOT * slots
            if suspects and not executor.isolates_losses:
                if not inflight:
                    submit([suspects.popleft()])
            else:
                while suspects and len(inflight) < limit:
                    submit([suspects.popleft()])
                while queue and len(inflight) < limit:
                    size = batch_size(slots)
                    submit([queue.popleft() for _ in range(min(size, len(queue)))])

            done = executor.wait(set(inflight), POLL_S)
            alone = len(inflight) == 1
            lost = False
            for future in done:
                runs = inflight.pop(future)
                try:
                    outcomes = executor.outcomes(future)
                except WorkerLost as error:
                    if not lost:  # one death of the local pool loses every task in flight: count it once
                        losses += 1
                    lost = True
                    if timed_runs == 0 and losses >= LOSSES_BEFORE_ANY_SUCCESS:
                        script = _main_script_without_guard() if isinstance(executor, LocalExecutor) else None
                        cause = (
                            f'; {script} has no `if __name__ == "__main__":` guard: {MAIN_GUARD_HELP}' if script else ""
                        )
                        raise WorkersDying(
                            f"the workers died {losses} times and no run has finished: the workers cannot run "
                            f"(see their errors above); nothing was recorded for the runs they held{cause}. "
                            f"Last: {error}"
                        ) from None
                    if len(runs) == 1 and (alone or executor.isolates_losses):
                        run = runs[0]
                        deaths[run.key] += 1
                        if deaths[run.key] >= executor.death_limit:
                            record(run, _worker_died(error, deaths[run.key]))
                        else:
                            suspects.append(run)
                    else:
                        suspects.extend(runs)
                    continue
                except Exception as error:  # noqa: BLE001 - the task as a whole failed, e.g. a worker without wattnet
                    outcome_error = {
                        "type": type(error).__name__,
                        "message": f"the task running it failed: {error}",
                        "traceback": "".join(traceback.format_exception(error)),
                    }
                    for run in runs:
                        record(run, {"key": run.key, "status": FAILED, "error": outcome_error})
                    continue
                for run, outcome in zip(runs, outcomes, strict=True):
                    if outcome["key"] != run.key:
                        raise RuntimeError(f"a worker answered for run {outcome['key']} instead of {run.key}")
                    timed_s += outcome["wall_s"]
                    timed_runs += 1
                    record(run, outcome)
            if lost:
                executor.after_loss()
    except BaseException:
        executor.close(set(inflight), abort=True)
        raise
    executor.close(set(), abort=False)


def _worker_died(error: Exception, times: int) -> dict[str, Any]:
    return {
        "key": None,
        "status": FAILED,
        "error": {
            "type": "WorkerDied",
            "message": f"the worker process died while running it, {times} time(s) "
            f"(killed, out of memory or crashed): {error}",
            "traceback": "",
        },
    }


class _ProgressBar:
    """Runs done, failed and skipped, with an ETA, on stderr when it is a terminal."""

    def __init__(self, enabled: bool | str, total: int, skipped: int):
        # rich is imported when a sweep runs: `wattnet run` and scripts that only import the package skip it.
        from rich.console import Console
        from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

        console = Console(stderr=True)
        self._bar = None
        if enabled and console.is_terminal:
            self._bar = Progress(
                TextColumn(enabled if isinstance(enabled, str) else "sweep", markup=False),
                BarColumn(),
                TextColumn("{task.completed}/{task.total} runs"),
                TextColumn("{task.fields[failed]} failed"),
                TextColumn("{task.fields[skipped]} skipped"),
                TimeElapsedColumn(),
                TextColumn("ETA"),
                TimeRemainingColumn(),
                console=console,
            )
            self._task = self._bar.add_task("sweep", total=total, failed=0, skipped=skipped)
            self._bar.start()

    def update(self, completed: int, failed: int) -> None:
        if self._bar is not None:
            self._bar.update(self._task, completed=completed, failed=failed)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.stop()
