"""Multipath TCP settings of a flow (``flows[i].mptcp``): the schema the engine reads beside ``tcp``.

A TCP flow (``bulk``, ``transfer`` or ``serial``) becomes a Multipath TCP connection (RFC 8684) of
several TCP subflows by an ``mptcp`` table; ``mptcp = {}`` takes every default. The checks that need
the whole scenario (the ports of explicit paths) are ``mptcp_problems``.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from wattnet.errors import ScenarioError

U32_MAX = 2**32 - 1
U64_MAX = 2**64 - 1
# Web traffic opens one short connection per request: Linux opens its extra subflows only once
# the first is established, so the study of multipath transfers keeps to long-lived ones.
MPTCP_TRAFFIC = ("bulk", "transfer", "serial")


class Mptcp(BaseModel):
    """Multipath TCP (RFC 8684): one connection of TCP subflows with one data sequence space,
    DATA_ACKs and one connection-level receive buffer.

    Without ``paths`` the path manager builds a full mesh (Linux ``fullmesh``): one subflow per
    (local port, remote port) pair of the two hosts, ``subflows_per_path`` times; between
    single-homed hosts that is ``subflows_per_path`` subflows, each with its own ECMP hash. With
    ``paths``, each listed path carries ``subflows_per_path`` subflows. The ``tcp`` table's
    settings apply to every subflow; its ``congestion_control`` couples them (``lia``, ``olia``,
    ``balia``, ...) or runs one instance per subflow (a single-path algorithm: uncoupled).
    """

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False, use_attribute_docstrings=True)

    subflows_per_path: int = Field(1, ge=1, le=U32_MAX)
    """Subflows per (local port, remote port) pair, or per explicit path (Linux fullmesh ``num_subflows``)."""
    paths: list[list[str]] | None = Field(None, min_length=1)
    """Explicit paths, each the ports ("from->to") from the flow's src to its dst; absent: full mesh."""
    scheduler: Literal["min_rtt", "round_robin", "redundant"] = "min_rtt"
    """Which subflow gets the next data: the lowest smoothed RTT with free window (Linux's default),
    each in turn, or all of them."""
    opportunistic_retransmission: bool = True
    """Resend the segment that blocks the receive window on a subflow with room (Raiciu et al., NSDI 2012)."""
    penalisation: bool = True
    """Halve the window of the subflow whose segment blocks the receive window (Raiciu et al., NSDI 2012)."""
    receive_buffer_bytes: int | None = Field(None, ge=1, le=U64_MAX)
    """The connection-level receive buffer (its window counts from the DATA_ACK); default the
    ``tcp`` table's receive window as its profile resolves it."""

    def __init__(self, **data: Any):
        try:
            super().__init__(**data)
        except ValidationError as error:
            problems = [(".".join(str(part) for part in e["loc"]), e["msg"]) for e in error.errors()]
            raise ScenarioError(problems) from None


def mptcp_problems(
    field: str, traffic_type: str, pinned_path: list[str] | None, mptcp: Mptcp, src: str, dst: str, ports: set[str]
) -> list[tuple[str, str]]:
    """What is wrong with flow ``field``'s ``mptcp`` (field paths and problems): it applies to
    bulk, transfer and serial TCP flows only, not beside a pinned single ``path``, and each
    explicit path is checked as a pinned path is (known ports, each starting where the previous
    one ends, from src to dst, visiting each node once)."""
    if traffic_type not in MPTCP_TRAFFIC:
        kind = "web flows open one short connection per request" if traffic_type == "web" else "it is not TCP"
        return [(f"{field}.mptcp", f"applies to {', '.join(MPTCP_TRAFFIC)} TCP flows only ({kind})")]
    if pinned_path is not None:
        return [(f"{field}.path", "pins a single-path flow; give a Multipath TCP flow's paths in mptcp.paths")]
    problems: list[tuple[str, str]] = []
    for k, path in enumerate(mptcp.paths or []):
        problems += path_problems(f"{field}.mptcp.paths[{k}]", path, src, dst, ports)
    return problems


def path_problems(field: str, path: list[str], src: str, dst: str, ports: set[str]) -> list[tuple[str, str]]:
    """One explicit path: known ports, each starting where the previous one ends, from ``src`` to
    ``dst``, visiting each node once; the first problem, named by its field."""
    if not path:
        return [(field, 'must name at least one port ("from->to")')]
    at, visited = src, {src}
    for k, port in enumerate(path):
        if port not in ports:
            return [(f"{field}[{k}]", f'unknown port {port!r}; a port is named "from->to" after a link')]
        start, end = port.split("->")
        if start != at:
            whence = "the flow's src" if k == 0 else "the previous port's end"
            return [(f"{field}[{k}]", f"port {port!r} does not start at {whence}, {at!r}")]
        if end in visited:
            return [(f"{field}[{k}]", f"port {port!r} returns to node {end!r}: a path visits each node once")]
        at = end
        visited.add(end)
    if at != dst:
        return [(field, f"ends at {at!r}, not at the flow's dst {dst!r}")]
    return []
