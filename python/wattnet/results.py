"""What one run produced: its summary and its tables, as pandas DataFrames, and how they are stored."""

from __future__ import annotations

import json
import math
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from wattnet.errors import SimulationError

TABLES = (
    "ports", "flows", "timeseries", "rate_changes", "connections", "cwnd_trace", "routing_events", "rate_time", "nodes",
)  # fmt: skip

# The engine sends every column with its type, so a table with no rows keeps its schema.
_DTYPES = {"f64": "float64", "u64": "int64", "str": "str"}


def to_frame(columns: dict[str, tuple[str, list]], table: str = "") -> pd.DataFrame:
    series = {}
    for name, (kind, values) in columns.items():
        try:
            series[name] = pd.Series(values, dtype=_DTYPES[kind])
        except OverflowError:
            # The scenario's bounds keep every count within int64; a value beyond is a bug.
            raise SimulationError(f"the {table} table's column {name} holds a value beyond int64") from None
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


@dataclass(frozen=True)
class Results:
    summary: dict[str, Any]
    """Run metadata (scenario_hash, seed, engine_version, wall_time_s) and the engine's counters."""
    ports: pd.DataFrame
    """One row per port ("from->to"): packets and bytes enqueued, dropped (of which early, by the AQM),
    ECN-marked, transmitted and corrupted on the wire; utilization."""
    flows: pd.DataFrame
    """One row per flow: packets sent, received, dropped and still in the network; mean delay."""
    timeseries: pd.DataFrame
    """The recorder's samples, one row per (time_s, entity, quantity)."""
    rate_changes: pd.DataFrame
    """One row per change of a port's service rate."""
    connections: pd.DataFrame
    """One row per TCP connection: times, goodput, data packets sent (retransmissions, timeouts,
    fast retransmits) and received (duplicates, CE marks), ACKs sent, final cwnd and SRTT."""
    cwnd_trace: pd.DataFrame
    """cwnd and ssthresh at every change, for the flows in the recorder's trace_flows."""
    routing_events: pd.DataFrame
    """One row per table a router installed after a link change: time, router, destinations changed."""
    rate_time: pd.DataFrame
    """For each port with a power model, the time spent at each rate."""
    nodes: pd.DataFrame
    """One row per node: packets its applications and TCP endpoints sent and the packets delivered to it,
    the energy of its output ports (NaN if none has a power model) and its host energy (NaN without a model)."""
    scenario_json: str
    """The canonical engine JSON of the scenario that was run."""

    @classmethod
    def from_engine(cls, engine_results: dict[str, Any], metadata: dict[str, Any], scenario_json: str) -> Results:
        tables = engine_results["tables"]
        missing = [name for name in TABLES if name not in tables]
        if missing:
            raise RuntimeError(f"the engine returned no table named {', '.join(missing)}")
        return cls(
            summary={**metadata, **engine_results["summary"]},
            scenario_json=scenario_json,
            **{name: to_frame(tables[name], name) for name in TABLES},
        )

    def write(self, directory: str | Path) -> Path:
        """Writes summary.json, scenario.json and one Parquet file per table into ``directory``.

        The tables carry no timestamps, so identical runs write identical bytes. A number that
        is not finite is written as null in summary.json (which stays strict JSON). Each file is
        written under a temporary name and renamed into place once all are written, so an
        interruption leaves no partial result file.
        """
        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        staged: list[tuple[str, Path]] = []
        try:
            for name, write in self._writers():
                fd, tmp_name = tempfile.mkstemp(dir=directory, prefix=f".{name}-")
                os.close(fd)
                staged.append((tmp_name, directory / name))
                write(tmp_name)
            for tmp_name, path in staged:
                os.replace(tmp_name, path)
        finally:
            for tmp_name, _ in staged:
                Path(tmp_name).unlink(missing_ok=True)
        return directory

    def _writers(self) -> list[tuple[str, Any]]:
        def text(content: str) -> Any:
            return lambda path: Path(path).write_text(content)

        summary = json.dumps(json_safe(self.summary), indent=2, allow_nan=False) + "\n"
        scenario = json.dumps(json.loads(self.scenario_json), indent=2) + "\n"
        tables = [(f"{name}.parquet", self._parquet_writer(name)) for name in TABLES]
        return [*tables, ("scenario.json", text(scenario)), ("summary.json", text(summary))]

    def _parquet_writer(self, name: str) -> Any:
        return lambda path: getattr(self, name).to_parquet(path, index=False)
