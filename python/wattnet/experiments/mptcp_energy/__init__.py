"""Zhao, Liu, Wang, "On Energy-Efficient Congestion Control for Multipath TCP" (IEEE, 2017): host
energy of Multipath TCP under eight coupled congestion controls and the paper's DTS, in every
scenario of its §III and §VI (``scenario`` builds them).

    wattnet reproduce mptcp-energy --quick --out out/mptcp
    wattnet reproduce mptcp-energy --scheduler tcp://host:8786     # the full data-centre grid

The paper measured §III, §VI-A, §VI-B and the EC2 runs of §VI-C1 on testbeds (Linux MPTCP v0.90,
RAPL): those targets are *not simulable*, and each names its simulated analogue, whose outcome the
reason states. The data-centre runs (htsim) and the wireless runs (ns-2.35's MPTCP patch) were
simulations; ns-2.35 itself has no Multipath TCP, so no target has an ns-2.35 value, and a target
wattnet misses *differs from the paper*. Host energy is the engine's model of the paper's eq. 2
(docs/models/energy.md), with the Ethernet preset on wired hosts and the WiFi preset on the phone
and the wireless sender.

Grids: ``QUICK`` (minutes on one machine: shorter transfers, 16-host data centres), ``FULL`` (the
paper's sizes where affordable; the data-centre sweep reduced to four algorithms, 1–8 subflows in
powers of two and one permutation) and, with ``executor`` a Dask scheduler, ``CLUSTER`` (the
data-centre sweep in full: eight algorithms plus DTS, 1–8 subflows, ten permutations). The
data-centre flows run for ``dc_duration_s`` instead of the paper's 1000 s: every run records its
aggregate goodput over ten windows, and the report counts the runs whose second half stays within
the tolerance of its mean (steady); one configuration also runs ``dc_steady_factor`` times longer,
and the report compares its energy per bit.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from wattnet.experiments.mptcp_energy.params import (
    BCUBE_SUBFLOWS,
    CLUSTER,
    FULL,
    NAME,
    QUICK,
    SHIFTERS,
    TARGETS,
    Config,
)
from wattnet.experiments.mptcp_energy.plots import figures, steady_state_figure
from wattnet.experiments.mptcp_energy.reference import ANALOGUES, NO_REFERENCE, explanations
from wattnet.experiments.mptcp_energy.reporting import report
from wattnet.experiments.mptcp_energy.sweeps import (
    Runner,
    burst_mask,
    burst_runs,
    cloud_runs,
    dc_runs,
    host_power_runs,
    shift_score,
    two_bottleneck_runs,
    wireless_runs,
)
from wattnet.experiments.mptcp_energy.targets import (
    check_bursts,
    check_cloud,
    check_dc,
    check_host_power,
    check_olia,
    check_wireless,
    dc_means,
    steady_runs,
    steady_state,
    window_spread,
)
from wattnet.experiments.report import judge, stage, write_checks, write_tables

__all__ = [
    "ANALOGUES", "BCUBE_SUBFLOWS", "CLUSTER", "FULL", "NAME", "NO_REFERENCE", "QUICK", "SHIFTERS", "TARGETS", "Config",
    "Runner", "burst_mask", "check_bursts", "check_cloud", "check_dc", "check_host_power", "check_olia",
    "check_wireless", "dc_means", "explanations", "figures", "grid", "report", "reproduce", "shift_score",
    "steady_runs", "steady_state", "steady_state_figure", "window_spread",
]  # fmt: skip


def grid(quick: bool, executor: Any) -> tuple[Config, bool]:
    """The grid a run takes and whether it is the cluster's: ``QUICK`` with ``quick``; ``CLUSTER``
    (the data-centre sweep in full) on a Dask cluster, named by a scheduler's address or a
    ``dask.distributed.Client``; otherwise ``FULL``, reduced for one machine."""
    on_cluster = not (isinstance(executor, str) and executor in ("local", "serial"))
    if quick:
        return QUICK, False
    return (CLUSTER, True) if on_cluster else (FULL, False)


def reproduce(
    out: str | Path, quick: bool = False, *, executor: Any = "local", workers: int | None = None, progress: bool = False
) -> Path:
    """Runs the study (resuming from ``out/store``) and writes tables, figures, checks.json and
    report.html under ``out``; returns the report's path. A Dask scheduler as ``executor`` runs
    the full data-centre grid (``CLUSTER``) unless ``quick``."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    config, cluster = grid(quick, executor)
    runner = Runner(out, executor, workers, progress)
    stage(NAME, "host power analogues (§III)")
    host = host_power_runs(runner, config)
    stage(NAME, "two bottlenecks (Fig. 6)")
    users = two_bottleneck_runs(runner, config)
    stage(NAME, "bursts (Figs. 7–9)")
    bursts, traces = burst_runs(runner, config)
    stage(NAME, "cloud (Fig. 10)")
    cloud_table = cloud_runs(runner, config)
    stage(NAME, "data centres (Figs. 12–16)")
    dc, dc_windows = dc_runs(runner, config)
    stage(NAME, "wireless (Fig. 17)")
    wl = wireless_runs(runner, config)
    tables = {"host_power": host, "two_bottleneck": users, "bursts": bursts, "burst_traces": traces,
              "cloud": cloud_table, "datacentre": dc, "datacentre_windows": dc_windows, "wireless": wl}  # fmt: skip
    write_tables(out, tables)
    stage(NAME, "figures")
    figure_paths = [
        *figures(out, host, users, bursts, traces, cloud_table, dc, wl),
        *steady_state_figure(out, dc_windows),
    ]
    stage(NAME, "checks and report")
    ours = [*check_host_power(host), check_olia(users), *check_bursts(bursts), check_cloud(cloud_table),
            *check_dc(dc), check_wireless(wl)]  # fmt: skip
    analogues = {id: ANALOGUES[id] for id in ANALOGUES}
    check_list = judge(ours, {}, reference_name=None, analogues=analogues, explanations=explanations(ours))
    write_checks(out, check_list)
    return report(out, config, quick, cluster, check_list, figure_paths, tables)
