"""SNDlib native network files (sndlib.zib.de, "Network input file (simple ASCII)")."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Literal

from wattnet.topology._fragment import ParameterChecks, Topology
from wattnet.topology._imported import RawEdge, assemble, check_import_parameters
from wattnet.topology.geo import FIBRE_SPEED_KM_PER_S

_SECTION = re.compile(r"^([A-Z_]+)\s*\((\s*\))?$")
# node_id ( x y ) [( design_ids ) ( options )]
_NODE = re.compile(r"^(\S+)\s*\(\s*(\S+)\s+(\S+)\s*\)")
# link_id ( source target ) pre_installed_capacity pre_installed_cost routing_cost setup_cost ( {capacity cost}* )
_LINK = re.compile(r"^(\S+)\s*\(\s*(\S+)\s+(\S+)\s*\)\s*([^(]*)(?:\((.*)\))?\s*$")


def from_sndlib(
    source: str | Path,
    *,
    default_rate_bps: float,
    buffer_packets: int,
    capacity: Literal["default", "preinstalled", "module"] = "default",
    capacity_unit_bps: float = 1e6,
    capacity_scale: float = 1.0,
    exact_delays: bool = False,
    propagation_speed_km_per_s: float = FIBRE_SPEED_KM_PER_S,
    parallel_rates: Literal["sum", "max"] = "sum",
) -> Topology:
    """Nodes (in file order, so a node's id is its SNDlib position) and links of an SNDlib
    native network file, given as a path or as the text itself.

    Delays come from the node coordinates (longitude, latitude): haversine at
    ``propagation_speed_km_per_s``, rounded to whole ms with a 1 ms minimum unless
    ``exact_delays``. Every link runs at ``default_rate_bps``; or, with ``capacity``, at its
    pre-installed capacity or its largest module (in ``capacity_unit_bps``, Mb/s for SNDlib,
    times ``capacity_scale``, e.g. 1e-3 for Sassu et al. 2012's scaling), falling back to
    ``default_rate_bps`` where that is zero. Parallel links are merged (``parallel_rates``) and
    self-loops dropped, each with a warning. DEMANDS and ADMISSIBLE_PATHS are ignored.
    """
    checks = ParameterChecks()
    check_import_parameters(
        checks, default_rate_bps, buffer_packets, capacity_scale, propagation_speed_km_per_s, parallel_rates
    )
    checks.positive("capacity_unit_bps", capacity_unit_bps)
    if capacity not in ("default", "preinstalled", "module"):
        checks.fail("capacity", f"must be 'default', 'preinstalled' or 'module', got {capacity!r}")
    checks.raise_if_any()

    if isinstance(source, Path) or "\n" not in source:
        path = Path(source)
        text, label = path.read_text(), str(path)
    else:
        text, label = source, "SNDlib text"
    if text.lstrip().startswith("<"):
        raise ValueError(f"{label}: this is SNDlib's XML format; give the native (plain text) format")

    names: list[str] = []
    coordinates: dict[str, tuple[float, float]] = {}
    edges: list[RawEdge] = []
    section = None
    for number, raw_line in enumerate(text.splitlines(), start=1):
        line = raw_line.split("#", 1)[0].strip()
        if not line or line.startswith("?"):
            continue
        where = f"{label}, line {number}"
        if section is None:
            match = _SECTION.match(line)
            if match is None:
                raise ValueError(f"{where}: expected a section such as 'NODES (', got {line!r}")
            section = None if match[2] else match[1]  # "NAME ( )" is an empty section
        elif line == ")":
            section = None
        elif section == "NODES":
            match = _NODE.match(line)
            if match is None:
                raise ValueError(f"{where}: expected 'node_id ( longitude latitude )', got {line!r}")
            name = match[1]
            if name in coordinates:
                raise ValueError(f"{where}: node {name!r} defined twice")
            names.append(name)
            coordinates[name] = (_number(match[2], where), _number(match[3], where))
        elif section == "LINKS":
            match = _LINK.match(line)
            if match is None:
                raise ValueError(
                    f"{where}: expected 'link_id ( source target ) capacity costs ( modules )', got {line!r}"
                )
            _, a, b, numbers, modules = match.groups()
            for end in (a, b):
                if end not in coordinates:
                    raise ValueError(f"{where}: link to unknown node {end!r} (nodes must come first)")
            preinstalled = [_number(token, where) for token in numbers.split()][:1]
            module_tokens = [_number(token, where) for token in (modules or "").split()]
            module_capacities = module_tokens[0::2]
            if capacity == "preinstalled" and preinstalled and preinstalled[0] > 0:
                edges.append(RawEdge(a, b, preinstalled[0] * capacity_unit_bps * capacity_scale, "preinstalled"))
            elif capacity == "module" and module_capacities and max(module_capacities) > 0:
                edges.append(RawEdge(a, b, max(module_capacities) * capacity_unit_bps * capacity_scale, "module"))
            else:
                edges.append(RawEdge(a, b, None, "default"))
    if section is not None:
        raise ValueError(f"{label}: section {section} is not closed with ')'")
    if not names:
        raise ValueError(f"{label}: no NODES section")

    return assemble(
        "sndlib",
        label,
        names,
        coordinates,
        edges,
        default_rate_bps=default_rate_bps,
        default_delay_s=None,
        buffer_packets=buffer_packets,
        exact_delays=exact_delays,
        propagation_speed_km_per_s=propagation_speed_km_per_s,
        parallel_rates=parallel_rates,
    )


def _number(token: str, where: str) -> float:
    try:
        return float(token)
    except ValueError:
        raise ValueError(f"{where}: expected a number, got {token!r}") from None
