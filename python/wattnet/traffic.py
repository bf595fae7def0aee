"""Traffic builders: lists of scenario flows for a topology (docs/models/traffic-models.md)."""

from __future__ import annotations

from typing import Any, Literal

import numpy as np

from wattnet.errors import ScenarioError
from wattnet.topology import Topology


def link_cbr_flows(
    topology: Topology,
    rng: np.random.Generator,
    *,
    load: float = 0.25,
    packet_bytes: int = 1000,
    prefix: str = "cbr",
    directions: Literal["both", "a_to_b", "b_to_a"] = "both",
) -> list[dict[str, Any]]:
    """Background CBR over UDP at ``load`` × the rate of every link (Sassu et al. 2012; docs/models/traffic-models.md):
    one flow per link per direction between the two adjacent nodes, named
    ``"{prefix} {from}->{to}"`` after the port it loads, with fixed ``packet_bytes`` packets.
    ``directions`` keeps both directions (wattnet's default) or one flow per link, from
    ``a`` to ``b`` or from ``b`` to ``a`` (one ns-2 CBR agent per link).

    Each flow starts at an offset drawn uniformly in [0, one packet interval) from ``rng``
    (Sassu et al. 2012: 10 Mb/s of 1000 B packets, a packet every 0.8 ms), in link order, a→b before
    b→a. A direction's own ``rate_bps`` (``a_to_b`` / ``b_to_a``) sets its flow's rate.
    """
    problems = []
    if not isinstance(rng, np.random.Generator):
        problems.append(("rng", f"must be a numpy.random.Generator (np.random.default_rng(seed)), got {rng!r}"))
    if isinstance(load, bool) or not isinstance(load, (int, float)) or not 0 < load <= 1:
        problems.append(("load", f"must be in (0, 1] (0.25 for 25 % of each link), got {load!r}"))
    if isinstance(packet_bytes, bool) or not isinstance(packet_bytes, int) or packet_bytes < 1:
        problems.append(("packet_bytes", f"must be a positive integer, got {packet_bytes!r}"))
    if directions not in ("both", "a_to_b", "b_to_a"):
        problems.append(("directions", f"must be 'both', 'a_to_b' or 'b_to_a', got {directions!r}"))
    if problems:
        raise ScenarioError(problems)

    loaded = []
    for link in topology.links:
        for source, target, override in ((link["a"], link["b"], "a_to_b"), (link["b"], link["a"], "b_to_a")):
            if directions not in ("both", override):
                continue
            rate_bps = (link.get(override) or {}).get("rate_bps") or link["rate_bps"]
            loaded.append((source, target, load * rate_bps))
    intervals_s = np.array([packet_bytes * 8 / rate_bps for *_, rate_bps in loaded])
    offsets_s = rng.uniform(0.0, 1.0, size=len(loaded)) * intervals_s
    return [
        {
            "name": f"{prefix} {source}->{target}",
            "src": source,
            "dst": target,
            "traffic": {"type": "cbr", "rate_bps": float(rate_bps)},
            "packet_size": {"type": "fixed", "bytes": packet_bytes},
            "start_s": float(offset_s),
        }
        for (source, target, rate_bps), offset_s in zip(loaded, offsets_s, strict=True)
    ]


__all__ = ["link_cbr_flows"]
