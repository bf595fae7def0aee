"""Checks no single field can make: names that must exist, be unique or be connected, paths,
and offered loads.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from wattnet.scenario.events import SetRate, Sleep, Wake
from wattnet.scenario.flows import Flow
from wattnet.scenario.limits import MAX_PCAP_NODES
from wattnet.scenario.traffic import TCP_TRAFFIC, Cbr, OnOff, Poisson

if TYPE_CHECKING:
    from wattnet.scenario.root import Scenario

# A flow offering more than this many times the fastest link's rate is taken for a typo: the
# excess can only be dropped at its first queue, at the cost of one event per packet.
MAX_OVERLOAD = 100


def _reference_problems(scenario: Scenario) -> list[tuple[str, str]]:
    """Checks what no single field can: names that must exist, be unique, or be connected."""
    problems: list[tuple[str, str]] = []
    nodes: dict[str, int] = {}
    for i, node in enumerate(scenario.nodes):
        if node.name in nodes:
            problems.append((f"nodes[{i}].name", f"duplicate node name {node.name!r} (also nodes[{nodes[node.name]}])"))
        else:
            nodes[node.name] = i

    component = {name: name for name in nodes}  # union-find over the links

    def root(name: str) -> str:
        while component[name] != name:
            component[name] = component[component[name]]
            name = component[name]
        return name

    ports: set[str] = set()
    node_pairs: dict[frozenset[str], int] = {}
    for i, link in enumerate(scenario.links):
        unknown = False
        for end in ("a", "b"):
            if getattr(link, end) not in nodes:
                problems.append((f"links[{i}].{end}", f"unknown node {getattr(link, end)!r}"))
                unknown = True
        if unknown:
            continue
        if link.a == link.b:
            problems.append((f"links[{i}].b", f"self-loop: a link joins two different nodes, both ends are {link.a!r}"))
            continue
        pair = frozenset((link.a, link.b))
        if pair in node_pairs:
            problems.append(
                (f"links[{i}]", f"duplicate link between {link.a!r} and {link.b!r} (also links[{node_pairs[pair]}])")
            )
            continue
        node_pairs[pair] = i
        ports.update(link.port_names())
        component[root(link.a)] = root(link.b)

    # A faulty link would make flows look disconnected and ports unknown: check those only without one.
    links_valid = not problems
    flow_names: dict[str, int] = {}
    for i, flow in enumerate(scenario.flows):
        if flow.name in flow_names:
            problems.append(
                (f"flows[{i}].name", f"duplicate flow name {flow.name!r} (also flows[{flow_names[flow.name]}])")
            )
        else:
            flow_names[flow.name] = i
        known = True
        for end in ("src", "dst"):
            if getattr(flow, end) not in nodes:
                problems.append((f"flows[{i}].{end}", f"unknown node {getattr(flow, end)!r}"))
                known = False
        if known and flow.src == flow.dst:
            problems.append((f"flows[{i}].dst", f"same node as src ({flow.src!r})"))
        elif known and links_valid and root(flow.src) != root(flow.dst):
            problems.append(
                (f"flows[{i}].dst", f"{flow.dst!r} is not connected to src {flow.src!r} by any path of links")
            )
        for k, sender in enumerate(getattr(flow.traffic, "senders", [])):
            if sender not in nodes:
                problems.append((f"flows[{i}].traffic.senders[{k}]", f"unknown node {sender!r}"))
            elif links_valid and known and root(sender) != root(flow.dst):
                problems.append(
                    (f"flows[{i}].traffic.senders[{k}]", f"{sender!r} is not connected to dst {flow.dst!r}")
                )
        if flow.path is not None and links_valid and known:
            problems += _pinned_path_problems(f"flows[{i}]", flow, ports)
        if flow.start_s >= scenario.duration_s:
            problems.append(
                (f"flows[{i}].start_s", f"at or after the end of the run (duration_s = {scenario.duration_s})")
            )

    for i, event in enumerate(scenario.events):
        if event.at_s > scenario.duration_s:
            problems.append((f"events[{i}].at_s", f"outside the run [0, duration_s = {scenario.duration_s}]"))
        if isinstance(event, (SetRate, Sleep, Wake)):
            if links_valid and event.port not in ports:
                problems.append((f"events[{i}].port", _unknown_port(event.port)))
            continue
        known = True
        for end in ("a", "b"):
            if getattr(event, end) not in nodes:
                problems.append((f"events[{i}].{end}", f"unknown node {getattr(event, end)!r}"))
                known = False
        if known and links_valid and frozenset((event.a, event.b)) not in node_pairs:
            problems.append((f"events[{i}].b", f"no link between {event.a!r} and {event.b!r}"))

    if scenario.recorder is not None:
        for i, port in enumerate(scenario.recorder.ports):
            if links_valid and port not in ports:
                problems.append((f"recorder.ports[{i}]", _unknown_port(port)))
            elif port in scenario.recorder.ports[:i]:
                problems.append((f"recorder.ports[{i}]", f"port {port!r} listed twice"))
        for i, quantity in enumerate(scenario.recorder.quantities):
            if quantity in scenario.recorder.quantities[:i]:
                problems.append((f"recorder.quantities[{i}]", f"quantity {quantity!r} listed twice"))
        tcp_flows = {f.name for f in scenario.flows if f.traffic.type in TCP_TRAFFIC}
        for key in ("flows", "trace_flows"):
            for i, name in enumerate(getattr(scenario.recorder, key)):
                if name not in flow_names:
                    problems.append((f"recorder.{key}[{i}]", f"unknown flow {name!r}"))
                elif name not in tcp_flows:
                    problems.append((f"recorder.{key}[{i}]", f"flow {name!r} is not a TCP flow"))

    for i, capture in enumerate(scenario.pcap):
        if links_valid and capture.port not in ports:
            problems.append((f"pcap[{i}].port", _unknown_port(capture.port)))
        elif any(other.port == capture.port for other in scenario.pcap[:i]):
            problems.append((f"pcap[{i}].port", f"port {capture.port!r} is captured twice"))
    if scenario.pcap and len(scenario.nodes) > MAX_PCAP_NODES:
        problems.append(("pcap", f"captures address at most {MAX_PCAP_NODES} nodes (10.0.0.0/8)"))
    return problems + _overload_problems(scenario)


def _overload_problems(scenario: Scenario) -> list[tuple[str, str]]:
    """A UDP flow offering more than MAX_OVERLOAD times the fastest link's rate (1e12 for 10e6, say)."""
    rates = [link.rate_bps for link in scenario.links]
    rates += [o.rate_bps for link in scenario.links for o in (link.a_to_b, link.b_to_a) if o and o.rate_bps]
    if not rates:
        return []
    fastest = max(rates)
    problems = []
    for i, flow in enumerate(scenario.flows):
        traffic = flow.traffic
        field, offered = (
            ("rate_bps", traffic.rate_bps) if isinstance(traffic, (Cbr, Poisson))
            else ("peak_rate_bps", traffic.peak_rate_bps) if isinstance(traffic, OnOff)
            else ("", 0.0)
        )  # fmt: skip
        if offered > MAX_OVERLOAD * fastest:
            problem = (
                f"{offered:g} b/s is {offered / fastest:.3g} times the fastest link's rate ({fastest:g} b/s); "
                f"a flow may offer at most {MAX_OVERLOAD} times that (a typo in the exponent?)"
            )
            problems.append((f"flows[{i}].traffic.{field}", problem))
    return problems


def _pinned_path_problems(field: str, flow: Flow, ports: set[str]) -> list[tuple[str, str]]:
    """A pinned path: known ports, each starting where the previous one ends, from the flow's
    src to its dst, visiting each node once; a web flow's requests all come from its src."""
    if not flow.path:
        return [(f"{field}.path", 'must name at least one port ("from->to")')]
    if any(sender != flow.src for sender in getattr(flow.traffic, "senders", [])):
        return [(f"{field}.path", "cannot pin a web flow whose requests come from other senders")]
    at, visited = flow.src, {flow.src}
    for k, port in enumerate(flow.path):
        if port not in ports:
            return [(f"{field}.path[{k}]", _unknown_port(port))]
        start, end = port.split("->")
        if start != at:
            whence = "the flow's src" if k == 0 else "the previous port's end"
            return [(f"{field}.path[{k}]", f"port {port!r} does not start at {whence}, {at!r}")]
        if end in visited:
            return [(f"{field}.path[{k}]", f"port {port!r} returns to node {end!r}: a path visits each node once")]
        at = end
        visited.add(end)
    if at != flow.dst:
        return [(f"{field}.path", f"ends at {at!r}, not at the flow's dst {flow.dst!r}")]
    return []


def _unknown_port(port: str) -> str:
    return f'unknown port {port!r}; a port is named "from->to" after a link between the nodes from and to'
