"""BCube(n, k) (Guo et al., SIGCOMM 2009; docs/models/topology.md)."""

from __future__ import annotations

from wattnet.topology._fragment import ParameterChecks, Topology, link, nodes_named


def bcube(
    n: int,
    k: int,
    *,
    n_servers: int | None = None,
    rate_bps: float = 100e6,
    delay_s: float = 100e-6,
    buffer_packets: int = 100,
) -> Topology:
    """n^(k+1) servers ``h0..`` with k+1 NICs each, and k+1 levels of n^k n-port switches.

    Server ``h{s}`` has the address a_k…a_0 = s in base n; level-i switch ``sw{i}_{j}`` joins
    the n servers that differ only in digit i, j being the address with digit i removed. With
    ``n_servers``, only servers 0..n_servers−1 and the switches serving them are built (a
    partial BCube, e.g. BCube(4, 3) cut to 128 servers). Zhao et al. 2017's "128 hosts, 64 switches"
    fits no complete BCube: BCube(2, 6) has 128 servers and 64 switches per level.
    """
    checks = ParameterChecks()
    checks.count("n", n, minimum=2)
    checks.count("k", k, minimum=0)
    checks.rate("rate_bps", rate_bps)
    checks.seconds("delay_s", delay_s)
    checks.count("buffer_packets", buffer_packets)
    checks.raise_if_any()
    complete = n ** (k + 1)
    if n_servers is not None and checks.count("n_servers", n_servers) and n_servers > complete:
        checks.fail("n_servers", f"must be at most n^(k+1) = {complete}, got {n_servers}")
    checks.raise_if_any()

    servers = [f"h{s}" for s in range(complete if n_servers is None else n_servers)]
    levels: dict[str, list[str]] = {}
    links = []
    for level in range(k + 1):
        switches: dict[str, None] = {}  # insertion-ordered set
        for s, server in enumerate(servers):
            below, above = s % n**level, s // n ** (level + 1)
            switch = f"sw{level}_{above * n**level + below}"
            switches[switch] = None
            links.append(link(server, switch, rate_bps, delay_s, buffer_packets))
        levels[f"level{level}"] = sorted(switches, key=lambda name: int(name.split("_")[1]))
    switch_names = [switch for names in levels.values() for switch in names]
    return Topology(
        name=f"bcube{n}_{k}",
        nodes=nodes_named(servers + switch_names),
        links=links,
        hosts=servers,
        groups={"hosts": servers, **levels},
        info={
            "n": n,
            "k": k,
            "address": {
                server: tuple((s // n**i) % n for i in reversed(range(k + 1))) for s, server in enumerate(servers)
            },
        },
    )
