"""The fluid model of the paper's equations (``wattnet.experiments.g_router_fluid``) run for both case studies, as the reference of every target."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from wattnet.experiments.g_router.params import (
    BETA_BPS,
    BOTTLENECK_AT_S,
    BOTTLENECK_BPS,
    BUFFER_PACKETS,
    C_INIT_BPS,
    C_MAX_BPS,
    CASE2_WINDOWS,
    CASES,
    CONTROLLED,
    FULL_FRACTION,
    G_PORT,
    GAMMA,
    GROUPS,
    INITIAL_WINDOW_BYTES,
    NC,
    OVER,
    PACKET_BYTES,
    PHASES,
    RECORDER_BIN_S,
    ROUND_TRIP_PROPAGATION_S,
    RUN_S,
    TARGET_BYTES,
    UPLINK_BPS,
)
from wattnet.experiments.g_router.scenario import sources_present
from wattnet.experiments.g_router.sweeps import window_mean
from wattnet.experiments.g_router.targets import _mean
from wattnet.experiments.g_router_fluid import fluid_run
from wattnet.experiments.report import (
    plt,
    save_figure,
)

FLUID = "fluid model of the paper's equations"

INTERNET_RATE_BPS = 1e9  # the access network's Internet node ("unlimited": ten times C_max)


def fluid_runs(scale: float) -> dict[tuple[int, str], pd.DataFrame]:
    """Both case studies in the fluid model, each configuration the study runs."""
    parameters = {
        "propagation_rtt_s": ROUND_TRIP_PROPAGATION_S, "target_bytes": TARGET_BYTES, "gamma": GAMMA,
        "beta_bps": BETA_BPS, "initial_window_bytes": INITIAL_WINDOW_BYTES, "c_init_bps": C_INIT_BPS,
        "c_min_bps": 100e3, "c_max_bps": C_MAX_BPS, "buffer_bytes": BUFFER_PACKETS * PACKET_BYTES,
        "uplink_bps": UPLINK_BPS, "uplink_buffer_bytes": BUFFER_PACKETS * PACKET_BYTES, "sample_s": RECORDER_BIN_S,
        "internet_rate_bps": INTERNET_RATE_BPS,
    }  # fmt: skip
    sources = sources_present(scale)
    bottleneck = {"bottleneck_at_s": BOTTLENECK_AT_S * scale, "bottleneck_bps": BOTTLENECK_BPS}
    return {
        (case, configuration): fluid_run(sources, RUN_S * scale, controlled=configuration == CONTROLLED,
                                         **parameters, **(bottleneck if case == 2 else {}))
        for case, configurations in CASES.items()
        for configuration in configurations
    }  # fmt: skip


def fluid_frames(fluid: dict[tuple[int, str], pd.DataFrame], scale: float) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The fluid runs as the study's summary and phase frames, for C1–C6."""
    traces = {key: frame.set_index("time_s") for key, frame in fluid.items()}
    over = traces[(1, OVER)]
    first_phase_end = GROUPS[1][1] * scale
    after_bottleneck = BOTTLENECK_AT_S * scale
    rows, phases = [], []
    for (case, configuration), run in traces.items():
        dropped = (run["loss_bps"] + run["internet_loss_bps"]).sum() * RECORDER_BIN_S / 8 / PACKET_BYTES
        full = (
            run["internet_queue_bytes"][run.index > after_bottleneck] >= FULL_FRACTION * BUFFER_PACKETS * PACKET_BYTES
        )
        rows.append({
            "case": case, "configuration": configuration,
            "mean_queue_packets": run["queue_bytes"].mean() / PACKET_BYTES,
            "queue_std_packets": run["queue_bytes"].std() / PACKET_BYTES,
            "queue_std_after_first_phase_packets": run["queue_bytes"][run.index > first_phase_end].std() / PACKET_BYTES,
            "g_router_drops": run["loss_bps"].sum() * RECORDER_BIN_S / 8 / PACKET_BYTES,
            "g_router_drop_pct": 100 * run["loss_bps"].sum() / run["departure_bps"].sum(),
            "utilisation_pct": 100 * run["departure_bps"].sum() / run["rate_bps"].sum(),
            "throughput_ratio_pct": 100 * run["departure_bps"].sum() / over["departure_bps"].sum(),
            "drops_total": dropped,
            "internet_full_pct_after_bottleneck": 100 * float(full.mean()) if len(full) else np.nan,
        })  # fmt: skip
        if configuration != CONTROLLED:
            continue
        for label, start, end in PHASES if case == 1 else CASE2_WINDOWS:
            start, end = start * scale, end * scale
            reference = BOTTLENECK_BPS if label == "bottleneck" else window_mean(over["departure_bps"], start, end)
            phases.append({"case": case, "window": label,
                           "c_mbps": window_mean(run["rate_bps"], start, end) / 1e6,
                           "reference_mbps": reference / 1e6,
                           "queue_packets": window_mean(run["queue_bytes"], start, end) / PACKET_BYTES})  # fmt: skip
    summary = pd.DataFrame(rows)
    nc = summary[(summary["case"] == 2) & (summary["configuration"] == NC)]["drops_total"].iloc[0]
    summary["loss_reduction_pct"] = np.where(summary["case"] == 2, 100 * (1 - summary["drops_total"] / nc), np.nan)
    frame = pd.DataFrame(phases)
    frame["error_pct"] = 100 * (frame["c_mbps"] - frame["reference_mbps"]) / frame["reference_mbps"]
    return summary, frame


def fluid_comparison(
    summary: pd.DataFrame, phases: pd.DataFrame, fluid_summary: pd.DataFrame, fluid_phases: pd.DataFrame
) -> pd.DataFrame:
    """Per phase of case study 1: C and the queue in the engine (mean over replications) and in the
    fluid model, and the queue's standard deviation after the first phase."""
    engine = (
        phases[phases["case"] == 1].groupby("window", sort=False)[["c_mbps", "reference_mbps", "queue_packets"]].mean()
    )
    fluid = fluid_phases[fluid_phases["case"] == 1].set_index("window")[["c_mbps", "queue_packets"]]
    table = engine.merge(fluid, left_index=True, right_index=True, how="left", suffixes=("", "_fluid")).reset_index()
    table.loc[len(table)] = {
        "window": "after the first phase: queue σ [packets]",
        "queue_packets": _mean(summary, 1, CONTROLLED, "queue_std_after_first_phase_packets"),
        "queue_packets_fluid": _mean(fluid_summary, 1, CONTROLLED, "queue_std_after_first_phase_packets"),
    }
    return table


def fluid_figure(engine: pd.DataFrame, fluid: pd.DataFrame, path: Path) -> list[Path]:
    """Case study 1: the engine's queue and C against the fluid model's."""
    pyplot = plt()
    fig, axes = pyplot.subplots(2, 1, figsize=(11, 6.5), sharex=True)
    axes[0].plot(engine.index, engine[f"{G_PORT} rate_bps"] / 1e6, lw=0.8, label="C, wattnet")
    axes[0].plot(fluid["time_s"], fluid["rate_bps"] / 1e6, lw=1.2, ls="--", label="C, fluid model")
    axes[0].plot(fluid["time_s"], fluid["offered_bps"] / 1e6, lw=0.8, color="0.5", label="offered load, fluid model")
    axes[0].set_ylabel("Mb/s")
    axes[1].plot(engine.index, engine[f"{G_PORT} queue_bytes"] / PACKET_BYTES, lw=0.6, label="queue, wattnet")
    axes[1].plot(fluid["time_s"], fluid["queue_bytes"] / PACKET_BYTES, lw=1.2, ls="--", label="queue, fluid model")
    axes[1].axhline(TARGET_BYTES / PACKET_BYTES, color="k", lw=0.6, ls=":", label="target T")
    axes[1].set_ylabel("packets")
    axes[1].set_xlabel("time [s]")
    for ax in axes:
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.suptitle("Case study 1: wattnet against the fluid model of the paper's equations (AWM/C-EARTH)")
    fig.tight_layout()
    return save_figure(fig, path)
