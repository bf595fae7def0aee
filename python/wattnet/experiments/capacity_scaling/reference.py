"""The reference: ns-2.35's runs of the same reconstructed scenario (stored under ``validation/studies/``) as the study's own frames, and the targets computed from them."""

from __future__ import annotations

from typing import Any

import pandas as pd

from wattnet.experiments.capacity_scaling.params import NAME, Grid
from wattnet.experiments.capacity_scaling.sweeps import add_throughput_reduction, summarise
from wattnet.experiments.capacity_scaling.targets import later_checks, single_checks
from wattnet.experiments.report import (
    reference_checks,
    reference_rows,
)


def ns2_runs(config: Grid) -> pd.DataFrame | None:
    """Every stored ns-2.35 run of this grid's duration (``validation/studies/capacity_scaling``), all
    its replications, in the study's runs layout; None when the reference is not stored."""
    rows = reference_rows(NAME)
    if rows is None:
        return None
    rows = rows[rows["duration_s"] == config["duration_s"]].copy()
    rows["mrci_ms"] = rows["mrci_ms"].astype(float)
    return add_throughput_reduction(rows)


def ns2_frames(config: Grid) -> tuple[pd.DataFrame, pd.DataFrame] | None:
    """ns-2.35's runs and summary for the checks: the replications wattnet runs on this grid (the
    quick grid's one is the first), so both simulators' values are means over as many seeds; the
    others measure ns-2.35's seed-to-seed spread (``ns2_runs``)."""
    every = ns2_runs(config)
    if every is None:
        return None
    runs = every[every["replication"] < config["replications"]]
    return runs, summarise(runs)


def ns2_trace(run: pd.Series) -> pd.DataFrame:
    """A stored ns-2.35 run's 100 ms trace in ``trace``'s layout; KeyError when it was not traced."""
    stored = run["trace"]
    if not isinstance(stored, dict):
        raise KeyError("no ns-2.35 trace for this run")
    frame = pd.DataFrame({"rate_bps": stored["rate_mbps"], "arrival_rate_bps": stored["arrival_rate_mbps"]},
                         index=pd.Index(stored["time_s"], name="time_s"))  # fmt: skip
    return frame


def ns2_checks(reference: tuple[pd.DataFrame, pd.DataFrame] | None, config: Grid) -> dict[str, dict[str, Any] | None]:
    if reference is None:
        return {}
    runs, summary = reference
    return reference_checks({
        "A1–A6": lambda: single_checks(ns2_trace, runs, summary, config),
        "A7–A12": lambda: later_checks(ns2_trace, runs, summary, config),
    })  # fmt: skip


def ns2_case(summary: pd.DataFrame | None, case: str) -> pd.DataFrame | None:
    return None if summary is None else summary[summary["case"] == case]
