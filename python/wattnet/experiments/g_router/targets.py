"""The paper's targets: each check computed from the runs' summaries (the same functions compute ns-2.35's or the fluid model's value from the reference's runs)."""

from __future__ import annotations

from typing import Any

import pandas as pd

from wattnet.experiments.g_router.params import (
    BOTTLENECK_BPS,
    CONTROLLED,
    FULL_FRACTION,
    NC,
    PACKET_BYTES,
    PAPER_LOSS_REDUCTION_PCT,
    PAPER_THROUGHPUT_PCT,
    PAPER_UTILISATION_PCT,
    TARGET_BYTES,
)
from wattnet.experiments.report import (
    check,
    rounded,
)


def _mean(summary: pd.DataFrame, case: int, configuration: str, column: str) -> float:
    row = summary[(summary["case"] == case) & (summary["configuration"] == configuration)]
    return float(row[column].iloc[0])


def tracking(windows: pd.DataFrame) -> dict[str, dict[str, float | None]]:
    """C and its reference (Mb/s) per window, for checks.json."""
    return {
        str(window): {"C_mbps": rounded(row["c_mbps"]), "reference_mbps": rounded(row["reference_mbps"])}
        for window, row in windows.iterrows()
    }


def checks(summary: pd.DataFrame, phases: pd.DataFrame) -> list[dict[str, Any]]:
    return case1_checks(summary, phases) + case2_checks(summary, phases)


def case1_checks(summary: pd.DataFrame, phases: pd.DataFrame) -> list[dict[str, Any]]:
    """C1–C3: case study 1 (the fluid model of the paper's equations has these too)."""
    c1 = phases[phases["case"] == 1].groupby("window", sort=False)[["c_mbps", "reference_mbps", "error_pct"]].mean()
    queue = _mean(summary, 1, CONTROLLED, "mean_queue_packets")
    queue_std = _mean(summary, 1, CONTROLLED, "queue_std_packets")
    drops = _mean(summary, 1, CONTROLLED, "g_router_drops")
    util = _mean(summary, 1, CONTROLLED, "utilisation_pct")
    ratio = _mean(summary, 1, CONTROLLED, "throughput_ratio_pct")
    target_packets = TARGET_BYTES / PACKET_BYTES
    return [
        check(
            "C1", "Case 1: C(t) follows the demand (≈ 10, 15, 25 Mb/s, then a fall to ≈ 20 Mb/s)",
            "C(t) follows every variation of the offered load (Fig. 2a)",
            tracking(c1),
            "mean C within ±10 % of the mean offered load over the second half of each phase and over the ramp",
            bool((c1["error_pct"].abs() <= 10).all()),
        ),
        check(
            "C2", "Case 1: q(t) stays close to T = 50 packets with small oscillations; no losses at the G-router",
            {"queue_packets": target_packets, "g_router_drops": 0},
            {"mean_queue_packets": rounded(queue), "queue_std_packets": rounded(queue_std),
             "g_router_drops": rounded(drops, 1), "g_router_drop_pct": rounded(_mean(summary, 1, CONTROLLED, "g_router_drop_pct"), 4)},
            "mean queue within ±20 % of T (40–60 packets), its standard deviation over the 0.5 s samples at most "
            "20 % of T (10 packets), and no packet dropped at the G-router",
            abs(queue - target_packets) <= 0.2 * target_packets and queue_std <= 0.2 * target_packets and drops == 0,
        ),
        check(
            "C3", "Case 1: average link utilisation and throughput vs the over-provisioned run",
            {"utilisation_pct": PAPER_UTILISATION_PCT, "throughput_ratio_pct": PAPER_THROUGHPUT_PCT},
            {"utilisation_pct": rounded(util), "throughput_ratio_pct": rounded(ratio)},
            "each within ±1 percentage point of the paper's",
            abs(util - PAPER_UTILISATION_PCT) <= 1 and abs(ratio - PAPER_THROUGHPUT_PCT) <= 1,
        ),
    ]  # fmt: skip


def case2_checks(summary: pd.DataFrame, phases: pd.DataFrame) -> list[dict[str, Any]]:
    """C4–C6: case study 2, the Internet node becoming the bottleneck."""
    c4 = phases[phases["case"] == 2].groupby("window", sort=False)[["c_mbps", "reference_mbps", "error_pct"]].mean()
    nc_full = _mean(summary, 2, NC, "internet_full_pct_after_bottleneck")
    ctl_full = _mean(summary, 2, CONTROLLED, "internet_full_pct_after_bottleneck")
    reduction = _mean(summary, 2, CONTROLLED, "loss_reduction_pct")
    return [
        check(
            "C4", "Case 2: C(t) follows the offered load before the bottleneck and the Internet node's rate after",
            f"C ≈ the offered load before, ≈ the Internet node's capacity ({BOTTLENECK_BPS / 1e6:g} Mb/s) after (Fig. 3a)",
            tracking(c4),
            "mean C within ±10 % of the offered load over the last 25-source stretch before the bottleneck and of the "
            "Internet node's rate over the second half of the bottleneck period",
            bool((c4["error_pct"].abs() <= 10).all()),
        ),
        check(
            "C5", "Case 2: the Internet node's buffer stays full without control, and is full only briefly with AWM/C-EARTH",
            "NC: full from the bottleneck on; AWM/C-EARTH: full only while C adapts (Fig. 3c–d)",
            {"nc_full_pct": rounded(nc_full), "controlled_full_pct": rounded(ctl_full)},
            f"share of the samples after the bottleneck with the Internet node's queue ≥ {FULL_FRACTION:.0%} of its buffer: "
            "≥ 50 % without control, ≤ 10 % with AWM/C-EARTH",
            nc_full >= 50 and ctl_full <= 10,
        ),
        check(
            "C6", "Case 2: lost packets (G-router and Internet node) with AWM/C-EARTH vs not controlled",
            {"loss_reduction_pct": PAPER_LOSS_REDUCTION_PCT},
            {"loss_reduction_pct": rounded(reduction), "drops_controlled": rounded(_mean(summary, 2, CONTROLLED, "drops_total"), 1),
             "drops_not_controlled": rounded(_mean(summary, 2, NC, "drops_total"), 1)},
            "within ±3 percentage points of 97 %",
            abs(reduction - PAPER_LOSS_REDUCTION_PCT) <= 3,
        ),
    ]  # fmt: skip
