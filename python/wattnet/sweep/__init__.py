"""Sweeps: a base scenario, a grid of parameter values and replications, run by local processes
or a Dask cluster into a store (``wattnet.store``) that skips what it has and resumes.

    table = wattnet.sweep("examples/chain.toml", {"links[1].rate_bps": [5e6, 10e6]}, replications=5, out="out/s")
    wattnet.replication_means(table, "packets_dropped")   # mean and 95 % CI per grid point

A grid maps field paths (``links[2].rate_bps``, ``flows[0].tcp.congestion_control.type``) to
lists of values; the sweep runs every combination of them (the Cartesian product), each
``replications`` times. Replication r runs with the seed ``derive_seed(seed, r)`` at every grid
point (common random numbers), so two points differ only by their parameters.

One module per part; every public name is importable from here:

- ``grid``: field paths, the grid's points, seeds, the sparse form of a scenario, SWEEP.toml files;
- ``plan``: the runs of a sweep, validated, seeded and keyed before anything runs;
- ``worker``: what a worker process does with a task;
- ``executors``: where tasks run (local processes, this process, a Dask cluster);
- ``driver``: ``sweep`` itself, the store's bookkeeping and the runs that kill their workers;
- ``replications``: means and confidence intervals over replications.
"""

from wattnet.errors import WorkersDying
from wattnet.sweep.driver import (
    MAX_BATCH,
    POLL_S,
    TARGET_TASK_S,
    TASKS_PER_SLOT,
    SweepOutcome,
    drive,
    require_done,
    run_sweep,
    sweep,
)
from wattnet.sweep.executors import (
    LOSSES_BEFORE_ANY_SUCCESS,
    MAIN_GUARD_HELP,
    DaskExecutor,
    Executor,
    LocalExecutor,
    SerialExecutor,
    WorkerLost,
    make_executor,
)
from wattnet.sweep.grid import (
    derive_seed,
    expand_grid,
    flatten_grid,
    grid_axes,
    load_sweep,
    parse_path,
    set_path,
    sparse_dump,
)
from wattnet.sweep.plan import IdenticalReplicationsWarning, PlannedRun, plan_sweep
from wattnet.sweep.replications import mean_ci, replication_means
from wattnet.sweep.worker import Task, run_batch, run_task

__all__ = [
    "LOSSES_BEFORE_ANY_SUCCESS",
    "MAIN_GUARD_HELP",
    "MAX_BATCH",
    "POLL_S",
    "TARGET_TASK_S",
    "TASKS_PER_SLOT",
    "DaskExecutor",
    "Executor",
    "IdenticalReplicationsWarning",
    "LocalExecutor",
    "PlannedRun",
    "SerialExecutor",
    "SweepOutcome",
    "Task",
    "WorkerLost",
    "WorkersDying",
    "derive_seed",
    "drive",
    "expand_grid",
    "flatten_grid",
    "grid_axes",
    "load_sweep",
    "make_executor",
    "mean_ci",
    "parse_path",
    "plan_sweep",
    "replication_means",
    "require_done",
    "run_batch",
    "run_sweep",
    "run_task",
    "set_path",
    "sparse_dump",
    "sweep",
]
