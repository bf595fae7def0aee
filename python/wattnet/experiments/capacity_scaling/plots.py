"""The figures, laid out as the paper's (PNG and SVG)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from wattnet.experiments.capacity_scaling.params import PRIMARY_RWND, R_MAX, Grid
from wattnet.experiments.capacity_scaling.scenario import rwnd_label
from wattnet.experiments.capacity_scaling.sweeps import trace
from wattnet.experiments.report import (
    plt,
    save_figure,
)


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
