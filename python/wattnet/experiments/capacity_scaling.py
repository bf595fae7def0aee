"""Panarello, Lombardo, Schembra, Meo, Mellia, Ajmone Marsan, "Network interface power management
and TCP congestion control: a troubled marriage" (Australian Journal of Electrical and Electronics
Engineering 13(1), 2016), §6: practRA on N1 of the chain S — N1 — N2 — N3 — D against one long-lived
TCP NewReno flow, TCPonly vs TCP+PC, over RTT × mRCI (Figs. 3–8).

    wattnet reproduce capacity-scaling --quick --out out/cs

Scenario: N1→N2 at most 10 Mb/s, practRA over {1, …, 10} Mb/s with d = 10 ms, δ = 1 ms, w = 0.25
(wattnet defaults: the paper gives none of them) and T_s = mRCI (the default; the 1 ms reading runs
beside it), buffers of N1, N2, N3 = one BDP (⌈10 Mb/s·RTT/1500 B⌉ packets, at least 2), NewReno with
the ``ns2`` profile (the paper ran ns-2), MSS 1460 B (1500 B packets).

The receive window is a study parameter (``receive_window_bytes``): the paper does not give it,
ns-2.35's ``window_`` default (20 packets) would cap a 100 ms-RTT flow at 2.4 Mb/s, which the paper's
Fig. 4b (TCPonly back at 10 Mb/s) excludes, so the default keeps the window out of the way (1 GiB);
65 535 B and 85 000 B run beside it for the A3 sensitivity table. The ns-2.35 column of every
target comes from ``validation/studies/capacity_scaling`` (the same chain in Tcl, practRA emulated).
"""

from __future__ import annotations

import html
import json
import math
from pathlib import Path
from typing import Any, TypedDict

import numpy as np
import pandas as pd

from wattnet.experiments import CAPACITY_SCALING_PAPER
from wattnet.experiments.report import (
    check,
    judge,
    plt,
    reference_checks,
    reference_rows,
    rounded,
    save_figure,
    stage,
    table_html,
    write_checks,
    write_report,
    write_tables,
)
from wattnet.scenario import Scenario
from wattnet.sweep import mean_ci, require_done, sweep
from wattnet.topology.chain import chain

NAME = "capacity-scaling"
PORT = "N1->N2"
R_MAX = 10e6
RATES_BPS = [m * 1e6 for m in range(1, 11)]

# wattnet defaults (the paper leaves them out).
PRACTRA = {"delay_bound_s": 0.010, "ewma_weight": 0.25}
TRANSITION_S = 0.001
RECORDER_BIN_S = 0.1  # the arrival-rate bin (the paper does not give it)


class Grid(TypedDict):
    """A run grid: the RTTs and mRCIs swept, each run's duration and the replications per point."""

    rtts_s: list[float]
    mrcis_s: list[float]
    duration_s: float
    replications: int


FULL: Grid = {
    "rtts_s": [0.001, 0.01, 0.05, 0.1],
    "mrcis_s": [0.01, 0.05, 0.1, 0.5, 1.0],
    "duration_s": 300.0,
    "replications": 10,
}
QUICK: Grid = {"rtts_s": [0.01, 0.1], "mrcis_s": [0.01, 0.05, 0.1, 0.5, 1.0], "duration_s": 60.0, "replications": 1}

# The receive-window readings: None = the 1 GiB default (never the limit), 65535 = 64 KB, and
# 85 000 B, a window that caps a 100 ms-RTT flow at ≈ 6.8 Mb/s (inside A3's band) to test whether
# any window reproduces A3 together with A4 and A5.
RWND_READINGS: list[int | None] = [None, 65535, 85_000]
PRIMARY_RWND: int | None = None
# §6.2: bursty background with mean burst bON = 100 ms (the only case the paper shows), peak
# rate 10 Mb/s (wattnet's default; the paper does not give it).
BON_S = 0.1
BACKGROUND_PEAK_BPS = 10e6
# §6.3: N2→N3's available bandwidth redrawn from U[1, 10] Mb/s every Exp(BN);
# BN = 50 ms with the bON = 100 ms background is the case the paper shows (Fig. 7 and 8).
BN_S = 0.05
# Each case: (background bON, bottleneck BN); None leaves that disturbance out. "Ts1ms" is the
# single source again with practRA sampling the arrival rate every 1 ms instead of once per mRCI.
CASES = {"single": (None, None), "bON": (BON_S, None), "BN": (BON_S, BN_S), "Ts1ms": (None, None)}
SAMPLE_1MS_S = 0.001
BASE_SEED = 1


def rwnd_label(rwnd: int | None) -> str:
    return "unlimited (1 GiB)" if rwnd is None or (isinstance(rwnd, float) and math.isnan(rwnd)) else f"{int(rwnd)} B"


def practra(mrci_s: float, sample_interval_s: float | None = None) -> dict[str, Any]:
    """practRA at ``mrci_s``, sampling once per mRCI unless ``sample_interval_s`` is given."""
    controller = {"type": "practra", "rates_bps": RATES_BPS, "min_rate_change_interval_s": mrci_s, **PRACTRA}
    if sample_interval_s is not None:
        controller["sample_interval_s"] = sample_interval_s
    return controller


def background_flow(on_mean_s: float) -> dict[str, Any]:
    """bursts every 1 s (fixed phase) of Exp(bON) length truncated at 1 s, UDP CBR
    at 10 Mb/s in 1500 B packets, from B (on N1) to D along the TCP flow's path."""
    return {
        "name": "background", "src": "B", "dst": "D",
        "traffic": {"type": "on_off", "peak_rate_bps": BACKGROUND_PEAK_BPS, "on_mean_s": on_mean_s, "cycle_s": 1.0},
        "packet_size": {"type": "fixed", "bytes": 1500},
    }  # fmt: skip


def base_scenario(
    rtt_s: float,
    duration_s: float,
    receive_window_bytes: int | None = None,
    background_on_mean_s: float | None = None,
    bottleneck_mean_s: float | None = None,
) -> Scenario:
    """The TCPonly chain at ``rtt_s``: one NewReno bulk flow S → D (with the bursty background of
    §6.2 when ``background_on_mean_s`` is given, and §6.3's varying N2→N3 bandwidth when
    ``bottleneck_mean_s`` is), N1→N2 recorded every 100 ms."""
    topology = chain(rtt_s)
    links = topology.links
    n1_n2 = next(link for link in links if (link["a"], link["b"]) == ("N1", "N2"))
    n1_n2["transition_s"] = TRANSITION_S
    if bottleneck_mean_s is not None:
        n2_n3 = next(link for link in links if (link["a"], link["b"]) == ("N2", "N3"))
        n2_n3["a_to_b"] = {"available_bandwidth": {"type": "uniform", "mean_interval_s": bottleneck_mean_s,
                                                   "min_rate_bps": 1e6, "max_rate_bps": R_MAX}}  # fmt: skip
    tcp: dict[str, Any] = {"profile": "ns2", "mss_bytes": 1460}
    if receive_window_bytes is not None:
        tcp["receive_window_bytes"] = int(receive_window_bytes)
    flows = [{"name": "tcp", "src": "S", "dst": "D", "traffic": {"type": "bulk"}, "tcp": tcp}]
    if background_on_mean_s is not None:
        flows.append(background_flow(background_on_mean_s))
    return topology.scenario(
        name=f"capacity-scaling-rtt{rtt_s * 1000:g}ms",
        seed=BASE_SEED,
        duration_s=duration_s,
        flows=flows,
        recorder={"interval_s": RECORDER_BIN_S, "ports": [PORT], "quantities": ["rate_bps", "arrival_rate_bps"]},
    )


def _controller_path(scenario: Scenario) -> str:
    index = next(i for i, link in enumerate(scenario.links) if (link.a, link.b) == ("N1", "N2"))
    return f"links[{index}].a_to_b.controller"


# ---------------------------------------------------------------------------------------------
# Running
# ---------------------------------------------------------------------------------------------


def run_grid(
    out: Path,
    config: Grid,
    rwnds: list[int | None],
    executor: Any = "local",
    workers: int | None = None,
    progress: bool = False,
    case: str = "single",
) -> pd.DataFrame:
    """Sweeps every RTT (one store each under ``out/store``) and returns one row per run: case
    (``single`` or ``bON``), rtt_ms, mode (TCPonly / TCP+PC), mrci_ms (NaN for TCPonly), rwnd,
    replication and the metrics."""
    rows = []
    for rtt_s in config["rtts_s"]:
        bon, bn = CASES[case]
        base = base_scenario(rtt_s, config["duration_s"], background_on_mean_s=bon, bottleneck_mean_s=bn)
        controller_path = _controller_path(base)
        sample = SAMPLE_1MS_S if case == "Ts1ms" else None
        controllers = [None] + [practra(m, sample) for m in config["mrcis_s"]]
        grid = {controller_path: controllers, "flows[0].tcp.receive_window_bytes": list(rwnds)}
        store = out / "store" / ("" if case == "single" else case) / f"rtt_{rtt_s * 1000:g}ms"
        table = sweep(
            base,
            grid,
            config["replications"],
            out=store,
            executor=executor,
            workers=workers,
            progress=progress and f"{NAME} {case} RTT {rtt_s * 1000:g} ms",
        )
        require_done(table, store)
        for _, run in table.iterrows():
            controller = run[controller_path]
            if isinstance(controller, str):
                controller = json.loads(controller)
            rwnd = run["flows[0].tcp.receive_window_bytes"]
            rwnd = None if rwnd is None or (isinstance(rwnd, float) and math.isnan(rwnd)) else int(rwnd)
            rows.append(
                {
                    "case": case,
                    "rtt_ms": rtt_s * 1000,
                    "mode": "TCPonly" if controller is None else "TCP+PC",
                    "mrci_ms": math.nan if controller is None else controller["min_rate_change_interval_s"] * 1000,
                    "rwnd": rwnd_label(rwnd),
                    "replication": int(run["replication"]),
                    "seed": int(run["seed"]),
                    **run_metrics(store / "runs" / run["key"], config["duration_s"]),
                    "key": run["key"],
                    "store": str(store.relative_to(out)),
                }
            )
    return pd.DataFrame(rows)


def run_metrics(run_dir: Path, duration_s: float) -> dict[str, float]:
    """The measures for one run: r̄ of N1's port, its rate changes, the flow's goodput and loss %."""
    ports = pd.read_parquet(run_dir / "ports.parquet").set_index("port")
    flows = pd.read_parquet(run_dir / "flows.parquet").set_index("flow")
    connections = pd.read_parquet(run_dir / "connections.parquet")
    connections = connections[connections["flow"] == "tcp"]
    data_sent = float(connections["data_packets_sent"].sum())
    dropped = float(flows["dropped_packets"].loc["tcp"])
    return {
        "mean_rate_mbps": float(ports["mean_rate_bps"].loc[PORT]) / 1e6,
        "rate_changes": int(ports["rate_changes"].loc[PORT]),
        "goodput_mbps": float(flows["delivered_bytes"].loc["tcp"]) * 8 / duration_s / 1e6,
        "data_packets_sent": int(data_sent),
        "tcp_packets_dropped": int(dropped),
        "loss_pct": 100 * dropped / data_sent if data_sent else math.nan,
        "retransmissions": int(connections["retransmissions"].sum()),
        "timeouts": int(connections["timeouts"].sum()),
    }


def add_throughput_reduction(runs: pd.DataFrame) -> pd.DataFrame:
    """(G_TCPonly − G_TCP+PC)/G_TCPonly × 100 against the TCPonly run of the same RTT, rwnd and
    replication (same seed: common random numbers); 0 for the TCPonly rows themselves."""
    only = runs[runs["mode"] == "TCPonly"].set_index(["case", "rtt_ms", "rwnd", "replication"])["goodput_mbps"]
    reference = runs.set_index(["case", "rtt_ms", "rwnd", "replication"]).index.map(only.get)
    runs = runs.copy()
    runs["tcponly_goodput_mbps"] = np.asarray(reference, dtype=float)
    runs["throughput_reduction_pct"] = (
        100 * (runs["tcponly_goodput_mbps"] - runs["goodput_mbps"]) / runs["tcponly_goodput_mbps"]
    )
    runs["tcponly_loss_pct"] = np.asarray(
        runs.set_index(["case", "rtt_ms", "rwnd", "replication"]).index.map(
            runs[runs["mode"] == "TCPonly"].set_index(["case", "rtt_ms", "rwnd", "replication"])["loss_pct"].get
        ),
        dtype=float,
    )
    return runs


def summarise(runs: pd.DataFrame) -> pd.DataFrame:
    """The Fig. 3 table: per rwnd reading, RTT and mRCI (TCP+PC), means and 95 % CI half-widths."""
    pc = runs[runs["mode"] == "TCP+PC"]
    rows = []
    for (case, rwnd, rtt, mrci), group in pc.groupby(["case", "rwnd", "rtt_ms", "mrci_ms"], sort=True):
        row: dict[str, Any] = {"case": case, "rwnd": rwnd, "rtt_ms": rtt, "mrci_ms": mrci, "replications": len(group)}
        for column in ["mean_rate_mbps", "throughput_reduction_pct", "rate_changes", "loss_pct", "tcponly_loss_pct",
                       "goodput_mbps", "tcponly_goodput_mbps"]:  # fmt: skip
            mean, half = mean_ci(group[column].astype(float).to_numpy())
            row[column] = mean
            row[f"{column}_ci95"] = half
        rows.append(row)
    return pd.DataFrame(rows)


# ---------------------------------------------------------------------------------------------
# Time series (Fig. 4) and the trace measures of A5 and A6
# ---------------------------------------------------------------------------------------------


def trace(out: Path, run: pd.Series) -> pd.DataFrame:
    """N1's service rate and arrival rate (Mb/s) per 100 ms bin, indexed by time_s."""
    ts = pd.read_parquet(out / run["store"] / "runs" / run["key"] / "timeseries.parquet")
    ts = ts[ts["entity"] == PORT]
    wide = ts.pivot_table(index="time_s", columns="quantity", values="value")
    return wide[["rate_bps", "arrival_rate_bps"]] / 1e6


def recovery_times(arrival_mbps: pd.Series, skip_s: float = 5.0) -> list[float]:
    """Times (s) the arrival rate at N1 takes to get back to 9.5 Mb/s after falling below 7 Mb/s
    from ≥ 9 Mb/s (a 0.5 s moving average of the 100 ms bins; the first ``skip_s`` ignored)."""
    smooth = arrival_mbps.rolling(5, min_periods=1).mean()
    times, values = smooth.index.to_numpy(), smooth.to_numpy()
    episodes, armed, dropped_at = [], False, None
    for t, v in zip(times, values):
        if t < skip_s:
            continue
        if dropped_at is None:
            if v >= 9.0:
                armed = True
            elif armed and v < 7.0:
                dropped_at, armed = t, False
        elif v >= 9.5:
            episodes.append(float(t - dropped_at))
            dropped_at, armed = None, True
    return episodes


def wasted_rate(tr: pd.DataFrame) -> float:
    """Mean of max(service rate − arrival rate, 0) in Mb/s: capacity kept on that TCP did not use."""
    return float((tr["rate_bps"] - tr["arrival_rate_bps"]).clip(lower=0).mean())


# ---------------------------------------------------------------------------------------------
# Checks (A1–A6)
# ---------------------------------------------------------------------------------------------


def _point(summary: pd.DataFrame, rtt: float, mrci: float) -> pd.Series:
    return summary[(summary["rtt_ms"] == rtt) & (summary["mrci_ms"] == mrci)].iloc[0]


def checks(trace_of: Any, all_runs: pd.DataFrame, all_summary: pd.DataFrame, config: Grid) -> list[dict[str, Any]]:
    """A1–A12 from the runs, their summary and ``trace_of(run)`` (a run's 100 ms trace, as ``trace``)."""
    return single_checks(trace_of, all_runs, all_summary, config) + later_checks(
        trace_of, all_runs, all_summary, config
    )


def later_checks(
    trace_of: Any, all_runs: pd.DataFrame, all_summary: pd.DataFrame, config: Grid
) -> list[dict[str, Any]]:
    """A7–A12: the background, the bottleneck and the trends."""
    primary_summary = all_summary[all_summary["rwnd"] == rwnd_label(PRIMARY_RWND)]
    return (
        background_checks(primary_summary[primary_summary["case"] == "bON"], config)
        + bottleneck_checks(trace_of, all_runs, primary_summary, config)
        + [trend_check(primary_summary, config)]
    )


def single_checks(
    trace_of: Any, all_runs: pd.DataFrame, all_summary: pd.DataFrame, config: Grid
) -> list[dict[str, Any]]:
    """A1–A6: the single source."""
    runs, summary = all_runs[all_runs["case"] == "single"], all_summary[all_summary["case"] == "single"]
    rtt_lo, rtt_hi = min(config["rtts_s"]) * 1000, max(config["rtts_s"]) * 1000
    mrci_lo, mrci_hi = min(config["mrcis_s"]) * 1000, max(config["mrcis_s"]) * 1000
    s = summary[summary["rwnd"] == rwnd_label(PRIMARY_RWND)]
    a1, a2 = _point(s, rtt_lo, mrci_hi), _point(s, rtt_lo, mrci_lo)
    hi = s[s["rtt_ms"] == rtt_hi]
    lo = s[s["rtt_ms"] == rtt_lo]
    hi_small, hi_large = _point(s, rtt_hi, mrci_lo), _point(s, rtt_hi, mrci_hi)
    out_checks = []

    loss_gap = abs(a1["loss_pct"] - a1["tcponly_loss_pct"])
    out_checks.append({
        "id": "A1",
        "description": f"RTT {rtt_lo:g} ms, mRCI {mrci_hi:g} ms: r̄ ≈ 10 Mb/s, throughput reduction ≈ 0, loss ≈ TCPonly's",
        "paper_value": {"mean_rate_mbps": 10.0, "throughput_reduction_pct": 0.0, "loss_pct": "≈ TCPonly"},
        "wattnet_value": {"mean_rate_mbps": rounded(a1["mean_rate_mbps"]), "throughput_reduction_pct": rounded(a1["throughput_reduction_pct"]),
                          "loss_pct": rounded(a1["loss_pct"], 3), "tcponly_loss_pct": rounded(a1["tcponly_loss_pct"], 3)},
        "tolerance": "r̄ ≥ 9.0 Mb/s (one rate step); reduction ≤ 5 %; |loss − TCPonly loss| ≤ 0.5 points",
        "pass": bool(a1["mean_rate_mbps"] >= 9.0 and a1["throughput_reduction_pct"] <= 5 and loss_gap <= 0.5),
    })  # fmt: skip
    out_checks.append({
        "id": "A2",
        "description": f"RTT {rtt_lo:g} ms, mRCI {mrci_lo:g} ms: small reduction of r̄ and slight degradation",
        "paper_value": "r̄ a little below 10 Mb/s and below the large-mRCI r̄; small throughput reduction",
        "wattnet_value": {"mean_rate_mbps": rounded(a2["mean_rate_mbps"]), "mean_rate_mbps_large_mrci": rounded(a1["mean_rate_mbps"]),
                          "throughput_reduction_pct": rounded(a2["throughput_reduction_pct"])},
        "tolerance": "8.0 ≤ r̄ < 10 Mb/s and r̄ ≤ r̄(large mRCI); 0 < reduction ≤ 15 %",
        "pass": bool(8.0 <= a2["mean_rate_mbps"] < 10.0 and a2["mean_rate_mbps"] <= a1["mean_rate_mbps"]
                     and 0 < a2["throughput_reduction_pct"] <= 15),
    })  # fmt: skip
    r_hi = {f"mRCI {m:g} ms": rounded(v) for m, v in zip(hi["mrci_ms"], hi["mean_rate_mbps"])}
    out_checks.append({
        "id": "A3",
        "description": f"RTT {rtt_hi:g} ms: r̄ 20–40 % below 10 Mb/s",
        "paper_value": {"mean_rate_mbps": [6.0, 8.0]},
        "wattnet_value": {"mean_rate_mbps": r_hi},
        "tolerance": "every mRCI's r̄ within [6, 8] Mb/s (the paper's band)",
        "pass": bool(((hi["mean_rate_mbps"] >= 6.0) & (hi["mean_rate_mbps"] <= 8.0)).all()),
    })  # fmt: skip
    changes_hi, changes_lo = hi["rate_changes"].mean(), lo["rate_changes"].mean()
    out_checks.append({
        "id": "A4",
        "description": f"RTT {rtt_hi:g} ms: many rate changes; higher throughput reduction and loss than at RTT {rtt_lo:g} ms; both worse for small mRCI",
        "paper_value": "reduction and loss higher at RTT 100 ms than at small RTT, and higher for small mRCI",
        "wattnet_value": {
            "throughput_reduction_pct": {f"RTT {rtt_hi:g}": rounded(hi["throughput_reduction_pct"].mean()), f"RTT {rtt_lo:g}": rounded(lo["throughput_reduction_pct"].mean())},
            "loss_pct": {f"RTT {rtt_hi:g}": rounded(hi["loss_pct"].mean(), 3), f"RTT {rtt_lo:g}": rounded(lo["loss_pct"].mean(), 3)},
            "rate_changes": {f"RTT {rtt_hi:g}": rounded(changes_hi, 1), f"RTT {rtt_lo:g}": rounded(changes_lo, 1)},
            f"RTT {rtt_hi:g}, mRCI {mrci_lo:g} vs {mrci_hi:g}": {
                "throughput_reduction_pct": [rounded(hi_small["throughput_reduction_pct"]), rounded(hi_large["throughput_reduction_pct"])],
                "loss_pct": [rounded(hi_small["loss_pct"], 3), rounded(hi_large["loss_pct"], 3)]},
        },
        "tolerance": "qualitative: each of the four orderings holds (means over mRCI for the RTT comparison)",
        "pass": bool(hi["throughput_reduction_pct"].mean() > lo["throughput_reduction_pct"].mean()
                     and hi["loss_pct"].mean() > lo["loss_pct"].mean()
                     and hi_small["throughput_reduction_pct"] >= hi_large["throughput_reduction_pct"]
                     and hi_small["loss_pct"] >= hi_large["loss_pct"]),
    })  # fmt: skip

    primary = runs[(runs["rwnd"] == rwnd_label(PRIMARY_RWND)) & (runs["replication"] == 0) & (runs["rtt_ms"] == rtt_hi)]
    only = primary[primary["mode"] == "TCPonly"].iloc[0]
    pc_small = primary[(primary["mode"] == "TCP+PC") & (primary["mrci_ms"] == mrci_lo)].iloc[0]
    pc_large = primary[(primary["mode"] == "TCP+PC") & (primary["mrci_ms"] == mrci_hi)].iloc[0]
    rec_only = recovery_times(trace_of(only)["arrival_rate_bps"])
    rec_pc = recovery_times(trace_of(pc_small)["arrival_rate_bps"])
    med_only = float(np.median(rec_only)) if rec_only else None
    med_pc = float(np.median(rec_pc)) if rec_pc else None
    out_checks.append({
        "id": "A5",
        "description": f"RTT {rtt_hi:g} ms, mRCI {mrci_lo:g} ms: after a drop of the sending rate, TCP needs ≈ 6 s to get back to 10 Mb/s in TCPonly vs ≈ 14 s in TCP+PC",
        "paper_value": {"recovery_s_tcponly": 6.0, "recovery_s_tcp_pc": 14.0},
        "wattnet_value": {"recovery_s_tcponly": rounded(med_only), "recovery_s_tcp_pc": rounded(med_pc),
                          "episodes_tcponly": len(rec_only), "episodes_tcp_pc": len(rec_pc)},
        "tolerance": "medians over episodes (arrival rate at N1, 0.5 s average, from < 7 back to ≥ 9.5 Mb/s) within ±50 % of 6 s and 14 s; no episode fails",
        "pass": bool(med_only is not None and med_pc is not None and 3 <= med_only <= 9 and 7 <= med_pc <= 21),
    })  # fmt: skip
    waste_small, waste_large = wasted_rate(trace_of(pc_small)), wasted_rate(trace_of(pc_large))
    out_checks.append({
        "id": "A6",
        "description": f"RTT {rtt_hi:g} ms, mRCI {mrci_hi:g} ms: the service rate lags TCP's decreases (wasted capacity)",
        "paper_value": "service rate above the arrival rate for longer at large mRCI than at small mRCI",
        "wattnet_value": {"mean_excess_rate_mbps": {f"mRCI {mrci_hi:g} ms": rounded(waste_large, 3), f"mRCI {mrci_lo:g} ms": rounded(waste_small, 3)}},
        "tolerance": "qualitative: mean max(r − arrival, 0) larger at the large mRCI (rise slopes not checked)",
        "pass": bool(waste_large > waste_small),
    })  # fmt: skip
    return out_checks


def background_checks(bon: pd.DataFrame, config: Grid) -> list[dict[str, Any]]:
    """A7–A9 (§6.2, Fig. 5) on the bON = 100 ms runs of the primary window reading."""
    bon = bon[bon["rwnd"] == rwnd_label(PRIMARY_RWND)]
    rtt_lo, rtt_hi = min(config["rtts_s"]) * 1000, max(config["rtts_s"]) * 1000
    mrci_lo, mrci_hi = min(config["mrcis_s"]) * 1000, max(config["mrcis_s"]) * 1000
    by_rtt = bon.groupby("rtt_ms")[["mean_rate_mbps", "rate_changes", "throughput_reduction_pct"]].mean()
    by_mrci = bon.groupby("mrci_ms")["rate_changes"].mean()
    lo, hi = by_rtt.loc[rtt_lo], by_rtt.loc[rtt_hi]
    loss_up = bool((bon["loss_pct"] > bon["tcponly_loss_pct"]).all())
    return [
        {
            "id": "A7",
            "description": f"bON {BON_S * 1000:g} ms: r̄ well below 10 Mb/s, more so at large RTT",
            "paper_value": "r̄ well below 10 Mb/s; lower at RTT 100 ms than at small RTT",
            "wattnet_value": {"mean_rate_mbps": {f"RTT {r:g}": rounded(v) for r, v in by_rtt["mean_rate_mbps"].items()}},
            "tolerance": "mean r̄ over the grid ≤ 9 Mb/s (one rate step below r_MAX) and r̄(RTT max) < r̄(RTT min)",
            "pass": bool(bon["mean_rate_mbps"].mean() <= 9.0 and hi["mean_rate_mbps"] < lo["mean_rate_mbps"]),
        },
        {
            "id": "A8",
            "description": f"bON {BON_S * 1000:g} ms: rate changes rise slightly with RTT and substantially with mRCI",
            "paper_value": "changes(RTT max) a little above changes(RTT min); changes(mRCI max) well above changes(mRCI min)",
            "wattnet_value": {"rate_changes_by_rtt": {f"RTT {r:g}": rounded(v, 1) for r, v in by_rtt["rate_changes"].items()},
                              "rate_changes_by_mrci": {f"mRCI {m:g}": rounded(v, 1) for m, v in by_mrci.items()}},
            "tolerance": "1 ≤ changes(RTT max)/changes(RTT min) ≤ 1.5 and changes(mRCI max) ≥ 2 × changes(mRCI min)",
            "pass": bool(lo["rate_changes"] > 0 and 1.0 <= hi["rate_changes"] / lo["rate_changes"] <= 1.5
                         and by_mrci.loc[mrci_hi] >= 2 * by_mrci.loc[mrci_lo]),
        },
        {
            "id": "A9",
            "description": f"bON {BON_S * 1000:g} ms: loss higher than TCPonly; throughput reduction huge, especially at large RTT",
            "paper_value": "loss(TCP+PC) > loss(TCPonly) everywhere; large reduction, larger at RTT 100 ms",
            "wattnet_value": {"loss_pct": {f"RTT {r:g} mRCI {m:g}": [rounded(a, 3), rounded(b, 3)]
                                           for r, m, a, b in zip(bon["rtt_ms"], bon["mrci_ms"], bon["loss_pct"], bon["tcponly_loss_pct"])},
                              "throughput_reduction_pct": {f"RTT {r:g}": rounded(v) for r, v in by_rtt["throughput_reduction_pct"].items()}},
            "tolerance": "loss above TCPonly's at every point; mean reduction ≥ 20 % and larger at RTT max than at RTT min",
            "pass": bool(loss_up and bon["throughput_reduction_pct"].mean() >= 20
                         and hi["throughput_reduction_pct"] > lo["throughput_reduction_pct"]),
        },
    ]  # fmt: skip


def bottleneck_checks(trace_of: Any, runs: pd.DataFrame, summary: pd.DataFrame, config: Grid) -> list[dict[str, Any]]:
    """A10 (Fig. 7 against Fig. 5) and A11 (Fig. 8): the varying bottleneck against the background alone."""
    rtt_lo, rtt_hi = min(config["rtts_s"]) * 1000, max(config["rtts_s"]) * 1000
    columns = ["mean_rate_mbps", "throughput_reduction_pct", "rate_changes", "loss_pct", "tcponly_loss_pct"]
    bon = summary[summary["case"] == "bON"].groupby("rtt_ms")[columns].mean()
    bn = summary[summary["case"] == "BN"].groupby("rtt_ms")[columns].mean()
    saving_gain = bon["mean_rate_mbps"] - bn["mean_rate_mbps"]  # r̄ lower with the bottleneck: more saving
    reduction_gain = bon["throughput_reduction_pct"] - bn["throughput_reduction_pct"]
    changes_ratio = bn["rate_changes"].sum() / bon["rate_changes"].sum()
    bn_points = summary[summary["case"] == "BN"]
    a10 = check(
        "A10",
        f"BN {BN_S * 1000:g} ms + bON {BON_S * 1000:g} ms vs bON alone: higher saving (esp. small RTT), lower throughput "
        "reduction (esp. large RTT), similar rate-change counts, loss and reduction still present",
        "r̄(BN) < r̄(bON), gap largest at small RTT; reduction(BN) < reduction(bON), gap largest at large RTT; changes similar",
        {
            "mean_rate_mbps": {f"RTT {r:g}": [rounded(bon.loc[r, "mean_rate_mbps"]), rounded(bn.loc[r, "mean_rate_mbps"])] for r in bn.index},
            "throughput_reduction_pct": {f"RTT {r:g}": [rounded(bon.loc[r, "throughput_reduction_pct"]), rounded(bn.loc[r, "throughput_reduction_pct"])] for r in bn.index},
            "rate_changes_ratio_bn_to_bon": rounded(changes_ratio),
            "pairs": "[bON, BN], means over mRCI",
        },
        "r̄ lower at every RTT with the gap at RTT min ≥ the gap at RTT max; reduction lower at every RTT with the gap at RTT max ≥ "
        "the gap at RTT min; 0.5 ≤ changes ratio ≤ 2; BN loss > TCPonly loss and reduction > 0 at every point",
        bool((saving_gain > 0).all() and saving_gain.loc[rtt_lo] >= saving_gain.loc[rtt_hi]
             and (reduction_gain > 0).all() and reduction_gain.loc[rtt_hi] >= reduction_gain.loc[rtt_lo]
             and 0.5 <= changes_ratio <= 2
             and (bn_points["loss_pct"] > bn_points["tcponly_loss_pct"]).all() and (bn_points["throughput_reduction_pct"] > 0).all()),
    )  # fmt: skip
    # A11: the arrival rate at N1, median of the 100 ms bins (the background's 1-in-10 bursts do not
    # move a median), in the TCP+PC run at RTT max and mRCI min, with and without the bottleneck.
    mrci_lo = min(config["mrcis_s"]) * 1000
    medians = {}
    for case in ["BN", "bON"]:
        run = runs[
            (runs["case"] == case)
            & (runs["rtt_ms"] == rtt_hi)
            & (runs["mrci_ms"] == mrci_lo)
            & (runs["replication"] == 0)
        ]
        medians[case] = float(trace_of(run.iloc[0])["arrival_rate_bps"].median())
    a11 = check(
        "A11",
        f"BN {BN_S * 1000:g} ms: after a loss the arrival rate at N1 climbs to ≤ 5 Mb/s (apart from background spikes) "
        "vs ≈ 10 Mb/s without the bottleneck",
        {"arrival_mbps_with_bottleneck": "≤ 5", "arrival_mbps_without": "≈ 10"},
        {"median_arrival_mbps_with_bottleneck": rounded(medians["BN"]), "median_arrival_mbps_without": rounded(medians["bON"]),
         "run": f"TCP+PC, RTT {rtt_hi:g} ms, mRCI {mrci_lo:g} ms"},
        "median of the 100 ms arrival-rate bins ≤ 5.5 Mb/s with the bottleneck (its mean bandwidth) and ≥ 8 Mb/s without",
        medians["BN"] <= 5.5 and medians["bON"] >= 8.0,
    )  # fmt: skip
    return [a10, a11]


def trend_check(summary: pd.DataFrame, config: Grid) -> dict[str, Any]:
    """A12 (§7): in every case, saving (1 − r̄/10 Mb/s) and throughput reduction rise with RTT and
    as mRCI falls (means over the other parameter)."""
    rtt_lo, rtt_hi = min(config["rtts_s"]) * 1000, max(config["rtts_s"]) * 1000
    mrci_lo, mrci_hi = min(config["mrcis_s"]) * 1000, max(config["mrcis_s"]) * 1000
    values, ok = {}, True
    if not {"single", "bON", "BN"} <= set(summary["case"]):
        raise KeyError("A12 needs the single, bON and BN cases")
    for case, group in summary[summary["case"].isin(["single", "bON", "BN"])].groupby("case"):
        saving = 100 * (1 - group["mean_rate_mbps"] / (R_MAX / 1e6))
        frame = group.assign(saving_pct=saving)
        by_rtt = frame.groupby("rtt_ms")[["saving_pct", "throughput_reduction_pct"]].mean()
        by_mrci = frame.groupby("mrci_ms")[["saving_pct", "throughput_reduction_pct"]].mean()
        rises = {
            "saving with RTT": bool(by_rtt["saving_pct"].loc[rtt_hi] > by_rtt["saving_pct"].loc[rtt_lo]),
            "reduction with RTT": bool(by_rtt["throughput_reduction_pct"].loc[rtt_hi] > by_rtt["throughput_reduction_pct"].loc[rtt_lo]),
            "saving as mRCI falls": bool(by_mrci["saving_pct"].loc[mrci_lo] > by_mrci["saving_pct"].loc[mrci_hi]),
            "reduction as mRCI falls": bool(by_mrci["throughput_reduction_pct"].loc[mrci_lo] > by_mrci["throughput_reduction_pct"].loc[mrci_hi]),
        }  # fmt: skip
        ok = ok and all(rises.values())
        values[case] = {
            "saving_pct_by_rtt": {f"RTT {r:g}": rounded(v) for r, v in by_rtt["saving_pct"].items()},
            "reduction_pct_by_rtt": {f"RTT {r:g}": rounded(v) for r, v in by_rtt["throughput_reduction_pct"].items()},
            "saving_pct_by_mrci": {f"mRCI {m:g}": rounded(v) for m, v in by_mrci["saving_pct"].items()},
            "reduction_pct_by_mrci": {
                f"mRCI {m:g}": rounded(v) for m, v in by_mrci["throughput_reduction_pct"].items()
            },
            "holds": rises,
        }
    return check(
        "A12",
        "For rising RTT and falling mRCI, both the energy saving and the TCP degradation rise (single, bON and BN cases)",
        "saving and throughput reduction larger at RTT max than at RTT min, and at mRCI min than at mRCI max",
        values,
        "all four inequalities in every case (means over the other parameter)",
        ok,
    )


def a3_readings(runs: pd.DataFrame, summary: pd.DataFrame, rtt_ms: float) -> pd.DataFrame:
    """Per receive-window reading at ``rtt_ms``: practRA's r̄ range over mRCI, whether it falls in
    A3's 6–8 Mb/s band, and whether TCPonly is window-limited (goodput below 90 % of the link, no
    loss) — A4 and A5 need losses and a TCPonly flow that gets back to 10 Mb/s."""
    runs, summary = runs[runs["case"] == "single"], summary[summary["case"] == "single"]
    rows = []
    for rwnd, group in summary[summary["rtt_ms"] == rtt_ms].groupby("rwnd", sort=False):
        only = runs[(runs["rtt_ms"] == rtt_ms) & (runs["rwnd"] == rwnd) & (runs["mode"] == "TCPonly")]
        low, high = group["mean_rate_mbps"].min(), group["mean_rate_mbps"].max()
        rows.append({
            "rwnd": rwnd,
            "r_bar_min_mbps": low,
            "r_bar_max_mbps": high,
            "r_bar_in_6_8_band": bool(low >= 6.0 and high <= 8.0),
            "tcponly_goodput_mbps": only["goodput_mbps"].mean(),
            "tcponly_loss_pct": only["loss_pct"].mean(),
            "tcponly_window_limited": bool(only["goodput_mbps"].mean() < 9.0 and only["tcp_packets_dropped"].sum() == 0),
        })  # fmt: skip
    return pd.DataFrame(rows)


# ---------------------------------------------------------------------------------------------
# Figures
# ---------------------------------------------------------------------------------------------


def figure3(
    summary: pd.DataFrame,
    rwnd: str,
    path: Path,
    title: str = "Fig. 3 — single TCP source",
    ns2: pd.DataFrame | None = None,
    paper_band: bool = False,
) -> list[Path]:
    """The paper's Fig. 3 layout, (a)–(d), with (e) the energy saving 1 − r̄/r_MAX; ns-2.35's values
    on the same scenario dotted where the reference has them, and (``paper_band``) the paper's
    r̄ of 6–8 Mb/s at the largest RTT (A3) shaded. The legend has its own panel."""
    pyplot = plt()
    fig, axes = pyplot.subplots(2, 3, figsize=(14, 7.5))
    panels = [
        ("mean_rate_mbps", "(a) average service rate [Mb/s]"),
        ("throughput_reduction_pct", "(b) throughput reduction TCP+PC vs TCPonly [%]"),
        ("rate_changes", "(c) number of service-rate changes"),
        ("loss_pct", "(d) packet loss [%]"),
        ("saving_pct", "(e) energy saving 1 − r̄/10 Mb/s [%]"),
    ]
    data = summary[summary["rwnd"] == rwnd].assign(saving_pct=lambda f: 100 * (1 - f["mean_rate_mbps"] / (R_MAX / 1e6)))
    data["saving_pct_ci95"] = 100 * data["mean_rate_mbps_ci95"] / (R_MAX / 1e6)
    reference = (
        None
        if ns2 is None or ns2.empty
        else ns2.assign(saving_pct=lambda f: 100 * (1 - f["mean_rate_mbps"] / (R_MAX / 1e6)))
    )
    for ax, (column, panel_title) in zip(axes.flat, panels):
        for rtt, group in data.groupby("rtt_ms"):
            group = group.sort_values("mrci_ms")
            line = ax.errorbar(group["mrci_ms"], group[column], yerr=group[f"{column}_ci95"].fillna(0), marker="o",
                               capsize=3, label=f"RTT {rtt:g} ms TCP+PC")  # fmt: skip
            colour = line[0].get_color()
            if column == "loss_pct":
                ax.plot(group["mrci_ms"], group["tcponly_loss_pct"], ls="--", marker="x", color=colour,
                        label=f"RTT {rtt:g} ms TCPonly")  # fmt: skip
            if reference is not None:
                ref = reference[reference["rtt_ms"] == rtt].sort_values("mrci_ms")
                if not ref.empty:
                    ax.plot(ref["mrci_ms"], ref[column], ls=":", marker="s", mfc="none", color=colour,
                            label=f"RTT {rtt:g} ms TCP+PC, ns-2.35")  # fmt: skip
        if column == "mean_rate_mbps":
            ax.set_ylim(0, 10.5)
            if paper_band:
                ax.axhspan(6, 8, color="0.85", zorder=0, label=f"paper: r̄ 6–8 Mb/s at RTT {data['rtt_ms'].max():g} ms")
        ax.set_xscale("log")
        ax.set_xlabel("mRCI [ms]")
        ax.set_title(panel_title, fontsize=10)
        ax.grid(True, alpha=0.3)
    handles: dict[str, Any] = {}
    for ax in axes.flat[:5]:
        for handle, label in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(label, handle)
    axes.flat[5].axis("off")
    axes.flat[5].legend(handles.values(), handles.keys(), loc="center", fontsize=8, frameon=False)
    fig.suptitle(f"{title} (receive window {rwnd})")
    fig.tight_layout()
    return save_figure(fig, path)


def figure4(
    out: Path, runs: pd.DataFrame, config: Grid, path: Path, case: str, title: str, span_s: float = 60.0
) -> list[Path]:
    """The paper's Fig. 4 (and 6, 8) layout for ``case``: (a) small RTT small mRCI, (b) large RTT small mRCI, (c) small RTT large
    mRCI, (d) large RTT large mRCI; service and arrival rate at N1 with TCP+PC, arrival rate in TCPonly."""
    pyplot = plt()
    rtt_lo, rtt_hi = min(config["rtts_s"]) * 1000, max(config["rtts_s"]) * 1000
    mrci_lo, mrci_hi = min(config["mrcis_s"]) * 1000, max(config["mrcis_s"]) * 1000
    data = runs[(runs["case"] == case) & (runs["rwnd"] == rwnd_label(PRIMARY_RWND)) & (runs["replication"] == 0)]
    fig, axes = pyplot.subplots(2, 2, figsize=(11, 7), sharey=True)
    for ax, (label, rtt, mrci) in zip(
        axes.flat,
        [("a", rtt_lo, mrci_lo), ("b", rtt_hi, mrci_lo), ("c", rtt_lo, mrci_hi), ("d", rtt_hi, mrci_hi)],
    ):
        pc = data[(data["rtt_ms"] == rtt) & (data["mrci_ms"] == mrci)].iloc[0]
        only = data[(data["rtt_ms"] == rtt) & (data["mode"] == "TCPonly")].iloc[0]
        tr_pc, tr_only = trace(out, pc), trace(out, only)
        tr_pc, tr_only = tr_pc[tr_pc.index <= span_s], tr_only[tr_only.index <= span_s]
        # 1 s means of the 100 ms bins, the service rate's range over that second shaded: rate changes
        # every bin or two would otherwise fill a solid band.
        smooth = {
            name: frame.rolling(10, center=True, min_periods=1) for name, frame in (("pc", tr_pc), ("only", tr_only))
        }
        low, high = smooth["pc"]["rate_bps"].min(), smooth["pc"]["rate_bps"].max()
        ax.fill_between(tr_pc.index, low, high, color="tab:red", alpha=0.2, lw=0, label="service rate range in 1 s")
        ax.plot(tr_only.index, smooth["only"]["arrival_rate_bps"].mean(), color="0.5", lw=0.8,
                label="arrival rate, TCPonly (1 s mean)")  # fmt: skip
        ax.plot(tr_pc.index, smooth["pc"]["arrival_rate_bps"].mean(), color="tab:blue", lw=0.8,
                label="arrival rate, TCP+PC (1 s mean)")  # fmt: skip
        ax.plot(tr_pc.index, smooth["pc"]["rate_bps"].mean(), color="tab:red", lw=1.0,
                label="service rate, TCP+PC (1 s mean)")  # fmt: skip
        ax.set_title(f"({label}) RTT {rtt:g} ms, mRCI {mrci:g} ms", fontsize=10)
        ax.set_xlabel("time [s]")
        ax.set_ylabel("Mb/s")
        ax.grid(True, alpha=0.3)
    handles, labels = axes.flat[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=4, fontsize=8, frameon=False)
    fig.suptitle(f"{title}: service rate and arrival rate at N1 (1 s means of 100 ms bins)")
    fig.tight_layout(rect=(0, 0.05, 1, 1))
    return save_figure(fig, path)


# ---------------------------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------------------------


def report(out: Path, config: Grid, quick: bool, runs: pd.DataFrame, summary: pd.DataFrame,
           check_list: list[dict[str, Any]], figures: list[Path], ns2_summary: pd.DataFrame | None) -> Path:  # fmt: skip
    e = html.escape
    reduced = " (reduced: --quick)" if quick else ""
    params = [
        ("topology", "S — N1 — N2 — N3 — D; N1→N2 and N2→N3 10 Mb/s", "paper"),
        ("access links", "100 Mb/s, 0 delay", "wattnet default"),
        ("one-way delays", "RTT/4 on N1–N2 and on N2–N3", "interpretation (the paper gives the RTT)"),
        ("RTT", ", ".join(f"{r * 1000:g} ms" for r in config["rtts_s"]), "paper" + reduced),
        ("mRCI", ", ".join(f"{m * 1000:g} ms" for m in config["mrcis_s"]), "paper"),
        ("duration", f"{config['duration_s']:g} s", "paper (300 s)" + (" shortened: --quick" if quick else "")),
        ("replications", str(config["replications"]), "wattnet default (10)" + (" (1: --quick)" if quick else "")),
        ("buffers N1, N2, N3", "⌈10 Mb/s·RTT / 1500 B⌉ packets, at least 2", "paper (BDP)"),
        ("host buffers", "1000 packets", "wattnet default"),
        ("MTU", "1500 B (MSS 1460 B)", "paper"),
        ("TCP", "NewReno, no SACK, bulk S → D", "paper"),
        ("initial window, delayed ACKs, RTO", "2 segments, none (TCPSink), initial 3 s and minimum 0.2 s",
         "ns-2.35 default (windowInit_ 2, Agent/TCPSink, rtxcur_init_ 3, minrto_ 0.2)"),
        ("receive window", f"{rwnd_label(PRIMARY_RWND)} (65 535 B and 85 000 B beside it)",
         "interpretation: ns-2.35's window_ of 20 packets would cap RTT 100 ms at 2.4 Mb/s, which the paper's Fig. 4b excludes"),
        ("practRA rates", "{1, …, 10} Mb/s, single steps, initial rate 10 Mb/s", "paper"),
        ("practRA d, δ, w", "10 ms, 1 ms, 0.25", "wattnet default"),
        ("practRA T_s", "= mRCI (one EWMA sample of the arrival rate per mRCI); 1 ms beside it", "wattnet default"),
        ("recorder bin", "100 ms", "wattnet default"),
        ("background (case bON, §6.2)", f"B → D UDP on-off: a burst every 1 s (fixed phase), length Exp(bON = {BON_S * 1000:g} ms) truncated at 1 s, CBR {BACKGROUND_PEAK_BPS / 1e6:g} Mb/s, 1500 B packets", "paper (bON, 1 s cycle) + wattnet default (peak rate)"),
        ("bottleneck (case BN, §6.3)", f"N2 → N3 available bandwidth redrawn from U[1, 10] Mb/s every Exp(BN = {BN_S * 1000:g} ms), initially 10 Mb/s; with the bON = {BON_S * 1000:g} ms background", "paper"),
        ("base seed", f"{BASE_SEED}; replication r uses derive_seed(base, r) in TCPonly and TCP+PC alike", "wattnet default"),
    ]  # fmt: skip
    a3 = summary[(summary["case"] == "single") & (summary["rtt_ms"] == max(config["rtts_s"]) * 1000)][
        ["rwnd", "mrci_ms", "mean_rate_mbps", "goodput_mbps", "tcponly_goodput_mbps", "throughput_reduction_pct", "rate_changes", "loss_pct"]
    ]  # fmt: skip
    run_cols = ["case", "rtt_ms", "mode", "mrci_ms", "rwnd", "replication", "mean_rate_mbps", "rate_changes", "goodput_mbps",
                "throughput_reduction_pct", "loss_pct", "tcp_packets_dropped", "data_packets_sent", "timeouts"]  # fmt: skip
    interpretations = [
        """<b>practRA's sampling interval T_s = mRCI</b> (the default). Sampling every 1 ms — shorter than one 1500 B packet at
10 Mb/s (1.2 ms) — makes the samples alternate between 0 and ≈ 12 Mb/s and the prediction swing, so a dip can fire the
step-down rule whenever mRCI allows a decision. The paper (§6.1) says a large mRCI "works on an average of the arrival rate
calculated on longer time intervals", so wattnet samples once per mRCI. Both readings run; the section <i>practRA sampling</i>
shows them side by side and marks where they differ.""",
        f"""<b>Receive window.</b> The paper gives no receiver window; ns-2.35's <code>Agent/TCP window_</code> defaults to 20
packets (2.4 Mb/s at RTT 100 ms), and a 64 KB window caps a 100 ms-RTT flow at ≈ 5.3 Mb/s. Its Fig. 4b shows TCPonly back at
10 Mb/s at RTT 100 ms, which neither allows, so the checks and Fig. 4 use <b>{e(rwnd_label(PRIMARY_RWND))}</b>; Fig. 3 is
drawn for each reading.""",
        """<b>RTT 1 ms (full grid).</b> A one-BDP buffer is 2 packets, 2.4 ms of traffic at 10 Mb/s, below d − δ = 9 ms:
practRA's step-up rule ((δ·r̂ + q)/r_{i+1} > d − δ, or q/r_i > d) can never fire there, so every step down is permanent.""",
        "r̄ is the time average of N1→N2's configured rate over the whole run; δ-freezes count at the new rate.",
        "Energy saving (Fig. 3e) = 1 − r̄/10 Mb/s: the share of N1's maximum transmission capacity practRA switched off.",
        "Loss % = packets of the TCP flow dropped anywhere / TCP data packets sent (retransmissions included) × 100.",
        "Throughput reduction compares goodputs of TCP+PC and TCPonly runs of the same RTT, window reading and replication seed.",
        """A5's recovery time is measured on the arrival rate at N1 (0.5 s moving average of the 100 ms bins): from a fall
below 7 Mb/s (after being ≥ 9 Mb/s) back to ≥ 9.5 Mb/s, the median over the run's episodes.""",
    ]
    rtt_hi = max(config["rtts_s"]) * 1000
    ns2_a3 = "" if ns2_summary is None else table_html(
        ns2_summary[(ns2_summary["case"] == "single") & (ns2_summary["rtt_ms"] == rtt_hi)][
            ["mrci_ms", "mean_rate_mbps", "goodput_mbps", "tcponly_goodput_mbps", "throughput_reduction_pct", "rate_changes", "loss_pct"]])  # fmt: skip
    a3_section = f"""<p>The paper: r̄ 6–8 Mb/s at RTT {rtt_hi:g} ms. <b>Not reproduced</b> under the stated parameters; no buffer
or window reading is tuned to reach it. wattnet, per receive-window reading:</p>
{table_html(a3_readings(runs, summary, rtt_hi))}
{table_html(a3)}
<p>ns-2.35 on the same scenario (practRA emulated, unlimited window):</p>{ns2_a3 or "<p>–</p>"}
<p>In the paper's Fig. 4b TCPonly's sending rate falls after a loss at t ≈ 14 s and gets back to 10 Mb/s about 6 s later,
and A4 has more loss at RTT 100 ms than at small RTT. A window-limited TCPonly flow (last column true) neither reaches
10 Mb/s nor loses packets, so a window that produced the 6–8 Mb/s band would contradict A4 and A5; a window large enough
for losses leaves the link saturated and r̄ near 10 Mb/s, in wattnet and in ns-2.35 alike.</p>"""
    sampling = sampling_table(summary)
    sampling_section = (
        "<p>Single source, primary window: practRA sampling once per mRCI (the default) and every 1 ms. "
        f"They differ (r̄ by more than 0.1 Mb/s or the reduction by more than 1 point) at {int(sampling['differ'].sum())} "
        f"of {len(sampling)} points.</p>" + table_html(sampling)
    )
    return write_report(
        out,
        paper=CAPACITY_SCALING_PAPER,
        title=f"{NAME}, the paper's §6",
        intro=f"{len(runs)} runs.",
        quick=quick,
        parameters=params,
        interpretations=interpretations,
        checks=check_list,
        figures=figures,
        reference_note=(
            "The ns-2.35 column: the same chain in Tcl (<code>validation/studies/capacity_scaling/chain.tcl</code>) with "
            "ns-2.35's NewReno and TCPSink; ns-2.35 has no rate adaptation, so practRA is emulated by a Tcl procedure "
            "that polls N1's queue every 1 ms, samples the arrival rate once per mRCI and sets the link's "
            "<code>bandwidth_</code> by the same rules. Fidelity: decisions at 1 ms polls rather than at every packet, "
            "a new rate applies from the next packet transmission, and the 1 ms transition does not pause the link."
        ),
        sections=[
            (f"A3: r̄ at RTT {rtt_hi:g} ms, and its sensitivity to the receive window", a3_section),
            ("practRA sampling: once per mRCI and every 1 ms", sampling_section),
            ("Fig. 3 / 5 / 7 summary (TCP+PC, by case; means and 95 % CI half-widths)", table_html(summary)),
            (
                "Runs",
                table_html(runs[run_cols])
                + "<p>Tables: <code>tables/runs.csv|parquet</code>, <code>tables/fig3_summary.csv|parquet</code>, "
                "<code>tables/sampling.csv|parquet</code>; run stores under <code>store/</code>.</p>",
            ),
        ],
    )


# ---------------------------------------------------------------------------------------------
# Entry point
# ---------------------------------------------------------------------------------------------


def reproduce(
    out: str | Path,
    quick: bool = False,
    *,
    receive_window_bytes: list[int | None] | None = None,
    executor: Any = "local",
    workers: int | None = None,
    progress: bool = False,
) -> Path:
    """Runs the study (resuming from ``out/store``) and writes tables, figures, checks.json and
    report.html under ``out``; returns the report's path. ``receive_window_bytes`` lists the
    window readings to run (default ``RWND_READINGS``; the checks use ``PRIMARY_RWND``, which
    must be among them)."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    config = Grid(**(QUICK if quick else FULL))
    rwnds = list(RWND_READINGS if receive_window_bytes is None else receive_window_bytes)
    if PRIMARY_RWND not in rwnds:
        rwnds.insert(0, PRIMARY_RWND)
    stage(NAME, "sweeping (single source, background, bottleneck, 1 ms sampling)")
    runs = pd.concat([
        run_grid(out, config, rwnds, executor=executor, workers=workers, progress=progress),
        *(run_grid(out, config, [PRIMARY_RWND], executor=executor, workers=workers, progress=progress, case=case)
          for case in ["bON", "BN", "Ts1ms"]),
    ], ignore_index=True)  # fmt: skip
    runs = add_throughput_reduction(runs)
    summary = summarise(runs)
    reference = ns2_frames(config)

    a3 = a3_readings(runs, summary, max(config["rtts_s"]) * 1000)
    write_tables(out, {"runs": runs, "fig3_summary": summary, "a3_readings": a3,
                       "sampling": sampling_table(summary)})  # fmt: skip

    stage(NAME, "figures")
    ns2_summary = None if reference is None else reference[1]
    figures: list[Path] = []
    for rwnd in rwnds:
        suffix = "" if rwnd == PRIMARY_RWND else f"_rwnd{rwnd}"
        figures += figure3(summary[summary["case"] == "single"], rwnd_label(rwnd), out / "figures" / f"fig3{suffix}",
                           ns2=ns2_case(ns2_summary, "single"), paper_band=True)  # fmt: skip
    figures += figure4(out, runs, config, out / "figures" / "fig4", "single", "Fig. 4 — single TCP source",
                       span_s=min(60.0, config["duration_s"]))  # fmt: skip
    figures += figure3(summary[summary["case"] == "bON"], rwnd_label(PRIMARY_RWND), out / "figures" / "fig5",
                       title=f"Fig. 5 — bursty background, bON = {BON_S * 1000:g} ms", ns2=ns2_case(ns2_summary, "bON"))  # fmt: skip
    figures += figure4(out, runs, config, out / "figures" / "fig6", "bON", f"Fig. 6 — background bON = {BON_S * 1000:g} ms",
                       span_s=min(60.0, config["duration_s"]))  # fmt: skip
    figures += figure3(summary[summary["case"] == "BN"], rwnd_label(PRIMARY_RWND), out / "figures" / "fig7",
                       title=f"Fig. 7 — bottleneck BN = {BN_S * 1000:g} ms and background bON = {BON_S * 1000:g} ms",
                       ns2=ns2_case(ns2_summary, "BN"))  # fmt: skip
    figures += figure4(out, runs, config, out / "figures" / "fig8", "BN",
                       f"Fig. 8 — bottleneck BN = {BN_S * 1000:g} ms, background bON = {BON_S * 1000:g} ms",
                       span_s=min(60.0, config["duration_s"]))  # fmt: skip

    stage(NAME, "checks and report")
    ours = checks(lambda run: trace(out, run), runs, summary, config)
    check_list = judge(ours, ns2_checks(reference, config), explanations=EXPLANATIONS)
    write_checks(out, check_list)
    return report(out, config, quick, runs, summary, check_list, figures, ns2_summary)


EXPLANATIONS = {
    "A3": "The paper's 20–40 % below 10 Mb/s is not reached under the stated parameters; no buffer or window reading "
    "is tuned to reach it (see the sensitivity table).",
}


def ns2_frames(config: Grid) -> tuple[pd.DataFrame, pd.DataFrame] | None:
    """ns-2.35's runs of this grid's duration (``validation/studies/capacity_scaling``) as the study's
    runs and summary frames; None when the reference is not stored."""
    rows = reference_rows(NAME)
    if rows is None:
        return None
    rows = rows[rows["duration_s"] == config["duration_s"]].copy()
    rows["mrci_ms"] = rows["mrci_ms"].astype(float)
    runs = add_throughput_reduction(rows)
    return runs, summarise(runs)


def ns2_trace(run: pd.Series) -> pd.DataFrame:
    """A stored ns-2.35 run's 100 ms trace in ``trace``'s layout; KeyError when it was not traced."""
    stored = run["trace"]
    if not isinstance(stored, dict):
        raise KeyError("no ns-2.35 trace for this run")
    frame = pd.DataFrame({"rate_bps": stored["rate_mbps"], "arrival_rate_bps": stored["arrival_rate_mbps"]},
                         index=pd.Index(stored["time_s"], name="time_s"))  # fmt: skip
    return frame


def ns2_checks(reference: tuple[pd.DataFrame, pd.DataFrame] | None, config: Grid) -> dict[str, dict[str, Any] | None]:
    if reference is None:
        return {}
    runs, summary = reference
    return reference_checks({
        "A1–A6": lambda: single_checks(ns2_trace, runs, summary, config),
        "A7–A12": lambda: later_checks(ns2_trace, runs, summary, config),
    })  # fmt: skip


def ns2_case(summary: pd.DataFrame | None, case: str) -> pd.DataFrame | None:
    return None if summary is None else summary[summary["case"] == case]


def sampling_table(summary: pd.DataFrame) -> pd.DataFrame:
    """practRA sampling once per mRCI (the default) against every 1 ms, single source, primary
    window: r̄, throughput reduction and rate changes side by side, and whether they differ (r̄ by
    more than 0.1 Mb/s or the reduction by more than 1 point)."""
    key = ["rtt_ms", "mrci_ms"]
    columns = ["mean_rate_mbps", "throughput_reduction_pct", "rate_changes"]
    primary = summary[summary["rwnd"] == rwnd_label(PRIMARY_RWND)]
    per_mrci = primary[primary["case"] == "single"].set_index(key)[columns]
    per_1ms = primary[primary["case"] == "Ts1ms"].set_index(key)[columns]
    table = per_mrci.merge(per_1ms, left_index=True, right_index=True, suffixes=("_ts_mrci", "_ts_1ms")).reset_index()
    table["differ"] = ((table["mean_rate_mbps_ts_mrci"] - table["mean_rate_mbps_ts_1ms"]).abs() > 0.1) | (
        (table["throughput_reduction_pct_ts_mrci"] - table["throughput_reduction_pct_ts_1ms"]).abs() > 1
    )
    return table
