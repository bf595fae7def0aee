"""Pentikousis and Badr, "On the Resource Efficiency of Explicit Congestion Notification"
(NETWORKING 2002, LNCS 2345), §3–4: n clients each download 11 serial 100 KB files from one
server over a 1.5 Mb/s bottleneck whose router-B queue is DropTail (D), RED (R) or RED with ECN
marking and TCP/ECN at every host (E); transfer times, network and receiver overheads and ACKs per
transfer, without and with 1 % random errors on the clients' access links (Figs. 3–7).

    wattnet reproduce ecn-efficiency --quick --out out/ecn

Scenario: the dumbbell server — B —(1.5 Mb/s, d)— A — n clients, 10 Mb/s and 0.5 ms access links,
the QL-packet bottleneck queue on B's output toward A, every other queue 1000 packets; RED with
the thresholds of the paper's Table 1, w_q 0.002, max_p 0.1, gentle; TCP Reno with the ``ns2``
profile (the paper ran ns-2), MSS 1460 B, 200 ms delayed ACKs, a 64 KB receive window, the client
opening every connection with a three-way handshake. A transfer is m = 70 full segments.

Grid: n ∈ {5, 10, 25}, d ∈ {2, 20} ms, QL ∈ {16, 32, 64, 128}, D / R / E, without and with errors,
one replication (the paper's) without errors and ``error_replications`` with them, whose means the
checks read (ns-2.35's reference has as many runs of each errored case); 12 replications of the QL = 64, d = 20 ms cases for E10's confidence
intervals. ``--quick`` (``QUICK``) leaves out what no check reads: n = 5 with errors, n = 10 and 25 at
d = 2 ms without errors, and the replicated cases but n = 25 without errors. The ns-2.35 column of
every target comes from ``validation/studies/ecn_efficiency`` (the same scenario in Tcl).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from wattnet.experiments.ecn_efficiency.params import (
    ACCESS_DELAY_S,
    ACCESS_RATE_BPS,
    BASE_SEED,
    BOTTLENECK_PORT,
    BOTTLENECK_RATE_BPS,
    DATA_PACKET_BYTES,
    E7_DELAY_MS,
    ERROR_RATE,
    FILES_PER_CLIENT,
    FULL,
    HEADER_BYTES,
    LARGE_BUFFER_PACKETS,
    MSS_BYTES,
    NAME,
    PAPER_POINTS,
    QUEUE_COLOURS,
    QUEUE_LETTERS,
    QUEUES,
    QUICK,
    RECORDER_INTERVAL_S,
    RED_PARAMETERS,
    RED_THRESHOLDS,
    ROUTER_A,
    SEGMENTS_PER_TRANSFER,
    SERVER,
    TCP,
    TRANSFER_BYTES,
    Grid,
    Setting,
)
from wattnet.experiments.ecn_efficiency.plots import bar_figure, figures
from wattnet.experiments.ecn_efficiency.reference import explanations, ns2_cases, ns2_checks, ns2_comparison
from wattnet.experiments.ecn_efficiency.reporting import CASE_COLUMNS, report
from wattnet.experiments.ecn_efficiency.scenario import (
    base_scenario,
    bottleneck_queue,
    minimum_duration_s,
    queue_label,
    queue_path,
)
from wattnet.experiments.ecn_efficiency.sweeps import (
    cases_table,
    confidence_table,
    corrupted_data_packets,
    pick,
    red_region_fraction,
    run_metrics,
    run_settings,
)
from wattnet.experiments.ecn_efficiency.targets import (
    by_ql,
    by_queue,
    check_e1,
    check_e2,
    check_e3,
    check_e4,
    check_e5,
    check_e6,
    check_e7,
    check_e8,
    check_e9,
    check_e10,
    check_e11,
    checks,
    overheads,
    reduction_pct,
    within,
)
from wattnet.experiments.report import judge, stage, write_checks, write_tables


def reproduce(
    out: str | Path, quick: bool = False, *, executor: Any = "local", workers: int | None = None, progress: bool = False
) -> Path:
    """Runs the study (resuming from ``out/store``) and writes tables, figures, checks.json and
    report.html under ``out``; returns the report's path."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    config = QUICK if quick else FULL
    options = {"executor": executor, "workers": workers, "progress": progress}
    stage(NAME, "sweeping the cases")
    runs = pd.concat([
        run_settings(out, config["settings"], config["qls"], 1, config["error_replications"], "grid", **options),
        run_settings(out, config["ci_settings"], [config["ci_ql"]], config["ci_replications"], config["ci_replications"],
                     "ci", **options),
    ], ignore_index=True)  # fmt: skip
    cases = cases_table(runs)
    confidence = confidence_table(runs)
    write_tables(out, {"runs": runs, "cases": cases, "confidence": confidence})
    stage(NAME, "figures")
    ns2 = ns2_cases(config)
    figure_paths = figures(cases, out, ns2)
    stage(NAME, "checks and report")
    against = ns2_comparison(cases, ns2)
    check_list = judge(checks(cases, confidence, config), ns2_checks(ns2), explanations=explanations(against, cases))
    write_checks(out, check_list)
    return report(out, config, quick, runs, cases, confidence, check_list, figure_paths, against)


__all__ = [
    "ACCESS_DELAY_S",
    "ACCESS_RATE_BPS",
    "BASE_SEED",
    "BOTTLENECK_PORT",
    "BOTTLENECK_RATE_BPS",
    "CASE_COLUMNS",
    "DATA_PACKET_BYTES",
    "E7_DELAY_MS",
    "ERROR_RATE",
    "FILES_PER_CLIENT",
    "FULL",
    "HEADER_BYTES",
    "LARGE_BUFFER_PACKETS",
    "MSS_BYTES",
    "NAME",
    "PAPER_POINTS",
    "QUEUES",
    "QUEUE_COLOURS",
    "QUEUE_LETTERS",
    "QUICK",
    "RECORDER_INTERVAL_S",
    "RED_PARAMETERS",
    "RED_THRESHOLDS",
    "ROUTER_A",
    "SEGMENTS_PER_TRANSFER",
    "SERVER",
    "TCP",
    "TRANSFER_BYTES",
    "Grid",
    "Setting",
    "bar_figure",
    "base_scenario",
    "bottleneck_queue",
    "by_ql",
    "by_queue",
    "cases_table",
    "check_e1",
    "check_e2",
    "check_e3",
    "check_e4",
    "check_e5",
    "check_e6",
    "check_e7",
    "check_e8",
    "check_e9",
    "check_e10",
    "check_e11",
    "checks",
    "confidence_table",
    "corrupted_data_packets",
    "explanations",
    "figures",
    "minimum_duration_s",
    "ns2_cases",
    "ns2_checks",
    "ns2_comparison",
    "overheads",
    "pick",
    "queue_label",
    "queue_path",
    "red_region_fraction",
    "reduction_pct",
    "report",
    "reproduce",
    "run_metrics",
    "run_settings",
    "within",
]
