"""The root ``Scenario``: everything one run needs, and how it is rebuilt and written out."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field, model_validator

from wattnet.errors import ScenarioError
from wattnet.scenario.base import _UNION_TAGS, _Model, _union_tags
from wattnet.scenario.checks import _reference_problems
from wattnet.scenario.controllers import Controller, RateControl
from wattnet.scenario.events import Event
from wattnet.scenario.flows import Flow, PacketSize
from wattnet.scenario.limits import U64_MAX, PositiveSeconds
from wattnet.scenario.links import Link, PortOverride
from wattnet.scenario.nodes import HostPower, Node
from wattnet.scenario.power import PowerModel
from wattnet.scenario.queues import Queue
from wattnet.scenario.recording import Pcap, Recorder
from wattnet.scenario.routing import Reconvergence, Routing
from wattnet.scenario.tcp import CongestionControl
from wattnet.scenario.traffic import TCP_TRAFFIC, Traffic

# Every tagged union of the scenario, whose tags base._field_path drops from error paths.
_UNIONS = (Queue, Traffic, PacketSize, Event, CongestionControl, Reconvergence, PowerModel, Controller, RateControl)
_UNION_TAGS.update(*(_union_tags(union) for union in (*_UNIONS, HostPower)))


class Scenario(_Model):
    """A network, its traffic and what to record: everything one run needs.

    Built from keyword arguments, ``Scenario.from_dict`` or ``load_scenario``; every field is
    validated and a ScenarioError names each one at fault. Quantities carry their unit in
    their names (``duration_s`` in seconds, ``rate_bps`` in bit/s). The scenario reference of
    the documentation lists every field.

    Example:
        >>> scenario = Scenario(seed=1, duration_s=10.0, nodes=[{"name": "a"}, {"name": "b"}],
        ...                     links=[{"a": "a", "b": "b", "rate_bps": 10e6, "delay_s": 0.001}])
        >>> scenario.links[0].port_names()
        ('a->b', 'b->a')
    """

    name: str = ""
    """Free text naming the scenario; it does not affect the run."""
    seed: int = Field(ge=0, le=U64_MAX)
    """Every random stream of the run (one per source, queue, link) derives from it: same scenario and
    seed, bit-identical results."""
    duration_s: PositiveSeconds
    """Simulated time the run lasts."""
    routing: Routing = Field(default_factory=Routing)
    """How paths are chosen and how the routers follow link changes."""
    nodes: list[Node] = Field(min_length=1)
    """Hosts and routers alike; a node's id is its position here."""
    links: list[Link] = []
    """Bidirectional links: one port (queue and transmitter) per direction."""
    flows: list[Flow] = []
    """The traffic: UDP sources and TCP applications."""
    events: list[Event] = []
    """Changes at given times: rates, links down and up, ports asleep and awake."""
    recorder: Recorder | None = None
    """What to sample over time into the timeseries table; absent records no time series."""
    pcap: list[Pcap] = []
    """Ports to capture into pcap files (classic libpcap, IPv4 packets, nanosecond timestamps)."""

    @model_validator(mode="after")
    def _references(self) -> Scenario:
        problems = _reference_problems(self)
        if problems:
            raise ScenarioError(problems)
        return self

    @classmethod
    def from_dict(cls, data: Any, base_dir: str | Path | None = None) -> Scenario:
        """Validates a scenario given as nested dicts and lists (e.g. parsed TOML or JSON); a
        composed one (``topology``, ``traffic``, ``apply``: ``wattnet.builders``) is expanded
        first, its files looked up in ``base_dir``.

        Raises ScenarioError listing every field at fault.

        Example:
            >>> scenario = Scenario.from_dict({"seed": 1, "duration_s": 2.0, "nodes": [{"name": "a"}]})
            >>> scenario.routing.ttl
            64
        """
        if not isinstance(data, dict):
            raise ScenarioError([("", f"a scenario is a table of fields, not {type(data).__name__}")])
        try:
            if any(key in data for key in ("topology", "traffic", "apply")):
                from wattnet.builders import expand  # a composed scenario: builder, generators, settings

                data = expand(data, base_dir)
            return cls(**data)
        except RecursionError:
            raise ScenarioError([("", "values nested too deeply to be a scenario")]) from None

    def with_settings(self, *, ports: Any = None, nodes: Any = None, **fields: Any) -> Scenario:
        """This scenario with ``fields`` set on every port (or node) the selector names
        (``wattnet.selectors``): e.g. ``with_settings(ports="core", transition_s=0.001)``."""
        from wattnet.selectors import apply_settings

        fields = {key: value.model_dump() if isinstance(value, BaseModel) else value for key, value in fields.items()}
        target = {"ports": ports} if nodes is None else {"nodes": nodes}
        return Scenario.from_dict(apply_settings(self.model_dump(), [{**target, **fields}]))

    def with_power(self, model: Any, ports: Any = "all") -> Scenario:
        return self.with_settings(ports=ports, power=model)

    def with_controller(self, controller: Any, ports: Any) -> Scenario:
        return self.with_settings(ports=ports, controller=controller)

    def with_queue(self, queue: Any, ports: Any = "all") -> Scenario:
        return self.with_settings(ports=ports, queue=queue)

    def with_sleep(
        self, at_s: float | list[float], ports: Any, wake_at_s: float | list[float] | None = None
    ) -> Scenario:
        """The selected ports sleep whenever idle from ``at_s`` (each time given), and stay awake from ``wake_at_s``."""
        return self.with_settings(
            ports=ports, sleep_at_s=at_s, **({} if wake_at_s is None else {"wake_at_s": wake_at_s})
        )

    def with_seed(self, seed: int) -> Scenario:
        """This scenario with another seed (0 to 2⁶⁴ − 1); everything else unchanged.

        Example:
            >>> load_scenario("examples/chain.toml").with_seed(7).seed
            7
        """
        return Scenario.from_dict({**self.model_dump(), "seed": seed})

    def to_engine_json(self) -> str:
        """The canonical JSON the engine reads: every field explicit, keys sorted, no spaces."""
        return json.dumps(self.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))

    def to_toml(self) -> str:
        """The scenario as a TOML file that ``load_scenario`` reads back into an equal scenario.

        Every field is written, defaults included; fields that are absent (``None``) are left
        out, as TOML has no null. Top-level tables and lists of tables get their own sections,
        anything nested deeper is written inline.

        Example:
            >>> scenario = load_scenario("examples/chain.toml")
            >>> scenario_from_toml(scenario.to_toml()) == scenario
            True
        """
        from wattnet.toml_writer import to_toml

        return to_toml(self.model_dump(mode="json", exclude_none=True))

    def random_sources(self) -> list[str]:
        """The fields whose behaviour draws from the seed's random streams.

        Empty means every seed gives the same results, so replications of this scenario would
        all be identical. Random are: Poisson, on-off and web traffic, exponential and
        uniform packet sizes, RED queues, links with an ``error_rate``, and
        ``available_bandwidth``.

        Example:
            >>> load_scenario("examples/chain.toml").random_sources()
            ['flows[1].traffic', 'flows[1].packet_size']
        """
        sources = []
        for i, flow in enumerate(self.flows):
            if flow.traffic.type in ("poisson", "on_off", "web"):
                sources.append(f"flows[{i}].traffic")
            if flow.traffic.type not in TCP_TRAFFIC and flow.packet_size.type != "fixed":
                sources.append(f"flows[{i}].packet_size")
        for i, link in enumerate(self.links):
            for where, part in (("", link), (".a_to_b", link.a_to_b), (".b_to_a", link.b_to_a)):
                if part is None:
                    continue
                if part.queue is not None and part.queue.type == "red":
                    sources.append(f"links[{i}]{where}.queue")
                if part.error_rate:
                    sources.append(f"links[{i}]{where}.error_rate")
                if isinstance(part, PortOverride) and part.available_bandwidth is not None:
                    sources.append(f"links[{i}]{where}.available_bandwidth")
        return sources
