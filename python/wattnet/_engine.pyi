"""Type stub of the compiled engine binding (crates/wattnet-py): scenario JSON in, columnar results out."""

from collections.abc import Callable
from typing import Any, Literal, TypeAlias, TypedDict

from wattnet.errors import ScenarioError as ScenarioError
from wattnet.errors import SimulationError as SimulationError

ColumnType: TypeAlias = Literal["f64", "u64", "str"]
# A column travels with its type, so that an empty one keeps it.
Column: TypeAlias = (
    tuple[Literal["f64"], list[float]] | tuple[Literal["u64"], list[int]] | tuple[Literal["str"], list[str]]
)

class EngineResults(TypedDict):
    """What ``Simulation.results`` returns: the summary's counters and the tables' columns."""

    summary: dict[str, int | float]
    tables: dict[str, dict[str, Column]]

class PortView:
    """What a Python policy's ``observe`` sees (read-only): the port's state, and why it is called."""

    @property
    def event(self) -> Literal["tick", "arrival", "departure"]: ...
    @property
    def now_s(self) -> float: ...
    @property
    def now_ps(self) -> int:
        """The clock in picoseconds, exact."""
    @property
    def queue_bits(self) -> int:
        """Bits waiting, not counting the packet in service."""
    @property
    def queue_packets(self) -> int: ...
    @property
    def rate_bps(self) -> int: ...
    @property
    def arrived_bytes(self) -> int:
        """Bytes offered to the port since the start, admitted or not."""
    @property
    def departed_bytes(self) -> int:
        """Bytes transmitted since the start."""
    @property
    def frozen_until_ps(self) -> int:
        """The port sends nothing before this time (a rate transition under way), picoseconds."""
    @property
    def transmitting(self) -> bool: ...

class Simulation:
    """A scenario built into a simulation, ready to run.

    Raises ``wattnet.errors.ScenarioError`` (with ``.path`` and ``.message``) for an invalid
    scenario, and OSError naming the file when a capture cannot be opened in ``pcap_dir``.
    ``policies(port, policy, params_json, rate_bps, transition_s, interval_s)`` makes the Python
    object (with ``observe(view: PortView)``) of each external controller.
    """

    def __init__(
        self, scenario_json: str, pcap_dir: str | None = None, policies: Callable[..., Any] | None = None
    ) -> None: ...
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
    def results(self) -> EngineResults:
        """``{"summary": {...}, "tables": {name: {column: (type, values)}}}``; SimulationError
        if packets are not conserved, OSError if a capture file cannot be flushed."""

def version() -> str:
    """The package version and a hash of the engine's sources."""

def resolve_tcp(scenario_json: str) -> str:
    """The scenario's JSON with each TCP flow's settings resolved against its profile."""

def scenario_schema() -> str:
    """The scenario format the engine accepts, as JSON Schema derived from its serde types."""

def bench_event_queue(events: int, pending: int, seed: int) -> int:
    """The bare event-queue benchmark; returns the number of events processed."""
