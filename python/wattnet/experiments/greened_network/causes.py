"""Why wattnet and ns-2.35 disagree on a target: one causal sentence per target, found by changing
one setting at a time in both simulators (docs/validation-studies.md gives the measurements) and
stated only where the runs are in the state the cause describes."""

from __future__ import annotations

import pandas as pd

from wattnet.experiments.greened_network.params import PRIMARY_BACKGROUND
from wattnet.experiments.greened_network.targets import computed_causes

# ns-2.35 runs BIC and CUBIC in its TCP-Linux agent; the targets their windows after ESTOP bear on.
LINUX_MODULES = ("BIC", "CUBIC")
LATE_TIMEOUT_TARGETS = ("B1.BIC", "B1.CUBIC", "B5.bic-cubic-above-1", "B6.loss-falls")
# Vegas's settled window after the switch-off: "a few segments" below this, "about 14" above.
VEGAS_FEW_SEGMENTS = 8.0


def _lowest_windows(rows: pd.DataFrame) -> dict[tuple[str, int], float]:
    """(variant, threshold) → the lowest cwnd after the switch-off over the replications, primary background."""
    primary = rows[(rows["background"] == PRIMARY_BACKGROUND) & rows["variant"].isin(LINUX_MODULES)]
    lowest = primary.groupby(["variant", "threshold_pct"], as_index=False)["cwnd_min_after"].min()
    return {
        (str(row["variant"]), int(row["threshold_pct"])): float(row["cwnd_min_after"]) for _, row in lowest.iterrows()
    }


def late_timeouts(per_threshold: pd.DataFrame, ns2_rows: pd.DataFrame | None) -> str | None:
    """The sentence for BIC and CUBIC falling to one segment after the switch-off in wattnet only, or None."""
    if ns2_rows is None:
        return None
    theirs = _lowest_windows(ns2_rows)
    cases = [
        f"{variant} at {threshold} %: wattnet {ours:g}, ns-2.35 {theirs[variant, threshold]:g}"
        for (variant, threshold), ours in sorted(_lowest_windows(per_threshold).items())
        if ours <= 2 and theirs.get((variant, threshold), 0) > 2
    ]
    if not cases:
        return None
    return (
        "After the switch-off wattnet's BIC or CUBIC times out and falls to one segment where ns-2.35's TCP-Linux agent "
        "keeps hundreds (lowest window after ESTOP over the replications, segments: "
        + "; ".join(cases)
        + "), which lowers its throughput "
        "there. The rerouted background overflows a queue on the flow's path (KSCY→DNVR at 90 %), which drops "
        "retransmissions too: wattnet's SACK recovery (RFC 6675) finds a retransmission lost only by its timer "
        "(BIC at 90 %: a segment resent at 30.42 s is dropped again and the timeout fires at 30.73 s), while "
        "ns-2.35's TCP-Linux agent resends a lost retransmission about one RTT later without a timeout (20 BIC and "
        "53 CUBIC segments dropped twice or more in [30, 32) s, none timed out); re-routing at once instead of "
        "30 ms later leaves wattnet's timeout (docs/validation-studies.md)."
    )


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
    late = late_timeouts(per_threshold, ns2_rows)
    vegas = vegas_modes(per_threshold, ns2_rows)
    for id in check_ids:
        if late is not None and id in LATE_TIMEOUT_TARGETS:
            causes[id] = late
        elif vegas is not None and (id.startswith("B1.Vegas") or id == "B6.vegas-collapse"):
            causes[id] = vegas
    return causes
