"""Great-circle distances and the propagation delays they give (docs/models/topology.md, ABILENE)."""

from __future__ import annotations

import math

EARTH_RADIUS_KM = 6371.0
# About 2/3 of c: light in fibre.
FIBRE_SPEED_KM_PER_S = 2e5


def haversine_km(
    longitude_a: float, latitude_a: float, longitude_b: float, latitude_b: float, radius_km: float = EARTH_RADIUS_KM
) -> float:
    """Great-circle distance between two points given in degrees."""
    phi_a, phi_b = math.radians(latitude_a), math.radians(latitude_b)
    d_phi = phi_b - phi_a
    d_lambda = math.radians(longitude_b - longitude_a)
    h = math.sin(d_phi / 2) ** 2 + math.cos(phi_a) * math.cos(phi_b) * math.sin(d_lambda / 2) ** 2
    return 2 * radius_km * math.asin(math.sqrt(h))


def propagation_delay_s(distance_km: float, speed_km_per_s: float = FIBRE_SPEED_KM_PER_S) -> float:
    """Seconds light takes over ``distance_km`` km at ``speed_km_per_s`` (default: in fibre, 2·10⁵ km/s)."""
    return distance_km / speed_km_per_s


def rounded_ms_delay_s(delay_s: float) -> float:
    """The delay rounded to whole milliseconds, half up, at least 1 ms: Sassu et al. 2012's convention
    ("delays vary in the range of 1 ms to 11 ms")."""
    return max(1, math.floor(delay_s * 1000 + 0.5)) / 1000
