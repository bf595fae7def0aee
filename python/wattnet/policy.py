"""Power/rate policies written in Python, run inside the engine's loop through the binding.

A policy is a class made once per port it manages, ``Class(port, **params)``, whose
``observe(view)`` returns the port's next command: ``None`` (nothing), ``set_rate(r)`` (a
hardware rate change: the port pauses for its transition time; counted and logged),
``tune(r)`` (a continuous adjustment: immediate, counted, not logged) or ``SLEEP`` (sleep
until the next arrival; needs ``sleep_transition_s``). ``view`` is the engine's PortView:
``event`` ("tick", "arrival", "departure"), ``now_s``, ``now_ps``, ``queue_bits``,
``queue_packets``, ``rate_bps``, ``arrived_bytes``, ``departed_bytes``, ``frozen_until_ps`` and
``transmitting``. A scenario names the class in a controller::

    controller = { type = "external", policy = "mypolicies:Threshold", interval_s = 0.01,
                   params = { low_rate_bps = 1e8 } }

``observe`` is called every ``interval_s`` (event "tick") and, with ``per_packet = true``, at
every packet arrival and departure. See docs/python-policies.md for the cost of a call.
"""

from __future__ import annotations

import importlib
import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from wattnet._engine import PortView

SLEEP = "sleep"
PS_PER_S = 10**12


def set_rate(rate_bps: float) -> tuple[str, int]:
    """A hardware rate change to ``rate_bps`` (a whole number of bit/s, at least 1)."""
    return ("set_rate", _whole_rate(rate_bps))


def tune(rate_bps: float) -> tuple[str, int]:
    """A continuous rate adjustment to ``rate_bps``, without a transition."""
    return ("tune", _whole_rate(rate_bps))


def _whole_rate(rate_bps: float) -> int:
    if isinstance(rate_bps, bool) or not isinstance(rate_bps, (int, float)) or not math.isfinite(rate_bps):
        raise ValueError(f"a rate is a finite number of bit/s, not {rate_bps!r}")
    return int(rate_bps) if rate_bps == int(rate_bps) else math.floor(rate_bps + 0.5)


@dataclass(frozen=True)
class PolicyPort:
    """The port a policy manages, as the engine built it."""

    name: str
    """"from->to"."""
    rate_bps: int
    """The initial service rate."""
    transition_s: float
    """How long a rate change pauses the port."""
    interval_s: float | None
    """The control interval as the engine keeps it (whole picoseconds)."""


def import_class(name: str, kind: str = "policy", argument: str = "policies") -> Callable[..., Any]:
    """The class a "module:Class" name points to; ``kind`` and ``argument`` (of ``wattnet.run``)
    name what it is in errors."""
    module_name, _, attribute = name.partition(":")
    if not module_name or not attribute:
        raise ValueError(f"a {kind} is named 'module:Class' or given to wattnet.run({argument}=...), not {name!r}")
    target: object = importlib.import_module(module_name)
    for part in attribute.split("."):
        target = getattr(target, part)
    if not callable(target):
        raise TypeError(f"the {kind} {name!r} names {target!r}, which is not a class")
    return target


def policy_factory(policies: dict[str, Callable[..., Any]] | None) -> Callable[..., Any]:
    """The function the binding calls to make each port's policy object."""
    classes = dict(policies or {})

    def make(
        port: str, policy: str, params_json: str, rate_bps: int, transition_s: float, interval_s: float | None
    ) -> object:
        cls = classes[policy] if policy in classes else import_class(policy)
        params = json.loads(params_json) or {}
        return cls(PolicyPort(port, rate_bps, transition_s, interval_s), **params)

    return make


class PracticalRateAdaptation:
    """practRA (Nedevschi, Popa, Iannaccone, Ratnasamy, Wetherall, "Reducing network energy
    consumption via sleeping and rate-adaptation", NSDI 2008) written in Python: the engine's
    built-in ``practra`` controller step for step, so a scenario gives identical results with
    either (run it with ``per_packet = true`` and ``interval_s`` = the sample interval, default
    the minimum rate-change interval). A template for policies of one's own."""

    def __init__(
        self,
        port: PolicyPort,
        *,
        rates_bps: list[float],
        min_rate_change_interval_s: float,
        delay_bound_s: float = 0.010,
        ewma_weight: float = 0.25,
    ):
        self.rates = sorted({_whole_rate(rate) for rate in rates_bps})
        if port.rate_bps not in self.rates:
            raise ValueError(f"rates_bps must include the port's initial rate, {port.rate_bps} bit/s")
        if port.interval_s is None:
            raise ValueError("practRA samples the arrival rate every interval_s; set it")
        self.index = self.rates.index(port.rate_bps)
        self.delay_bound = delay_bound_s
        self.transition = port.transition_s
        self.min_interval_ps = math.floor(min_rate_change_interval_s * PS_PER_S + 0.5)
        self.weight = ewma_weight
        self.sample_interval_s = port.interval_s
        self.predicted_bps = float(self.rates[self.index])  # r̂_f starts at r_MAX
        self.last_change_ps: int | None = None
        self.arrived_at_last_sample = 0

    def observe(self, view: PortView) -> tuple[str, int] | None:
        if view.event == "tick":
            # Every T_s: a_k = bits arrived / T_s; r̂_f ← (1 − w)·r̂_f + w·a_k.
            bits = float(view.arrived_bytes - self.arrived_at_last_sample) * 8.0
            self.arrived_at_last_sample = view.arrived_bytes
            sample = bits / self.sample_interval_s
            self.predicted_bps = (1.0 - self.weight) * self.predicted_bps + self.weight * sample
        return self.decide(view.now_ps, view.queue_bits)

    def decide(self, now_ps: int, q_bits: int) -> tuple[str, int] | None:
        if self.last_change_ps is not None and now_ps - self.last_change_ps < self.min_interval_ps:
            return None
        q, d, delta, r_hat = float(q_bits), self.delay_bound, self.transition, self.predicted_bps
        i = self.index
        if i + 1 < len(self.rates) and (
            q / float(self.rates[i]) > d or (delta * r_hat + q) / float(self.rates[i + 1]) > d - delta
        ):
            self.index = i + 1  # step up iff q/r_i > d or (δ·r̂_f + q)/r_{i+1} > d − δ
        elif i > 0 and q_bits == 0 and r_hat < float(self.rates[i - 1]):
            self.index = i - 1  # step down iff q = 0 and r̂_f < r_{i−1}
        else:
            return None
        self.last_change_ps = now_ps
        return set_rate(self.rates[self.index])
