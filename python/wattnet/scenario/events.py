"""Changes at given times: port rates, links down and up, ports asleep and awake."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from wattnet.scenario.base import _Model
from wattnet.scenario.limits import NonNegativeSeconds, PortRate


class SetRate(_Model):
    """Change a port's service rate."""

    action: Literal["set_rate"] = "set_rate"
    at_s: NonNegativeSeconds
    port: str
    """The port, named "from->to" after the link direction it sends along."""
    rate_bps: PortRate


class LinkDown(_Model):
    """Switch off the link between nodes ``a`` and ``b`` (either order): both its ports stop, and
    the packets they hold or carry are lost."""

    action: Literal["link_down"] = "link_down"
    at_s: NonNegativeSeconds
    a: str
    b: str


class LinkUp(_Model):
    """Switch the link between nodes ``a`` and ``b`` (either order) back on."""

    action: Literal["link_up"] = "link_up"
    at_s: NonNegativeSeconds
    a: str
    b: str


class Sleep(_Model):
    """From now on the port sleeps whenever it is idle and wakes on an arrival, each transition
    taking its ``transition_s`` at full power (802.3az ports keep their timings)."""

    action: Literal["sleep"] = "sleep"
    at_s: NonNegativeSeconds
    port: str


class Wake(_Model):
    """The port wakes if asleep and stays awake."""

    action: Literal["wake"] = "wake"
    at_s: NonNegativeSeconds
    port: str


Event = Annotated[SetRate | LinkDown | LinkUp | Sleep | Wake, Field(discriminator="action")]
