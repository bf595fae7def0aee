"""What one run produced: its summary and its tables, as pandas DataFrames, and how they are stored.

pandas and pyarrow are imported only when a table is first read or written, so that a run that
asks for no table (or a sweep's parent process) does not pay for them.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from array import array
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeAlias, overload

from wattnet.errors import SimulationError

if TYPE_CHECKING:
    from collections.abc import Iterable

    import pandas as pd

    from wattnet._engine import Column, ColumnType, EngineResults

TABLES = (
    "ports", "flows", "timeseries", "rate_changes", "connections", "subflows", "cwnd_trace", "routing_events",
    "rate_time", "nodes",
)  # fmt: skip

# The engine sends every column with its type, so a table with no rows keeps its schema.
_DTYPES = {"f64": "float64", "u64": "int64", "str": "str"}

# One table: each column's type and values, as the engine sends them.
Columns: TypeAlias = "dict[str, Column]"


def _beyond_int64(table: str, name: str) -> SimulationError:
    # The scenario's bounds keep every count within int64; a value beyond is a bug.
    return SimulationError(f"the {table} table's column {name} holds a value beyond int64")


@overload
def column_values(column: Column, kind: Literal["f64"], name: str = "") -> list[float]: ...
@overload
def column_values(column: Column, kind: Literal["u64"], name: str = "") -> list[int]: ...
@overload
def column_values(column: Column, kind: Literal["str"], name: str = "") -> list[str]: ...
def column_values(column: Column, kind: ColumnType, name: str = "") -> list[float] | list[int] | list[str]:
    """The values of one of the engine's columns, which must be of type ``kind``."""
    if column[0] != kind:
        raise SimulationError(f"the engine's column {name} is of type {column[0]}, not {kind}")
    return column[1]


def to_frame(columns: Columns, table: str = "") -> pd.DataFrame:
    """A DataFrame of the engine's ``{name: (type, values)}`` columns, typed even when empty."""
    import pandas as pd

    series = {}
    for name, (kind, values) in columns.items():
        try:
            series[name] = pd.Series(values, dtype=_DTYPES[kind])
        except OverflowError:
            raise _beyond_int64(table, name) from None
    return pd.DataFrame(series)


def json_safe(value: Any) -> Any:
    """``value`` with every NaN or infinity replaced by None (JSON's null): JSON has no such numbers."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {key: json_safe(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(item) for item in value]
    return value


# Summary fields that only mean something when some port has a power model.
ENERGY_SUMMARY = ("energy_j", "full_rate_energy_j")
NO_POWER_MODEL_NOTE = (
    "no port has a power model, so the run has no energy: energy_j and full_rate_energy_j are left out "
    "of the summary and the energy columns of ports and nodes are NaN (give links a power model to account energy)"
)


def parquet_bytes(columns: Columns, table: str = "") -> bytes:
    """One table as Parquet, written by pyarrow from the engine's columns into memory. The arrays
    are built from raw buffers: pyarrow's conversion of Python lists imports pandas (about half a
    second)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    arrays, fields = [], []
    for name, typed in columns.items():
        match typed:
            case ("str", strings):
                data = [value.encode() for value in strings]
                offsets = array("q", [0])
                for item in data:
                    offsets.append(offsets[-1] + len(item))
                buffers = [None, pa.py_buffer(offsets), pa.py_buffer(b"".join(data))]
                column = pa.Array.from_buffers(pa.large_string(), len(strings), buffers)
            case (kind, values):
                kind_type = pa.float64() if kind == "f64" else pa.int64()
                try:
                    raw = array("d" if kind == "f64" else "q", values)
                except OverflowError:
                    raise _beyond_int64(table, name) from None
                column = pa.Array.from_buffers(kind_type, len(values), [None, pa.py_buffer(raw)])
        arrays.append(column)
        fields.append((name, column.type))
    sink = pa.BufferOutputStream()
    pq.write_table(pa.Table.from_arrays(arrays, schema=pa.schema(fields)), sink)
    return bytes(sink.getvalue())


class _Table:
    """A table of the run as a DataFrame, built from the engine's columns on first access."""

    def __init__(self, doc: str) -> None:
        self.__doc__ = doc

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, results: Results | None, owner: type | None = None) -> Any:
        if results is None:
            return self
        frame = results._frames.get(self.name)
        if frame is None:
            frame = results._frames[self.name] = to_frame(results._columns[self.name], self.name)
        return frame


class Results:
    """Everything one run produced: its summary (a dict) and its tables (pandas DataFrames, built
    when first read).

    ``wattnet.run`` returns it; ``write`` stores it as ``summary.json``, ``scenario.json``
    and one Parquet file per table. Every column is listed, with its unit, in the output
    reference of the documentation (and in ``wattnet.columns``).

    Example:
        ```python
        results = wattnet.run("examples/chain.toml")
        results.summary["packets_dropped"]           # counters of the whole run
        results.ports.set_index("port").utilization  # one row per port, "from->to"
        results.write("out/chain")
        ```
    """

    ports = _Table("""One row per port ("from->to"): packets and bytes enqueued, dropped (of which early, by the AQM),
    ECN-marked, transmitted and corrupted on the wire; utilization.""")
    flows = _Table("One row per flow: packets sent, received, dropped and still in the network; mean delay.")
    timeseries = _Table("The recorder's samples, one row per (time_s, entity, quantity).")
    rate_changes = _Table("One row per change of a port's service rate.")
    connections = _Table("""One row per TCP connection: times, goodput, data packets sent (retransmissions, timeouts,
    fast retransmits) and received (duplicates, CE marks), ACKs sent, final cwnd and SRTT.""")
    subflows = _Table("""One row per subflow of every Multipath TCP connection: its path, bytes sent and acknowledged,
    losses, RTTs, final cwnd, goodput and host energy (empty without MPTCP flows).""")
    cwnd_trace = _Table("cwnd and ssthresh at every change (per subflow), for the flows in the recorder's trace_flows.")
    routing_events = _Table(
        "One row per table a router installed after a link change: time, router, destinations changed."
    )
    rate_time = _Table("For each port with a power model, the time spent at each rate.")
    nodes = _Table("""One row per node: packets its applications and TCP endpoints sent and the packets delivered to it,
    the energy of its output ports (NaN if none has a power model) and its host energy (NaN without a model).""")

    def __init__(
        self, summary: dict[str, Any], columns: dict[str, Columns], scenario_json: str, notes: tuple[str, ...] = ()
    ) -> None:
        self.summary = summary
        """Run metadata (scenario_hash, seed, engine_version, wall_time_s) and the engine's counters."""
        self.scenario_json = scenario_json
        """The canonical engine JSON of the scenario that was run."""
        self.notes = notes
        """What a reader of these results should know, e.g. that the run accounted no energy."""
        self._columns = columns
        self._frames: dict[str, pd.DataFrame] = {}

    @classmethod
    def from_engine(cls, engine_results: EngineResults, metadata: dict[str, Any], scenario_json: str) -> Results:
        tables = engine_results["tables"]
        missing = [name for name in TABLES if name not in tables]
        if missing:
            raise RuntimeError(f"the engine returned no table named {', '.join(missing)}")
        columns = {name: tables[name] for name in TABLES}
        summary = {**metadata, **engine_results["summary"]}
        notes: list[str] = []
        if all(math.isnan(energy) for energy in column_values(columns["ports"]["energy_j"], "f64", "energy_j")):
            # Without a meter the engine's sums are empty (0 or -0.0): no energy, not zero energy.
            for name in ENERGY_SUMMARY:
                summary.pop(name, None)
            notes.append(NO_POWER_MODEL_NOTE)
        return cls(summary, columns, scenario_json, tuple(notes))

    def __repr__(self) -> str:
        s = self.summary
        name = f" {s['scenario_name']!r}" if s.get("scenario_name") else ""
        lines = [
            f"<wattnet.Results{name}: {s.get('duration_s', float('nan')):g} s simulated, seed {s.get('seed')}",
            (
                f"  packets sent {s.get('packets_sent')}, received {s.get('packets_received')}, "
                f"dropped {s.get('packets_dropped')}, in network {s.get('packets_in_network')}"
            ),
        ]
        if "energy_j" in s:
            lines.append(f"  energy {s['energy_j']:.6g} J (at full rate {s['full_rate_energy_j']:.6g} J)")
        rows = ", ".join(f"{name} ({self._row_count(name)} rows)" for name in TABLES)
        lines.append("  tables: " + rows)
        lines += [f"  note: {note}" for note in self.notes]
        return "\n".join(lines) + ">"

    def _row_count(self, name: str) -> int:
        columns = self._columns[name]
        return len(next(iter(columns.values()))[1]) if columns else 0

    def files(self, tables: Iterable[str] = TABLES) -> dict[str, bytes]:
        """What ``write`` writes, by file name and in name order, without touching the disk: a
        sweep's worker hands these to the store (``wattnet.sweep.worker``)."""
        tables = list(tables)
        unknown = [name for name in tables if name not in TABLES]
        if unknown:
            raise ValueError(f"unknown table {', '.join(map(repr, unknown))}; the tables are {', '.join(TABLES)}")
        files = {f"{name}.parquet": parquet_bytes(self._columns[name], name) for name in tables}
        files["scenario.json"] = (json.dumps(json.loads(self.scenario_json), indent=2) + "\n").encode()
        files["summary.json"] = (json.dumps(json_safe(self.summary), indent=2, allow_nan=False) + "\n").encode()
        return dict(sorted(files.items()))

    def write(self, directory: str | Path, tables: Iterable[str] = TABLES) -> Path:
        """Writes summary.json, scenario.json and one Parquet file per table named in ``tables``
        (by default all of them) into ``directory``, which is created if needed and returned.

        The tables carry no timestamps, so identical runs write identical bytes. ``scenario.json``
        runs again as it is (``wattnet run DIR/scenario.json``). A number that is not finite is
        written as null in summary.json (which stays strict JSON). Each file is written under a
        temporary name and renamed into place once all are written, so an interruption leaves no
        partial result file.
        """
        files = self.files(tables)
        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        staged: list[tuple[str, Path]] = []
        try:
            for name, content in files.items():
                fd, tmp_name = tempfile.mkstemp(dir=directory, prefix=f".{name}-")
                staged.append((tmp_name, directory / name))
                with os.fdopen(fd, "wb") as file:
                    file.write(content)
            for tmp_name, path in staged:
                os.replace(tmp_name, path)
        finally:
            for tmp_name, _ in staged:
                Path(tmp_name).unlink(missing_ok=True)
        return directory
