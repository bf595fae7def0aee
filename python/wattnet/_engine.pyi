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

class Ack:
    """An ACK that advanced snd_una, as a Python congestion control's ``on_ack`` and ``grow`` see it."""

    @property
    def now_s(self) -> float: ...
    @property
    def now_ps(self) -> int: ...
    @property
    def acked(self) -> float:
        """Segments newly acknowledged; in ``grow``, the growth credit (at most the RFC 3465 limit)."""
    @property
    def rtt_s(self) -> float | None: ...
    @property
    def rtt_ps(self) -> int | None:
        """A Karn-safe RTT sample from this ACK, or None."""
    @property
    def ece(self) -> bool: ...
    @property
    def snd_una(self) -> float:
        """snd_una after this ACK, in segments."""
    @property
    def snd_nxt(self) -> float:
        """snd_nxt when the ACK arrived, in segments."""

class Signal:
    """A congestion signal, as a Python congestion control's ``on_loss`` and ``on_ecn`` see it."""

    @property
    def kind(self) -> Literal["fast_retransmit", "timeout", "ecn"]: ...
    @property
    def now_s(self) -> float: ...
    @property
    def now_ps(self) -> int: ...
    @property
    def flight(self) -> float:
        """FlightSize in segments when the signal arrived."""

class RecoveryEnd:
    """The end of a loss recovery, or the restart after a timeout (``on_recovery_end``)."""

    @property
    def now_s(self) -> float: ...
    @property
    def now_ps(self) -> int: ...

class SubflowView:
    """What a congestion control may read of one subflow."""

    @property
    def cwnd(self) -> float: ...
    @property
    def ssthresh(self) -> float: ...
    @property
    def srtt_s(self) -> float | None: ...
    @property
    def srtt_ps(self) -> int | None: ...
    @property
    def min_rtt_s(self) -> float | None: ...
    @property
    def min_rtt_ps(self) -> int | None: ...
    @property
    def state(self) -> Literal["open", "disorder", "cwr", "recovery", "loss"]: ...
    @property
    def in_flight_bytes(self) -> int: ...
    @property
    def losses(self) -> int:
        """Congestion signals so far: fast retransmits, timeouts and ECN reductions."""
    @property
    def last_loss_s(self) -> float | None: ...
    @property
    def last_loss_ps(self) -> int | None: ...

class Subflows:
    """A connection's subflows as a hook sees them: ``index`` (the acting subflow), its window
    now (``cwnd``, ``ssthresh``), and ``subflows[i]``, each subflow's view."""

    @property
    def index(self) -> int: ...
    @property
    def cwnd(self) -> float: ...
    @property
    def ssthresh(self) -> float: ...
    def __len__(self) -> int: ...
    def __getitem__(self, i: int) -> SubflowView: ...

class Simulation:
    """A scenario built into a simulation, ready to run.

    Raises ``wattnet.errors.ScenarioError`` (with ``.path`` and ``.message``) for an invalid
    scenario, and OSError naming the file when a capture cannot be opened in ``pcap_dir``.
    ``policies(port, policy, params_json, rate_bps, transition_s, interval_s)`` makes the Python
    object (with ``observe(view: PortView)``) of each external controller;
    ``algorithms(flow, algorithm, params_json)`` returns ``maker(connection, subflows)``, which
    makes the Python object of each connection of a flow whose congestion control is external.
    """

    def __init__(
        self,
        scenario_json: str,
        pcap_dir: str | None = None,
        policies: Callable[..., Any] | None = None,
        algorithms: Callable[..., Any] | None = None,
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
