"""FatTree(k) (Al-Fares, Loukissas, Vahdat, SIGCOMM 2008; docs/models/topology.md)."""

from __future__ import annotations

from wattnet.topology._fragment import ParameterChecks, Topology, link, nodes_named


def fattree(
    k: int,
    *,
    rate_bps: float = 100e6,
    fabric_rate_bps: float | None = None,
    delay_s: float = 100e-6,
    buffer_packets: int = 100,
) -> Topology:
    """k pods of k/2 edge (``edge{pod}_{i}``) and k/2 aggregation (``agg{pod}_{i}``) switches,
    (k/2)² core switches ``core{i}_{j}`` (core (i, j) joins aggregation switch i of every pod),
    and k³/4 hosts ``h0..``, k/2 per edge switch, numbered pod by pod.

    Host links run at ``rate_bps``, switch-to-switch links at ``fabric_rate_bps`` (default
    ``rate_bps``). Defaults: Zhao et al. 2017's 100 Mb/s; 100 µs per link, reading their "100 ms
    links" as a typo (docs/models/topology.md) (pass ``delay_s=0.1`` for the printed value).
    """
    checks = ParameterChecks()
    if checks.count("k", k, minimum=2) and k % 2:
        checks.fail("k", f"must be even (k/2 hosts and k/2 uplinks per edge switch), got {k}")
    checks.rate("rate_bps", rate_bps)
    if fabric_rate_bps is not None:
        checks.rate("fabric_rate_bps", fabric_rate_bps)
    checks.seconds("delay_s", delay_s)
    checks.count("buffer_packets", buffer_packets)
    checks.raise_if_any()

    half = k // 2
    fabric = rate_bps if fabric_rate_bps is None else fabric_rate_bps
    hosts = [f"h{i}" for i in range(k**3 // 4)]
    edge = [f"edge{pod}_{i}" for pod in range(k) for i in range(half)]
    agg = [f"agg{pod}_{i}" for pod in range(k) for i in range(half)]
    core = [f"core{i}_{j}" for i in range(half) for j in range(half)]

    links = [
        link(hosts[(pod * half + e) * half + h], f"edge{pod}_{e}", rate_bps, delay_s, buffer_packets)
        for pod in range(k)
        for e in range(half)
        for h in range(half)
    ]
    links += [
        link(f"edge{pod}_{e}", f"agg{pod}_{a}", fabric, delay_s, buffer_packets)
        for pod in range(k)
        for e in range(half)
        for a in range(half)
    ]
    links += [
        link(f"agg{pod}_{i}", f"core{i}_{j}", fabric, delay_s, buffer_packets)
        for pod in range(k)
        for i in range(half)
        for j in range(half)
    ]
    return Topology(
        name=f"fattree{k}",
        nodes=nodes_named(hosts + edge + agg + core),
        links=links,
        hosts=hosts,
        groups={"hosts": hosts, "edge": edge, "agg": agg, "core": core},
        info={"k": k, "pod_of_host": {host: i // (half * half) for i, host in enumerate(hosts)}},
    )
