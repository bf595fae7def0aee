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

from pathlib import Path
from typing import Any

import pandas as pd

from wattnet.experiments.capacity_scaling.causes import explanations, per_seed
from wattnet.experiments.capacity_scaling.params import (
    BACKGROUND_PEAK_BPS,
    BASE_SEED,
    BN_S,
    BON_S,
    CASES,
    FULL,
    NAME,
    PORT,
    PRACTRA,
    PRIMARY_RWND,
    QUICK,
    R_MAX,
    RATES_BPS,
    RECORDER_BIN_S,
    RWND_READINGS,
    SAMPLE_1MS_S,
    TRANSITION_S,
    Grid,
)
from wattnet.experiments.capacity_scaling.plots import figure3, figure4
from wattnet.experiments.capacity_scaling.reference import ns2_case, ns2_checks, ns2_frames, ns2_runs, ns2_trace
from wattnet.experiments.capacity_scaling.reporting import report
from wattnet.experiments.capacity_scaling.scenario import background_flow, base_scenario, practra, rwnd_label
from wattnet.experiments.capacity_scaling.sweeps import (
    a3_readings,
    add_throughput_reduction,
    recovery_times,
    run_grid,
    run_metrics,
    sampling_table,
    summarise,
    trace,
    wasted_rate,
)
from wattnet.experiments.capacity_scaling.targets import (
    EXPLANATIONS,
    background_checks,
    bottleneck_checks,
    checks,
    later_checks,
    single_checks,
    trend_check,
)
from wattnet.experiments.report import judge, stage, write_checks, write_tables


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
    reference, ns2_every = ns2_frames(config), ns2_runs(config)

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
    theirs = ns2_checks(reference, config)
    causes = {}
    if reference is not None and ns2_every is not None:
        seeds = per_seed(lambda run: trace(out, run), runs, config), per_seed(ns2_trace, ns2_every, config)
        causes = explanations(runs, reference[0], config, ours, theirs, seeds, (lambda run: trace(out, run), ns2_trace))
    merged = {
        id: " ".join(part for part in (EXPLANATIONS.get(id, ""), causes.get(id, "")) if part)
        for id in {*EXPLANATIONS, *causes}
    }
    check_list = judge(ours, theirs, explanations=merged)
    write_checks(out, check_list)
    ns2_replications = 1 if ns2_every is None else int(ns2_every["replication"].max()) + 1
    return report(out, config, quick, runs, summary, check_list, figures, ns2_summary, ns2_replications)


__all__ = [
    "BACKGROUND_PEAK_BPS",
    "BASE_SEED",
    "BN_S",
    "BON_S",
    "CASES",
    "EXPLANATIONS",
    "FULL",
    "NAME",
    "PORT",
    "PRACTRA",
    "PRIMARY_RWND",
    "QUICK",
    "RATES_BPS",
    "RECORDER_BIN_S",
    "RWND_READINGS",
    "R_MAX",
    "SAMPLE_1MS_S",
    "TRANSITION_S",
    "Grid",
    "a3_readings",
    "add_throughput_reduction",
    "background_checks",
    "background_flow",
    "base_scenario",
    "bottleneck_checks",
    "checks",
    "figure3",
    "figure4",
    "later_checks",
    "ns2_case",
    "ns2_checks",
    "ns2_frames",
    "ns2_runs",
    "ns2_trace",
    "practra",
    "recovery_times",
    "report",
    "reproduce",
    "run_grid",
    "run_metrics",
    "rwnd_label",
    "sampling_table",
    "single_checks",
    "summarise",
    "trace",
    "trend_check",
    "wasted_rate",
]
