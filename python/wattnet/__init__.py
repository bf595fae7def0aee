"""wattnet: a fast packet-level simulator of energy-aware networks.

import wattnet
results = wattnet.run("examples/chain.toml")
results.flows, results.ports, results.timeseries, results.summary
"""

from importlib.metadata import version as _package_version

from wattnet._engine import SimulationError
from wattnet.errors import ScenarioError
from wattnet.results import Results
from wattnet.runner import run
from wattnet.scenario import Scenario, load_scenario

__version__ = _package_version("wattnet")

__all__ = ["Results", "Scenario", "ScenarioError", "SimulationError", "__version__", "load_scenario", "run"]
