"""The scenario schema: pydantic models mirroring the engine's contract (crates/wattnet-engine/src/scenario.rs).

Field names, defaults and tags are the engine's; every quantity carries its unit in its
name. Building a model validates it and raises ``ScenarioError`` naming each field at fault.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Annotated, Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from wattnet.errors import ScenarioError

U8_MAX = 2**8 - 1
U32_MAX = 2**32 - 1
U64_MAX = 2**64 - 1

# A port's service rate is kept in whole bit/s, so it is at least 1.
PortRate = Annotated[float, Field(ge=1)]
PositiveRate = Annotated[float, Field(gt=0)]
NonNegativeSeconds = Annotated[float, Field(ge=0)]
PositiveSeconds = Annotated[float, Field(gt=0)]


class _Model(BaseModel):
    # Unknown fields are errors (the engine denies them too); NaN and infinities are never valid.
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False, use_attribute_docstrings=True)

    def __init__(self, **data: Any):
        try:
            super().__init__(**data)
        except ValidationError as error:
            raise ScenarioError(_field_errors(error)) from None


class Routing(_Model):
    metric: Literal["hops", "delay"] = "hops"
    """What a shortest path minimises."""
    ttl: int = Field(64, ge=1, le=U8_MAX)
    """Initial IP time-to-live; a packet is dropped when it reaches zero."""


class Node(_Model):
    name: str = Field(min_length=1)

    @field_validator("name")
    @classmethod
    def _no_arrow(cls, name: str) -> str:
        if "->" in name:
            raise ValueError("must not contain '->' (it separates the two ends of a port name)")
        return name


class DropTail(_Model):
    """FIFO with tail drop; exactly one of the two limits is set."""

    type: Literal["droptail"] = "droptail"
    limit_packets: int | None = Field(None, ge=1, le=U32_MAX)
    limit_bytes: int | None = Field(None, ge=1, le=U64_MAX)
    count_in_service: bool = True
    """Whether the packet being transmitted counts towards the limit, as in ns-2."""

    @model_validator(mode="after")
    def _exactly_one_limit(self) -> DropTail:
        if (self.limit_packets is None) == (self.limit_bytes is None):
            raise ValueError("set exactly one of limit_packets and limit_bytes")
        return self


Queue = Annotated[DropTail, Field(discriminator="type")]


def default_queue() -> DropTail:
    return DropTail(limit_packets=1000)


class PortOverride(_Model):
    """Settings of one direction of a link that differ from the link's own."""

    rate_bps: PortRate | None = None
    queue: Queue | None = None
    transition_s: NonNegativeSeconds | None = None


class Link(_Model):
    """A bidirectional link: two ports, one per direction, with the same propagation delay.

    ``rate_bps``, ``queue`` and ``transition_s`` apply to both directions unless a
    direction overrides them in ``a_to_b`` / ``b_to_a``.
    """

    a: str
    b: str
    rate_bps: PortRate
    delay_s: NonNegativeSeconds
    """One-way propagation delay."""
    queue: Queue = Field(default_factory=default_queue)
    transition_s: NonNegativeSeconds = 0.0
    """How long a port sends nothing after a rate change."""
    a_to_b: PortOverride | None = None
    b_to_a: PortOverride | None = None

    def port_names(self) -> tuple[str, str]:
        return f"{self.a}->{self.b}", f"{self.b}->{self.a}"


class Cbr(_Model):
    """Constant bit rate over UDP: packets spaced by size·8/rate."""

    type: Literal["cbr"] = "cbr"
    rate_bps: PositiveRate


class Poisson(_Model):
    """Poisson packet arrivals whose mean bit rate is ``rate_bps``."""

    type: Literal["poisson"] = "poisson"
    rate_bps: PositiveRate


class OnOff(_Model):
    """Exponential on periods sending CBR at ``peak_rate_bps``.

    Off periods are Exp(``off_mean_s``); or, with ``cycle_s``, an on period starts every
    ``cycle_s`` and lasts min(Exp(``on_mean_s``), ``cycle_s``). Set exactly one of the two.
    """

    type: Literal["on_off"] = "on_off"
    peak_rate_bps: PositiveRate
    on_mean_s: PositiveSeconds
    off_mean_s: PositiveSeconds | None = None
    cycle_s: PositiveSeconds | None = None

    @model_validator(mode="after")
    def _exactly_one_off_rule(self) -> OnOff:
        if (self.off_mean_s is None) == (self.cycle_s is None):
            raise ValueError("set exactly one of off_mean_s and cycle_s")
        return self


Traffic = Annotated[Cbr | Poisson | OnOff, Field(discriminator="type")]


class FixedSize(_Model):
    type: Literal["fixed"] = "fixed"
    bytes: int = Field(ge=1, le=U32_MAX)


class ExponentialSize(_Model):
    """⌈Exp(mean)⌉ bytes, at least 1."""

    type: Literal["exponential"] = "exponential"
    mean_bytes: float = Field(ge=1)


class UniformSize(_Model):
    """Uniform integer in [min_bytes, max_bytes]."""

    type: Literal["uniform"] = "uniform"
    min_bytes: int = Field(ge=1, le=U32_MAX)
    max_bytes: int = Field(ge=1, le=U32_MAX)

    @field_validator("max_bytes")
    @classmethod
    def _not_below_min(cls, max_bytes: int, info) -> int:
        min_bytes = info.data.get("min_bytes")
        if min_bytes is not None and max_bytes < min_bytes:
            raise ValueError(f"must be at least min_bytes ({min_bytes})")
        return max_bytes


PacketSize = Annotated[FixedSize | ExponentialSize | UniformSize, Field(discriminator="type")]


def default_packet_size() -> FixedSize:
    return FixedSize(bytes=1000)


class Flow(_Model):
    """A unidirectional stream of packets from ``src`` to ``dst``."""

    name: str = Field(min_length=1)
    src: str
    dst: str
    traffic: Traffic
    packet_size: PacketSize = Field(default_factory=default_packet_size)
    start_s: NonNegativeSeconds = 0.0
    stop_s: float | None = None
    """No packet is emitted at or after this time; absent means the end of the run."""

    @field_validator("stop_s")
    @classmethod
    def _after_start(cls, stop_s: float | None, info) -> float | None:
        start_s = info.data.get("start_s")
        if stop_s is not None and start_s is not None and stop_s <= start_s:
            raise ValueError(f"must be later than start_s ({start_s})")
        return stop_s


class SetRate(_Model):
    """Change a port's service rate."""

    action: Literal["set_rate"] = "set_rate"
    at_s: NonNegativeSeconds
    port: str
    """The port, named "from->to" after the link direction it sends along."""
    rate_bps: PortRate


Event = Annotated[SetRate, Field(discriminator="action")]

PortQuantity = Literal["queue_packets", "queue_bytes", "rate_bps", "arrival_rate_bps", "departure_rate_bps"]


class Recorder(_Model):
    """Samples port quantities every ``interval_s`` into the timeseries table."""

    interval_s: PositiveSeconds
    ports: list[str] = []
    """Ports to sample ("from->to"); empty means every port."""
    quantities: list[PortQuantity] = ["queue_packets", "rate_bps", "arrival_rate_bps"]


class Scenario(_Model):
    """A network, its traffic and what to record: everything one run needs."""

    name: str = ""
    """Free text naming the scenario; it does not affect the run."""
    seed: int = Field(ge=0, le=U64_MAX)
    duration_s: PositiveSeconds
    routing: Routing = Field(default_factory=Routing)
    nodes: list[Node] = Field(min_length=1)
    links: list[Link] = []
    flows: list[Flow] = []
    events: list[Event] = []
    recorder: Recorder | None = None

    @model_validator(mode="after")
    def _references(self) -> Scenario:
        problems = _reference_problems(self)
        if problems:
            raise ScenarioError(problems)
        return self

    @classmethod
    def from_dict(cls, data: Any) -> Scenario:
        """Validates a scenario given as nested dicts and lists (e.g. parsed TOML)."""
        if not isinstance(data, dict):
            raise ScenarioError([("", f"a scenario is a table of fields, not {type(data).__name__}")])
        return cls(**data)

    def with_seed(self, seed: int) -> Scenario:
        return Scenario.from_dict({**self.model_dump(), "seed": seed})

    def to_engine_json(self) -> str:
        """The canonical JSON the engine reads: every field explicit, keys sorted, no spaces."""
        return json.dumps(self.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))


def load_scenario(path: str | Path) -> Scenario:
    """Reads and validates a TOML scenario file."""
    path = Path(path)
    with path.open("rb") as file:
        try:
            data = tomllib.load(file)
        except tomllib.TOMLDecodeError as error:
            raise ScenarioError([("", f"{path}: invalid TOML: {error}")]) from None
    return Scenario.from_dict(data)


def _union_tags(union: Any) -> set[str]:
    members = get_args(union)[0]
    key = get_args(union)[1].discriminator
    return {get_args(member.model_fields[key].annotation)[0] for member in (get_args(members) or (members,))}


# Pydantic puts a union's tag in an error's location (("flows", 0, "traffic", "cbr", "rate_bps"));
# no field is named like a tag, so the tags can simply be dropped from the path.
_UNION_TAGS = set().union(*(_union_tags(union) for union in (Queue, Traffic, PacketSize, Event)))


def _field_path(loc: tuple[str | int, ...]) -> str:
    path = ""
    for item in loc:
        if isinstance(item, int):
            path += f"[{item}]"
        elif item not in _UNION_TAGS:
            path += f".{item}" if path else item
    return path


def _join_path(prefix: str, field: str) -> str:
    if not prefix or not field:
        return prefix or field
    return prefix + field if field.startswith("[") else f"{prefix}.{field}"


def _field_errors(error: ValidationError) -> list[tuple[str, str]]:
    errors = []
    for detail in error.errors():
        loc, kind, message = tuple(detail["loc"]), detail["type"], detail["msg"]
        if kind == "extra_forbidden":
            message = "unknown field"
        elif kind == "missing":
            message = "required field is missing"
        elif kind == "union_tag_invalid":
            key = detail["ctx"]["discriminator"].strip("'")
            loc += (key,)
            message = f"unknown {key} {detail['ctx']['tag']!r}; expected one of {detail['ctx']['expected_tags']}"
        elif kind == "union_tag_not_found":
            loc += (detail["ctx"]["discriminator"].strip("'"),)
            message = "required field is missing"
        elif kind == "value_error" and isinstance(detail["ctx"]["error"], ScenarioError):
            # Raised by a nested model's __init__ (pydantic calls it as the model overrides it)
            # or by Scenario's cross-reference check, with paths relative to that model.
            prefix = _field_path(loc)
            errors.extend((_join_path(prefix, field), problem) for field, problem in detail["ctx"]["error"].errors)
            continue
        else:
            message = message.removeprefix("Value error, ")
            message = message[:1].lower() + message[1:]
            if isinstance(detail.get("input"), (int, float, str)) and kind != "value_error":
                message += f" (got {detail['input']!r})"
        errors.append((_field_path(loc), message))
    return errors


def _reference_problems(scenario: Scenario) -> list[tuple[str, str]]:
    """Checks what no single field can: names that must exist, be unique, or be connected."""
    problems: list[tuple[str, str]] = []
    nodes: dict[str, int] = {}
    for i, node in enumerate(scenario.nodes):
        if node.name in nodes:
            problems.append((f"nodes[{i}].name", f"duplicate node name {node.name!r} (also nodes[{nodes[node.name]}])"))
        else:
            nodes[node.name] = i

    component = {name: name for name in nodes}  # union-find over the links

    def root(name: str) -> str:
        while component[name] != name:
            component[name] = component[component[name]]
            name = component[name]
        return name

    ports: set[str] = set()
    node_pairs: dict[frozenset[str], int] = {}
    for i, link in enumerate(scenario.links):
        unknown = False
        for end in ("a", "b"):
            if getattr(link, end) not in nodes:
                problems.append((f"links[{i}].{end}", f"unknown node {getattr(link, end)!r}"))
                unknown = True
        if unknown:
            continue
        if link.a == link.b:
            problems.append((f"links[{i}].b", f"self-loop: a link joins two different nodes, both ends are {link.a!r}"))
            continue
        pair = frozenset((link.a, link.b))
        if pair in node_pairs:
            problems.append(
                (f"links[{i}]", f"duplicate link between {link.a!r} and {link.b!r} (also links[{node_pairs[pair]}])")
            )
            continue
        node_pairs[pair] = i
        ports.update(link.port_names())
        component[root(link.a)] = root(link.b)

    # A faulty link would make flows look disconnected and ports unknown: check those only without one.
    links_valid = not problems
    flow_names: dict[str, int] = {}
    for i, flow in enumerate(scenario.flows):
        if flow.name in flow_names:
            problems.append(
                (f"flows[{i}].name", f"duplicate flow name {flow.name!r} (also flows[{flow_names[flow.name]}])")
            )
        else:
            flow_names[flow.name] = i
        known = True
        for end in ("src", "dst"):
            if getattr(flow, end) not in nodes:
                problems.append((f"flows[{i}].{end}", f"unknown node {getattr(flow, end)!r}"))
                known = False
        if known and flow.src == flow.dst:
            problems.append((f"flows[{i}].dst", f"same node as src ({flow.src!r})"))
        elif known and links_valid and root(flow.src) != root(flow.dst):
            problems.append(
                (f"flows[{i}].dst", f"{flow.dst!r} is not connected to src {flow.src!r} by any path of links")
            )
        if flow.start_s >= scenario.duration_s:
            problems.append(
                (f"flows[{i}].start_s", f"at or after the end of the run (duration_s = {scenario.duration_s})")
            )

    for i, event in enumerate(scenario.events):
        if event.at_s > scenario.duration_s:
            problems.append((f"events[{i}].at_s", f"outside the run [0, duration_s = {scenario.duration_s}]"))
        if links_valid and event.port not in ports:
            problems.append((f"events[{i}].port", _unknown_port(event.port)))

    if scenario.recorder is not None:
        for i, port in enumerate(scenario.recorder.ports):
            if links_valid and port not in ports:
                problems.append((f"recorder.ports[{i}]", _unknown_port(port)))
            elif port in scenario.recorder.ports[:i]:
                problems.append((f"recorder.ports[{i}]", f"port {port!r} listed twice"))
        for i, quantity in enumerate(scenario.recorder.quantities):
            if quantity in scenario.recorder.quantities[:i]:
                problems.append((f"recorder.quantities[{i}]", f"quantity {quantity!r} listed twice"))
    return problems


def _unknown_port(port: str) -> str:
    return f'unknown port {port!r}; a port is named "from->to" after a link between the nodes from and to'
