"""Scenarios composed from parts: a topology builder, traffic generators and settings applied to
sets of ports, written beside (or instead of) explicit nodes, links and flows.

    topology = { builder = "fattree", k = 4, rate_bps = 1e9 }
    [[traffic]]
    generator = "permutation"
    traffic = { type = "transfer", bytes = 1_000_000 }

``expand`` turns such a table into a plain scenario: the builder's nodes and links come first,
explicit ones after; each generator's flows follow the explicit flows. Every builder and
generator is the Python function of the same name (``wattnet.topology``, ``wattnet.traffic``)
called with the table's other keys, so a TOML scenario and its Python twin are the same
scenario. ``wattnet expand SCENARIO`` prints the result.
"""

from __future__ import annotations

import copy
import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from wattnet import topology, traffic
from wattnet.errors import ScenarioError

BUILDERS: dict[str, Callable[..., topology.Topology]] = {
    "dumbbell": topology.dumbbell,
    "chain": topology.chain,
    "access": topology.access_network,
    "abilene": topology.abilene,
    "fattree": topology.fattree,
    "vl2": topology.vl2,
    "bcube": topology.bcube,
    "graphml": topology.from_graphml,
    "sndlib": topology.from_sndlib,
}
# The builders that read a file: their path is relative to the scenario file.
_FILE_PARAMETER = {"graphml": "path", "sndlib": "source"}
# Keys a scenario may hold only before expansion.
COMPOSING_KEYS = ("topology", "traffic", "apply")

# The stream of generator i of a scenario with seed s: SeedSequence(s, spawn_key=(TRAFFIC_DOMAIN, i)),
# apart from the replication seeds' SeedSequence(s, spawn_key=(r,)).
TRAFFIC_DOMAIN = 0x74726166  # "traf"


def traffic_rng(seed: int, index: int) -> np.random.Generator:
    """The random stream of the scenario's traffic generator number ``index`` (0-based)."""
    return np.random.default_rng(np.random.SeedSequence(entropy=seed, spawn_key=(TRAFFIC_DOMAIN, index)))


def is_composed(data: Any) -> bool:
    return isinstance(data, dict) and any(key in data for key in COMPOSING_KEYS)


def expand(data: dict[str, Any], base_dir: str | Path | None = None) -> dict[str, Any]:
    """The plain scenario table of a composed one (``topology``, ``traffic``, ``apply``);
    ``base_dir`` is where relative file names (GraphML, SNDlib) are looked up."""
    data = copy.deepcopy(data)
    spec, generators, settings = (data.pop(key, None) for key in COMPOSING_KEYS)
    built = None
    if spec is not None:
        built = build_topology(spec, base_dir)
        data["nodes"] = built.nodes + list(data.get("nodes", []))
        data["links"] = built.links + list(data.get("links", []))
    if generators is not None:
        if not isinstance(generators, list):
            raise ScenarioError([("traffic", "must be a list of generator tables ([[traffic]])")])
        if not isinstance(data.get("seed"), int):
            raise ScenarioError([("seed", "required (an integer): the traffic generators draw from it")])
        flows = list(data.get("flows", []))
        for index, generator in enumerate(generators):
            flows += generate(generator, index, data, built)
        data["flows"] = flows
    if settings is not None:
        from wattnet.selectors import apply_settings

        data = apply_settings(data, settings)
    return data


def build_topology(spec: Any, base_dir: str | Path | None = None) -> topology.Topology:
    if not isinstance(spec, dict) or "builder" not in spec:
        raise ScenarioError([("topology.builder", f"required; one of {', '.join(BUILDERS)}")])
    parameters = dict(spec)
    name = parameters.pop("builder")
    if name not in BUILDERS:
        raise ScenarioError([("topology.builder", f"unknown builder {name!r}; one of {', '.join(BUILDERS)}")])
    if name in _FILE_PARAMETER and isinstance(parameters.get(_FILE_PARAMETER[name]), str) and base_dir is not None:
        parameters[_FILE_PARAMETER[name]] = str(Path(base_dir) / parameters[_FILE_PARAMETER[name]])
    built_topology: topology.Topology = call(BUILDERS[name], parameters, "topology", f"builder {name!r}")
    return built_topology


def generate(spec: Any, index: int, data: dict[str, Any], built: topology.Topology | None) -> list[dict[str, Any]]:
    where = f"traffic[{index}]"
    if not isinstance(spec, dict) or "generator" not in spec:
        names = ", ".join([*traffic.GENERATORS, "link_cbr"])
        raise ScenarioError([(f"{where}.generator", f"required; one of {names}")])
    parameters = dict(spec)
    name = parameters.pop("generator")
    rng = traffic_rng(data["seed"], index)
    if name == "link_cbr":
        if built is None:
            raise ScenarioError(
                [(f"{where}.generator", "link_cbr loads the links of a topology builder; give topology")]
            )
        loads: list[dict[str, Any]] = call(
            traffic.link_cbr_flows, {"topology": built, "rng": rng, **parameters}, where, "link_cbr"
        )
        return loads
    if name not in traffic.GENERATORS:
        names = ", ".join([*traffic.GENERATORS, "link_cbr"])
        raise ScenarioError([(f"{where}.generator", f"unknown generator {name!r}; one of {names}")])
    hosts = parameters.pop("hosts", None)
    if hosts is None:
        hosts = built.hosts if built is not None else "host"
    if isinstance(hosts, str):
        from wattnet.selectors import select_nodes

        hosts = select_nodes(data, hosts, f"{where}.hosts")
    flows: list[dict[str, Any]] = call(
        traffic.GENERATORS[name], {"hosts": hosts, "rng": rng, **parameters}, where, f"generator {name!r}"
    )
    return flows


Made = TypeVar("Made")


def call(function: Callable[..., Made], parameters: dict[str, Any], where: str, what: str) -> Made:
    """``function(**parameters)``, its unknown parameters and ScenarioErrors named under ``where``."""
    accepted = inspect.signature(function).parameters
    if not any(p.kind is p.VAR_KEYWORD for p in accepted.values()):
        for key in parameters:
            if key not in accepted:
                known = ", ".join(k for k in accepted if k not in ("rng", "topology"))
                raise ScenarioError([(f"{where}.{key}", f"unknown parameter of {what} (its parameters: {known})")])
    try:
        return function(**parameters)
    except ScenarioError as error:
        raise ScenarioError(
            [(f"{where}.{field}" if field else where, problem) for field, problem in error.errors]
        ) from None
    except TypeError as error:
        raise ScenarioError([(where, f"{what}: {error}")]) from None
    except (ValueError, OSError) as error:
        raise ScenarioError([(where, str(error))]) from None
