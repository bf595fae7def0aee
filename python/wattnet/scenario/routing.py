"""Routing: shortest-path metric, TTL, ECMP, and how the tables follow link changes."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from wattnet.scenario.base import _Model
from wattnet.scenario.limits import U8_MAX, U32_MAX, NonNegativeSeconds


class LinkStateReconvergence(_Model):
    """OSPF-like link state (RFC 2328; docs/forwarding.md): the routers at the ends of a changed link notice it
    after ``detection_s`` and flood a router-LSA of ``lsa_bytes``; each hop adds its propagation
    delay, the LSA's transmission time and ``hop_processing_s``; a router installs its new
    shortest paths ``spf_delay_s`` after receiving the change."""

    model: Literal["link_state"] = "link_state"
    detection_s: NonNegativeSeconds = 0.0
    hop_processing_s: NonNegativeSeconds = 0.001
    spf_delay_s: NonNegativeSeconds = 0.0
    lsa_bytes: int = Field(100, ge=1, le=U32_MAX)


class GlobalReconvergence(_Model):
    """Every router installs the new shortest paths ``delay_s`` after a link changes state
    (the simplest model; the 0.03 s transition period of Sassu, Scarso, Cuomo, "TCP behavior over a
    greened network", SustainIT 2012)."""

    model: Literal["global"] = "global"
    delay_s: NonNegativeSeconds = 0.03


Reconvergence = Annotated[LinkStateReconvergence | GlobalReconvergence, Field(discriminator="model")]


class Routing(_Model):
    metric: Literal["hops", "delay"] = "hops"
    """What a shortest path minimises."""
    ttl: int = Field(64, ge=1, le=U8_MAX)
    """Initial IP time-to-live; a packet is dropped when it reaches zero."""
    ecmp: bool = False
    """Spread flows over equal-cost next hops by a hash of each flow; false keeps one next hop
    (the lowest node id)."""
    reconvergence: Reconvergence | None = None
    """How tables follow link_down / link_up events; absent keeps the tables of the start, so a
    down link black-holes the traffic routed over it."""
