"""Replications: means with Student-t confidence intervals."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from wattnet._lazy import lazy_import
from wattnet.store import DONE

np = lazy_import("numpy")
if TYPE_CHECKING:
    import pandas as pd
else:
    pd = lazy_import("pandas")


def mean_ci(values: Any, confidence: float = 0.95) -> tuple[float, float]:
    """The mean of independent replications and the half-width of its Student-t confidence
    interval, ``t_{(1+confidence)/2, n-1} · s / √n`` with ``s`` the sample standard deviation
    (n − 1). With one value the half-width is NaN; with none, both are. NaN values are left
    out. The result is in the values' unit.

    Example:
        >>> mean, half_width = mean_ci([1, 2, 3, 4, 5])
        >>> round(mean, 3), round(half_width, 3)
        (3.0, 1.963)
    """
    from scipy.stats import t

    if not 0 < confidence < 1:
        raise ValueError(f"confidence: a probability in (0, 1), not {confidence!r}")
    array = np.asarray(values, dtype=float)
    if array.ndim != 1:
        raise ValueError("values: a one-dimensional sequence of numbers")
    array = array[~np.isnan(array)]
    n = len(array)
    if n == 0:
        return math.nan, math.nan
    mean = float(array.mean())
    if n == 1:
        return mean, math.nan
    s = float(array.std(ddof=1))
    return mean, float(t.ppf((1 + confidence) / 2, n - 1)) * s / math.sqrt(n)


def replication_means(
    table: pd.DataFrame,
    metrics: str | list[str],
    by: list[str] | None = None,
    confidence: float = 0.95,
) -> pd.DataFrame:
    """Means over replications with Student-t confidence intervals, one row per (grid point, metric).

    ``by`` names the columns that identify a grid point; by default the table's parameters
    (``table.attrs["parameters"]``, as ``sweep`` and ``load_results`` set it). Failed runs are
    left out. Columns: ``by``..., ``metric``, ``n``, ``mean``, ``std``, ``half_width``,
    ``ci_low``, ``ci_high`` and ``rel_half_width`` (half-width / |mean|), in the metric's unit
    but for ``n`` and ``rel_half_width``.

    Example:
        ```python
        table = wattnet.sweep("examples/chain.toml", {"links[1].rate_bps": [8e6, 10e6]}, replications=5,
                              out="out/sweep")
        wattnet.replication_means(table, ["packets_dropped", "packets_received"])
        ```
    """
    metrics = [metrics] if isinstance(metrics, str) else list(metrics)
    if by is None:
        if "parameters" not in table.attrs:
            raise ValueError("by: name the columns of a grid point; this table does not say which are parameters")
        by = list(table.attrs["parameters"])
    missing = [c for c in [*by, *metrics] if c not in table.columns]
    if missing:
        raise KeyError(f"no column {missing[0]!r} in the table; it has {', '.join(map(str, table.columns))}")
    done = table[table["status"] == DONE] if "status" in table.columns else table
    groups = done.groupby(by, dropna=False, sort=False) if by else [((), done)]
    rows = []
    for key, group in groups:
        for metric in metrics:
            values = pd.to_numeric(group[metric], errors="raise").astype(float).dropna()
            mean, half = mean_ci(values.to_numpy(), confidence)
            std = float(values.std(ddof=1)) if len(values) > 1 else math.nan
            rows.append(
                {
                    **dict(zip(by, key)),
                    "metric": metric,
                    "n": len(values),
                    "mean": mean,
                    "std": std,
                    "half_width": half,
                    "ci_low": mean - half,
                    "ci_high": mean + half,
                    "rel_half_width": half / abs(mean) if mean else math.nan,
                }
            )
    return pd.DataFrame(
        rows, columns=[*by, "metric", "n", "mean", "std", "half_width", "ci_low", "ci_high", "rel_half_width"]
    )
