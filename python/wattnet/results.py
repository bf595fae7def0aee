"""What one run produced: its summary and its tables, as pandas DataFrames, and how they are stored.

pandas and pyarrow are imported only when a table is first read or written, so that a run that
asks for no table (or a sweep's parent process) does not pay for them.
"""

from __future__ import annotations

import json
from array import array
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Iterable

    import pandas as pd

TABLES = (
    "ports", "flows", "timeseries", "rate_changes", "connections", "cwnd_trace", "routing_events", "rate_time", "nodes",
)  # fmt: skip

# The engine sends every column with its type, so a table with no rows keeps its schema.
_DTYPES = {"f64": "float64", "u64": "int64", "str": "str"}

Columns = dict[str, tuple[str, list]]


def to_frame(columns: Columns) -> pd.DataFrame:
    import pandas as pd

    return pd.DataFrame({name: pd.Series(values, dtype=_DTYPES[kind]) for name, (kind, values) in columns.items()})


def write_parquet(columns: Columns, path: Path) -> None:
    """One table as Parquet, written by pyarrow from the engine's columns. The arrays are built
    from raw buffers: pyarrow's conversion of Python lists imports pandas (about half a second)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    arrays, fields = [], []
    for name, (kind, values) in columns.items():
        if kind == "str":
            data = [value.encode() for value in values]
            offsets = array("q", [0])
            for item in data:
                offsets.append(offsets[-1] + len(item))
            buffers = [None, pa.py_buffer(offsets), pa.py_buffer(b"".join(data))]
            column = pa.Array.from_buffers(pa.large_string(), len(values), buffers)
        else:
            kind_type = pa.float64() if kind == "f64" else pa.int64()
            raw = array("d" if kind == "f64" else "q", values)
            column = pa.Array.from_buffers(kind_type, len(values), [None, pa.py_buffer(raw)])
        arrays.append(column)
        fields.append((name, column.type))
    pq.write_table(pa.Table.from_arrays(arrays, schema=pa.schema(fields)), path)


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
            frame = results._frames[self.name] = to_frame(results._columns[self.name])
        return frame


class Results:
    """A run's summary, its tables (DataFrames, built when first read) and its scenario."""

    ports = _Table("""One row per port ("from->to"): packets and bytes enqueued, dropped (of which early, by the AQM),
    ECN-marked, transmitted and corrupted on the wire; utilization.""")
    flows = _Table("One row per flow: packets sent, received, dropped and still in the network; mean delay.")
    timeseries = _Table("The recorder's samples, one row per (time_s, entity, quantity).")
    rate_changes = _Table("One row per change of a port's service rate.")
    connections = _Table("""One row per TCP connection: times, goodput, data packets sent (retransmissions, timeouts,
    fast retransmits) and received (duplicates, CE marks), ACKs sent, final cwnd and SRTT.""")
    cwnd_trace = _Table("cwnd and ssthresh at every change, for the flows in the recorder's trace_flows.")
    routing_events = _Table(
        "One row per table a router installed after a link change: time, router, destinations changed."
    )
    rate_time = _Table("For each port with a power model, the time spent at each rate.")
    nodes = _Table("""One row per node: packets its applications and TCP endpoints sent and the packets delivered to it,
    the energy of its output ports (NaN if none has a power model) and its host energy (NaN without a model).""")

    def __init__(self, summary: dict[str, Any], columns: dict[str, Columns], scenario_json: str) -> None:
        self.summary = summary
        """Run metadata (scenario_hash, seed, engine_version, wall_time_s) and the engine's counters."""
        self.scenario_json = scenario_json
        """The canonical engine JSON of the scenario that was run."""
        self._columns = columns
        self._frames: dict[str, pd.DataFrame] = {}

    @classmethod
    def from_engine(cls, engine_results: dict[str, Any], metadata: dict[str, Any], scenario_json: str) -> Results:
        tables = engine_results["tables"]
        missing = [name for name in TABLES if name not in tables]
        if missing:
            raise RuntimeError(f"the engine returned no table named {', '.join(missing)}")
        return cls({**metadata, **engine_results["summary"]}, {name: tables[name] for name in TABLES}, scenario_json)

    def write(self, directory: str | Path, tables: Iterable[str] = TABLES) -> Path:
        """Writes summary.json, scenario.json and one Parquet file per table named in ``tables``
        (by default all of them) into ``directory``.

        The tables carry no timestamps, so identical runs write identical bytes.
        """
        tables = list(tables)
        unknown = [name for name in tables if name not in TABLES]
        if unknown:
            raise ValueError(f"unknown table {', '.join(map(repr, unknown))}; the tables are {', '.join(TABLES)}")
        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        (directory / "summary.json").write_text(json.dumps(self.summary, indent=2) + "\n")
        (directory / "scenario.json").write_text(json.dumps(json.loads(self.scenario_json), indent=2) + "\n")
        for name in tables:
            write_parquet(self._columns[name], directory / f"{name}.parquet")
        return directory
