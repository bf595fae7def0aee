"""Sweeps: a base scenario, a grid of parameter values and replications, run by local processes
or a Dask cluster into a store (``wattnet.store``) that skips what it has and resumes.

    table = wattnet.sweep("examples/chain.toml", {"links[1].rate_bps": [5e6, 10e6]}, replications=5, out="out/s")
    wattnet.replication_means(table, "packets_dropped")   # mean and 95 % CI per grid point

A grid maps field paths (``links[2].rate_bps``, ``flows[0].tcp.congestion_control.type``) to
lists of values; the sweep runs every combination of them (the Cartesian product), each
``replications`` times. Replication r runs with the seed ``derive_seed(seed, r)`` at every grid
point (common random numbers), so two points differ only by their parameters.
"""

from __future__ import annotations

import ast
import contextlib
import copy
import itertools
import json
import math
import multiprocessing
import os
import re
import signal
import sys
import tempfile
import threading
import time
import traceback
import warnings
from collections import Counter, deque
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor
from concurrent.futures import CancelledError as FutureCancelledError
from concurrent.futures import wait as wait_futures
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol, get_args, get_origin

from pydantic import BaseModel

from wattnet import _engine
from wattnet._lazy import lazy_import
from wattnet.errors import ScenarioError, SweepError, WorkersDying
from wattnet.metrics import MetricsHook, measure
from wattnet.runner import as_scenario, run
from wattnet.scenario import U64_MAX, Scenario, load_scenario, read_toml
from wattnet.store import DAMAGED, DONE, FAILED, Store, load_results, run_key

np = lazy_import("numpy")
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

_SEGMENT = re.compile(r"(?P<name>[A-Za-z_]\w*)(?P<indices>(?:\[\d+\])*)")

# Worker processes are spawned: each imports the main script again, as "__mp_main__", so a
# script's top-level code runs in every worker unless it is under this guard.
MAIN_GUARD_HELP = (
    "worker processes import your main script again before they run anything, so code at its top "
    "level runs in every worker; put the code that calls wattnet.sweep under "
    '`if __name__ == "__main__":` (or pass executor="serial")'
)


class IdenticalReplicationsWarning(UserWarning):
    """Replications that can only repeat each other: nothing in the swept scenarios is random."""


# ---------------------------------------------------------------------------------------------
# Grid, seeds and the runs of a sweep
# ---------------------------------------------------------------------------------------------


def derive_seed(base_seed: int, replication: int) -> int:
    """The seed of replication ``replication``: 64 bits of NumPy's SeedSequence hash of
    (base_seed, replication). Deterministic, distinct across replications and base seeds,
    and unrelated to each other (not base_seed + r, whose streams neighbouring sweeps share)."""
    if not (isinstance(base_seed, int) and 0 <= base_seed <= U64_MAX):
        raise SweepError(f"seed: an integer in [0, 2^64 - 1], not {base_seed!r}")
    if not (isinstance(replication, int) and replication >= 0):
        raise SweepError(f"replication: a non-negative integer, not {replication!r}")
    state = np.random.SeedSequence(entropy=base_seed, spawn_key=(replication,)).generate_state(1, dtype=np.uint64)
    return int(state[0])


def parse_path(path: str) -> list[str | int]:
    """``"flows[0].tcp.congestion_control.type"`` -> ``["flows", 0, "tcp", "congestion_control", "type"]``."""
    steps: list[str | int] = []
    if isinstance(path, str) and path:
        for part in path.split("."):
            match = _SEGMENT.fullmatch(part)
            if match is None:
                break
            steps.append(match["name"])
            steps.extend(int(index) for index in re.findall(r"\[(\d+)\]", match["indices"]))
        else:
            return steps
    raise SweepError(
        f"grid {path!r}: not a field path; write one like links[2].rate_bps or flows[0].tcp.congestion_control.type"
    )


def expand_grid(grid: dict[str, Any] | None) -> list[dict[str, Any]]:
    """Every combination of the grid's values, as ``{path: value}`` dicts, the last path varying fastest.

    A nested table (as TOML writes ``routing.ttl = [...]`` in ``[grid]``) is read as dotted
    paths; the paths of a ``zip`` table take their values together (``grid_axes``). Each path must be well formed and name a list of at least one value, none twice;
    ``seed`` is not a grid parameter (replications set it). An empty grid has one point, ``{}``.
    """
    axes = grid_axes(grid or {})
    for paths, rows in axes:
        for path in paths:
            if parse_path(path) == ["seed"]:
                raise SweepError(
                    'grid "seed": the seed is set by the replications (seed and replications), not the grid'
                )
        name = paths[0] if len(paths) == 1 else f"zip {paths}"
        if not rows:
            raise SweepError(f"grid {name!r}: needs at least one value")
        seen: dict[str, int] = {}
        for i, row in enumerate(rows):
            value = row[0] if len(paths) == 1 else list(row)
            text = json.dumps(value, sort_keys=True)
            if text in seen:
                raise SweepError(f"grid {name!r}: the value {value!r} is listed twice (at {seen[text]} and {i})")
            seen[text] = i
    return [
        {path: value for (paths, _), row in zip(axes, combination, strict=True) for path, value in zip(paths, row)}
        for combination in itertools.product(*(rows for _, rows in axes))
    ]


def grid_axes(grid: dict[str, Any]) -> list[tuple[list[str], list[tuple[Any, ...]]]]:
    """The grid's axes, each (paths, rows of values): one path per axis, except that the paths of
    a ``zip`` table (or of each table in a ``zip`` list) advance together, their lists being of
    one length. The sweep runs the product of the axes."""
    if not isinstance(grid, dict):
        raise SweepError(f"grid: a table of field paths to lists of values, not {type(grid).__name__}")
    linked = grid.get("zip", [])
    groups = [linked] if isinstance(linked, dict) else linked
    if not isinstance(groups, list) or not all(isinstance(group, dict) for group in groups):
        raise SweepError("grid 'zip': a table of field paths to lists of one length (or a list of such tables)")
    axes = [([path], [(value,) for value in values]) for path, values in flatten_grid(grid).items()]
    for group in groups:
        flat = flatten_grid(group)
        lengths = {path: len(values) for path, values in flat.items()}
        if len(set(lengths.values())) > 1:
            raise SweepError(f"grid 'zip': linked lists must have one length, not {lengths}")
        axes.append((list(flat), list(zip(*flat.values()))))
    return axes


def flatten_grid(grid: dict[str, Any], prefix: str = "") -> dict[str, list[Any]]:
    if not isinstance(grid, dict):
        raise SweepError(f"grid: a table of field paths to lists of values, not {type(grid).__name__}")
    flat: dict[str, list[Any]] = {}
    for key, values in grid.items():
        if key == "zip" and not prefix:
            continue  # linked axes: grid_axes
        path = f"{prefix}.{key}" if prefix else str(key)
        if isinstance(values, dict):
            flat.update(flatten_grid(values, path))
        elif isinstance(values, (list, tuple, range)) or (isinstance(values, np.ndarray) and values.ndim == 1):
            flat[path] = [_plain(value) for value in values]
        else:
            raise SweepError(f"grid {path!r}: a list of values, not {values!r}")
    return flat


def _plain(value: Any) -> Any:
    """NumPy scalars and arrays as Python values, so that they validate and go into JSON."""
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    return value


@dataclass(frozen=True)
class PlannedRun:
    """One run of a sweep: a grid point, a replication, its seed, its scenario and its store key."""

    key: str
    point_index: int
    point: dict[str, Any]
    replication: int
    seed: int
    scenario_json: str

    def params(self, base_seed: int | None) -> dict[str, Any]:
        return {
            "parameters": self.point,
            "replication": self.replication,
            "seed": self.seed,
            "base_seed": base_seed,
            "key": self.key,
        }


def plan_sweep(
    base: Scenario | dict[str, Any] | str | Path | None,
    grid: dict[str, Any] | None = None,
    replications: int = 1,
    seed: int | None = None,
    build: Callable[..., Any] | None = None,
) -> list[PlannedRun]:
    """The runs of a sweep, in order (grid point, then replication), each validated and keyed.

    With ``build``, a function of the grid's parameters (``build(**point)``) makes each point's
    scenario instead of ``base``, and the replications' seeds come from ``seed`` or the built
    scenario's own. Raises SweepError (or ScenarioError for the base) before anything runs: a
    path the base scenario does not have, a value the scenario rejects (naming the path and
    value), two grid points that make the same scenario.
    """
    if isinstance(replications, bool) or not isinstance(replications, int) or replications < 1:
        raise SweepError(f"replications: a positive integer, not {replications!r}")
    if build is not None:
        return _plan_built(build, grid, replications, seed)
    if base is None:
        raise SweepError("give base (a scenario) or build (a function of the grid's parameters)")
    base_scenario = as_scenario(base)
    base_seed = base_scenario.seed if seed is None else seed
    engine_version = _engine.version()

    points = expand_grid(grid)
    random = bool(base_scenario.random_sources())
    base_data = sparse_dump(base_scenario)
    if Scenario.from_dict(copy.deepcopy(base_data)).to_engine_json() != base_scenario.to_engine_json():
        base_data = base_scenario.model_dump()  # never expected; the full dump is always right
    runs: list[PlannedRun] = []
    owners: dict[str, int] = {}
    for index, point in enumerate(points):
        data = copy.deepcopy(base_data)
        for path, value in point.items():
            set_path(data, base_scenario, path, value)
        try:
            scenario = Scenario.from_dict(data)
        except ScenarioError as error:
            raise SweepError(_point_problems(point, error)) from None
        random = random or bool(scenario.random_sources())
        _replicate(runs, owners, points, index, scenario, base_seed, replications, engine_version)
    if replications > 1 and not random:
        warnings.warn(
            f"the {replications} replications of each grid point will give identical results: nothing in the "
            "scenario draws random numbers (Poisson, on-off or web traffic, exponential or uniform packet sizes, "
            "RED queues, an error_rate, available_bandwidth), so the seed changes nothing; one replication is enough",
            IdenticalReplicationsWarning,
            stacklevel=4,
        )
    return runs


def _plan_built(
    build: Callable[..., Any], grid: dict[str, Any] | None, replications: int, seed: int | None
) -> list[PlannedRun]:
    engine_version = _engine.version()
    runs: list[PlannedRun] = []
    owners: dict[str, int] = {}
    points = expand_grid(grid)
    for index, point in enumerate(points):
        try:
            scenario = as_scenario(build(**point))
        except ScenarioError as error:
            raise SweepError(_point_problems(point, error)) from None
        except TypeError as error:
            raise SweepError(f"grid point {point}: the builder {_name(build)} cannot take it: {error}") from None
        base_seed = scenario.seed if seed is None else seed
        _replicate(runs, owners, points, index, scenario, base_seed, replications, engine_version)
    return runs


def _replicate(
    runs: list[PlannedRun],
    owners: dict[str, int],
    points: list[dict[str, Any]],
    index: int,
    scenario: Scenario,
    base_seed: int,
    replications: int,
    engine_version: str,
) -> None:
    """Appends grid point ``index``'s replications of ``scenario`` to ``runs``, each with its
    derived seed and key; ``owners`` maps the keys seen so far to their grid point."""
    for replication in range(replications):
        run_seed = derive_seed(base_seed, replication)
        scenario_json = scenario.model_copy(update={"seed": run_seed}).to_engine_json()
        key = run_key(scenario_json, engine_version)
        if key in owners:
            raise SweepError(
                f"grid points {points[owners[key]]} and {points[index]} make the same scenario; "
                "a sweep runs each scenario once"
            )
        owners[key] = index
        runs.append(PlannedRun(key, index, points[index], replication, run_seed, scenario_json))


def _name(function: Any) -> str:
    return f"{getattr(function, '__module__', '?')}.{getattr(function, '__qualname__', repr(function))}"


def sparse_dump(value: Any) -> Any:
    """A model as the fields that differ from their defaults, plus every union tag (``type``,
    ``model``, ``action``): what a user would write. Changing one field of it and validating
    again keeps the others' defaults working, e.g. switching ``congestion_control.type``."""
    if isinstance(value, BaseModel):
        out = {}
        for name, field in type(value).model_fields.items():
            item = getattr(value, name)
            if field.is_required() or _is_tag(field.annotation) or not _is_default(field, item):
                out[name] = sparse_dump(item)
        return out
    if isinstance(value, (list, tuple)):
        return [sparse_dump(item) for item in value]
    if isinstance(value, dict):
        return {key: sparse_dump(item) for key, item in value.items()}
    return value


def _is_default(field: Any, value: Any) -> bool:
    try:
        default = field.get_default(call_default_factory=True)
    except TypeError:  # a factory of the other fields' values: keep the value, it is always right
        return False
    return type(value) is type(default) and value == default


def _is_tag(annotation: Any) -> bool:
    return get_origin(annotation) is Literal and len(get_args(annotation)) == 1


def set_path(data: dict[str, Any], model: BaseModel, path: str, value: Any) -> None:
    """Sets ``path`` in the scenario ``data`` (a sparse dump of ``model``) to ``value``.

    Fields are checked against the model as far as it goes; a table the base leaves out
    (``tcp`` of a flow without one) is created empty, and validation then checks the rest.
    """
    steps = parse_path(path)
    container: Any = data
    node: Any = model  # the base's value at the same place, None past a missing table
    where = ""
    for i, step in enumerate(steps):
        last = i == len(steps) - 1
        if isinstance(step, int):
            if not isinstance(container, list):
                raise SweepError(f"grid {path!r}: {where} is not a list, so it has no [{step}]")
            if step >= len(container):
                raise SweepError(
                    f"grid {path!r}: {where} has {len(container)} entries in the base scenario, so no [{step}]"
                )
            child_node = node[step] if isinstance(node, list) and step < len(node) else None
            where += f"[{step}]"
        else:
            if not isinstance(container, dict):
                kind = "a list" if isinstance(container, list) else "a value"
                raise SweepError(f"grid {path!r}: {where} is {kind}, not a table with fields")
            if isinstance(node, BaseModel):
                if step not in type(node).model_fields:
                    fields = ", ".join(type(node).model_fields)
                    raise SweepError(
                        f"grid {path!r}: {where or 'a scenario'} has no field {step!r} (its fields: {fields})"
                    )
                child_node = getattr(node, step)
            elif isinstance(node, dict):
                child_node = node.get(step)
            else:
                child_node = None
            where = f"{where}.{step}" if where else step
        if last:
            container[step] = value
            return
        if isinstance(step, str) and container.get(step) is None:
            container[step] = {} if child_node is None else sparse_dump(child_node)
        container = container[step]
        node = child_node


def _point_problems(point: dict[str, Any], error: ScenarioError) -> str:
    lines = []
    for field, problem in error.errors:
        at_fault = [p for p in point if _related(p, field)]
        if at_fault:
            where = ", ".join(f"grid {p!r} = {point[p]!r}" for p in at_fault)
        else:
            where = f"grid point {point}"
        lines.append(f"{where}: {field}: {problem}" if field else f"{where}: {problem}")
    return "\n".join(lines)


# The fields that tell which kind of table a tagged union holds: changing one concerns the
# whole table (a field the new kind lacks, a value it bounds differently).
_TAGS = ("type", "model", "action")


def _related(path: str, field: str) -> bool:
    """Whether a scenario error at ``field`` concerns the grid ``path``: one holds the other,
    or ``path`` is the tag of the table that holds ``field``."""
    if not field:
        return False
    head, _, last = path.rpartition(".")
    if last in _TAGS and head:
        path = head
    return any(a == b or a.startswith((b + ".", b + "[")) for a, b in ((field, path), (path, field)))


def load_sweep(path: str | Path) -> dict[str, Any]:
    """Reads a SWEEP.toml: ``base`` (a scenario file, relative to the sweep file, or an inline
    ``[base]`` table), ``[grid]``, ``replications`` (default 1) and ``seed`` (default the base's)."""
    path = Path(path)
    try:
        data = read_toml(path)
    except ScenarioError as error:
        raise SweepError(str(error)) from None
    unknown = sorted(set(data) - {"base", "grid", "replications", "seed"})
    if unknown:
        raise SweepError(f"{path}: unknown key {unknown[0]!r}; a sweep file has base, grid, replications and seed")
    if "base" not in data:
        raise SweepError(f'{path}: base is missing: base = "scenario.toml" or a [base] table')
    base = data["base"]
    if isinstance(base, str):
        base_path = path.parent / base
        try:
            scenario = load_scenario(base_path)
        except (FileNotFoundError, IsADirectoryError):
            raise SweepError(f"base: {base_path}: no such scenario file") from None
        except ScenarioError as error:
            raise SweepError("\n".join(f"base {base_path}: {line}" for line in str(error).splitlines())) from None
    elif isinstance(base, dict):
        try:
            scenario = Scenario.from_dict(base)
        except ScenarioError as error:
            raise SweepError(
                "\n".join(
                    f"base.{field}: {problem}" if field else f"base: {problem}" for field, problem in error.errors
                )
            ) from None
    else:
        raise SweepError(f"base: a scenario file name or a [base] table, not {base!r}")
    return {
        "base": scenario,
        "grid": data.get("grid", {}),
        "replications": data.get("replications", 1),
        "seed": data.get("seed"),
    }


# ---------------------------------------------------------------------------------------------
# What a worker does
# ---------------------------------------------------------------------------------------------


def run_batch(tasks: list[Task]) -> list[dict[str, Any]]:
    """Runs ``(key, scenario_json, engine_version[, metrics])`` tasks one after the other on a worker.

    Returns one outcome per task: ``{"key", "status": "done", "files": {name: bytes}, "wall_s"}``
    with the files ``Results.write`` makes, or ``{"key", "status": "failed", "error": {"type",
    "message", "traceback"}, "wall_s"}``. A run that raises does not stop the others.
    """
    return [run_task(*task) for task in tasks]


def run_task(key: str, scenario_json: str, engine_version: str, metrics: MetricsHook | None = None) -> dict[str, Any]:
    started = time.perf_counter()
    try:
        if _engine.version() != engine_version:
            raise RuntimeError(
                f"this worker's engine is version {_engine.version()}, the sweep's is {engine_version}; "
                "install the same wattnet on every worker"
            )
        scenario = Scenario.from_dict(json.loads(scenario_json))
        if scenario.to_engine_json() != scenario_json:
            raise RuntimeError("this worker reads the scenario differently; install the same wattnet on every worker")
        results = run(scenario)
        results.summary = {**results.summary, **measure(results, metrics)}
        with tempfile.TemporaryDirectory(prefix="wattnet-run-") as scratch:
            results.write(scratch)
            files = {path.name: path.read_bytes() for path in sorted(Path(scratch).iterdir()) if path.is_file()}
    except Exception as error:  # noqa: BLE001 - every failure of a run is recorded, none stops the sweep
        return {
            "key": key,
            "status": FAILED,
            "error": {"type": type(error).__name__, "message": str(error), "traceback": traceback.format_exc()},
            "wall_s": time.perf_counter() - started,
        }
    return {"key": key, "status": DONE, "files": files, "wall_s": time.perf_counter() - started}


def _init_local_worker(parent_pid: int) -> None:
    # Ctrl-C reaches the whole process group: the sweep's process handles it and stops the
    # workers itself. A worker whose parent died (SIGKILL) exits instead of waiting forever.
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch_parent() -> None:
        while True:
            time.sleep(0.5)
            if os.getppid() != parent_pid:
                os._exit(1)

    threading.Thread(target=watch_parent, name="wattnet-parent-watch", daemon=True).start()


# ---------------------------------------------------------------------------------------------
# Executors
# ---------------------------------------------------------------------------------------------


def _main_script_without_guard() -> str | None:
    """The main script's path if it is a Python file with no top-level ``if __name__ == "__main__":``."""
    path = getattr(sys.modules.get("__main__"), "__file__", None)
    if not path or not str(path).endswith(".py"):
        return None
    try:
        tree = ast.parse(Path(path).read_text())
    except (OSError, SyntaxError, ValueError):
        return None
    for statement in tree.body:
        if isinstance(statement, ast.If) and "__name__" in ast.unparse(statement.test):
            return None
    return str(path)


# A task: (store key, scenario JSON, engine version[, metrics hook]) of each run it holds; a handle
# is what an executor returns for a task it runs (a concurrent.futures or a Dask future).
Task = tuple[str, str, str] | tuple[str, str, str, MetricsHook]
Handle = Any


class Executor(Protocol):
    """What ``drive`` needs of an executor: slots, and tasks submitted, awaited and collected."""

    isolates_losses: bool
    death_limit: int

    def slots(self) -> int: ...
    def submit(self, tasks: list[Task]) -> Handle: ...
    def wait(self, futures: set[Handle], timeout: float) -> set[Handle]: ...
    def outcomes(self, future: Handle) -> list[dict[str, Any]]: ...
    def after_loss(self) -> None: ...
    def close(self, futures: set[Handle], abort: bool = False) -> None: ...


class WorkerLost(Exception):
    """The worker process running a task died (killed, out of memory or crashed)."""


# Losses of tasks, with no task finished in the whole sweep, after which the sweep stops.
LOSSES_BEFORE_ANY_SUCCESS = 3


class LocalExecutor:
    """A pool of worker processes on this machine (spawned, not forked).

    A worker that dies breaks the whole pool: every task in flight is lost with it, and a new
    pool takes over. The driver then runs the suspects alone to find the run at fault.
    """

    isolates_losses = False
    # A run whose worker dies this many times while it runs alone is recorded as failed; one
    # death may be someone else's doing (a kill, the machine's memory).
    death_limit = 2

    def __init__(self, workers: int | None = None):
        if workers is None:
            workers = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
        if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
            raise SweepError(f"workers: a positive number of processes, not {workers!r}")
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None

    def slots(self) -> int:
        return self.workers

    def submit(self, tasks: list[Task]) -> Handle:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_init_local_worker,
                initargs=(os.getpid(),),
            )
        return self._pool.submit(run_batch, tasks)

    def wait(self, futures: set[Handle], timeout: float) -> set[Handle]:
        done, pending = wait_futures(futures, timeout=timeout, return_when=FIRST_COMPLETED)
        if pending and any(isinstance(f.exception(), BrokenProcessPool) for f in done):
            # The pool is broken: every other task in it is lost or finished; collect them all.
            more, _ = wait_futures(pending, timeout=60)
            done |= more
        return done

    def outcomes(self, future: Handle) -> list[dict[str, Any]]:
        try:
            outcomes: list[dict[str, Any]] = future.result()
            return outcomes
        except BrokenProcessPool as error:
            raise WorkerLost(str(error) or "a worker process died") from None

    def after_loss(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    def close(self, futures: set[Handle], abort: bool = False) -> None:
        pool, self._pool = self._pool, None
        if pool is None:
            return
        if abort:
            kill = getattr(pool, "terminate_workers", None)  # Python 3.14
            if kill is not None:
                kill()
            else:
                for process in list(getattr(pool, "_processes", {}).values()):
                    process.terminate()
        pool.shutdown(wait=True, cancel_futures=True)


class SerialExecutor:
    """Runs each task in this process when it is submitted: no pool, nothing to spawn. For
    debugging (a breakpoint in a run stops there) and for sweeps too small to pay for a pool."""

    isolates_losses = True
    death_limit = 1

    def slots(self) -> int:
        return 1

    def submit(self, tasks: list[Task]) -> Handle:
        future: Future[list[dict[str, Any]]] = Future()
        future.set_result(run_batch(tasks))
        return future

    def wait(self, futures: set[Handle], timeout: float) -> set[Handle]:
        return {future for future in futures if future.done()}

    def outcomes(self, future: Handle) -> list[dict[str, Any]]:
        outcomes: list[dict[str, Any]] = future.result()
        return outcomes

    def after_loss(self) -> None:
        pass

    def close(self, futures: set[Handle], abort: bool = False) -> None:
        pass


class DaskExecutor:
    """Tasks on a Dask cluster: ``Client(address)`` or a Client the caller made.

    Dask retries a task whose worker died on other workers and gives up (KilledWorker) only
    when that task keeps killing them, so a lost task points at its own runs.
    """

    isolates_losses = True
    death_limit = 1

    def __init__(self, client_or_address: Any):
        try:
            import distributed
        except ImportError:
            raise SweepError("the Dask executor needs dask.distributed: pip install 'wattnet[dask]'") from None
        self._distributed: Any = distributed
        self.client: Any
        if isinstance(client_or_address, str):
            try:
                self.client = self._distributed.Client(client_or_address, timeout="20s")
            except OSError as error:
                raise SweepError(f"scheduler {client_or_address!r}: cannot connect: {error}") from None
            self._own_client = True
        elif isinstance(client_or_address, distributed.Client):
            self.client = client_or_address
            self._own_client = False
        else:
            raise SweepError(
                f"executor: 'local', a Dask Client or a scheduler address, not {type(client_or_address).__name__}"
            )
        self._slots = 1
        self._slots_at = -math.inf

    def slots(self) -> int:
        # The cluster may grow or shrink: ask the scheduler again every few seconds.
        if time.monotonic() - self._slots_at > 5:
            self._slots = max(1, sum(self.client.nthreads().values()))
            self._slots_at = time.monotonic()
        return self._slots

    def submit(self, tasks: list[Task]) -> Handle:
        return self.client.submit(run_batch, tasks, pure=False, key=f"wattnet-runs-{tasks[0][0]}-{os.urandom(4).hex()}")

    def wait(self, futures: set[Handle], timeout: float) -> set[Handle]:
        try:
            done, _ = self._distributed.wait(list(futures), timeout=timeout, return_when="FIRST_COMPLETED")
        except TimeoutError:
            return set()
        return set(done)

    def outcomes(self, future: Handle) -> list[dict[str, Any]]:
        from distributed.scheduler import KilledWorker

        try:
            outcomes: list[dict[str, Any]] = future.result()
            return outcomes
        except KilledWorker as error:
            raise WorkerLost(f"the Dask workers running it died: {error}") from None
        except FutureCancelledError:
            raise WorkerLost("the Dask scheduler cancelled it") from None

    def after_loss(self) -> None:
        pass

    def close(self, futures: set[Handle], abort: bool = False) -> None:
        if abort and futures:
            with contextlib.suppress(Exception):  # the client may already be gone
                self.client.cancel(list(futures))
        if self._own_client:
            self.client.close()


def make_executor(executor: Any = "local", workers: int | None = None) -> Executor:
    """The executor ``sweep``'s ``executor`` argument names (see ``sweep``)."""
    if isinstance(executor, str) and executor == "local":
        return LocalExecutor(workers)
    if workers is not None:
        raise SweepError("workers: applies to the local executor; a Dask cluster has its own workers")
    if isinstance(executor, str) and executor == "serial":
        return SerialExecutor()
    return DaskExecutor(executor)


# ---------------------------------------------------------------------------------------------
# Running a sweep
# ---------------------------------------------------------------------------------------------


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
    if getattr(multiprocessing.current_process(), "_inheriting", False):
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


# ---------------------------------------------------------------------------------------------
# Replications: means with confidence intervals
# ---------------------------------------------------------------------------------------------


def mean_ci(values: Any, confidence: float = 0.95) -> tuple[float, float]:
    """The mean of independent replications and the half-width of its Student-t confidence
    interval, ``t_{(1+confidence)/2, n-1} · s / √n`` with ``s`` the sample standard deviation
    (n − 1). With one value the half-width is NaN; with none, both are. NaN values are left
    out. The result is in the values' unit.

    Example:
        >>> mean, half_width = mean_ci([1, 2, 3, 4, 5])
        >>> round(mean, 3), round(half_width, 3)
        (3.0, 1.963)
    """
    from scipy.stats import t

    if not 0 < confidence < 1:
        raise ValueError(f"confidence: a probability in (0, 1), not {confidence!r}")
    array = np.asarray(values, dtype=float)
    if array.ndim != 1:
        raise ValueError("values: a one-dimensional sequence of numbers")
    array = array[~np.isnan(array)]
    n = len(array)
    if n == 0:
        return math.nan, math.nan
    mean = float(array.mean())
    if n == 1:
        return mean, math.nan
    s = float(array.std(ddof=1))
    return mean, float(t.ppf((1 + confidence) / 2, n - 1)) * s / math.sqrt(n)


def replication_means(
    table: pd.DataFrame,
    metrics: str | list[str],
    by: list[str] | None = None,
    confidence: float = 0.95,
) -> pd.DataFrame:
    """Means over replications with Student-t confidence intervals, one row per (grid point, metric).

    ``by`` names the columns that identify a grid point; by default the table's parameters
    (``table.attrs["parameters"]``, as ``sweep`` and ``load_results`` set it). Failed runs are
    left out. Columns: ``by``..., ``metric``, ``n``, ``mean``, ``std``, ``half_width``,
    ``ci_low``, ``ci_high`` and ``rel_half_width`` (half-width / |mean|), in the metric's unit
    but for ``n`` and ``rel_half_width``.

    Example:
        ```python
        table = wattnet.sweep("examples/chain.toml", {"links[1].rate_bps": [8e6, 10e6]}, replications=5,
                              out="out/sweep")
        wattnet.replication_means(table, ["packets_dropped", "packets_received"])
        ```
    """
    metrics = [metrics] if isinstance(metrics, str) else list(metrics)
    if by is None:
        if "parameters" not in table.attrs:
            raise ValueError("by: name the columns of a grid point; this table does not say which are parameters")
        by = list(table.attrs["parameters"])
    missing = [c for c in [*by, *metrics] if c not in table.columns]
    if missing:
        raise KeyError(f"no column {missing[0]!r} in the table; it has {', '.join(map(str, table.columns))}")
    done = table[table["status"] == DONE] if "status" in table.columns else table
    groups = done.groupby(by, dropna=False, sort=False) if by else [((), done)]
    rows = []
    for key, group in groups:
        for metric in metrics:
            values = pd.to_numeric(group[metric], errors="raise").astype(float).dropna()
            mean, half = mean_ci(values.to_numpy(), confidence)
            std = float(values.std(ddof=1)) if len(values) > 1 else math.nan
            rows.append(
                {
                    **dict(zip(by, key)),
                    "metric": metric,
                    "n": len(values),
                    "mean": mean,
                    "std": std,
                    "half_width": half,
                    "ci_low": mean - half,
                    "ci_high": mean + half,
                    "rel_half_width": half / abs(mean) if mean else math.nan,
                }
            )
    return pd.DataFrame(
        rows, columns=[*by, "metric", "n", "mean", "std", "half_width", "ci_low", "ci_high", "rel_half_width"]
    )
