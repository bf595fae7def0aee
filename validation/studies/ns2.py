"""Shared by the ns-2.35 runs of the reproductions: run ``ns`` on a script, in a scratch
directory, a few at a time, and write a study's ``reference.json``."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def ns_binary() -> str:
    ns = shutil.which("ns")
    if ns is None:
        raise SystemExit("ns-2.35 is not installed: apt-get install -y ns2")
    return ns


def ns_version() -> str:
    """'ns-2.35+dfsg-5'-style: ns's own version and, where dpkg knows it, the Debian package's."""
    with tempfile.TemporaryDirectory(prefix="wattnet-ns2-") as scratch:
        script = Path(scratch) / "version.tcl"
        script.write_text("puts [ns-version]\n")
        own = subprocess.run([ns_binary(), str(script)], capture_output=True, text=True, check=True).stdout.strip()
    package = subprocess.run(["dpkg-query", "-W", "-f=${Version}", "ns2"], capture_output=True, text=True, check=False)
    return f"ns-{own}" + (f" (Debian ns2 {package.stdout.strip()})" if package.returncode == 0 else "")


def run_ns(script: Path, args: Iterable[Any], parse: Callable[[Path], dict[str, Any]]) -> dict[str, Any]:
    """Runs ``ns script args... PREFIX`` in a scratch directory and returns ``parse(PREFIX)``."""
    with tempfile.TemporaryDirectory(prefix="wattnet-ns2-") as scratch:
        prefix = Path(scratch) / "run"
        command = [ns_binary(), str(script), *map(str, args), str(prefix)]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(command)} failed ({done.returncode}): {done.stderr[-2000:]}")
        return parse(prefix)


def run_points(points: list[dict[str, Any]], run: Callable[[dict[str, Any]], dict[str, Any]]) -> list[dict[str, Any]]:
    """``run(point)`` for every point, ``NS2_JOBS`` (default 2) at a time, with a count on stderr."""
    jobs = int(os.environ.get("NS2_JOBS", "2"))
    rows: list[dict[str, Any]] = []
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        for done, row in enumerate(pool.map(run, points), start=1):
            rows.append(row)
            print(f"\r  ns-2: {done}/{len(points)} runs", end="", flush=True, file=os.sys.stderr)
    print(file=os.sys.stderr)
    return rows


def write_reference(study_dir: Path, scenario: str, scripts: list[str], rows: list[dict[str, Any]]) -> Path:
    path = study_dir / "reference.json"
    document = {"simulator": ns_version(), "scenario": scenario, "scripts": scripts, "rows": rows}
    path.write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n")
    return path
