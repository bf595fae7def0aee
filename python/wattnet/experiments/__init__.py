"""One-command reproductions of published studies (``wattnet reproduce STUDY``).

Each study is a package (its sections as modules: params, scenario, sweeps, targets, reference,
plots, reporting; its parameter tables in ``parameters.toml``, read by ``wattnet.experiments.data``)
with ``reproduce(out, quick=False, ...) -> Path`` (the report's path)
that sweeps its grid through ``wattnet.sweep`` (so its runs are cached and resume), then
writes ``tables/`` (CSV and Parquet), ``figures/`` (PNG and SVG), ``checks.json`` and
``report.html`` under ``out``. Every target in ``checks.json`` carries the paper's value,
ns-2.35's on the same reconstructed scenario (stored under ``validation/studies/``; none for a
study ns-2.35 cannot run) and wattnet's, with a verdict computed from them
(``wattnet.experiments.report.judge``).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Paper:
    """The publication a study reproduces."""

    title: str
    authors: str
    venue: str | None
    year: int | None

    def citation(self) -> str:
        where = ", ".join(str(part) for part in (self.venue, self.year) if part is not None)
        return f"{self.authors}, “{self.title}”" + (
            f", {where}." if where else " (venue and year not printed in the paper)."
        )


@dataclass(frozen=True)
class Study:
    name: str
    module: str
    paper: Paper
    title: str

    def load(self) -> Any:
        return importlib.import_module(self.module)

    def reproduce(self, out: str | Path, quick: bool = False, **options: Any) -> Path:
        report: Path = self.load().reproduce(out, quick=quick, **options)
        return report


CAPACITY_SCALING_PAPER = Paper(
    "Network interface power management and TCP congestion control: a troubled marriage",
    "A. Panarello, A. Lombardo, G. Schembra, M. Meo, M. Mellia, M. Ajmone Marsan",
    "Australian Journal of Electrical and Electronics Engineering 13(1)",
    2016,
)
GREENED_NETWORK_PAPER = Paper(
    "TCP behavior over a greened network",
    "A. Sassu, F. Scarso, F. Cuomo",
    "IEEE SustainIT",
    2012,
)
G_ROUTER_PAPER = Paper(
    "Measuring Minimum Transmission Resources in the Internet Access Router: "
    "A Sustainable Performance/Energy Trade-Off Approach",
    "A. Lombardo, C. Panarello, G. Schembra (University of Catania)",
    None,
    None,
)
ECN_PAPER = Paper(
    "On the Resource Efficiency of Explicit Congestion Notification",
    "K. Pentikousis, H. Badr",
    "NETWORKING 2002, LNCS 2345, Springer",
    2002,
)
MPTCP_PAPER = Paper(
    "On Energy-Efficient Congestion Control for Multipath TCP",
    "J. Zhao, J. Liu, H. Wang",
    "IEEE",
    2017,
)

STUDIES: dict[str, Study] = {
    study.name: study
    for study in [
        Study(
            "capacity-scaling",
            "wattnet.experiments.capacity_scaling",
            CAPACITY_SCALING_PAPER,
            "Capacity scaling (practRA) vs TCP NewReno on the S-N1-N2-N3-D chain",
        ),
        Study(
            "greened-network",
            "wattnet.experiments.greened_network",
            GREENED_NETWORK_PAPER,
            "TCP Tahoe/Reno/NewReno/BIC/CUBIC/Vegas over ABILENE pruned by ESTOP with OSPF-like re-routing",
        ),
        Study(
            "g-router",
            "wattnet.experiments.g_router",
            G_ROUTER_PAPER,
            "The G-router: AWM and C-EARTH at an access router (case studies 1 and 2)",
        ),
        Study(
            "ecn-efficiency",
            "wattnet.experiments.ecn_efficiency",
            ECN_PAPER,
            "TCP with ECN over RED vs DropTail: transfer times, network and receiver overheads, ACK counts",
        ),
        Study(
            "mptcp-energy",
            "wattnet.experiments.mptcp_energy",
            MPTCP_PAPER,
            "Host energy of Multipath TCP under coupled congestion controls and DTS, testbeds to data centres",
        ),
    ]
}


def study(name: str) -> Study:
    """The study called ``name``; KeyError naming the known ones otherwise."""
    try:
        return STUDIES[name]
    except KeyError:
        raise KeyError(f"no study named {name!r}; known: {', '.join(STUDIES)}") from None
