"""The scenarios of Zhao, Liu, Wang, "On Energy-Efficient Congestion Control for Multipath TCP"
(IEEE, 2017), rebuilt for wattnet: each builder returns a scenario dict (``Scenario.from_dict``
validates it) and is a module-level function of named parameters, so a sweep can call it on a
worker (``wattnet.sweep(build=...)``).

- ``host_power``: the testbed measurements of §III (Figs. 1–4) as simulated analogues;
- ``two_bottleneck``: Fig. 5a, N MPTCP and 2N TCP users over two bottlenecks (Fig. 6);
- ``pareto_bursts``: Fig. 5b, two paths with bursty cross traffic (Figs. 7–9);
- ``cloud``: the EC2 virtual private cloud, 40 hosts with 4 interfaces (Fig. 10);
- ``data_centre``: FatTree, VL2 and BCube with 128 hosts and permutation traffic (Figs. 12–16);
- ``wireless``: the heterogeneous WiFi + 4G pair simulated with ns-2.35 (Fig. 17).
"""

from __future__ import annotations

import itertools
import math
import random
from typing import Any

from wattnet.topology import Topology, bcube, fattree, vl2

# The paper's hosts ran Linux with the MPTCP kernel v0.90 (§III-A); the data-centre runs used
# htsim, whose TCP acknowledges every packet (read here as the RFC profile without delayed ACKs);
# the wireless runs used ns-2.35's MPTCP patch.
LINUX_TCP = {"profile": "linux"}
HTSIM_TCP = {"profile": "rfc", "delayed_ack_s": 0.0}
NS2_TCP = {"profile": "ns2"}
# Every TCP user and single-path baseline runs Reno: with the MPTCP kernel's congestion control
# chosen system-wide, a coupled algorithm drives a single-path connection as its n = 1 case, Reno.
SINGLE_PATH = "reno"
# The existing algorithms of §IV, the proposal of §V, and its extension with the energy price φ.
EXISTING = ("lia", "olia", "balia", "ecmtcp", "ewtcp", "coupled", "dwc", "wvegas")
ALGORITHMS: dict[str, dict[str, Any]] = {
    **{name: {"type": name} for name in EXISTING},
    "dts": {"type": "dts"},
    "dts_phi": {"type": "dts", "phi": True},
    "reno": {"type": "reno"},
    "dctcp": {"type": "dctcp"},
}
LABELS = {
    "lia": "LIA", "olia": "OLIA", "balia": "Balia", "ecmtcp": "ecMTCP", "ewtcp": "EWTCP", "coupled": "Coupled",
    "dwc": "DWC", "wvegas": "wVegas", "dts": "DTS", "dts_phi": "DTS + φ", "reno": "TCP", "dctcp": "DCTCP",
}  # fmt: skip
ETHERNET = {"type": "mptcp_host", "preset": "ethernet"}
WIFI = {"type": "mptcp_host", "preset": "wifi"}
PACKET_BYTES = 1500
BASE_SEED = 3


def link(a: str, b: str, rate_bps: float, delay_s: float, buffer_packets: int, **extra: Any) -> dict[str, Any]:
    return {"a": a, "b": b, "rate_bps": float(rate_bps), "delay_s": float(delay_s),
            "queue": {"type": "droptail", "limit_packets": buffer_packets}, **extra}  # fmt: skip


def tcp(profile: dict[str, Any], algorithm: str, **extra: Any) -> dict[str, Any]:
    return {**profile, "congestion_control": ALGORITHMS[algorithm], **extra}


def transfer_duration_s(total_bytes: float, rate_bps: float, slack: float = 3.0) -> float:
    """A run long enough for ``total_bytes`` at ``rate_bps``, ``slack`` times over, plus 30 s;
    the studies check that every transfer completed."""
    return math.ceil(slack * total_bytes * 8 / rate_bps + 30)


# ---------------------------------------------------------------------------------------------
# §III, Figs. 1–4: host power (testbed → analogue)
# ---------------------------------------------------------------------------------------------

# Fig. 1's desktop: two 100 Mb/s NICs, one path through each to the receiver.
NIC_RATE_BPS = 100e6
LAN_DELAY_S = 0.0005
LAN_BUFFER = 100


def host_power(setup: str, subflows_per_path: int, rate_bps: float, megabytes: float) -> dict[str, Any]:
    """One transfer of ``megabytes`` from ``a`` to ``b``; ``setup``:

    - ``"tcp"``: Reno over one of a's two 100 Mb/s NICs (Fig. 1's baseline);
    - ``"mptcp"``: LIA over both NICs, ``subflows_per_path`` subflows on each (Figs. 1 and 4);
    - ``"phone_tcp"`` / ``"phone_mptcp"``: a phone on WiFi (20 Mb/s, 10 ms) and LTE (10 Mb/s,
      30 ms), TCP over WiFi or MPTCP over both, WiFi power model (Fig. 2);
    - ``"ethernet"`` / ``"wifi"``: one path at ``rate_bps`` and an MPTCP connection of one subflow,
      with the Ethernet or the WiFi power model (Fig. 3a, 3b).
    """
    phone = setup.startswith("phone")
    power = WIFI if phone or setup == "wifi" else ETHERNET
    nodes = [{"name": "a", "power": power}, {"name": "b"}, {"name": "s1"}, {"name": "s2"}]
    if setup in ("ethernet", "wifi"):
        rate = rate_bps
        links = [link("a", "s1", rate, LAN_DELAY_S, LAN_BUFFER), link("s1", "b", rate, LAN_DELAY_S, LAN_BUFFER)]
        paths = [["a->s1", "s1->b"]]
    else:
        rates = (20e6, 10e6) if phone else (NIC_RATE_BPS, NIC_RATE_BPS)
        delays = (0.005, 0.015) if phone else (LAN_DELAY_S, LAN_DELAY_S)
        links = [link("a", f"s{i + 1}", rates[i], delays[i], LAN_BUFFER) for i in range(2)] + [
            link(f"s{i + 1}", "b", rates[i], delays[i], LAN_BUFFER) for i in range(2)
        ]
        paths = [["a->s1", "s1->b"], ["a->s2", "s2->b"]]
        rate = sum(rates)
    single = setup in ("tcp", "phone_tcp")
    flow: dict[str, Any] = {
        "name": "transfer", "src": "a", "dst": "b", "traffic": {"type": "transfer", "bytes": int(megabytes * 1e6)},
        "tcp": tcp(LINUX_TCP, SINGLE_PATH if single else "lia"),
    }  # fmt: skip
    if single:
        flow["path"] = paths[0]
    else:
        flow["mptcp"] = {"paths": paths, "subflows_per_path": subflows_per_path}
    return {
        "name": f"mptcp-energy-host-power-{setup}", "seed": BASE_SEED, "nodes": nodes, "links": links,
        "duration_s": transfer_duration_s(megabytes * 1e6, rate / (2 if single and not phone else 1)),
        "flows": [flow],
    }  # fmt: skip


# ---------------------------------------------------------------------------------------------
# §VI-A, Fig. 5a: N MPTCP users and 2N TCP users over two bottlenecks
# ---------------------------------------------------------------------------------------------

BOTTLENECK_RATE_BPS = 100e6  # the i7 testbed's 100 Mb/s NICs (§III-A)
BOTTLENECK_DELAY_S = 0.005
BOTTLENECK_BUFFER = 100
ACCESS_RATE_BPS = 1e9
ACCESS_DELAY_S = 0.0001
ACCESS_BUFFER = 1000
USER_BYTES = 16_000_000
START_SPREAD_S = 1.0  # users open their connections uniformly over the first second, not in lockstep


def two_bottleneck(users: int, algorithm: str, user_bytes: int = USER_BYTES) -> dict[str, Any]:
    """Fig. 5a: the client ``mptcp`` opens ``users`` MPTCP connections to ``server``, each over both
    bottlenecks a1→b1 and a2→b2 (100 Mb/s); ``tcp1`` and ``tcp2`` each open ``users`` Reno
    connections through one bottleneck. Every user sends ``user_bytes``; every sender has the
    Ethernet power model."""
    nodes = [{"name": name, "power": ETHERNET} for name in ("mptcp", "tcp1", "tcp2")]
    nodes += [{"name": name} for name in ("a1", "b1", "a2", "b2", "server")]
    links = []
    for i in (1, 2):
        links += [
            link("mptcp", f"a{i}", ACCESS_RATE_BPS, ACCESS_DELAY_S, ACCESS_BUFFER),
            link(f"tcp{i}", f"a{i}", ACCESS_RATE_BPS, ACCESS_DELAY_S, ACCESS_BUFFER),
            link(f"a{i}", f"b{i}", BOTTLENECK_RATE_BPS, BOTTLENECK_DELAY_S, BOTTLENECK_BUFFER),
            link(f"b{i}", "server", ACCESS_RATE_BPS, ACCESS_DELAY_S, ACCESS_BUFFER),
        ]
    path = {i: [f"a{i}->b{i}", f"b{i}->server"] for i in (1, 2)}
    starts = random.Random(f"two-bottleneck-{users}").uniform
    traffic = {"type": "transfer", "bytes": user_bytes}
    flows = [
        {"name": f"mptcp{u}", "src": "mptcp", "dst": "server", "traffic": traffic, "tcp": tcp(LINUX_TCP, algorithm),
         "mptcp": {"paths": [[f"mptcp->a{i}", *path[i]] for i in (1, 2)]}, "start_s": starts(0, START_SPREAD_S)}
        for u in range(users)
    ]  # fmt: skip
    flows += [
        {"name": f"tcp{i}_{u}", "src": f"tcp{i}", "dst": "server", "traffic": traffic,
         "tcp": tcp(LINUX_TCP, SINGLE_PATH), "path": [f"tcp{i}->a{i}", *path[i]], "start_s": starts(0, START_SPREAD_S)}
        for i in (1, 2)
        for u in range(users)
    ]  # fmt: skip
    return {
        "name": f"mptcp-energy-two-bottleneck-n{users}-{algorithm}", "seed": BASE_SEED, "nodes": nodes,
        "links": links, "flows": flows, "duration_s": transfer_duration_s(3 * users * user_bytes, 2 * BOTTLENECK_RATE_BPS),
    }  # fmt: skip


# ---------------------------------------------------------------------------------------------
# §VI-B, Fig. 5b: two paths with bursty cross traffic
# ---------------------------------------------------------------------------------------------

BURST_RATE_BPS = 45e6
BURST_MEAN_S = 5.0
BURST_GAP_MEAN_S = 5.0  # bursts start about every 10 s: a 5 s burst, then a 5 s gap on average
PARETO_SHAPE = 1.5  # ns-2's Application/Traffic/Pareto shape_
BURST_PATHS = (1, 2)


def burst_schedule(burst_seed: int, path: int, duration_s: float) -> list[tuple[float, float]]:
    """The (start, end) of each 45 Mb/s burst on ``path``: Pareto-distributed lengths (mean 5 s,
    shape 1.5) separated by exponential gaps (mean 5 s), drawn from a stream keyed by
    (``burst_seed``, path) so that every algorithm meets the same bursts."""
    draw = random.Random(f"bursts-{burst_seed}-{path}")
    scale = BURST_MEAN_S * (PARETO_SHAPE - 1) / PARETO_SHAPE
    bursts, t = [], draw.expovariate(1 / BURST_GAP_MEAN_S)
    while t < duration_s:
        end = min(t + scale * draw.paretovariate(PARETO_SHAPE), duration_s)
        bursts.append((round(t, 6), round(end, 6)))
        t = end + draw.expovariate(1 / BURST_GAP_MEAN_S)
    return [(start, end) for start, end in bursts if end > start]


def pareto_bursts(algorithm: str, burst_seed: int, megabytes: float, duration_s: float) -> dict[str, Any]:
    """Fig. 5b: ``s`` sends ``megabytes`` to ``d`` over two 100 Mb/s paths s→r_i→d_i→d; on each
    path ``x_i`` sends 45 Mb/s bursts to ``y_i`` through the same bottleneck r_i→d_i. The ports
    s→r1 and s→r2 carry the MPTCP subflows alone: the recorder's departure rate there is each
    path's MPTCP rate."""
    nodes = [{"name": "s", "power": ETHERNET}, {"name": "d"}]
    links, flows = [], []
    for i in BURST_PATHS:
        nodes += [{"name": f"r{i}"}, {"name": f"d{i}"}, {"name": f"x{i}"}, {"name": f"y{i}"}]
        links += [
            link("s", f"r{i}", ACCESS_RATE_BPS, ACCESS_DELAY_S, ACCESS_BUFFER),
            link(f"r{i}", f"d{i}", BOTTLENECK_RATE_BPS, BOTTLENECK_DELAY_S, BOTTLENECK_BUFFER),
            link(f"d{i}", "d", ACCESS_RATE_BPS, ACCESS_DELAY_S, ACCESS_BUFFER),
            link(f"x{i}", f"r{i}", ACCESS_RATE_BPS, ACCESS_DELAY_S, ACCESS_BUFFER),
            link(f"d{i}", f"y{i}", ACCESS_RATE_BPS, ACCESS_DELAY_S, ACCESS_BUFFER),
        ]
        flows += [
            {"name": f"burst{i}_{k}", "src": f"x{i}", "dst": f"y{i}", "traffic": {"type": "cbr", "rate_bps": BURST_RATE_BPS},
             "packet_size": {"type": "fixed", "bytes": PACKET_BYTES}, "start_s": start, "stop_s": end}
            for k, (start, end) in enumerate(burst_schedule(burst_seed, i, duration_s))
        ]  # fmt: skip
    flows.insert(0, {
        "name": "mptcp", "src": "s", "dst": "d", "traffic": {"type": "transfer", "bytes": int(megabytes * 1e6)},
        "tcp": tcp(LINUX_TCP, algorithm), "mptcp": {"paths": [[f"s->r{i}", f"r{i}->d{i}", f"d{i}->d"] for i in BURST_PATHS]},
    })  # fmt: skip
    return {
        "name": f"mptcp-energy-pareto-bursts-{algorithm}-{burst_seed}", "seed": BASE_SEED + burst_seed,
        "nodes": nodes, "links": links, "flows": flows, "duration_s": duration_s,
        "recorder": {"interval_s": 0.5, "ports": [f"s->r{i}" for i in BURST_PATHS],
                     "quantities": ["departure_rate_bps", "queue_packets"]},
    }  # fmt: skip


# ---------------------------------------------------------------------------------------------
# §VI-C1, Fig. 10: the EC2 virtual private cloud
# ---------------------------------------------------------------------------------------------

CLOUD_HOSTS = 40
CLOUD_SUBNETS = 4
ENI_RATE_BPS = 256e6
CLOUD_DELAY_S = 0.00005
CLOUD_BUFFER = 100
DCTCP_K_PACKETS = 20  # DCTCP's marking threshold (Alizadeh et al., SIGCOMM 2010, §3.4), at every switch


def permutation(hosts: list[str], seed: str) -> list[tuple[str, str]]:
    """Each host sends to one other host and receives from one: a random derangement drawn from
    a stream keyed by ``seed``."""
    draw = random.Random(seed)
    while True:
        receivers = hosts[:]
        draw.shuffle(receivers)
        if all(a != b for a, b in zip(hosts, receivers, strict=True)):
            return list(zip(hosts, receivers, strict=True))


def cloud(algorithm: str, megabytes: float, hosts: int = CLOUD_HOSTS) -> dict[str, Any]:
    """40 hosts, each with four 256 Mb/s interfaces, one per subnet switch ``sw0..sw3``; each host
    sends ``megabytes`` to one other (a permutation). MPTCP: one subflow per subnet (the four
    routes of §VI-C1); TCP and DCTCP: the first subnet's interface (a connection's primary ENI).
    Switch ports mark ECN-capable packets above K = 20 (DCTCP; other packets are queued as DropTail)."""
    names = [f"h{i}" for i in range(hosts)]
    queue = {"type": "threshold", "k_packets": DCTCP_K_PACKETS, "limit_packets": CLOUD_BUFFER}
    nodes = [{"name": h, "power": ETHERNET} for h in names] + [{"name": f"sw{j}"} for j in range(CLOUD_SUBNETS)]
    links = [
        {**link(h, f"sw{j}", ENI_RATE_BPS, CLOUD_DELAY_S, CLOUD_BUFFER), "queue": queue}
        for h in names
        for j in range(CLOUD_SUBNETS)
    ]
    multipath = algorithm not in ("reno", "dctcp")
    flows = []
    for a, b in permutation(names, f"cloud-{hosts}"):
        flow: dict[str, Any] = {
            "name": f"{a}-{b}", "src": a, "dst": b, "traffic": {"type": "transfer", "bytes": int(megabytes * 1e6)},
            "tcp": tcp(LINUX_TCP, algorithm),
        }  # fmt: skip
        if multipath:
            flow["mptcp"] = {"paths": [[f"{a}->sw{j}", f"sw{j}->{b}"] for j in range(CLOUD_SUBNETS)]}
        else:
            flow["path"] = [f"{a}->sw0", f"sw0->{b}"]
        flows.append(flow)
    return {
        "name": f"mptcp-energy-cloud-{algorithm}", "seed": BASE_SEED, "nodes": nodes, "links": links, "flows": flows,
        "duration_s": transfer_duration_s(megabytes * 1e6, ENI_RATE_BPS),
    }  # fmt: skip


# ---------------------------------------------------------------------------------------------
# §VI-C1, Figs. 12–16: data centres with permutation traffic
# ---------------------------------------------------------------------------------------------

# 128 hosts each (the paper's): FatTree k = 8 and BCube(4, 3) cut to 128 servers at 100 Mb/s, VL2
# at 1 Gb/s; 100 µs links (the paper's "100 ms" read as a typo, docs/models/topology.md).
# ``small`` builds 16-host versions for quick runs.
DC_DELAY_S = 100e-6
DC_BUFFER = 100
DC_WINDOWS = 10  # every flow's delivered bytes sampled 10 times per run: throughput per window (steady state)


def dc_topology(name: str, small: bool = False) -> Topology:
    if name == "fattree":
        return fattree(4 if small else 8, rate_bps=100e6, delay_s=DC_DELAY_S, buffer_packets=DC_BUFFER)
    if name == "vl2":
        sizes = (4, 4, 4) if small else (8, 8, 8)
        return vl2(*sizes, rate_bps=1e9, delay_s=DC_DELAY_S, buffer_packets=DC_BUFFER)
    if name == "bcube":
        return bcube(4, 1 if small else 3, n_servers=None if small else 128, rate_bps=100e6, delay_s=DC_DELAY_S,
                     buffer_packets=DC_BUFFER)  # fmt: skip
    raise ValueError(f"topology: one of fattree, vl2, bcube, not {name!r}")


def bcube_path(topology: Topology, src: str, dst: str, level: int) -> list[str]:
    """The path from ``src`` to ``dst`` that leaves on ``src``'s level-``level`` interface (Guo et
    al., "BCube", SIGCOMM 2009, BuildPathSet): correct the address digits in the order level,
    level−1, …, 0, k, …, level+1. If ``src`` and ``dst`` agree in that digit, first step to a
    neighbour C that differs there, then correct the other digits and that one last. Every hop
    goes server → level-i switch → server."""
    address: dict[str, tuple[int, ...]] = topology.info["address"]
    n, k = topology.info["n"], topology.info["k"]
    by_address = {a: s for s, a in address.items()}
    switch_of = {(link["a"], int(link["b"][2:].split("_")[0])): link["b"] for link in topology.links}
    a, b = list(reversed(address[src])), list(reversed(address[dst]))  # a[i] is digit i
    order = [level, *range(level - 1, -1, -1), *range(k, level, -1)]
    servers = [src]
    if a[level] == b[level]:
        for value in range(n):
            c = a[:]
            c[level] = value
            if value != a[level] and tuple(reversed(c)) in by_address:
                servers.append(by_address[tuple(reversed(c))])
                a = c
                break
        else:
            raise ValueError(f"{src} has no neighbour at level {level} in this BCube")
        order = [*order[1:], level]
    for digit in order:
        if a[digit] != b[digit]:
            a[digit] = b[digit]
            servers.append(by_address[tuple(reversed(a))])
    ports = []
    for here, there in itertools.pairwise(servers):
        digit = next(i for i in range(k + 1) if address[here][k - i] != address[there][k - i])
        switch = switch_of[(here, digit)]
        ports += [f"{here}->{switch}", f"{switch}->{there}"]
    return ports


def data_centre(topology: str, algorithm: str, subflows: int, duration_s: float, run: int = 0,
                small: bool = False) -> dict[str, Any]:  # fmt: skip
    """Every host sends one long-lived (bulk) connection to another, a permutation drawn for
    ``run``; ECMP on. FatTree and VL2 hosts are single-homed: ``subflows`` subflows between the
    two hosts, each with its own ECMP hash. BCube servers have k+1 interfaces: the subflows take
    BCube's parallel paths, one per interface, ``subflows`` ∈ {1, 2, 3, 4} of them, or all four
    twice for 8. Single-path algorithms (``reno``) run one connection per host without ``mptcp``.
    Every flow's delivered bytes are sampled ``DC_WINDOWS`` times (the throughput per window)."""
    t = dc_topology(topology, small)
    nodes = [{**node, "power": ETHERNET} if node["name"] in t.hosts else node for node in t.nodes]
    interfaces = t.info["k"] + 1 if topology == "bcube" else 1
    flows = []
    for a, b in permutation(t.hosts, f"{topology}-{small}-{run}"):
        flow: dict[str, Any] = {"name": f"{a}-{b}", "src": a, "dst": b, "traffic": {"type": "bulk"},
                                "tcp": tcp(HTSIM_TCP, algorithm)}  # fmt: skip
        if algorithm != SINGLE_PATH:
            if interfaces == 1:
                flow["mptcp"] = {"subflows_per_path": subflows}
            else:
                per_path, rest = divmod(subflows, interfaces)
                if rest and per_path:
                    raise ValueError(
                        f"subflows: 1 to {interfaces} or a multiple of {interfaces} on BCube, not {subflows}"
                    )
                count = subflows if per_path == 0 else interfaces
                flow["mptcp"] = {"paths": [bcube_path(t, a, b, level) for level in range(count)],
                                 "subflows_per_path": max(per_path, 1)}  # fmt: skip
        flows.append(flow)
    recorder = {"interval_s": duration_s / DC_WINDOWS, "quantities": [], "flows": [f["name"] for f in flows],
                "flow_quantities": ["delivered_bytes"]}  # fmt: skip
    return {
        "name": f"mptcp-energy-{t.name}-{algorithm}-{subflows}", "seed": BASE_SEED + run, "nodes": nodes,
        "links": t.links, "flows": flows, "duration_s": duration_s, "routing": {"ecmp": True}, "recorder": recorder,
    }  # fmt: skip


# ---------------------------------------------------------------------------------------------
# §VI-C2, Fig. 17: heterogeneous wireless networks (ns-2.35 in the paper)
# ---------------------------------------------------------------------------------------------

WIRELESS = {"wifi": (10e6, 0.040), "lte": (20e6, 0.100)}
WIRELESS_BUFFER = 50  # DropTail 50 (§VI-C2; ns-2's default queue limit)
RECEIVE_BUFFER_BYTES = 65536  # "the default 64KB" (§VI-C2)
CROSS_SHARE = 0.5  # cross traffic: on-off bursts at half the link's rate, 1 s on and 1 s off on average
WIRELESS_DURATION_S = 200.0


def wireless(algorithm: str, duration_s: float = WIRELESS_DURATION_S) -> dict[str, Any]:
    """A sender ``s`` with a WiFi path (10 Mb/s, 40 ms) and a 4G path (20 Mb/s, 100 ms) to ``d``;
    each wireless hop is router to router (w1→w2, l1→l2) with a 50-packet DropTail queue, and an
    on-off UDP source on each crosses it. One endless MPTCP transfer (FTP), a 64 KB receive buffer,
    the WiFi power model."""
    nodes = [{"name": "s", "power": WIFI}, {"name": "d"}]
    links, flows = [], []
    paths = []
    for path, (rate, delay) in WIRELESS.items():
        near, far = f"{path}_near", f"{path}_far"
        nodes += [{"name": near}, {"name": far}, {"name": f"{path}_cross_src"}, {"name": f"{path}_cross_dst"}]
        links += [
            link("s", near, ACCESS_RATE_BPS, ACCESS_DELAY_S, ACCESS_BUFFER),
            link(near, far, rate, delay, WIRELESS_BUFFER),
            link(far, "d", ACCESS_RATE_BPS, ACCESS_DELAY_S, ACCESS_BUFFER),
            link(f"{path}_cross_src", near, ACCESS_RATE_BPS, ACCESS_DELAY_S, ACCESS_BUFFER),
            link(far, f"{path}_cross_dst", ACCESS_RATE_BPS, ACCESS_DELAY_S, ACCESS_BUFFER),
        ]
        paths.append([f"s->{near}", f"{near}->{far}", f"{far}->d"])
        flows.append({
            "name": f"{path}_cross", "src": f"{path}_cross_src", "dst": f"{path}_cross_dst",
            "traffic": {"type": "on_off", "peak_rate_bps": CROSS_SHARE * rate, "on_mean_s": 1.0, "off_mean_s": 1.0},
            "packet_size": {"type": "fixed", "bytes": 1000},
        })  # fmt: skip
    flows.insert(0, {
        "name": "mptcp", "src": "s", "dst": "d", "traffic": {"type": "bulk"},
        "tcp": tcp(NS2_TCP, algorithm, receive_window_bytes=RECEIVE_BUFFER_BYTES),
        "mptcp": {"paths": paths, "receive_buffer_bytes": RECEIVE_BUFFER_BYTES},
    })  # fmt: skip
    return {"name": f"mptcp-energy-wireless-{algorithm}", "seed": BASE_SEED, "nodes": nodes, "links": links,
            "flows": flows, "duration_s": duration_s}  # fmt: skip
