"""Power-management policies of a port (its controller): practRA, G-router, ALR, opportunistic
sleep, and policies written in Python.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, model_validator

from wattnet.scenario.base import _Model
from wattnet.scenario.limits import U64_MAX, NonNegativeSeconds, PortRate, PositiveSeconds


class PracticalRateAdaptation(_Model):
    """practRA (Nedevschi et al., NSDI 2008) as Panarello et al. ("Network interface power management
    and TCP congestion control: a troubled marriage", AJEEE 2016) use it: one rate step at a
    time from an EWMA arrival-rate prediction, the queue and a delay bound."""

    type: Literal["practra"] = "practra"
    rates_bps: list[PortRate] = Field(min_length=1)
    """The available rates; they must include the port's initial rate."""
    delay_bound_s: PositiveSeconds = 0.010
    """d; Panarello et al. (AJEEE 2016) do not give it: Nedevschi et al.'s (NSDI 2008) 10 ms."""
    min_rate_change_interval_s: PositiveSeconds
    """mRCI; must exceed the port's transition_s."""
    ewma_weight: float = Field(0.25, gt=0, le=1)
    sample_interval_s: PositiveSeconds | None = None
    """T_s, the arrival-rate sampling interval; None (the default) samples once per mRCI."""


class CEarth(_Model):
    type: Literal["c_earth"] = "c_earth"


class Earth(_Model):
    type: Literal["earth"] = "earth"
    rates_bps: list[PortRate] = Field(min_length=1)


class FixedRate(_Model):
    type: Literal["fixed"] = "fixed"


RateControl = Annotated[CEarth | Earth | FixedRate, Field(discriminator="type")]


class GRouter(_Model):
    """AWM (rewrites the advertised window of ACKs to hold the queue near a target) with C-EARTH
    (continuous rate), EARTH (rate steps) or a fixed rate."""

    type: Literal["g_router"] = "g_router"
    target_bytes: float = Field(gt=0)
    gamma: float = Field(0.95, gt=0, le=1)
    beta_bps: float = Field(10e3, gt=0)
    mtu_bytes: float = Field(gt=0)
    initial_window_bytes: float = Field(65536.0, gt=0)
    initial_flows: float | None = Field(None, ge=1)
    """N₀ given directly (default 1); N₀·swnd₀/C₀ is the RTT estimate for the whole run (eqs. 5
    and 7 keep it). Excludes ``round_trip_propagation_s``."""
    round_trip_propagation_s: float | None = Field(None, gt=0)
    """The round-trip propagation delay known at configuration: N₀ then follows from eq. 6 of
    Lombardo, Panarello, Schembra (the G-router paper), N₀ = (RTT + T/C₀)·C₀/swnd₀, at least 1."""

    @model_validator(mode="after")
    def _one_flow_estimate(self) -> GRouter:
        if self.initial_flows is not None and self.round_trip_propagation_s is not None:
            raise ValueError("initial_flows: give initial_flows or round_trip_propagation_s, not both")
        return self

    min_rate_bps: float | None = Field(None, gt=0)
    """C_min; default 100 kb/s."""
    max_rate_bps: float | None = Field(None, gt=0)
    """C_max; default the port's initial rate."""
    rate_control: RateControl = Field(default_factory=CEarth)


class AdaptiveLinkRate(_Model):
    """Adaptive Link Rate: two rates, dual queue thresholds, optional utilisation monitoring."""

    type: Literal["adaptive_link_rate"] = "adaptive_link_rate"
    low_rate_bps: PortRate
    high_rate_bps: PortRate | None = None
    low_threshold_bytes: int = Field(0, ge=0, le=U64_MAX)
    high_threshold_bytes: int = Field(32 * 1024, ge=1, le=U64_MAX)
    utilization_window_s: PositiveSeconds | None = None
    utilization_threshold: float = Field(0.05, ge=0)


class OpportunisticSleep(_Model):
    """Opportunistic sleeping (Nedevschi et al. 2008): the port sleeps when its queue is empty and
    the predicted idle time exceeds 2δ, and wakes on the next arrival, whose delay grows by δ.
    Going to sleep and waking take δ each at active power; asleep, the port draws its power
    model's sleep_w. The idle time is predicted by an EWMA of past idle periods (from a departure
    that leaves the port empty to the next arrival)."""

    type: Literal["opportunistic_sleep"] = "opportunistic_sleep"
    transition_s: NonNegativeSeconds = 0.001
    """δ (assumption: 1 ms, as practRA's)."""
    ewma_weight: float = Field(0.25, gt=0, le=1)
    """Weight of the newest idle period."""
    initial_idle_s: NonNegativeSeconds | None = None
    """The prediction before any idle period; absent: the first idle period sets it."""


class ExternalPolicy(_Model):
    """A policy written in Python (``wattnet.policy``): an object whose ``observe(view)`` returns
    the port's next command, made per port as ``Class(port, **params)``."""

    type: Literal["external"] = "external"
    policy: str = Field(min_length=1)
    """The class, as "module:Class" (importable where the run happens), or a name given to
    ``wattnet.run(..., policies={name: Class})``."""
    interval_s: PositiveSeconds | None = None
    """The control interval: observe is called every interval_s."""
    per_packet: bool = False
    """Also call observe at every packet arrival and departure (costly: one Python call each)."""
    sleep_transition_s: PositiveSeconds | None = None
    """δ, if the policy may put its port to sleep."""
    params: dict[str, Any] = {}
    """Keyword arguments of the class."""

    @model_validator(mode="after")
    def _called(self) -> ExternalPolicy:
        if self.interval_s is None and not self.per_packet:
            raise ValueError("set interval_s or per_packet, or the policy is never called")
        return self


Controller = Annotated[
    PracticalRateAdaptation | GRouter | AdaptiveLinkRate | OpportunisticSleep | ExternalPolicy,
    Field(discriminator="type"),
]
