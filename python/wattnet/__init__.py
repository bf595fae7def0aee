"""wattnet: a fast packet-level simulator of energy-aware networks.

import wattnet
results = wattnet.run("examples/chain.toml")
results.flows, results.ports, results.timeseries, results.summary

table = wattnet.sweep("examples/chain.toml", {"links[1].rate_bps": [8e6, 10e6]}, replications=5, out="out/sweep")
wattnet.replication_means(table, "packets_dropped")
"""

from typing import Any

from wattnet.cost import estimate_cost
from wattnet.errors import CostWarning, RunTooLargeError, ScenarioError, SimulationError, SweepError, WattnetError
from wattnet.results import Results
from wattnet.runner import run
from wattnet.scenario import Scenario, load_scenario
from wattnet.store import load_results
from wattnet.sweep import mean_ci, replication_means, sweep


def __getattr__(name: str) -> Any:
    # The version is read on first use (PEP 562): the package's metadata costs a scan of the
    # installed distributions.
    if name == "__version__":
        from importlib.metadata import version

        return version("wattnet")
    raise AttributeError(f"module 'wattnet' has no attribute {name!r}")


__all__ = [
    "CostWarning",
    "Results",
    "RunTooLargeError",
    "Scenario",
    "ScenarioError",
    "SimulationError",
    "SweepError",
    "WattnetError",
    "__version__",
    "estimate_cost",
    "load_results",
    "load_scenario",
    "mean_ci",
    "replication_means",
    "run",
    "sweep",
]
