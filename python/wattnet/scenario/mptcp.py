"""Multipath TCP settings of a flow (``flows[i].mptcp``), read by the engine beside ``tcp``."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from wattnet.scenario.base import _Model
from wattnet.scenario.limits import U32_MAX, U64_MAX

# Web traffic opens one short connection per request; Multipath TCP connections are long-lived ones.
MPTCP_TRAFFIC = ("bulk", "transfer", "serial")


class Mptcp(_Model):
    """Multipath TCP (RFC 8684): one connection of TCP subflows with one data sequence space,
    DATA_ACKs and one connection-level receive buffer; ``mptcp = {}`` takes every default.

    Without ``paths`` the path manager builds a full mesh (Linux ``fullmesh``): one subflow per
    (local port, remote port) pair of the two hosts, ``subflows_per_path`` times; between
    single-homed hosts that is ``subflows_per_path`` subflows, each with its own ECMP hash. With
    ``paths``, each listed path carries ``subflows_per_path`` subflows. The ``tcp`` table's
    settings apply to every subflow; its ``congestion_control`` couples them (``lia``, ``olia``,
    ``balia``, ...) or, for a single-path algorithm, runs one instance per subflow (uncoupled).
    """

    subflows_per_path: int = Field(1, ge=1, le=U32_MAX)
    """Subflows per (local port, remote port) pair, or per explicit path (Linux fullmesh ``num_subflows``)."""
    paths: list[list[str]] | None = Field(None, min_length=1)
    """Explicit paths, each the ports ("from->to") from the flow's src to its dst, checked as a
    pinned ``path`` is; absent: the full mesh."""
    scheduler: Literal["min_rtt", "round_robin", "redundant"] = "min_rtt"
    """Which subflow gets the next data: the lowest smoothed RTT with room in its window (Linux's
    default), each in turn, or every subflow."""
    opportunistic_retransmission: bool = True
    """Resend the segment that blocks the receive window on a subflow with room (Raiciu et al., NSDI 2012)."""
    penalisation: bool = True
    """Halve the window of the subflow whose segment blocks the receive window (Raiciu et al., NSDI 2012)."""
    receive_buffer_bytes: int | None = Field(None, ge=1, le=U64_MAX)
    """The connection-level receive buffer, its window counted from the DATA_ACK; default the
    ``tcp`` table's receive window as its profile resolves it."""
