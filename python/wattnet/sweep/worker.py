"""What a worker does: runs a task's runs one after the other and hands back their files."""

from __future__ import annotations

import json
import os
import signal
import threading
import time
import traceback
from typing import Any

from wattnet import _engine
from wattnet.metrics import MetricsHook, measure
from wattnet.runner import run
from wattnet.scenario import Scenario
from wattnet.store import DONE, FAILED

# A task: (store key, scenario JSON, engine version[, metrics hook]) of each run it holds.
Task = tuple[str, str, str] | tuple[str, str, str, MetricsHook]


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
        files = results.files()
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
