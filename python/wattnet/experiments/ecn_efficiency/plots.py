"""The figures, laid out as the paper's (PNG and SVG)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from wattnet.experiments.ecn_efficiency.params import PAPER_POINTS, QUEUE_COLOURS, QUEUE_LETTERS, QUEUES, Setting
from wattnet.experiments.ecn_efficiency.sweeps import pick
from wattnet.experiments.report import (
    plt,
    save_figure,
)


def bar_figure(cases: pd.DataFrame, panels: list[tuple[int, float, bool]], series: list[tuple[str, str]], ylabel: str,
               title: str, path: Path, ns2: pd.DataFrame | None = None) -> list[Path]:  # fmt: skip
    """One panel per (n, d, errors) setting present in ``cases``: for each QL a group of bars, one
    per (series, queue), labelled as the paper's legends (e.g. "N-D": network overhead, DropTail);
    the second series is hatched. ns-2.35's value on the same case marks each bar (a black dash)
    where stored, and the paper's value (a red star) where its text gives one."""
    pyplot = plt()
    panels = [p for p in panels if len(pick(cases, *p))]
    columns = min(len(panels), 2)
    rows = -(-len(panels) // columns)
    fig, axes = pyplot.subplots(rows, columns, figsize=(6.5 * columns, 3.8 * rows), squeeze=False)
    width = 0.8 / (len(series) * len(QUEUES))
    for ax, (n, d, errors) in zip(axes.flat, panels):
        setting = pick(cases, n, d, errors)
        qls = sorted(setting.index.get_level_values("ql").unique())
        x = np.arange(len(qls))
        bar = 0
        for (column, prefix), hatch in zip(series, ["", "//"]):
            for queue in QUEUES:
                heights = [setting.loc[(queue, ql), column] for ql in qls]
                centres = x - 0.4 + (bar + 0.5) * width
                ax.bar(centres, heights, width, color=QUEUE_COLOURS[queue], hatch=hatch,
                       edgecolor="black", linewidth=0.4, label=f"{prefix}-{QUEUE_LETTERS[queue]}")  # fmt: skip
                if ns2 is not None:
                    reference = pick(ns2, n, d, errors)
                    values = [reference[column].get((queue, ql), np.nan) for ql in qls]
                    ax.plot(centres, values, ls="none", marker="_", markersize=9, mew=2, color="black",
                            label="ns-2.35, same case")  # fmt: skip
                paper = [PAPER_POINTS.get((column, n, d, errors, queue, ql), np.nan) for ql in qls]
                if not np.isnan(paper).all():
                    ax.plot(centres, paper, ls="none", marker="*", markersize=10, color="red", label="paper")
                bar += 1
        ax.set_xticks(x, [f"QL {ql}" for ql in qls])
        ax.set_ylabel(ylabel)
        ax.set_title(f"{n} clients, d = {d:g} ms{', 1 % errors' if errors else ''}", fontsize=10)
        ax.grid(True, axis="y", alpha=0.3)
    for ax in list(axes.flat)[len(panels) :]:
        ax.set_visible(False)
    # One legend for all panels, below them, so that no bar is hidden.
    handles: dict[str, Any] = {}
    for ax in axes.flat:
        for handle, label in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(label, handle)
    fig.legend(handles.values(), handles.keys(), loc="lower center", ncol=len(handles), fontsize=8)
    fig.suptitle(title)
    fig.tight_layout(rect=(0, 0.06 / rows, 1, 1))
    return save_figure(fig, path)


def figures(cases: pd.DataFrame, out: Path, ns2: pd.DataFrame | None = None) -> list[Path]:
    clean: list[Setting] = [(10, 20, False), (25, 20, False)]
    errors: list[Setting] = [(n, d, True) for d in (2, 20) for n in (10, 25)]
    transfer = [("tt_mean_s", "TT"), ("tt_std_s", "STD")]
    overhead = [("network_overhead_pct", "N"), ("receiver_overhead_pct", "R")]
    acks = [("acks_per_transfer", "ACK")]
    percent, seconds = "% of the minimum packets", "seconds"
    panels: list[tuple[str, list[Setting], list[tuple[str, str]], str, str]] = [
        ("fig3", clean, transfer, seconds, "Fig. 3 — average transfer duration (TT) and standard deviation (STD)"),
        ("fig4", clean, overhead, percent, "Fig. 4 — network (N) and receiver (R) overhead"),
        ("fig5", errors, overhead, percent, "Fig. 5 — network (N) and receiver (R) overhead, random errors"),
        ("fig6", errors, transfer, seconds, "Fig. 6 — TT and STD, random errors"),
        ("fig7", errors, acks, "ACKs per transfer", "Fig. 7 — ACKs sent per transfer, random errors"),
    ]
    return [
        path
        for name, settings, series, ylabel, title in panels
        for path in bar_figure(cases, settings, series, ylabel, title, out / "figures" / name, ns2=ns2)
    ]
