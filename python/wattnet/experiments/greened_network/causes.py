"""Why wattnet and ns-2.35 disagree on a target: one causal sentence per target, found by changing
one setting at a time in both simulators (docs/validation-studies.md gives the measurements) and
stated only where the runs are in the state the cause describes."""

from __future__ import annotations

from typing import Any

import pandas as pd

from wattnet.experiments.greened_network.params import LOSS_BASED, NAME, PRIMARY_BACKGROUND, TABLE_IV_THRESHOLDS
from wattnet.experiments.greened_network.summaries import table_iv
from wattnet.experiments.greened_network.targets import EXPLANATIONS, b6_checks
from wattnet.experiments.report import reference_rows

VEGAS = (
    "With ns-2.35's Vegas rules (the ns2 profile's variant) both simulators' Vegas average 150 segments before the "
    "switch-off and fall to 2 after it, but at 50 and 70 % wattnet's then settles at 14 segments, where its stale "
    "baseRTT puts the queue estimate at β on the longer path, and ns-2.35's near 3.5, not yet explained "
    "(docs/ns2-compatibility.md)."
)


def _loss_trend(rows: pd.DataFrame) -> tuple[pd.DataFrame, dict[str, Any]]:
    """Table IV of the primary background and B6.loss-falls's measured value (each variant's losses at the
    Table IV thresholds and whether they fall)."""
    iv = table_iv(rows[rows["background"] == PRIMARY_BACKGROUND])
    trend = next(c for c in b6_checks(iv) if c["id"] == "B6.loss-falls")["wattnet_value"]
    return iv, trend


def vegas_alone(per_threshold: pd.DataFrame, ns2_rows: pd.DataFrame | None) -> str | None:
    """The sentence for B6.loss-falls when the loss-based variants' losses rise or fall as ns-2.35's do, so
    that only Vegas's can disagree, or None."""
    if ns2_rows is None:
        return None
    (our_iv, ours), (their_iv, theirs) = _loss_trend(per_threshold), _loss_trend(ns2_rows)
    if any(ours["falls"][variant] != theirs["falls"][variant] for variant in LOSS_BASED):
        return None
    gap, variant, threshold = max(
        (abs(a - b), v, t) for v in LOSS_BASED for t, a, b in zip(TABLE_IV_THRESHOLDS, ours[v], theirs[v])
    )
    first, top = TABLE_IV_THRESHOLDS[0], TABLE_IV_THRESHOLDS[-1]

    def vegas(iv: pd.DataFrame) -> str:
        row = iv[(iv["variant"] == "Vegas") & (iv["threshold_pct"] == top)].iloc[0]
        return f"{row['before_mbps']:.2f} → {row['after_mbps']:.2f} Mb/s"

    return (
        f"The loss-based variants lose about what ns-2.35's do (at most {gap:.1f} points apart, {variant} at "
        f"{threshold} %; BIC and CUBIC with the ns2 profile's TCP-Linux rules, mark_lost_retransmissions and "
        f"rto_restart_on_every_ack) and their losses fall from {first} to {top} %, or not, as ns-2.35's; what "
        f"differs is Vegas's loss at {top} % (wattnet {ours['Vegas'][-1]:g} %, {vegas(our_iv)}; ns-2.35 "
        f"{theirs['Vegas'][-1]:g} %, {vegas(their_iv)}), not isolated (docs/ns2-compatibility.md)."
    )


def explanations(per_threshold: pd.DataFrame, check_ids: list[str]) -> dict[str, str]:
    """Target id → its explanations: ESTOP's computed targets, and the measured causes that apply."""
    causes = dict(EXPLANATIONS)
    vegas_loss = vegas_alone(per_threshold, reference_rows(NAME))
    for id in check_ids:
        if vegas_loss is not None and id == "B6.loss-falls":
            causes[id] = vegas_loss
        elif id.startswith("B1.Vegas") or id == "B6.vegas-collapse":
            causes[id] = VEGAS
    return causes
