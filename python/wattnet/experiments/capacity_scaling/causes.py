"""Why wattnet and ns-2.35 disagree on a target: one causal sentence per target, each built from the
measured runs (the numbers it quotes come from them), found by changing one setting at a time in
both simulators (docs/validation-studies.md gives the measurements)."""

from __future__ import annotations

import pandas as pd

from wattnet.experiments.capacity_scaling.params import PRIMARY_RWND, RATES_BPS, TRANSITION_S, Grid
from wattnet.experiments.capacity_scaling.scenario import rwnd_label

PACKET_BYTES = 1500  # MSS 1460 B + 40 B of headers: every TCP data packet on the chain
# The targets each cause bears on: those reading the smallest RTT, the rate-change counts, and the
# cases with the random background.
SMALLEST_RTT_TARGETS = ("A1", "A2", "A4", "A7", "A8", "A9", "A10", "A12")
RATE_CHANGE_TARGETS = ("A4", "A8")
BACKGROUND_TARGETS = ("A7", "A8", "A9", "A10", "A11", "A12")


def _tcponly(runs: pd.DataFrame, case: str, rtt_ms: float) -> pd.DataFrame:
    return runs[
        (runs["case"] == case)
        & (runs["rtt_ms"] == rtt_ms)
        & (runs["mode"] == "TCPonly")
        & (runs["rwnd"] == rwnd_label(PRIMARY_RWND))
    ]


def offered_mbps(runs: pd.DataFrame, case: str, rtt_ms: float, duration_s: float) -> float:
    """The TCPonly flow's data (retransmissions included) offered to N1, Mb/s, mean over replications."""
    sent = _tcponly(runs, case, rtt_ms)["data_packets_sent"].astype(float).mean()
    return float(sent) * PACKET_BYTES * 8 / duration_s / 1e6


def _rate_changes(runs: pd.DataFrame, case: str, rtt_ms: float) -> float:
    pc = runs[(runs["case"] == case) & (runs["rtt_ms"] == rtt_ms) & (runs["mode"] == "TCP+PC")]
    return float(pc[pc["rwnd"] == rwnd_label(PRIMARY_RWND)]["rate_changes"].astype(float).mean())


def explanations(runs: pd.DataFrame, ns2_runs: pd.DataFrame | None, config: Grid) -> dict[str, str]:
    """Target id → the measured cause of a disagreement with ns-2.35 (several causes are joined)."""
    if ns2_runs is None:
        return {}
    out: dict[str, list[str]] = {}
    duration = config["duration_s"]
    rtt_lo, rtt_hi = min(config["rtts_s"]) * 1000, max(config["rtts_s"]) * 1000
    step_down_mbps = RATES_BPS[-2] / 1e6
    ours, theirs = offered_mbps(runs, "single", rtt_lo, duration), offered_mbps(ns2_runs, "single", rtt_lo, duration)
    if (ours < step_down_mbps) != (theirs < step_down_mbps):
        sentence = (
            f"At RTT {rtt_lo:g} ms TCPonly's NewReno offers N1 {ours:.2f} Mb/s in wattnet and {theirs:.2f} Mb/s in "
            f"ns-2.35, on either side of practRA's step-down level ({step_down_mbps:g} Mb/s), so practRA steps down in one "
            f"simulator only (TCP+PC rate changes at this RTT, mean over mRCI: wattnet "
            f"{_rate_changes(runs, 'single', rtt_lo):.0f}, ns-2.35 {_rate_changes(ns2_runs, 'single', rtt_lo):.0f}); "
            "the cause is TCP's window after a loss, not the emulation: with a bandwidth-delay product of about three "
            "packets ns-2.35 halves cwnd_ keeping its fraction (precisionReduce_) where wattnet's ns2 profile halves the "
            "window rounded down to whole segments, and the link idles longer after each loss."
        )
        for id in SMALLEST_RTT_TARGETS:
            out.setdefault(id, []).append(sentence)
    changes = {
        rtt: (_rate_changes(runs, "single", rtt), _rate_changes(ns2_runs, "single", rtt)) for rtt in (rtt_lo, rtt_hi)
    }
    if any(ours > 1.15 * theirs for ours, theirs in changes.values()):
        sentence = (
            f"wattnet stops N1's link for the δ = {TRANSITION_S * 1000:g} ms transition at every rate change and the "
            "ns-2.35 emulation does not, so a step up restores less capacity and practRA changes the rate more often "
            + "(TCP+PC rate changes, mean over mRCI: "
            + "; ".join(f"RTT {rtt:g} ms wattnet {o:.0f}, ns-2.35 {t:.0f}" for rtt, (o, t) in changes.items())
            + "); a finer polling of the emulation does not close the gap, removing the pause in wattnet does."
        )
        for id in RATE_CHANGE_TARGETS:
            out.setdefault(id, []).append(sentence)
    if {"bON", "BN"} <= set(runs["case"]) and {"bON", "BN"} <= set(ns2_runs["case"]):
        losses = []
        for case in ("bON", "BN"):
            ours_only, theirs_only = _tcponly(runs, case, rtt_hi), _tcponly(ns2_runs, case, rtt_hi)
            if len(ours_only) and len(theirs_only):
                losses.append(
                    f"{case} wattnet {ours_only['loss_pct'].astype(float).mean():.2f} %, "
                    f"ns-2.35 {theirs_only['loss_pct'].astype(float).mean():.2f} %"
                )
        replications = int(runs["replication"].max()) + 1
        sentence = (
            "The background's burst lengths are random and the two simulators draw them from different generators: "
            f"with {replications} replication{'s' if replications > 1 else ''} of {duration:g} s, TCPonly's own loss at "
            f"RTT {rtt_hi:g} ms already differs ({'; '.join(losses)}) before practRA acts, and ns-2.35's loss alone "
            "varies as much from seed to seed."
        )
        for id in BACKGROUND_TARGETS:
            out.setdefault(id, []).append(sentence)
    return {id: " ".join(sentences) for id, sentences in out.items()}
