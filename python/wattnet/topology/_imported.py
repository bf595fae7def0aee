"""Turning a graph read from a file into links: merging parallel edges, dropping self-loops,
delays from coordinates. Shared by the GraphML and SNDlib importers."""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Literal

from wattnet.topology._fragment import ParameterChecks, Topology, link, nodes_named
from wattnet.topology.geo import haversine_km, propagation_delay_s, rounded_ms_delay_s


@dataclass
class RawEdge:
    a: str
    b: str
    rate_bps: float | None  # None: the file gives no capacity
    rate_source: str


def check_import_parameters(
    checks: ParameterChecks,
    default_rate_bps: float,
    buffer_packets: int,
    capacity_scale: float,
    propagation_speed_km_per_s: float,
    parallel_rates: str,
) -> None:
    checks.rate("default_rate_bps", default_rate_bps)
    checks.count("buffer_packets", buffer_packets)
    checks.positive("capacity_scale", capacity_scale)
    checks.positive("propagation_speed_km_per_s", propagation_speed_km_per_s)
    if parallel_rates not in ("sum", "max"):
        checks.fail("parallel_rates", f"must be 'sum' or 'max', got {parallel_rates!r}")


def assemble(
    name: str,
    source: str,
    node_names: list[str],
    coordinates: dict[str, tuple[float, float]],
    edges: list[RawEdge],
    *,
    default_rate_bps: float,
    default_delay_s: float | None,
    buffer_packets: int,
    exact_delays: bool,
    propagation_speed_km_per_s: float,
    parallel_rates: Literal["sum", "max"],
) -> Topology:
    merged: dict[frozenset[str], list[RawEdge]] = {}
    for edge in edges:
        if edge.a == edge.b:
            warnings.warn(f"{source}: dropped the self-loop at node {edge.a!r}", stacklevel=3)
            continue
        merged.setdefault(frozenset((edge.a, edge.b)), []).append(edge)

    links = []
    rate_source: dict[tuple[str, str], str] = {}
    delay_source: dict[tuple[str, str], str] = {}
    distance_km: dict[tuple[str, str], float] = {}
    merged_pairs: list[tuple[str, str]] = []
    for parallel in merged.values():
        a, b = parallel[0].a, parallel[0].b
        if len(parallel) > 1:
            merged_pairs.append((a, b))
            warnings.warn(
                f"{source}: merged {len(parallel)} parallel links between {a!r} and {b!r} "
                f"({parallel_rates} of their rates)",
                stacklevel=3,
            )
        rates = [edge.rate_bps if edge.rate_bps is not None else default_rate_bps for edge in parallel]
        rate_bps = sum(rates) if parallel_rates == "sum" else max(rates)
        rate_source[a, b] = "+".join(sorted({edge.rate_source for edge in parallel}))
        if a in coordinates and b in coordinates:
            distance_km[a, b] = haversine_km(*coordinates[a], *coordinates[b])
            delay_s = propagation_delay_s(distance_km[a, b], propagation_speed_km_per_s)
            if not exact_delays:
                delay_s = rounded_ms_delay_s(delay_s)
            delay_source[a, b] = "coordinates"
        elif default_delay_s is not None:
            delay_s = default_delay_s
            delay_source[a, b] = "default"
        else:
            missing = a if a not in coordinates else b
            raise ValueError(f"{source}: node {missing!r} has no coordinates; give default_delay_s")
        links.append(link(a, b, rate_bps, delay_s, buffer_packets))

    return Topology(
        name=name,
        nodes=nodes_named(node_names),
        links=links,
        hosts=list(node_names),
        groups={"routers": list(node_names)},
        coordinates=coordinates,
        info={
            "source": source,
            "distance_km": distance_km,
            "rate_source": rate_source,
            "delay_source": delay_source,
            "merged_links": merged_pairs,
        },
    )
