"""Running one scenario through the engine."""

from __future__ import annotations

import hashlib
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from wattnet import _engine
from wattnet.cost import check_cost
from wattnet.results import Results
from wattnet.scenario import Scenario, load_scenario
from wattnet.terminal import printable

# Wall time one call into the engine should take: short enough that Ctrl-C and the
# progress bar respond, long enough that the calls cost nothing.
CHUNK_WALL_S = 0.2


def as_scenario(scenario: Scenario | dict[str, Any] | str | Path) -> Scenario:
    """A validated Scenario from a Scenario, a dict of its fields or a scenario file's path."""
    if isinstance(scenario, Scenario):
        return scenario
    if isinstance(scenario, dict):
        return Scenario.from_dict(scenario)
    if isinstance(scenario, (str, Path)):
        return load_scenario(scenario)
    raise TypeError(f"a scenario is a Scenario, a dict or a path to a TOML file, not {type(scenario).__name__}")


def build_simulation(
    scenario: Scenario,
    pcap_dir: str | Path | None = None,
    policies: dict[str, Any] | None = None,
    algorithms: dict[str, Any] | None = None,
) -> _engine.Simulation:
    """The engine's simulation of a validated scenario; the engine's own check raises ScenarioError
    (with the field path and the message).

    With ``pcap_dir``, the engine opens the scenario's capture files there (OSError naming the
    file if it cannot). ``policies`` names Python policy classes (``wattnet.policy``),
    ``algorithms`` Python congestion-control classes (``wattnet.cc``).
    """
    from wattnet.cc import algorithm_factory
    from wattnet.policy import policy_factory

    return _engine.Simulation(
        scenario.to_engine_json(),
        None if pcap_dir is None else str(pcap_dir),
        policy_factory(policies),
        algorithm_factory(algorithms),
    )


def advance(simulation: _engine.Simulation, on_chunk: Callable[[float], None] | None = None) -> None:
    """Runs to the end in chunks of simulated time sized to take about CHUNK_WALL_S each."""
    end_s = simulation.end_s
    target_s = simulation.now_s
    step_s = end_s / 1000
    while target_s < end_s:
        target_s = min(target_s + step_s, end_s)
        started = time.perf_counter()
        simulation.run_until(target_s)
        wall_s = time.perf_counter() - started
        # Grow at most fourfold per chunk; never shrink so far that the clock cannot advance.
        step_s = max(step_s * min(4.0, CHUNK_WALL_S / max(wall_s, 1e-6)), end_s * 1e-9)
        if on_chunk is not None:
            on_chunk(target_s)


def run(
    scenario: Scenario | dict[str, Any] | str | Path,
    progress: bool = False,
    pcap_dir: str | Path | None = None,
    force: bool = False,
    policies: dict[str, Any] | None = None,
    algorithms: dict[str, Any] | None = None,
) -> Results:
    """Runs one scenario and returns its results.

    ``scenario`` is a Scenario, a dict of its fields or the path of a TOML file. With
    ``progress``, a bar on stderr (when it is a terminal) shows the simulated time. With
    ``pcap_dir``, the ports the scenario's ``pcap`` list names are captured into
    ``pcap_dir/<from>-<to>.pcap``, with ``pcap_dir/hosts`` naming the nodes' addresses (the
    directory is created); without it, nothing is captured. ``policies`` maps the names of
    external controllers to Python policy classes (``wattnet.policy``), ``algorithms`` the names
    of external congestion controls to Python classes (``wattnet.cc``); a name in neither is
    imported as "module:Class".

    Before it starts, the run's events and memory are estimated (``wattnet.cost``): a long run
    warns (CostWarning), and one whose recorded samples would certainly not fit in this
    machine's memory raises RunTooLargeError unless ``force``. Ctrl-C raises KeyboardInterrupt
    within a fraction of a second.

    Raises ScenarioError for a scenario that cannot run, SimulationError if the
    engine finds one of its invariants broken, and OSError if a capture file cannot be written.

    Example:
        ```python
        results = wattnet.run("examples/chain.toml")
        results.summary["packets_dropped"]                      # packets
        results.flows.set_index("flow")["goodput_bps"]          # b/s per flow
        wattnet.run({"seed": 1, "duration_s": 1.0, "nodes": [{"name": "a"}, {"name": "b"}],
                     "links": [{"a": "a", "b": "b", "rate_bps": 10e6, "delay_s": 1e-3}],
                     "flows": [{"name": "f", "src": "a", "dst": "b", "traffic": {"type": "cbr", "rate_bps": 1e6}}]})
        ```
    """
    scenario = as_scenario(scenario)
    check_cost(scenario, force=force)
    scenario_json = scenario.to_engine_json()
    started = time.perf_counter()
    simulation = build_simulation(scenario, pcap_dir, policies, algorithms)
    if progress and sys.stderr.isatty():
        with _progress_bar() as bar:
            task = bar.add_task(printable(scenario.name) or "run", total=simulation.end_s)
            advance(simulation, lambda now_s: bar.update(task, completed=now_s))
    else:
        advance(simulation)
    wall_time_s = time.perf_counter() - started
    metadata = {
        "scenario_name": scenario.name,
        "scenario_hash": hashlib.sha256(scenario_json.encode()).hexdigest(),
        "seed": scenario.seed,
        "engine_version": _engine.version(),
        "wall_time_s": wall_time_s,
    }
    # The record keeps what the connections used: each TCP flow's settings resolved against its profile.
    return Results.from_engine(simulation.results(), metadata, _engine.resolve_tcp(scenario_json))


def _progress_bar() -> Any:
    # rich is imported only when a bar is shown: most runs (sweeps, scripts, tests) show none.
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    return Progress(
        # The description is a scenario's name: shown as text, never read as markup.
        TextColumn("{task.description}", markup=False),
        BarColumn(),
        TextColumn("{task.completed:.4g} / {task.total:.4g} s simulated"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    )
