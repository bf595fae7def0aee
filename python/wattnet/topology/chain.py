"""Panarello et al. 2016's chain S — N1 — N2 — N3 — D with background source B on N1
(docs/models/topology.md)."""

from __future__ import annotations

import math

from wattnet.topology._fragment import ParameterChecks, Topology, droptail, link, nodes_named


def bdp_buffer_packets(rate_bps: float, rtt_s: float, mtu_bytes: int = 1500, min_packets: int = 2) -> int:
    """⌈rate·RTT / MTU⌉ packets, at least ``min_packets``."""
    bdp_bytes = rate_bps * rtt_s / 8
    # rate·RTT of an exact multiple of the MTU can come out a hair above it in floating point.
    return max(min_packets, math.ceil(round(bdp_bytes / mtu_bytes, 9)))


def chain(
    rtt_s: float,
    *,
    bottleneck_rate_bps: float = 10e6,
    access_rate_bps: float = 100e6,
    access_delay_s: float = 0.0,
    mtu_bytes: int = 1500,
    min_buffer_packets: int = 2,
    host_buffer_packets: int = 1000,
) -> Topology:
    """Nodes ``S``, ``N1``, ``N2``, ``N3``, ``D`` (the TCP path) and ``B`` (background, on N1).

    ``N1``–``N2`` and ``N2``–``N3`` run at ``bottleneck_rate_bps`` and share what is left of the
    round trip after the access links: one-way delay of each is (rtt_s/2 − 2·access_delay_s)/2,
    so S→D→S takes ``rtt_s``. Every output of N1, N2 and N3 buffers one bandwidth-delay product,
    ⌈bottleneck_rate·RTT / MTU⌉ packets with at least ``min_buffer_packets``; the hosts' own
    outputs hold ``host_buffer_packets``. practRA acts on port ``N1->N2``.
    """
    checks = ParameterChecks()
    checks.seconds("rtt_s", rtt_s, positive=True)
    checks.rate("bottleneck_rate_bps", bottleneck_rate_bps)
    checks.rate("access_rate_bps", access_rate_bps)
    checks.seconds("access_delay_s", access_delay_s)
    checks.count("mtu_bytes", mtu_bytes)
    checks.count("min_buffer_packets", min_buffer_packets)
    checks.count("host_buffer_packets", host_buffer_packets)
    checks.raise_if_any()
    core_delay_s = (rtt_s / 2 - 2 * access_delay_s) / 2
    if core_delay_s < 0:
        checks.fail("rtt_s", f"must be at least 4 × access_delay_s ({4 * access_delay_s} s), got {rtt_s}")
        checks.raise_if_any()

    buffer_packets = bdp_buffer_packets(bottleneck_rate_bps, rtt_s, mtu_bytes, min_buffer_packets)
    host_queue = {"queue": droptail(host_buffer_packets)}
    links = [
        link("S", "N1", access_rate_bps, access_delay_s, buffer_packets, a_to_b=host_queue),
        link("B", "N1", access_rate_bps, access_delay_s, buffer_packets, a_to_b=host_queue),
        link("N1", "N2", bottleneck_rate_bps, core_delay_s, buffer_packets),
        link("N2", "N3", bottleneck_rate_bps, core_delay_s, buffer_packets),
        link("N3", "D", access_rate_bps, access_delay_s, buffer_packets, b_to_a=host_queue),
    ]
    return Topology(
        name="chain",
        nodes=nodes_named(["S", "N1", "N2", "N3", "D", "B"]),
        links=links,
        hosts=["S", "D", "B"],
        groups={"routers": ["N1", "N2", "N3"], "hosts": ["S", "D", "B"]},
        info={"rtt_s": rtt_s, "buffer_packets": buffer_packets, "controlled_port": "N1->N2"},
    )
