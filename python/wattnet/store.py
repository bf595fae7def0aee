"""The store of a sweep: one directory per run, keyed by what determines its results.

A run's key is a hash of its canonical engine JSON (which holds the seed) and the engine's
version, so a run is computed once: whoever asks for it again finds it. Layout of ``DIR``::

    DIR/sweep.json                 the latest sweep written here: base scenario, grid, replications, seed
    DIR/runs/<key>/params.json     the run's grid point, replication and seed
    DIR/runs/<key>/summary.json    (a run that finished) summary, scenario.json and one Parquet file per table
    DIR/runs/<key>/error.json      (a run that failed) its error type, message and traceback, beside scenario.json
    DIR/runs/<key>/manifest.json   the SHA-256 and size of each of the run's other files, written last
    DIR/results.parquet, .csv      the tidy table of every run, written by load_results
    DIR/.tmp/                      runs being written; emptied when a sweep starts
    DIR/.lock                      held by the sweep writing here

Every run directory is written under ``.tmp`` and renamed into ``runs/`` in one step, so
``runs/`` only ever holds whole runs: a sweep killed at any instant leaves nothing half
written there, and the next one runs exactly what is missing. A run whose files no longer
match its manifest (a disk or a hand damaged them after it was written) is "damaged": it is
reported by name, never counted as done, and the next sweep computes it again.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import os
import shutil
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from wattnet._lazy import lazy_import

if TYPE_CHECKING:
    import pandas as pd
else:
    pd = lazy_import("pandas")

from wattnet.errors import StoreBusyError

DONE = "done"
FAILED = "failed"
DAMAGED = "damaged"
MANIFEST = "manifest.json"

# Summary fields that the table shows elsewhere or that are not numbers of the run.
_SUMMARY_SKIP = {"seed"}


def run_key(scenario_json: str, engine_version: str) -> str:
    """The store's key of a run: SHA-256 (128 bits, hex) of its canonical scenario JSON and the engine version."""
    text = json.dumps({"engine_version": engine_version, "scenario": scenario_json}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


class Store:
    def __init__(self, directory: str | Path):
        self.directory = Path(directory)
        self.runs = self.directory / "runs"
        self.tmp = self.directory / ".tmp"

    def create(self) -> None:
        self.runs.mkdir(parents=True, exist_ok=True)
        self.tmp.mkdir(exist_ok=True)

    @contextlib.contextmanager
    def lock(self) -> Iterator[None]:
        """Holds ``DIR/.lock`` for the duration: two sweeps never write one store at once.

        The lock is the operating system's (flock), so it goes with the process that held it,
        however that process ended.
        """
        self.create()
        try:
            import fcntl
        except ImportError:  # not POSIX: no lock
            yield
            return
        with open(self.directory / ".lock", "a+") as file:
            try:
                fcntl.flock(file, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise StoreBusyError(f"{self.directory}: another sweep is writing to this directory") from None
            try:
                yield
            finally:
                fcntl.flock(file, fcntl.LOCK_UN)

    def clear_tmp(self) -> None:
        """Removes what interrupted writers left in ``.tmp`` (call while holding the lock)."""
        if self.tmp.is_dir():
            for entry in self.tmp.iterdir():
                if entry.is_dir() and not entry.is_symlink():
                    shutil.rmtree(entry, ignore_errors=True)
                else:
                    entry.unlink(missing_ok=True)

    def status(self, key: str) -> str | None:
        """``"done"``, ``"failed"``, ``"damaged"`` (its files fail their manifest: ``damage``
        says how) or None when the store has no run of that key."""
        run = self.runs / key
        if not run.is_dir():
            return None
        if self.damage(key) is not None:
            return DAMAGED
        if (run / "summary.json").is_file():
            return DONE
        if (run / "error.json").is_file():
            return FAILED
        return DAMAGED

    def damage(self, key: str) -> str | None:
        """What is wrong with a stored run's files, or None when each matches its manifest."""
        run = self.runs / key
        try:
            manifest = json.loads((run / MANIFEST).read_bytes())
            expected = manifest["files"]
            present = {path.name for path in run.iterdir() if path.name != MANIFEST}
        except FileNotFoundError:
            return f"{MANIFEST} is missing"
        except (OSError, ValueError, KeyError, TypeError) as error:
            return f"{MANIFEST} is unreadable ({type(error).__name__})"
        if not isinstance(expected, dict) or present != set(expected):
            return f"the files are not those of {MANIFEST}"
        for name, entry in sorted(expected.items()):
            try:
                content = (run / name).read_bytes()
            except OSError as error:
                return f"{name} is unreadable ({error.strerror})"
            if not isinstance(entry, dict) or _file_entry(content) != entry:
                return f"{name} does not match its checksum"
        return None

    def statuses(self) -> dict[str, str]:
        """The status of every run in the store, by key."""
        found = {}
        if self.runs.is_dir():
            for run in self.runs.iterdir():
                status = self.status(run.name)
                if status is not None:
                    found[run.name] = status
        return found

    def write_done(self, key: str, params: dict[str, Any], files: dict[str, bytes]) -> None:
        """Stores a finished run: its result files (summary.json, scenario.json, tables) and params."""
        if "summary.json" not in files:
            raise ValueError(f"run {key}: the results have no summary.json")
        self._write(key, {**files, "params.json": _json_bytes(params)})

    def write_failed(self, key: str, params: dict[str, Any], scenario_json: str, error: dict[str, Any]) -> None:
        """Stores a failed run: its params, scenario and error (``type``, ``message``, ``traceback``)."""
        self._write(
            key,
            {
                "params.json": _json_bytes(params),
                "scenario.json": _json_bytes(json.loads(scenario_json)),
                "error.json": _json_bytes(error),
            },
        )

    def update_params(self, key: str, params: dict[str, Any]) -> None:
        """Replaces a stored run's params.json (atomically) when a later sweep names it differently."""
        path = self.runs / key / "params.json"
        if path.is_file() and json.loads(path.read_text()) == params:
            return
        content = _json_bytes(params)
        manifest = json.loads((self.runs / key / MANIFEST).read_bytes())
        manifest["files"]["params.json"] = _file_entry(content)
        # params first, then its checksum: killed in between, the run reads as damaged and is redone.
        self._replace(path, content)
        self._replace(self.runs / key / MANIFEST, _json_bytes(manifest))

    def _replace(self, path: Path, content: bytes) -> None:
        fd, tmp_name = tempfile.mkstemp(dir=self.tmp, prefix=f"{path.parent.name}-{path.name}-")
        with os.fdopen(fd, "wb") as file:
            file.write(content)
        os.replace(tmp_name, path)

    def _write(self, key: str, files: dict[str, bytes]) -> None:
        staging = self.tmp / f"{key}-{uuid.uuid4().hex[:8]}"
        staging.mkdir()
        for name, content in files.items():
            if "/" in name or name.startswith(".") or name == MANIFEST:
                raise ValueError(f"run {key}: bad result file name {name!r}")
            (staging / name).write_bytes(content)
        # The manifest comes last: a run directory without one was never finished.
        manifest = {"files": {name: _file_entry(content) for name, content in sorted(files.items())}}
        (staging / MANIFEST).write_bytes(_json_bytes(manifest))
        final = self.runs / key
        if final.exists():
            # A failed run being retried, or a directory with no whole run in it: move it
            # aside first. Killed between the two renames, the store simply lacks this run.
            old = self.tmp / f"{key}-old-{uuid.uuid4().hex[:8]}"
            os.rename(final, old)
            os.rename(staging, final)
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.rename(staging, final)

    def write_sweep(self, definition: dict[str, Any]) -> None:
        fd, tmp_name = tempfile.mkstemp(dir=self.tmp, prefix="sweep-")
        with os.fdopen(fd, "wb") as file:
            file.write(_json_bytes(definition))
        os.replace(tmp_name, self.directory / "sweep.json")

    def sweep_definition(self) -> dict[str, Any] | None:
        """The latest sweep's definition; None if there is none or it cannot be read (it only orders the rows)."""
        try:
            definition = json.loads((self.directory / "sweep.json").read_bytes())
        except (OSError, ValueError):
            return None
        return definition if isinstance(definition, dict) else None


def _file_entry(content: bytes) -> dict[str, Any]:
    return {"sha256": hashlib.sha256(content).hexdigest(), "bytes": len(content)}


def _json_bytes(value: Any) -> bytes:
    return (json.dumps(value, indent=2, allow_nan=False) + "\n").encode()


def load_results(directory: str | Path, write: bool = True) -> pd.DataFrame:
    """One tidy table of every run in a sweep's store, one row per run.

    Columns: the grid's parameters (named by their field paths), ``replication``, ``seed``,
    ``status`` (``"done"``, ``"failed"`` or ``"damaged"``: its files fail their checksums), the
    numbers of each run's summary (packets, drops, energy, wall time, ...), ``error`` (the
    failure's type and message, or what is damaged; empty for runs that finished) and ``key`` (the run's directory under ``DIR/runs``). Rows follow the order
    of the latest sweep (grid point, then replication); runs of earlier sweeps come after.
    The parameter columns' names are in ``table.attrs["parameters"]``.

    With ``write``, the table is also saved as ``DIR/results.parquet`` and ``DIR/results.csv``.
    Raises FileNotFoundError when ``directory`` is not a store.

    Example:
        ```python
        table = wattnet.load_results("out/sweep")
        table[table["status"] == "failed"][["key", "error"]]
        ```
    """
    store = Store(directory)
    if not store.runs.is_dir():
        raise FileNotFoundError(f"{directory}: not a sweep's store (it has no runs/ directory)")
    statuses = store.statuses()
    definition = store.sweep_definition() or {}
    order = {key: i for i, key in enumerate(definition.get("runs", []))}
    keys = sorted(statuses, key=lambda key: (order.get(key, math.inf), key))

    parameters: list[str] = list(definition.get("grid", {}))
    rows = []
    for key in keys:
        run = store.runs / key
        params = _read_params(run) if statuses[key] == DAMAGED else json.loads((run / "params.json").read_text())
        for name in params.get("parameters", {}):
            if name not in parameters:
                parameters.append(name)
        row: dict[str, Any] = {f"param:{name}": value for name, value in params.get("parameters", {}).items()}
        row["replication"] = params.get("replication")
        row["seed"] = params.get("seed")
        row["status"] = statuses[key]
        if statuses[key] == DONE:
            summary = json.loads((run / "summary.json").read_text())
            row.update({name: value for name, value in summary.items() if name not in _SUMMARY_SKIP})
            row["error"] = None
        elif statuses[key] == DAMAGED:
            row["error"] = f"damaged: {store.damage(key) or 'no summary.json nor error.json'}"
        else:
            error = json.loads((run / "error.json").read_text())
            row["error"] = f"{error['type']}: {error['message']}"
        row["key"] = key
        rows.append(row)

    table = pd.DataFrame(rows)
    for name in parameters:
        table[name] = _parameter_column(table.pop(f"param:{name}") if f"param:{name}" in table else None, len(table))
    fixed = ["replication", "seed", "status"]
    summary_columns = [c for c in table.columns if c not in parameters and c not in fixed + ["error", "key"]]
    table = table.reindex(columns=parameters + fixed + summary_columns + ["error", "key"])
    if len(table):
        # A damaged run whose params.json is damaged too has neither: the columns then keep a gap.
        table["replication"] = table["replication"].astype("int64" if table["replication"].notna().all() else "Int64")
        table["seed"] = table["seed"].astype("uint64" if table["seed"].notna().all() else "UInt64")
    table.attrs["parameters"] = parameters
    if write:
        _write_atomically(store.directory / "results.parquet", lambda path: table.to_parquet(path, index=False))
        _write_atomically(store.directory / "results.csv", lambda path: table.to_csv(path, index=False))
    return table


def _read_params(run: Path) -> dict[str, Any]:
    """A damaged run's params.json, or nothing if that is damaged too."""
    try:
        params = json.loads((run / "params.json").read_bytes())
    except (OSError, ValueError):
        return {}
    return params if isinstance(params, dict) and isinstance(params.get("parameters", {}), dict) else {}


def _write_atomically(path: Path, write: Any) -> None:
    fd, tmp_name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}-")
    os.close(fd)
    try:
        write(tmp_name)
        os.replace(tmp_name, path)
    except BaseException:
        Path(tmp_name).unlink(missing_ok=True)
        raise


def _parameter_column(column: pd.Series | None, length: int) -> pd.Series:
    """A parameter's values as one column Parquet can hold: numbers, strings or booleans as
    they are; tables, lists and columns of mixed kinds as canonical JSON text."""
    if column is None:
        return pd.Series([None] * length, dtype=object)
    values = [None if _missing(v) else v for v in column.tolist()]
    kinds = {_kind(v) for v in values if v is not None}
    if len(kinds) > 1 or kinds & {"json"}:
        return pd.Series([None if v is None else json.dumps(v, sort_keys=True) for v in values], dtype=object)
    return pd.Series(values, index=column.index).infer_objects()


def _missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "str"
    return "json"
