"""What one run produced: its summary and its tables, as pandas DataFrames, and how they are stored."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

TABLES = (
    "ports", "flows", "timeseries", "rate_changes", "connections", "cwnd_trace", "routing_events", "rate_time", "nodes",
)  # fmt: skip

# The engine sends every column with its type, so a table with no rows keeps its schema.
_DTYPES = {"f64": "float64", "u64": "int64", "str": "str"}


def to_frame(columns: dict[str, tuple[str, list]]) -> pd.DataFrame:
    return pd.DataFrame({name: pd.Series(values, dtype=_DTYPES[kind]) for name, (kind, values) in columns.items()})


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
            **{name: to_frame(tables[name]) for name in TABLES},
        )

    def write(self, directory: str | Path) -> Path:
        """Writes summary.json, scenario.json and one Parquet file per table into ``directory``.

        The tables carry no timestamps, so identical runs write identical bytes.
        """
        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        (directory / "summary.json").write_text(json.dumps(self.summary, indent=2) + "\n")
        (directory / "scenario.json").write_text(json.dumps(json.loads(self.scenario_json), indent=2) + "\n")
        for name in TABLES:
            getattr(self, name).to_parquet(directory / f"{name}.parquet", index=False)
        return directory
