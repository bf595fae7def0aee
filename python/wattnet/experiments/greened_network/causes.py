"""Why wattnet and ns-2.35 disagree on a target: one causal sentence per target, found by changing
one setting at a time in both simulators (docs/validation-studies.md gives the measurements) and
stated only where the runs are in the state the cause describes."""

from __future__ import annotations

from typing import Any

import pandas as pd

from wattnet.experiments.greened_network.params import LOSS_BASED, PRIMARY_BACKGROUND, TABLE_IV_THRESHOLDS
from wattnet.experiments.greened_network.summaries import table_iv
from wattnet.experiments.greened_network.targets import b6_checks, computed_causes

# A loss-based variant whose losses stay within this many points across the thresholds neither falls nor rises.
FLAT_LOSS_POINTS = 1.0
# Vegas's settled window after the switch-off: "a few segments" below this, "about 14" above.
VEGAS_FEW_SEGMENTS = 8.0


def _loss_trend(rows: pd.DataFrame) -> dict[str, Any]:
    """B6.loss-falls's measured value on the primary background: each variant's losses at the Table IV
    thresholds and whether they fall."""
    iv = table_iv(rows[rows["background"] == PRIMARY_BACKGROUND])
    trend: dict[str, Any] = next(c for c in b6_checks(iv) if c["id"] == "B6.loss-falls")["wattnet_value"]
    return trend


def loss_based_as_ns2(per_threshold: pd.DataFrame, ns2_rows: pd.DataFrame | None) -> str | None:
    """The opening of B6.loss-falls's cause when every loss-based variant whose losses fall in one simulator and
    not in the other keeps them within FLAT_LOSS_POINTS across the thresholds in both (so the trend turns on
    tenths of a point); or None."""
    if ns2_rows is None:
        return None
    ours, theirs = _loss_trend(per_threshold), _loss_trend(ns2_rows)
    split = [v for v in LOSS_BASED if ours["falls"][v] != theirs["falls"][v]]
    if any(max(losses[v]) - min(losses[v]) > FLAT_LOSS_POINTS for v in split for losses in (ours, theirs)):
        return None
    gap, variant, threshold = max(
        (abs(a - b), v, t) for v in LOSS_BASED for t, a, b in zip(TABLE_IV_THRESHOLDS, ours[v], theirs[v])
    )
    first, top = TABLE_IV_THRESHOLDS[0], TABLE_IV_THRESHOLDS[-1]
    text = (
        f"The loss-based variants lose about what ns-2.35's do (at most {gap:.1f} points apart, {variant} at "
        f"{threshold} %; BIC and CUBIC with the ns2 profile's TCP-Linux rules, mark_lost_retransmissions and "
        "rto_restart_on_every_ack)"
    )
    if split:

        def losses(trend: dict[str, Any], v: str) -> str:
            return ", ".join(f"{loss:g}" for loss in trend[v])

        cases = "; ".join(f"{v}: wattnet {losses(ours, v)} %, ns-2.35 {losses(theirs, v)} %" for v in split)
        text += (
            f"; where one falls from {first} to {top} % and the other does not ({cases}) both stay within "
            f"{FLAT_LOSS_POINTS:g} point across the thresholds, so the trend turns on tenths of a point"
        )
    return text + ". Vegas:"


def vegas_modes(per_threshold: pd.DataFrame, ns2_rows: pd.DataFrame | None) -> str | None:
    """The sentence for Vegas's window after the switch-off on a longer path, or None: which replications
    settle at a few segments and which at about 14, in each simulator."""
    if ns2_rows is None:
        return None

    def settled(rows: pd.DataFrame) -> pd.DataFrame:
        vegas = rows[(rows["background"] == PRIMARY_BACKGROUND) & (rows["variant"] == "Vegas")]
        longer = vegas[vegas["hops_after"] > vegas["hops_before"]]
        return longer.groupby("replication")[["cwnd_mean_settled", "throughput_after_mbps"]].mean()

    ours, theirs = settled(per_threshold), settled(ns2_rows)
    if ours.empty or theirs.empty:
        return None
    few = ours[ours["cwnd_mean_settled"] < VEGAS_FEW_SEGMENTS]
    many = ours[ours["cwnd_mean_settled"] >= VEGAS_FEW_SEGMENTS]
    ns2_few = theirs[theirs["cwnd_mean_settled"] < VEGAS_FEW_SEGMENTS]
    text = (
        "Where the switch-off lengthens the path, Vegas times out in both simulators and restarts from 2 "
        "segments; where it settles is decided by one round: ns-2.35's Vegas (whose rules the ns2 variant "
        "follows) takes a round without RTT samples to have lasted its own duration, so when the round that "
        "spans the timeout has no sample the queue estimate exceeds γ, slow start ends at 2 to 4 segments and "
        f"Vegas holds a few on the old path's baseRTT — in {len(ns2_few)} of ns-2.35's {len(theirs)} runs "
        f"({theirs['cwnd_mean_settled'].mean():.1f} segments, {theirs['throughput_after_mbps'].mean():.2f} Mb/s)"
    )
    if few.empty:
        text += " and in none of wattnet's"
    else:
        text += (
            f" and in {len(few)} of wattnet's {len(ours)} ({few['cwnd_mean_settled'].mean():.1f} segments, "
            f"{few['throughput_after_mbps'].mean():.2f} Mb/s)"
        )
    if not many.empty:
        text += (
            f"; in wattnet's other {len(many)} (replications {', '.join(str(r) for r in many.index)}) the round "
            "still holds samples of segments delivered before the timeout, slow start runs on to 16 and Vegas "
            f"holds {many['cwnd_mean_settled'].mean():.0f} segments ({many['throughput_after_mbps'].mean():.2f} "
            "Mb/s). The round's boundary moves with the time of the timeout, which ns-2.35's Vegas delays by "
            "resending on duplicate ACKs (its fine-grained retransmission, which wattnet does not model: in "
            "replication 0 at 50 % ns-2.35 times out at 30.65 s, wattnet at 30.37 s; docs/validation-studies.md)"
        )
    text += "."
    same_path = [
        rows[(rows["background"] == PRIMARY_BACKGROUND) & (rows["variant"] == "Vegas")
             & (rows["hops_after"] == rows["hops_before"])]
        for rows in (per_threshold, ns2_rows)
    ]  # fmt: skip
    if all(len(rows) for rows in same_path):
        (ours_before, ours_after), (ns2_before, ns2_after) = (
            (rows.groupby("replication")["throughput_before_mbps"].mean(), rows["throughput_after_mbps"].mean())
            for rows in same_path
        )
        text += (
            " Where the path stays the same, Vegas's throughput after the switch-off is "
            f"{ours_after:.1f} Mb/s (ns-2.35 {ns2_after:.1f}) but its loss is measured against the throughput "
            "before, which in both simulators depends on the baseRTT Vegas takes at start-up and so on the "
            f"replication's background phases: {ours_before.min():.1f} to {ours_before.max():.1f} Mb/s over wattnet's "
            f"replications, {ns2_before.min():.1f} to {ns2_before.max():.1f} over ns-2.35's."
        )
    return text


def explanations(
    per_threshold: pd.DataFrame, v: pd.DataFrame, ns2_rows: pd.DataFrame | None, check_ids: list[str]
) -> dict[str, str]:
    """Target id → its explanations: ESTOP's computed targets (from Table V, ``v``), and the measured causes
    that apply."""
    causes = computed_causes(v)
    vegas = vegas_modes(per_threshold, ns2_rows)
    loss_based = loss_based_as_ns2(per_threshold, ns2_rows)
    for id in check_ids:
        if vegas is not None and (id.startswith("B1.Vegas") or id == "B6.vegas-collapse"):
            causes[id] = vegas
        elif vegas is not None and loss_based is not None and id == "B6.loss-falls":
            causes[id] = f"{loss_based} {vegas}"
    return causes
