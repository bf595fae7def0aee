"""Sets of ports and nodes named by their role, and settings applied to every member.

A node's role follows from the links alone, so it means the same for a builder's network and
a hand-written one: a **host** has one link; every other node is a **switch**; a switch next to
a host is an **edge** switch, one two hops from the nearest host an **aggregation** switch, and
one three or more hops away a **core** switch (in a FatTree: edge, aggregation and core; in
VL2: ToR, aggregation and intermediate). A network without hosts (a ring) is all switches.

Node selectors: ``"all"``, ``"host"``, ``"switch"``, ``"edge"``, ``"aggregation"``, ``"core"``,
``"nodes:GLOB"`` (names matching the shell pattern), or a list of them (their union).
Port selectors take the same roles, meaning the ports a node of that role sends from, plus
``"links:GLOB"``, the ports whose name ``"from->to"`` matches (``"links:agg*->core*"``).
"""

from __future__ import annotations

import copy
import fnmatch
from collections import deque
from typing import Any

from wattnet.errors import ScenarioError

ROLES = ("host", "switch", "edge", "aggregation", "core")
# PortOverride's fields, which a setting may give to every selected port.
PORT_FIELDS = ("rate_bps", "queue", "transition_s", "error_rate", "power", "lpi", "controller", "available_bandwidth")
# A sleep schedule: the selected ports sleep (and wake) at these times, as the scenario's events.
SCHEDULE_FIELDS = ("sleep_at_s", "wake_at_s")
NODE_FIELDS = ("power",)


def node_roles(data: dict[str, Any]) -> dict[str, set[str]]:
    """Each node's roles (``ROLES``) in a scenario table: from its links, as the module says."""
    names = [node["name"] for node in data.get("nodes", [])]
    neighbours: dict[str, set[str]] = {name: set() for name in names}
    for link in data.get("links", []):
        if link["a"] in neighbours and link["b"] in neighbours:
            neighbours[link["a"]].add(link["b"])
            neighbours[link["b"]].add(link["a"])
    hosts = [name for name in names if len(neighbours[name]) == 1]
    hops = dict.fromkeys(hosts, 0)
    frontier = deque(hosts)
    while frontier:  # breadth-first from every host at once: hops to the nearest host
        node = frontier.popleft()
        for other in neighbours[node]:
            if other not in hops:
                hops[other] = hops[node] + 1
                frontier.append(other)
    roles = {}
    for name in names:
        if name in hosts:
            roles[name] = {"host"}
            continue
        tier = hops.get(name)
        roles[name] = {"switch"} | ({"edge"} if tier == 1 else {"aggregation"} if tier == 2 else set())
        if tier is not None and tier >= 3:
            roles[name].add("core")
    return roles


def select_nodes(data: dict[str, Any], selector: Any, where: str) -> list[str]:
    """The nodes a selector names, in the scenario's node order."""
    roles = node_roles(data)
    chosen: set[str] = set()
    for item in _items(selector, where):
        if item == "all":
            chosen |= set(roles)
        elif item in ROLES:
            chosen |= {name for name, its in roles.items() if item in its}
        elif item.startswith("nodes:"):
            chosen |= set(fnmatch.filter(roles, item.removeprefix("nodes:")))
        else:
            raise ScenarioError([(where, _unknown(item, "nodes:GLOB"))])
    return [name for name in roles if name in chosen]


def select_ports(data: dict[str, Any], selector: Any, where: str) -> list[tuple[int, str]]:
    """The ports a selector names, as (link index, ``"a_to_b"`` or ``"b_to_a"``), in link order."""
    roles = node_roles(data)
    ports = [
        (i, direction, sender, f"{sender}->{receiver}")
        for i, link in enumerate(data.get("links", []))
        for direction, sender, receiver in (("a_to_b", link["a"], link["b"]), ("b_to_a", link["b"], link["a"]))
    ]
    chosen: set[tuple[int, str]] = set()
    for item in _items(selector, where):
        if item == "all":
            chosen |= {(i, d) for i, d, _, _ in ports}
        elif item in ROLES:
            chosen |= {(i, d) for i, d, sender, _ in ports if item in roles.get(sender, ())}
        elif item.startswith("links:"):
            pattern = item.removeprefix("links:")
            chosen |= {(i, d) for i, d, _, name in ports if fnmatch.fnmatchcase(name, pattern)}
        elif item.startswith("nodes:"):
            senders = set(fnmatch.filter(roles, item.removeprefix("nodes:")))
            chosen |= {(i, d) for i, d, sender, _ in ports if sender in senders}
        else:
            raise ScenarioError([(where, _unknown(item, "links:GLOB, nodes:GLOB"))])
    return [(i, d) for i, d, _, _ in ports if (i, d) in chosen]


def apply_settings(data: dict[str, Any], settings: Any) -> dict[str, Any]:
    """``data`` with each setting applied in turn (a later one replaces what an earlier one set):
    a setting names ``ports`` and gives PortOverride fields and sleep times, or names ``nodes``
    and gives their host ``power``. The result lists the settings port by port."""
    if not isinstance(settings, list):
        raise ScenarioError([("apply", "must be a list of settings ([[apply]])")])
    data = copy.deepcopy(data)
    for index, setting in enumerate(settings):
        where = f"apply[{index}]"
        if not isinstance(setting, dict) or ("ports" in setting) == ("nodes" in setting):
            raise ScenarioError([(where, "give exactly one of ports (a port selector) and nodes (a node selector)")])
        fields = {key: value for key, value in setting.items() if key not in ("ports", "nodes")}
        allowed = PORT_FIELDS + SCHEDULE_FIELDS if "ports" in setting else NODE_FIELDS
        for key in fields:
            if key not in allowed:
                raise ScenarioError([(f"{where}.{key}", f"unknown setting; one of {', '.join(allowed)}")])
        if not fields:
            raise ScenarioError([(where, f"sets nothing; give one of {', '.join(allowed)}")])
        if "nodes" in setting:
            chosen = set(select_nodes(data, setting["nodes"], f"{where}.nodes"))
            for node in data["nodes"]:
                if node["name"] in chosen:
                    node.update(copy.deepcopy(fields))
            continue
        ports = select_ports(data, setting["ports"], f"{where}.ports")
        port_fields = {key: value for key, value in fields.items() if key in PORT_FIELDS}
        for i, direction in ports:
            link = data["links"][i]
            link[direction] = {**(link.get(direction) or {}), **copy.deepcopy(port_fields)}
        for key, action in (("sleep_at_s", "sleep"), ("wake_at_s", "wake")):
            times = fields.get(key, [])
            times = times if isinstance(times, list) else [times]
            events = data.setdefault("events", [])
            for at_s in times:
                for i, direction in ports:
                    link = data["links"][i]
                    a, b = (link["a"], link["b"]) if direction == "a_to_b" else (link["b"], link["a"])
                    events.append({"action": action, "at_s": at_s, "port": f"{a}->{b}"})
    return data


def _items(selector: Any, where: str) -> list[str]:
    items = [selector] if isinstance(selector, str) else selector
    if not isinstance(items, list) or not items or not all(isinstance(item, str) for item in items):
        raise ScenarioError([(where, f"must be a selector or a list of selectors, got {selector!r}")])
    return items


def _unknown(item: str, patterns: str) -> str:
    return f"unknown selector {item!r}; one of all, {', '.join(ROLES)}, {patterns}"
