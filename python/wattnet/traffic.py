"""Traffic builders: lists of scenario flows for a topology or a set of hosts."""

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
    """Background CBR over UDP at ``load`` × the rate of every link (Sassu, Scarso, Cuomo,
    "TCP behavior over a greened network", SustainIT 2012):
    one flow per link per direction between the two adjacent nodes, named
    ``"{prefix} {from}->{to}"`` after the port it loads, with fixed ``packet_bytes`` packets.
    ``directions`` keeps both directions (the default) or one flow per link, from
    ``a`` to ``b`` or from ``b`` to ``a`` (one ns-2 CBR agent per link).

    Each flow starts at an offset drawn uniformly in [0, one packet interval) from ``rng``
    (the greened-network study: 10 Mb/s of 1000 B packets, a packet every 0.8 ms), in link order, a→b before
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


# ---------------------------------------------------------------------------------------------
# Traffic matrices over a set of hosts: one scenario flow per (source, destination) pair.
# Every generator takes the flow's ``traffic`` table (default an endless TCP transfer), and
# optionally ``tcp`` and ``start_s``; flows are named "{prefix} {src}->{dst}".
# ---------------------------------------------------------------------------------------------

BULK = {"type": "bulk"}


def permutation(
    hosts: list[str],
    rng: np.random.Generator,
    *,
    traffic: dict[str, Any] | None = None,
    prefix: str = "perm",
    **flow: Any,
) -> list[dict[str, Any]]:
    """A random permutation traffic matrix: every host sends to exactly one other host and
    receives from exactly one (a uniformly drawn derangement, redrawn until no host is its own
    destination)."""
    hosts = _hosts(hosts, minimum=2)
    _check_rng(rng)
    while True:
        order = rng.permutation(len(hosts))
        if not any(order == np.arange(len(hosts))):
            break
    return [_flow(prefix, hosts[i], hosts[int(j)], traffic, flow) for i, j in enumerate(order)]


def all_to_all(
    hosts: list[str], rng: np.random.Generator | None = None, *, traffic: dict[str, Any] | None = None,
    prefix: str = "a2a", **flow: Any,
) -> list[dict[str, Any]]:  # fmt: skip
    """Every host sends to every other host: n·(n − 1) flows, sources in host order. Draws nothing."""
    hosts = _hosts(hosts, minimum=2)
    return [_flow(prefix, a, b, traffic, flow) for a in hosts for b in hosts if a != b]


def incast(
    hosts: list[str], rng: np.random.Generator, *, senders: int, receiver: str | None = None,
    traffic: dict[str, Any] | None = None, prefix: str = "incast", **flow: Any,
) -> list[dict[str, Any]]:  # fmt: skip
    """``senders`` hosts, drawn without replacement from the others, all send to ``receiver``
    (default: a host drawn uniformly) at once: the many-to-one pattern of partition/aggregate."""
    hosts = _hosts(hosts, minimum=2)
    _check_rng(rng)
    if receiver is None:
        receiver = hosts[int(rng.integers(len(hosts)))]
    elif receiver not in hosts:
        raise ScenarioError([("receiver", f"must be one of the hosts, got {receiver!r}")])
    others = [h for h in hosts if h != receiver]
    if isinstance(senders, bool) or not isinstance(senders, int) or not 1 <= senders <= len(others):
        raise ScenarioError([("senders", f"must be an integer in [1, {len(others)}], got {senders!r}")])
    chosen = sorted(rng.choice(len(others), size=senders, replace=False))
    return [_flow(prefix, others[int(i)], receiver, traffic, flow) for i in chosen]


def random_pairs(
    hosts: list[str], rng: np.random.Generator, *, flows: int, traffic: dict[str, Any] | None = None,
    prefix: str = "pair", **flow: Any,
) -> list[dict[str, Any]]:  # fmt: skip
    """``flows`` flows between distinct (source, destination) pairs, each drawn uniformly among
    the n·(n − 1) ordered pairs of different hosts, without replacement."""
    hosts = _hosts(hosts, minimum=2)
    _check_rng(rng)
    pairs = len(hosts) * (len(hosts) - 1)
    if isinstance(flows, bool) or not isinstance(flows, int) or not 1 <= flows <= pairs:
        raise ScenarioError([("flows", f"must be an integer in [1, {pairs}], got {flows!r}")])
    out = []
    for index in sorted(rng.choice(pairs, size=flows, replace=False)):
        a, rest = divmod(int(index), len(hosts) - 1)
        b = rest if rest < a else rest + 1  # the destination skips the source
        out.append(_flow(prefix, hosts[a], hosts[b], traffic, flow))
    return out


def web(
    hosts: list[str], rng: np.random.Generator, *, requests_per_s: float, mean_segments: float, shape: float,
    servers: int = 1, max_segments: int | None = None, prefix: str = "web", **flow: Any,
) -> list[dict[str, Any]]:  # fmt: skip
    """Web-like traffic: ``servers`` hosts drawn without replacement serve every other host;
    each client gets one web flow (Poisson requests at ``requests_per_s``, ⌈Pareto⌉ responses of
    ``mean_segments`` and ``shape``, from a server drawn per request)."""
    hosts = _hosts(hosts, minimum=2)
    _check_rng(rng)
    if isinstance(servers, bool) or not isinstance(servers, int) or not 1 <= servers < len(hosts):
        raise ScenarioError([("servers", f"must be an integer in [1, {len(hosts) - 1}], got {servers!r}")])
    chosen = sorted(int(i) for i in rng.choice(len(hosts), size=servers, replace=False))
    server_names = [hosts[i] for i in chosen]
    traffic = {"type": "web", "requests_per_s": requests_per_s, "mean_segments": mean_segments, "shape": shape}
    if max_segments is not None:
        traffic["max_segments"] = max_segments
    clients = [h for h in hosts if h not in server_names]
    return [
        {
            **_flow(prefix, server_names[0], client, {**traffic, "senders": server_names}, flow),
            "name": f"{prefix} {client}",
        }
        for client in clients
    ]


def _flow(prefix: str, src: str, dst: str, traffic: dict[str, Any] | None, extra: dict[str, Any]) -> dict[str, Any]:
    unknown = sorted(set(extra) - {"tcp", "start_s", "stop_s", "packet_size"})
    if unknown:
        raise ScenarioError([(unknown[0], "unknown parameter; a flow also takes tcp, start_s, stop_s and packet_size")])
    return {"name": f"{prefix} {src}->{dst}", "src": src, "dst": dst, "traffic": dict(traffic or BULK), **extra}


def _hosts(hosts: Any, minimum: int) -> list[str]:
    if not isinstance(hosts, (list, tuple)) or not all(isinstance(h, str) for h in hosts):
        raise ScenarioError([("hosts", f"must be a list of node names, got {hosts!r}")])
    if len(set(hosts)) != len(hosts):
        raise ScenarioError([("hosts", "lists a node twice")])
    if len(hosts) < minimum:
        raise ScenarioError([("hosts", f"needs at least {minimum} hosts, got {len(hosts)}")])
    return list(hosts)


def _check_rng(rng: Any) -> None:
    if not isinstance(rng, np.random.Generator):
        raise ScenarioError([("rng", f"must be a numpy.random.Generator (np.random.default_rng(seed)), got {rng!r}")])


GENERATORS = {
    "permutation": permutation,
    "all_to_all": all_to_all,
    "incast": incast,
    "random_pairs": random_pairs,
    "web": web,
}

__all__ = ["GENERATORS", "all_to_all", "incast", "link_cbr_flows", "permutation", "random_pairs", "web"]
