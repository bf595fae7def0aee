"""What every builder returns, and the parameter checks they share."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import networkx as nx

from wattnet.errors import ScenarioError
from wattnet.scenario import PortOverride, Scenario


@dataclass
class Topology:
    """A scenario fragment: ``nodes`` and ``links`` as the scenario's own dicts, ready to merge
    (``Scenario(nodes=t.nodes, links=t.links, ...)`` or ``t.scenario(...)``), plus what the
    builder knows about them.

    A node's id is its position in ``nodes`` (``ids``); for ABILENE that is the SNDlib order.
    ``groups`` names the roles (``"hosts"``, ``"core"``, ...); ``coordinates`` maps a node to
    (longitude, latitude) in degrees where known; ``info`` holds builder-specific facts such as
    the ports that matter or the buffer sizes chosen.
    """

    name: str
    nodes: list[dict[str, Any]]
    links: list[dict[str, Any]]
    hosts: list[str] = field(default_factory=list)
    groups: dict[str, list[str]] = field(default_factory=dict)
    coordinates: dict[str, tuple[float, float]] = field(default_factory=dict)
    info: dict[str, Any] = field(default_factory=dict)

    @property
    def names(self) -> list[str]:
        """Node names by id."""
        return [node["name"] for node in self.nodes]

    @property
    def ids(self) -> dict[str, int]:
        """Node name -> 0-based id."""
        return {node["name"]: i for i, node in enumerate(self.nodes)}

    def link_between(self, a: str, b: str) -> dict[str, Any]:
        """The link joining nodes a and b, in either order."""
        for link in self.links:
            if {link["a"], link["b"]} == {a, b}:
                return link
        raise KeyError(f"no link between {a!r} and {b!r}")

    def graph(self) -> nx.Graph:
        """The undirected graph: nodes in id order, each link an edge carrying ``rate_bps`` and ``delay_s``."""
        graph = nx.Graph(name=self.name)
        for name in self.names:
            graph.add_node(name)
        for node, (longitude, latitude) in self.coordinates.items():
            graph.nodes[node].update(longitude=longitude, latitude=latitude)
        for link in self.links:
            graph.add_edge(link["a"], link["b"], rate_bps=link["rate_bps"], delay_s=link["delay_s"])
        return graph

    def fragment(self) -> dict[str, list[dict[str, Any]]]:
        return {"nodes": self.nodes, "links": self.links}

    def scenario(self, **fields: Any) -> Scenario:
        """A validated Scenario of this network and the given fields (seed, duration_s, flows, ...)."""
        return Scenario.from_dict({**self.fragment(), **fields})


class ParameterChecks:
    """Collects every bad builder parameter, then raises one ScenarioError naming each."""

    def __init__(self) -> None:
        self.problems: list[tuple[str, str]] = []

    def fail(self, parameter: str, problem: str) -> None:
        self.problems.append((parameter, problem))

    def count(self, parameter: str, value: Any, minimum: int = 1) -> bool:
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(parameter, f"must be an integer, got {value!r}")
            return False
        if value < minimum:
            self.fail(parameter, f"must be at least {minimum}, got {value}")
            return False
        return True

    def rate(self, parameter: str, value: Any) -> None:
        # Port rates are whole bit/s in the engine, so at least 1 (as the schema's PortRate).
        if not _is_number(value) or not math.isfinite(value) or value < 1:
            self.fail(parameter, f"must be a finite rate of at least 1 bit/s, got {value!r}")

    def seconds(self, parameter: str, value: Any, positive: bool = False) -> None:
        if not _is_number(value) or not math.isfinite(value) or value < 0 or (positive and value == 0):
            bound = "positive" if positive else "non-negative"
            self.fail(parameter, f"must be a finite {bound} number of seconds, got {value!r}")

    def positive(self, parameter: str, value: Any) -> None:
        if not _is_number(value) or not math.isfinite(value) or value <= 0:
            self.fail(parameter, f"must be a finite positive number, got {value!r}")

    def probability(self, parameter: str, value: Any) -> None:
        if not _is_number(value) or not 0 <= value < 1:
            self.fail(parameter, f"must be in [0, 1), got {value!r}")

    def port_override(self, parameter: str, value: dict[str, Any] | None) -> None:
        if value is None:
            return
        try:
            PortOverride(**value)
        except ScenarioError as error:
            self.problems.extend(
                (f"{parameter}.{path}" if path else parameter, problem) for path, problem in error.errors
            )
        except TypeError:
            self.fail(parameter, f"must be a table of port settings (rate_bps, queue, ...), got {value!r}")

    def raise_if_any(self) -> None:
        if self.problems:
            raise ScenarioError(self.problems)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def droptail(buffer_packets: int) -> dict[str, Any]:
    return {"type": "droptail", "limit_packets": buffer_packets}


def link(a: str, b: str, rate_bps: float, delay_s: float, buffer_packets: int, **extra: Any) -> dict[str, Any]:
    """A link dict in the scenario's format; ``extra`` holds per-direction overrides and error rates."""
    entry = {"a": a, "b": b, "rate_bps": float(rate_bps), "delay_s": float(delay_s), "queue": droptail(buffer_packets)}
    entry.update({key: value for key, value in extra.items() if value is not None})
    return entry


def nodes_named(names: list[str]) -> list[dict[str, Any]]:
    return [{"name": name} for name in names]
