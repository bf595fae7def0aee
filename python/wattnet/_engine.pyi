"""Type stub of the compiled engine binding (crates/wattnet-py): scenario JSON in, columnar results out."""

from typing import Any, Literal, TypeAlias

from wattnet.errors import ScenarioError as ScenarioError
from wattnet.errors import SimulationError as SimulationError

ColumnType: TypeAlias = Literal["f64", "u64", "str"]

class Simulation:
    """A scenario built into a simulation, ready to run.

    Raises ``wattnet.errors.ScenarioError`` (with ``.path`` and ``.message``) for an invalid
    scenario, and OSError naming the file when a capture cannot be opened in ``pcap_dir``.
    """

    def __init__(self, scenario_json: str, pcap_dir: str | None = None, policies: object | None = None) -> None: ...
    def run_until(self, t_s: float) -> None:
        """Processes events up to ``t_s`` seconds (capped at the end), without the GIL, in slices
        between which signals are handled (Ctrl-C raises KeyboardInterrupt)."""
    @property
    def now_s(self) -> float: ...
    @property
    def end_s(self) -> float: ...
    @property
    def finished(self) -> bool: ...
    @property
    def events(self) -> int: ...
    def results(self) -> dict[str, Any]:
        """``{"summary": {name: int | float}, "tables": {name: {column: (ColumnType, values)}}}``
        (mixed value types, so ``Any``); SimulationError
        if packets are not conserved, OSError if a capture file cannot be flushed."""

def version() -> str:
    """The package version and a hash of the engine's sources."""

def resolve_tcp(scenario_json: str) -> str:
    """The scenario's JSON with every TCP flow's settings resolved against its profile."""

def bench_event_queue(events: int, pending: int, seed: int) -> int:
    """The bare event-queue benchmark; returns the number of events processed."""
