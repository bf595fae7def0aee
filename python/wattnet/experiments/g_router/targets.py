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
    RECORDER_BIN_S,
    TARGET_BYTES,
    TOLERANCES,
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
    tracking_pct, queue_share = TOLERANCES["tracking_pct"], TOLERANCES["queue_pct_of_target"] / 100
    points = TOLERANCES["paper_points"]
    return [
        check(
            "C1", "Case 1: C(t) follows the demand (≈ 10, 15, 25 Mb/s, then a fall to ≈ 20 Mb/s)",
            "C(t) follows every variation of the offered load (Fig. 2a)",
            tracking(c1),
            f"mean C within ±{tracking_pct:g} % of the mean offered load over the second half of each phase and over the ramp",
            bool((c1["error_pct"].abs() <= tracking_pct).all()),
        ),
        check(
            "C2", f"Case 1: q(t) stays close to T = {target_packets:g} packets with small oscillations; no losses at the G-router",
            {"queue_packets": target_packets, "g_router_drops": 0},
            {"mean_queue_packets": rounded(queue), "queue_std_packets": rounded(queue_std),
             "g_router_drops": rounded(drops, 1), "g_router_drop_pct": rounded(_mean(summary, 1, CONTROLLED, "g_router_drop_pct"), 4)},
            f"mean queue within ±{queue_share * 100:g} % of T ({target_packets * (1 - queue_share):g}–"
            f"{target_packets * (1 + queue_share):g} packets), its standard deviation over the {RECORDER_BIN_S:g} s samples at most "
            f"{queue_share * 100:g} % of T ({queue_share * target_packets:g} packets), and no packet dropped at the G-router",
            abs(queue - target_packets) <= queue_share * target_packets and queue_std <= queue_share * target_packets and drops == 0,
        ),
        check(
            "C3", "Case 1: average link utilisation and throughput vs the over-provisioned run",
            {"utilisation_pct": PAPER_UTILISATION_PCT, "throughput_ratio_pct": PAPER_THROUGHPUT_PCT},
            {"utilisation_pct": rounded(util), "throughput_ratio_pct": rounded(ratio)},
            f"each within ±{points:g} percentage point of the paper's",
            abs(util - PAPER_UTILISATION_PCT) <= points and abs(ratio - PAPER_THROUGHPUT_PCT) <= points,
        ),
    ]  # fmt: skip


def case2_checks(summary: pd.DataFrame, phases: pd.DataFrame) -> list[dict[str, Any]]:
    """C4–C6: case study 2, the Internet node becoming the bottleneck."""
    c4 = phases[phases["case"] == 2].groupby("window", sort=False)[["c_mbps", "reference_mbps", "error_pct"]].mean()
    nc_full = _mean(summary, 2, NC, "internet_full_pct_after_bottleneck")
    ctl_full = _mean(summary, 2, CONTROLLED, "internet_full_pct_after_bottleneck")
    reduction = _mean(summary, 2, CONTROLLED, "loss_reduction_pct")
    t = TOLERANCES
    return [
        check(
            "C4", "Case 2: C(t) follows the offered load before the bottleneck and the Internet node's rate after",
            f"C ≈ the offered load before, ≈ the Internet node's capacity ({BOTTLENECK_BPS / 1e6:g} Mb/s) after (Fig. 3a)",
            tracking(c4),
            f"mean C within ±{t['tracking_pct']:g} % of the offered load over the last 25-source stretch before the bottleneck and of the "
            "Internet node's rate over the second half of the bottleneck period",
            bool((c4["error_pct"].abs() <= t["tracking_pct"]).all()),
        ),
        check(
            "C5", "Case 2: the Internet node's buffer stays full without control, and is full only briefly with AWM/C-EARTH",
            "NC: full from the bottleneck on; AWM/C-EARTH: full only while C adapts (Fig. 3c–d)",
            {"nc_full_pct": rounded(nc_full), "controlled_full_pct": rounded(ctl_full)},
            f"share of the samples after the bottleneck with the Internet node's queue ≥ {FULL_FRACTION:.0%} of its buffer: "
            f"≥ {t['nc_min_full_pct']:g} % without control, ≤ {t['controlled_max_full_pct']:g} % with AWM/C-EARTH",
            nc_full >= t["nc_min_full_pct"] and ctl_full <= t["controlled_max_full_pct"],
        ),
        check(
            "C6", "Case 2: lost packets (G-router and Internet node) with AWM/C-EARTH vs not controlled",
            {"loss_reduction_pct": PAPER_LOSS_REDUCTION_PCT},
            {"loss_reduction_pct": rounded(reduction), "drops_controlled": rounded(_mean(summary, 2, CONTROLLED, "drops_total"), 1),
             "drops_not_controlled": rounded(_mean(summary, 2, NC, "drops_total"), 1)},
            f"within ±{t['loss_reduction_points']:g} percentage points of {PAPER_LOSS_REDUCTION_PCT:g} %",
            abs(reduction - PAPER_LOSS_REDUCTION_PCT) <= t["loss_reduction_points"],
        ),
    ]  # fmt: skip
