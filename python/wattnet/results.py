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


def to_frame(columns: dict[str, tuple[str, list[Any]]], table: str = "") -> pd.DataFrame:
    """A DataFrame of the engine's ``{name: (type, values)}`` columns, typed even when empty."""
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


# Summary fields that only mean something when some port has a power model.
ENERGY_SUMMARY = ("energy_j", "full_rate_energy_j")
NO_POWER_MODEL_NOTE = (
    "no port has a power model, so the run has no energy: energy_j and full_rate_energy_j are left out "
    "of the summary and the energy columns of ports and nodes are NaN (give links a power model to account energy)"
)


@dataclass(frozen=True)
class Results:
    """Everything one run produced: its summary (a dict) and its tables (pandas DataFrames).

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
    notes: tuple[str, ...] = ()
    """What a reader of these results should know, e.g. that the run accounted no energy."""

    @classmethod
    def from_engine(cls, engine_results: dict[str, Any], metadata: dict[str, Any], scenario_json: str) -> Results:
        """Wraps the engine's summary and column tables, with the run's ``metadata`` first in the summary."""
        tables = engine_results["tables"]
        missing = [name for name in TABLES if name not in tables]
        if missing:
            raise RuntimeError(f"the engine returned no table named {', '.join(missing)}")
        frames = {name: to_frame(tables[name], name) for name in TABLES}
        summary = {**metadata, **engine_results["summary"]}
        notes: list[str] = []
        if frames["ports"]["energy_j"].isna().all():
            # Without a meter the engine's sums are empty (0 or -0.0): no energy, not zero energy.
            for name in ENERGY_SUMMARY:
                summary.pop(name, None)
            notes.append(NO_POWER_MODEL_NOTE)
        return cls(summary=summary, scenario_json=scenario_json, notes=tuple(notes), **frames)

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
        lines.append("  tables: " + ", ".join(f"{name} ({len(getattr(self, name))} rows)" for name in TABLES))
        lines += [f"  note: {note}" for note in self.notes]
        return "\n".join(lines) + ">"

    def write(self, directory: str | Path) -> Path:
        """Writes summary.json, scenario.json and one Parquet file per table into ``directory``.

        The directory is created if needed and returned. The tables carry no timestamps, so
        identical runs write identical bytes. ``scenario.json`` runs again as it is
        (``wattnet run DIR/scenario.json``). A number that is not finite is written as null in
        summary.json (which stays strict JSON). Each file is written under a temporary name and
        renamed into place once all are written, so an interruption leaves no partial result file.
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
