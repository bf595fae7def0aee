"""Nodes, and the energy models of a node as a host."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, field_validator, model_validator

from wattnet.errors import ScenarioError
from wattnet.scenario.base import _Model
from wattnet.scenario.limits import PositiveSeconds


class BatteryHost(_Model):
    """A battery-powered client (Pentikousis, Badr, "On the resource efficiency of explicit
    congestion notification", IFIP Networking 2002): E = N_tx·e_tx + N_rx·e_rx + T_idle·P_idle.

    Each packet costs e = P·(size·8/rate) + e_overhead: its overhead ``tx_j_per_packet`` or
    ``rx_j_per_packet`` plus ``tx_w`` or ``rx_w`` for its transmission time at the rate of the
    port it leaves on or arrives over. N_rx counts packets delivered to the node and those
    corrupted on a link into it. T_idle is the node's active span, from the first packet it sends
    or receives to the last, less its sending and receiving times (at least 0).
    """

    type: Literal["battery"] = "battery"
    tx_j_per_packet: float = Field(ge=0)
    """e_overhead of each packet sent (J); with tx_w = 0, the whole cost of a packet."""
    rx_j_per_packet: float = Field(ge=0)
    """e_overhead of each packet received (J), corrupted ones included."""
    idle_w: float = Field(ge=0)
    """P_idle, over the active span while neither sending nor receiving."""
    tx_w: float = Field(0.0, ge=0)
    """P_tx, for each packet's transmission time."""
    rx_w: float = Field(0.0, ge=0)
    """P_rx, for each packet's transmission time on the port it arrived over."""
    ack_cost_equals_data: bool = False
    """TCP packets without payload (ACKs, SYN, FIN) take and cost as much as a full data segment of their
    connection (MSS + headers)."""


class MptcpHost(_Model):
    """A host's power while sending, per connection (Zhao, Liu, Wang, IEEE 2017, eq. 2):
    P_r = P_base/n + a·(τ_r/τ_ref)^γ + b·RTT_r/RTT_ref, one subflow (n = 1) per connection.

    Each connection the node sends costs duration·P_r, with the duration from opening to
    completion (or the end of the run), τ_r its goodput and RTT_r its mean SRTT. ``preset``
    ``ethernet`` (20 W, 3 W at 1 Gb/s) or ``wifi`` (1 W, 0.9 W per 40 Mb/s), both γ = 1,
    b = 0.05·P_base, RTT_ref = 100 ms; explicit values override the preset's, and without a
    preset every value is required.
    """

    type: Literal["mptcp_host"] = "mptcp_host"
    preset: Literal["ethernet", "wifi"] | None = None
    base_w: float | None = Field(None, ge=0)
    """P_base (W)."""
    rate_w: float | None = Field(None, ge=0)
    """a (W)."""
    ref_rate_bps: float | None = Field(None, gt=0)
    """τ_ref (bit/s)."""
    gamma: float | None = Field(None, ge=0)
    """γ."""
    rtt_w: float | None = Field(None, ge=0)
    """b (W)."""
    ref_rtt_s: PositiveSeconds | None = None
    """RTT_ref (s)."""

    @model_validator(mode="after")
    def _complete(self) -> MptcpHost:
        if self.preset is None:
            names = ("base_w", "rate_w", "ref_rate_bps", "gamma", "rtt_w", "ref_rtt_s")
            missing = [(name, "required unless preset names one") for name in names if getattr(self, name) is None]
            if missing:
                raise ScenarioError(missing)
        return self


HostPower = Annotated[BatteryHost | MptcpHost, Field(discriminator="type")]


class Node(_Model):
    """A host or a router: every node forwards, and any node can be a flow's end."""

    name: str = Field(min_length=1)
    """Unique; it names the node's ports ("from->to")."""
    power: HostPower | None = None
    """The node's own energy as a host; none: not accounted (NaN in the nodes table)."""

    @field_validator("name")
    @classmethod
    def _no_arrow(cls, name: str) -> str:
        if "->" in name:
            raise ValueError("must not contain '->' (it separates the two ends of a port name)")
        return name
