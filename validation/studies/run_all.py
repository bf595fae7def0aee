"""Regenerates the ns-2.35 references of the reproductions (``reference.json`` in each study's
folder): ``python validation/studies/run_all.py [STUDY ...]`` with ns-2.35 installed
(``apt-get install -y ns2``) and the wattnet package importable. ``NS2_JOBS`` sets how many ns
processes run at once (default 2). ``make test`` reads the stored files and needs no ns-2."""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
STUDIES = ["ecn_efficiency", "capacity_scaling", "greened_network"]


def main(names: list[str]) -> None:
    for name in names or STUDIES:
        if name not in STUDIES:
            raise SystemExit(f"unknown study {name!r}; one of {', '.join(STUDIES)}")
        print(f"ns-2.35 reference: {name}", file=sys.stderr)
        runpy.run_path(str(HERE / name / "run.py"), run_name="__main__")


if __name__ == "__main__":
    main(sys.argv[1:])
