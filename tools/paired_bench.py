"""Compares two builds of the engine on one scenario, in paired runs (docs/forwarding.md, *Many flows*).

On a shared machine the same binary's time moves by 10 % between runs, more than most changes
gain. Running the old and the new build at once, one on each of two cores, exposes both to the
same load from elsewhere; the ratio of their times is then steady to a few percent. The pairs
alternate which build runs on which core, and their ratios' geometric mean is reported, in which
the cores' own speeds cancel (one core of a virtual machine may serve more interrupts); the
result hashes must agree (the two builds compute the same thing).

    python tools/paired_bench.py export permutation_fattree8 ft8.json   # a benchmark's scenario
    cargo build --release --example run_engine                           # each build in turn, copied
    python tools/paired_bench.py compare OLD_BINARY NEW_BINARY ft8.json --pairs 4

The binaries are builds of ``crates/wattnet-engine/examples/run_engine.rs``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any


def export(name: str, out: Path) -> None:
    from wattnet.bench import scenario_of

    out.write_text(scenario_of(name).to_engine_json())


def run_pinned(binary: str, scenario: str, core: int) -> subprocess.Popen[str]:
    """``binary`` on ``scenario``, moved to ``core`` as it starts (it reads its scenario first)."""
    process = subprocess.Popen([binary, scenario], stdout=subprocess.PIPE, text=True)
    os.sched_setaffinity(process.pid, {core})
    return process


def result(process: subprocess.Popen[str], binary: str) -> dict[str, Any]:
    out, _ = process.communicate()
    if process.returncode != 0:
        sys.exit(f"{binary} failed with exit status {process.returncode}")
    parsed: dict[str, Any] = json.loads(out)
    return parsed


def compare(old: str, new: str, scenario: str, pairs: int) -> tuple[float, bool]:
    """The geometric mean of the pairs' time ratios new/old, and whether every pair's results agreed."""
    cores = sorted(os.sched_getaffinity(0))[:2]
    if len(cores) < 2:
        sys.exit("paired runs need two cores")
    if pairs < 2 or pairs % 2:
        sys.exit(f"--pairs must be even and at least 2 (each build on each core as often), not {pairs}")
    ratios, agree = [], True
    for i in range(pairs):
        core_old, core_new = cores if i % 2 == 0 else cores[::-1]
        runs = run_pinned(old, scenario, core_old), run_pinned(new, scenario, core_new)
        a, b = result(runs[0], old), result(runs[1], new)
        if a["results_hash"] != b["results_hash"]:
            agree = False
            print(f"results differ: {a['results_hash']} (old) against {b['results_hash']} (new)")
        ratio = b["run_s"] / a["run_s"]
        ratios.append(ratio)
        print(
            f"pair {i + 1}: old {a['ns_per_link_transmission']:.1f} ns, "
            f"new {b['ns_per_link_transmission']:.1f} ns per link transmission, new/old {ratio:.3f}"
        )
    mean = statistics.geometric_mean(ratios)
    print(f"new/old over {pairs} pairs (geometric mean): {mean:.3f}")
    return mean, agree


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    e = commands.add_parser("export", help="write a benchmark's scenario as the engine's JSON")
    e.add_argument("benchmark")
    e.add_argument("out", type=Path)
    c = commands.add_parser("compare", help="run two builds of run_engine in pairs")
    c.add_argument("old")
    c.add_argument("new")
    c.add_argument("scenario")
    c.add_argument("--pairs", type=int, default=4)
    args = parser.parse_args()
    if args.command == "export":
        export(args.benchmark, args.out)
    elif not compare(args.old, args.new, args.scenario, args.pairs)[1]:
        sys.exit("the two builds compute different results")


if __name__ == "__main__":
    main()
