"""The reference: ns-2.35's runs of the same reconstructed scenario (stored under ``validation/studies/``) as the study's own frames, and the targets computed from them."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import pandas as pd

from wattnet.experiments.ecn_efficiency.params import NAME
from wattnet.experiments.ecn_efficiency.sweeps import cases_table
from wattnet.experiments.ecn_efficiency.targets import (
    check_e1,
    check_e2,
    check_e3,
    check_e4,
    check_e5,
    check_e6,
    check_e7,
    check_e8,
    check_e9,
    check_e11,
)
from wattnet.experiments.report import (
    reference_checks,
    reference_rows,
)


def ns2_comparison(cases: pd.DataFrame, ns2: pd.DataFrame | None) -> pd.DataFrame:
    """Per case ns-2.35 also ran: the bottleneck's drops, the extra packets and the network overhead in both."""
    if ns2 is None:
        return pd.DataFrame()
    key = ["n", "d_ms", "errors", "queue", "ql"]
    columns = [
        "network_overhead_pct", "extra_packets_sent", "bottleneck_drops", "tt_mean_s", "acks_per_transfer", "utilisation",
    ]  # fmt: skip
    return cases[key + columns].merge(ns2[key + columns], on=key, suffixes=("", "_ns2"))


def explanations(against: pd.DataFrame, cases: pd.DataFrame) -> dict[str, str]:
    """What no comparison of a target's numbers says, beside its verdict: E10's missing reference, E7's error
    model, and, measured on the error-free cases both simulators ran, where wattnet's overheads part from
    ns-2.35's (docs/validation-studies.md records the experiments that changed one setting at a time)."""
    out = {
        "E10": "ns-2.35's runs of this scenario have nothing random without errors, so it has no replications to "
        "compare: the confidence interval is wattnet's alone.",
        # Measured in both: the errored packets' fate differs by construction (docs/validation-studies.md).
        "E7": "ns-2.35's ErrorModel drops an errored packet on the access link, so ns-2.35's receiver never sees it "
        "and retransmits it as a loss, while wattnet delivers it corrupted to a receiver that discards it: the "
        "corrupted segments wattnet counts are losses in ns-2.35, and the receiver overheads of the two count "
        "different packets.",
    }
    clean = against[~against["errors"]] if len(against) else against
    if not len(clean):
        return out

    def lowest(suffix: str) -> str:
        row = clean.sort_values(f"utilisation{suffix}").iloc[0]
        return f"{100 * row[f'utilisation{suffix}']:.1f} % ({row['queue']}, n {row['n']}, QL {row['ql']})"

    def closest_tt(rows: pd.DataFrame) -> str:
        """The largest relative difference of a case's mean transfer time between the two."""
        return f"{float((100 * (rows['tt_mean_s'] / rows['tt_mean_s_ns2'] - 1)).abs().max()):.1f} %"

    busy = clean[clean["d_ms"] == 20]
    out["E1"] = (
        f"Every case's mean transfer time is within {closest_tt(busy)} of ns-2.35's; the lowest utilisations are "
        f"wattnet's {lowest('')} and ns-2.35's {lowest('_ns2')}, where ns-2.35's is a run that one transfer's "
        "repeated timeouts keep going after the others have finished, which also widens its spread of transfer "
        "times over QL; the spreads are what disagree."
    )
    small = against[against["errors"] & (against["n"] == 10)]
    if len(small):

        def spread(column: str) -> float:
            return float(100 * (small[column].max() - small[column].min()) / small[column].mean())

        out["E8"] = (
            f"With errors, 10 clients' mean transfer times spread over the queues, QLs and delays by "
            f"{spread('tt_mean_s'):.1f} % in wattnet and {spread('tt_mean_s_ns2'):.1f} % in ns-2.35, while every "
            f"case is within {closest_tt(small)} of ns-2.35's: each case is one run of one draw of the random losses; "
            "not isolated further."
        )
    noisy = against[against["errors"] & (against["n"] == 25) & (against["d_ms"] == 2)]
    gap = noisy["acks_per_transfer_ns2"] - noisy["acks_per_transfer"]
    more = {q: float(g.mean()) for q, g in gap.groupby(noisy["queue"])}
    if more:
        everywhere = "in every case" if (gap > 0).all() else "in most cases"
        out["E9"] = (
            f"At n 25, d 2 ms with errors ns-2.35's receivers send more ACKs per transfer than wattnet's {everywhere}, "
            + ", ".join(f"{v:.1f} more with {q}" for q, v in sorted(more.items()))
            + " on average (wattnet counts the handshake's ACK, ns-2.35 does not), more where more packets are lost "
            "and resent (see E2): ECN's saving against DropTail differs accordingly; not isolated further."
        )

    out.update(overhead_causes(clean))
    return out


# The error-free cases (n, d ms, queue, QL) each overhead target reads.
TARGET_CASES: dict[str, list[tuple[int, int, str, int]]] = {
    "E2": [(25, 20, "DT", 64), (25, 20, "RED", 64), (25, 20, "ECN", 64)],
    "E3": [(10, 20, "DT", 64), (10, 20, "ECN", 64)],
    "E4": [(10, 20, "DT", 128), (10, 20, "RED", 128), (10, 20, "ECN", 128)],
    "E5": [(10, 20, "DT", 64), (10, 20, "ECN", 32), (25, 20, "DT", 64), (25, 20, "ECN", 32)],
    "E6": [(5, 2, "DT", 16), (5, 2, "ECN", 16), (5, 2, "DT", 32), (5, 2, "ECN", 32)],
}


def overhead_causes(clean: pd.DataFrame) -> dict[str, str]:
    """E2–E6: the target's cases in both simulators, then what the error-free cases measure: each drop costs
    both servers about the same, so the overheads part where the bottleneck drops a different number of packets
    (docs/validation-studies.md traces where the two first part)."""

    def total(queue: str, column: str) -> float:
        return float(clean.loc[clean["queue"] == queue, column].sum())

    def per_drop(queue: str, suffix: str) -> str:
        ratio = total(queue, f"extra_packets_sent{suffix}") / max(total(queue, f"bottleneck_drops{suffix}"), 1.0)
        return f"{ratio:.2f}"

    queues = ("DT", "RED", "ECN")
    gap = (clean["bottleneck_drops"] - clean["bottleneck_drops_ns2"]).abs()
    widest = clean.iloc[int(gap.to_numpy().argmax())]
    common = (
        "Over the error-free cases each drop costs wattnet's server "
        + ", ".join(f"{per_drop(q, '')} extra packets against ns-2.35's {per_drop(q, '_ns2')} with {q}" for q in queues)
        + ", as both senders run ns-2.35's Reno rules (singledup_ 1 with send_one() after timeouts, precisionReduce_, "
        "the ACK that ends recovery growing cwnd, the RTO counted in 10 ms ticks, cwnd below one segment after an "
        "ECN-Echo), which send the same packets in the same order with one client; the bottleneck drops "
        + ", ".join(
            f"{total(q, 'bottleneck_drops'):.0f} packets against {total(q, 'bottleneck_drops_ns2'):.0f} with {q}"
            for q in queues
        )
        + f", the widest gap at n {widest['n']}, QL {widest['ql']} with {widest['queue']} "
        f"({widest['bottleneck_drops']:.0f} against {widest['bottleneck_drops_ns2']:.0f}). With several clients the "
        "packet traces first part at a retransmission timeout one 10 ms tick apart, because ns-2.35 starts each "
        "agent's tick clock at a random phase (boot_time_) and wattnet at 0; from there the clients' packets reach "
        "the bottleneck in another order, which changes which ones it drops. ns-2.35's runs of the widest case with "
        "other seeds (other phases) close only part of that gap (docs/validation-studies.md), so with many clients "
        "a difference beyond the tick phase remains, not yet traced."
    )
    rows = {(int(r["n"]), int(r["d_ms"]), str(r["queue"]), int(r["ql"])): r for r in clean.to_dict("records")}
    out = {}
    for target, keys in TARGET_CASES.items():
        cases = "; ".join(
            f"n {n}, d {d} ms, {queue} QL {ql}: {rows[key]['extra_packets_sent']:.0f} extra packets and "
            f"{rows[key]['bottleneck_drops']:.0f} drops against ns-2.35's {rows[key]['extra_packets_sent_ns2']:.0f} and "
            f"{rows[key]['bottleneck_drops_ns2']:.0f}"
            for key in keys
            if key in rows
            for n, d, queue, ql in [key]
        )
        out[target] = f"{cases}. {common}" if cases else common
    return out


def ns2_checks() -> dict[str, dict[str, Any] | None]:
    """Every target computed from ns-2.35's runs of the same cases (one replication each)."""
    rows = reference_rows(NAME)
    if rows is None:
        return {}
    cases = cases_table(rows)
    builders: dict[str, Callable[[], dict[str, Any]]] = {
        f"E{i}": partial(fn, cases)
        for i, fn in enumerate(
            [check_e1, check_e2, check_e3, check_e4, check_e5, check_e6, check_e7, check_e8, check_e9], start=1
        )
    }
    builders["E11"] = lambda: check_e11(cases)
    return reference_checks(builders)
