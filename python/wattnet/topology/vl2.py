"""VL2 (Greenberg et al., SIGCOMM 2009; docs/models/topology.md)."""

from __future__ import annotations

from wattnet.topology._fragment import ParameterChecks, Topology, link, nodes_named


def vl2(
    d_a: int = 8,
    d_i: int = 8,
    servers_per_tor: int = 8,
    *,
    rate_bps: float = 1e9,
    fabric_rate_bps: float | None = None,
    delay_s: float = 100e-6,
    buffer_packets: int = 100,
) -> Topology:
    """D_A/2 intermediate switches ``int0..``, D_I aggregation switches ``agg0..`` (each joined
    to every intermediate), D_A·D_I/4 ToRs ``tor0..`` with ``servers_per_tor`` servers ``h0..``
    each.

    Aggregation switches come in pairs; each pair serves D_A/2 ToRs, and each of those ToRs has
    one uplink to either switch of the pair (so every aggregation switch spends D_A/2 ports
    down and D_A/2 up). Defaults: D_A = D_I = 8 and 8 servers per ToR, 128 servers and 28
    switches, everything 1 Gb/s (docs/models/topology.md; Zhao et al. 2017's "80 switches" fits no VL2); set
    ``fabric_rate_bps=10e9`` for the paper's faster fabric.
    """
    checks = ParameterChecks()
    for parameter, value in (("d_a", d_a), ("d_i", d_i)):
        if checks.count(parameter, value, minimum=2) and value % 2:
            checks.fail(parameter, f"must be even (switch ports split half up, half down), got {value}")
    checks.count("servers_per_tor", servers_per_tor)
    checks.rate("rate_bps", rate_bps)
    if fabric_rate_bps is not None:
        checks.rate("fabric_rate_bps", fabric_rate_bps)
    checks.seconds("delay_s", delay_s)
    checks.count("buffer_packets", buffer_packets)
    checks.raise_if_any()

    fabric = rate_bps if fabric_rate_bps is None else fabric_rate_bps
    tors_per_pair = d_a // 2
    intermediates = [f"int{i}" for i in range(d_a // 2)]
    aggregations = [f"agg{i}" for i in range(d_i)]
    tors = [f"tor{i}" for i in range(d_a * d_i // 4)]
    servers = [f"h{i}" for i in range(len(tors) * servers_per_tor)]

    links = [
        link(servers[t * servers_per_tor + s], tor, rate_bps, delay_s, buffer_packets)
        for t, tor in enumerate(tors)
        for s in range(servers_per_tor)
    ]
    links += [
        link(tor, aggregations[2 * (t // tors_per_pair) + side], fabric, delay_s, buffer_packets)
        for t, tor in enumerate(tors)
        for side in (0, 1)
    ]
    links += [link(agg, top, fabric, delay_s, buffer_packets) for agg in aggregations for top in intermediates]
    return Topology(
        name="vl2",
        nodes=nodes_named(servers + tors + aggregations + intermediates),
        links=links,
        hosts=servers,
        groups={"hosts": servers, "tor": tors, "agg": aggregations, "int": intermediates},
        info={"d_a": d_a, "d_i": d_i, "servers_per_tor": servers_per_tor},
    )
