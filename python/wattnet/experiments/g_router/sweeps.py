"""Running: the sweeps over the study's grid (cached and resumable under ``out/store``) and the per-run measures read back from each run's tables."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from wattnet.experiments.g_router.params import (
    BOTTLENECK_AT_S,
    BOTTLENECK_BPS,
    BUFFER_PACKETS,
    C_INIT_BPS,
    CASE2_WINDOWS,
    CASES,
    CONTROLLED,
    FULL_FRACTION,
    G_PORT,
    GROUPS,
    INITIAL_WINDOW_BYTES,
    INTERNET_PORT,
    NAME,
    OVER,
    PACKET_BYTES,
    PHASES,
    RUN_S,
    TOLERANCES,
    Grid,
)
from wattnet.experiments.g_router.scenario import base_scenario, initial_flow_estimate, slug
from wattnet.experiments.report import (
    row_of,
)
from wattnet.scenario import GRouter
from wattnet.sweep import mean_ci, require_done, sweep


def store_dir(case: int, configuration: str) -> Path:
    return Path("store") / f"case{case}" / slug(configuration)


def run_all(
    out: Path, config: Grid, executor: Any = "local", workers: int | None = None, progress: bool = False
) -> pd.DataFrame:
    """Every (case, configuration) sweep, ``config["replications"]`` runs each, cached under
    ``out/store``; one row per run with its metrics (``run_metrics``)."""
    rows = []
    for case, configurations in CASES.items():
        for configuration in configurations:
            store = out / store_dir(case, configuration)
            base = base_scenario(case, configuration, config["scale"])
            table = sweep(base, None, config["replications"], out=store, executor=executor, workers=workers,
                          progress=progress and f"{NAME} case {case} {configuration}")  # fmt: skip
            require_done(table, store)
            for _, run in table.iterrows():
                rows.append({
                    "case": case,
                    "configuration": configuration,
                    "replication": int(run["replication"]),
                    "seed": int(run["seed"]),
                    **run_metrics(store / "runs" / run["key"], case, config["scale"]),
                    "key": run["key"],
                    "store": store_dir(case, configuration).as_posix(),
                })  # fmt: skip
    return add_references(pd.DataFrame(rows))


def timeseries(run_dir: Path) -> pd.DataFrame:
    """The recorder's samples, one row per time and one column per ``port quantity``."""
    ts = pd.read_parquet(run_dir / "timeseries.parquet")
    wide = ts.pivot_table(index="time_s", columns=["entity", "quantity"], values="value")
    entities, quantities = wide.columns.get_level_values(0), wide.columns.get_level_values(1)
    wide.columns = [f"{entity} {quantity}" for entity, quantity in zip(entities, quantities, strict=True)]
    return wide


def window_mean(series: pd.Series, start_s: float, end_s: float) -> float:
    """The mean of the samples at times in (start_s, end_s] (each sample closes its bin)."""
    return float(series[(series.index > start_s) & (series.index <= end_s)].mean())


def run_metrics(run_dir: Path, case: int, scale: float) -> dict[str, float]:
    """The measures for one run of case study ``case``, and what the checks read from its samples."""
    duration = RUN_S * scale
    ports = pd.read_parquet(run_dir / "ports.parquet").set_index("port")
    flows = pd.read_parquet(run_dir / "flows.parquet")
    g, internet = row_of(ports, G_PORT), row_of(ports, INTERNET_PORT)
    ts = timeseries(run_dir)
    sent, rate = ts[f"{G_PORT} departure_rate_bps"], ts[f"{G_PORT} rate_bps"]
    first_phase_end = GROUPS[1][1] * scale
    after = ts.index > BOTTLENECK_AT_S * scale
    internet_queue = ts[f"{INTERNET_PORT} queue_bytes"]
    # Case 2: how long after the bottleneck C first comes within adaptation_pct of the Internet node's rate.
    adapted = ts.index[after & (rate <= (1 + TOLERANCES["adaptation_pct"] / 100) * BOTTLENECK_BPS)]
    adaptation_s = adapted.min() - BOTTLENECK_AT_S * scale if case == 2 and len(adapted) else np.nan
    return {
        "mean_rate_mbps": float(g["mean_rate_bps"]) / 1e6,
        # bits sent on the G-router's output over ∫C(t) dt.
        "utilisation_pct": 100 * float(g["transmitted_bytes"]) * 8 / (float(g["mean_rate_bps"]) * duration),
        # The same from the end of the first phase, from the 0.5 s samples (a diagnostic).
        "utilisation_after_first_phase_pct": 100 * window_mean(sent, first_phase_end, duration)
        / window_mean(rate, first_phase_end, duration),
        "goodput_mbps": float(flows["delivered_bytes"].sum()) * 8 / duration / 1e6,
        "mean_queue_packets": float(g["mean_queue_bytes"]) / PACKET_BYTES,
        "queue_std_packets": float(ts[f"{G_PORT} queue_bytes"].std()) / PACKET_BYTES,
        "queue_std_after_first_phase_packets": float(ts[f"{G_PORT} queue_bytes"][ts.index > first_phase_end].std())
        / PACKET_BYTES,
        "mean_queue_after_first_phase_packets": window_mean(ts[f"{G_PORT} queue_bytes"], first_phase_end, duration)
        / PACKET_BYTES,
        "g_router_drops": int(g["dropped_packets"]),
        "g_router_drop_pct": 100 * float(g["dropped_packets"]) / max(float(g["transmitted_packets"]), 1.0),
        "internet_drops": int(internet["dropped_packets"]),
        # the drops at the Internet node and at the G-router.
        "drops_total": int(g["dropped_packets"] + internet["dropped_packets"]),
        "internet_full_pct_after_bottleneck": 100 * float(
            (internet_queue[after] >= FULL_FRACTION * BUFFER_PACKETS * PACKET_BYTES).mean()
        ),
        "adaptation_s": float(adaptation_s),
        # Losses on the DSL up-links (slow start overflowing their buffers) and what TCP resent.
        "uplink_drops": int(ports.loc[ports.index.str.endswith("->grouter"), "dropped_packets"].sum()),
        "retransmissions": int(pd.read_parquet(run_dir / "connections.parquet")["retransmissions"].sum()),
    }  # fmt: skip


def add_references(runs: pd.DataFrame) -> pd.DataFrame:
    """The throughput ratio against the uncontrolled run of the same case and
    replication (same seeds: common random numbers), and case study 2's lost-packet reduction."""
    runs = runs.copy()
    reference = runs[runs["configuration"] != CONTROLLED].set_index(["case", "replication"])
    index = pd.MultiIndex.from_frame(runs[["case", "replication"]])
    runs["throughput_ratio_pct"] = (
        100 * runs["goodput_mbps"].to_numpy() / reference["goodput_mbps"].reindex(index).to_numpy()
    )
    case2 = (runs["case"] == 2).to_numpy()
    reference_drops = reference["drops_total"].reindex(index).to_numpy()
    runs["loss_reduction_pct"] = np.nan
    runs.loc[case2, "loss_reduction_pct"] = 100 * (1 - runs["drops_total"].to_numpy()[case2] / reference_drops[case2])
    return runs


def flow_estimate_sensitivity(
    out: Path,
    runs: pd.DataFrame,
    config: Grid,
    executor: Any = "local",
    workers: int | None = None,
    progress: bool = False,
) -> pd.DataFrame:
    """Case study 1 with AWM/C-EARTH once for each initial flow estimate N₀ in
    ``config["flow_estimates"]`` (replication 0, cached under ``out/store``), beside the study's own
    run: one row per N₀ with the RTT estimate N₀·swnd₀/C₀ it fixes and what it does to the
    utilisation, the throughput (against the over-provisioned replication 0) and the queue."""
    base = base_scenario(1, CONTROLLED, config["scale"])
    link = next(i for i, spec in enumerate(base.links) if (spec.a, spec.b) == ("grouter", "internet"))
    field = f"links[{link}].a_to_b.controller.initial_flows"
    port = base.links[link].a_to_b
    if port is None or not isinstance(port.controller, GRouter):
        raise ValueError(f"{field}: the G-router's output port has no G-router controller")
    port.controller.round_trip_propagation_s = None
    store = out / store_dir(1, CONTROLLED).with_name("flow-estimates")
    table = sweep(base, {field: config["flow_estimates"]}, 1, out=store, executor=executor, workers=workers,
                  progress=progress and f"{NAME} N₀ sensitivity")  # fmt: skip
    require_done(table, store)
    first = runs[(runs["case"] == 1) & (runs["replication"] == 0)].set_index("configuration")
    measured = [
        (float(run[field]), run_metrics(store / "runs" / run["key"], 1, config["scale"])) for _, run in table.iterrows()
    ]
    study_n0 = initial_flow_estimate()
    measured.append((study_n0, {str(column): value for column, value in row_of(first, CONTROLLED).items()}))
    rows = [{
        "n0": n0,
        "rtt_estimate_ms": 1e3 * n0 * INITIAL_WINDOW_BYTES / (C_INIT_BPS / 8),
        "study_default": n0 == study_n0,
        "utilisation_pct": m["utilisation_pct"],
        "throughput_ratio_pct": 100 * m["goodput_mbps"] / first["goodput_mbps"].loc[OVER],
        "mean_rate_mbps": m["mean_rate_mbps"],
        "mean_queue_after_first_phase_packets": m["mean_queue_after_first_phase_packets"],
        "queue_std_after_first_phase_packets": m["queue_std_after_first_phase_packets"],
        "g_router_drops": m["g_router_drops"],
    } for n0, m in measured]  # fmt: skip
    return pd.DataFrame(rows).sort_values("n0", ignore_index=True)


def summarise(runs: pd.DataFrame) -> pd.DataFrame:
    """Means over the replications of each case and configuration, with 95 % CI half-widths."""
    columns = ["mean_rate_mbps", "utilisation_pct", "utilisation_after_first_phase_pct", "goodput_mbps",
               "throughput_ratio_pct", "mean_queue_packets", "queue_std_packets", "queue_std_after_first_phase_packets",
               "mean_queue_after_first_phase_packets",
               "g_router_drops", "g_router_drop_pct", "internet_drops", "drops_total", "internet_full_pct_after_bottleneck",
               "adaptation_s", "uplink_drops", "retransmissions", "loss_reduction_pct"]  # fmt: skip
    rows = []
    for (case, configuration), group in runs.groupby(["case", "configuration"], sort=False):
        row: dict[str, Any] = {"case": case, "configuration": configuration, "replications": len(group)}
        for column in columns:
            row[column], row[f"{column}_ci95"] = mean_ci(group[column].astype(float).to_numpy())
        rows.append(row)
    return pd.DataFrame(rows)


def traces(out: Path, runs: pd.DataFrame, case: int, configuration: str, replication: int = 0) -> pd.DataFrame:
    run = runs[(runs["case"] == case) & (runs["configuration"] == configuration) & (runs["replication"] == replication)]
    return timeseries(out / run["store"].iloc[0] / "runs" / run["key"].iloc[0])


def phase_table(out: Path, runs: pd.DataFrame, scale: float) -> pd.DataFrame:
    """C against the offered load (the over-provisioned run's throughput at the G-router, same
    replication) in C1's and C4's windows, per run of AWM/C-EARTH; for case study 2's bottleneck
    window the reference is the Internet node's rate."""
    rows = []
    for _, run in runs[runs["configuration"] == CONTROLLED].iterrows():
        ts = traces(out, runs, run["case"], CONTROLLED, run["replication"])
        offered = traces(out, runs, 1, OVER, run["replication"])[f"{G_PORT} departure_rate_bps"]
        windows = PHASES if run["case"] == 1 else CASE2_WINDOWS
        for label, start, end in windows:
            start, end = start * scale, end * scale
            reference = BOTTLENECK_BPS if label == "bottleneck" else window_mean(offered, start, end)
            rows.append({
                "case": run["case"], "replication": run["replication"], "window": label, "from_s": start, "to_s": end,
                "c_mbps": window_mean(ts[f"{G_PORT} rate_bps"], start, end) / 1e6,
                "reference_mbps": reference / 1e6,
                "reference": "Internet node rate" if label == "bottleneck" else "offered load",
                "queue_packets": window_mean(ts[f"{G_PORT} queue_bytes"], start, end) / PACKET_BYTES,
            })  # fmt: skip
    table = pd.DataFrame(rows)
    table["error_pct"] = 100 * (table["c_mbps"] - table["reference_mbps"]) / table["reference_mbps"]
    return table
