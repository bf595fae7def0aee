"""The figures, laid out as the paper's (PNG and SVG)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from wattnet.experiments.g_router.params import (
    BOTTLENECK_AT_S,
    BOTTLENECK_BPS,
    BUFFER_PACKETS,
    C_MAX_BPS,
    G_PORT,
    INTERNET_PORT,
    PACKET_BYTES,
    RUN_S,
    TARGET_BYTES,
)
from wattnet.experiments.report import (
    plt,
    save_figure,
)

if TYPE_CHECKING:
    from matplotlib.axes import Axes


def _queue_panel(ax: Axes, ts: pd.DataFrame, port: str, title: str, target: bool) -> None:
    ax.plot(ts.index, ts[f"{port} queue_bytes"] / PACKET_BYTES, color="black", lw=0.7)
    if target:
        ax.axhline(TARGET_BYTES / PACKET_BYTES, color="tab:red", ls="--", lw=1, label="target T")
        ax.legend(fontsize=7, loc="upper right")
    ax.set_ylim(0, BUFFER_PACKETS * 1.05)
    ax.set_ylabel("queue [packets]")
    ax.set_title(title, fontsize=10)
    ax.grid(True, alpha=0.3)


def figure2(controlled: pd.DataFrame, over: pd.DataFrame, path: Path) -> list[Path]:
    """Fig. 2: (a) C(t) set by C-EARTH (solid) and the over-provisioned throughput (dot-dashed);
    (b) the G-router's output queue; (c) the energy saving, the share of the over-provisioned
    capacity C_max that C(t) leaves unused."""
    pyplot = plt()
    fig, (a, b, c) = pyplot.subplots(3, 1, figsize=(9, 8.5), sharex=True)
    a.plot(over.index, over[f"{G_PORT} departure_rate_bps"] / 1e6, color="tab:blue", ls="-.", lw=0.9,
           label="throughput, over-provisioned")  # fmt: skip
    a.plot(controlled.index, controlled[f"{G_PORT} rate_bps"] / 1e6, color="black", lw=1.3, label="C(t), AWM/C-EARTH")
    a.set_ylabel("Mb/s")
    a.set_title("(a) G-router output capacity determined by C-EARTH", fontsize=10)
    a.grid(True, alpha=0.3)
    a.legend(fontsize=7, loc="upper left")
    _queue_panel(b, controlled, G_PORT, "(b) output buffer queue length in the G-router", target=True)
    saving = 100 * (1 - controlled[f"{G_PORT} rate_bps"] / C_MAX_BPS)
    c.plot(controlled.index, saving, color="tab:green", lw=1.0)
    c.set_ylabel("%")
    c.set_ylim(0, 100)
    c.set_title(f"(c) energy saving: capacity not provisioned, 1 − C(t)/{C_MAX_BPS / 1e6:g} Mb/s", fontsize=10)
    c.grid(True, alpha=0.3)
    c.set_xlabel("time [s]")
    fig.suptitle("Fig. 2 — case study 1")
    fig.tight_layout()
    return save_figure(fig, path)


def figure3(controlled: pd.DataFrame, not_controlled: pd.DataFrame, offered: pd.DataFrame, scale: float,
            path: Path) -> list[Path]:  # fmt: skip
    """Fig. 3: (a) C(t) (solid), the offered load (dash-dotted) and the Internet node's capacity
    (dashed); (b) the G-router's queue; the Internet node's queue (c) with AWM/C-EARTH, (d) NC."""
    pyplot = plt()
    fig, axes = pyplot.subplots(4, 1, figsize=(9, 11), sharex=True)
    a = axes[0]
    a.plot(offered.index, offered[f"{G_PORT} departure_rate_bps"] / 1e6, color="tab:blue", ls="-.", lw=0.9,
           label="offered load")  # fmt: skip
    a.plot(controlled.index, controlled[f"{G_PORT} rate_bps"] / 1e6, color="black", lw=1.3, label="C(t), AWM/C-EARTH")
    a.hlines(BOTTLENECK_BPS / 1e6, BOTTLENECK_AT_S * scale, RUN_S * scale, colors="tab:red", linestyles="--",
             label=f"Internet node capacity (unlimited before {BOTTLENECK_AT_S * scale:g} s)")  # fmt: skip
    a.set_ylabel("Mb/s")
    a.set_title("(a) G-router output capacity determined by C-EARTH", fontsize=10)
    a.grid(True, alpha=0.3)
    a.legend(fontsize=7, loc="upper left")
    _queue_panel(axes[1], controlled, G_PORT, "(b) output buffer queue length in the G-router", target=True)
    _queue_panel(axes[2], controlled, INTERNET_PORT, "(c) Internet node output buffer, access node with AWM/C-EARTH",
                 target=False)  # fmt: skip
    _queue_panel(axes[3], not_controlled, INTERNET_PORT, "(d) Internet node output buffer, access node not controlled (NC)",
                 target=False)  # fmt: skip
    axes[3].set_xlabel("time [s]")
    fig.suptitle("Fig. 3 — case study 2")
    fig.tight_layout()
    return save_figure(fig, path)
