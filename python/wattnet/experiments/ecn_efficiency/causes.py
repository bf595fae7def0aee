"""The measured causes beside the verdicts of E1 (the transfer times' spread over QL) and of the
errored targets E7–E9, each built from the cases both simulators ran (``reference.ns2_comparison``:
wattnet's columns and ns-2.35's with the suffix ``_ns2``; errored cases are means over replications)."""

from __future__ import annotations

from typing import Any, cast

import pandas as pd

from wattnet.experiments.ecn_efficiency.params import E7_DELAY_MS, FILES_PER_CLIENT, QUEUES, SEGMENTS_PER_TRANSFER

NS2 = "_ns2"


def _spread_pct(frame: pd.DataFrame, column: str) -> pd.Series:
    """(max − min)/mean of ``column`` over QL, in %, per (n, queue)."""
    groups = frame.groupby(["n", "queue"])[column]
    return 100 * (groups.max() - groups.min()) / groups.mean()


def _by_queue(values: dict[Any, float], digits: int = 2, unit: str = "") -> str:
    return ", ".join(f"{queue} {values[queue]:.{digits}f}{unit}" for queue in QUEUES if queue in values)


def straggler_cause(clean: pd.DataFrame) -> str:
    """E1, d = 20 ms, n = 10 and 25 without errors: how far apart the two simulators' mean transfer times
    are, their spreads over QL, and the run that sets ns-2.35's widest spread: a straggler backing off
    while the other clients share the bottleneck among fewer. By Little's law the mean number of transfers
    in progress is transfers × mean TT / run length, so a run's mean TT moves with it."""
    busy = clean[(clean["d_ms"] == 20) & clean["n"].isin([10, 25])]
    tt_gap = float((100 * (busy["tt_mean_s"] / busy[f"tt_mean_s{NS2}"] - 1)).abs().max())
    ours, theirs = _spread_pct(busy, "tt_mean_s"), _spread_pct(busy, f"tt_mean_s{NS2}")
    n, queue = cast(tuple[int, str], theirs.idxmax())
    setting = busy[(busy["n"] == n) & (busy["queue"] == queue)].set_index("ql")
    tt = setting[f"tt_mean_s{NS2}"]
    ql = int(cast(int, (tt - tt.median()).abs().idxmax()))
    odd, others = setting.loc[ql], setting.drop(ql)
    rest = busy[busy["ql"] != ql]
    in_progress = setting["transfers"] * tt / setting[f"experiment_s{NS2}"]

    def lowest(suffix: str) -> str:
        row = busy.sort_values(f"utilisation{suffix}").iloc[0]
        return f"{100 * row[f'utilisation{suffix}']:.1f} % ({row['queue']}, n {row['n']}, QL {row['ql']})"

    def span(values: pd.Series, digits: int) -> str:
        return f"{values.min():.{digits}f}–{values.max():.{digits}f}"

    return (
        f"Every case's mean transfer time is within {tt_gap:.1f} % of ns-2.35's, but over QL 16–128 it spreads by up "
        f"to {ours.max():.1f} % in wattnet and {theirs.max():.1f} % in ns-2.35 ({queue}, n {n}); without QL {ql} the "
        f"largest spreads are {_spread_pct(rest, 'tt_mean_s').max():.1f} % and "
        f"{_spread_pct(rest, f'tt_mean_s{NS2}').max():.1f} %. ns-2.35's QL {ql} run there averages {odd[f'tt_mean_s{NS2}']:.2f} "
        f"s against {span(others[f'tt_mean_s{NS2}'], 2)} s at the other QLs: its longest transfer takes "
        f"{odd[f'tt_max_s{NS2}']:.1f} s with {odd[f'longest_transfer_timeouts{NS2}']:.0f} timeouts (wattnet's longest "
        f"there: {odd['tt_max_s']:.1f} s, {odd['longest_transfer_timeouts']:.0f}), the run lasts "
        f"{odd[f'experiment_s{NS2}']:.1f} s against {span(others[f'experiment_s{NS2}'], 1)} s, and by Little's law "
        f"{in_progress[ql]:.1f} transfers are in progress on average against {span(in_progress.drop(ql), 1)}, so "
        f"the others, sharing the bottleneck among fewer clients, average {odd[f'tt_mean_without_longest_s{NS2}']:.2f} "
        f"s. The lowest utilisations are wattnet's {lowest('')} and ns-2.35's {lowest(NS2)}."
    )


def error_causes(against: pd.DataFrame, cases: pd.DataFrame) -> dict[str, str]:
    """E7, E8 and E9 from the cases both ran (``against``: the errored ones, and for E9 the error-free ones
    too) and wattnet's cases (its handshake ACKs)."""
    noisy = against[against["errors"]]
    if not len(noisy):
        return {}
    return {"E7": _receiver_cause(noisy), "E8": _noise_cause(noisy), "E9": _ack_cause(against, cases)}


def _replications(noisy: pd.DataFrame) -> str:
    ours, theirs = int(noisy["replications"].min()), int(noisy[f"replications{NS2}"].min())
    return f"{ours} runs each" if ours == theirs else f"{ours} runs each in wattnet, {theirs} in ns-2.35"


def _receiver_cause(noisy: pd.DataFrame) -> str:
    """E7: the receiver overhead is the duplicates the clients receive (every transfer completes, so each
    segment arrives once plus its duplicates); split into timeouts per transfer and duplicates per timeout."""
    case = noisy[(noisy["n"] == 25) & (noisy["d_ms"] == E7_DELAY_MS) & (noisy["ql"] == 128)].set_index("queue")
    transfers = 25 * FILES_PER_CLIENT

    def per_queue(column: str, scale: float = 1.0) -> dict[str, float]:
        return {q: float(case.loc[q, column]) * scale for q in case.index}

    def duplicates_per_timeout(suffix: str) -> dict[str, float]:
        duplicates = case[f"receiver_overhead_pct{suffix}"] / 100 * transfers * SEGMENTS_PER_TRANSFER
        return {q: float(duplicates[q] / max(case.loc[q, f"timeouts{suffix}"], 1.0)) for q in case.index}

    def overhead(suffix: str) -> str:
        mean = case[f"receiver_overhead_pct{suffix}"].to_dict()
        sd = case[f"receiver_overhead_pct_sd{suffix}"].to_dict()
        return ", ".join(f"{q} {mean[q]:.2f} ± {sd[q]:.2f}" for q in QUEUES)

    return (
        f"Counted alike (segments the clients' TCP receives: ns-2.35's error model drops an errored segment before "
        f"the receiver, wattnet's client discards it corrupted), the receiver overhead at n 25, d {E7_DELAY_MS} ms, QL 128 "
        f"({_replications(noisy)}, mean ± seed-to-seed SD) is {overhead('')} % in wattnet and {overhead(NS2)} % in "
        "ns-2.35. Every extra segment a client receives is a duplicate, resent mostly after a timeout: wattnet's "
        f"senders time out {_by_queue(per_queue('timeouts', 1 / transfers))} times per transfer against ns-2.35's "
        f"{_by_queue(per_queue(f'timeouts{NS2}', 1 / transfers))}, and each timeout brings the clients "
        f"{_by_queue(duplicates_per_timeout(''))} duplicates in wattnet against {_by_queue(duplicates_per_timeout(NS2))} "
        "in ns-2.35."
    )


def _noise_cause(noisy: pd.DataFrame) -> str:
    """E8: the spread of 10 clients' transfer times, and the n = 25 orderings the paper reads against the
    standard error of a difference of two means over the replications."""
    small = noisy[noisy["n"] == 10]

    def spread(column: str) -> float:
        return float(100 * (small[column].max() - small[column].min()) / small[column].mean())

    def seed_spread(suffix: str) -> float:
        return float((100 * small[f"tt_mean_s_sd{suffix}"] / small[f"tt_mean_s{suffix}"]).max())

    within = 0
    parts = []
    for d, ql in ((2, 16), (20, 16), (2, 64)):
        case = noisy[(noisy["n"] == 25) & (noisy["d_ms"] == d) & (noisy["ql"] == ql)].set_index("queue")
        ecn, dt = case.loc["ECN"].to_dict(), case.loc["DT"].to_dict()
        texts = []
        for suffix in ("", NS2):
            mean, sd, runs = f"tt_mean_s{suffix}", f"tt_mean_s_sd{suffix}", f"replications{suffix}"
            gap = ecn[mean] - dt[mean]
            # The standard error of a difference of two independent means over their runs.
            error = (ecn[sd] ** 2 / ecn[runs] + dt[sd] ** 2 / dt[runs]) ** 0.5
            within += int(abs(gap) <= 2 * error)
            texts.append(f"{gap:+.2f} ± {error:.2f}")
        parts.append(f"QL {ql}, d {d} ms: wattnet {texts[0]} s, ns-2.35 {texts[1]} s")
    return (
        f"Over {_replications(noisy)}, 10 clients' mean transfer times spread over the queues, QLs and delays by "
        f"{spread('tt_mean_s'):.1f} % in wattnet and {spread(f'tt_mean_s{NS2}'):.1f} % in ns-2.35, while one case's mean "
        f"varies from seed to seed by up to {seed_spread(''):.1f} % and {seed_spread(NS2):.1f} % (SD over its mean). "
        f"At n 25, TT(ECN) − TT(DT) with its standard error over the runs is {'; '.join(parts)}: {within} of these 6 "
        "differences are within two standard errors of zero, "
        + (
            "so most orderings the paper reads from one run each are of the size of the errors' seed-to-seed noise."
            if 2 * within >= 6
            else "the others beyond the seed-to-seed noise."
        )
    )


def _acks_per_segment(rows: pd.DataFrame, suffix: str) -> float:
    return float(
        (rows[f"acks_per_transfer{suffix}"] * rows["transfers"]).sum() / rows[f"data_packets_received{suffix}"].sum()
    )


def _ack_cause(against: pd.DataFrame, cases: pd.DataFrame) -> str:
    """E9 at n = 25, d = 2 ms: the ACK gap per transfer split exactly into the extra segments received (at
    wattnet's ACKs per segment) and the extra ACKs per segment (on ns-2.35's segments), averaged over QL per
    queue; and ACKs per segment without errors, where no loss is random."""
    setting = against[against["errors"] & (against["n"] == 25) & (against["d_ms"] == 2)]
    transfers = 25 * FILES_PER_CLIENT
    mean = setting.groupby("queue")[
        ["acks_per_transfer", f"acks_per_transfer{NS2}", "data_packets_received", f"data_packets_received{NS2}"]
    ].mean()
    received_ours = mean["data_packets_received"] / transfers
    received_theirs = mean[f"data_packets_received{NS2}"] / transfers
    rate_ours = mean["acks_per_transfer"] / received_ours
    rate_theirs = mean[f"acks_per_transfer{NS2}"] / received_theirs
    from_segments = ((received_theirs - received_ours) * rate_ours).to_dict()
    from_rate = (received_theirs * (rate_theirs - rate_ours)).to_dict()
    more_acks = (mean[f"acks_per_transfer{NS2}"] - mean["acks_per_transfer"]).to_dict()
    clean = against[~against["errors"] & (against["n"] == 25)]
    ours = cases[cases["errors"] & (cases["n"] == 25) & (cases["d_ms"] == 2)]
    handshake = float(ours["handshake_acks_per_transfer"].mean())
    sd = float(max(setting["acks_per_transfer_sd"].max(), setting[f"acks_per_transfer_sd{NS2}"].max()))
    without_errors = (
        f"; without errors (n 25) they send {_acks_per_segment(clean, NS2):.3f} ACKs per segment received against "
        f"{_acks_per_segment(clean, ''):.3f}"
        if len(clean)
        else ""
    )
    return (
        "Counted alike, ACKs of data only: ns-2.35's one-way agents, as the paper ran them, have no handshake, and "
        f"wattnet's handshake ACKs ({handshake:.2f} per transfer) are left out. At n 25, d 2 ms with errors "
        f"({_replications(setting)}, averaged over QL) ns-2.35's clients send {_by_queue(more_acks, 1)} more ACKs per "
        f"transfer than wattnet's: {_by_queue(from_segments, 1)} of them because they receive more segments "
        f"(duplicates), {_by_queue(from_rate, 1)} because they answer a segment with an ACK more often "
        f"({_by_queue(rate_theirs.to_dict(), 3)} ACKs per segment against {_by_queue(rate_ours.to_dict(), 3)})"
        f"{without_errors}. A case's ACKs per transfer vary from seed to seed by up to {sd:.1f} (SD)."
    )
