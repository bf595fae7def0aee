"""The figures, laid out as the paper's (PNG and SVG)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from wattnet.experiments.greened_network.params import (
    DURATION_S,
    FIG2_PANELS,
    FIG2_THRESHOLD,
    LOSS_BASED,
    SWITCH_OFF_S,
    THRESHOLDS,
)
from wattnet.experiments.report import (
    plt,
    save_figure,
)


def _error_bars(rows: pd.DataFrame) -> pd.Series | None:
    """The loss's 95 % CI half-widths, or none with a single replication."""
    ci = rows["loss_pct_ci95"]
    return None if ci.isna().all() else ci.fillna(0)


def figure2(traces: pd.DataFrame, path: Path) -> list[Path]:
    """The paper's Fig. 2: cwnd (segments) of each variant at th = 70 %, HIGH energy before ESTOP, LOW after."""
    pyplot = plt()
    fig, axes = pyplot.subplots(3, 2, figsize=(11, 9), sharex=True)
    for ax, (letter, variant) in zip(axes.flat, FIG2_PANELS, strict=True):
        trace = traces[traces["variant"] == variant]
        ax.plot(trace["time_s"], trace["cwnd_segments"], lw=0.6, color="tab:blue")
        ax.axvline(SWITCH_OFF_S, color="tab:red", lw=1, ls="--")
        top = trace["cwnd_segments"].max()
        ax.text(SWITCH_OFF_S / 2, top, "HIGH energy", ha="center", va="top", fontsize=8)
        ax.text((SWITCH_OFF_S + DURATION_S) / 2, top, "LOW energy", ha="center", va="top", fontsize=8)
        ax.set_title(f"({letter}) {variant}", fontsize=10)
        ax.set_ylabel("cwnd [segments]")
        ax.grid(True, alpha=0.3)
    for ax in axes[-1]:
        ax.set_xlabel("time [s]")
    fig.suptitle(f"Fig. 2 — congestion window, ESTOP at {SWITCH_OFF_S:g} s with threshold {FIG2_THRESHOLD} %")
    fig.tight_layout()
    return save_figure(fig, path)


def figure3(iv: pd.DataFrame, v: pd.DataFrame, path: Path, ns2_iv: pd.DataFrame | None = None) -> list[Path]:
    """The paper's Fig. 3: (a) throughput loss against the connectivity threshold, loss-based variants
    (wattnet, the paper's Table IV and, where stored, ns-2.35 on the same scenario); (b) the energy
    saving of ESTOP's link sets (Table V: wattnet's line-card rule and the paper's)."""
    pyplot = plt()
    fig, (ax, energy) = pyplot.subplots(1, 2, figsize=(13, 5), gridspec_kw={"width_ratios": [3, 2]})
    for variant in LOSS_BASED:
        rows = iv[iv["variant"] == variant]
        line = ax.errorbar(rows["threshold_pct"], rows["loss_pct"], yerr=_error_bars(rows), marker="o",
                           capsize=3, label=f"{variant} (wattnet)")  # fmt: skip
        paper = rows.dropna(subset=["paper_loss_pct"])
        ax.plot(paper["threshold_pct"], paper["paper_loss_pct"], ls=":", marker="x", color=line[0].get_color(),
                label=f"{variant} (paper)")  # fmt: skip
        if ns2_iv is not None:
            ref = ns2_iv[ns2_iv["variant"] == variant]
            ax.plot(ref["threshold_pct"], ref["loss_pct"], ls="--", lw=0.8, marker="s", mfc="none",
                    color=line[0].get_color(), label=f"{variant} (ns-2.35)")  # fmt: skip
    ax.set_xlabel("connectivity threshold [%]")
    ax.set_ylabel("throughput loss [%]")
    ax.set_xticks(THRESHOLDS)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7, ncol=3, loc="upper center", bbox_to_anchor=(0.5, -0.13), frameon=False)
    ax.set_title("(a) throughput loss of the loss-based variants", fontsize=10)
    energy.plot(v["threshold_pct"], v["energy_saving_pct"], marker="o", label="wattnet (ESTOP's links)")
    energy.plot(
        v["threshold_pct"], v["paper_energy_saving_pct"], ls=":", marker="x", color="0.3", label="paper (Table V)"
    )
    energy.set_xlabel("connectivity threshold [%]")
    energy.set_ylabel("energy saving [%]")
    energy.set_xticks(THRESHOLDS)
    energy.set_ylim(0, None)
    energy.grid(True, alpha=0.3)
    energy.legend(fontsize=7, loc="lower left")
    energy.set_title("(b) energy saving of the links switched off", fontsize=10)
    fig.suptitle("Fig. 3 — throughput loss and energy saving against ESTOP's connectivity threshold")
    fig.tight_layout()
    return save_figure(fig, path)


def figure4(iv: pd.DataFrame, path: Path) -> list[Path]:
    """The paper's Fig. 4: Vegas's throughput loss against the connectivity threshold."""
    pyplot = plt()
    rows = iv[iv["variant"] == "Vegas"]
    fig, ax = pyplot.subplots(figsize=(6.5, 4.5))
    ax.bar(rows["threshold_pct"] - 1.5, rows["loss_pct"], width=3, yerr=_error_bars(rows),
           capsize=3, label="wattnet")  # fmt: skip
    paper = rows.dropna(subset=["paper_loss_pct"])
    ax.bar(paper["threshold_pct"] + 1.5, paper["paper_loss_pct"], width=3, color="0.6", label="paper")
    ax.set_xlabel("connectivity threshold [%]")
    ax.set_ylabel("throughput loss [%]")
    ax.set_xticks(THRESHOLDS)
    ax.set_ylim(0, 105)
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend()
    ax.set_title("Fig. 4 — throughput loss of TCP Vegas")
    fig.tight_layout()
    return save_figure(fig, path)
