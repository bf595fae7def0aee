"""Lombardo, Panarello, Schembra, "Measuring Minimum Transmission Resources in the Internet Access
Router: A Sustainable Performance/Energy Trade-Off Approach", §3: the G-router — AWM holding its
output queue near a target by rewriting the advertised window of ACKs, and C-EARTH tuning the
service rate C — at the access router of DSL sources, in case study 1 (the offered load steps
10 → 15 → 25 → 20 Mb/s; Fig. 2) and case study 2 (the Internet node becomes the bottleneck halfway;
Fig. 3).

    wattnet reproduce g-router --quick --out out/gr

Scenario: 25 DSL hosts (1 Mb/s up, 20 Mb/s down) — G-router — Internet node — destination, 200 ms
round-trip propagation, 100-packet buffers, 1000 B packets, NewReno with the ``ns2`` profile (the
paper ran ns-2.30). Sources join in groups (10 at 0 s, 5 at 75 s, 10 at 150 s) and five leave one by
one over [350, 600) s; each runs an FTP transfer and web requests (Poisson 5/s over the sources
present, Pareto sizes of mean 200 packets and shape 1.35). The G-router's output starts at
C_init = 20 Mb/s with AWM (T = 50 packets, β = 10 kb/s) and C-EARTH (T_C-EARTH = 0.95·T) up to
C_max = 100 Mb/s; N₀ follows from eq. 6 with the configured round trip. The over-provisioned and
not-controlled (NC) runs keep 100 Mb/s without AWM. In case study 2 the Internet node's output drops
to 12 Mb/s at 300 s. ``--quick`` halves every time and runs one replication instead of five.

ns-2.35 has no AWM or C-EARTH module, so this study is wattnet-only: the reference column is a fluid
model of the paper's printed equations with a TCP aggregate (``g_router_fluid``), which tells
whether a target missed by wattnet is missed by the equations themselves.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from wattnet.experiments.g_router.fluid import (
    FLUID,
    INTERNET_RATE_BPS,
    fluid_comparison,
    fluid_figure,
    fluid_frames,
    fluid_runs,
)
from wattnet.experiments.g_router.params import (
    BASE_SEED,
    BETA_BPS,
    BOTTLENECK_AT_S,
    BOTTLENECK_BPS,
    BUFFER_PACKETS,
    C_INIT_BPS,
    C_MAX_BPS,
    CASE2_WINDOWS,
    CASES,
    CONTROLLED,
    FULL,
    FULL_FRACTION,
    G_PORT,
    GAMMA,
    GROUPS,
    INITIAL_WINDOW_BYTES,
    INTERNET_PORT,
    LEAVING,
    MSS_BYTES,
    NAME,
    NC,
    OVER,
    PACKET_BYTES,
    PAPER_LOSS_REDUCTION_PCT,
    PAPER_THROUGHPUT_PCT,
    PAPER_UTILISATION_PCT,
    PAYLOAD_BYTES_PER_S,
    PHASES,
    QUICK,
    RAMP_S,
    RECORDER_BIN_S,
    ROUND_TRIP_PROPAGATION_S,
    RUN_S,
    SOURCES,
    STAGGER_S,
    START_UP_S,
    TARGET_BYTES,
    TCP,
    UPLINK_BPS,
    WEB,
    Grid,
)
from wattnet.experiments.g_router.plots import figure2, figure3
from wattnet.experiments.g_router.reporting import report
from wattnet.experiments.g_router.scenario import (
    base_scenario,
    case_study_flows,
    g_router_controller,
    initial_flow_estimate,
    leave_times,
    slug,
    sources_present,
)
from wattnet.experiments.g_router.sweeps import (
    add_references,
    flow_estimate_sensitivity,
    phase_table,
    run_all,
    run_metrics,
    store_dir,
    summarise,
    timeseries,
    traces,
    window_mean,
)
from wattnet.experiments.g_router.targets import case1_checks, case2_checks, checks, tracking
from wattnet.experiments.report import judge, reference_checks, stage, write_checks, write_tables


def reproduce(
    out: str | Path, quick: bool = False, *, executor: Any = "local", workers: int | None = None, progress: bool = False
) -> Path:
    """Runs both case studies (resuming from ``out/store``) and writes tables, figures, checks.json
    and report.html under ``out``; returns the report's path."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    config = Grid(**(QUICK if quick else FULL))
    stage(NAME, "sweeping case studies 1 and 2")
    runs = run_all(out, config, executor=executor, workers=workers, progress=progress)
    summary = summarise(runs)
    phases = phase_table(out, runs, config["scale"])
    stage(NAME, "sweeping the initial flow estimates N₀")
    flow_estimates = flow_estimate_sensitivity(out, runs, config, executor=executor, workers=workers, progress=progress)
    stage(NAME, "integrating the fluid model of the paper's equations")
    fluid = fluid_runs(config["scale"])

    over, controlled1 = traces(out, runs, 1, OVER), traces(out, runs, 1, CONTROLLED)
    not_controlled, controlled2 = traces(out, runs, 2, NC), traces(out, runs, 2, CONTROLLED)
    fig2_traces = pd.DataFrame({
        "time_s": controlled1.index,
        "c_mbps": controlled1[f"{G_PORT} rate_bps"].to_numpy() / 1e6,
        "over_provisioned_throughput_mbps": over[f"{G_PORT} departure_rate_bps"].reindex(controlled1.index).to_numpy() / 1e6,
        "queue_packets": controlled1[f"{G_PORT} queue_bytes"].to_numpy() / PACKET_BYTES,
    })  # fmt: skip
    fig3_traces = pd.DataFrame({
        "time_s": controlled2.index,
        "c_mbps": controlled2[f"{G_PORT} rate_bps"].to_numpy() / 1e6,
        "offered_mbps": over[f"{G_PORT} departure_rate_bps"].reindex(controlled2.index).to_numpy() / 1e6,
        "internet_rate_mbps": controlled2[f"{INTERNET_PORT} rate_bps"].to_numpy() / 1e6,
        "g_router_queue_packets": controlled2[f"{G_PORT} queue_bytes"].to_numpy() / PACKET_BYTES,
        "internet_queue_packets": controlled2[f"{INTERNET_PORT} queue_bytes"].to_numpy() / PACKET_BYTES,
        "internet_queue_nc_packets": not_controlled[f"{INTERNET_PORT} queue_bytes"].reindex(controlled2.index).to_numpy()
        / PACKET_BYTES,
    })  # fmt: skip
    fluid_summary, fluid_phases = fluid_frames(fluid, config["scale"])
    comparison = fluid_comparison(summary, phases, fluid_summary, fluid_phases)
    write_tables(out, {"runs": runs, "summary": summary, "phases": phases, "flow_estimates": flow_estimates,
                       "fig2_traces": fig2_traces, "fig3_traces": fig3_traces,
                       "fluid_traces": pd.concat([frame.assign(case=case, configuration=configuration)
                                                  for (case, configuration), frame in fluid.items()]),
                       "fluid_comparison": comparison})  # fmt: skip

    stage(NAME, "figures")
    figures = figure2(controlled1, over, out / "figures" / "fig2")
    figures += figure3(controlled2, not_controlled, over, config["scale"], out / "figures" / "fig3")
    figures += fluid_figure(controlled1, fluid[(1, CONTROLLED)], out / "figures" / "fluid_model")

    stage(NAME, "checks and report")
    reference = reference_checks({"case 1": lambda: case1_checks(fluid_summary, fluid_phases),
                                  "case 2": lambda: case2_checks(fluid_summary, fluid_phases)})  # fmt: skip
    check_list = judge(checks(summary, phases), reference, reference_name=FLUID)
    write_checks(out, check_list)
    return report(out, config, quick, runs, summary, phases, flow_estimates, check_list, figures, comparison)


__all__ = [
    "BASE_SEED",
    "BETA_BPS",
    "BOTTLENECK_AT_S",
    "BOTTLENECK_BPS",
    "BUFFER_PACKETS",
    "CASE2_WINDOWS",
    "CASES",
    "CONTROLLED",
    "C_INIT_BPS",
    "C_MAX_BPS",
    "FLUID",
    "FULL",
    "FULL_FRACTION",
    "GAMMA",
    "GROUPS",
    "G_PORT",
    "INITIAL_WINDOW_BYTES",
    "INTERNET_PORT",
    "INTERNET_RATE_BPS",
    "LEAVING",
    "MSS_BYTES",
    "NAME",
    "NC",
    "OVER",
    "PACKET_BYTES",
    "PAPER_LOSS_REDUCTION_PCT",
    "PAPER_THROUGHPUT_PCT",
    "PAPER_UTILISATION_PCT",
    "PAYLOAD_BYTES_PER_S",
    "PHASES",
    "QUICK",
    "RAMP_S",
    "RECORDER_BIN_S",
    "ROUND_TRIP_PROPAGATION_S",
    "RUN_S",
    "SOURCES",
    "STAGGER_S",
    "START_UP_S",
    "TARGET_BYTES",
    "TCP",
    "UPLINK_BPS",
    "WEB",
    "Grid",
    "add_references",
    "base_scenario",
    "case1_checks",
    "case2_checks",
    "case_study_flows",
    "checks",
    "figure2",
    "figure3",
    "flow_estimate_sensitivity",
    "fluid_comparison",
    "fluid_figure",
    "fluid_frames",
    "fluid_runs",
    "g_router_controller",
    "initial_flow_estimate",
    "leave_times",
    "phase_table",
    "report",
    "reproduce",
    "run_all",
    "run_metrics",
    "slug",
    "sources_present",
    "store_dir",
    "summarise",
    "timeseries",
    "traces",
    "tracking",
    "window_mean",
]
