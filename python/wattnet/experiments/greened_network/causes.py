"""Why wattnet and ns-2.35 disagree on a target: one causal sentence per target, found by changing
one setting at a time in both simulators (docs/validation-studies.md gives the measurements) and
stated only where the runs are in the state the cause describes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd

from wattnet.experiments.greened_network.targets import EXPLANATIONS

# ns-2.35's agents: slowdown() halves cwnd_ on every loss and every timeout (tcp.cc) and Reno's
# bugFix_ allows one fast retransmit per window (tcp-reno.cc); the ns2 profile's fields for them.
NS2_LOSS_RESPONSE = {"ssthresh_rule": "cwnd", "ssthresh_on_every_timeout": True, "reno_bug_fix": True}
LOSS_RESPONSE_TARGETS = ("B1.Tahoe", "B1.Reno", "B1.NewReno", "B1.BIC", "B1.CUBIC", "B5.", "B6.")
VEGAS = (
    "ns-2.35's Vegas agent leaves slow start early with a cut to 7/8 of its window before any loss and restarts "
    "from 2 segments after a timeout, where wattnet's Vegas slow-starts until its first loss and restarts from 1 "
    "(docs/ns2-compatibility.md): the two disagree on the window Vegas brings to the switch-off."
)


def resolved_tcp(out: Path, runs: pd.DataFrame) -> dict[str, Any]:
    """The TCP settings the engine resolved for the study's first run (its ``scenario.json``)."""
    first = runs.iloc[0]
    scenario = json.loads((out / first["store"] / "runs" / first["key"] / "scenario.json").read_text())
    tcp: dict[str, Any] = scenario["flows"][0]["tcp"]
    return tcp


def explanations(out: Path, runs: pd.DataFrame, check_ids: list[str]) -> dict[str, str]:
    """Target id → its explanations: ESTOP's computed targets, and the measured causes that apply."""
    causes = dict(EXPLANATIONS)
    tcp = resolved_tcp(out, runs)
    missing = [f"{key} = {json.dumps(value)}" for key, value in NS2_LOSS_RESPONSE.items() if tcp.get(key) != value]
    for id in check_ids:
        if missing and id.startswith(LOSS_RESPONSE_TARGETS):
            causes[id] = (
                "The runs' ns2 profile does not yet respond to loss as ns-2.35's agents do ("
                + ", ".join(missing)
                + " are ns-2.35's behaviour): with them, BIC no longer falls to one segment after the switch-off and "
                "Reno loses as much throughput as in ns-2.35 (docs/validation-studies.md)."
            )
        elif id.startswith("B1.Vegas") or id == "B6.vegas-collapse":
            causes[id] = VEGAS
    return causes
