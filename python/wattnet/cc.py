"""Congestion control written in Python, run inside the engine's loop through the binding.

An algorithm is a class made once per connection, ``Class(connection, **params)``, with the
hooks of the engine's own algorithms (windows in segments):

- ``grow(ack, subflows)``: an ACK of new data outside loss recovery (slow start included);
  returns the new cwnd, or ``(cwnd, ssthresh)``;
- ``on_loss(signal, subflows)``: a fast retransmit (``signal.kind == "fast_retransmit"``) or a
  retransmission timeout (``"timeout"``); returns the new ssthresh. The sender then sets cwnd
  (ssthresh + 3 for fast recovery, 1 after a timeout);
- ``on_ecn(signal, subflows)`` (optional): an ECN-Echo (``"ecn"``); returns the new ssthresh,
  which also becomes cwnd. Without it, ``on_loss`` answers marks too;
- ``on_ack(ack, subflows)`` (optional): every ACK that advances snd_una, in recovery too
  (bookkeeping: RTT samples, marks);
- ``on_recovery_end(end, subflows)`` (optional): the subflow left loss recovery or restarts
  after a timeout (``end`` has ``now_s`` and ``now_ps``);
- ``initial_ssthresh`` (optional attribute): replaces the sender's initial ssthresh.

``ack`` has ``now_s``, ``now_ps``, ``acked`` (segments), ``rtt_s``/``rtt_ps`` (a Karn-safe
sample or None), ``ece``, ``snd_una`` and ``snd_nxt`` (segments). ``signal`` has ``kind``,
``now_s``, ``now_ps`` and ``flight`` (FlightSize in segments). ``subflows`` is the connection's
subflows: ``index`` (the acting one), ``cwnd`` and ``ssthresh`` (its window now), and
``subflows[i]`` each subflow's view, as a built-in coupled algorithm reads them. A scenario
names the class in a TCP flow::

    tcp = { congestion_control = { type = "external", algorithm = "mycc:Mine", params = { beta = 0.7 } } }

See docs/python-congestion-control.md for the cost of a call.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from wattnet.policy import import_class

if TYPE_CHECKING:
    from wattnet._engine import Ack, Signal, Subflows

REQUIRED_HOOKS = ("grow", "on_loss")


@dataclass(frozen=True)
class Connection:
    """The connection an algorithm object controls."""

    flow: str
    """The flow's name."""
    index: int
    """The connection's place among its flow's connections (0 for the first)."""
    subflows: int
    """How many subflows it has (1 for a single-path connection)."""


def algorithm_factory(algorithms: dict[str, Callable[..., Any]] | None) -> Callable[..., Any]:
    """The function the binding calls, at build time, for each flow whose congestion control is
    external: it checks the class and its parameters and returns the maker of the flow's
    connections' objects."""
    classes = dict(algorithms or {})

    def prepare(flow: str, algorithm: str, params_json: str) -> Callable[[int, int], object]:
        cls = (
            classes[algorithm] if algorithm in classes else import_class(algorithm, "congestion control", "algorithms")
        )
        missing = [hook for hook in REQUIRED_HOOKS if not callable(getattr(cls, hook, None))]
        if missing:
            raise TypeError(f"{cls.__qualname__} has no {' or '.join(missing)} method")
        params = json.loads(params_json) or {}
        inspect.signature(cls).bind(None, **params)  # a missing or unknown parameter, before the run

        def make(index: int, subflows: int) -> object:
            return cls(Connection(flow, index, subflows), **params)

        return make

    return prepare


class Reno:
    """Reno's window (RFC 5681 §3.1) written in Python: the engine's built-in ``reno``/``newreno``
    algorithm step for step, so a scenario gives identical results with either (the sender does
    the loss recovery: NewReno, RFC 6582, or SACK). A template for algorithms of one's own."""

    def __init__(self, connection: Connection):
        self.connection = connection

    def grow(self, ack: Ack, subflows: Subflows) -> float:
        cwnd, acked = subflows.cwnd, ack.acked
        # Slow start: +1 segment per segment acked, up to ssthresh.
        used = min(acked, max(subflows.ssthresh - cwnd, 0.0))
        cwnd += used
        left = acked - used
        if left > 0.0:
            cwnd += left / cwnd  # congestion avoidance: +1/cwnd per segment acked
        return cwnd

    def on_loss(self, signal: Signal, subflows: Subflows) -> float:
        return max(signal.flight / 2.0, 2.0)  # RFC 5681 eq. (4): max(FlightSize / 2, 2)
