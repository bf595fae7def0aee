"""What one run produced: its summary and its tables, as pandas DataFrames, and how they are stored."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

TABLES = ("ports", "flows", "timeseries", "rate_changes")

# The engine's column types. The binding hands over plain lists and an empty list has no
# type, so without these a table with no rows (no events, no recorder) would be written
# with wrong types. Columns not listed keep the type pandas infers.
_TEXT, _COUNT, _REAL = "str", "int64", "float64"
COLUMN_TYPES = {
    "ports": {
        "port": _TEXT, "from": _TEXT, "to": _TEXT,
        "enqueued_packets": _COUNT, "enqueued_bytes": _COUNT, "dropped_packets": _COUNT, "dropped_bytes": _COUNT,
        "transmitted_packets": _COUNT, "transmitted_bytes": _COUNT, "busy_time_s": _REAL, "utilization": _REAL,
        "mean_queue_packets": _REAL, "mean_queue_bytes": _REAL, "mean_rate_bps": _REAL, "final_rate_bps": _REAL,
        "rate_changes": _COUNT, "frozen_time_s": _REAL,
    },
    "flows": {
        "flow": _TEXT, "src": _TEXT, "dst": _TEXT, "sent_packets": _COUNT, "sent_bytes": _COUNT,
        "received_packets": _COUNT, "received_bytes": _COUNT, "dropped_packets": _COUNT,
        "in_network_packets": _COUNT, "mean_delay_s": _REAL,
    },
    "timeseries": {"time_s": _REAL, "entity": _TEXT, "quantity": _TEXT, "value": _REAL},
    "rate_changes": {"time_s": _REAL, "port": _TEXT, "old_rate_bps": _REAL, "new_rate_bps": _REAL},
}  # fmt: skip


def to_frame(table: str, columns: dict[str, list]) -> pd.DataFrame:
    frame = pd.DataFrame(columns)
    types = COLUMN_TYPES[table]
    return frame.astype({name: types[name] for name in frame.columns if name in types})


@dataclass(frozen=True)
class Results:
    summary: dict[str, Any]
    """Run metadata (scenario_hash, seed, engine_version, wall_time_s) and the engine's counters."""
    ports: pd.DataFrame
    """One row per port ("from->to"): packets and bytes enqueued, dropped, transmitted; utilization."""
    flows: pd.DataFrame
    """One row per flow: packets sent, received, dropped and still in the network; mean delay."""
    timeseries: pd.DataFrame
    """The recorder's samples, one row per (time_s, entity, quantity)."""
    rate_changes: pd.DataFrame
    """One row per change of a port's service rate."""
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
            **{name: to_frame(name, tables[name]) for name in TABLES},
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
