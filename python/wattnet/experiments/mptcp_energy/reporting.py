"""The report: the parameters and their sources, the interpretations, the checks, the figures
and the tables behind them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from wattnet.experiments import MPTCP_PAPER
from wattnet.experiments.mptcp_energy.params import NAME, TARGETS, Config
from wattnet.experiments.mptcp_energy.scenario import LABELS
from wattnet.experiments.mptcp_energy.targets import dc_means, steady_runs, steady_state, window_spread
from wattnet.experiments.report import table_html, write_report


def report(out: Path, config: Config, quick: bool, cluster: bool, check_list: list[dict[str, Any]],
           figure_paths: list[Path], tables: dict[str, pd.DataFrame]) -> Path:  # fmt: skip
    grid = "the full grid (cluster)" if cluster else "reduced (one machine)" if not quick else "quick"
    params = [
        ("host power", "P_r = P_base/n + a·(τ_r/τ_ref)^γ + b·RTT_r/RTT_ref, integrated over each connection's life",
         "paper (eq. 2) + interpretation (docs/models/energy.md)"),
        ("Ethernet preset", "20 W, γ = ½, +15 % from 200 to 1000 Mb/s, +5 % of P_base per 100 ms of RTT",
         "paper (§III-B) + wattnet default (P_base)"),
        ("WiFi preset", "1 W, γ = 1, +90 % from 10 to 50 Mb/s", "paper (§III-B) + wattnet default (P_base)"),
        ("TCP", ("Linux profile on the testbed scenarios, RFC profile without delayed ACKs for htsim, ns-2 profile for "
         "the wireless pair; single-path users Reno"), "interpretation"),
        ("Fig. 5a", (f"N ∈ {config['users']}, {config['user_bytes'] / 1e6:g} MB per user, bottlenecks 100 Mb/s, 5 ms, "
         "100 packets"), "paper (N, 16 MB) + interpretation (rates, delays, buffers)" + (" (reduced)" if quick else "")),
        ("Fig. 5b", (f"45 Mb/s bursts, Pareto lengths mean 5 s (shape 1.5), exponential gaps mean 5 s; "
         f"{config['burst_megabytes']:g} MB transfer; {config['burst_seeds']} burst schedules"),
         "paper (rate, 10 s, 5 s) + ns-2.35 default (Pareto shape) + interpretation"),
        ("EC2 cloud", (f"40 hosts × 4 interfaces of 256 Mb/s, permutation, {config['cloud_megabytes']:g} MB per "
         "connection (the paper: 10 GB; energy per byte does not depend on it once slow start is amortised)"),
         "paper + interpretation (size)"),
        ("data centres", (f"FatTree k = 8, VL2 (8, 8, 8), BCube(4, 3) cut to 128 servers{' (16 hosts)' if config['dc_small'] else ''}; "
         f"subflows {config['dc_subflows']}; {', '.join(LABELS[a] for a in config['dc_algorithms'])}; "
         f"{config['dc_runs']} permutation(s); {config['dc_duration_s']:g} s per run instead of 1000 s — {grid}"),
         "paper (topologies, 1–8 subflows, 10 runs) + interpretation (duration: see the steady state)"),
        ("wireless pair", (f"WiFi 10 Mb/s/40 ms, 4G 20 Mb/s/100 ms, DropTail 50, 64 KB receive buffer, on-off cross "
         f"traffic at half each link's rate, {config['wireless_duration_s']:g} s, {config['wireless_runs']} runs"),
         "paper (§VI-C2) + interpretation (cross traffic)"),
    ]  # fmt: skip
    interpretations = [
        "Energy overhead (Figs. 12–16) is read as host energy per gigabit delivered, summed over all hosts.",
        (
            "Traffic shifting (Fig. 7) is measured as the share of the MPTCP rate on the burst-free path while exactly one "
            "path bursts (0.5: none)."
        ),
        (
            "DTS takes its exact sigmoid ε (the paper's Taylor form is defective); the extended DTS adds the energy price φ "
            "with the engine's defaults; both are compared with LIA."
        ),
        (
            "BCube subflows follow BCube's parallel paths (Guo et al., SIGCOMM 2009), one per interface; FatTree and VL2 "
            "subflows are spread by their own ECMP hashes."
        ),
        (
            "The paper's 1000 s data-centre flows are shortened; the steady-state table compares the energy per bit of "
            f"a {config['dc_steady_factor']}× longer run."
        ),
    ]
    steady = steady_state(tables["datacentre"])
    spread = window_spread(tables["datacentre_windows"])
    steady_count, runs = steady_runs(tables["datacentre_windows"])
    summary = (
        f"<p>Every data-centre run samples each flow's delivered bytes at the end of each of its "
        f"{int(tables['datacentre_windows']['window'].max()) + 1} windows. In {steady_count} of {runs} runs every window of the "
        f"second half carries within ±{TARGETS['datacentre']['steady_window_spread_pct']:g} % of the second half's mean "
        f"aggregate goodput (largest departure {spread['second_half_spread_pct'].max():.1f} %, median "
        f"{spread['second_half_spread_pct'].median():.1f} %); the first window, slow start included, carries "
        f"{spread['first_window_pct'].median():.0f} % of that mean (median). The configuration run "
        f"{steady['long_duration_s'] / steady['duration_s']:g}× longer spends {steady['long_energy_per_gb_j']:.3f} J/Gb "
        f"against {steady['energy_per_gb_j']:.3f} J/Gb ({steady['difference_pct']:+.2f} %).</p>"
    )
    sections = [
        (
            "Steady state of the shortened data-centre flows",
            summary + table_html(pd.DataFrame([steady])) + table_html(spread),
        ),
        ("Host power analogues (§III)", table_html(tables["host_power"])),
        (
            "Fig. 6: per-user energy",
            table_html(tables["two_bottleneck"].groupby(["users", "algorithm"])["energy_j"].describe().reset_index()),
        ),
        ("Figs. 7–9: bursts", table_html(tables["bursts"])),
        ("Fig. 10: cloud", table_html(tables["cloud"])),
        ("Figs. 12–16: data centres (means)", table_html(dc_means(tables["datacentre"]).reset_index())),
        ("Fig. 17: wireless", table_html(tables["wireless"])),
    ]
    return write_report(
        out, paper=MPTCP_PAPER, title=f"{NAME}, the paper's §III and §VI", quick=quick, parameters=params,
        intro=("Host energy of Multipath TCP under LIA, OLIA, Balia, ecMTCP, EWTCP, Coupled, DWC, wVegas and the "
               "paper's DTS, in every scenario of §III and §VI. Testbed measurements are reproduced as simulated "
               "analogues and marked <i>not simulable</i>."),
        reference_note=("This study has no ns-2.35 column: ns-2.35 has no Multipath TCP (the paper used a patch), and "
                        "htsim has no energy model; a target wattnet misses <i>differs from the paper</i>."),
        interpretations=interpretations, checks=check_list, figures=figure_paths, sections=sections,
    )  # fmt: skip
