"""Lombardo et al.'s access network (G-router, Fig. 1): sources — G-router — Internet node —
destinations (docs/models/topology.md)."""

from __future__ import annotations

from typing import Any

from wattnet.topology._fragment import ParameterChecks, Topology, droptail, link, nodes_named


def access_network(
    n_sources: int,
    *,
    n_destinations: int = 1,
    uplink_rate_bps: float = 1e6,
    downlink_rate_bps: float = 20e6,
    access_delay_s: float = 0.005,
    g_router_rate_bps: float = 20e6,
    g_router_max_rate_bps: float = 100e6,
    g_router_delay_s: float = 0.045,
    internet_rate_bps: float = 1e9,
    destination_delay_s: float = 0.05,
    g_router_buffer_packets: int = 100,
    internet_buffer_packets: int = 100,
    access_buffer_packets: int = 100,
    reverse_buffer_packets: int = 1000,
    g_router_controller: dict[str, Any] | None = None,
) -> Topology:
    """Sources ``src0..`` on DSL lines to ``grouter``, which feeds ``internet``, which serves
    destinations ``dst0..``.

    Each DSL line carries ``uplink_rate_bps`` from the source (its data) and
    ``downlink_rate_bps`` back (ACKs). The G-router's controlled output ``grouter->internet``
    starts at ``g_router_rate_bps`` (C_init) with ``g_router_buffer_packets``; its reverse runs at
    ``g_router_max_rate_bps`` (C_max, recorded for the controller). The Internet node's outputs
    toward the destinations run at ``internet_rate_bps`` ("unlimited" in case study 1: ten times
    C_max) with ``internet_buffer_packets``; with one destination that is the single port
    ``internet->dst0``, which case study 2 slows to 12 Mb/s at 300 s. Queues toward the sources
    hold ``reverse_buffer_packets``. One-way delays 5 + 45 + 50 ms make the paper's 200 ms RTT.
    ``g_router_controller`` (a scenario controller table, e.g. the G-router's AWM + C-EARTH)
    manages ``grouter->internet``; without it the port keeps its rate (not controlled).
    """
    checks = ParameterChecks()
    checks.count("n_sources", n_sources)
    checks.count("n_destinations", n_destinations)
    for parameter, value in (
        ("uplink_rate_bps", uplink_rate_bps),
        ("downlink_rate_bps", downlink_rate_bps),
        ("g_router_rate_bps", g_router_rate_bps),
        ("g_router_max_rate_bps", g_router_max_rate_bps),
        ("internet_rate_bps", internet_rate_bps),
    ):
        checks.rate(parameter, value)
    for parameter, value in (
        ("access_delay_s", access_delay_s),
        ("g_router_delay_s", g_router_delay_s),
        ("destination_delay_s", destination_delay_s),
    ):
        checks.seconds(parameter, value)
    for parameter, value in (
        ("g_router_buffer_packets", g_router_buffer_packets),
        ("internet_buffer_packets", internet_buffer_packets),
        ("access_buffer_packets", access_buffer_packets),
        ("reverse_buffer_packets", reverse_buffer_packets),
    ):
        checks.count(parameter, value)
    checks.raise_if_any()
    if g_router_rate_bps > g_router_max_rate_bps:
        checks.fail(
            "g_router_rate_bps",
            f"must not exceed g_router_max_rate_bps ({g_router_max_rate_bps}), got {g_router_rate_bps}",
        )
        checks.raise_if_any()

    sources = [f"src{i}" for i in range(n_sources)]
    destinations = [f"dst{i}" for i in range(n_destinations)]
    links = [
        link(
            source,
            "grouter",
            uplink_rate_bps,
            access_delay_s,
            access_buffer_packets,
            b_to_a={"rate_bps": float(downlink_rate_bps), "queue": droptail(reverse_buffer_packets)},
        )
        for source in sources
    ]
    g_router_port: dict[str, Any] = {"rate_bps": float(g_router_rate_bps), "queue": droptail(g_router_buffer_packets)}
    if g_router_controller is not None:
        g_router_port["controller"] = g_router_controller
    links.append(
        link(
            "grouter", "internet", g_router_max_rate_bps, g_router_delay_s, reverse_buffer_packets, a_to_b=g_router_port
        )
    )
    links += [
        link(
            "internet",
            destination,
            internet_rate_bps,
            destination_delay_s,
            reverse_buffer_packets,
            a_to_b={"queue": droptail(internet_buffer_packets)},
        )
        for destination in destinations
    ]
    return Topology(
        name="access_network",
        nodes=nodes_named(sources + ["grouter", "internet"] + destinations),
        links=links,
        hosts=sources + destinations,
        groups={"sources": sources, "destinations": destinations, "routers": ["grouter", "internet"]},
        info={
            "controlled_port": "grouter->internet",
            "internet_ports": [f"internet->{d}" for d in destinations],
            "g_router_max_rate_bps": float(g_router_max_rate_bps),
            "rtt_s": 2 * (access_delay_s + g_router_delay_s + destination_delay_s),
        },
    )
