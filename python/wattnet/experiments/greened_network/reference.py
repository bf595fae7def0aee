"""The reference: ns-2.35's runs of the same reconstructed scenario (stored under ``validation/studies/``) as the study's own frames, and the targets computed from them."""

from __future__ import annotations

from typing import Any

import pandas as pd

from wattnet.experiments.greened_network.params import NAME
from wattnet.experiments.greened_network.summaries import table_iv
from wattnet.experiments.greened_network.targets import b1_checks, b4_checks, b5_checks, b6_checks
from wattnet.experiments.report import (
    reference_checks,
    reference_rows,
)
from wattnet.topology import Topology


def ns2_rows(replications: int) -> pd.DataFrame | None:
    """ns-2.35's runs of the backgrounds wattnet ran: the primary reading's first ``replications``
    replications (the stored reference has every replication the full mode runs)."""
    rows = reference_rows(NAME)
    return None if rows is None else rows[rows["replication"] < replications].reset_index(drop=True)


def ns2_table_iv(replications: int) -> pd.DataFrame | None:
    rows = ns2_rows(replications)
    return None if rows is None else table_iv(rows)


def ns2_checks(network: Topology, replications: int) -> dict[str, dict[str, Any] | None]:
    """B1, B4, B5 and B6 computed from ns-2.35's runs of the same scenario (one per variant, threshold
    (50, 70, 90 %) and replication of the primary background)."""
    rows = ns2_rows(replications)
    if rows is None:
        return {}
    iv = table_iv(rows)
    return reference_checks({"B1": lambda: b1_checks(iv), "B4": lambda: b4_checks(network, rows),
                             "B5": lambda: b5_checks(rows), "B6": lambda: b6_checks(iv)})  # fmt: skip
