"""The figures: analogues of the paper's Figs. 1–4, 6, 7–9, 10, 12–16 and 17."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from wattnet.experiments.mptcp_energy.params import SHIFTERS
from wattnet.experiments.mptcp_energy.scenario import BURST_PATHS, LABELS
from wattnet.experiments.mptcp_energy.targets import dc_means
from wattnet.experiments.report import plt, save_figure


def figures(out: Path, host: pd.DataFrame, users: pd.DataFrame, bursts: pd.DataFrame, traces: pd.DataFrame,
            cloud_table: pd.DataFrame, dc: pd.DataFrame, wl: pd.DataFrame) -> list[Path]:  # fmt: skip
    pyplot = plt()
    paths: list[Path] = []

    fig, axes = pyplot.subplots(1, 4, figsize=(18, 3.8))
    mp = host[host["setup"] == "mptcp"].sort_values("subflows_per_path")
    tcp_w = float(host.loc[host["setup"] == "tcp", "power_w"].iloc[0])
    axes[0].plot(mp["subflows_per_path"], mp["power_w"], "o-", label="MPTCP (LIA)")
    axes[0].axhline(tcp_w, color="black", ls="--", label="TCP")
    axes[0].set(xlabel="subflows per path", ylabel="mean host power (W)", title="Fig. 1 analogue")
    axes[0].legend(fontsize=8)
    for ax, setup, title in (
        (axes[1], "ethernet", "Fig. 3a analogue (Ethernet)"),
        (axes[2], "wifi", "Fig. 3b analogue (WiFi)"),
    ):
        rows = host[host["setup"] == setup].sort_values("rate_bps")
        ax.plot(rows["rate_bps"] / 1e6, rows["power_w"], "o-", color="tab:red", label="power")
        ax.set(xlabel="path rate (Mb/s)", ylabel="W", title=title)
        twin = ax.twinx()
        twin.plot(rows["rate_bps"] / 1e6, rows["energy_j"], "s--", color="tab:blue", label="energy")
        twin.set_ylabel("J")
    axes[3].bar(["1 per path", "2 per path"], mp["power_w"].iloc[:2])
    axes[3].set(ylabel="mean host power (W)", title="Fig. 4 analogue: SRTT " + ", ".join(
        f"{v * 1e3:.2f}" for v in mp["mean_srtt_s"].iloc[:2]) + " ms")  # fmt: skip
    fig.tight_layout()
    paths += save_figure(fig, out / "figures" / "fig1_4_host_power")

    ns = sorted(users["users"].unique())
    fig, axes = pyplot.subplots(1, len(ns), figsize=(4.5 * len(ns), 3.8), squeeze=False)
    for ax, n in zip(axes[0], ns, strict=True):
        rows = users[users["users"] == n]
        ax.boxplot([rows.loc[rows["algorithm"] == a, "energy_j"] for a in SHIFTERS], whis=1.5)
        ax.set_xticks(range(1, len(SHIFTERS) + 1), [LABELS[a] for a in SHIFTERS])
        ax.set(title=f"N = {n}", ylabel="energy per MPTCP user (J)")
    fig.suptitle("Fig. 6 — per-user energy, N MPTCP + 2N TCP users over two bottlenecks")
    fig.tight_layout()
    paths += save_figure(fig, out / "figures" / "fig6_energy_per_user")

    fig, axes = pyplot.subplots(2, 2, figsize=(13, 7))
    for ax, algorithm in zip(axes[0], ("lia", "dts"), strict=True):
        rows = traces[(traces["algorithm"] == algorithm) & (traces["burst_seed"] == 0)]
        for path in BURST_PATHS:
            one = rows[rows["path"] == path]
            ax.plot(one["time_s"], one["rate_bps"] / 1e6, label=f"path {path}")
            ax.fill_between(one["time_s"], 0, 100, where=one["burst"], alpha=0.12, step="pre")
        ax.set(title=f"Fig. 8 — {LABELS[algorithm]}: MPTCP rate per path (shaded: bursts)", xlabel="time (s)",
               ylabel="Mb/s")  # fmt: skip
        ax.legend(fontsize=8)
    means = bursts.groupby("algorithm")[["energy_j", "goodput_bps", "shift_score"]].mean()
    order = [a for a in (*SHIFTERS, "dts") if a in means.index]
    axes[1][0].bar([LABELS[a] for a in order], means.loc[order, "shift_score"])
    axes[1][0].set(title="Fig. 7 — shift score (share on the burst-free path)", ylim=(0, 1))
    axes[1][1].bar([LABELS[a] for a in order], means.loc[order, "energy_j"])
    axes[1][1].set(title="Fig. 9 — host energy of the transfer (J)")
    fig.tight_layout()
    paths += save_figure(fig, out / "figures" / "fig7_9_bursts")

    fig, axes = pyplot.subplots(1, 2, figsize=(10, 3.6))
    c = cloud_table.set_index("algorithm")
    labels = [LABELS[a] for a in c.index]
    axes[0].bar(labels, c["energy_j"] / 1e3)
    axes[0].set(title="Fig. 10 — aggregate host energy", ylabel="kJ")
    axes[1].bar(labels, c["mean_goodput_bps"] / 1e6)
    axes[1].set(title="mean goodput per connection", ylabel="Mb/s")
    fig.tight_layout()
    paths += save_figure(fig, out / "figures" / "fig10_cloud")

    means_dc = dc_means(dc).reset_index()
    fig, axes = pyplot.subplots(1, 5, figsize=(22, 3.8))
    for ax, topology, title in zip(axes[:3], ("bcube", "fattree", "vl2"), ("Fig. 12 — BCube", "Fig. 13 — FatTree",
                                                                      "Fig. 14 — VL2"), strict=True):  # fmt: skip
        for name, rows in means_dc[means_dc["topology"] == topology].groupby("algorithm"):
            ax.plot(rows["subflows"], rows["energy_per_gb_j"], "o-", label=LABELS[str(name)])
        ax.set(title=title, xlabel="subflows", ylabel="host energy per Gb delivered (J)")
        ax.legend(fontsize=7)
    top = int(means_dc["subflows"].max())
    at = means_dc[(means_dc["subflows"] == top) & means_dc["topology"].isin(["fattree", "vl2"])]
    for ax, column, title in (
        (axes[3], "energy_per_gb_j", f"Fig. 15 — J/Gb, {top} subflows"),
        (axes[4], "aggregate_goodput_bps", f"Fig. 16 — aggregate goodput, {top} subflows"),
    ):
        pivot = at.pivot_table(index="topology", columns="algorithm", values=column)
        pivot.rename(columns=LABELS).plot.bar(ax=ax, rot=0)
        ax.set(title=title, xlabel="")
    fig.tight_layout()
    paths += save_figure(fig, out / "figures" / "fig12_16_datacentre")

    fig, axes = pyplot.subplots(1, 2, figsize=(10, 3.6))
    m = wl.groupby("algorithm")[["energy_j", "goodput_bps"]].mean()
    axes[0].bar([LABELS[a] for a in m.index], m["energy_j"])
    axes[0].set(title="Fig. 17 — sender energy over the run", ylabel="J")
    axes[1].bar([LABELS[a] for a in m.index], m["goodput_bps"] / 1e6)
    axes[1].set(title="goodput", ylabel="Mb/s")
    fig.tight_layout()
    paths += save_figure(fig, out / "figures" / "fig17_wireless")
    return paths


def steady_state_figure(out: Path, windows: pd.DataFrame) -> list[Path]:
    """Aggregate goodput per window of every data-centre run, each over its second half's mean:
    the shortened flows' steady state."""
    pyplot = plt()
    fig, axes = pyplot.subplots(1, 3, figsize=(15, 3.6), sharey=True)
    keys = ["algorithm", "subflows", "run", "steady_state_check"]
    for ax, topology in zip(axes, ("fattree", "vl2", "bcube"), strict=True):
        for (algorithm, subflows, _, longer), w in windows[windows["topology"] == topology].groupby(keys):
            w = w.sort_values("window")
            late = w["goodput_bps"].iloc[len(w) // 2 :].mean()
            label = f"{LABELS[str(algorithm)]}, {subflows}" + (" (longer run)" if longer else "")
            ax.plot(w["window_end_s"], w["goodput_bps"] / late, "o-" if longer else "-", lw=1, ms=3, label=label)
        ax.axhline(1.0, color="black", lw=0.5)
        ax.set(title=f"{topology}: goodput per window / second-half mean", xlabel="window end (s)")
    axes[0].legend(fontsize=6, ncol=2)
    fig.tight_layout()
    return save_figure(fig, out / "figures" / "dc_steady_state")
