"""SNDlib ``abilene`` (Orłowski et al. 2010), the network of Sassu et al. 2012 (docs/models/topology.md)."""

from __future__ import annotations

from typing import Any

from wattnet.topology._fragment import ParameterChecks, Topology, link, nodes_named
from wattnet.topology.geo import FIBRE_SPEED_KM_PER_S, haversine_km, propagation_delay_s, rounded_ms_delay_s

# (SNDlib name, city, longitude, latitude), in SNDlib order: the position is the node id, the
# numbering that makes Sassu et al. 2012's Fig. 1 and Table V consistent.
ABILENE_NODES: tuple[tuple[str, str, float, float], ...] = (
    ("ATLAM5", "Atlanta (M5 PoP)", -84.3833, 33.75),
    ("ATLAng", "Atlanta", -85.50, 34.50),
    ("CHINng", "Chicago", -87.6167, 41.8333),
    ("DNVRng", "Denver", -105.00, 40.75),
    ("HSTNng", "Houston", -95.517364, 29.770031),
    ("IPLSng", "Indianapolis", -86.159535, 39.780622),
    ("KSCYng", "Kansas City", -96.596704, 38.961694),
    ("LOSAng", "Los Angeles", -118.25, 34.05),
    ("NYCMng", "New York", -73.9667, 40.7833),
    ("SNVAng", "Sunnyvale", -122.02553, 37.38575),
    ("STTLng", "Seattle", -122.30, 47.60),
    ("WASHng", "Washington DC", -77.026842, 38.897303),
)

# (source, target, pre-installed capacity in Mb/s), in SNDlib order. Every link also offers one
# 40 000 Mb/s module.
ABILENE_LINKS: tuple[tuple[str, str, float], ...] = (
    ("ATLAM5", "ATLAng", 9920.0),
    ("ATLAng", "HSTNng", 9920.0),
    ("ATLAng", "IPLSng", 2480.0),
    ("ATLAng", "WASHng", 9920.0),
    ("CHINng", "IPLSng", 9920.0),
    ("CHINng", "NYCMng", 9920.0),
    ("DNVRng", "KSCYng", 9920.0),
    ("DNVRng", "SNVAng", 9920.0),
    ("DNVRng", "STTLng", 9920.0),
    ("HSTNng", "KSCYng", 9920.0),
    ("HSTNng", "LOSAng", 9920.0),
    ("IPLSng", "KSCYng", 9920.0),
    ("LOSAng", "SNVAng", 9920.0),
    ("NYCMng", "WASHng", 9920.0),
    ("SNVAng", "STTLng", 9920.0),
)
ABILENE_MODULE_CAPACITY_MBPS = 40_000.0


def abilene(
    rate_bps: float = 40e6,
    buffer_packets: int = 300,
    *,
    exact_delays: bool = False,
    propagation_speed_km_per_s: float = FIBRE_SPEED_KM_PER_S,
) -> Topology:
    """The 12 nodes (named as in SNDlib, ids in SNDlib order) and 15 links of ABILENE.

    Delays are the haversine distance (R = 6371 km) at ``propagation_speed_km_per_s``, rounded to
    whole milliseconds with a 1 ms minimum (Sassu et al.'s "1 ms to 11 ms"), or exact with
    ``exact_delays``. Defaults are Sassu et al. 2012's: every link 40 Mb/s (40 Gb/s scaled down
    1000×) and 300 packets per interface. ``info`` holds per link (keyed by its (a, b)) ``distance_km``,
    ``exact_delay_s`` and ``sndlib_capacity_mbps``, and per node ``cities``.
    """
    checks = ParameterChecks()
    checks.rate("rate_bps", rate_bps)
    checks.count("buffer_packets", buffer_packets)
    checks.positive("propagation_speed_km_per_s", propagation_speed_km_per_s)
    checks.raise_if_any()

    coordinates = {name: (longitude, latitude) for name, _, longitude, latitude in ABILENE_NODES}
    links: list[dict[str, Any]] = []
    distance_km: dict[tuple[str, str], float] = {}
    exact_delay_s: dict[tuple[str, str], float] = {}
    for a, b, _ in ABILENE_LINKS:
        distance_km[a, b] = haversine_km(*coordinates[a], *coordinates[b])
        exact_delay_s[a, b] = propagation_delay_s(distance_km[a, b], propagation_speed_km_per_s)
        delay_s = exact_delay_s[a, b] if exact_delays else rounded_ms_delay_s(exact_delay_s[a, b])
        links.append(link(a, b, rate_bps, delay_s, buffer_packets))
    names = [name for name, *_ in ABILENE_NODES]
    return Topology(
        name="abilene",
        nodes=nodes_named(names),
        links=links,
        hosts=names,
        groups={"routers": names},
        coordinates=coordinates,
        info={
            "cities": {name: city for name, city, *_ in ABILENE_NODES},
            "distance_km": distance_km,
            "exact_delay_s": exact_delay_s,
            "sndlib_capacity_mbps": {(a, b): capacity for a, b, capacity in ABILENE_LINKS},
            "module_capacity_mbps": ABILENE_MODULE_CAPACITY_MBPS,
        },
    )
