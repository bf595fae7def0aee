"""Why wattnet and ns-2.35 disagree on a target: one causal sentence per target, each built from the
measured runs (the numbers it quotes come from them), found by changing one setting at a time in
both simulators (docs/validation-studies.md gives the measurements)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from wattnet.experiments.capacity_scaling.params import PRIMARY_RWND, R_MAX, RATES_BPS, RECORDER_BIN_S, TARGETS, Grid
from wattnet.experiments.capacity_scaling.scenario import rwnd_label
from wattnet.experiments.capacity_scaling.sweeps import summarise
from wattnet.experiments.capacity_scaling.targets import checks
from wattnet.experiments.report import disagreements, numbers
from wattnet.sweep import mean_ci
from wattnet.topology.chain import bdp_buffer_packets

# The targets each cause bears on: the rate-change counts (with the case each reads; A12's saving and
# reduction at the smallest mRCI follow them), and those read
# from the cases with the random background (the single source draws no random number: its
# replications are identical).
RATE_CHANGE_TARGETS = {"A4": "single", "A8": "bON", "A12": "bON"}
BACKGROUND_TARGETS = ("A7", "A8", "A9", "A10", "A11", "A12")
# judge()'s agreement rule: numbers within max(RELATIVE·|ns-2|, ABSOLUTE) agree.
RELATIVE, ABSOLUTE = 0.15, 0.5
# At most this many numbers are quoted in a sentence.
QUOTED = 4
PACKET_BITS = 1500 * 8  # MSS 1460 B + 40 B of headers: every TCP data packet on the chain


def _rate_changes(runs: pd.DataFrame, case: str, rtt_ms: float) -> float:
    pc = runs[(runs["case"] == case) & (runs["rtt_ms"] == rtt_ms) & (runs["mode"] == "TCP+PC")]
    return float(pc[pc["rwnd"] == rwnd_label(PRIMARY_RWND)]["rate_changes"].astype(float).mean())


def _tcponly_loss(runs: pd.DataFrame, case: str, rtt_ms: float) -> float:
    return float(_tcponly(runs, case, rtt_ms)["loss_pct"].astype(float).mean())


def _tcponly(runs: pd.DataFrame, case: str, rtt_ms: float) -> pd.DataFrame:
    only = runs[(runs["case"] == case) & (runs["rtt_ms"] == rtt_ms) & (runs["mode"] == "TCPonly")]
    return only[only["rwnd"] == rwnd_label(PRIMARY_RWND)]


def _offered_mbps(runs: pd.DataFrame, rtt_ms: float, duration_s: float) -> float:
    """The single source's TCPonly data (retransmissions included) offered to N1, Mb/s."""
    return (
        float(_tcponly(runs, "single", rtt_ms)["data_packets_sent"].astype(float).mean())
        * PACKET_BITS
        / duration_s
        / 1e6
    )


def smallest_rtt(runs: pd.DataFrame, ns2_runs: pd.DataFrame, config: Grid, failed: set[str]) -> dict[str, str]:
    """Why the targets read at the grid's smallest RTT miss the paper in both simulators (``failed``:
    the targets wattnet misses): TCP with a one-BDP buffer of a few packets."""
    out = {}
    duration, rtt_lo, rtt_hi = config["duration_s"], min(config["rtts_s"]) * 1000, max(config["rtts_s"]) * 1000
    buffer_lo, buffer_hi = (bdp_buffer_packets(R_MAX, rtt / 1000) for rtt in (rtt_lo, rtt_hi))
    step_down = RATES_BPS[-2] / 1e6
    offered = _offered_mbps(runs, rtt_lo, duration), _offered_mbps(ns2_runs, rtt_lo, duration)
    if "A2" in failed and min(offered) >= step_down:
        out["A2"] = (
            f"At RTT {rtt_lo:g} ms TCPonly offers N1 {offered[0]:.2f} Mb/s in wattnet and {offered[1]:.2f} Mb/s in "
            f"ns-2.35, above practRA's first step down ({step_down:g} Mb/s), so practRA hardly leaves r_MAX and there is "
            "no reduction to see."
        )
    loss = {
        (case, rtt): (_tcponly_loss(runs, case, rtt), _tcponly_loss(ns2_runs, case, rtt))
        for case in ("single", "bON") for rtt in (rtt_lo, rtt_hi) if case in set(runs["case"])
    }  # fmt: skip
    if "A4" in failed and loss[("single", rtt_lo)][0] > loss[("single", rtt_hi)][0]:
        (a, b), (c, d) = loss[("single", rtt_lo)], loss[("single", rtt_hi)]
        out["A4"] = (
            f"TCPonly alone loses {a:.2f} % at RTT {rtt_lo:g} ms (a one-BDP buffer of {buffer_lo} packets) and {c:.2f} % "
            f"at RTT {rtt_hi:g} ms ({buffer_hi} packets) in wattnet, {b:.2f} and {d:.2f} % in ns-2.35: the buffer, not "
            "practRA, decides which RTT loses more."
        )
    if "A7" in failed and ("bON", rtt_lo) in loss:
        r = {rtt: float(runs[(runs["case"] == "bON") & (runs["rtt_ms"] == rtt) & (runs["mode"] == "TCP+PC")]
                        ["mean_rate_mbps"].mean()) for rtt in (rtt_lo, rtt_hi)}  # fmt: skip
        (a, b), (c, d) = loss[("bON", rtt_lo)], loss[("bON", rtt_hi)]
        if r[rtt_lo] <= r[rtt_hi]:
            out["A7"] = (
                f"With the background, TCPonly loses {a:.2f} % at RTT {rtt_lo:g} ms (a buffer of {buffer_lo} packets) "
                f"against {c:.2f} % at RTT {rtt_hi:g} ms in wattnet ({b:.2f} and {d:.2f} % in ns-2.35), waits for its "
                f"retransmission timer after the bursts and practRA follows it down: r̄ {r[rtt_lo]:.2f} Mb/s at RTT "
                f"{rtt_lo:g} ms against {r[rtt_hi]:.2f} at RTT {rtt_hi:g} ms, the reverse of the paper's ordering."
            )
    return out


def _first_run(runs: pd.DataFrame, case: str, rtt_ms: float, mrci_ms: float | None) -> pd.Series:
    """The first replication's run of ``case`` at ``rtt_ms``: TCPonly (``mrci_ms`` None) or TCP+PC."""
    chosen = runs[(runs["case"] == case) & (runs["rtt_ms"] == rtt_ms) & (runs["replication"] == 0)]
    chosen = chosen[chosen["rwnd"] == rwnd_label(PRIMARY_RWND)]
    chosen = chosen[chosen["mode"] == "TCPonly"] if mrci_ms is None else chosen[chosen["mrci_ms"] == mrci_ms]
    return chosen.iloc[0]


def _lowest_smoothed_arrival(trace: pd.DataFrame) -> float:
    """The lowest arrival rate at N1 (Mb/s) on A5's smoothing, after its start-up skip."""
    episode = TARGETS["a5_episode"]
    smooth = trace["arrival_rate_bps"].rolling(episode["smoothing_bins"], min_periods=1).mean()
    return float(smooth[smooth.index >= episode["skip_s"]].min())


def traced(
    runs: pd.DataFrame, ns2_runs: pd.DataFrame, config: Grid, failed: set[str],
    traces: tuple[Callable[[pd.Series], pd.DataFrame], Callable[[pd.Series], pd.DataFrame]],
) -> dict[str, str]:  # fmt: skip
    """Why the targets read from the traces at the largest RTT miss the paper (``traces``: wattnet's and
    ns-2.35's ``trace`` functions; ``failed``: the targets wattnet misses)."""
    out = {}
    rtt_hi, mrci_lo = max(config["rtts_s"]) * 1000, min(config["mrcis_s"]) * 1000
    episode = TARGETS["a5_episode"]
    if "A5" in failed:
        lowest = [_lowest_smoothed_arrival(trace(_first_run(r, "single", rtt_hi, None))) for r, trace in
                  zip((runs, ns2_runs), traces)]  # fmt: skip
        if min(lowest) >= episode["dropped_mbps"]:
            out["A5"] = (
                f"No episode to time: at RTT {rtt_hi:g} ms TCPonly's arrival rate at N1 "
                f"({episode['smoothing_bins'] * RECORDER_BIN_S:g} s average) never falls below {episode['dropped_mbps']:g} Mb/s "
                f"(its lowest: wattnet {lowest[0]:.2f}, ns-2.35 {lowest[1]:.2f} Mb/s), since a buffer of one "
                "bandwidth-delay product keeps the link busy while NewReno's halved window refills."
            )
    if "A11" in failed and "bON" in set(runs["case"]) and "bON" in set(ns2_runs["case"]):
        served = [float(_first_run(r, "bON", rtt_hi, mrci_lo)["mean_rate_mbps"]) for r in (runs, ns2_runs)]
        full = TARGETS["a11_min_without_mbps"]
        if max(served) < full:
            out["A11"] = (
                f"Without the bottleneck the arrival rate at N1 cannot stay near {R_MAX / 1e6:g} Mb/s because practRA "
                f"itself serves less: in that run (background, RTT {rtt_hi:g} ms, mRCI {mrci_lo:g} ms) its r̄ is "
                f"{served[0]:.2f} Mb/s in wattnet and {served[1]:.2f} Mb/s in ns-2.35, below the {full:g} Mb/s the "
                "target asks of the arrivals."
            )
    return out


def per_seed(trace_of: Callable[[pd.Series], pd.DataFrame], runs: pd.DataFrame, config: Grid) -> dict[str, list[dict[str, float | bool]]]:  # fmt: skip
    """Target id → its numbers (``report.numbers``) computed from each replication's runs alone: one
    entry per seed. A case run once (it draws no random number, so every seed's run is that one)
    enters every seed's checks."""
    out: dict[str, list[dict[str, float | bool]]] = {}
    once = runs.groupby("case")["replication"].transform("max") == 0
    for replication in sorted(runs["replication"].unique()):
        # The checks read the first replication's traces; each seed's own are read as its first.
        alone = runs[(runs["replication"] == replication) | once].assign(replication=0)
        for check in checks(trace_of, alone, summarise(alone), config):
            out.setdefault(check["id"], []).append(numbers(check["wattnet_value"]))
    return out


def _g(value: float, digits: int = 3) -> str:
    """``digits`` significant digits, whole numbers from the hundreds up (no exponent)."""
    return f"{value:.0f}" if abs(value) >= 10 ** (digits - 1) else f"{value:.{digits}g}"


def _within_spread(mine: list[float], other: list[float]) -> tuple[str, bool] | None:
    """Whether two simulators' per-seed values of one number differ by no more than their seed-to-seed
    spread at 95 %: with several seeds in both, the two means by Welch's confidence interval of their
    difference; with one run in one of them, that run against the 95 % prediction interval of one
    more run of the other, mean ± t(0.975, n − 1)·s·√(1 + 1/n). A number the same in every seed has
    no spread (a case that draws no random number). None when neither has two seeds."""
    from scipy.stats import t

    if not mine or not other or max(len(mine), len(other)) < 2:
        return None
    if all(np.ptp(v) == 0 for v in (mine, other)):
        return f"wattnet {_g(mine[0])}, ns-2.35 {_g(other[0])}, each the same in every seed", mine[0] == other[0]
    if len(mine) >= 2 and len(other) >= 2:
        (m, vm), (o, vo) = ((float(np.mean(v)), float(np.var(v, ddof=1)) / len(v)) for v in (mine, other))
        freedom = (vm + vo) ** 2 / (vm**2 / (len(mine) - 1) + vo**2 / (len(other) - 1))
        half = float(t.ppf(0.975, freedom)) * math.sqrt(vm + vo)
        return f"wattnet {_g(m)}, ns-2.35 {_g(o)}, difference {_g(m - o, 2)} ± {_g(half, 2)}", abs(m - o) <= half
    if len(mine) >= 2:
        seeds, name, one, one_name = mine, "wattnet", other[0], "ns-2.35"
    else:
        seeds, name, one, one_name = other, "ns-2.35", mine[0], "wattnet"
    # mean_ci's half-width is t·s/√n; one more run's is t·s·√(1 + 1/n), that × √(n + 1).
    mean, half = mean_ci(seeds)
    spread = half * math.sqrt(len(seeds) + 1)
    return f"{name} {_g(mean)} ± {_g(spread, 2)}, {one_name} {_g(one)}", abs(one - mean) <= spread


def seed_noise(
    ours: Any,
    theirs: Any,
    ours_seeds: list[dict[str, float | bool]],
    theirs_seeds: list[dict[str, float | bool]],
) -> str | None:
    """Whether the numbers of one target on which the two simulators disagree (judge()'s rule) lie
    within their seed-to-seed spread (``_within_spread`` on each simulator's per-seed values; for a
    yes/no: some seed of either simulator gives the other's answer). None when nothing disagrees or
    neither simulator ran two seeds."""
    far = [line.split(": wattnet ")[0] for line in disagreements(ours, theirs, RELATIVE, ABSOLUTE)]
    answers = numbers(ours), numbers(theirs)
    within: list[str] = []
    outside: list[str] = []
    for key in far:
        mine, other = ([s[key] for s in seeds if key in s] for seeds in (ours_seeds, theirs_seeds))
        if isinstance(answers[0][key], bool):
            if max(len(mine), len(other)) < 2:
                continue
            # A yes/no's seeds are not averaged: the check on the means gives each simulator's answer.
            flips = sum(v == answers[1][key] for v in mine), sum(v == answers[0][key] for v in other)
            quoted = (
                f"{key}: ns-2.35's answer in {flips[0]} of wattnet's {len(mine)} seeds, "
                f"wattnet's in {flips[1]} of ns-2.35's {len(other)}"
            )
            inside = sum(flips) > 0
        else:
            tested = _within_spread([float(v) for v in mine], [float(v) for v in other])
            if tested is None:
                continue
            quoted, inside = f"{key}: {tested[0]}", tested[1]
        (within if inside else outside).append(quoted)
    if not within and not outside:
        return None
    sentence = (
        f"wattnet ran {len(ours_seeds)} and ns-2.35 {len(theirs_seeds)} seeds per point: {len(within)} of the "
        f"{len(within) + len(outside)} numbers that differ lie within the seed-to-seed spread at 95 %"
        + (f" ({'; '.join(within[:QUOTED])})" if within else "")
    )
    if outside:
        sentence += f"; outside it: {'; '.join(outside[:QUOTED])}"
    return sentence + "."


def single_source_trend(
    ours: dict[str, Any], theirs: dict[str, Any], runs: pd.DataFrame, ns2_runs: pd.DataFrame, config: Grid
) -> str | None:
    """Why A12's single-source numbers differ (``ours``, ``theirs``: the two simulators' A12 values),
    when they do: that case draws no random number, so no seed explains it; its saving barely moves
    with RTT in either simulator, and at the smallest mRCI practRA's decision instants (A4's cause)
    set the rate-change count and the throughput it costs."""
    if not disagreements(ours.get("single"), theirs.get("single"), RELATIVE, ABSOLUTE):
        return None
    lo, hi = min(config["rtts_s"]) * 1000, max(config["rtts_s"]) * 1000
    rtt_lo, rtt_hi = f"RTT {lo:g}", f"RTT {hi:g}"
    mrci_lo = min(config["mrcis_s"]) * 1000
    moves = [
        v["single"]["saving_pct_by_rtt"][rtt_hi] - v["single"]["saving_pct_by_rtt"][rtt_lo] for v in (ours, theirs)
    ]
    costs = [v["single"]["reduction_pct_by_mrci"][f"mRCI {mrci_lo:g}"] for v in (ours, theirs)]
    answers = {v["single"].get("holds", {}).get("saving with RTT") for v in (ours, theirs)}
    tie = ", a near tie on which 'saving with RTT' turns" if len(answers) > 1 else ""
    changes = []
    for frame in (runs, ns2_runs):
        pc = frame[
            (frame["case"] == "single") & (frame["mrci_ms"] == mrci_lo) & (frame["rwnd"] == rwnd_label(PRIMARY_RWND))
        ]
        changes.append(float(pc["rate_changes"].astype(float).mean()))
    return (
        "The single source draws no random number, so its numbers are the same in every seed of both simulators "
        f"and their difference is no seed noise: its saving moves by {moves[0]:+.2f} points from RTT {lo:g} to {hi:g} ms "
        f"in wattnet and {moves[1]:+.2f} in ns-2.35{tie}, and at mRCI "
        f"{mrci_lo:g} ms practRA changes the rate {changes[0]:.0f} against {changes[1]:.0f} times (mean over RTT) at "
        f"a throughput cost of {costs[0]:.2f} against {costs[1]:.2f} %, the decision instants of A4's cause."
    )


def explanations(
    runs: pd.DataFrame,
    ns2_runs: pd.DataFrame | None,
    config: Grid,
    ours: list[dict[str, Any]] | None = None,
    reference: dict[str, dict[str, Any] | None] | None = None,
    seeds: tuple[dict[str, list[dict[str, float | bool]]], dict[str, list[dict[str, float | bool]]]] | None = None,
    traces: tuple[Callable[[pd.Series], pd.DataFrame], Callable[[pd.Series], pd.DataFrame]] | None = None,
) -> dict[str, str]:
    """Target id → the measured cause of a disagreement with ns-2.35 (several causes are joined).
    ``ours`` and ``reference`` are the two simulators' checks and ``seeds`` wattnet's and ns-2.35's
    per-seed numbers (``per_seed``), for the seed-to-seed spread of the background targets; ``traces``
    wattnet's and ns-2.35's trace functions, for the targets read from traces."""
    if ns2_runs is None:
        return {}
    out: dict[str, list[str]] = {}
    rtt_lo, rtt_hi = min(config["rtts_s"]) * 1000, max(config["rtts_s"]) * 1000
    for id, case in RATE_CHANGE_TARGETS.items():
        if case not in set(runs["case"]) or case not in set(ns2_runs["case"]):
            continue
        changes = {
            rtt: (_rate_changes(runs, case, rtt), _rate_changes(ns2_runs, case, rtt)) for rtt in (rtt_lo, rtt_hi)
        }
        if any(abs(o - t) > max(RELATIVE * t, ABSOLUTE) for o, t in changes.values()):
            out.setdefault(id, []).append(
                "practRA decides at every packet arrival and departure and at every sample tick (T_s) in wattnet, "
                "and at every 1 ms poll of N1's queue in the ns-2.35 emulation, also while the link idles, so the two "
                f"change the rate at different instants (TCP+PC rate changes, {case}, mean over mRCI: "
                + "; ".join(f"RTT {rtt:g} ms wattnet {o:.0f}, ns-2.35 {t:.0f}" for rtt, (o, t) in changes.items())
                + "); the emulation's count follows its poll interval (docs/validation-studies.md)."
            )
    if {"bON", "BN"} <= set(runs["case"]) and {"bON", "BN"} <= set(ns2_runs["case"]):
        ours_by_id = {c["id"]: c for c in ours or []}
        ours_seeds, theirs_seeds = seeds or ({}, {})
        for id in BACKGROUND_TARGETS:
            mine, other = ours_by_id.get(id), (reference or {}).get(id)
            if mine is None or other is None:
                continue
            noise = seed_noise(
                mine["wattnet_value"], other["wattnet_value"], ours_seeds.get(id, []), theirs_seeds.get(id, [])
            )
            if noise is not None:
                out.setdefault(id, []).append(noise)
            if id == "A12":
                trend = single_source_trend(mine["wattnet_value"], other["wattnet_value"], runs, ns2_runs, config)
                if trend is not None:
                    out.setdefault(id, []).append(trend)
    if ours is not None:
        failed = {c["id"] for c in ours if not c["pass"]}
        found = smallest_rtt(runs, ns2_runs, config, failed)
        if traces is not None:
            found |= traced(runs, ns2_runs, config, failed, traces)
        for id, sentence in found.items():
            out.setdefault(id, []).append(sentence)
    return {id: " ".join(sentences) for id, sentences in out.items()}
