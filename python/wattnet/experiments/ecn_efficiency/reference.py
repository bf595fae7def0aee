"""The reference: ns-2.35's runs of the same reconstructed scenario (stored under ``validation/studies/``) as the study's own frames, and the targets computed from them."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import pandas as pd

from wattnet.experiments.ecn_efficiency.causes import error_causes, straggler_cause
from wattnet.experiments.ecn_efficiency.params import NAME, Grid
from wattnet.experiments.ecn_efficiency.sweeps import CASE_KEY, cases_table
from wattnet.experiments.ecn_efficiency.targets import (
    check_e1,
    check_e2,
    check_e3,
    check_e4,
    check_e5,
    check_e6,
    check_e7,
    check_e8,
    check_e9,
    check_e11,
)
from wattnet.experiments.report import (
    reference_checks,
    reference_rows,
)


def ns2_cases(config: Grid) -> pd.DataFrame | None:
    """ns-2.35's runs as the study's cases table, with as many runs of each errored case as the grid
    gives wattnet (its first ones); None without a stored reference."""
    rows = reference_rows(NAME)
    if rows is None:
        return None
    return cases_table(rows[~rows["errors"] | (rows["replication"] < config["error_replications"])])


def ns2_comparison(cases: pd.DataFrame, ns2: pd.DataFrame | None) -> pd.DataFrame:
    """Per case ns-2.35 also ran: the bottleneck's drops, the extra packets and the network overhead in both,
    and the measures the errored targets' causes read (means over replications, with their spreads)."""
    if ns2 is None:
        return pd.DataFrame()
    columns = [
        "network_overhead_pct", "extra_packets_sent", "bottleneck_drops", "tt_mean_s", "acks_per_transfer", "utilisation",
        "transfers", "experiment_s", "replications", "tt_mean_s_sd", "tt_max_s", "tt_mean_without_longest_s", "longest_transfer_timeouts",
        "timeouts", "data_packets_received", "receiver_overhead_pct", "receiver_overhead_pct_sd", "acks_per_transfer_sd",
    ]  # fmt: skip
    return cases[CASE_KEY + columns].merge(ns2[CASE_KEY + columns], on=CASE_KEY, suffixes=("", "_ns2"))


def explanations(against: pd.DataFrame, cases: pd.DataFrame) -> dict[str, str]:
    """What no comparison of a target's numbers says, beside its verdict: E10's missing reference; measured on
    the runs both simulators made, E1's stragglers and the errored targets' causes (``causes``); and, on the
    error-free cases, where wattnet's overheads part from ns-2.35's (docs/validation-studies.md records the
    experiments that changed one setting at a time)."""
    out = {
        "E10": "ns-2.35's runs of this scenario have nothing random without errors, so it has no replications to "
        "compare: the confidence interval is wattnet's alone.",
    }
    clean = against[~against["errors"]] if len(against) else against
    if not len(clean):
        return out
    out["E1"] = straggler_cause(clean)
    out |= error_causes(against, cases)

    def total(queue: str, column: str) -> float:
        return float(clean.loc[clean["queue"] == queue, column].sum())

    def per_drop(queue: str, suffix: str) -> float:
        return total(queue, f"extra_packets_sent{suffix}") / max(total(queue, f"bottleneck_drops{suffix}"), 1.0)

    red = (
        f"Without ECN, wattnet's RED drops {total('RED', 'bottleneck_drops'):.0f} packets over the error-free cases "
        f"against ns-2.35's {total('RED', 'bottleneck_drops_ns2'):.0f}, and each drop costs the server "
        f"{per_drop('RED', ''):.2f} extra packets against {per_drop('RED', '_ns2'):.2f} (with DropTail "
        f"{per_drop('DT', ''):.2f} against {per_drop('DT', '_ns2'):.2f}, at {total('DT', 'bottleneck_drops'):.0f} "
        f"against {total('DT', 'bottleneck_drops_ns2'):.0f} drops): ns-2.35's senders resend more per loss because "
        "its agents run limited transmit (singledup_ 1), whose send_one() also sends on the first duplicate ACKs "
        "after a timeout, continuing the go-back-N resend of data the receiver holds, and the ns2 profile runs none: "
        "at n 25, QL 64 ns-2.35 with singledup_ 0 has 11.03 % overhead, 1930 drops and 1254 timeouts against "
        "wattnet's 10.81 %, 1907 and 1258 (docs/validation-studies.md)."
    )
    ecn = (
        f"With ECN wattnet sends {total('ECN', 'extra_packets_sent'):.0f} extra packets over the error-free cases "
        f"against ns-2.35's {total('ECN', 'extra_packets_sent_ns2'):.0f} and drops "
        f"{total('ECN', 'bottleneck_drops'):.0f} against {total('ECN', 'bottleneck_drops_ns2'):.0f}: ns-2.35's RED "
        "counts bytes (bytes_, its default), so with 1500-byte packets it marks about three times as often as a RED "
        "counting packets, which wattnet's RED does too with the ns2 preset; without it wattnet dropped several "
        "times as many packets; after an ECN-Echo both halve cwnd below 2 segments (ns-2.35's ecn(), the ns2 "
        "profile's ecn_halve_cwnd). What remains is not isolated (n 25, QL 32: wattnet 5.80 %, ns-2.35 5.54 %, 4.42 % "
        "with singledup_ 0)."
    )
    for id in ("E2", "E3", "E5", "E6"):
        out[id] = f"{red} {ecn}"
    out["E4"] = ecn
    return out


def ns2_checks(cases: pd.DataFrame | None) -> dict[str, dict[str, Any] | None]:
    """Every target computed from ns-2.35's cases (``ns2_cases``: means over the errored cases' runs)."""
    if cases is None:
        return {}
    builders: dict[str, Callable[[], dict[str, Any]]] = {
        f"E{i}": partial(fn, cases)
        for i, fn in enumerate(
            [check_e1, check_e2, check_e3, check_e4, check_e5, check_e6, check_e7, check_e8, check_e9], start=1
        )
    }
    builders["E11"] = lambda: check_e11(cases)
    return reference_checks(builders)
