"""Metrics of a validation run, the stored reference results, and the side-by-side comparison.

Tolerances: goodput (per flow and total), completed transfers and their mean duration within
5 % of the reference; Jain's index within 0.05; drops, retransmissions, timeouts and ECN marks
within 20 % of the reference or 3 events, whichever is larger (the slack keeps a count of 0
against 2 from failing on one unlucky loss). A row outside its tolerance fails unless the table
of known differences (``validation/known-differences.json``) explains it in one sentence.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from wattnet.validation.scenarios import SCENARIOS, ValidationScenario, replicas

VALIDATION_DIR = Path(__file__).resolve().parents[3] / "validation"
REFERENCE_DIR = VALIDATION_DIR / "reference"
KNOWN_DIFFERENCES = VALIDATION_DIR / "known-differences.json"

RELATIVE = 0.05
"""Goodput, transfers completed, mean transfer time."""
JAIN_ABSOLUTE = 0.05
COUNT_RELATIVE = 0.20
COUNT_SLACK = 3
"""Events: a count passes within max(20 % of the reference, 3)."""


def jain(values: list[float]) -> float:
    """Jain's fairness index (Σx)² / (n·Σx²) (Jain, Chiu, Hawe, DEC-TR-301, 1984); 1 for all zero."""
    squares = sum(v * v for v in values)
    return 1.0 if squares == 0 else sum(values) ** 2 / (len(values) * squares)


def metrics(scenario: ValidationScenario, counters: dict[str, Any]) -> dict[str, float]:
    """The compared quantities of one run from its counters (ns-2, ns-3 or wattnet alike)."""
    out: dict[str, float] = {}
    goodputs = []
    for i, (flow, c) in enumerate(zip(scenario.flows, counters["flows"], strict=True)):
        goodput = c["delivered_bytes"] * 8 / (scenario.duration_s - flow.start_s) / 1e6
        goodputs.append(goodput)
        out[f"goodput_mbps.f{i}"] = goodput
        if flow.files:
            out[f"transfers.f{i}"] = c["transfers_completed"]
            if c["transfers_completed"]:
                out[f"mean_transfer_s.f{i}"] = c["transfer_time_s"] / c["transfers_completed"]
    # All flows' data over the time from the first start: the link's share of useful bytes.
    first_start = min(flow.start_s for flow in scenario.flows)
    delivered = sum(c["delivered_bytes"] for c in counters["flows"])
    out["goodput_mbps.total"] = delivered * 8 / (scenario.duration_s - first_start) / 1e6
    if len(goodputs) > 1:
        out["jain"] = jain(goodputs)
    out["drops"] = counters["drops"]
    out["retransmissions"] = sum(c["retransmissions"] for c in counters["flows"])
    out["timeouts"] = sum(c["timeouts"] for c in counters["flows"])
    if scenario.ecn:
        out["marks"] = counters["marks"]
    return out


def mean_metrics(scenario: ValidationScenario, runs: list[dict[str, Any]]) -> dict[str, float]:
    """Each metric's mean over the scenario's replicas (``runs``: their counters, in order)."""
    per_run = [metrics(replica, counters) for replica, counters in zip(replicas(scenario), runs, strict=True)]
    names = list(dict.fromkeys(name for m in per_run for name in m))
    return {name: sum(m[name] for m in per_run if name in m) / sum(name in m for m in per_run) for name in names}


def tolerance(metric: str) -> tuple[str, float, float]:
    """(description, relative, absolute) for a metric name."""
    kind = metric.split(".")[0]
    if kind == "jain":
        return "±0.05", 0.0, JAIN_ABSOLUTE
    if kind in ("goodput_mbps", "transfers", "mean_transfer_s"):
        return "±5 %", RELATIVE, 0.0
    return "±20 % (≥3)", COUNT_RELATIVE, COUNT_SLACK


def within(metric: str, reference: float, value: float) -> bool:
    _, relative, absolute = tolerance(metric)
    return abs(value - reference) <= max(relative * abs(reference), absolute) + 1e-12


@dataclass(frozen=True)
class Row:
    scenario: str
    metric: str
    reference: float
    wattnet: float
    tolerance: str
    passed: bool
    known: str
    """The stored explanation when the row is a known difference, else empty."""

    @property
    def verdict(self) -> str:
        if self.passed:
            return "pass"
        return "known difference" if self.known else "FAIL"


def load_known() -> dict[str, str]:
    """``"scenario metric"`` → its one-sentence explanation, from the stored table (a list of
    ``{"why": sentence, "rows": ["scenario metric", ...]}``)."""
    if not KNOWN_DIFFERENCES.exists():
        return {}
    return {row: entry["why"] for entry in json.loads(KNOWN_DIFFERENCES.read_text()) for row in entry["rows"]}


def reference_path(name: str) -> Path:
    return REFERENCE_DIR / f"{name}.json"


def load_reference(name: str) -> dict[str, Any]:
    reference: dict[str, Any] = json.loads(reference_path(name).read_text())
    return reference


def compare(
    scenario: ValidationScenario, reference: dict[str, Any], wattnet: list[dict[str, Any]], known: dict[str, str]
) -> list[Row]:
    """The rows of one scenario: the reference's stored means against wattnet's (``wattnet``: each replica's counters)."""
    mine = mean_metrics(scenario, wattnet)
    rows = []
    for metric, ref in reference["metrics"].items():
        value = mine.get(metric, float("nan"))
        rows.append(
            Row(
                scenario=scenario.name,
                metric=metric,
                reference=ref,
                wattnet=value,
                tolerance=tolerance(metric)[0],
                passed=within(metric, ref, value),
                known=known.get(f"{scenario.name} {metric}", ""),
            )
        )
    return rows


def compare_all(names: list[str] | None = None) -> list[Row]:
    """Runs wattnet on each scenario that has a stored reference and compares."""
    from wattnet.validation import wattnet_side

    known = load_known()
    rows: list[Row] = []
    for name in names or list(SCENARIOS):
        if not reference_path(name).exists():
            continue
        runs = [wattnet_side.run(replica) for replica in replicas(SCENARIOS[name])]
        rows += compare(SCENARIOS[name], load_reference(name), runs, known)
    return rows


def regenerate(names: list[str] | None = None, progress: Callable[[str], object] = print) -> list[Path]:
    """Runs the reference simulators and stores their results in ``validation/reference``."""
    from wattnet.validation import ns2, ns3

    written = []
    REFERENCE_DIR.mkdir(parents=True, exist_ok=True)
    for name in names or list(SCENARIOS):
        scenario = SCENARIOS[name]
        side = ns2 if scenario.reference == "ns2" else ns3
        progress(f"{name}: running {scenario.reference}")
        runs = [side.run(replica) for replica in replicas(scenario)]
        if scenario.reference == "ns2":
            script = ns2.render_tcl(scenario, "bottleneck.tr")
        else:
            script = " ".join(ns3.command(scenario, Path("validation/ns3/build/dumbbell")))
        record = {
            "scenario": name,
            "description": scenario.description,
            "simulator": side.version(),
            "produced_by": "wattnet validate --regenerate (python/wattnet/validation)",
            "script": script,
            "replicas": "flow i of replica k starts k·(i+1) ms late; metrics are the replicas' means",
            "counters": runs,
            "metrics": mean_metrics(scenario, runs),
        }
        path = reference_path(name)
        path.write_text(json.dumps(record, indent=1) + "\n")
        written.append(path)
    return written
