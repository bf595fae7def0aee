"""Sassu, Scarso, Cuomo, "TCP behavior over a greened network" (IEEE SustainIT 2012): one bulk TCP
flow from node 8 to node 10 of ABILENE while ESTOP switches links off on every router at t = 30 s,
for Tahoe, Reno, NewReno, BIC, CUBIC and Vegas (Table IV, Table V, Figs. 2, 3 and 4).

    wattnet reproduce greened-network --quick --out out/gn

Scenario: SNDlib ABILENE with 0-based SNDlib ids, every link 40 Mb/s with its rounded great-circle
delay and 300-packet DropTail buffers (above the BDP, as the paper says); one CBR flow per link at
25 % of the link (10 Mb/s of 1000 B packets); the TCP flow 8 → 10 sends 1040 B packets (1000 B
payload + 40 B header, as ns-2's agents do) with the ``ns2`` profile (BIC and CUBIC with SACK, as
ns-2's TCP-Linux agent) and never runs out of data (the paper's 1 GB file outlasts the 60 s run).
At 30 s the links ESTOP picks (``wattnet.estop.estop``) go down on every router at once; every router
installs the new shortest paths (hop count, lowest next-hop id on ties) 0.03 s later, the paper's
"transition period". Each port draws the line-card power of the real 40 Gb/s link (⌈40 / 2.5⌉ Cisco
ONS 15600 cards of 140 W) and nothing once off.

The background reading is the study's main interpretation (``BACKGROUND_READINGS``): a CBR flow in
each direction of every link overloads HSTN–KSCY at 50 % and leaves the TCP flow 10 Mb/s at 60–90 %,
whereas the paper keeps BIC and CUBIC at ≈ 20 Mb/s after pruning at every threshold. One CBR agent
per link, from the link's second SNDlib end to its first (``"b_to_a"``), leaves exactly that. The
checks use that reading; the full mode also runs the other two and the report compares them. The
ns-2.35 column of every target comes from ``validation/studies/greened_network`` (this scenario
written out for ns-2.35's own agents).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from wattnet.estop import Link
from wattnet.experiments.greened_network.causes import explanations
from wattnet.experiments.greened_network.params import (
    AIMD,
    B1_TOLERANCE,
    B3_TOLERANCE,
    BACKGROUND_READINGS,
    BASE_SEED,
    CAPACITY_SCALE,
    CBR_LOAD,
    CBR_PACKET_BYTES,
    DURATION_S,
    FIG2_PANELS,
    FIG2_THRESHOLD,
    FULL,
    LINK_RATE_BPS,
    LOSS_BASED,
    LOSS_EVENT_GAP_S,
    MSS_BYTES,
    NAME,
    PAPER_TABLE_IV,
    PRIMARY_BACKGROUND,
    QUICK,
    RECORDER_INTERVAL_S,
    REDUCTION_FRACTION,
    STEADY_FROM_S,
    SWITCH_OFF_S,
    TABLE_IV_THRESHOLDS,
    TCP_DESTINATION,
    TCP_SOURCE,
    THRESHOLDS,
    TRANSITION_S,
    TRANSITION_WINDOW_S,
    VARIANTS,
    VEGAS_COLLAPSE_LOSS_PCT,
    VEGAS_MODERATE_LOSS_PCT,
    Grid,
    Reading,
)
from wattnet.experiments.greened_network.plots import figure2, figure3, figure4
from wattnet.experiments.greened_network.reference import ns2_checks, ns2_rows, ns2_table_iv
from wattnet.experiments.greened_network.reporting import differences, interpretations, parameters, report
from wattnet.experiments.greened_network.scenario import (
    background_flows,
    base_scenario,
    estop_table,
    greened_abilene,
    link_label,
    lowest_id_path,
    tcp_flow,
    tcp_settings,
)
from wattnet.experiments.greened_network.summaries import by_threshold, load_summary, table_iv, table_iv_wide, table_v
from wattnet.experiments.greened_network.sweeps import (
    cwnd_metrics,
    fig2_traces,
    in_loss_recovery,
    run_background_loads,
    run_metrics,
    run_tcp,
    tcp_series,
)
from wattnet.experiments.greened_network.targets import (
    b1_checks,
    b2_b3_checks,
    b4_checks,
    b5_checks,
    b6_checks,
    checks,
    computed_causes,
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
    network = greened_abilene()
    estop_rows = estop_table(network)
    # One run per distinct set of links switched off, keyed by its size: on ABILENE the sets are
    # nested (2, 3 and 4 links), so a size names one set.
    link_sets: dict[int, tuple[Link, ...]] = {len(off): off for off in estop_rows["off_link_names"]}
    if len(link_sets) != len(set(estop_rows["off_links"])):
        raise RuntimeError("two thresholds switch off different links of the same number")

    stage(NAME, "sweeping the variants, thresholds and backgrounds")
    frames = []
    for reading in config["backgrounds"]:
        replications = config["replications"] if reading == PRIMARY_BACKGROUND else 1
        for replication in range(replications):
            frames.append(run_tcp(out, reading, replication, link_sets, executor, workers, progress))
    runs = pd.concat(frames, ignore_index=True)
    loads = run_background_loads(out, link_sets, network, executor, workers, progress)

    per_threshold = by_threshold(runs, estop_rows)
    iv = table_iv(per_threshold)
    v = table_v(estop_rows, runs)
    loads_summary = load_summary(loads, estop_rows)
    traces = fig2_traces(out, per_threshold)
    write_tables(out, {
        "runs": runs, "table_iv": iv, "table_v": v, "background_loads": loads,
        "background_load_summary": loads_summary, "fig2_cwnd": traces,
    })  # fmt: skip

    stage(NAME, "figures")
    primary = iv[iv["background"] == PRIMARY_BACKGROUND]
    figures = [
        *figure2(traces, out / "figures" / "fig2_cwnd"),
        *figure3(primary, v, out / "figures" / "fig3_throughput_loss", ns2_table_iv(config["replications"])),
        *figure4(primary, out / "figures" / "fig4_vegas"),
    ]
    stage(NAME, "checks and report")
    ours = checks(network, iv, v, per_threshold)
    causes = explanations(per_threshold, v, ns2_rows(config["replications"]), [c["id"] for c in ours])
    computed = [c["id"] for c in ours if c["id"].startswith(("B2.", "B3."))]
    check_list = judge(ours, ns2_checks(network, config["replications"]), explanations=causes, computed=computed)
    write_checks(out, check_list)
    return report(out, config, quick, runs, iv, v, loads_summary, check_list, figures)


__all__ = [
    "AIMD",
    "B1_TOLERANCE",
    "B3_TOLERANCE",
    "BACKGROUND_READINGS",
    "BASE_SEED",
    "CAPACITY_SCALE",
    "CBR_LOAD",
    "CBR_PACKET_BYTES",
    "DURATION_S",
    "FIG2_PANELS",
    "FIG2_THRESHOLD",
    "FULL",
    "LINK_RATE_BPS",
    "LOSS_BASED",
    "LOSS_EVENT_GAP_S",
    "MSS_BYTES",
    "NAME",
    "PAPER_TABLE_IV",
    "PRIMARY_BACKGROUND",
    "QUICK",
    "RECORDER_INTERVAL_S",
    "REDUCTION_FRACTION",
    "STEADY_FROM_S",
    "SWITCH_OFF_S",
    "TABLE_IV_THRESHOLDS",
    "TCP_DESTINATION",
    "TCP_SOURCE",
    "THRESHOLDS",
    "TRANSITION_S",
    "TRANSITION_WINDOW_S",
    "VARIANTS",
    "VEGAS_COLLAPSE_LOSS_PCT",
    "VEGAS_MODERATE_LOSS_PCT",
    "Grid",
    "Reading",
    "b1_checks",
    "b2_b3_checks",
    "b4_checks",
    "b5_checks",
    "b6_checks",
    "background_flows",
    "base_scenario",
    "by_threshold",
    "checks",
    "computed_causes",
    "cwnd_metrics",
    "differences",
    "estop_table",
    "fig2_traces",
    "figure2",
    "figure3",
    "figure4",
    "greened_abilene",
    "in_loss_recovery",
    "interpretations",
    "link_label",
    "load_summary",
    "lowest_id_path",
    "ns2_checks",
    "ns2_rows",
    "ns2_table_iv",
    "parameters",
    "report",
    "reproduce",
    "run_background_loads",
    "run_metrics",
    "run_tcp",
    "table_iv",
    "table_iv_wide",
    "table_v",
    "tcp_flow",
    "tcp_series",
    "tcp_settings",
]
