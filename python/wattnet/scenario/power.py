"""Power models of a port, and IEEE 802.3az low-power idle."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from wattnet.errors import ScenarioError
from wattnet.scenario.base import _Model
from wattnet.scenario.limits import NonNegativeSeconds, PositiveSeconds


class ConstantPower(_Model):
    """The same power at every rate."""

    type: Literal["constant"] = "constant"
    active_w: float = Field(ge=0)
    sleep_w: float = Field(0.0, ge=0)


class RateScalingPower(_Model):
    """P(r) = P_s + f(r): frequency scaling (f linear in r) or dynamic voltage scaling (f cubic
    down to r_MAX/φ, linear below)."""

    type: Literal["rate_scaling"] = "rate_scaling"
    static_w: float = Field(ge=0)
    dynamic_w: float = Field(ge=0)
    scaling: Literal["frequency", "voltage"]
    max_scaling_factor: float = Field(4.0, ge=1)
    """φ (voltage scaling only)."""
    max_rate_bps: float | None = Field(None, gt=0)
    """r_MAX; default the port's initial rate."""
    sleep_w: float = Field(0.0, ge=0)


class PowerLevel(_Model):
    rate_bps: float = Field(gt=0)
    watts: float = Field(ge=0)


class RateTablePower(_Model):
    """Discrete hardware rates: a rate draws the power of the slowest level that carries it."""

    type: Literal["rate_table"] = "rate_table"
    levels: list[PowerLevel] = Field(min_length=1)
    sleep_w: float = Field(0.0, ge=0)


class LineCardPower(_Model):
    """⌈capacity / card capacity⌉ line cards of ``card_w`` each, whatever the load."""

    type: Literal["line_card"] = "line_card"
    card_capacity_bps: float = Field(gt=0)
    card_w: float = Field(ge=0)
    capacity_bps: float | None = Field(None, gt=0)
    """Default the port's initial rate."""
    sleep_w: float = Field(0.0, ge=0)


PowerModel = Annotated[ConstantPower | RateScalingPower | RateTablePower | LineCardPower, Field(discriminator="type")]


class Lpi(_Model):
    """IEEE 802.3az-2010 low-power idle: an idle port goes to sleep (T_s, active power),
    stays in low-power idle (quiet T_q at ``power_fraction`` of active power, refresh T_r at full
    power, repeating), and wakes (T_w, active power) when a frame arrives. A port is in low-power
    idle from the start of the run. ``phy`` presets the timings (Reviriego et al. 2009); explicit
    values override them, and without a preset all four are required."""

    phy: Literal["100base_tx", "1000base_t", "10gbase_t"] | None = None
    wake_s: NonNegativeSeconds | None = None
    """T_w."""
    sleep_s: NonNegativeSeconds | None = None
    """T_s."""
    quiet_s: PositiveSeconds | None = None
    """T_q."""
    refresh_s: NonNegativeSeconds | None = None
    """T_r."""
    power_fraction: float | None = Field(None, ge=0, le=1)
    """Power while quiet, as a fraction of active power; default 0.1."""

    @model_validator(mode="after")
    def _timed(self) -> Lpi:
        if self.phy is None:
            names = ("wake_s", "sleep_s", "quiet_s", "refresh_s")
            missing = [(name, "required unless phy names a preset") for name in names if getattr(self, name) is None]
            if missing:
                raise ScenarioError(missing)
        return self
