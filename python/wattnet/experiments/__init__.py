"""One-command reproductions of the seed studies (``wattnet reproduce STUDY``).

Each study is a module with ``reproduce(out, quick=False, ...) -> Path`` (the report's path)
that sweeps its grid through ``wattnet.sweep`` (so its runs are cached and resume), then
writes ``tables/`` (CSV and Parquet), ``figures/`` (PNG and SVG), ``checks.json`` and
``report.html`` under ``out``.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Study:
    name: str
    module: str
    seed_file: str
    title: str

    def load(self) -> Any:
        return importlib.import_module(self.module)

    def reproduce(self, out: str | Path, quick: bool = False, **options: Any) -> Path:
        return self.load().reproduce(out, quick=quick, **options)


STUDIES: dict[str, Study] = {
    study.name: study
    for study in [
        Study(
            "capacity-scaling",
            "wattnet.experiments.capacity_scaling",
            "000_8006d6369a7a0936.txt",
            "Capacity scaling (practRA) vs TCP NewReno on the S-N1-N2-N3-D chain",
        ),
        Study(
            "greened-network",
            "wattnet.experiments.greened_network",
            "001_88f6b0676a27e617.txt",
            "TCP Tahoe/Reno/NewReno/BIC/CUBIC/Vegas over ABILENE pruned by ESTOP with OSPF-like re-routing",
        ),
        Study(
            "g-router",
            "wattnet.experiments.g_router",
            "002_59132b65911c20c3.txt",
            "The G-router: AWM and C-EARTH at an access router (case studies 1 and 2)",
        ),
        Study(
            "ecn-efficiency",
            "wattnet.experiments.ecn_efficiency",
            "004_19a1fc8710944b36.txt",
            "TCP with ECN over RED vs DropTail: transfer times, network and receiver overheads, ACK counts",
        ),
    ]
}


def study(name: str) -> Study:
    """The study called ``name``; KeyError naming the known ones otherwise."""
    try:
        return STUDIES[name]
    except KeyError:
        raise KeyError(f"no study named {name!r}; known: {', '.join(STUDIES)}") from None
