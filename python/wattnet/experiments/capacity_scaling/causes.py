"""Why wattnet and ns-2.35 disagree on a target: one causal sentence per target, each built from the
measured runs (the numbers it quotes come from them), found by changing one setting at a time in
both simulators (docs/validation-studies.md gives the measurements)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import pandas as pd

from wattnet.experiments.capacity_scaling.params import PRIMARY_RWND, Grid
from wattnet.experiments.capacity_scaling.scenario import rwnd_label
from wattnet.experiments.capacity_scaling.sweeps import summarise
from wattnet.experiments.capacity_scaling.targets import checks
from wattnet.experiments.report import disagreements, numbers
from wattnet.sweep import mean_ci

# The targets each cause bears on: the rate-change counts, and those read from the cases with the
# random background (the single source draws no random number: its replications are identical).
RATE_CHANGE_TARGETS = ("A4", "A8")
BACKGROUND_TARGETS = ("A7", "A8", "A9", "A10", "A11", "A12")
# judge()'s agreement rule: numbers within max(RELATIVE·|ns-2|, ABSOLUTE) agree.
RELATIVE, ABSOLUTE = 0.15, 0.5
# At most this many numbers are quoted in a sentence.
QUOTED = 4


def _rate_changes(runs: pd.DataFrame, case: str, rtt_ms: float) -> float:
    pc = runs[(runs["case"] == case) & (runs["rtt_ms"] == rtt_ms) & (runs["mode"] == "TCP+PC")]
    return float(pc[pc["rwnd"] == rwnd_label(PRIMARY_RWND)]["rate_changes"].astype(float).mean())


def _tcponly_loss(runs: pd.DataFrame, case: str, rtt_ms: float) -> float:
    only = runs[(runs["case"] == case) & (runs["rtt_ms"] == rtt_ms) & (runs["mode"] == "TCPonly")]
    return float(only[only["rwnd"] == rwnd_label(PRIMARY_RWND)]["loss_pct"].astype(float).mean())


def per_seed(trace_of: Callable[[pd.Series], pd.DataFrame], runs: pd.DataFrame, config: Grid) -> dict[str, list[dict[str, float | bool]]]:  # fmt: skip
    """Target id → its numbers (``report.numbers``) computed from each replication's runs alone: one
    entry per seed."""
    out: dict[str, list[dict[str, float | bool]]] = {}
    for replication in sorted(runs["replication"].unique()):
        # The checks read the first replication's traces; each seed's own are read as its first.
        alone = runs[runs["replication"] == replication].assign(replication=0)
        for check in checks(trace_of, alone, summarise(alone), config):
            out.setdefault(check["id"], []).append(numbers(check["wattnet_value"]))
    return out


def seed_noise(ours: Any, theirs: Any, ours_seeds: list[dict[str, float | bool]]) -> str | None:
    """Whether ns-2.35's one run lies within wattnet's seed-to-seed spread on the numbers of one target
    on which the two disagree (judge()'s rule): within the 95 % prediction interval of one more run
    drawn from wattnet's per-seed values, mean ± t(0.975, n − 1)·s·√(1 + 1/n) (for a yes/no: some
    seed of wattnet's gives ns-2.35's answer). None when nothing disagrees or wattnet ran one seed."""
    far = [line.split(": wattnet ")[0] for line in disagreements(ours, theirs, RELATIVE, ABSOLUTE)]
    if not far or len(ours_seeds) < 2:
        return None
    reference = numbers(theirs)
    within, outside = [], []
    for key in far:
        mine, other = [s[key] for s in ours_seeds if key in s], reference[key]
        if len(mine) < 2:
            continue
        if isinstance(other, bool):
            agreeing = sum(v == other for v in mine)
            quoted = f"{key}: ns-2.35's answer in {agreeing} of wattnet's {len(mine)} seeds"
            inside = agreeing > 0
        else:
            # mean_ci's half-width is t·s/√n; one more run's is t·s·√(1 + 1/n), that × √(n + 1).
            mean, half = mean_ci(mine)
            spread = half * math.sqrt(len(mine) + 1)
            quoted = f"{key}: wattnet {mean:.3g} ± {spread:.2g}, ns-2.35 {other:.3g}"
            inside = abs(other - mean) <= spread
        (within if inside else outside).append(quoted)
    if not within and not outside:
        return None
    sentence = (
        f"ns-2.35 ran one seed per point and wattnet {len(ours_seeds)}: for {len(within)} of the "
        f"{len(within) + len(outside)} numbers that differ ns-2.35's run lies within the seed-to-seed spread of one "
        "wattnet run (95 % prediction interval over wattnet's seeds"
        + (f": {'; '.join(within[:QUOTED])}" if within else "")
        + ")"
    )
    if outside:
        sentence += f"; outside it: {'; '.join(outside[:QUOTED])}"
    return sentence + "."


def explanations(
    runs: pd.DataFrame,
    ns2_runs: pd.DataFrame | None,
    config: Grid,
    ours: list[dict[str, Any]] | None = None,
    reference: dict[str, dict[str, Any] | None] | None = None,
    seeds: dict[str, list[dict[str, float | bool]]] | None = None,
) -> dict[str, str]:
    """Target id → the measured cause of a disagreement with ns-2.35 (several causes are joined).
    ``ours`` and ``reference`` are the two simulators' checks and ``seeds`` wattnet's per-seed
    numbers (``per_seed``), for the seed-to-seed noise of the background targets."""
    if ns2_runs is None:
        return {}
    out: dict[str, list[str]] = {}
    duration = config["duration_s"]
    rtt_lo, rtt_hi = min(config["rtts_s"]) * 1000, max(config["rtts_s"]) * 1000
    changes = {
        rtt: (_rate_changes(runs, "single", rtt), _rate_changes(ns2_runs, "single", rtt)) for rtt in (rtt_lo, rtt_hi)
    }
    if any(abs(o - t) > max(RELATIVE * t, ABSOLUTE) for o, t in changes.values()):
        sentence = (
            "practRA decides at every packet arrival and departure in wattnet and at 1 ms polls of N1's queue in the "
            "ns-2.35 emulation, which sees fewer of the moments the queue is empty and so steps down less often "
            + "(TCP+PC rate changes, mean over mRCI: "
            + "; ".join(f"RTT {rtt:g} ms wattnet {o:.0f}, ns-2.35 {t:.0f}" for rtt, (o, t) in changes.items())
            + "); polling every 0.1 ms moves the emulation toward wattnet's count (docs/validation-studies.md)."
        )
        for id in RATE_CHANGE_TARGETS:
            out.setdefault(id, []).append(sentence)
    if {"bON", "BN"} <= set(runs["case"]) and {"bON", "BN"} <= set(ns2_runs["case"]):
        ours_by_id = {c["id"]: c for c in ours or []}
        losses = "; ".join(
            f"{case} wattnet {_tcponly_loss(runs, case, rtt_hi):.2f} %, ns-2.35 {_tcponly_loss(ns2_runs, case, rtt_hi):.2f} %"
            for case in ("bON", "BN")
        )
        single_run = int(runs["replication"].max()) == 0
        for id in BACKGROUND_TARGETS:
            mine, other = ours_by_id.get(id), (reference or {}).get(id)
            noise = None
            if mine is not None and other is not None:
                noise = seed_noise(mine["wattnet_value"], other["wattnet_value"], (seeds or {}).get(id, []))
            if noise is None and single_run:
                noise = (
                    "The background's burst lengths are random and the two simulators draw them from different "
                    f"generators: with one run of {duration:g} s per point TCPonly's own loss at RTT {rtt_hi:g} ms "
                    f"already differs ({losses}) before practRA acts, and one run per simulator cannot measure the "
                    "seed-to-seed spread (the full grid runs 10 seeds in wattnet)."
                )
            if noise is not None:
                out.setdefault(id, []).append(noise)
    return {id: " ".join(sentences) for id, sentences in out.items()}
