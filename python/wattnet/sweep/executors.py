"""Executors: where a sweep's tasks run (a local process pool, this process, a Dask cluster)."""

from __future__ import annotations

import ast
import contextlib
import math
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future
from concurrent.futures import CancelledError as FutureCancelledError
from concurrent.futures import wait as wait_futures
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from wattnet.errors import SweepError
from wattnet.sweep.worker import Task, _init_local_worker, run_batch

# The process pool (multiprocessing and concurrent.futures.process) is imported when a local pool
# starts: `wattnet run` and a sweep's workers import this module and never start one.
if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

# Worker processes are spawned: each imports the main script again, as "__mp_main__", so a
# script's top-level code runs in every worker unless it is under this guard.
MAIN_GUARD_HELP = (
    "worker processes import your main script again before they run anything, so code at its top "
    "level runs in every worker; put the code that calls wattnet.sweep under "
    '`if __name__ == "__main__":` (or pass executor="serial")'
)


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


# What an executor returns for a task it runs (a concurrent.futures or a Dask future).
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
    # How long a dead worker may go unnoticed by the pool before the executor ends the pool
    # itself (see _kill_workers).
    death_notice_s = 5.0

    def __init__(self, workers: int | None = None):
        if workers is None:
            workers = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
        if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
            raise SweepError(f"workers: a positive number of processes, not {workers!r}")
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None
        self._death_seen: float | None = None  # when a worker was first seen dead, the pool not broken

    def slots(self) -> int:
        return self.workers

    def submit(self, tasks: list[Task]) -> Handle:
        if self._pool is None:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            self._pool = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_init_local_worker,
                initargs=(os.getpid(),),
            )
            self._death_seen = None
        pool = self._pool
        return _without_interruption(lambda: pool.submit(run_batch, tasks))

    def wait(self, futures: set[Handle], timeout: float) -> set[Handle]:
        from concurrent.futures.process import BrokenProcessPool

        done, pending = wait_futures(futures, timeout=timeout, return_when=FIRST_COMPLETED)
        if not done and self._pool is not None and self._death_unnoticed(self._pool):
            # The pool missed a worker's death (see _kill_workers): end the pool, which breaks it.
            _kill_workers(self._pool)
            done, pending = wait_futures(futures, timeout=60, return_when=FIRST_COMPLETED)
        if pending and any(isinstance(f.exception(), BrokenProcessPool) for f in done):
            # The pool is broken: every other task in it is lost or finished; collect them all.
            more, _ = wait_futures(pending, timeout=60)
            done |= more
        return done

    def outcomes(self, future: Handle) -> list[dict[str, Any]]:
        from concurrent.futures.process import BrokenProcessPool

        try:
            outcomes: list[dict[str, Any]] = future.result()
            return outcomes
        except BrokenProcessPool as error:
            raise WorkerLost(str(error) or "a worker process died") from None

    def _death_unnoticed(self, pool: ProcessPoolExecutor) -> bool:
        """Whether a worker has been dead for ``death_notice_s`` with the pool not broken."""
        if not any(process.exitcode is not None for process in _workers(pool)):
            self._death_seen = None
            return False
        if self._death_seen is None:
            self._death_seen = time.monotonic()
        return time.monotonic() - self._death_seen >= self.death_notice_s

    def after_loss(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    def close(self, futures: set[Handle], abort: bool = False) -> None:
        pool, self._pool = self._pool, None
        if pool is None:
            return
        if abort:
            _kill_workers(pool)
        pool.shutdown(wait=True, cancel_futures=True)


def _without_interruption(start: Callable[[], Handle]) -> Handle:
    """``start()``, which may start worker processes, shielded from Ctrl-C.

    Ctrl-C reaches the whole process group. A worker starting then would die of it, printing a
    traceback, before its initializer ignores it; and this process, interrupted while it hands
    a new worker its start-up data, leaves that worker reading half of it (another traceback).
    So SIGINT is blocked meanwhile (a child inherits the mask: the workers never see it) and,
    in this process, held and raised when ``start`` has returned.
    """
    if not hasattr(signal, "pthread_sigmask") or threading.current_thread() is not threading.main_thread():
        return start()
    held: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda number, _frame: held.append(number))
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        return start()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
        signal.signal(signal.SIGINT, previous)
        if held:
            signal.raise_signal(signal.SIGINT)  # as the handler it was held from would have had it


def _workers(pool: ProcessPoolExecutor) -> list[Any]:
    return list((getattr(pool, "_processes", None) or {}).values())


def _kill_workers(pool: ProcessPoolExecutor) -> None:
    """Kills the pool's workers so that the pool sees them die, whatever they were doing.

    A worker killed while it sends a result leaves part of a message in the pipe the workers
    share, and the pool's manager thread (CPython's ProcessPoolExecutor) then waits for the rest
    forever: it never notices the death, and shutting the pool down waits for that thread.
    Once every worker is dead, closing this process's copy of the pipe's write end, the last
    one, turns that wait into end of file, which the pool takes as a broken pool.
    """
    from multiprocessing.connection import wait as wait_for_exit

    workers = _workers(pool)
    for process in workers:
        with contextlib.suppress(ProcessLookupError, ValueError):
            process.kill()
    alive = [process.sentinel for process in workers]
    while alive:  # wait returns as soon as one has exited
        ended = wait_for_exit(alive)
        alive = [sentinel for sentinel in alive if sentinel not in ended]
    writer = getattr(getattr(pool, "_result_queue", None), "_writer", None)
    if writer is not None:
        writer.close()


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
