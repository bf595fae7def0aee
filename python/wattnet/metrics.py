"""Per-run numbers that papers report, computed from a run's ``Results``.

A sweep stores them in each run's summary.json (so ``load_results`` and ``wattnet results DIR
--ci METRIC`` see them as columns): the built-in ones below for every run, and those of the
sweep's ``metrics`` hook (a function from ``Results`` to a dict of numbers).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from numbers import Real
from typing import Any

from wattnet._lazy import lazy_import
from wattnet.results import Results

# numpy is imported on first use: `wattnet run` imports this module but computes no metric.
np = lazy_import("numpy")

MetricsHook = Callable[[Results], dict[str, float]]


def builtin_metrics(results: Results) -> dict[str, float]:
    """Flow completion times of the TCP connections that completed (mean, median and 99th
    percentile, NaN without any), application goodput over the run (bytes delivered to every
    flow's receiver × 8 / duration), the energy saving versus every powered port always on at
    its full rate (1 − energy_j / full_rate_energy_j, NaN without power models), RTO timeouts
    and retransmissions. Drops (``packets_dropped``), energy (``energy_j``) and rate changes
    (``rate_changes``) are in the summary already."""
    completed = results.connections[results.connections["completed_s"].notna()]
    fct = completed["transfer_time_s"].to_numpy(dtype=float)
    summary = results.summary
    full = summary.get("full_rate_energy_j", math.nan)
    return {
        "fct_count": len(fct),
        "fct_mean_s": float(fct.mean()) if len(fct) else math.nan,
        "fct_median_s": float(np.median(fct)) if len(fct) else math.nan,
        # The nearest-rank percentile: a completion time that some connection actually had.
        "fct_p99_s": float(np.percentile(fct, 99, method="inverted_cdf")) if len(fct) else math.nan,
        "goodput_bps": float(results.flows["delivered_bytes"].sum()) * 8 / summary["duration_s"],
        "energy_saving": 1 - summary["energy_j"] / full if full and math.isfinite(full) else math.nan,
        "timeouts": int(results.connections["timeouts"].sum()),
        "retransmissions": int(results.connections["retransmissions"].sum()),
    }


def measure(results: Results, hook: MetricsHook | None = None) -> dict[str, Any]:
    """The built-in metrics and the hook's, checked: the hook returns a dict of names to numbers
    that neither the summary nor the built-in metrics already use."""
    measured = builtin_metrics(results)
    if hook is None:
        return measured
    extra = hook(results)
    if not isinstance(extra, dict):
        raise TypeError(f"the metrics hook must return a dict of names to numbers, not {type(extra).__name__}")
    for name, value in extra.items():
        if not isinstance(name, str) or not name:
            raise TypeError(f"the metrics hook returned a metric named {name!r}; names are non-empty strings")
        if name in measured or name in results.summary:
            raise ValueError(f"the metrics hook's {name!r} is already a column of every run; name it differently")
        if isinstance(value, bool) or not isinstance(value, Real):
            raise TypeError(f"the metrics hook's {name!r} is {value!r}; a metric is a number")
        measured[name] = float(value) if isinstance(value, float) else value
    return measured
