"""Links: two ports, one per direction, their settings and per-direction overrides."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from wattnet.errors import ScenarioError
from wattnet.scenario.base import _Model
from wattnet.scenario.controllers import Controller
from wattnet.scenario.limits import ErrorRate, NonNegativeSeconds, PortRate, PositiveRate, PositiveSeconds
from wattnet.scenario.power import Lpi, PowerModel
from wattnet.scenario.queues import Queue, default_queue


class UniformAvailableBandwidth(_Model):
    """A bottleneck elsewhere (as in Panarello et al., AJEEE 2016): the port's rate is redrawn at Exp(mean) epochs,
    uniformly from [min, max] (continuous, or in steps of ``step_bps``), without a transition."""

    type: Literal["uniform"] = "uniform"
    mean_interval_s: PositiveSeconds
    min_rate_bps: PortRate
    max_rate_bps: PortRate
    step_bps: PositiveRate | None = None

    @model_validator(mode="after")
    def _max_not_below_min(self) -> UniformAvailableBandwidth:
        if self.max_rate_bps < self.min_rate_bps:
            raise ValueError(f"max_rate_bps ({self.max_rate_bps}) must be at least min_rate_bps ({self.min_rate_bps})")
        return self


class PortOverride(_Model):
    """Settings of one direction of a link that differ from the link's own."""

    rate_bps: PortRate | None = None
    queue: Queue | None = None
    transition_s: NonNegativeSeconds | None = None
    error_rate: ErrorRate | None = None
    power: PowerModel | None = None
    lpi: Lpi | None = None
    controller: Controller | None = None
    """A power-management policy for this direction's output port."""
    available_bandwidth: UniformAvailableBandwidth | None = None
    """A bottleneck elsewhere: this direction's rate redraws itself over time."""


class Link(_Model):
    """A bidirectional link: two ports, one per direction, with the same propagation delay.

    ``rate_bps``, ``queue``, ``transition_s`` and ``error_rate`` apply to both directions
    unless a direction overrides them in ``a_to_b`` / ``b_to_a``.
    """

    a: str
    """One end (a node's name); the a->b port sends from it."""
    b: str
    """The other end; the b->a port sends from it."""
    rate_bps: PortRate
    """Service rate of each direction, bit/s (whole bit/s)."""
    delay_s: NonNegativeSeconds
    """One-way propagation delay."""
    queue: Queue = Field(default_factory=default_queue)
    """Each direction's queue; default DropTail of 1000 packets."""
    transition_s: NonNegativeSeconds = 0.0
    """How long a port sends nothing after a rate change."""
    error_rate: ErrorRate = 0.0
    """Probability that a packet is corrupted on the wire and discarded at the far end (Bernoulli, per packet)."""
    power: PowerModel | None = None
    """How each direction draws power; none: energy is not accounted."""
    lpi: Lpi | None = None
    """IEEE 802.3az low-power idle on both directions; none: the ports stay awake."""
    a_to_b: PortOverride | None = None
    """Settings of the a->b direction that differ from the link's (and its controller)."""
    b_to_a: PortOverride | None = None
    """Settings of the b->a direction that differ from the link's (and its controller)."""

    @model_validator(mode="after")
    def _one_way_to_sleep(self) -> Link:
        problems = []
        for direction in ("a_to_b", "b_to_a"):
            over = getattr(self, direction)
            if over is None or over.controller is None or over.controller.type != "opportunistic_sleep":
                continue
            if over.lpi is not None or self.lpi is not None:
                problem = "cannot put a port to sleep that already uses 802.3az low-power idle (lpi)"
                problems.append((f"{direction}.controller", problem))
        if problems:
            raise ScenarioError(problems)
        return self

    def port_names(self) -> tuple[str, str]:
        return f"{self.a}->{self.b}", f"{self.b}->{self.a}"
