"""The tables built from the runs: the paper's Table IV and Table V layouts and the background loads."""

from __future__ import annotations

import math

import pandas as pd

from wattnet.experiments.greened_network.params import (
    BACKGROUND_READINGS,
    LINK_RATE_BPS,
    PAPER_TABLE_IV,
    PRIMARY_BACKGROUND,
    THRESHOLDS,
    VARIANTS,
)
from wattnet.sweep import mean_ci


def by_threshold(runs: pd.DataFrame, estop_rows: pd.DataFrame) -> pd.DataFrame:
    """The runs once per threshold whose ESTOP switches off their links (a set of links serves
    several thresholds: 60, 70 and 80 % switch off the same three)."""
    sizes = estop_rows[["threshold_pct", "links_off"]]
    return sizes.merge(runs, on="links_off").sort_values(["background", "variant", "threshold_pct", "replication"])


def table_iv(per_threshold: pd.DataFrame) -> pd.DataFrame:
    """The paper's Table IV per background reading, variant and threshold: means over replications (with
    95 % CI half-widths), throughput loss and the paper's values."""
    rows = []
    for (reading, variant, threshold), group in per_threshold.groupby(["background", "variant", "threshold_pct"]):
        before, before_ci = mean_ci(group["throughput_before_mbps"])
        after, after_ci = mean_ci(group["throughput_after_mbps"])
        loss, loss_ci = mean_ci(100 * (1 - group["throughput_after_mbps"] / group["throughput_before_mbps"]))
        paper_before, paper_after = PAPER_TABLE_IV[str(variant)]
        threshold_pct = int(group["threshold_pct"].iloc[0])
        rows.append({
            "background": reading, "variant": variant, "threshold_pct": threshold, "replications": len(group),
            "before_mbps": before, "before_mbps_ci95": before_ci,
            "after_mbps": after, "after_mbps_ci95": after_ci,
            "loss_pct": loss, "loss_pct_ci95": loss_ci,
            "paper_before_mbps": paper_before, "paper_after_mbps": paper_after.get(threshold_pct, math.nan),
            "paper_loss_pct": 100 * (1 - paper_after[threshold_pct] / paper_before) if threshold_pct in paper_after else math.nan,
            "hops_after": int(group["hops_after"].iloc[0]),
        })  # fmt: skip
    table = pd.DataFrame(rows)
    order = {name: i for i, name in enumerate(VARIANTS)}
    return table.sort_values(
        ["background", "variant", "threshold_pct"], key=lambda c: c.map(order) if c.name == "variant" else c
    )


def table_iv_wide(iv: pd.DataFrame) -> pd.DataFrame:
    """Table IV laid out as the paper's: one row per variant, "wattnet (paper)" in each cell."""
    rows = []
    for variant in VARIANTS:
        cells = iv[iv["variant"] == variant].set_index("threshold_pct")
        first = cells.iloc[0]
        row = {"variant": variant, "before [Mb/s]": _pair(first["before_mbps"], first["paper_before_mbps"])}
        for t in THRESHOLDS:
            row[f"after {t} % [Mb/s]"] = _pair(cells["after_mbps"].loc[t], cells["paper_after_mbps"].loc[t])
        for t in THRESHOLDS:
            row[f"loss {t} % [%]"] = _pair(cells["loss_pct"].loc[t], cells["paper_loss_pct"].loc[t], digits=1)
        rows.append(row)
    return pd.DataFrame(rows)


def _pair(measured: float, paper: float, digits: int = 2) -> str:
    return f"{measured:.{digits}f}" + ("" if math.isnan(paper) else f" ({paper:.{digits}f})")


def table_v(estop_rows: pd.DataFrame, runs: pd.DataFrame) -> pd.DataFrame:
    """The paper's Table V with the engine's measured line-card saving (primary background, any run)."""
    measured = runs[runs["background"] == PRIMARY_BACKGROUND].groupby("links_off")["line_card_watts_saved"].mean()
    table = estop_rows.drop(columns=["off_link_names"]).copy()
    table["engine_watts_saved_both_ends"] = table["links_off"].map(measured)
    return table


def load_summary(loads: pd.DataFrame, estop_rows: pd.DataFrame) -> pd.DataFrame:
    """Per background reading and threshold: the highest offered background load of any port and
    of the TCP flow's path, before and after ESTOP, and the ports offered more than the link rate."""
    rows = []
    for (reading, links_off), group in loads.groupby(["background", "links_off"]):
        path_before = group[group["on_tcp_path_before"]]
        path_after = group[group["on_tcp_path_after"]]
        worst = group.iloc[group["offered_after_mbps"].argmax()]
        thresholds = estop_rows[estop_rows["links_off"] == links_off]["threshold_pct"]
        rows.append({
            "background": reading,
            "thresholds_pct": ", ".join(str(t) for t in thresholds),
            "links_off": links_off,
            "max_port_before_mbps": group["offered_before_mbps"].max(),
            "max_port_after_mbps": worst["offered_after_mbps"],
            "max_port_after": worst["port"],
            "max_tcp_path_before_mbps": path_before["offered_before_mbps"].max(),
            "max_tcp_path_after_mbps": path_after["offered_after_mbps"].max(),
            "tcp_residual_after_mbps": LINK_RATE_BPS / 1e6 - path_after["offered_after_mbps"].max(),
            "tcp_path_hops_after": len(path_after),
            "overloaded_ports_after": ", ".join(group[group["offered_after_mbps"] > LINK_RATE_BPS / 1e6]["port"]),
        })  # fmt: skip
    order = {name: i for i, name in enumerate(BACKGROUND_READINGS)}
    return pd.DataFrame(rows).sort_values(
        ["background", "links_off"], key=lambda c: c.map(order) if c.name == "background" else c
    )
