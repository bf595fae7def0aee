"""Internet Topology Zoo GraphML files (topology-zoo.org): reading them, and writing a topology
in the same attribute conventions."""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path
from typing import Any, Literal

import networkx as nx

from wattnet.topology._fragment import ParameterChecks, Topology
from wattnet.topology._imported import RawEdge, assemble, check_import_parameters
from wattnet.topology.geo import FIBRE_SPEED_KM_PER_S

_SPEED_UNITS_BPS = {"": 1.0, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}


def from_graphml(
    path: str | Path,
    *,
    default_rate_bps: float,
    default_delay_s: float,
    buffer_packets: int,
    use_link_speed: bool = True,
    capacity_scale: float = 1.0,
    exact_delays: bool = True,
    propagation_speed_km_per_s: float = FIBRE_SPEED_KM_PER_S,
    parallel_rates: Literal["sum", "max"] = "sum",
) -> Topology:
    """Nodes and links of a Topology Zoo GraphML file.

    A node is named by its ``label`` (by its GraphML id when it has none; labels shared by
    several nodes get ``_<id>`` appended). A link between two nodes with ``Latitude`` and
    ``Longitude`` gets the haversine delay at ``propagation_speed_km_per_s`` (rounded to whole
    ms, 1 ms minimum, unless ``exact_delays``), otherwise ``default_delay_s``. Its rate is
    ``LinkSpeedRaw`` (bit/s), else ``LinkSpeed`` × ``LinkSpeedUnits``, times ``capacity_scale``;
    ``default_rate_bps`` where neither is given or ``use_link_speed`` is false. Parallel edges
    are merged (``parallel_rates``; for a directed file listing both directions of each link
    use "max") and self-loops dropped, each with a warning.
    """
    checks = ParameterChecks()
    check_import_parameters(
        checks, default_rate_bps, buffer_packets, capacity_scale, propagation_speed_km_per_s, parallel_rates
    )
    checks.seconds("default_delay_s", default_delay_s)
    checks.raise_if_any()

    path = Path(path)
    graph = nx.read_graphml(path, force_multigraph=True)
    labels = {node: str(data.get("label") or node).replace("->", "-") for node, data in graph.nodes(data=True)}
    shared = {label for label, count in Counter(labels.values()).items() if count > 1}
    names = {node: f"{label}_{node}" if label in shared else label for node, label in labels.items()}

    coordinates = {}
    for node, data in graph.nodes(data=True):
        longitude, latitude = _float(data.get("Longitude")), _float(data.get("Latitude"))
        if longitude is not None and latitude is not None:
            coordinates[names[node]] = (longitude, latitude)

    edges = []
    for a, b, data in graph.edges(data=True):
        rate_bps, rate_source = _link_speed_bps(data) if use_link_speed else (None, "default")
        edges.append(RawEdge(names[a], names[b], None if rate_bps is None else rate_bps * capacity_scale, rate_source))
    return assemble(
        str(graph.graph.get("label") or graph.graph.get("Network") or path.stem),
        str(path),
        list(names.values()),
        coordinates,
        edges,
        default_rate_bps=default_rate_bps,
        default_delay_s=default_delay_s,
        buffer_packets=buffer_packets,
        exact_delays=exact_delays,
        propagation_speed_km_per_s=propagation_speed_km_per_s,
        parallel_rates=parallel_rates,
    )


def to_graphml(topology: Topology, path: str | Path) -> None:
    """Writes the topology with Topology Zoo's attributes: node ``label``, ``Longitude``,
    ``Latitude``; edge ``LinkSpeedRaw`` (the link's rate_bps) and ``delay_s``."""
    graph = nx.Graph(label=topology.name)
    for i, name in enumerate(topology.names):
        attributes: dict[str, Any] = {"label": name}
        if name in topology.coordinates:
            attributes["Longitude"], attributes["Latitude"] = topology.coordinates[name]
        graph.add_node(str(i), **attributes)
    ids = topology.ids
    for link in topology.links:
        graph.add_edge(
            str(ids[link["a"]]), str(ids[link["b"]]), LinkSpeedRaw=float(link["rate_bps"]), delay_s=link["delay_s"]
        )
    nx.write_graphml(graph, path)


def _float(value: Any) -> float | None:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if math.isfinite(number) else None


def _link_speed_bps(data: dict[str, Any]) -> tuple[float | None, str]:
    raw = _float(data.get("LinkSpeedRaw"))
    if raw is not None and raw > 0:
        return raw, "LinkSpeedRaw"
    speed = _float(data.get("LinkSpeed"))
    unit = str(data.get("LinkSpeedUnits", "")).strip().upper()
    if speed is not None and speed > 0 and unit in _SPEED_UNITS_BPS:
        return speed * _SPEED_UNITS_BPS[unit], "LinkSpeed"
    return None, "default"
