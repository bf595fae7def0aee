"""Running: the sweeps over the study's grid (cached and resumable under ``out/store``) and the per-run measures read back from each run's tables."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from wattnet.experiments.capacity_scaling.params import (
    CASES,
    NAME,
    PORT,
    PRIMARY_RWND,
    R_MAX,
    SAMPLE_1MS_S,
    TARGETS,
    Grid,
)
from wattnet.experiments.capacity_scaling.scenario import _controller_path, base_scenario, practra, rwnd_label
from wattnet.sweep import mean_ci, require_done, sweep


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
    """The measures for one run: r̄ of N1's port, its rate changes, the flow's goodput and loss %, and
    the packets the background sent (0 without it)."""
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
        "background_packets": int(flows["sent_packets"].get("background", 0)),
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


def trace(out: Path, run: pd.Series) -> pd.DataFrame:
    """N1's service rate and arrival rate (Mb/s) per 100 ms bin, indexed by time_s."""
    ts = pd.read_parquet(out / run["store"] / "runs" / run["key"] / "timeseries.parquet")
    ts = ts[ts["entity"] == PORT]
    wide = ts.pivot_table(index="time_s", columns="quantity", values="value")
    return wide[["rate_bps", "arrival_rate_bps"]] / 1e6


def recovery_times(arrival_mbps: pd.Series) -> list[float]:
    """Times (s) the arrival rate at N1 takes to get back to ``recovered_mbps`` after falling below
    ``dropped_mbps`` from ≥ ``armed_mbps`` (a moving average of ``smoothing_bins`` recorder bins; the
    first ``skip_s`` ignored): the ``[targets.a5_episode]`` table."""
    episode = TARGETS["a5_episode"]
    skip_s, armed_mbps = episode["skip_s"], episode["armed_mbps"]
    dropped_mbps, recovered_mbps = episode["dropped_mbps"], episode["recovered_mbps"]
    smooth = arrival_mbps.rolling(episode["smoothing_bins"], min_periods=1).mean()
    times, values = smooth.index.to_numpy(), smooth.to_numpy()
    episodes, armed, dropped_at = [], False, None
    for t, v in zip(times, values):
        if t < skip_s:
            continue
        if dropped_at is None:
            if v >= armed_mbps:
                armed = True
            elif armed and v < dropped_mbps:
                dropped_at, armed = t, False
        elif v >= recovered_mbps:
            episodes.append(float(t - dropped_at))
            dropped_at, armed = None, True
    return episodes


def wasted_rate(tr: pd.DataFrame) -> float:
    """Mean of max(service rate − arrival rate, 0) in Mb/s: capacity kept on that TCP did not use."""
    return float((tr["rate_bps"] - tr["arrival_rate_bps"]).clip(lower=0).mean())


def a3_readings(runs: pd.DataFrame, summary: pd.DataFrame, rtt_ms: float) -> pd.DataFrame:
    """Per receive-window reading at ``rtt_ms``: practRA's r̄ range over mRCI, whether it falls in
    A3's band, and whether TCPonly is window-limited (goodput below a share of the link, no loss:
    the ``[targets]`` table) — A4 and A5 need losses and a TCPonly flow that gets back to r_MAX."""
    low_band, high_band = TARGETS["a3_band_mbps"]
    limited_mbps = TARGETS["a3_readings"]["window_limited_goodput_share"] * R_MAX / 1e6
    runs, summary = runs[runs["case"] == "single"], summary[summary["case"] == "single"]
    rows = []
    for rwnd, group in summary[summary["rtt_ms"] == rtt_ms].groupby("rwnd", sort=False):
        only = runs[(runs["rtt_ms"] == rtt_ms) & (runs["rwnd"] == rwnd) & (runs["mode"] == "TCPonly")]
        low, high = group["mean_rate_mbps"].min(), group["mean_rate_mbps"].max()
        rows.append({
            "rwnd": rwnd,
            "r_bar_min_mbps": low,
            "r_bar_max_mbps": high,
            "r_bar_in_a3_band": bool(low >= low_band and high <= high_band),
            "tcponly_goodput_mbps": only["goodput_mbps"].mean(),
            "tcponly_loss_pct": only["loss_pct"].mean(),
            "tcponly_window_limited": bool(only["goodput_mbps"].mean() < limited_mbps and only["tcp_packets_dropped"].sum() == 0),
        })  # fmt: skip
    return pd.DataFrame(rows)


def sampling_table(summary: pd.DataFrame) -> pd.DataFrame:
    """practRA sampling once per mRCI (the default) against every 1 ms, single source, primary
    window: r̄, throughput reduction and rate changes side by side, and whether they differ (r̄ or the
    reduction by more than the ``[targets.sampling]`` table's thresholds)."""
    differ = TARGETS["sampling"]
    key = ["rtt_ms", "mrci_ms"]
    columns = ["mean_rate_mbps", "throughput_reduction_pct", "rate_changes"]
    primary = summary[summary["rwnd"] == rwnd_label(PRIMARY_RWND)]
    per_mrci = primary[primary["case"] == "single"].set_index(key)[columns]
    per_1ms = primary[primary["case"] == "Ts1ms"].set_index(key)[columns]
    table = per_mrci.merge(per_1ms, left_index=True, right_index=True, suffixes=("_ts_mrci", "_ts_1ms")).reset_index()
    table["differ"] = (
        (table["mean_rate_mbps_ts_mrci"] - table["mean_rate_mbps_ts_1ms"]).abs() > differ["differ_rate_mbps"]
    ) | (
        (table["throughput_reduction_pct_ts_mrci"] - table["throughput_reduction_pct_ts_1ms"]).abs()
        > differ["differ_reduction_points"]
    )
    return table
